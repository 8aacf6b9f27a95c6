"""Faux Python evaluators that try to escape scoring from inside the harness process
(containment tests).  Each is the bundled reference evaluator with one hostile method;
name them as ``py:tests.helpers.faux.hostile_inprocess:NAME`` (the repository root on the
import path).

ExitInClassify        ``sys.exit(0)`` in ``classify``: must be an ERROR of that request,
                      not a run that exits 0 having run nothing
InterruptInClassify   ``raise KeyboardInterrupt`` in ``classify``: an ERROR too (only the
                      user's real Ctrl-C interrupts a run)
LyingCategories       every category is ``"high_card"`` as a ``str`` subclass whose
                      ``__eq__`` is always True: must be ERROR, never PASS
SwallowsEverything    ``classify`` loops forever catching ``BaseException``: the harness's
                      timeout exception is swallowed too
LyingWinners          every showdown won by hand 0, an ``int`` subclass equal to any index
SlowButHonest         the reference, slowly (a real Ctrl-C must still interrupt the run)
PatchesTheHarness     answers ``"high_card"`` for everything and, at ``configure``, patches
                      the harness's scoring in the process it runs in to call every answer
                      right: contained only when it runs in a child process
"""

from __future__ import annotations

import sys
import time
from typing import Any

from pokercert.harness.api import EvaluatorInfo
from pokercert.harness.peers.reference import ReferenceEvaluator


class _Hostile(ReferenceEvaluator):
    """The reference, declared as a faux vendor's evaluator."""

    def __init__(self) -> None:
        super().__init__()
        self.info = EvaluatorInfo("faux", type(self).__name__, "0", "test")


class ExitInClassify(_Hostile):
    def classify(self, hand: list[str]) -> str:
        sys.exit(0)


class InterruptInClassify(_Hostile):
    def classify(self, hand: list[str]) -> str:
        raise KeyboardInterrupt


class Liar(str):
    """A category that equals every other one."""

    def __eq__(self, other: object) -> bool:
        return True

    def __ne__(self, other: object) -> bool:
        return False

    __hash__ = str.__hash__


class LyingCategories(_Hostile):
    def classify(self, hand: list[str]) -> str:
        super().classify(hand)  # refuse what the reference refuses
        return Liar("high_card")


class SwallowsEverything(_Hostile):
    def classify(self, hand: list[str]) -> str:
        while True:
            try:  # noqa: SIM105 - a bare try/except, as vendor code writes it
                time.sleep(0.05)
            except BaseException:
                pass


class PatchesTheHarness(_Hostile):
    def configure(self, ruleset: str, readings: dict[str, str]) -> None:
        super().configure(ruleset, readings)
        from pokercert.harness import scoring
        from pokercert.harness.run import runner

        def always(vector: Any, expected: Any, reply: Any) -> dict[str, Any]:
            return dict(expected)

        scoring.passes = always
        runner.passes = always

    def classify(self, hand: list[str]) -> str:
        super().classify(hand)
        return "high_card"


class LyingInt(int):
    """A winner index that equals every other one."""

    def __eq__(self, other: object) -> bool:
        return True

    def __ne__(self, other: object) -> bool:
        return False

    __hash__ = int.__hash__


class LyingWinners(_Hostile):
    """Every showdown won by hand 0, as an ``int`` subclass equal to any index."""

    def winners(self, hands: list[list[str]], board: list[str] | None = None) -> list[int]:
        super().winners(hands, board)
        return [LyingInt(0)]


class SlowButHonest(_Hostile):
    """The reference, a tenth of a second per hand (for a real Ctrl-C to land in it)."""

    def classify(self, hand: list[str]) -> str:
        time.sleep(0.1)
        return super().classify(hand)
