"""Adapter for PokerKit (PyPI ``pokerkit``): the University of Toronto poker library.

Claims (classify, compare and reject on each; best_hand where noted)
    ========================  ===================================  =====================
    ruleset                   PokerKit hand type                   what it is
    ========================  ===================================  =====================
    nj-poker-high-5           ``StandardHighHand``                 five-card high
    nj-caribbean-stud         ``StandardHighHand``                 five-card high
    nj-winners-pot            ``StandardHighHand``                 five-card high
    nj-poker-low-5            ``RegularLowHand``                   ace-to-five low
    nj-lowball-2-7            ``StandardLowHand``                  deuce-to-seven low
    nj-poker-high-3           ``RhodeIslandHoldemHand``            three-card high
    nj-mini-tex-3             ``RhodeIslandHoldemHand``            three-card high, and
                                                                   best_hand (from_game)
    nj-holdem                 ``StandardHighHand.from_game``       showdown only
    nj-omaha                  ``OmahaHoldemHand.from_game``        showdown only
    nj-omaha-hi-lo            ``OmahaHoldemHand``, ``Omaha-        showdown only
                              EightOrBetterLowHand`` (from_game)
    nj-seven-card-stud        ``StandardHighHand.from_game``       showdown only
    nj-stud-hi-lo             ``StandardHighHand``,                showdown only
                              ``EightOrBetterLowHand`` (from_game)
    nj-razz                   ``RegularLowHand.from_game``         showdown only
    ========================  ===================================  =====================

    ``RegularLowHand`` ignores straights and flushes and plays the ace low (A-2-3-4-5 is
    the best hand, A-A the best pair); ``StandardLowHand`` counts straights and flushes,
    its straights do not wrap, so A-2-3-4-5 is an ace-high no-pair hand (the practice
    reading of ``lowball-wheel``).  ``RhodeIslandHoldemHand`` ranks three cards straight
    flush > three of a kind > straight > flush > pair > high card, with A-2-3 the lowest
    straight and no K-A-2, exactly the order of 13:69F-14.3(c) and 13:69F-37.5(b).
    Not claimed: nj-poker-low-3 (PokerKit has no three-card low), nj-mini-tex-pocket (no
    two-card game with these hands), mt-poker-high and mt-poker-low (no wild cards).
    Every claimed ranking is the practice reading of its interpretations.

    For best_hand in Mini-tex the adapter calls ``RhodeIslandHoldemHand.from_game(hole,
    board)``, which takes the best three of all five cards: unlike 13:69F-37.5(a) it may
    use the board alone.  That is PokerKit's behaviour, and the vectors show it.

Categories
    PokerKit's ``Label`` of the hand's lookup entry, mapped by name (High card, One pair,
    Two pair, Three of a kind, Straight, Flush, Full house, Four of a kind, Straight
    flush).  PokerKit has no royal flush label; where the ruleset has a royal flush the
    adapter calls a straight flush royal when PokerKit holds it equal (its own ``==``) to
    A-K-Q-J-10 (A-K-Q in three cards) of spades.  ``key`` is the index of the hand's
    lookup entry, negated in low games: PokerKit documents that "stronger hands have
    either a greater or less (depending on whether using a high/low hand) index", and
    its own comparison operators order hands exactly so.

Why ``reject`` is claimed
    PokerKit refuses what it cannot value with ``ValueError`` ("The cards ... form an
    invalid StandardHighHand hand" for a wrong card count or five cards of one rank;
    "'X' is not a valid Rank" from its parser), and its lookups raise ``KeyError`` for
    the unknown card ``??`` its parser accepts.  Those refusals are passed on without a
    reason code.  It does not look for duplicates: As As Kd Qc Jh is a pair of aces.
    Its parser also reads ``10s`` as the ten of spades, and one token such as ``AsKs``
    as two cards; the adapter hands every token to that parser as given.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter, neg
from types import MappingProxyType
from typing import Any

from pokerkit import (
    Card,
    CombinationHand,
    EightOrBetterLowHand,
    Hand,
    Label,
    OmahaEightOrBetterLowHand,
    OmahaHoldemHand,
    RegularLowHand,
    RhodeIslandHoldemHand,
    StandardHighHand,
    StandardLowHand,
)

from pokercert.harness.api import EvaluatorInfo, Hands
from pokercert.harness.peers._library import (
    PeerEvaluator,
    best_of,
    by_code,
    category_names,
    chunks,
    distribution_info,
    lookup_all,
    refused,
    split_pot,
)
from pokercert.reference.cards import DECK
from pokercert.reference.categories import CategoryName
from pokercert.vectors.model import BASIC_KINDS, Kind

BASIC = tuple(k for k in BASIC_KINDS if k != Kind.BEST_HAND)
HAND_TYPE: dict[str, type[CombinationHand]] = {
    "nj-poker-high-5": StandardHighHand,
    "nj-caribbean-stud": StandardHighHand,
    "nj-winners-pot": StandardHighHand,
    "nj-poker-low-5": RegularLowHand,
    "nj-lowball-2-7": StandardLowHand,
    "nj-poker-high-3": RhodeIslandHoldemHand,
    "nj-mini-tex-3": RhodeIslandHoldemHand,
    # table games: three-card poker ranks as Rhode Island hold'em does (straight flush,
    # trips, straight, flush, pair); the two five-card payout games as standard high
    "nj-three-card-poker": RhodeIslandHoldemHand,
    "nj-double-down-stud": StandardHighHand,
    "nj-double-cross-poker": StandardHighHand,
    # the Pennsylvania five-card games rank as five-card high poker (655a.6, 669a.6,
    # 653a.6); no peer plays the four-card games or High Card Flush
    "pa-mississippi-stud": StandardHighHand,
    "pa-raise-it-up-stud": StandardHighHand,
    "pa-ultimate-texas-holdem": StandardHighHand,
}
BEST_HAND = frozenset({"nj-mini-tex-3"})
# the poker-room games: ruleset -> (high hand type, low hand type), None where the game
# has no such half; each type's ``from_game(hole, board)`` picks the best hand the game
# allows (Omaha: exactly two hole cards; the eight-or-better types raise ValueError
# when no low qualifies)
ROOM_GAMES: dict[str, tuple[type[Hand] | None, type[Hand] | None]] = {
    "nj-holdem": (StandardHighHand, None),
    "nj-omaha": (OmahaHoldemHand, None),
    "nj-omaha-hi-lo": (OmahaHoldemHand, OmahaEightOrBetterLowHand),
    "nj-seven-card-stud": (StandardHighHand, None),
    "nj-stud-hi-lo": (StandardHighHand, EightOrBetterLowHand),
    "nj-razz": (None, RegularLowHand),
}
CATEGORY = {  # the library's name -> ours (plain strings: they are answers)
    "High card": CategoryName.HIGH_CARD.value,
    "One pair": CategoryName.ONE_PAIR.value,
    "Two pair": CategoryName.TWO_PAIR.value,
    "Three of a kind": CategoryName.THREE_OF_A_KIND.value,
    "Straight": CategoryName.STRAIGHT.value,
    "Flush": CategoryName.FLUSH.value,
    "Full house": CategoryName.FULL_HOUSE.value,
    "Four of a kind": CategoryName.FOUR_OF_A_KIND.value,
    "Straight flush": CategoryName.STRAIGHT_FLUSH.value,
}
ROYAL = {5: "AsKsQsJsTs", 3: "AsKsQs"}
# what PokerKit raises from Card.parse, hand constructors and lookups on input it refuses
LIBRARY_ERRORS = (ValueError, KeyError)
_INDEX, _LABEL = attrgetter("index"), attrgetter("label")


class PokerkitEvaluator(PeerEvaluator):
    """PokerKit behind the in-process evaluator interface (see the module docstring)."""

    library = "pokerkit"
    RULESETS = MappingProxyType(
        {
            **{
                ruleset: (*BASIC, Kind.BEST_HAND.value) if ruleset in BEST_HAND else BASIC
                for ruleset in HAND_TYPE
            },
            **dict.fromkeys(ROOM_GAMES, (Kind.SHOWDOWN.value,)),
        }
    )

    def __init__(self) -> None:
        super().__init__()
        self.info: EvaluatorInfo = distribution_info("pokerkit", "uoftcprg")
        self._type: type[CombinationHand] = StandardHighHand
        self._royal: Hand | None = None
        # PokerKit's own cards for the 52 canonical spellings, parsed by Card.parse: by
        # spelling, and by position in CODED_CARDS (Hands.codes; PokerKit has no joker)
        self._parsed = {str(c): next(iter(Card.parse(str(c)))) for c in DECK}
        self._by_code = by_code(self._parsed)
        # our category of each of PokerKit's labels, for one lookup per hand
        self._label_category = {label: CATEGORY[label.value] for label in Label}

    def _configured(self, ruleset: str) -> None:
        if ruleset in ROOM_GAMES:
            return
        self._type = HAND_TYPE[ruleset]
        self._royal = None
        if CategoryName.ROYAL_FLUSH in category_names(ruleset):
            self._royal = self._type(ROYAL[self._type.card_count])

    @staticmethod
    def _cards(tokens: list[str]) -> list[Card]:
        return [card for token in tokens for card in Card.parse(token)]

    def _hand(self, hand: list[str]) -> Hand:
        self._ruleset()
        try:
            return self._type(self._cards(hand))
        except LIBRARY_ERRORS as exc:
            raise refused("pokerkit", exc) from exc

    def _category(self, hand: Hand) -> str:
        try:
            label = hand.entry.label.value
        except LIBRARY_ERRORS as exc:
            raise refused("pokerkit", exc) from exc
        category = CATEGORY[label]
        if (
            category == CategoryName.STRAIGHT_FLUSH
            and self._royal is not None
            and hand == self._royal
        ):
            return CategoryName.ROYAL_FLUSH.value
        return category

    def _key(self, hand: Hand) -> int:
        try:
            index = hand.entry.index
        except LIBRARY_ERRORS as exc:
            raise refused("pokerkit", exc) from exc
        return -index if hand.low else index

    def key(self, hand: list[str]) -> int:
        """PokerKit's value of the hand: larger is better, equal values tie."""
        return self._key(self._hand(hand))

    def classify(self, hand: list[str]) -> str:
        return self._category(self._hand(hand))

    def evaluate(self, hand: list[str]) -> tuple[str, int]:
        """``(classify(hand), key(hand))`` from one PokerKit hand."""
        made = self._hand(hand)
        return self._category(made), self._key(made)

    def evaluate_many(self, hands: Sequence[list[str]]) -> tuple[list[str], list[int]]:
        """:meth:`evaluate` of every hand, in one pass over PokerKit's lookup.

        The cards come from the adapter's table of PokerKit's own cards (for a
        :class:`~pokercert.harness.api.Hands`, by code, or by spelling from its flat
        list), each hand goes to the hand type's lookup (``lookup.get_entry``: what a
        hand of that type looks up for its ``entry``, and refuses exactly when the
        type's constructor does), and labels and indices become categories and keys
        through the same rules as :meth:`evaluate`.  A plain list of hands, or a batch
        with any hand that needs more (another spelling, a refusal), is asked hand by
        hand through :meth:`evaluate`, which raises for the first hand that fails.
        """
        self._ruleset()
        try:
            if not isinstance(hands, Hands):
                raise TypeError("hand by hand")
            cards = (
                lookup_all(self._by_code, hands.codes)
                if hands.codes is not None
                else lookup_all(self._parsed, hands.flat)
            )
            get_entry = self._type.lookup.get_entry
            entries = [get_entry(h) for h in chunks(cards, hands.size)]
            categories = lookup_all(self._label_category, list(map(_LABEL, entries)))
            indices = list(map(_INDEX, entries))
        except Exception:
            pairs = [self.evaluate(h) for h in hands]
            return [c for c, _ in pairs], [k for _, k in pairs]
        if self._royal is not None:
            royal = self._royal.entry.index
            if royal in indices:  # a C-level scan; a royal is rare
                categories = [
                    CategoryName.ROYAL_FLUSH.value
                    if i == royal and c == CategoryName.STRAIGHT_FLUSH
                    else c
                    for c, i in zip(categories, indices, strict=True)
                ]
        return categories, list(map(neg, indices)) if self._type.low else indices

    def _from_game(self, hole: list[str], board: list[str]) -> Hand:
        try:
            return self._type.from_game(self._cards(hole), self._cards(board))
        except LIBRARY_ERRORS as exc:
            raise refused("pokerkit", exc) from exc

    def winners(self, hands: list[list[str]], board: list[str] | None = None) -> list[int]:
        if board is None or self._ruleset() not in BEST_HAND:
            return super().winners(hands, board)
        return best_of([self._key(self._from_game(h, board)) for h in hands])

    def best_hand(self, hole: list[str], board: list[str]) -> tuple[list[str], str]:
        """PokerKit's best three of the five cards (board-only hands included)."""
        if self._ruleset() not in BEST_HAND:
            raise ValueError(f"the pokerkit adapter has no best_hand in {self.ruleset}")
        hand = self._from_game(hole, board)
        return [repr(c) for c in hand.cards], self._category(hand)

    # ------------------------------------------------------------------ poker-room games
    def showdown(self, hands: list[list[str]], board: list[str] | None = None) -> dict[str, Any]:
        """The pot, from PokerKit's best hand of each player for each half of the game
        (``from_game`` of the game's hand types) split by :func:`split_pot`."""
        types = ROOM_GAMES.get(self._ruleset())
        if types is None:
            raise ValueError(f"the pokerkit adapter settles no pots in {self.ruleset}")
        table = self._cards(board) if board is not None else []
        holes = [self._cards(h) for h in hands]
        halves = [
            [self._room_hand(t, h, table) for h in holes] if t is not None else [] for t in types
        ]
        return split_pot(halves)

    @staticmethod
    def _room_hand(hand_type: type[Hand], hole: list[Card], board: list[Card]) -> Hand | None:
        """PokerKit's best hand of ``hand_type``, None when no hand qualifies (the
        eight-or-better types raise ValueError for that, as for input they refuse)."""
        try:
            return hand_type.from_game(hole, board)
        except ValueError:
            if hand_type in (EightOrBetterLowHand, OmahaEightOrBetterLowHand):
                return None
            raise
