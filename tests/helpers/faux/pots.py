"""Faux Python evaluators that settle pots (showdown tests), each with one habit.

Each answers ``showdown`` from a small table of hand-worked pots (the deals of
``tests/helpers/harness_vectors.py``'s SHOWDOWNS), never from the reference engine;
name them as ``py:tests.helpers.faux.pots:NAME``.

Fractions        shares as :class:`fractions.Fraction`, ``low`` None: right
Spelled          shares as strings spelled unreduced (``"2/4"``), a mapping: right
WrongShare       the right winners, but the pot split 2/3 and 1/3 where it is equal
DecimalShares    shares written ``"0.5"``: not the protocol's fractions
ShortShares      one share fewer than hands
NoShowdown       an evaluator written before the showdown kind: it claims none
HalfAware        best_hand with a ``half``: answers which half it was asked for
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, ClassVar

from pokercert.harness.api import EvaluatorInfo
from tests.helpers.harness_vectors import SHOWDOWN_POTS

RULESET = "nj-poker-high-5"


class Fractions:
    """Settles the hand-worked deals it knows; the pot as Fractions, no low half."""

    kinds: ClassVar[list[str]] = ["showdown"]

    def __init__(self) -> None:
        self.info = EvaluatorInfo("faux", type(self).__name__, "0", "test")

    def capabilities(self) -> dict[str, list[str]]:
        return {RULESET: list(self.kinds), "nj-mini-tex-3": ["best_hand"]}

    def configure(self, ruleset: str, readings: dict[str, str]) -> None:
        self.ruleset = ruleset

    def _pot(self, hands: list[list[str]]) -> tuple[list[int], list[Fraction]]:
        high, shares = SHOWDOWN_POTS[tuple(" ".join(h) for h in hands)]
        return list(high), [Fraction(s) for s in shares]

    def showdown(self, hands: list[list[str]], board: list[str] | None = None) -> Any:
        high, shares = self._pot(hands)
        return _Pot(high, None, shares)

    def best_hand(
        self, hole: list[str], board: list[str] | None = None, half: str = "high"
    ) -> tuple[list[str], str]:
        return ["As", "Ks", "Qs"], "straight_flush"


class _Pot:
    def __init__(self, high: Any, low: Any, shares: Any) -> None:
        self.high, self.low, self.shares = high, low, shares


class Spelled(Fractions):
    def showdown(self, hands: list[list[str]], board: list[str] | None = None) -> Any:
        high, shares = self._pot(hands)
        return {
            "high": high,
            "low": [],
            "shares": [f"{s.numerator * 2}/{s.denominator * 2}" for s in shares],
        }


class WrongShare(Fractions):
    def showdown(self, hands: list[list[str]], board: list[str] | None = None) -> Any:
        high, shares = self._pot(hands)
        if len(high) == 2:
            shares = [
                Fraction(2, 3) if i == high[0] else Fraction(1, 3) if i == high[1] else Fraction(0)
                for i in range(len(shares))
            ]
        return _Pot(high, None, shares)


class DecimalShares(Fractions):
    def showdown(self, hands: list[list[str]], board: list[str] | None = None) -> Any:
        high, shares = self._pot(hands)
        return _Pot(high, None, [str(float(s)) for s in shares])


class ShortShares(Fractions):
    def showdown(self, hands: list[list[str]], board: list[str] | None = None) -> Any:
        high, shares = self._pot(hands)
        return _Pot(high, None, shares[:-1])


class NoShowdown(Fractions):
    kinds: ClassVar[list[str]] = ["classify"]

    def classify(self, hand: list[str]) -> str:
        return "royal_flush"


class HalfAware(Fractions):
    """Its best_hand says which half it was asked for through the category it names."""

    def best_hand(
        self, hole: list[str], board: list[str] | None = None, half: str = "high"
    ) -> tuple[list[str], str]:
        return ["As", "Ks", "Qs"], "straight_flush" if half == "high" else "high_card"
