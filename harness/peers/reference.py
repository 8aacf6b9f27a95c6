"""The reference engine as a :class:`~pokercert.harness.api.PokerEvaluator` (adapter ``reference``).

It claims every ruleset, validates every input with the one card parser and refuses bad
input with the parser's reason code, so a run of the corpus against it is the suite's
own consistency check: anything but PASS there is a bug in the corpus or the engine.
"""

from __future__ import annotations

from collections.abc import Sequence

from pokercert.harness import __version__
from pokercert.harness.api import EvaluatorInfo, Rejected
from pokercert.reference import CardError, Evaluator, Profile, all_rulesets, evaluator
from pokercert.vectors.model import KINDS, Kind


class ReferenceEvaluator:
    """Every ruleset of the suite, answered by :mod:`pokercert.reference.engine`."""

    info = EvaluatorInfo(vendor="pokercert", name="pokercert-reference", version=__version__,
                         build="")
    adapter_version = __version__

    def __init__(self) -> None:
        self._ev: Evaluator | None = None

    def capabilities(self) -> dict[str, list[str]]:
        caps = {}
        for rs in all_rulesets():
            caps[rs.id] = [k for k in KINDS
                           if k != Kind.BEST_HAND or rs.selection is not None]
        return caps

    def configure(self, ruleset: str, readings: dict[str, str]) -> None:
        profile = Profile("adapter", dict(readings))
        self._ev = evaluator(ruleset, profile)

    @property
    def engine(self) -> Evaluator:
        if self._ev is None:
            raise RuntimeError("configure() was not called")
        return self._ev

    # The engine parses a card string faster than a token list (one tokenizing pass), and
    # tokens never hold spaces, so joining them changes nothing but the speed.
    def classify(self, hand: list[str]) -> str:
        try:
            return self.engine.category(" ".join(hand))
        except CardError as exc:
            raise Rejected(exc.code, str(exc)) from None

    def key(self, hand: list[str]) -> tuple[int, ...]:
        """The engine's key of the hand (larger is better in the game's own direction)."""
        return self.evaluate(hand)[1]

    def evaluate(self, hand: list[str]) -> tuple[str, tuple[int, ...]]:
        """Category and key of one hand, from one parse and one valuation."""
        try:
            value = self.engine.evaluate(" ".join(hand))
        except CardError as exc:
            raise Rejected(exc.code, str(exc)) from None
        return value.category, value.key

    def evaluate_many(self, hands: Sequence[list[str]]) \
            -> tuple[list[str], list[tuple[int, ...]]]:
        """:meth:`evaluate` of every hand: the scalar engine, hand by hand (so that an
        exhaustive run of the reference checks the engine against the batch path)."""
        evaluate = self.engine.evaluate
        try:
            values = [evaluate(" ".join(h)) for h in hands]
        except CardError as exc:
            raise Rejected(exc.code, str(exc)) from None
        return [v.category for v in values], [v.key for v in values]

    def winners(self, hands: list[list[str]], board: list[str] | None = None) -> list[int]:
        try:
            return self.engine.winners([" ".join(h) for h in hands],
                                       " ".join(board) if board is not None else None)
        except CardError as exc:
            raise Rejected(exc.code, str(exc)) from None

    def best_hand(self, hole: list[str], board: list[str]) -> tuple[list[str], str]:
        try:
            found = self.engine.best_hand(" ".join(hole), " ".join(board))
        except CardError as exc:
            raise Rejected(exc.code, str(exc)) from None
        return [str(c) for c in found.cards], found.category
