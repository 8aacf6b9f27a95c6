"""The reference engine: one data-driven evaluator for every ruleset and profile.

Nothing here knows a jurisdiction.  :class:`Evaluator` reads the ruleset's categories
(best-first) and the engine knobs (``Profile.rules_for``), and from them decides:

* which shape a hand has (the strongest of :data:`SHAPES` that the ruleset lists),
* its comparable ``key`` (a tuple; larger is better in the game's own direction),
* winners among several hands, and the best hand where the ruleset selects one
  (``Selection``: how many hole and board cards, how many hole cards a hand may use),
* how a pot is shared (``Ruleset.pot_halves``: high only, low only, or high and a
  qualifying low, each half ranked by its own ruleset; see :meth:`Evaluator.pot`).

Wild cards (jokers) are resolved by trying every card a wild may stand for, under the
profile's rules for duplicates and five of a kind, and keeping the best result.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import partial
from itertools import combinations, combinations_with_replacement, product
from math import lcm
from typing import Any, Literal, NamedTuple, overload

from pokercert.reference.cards import (
    DECK,
    JOKER,
    SUIT_CHARS,
    WRONG_COUNT,
    Card,
    CardError,
    parse_cards,
)
from pokercert.reference.categories import SHAPES, CategoryName
from pokercert.reference.flush_length import flush_value
from pokercert.reference.interpretations import Profile, load_profile
from pokercert.reference.rulesets import (
    BUG_COMPLETES,
    HalfQualifier,
    Ruleset,
    RulesetError,
    get_ruleset,
)

STRAIGHT_SHAPES = frozenset(
    {
        CategoryName.ROYAL_FLUSH,
        CategoryName.ROYAL_STRAIGHT_FLUSH,
        CategoryName.STRAIGHT_FLUSH,
        CategoryName.STRAIGHT,
    }
)
ACE = 14
# the knob wheel_place: where A-2-3-4-5 (top card 5) ranks among straights, per shape
_WHEEL_TOP = 5
_WHEEL_SECOND: dict[str, tuple[str, ...]] = {
    CategoryName.STRAIGHT: ("second_highest", "second_highest_straight"),
    CategoryName.STRAIGHT_FLUSH: ("second_highest",),
}
WILD_RANKS = tuple(range(ACE, 1, -1))

# suit classes: the only suit facts any ranking rule looks at
SAME, DISTINCT, MIXED = "same", "distinct", "mixed"

# Card codes of the fast best-hand search (:meth:`Evaluator.best_key`): a card is
# 5 ** (rank - 2) above :data:`_SUIT_FIELD` bits that hold 1 in its suit's 3-bit digit,
# so the sum of a set of natural cards (at most four of a rank, at most seven of a suit)
# codes its rank multiset and its suit counts, and sums add up subsets.
_SUIT_DIGIT = 3
_SUIT_FIELD = _SUIT_DIGIT * len(SUIT_CHARS)
_SUIT_MASK = (1 << _SUIT_FIELD) - 1
_MOST_CARDS = (1 << _SUIT_DIGIT) - 1  # cards of one suit a digit holds
_LOWEST = 2
_CODE: dict[Card, int] = {
    c: (5 ** (c.rank - _LOWEST) << _SUIT_FIELD) + (1 << _SUIT_DIGIT * SUIT_CHARS.index(c.suit))
    for c in DECK
}


def _suit_class_of_counts(counts: int) -> str:
    """The suit class of cards whose suit counts are the 3-bit digits of ``counts``."""
    digits = [(counts >> _SUIT_DIGIT * s) & 7 for s in range(len(SUIT_CHARS))]
    held = sum(1 for d in digits if d)
    if held == 1:
        return SAME
    return DISTINCT if held == sum(digits) else MIXED


_UNSEEN: Any = object()
_SUIT_CLASSES = (SAME, DISTINCT, MIXED)
# suit counts -> index into _SUIT_CLASSES, in the two low bits of a class code
_SUIT_CLASS_OF = tuple(
    _SUIT_CLASSES.index(_suit_class_of_counts(n)) for n in range(1 << _SUIT_FIELD)
)


# Bits of a deal's class (:func:`_deal_class`): a 26-bit field per suit, its high 13 bits
# the ranks of the hole cards of that suit, its low 13 bits those of the board's
_RANK_BITS = ACE - 1
_DEAL_FIELD = 2 * _RANK_BITS
_DEAL_MASK = (1 << _DEAL_FIELD) - 1
_HOLE_BIT: dict[Card, int] = {
    c: 1 << (_DEAL_FIELD * SUIT_CHARS.index(c.suit) + _RANK_BITS + c.rank - _LOWEST) for c in DECK
}
_BOARD_BIT: dict[Card, int] = {
    c: 1 << (_DEAL_FIELD * SUIT_CHARS.index(c.suit) + c.rank - _LOWEST) for c in DECK
}
_DEALS_KEPT = 1 << 15  # deal classes a memo keeps (then it takes no more; on disk too)


def _deal_class(bits: int) -> tuple[int, ...]:
    """The class of a hand and board of natural cards whose :data:`_HOLE_BIT` and
    :data:`_BOARD_BIT` sum to ``bits``: per suit, the ranks it holds in the hand and on
    the board, those of the four suits in ascending order.  Two deals of one class are the
    same deal up to renaming the suits and reordering the cards, and the engine's value
    of natural cards reads their ranks and suit class only (:meth:`Evaluator.value`),
    which a renaming keeps: every candidate hand of one has a candidate of the other of
    the same class, so the best key is the same (a challenge's twin of a deal is one)."""
    mask = _DEAL_MASK
    return tuple(
        sorted(
            (
                bits & mask,
                bits >> _DEAL_FIELD & mask,
                bits >> 2 * _DEAL_FIELD & mask,
                bits >> 3 * _DEAL_FIELD,
            )
        )
    )


def _ranks_of(multiset: int) -> tuple[int, ...]:
    """The ranks (descending) of a rank multiset coded as a sum of ``5 ** (rank - 2)``."""
    out: list[int] = []
    rank = _LOWEST
    while multiset:
        multiset, n = divmod(multiset, 5)
        out[:0] = [rank] * n
        rank += 1
    return tuple(out)


# the engine knobs read only where hands are selected and pots shared (_candidates,
# _best, best_key), never by a valuation: evaluators differing only in these share values
_SELECTION_KNOBS = frozenset({"hole_cards", "low_qualifier", "halves_cards"})
# values shared by evaluators evaluator() built with the same valuation knobs
_CLASSIFIED: dict[Any, Any] = {}
_WILD: dict[Any, Any] = {}
_BEST: dict[Any, Any] = {}
_DEALS: dict[Any, Any] = {}


def _shared(store: dict[Any, Any], key: Any) -> Any:
    """The dict kept in ``store`` under ``key``: the first time, what the value cache on
    disk holds for it (:func:`pokercert.reference.table_cache.shared_values`: sound
    files of these engine sources and this key only), else a new one."""
    found = store.get(key)
    if found is None:
        from pokercert.reference.table_cache import shared_values

        found = store[key] = shared_values(*_PERSIST[id(store)](key))
    return found


def _cards_of(pairs: Iterable[Sequence[Any]]) -> tuple[Card, ...]:
    return tuple(Card(int(rank), str(suit)) for rank, suit in pairs)


# How each shared store is kept on disk (table_cache.shared_values): the kind, the key
# text, then decode and encode of the entries (and, for deals, how many a file keeps).
# The big memos are flat JSON lists of integers (what JSON reads fastest), with the
# strings they use named once:
# ``classified``: per class, len(ranks), *ranks, suit class, category, len(key), *key;
# ``best``: per class code, len(key) (-1: None, the class fails the qualifier), *key;
# ``deals``: per deal class, its four suit fields, then len(key) (-1: None), *key: the
# curated corpus's showdowns and their challenge twins are the same deal classes in
# every run, so a run after the first finds them all.
# Entries that do not decode (a short list, an unknown name) raise: the record is ignored.
def _encode_classified(memo: dict[Any, Any]) -> dict[str, Any]:
    names: dict[str, int] = {}
    flat: list[int] = []
    for (ranks, sc), (category, key) in memo.items():
        flat += [
            len(ranks),
            *ranks,
            names.setdefault(sc, len(names)),
            names.setdefault(category, len(names)),
            len(key),
            *key,
        ]
    return {"names": list(names), "ints": flat}


def _decode_classified(data: dict[str, Any]) -> dict[Any, Any]:
    names, flat = list(data["names"]), list(data["ints"])
    out: dict[Any, Any] = {}
    i, end = 0, len(flat)
    while i < end:
        n = flat[i]
        ranks = tuple(flat[i + 1 : i + 1 + n])
        i += 1 + n
        k = flat[i + 2]
        out[(ranks, names[flat[i]])] = (names[flat[i + 1]], tuple(flat[i + 3 : i + 3 + k]))
        i += 3 + k
    if i != end:
        raise ValueError("truncated entries")
    return out


def _encode_keyed(memo: dict[Any, Any], width: int) -> list[int]:
    """A memo from integer keys (``width`` 1: an int; else a tuple of ``width`` ints) to
    a tuple of ints or None, as one flat list: each key's ints, then the value's length
    (-1 for None) and its ints."""
    flat: list[int] = []
    for key, value in memo.items():
        head = [key] if width == 1 else [*key]
        flat += [*head, -1] if value is None else [*head, len(value), *value]
    return flat


def _decode_keyed(flat: list[int], width: int) -> dict[Any, Any]:
    """:func:`_encode_keyed`'s memo back; a list that ends inside an entry is refused."""
    out: dict[Any, Any] = {}
    i, end = 0, len(flat)
    while i < end:
        k = flat[i + width]
        key = flat[i] if width == 1 else tuple(flat[i : i + width])
        out[key] = None if k < 0 else tuple(flat[i + width + 1 : i + width + 1 + k])
        i += width + 1 + max(k, 0)
    if i != end:
        raise ValueError("truncated entries")
    return out


_DEAL_WIDTH = len(SUIT_CHARS)  # a deal class: one int per suit


_PERSIST: dict[int, Callable[[Any], tuple[Any, ...]]] = {
    id(_CLASSIFIED): lambda key: ("classified", str(key), _decode_classified, _encode_classified),
    id(_BEST): lambda key: (
        "best",
        repr(key),
        partial(_decode_keyed, width=1),
        partial(_encode_keyed, width=1),
    ),
    id(_DEALS): lambda key: (
        "deals",
        key,
        partial(_decode_keyed, width=_DEAL_WIDTH),
        partial(_encode_keyed, width=_DEAL_WIDTH),
        _DEALS_KEPT,
    ),
    id(_WILD): lambda key: (
        "wild",
        repr(key),
        lambda rows: {
            (_cards_of(n), int(w), int(z)): (str(cat), tuple(k), _cards_of(subs))
            for n, w, z, cat, k, subs in rows
        },
        lambda memo: [
            [[list(c) for c in n], w, z, cat, list(k), [list(c) for c in subs]]
            for (n, w, z), (cat, k, subs) in memo.items()
        ],
    ),
}


_FRACTIONS: dict[tuple[int, int], Fraction] = {}


def _fraction(numerator: int, denominator: int) -> Fraction:
    """``Fraction(numerator, denominator)``, each one made once (a pot's shares are a
    handful of fractions, met thousands of times in a run)."""
    found = _FRACTIONS.get((numerator, denominator))
    if found is None:
        found = Fraction(numerator, denominator)
        if len(_FRACTIONS) < 4096:
            _FRACTIONS[(numerator, denominator)] = found
    return found


def _subset_sums(codes: Sequence[int], k: int) -> list[int]:
    """The sum of every ``k``-subset of ``codes`` (through the complement when shorter)."""
    n = len(codes)
    if k == 0:
        return [0]
    if 2 * k > n:
        total = sum(codes)
        return [total - sum(c) for c in combinations(codes, n - k)]
    return [sum(c) for c in combinations(codes, k)]


def _split_codes(
    hole: Sequence[Card],
    table: tuple[Card, ...],
    board_sums: dict[int, list[int]],
    size: int,
    splits: list[int],
) -> list[int]:
    """The :data:`_CODE` sum of every hand of ``size`` cards that takes ``used`` of the
    hole cards (for each ``used`` in ``splits``) and the rest from ``table``; the board's
    subset sums are kept in ``board_sums`` (by subset size) for the next hand of the deal.
    A joker has no code: KeyError."""
    hole_codes = list(map(_CODE.__getitem__, hole))
    codes: list[int] = []
    for used in splits:
        sums = board_sums.get(size - used)
        if sums is None:
            sums = board_sums[size - used] = _subset_sums(
                list(map(_CODE.__getitem__, table)), size - used
            )
        codes += [h + b for h in _subset_sums(hole_codes, used) for b in sums]
    return codes


def _reachable_suit_classes(suit_counts: Counter[str], size: int) -> set[str]:
    """The suit classes a hand of ``size`` cards can have whose natural cards have these
    suit counts, the wild cards taking any suits."""
    reachable = {MIXED}
    if len(suit_counts) <= 1:
        reachable.add(SAME)
    if max(suit_counts.values(), default=0) <= 1 and size <= len(SUIT_CHARS):
        reachable.add(DISTINCT)
    return reachable


def _first_of_each_suit_class(
    naturals: tuple[Card, ...],
    held: set[Card],
    ranks: tuple[int, ...],
    suit_order: Sequence[str],
    target: int,
    distinct: bool,
) -> list[tuple[Card, ...]]:
    """For wild cards taking ``ranks``: the first substitutes (suits tried in
    ``suit_order``) that give each suit class the hand can reach, stopping once ``target``
    classes are found; ``distinct``: no substitute may repeat a natural card (``held``)
    or another substitute."""
    wilds = len(ranks)
    by_class: dict[str, tuple[Card, ...]] = {}
    for suits in product(suit_order, repeat=wilds):
        subs = tuple(map(Card, ranks, suits))
        if distinct and (held.intersection(subs) or len(set(subs)) < wilds):
            continue
        by_class.setdefault(suit_class(naturals + subs), subs)
        if len(by_class) == target:
            break
    return list(by_class.values())


class HandValue(NamedTuple):
    """The value of one hand: its category, a comparable key and the cards it was made of.

    ``played`` is the hand as ranked, with every wild card replaced by what it stands for.
    """

    category: str
    key: tuple[int, ...]
    cards: tuple[Card, ...]
    played: tuple[Card, ...]


class BestHand(NamedTuple):
    """The best hand a player can form, and every other card set of equal value."""

    value: HandValue
    alternatives: tuple[tuple[Card, ...], ...]

    @property
    def category(self) -> str:
        return self.value.category

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.value.cards


class Pot(NamedTuple):
    """How one pot is shared among the hands of a showdown (indices into the hands).

    ``high``: the high half's winners (empty in a game with no high half, e.g. razz).
    ``low``: the low half's winners; None when the game has no low half or no hand
    qualifies for it (the high hands then take the whole pot).  ``shares``: each hand's
    exact fraction of the pot (they sum to 1); a half is split equally among the hands
    tied for it, so a low shared by two beside a lone high gives 3/4 and 1/4.  Odd chips
    are out of scope: shares are exact fractions.
    """

    high: tuple[int, ...]
    low: tuple[int, ...] | None
    shares: tuple[Fraction, ...]


def suit_class(cards: Sequence[Card]) -> str:
    suits = {c.suit for c in cards}
    if len(suits) == 1:
        return SAME
    return DISTINCT if len(suits) == len(cards) else MIXED


class Evaluator:
    """The reference evaluator for one ruleset under one interpretation profile."""

    def __init__(
        self,
        ruleset: Ruleset | str,
        profile: Profile | str | None = None,
        *,
        steps: Steps | None = None,
    ) -> None:
        self.ruleset = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
        self.profile = load_profile(profile)
        self.rules: dict[str, Any] = self.profile.rules_for(self.ruleset)
        self.readings = self.profile.readings_for(self.ruleset)
        order = list(self.rules["categories"])
        unknown = [c for c in order if c not in self.ruleset.category_names]
        if unknown:
            raise RulesetError(
                f"{self.ruleset.id}: reading lists categories {unknown} "
                "that the ruleset does not define"
            )
        self.categories: tuple[str, ...] = tuple(order)
        self._rank_of = {name: len(order) - i for i, name in enumerate(order)}
        self._shapes = tuple(s for s in SHAPES if s in self._rank_of)
        self._low = self.rules["direction"] == "low"
        if self._low and self.rules["tiebreak"] != "grouped":
            raise RulesetError(f"{self.ruleset.id}: low games compare with tiebreak 'grouped'")
        # what a valuation reads (the knobs but those of selection and the pot): shared
        # evaluators (evaluator()) with the same key share the values they compute
        self._rules_key = repr(
            sorted((k, v) for k, v in self.rules.items() if k not in _SELECTION_KNOBS)
        )
        self._shares_values = False
        self._cache: dict[tuple[tuple[int, ...], str], tuple[str, tuple[int, ...]]] = {}
        self._halves: dict[str, tuple[Evaluator, HalfQualifier | None]] = {}
        # per half, what best_key needs (_fast_plan); per deal shape, _splits
        self._fast: dict[str, Any] = {}
        self._split_memo: dict[tuple[int, int, int], Any] = {}
        self._board_sums: tuple[tuple[Card, ...] | None, dict[int, list[int]], int] = (None, {}, 0)
        # the posted wild designation: natural deuces wild, or a joker restricted to a bug
        self._wild_rank = 2 if self.ruleset.wild == "deuces" else None
        self._bug = self.ruleset.wild == "bug"
        # the cards that are wild: a joker, and the deck's cards of the posted wild rank
        self._wild_cards = frozenset({JOKER, *(c for c in DECK if c.rank == self._wild_rank)})
        # the category and key of natural cards per class (value's fast path)
        self._natural_classes: dict[int, tuple[str, tuple[int, ...]]] = {}
        self._wild_cache: dict[tuple[Any, ...], tuple[str, tuple[int, ...], tuple[Card, ...]]] = {}
        # the composition (see Steps); a fast path runs only where it leaves alone every
        # step the fast path would bypass
        self.steps = ranking_steps(self.rules) if steps is None else steps
        self._natural_as_default = self.steps.natural is DEFAULT_STEPS.natural
        self._showdown_as_default = self.steps.showdown is DEFAULT_STEPS.showdown
        self._search_as_default = self.steps.searches_as(DEFAULT_STEPS)
        if self.steps is not DEFAULT_STEPS:
            self._bind(self.steps)

    def _bind(self, steps: Steps) -> None:
        """Make ``steps`` this engine's steps (each bound to it, in field order)."""
        self.parse_hand = steps.parse_hand(self)  # type: ignore[method-assign]
        self.parse_deal = steps.parse_deal(self)  # type: ignore[method-assign]
        self.value = steps.value(self)  # type: ignore[method-assign]
        self._natural = steps.natural(self)  # type: ignore[method-assign]
        self._classify = steps.classify(self)  # type: ignore[method-assign]
        self._run_top = steps.run_top(self)  # type: ignore[method-assign]
        self._tiebreak = steps.tiebreak(self)  # type: ignore[method-assign]
        self._wild_value = steps.wild_value(self)  # type: ignore[method-assign]
        self._half_ranking = steps.half_ranking(self)  # type: ignore[method-assign]
        self._candidates = steps.candidates(self)  # type: ignore[method-assign]
        self._best = steps.best(self)  # type: ignore[method-assign]
        self.showdown = steps.showdown(self)  # type: ignore[method-assign]
        self.winners = steps.winners(self)  # type: ignore[method-assign]
        self.pot = steps.pot(self)  # type: ignore[method-assign]
        self.qualifies = steps.qualifies(self)  # type: ignore[method-assign]

    def _share_values(self) -> None:
        """Keep this evaluator's computed values in the stores shared by every evaluator
        :func:`evaluator` built with the same valuation knobs (the challenge's profile
        and an adapter's own profile value the same hands).  Only those: an engine built
        directly may have a step replaced (a mutant), and must not read or write values
        another computed."""
        self._shares_values = True
        self._cache = _shared(_CLASSIFIED, self._rules_key)
        self._wild_cache = _shared(_WILD, (self._rules_key, self.ruleset.wild))

    @property
    def wild_rank(self) -> int | None:
        """The rank of the deck's cards the ruleset posts wild (2 under deuces wild), None
        where every one of the 52 cards is natural (jokers are wild apart from this)."""
        return self._wild_rank

    # ----------------------------------------------------------------- input
    def parse_hand(self, cards: str | Iterable[str | Card]) -> tuple[Card, ...]:
        """Parse and validate one hand of exactly ``hand_size`` cards for this ruleset."""
        return parse_cards(cards, jokers=self.ruleset.jokers, count=self.ruleset.hand_size)

    def parse_deal(
        self,
        hands: Sequence[str | Iterable[str | Card]],
        board: str | Iterable[str | Card] | None = None,
        per_hand: int | None = None,
    ) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
        """Parse several hands (and an optional board) dealt from one deck.

        Each hand must have ``per_hand`` cards (default: the ruleset's hand size, or its
        hole-card count when a board is given; in a game without a board, such as stud,
        either, and an empty board is no board); no card may appear twice in the deal.
        """
        sel = self.ruleset.selection
        count: int | tuple[int, ...] = self.ruleset.hand_size if per_hand is None else per_hand
        if per_hand is None and sel is not None:
            if board is not None:
                count = sel.hole
            elif sel.board == 0 and sel.hole != self.ruleset.hand_size:
                count = (self.ruleset.hand_size, sel.hole)
        parsed = [parse_cards(h, jokers=self.ruleset.jokers, count=count) for h in hands]
        table: tuple[Card, ...] = ()
        if board is not None:
            if sel is None:  # a field the game does not deal: too many cards (PROTOCOL.md 3.3)
                raise CardError(
                    WRONG_COUNT, f"{self.ruleset.id} deals no community cards, got a board"
                )
            table = parse_cards(board, jokers=self.ruleset.jokers)
            if sel.board == 0 and table:  # stud: an empty board is no board (3.3)
                raise CardError(
                    WRONG_COUNT,
                    f"{self.ruleset.id} deals no community cards, got a board of {len(table)}",
                )
            if sel.board:
                table = parse_cards(table, count=sel.board)
        # one deck: the whole deal must be free of duplicates (the parser names the first
        # repeat; a deal of distinct natural cards has none)
        everything = [c for h in parsed for c in h] + list(table)
        if len(set(everything)) != len(everything) or JOKER in everything:
            parse_cards(everything, jokers=self.ruleset.jokers)
        return tuple(parsed), table

    def parse_dealt(
        self,
        hands: Sequence[str | Iterable[str | Card]],
        board: str | Iterable[str | Card] | None = None,
    ) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
        """Parse a deal exactly as the game deals it (a pot, a best hand): with a
        selection rule every player holds the selection's ``hole`` cards and the board is
        its ``board`` cards (no board in stud); any other count is ``wrong-count``.
        Without a selection a hand is the ruleset's ``hand_size`` cards (:meth:`parse_deal`).
        """
        sel = self.ruleset.selection
        if sel is None:
            return self.parse_deal(hands, board)
        if sel.board and board is None:
            raise CardError(
                WRONG_COUNT, f"{self.ruleset.id} deals a board of {sel.board} cards, got none"
            )
        return self.parse_deal(hands, board, per_hand=sel.hole)

    def is_wild(self, card: Card) -> bool:
        """Whether ``card`` is wild under the ruleset's posting (a joker, or a posted
        wild rank such as the deuces)."""
        return card.is_joker or card.rank == self._wild_rank

    # ----------------------------------------------------------------- values
    def evaluate(self, cards: str | Iterable[str | Card]) -> HandValue:
        """Category and key of one hand of exactly ``hand_size`` cards."""
        hand = self.parse_hand(cards)
        return self.value(hand)

    def category(self, cards: str | Iterable[str | Card]) -> str:
        return self.evaluate(cards).category

    def key(self, cards: str | Iterable[str | Card]) -> tuple[int, ...]:
        return self.evaluate(cards).key

    def compare(self, a: str | Iterable[str | Card], b: str | Iterable[str | Card]) -> int:
        """1 if ``a`` beats ``b``, -1 if it loses, 0 if they are equal."""
        ka, kb = self.key(a), self.key(b)
        return (ka > kb) - (ka < kb)

    def winners(
        self,
        hands: Sequence[str | Iterable[str | Card]],
        board: str | Iterable[str | Card] | None = None,
    ) -> list[int]:
        """Indices of the winning hands (several on a split/push/tie).

        With ``board`` (hold'em style rulesets) each hand is a player's hole cards and is
        valued by its best hand under the ruleset's selection rule.
        """
        found = self._first_keys(hands, board) if self._showdown_as_default else None
        keys = [k for k in found if k is not None] if found is not None else []
        if found is None or len(keys) != len(found):  # a step replaced (a mutant)
            keys = [v.key for v in self.showdown(hands, board)]
        best = max(keys)
        return [i for i, k in enumerate(keys) if k == best]

    def _first_keys(
        self, hands: Sequence[str | Iterable[str | Card]], board: str | Iterable[str | Card] | None
    ) -> list[tuple[int, ...] | None]:
        """The key of each hand's value in :meth:`showdown`, without the rest of the
        value: a hand taken as it is from :meth:`value`, a hand with a selection from
        :meth:`best_key` (the key of the same best hand, held equal to the search in
        ``tests/reference/test_fast_pot.py``)."""
        if len(hands) < 2:
            raise CardError(WRONG_COUNT, f"a showdown needs at least 2 hands, got {len(hands)}")
        parsed, table = self.parse_deal(hands, board)
        first = self.ruleset.pot_halves[0].name
        size = self.ruleset.hand_size
        value, best_key = self.value, self.best_key
        return [
            value(h).key if board is None and len(h) == size else best_key(h, table, first)
            for h in parsed
        ]

    def showdown(
        self,
        hands: Sequence[str | Iterable[str | Card]],
        board: str | Iterable[str | Card] | None = None,
    ) -> list[HandValue]:
        """The value of every hand in one deal (its best hand for the ruleset's first half:
        high, or low in a low-only game)."""
        if len(hands) < 2:
            raise CardError(WRONG_COUNT, f"a showdown needs at least 2 hands, got {len(hands)}")
        parsed, table = self.parse_deal(hands, board)
        first = self.ruleset.pot_halves[0].name
        # a hand dealt at its final size with no board is valued as it is (no selection)
        return [
            self.value(h)
            if board is None and len(h) == self.ruleset.hand_size
            else self._value_of(h, table, first)
            for h in parsed
        ]

    @overload
    def best_hand(
        self,
        hole: str | Iterable[str | Card],
        board: str | Iterable[str | Card] | None = None,
        half: Literal["high"] | None = None,
    ) -> BestHand: ...

    @overload
    def best_hand(
        self,
        hole: str | Iterable[str | Card],
        board: str | Iterable[str | Card] | None = None,
        half: str | None = None,
    ) -> BestHand | None: ...

    def best_hand(
        self,
        hole: str | Iterable[str | Card],
        board: str | Iterable[str | Card] | None = None,
        half: str | None = None,
    ) -> BestHand | None:
        """The best hand from ``hole`` (+ ``board``) for one half of the pot.

        ``half`` is ``"high"`` or ``"low"`` (the low half of a split game, or the only half
        of a low game such as razz); None is the game's first half (high, or low in a
        low-only game), never unqualified.  A half the ruleset does not have is a
        :class:`RulesetError`.  The hand is chosen under the ruleset's selection rule and
        ranked by the half's ranking.  Returns None when no hand qualifies for the half
        (a low half behind "eight or better" with no such five cards).  The cards are
        those the game deals one player (:meth:`parse_dealt`: seven in stud and razz, the
        hole cards and the whole board in hold'em and Omaha), else ``wrong-count``.
        """
        half = self.ruleset.pot_halves[0].name if half is None else half
        self.ruleset.half(half)
        (hand,), table = self.parse_dealt([hole], board)
        return self._best(hand, table, half)

    def pot(
        self,
        hands: Sequence[str | Iterable[str | Card]],
        board: str | Iterable[str | Card] | None = None,
        *,
        fast: bool = True,
    ) -> Pot:
        """Who wins each half of the pot, and each hand's exact share (see :class:`Pot`).

        Each half goes to the best hand(s) that qualify for it, ranked by the half's own
        ruleset; a half no hand qualifies for goes to the other half's winners; the same
        hand (even the same five cards) may win both halves.  Each hand's best key comes
        from :meth:`best_key` (``fast=False``: from the engine's candidate-by-candidate
        :meth:`best_hand` search, the oracle the fast path is tested against).  The deal
        is one the game deals (:meth:`parse_dealt`): five-card stud or razz hands, or
        hold'em without its board, are ``wrong-count``.
        """
        if len(hands) < 2:
            raise CardError(WRONG_COUNT, f"a showdown needs at least 2 hands, got {len(hands)}")
        parsed, table = self.parse_dealt(hands, board)
        won: dict[str, tuple[int, ...] | None] = {}
        for half in self.ruleset.pot_halves:
            keys = (
                [self.best_key(h, table, half.name) for h in parsed]
                if fast
                else [
                    None if b is None else b.value.key
                    for b in (self._best(h, table, half.name) for h in parsed)
                ]
            )
            best = max((k for k in keys if k is not None), default=None)
            won[half.name] = (
                None if best is None else tuple(i for i, k in enumerate(keys) if k == best)
            )
        awarded = [w for w in won.values() if w]
        # each half split equally among its winners: counted in units of 1/whole
        whole = len(awarded) * lcm(*(len(w) for w in awarded))
        units = [0] * len(parsed)
        for winners in awarded:
            for i in winners:
                units[i] += whole // (len(awarded) * len(winners))
        return Pot(
            high=won.get("high") or (),
            low=won.get("low"),
            shares=tuple(_fraction(u, whole) for u in units),
        )

    def qualifies(self, cards: str | Iterable[str | Card]) -> bool:
        """Whether one hand meets the ruleset's dealer qualifier (at least its minimum).

        Raises :class:`RulesetError` for a ruleset without a qualifier.
        """
        hand = self.parse_hand(cards)
        return self.value(hand).key >= self.qualifying_key()

    def qualifying_key(self) -> tuple[int, ...]:
        """The key of the lowest qualifying hand (the qualifier's ``minimum``)."""
        qualifier = self.ruleset.qualifier
        if qualifier is None:
            raise RulesetError(f"{self.ruleset.id} has no dealer qualifier")
        return self.value(self.parse_hand(qualifier.minimum)).key

    # ----------------------------------------------------------------- internals
    def half_ranking(self, half: str) -> tuple[Evaluator, HalfQualifier | None]:
        """The evaluator that ranks the pot's half ``half`` and the half's qualifier."""
        return self._half_ranking(half)

    def candidates(
        self, hole: tuple[Card, ...], board: tuple[Card, ...], size: int
    ) -> list[tuple[Card, ...]]:
        """Every hand of ``size`` cards the ruleset's selection rule (under this
        evaluator's readings) makes of ``hole`` and ``board``."""
        return list(self._candidates(hole, board, size))

    def _half_ranking(self, half: str) -> tuple[Evaluator, HalfQualifier | None]:
        """The evaluator that ranks ``half`` (this one, or another ruleset's) and its
        qualifier."""
        found = self._halves.get(half)
        if found is None:
            spec = self.ruleset.half(half)
            ranking = self if spec.ranks_by is None else evaluator(spec.ranks_by, self.profile)
            found = self._halves[half] = (ranking, spec.qualifier)
        return found

    def _candidates(
        self, hole: tuple[Card, ...], board: tuple[Card, ...], size: int
    ) -> Iterable[tuple[Card, ...]]:
        """Every hand of ``size`` cards the selection rule allows from ``hole`` + ``board``
        (a hand dealt at its final size, with no board, is taken as it is)."""
        splits = self._splits(len(hole), len(board), size)
        if splits is None:
            yield hole
            return
        for used in splits:
            for h in combinations(hole, used):
                for b in combinations(board, size - used):
                    yield h + b

    def _splits(self, hole: int, board: int, size: int) -> list[int] | None:
        """How many of ``hole`` hole cards a hand of ``size`` cards may use beside a board
        of ``board`` cards (the rest from the board), under the selection rule and this
        evaluator's ``hole_cards`` reading; None for a hand taken as it is (no selection,
        or a hand dealt at its final size with no board)."""
        sel = self.ruleset.selection
        if sel is None or (not board and hole == size):
            return None
        mode = self.rules.get("hole_cards", "as_dealt")
        span = (
            sel.hole_range if mode == "as_dealt" else range(0 if mode == "any" else 1, sel.hole + 1)
        )
        return [used for used in span if used <= hole and 0 <= size - used <= board]

    def _value_of(self, hole: tuple[Card, ...], board: tuple[Card, ...], half: str) -> HandValue:
        best = self._best(hole, board, half)
        assert best is not None, "the first half of a pot has no qualifier"
        return best.value

    def _best(
        self, hole: tuple[Card, ...], board: tuple[Card, ...], half: str = "high"
    ) -> BestHand | None:
        ranking, qualifier = self._half_ranking(half)
        candidates = [
            ranking.value(c) for c in self._candidates(hole, board, ranking.ruleset.hand_size)
        ]
        if qualifier is not None and self.rules.get("low_qualifier", "as_posted") == "as_posted":
            candidates = [v for v in candidates if ranking.meets(v, qualifier)]
        first = self.ruleset.pot_halves[0].name
        if half != first and self.rules.get("halves_cards", "shared") == "distinct":
            high = self._best(hole, board, first)
            taken = {frozenset(cards) for cards in high.alternatives} if high else set()
            candidates = [v for v in candidates if frozenset(v.cards) not in taken]
        if not candidates:
            return None
        best = max(v.key for v in candidates)
        top = [v for v in candidates if v.key == best]
        return BestHand(top[0], tuple(v.cards for v in top))

    def meets(self, value: HandValue, qualifier: HalfQualifier) -> bool:
        """Whether a hand valued by this evaluator meets ``qualifier`` (its category is
        one of the qualifier's and no card ranks above ``max_rank``, the ace counting 1
        where this ranking plays it low)."""
        return self._meets(value.category, [c.rank for c in value.played], qualifier)

    def _meets(self, category: str, ranks: Iterable[int], qualifier: HalfQualifier) -> bool:
        """:meth:`meets` from the category and the ranks of the cards played."""
        ace = 1 if self.rules["ace"] == "low" else ACE
        return category in qualifier.categories and all(
            (ace if r == ACE else r) <= qualifier.max_rank for r in ranks
        )

    def best_key(
        self, hole: Sequence[Card], board: Sequence[Card] = (), half: str | None = None
    ) -> tuple[int, ...] | None:
        """The key of the best hand from parsed ``hole`` (+ ``board``) cards for one half
        (None: the game's first half), None when no hand qualifies for the half: the key
        of :meth:`best_hand`'s hand, found without valuing every candidate hand.

        The engine values a hand without wild cards from its sorted ranks and its suit
        class alone (:meth:`value`), so each candidate the selection rule allows is
        reduced to a code that holds exactly those facts (:data:`_CODE`: the rank multiset
        and the suit counts, a sum over the cards; the subsets of the hole cards and of the
        board are summed once and added), then to its class (the multiset and the suit
        class the counts make).  Each class is valued once per evaluator and half, by the
        half's ranking and qualifier, and kept.  Hands with a
        wild card (under the half's ranking), and a second half under the ``distinct``
        reading of ``halves_cards`` (it needs the first half's every best hand), take
        :meth:`best_hand`'s search.  ``tests/reference/test_fast_pot.py`` holds the two
        paths equal on seeded random deals of every game with a selection rule or halves
        and on the corpus's showdowns.
        """
        half = self.ruleset.pot_halves[0].name if half is None else half
        plan = self._fast.get(half, _UNSEEN)
        if plan is _UNSEEN:
            plan = self._fast[half] = self._fast_plan(half)
        if plan is None:
            return self._searched_key(hole, board, half)
        ranking, qualifier, memo, deals = plan
        size = ranking.ruleset.hand_size
        if ranking._wild_rank is not None or max(size, len(hole)) > _MOST_CARDS:
            return self._searched_key(hole, board, half)
        shape = (len(hole), len(board), size)
        splits = self._split_memo.get(shape, _UNSEEN)
        if splits is _UNSEEN:
            splits = self._split_memo[shape] = self._splits(*shape)
        try:  # (a joker has no code: KeyError)
            if splits is None:
                codes: list[int] = [sum(map(_CODE.__getitem__, hole))]
                if board:  # (not played, but a joker on it takes the search, as ever)
                    sum(map(_CODE.__getitem__, board))
            else:
                table, board_sums, board_bits = self._board_memo(board)
                # the deal's class: the hand's answer up to renaming suits (_deal_class)
                deal = _deal_class(sum(map(_HOLE_BIT.__getitem__, hole)) + board_bits)
                found = deals.get(deal, _UNSEEN)
                if found is not _UNSEEN:
                    return found  # type: ignore[no-any-return]
                codes = _split_codes(hole, table, board_sums, size, splits)
        except KeyError:  # a joker: the search
            return self._searched_key(hole, board, half)
        best = self._best_class_key(ranking, qualifier, memo, codes)
        if splits is not None and len(deals) < _DEALS_KEPT:
            deals[deal] = best
        return best

    def _board_memo(
        self, board: Sequence[Card]
    ) -> tuple[tuple[Card, ...], dict[int, list[int]], int]:
        """``board`` as a tuple, its subset sums (filled as they are asked for) and its
        suit bits: the same for every hand of a deal, so kept for the last board seen
        (pot() passes one board object to all its hands and halves).  A joker on the
        board has no bit (KeyError)."""
        table = board if type(board) is tuple else tuple(board)
        memo = self._board_sums
        if memo[0] is not table and memo[0] != table:
            memo = self._board_sums = (table, {}, sum(map(_BOARD_BIT.__getitem__, table)))
        return memo  # type: ignore[return-value]

    def _searched_key(
        self, hole: Sequence[Card], board: Sequence[Card], half: str
    ) -> tuple[int, ...] | None:
        """:meth:`best_key` by :meth:`best_hand`'s search (where the fast path does not
        apply: wild cards, the ``distinct`` reading of ``halves_cards``, a mutant)."""
        found = self._best(tuple(hole), tuple(board), half)
        return None if found is None else found.value.key

    def _best_class_key(
        self,
        ranking: Evaluator,
        qualifier: HalfQualifier | None,
        memo: dict[int, tuple[int, ...] | None],
        codes: list[int],
    ) -> tuple[int, ...] | None:
        """The best key among candidate hands of these :data:`_CODE` sums (None: none
        qualifies), each class valued once into ``memo`` (:meth:`best_key`)."""
        suit_class_of = _SUIT_CLASS_OF
        # each candidate's class: its rank multiset, then its suit class in two bits
        classes = [(c >> _SUIT_FIELD << 2) | suit_class_of[c & _SUIT_MASK] for c in codes]
        for c in set(classes).difference(memo):  # classes valued for the first time
            memo[c] = self._code_key(ranking, qualifier, c)
        # None (the class fails the qualifier) is left out; keys are never empty tuples
        return max(filter(None, map(memo.__getitem__, classes)), default=None)

    def _fast_plan(
        self, half: str
    ) -> (
        tuple[
            Evaluator,
            HalfQualifier | None,
            dict[int, tuple[int, ...] | None],
            dict[tuple[int, ...], tuple[int, ...] | None],
        ]
        | None
    ):
        """What :meth:`best_key` needs for ``half``: its ranking, the qualifier that applies
        (None if none does), the memo of class keys, shared by every evaluator with the
        same ranking rules and qualifier (shared evaluators only), and this evaluator's
        memo of deal classes (:func:`_deal_class`: a hand's best key up to renaming the
        suits, kept in this process only); None where the half
        takes :meth:`best_hand`'s search: a second half under the ``distinct`` reading of
        ``halves_cards``, and an engine (or its half's ranking) whose :class:`Steps`
        replace a step of the search (:meth:`Steps.searches_as`: a mutant, the search is
        what it changes)."""
        ranking, qualifier = self._half_ranking(half)
        if (
            half != self.ruleset.pot_halves[0].name
            and self.rules.get("halves_cards", "shared") == "distinct"
        ):
            return None
        if not (self._search_as_default and ranking._search_as_default):
            return None  # a step of the search replaced in the composition (a mutant)
        if self.rules.get("low_qualifier", "as_posted") != "as_posted":
            qualifier = None
        memo: dict[int, tuple[int, ...] | None] = (
            _shared(_BEST, (ranking._rules_key, qualifier))
            if self._shares_values and ranking._shares_values
            else {}
        )
        # a deal's best key reads, beside the ranking and qualifier, how many cards a hand
        # has (the ranking's) and may take from the hand (the selection and its reading)
        deals: dict[tuple[int, ...], tuple[int, ...] | None] = (
            _shared(
                _DEALS,
                repr(
                    (
                        ranking._rules_key,
                        qualifier,
                        ranking.ruleset.hand_size,
                        self.ruleset.selection,
                        self.rules.get("hole_cards"),
                    )
                ),
            )
            if self._shares_values and ranking._shares_values
            else {}
        )
        return ranking, qualifier, memo, deals

    @staticmethod
    def _code_key(
        ranking: Evaluator, qualifier: HalfQualifier | None, code: int
    ) -> tuple[int, ...] | None:
        """The key ``ranking`` gives natural cards of the class ``code`` (rank multiset,
        then the index of the suit class in two bits: see :meth:`best_key`), None if they
        fail ``qualifier`` (None: no qualifier applies)."""
        ranks = _ranks_of(code >> 2)
        category, key = ranking._classified(ranks, _SUIT_CLASSES[code & 3])
        if qualifier is not None and not ranking._meets(category, ranks, qualifier):
            return None
        return key

    def value(self, hand: tuple[Card, ...]) -> HandValue:
        """Value of an already parsed and validated hand (the fast path for bulk passes)."""
        if self._wild_cards.isdisjoint(hand):
            if self._natural_as_default and len(set(hand)) == len(hand) <= _MOST_CARDS:
                # distinct natural cards: their class from their codes (see best_key), the
                # (ranks, suit class) _natural would read, valued once per evaluator
                try:
                    code = sum(map(_CODE.__getitem__, hand))
                except KeyError:  # not a card of the deck
                    code = -1
                if code >= 0:
                    code = (code >> _SUIT_FIELD << 2) | _SUIT_CLASS_OF[code & _SUIT_MASK]
                    found = self._natural_classes.get(code)
                    if found is None:
                        found = self._natural_classes[code] = self._classified(
                            tuple(sorted([c.rank for c in hand], reverse=True)),
                            _SUIT_CLASSES[code & 3],
                        )
                    return HandValue(found[0], found[1], hand, hand)
            category, key = self._natural(hand)
            return HandValue(category, key, hand, hand)
        wild_rank = self._wild_rank
        wilds = sum(1 for c in hand if c.is_joker or c.rank == wild_rank)
        return self._wild_value(hand, wilds)

    def _natural(self, hand: Sequence[Card]) -> tuple[str, tuple[int, ...]]:
        return self._classified(
            tuple(sorted((c.rank for c in hand), reverse=True)), suit_class(hand)
        )

    def _classified(self, ranks: tuple[int, ...], sc: str) -> tuple[str, tuple[int, ...]]:
        """Category and key of natural cards with these ranks (descending) and suit class
        (computed once per evaluator)."""
        found = self._cache.get((ranks, sc))
        if found is None:
            found = self._classify(ranks, sc)
            self._cache[(ranks, sc)] = found
        return found

    def _wild_value(self, hand: tuple[Card, ...], wilds: int) -> HandValue:
        """Best value over everything the wild cards may stand for.

        Ranks and suits are chosen separately: for each multiset of ranks the wilds take,
        only the suit class of the result matters to the ranking, so each reachable and
        permitted suit class is valued once (a few hundred values instead of 52**wilds).
        """
        wild_rank = self._wild_rank
        naturals = tuple(c for c in hand if not (c.is_joker or c.rank == wild_rank))
        # the answer depends on the suits only up to renaming them: solve the hand with its
        # suits renamed in order of appearance once, and rename the answer back
        rename: dict[str, str] = {}
        for suit in [c.suit for c in sorted(naturals, key=lambda c: (-c.rank, c.suit))] + list(
            SUIT_CHARS
        ):
            if suit not in rename:
                rename[suit] = SUIT_CHARS[len(rename)]
        canonical = tuple(Card(c.rank, rename[c.suit]) for c in naturals)
        cache_key = (tuple(sorted(canonical)), wilds, len(hand))
        found = self._wild_cache.get(cache_key)
        if found is None:
            found = self._wild_search(canonical, wilds, len(hand))
            self._wild_cache[cache_key] = found
        category, key, subs = found
        back = {v: k for k, v in rename.items()}
        return HandValue(
            category, key, hand, naturals + tuple(Card(c.rank, back[c.suit]) for c in subs)
        )

    def _wild_search(
        self, naturals: tuple[Card, ...], wilds: int, size: int, fast: bool = True
    ) -> tuple[str, tuple[int, ...], tuple[Card, ...]]:
        """Best (category, key, substitutes) for ``naturals`` plus ``wilds`` wild cards.

        The ranks the wilds take are tried in one fixed order, and for each the suits
        that give every reachable suit class; the first substitutes of the best key win.
        ``fast`` (the default) skips the suits of a rank choice that cannot beat the best
        key found so far: the hand it makes has a known rank multiset, and its key under
        any suit assignment is one of the keys of that multiset under the reachable suit
        classes, so when none of those is above the best key (only a key strictly above
        replaces it) no assignment would change the answer.  The answer is the same,
        substitutes included: ``fast=False`` is the exhaustive search, the oracle
        ``tests/reference/test_wild_search.py`` holds it equal to.  An engine whose
        :class:`Steps` replace a step of the valuation (a mutant's ``natural``, say)
        takes the exhaustive search: the bound reads the valuation it may change.
        """
        fast = fast and self._search_as_default
        held = set(naturals)
        natural_counts = Counter(c.rank for c in naturals)
        natural_ranks = [c.rank for c in naturals]
        dup_ok = self.rules["wild_duplicates"] == "allowed"
        four_naturals = self.rules["five_of_a_kind"] == "four_naturals"
        suit_counts = Counter(c.suit for c in naturals)
        # try the natural suits first: a flush needs them, so the loop below stops early
        suit_order = sorted(SUIT_CHARS, key=lambda s: -suit_counts[s])
        reachable = _reachable_suit_classes(suit_counts, size)
        best: tuple[str, tuple[int, ...], tuple[Card, ...]] | None = None
        for ranks in combinations_with_replacement(WILD_RANKS, wilds):
            counts = natural_counts.copy()
            counts.update(ranks)
            rank, n = max(counts.items(), key=lambda rc: rc[1])
            five = n >= 5
            if five and four_naturals and not (natural_counts[rank] == 4 and wilds == 1):
                continue
            if fast and best is not None:
                played_ranks = tuple(sorted((*natural_ranks, *ranks), reverse=True))
                if all(self._classified(played_ranks, sc)[1] <= best[1] for sc in reachable):
                    continue  # no suit assignment of these ranks beats the best so far
            target = len(reachable)
            if (
                SAME in reachable
                and not (dup_ok or five)
                and (len(set(ranks)) < wilds or natural_counts.keys() & set(ranks))
            ):
                # one suit for all would repeat a card: stop at the other classes
                target -= 1
            for subs in _first_of_each_suit_class(
                naturals, held, ranks, suit_order, target, distinct=not (dup_ok or five)
            ):
                played = naturals + subs
                category, key = self._natural(played)
                if self._bug and category not in BUG_COMPLETES and any(s.rank != ACE for s in subs):
                    continue  # a bug is an ace unless it completes a straight or flush
                if best is None or key > best[1]:
                    best = (category, key, subs)
        assert best is not None
        return best

    def _classify(self, ranks: tuple[int, ...], sc: str) -> tuple[str, tuple[int, ...]]:
        """Category and key from the sorted ranks (ace 14) and the suit class."""
        rules = self.rules
        counts = Counter(ranks)
        groups = sorted(counts.items(), key=lambda rc: (-rc[1], -rc[0]))
        shape_counts = [n for _, n in groups]
        top = self._run_top(ranks)
        flush = sc == SAME and len(ranks) > 1
        straight_ok = rules["straight_suits"] == "any" or sc == DISTINCT
        facts: dict[str, bool] = {
            CategoryName.FIVE_OF_A_KIND: shape_counts[0] >= 5,
            CategoryName.ROYAL_FLUSH: top == ACE and flush,
            CategoryName.ROYAL_STRAIGHT_FLUSH: top == ACE and flush,
            CategoryName.STRAIGHT_FLUSH: top is not None and flush,
            CategoryName.PAIR_OF_ACES: shape_counts[0] == 2 and groups[0][0] == ACE,
            CategoryName.FOUR_OF_A_KIND: shape_counts[0] >= 4,
            CategoryName.FULL_HOUSE: shape_counts[:2] == [3, 2],
            CategoryName.FLUSH: flush,
            CategoryName.STRAIGHT: top is not None and straight_ok,
            CategoryName.THREE_OF_A_KIND: shape_counts[0] >= 3,
            CategoryName.TWO_PAIR: shape_counts[:2] == [2, 2],
            CategoryName.ONE_PAIR: shape_counts[0] >= 2,
            CategoryName.HIGH_CARD: True,
        }
        category = next(s for s in self._shapes if facts[s])
        rank = self._rank_of[category]
        if rules["tiebreak"] == "category_only":
            return category, (rank,)
        if category in STRAIGHT_SHAPES:
            assert top is not None
            wheel_second = _WHEEL_SECOND.get(category, ())
            if top == _WHEEL_TOP and rules.get("wheel_place", "lowest") in wheel_second:
                return category, (rank, ACE - 1, 1)  # above king high, below ace high
            return category, (rank, -top if self._low else top)
        if category == CategoryName.FLUSH and not self._low:
            # a flush ranks card by card, even when a wild card duplicated a rank in it
            return category, (rank, *ranks)
        return category, (rank, *self._tiebreak(groups))

    def _run_top(self, ranks: tuple[int, ...]) -> int | None:
        """Top card of the straight these ranks form (the ace-low one counts 5, 3 or 2)."""
        n = len(ranks)
        if n < 2 or len(set(ranks)) != n:
            return None
        ace_rule = self.rules["straight_ace"]
        if ranks[0] - ranks[-1] == n - 1 and (ranks[0] != ACE or ace_rule != "low"):
            return ranks[0]
        if ranks[0] == ACE and ace_rule != "high":
            low = (*ranks[1:], 1)
            if low[0] - low[-1] == n - 1:
                return low[0]
        return None

    def _tiebreak(self, groups: list[tuple[int, int]]) -> tuple[int, ...]:
        rules = self.rules
        ace_value = ACE if rules["ace"] == "high" else 1

        def face(rank: int, ace: int = ace_value) -> int:
            return ace if rank == ACE else rank

        if not self._low:
            mode = rules["tiebreak"]
            if mode == "grouped":
                ordered = sorted(groups, key=lambda rc: (-rc[1], -face(rc[0])))
                return tuple(face(r) for r, _ in ordered)
            every = [face(r) for r, n in groups for _ in range(n)]
            if mode == "card_by_card":
                return tuple(sorted(every, reverse=True))
            matched = sorted((face(r) for r, n in groups if n > 1), reverse=True)
            single = sorted((face(r) for r, n in groups if n == 1), reverse=True)
            return (*matched, *single)
        # low: smaller faces are better, so the key holds negated faces
        pair_ace = ACE if rules["low_pair_ace"] == "high" else 1
        paired = sorted(((n, face(r, pair_ace)) for r, n in groups if n > 1), reverse=True)
        kickers = sorted(face(r) for r, n in groups if n == 1)
        if rules["low_card_order"] == "worst_first":
            kickers.reverse()
        return (*(-f for _, f in paired), *(-f for f in kickers))


# a step as the engine calls it, bound to one engine (its arguments those of the method)
Bound = Callable[..., Any]


@dataclass(frozen=True)
class Steps:
    """The named steps an :class:`Evaluator` is composed of.

    Each field takes the engine and returns the step bound to it; the default
    (:data:`DEFAULT_STEPS`) is the engine's own method of the same job.  A different
    composition, given at construction (``Evaluator(ruleset, profile, steps=...)``),
    replaces steps and nothing else: each mutant of the self-check is one
    (``dataclasses.replace(DEFAULT_STEPS, value=...)``, a field named, so a renamed step
    fails mypy and, at run time, the construction).  The engine's fast paths run only
    where the composition leaves alone every step they bypass (:meth:`searches_as`).

    ``parse_hand``, ``parse_deal``, ``value``, ``showdown``, ``winners``, ``pot`` and
    ``qualifies`` are the public methods of those names; ``natural`` values natural
    cards (wilds substituted), ``classify`` gives the category and key of sorted ranks
    and a suit class, ``run_top`` the top card of a straight, ``tiebreak`` the grouped
    key tail, ``wild_value`` resolves wild cards, ``half_ranking`` gives the ranking and
    qualifier of a pot's half, ``candidates`` the hands a selection rule allows, ``best``
    the best hand for one half from parsed cards.
    """

    parse_hand: Callable[[Evaluator], Bound] = lambda ev: ev.parse_hand
    parse_deal: Callable[[Evaluator], Bound] = lambda ev: ev.parse_deal
    value: Callable[[Evaluator], Bound] = lambda ev: ev.value
    natural: Callable[[Evaluator], Bound] = lambda ev: ev._natural
    classify: Callable[[Evaluator], Bound] = lambda ev: ev._classify
    run_top: Callable[[Evaluator], Bound] = lambda ev: ev._run_top
    tiebreak: Callable[[Evaluator], Bound] = lambda ev: ev._tiebreak
    wild_value: Callable[[Evaluator], Bound] = lambda ev: ev._wild_value
    half_ranking: Callable[[Evaluator], Bound] = lambda ev: ev._half_ranking
    candidates: Callable[[Evaluator], Bound] = lambda ev: ev._candidates
    best: Callable[[Evaluator], Bound] = lambda ev: ev._best
    showdown: Callable[[Evaluator], Bound] = lambda ev: ev.showdown
    winners: Callable[[Evaluator], Bound] = lambda ev: ev.winners
    pot: Callable[[Evaluator], Bound] = lambda ev: ev.pot
    qualifies: Callable[[Evaluator], Bound] = lambda ev: ev.qualifies

    def searches_as(self, other: Steps) -> bool:
        """Whether this composition runs every step of the best-hand search and the
        valuation as ``other`` does: the steps :meth:`Evaluator.best_key` and the bound
        of the wild-card search skip or read ahead of (a straight's top and the
        tie-break run inside ``classify``, which the fast paths call)."""
        return (
            self.best is other.best
            and self.candidates is other.candidates
            and self.half_ranking is other.half_ranking
            and self.value is other.value
            and self.natural is other.natural
            and self.wild_value is other.wild_value
            and self.classify is other.classify
            and self.parse_deal is other.parse_deal
        )


DEFAULT_STEPS = Steps()

# the rankings a ruleset may declare (``rules.ranking``): poker's, or one a module of its
# own values (reference/flush_length.py): that ranking's ``natural`` step, the rest the
# engine's own (its fast paths stand aside, as for any other composition)
RANKING_STEPS: dict[str, Steps] = {
    "poker": DEFAULT_STEPS,
    "flush_length": replace(
        DEFAULT_STEPS,
        natural=lambda ev: partial(flush_value, ev.categories, ev.rules.get("flush_tiebreak")),
    ),
}


def ranking_steps(rules: Any) -> Steps:
    """The steps of the ranking the ``rules`` mapping declares (poker unless ``ranking``
    names another); the base every composition of a ruleset's engine starts from."""
    return RANKING_STEPS[str(rules.get("ranking", "poker"))]


_evaluators: dict[tuple[str, Any], Evaluator] = {}


def evaluator(ruleset: str, profile: Profile | str | None = None) -> Evaluator:
    """A shared :class:`Evaluator` for a ruleset id and profile (built once, then reused)."""
    prof = load_profile(profile)
    cache_key = (ruleset, tuple(sorted(prof.choices.items())))
    if cache_key not in _evaluators:
        ev = _evaluators[cache_key] = Evaluator(ruleset, prof)
        ev._share_values()
    return _evaluators[cache_key]


def deciding_clauses(ev: Evaluator, values: Sequence[HandValue]) -> list[str]:
    """Labels of the clauses that decided a showdown between ``values``.

    Different categories at the top: the category-order clause(s) and the winning
    category's own clause.  The same category at the top: the tie-break clause(s).
    """
    best = max(v.key for v in values)
    winners = [v for v in values if v.key == best]
    rival_ranks = {v.key[0] for v in values if v.key != best}
    category = ev.ruleset.category(winners[0].category)
    if rival_ranks and best[0] not in rival_ranks:
        return [*ev.ruleset.order_clauses, category.clause]
    return [category.clause, *ev.ruleset.tiebreak_clauses]
