"""Adapter for eval7 (PyPI ``eval7``): a Cython five-to-seven-card high evaluator.

Claims
    ``nj-poker-high-5``, ``nj-caribbean-stud``, ``nj-winners-pot``: classify, compare,
    reject.  eval7 values high hands only (its equity tools are hold'em); it has no
    low, 2-7, three-card or wild-card game.  Its ranking is the practice reading of every
    interpretation on these rulesets.  ``nj-holdem``, ``nj-seven-card-stud``: classify
    (five cards, or a player's seven, valued by eval7 as their best five: what
    ``pokercert exhaustive`` sends in these games).

Categories
    ``eval7.handtype(eval7.evaluate(cards))``, eval7's own names, mapped by name: Straight
    Flush, Quads, Full House, Flush, Straight, Trips, Two Pair, Pair, High Card.  eval7
    has no royal flush type; the adapter calls a straight flush a royal flush when eval7
    gives it the same value as it gives A-K-Q-J-10 of spades (the value eval7 itself
    computes when the adapter starts), i.e. by eval7's own equality.  ``key`` is
    eval7's value (larger is better).

Why ``reject`` is claimed
    eval7's ``Card`` refuses a string it cannot parse (``ValueError``: ``Xx``, ``10s``,
    ``AS``; ``IndexError``: ``Q``); that refusal is passed on without a reason code.
    Nothing else is refused: ``evaluate`` does not notice a duplicated card (As As Kd Qc
    Jh comes back as a "Pair", one that loses to a pair of kings; five aces of spades as
    a "Full House") and values any number of cards (four aces are "Quads"; three cards,
    or none, "High Card").  Those answers fail the reject vectors, as they should.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType

import eval7

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
    refused,
)
from pokercert.reference.cards import DECK
from pokercert.reference.categories import CategoryName

CATEGORY = {  # the library's name -> ours (plain strings: they are answers)
    "Straight Flush": CategoryName.STRAIGHT_FLUSH.value,
    "Quads": CategoryName.FOUR_OF_A_KIND.value,
    "Full House": CategoryName.FULL_HOUSE.value,
    "Flush": CategoryName.FLUSH.value,
    "Straight": CategoryName.STRAIGHT.value,
    "Trips": CategoryName.THREE_OF_A_KIND.value,
    "Two Pair": CategoryName.TWO_PAIR.value,
    "Pair": CategoryName.ONE_PAIR.value,
    "High Card": CategoryName.HIGH_CARD.value,
}
ROYAL = ("As", "Ks", "Qs", "Js", "Ts")
# what eval7 raises from Card() on a string it cannot parse: ValueError for an unknown
# rank or suit, IndexError for a one-character token
LIBRARY_ERRORS = (ValueError, IndexError)


class Eval7Evaluator(PeerEvaluator):
    """eval7 behind the in-process evaluator interface (see the module docstring)."""

    library = "eval7"
    RULESETS = MappingProxyType({**FIVE_CARD_HIGH, **SEVEN_CARD_HIGH})

    def __init__(self) -> None:
        super().__init__()
        self.info: EvaluatorInfo = distribution_info("eval7", "Julian Andrews")
        # eval7's own cards for the 52 canonical spellings, parsed by eval7; any other
        # spelling is parsed (or refused) by eval7.Card when it comes
        self._cards: dict[str, eval7.Card] = {str(c): eval7.Card(str(c)) for c in DECK}
        self._by_code = by_code(self._cards)  # Hands.codes
        self._code_array = code_array(self._by_code)  # Hands.rows
        self._royal = eval7.evaluate([eval7.Card(c) for c in ROYAL])
        self._known: dict[int, str] = {}  # eval7 value -> our category

    def _card(self, token: str) -> eval7.Card:
        card = self._cards.get(token)
        if card is None:
            card = self._cards[token] = eval7.Card(token)
        return card

    def _value(self, hand: list[str]) -> int:
        try:
            cards = [self._card(c) for c in hand]
        except LIBRARY_ERRORS as exc:
            raise refused("eval7", exc) from exc
        value: int = eval7.evaluate(cards)  # eval7: untyped (Cython)
        return value

    def key(self, hand: list[str]) -> int:
        """eval7's value of the hand (larger is better)."""
        return self._value(hand)

    def _category_of(self, value: int) -> str:
        name = eval7.handtype(value)
        if name not in CATEGORY:
            raise LibraryAnswerError(f"eval7 named an unknown hand type {name!r} for value {value}")
        category = CATEGORY[name]
        if category == CategoryName.STRAIGHT_FLUSH and value == self._royal:
            return CategoryName.ROYAL_FLUSH.value
        return category

    def _categories_of(self, values: list[int]) -> list[str]:
        """:meth:`_category_of` of each value, each distinct value asked once (eval7 has
        at most 7,462 of them; a batch of thousands of hands repeats them)."""
        known = self._known
        try:
            return list(map(known.__getitem__, values))
        except KeyError:
            for value in set(values).difference(known):
                known[value] = self._category_of(value)
            return list(map(known.__getitem__, values))

    def classify(self, hand: list[str]) -> str:
        return self._category_of(self._value(hand))

    def evaluate(self, hand: list[str]) -> tuple[str, int]:
        """``(classify(hand), key(hand))`` from one eval7 evaluation."""
        value = self._value(hand)
        return self._category_of(value), value

    def evaluate_many(self, hands: Sequence[list[str]]) -> tuple[list[str], list[int]]:
        """:meth:`evaluate` of every hand, as a list comprehension over eval7's own call
        (cards from the adapter's table of the ones already parsed by ``eval7.Card``;
        for a :class:`~pokercert.harness.api.Hands`, one gather over its rows or one
        pass over its codes); should any hand need more, the hands are asked again one by one."""
        cards, evaluate = self._cards.__getitem__, eval7.evaluate
        try:
            if isinstance(hands, Hands):
                n = hands.size
                parsed = batch_cards(hands, self._by_code, self._code_array, self._cards)
                # each hand a tuple of n cards, the loop in C (eval7 takes any sequence)
                values = list(map(evaluate, zip(*[iter(parsed)] * n, strict=True)))
            else:
                values = [evaluate(list(map(cards, h))) for h in hands]
            categories = self._categories_of(values)
        except Exception:
            pairs = [self.evaluate(h) for h in hands]
            return [c for c, _ in pairs], [k for _, k in pairs]
        return categories, values
