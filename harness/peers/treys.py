"""Adapter for treys (PyPI ``treys``): Cactus Kev's five-card high evaluator in Python.

Claims
    ``nj-poker-high-5``, ``nj-caribbean-stud``, ``nj-winners-pot``: classify, compare,
    reject.  treys values five-card high hands only (six and seven cards are reduced to
    the best five, which no ruleset here asks for); it has no low, 2-7, three-card or
    wild-card game, so it claims none of them.  ``nj-holdem``, ``nj-seven-card-stud``:
    classify (five cards, or a player's seven, which treys values as their best five:
    what ``pokercert exhaustive`` sends in these games).  Its ranking is the practice reading of
    every interpretation that touches these rulesets (grouped tie-break, A-2-3-4-5 the
    lowest straight, suits never rank).

Categories
    ``Evaluator.class_to_string(get_rank_class(rank))``, treys's own classes, mapped by
    name: Royal Flush, Straight Flush, Four of a Kind, Full House, Flush, Straight,
    Three of a Kind, Two Pair, Pair, High Card.  treys has its own royal flush class
    (rank 1).  ``key`` is ``-rank`` (treys ranks 1 = best to 7462 = worst).

Why ``reject`` is claimed
    treys says "No input validation because that's cycles!" (``Evaluator.evaluate``).
    It answers a duplicated card as if the hand were valid (As As Kd Qc Jh is a pair of
    aces) and values six or seven cards as their best five; it fails with ``KeyError``
    when no table entry exists (four cards, five cards of one rank) or when its parser
    meets an unknown character (``Xx``, ``10s``, lower-case ranks), and with
    ``IndexError`` when its parser gets a one-character token (``Q``).  Claiming ``reject``
    lets the reject vectors show all of that: those exceptions are passed on as a
    refusal without a reason code (see :mod:`pokercert.harness.peers._library`), an answer
    to an invalid hand fails the vector.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import neg
from types import MappingProxyType

from treys import Card, Evaluator

from pokercert.harness.api import EvaluatorInfo, Hands
from pokercert.harness.peers._library import (
    FIVE_CARD_HIGH,
    SEVEN_CARD_HIGH,
    LibraryAnswerError,
    PeerEvaluator,
    batch_cards,
    by_code,
    code_array,
    distribution_info,
    lookup_all,
    refused,
)
from pokercert.reference.cards import DECK
from pokercert.reference.categories import CategoryName

CATEGORY = {  # the library's name -> ours (plain strings: they are answers)
    "Royal Flush": CategoryName.ROYAL_FLUSH.value,
    "Straight Flush": CategoryName.STRAIGHT_FLUSH.value,
    "Four of a Kind": CategoryName.FOUR_OF_A_KIND.value,
    "Full House": CategoryName.FULL_HOUSE.value,
    "Flush": CategoryName.FLUSH.value,
    "Straight": CategoryName.STRAIGHT.value,
    "Three of a Kind": CategoryName.THREE_OF_A_KIND.value,
    "Two Pair": CategoryName.TWO_PAIR.value,
    "Pair": CategoryName.ONE_PAIR.value,
    "High Card": CategoryName.HIGH_CARD.value,
}
# what treys raises on input it cannot value: its parser (Card.new) KeyError for an
# unknown character and IndexError for a one-character token, its evaluator KeyError
PARSER_ERRORS = (KeyError, IndexError)
LIBRARY_ERRORS = (KeyError,)


class TreysEvaluator(PeerEvaluator):
    """treys behind the in-process evaluator interface (see the module docstring)."""

    library = "treys"
    RULESETS = MappingProxyType({**FIVE_CARD_HIGH, **SEVEN_CARD_HIGH})

    def __init__(self) -> None:
        super().__init__()
        self.info: EvaluatorInfo = distribution_info("treys", "Will Drevo")
        self._evaluator = Evaluator()
        self._evaluate = self._evaluator.evaluate
        # treys's own integers for the 52 canonical spellings, computed by treys: by
        # spelling, and by position in CODED_CARDS (Hands.codes; no joker: treys has none)
        self._ints = {str(c): Card.new(str(c)) for c in DECK}
        self._canonical = self._ints.__getitem__
        self._by_code = by_code(self._ints)
        self._code_array = code_array(self._by_code)  # Hands.rows
        # our category for every rank treys documents (1..7462), from treys's own classes
        self._category = {
            rank: CATEGORY[name]
            for rank in range(1, 7463)
            if (name := self._class_name(rank)) in CATEGORY
        }

    def _class_name(self, rank: int) -> str:
        ev = self._evaluator
        name: str = ev.class_to_string(ev.get_rank_class(rank))  # treys: untyped
        return name

    def _parse(self, hand: list[str]) -> list[int]:
        """treys's parser (``Card.new``) on every token, as given; its errors refuse."""
        try:
            return [Card.new(c) for c in hand]
        except PARSER_ERRORS as exc:
            raise refused("treys", exc) from exc

    def _rank(self, hand: list[str]) -> int:
        try:
            ints = list(map(self._canonical, hand))
        except KeyError:  # a spelling other than the canonical 52: treys parses it
            ints = self._parse(hand)
        try:
            rank: int = self._evaluate(ints, [])  # treys: untyped
        except LIBRARY_ERRORS as exc:
            raise refused("treys", exc) from exc
        return rank

    def _category_of(self, rank: int) -> str:
        try:
            return self._category[rank]
        except (KeyError, TypeError):
            raise LibraryAnswerError(
                f"treys answered rank {rank!r}, which is not one of its classes"
            ) from None

    def key(self, hand: list[str]) -> int:
        """treys's value of the hand, negated so that larger is better."""
        return -self._rank(hand)

    def classify(self, hand: list[str]) -> str:
        # _rank inlined: this is the hot path of corpus runs
        try:
            ints = list(map(self._canonical, hand))
        except KeyError:
            ints = self._parse(hand)
        try:
            rank = self._evaluate(ints, [])
        except LIBRARY_ERRORS as exc:
            raise refused("treys", exc) from exc
        return self._category_of(rank)

    def evaluate(self, hand: list[str]) -> tuple[str, int]:
        """``(classify(hand), key(hand))`` from one treys evaluation."""
        rank = self._rank(hand)
        return self._category_of(rank), -rank

    def evaluate_many(self, hands: Sequence[list[str]]) -> tuple[list[str], list[int]]:
        """:meth:`evaluate` of every hand, as a list comprehension over treys's own call.

        The comprehension is the bare loop plus the card conversion (for a
        :class:`~pokercert.harness.api.Hands`, one lookup pass over its cards);
        should any hand need more (another spelling, a library error), the hands are
        asked again one by one through :meth:`evaluate`, which treats each exactly as a
        single call does (and raises for the first hand that fails).
        """
        canonical, evaluate = self._canonical, self._evaluate
        try:
            if isinstance(hands, Hands):
                n = hands.size
                ints = batch_cards(hands, self._by_code, self._code_array, self._ints)
                ranks = [evaluate(ints[i : i + n], []) for i in range(0, len(ints), n)]
            else:
                ranks = [evaluate(list(map(canonical, h)), []) for h in hands]
            categories = lookup_all(self._category, ranks)
        except Exception:
            pairs = [self.evaluate(h) for h in hands]
            return [c for c, _ in pairs], [k for _, k in pairs]
        return categories, list(map(neg, ranks))
