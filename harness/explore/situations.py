"""Situation-driven deals: first a situation where evaluators go wrong, then cards for it.

A deal drawn card by card rarely pits two hands of adjacent categories, or of the same
category with the same defining ranks and different kickers: exactly where implementers
slip.  This module draws a *situation* first (two categories side by side, a kicker that
differs at one position, equal hands in other suits, the wheel and broadway, a board that
plays, a wild card that must not duplicate a held card, a multiway split, a malformed
input ...) and then the cards that realise it.  Everything is a Hypothesis strategy, so a
deal that exposes a bug still shrinks to a minimal counterexample.

Nothing here knows a jurisdiction.  What can be dealt is read from the ruleset and the
reference's public API: the category ranking in use (:attr:`Evaluator.categories`, best
first, so "adjacent" means adjacent in *this* game), the hand size, the deck's jokers, the
hold'em selection and the engine knobs (which aces make a straight); each category is
realised from its shape in the engine's vocabulary
(:data:`pokercert.reference.rulesets.SHAPES`).  The reference also answers what a wild
hand plays as, so a rival can echo it exactly.

    from pokercert.harness.explore.situations import deal_strategy
    strategy = deal_strategy(get_ruleset("mt-poker-high"), "practice",
                             kinds=(Kind.CLASSIFY, Kind.COMPARE))
    # each example: Deal(kind, inputs, situation), inputs in the corpus's form

:data:`SITUATIONS` names and explains every situation label a deal can carry (``fuzz``
prints how many deals of each it sent; challenge vectors may reuse the same labels).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from math import factorial
from typing import Any, NamedTuple, TypeVar

from hypothesis import strategies as st

from pokercert.reference import (
    JOKER,
    Card,
    Evaluator,
    Profile,
    Ruleset,
    evaluator,
    format_cards,
    load_profile,
)
from pokercert.reference.cards import SUIT_CHARS
from pokercert.vectors.model import KINDS, OPERATIONS, Kind

__all__ = ["DEAL_KINDS", "SITUATIONS", "Deal", "Game", "category_hand", "deal_strategy",
           "situation_labels", "situations_for"]

T = TypeVar("T")
ACE, KING, QUEEN, TWO = 14, 13, 12, 2
RANKS = tuple(range(ACE, TWO - 1, -1))      # A K Q ... 2: shrinking favours high cards
SUITS = tuple(SUIT_CHARS)
DEAL_KINDS = KINDS
ROYALS = frozenset({"royal_flush", "royal_straight_flush"})
RUNS = frozenset({*ROYALS, "straight_flush", "straight"})
SUITED = frozenset({*ROYALS, "straight_flush", "flush"})

# every label a deal can carry, in the order coverage tables list them
SITUATIONS: dict[str, str] = {
    "categories": "two hands of two categories (adjacent ones weighted up); one hand "
                  "of any category for classify",
    "defining-ranks": "same category, different defining ranks, crossed where there are "
                      "two groups (KKK22 vs QQQAA, KK33 vs QQJJ, a high pair with low kickers)",
    "kicker-1": "same category, same defining ranks, the 1st kicker differs",
    "kicker-2": "... the 2nd kicker differs",
    "kicker-3": "... the 3rd kicker differs",
    "kicker-4": "... the 4th kicker differs",
    "kicker-5": "... the 5th card differs (flush, high card)",
    "suits-only": "equal hands that differ only in suit (a split)",
    "edge-wheel": "the ace-low straight (A-2-3-4-5, A-2-3, A-2) against a neighbour",
    "edge-broadway": "the ace-high straight against a neighbour",
    "edge-lowest": "the lowest straight without the ace (6-5-4-3-2, 4-3-2, 3-2)",
    "edge-wrap": "runs round the corner (Q-K-A-2-3, K-A-2): no straight",
    "edge-near": "one rank off a straight at either end (A-2-3-4-6, A-K-Q-J-9)",
    "edge-paired-span": "a pair inside a straight's span (5-5-6-7-9)",
    "edge-near-flush": "all cards but the last one of one suit",
    "multiway-tie": "3+ hands, two or more of them equal",
    "multiway-chain": "3+ hands of rising value, the weakest dealt first",
    "board-uses-0": "a board that plays on its own against weak hole cards",
    "board-uses-1": "the best hand needs exactly one hole card",
    "board-uses-2": "the best hand needs two hole cards",
    "wild-duplicate": "suited cards with their top card held plus a wild card: a wild "
                      "card that duplicates a held card would make a better hand",
    "wild-five": "five of a kind (four naturals and a wild card, or three and two)",
    "wild-placed": "a hand of any category with 1 or 2 cards replaced by wild cards",
    "reject-duplicate": "the same card twice in one hand",
    "reject-across": "the same card in two hands, or in the hole and on the board",
    "reject-count": "one card too many or too few",
    "reject-suit": "a card with an unknown suit",
    "reject-joker": "a joker in a game whose deck has none",
    "free": "deals drawn card by card with the older biases (related hands, connected "
            "boards): the rest of the space",
}


class Deal(NamedTuple):
    """One generated request: a vector kind, its inputs in the corpus's form, and the
    situation (a key of :data:`SITUATIONS`) it was drawn for."""

    kind: str
    inputs: Mapping[str, Any]
    situation: str = "free"

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in self.inputs.items())
        return f"{self.kind}({shown})"


class Game:
    """What the generator reads about one ruleset under one profile (all from data)."""

    def __init__(self, ruleset: Ruleset, profile: Profile | str | None = None,
                 kinds: Sequence[str] = DEAL_KINDS) -> None:
        self.ruleset = ruleset
        self.ev: Evaluator = evaluator(ruleset.id, load_profile(profile))
        self.ranking: tuple[str, ...] = self.ev.categories          # best first
        self.size = ruleset.hand_size
        self.jokers = ruleset.jokers
        self.selection = ruleset.selection
        self.kinds = tuple(k for k in DEAL_KINDS if k in kinds
                           and (k != "best_hand" or ruleset.selection is not None))
        straight_ace = self.ev.rules["straight_ace"]
        self.ace_low_runs = straight_ace in ("both", "low")
        self.ace_high_runs = straight_ace in ("both", "high")
        self.has_runs = any(c in RUNS for c in self.ranking)
        # a reading may ask a straight for cards of distinct suits
        self.distinct_straights = self.ev.rules["straight_suits"] == "distinct"
        self.has_flush = any(c in SUITED for c in self.ranking)
        self.makeable = tuple(c for c in self.ranking if self.can_make(c))
        self.with_kickers = tuple(c for c in self.makeable if _kicker_count(c, self.size) > 0
                                  and _max_group(c) <= 2)
        self.twinnable = tuple(c for c in self.makeable if _max_group(c) <= 2)

    def can_make(self, category: str) -> bool:
        """Whether a hand of this category can be dealt in this game at all."""
        n = self.size
        need = {"five_of_a_kind": 5, "four_of_a_kind": 4, "full_house": 5, "two_pair": 4,
                "three_of_a_kind": 3, "one_pair": 2, "pair_of_aces": 2}.get(category, 1)
        if category == "five_of_a_kind":
            # wild cards make the best hand: in a low game never a fifth card of a rank
            return n == 5 and self.jokers > 0 and self.ev.rules["direction"] == "high"
        if category == "pair_of_aces":
            return n == 2
        if category in ("full_house",):
            return n == 5
        if category == "straight" and self.distinct_straights:
            return 2 <= n <= len(SUITS)
        if category in RUNS or category == "flush":
            return n >= 2
        return n >= need

    def tops(self) -> list[int]:
        """Top cards of every straight of this game (the ace-low one counts ``size``)."""
        n = self.size
        out = [n] if self.ace_low_runs else []
        out += list(range(n + 1, ACE))
        if self.ace_high_runs:
            out.append(ACE)
        return out


# --------------------------------------------------------------------------- shapes

def _max_group(category: str) -> int:
    return {"five_of_a_kind": 5, "four_of_a_kind": 4, "full_house": 3,
            "three_of_a_kind": 3}.get(category, 2 if category in ("two_pair", "one_pair",
                                                                   "pair_of_aces") else 1)


def _groups(category: str, n: int) -> tuple[int, ...]:
    """Group sizes of the defining ranks (empty for runs, flushes and high cards)."""
    return {"five_of_a_kind": (5,), "four_of_a_kind": (4,), "full_house": (3, 2),
            "three_of_a_kind": (3,), "two_pair": (2, 2), "one_pair": (2,),
            "pair_of_aces": (2,)}.get(category, ())


def _kicker_count(category: str, n: int) -> int:
    if category in RUNS:
        return 0
    return n - sum(_groups(category, n))


def _run(top: int, n: int) -> list[int]:
    """The ranks of the n-card straight with this top card (top == n: the ace-low one)."""
    if top == n:
        return [*range(n, TWO - 1, -1), ACE]
    return list(range(top, top - n, -1))


def _is_run(ranks: Iterable[int]) -> bool:
    """Whether these ranks form a sequence with the ace at either end (any game)."""
    values = sorted(set(ranks))
    if len(values) < 2 or len(values) != len(list(ranks)):
        return False
    for seq in (values, sorted(1 if r == ACE else r for r in values)):
        if seq[-1] - seq[0] == len(seq) - 1:
            return True
    return False


class Hand(NamedTuple):
    """The ranks of a hand before suits: defining groups, kickers, suit plan, wild cards."""

    groups: tuple[tuple[int, int], ...]     # (rank, count), in the order they rank
    kickers: tuple[int, ...]                # high to low
    suited: bool
    wilds: int = 0
    distinct: bool = False                  # every card of another suit

    @property
    def ranks(self) -> list[int]:
        return [r for r, k in self.groups for _ in range(k)] + list(self.kickers)


# strategies built once and reused: building them on every draw costs more than the draws
_WIDE = 1 << 24


@cache
def _index(n: int) -> st.SearchStrategy[int]:
    """An index below n, spread evenly: Hypothesis draws small ranges unevenly (a few
    values most of the time), so the draw is wide and taken modulo n; it still shrinks
    to 0, the first (simplest) option."""
    if n <= 1:
        return st.just(0)
    return st.integers(0, _WIDE - 1).map(lambda x: x % n)


def _among(options: Sequence[Any]) -> st.SearchStrategy[Any]:
    """One of ``options``, spread as :func:`_index` spreads (shrinks to the first)."""
    values = tuple(options)
    return _index(len(values)).map(values.__getitem__)


_BOOL = _among((False, True))


def _pick(draw: st.DrawFn, options: Sequence[Any]) -> Any:
    return options[draw(_index(len(options)))]


def _distinct(draw: st.DrawFn, k: int, avoid: Iterable[int] = ()) -> list[int]:
    """k distinct ranks, none in ``avoid`` (one draw per rank; shrinks towards aces)."""
    free = [r for r in RANKS if r not in set(avoid)]
    out = []
    for _ in range(k):
        out.append(free.pop(draw(_index(len(free)))))
    return out


def _kickers(draw: st.DrawFn, game: Game, k: int, avoid: Sequence[int],
             no_run: bool) -> tuple[int, ...]:
    """k distinct kicker ranks, high to low; never a straight when that would change
    the category (all cards single in a game with straights)."""
    ranks = sorted(_distinct(draw, k, avoid), reverse=True)
    if no_run and game.has_runs and _is_run(ranks):
        # move the lowest card one rank further down (or the top one up): no run any more
        used = set(avoid) | set(ranks)
        for alt in [r for r in RANKS[::-1] if r not in used]:
            trial = [*ranks[:-1], alt]
            if not _is_run(trial):
                ranks = sorted(trial, reverse=True)
                break
    return tuple(ranks)


def category_hand(draw: st.DrawFn, game: Game, category: str, *, wild_cap: int = 2,
                  jokers_left: int | None = None, deck: Deck | None = None) -> Hand:
    """The ranks (and suit plan) of a hand of ``category`` in ``game``.

    Five of a kind takes 1 or 2 wild cards (at most ``wild_cap`` and ``jokers_left``);
    a category that cannot be dealt falls back to the next weaker one the game has.
    With ``deck``, only ranks (and suits) still undealt there are chosen, so that the
    later hands of a deal keep their category too.
    """
    n = game.size
    left = game.jokers if jokers_left is None else jokers_left
    if deck is not None:
        left = min(left, deck.jokers)

    def spare(rank: int, suit: str | None = None) -> int:
        if deck is None:
            return 4 if suit is None else 1
        if suit is not None:
            return int(deck.free(Card(rank, suit)))
        return sum(deck.free(Card(rank, s)) for s in SUITS)

    if category == "five_of_a_kind" and min(wild_cap, left) < 1:
        category = "four_of_a_kind" if game.can_make("four_of_a_kind") else "three_of_a_kind"
    if category in RUNS:
        suited = category != "straight"
        tops = game.tops()
        if category in ROYALS:
            tops = [ACE]
        elif category == "straight_flush" and any(c in ROYALS for c in game.ranking):
            tops = [t for t in tops if t != ACE]
        open_tops = [t for t in tops if (
            any(all(spare(r, s) for r in _run(t, n)) for s in SUITS) if suited
            else all(spare(r) for r in _run(t, n)))]
        top = _pick(draw, open_tops or tops)
        return Hand((), tuple(_run(top, n)), suited,
                    distinct=not suited and game.distinct_straights)
    if category == "five_of_a_kind":
        # the reading may ask for four naturals and one wild card
        most = 1 if game.ev.rules.get("five_of_a_kind") == "four_naturals" else 2
        wilds = 1 + draw(_index(min(wild_cap, left, most)))
        rank = _pick(draw, [r for r in RANKS if spare(r) >= 5 - wilds] or RANKS)
        return Hand(((rank, 5 - wilds),), (), False, wilds)
    if category == "pair_of_aces":
        return Hand(((ACE, 2),), (), False)
    if category == "flush" and deck is not None:
        suit = _pick(draw, SUITS)
        taken = [r for r in RANKS if not spare(r, suit)]
        return Hand((), _kickers(draw, game, n, taken, no_run=True), True)
    sizes = _groups(category, n)
    avoid: list[int] = []
    if category == "one_pair" and "pair_of_aces" in game.ranking:
        avoid.append(ACE)
    group_ranks: list[int] = []
    for size in sizes:
        full = [r for r in RANKS if spare(r) < size]
        group_ranks += _distinct(draw, 1, [*avoid, *group_ranks, *full] if
                                 len(set(full) | set(avoid) | set(group_ranks)) < len(RANKS)
                                 else [*avoid, *group_ranks])
    empty = [r for r in RANKS if not spare(r)]
    kick = _kickers(draw, game, _kicker_count(category, n), [*group_ranks, *empty],
                    no_run=not sizes)
    return Hand(tuple(zip(group_ranks, sizes, strict=True)), kick, category == "flush")


# --------------------------------------------------------------------------- cards

class Deck:
    """The cards still undealt in one deal (jokers counted separately)."""

    def __init__(self, jokers: int) -> None:
        self.used: set[Card] = set()
        self.jokers = jokers

    def free(self, card: Card) -> bool:
        return card not in self.used

    def take(self, draw: st.DrawFn, rank: int, suit: str | None = None) -> Card:
        """The card of this rank in ``suit`` (or a drawn free suit); the nearest free rank
        when all four are dealt, so that a deal stays valid whatever was asked."""
        if suit is not None and Card(rank, suit) not in self.used:
            card = Card(rank, suit)
        else:
            for other in sorted(RANKS, key=lambda r: (abs(r - rank), -r)):
                free = [Card(other, s) for s in SUITS if Card(other, s) not in self.used]
                if free:
                    card = free[draw(_index(len(free)))]
                    break
        self.used.add(card)
        return card


def deal_hand(draw: st.DrawFn, deck: Deck, hand: Hand, *, avoid_suit: str | None = None,
              shuffle: bool = True) -> list[Card]:
    """Cards realising ``hand`` from ``deck``: one suit for a suited hand, otherwise
    drawn suits that never all agree; wild cards last before the shuffle."""
    ranks = hand.ranks
    cards: list[Card] = []
    if hand.suited:
        order = list(SUITS[draw(_index(4)):]) + list(SUITS)
        suits = [s for s in dict.fromkeys(order) if s != avoid_suit] + \
            ([avoid_suit] if avoid_suit else [])
        suit = next((s for s in suits if all(deck.free(Card(r, s)) for r in ranks)), None)
        if suit is not None:
            cards = [deck.take(draw, r, suit) for r in ranks]
    if not cards:
        for r in ranks:
            free = [s for s in SUITS if deck.free(Card(r, s))]
            if avoid_suit in free and len(free) > 1:
                free.remove(avoid_suit)
            if hand.distinct:
                free = [s for s in free if all(c.suit != s for c in cards)] or free
            cards.append(deck.take(draw, r, _pick(draw, free) if free else None))
        if len(cards) > 1 and len({c.suit for c in cards}) == 1 and not hand.suited:
            last = cards[-1]
            other = [Card(last.rank, s) for s in SUITS if deck.free(Card(last.rank, s))]
            if other:
                deck.used.discard(last)
                cards[-1] = other[0]
                deck.used.add(other[0])
    wilds = min(hand.wilds, deck.jokers)
    deck.jokers -= wilds
    cards += [JOKER] * wilds
    return shuffled(draw, cards) if shuffle else cards


def shuffled(draw: st.DrawFn, cards: list[T]) -> list[T]:
    """The cards in a drawn order (one draw; shrinks towards the order they were made in)."""
    rest = list(cards)
    code = draw(_index(factorial(len(rest))))      # the permutation's Lehmer code
    out = []
    while rest:
        code, pick = divmod(code, len(rest))
        out.append(rest.pop(pick))
    return out


def _text(cards: Iterable[Card]) -> str:
    return format_cards(cards)


def _echo(draw: st.DrawFn, game: Game, deck: Deck, cards: Sequence[Card],
          bump: bool) -> list[Card]:
    """A natural hand with the ranks (and suit plan) the reference plays ``cards`` as:
    equal to it, or one card a rank apart when ``bump``."""
    played = game.ev.value(tuple(cards)).played
    ranks = sorted((c.rank for c in played), reverse=True)
    if bump:
        i = draw(_index(len(ranks)))
        ranks[i] = ranks[i] + 1 if ranks[i] < ACE else ranks[i] - 1
    suited = len({c.suit for c in played}) == 1
    groups = tuple((r, 1) for r in ranks)
    return deal_hand(draw, deck, Hand(groups, (), suited))


# --------------------------------------------------------------------------- situations

Builder = Callable[[st.DrawFn, Game], "Deal"]
_KIND_OF_HAND = _among((Kind.COMPARE, Kind.COMPARE, Kind.CLASSIFY))


def _hand_kind(draw: st.DrawFn, game: Game) -> str:
    """compare (order bugs) twice as often as classify (naming bugs), where claimed."""
    kinds = [k for k in (Kind.COMPARE, Kind.CLASSIFY) if k in game.kinds]
    if len(kinds) == 2:
        return str(draw(_KIND_OF_HAND))
    return kinds[0]


def _deal(draw: st.DrawFn, game: Game, hands: list[list[Card]], situation: str,
          kind: str | None = None) -> Deal:
    kind = kind or _hand_kind(draw, game)
    if kind == "classify" or len(hands) == 1:
        return Deal("classify", {"hand": _text(hands[0])}, situation)
    return Deal("compare", {"hands": [_text(h) for h in hands]}, situation)


_ADJACENT = _among((True, True, True, False))


def _categories(draw: st.DrawFn, game: Game) -> Deal:
    ranking = game.makeable
    deck = Deck(game.jokers)
    kind = _hand_kind(draw, game)
    first = _pick(draw, ranking)
    a = deal_hand(draw, deck, category_hand(draw, game, first, wild_cap=1))
    if kind == "classify":
        return _deal(draw, game, [a], "categories", kind)
    if len(ranking) > 1 and draw(_ADJACENT):
        # neighbours in the ranking in use, every adjacent pair alike
        i = draw(_index(len(ranking) - 1))
        first, second = ranking[i], ranking[i + 1]
        deck = Deck(game.jokers)
        a = deal_hand(draw, deck, category_hand(draw, game, first, wild_cap=1))
    else:
        second = _pick(draw, ranking)
    b = deal_hand(draw, deck, category_hand(draw, game, second, wild_cap=1, deck=deck))
    if draw(_BOOL):
        a, b = b, a
    return _deal(draw, game, [a, b], "categories", kind)


def _defining_ranks(draw: st.DrawFn, game: Game) -> Deal:
    options = [c for c in game.makeable if c != "pair_of_aces"]
    category = _pick(draw, options)
    deck = Deck(game.jokers)
    n = game.size
    if category in RUNS:
        tops = [ACE] if category in ROYALS else game.tops()
        if category == "straight_flush" and any(c in ROYALS for c in game.ranking):
            tops = [t for t in tops if t != ACE]
        if len(tops) < 2:
            return _categories(draw, game)
        t1, t2 = _distinct_from(draw, tops, 2)
        hands = [Hand((), tuple(_run(t, n)), category != "straight") for t in (t1, t2)]
    elif category == "five_of_a_kind":
        a = category_hand(draw, game, category, wild_cap=1)
        b = category_hand(draw, game, category, wild_cap=1, jokers_left=game.jokers - 1)
        hands = [a, b]
    else:
        sizes = _groups(category, n)
        k = _kicker_count(category, n)
        if sizes:
            ranks = sorted(_distinct(draw, 2 * len(sizes)), reverse=True)
            ga: tuple[int, ...]
            gb: tuple[int, ...]
            if len(sizes) == 2:          # crossed: A wins on its first group only
                ga, gb = (ranks[0], ranks[3]), (ranks[1], ranks[2])
            else:
                ga, gb = (ranks[0],), (ranks[1],)
            # the weaker group gets the stronger kickers, above the stronger group when
            # there is room (3-3-A against 4-4-2: card-by-card comparisons get it wrong)
            ka = _kickers(draw, game, k, [*ga, *gb], no_run=False)
            above = [r for r in RANKS if r > ga[0] and r not in (*gb, *ka)]
            if k and len(above) >= k and draw(_BOOL):
                kb = tuple(sorted(_distinct(draw, k, [r for r in RANKS if r not in above]),
                                  reverse=True))
            else:
                kb = _kickers(draw, game, k, [*ga, *gb, *ka], no_run=False)
            if ka > kb:
                ka, kb = kb, ka
            hands = [Hand(tuple(zip(ga, sizes, strict=True)), ka, False),
                     Hand(tuple(zip(gb, sizes, strict=True)), kb, False)]
        else:                            # flush, high card: every card differs
            a = category_hand(draw, game, category)
            b = category_hand(draw, game, category)
            if b.kickers == a.kickers:       # the same ranks: another top card for b
                b = a._replace(kickers=_kickers(draw, game, len(a.kickers), a.kickers[:1],
                                                no_run=True))
            hands = [a, b]
    if draw(_BOOL):
        hands.reverse()
    dealt = []
    for h in hands:
        dealt.append(deal_hand(draw, deck, h._replace(wilds=min(h.wilds, deck.jokers))))
    return _deal(draw, game, dealt, "defining-ranks")


def _distinct_from(draw: st.DrawFn, options: Sequence[int], k: int) -> list[int]:
    pool = list(options)
    return [pool.pop(draw(_index(len(pool)))) for _ in range(k)]


def _kicker(draw: st.DrawFn, game: Game) -> Deal:
    if not game.with_kickers:
        return _categories(draw, game)
    category = _pick(draw, game.with_kickers)
    a = category_hand(draw, game, category)
    k = len(a.kickers)
    pos = draw(_index(k))
    defining = [r for r, _ in a.groups]
    used = set(defining) | set(a.kickers)
    hi = a.kickers[pos - 1] if pos > 0 else ACE + 1
    lo = a.kickers[pos + 1] if pos + 1 < k else TWO - 1
    between = [r for r in RANKS if lo < r < hi and r not in used]
    others = [r for r in RANKS if r not in used]

    def keeps_category(kick: tuple[int, ...]) -> bool:
        return not (game.has_runs and not a.groups and _is_run(kick))

    candidates = []
    for r in between + others:
        kick = tuple(sorted((*a.kickers[:pos], r, *a.kickers[pos + 1:]), reverse=True))
        if keeps_category(kick):
            candidates.append(kick)
    if pos + 1 < k and draw(_BOOL):
        # crossed: a lower kicker differs the other way too, so that comparing from
        # the wrong end (or in dealt order) gives the other answer
        crossed = []
        for kick in candidates[:len(between)] or candidates[:3]:
            for j in range(pos + 1, k):
                for r in others:
                    if r in kick:
                        continue
                    trial = tuple(sorted((*kick[:j], r, *kick[j + 1:]), reverse=True))
                    first_diff = (trial > a.kickers) - (trial < a.kickers)
                    last_diff = (trial[::-1] > a.kickers[::-1]) - \
                        (trial[::-1] < a.kickers[::-1])
                    if first_diff and first_diff != last_diff and keeps_category(trial):
                        crossed.append(trial)
        candidates = crossed or candidates
    if not candidates:
        return _categories(draw, game)
    b = a._replace(kickers=_pick(draw, candidates))
    pos = next(i for i, (x, y) in enumerate(zip(a.kickers, b.kickers, strict=True)) if x != y)
    deck = Deck(game.jokers)
    first = deal_hand(draw, deck, a)
    second = deal_hand(draw, deck, b, avoid_suit=first[0].suit if a.suited else None)
    hands = [first, second]
    if draw(_BOOL):
        hands.reverse()
    return _deal(draw, game, hands, f"kicker-{pos + 1}", "compare"
                 if "compare" in game.kinds else "classify")


def _twins(draw: st.DrawFn, game: Game, count: int) -> list[list[Card]]:
    """``count`` hands of equal value that differ only in suit."""
    options = game.twinnable if count == 2 else \
        tuple(c for c in game.twinnable if _max_group(c) == 1) or game.twinnable
    category = _pick(draw, options)
    hand = category_hand(draw, game, category)
    deck = Deck(game.jokers)
    out: list[list[Card]] = []
    for _ in range(count):
        out.append(deal_hand(draw, deck, hand, avoid_suit=out[-1][0].suit if out else None))
    return out


def _suits_only(draw: st.DrawFn, game: Game) -> Deal:
    if not game.twinnable or "compare" not in game.kinds:
        return _categories(draw, game)
    return _deal(draw, game, _twins(draw, game, 2), "suits-only", "compare")


def _edge_ranks(game: Game, which: str) -> list[list[int]]:
    n = game.size
    if which == "wheel":
        return [_run(n, n)]
    if which == "broadway":
        return [_run(ACE, n)]
    if which == "lowest":
        return [_run(n + 1, n)]
    if which == "wrap":
        cycle = list(range(TWO, ACE + 1))
        found = []
        for start in range(len(cycle)):
            window = [cycle[(start + i) % len(cycle)] for i in range(n)]
            if {KING, ACE, TWO} <= set(window) or (n == 2 and {ACE, KING} == set(window)):
                found.append(window)
        return found or [_run(ACE, n)]
    if which == "near":
        low = [ACE, *range(TWO, TWO + n - 2), n + 1] if n >= 3 else [ACE, 3]
        high = [*range(ACE, ACE - n + 1, -1), ACE - n] if n >= 3 else [ACE, QUEEN]
        return [low, high]
    if which == "paired-span":                       # n cards over n-1 ranks, one paired
        if n < 3:
            return [[ACE, ACE]]
        out = []
        for t in (ACE, 9, n + 1):
            values = list(range(t, t - n, -1))
            out.append([values[0], *values[2:], values[-1]])
        return out
    return []


EDGES = ("wheel", "broadway", "lowest", "wrap", "near", "paired-span", "near-flush")
_EDGE = _among(EDGES)


def _edge(draw: st.DrawFn, game: Game) -> Deal:
    which = draw(_EDGE)
    deck = Deck(game.jokers)
    n = game.size
    if which == "near-flush":
        if n < 2:
            return _categories(draw, game)
        ranks = list(category_hand(draw, game, "flush").kickers) if game.has_flush else \
            _distinct(draw, n)
        cards = deal_hand(draw, deck, Hand(tuple((r, 1) for r in ranks[:-1]), (), True),
                          shuffle=True)
        odd = [s for s in SUITS if s != cards[0].suit and deck.free(Card(ranks[-1], s))]
        cards.append(deck.take(draw, ranks[-1], odd[0] if odd else None))   # dealt last
        hands = [cards]
    else:
        shape = _pick(draw, _edge_ranks(game, which))
        suited = draw(_among((False, False, True))) and len(set(shape)) == n
        hands = [deal_hand(draw, deck, Hand(tuple((r, 1) for r in shape), (), suited))]
    if "compare" in game.kinds and draw(_KIND_OF_HAND) != "classify":
        rival_edge = draw(_EDGE)
        if rival_edge == "near-flush" or rival_edge == which:
            rival = category_hand(draw, game, _pick(draw, game.makeable), wild_cap=0,
                                  deck=deck)
            hands.append(deal_hand(draw, deck, rival))
        else:
            shape = _pick(draw, _edge_ranks(game, rival_edge))
            hands.append(deal_hand(draw, deck, Hand(tuple((r, 1) for r in shape), (),
                                                    draw(_BOOL))))
        if draw(_BOOL):
            hands.reverse()
        return _deal(draw, game, hands, f"edge-{which}", "compare")
    return _deal(draw, game, hands[:1], f"edge-{which}", "classify")


# categories by how few ways there are to deal them: the scarcest are dealt first
_CONSTRAINT = {name: i for i, name in enumerate((
    "royal_flush", "royal_straight_flush", "straight_flush", "five_of_a_kind",
    "four_of_a_kind", "pair_of_aces", "full_house", "flush", "straight"))}


def _multiway(draw: st.DrawFn, game: Game) -> Deal:
    if "compare" not in game.kinds:
        return _categories(draw, game)
    deck = Deck(game.jokers)
    if draw(_BOOL) and game.twinnable:
        tied = _twins(draw, game, 2 + draw(_index(2)))
        for hand in tied:
            deck.used.update(hand)
        extra = [deal_hand(draw, deck, category_hand(
            draw, game, _pick(draw, game.makeable), wild_cap=0, deck=deck))
            for _ in range(draw(_index(2)) + (1 if len(tied) == 2 else 0))]
        hands = shuffled(draw, tied + extra)
        return _deal(draw, game, hands, "multiway-tie", "compare")
    count = 3 + draw(_index(2))
    natural = [c for c in game.makeable if c != "five_of_a_kind"]
    picks = sorted(_distinct_from(draw, list(range(len(natural))), min(count, len(natural))))
    # weakest first: the rising chain a dealer-only comparison gets wrong
    cats = [natural[i] for i in reversed(picks)]
    while len(cats) < count:
        cats.append(cats[-1])
    # the most constrained hand is dealt first (a royal flush needs its very cards);
    # shown weakest first
    dealt: dict[int, list[Card]] = {}
    for i in sorted(range(len(cats)), key=lambda i: _CONSTRAINT.get(cats[i], len(_CONSTRAINT))):
        dealt[i] = deal_hand(draw, deck, category_hand(draw, game, cats[i], wild_cap=0,
                                                       deck=deck))
    hands = [dealt[i] for i in range(len(cats))]
    return _deal(draw, game, hands, "multiway-chain", "compare")


def _board(draw: st.DrawFn, game: Game) -> Deal:
    sel = game.selection
    assert sel is not None
    n = game.size
    deck = Deck(game.jokers)
    strong = game.makeable[:max(1, len(game.makeable) // 2)]
    lowest = max(sel.min_hole, 0)
    uses = draw(_index(min(sel.hole, n) + 1))
    made = deal_hand(draw, deck, category_hand(draw, game, _pick(draw, strong), wild_cap=0),
                     shuffle=False)
    if uses == 0 and sel.board >= n:
        board = made + [deck.take(draw, _pick(draw, RANKS)) for _ in range(sel.board - n)]
        hole = [deck.take(draw, _pick(draw, RANKS[6:])) for _ in range(sel.hole)]
    else:
        uses = max(uses, lowest, n - sel.board, 1)
        hole = made[:uses] + [deck.take(draw, _pick(draw, RANKS))
                              for _ in range(sel.hole - uses)]
        board = made[uses:] + [deck.take(draw, _pick(draw, RANKS))
                               for _ in range(sel.board - (n - uses))]
    board = shuffled(draw, board)
    kinds = [k for k in (Kind.BEST_HAND, Kind.COMPARE) if k in game.kinds]
    kind = _pick(draw, kinds)
    label = f"board-uses-{uses}"
    if kind == "best_hand":
        return Deal("best_hand", {"hole": _text(hole), "board": _text(board)}, label)
    rival = [deck.take(draw, _pick(draw, RANKS)) for _ in range(sel.hole)]
    holes = [hole, rival] if draw(_BOOL) else [rival, hole]
    return Deal("compare", {"hands": [_text(h) for h in holes], "board": _text(board)}, label)


_WILD = _among(("duplicate", "five", "placed", "placed"))
_PLACE = _among(("top", "kicker", "group", "any"))


def _wild(draw: st.DrawFn, game: Game) -> Deal:
    deck = Deck(game.jokers)
    n = game.size
    which = draw(_WILD)
    if which == "duplicate" and n >= 3:
        # suited cards holding the suit's top rank: only a duplicate would make it better
        top = _pick(draw, (ACE, KING)) if game.ev.rules["direction"] != "low" else \
            _pick(draw, (TWO, 3))
        rest = _distinct(draw, n - 2, [top])
        wilds = 1
        naturals = [top, *rest]
        hand = Hand(tuple((r, 1) for r in naturals), (), True, wilds)
    elif which == "five" and game.can_make("five_of_a_kind"):
        hand = category_hand(draw, game, "five_of_a_kind")
    else:
        which = "placed"
        base = category_hand(draw, game, _pick(draw, game.makeable), wild_cap=0)
        ranks = base.ranks
        count = 1 + draw(_index(min(game.jokers, 2, n)))
        place = draw(_PLACE)
        order = list(range(len(ranks)))
        if place == "kicker":
            order.reverse()
        elif place == "any":
            order = shuffled(draw, order)
        elif place == "group":
            grouped = sum(k for _, k in base.groups)
            order = order[:grouped][::-1] + order[grouped:]
        drop = set(order[:count])
        kept = [r for i, r in enumerate(ranks) if i not in drop]
        hand = Hand(tuple((r, kept.count(r)) for r in dict.fromkeys(kept)), (), base.suited,
                    count)
    cards = deal_hand(draw, deck, hand)
    hands = [cards]
    if "compare" in game.kinds and draw(_KIND_OF_HAND) != "classify":
        hands.append(_echo(draw, game, deck, cards, bump=draw(_index(3)) == 0))
        if draw(_BOOL):
            hands.reverse()
        return _deal(draw, game, hands, f"wild-{which}", "compare")
    return _deal(draw, game, hands, f"wild-{which}", "classify")


# --------------------------------------------------------------------------- reject

_REJECT = _among(("duplicate", "count", "suit", "across", "joker"))
BAD_SUITS = ("x", "z", "e")


def _reject(draw: st.DrawFn, game: Game) -> Deal:
    """Exactly one fault in an otherwise valid request (the corpus's reject vectors)."""
    ops = [k for k in game.kinds if k in OPERATIONS]
    which = draw(_REJECT)
    if not ops:
        return _categories(draw, game)
    if which == "across" and "compare" not in ops and "best_hand" not in ops:
        which = "duplicate"
    if which == "joker" and game.jokers:
        which = "count"
    deck = Deck(0)
    n = game.size
    hand = deal_hand(draw, deck, category_hand(draw, game, _pick(draw, [
        c for c in game.makeable if c != "five_of_a_kind"]), wild_cap=0))
    tokens = [str(c) for c in hand]
    if which == "across":
        if "compare" in ops:
            other = [deck.take(draw, _pick(draw, RANKS)) for _ in range(n - 1)]
            tokens2 = [str(c) for c in other]
            tokens2.insert(draw(_index(n)), _pick(draw, tokens))
            return Deal("reject", {"op": "compare", "hands": [" ".join(tokens),
                                                              " ".join(tokens2)]},
                        "reject-across")
        sel = game.selection
        assert sel is not None
        hole = [str(deck.take(draw, _pick(draw, RANKS))) for _ in range(sel.hole)]
        board = [str(deck.take(draw, _pick(draw, RANKS))) for _ in range(sel.board - 1)]
        board.insert(draw(_index(sel.board)), _pick(draw, hole))
        return Deal("reject", {"op": "best_hand", "hole": " ".join(hole),
                               "board": " ".join(board)}, "reject-across")
    i = draw(_index(n))
    if which == "duplicate":
        j = (i + 1 + draw(_index(n - 1))) % n
        tokens[j] = tokens[i]
    elif which == "count":
        if draw(_BOOL) or n == 1:
            tokens.append(str(deck.take(draw, _pick(draw, RANKS))))
        else:
            tokens.pop(i)
    elif which == "suit":
        tokens[i] = tokens[i][:-1] + _pick(draw, BAD_SUITS)
    else:
        tokens[i] = "Xx"
    faulty = " ".join(tokens)
    if "classify" in ops:
        return Deal("reject", {"op": "classify", "hand": faulty}, f"reject-{which}")
    if "compare" in ops:
        other = [deck.take(draw, _pick(draw, RANKS)) for _ in range(n)]
        hands = [faulty, _text(other)] if draw(_BOOL) else [_text(other), faulty]
        return Deal("reject", {"op": "compare", "hands": hands}, f"reject-{which}")
    return _categories(draw, game)


# --------------------------------------------------------------------------- assembly

# situation families and their weights (a family draws its exact label itself)
FAMILIES: dict[str, tuple[Builder, int]] = {
    "categories": (_categories, 10),
    "defining-ranks": (_defining_ranks, 6),
    "kicker": (_kicker, 6),
    "suits-only": (_suits_only, 2),
    "edge": (_edge, 4),
    "multiway": (_multiway, 2),
    "board": (_board, 5),
    "wild": (_wild, 5),
    "reject": (_reject, 2),
}


def situations_for(game: Game) -> list[str]:
    """The situation families this game can deal, given the kinds asked for."""
    out = ["categories", "defining-ranks", "kicker", "edge"]
    if "compare" in game.kinds:
        out += ["suits-only", "multiway"]
    if game.selection is not None:
        out.append("board")
    if game.jokers:
        out.append("wild")
    if game.size >= 2 and "reject" in game.kinds:
        out.append("reject")
    if not {Kind.CLASSIFY, Kind.COMPARE} & set(game.kinds):
        out = ["board"] if game.selection is not None else []
    return out


def situation_labels(game: Game, *, rejects: bool = True) -> list[str]:
    """Every situation label this game's deals can carry, in :data:`SITUATIONS` order."""
    n = game.size
    labels: set[str] = set()
    for family in situations_for(game):
        if family == "kicker":
            most = max((_kicker_count(c, n) for c in game.with_kickers), default=0)
            labels.update(f"kicker-{i}" for i in range(1, most + 1))
            if not most:
                labels.add("categories")
        elif family == "edge":
            labels.update(f"edge-{e}" for e in EDGES)
        elif family == "multiway":
            labels.update(("multiway-tie", "multiway-chain"))
        elif family == "board":
            sel = game.selection
            assert sel is not None
            for u in range(min(sel.hole, n) + 1):
                if u == 0 and sel.board >= n:
                    labels.add("board-uses-0")
                else:
                    labels.add(f"board-uses-{max(u, sel.min_hole, n - sel.board, 1)}")
        elif family == "wild":
            labels.add("wild-placed")
            if n >= 3:
                labels.add("wild-duplicate")
            if game.can_make("five_of_a_kind"):
                labels.add("wild-five")
        elif family == "reject":
            if rejects:
                labels.update(("reject-duplicate", "reject-count", "reject-suit"))
                if {Kind.COMPARE, Kind.BEST_HAND} & set(game.kinds):
                    labels.add("reject-across")
                if not game.jokers:
                    labels.add("reject-joker")
        else:
            labels.add(family)
    return [name for name in SITUATIONS if name in labels]


def deal_strategy(ruleset: Ruleset, profile: Profile | str | None = None,
                  kinds: Sequence[str] = DEAL_KINDS, *,
                  extra: Sequence[tuple[st.SearchStrategy[Deal], int]] = (),
                  rejects: bool = True, only: Sequence[str] | None = None
                  ) -> st.SearchStrategy[Deal]:
    """Deals for ``ruleset`` of the given vector kinds, situation first.

    ``extra`` adds other deal strategies with a weight (``fuzz`` adds its free-form
    deals); ``rejects=False`` leaves out the malformed requests (challenge sets that
    only want rankable deals); ``only`` keeps these families of :data:`FAMILIES`.
    """
    game = Game(ruleset, profile, kinds)
    families = [f for f in situations_for(game) if (rejects or f != "reject")
                and (only is None or f in only)]
    if not families and not extra:
        raise ValueError(f"{ruleset.id}: nothing to deal for kinds {list(kinds)}")
    weighted: list[Any] = []
    for name in families:
        weighted += [FAMILIES[name][0]] * FAMILIES[name][1]
    for strategy, weight in extra:
        weighted += [strategy] * weight
    choice = _among(weighted)

    @st.composite
    def deals(draw: st.DrawFn) -> Deal:
        picked = draw(choice)
        deal: Deal = draw(picked) if isinstance(picked, st.SearchStrategy) else \
            picked(draw, game)
        return deal

    return deals()
