"""Evaluators that can only compare (in process): no category names, no key.

    py:tests.helpers.faux.compare_only:CompareOnly          built on the reference
    py:tests.helpers.faux.compare_only:FlushOverStraight    a planted order bug
    py:tests.helpers.faux.compare_only:KeyedFlushOverStraight   the same bug, with a key

Like the compare kernels of some libraries (pokerface, the low kernels of poker-equity),
they claim only ``compare`` for three- and five-card high poker.  ``FlushOverStraight``
ranks a flush above a straight in three-card high, where 13:69F-14.3(c) puts the straight
above (the five-card order, carried over by mistake); ``KeyedFlushOverStraight`` is the
same evaluator with ``classify`` (right) and ``key`` (the same order), so the compare-only
path can be held to what the key path finds.
"""

from __future__ import annotations

from typing import Any

from pokercert.harness.api import EvaluatorInfo, Rejected
from pokercert.reference import CardError, evaluator

RULESETS = ("nj-poker-high-3", "nj-poker-high-5")


class CompareOnly:
    info = EvaluatorInfo(vendor="tests", name="compare-only", version="1")

    def __init__(self) -> None:
        self.ev = evaluator(RULESETS[0])

    def capabilities(self) -> dict[str, list[str]]:
        return {rid: ["compare"] for rid in RULESETS}

    def configure(self, ruleset: str, readings: dict[str, str]) -> None:
        self.ev = evaluator(ruleset)

    def _key(self, hand: list[str]) -> Any:
        return self.ev.evaluate(hand).key

    def winners(self, hands: list[list[str]], board: list[str] | None = None) -> list[int]:
        try:
            keys = [self._key(h) for h in hands]
        except CardError as exc:
            raise Rejected(exc.code, str(exc)) from None
        best = max(keys)
        return [i for i, k in enumerate(keys) if k == best]


class FlushOverStraight(CompareOnly):
    info = EvaluatorInfo(vendor="tests", name="flush-over-straight", version="1")

    def _key(self, hand: list[str]) -> Any:
        value = self.ev.evaluate(hand)
        names = list(self.ev.categories)  # best first
        if self.ev.ruleset.hand_size == 3:
            f, s = names.index("flush"), names.index("straight")
            names[f], names[s] = names[s], names[f]
        return (-names.index(value.category), value.key)


class KeyedFlushOverStraight(FlushOverStraight):
    info = EvaluatorInfo(vendor="tests", name="keyed-flush-over-straight", version="1")

    def capabilities(self) -> dict[str, list[str]]:
        return {rid: ["classify", "compare"] for rid in RULESETS}

    def classify(self, hand: list[str]) -> str:
        return self.ev.category(hand)

    def key(self, hand: list[str]) -> Any:
        return self._key(hand)
