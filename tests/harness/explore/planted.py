"""Compare-only evaluators with planted bugs, for the compare path's regression test.

Each is :class:`tests.helpers.faux.compare_only.CompareOnly` (the reference's order,
compare only) with one mistake:

* ``KickerBlind``: a one-pair hand is valued by its pair alone (3-3-A ties 3-3-2):
  classes merged, so neighbours in one place;
* ``SuitBreaksTies``: hands the reference ties are told apart by the suit of their first
  card (spades best): every class split;
* ``LowCardsFirst``: high-card hands compared from their lowest card up: a consistent
  order that breaks the reference's into many runs;
* ``Intransitive``: a pair beats a high-card hand only when their first cards' ranks sum
  to an even number, else loses: an order no sort can agree with.
"""

from __future__ import annotations

from typing import Any

from pokercert.harness.api import EvaluatorInfo
from tests.helpers.faux.compare_only import CompareOnly

RANKS = "23456789TJQKA"


class KickerBlind(CompareOnly):
    info = EvaluatorInfo(vendor="tests", name="kicker-blind", version="1")

    def _key(self, hand: list[str]) -> Any:
        value = self.ev.evaluate(hand)
        if value.category == "one_pair":
            ranks = [c[0] for c in hand]
            pair = next(r for r in ranks if ranks.count(r) == 2)
            return (value.key[0], RANKS.index(pair))
        return value.key


class SuitBreaksTies(CompareOnly):
    info = EvaluatorInfo(vendor="tests", name="suit-breaks-ties", version="1")

    def _key(self, hand: list[str]) -> Any:
        return (self.ev.evaluate(hand).key, "cdhs".index(sorted(hand)[0][1]))


class Intransitive(CompareOnly):
    info = EvaluatorInfo(vendor="tests", name="intransitive", version="1")

    def winners(self, hands: list[list[str]], board: list[str] | None = None) -> list[int]:
        values = [self.ev.evaluate(h) for h in hands]
        cats = [v.category for v in values]
        if sorted(cats) == ["high_card", "one_pair"]:
            even = (RANKS.index(hands[0][0][0]) + RANKS.index(hands[1][0][0])) % 2 == 0
            pair = cats.index("one_pair")
            return [pair if even else 1 - pair]
        return super().winners(hands, board)


class LowCardsFirst(CompareOnly):
    info = EvaluatorInfo(vendor="tests", name="low-cards-first", version="1")

    def _key(self, hand: list[str]) -> Any:
        value = self.ev.evaluate(hand)
        if value.category == "high_card":
            return (value.key[0], *reversed(value.key[1:]))
        return value.key
