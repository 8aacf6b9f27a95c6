"""Adapter for phevaluator (PyPI ``phevaluator``): the PH Evaluator perfect-hash evaluator (C).

Claims
    ``nj-poker-high-5``, ``nj-caribbean-stud``, ``nj-winners-pot``: classify, compare,
    reject.  phevaluator values five-card high hands (six and seven cards, and Omaha, are
    reduced to the best five); it has no low, 2-7, three-card or wild-card game.  Its
    ranking is the practice reading of every interpretation on these rulesets.

Categories
    ``evaluate_cards`` returns a rank "identical to the return value of Cactus Kev's
    evaluator: 1 is the best possible hand (a Royal Straight Flush) and 7462 is the
    worst" (phevaluator's README).  The Python package exposes no category function, so
    the adapter reads the category off Cactus Kev's published rank bands (the ones the
    PH Evaluator C library's ``get_rank_category`` uses): 1 royal flush, 2-10 straight
    flush, 11-166 four of a kind, 167-322 full house, 323-1599 flush, 1600-1609 straight,
    1610-2467 three of a kind, 2468-3325 two pair, 3326-6185 one pair, 6186-7462 high
    card.  A rank outside 1..7462 is no answer: classify raises
    :class:`~pokercert.harness.peers._library.LibraryAnswerError` naming it (an ERROR).
    ``key`` is ``-rank``.

Why ``reject`` is claimed
    phevaluator refuses some invalid input itself: ``ValueError`` for fewer than five or
    more than seven cards and for card strings that are not two characters long, and
    ``KeyError`` from its parser for an unknown rank or suit letter (``Xx``).  It does not
    look for duplicates: As As Kd Qc Jh comes back as a pair of aces, and hands such as
    As As Ks Qs Js or five aces of spades come back as rank 0, outside its own range.
    Those refusals are passed on without a reason code; the answers fail the reject
    vectors.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Sequence
from types import MappingProxyType
from typing import Any

from phevaluator.card import Card
from phevaluator.evaluator import evaluate_cards
from phevaluator.evaluator_omaha import evaluate_omaha_cards

try:  # the C functions evaluate_cards calls for 5, 6 and 7 card ids (phevaluator >= 0.6)
    from phevaluator import _pheval
except ImportError:  # pragma: no cover - a build without the extension module
    _pheval = None

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
    split_pot,
)
from pokercert.reference.cards import DECK
from pokercert.reference.categories import CategoryName
from pokercert.vectors.model import Kind

# Cactus Kev's rank bands: (last rank of the band, category), best first
# (plain strings: they are answers)
BANDS = (
    (1, CategoryName.ROYAL_FLUSH.value),
    (10, CategoryName.STRAIGHT_FLUSH.value),
    (166, CategoryName.FOUR_OF_A_KIND.value),
    (322, CategoryName.FULL_HOUSE.value),
    (1599, CategoryName.FLUSH.value),
    (1609, CategoryName.STRAIGHT.value),
    (2467, CategoryName.THREE_OF_A_KIND.value),
    (3325, CategoryName.TWO_PAIR.value),
    (6185, CategoryName.ONE_PAIR.value),
    (7462, CategoryName.HIGH_CARD.value),
)
_LAST = [last for last, _ in BANDS]
# what phevaluator raises from evaluate_cards and its card parser on input it refuses
LIBRARY_ERRORS = (ValueError, KeyError)
OMAHA = "nj-omaha"


def category_of_rank(rank: int) -> str:
    """The Cactus Kev category of a rank in 1..7462."""
    if not 1 <= rank <= _LAST[-1]:
        raise LibraryAnswerError(
            f"phevaluator answered rank {rank}, outside its documented range 1..{_LAST[-1]}"
        )
    return BANDS[bisect_left(_LAST, rank)][1]


# the same bands spread over every rank, for one lookup per hand on the exhaustive path
_BY_RANK = {rank: category_of_rank(rank) for rank in range(1, _LAST[-1] + 1)}


def c_entry(size: int) -> Callable[..., int] | None:
    """phevaluator's C function for ``size`` card ids (what ``evaluate_cards`` calls once
    it has turned its arguments into ids and checked their number), None where the
    installed phevaluator has none."""
    found: Callable[..., int] | None = getattr(_pheval, f"evaluate_{size}cards", None)
    return found


class PhevaluatorEvaluator(PeerEvaluator):
    """phevaluator behind the in-process evaluator interface (see the module docstring)."""

    library = "phevaluator"
    # the seven-card games' pots only (its classify of seven cards is not claimed: the
    # seven-card exhaustive pass runs eval7 and treys there)
    RULESETS = MappingProxyType(
        {
            **FIVE_CARD_HIGH,
            **{r: (Kind.SHOWDOWN.value,) for r in SEVEN_CARD_HIGH},
            OMAHA: (Kind.SHOWDOWN.value,),
        }
    )

    def __init__(self) -> None:
        super().__init__()
        self.info: EvaluatorInfo = distribution_info("phevaluator", "Henry Lee")
        # phevaluator's ids of the 52 canonical spellings, computed by its own Card.to_id
        # (evaluate_cards takes ids as they are); any other spelling goes to it as given
        self._ids = {str(c): Card.to_id(str(c)) for c in DECK}
        self._by_code = by_code(self._ids)  # Hands.codes
        self._code_array = code_array(self._by_code)  # Hands.rows

    def _rank(self, hand: list[str]) -> int:
        try:
            rank: int = evaluate_cards(*hand)  # phevaluator: untyped
        except LIBRARY_ERRORS as exc:
            raise refused("phevaluator", exc) from exc
        return rank

    def key(self, hand: list[str]) -> int:
        """phevaluator's rank of the hand, negated so that larger is better."""
        return -self._rank(hand)

    def classify(self, hand: list[str]) -> str:
        return category_of_rank(self._rank(hand))

    def evaluate(self, hand: list[str]) -> tuple[str, int]:
        """``(classify(hand), key(hand))`` from one phevaluator call."""
        rank = self._rank(hand)
        return category_of_rank(rank), -rank

    def evaluate_many(self, hands: Sequence[list[str]]) -> tuple[list[str], list[int]]:
        """:meth:`evaluate` of every hand.  For a :class:`~pokercert.harness.api.Hands`,
        its cards become phevaluator's ids through one table and go to phevaluator's C
        function for the hand size (:func:`c_entry`, ``evaluate_cards`` without its
        per-card Python conversion), mapped over the batch's ids column by column, so
        the loop itself runs in C; without that function, ``evaluate_cards`` on slices.
        Should any hand fail, the hands are asked again one by one through
        :meth:`evaluate` (which raises for the first one that fails)."""
        try:
            if isinstance(hands, Hands):  # phevaluator's own card ids, one lookup per card
                n, native = hands.size, c_entry(hands.size)
                if native is not None and hands.rows is not None and self._code_array is not None:
                    # column j: card j of every hand, gathered from the batch's rows
                    ids_of = self._code_array[hands.rows]
                    ranks = list(map(native, *(ids_of[:, j].tolist() for j in range(n))))
                    categories = lookup_all(_BY_RANK, ranks)
                    return categories, [-r for r in ranks]
                ids = batch_cards(hands, self._by_code, self._code_array, self._ids)
                if native is not None:  # column j: card j of every hand
                    ranks = list(map(native, *(ids[j::n] for j in range(n))))
                else:
                    ranks = [evaluate_cards(*ids[i : i + n]) for i in range(0, len(ids), n)]
            else:
                ranks = [evaluate_cards(*h) for h in hands]
            categories = lookup_all(_BY_RANK, ranks)
        except Exception:
            pairs = [self.evaluate(h) for h in hands]
            return [c for c, _ in pairs], [k for _, k in pairs]
        return categories, [-r for r in ranks]

    def showdown(self, hands: list[list[str]], board: list[str] | None = None) -> dict[str, Any]:
        """Omaha pots from ``evaluate_omaha_cards`` (the five board cards, then the four
        hole cards: it takes exactly two of them and three of the board); the seven-card
        games as every library does."""
        if self._ruleset() != OMAHA:
            return super().showdown(hands, board)
        table = list(board) if board is not None else []
        try:
            ranks = [evaluate_omaha_cards(*table, *h) for h in hands]
        except LIBRARY_ERRORS as exc:
            raise refused("phevaluator", exc) from exc
        return split_pot([[-r for r in ranks]])
