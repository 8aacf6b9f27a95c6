"""Situation-driven deals: first a situation where evaluators go wrong, then cards for it.

A deal drawn card by card rarely pits two hands of adjacent categories, or of the same
category with the same defining ranks and different kickers: exactly where implementers
slip.  This module draws a *situation* first (two categories side by side, a kicker that
differs at one position, equal hands in other suits, the wheel and broadway, a board that
plays, a wild card that must not duplicate a held card, a multiway split, a malformed
input ...) and then the cards that realise it.

Every decision goes through one primitive, :class:`Choices` (``index(n)``: a number
below n), with two backends:

* :class:`DrawChoices`: Hypothesis draws, so a deal that exposes a bug shrinks to a
  minimal counterexample (:func:`deal_strategy`, :func:`hand_strategy` for properties);
* :class:`SeededChoices`: ``random.Random`` seeded per deal, so the same seed gives
  byte-identical deals on any machine and Python run (no Hypothesis database, no clock,
  no salted ``hash``).  It records its indices; replayed as Hypothesis choices through
  :func:`game_strategy` they rebuild the same deal, which Hypothesis can then shrink
  (``fuzz`` explores with the seeded backend and shrinks what it finds that way).

The seeded sampler, for fuzz and for the challenge vectors::

    sample_deals(ruleset, profile, kinds, *, seed: int, count: int,
                 situations: Sequence[str] | None = None) -> list[Deal]

``count`` deals, round-robin over the situations :func:`applicable` to the ruleset,
profile and kinds (or only those of ``situations`` that apply; an unknown name is a
ValueError): deal i is of situation ``i mod len(applicable)`` and depends on ``seed`` and
i only, so every applicable situation appears at least ``count // len(applicable)``
times and a longer list starts with the shorter one.  Each :class:`Deal` is
``(kind, inputs, situation)`` with ``inputs`` in the corpus's form; reject deals (kind
``reject``, where ``kinds`` has it) carry exactly one fault.

    from pokercert.harness.explore.situations import sample_deals
    deals = sample_deals(get_ruleset("mt-poker-high"), "practice",
                         (Kind.CLASSIFY, Kind.COMPARE), seed=1, count=200)

Nothing here knows a jurisdiction.  What can be dealt is read from the ruleset and the
reference's public API: the category ranking in use (:attr:`Evaluator.categories`, best
first, so "adjacent" means adjacent in *this* game), the hand size, the deck's wild cards
(jokers, or the deuces where the ruleset posts them wild: then never dealt as naturals), the
hold'em selection and the engine knobs (which aces make a straight); each category is
realised from its shape.  The reference also answers what a wild hand plays as, so a
rival can echo it exactly.

:data:`SITUATIONS` names and explains every situation label a deal can carry (``fuzz``
prints how many deals of each it sent; challenge vectors may reuse the same labels).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import cache
from itertools import combinations
from math import factorial
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, TypeVar

from pokercert.harness.protocol import needs_feature
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

if TYPE_CHECKING:   # Hypothesis is imported where a strategy is built: the seeded
    # sampler (fuzz, the challenge's fresh deals) never needs it
    from hypothesis import strategies as st

__all__ = ["DEAL_KINDS", "SITUATIONS", "Choices", "Deal", "DrawChoices", "Game", "SeededChoices",
           "applicable", "build", "category_hand", "deal_strategy", "game_strategy",
           "hand_strategy", "sample_deals", "seeded_deals",
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
    "board-uses-3": "the best hand needs three hole cards (a rule may forbid it: Omaha)",
    "board-uses-4": "the best hand needs four hole cards (a rule may forbid it: Omaha)",
    "board-uses-5": "all five from the player's own cards (games without a board: stud)",
    "wild-duplicate": "suited cards with their top card held plus a wild card: a wild "
                      "card that duplicates a held card would make a better hand",
    "wild-five": "five of a kind (four naturals and a wild card, or three and two)",
    "wild-placed": "a hand of any category with 1 or 2 cards replaced by wild cards",
    "qualifier-at": "the dealer qualifier's lowest qualifying hand, suits redrawn "
                    "(kind qualifies)",
    "qualifier-below": "the qualifier's lowest hand with one card a rank lower",
    "qualifier-above": "the qualifier's lowest hand with one card a rank higher",
    "reject-duplicate": "the same card twice in one hand",
    "reject-across": "the same card in two hands, or in the hole and on the board",
    "reject-count": "one card too many or too few",
    "reject-suit": "a card with an unknown suit",
    "reject-joker": "a joker in a game whose deck has none",
    "reject-board": "a board with a compare in a game that deals none (PROTOCOL.md 3.3: "
                    "wrong-count; only to adapters naming the feature input_rules)",
    "showdown-dealt": "a whole pot (showdown): 2 to 9 players (7 in stud) dealt at random, "
                      "every half settled",
    "showdown-tie": "a whole pot that splits: a made hand on the board that plays for "
                    "everyone, or two players holding the same ranks in other suits",
    "showdown-low": "a whole pot of a low or split game dealt from the low cards (A-8, a "
                    "few nines and kings), players often sharing low ranks: qualifying, "
                    "tied and quartered lows, and no qualifying low",
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
                 kinds: Sequence[str] = DEAL_KINDS, features: Iterable[str] = ()) -> None:
        self.ruleset = ruleset
        # protocol features the adapter names (PROTOCOL.md 6): a rule of section 3 that a
        # feature states is dealt only to adapters naming it, as its vectors are sent
        self.features = frozenset(features)
        self.ev: Evaluator = evaluator(ruleset.id, load_profile(profile))
        self.ranking: tuple[str, ...] = self.ev.categories          # best first
        self.size = ruleset.hand_size
        self.jokers = ruleset.jokers
        # the posted wild cards: the jokers, or the deck's cards of a wild rank (deuces
        # wild): those are never dealt as naturals, and a hand's wild cards are them
        self.wild_rank = self.ev.wild_rank
        self.wilds = ruleset.jokers if self.wild_rank is None else len(SUITS)
        self.selection = ruleset.selection
        self.kinds = tuple(k for k in DEAL_KINDS if k in kinds
                           and (k != "best_hand" or ruleset.selection is not None)
                           and (k != "qualifies" or ruleset.qualifier is not None))
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
            return n == 5 and self.wilds > 0 and self.ev.rules["direction"] == "high"
        if category == "pair_of_aces":
            return n == 2
        if category in ("full_house",):
            return n == 5
        if category == "straight" and self.distinct_straights:
            return 2 <= n <= len(SUITS)
        if category in RUNS or category == "flush":
            return n >= 2
        return n >= need

    def deck(self) -> Deck:
        """A full deck of this game for one deal (its wild cards apart)."""
        return Deck(self.wilds, self.wild_rank)

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


# --------------------------------------------------------------------------- choices
#
# Every situation is built from one primitive, "an index below n" (:class:`Choices`), with
# two backends: Hypothesis draws (so a failing deal shrinks) and a seeded random.Random
# (byte-identical deals for a seed on any machine).  A seeded deal records its indices;
# replayed as Hypothesis choices they rebuild the same deal, which Hypothesis can then
# shrink (``fuzz`` does so with the first disagreement it finds).

class Choices(Protocol):
    """The one source of decisions of the generator: an index below ``n``."""

    def index(self, n: int) -> int:
        """A number in ``range(n)`` (0 when n <= 1, without a decision)."""
        ...


_WIDE = 1 << 24


@cache
def _index(n: int) -> st.SearchStrategy[int]:
    """An index below n, spread evenly: Hypothesis draws small ranges unevenly (a few
    values most of the time), so the draw is wide and taken modulo n; it still shrinks
    to 0, the first (simplest) option, and a recorded seeded index i < n replays as i."""
    from hypothesis import strategies as st

    if n > _WIDE:
        return st.integers(0, n - 1)
    return st.integers(0, _WIDE - 1).map(lambda x: x % n)


class DrawChoices:
    """Choices drawn by Hypothesis (inside ``@st.composite`` or ``data().draw``)."""

    def __init__(self, draw: st.DrawFn) -> None:
        self.draw = draw

    def index(self, n: int) -> int:
        return 0 if n <= 1 else self.draw(_index(n))


class SeededChoices:
    """Choices from ``random.Random(seed)``: the same seed gives the same indices on any
    machine and Python run (string seeds are hashed with SHA-512 by ``random``, not by
    the process's salted ``hash``).  ``record`` keeps every index in order, the choice
    sequence that replays this deal in Hypothesis."""

    def __init__(self, seed: int | str) -> None:
        self.rng = random.Random(seed)
        self.record: list[int] = []

    def index(self, n: int) -> int:
        if n <= 1:
            return 0
        value = self.rng.randrange(n)
        self.record.append(value)
        return value


def _coin(ch: Choices) -> bool:
    return ch.index(2) == 1


def _pick(ch: Choices, options: Sequence[Any]) -> Any:
    return options[ch.index(len(options))]


def _distinct(ch: Choices, k: int, avoid: Iterable[int] = ()) -> list[int]:
    """k distinct ranks, none in ``avoid`` (one draw per rank; shrinks towards aces)."""
    free = [r for r in RANKS if r not in set(avoid)]
    out = []
    for _ in range(k):
        out.append(free.pop(ch.index(len(free))))
    return out


def _kickers(ch: Choices, game: Game, k: int, avoid: Sequence[int],
             no_run: bool) -> tuple[int, ...]:
    """k distinct kicker ranks, high to low; never a straight when that would change
    the category (all cards single in a game with straights)."""
    ranks = sorted(_distinct(ch, k, avoid), reverse=True)
    if no_run and game.has_runs and _is_run(ranks):
        # move the lowest card one rank further down (or the top one up): no run any more
        used = set(avoid) | set(ranks)
        for alt in [r for r in RANKS[::-1] if r not in used]:
            trial = [*ranks[:-1], alt]
            if not _is_run(trial):
                ranks = sorted(trial, reverse=True)
                break
    return tuple(ranks)


def category_hand(ch: Choices, game: Game, category: str, *, wild_cap: int = 2,
                  jokers_left: int | None = None, deck: Deck | None = None) -> Hand:
    """The ranks (and suit plan) of a hand of ``category`` in ``game``.

    Five of a kind takes 1 or 2 wild cards (at most ``wild_cap`` and ``jokers_left``);
    a category that cannot be dealt falls back to the next weaker one the game has.
    With ``deck``, only ranks (and suits) still undealt there are chosen, so that the
    later hands of a deal keep their category too.
    """
    n = game.size
    left = game.wilds if jokers_left is None else jokers_left
    if deck is not None:
        left = min(left, deck.jokers)

    def spare(rank: int, suit: str | None = None) -> int:
        if rank == game.wild_rank:       # a card of the wild rank is never a natural
            return 0
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
        top = _pick(ch, open_tops or tops)
        return Hand((), tuple(_run(top, n)), suited,
                    distinct=not suited and game.distinct_straights)
    if category == "five_of_a_kind":
        # the reading may ask for four naturals and one wild card
        most = 1 if game.ev.rules.get("five_of_a_kind") == "four_naturals" else 2
        wilds = 1 + ch.index(min(wild_cap, left, most))
        rank = _pick(ch, [r for r in RANKS if spare(r) >= 5 - wilds] or RANKS)
        return Hand(((rank, 5 - wilds),), (), False, wilds)
    if category == "pair_of_aces":
        return Hand(((ACE, 2),), (), False)
    if category == "flush" and deck is not None:
        suit = _pick(ch, SUITS)
        # a suit the deal has used up (a royal and a straight flush in it, say) cannot
        # hold a flush: the next suit round that still can (the same deal otherwise)
        at = SUITS.index(suit)
        suit = next((s for s in SUITS[at:] + SUITS[:at]
                     if sum(spare(r, s) for r in RANKS) >= n), suit)
        taken = [r for r in RANKS if not spare(r, suit)]
        return Hand((), _kickers(ch, game, n, taken, no_run=True), True)
    sizes = _groups(category, n)
    avoid: list[int] = []
    if category == "one_pair" and "pair_of_aces" in game.ranking:
        avoid.append(ACE)
    group_ranks: list[int] = []
    for size in sizes:
        full = [r for r in RANKS if spare(r) < size]
        group_ranks += _distinct(ch, 1, [*avoid, *group_ranks, *full] if
                                 len(set(full) | set(avoid) | set(group_ranks)) < len(RANKS)
                                 else [*avoid, *group_ranks])
    empty = [r for r in RANKS if not spare(r)]
    kick = _kickers(ch, game, _kicker_count(category, n), [*group_ranks, *empty],
                    no_run=not sizes)
    return Hand(tuple(zip(group_ranks, sizes, strict=True)), kick, category == "flush")


# --------------------------------------------------------------------------- cards

class Deck:
    """The cards still undealt in one deal (wild cards counted separately).

    ``jokers`` is how many wild cards are left: jokers, or with ``wild_rank`` (deuces
    wild) the cards of that rank, which are then never dealt as natural cards.
    """

    def __init__(self, jokers: int, wild_rank: int | None = None) -> None:
        self.used: set[Card] = set()
        self.jokers = jokers
        self._wild_cards: list[Card] = []
        if wild_rank is not None:
            self._wild_cards = [Card(wild_rank, s) for s in SUITS]
            self.used.update(self._wild_cards)

    def wild_card(self) -> Card:
        """The next wild card (a joker, or an undealt card of the wild rank); the caller
        counts it off ``jokers``."""
        return self._wild_cards.pop(0) if self._wild_cards else JOKER

    def free(self, card: Card) -> bool:
        return card not in self.used

    def take(self, ch: Choices, rank: int, suit: str | None = None) -> Card:
        """The card of this rank in ``suit`` (or a drawn free suit); the nearest free rank
        when all four are dealt, so that a deal stays valid whatever was asked."""
        if suit is not None and Card(rank, suit) not in self.used:
            card = Card(rank, suit)
        else:
            for other in sorted(RANKS, key=lambda r: (abs(r - rank), -r)):
                free = [Card(other, s) for s in SUITS if Card(other, s) not in self.used]
                if free:
                    card = free[ch.index(len(free))]
                    break
        self.used.add(card)
        return card


def deal_hand(ch: Choices, deck: Deck, hand: Hand, *, avoid_suit: str | None = None,
              shuffle: bool = True) -> list[Card]:
    """Cards realising ``hand`` from ``deck``: one suit for a suited hand, otherwise
    drawn suits that never all agree; wild cards last before the shuffle."""
    ranks = hand.ranks
    cards: list[Card] = []
    if hand.suited:
        order = list(SUITS[ch.index(4):]) + list(SUITS)
        suits = [s for s in dict.fromkeys(order) if s != avoid_suit] + \
            ([avoid_suit] if avoid_suit else [])
        suit = next((s for s in suits if all(deck.free(Card(r, s)) for r in ranks)), None)
        if suit is not None:
            cards = [deck.take(ch, r, suit) for r in ranks]
    if not cards:
        for r in ranks:
            free = [s for s in SUITS if deck.free(Card(r, s))]
            if avoid_suit in free and len(free) > 1:
                free.remove(avoid_suit)
            if hand.distinct:
                free = [s for s in free if all(c.suit != s for c in cards)] or free
            cards.append(deck.take(ch, r, _pick(ch, free) if free else None))
        if len(cards) > 1 and len({c.suit for c in cards}) == 1 and not hand.suited:
            last = cards[-1]
            other = [Card(last.rank, s) for s in SUITS if deck.free(Card(last.rank, s))]
            if other:
                deck.used.discard(last)
                cards[-1] = other[0]
                deck.used.add(other[0])
    wilds = min(hand.wilds, deck.jokers)
    deck.jokers -= wilds
    cards += [deck.wild_card() for _ in range(wilds)]
    return shuffled(ch, cards) if shuffle else cards


def shuffled(ch: Choices, cards: list[T]) -> list[T]:
    """The cards in a drawn order (one draw; shrinks towards the order they were made in)."""
    rest = list(cards)
    code = ch.index(factorial(len(rest)))      # the permutation's Lehmer code
    out = []
    while rest:
        code, pick = divmod(code, len(rest))
        out.append(rest.pop(pick))
    return out


def _text(cards: Iterable[Card]) -> str:
    return format_cards(cards)


def _echo(ch: Choices, game: Game, deck: Deck, cards: Sequence[Card],
          bump: bool) -> list[Card]:
    """A natural hand with the ranks (and suit plan) the reference plays ``cards`` as:
    equal to it, or one card a rank apart when ``bump``."""
    played = game.ev.value(tuple(cards)).played
    ranks = sorted((c.rank for c in played), reverse=True)
    if bump:
        i = ch.index(len(ranks))
        ranks[i] = ranks[i] + 1 if ranks[i] < ACE else ranks[i] - 1
    suited = len({c.suit for c in played}) == 1
    groups = tuple((r, 1) for r in ranks)
    return deal_hand(ch, deck, Hand(groups, (), suited))


# --------------------------------------------------------------------------- situations

KIND_OF_HAND = (Kind.COMPARE, Kind.COMPARE, Kind.CLASSIFY)


def _hand_kind(ch: Choices, game: Game) -> str:
    """compare (order bugs) twice as often as classify (naming bugs), where claimed."""
    kinds = [k for k in (Kind.COMPARE, Kind.CLASSIFY) if k in game.kinds]
    if len(kinds) == 2:
        return str(_pick(ch, KIND_OF_HAND))
    return kinds[0]


def _deal(ch: Choices, game: Game, hands: list[list[Card]], situation: str,
          kind: str | None = None) -> Deal:
    kind = kind or _hand_kind(ch, game)
    if kind == "classify" or len(hands) == 1:
        return Deal("classify", {"hand": _text(hands[0])}, situation)
    return Deal("compare", {"hands": [_text(h) for h in hands]}, situation)


ADJACENT = (True, True, True, False)


def _categories(ch: Choices, game: Game, want: str | None = None) -> Deal:
    ranking = game.makeable
    deck = game.deck()
    kind = _hand_kind(ch, game)
    first = _pick(ch, ranking)
    a = deal_hand(ch, deck, category_hand(ch, game, first, wild_cap=1))
    if kind == "classify":
        return _deal(ch, game, [a], "categories", kind)
    if len(ranking) > 1 and _pick(ch, ADJACENT):
        # neighbours in the ranking in use, every adjacent pair alike
        i = ch.index(len(ranking) - 1)
        first, second = ranking[i], ranking[i + 1]
        deck = game.deck()
        a = deal_hand(ch, deck, category_hand(ch, game, first, wild_cap=1))
    else:
        second = _pick(ch, ranking)
    b = deal_hand(ch, deck, category_hand(ch, game, second, wild_cap=1, deck=deck))
    if _coin(ch):
        a, b = b, a
    return _deal(ch, game, [a, b], "categories", kind)


def _defining_ranks(ch: Choices, game: Game, want: str | None = None) -> Deal:
    options = [c for c in game.makeable if c != "pair_of_aces"]
    category = _pick(ch, options)
    deck = game.deck()
    n = game.size
    if category in RUNS:
        tops = [ACE] if category in ROYALS else game.tops()
        if category == "straight_flush" and any(c in ROYALS for c in game.ranking):
            tops = [t for t in tops if t != ACE]
        if len(tops) < 2:
            return _categories(ch, game)
        t1, t2 = _distinct_from(ch, tops, 2)
        hands = [Hand((), tuple(_run(t, n)), category != "straight") for t in (t1, t2)]
    elif category == "five_of_a_kind":
        a = category_hand(ch, game, category, wild_cap=1)
        b = _other_five(ch, game, a)
        if b is None:
            return _categories(ch, game)
        hands = [a, b]
    else:
        sizes = _groups(category, n)
        k = _kicker_count(category, n)
        if sizes:
            # aces in one deal of two: an ace counted low once it is paired is a mistake
            # only groups of aces show
            ranks = sorted([*_distinct(ch, 2 * len(sizes) - 1, [ACE]), ACE] if _coin(ch)
                           else _distinct(ch, 2 * len(sizes)), reverse=True)
            ga: tuple[int, ...]
            gb: tuple[int, ...]
            if len(sizes) == 2:          # crossed: A wins on its first group only
                ga, gb = (ranks[0], ranks[3]), (ranks[1], ranks[2])
            else:
                ga, gb = (ranks[0],), (ranks[1],)
            # the weaker group gets the stronger kickers, above the stronger group when
            # there is room (3-3-A against 4-4-2: card-by-card comparisons get it wrong)
            ka = _kickers(ch, game, k, [*ga, *gb], no_run=False)
            above = [r for r in RANKS if r > ga[0] and r not in (*gb, *ka)]
            if k and len(above) >= k and _coin(ch):
                kb = tuple(sorted(_distinct(ch, k, [r for r in RANKS if r not in above]),
                                  reverse=True))
            else:
                kb = _kickers(ch, game, k, [*ga, *gb, *ka], no_run=False)
            if ka > kb:
                ka, kb = kb, ka
            hands = [Hand(tuple(zip(ga, sizes, strict=True)), ka, False),
                     Hand(tuple(zip(gb, sizes, strict=True)), kb, False)]
        else:                            # flush, high card: every card differs
            a = category_hand(ch, game, category)
            b = category_hand(ch, game, category)
            if b.kickers == a.kickers:       # the same ranks: another top card for b
                b = a._replace(kickers=_kickers(ch, game, len(a.kickers), a.kickers[:1],
                                                no_run=True))
            hands = [a, b]
    if _coin(ch):
        hands.reverse()
    dealt = []
    for h in hands:
        dealt.append(deal_hand(ch, deck, h._replace(wilds=min(h.wilds, deck.jokers))))
    return _deal(ch, game, dealt, "defining-ranks")


def _other_five(ch: Choices, game: Game, hand: Hand, jokers: int | None = None
                ) -> Hand | None:
    """Five of a kind of another rank beside ``hand`` with the jokers left (``jokers``,
    default: the game's less ``hand``'s), or None when no joker is left."""
    left = (game.wilds - hand.wilds) if jokers is None else jokers
    if left < 1:
        return None
    rank = _pick(ch, [r for r in RANKS if r != hand.groups[0][0]])
    wilds = min(hand.wilds, left)
    return Hand(((rank, 5 - wilds),), (), False, wilds)


def _distinct_from(ch: Choices, options: Sequence[int], k: int) -> list[int]:
    pool = list(options)
    return [pool.pop(ch.index(len(pool))) for _ in range(k)]


def _kicker(ch: Choices, game: Game, want: str | None = None) -> Deal:
    if not game.with_kickers:
        return _categories(ch, game)
    # ``want`` "kicker-n": a category with an n-th kicker, that kicker differs
    wanted = int(want.rsplit("-", 1)[1]) - 1 if want else None
    options = game.with_kickers if wanted is None else tuple(
        c for c in game.with_kickers if _kicker_count(c, game.size) > wanted) or \
        game.with_kickers
    category = _pick(ch, options)
    a = category_hand(ch, game, category)
    k = len(a.kickers)
    pos = wanted if wanted is not None and wanted < k else ch.index(k)
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
    if pos + 1 < k and _coin(ch):
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
        return _categories(ch, game)
    b = a._replace(kickers=_pick(ch, candidates))
    pos = next(i for i, (x, y) in enumerate(zip(a.kickers, b.kickers, strict=True)) if x != y)
    deck = game.deck()
    first = deal_hand(ch, deck, a)
    second = deal_hand(ch, deck, b, avoid_suit=first[0].suit if a.suited else None)
    hands = [first, second]
    if _coin(ch):
        hands.reverse()
    return _deal(ch, game, hands, f"kicker-{pos + 1}", "compare"
                 if "compare" in game.kinds else "classify")


def _twins(ch: Choices, game: Game, count: int) -> list[list[Card]]:
    """``count`` hands of equal value that differ only in suit."""
    options = game.twinnable if count == 2 else \
        tuple(c for c in game.twinnable if _max_group(c) == 1) or game.twinnable
    category = _pick(ch, options)
    hand = category_hand(ch, game, category)
    deck = game.deck()
    out: list[list[Card]] = []
    for _ in range(count):
        out.append(deal_hand(ch, deck, hand, avoid_suit=out[-1][0].suit if out else None))
    return out


def _suits_only(ch: Choices, game: Game, want: str | None = None) -> Deal:
    if not game.twinnable or "compare" not in game.kinds:
        return _categories(ch, game)
    return _deal(ch, game, _twins(ch, game, 2), "suits-only", "compare")


def _edge_ranks(game: Game, which: str) -> list[list[int]]:
    n = game.size
    if which == "wheel":
        return [_run(n, n)]
    if which == "broadway":
        return [_run(ACE, n)]
    if which == "lowest":
        return [_run(n + 1, n)]
    if which == "wrap":
        return _wraps(n) or [_run(ACE, n)]
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


def _edge(ch: Choices, game: Game, want: str | None = None) -> Deal:
    which = want.removeprefix("edge-") if want else _pick(ch, EDGES)
    deck = game.deck()
    n = game.size
    if which == "near-flush":
        if n < 2:
            return _categories(ch, game)
        ranks = list(category_hand(ch, game, "flush").kickers) if game.has_flush else \
            _distinct(ch, n)
        cards = deal_hand(ch, deck, Hand(tuple((r, 1) for r in ranks[:-1]), (), True),
                          shuffle=True)
        odd = [s for s in SUITS if s != cards[0].suit and deck.free(Card(ranks[-1], s))]
        cards.append(deck.take(ch, ranks[-1], odd[0] if odd else None))   # dealt last
        hands = [cards]
    else:
        shape = _pick(ch, _edge_ranks(game, which))
        suited = _pick(ch, (False, False, True)) and len(set(shape)) == n
        hands = [deal_hand(ch, deck, Hand(tuple((r, 1) for r in shape), (), suited))]
    if "compare" in game.kinds and (Kind.CLASSIFY not in game.kinds
                                    or _pick(ch, KIND_OF_HAND) != "classify"):
        rival_edge = _pick(ch, EDGES)
        if rival_edge == "near-flush" or rival_edge == which:
            rival = category_hand(ch, game, _pick(ch, game.makeable), wild_cap=0,
                                  deck=deck)
            hands.append(deal_hand(ch, deck, rival))
        else:
            shape = _pick(ch, _edge_ranks(game, rival_edge))
            hands.append(deal_hand(ch, deck, Hand(tuple((r, 1) for r in shape), (),
                                                    _coin(ch))))
        if _coin(ch):
            hands.reverse()
        return _deal(ch, game, hands, f"edge-{which}", "compare")
    return _deal(ch, game, hands[:1], f"edge-{which}", "classify")


# categories by how few ways there are to deal them: the scarcest are dealt first
_CONSTRAINT = {name: i for i, name in enumerate((
    "royal_flush", "royal_straight_flush", "straight_flush", "five_of_a_kind",
    "four_of_a_kind", "pair_of_aces", "full_house", "flush", "straight"))}


def _multiway(ch: Choices, game: Game, want: str | None = None) -> Deal:
    if "compare" not in game.kinds:
        return _categories(ch, game)
    deck = game.deck()
    tie = want == "multiway-tie" if want else _coin(ch)
    if tie and game.twinnable:
        tied = _twins(ch, game, 2 + ch.index(2))
        for hand in tied:
            deck.used.update(hand)
        extra = [deal_hand(ch, deck, category_hand(
            ch, game, _pick(ch, game.makeable), wild_cap=0, deck=deck))
            for _ in range(ch.index(2) + (1 if len(tied) == 2 else 0))]
        hands = shuffled(ch, tied + extra)
        return _deal(ch, game, hands, "multiway-tie", "compare")
    count = 3 + ch.index(2)
    natural = [c for c in game.makeable if c != "five_of_a_kind"]
    picks = sorted(_distinct_from(ch, list(range(len(natural))), min(count, len(natural))))
    # weakest first: the rising chain a dealer-only comparison gets wrong
    cats = [natural[i] for i in reversed(picks)]
    while len(cats) < count:
        cats.append(cats[-1])
    # the most constrained hand is dealt first (a royal flush needs its very cards);
    # shown weakest first
    dealt: dict[int, list[Card]] = {}
    for i in sorted(range(len(cats)), key=lambda i: _CONSTRAINT.get(cats[i], len(_CONSTRAINT))):
        dealt[i] = deal_hand(ch, deck, category_hand(ch, game, cats[i], wild_cap=0,
                                                       deck=deck))
    hands = [dealt[i] for i in range(len(cats))]
    return _deal(ch, game, hands, "multiway-chain", "compare")


def _board_label(game: Game, uses: int) -> str:
    """The label of a board deal whose best hand is to take ``uses`` hole cards."""
    sel = game.selection
    assert sel is not None
    if uses == 0 and sel.board >= game.size:
        return "board-uses-0"
    return f"board-uses-{max(uses, sel.min_hole, game.size - sel.board, 1)}"


def _board(ch: Choices, game: Game, want: str | None = None) -> Deal:
    sel = game.selection
    assert sel is not None
    n = game.size
    deck = game.deck()
    strong = game.makeable[:max(1, len(game.makeable) // 2)]
    lowest = max(sel.min_hole, 0)
    choices = list(range(min(sel.hole, n) + 1))
    if want:                            # the hole cards a "board-uses-k" label can mean
        choices = [u for u in choices if _board_label(game, u) == want] or choices
    uses = _pick(ch, choices)
    made = deal_hand(ch, deck, category_hand(ch, game, _pick(ch, strong), wild_cap=0),
                     shuffle=False)
    if uses == 0 and sel.board >= n:
        board = made + [deck.take(ch, _pick(ch, RANKS)) for _ in range(sel.board - n)]
        hole = [deck.take(ch, _pick(ch, RANKS[6:])) for _ in range(sel.hole)]
    else:
        uses = max(uses, lowest, n - sel.board, 1)
        hole = made[:uses] + [deck.take(ch, _pick(ch, RANKS))
                              for _ in range(sel.hole - uses)]
        board = made[uses:] + [deck.take(ch, _pick(ch, RANKS))
                               for _ in range(sel.board - (n - uses))]
    board = shuffled(ch, board)
    kinds = [k for k in (Kind.BEST_HAND, Kind.COMPARE) if k in game.kinds]
    kind = _pick(ch, kinds)
    label = f"board-uses-{uses}"
    if kind == "best_hand":
        return Deal("best_hand", {"hole": _text(hole), "board": _text(board)}, label)
    rival = [deck.take(ch, _pick(ch, RANKS)) for _ in range(sel.hole)]
    holes = [hole, rival] if _coin(ch) else [rival, hole]
    return Deal("compare", {"hands": [_text(h) for h in holes], "board": _text(board)}, label)


WILDS = ("duplicate", "five", "placed", "placed")
PLACES = ("top", "kicker", "group", "any")


def _wild(ch: Choices, game: Game, want: str | None = None) -> Deal:
    deck = game.deck()
    n = game.size
    which = want.removeprefix("wild-") if want else _pick(ch, WILDS)
    if which == "duplicate" and n >= 3:
        # suited cards holding the suit's top rank: only a duplicate would make it better
        top = _pick(ch, (ACE, KING)) if game.ev.rules["direction"] != "low" else \
            _pick(ch, (TWO, 3))
        rest = _distinct(ch, n - 2, [top])
        wilds = 1
        naturals = [top, *rest]
        hand = Hand(tuple((r, 1) for r in naturals), (), True, wilds)
    elif which == "five" and game.can_make("five_of_a_kind"):
        hand = category_hand(ch, game, "five_of_a_kind")
    else:
        which = "placed"
        base = category_hand(ch, game, _pick(ch, game.makeable), wild_cap=0)
        ranks = base.ranks
        count = 1 + ch.index(min(game.wilds, 2, n))
        place = _pick(ch, PLACES)
        order = list(range(len(ranks)))
        if place == "kicker":
            order.reverse()
        elif place == "any":
            order = shuffled(ch, order)
        elif place == "group":
            grouped = sum(k for _, k in base.groups)
            order = order[:grouped][::-1] + order[grouped:]
        drop = set(order[:count])
        kept = [r for i, r in enumerate(ranks) if i not in drop]
        hand = Hand(tuple((r, kept.count(r)) for r in dict.fromkeys(kept)), (), base.suited,
                    count)
    cards = deal_hand(ch, deck, hand)
    hands = [cards]
    if "compare" in game.kinds and (Kind.CLASSIFY not in game.kinds
                                    or _pick(ch, KIND_OF_HAND) != "classify"):
        rival = _other_five(ch, game, hand, deck.jokers) if which == "five" and \
            _coin(ch) else None
        hands.append(deal_hand(ch, deck, rival) if rival is not None else
                     _echo(ch, game, deck, cards, bump=ch.index(3) == 0))
        if _coin(ch):
            hands.reverse()
        return _deal(ch, game, hands, f"wild-{which}", "compare")
    return _deal(ch, game, hands, f"wild-{which}", "classify")


# --------------------------------------------------------------------------- qualifier

QUALIFIER_STEPS = ("at", "below", "above")


def _qualifier(ch: Choices, game: Game, want: str | None = None) -> Deal:
    """One dealer hand at the ruleset's lowest qualifying hand (its ``minimum``) or one
    card a rank off it, where a qualifier slips by one (kind ``qualifies``): the
    reference decides whether it qualifies."""
    qualifier = game.ruleset.qualifier
    assert qualifier is not None
    step = want.removeprefix("qualifier-") if want else _pick(ch, QUALIFIER_STEPS)
    minimum = game.ev.parse_hand(qualifier.minimum)
    ranks = sorted((c.rank for c in minimum), reverse=True)
    if step == "below" and len(set(ranks)) < len(ranks):
        # a qualifier that is a made hand ("a pair or better"): no card a rank lower
        # stays below it (2-2-3 would become three twos), so the hand just below is
        # the best of the category under it, where "one step too low" slips
        hand = deal_hand(ch, game.deck(), Hand((), _best_unpaired_below(game), False))
        return Deal(Kind.QUALIFIES, {"hand": _text(hand)}, f"qualifier-{step}")
    if step != "at":
        # one card a rank up or down, onto a rank the hand lacks where one can (a new
        # pair would jump past the boundary): A-K-4-3-2 below is A-Q-4-3-2
        by = 1 if step == "above" else -1
        movable = [i for i, r in enumerate(ranks) if TWO <= r + by <= ACE
                   and r + by not in ranks] or \
            [i for i, r in enumerate(ranks) if TWO <= r + by <= ACE] or [0]
        i = _pick(ch, movable)
        ranks[i] = min(max(ranks[i] + by, TWO), ACE)
    suited = len({c.suit for c in minimum}) == 1
    hand = deal_hand(ch, game.deck(), Hand(tuple((r, 1) for r in ranks), (), suited))
    return Deal(Kind.QUALIFIES, {"hand": _text(hand)}, f"qualifier-{step}")


@cache
def _unpaired_below(ev: Evaluator, size: int, minimum: str) -> tuple[int, ...]:
    """The ranks of the best hand of ``size`` distinct ranks in mixed suits (no pair, no
    flush) that ranks below ``minimum`` under ``ev``."""
    floor = ev.value(ev.parse_hand(minimum)).key
    best: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    for ranks in combinations(range(ACE, TWO - 1, -1), size):
        key = ev.value(tuple(Card(r, SUITS[i % len(SUITS)]) for i, r in enumerate(ranks))).key
        if key < floor and (best is None or key > best[0]):
            best = (key, ranks)
    assert best is not None, f"no unpaired hand below {minimum}"
    return best[1]


def _best_unpaired_below(game: Game) -> tuple[int, ...]:
    qualifier = game.ruleset.qualifier
    assert qualifier is not None
    return _unpaired_below(game.ev, game.size, qualifier.minimum)


# --------------------------------------------------------------------------- reject

REJECTS = ("duplicate", "count", "suit", "across", "joker")
BAD_SUITS = ("x", "z", "e")
# the protocol feature whose rule "reject-board" deals (PROTOCOL.md 3.3), read from the
# flag its corpus vectors carry so that deals and vectors are gated by the same feature
BOARD_FEATURE = needs_feature(("unused-field",))


def _board_deals(game: Game) -> bool:
    """Whether ``game`` deals "reject-board": a compare with a board in a game without
    community cards, to an adapter that claims compare and reject and names the rule."""
    return game.selection is None and Kind.COMPARE in game.kinds and \
        Kind.REJECT in game.kinds and BOARD_FEATURE in game.features


def _reject(ch: Choices, game: Game, want: str | None = None) -> Deal:
    """Exactly one fault in an otherwise valid request (the corpus's reject vectors).
    The request's operation is one of the kinds asked for; with ``reject`` alone, one of
    the operations the ruleset has (a malformed request of any of them)."""
    ops = [k for k in game.kinds if k in OPERATIONS] or [
        k for k in OPERATIONS if k != Kind.BEST_HAND or game.selection is not None]
    which = want.removeprefix("reject-") if want else _pick(ch, REJECTS)
    if which == "across" and "compare" not in ops and "best_hand" not in ops:
        which = "duplicate"
    if which == "joker" and game.jokers:
        which = "count"
    if which == "board" and not _board_deals(game):
        which = "count"
    deck = Deck(0)
    n = game.size
    if which == "board":        # two valid hands; the board is the one fault (3.3)
        hands = [_text(deal_hand(ch, deck, category_hand(ch, game, _pick(ch, [
            c for c in game.makeable if c != "five_of_a_kind"]), wild_cap=0, deck=deck)))
            for _ in range(2)]
        table = [deck.take(ch, _pick(ch, RANKS)) for _ in range(1 + ch.index(5))]
        return Deal("reject", {"op": "compare", "hands": hands, "board": _text(table)},
                    "reject-board")
    hand = deal_hand(ch, deck, category_hand(ch, game, _pick(ch, [
        c for c in game.makeable if c != "five_of_a_kind"]), wild_cap=0))
    tokens = [str(c) for c in hand]
    if which == "across":
        if "compare" in ops:
            other = [deck.take(ch, _pick(ch, RANKS)) for _ in range(n - 1)]
            tokens2 = [str(c) for c in other]
            tokens2.insert(ch.index(n), _pick(ch, tokens))
            return Deal("reject", {"op": "compare", "hands": [" ".join(tokens),
                                                              " ".join(tokens2)]},
                        "reject-across")
        sel = game.selection
        assert sel is not None
        hole = [str(deck.take(ch, _pick(ch, RANKS))) for _ in range(sel.hole)]
        board = [str(deck.take(ch, _pick(ch, RANKS))) for _ in range(sel.board - 1)]
        board.insert(ch.index(sel.board), _pick(ch, hole))
        return Deal("reject", {"op": "best_hand", "hole": " ".join(hole),
                               "board": " ".join(board)}, "reject-across")
    i = ch.index(n)
    if which == "duplicate":
        j = (i + 1 + ch.index(n - 1)) % n
        tokens[j] = tokens[i]
    elif which == "count":
        if _coin(ch) or n == 1:
            tokens.append(str(deck.take(ch, _pick(ch, RANKS))))
        else:
            tokens.pop(i)
    elif which == "suit":
        tokens[i] = tokens[i][:-1] + _pick(ch, BAD_SUITS)
    else:
        tokens[i] = "Xx"
    faulty = " ".join(tokens)
    if "classify" in ops:
        return Deal("reject", {"op": "classify", "hand": faulty}, f"reject-{which}")
    if "compare" in ops:
        other = [deck.take(ch, _pick(ch, RANKS)) for _ in range(n)]
        hands = [faulty, _text(other)] if _coin(ch) else [_text(other), faulty]
        return Deal("reject", {"op": "compare", "hands": hands}, f"reject-{which}")
    return _categories(ch, game)


# --------------------------------------------------------------------------- free

# the older card-by-card deals: rank shapes biased to edge structure, related hands,
# hole cards connected to the board; they reach corners no situation names

@cache
def _partitions(n: int, largest: int = 4) -> tuple[tuple[int, ...], ...]:
    """Group sizes of an n-card hand (no rank more than four times), simplest first."""
    out: list[tuple[int, ...]] = []

    def build(left: int, cap: int, acc: tuple[int, ...]) -> None:
        if left == 0:
            out.append(acc)
            return
        for part in range(min(left, cap), 0, -1):
            build(left - part, part, (*acc, part))

    build(n, largest, ())
    return tuple(sorted(out, key=lambda p: (max(p), p)))   # all-distinct first, pairs, ...


def _wraps(n: int) -> list[list[int]]:
    """Runs of n ranks that go round the corner (contain K, A and 2): no straights."""
    cycle = list(range(TWO, ACE + 1))
    found = []
    for start in range(len(cycle)):
        window = [cycle[(start + i) % len(cycle)] for i in range(n)]
        if {KING, ACE, TWO} <= set(window) or (n == 2 and {ACE, KING} == set(window)):
            found.append(window)
    return found


def rank_list(ch: Choices, n: int) -> list[int]:
    """Ranks of an n-card hand, biased to edge structure (groups, runs, near-runs, wraps)."""
    shape = _pick(ch, ("groups", "straight", "groups", "near_straight",
                       *(("wrap",) if n >= 3 else ())))
    if shape == "groups":
        parts = _pick(ch, _partitions(n))
        ranks = _distinct(ch, len(parts))
        return [r for r, k in zip(ranks, parts, strict=True) for _ in range(k)]
    if shape == "wrap":
        return list(_pick(ch, _wraps(n)))
    ranks = _run(_pick(ch, [n, *range(ACE, n, -1)]), n)
    if shape == "near_straight":
        i = ch.index(n)
        other = _pick(ch, RANKS)
        ranks[i] = other if other != ranks[i] else (other % ACE) + 1 if other < ACE else TWO
    return ranks


def _step(rank: int, step: int) -> int:
    moved = rank + step
    return TWO if moved > ACE else ACE if moved < TWO else moved


def _bumped(ch: Choices, ranks: Sequence[int]) -> list[int]:
    """The same ranks with one of them moved one step (a kicker or a pair rank)."""
    out = list(ranks)
    i = ch.index(len(out))
    out[i] = _step(out[i], _pick(ch, (-1, 1)))
    return out


def _bumped_group(ch: Choices, ranks: Sequence[int]) -> list[int]:
    """The same hand with every card of one rank moved one step (AA -> KK or 22)."""
    groups = sorted(set(ranks), key=lambda r: (-ranks.count(r), -r))
    rank = _pick(ch, groups)
    moved = _step(rank, _pick(ch, (-1, 1)))
    return [moved if r == rank else rank if r == moved else r for r in ranks]


def _same_shape(ch: Choices, ranks: Sequence[int]) -> list[int]:
    """Fresh ranks in the same group sizes (two pair against two pair, ...)."""
    sizes = sorted(Counter(ranks).values(), reverse=True)
    fresh = _distinct(ch, len(sizes))
    return [r for r, k in zip(fresh, sizes, strict=True) for _ in range(k)]


SUIT_PLANS = ("any", "flush", "near_flush")


def _suited(ch: Choices, ranks: Sequence[int], deck: Deck,
            plan: str | None = None) -> list[Card]:
    """Cards for these ranks: any suits, all one suit, or all but one of one suit.

    ``plan`` imposes the suit plan (a hand echoing another one: two flushes); the main
    suit is then the first one whose cards of these ranks are all still in the deck.
    """
    if plan is None:
        plan = _pick(ch, SUIT_PLANS)
        main = _pick(ch, SUITS)
    else:
        main = next((s for s in SUITS if all(deck.free(Card(r, s)) for r in ranks)),
                    SUITS[0])
    odd = ch.index(len(ranks)) if plan == "near_flush" else -1
    cards = []
    for i, rank in enumerate(ranks):
        if plan == "any":
            suit = _pick(ch, SUITS)
        elif i == odd:
            suit = _pick(ch, [s for s in SUITS if s != main])
        else:
            suit = main
        cards.append(deck.take(ch, rank, suit))
    return cards


def _with_jokers(ch: Choices, cards: list[Card], deck: Deck) -> list[Card]:
    """Replace up to the deck's remaining jokers by wild cards: at drawn positions, or in
    place of the kickers (quads and a joker make five of a kind, trips and two jokers
    too, two pair and a joker a full house)."""
    if not deck.jokers:
        return cards
    count = ch.index(min(deck.jokers, len(cards)) + 1)
    if count:
        if _pick(ch, ("anywhere", "kickers")) == "kickers":
            counts = Counter(c.rank for c in cards)
            order = sorted(range(len(cards)), key=lambda i: (counts[cards[i].rank],
                                                             cards[i].rank))
            where = order[:count]
        else:
            where = _distinct_from(ch, list(range(len(cards))), count)
        for i in where:
            deck.used.discard(cards[i])
            cards[i] = deck.wild_card()
        deck.jokers -= count
    return cards


def free_hand(ch: Choices, n: int, deck: Deck, ranks: Sequence[int] | None = None,
              plan: str | None = None) -> list[Card]:
    """One hand of n cards from ``deck`` drawn card by card (from ``ranks`` if given),
    in a drawn order, wild cards included where the deck has jokers."""
    cards = _suited(ch, ranks if ranks is not None else rank_list(ch, n), deck, plan)
    return shuffled(ch, _with_jokers(ch, cards, deck))


RELATIONS = ("independent", "same_ranks", "bump_one", "same_shape", "bump_group",
             "same_shape")


def _related_hands(ch: Choices, count: int, n: int, deck: Deck) -> list[list[Card]]:
    """``count`` hands from one deck; later ones often echo the first one's ranks."""
    first_ranks = rank_list(ch, n)
    first_plan = _pick(ch, SUIT_PLANS)
    hands = [free_hand(ch, n, deck, first_ranks, first_plan)]
    for _ in range(count - 1):
        relation = _pick(ch, RELATIONS)
        ranks: list[int] | None = None
        if relation == "same_ranks":        # differ in suits only: equal, or a flush
            ranks = list(first_ranks)
        elif relation == "bump_one":        # one card a rank apart: kickers
            ranks = _bumped(ch, first_ranks)
        elif relation == "bump_group":      # a pair, trips or quads a rank apart
            ranks = _bumped_group(ch, first_ranks)
        elif relation == "same_shape":      # e.g. two pair against two pair
            ranks = _same_shape(ch, first_ranks)
        # echo the suit plan too, so that two flushes (or two straights) meet
        plan = first_plan if ranks is not None and _coin(ch) else None
        hands.append(free_hand(ch, n, deck, ranks, plan))
    return hands


def _board_deal(ch: Choices, game: Game, holes: int) -> tuple[list[str], str]:
    """A community board and ``holes`` sets of hole cards, often built around the board."""
    sel = game.selection
    assert sel is not None
    deck = game.deck()
    board_ranks = rank_list(ch, sel.board)
    board_cards = _suited(ch, board_ranks, deck)
    board = _text(shuffled(ch, _with_jokers(ch, list(board_cards), deck)))
    near = sorted({min(max(r + d, TWO), ACE) for r in board_ranks for d in (-1, 0, 1)})
    out = []
    for _ in range(holes):
        if _pick(ch, ("connected", "independent")) == "connected":
            # ranks and suits that combine with the board
            suit = board_cards[0].suit
            cards = [deck.take(ch, _pick(ch, near), _pick(ch, (suit, *SUITS)))
                     for _ in range(sel.hole)]
            out.append(_text(_with_jokers(ch, cards, deck)))
        else:
            out.append(_text(free_hand(ch, sel.hole, deck)))
    return out, board


SHOWDOWNS = ("showdown-dealt", "showdown-tie", "showdown-low")
# the ranks a low deal draws from (the ace and the eight-or-better cards, weighted up)
LOW_RANKS = (ACE, TWO, 3, 4, 5, 6, 7, 8, ACE, TWO, 3, 4, 5, 6, 7, 8, 9, KING)


def _has_low(game: Game) -> bool:
    """Whether a pot of this game has a low half (split games) or is a low (razz)."""
    return any(h.name == "low" for h in game.ruleset.pot_halves)


def _twin(ch: Choices, deck: Deck, cards: Sequence[Card]) -> list[Card]:
    """The same ranks as ``cards`` in other suits where the deck still has them."""
    return shuffled(ch, [deck.take(ch, c.rank, _pick(ch, [s for s in SUITS if s != c.suit]))
                         for c in cards])


def _showdown(ch: Choices, game: Game, want: str | None = None) -> Deal:
    """A whole pot: every player's cards (hole cards, or a stud hand) and the board."""
    sel = game.selection
    assert sel is not None
    labels = [x for x in SHOWDOWNS if x != "showdown-low" or _has_low(game)]
    label = want if want in labels else _pick(ch, labels)
    deck = game.deck()
    board_game = sel.board > 0
    players = 2 + ch.index((9 if board_game else 7) - 1)
    ranks = LOW_RANKS if label == "showdown-low" else RANKS
    board: list[Card] = []
    if label == "showdown-tie" and board_game and _coin(ch):
        made = _pick(ch, game.makeable[:max(1, len(game.makeable) // 2)])
        board = deal_hand(ch, deck, category_hand(ch, game, made, wild_cap=0))
        board += [deck.take(ch, _pick(ch, RANKS)) for _ in range(sel.board - len(board))]
        ranks = RANKS[6:]                   # weak hole cards: the board plays
    hands: list[list[Card]] = []
    for i in range(players):
        if i == 1 and label != "showdown-dealt" and not board and _coin(ch):
            # the first player's ranks in other suits (all of them for a tie; some for
            # a low: a tied low beside different high hands, the quartered pot)
            share = sel.hole if label == "showdown-tie" else 1 + ch.index(sel.hole)
            hands.append(_twin(ch, deck, hands[0][:share]) +
                         [deck.take(ch, _pick(ch, ranks)) for _ in range(sel.hole - share)])
            continue
        hands.append([deck.take(ch, _pick(ch, ranks)) for _ in range(sel.hole)])
    if board_game and not board:
        board = [deck.take(ch, _pick(ch, ranks)) for _ in range(sel.board)]
    inputs: dict[str, Any] = {"hands": [_text(h) for h in hands]}
    if board_game:
        inputs["board"] = _text(shuffled(ch, board))
    return Deal(Kind.SHOWDOWN, inputs, label)


def _free(ch: Choices, game: Game, want: str | None = None) -> Deal:
    """A deal drawn card by card, of a kind the game asks for (no reject)."""
    options = _free_options(game)
    if not options:
        return _reject(ch, game)
    kind = _pick(ch, options)
    if kind == "classify":
        hand = free_hand(ch, game.size, game.deck())
        return Deal("classify", {"hand": _text(hand)}, "free")
    if kind == "compare":
        hands = _related_hands(ch, _pick(ch, (2, 3, 4)), game.size, game.deck())
        return Deal("compare", {"hands": [_text(h) for h in hands]}, "free")
    if kind == "compare_on_board":
        holes, board = _board_deal(ch, game, _pick(ch, (2, 3, 4)))
        return Deal("compare", {"hands": holes, "board": board}, "free")
    (hole,), board = _board_deal(ch, game, 1)
    return Deal("best_hand", {"hole": hole, "board": board}, "free")


# --------------------------------------------------------------------------- assembly

Builder = Callable[[Choices, Game, str | None], Deal]

# situation families: each builds a deal of its family, of the label ``want`` if given
FAMILIES: dict[str, Builder] = {
    "categories": _categories,
    "defining-ranks": _defining_ranks,
    "kicker": _kicker,
    "suits-only": _suits_only,
    "edge": _edge,
    "multiway": _multiway,
    "board": _board,
    "wild": _wild,
    "qualifier": _qualifier,
    "reject": _reject,
    "showdown": _showdown,
    "free": _free,
}
# a builder that falls back (e.g. no room for the kicker asked for) is asked again
ATTEMPTS = 8


def family_of(label: str) -> str:
    """The family of a situation label (``kicker-2`` -> ``kicker``)."""
    if label in FAMILIES:
        return label
    if label.startswith("board-"):
        return "board"
    return label.split("-", 1)[0]


def situations_for(game: Game) -> list[str]:
    """The situation families this game can deal, given the kinds asked for."""
    out = ["categories", "defining-ranks", "kicker", "edge"]
    if "compare" in game.kinds:
        out += ["suits-only", "multiway"]
    if game.selection is not None and {Kind.BEST_HAND, Kind.COMPARE} & set(game.kinds):
        out.append("board")          # a board deal is a best_hand or a compare on it
    if game.wilds:
        out.append("wild")
    if Kind.QUALIFIES in game.kinds:
        out.append("qualifier")
    if game.size >= 2 and "reject" in game.kinds:
        out.append("reject")
    if not {Kind.CLASSIFY, Kind.COMPARE} & set(game.kinds):
        # the board family deals best_hand (or compares, not claimed here)
        out = ["board"] if game.selection is not None and Kind.BEST_HAND in game.kinds \
            else []
        if Kind.QUALIFIES in game.kinds:
            out.append("qualifier")
        if game.size >= 2 and "reject" in game.kinds:
            out.append("reject")
    if Kind.SHOWDOWN in game.kinds and game.selection is not None and game.ruleset.halves:
        # whole pots of the games whose file says how their pot is split (the poker-room
        # games' [[ruleset.half]]): Mini-tex is one hand against the dealer's
        out.append("showdown")
    return out


def situation_labels(game: Game, *, rejects: bool = True) -> list[str]:
    """Every situation label this game's deals can carry, in :data:`SITUATIONS` order
    (``free`` not included: it is the rest of the space, not a situation)."""
    n = game.size
    labels: set[str] = set()
    for family in situations_for(game):
        if family == "kicker":
            most = max((_kicker_count(c, n) for c in game.with_kickers), default=0)
            labels.update(f"kicker-{i}" for i in range(1, most + 1))
            if not most:
                labels.add("categories")
        elif family == "edge":
            labels.update(f"edge-{e}" for e in EDGES if e != "near-flush" or n >= 2)
        elif family == "multiway":
            labels.add("multiway-chain")
            if game.twinnable:
                labels.add("multiway-tie")
        elif family == "board":
            sel = game.selection
            assert sel is not None
            labels.update(_board_label(game, u) for u in range(min(sel.hole, n) + 1))
        elif family == "wild":
            labels.add("wild-placed")
            if n >= 3:
                labels.add("wild-duplicate")
            if game.can_make("five_of_a_kind"):
                labels.add("wild-five")
        elif family == "showdown":
            labels.update(x for x in SHOWDOWNS if x != "showdown-low" or _has_low(game))
        elif family == "qualifier":
            labels.update(f"qualifier-{step}" for step in QUALIFIER_STEPS)
        elif family == "reject":
            if rejects:
                labels.update(("reject-duplicate", "reject-count", "reject-suit"))
                if {Kind.COMPARE, Kind.BEST_HAND} & set(game.kinds):
                    labels.add("reject-across")
                if not game.jokers:
                    labels.add("reject-joker")
                if _board_deals(game):
                    labels.add("reject-board")
        else:
            labels.add(family)
    return [name for name in SITUATIONS if name in labels]


def applicable(game: Game, situations: Sequence[str] | None = None, *,
               rejects: bool = True, free: bool = False) -> list[str]:
    """The labels to deal for ``game``: :func:`situation_labels` (and ``free``), or those
    of ``situations`` the game can deal.  An unknown label is a ValueError, and so is
    nothing left to deal."""
    labels = situation_labels(game, rejects=rejects)
    if free and _free_kinds(game):
        labels.append("free")
    if situations is not None:
        unknown = [s for s in situations if s not in SITUATIONS]
        if unknown:
            raise ValueError(f"unknown situation {unknown[0]!r} (known: "
                             f"{', '.join(SITUATIONS)})")
        wanted = set(situations)
        labels = [s for s in [*situation_labels(game, rejects=rejects), "free"]
                  if s in wanted and (s != "free" or _free_kinds(game))]
    if not labels:
        raise ValueError(f"{game.ruleset.id}: nothing to deal for kinds "
                         f"{list(game.kinds)}" + (f" in situations {list(situations)}"
                                                  if situations is not None else ""))
    return labels


def _free_options(game: Game) -> list[str]:
    """What :func:`_free` can deal for ``game``: classify and compare of whole hands, and,
    where a board is dealt, compare on the board and best_hand (a stud game's best_hand
    has no board to draw card by card, so it is not offered there)."""
    options: list[str] = [k for k in (Kind.CLASSIFY, Kind.COMPARE) if k in game.kinds]
    if game.selection is not None and game.selection.board:
        options += [k for k in ("compare_on_board", Kind.BEST_HAND)
                    if k.removesuffix("_on_board") in game.kinds]
    return options


def _free_kinds(game: Game) -> bool:
    return bool(_free_options(game))


def build(ch: Choices, game: Game, label: str) -> Deal:
    """A deal of situation ``label`` from the choices ``ch`` (either backend)."""
    make = FAMILIES[family_of(label)]
    deal = make(ch, game, label)
    for _ in range(ATTEMPTS - 1):
        if deal.situation == label:
            break
        deal = make(ch, game, label)
    return deal


def labelled(ch: Choices, game: Game, labels: Sequence[str],
             label: str | None = None) -> Deal:
    """A label (one choice among ``labels``, or ``label`` recorded as that choice by a
    seeded backend), then a deal of it: the one shape both backends share."""
    if label is None:
        label = labels[ch.index(len(labels))]
    return build(ch, game, label)


def deal_strategy(ruleset: Ruleset, profile: Profile | str | None = None,
                  kinds: Sequence[str] = DEAL_KINDS, *, rejects: bool = True,
                  free: bool = False, situations: Sequence[str] | None = None
                  ) -> st.SearchStrategy[Deal]:
    """Hypothesis strategy of deals for ``ruleset`` of the given vector kinds: a label
    evenly among the applicable ones (:func:`applicable`), then its cards; failing deals
    shrink.  ``rejects=False`` leaves out the malformed requests, ``free=True`` adds the
    card-by-card deals, ``situations`` keeps only these labels."""
    game = Game(ruleset, profile, kinds)
    return game_strategy(game, applicable(game, situations, rejects=rejects, free=free))


def game_strategy(game: Game, labels: Sequence[str]) -> st.SearchStrategy[Deal]:
    """:func:`deal_strategy` for a :class:`Game` and its labels (fuzz's shrinking path:
    a seeded deal's record, its label's index first, replays here as the same deal)."""
    from hypothesis import strategies as st

    chosen = tuple(labels)

    @st.composite
    def deals(draw: st.DrawFn) -> Deal:
        return labelled(DrawChoices(draw), game, chosen)

    return deals()


def hand_strategy(ruleset: Ruleset, profile: Profile | str | None = None, *,
                  count: int = 1) -> st.SearchStrategy[list[tuple[Card, ...]]]:
    """``count`` hands from one deck of ``ruleset``, through the same generator: each of
    a category of the game (any of them evenly), or (one draw in four) hands drawn card
    by card where the later ones echo the first (same ranks, a rank apart, the same
    shape); for properties that want hands, not requests."""
    from hypothesis import strategies as st

    game = Game(ruleset, profile, (Kind.CLASSIFY,))

    @st.composite
    def hands(draw: st.DrawFn) -> list[tuple[Card, ...]]:
        ch = DrawChoices(draw)
        deck = game.deck()
        if ch.index(4) == 0:
            return [tuple(h) for h in _related_hands(ch, count, game.size, deck)]
        return [tuple(deal_hand(ch, deck, category_hand(ch, game, _pick(ch, game.makeable),
                                                        deck=deck)))
                for _ in range(count)]

    return hands()


def seeded_deals(game: Game, labels: Sequence[str], *, seed: int, count: int
                 ) -> Iterator[tuple[Deal, list[int]]]:
    """``count`` deals round-robin over ``labels``, each with its choice record.

    Deal i is of ``labels[i % len(labels)]`` and drawn from its own
    ``random.Random(f"pokercert-deal:{seed}:{i}")``, so it depends on the seed and its
    place only.  The record starts with the label's index: replayed through
    :func:`game_strategy` with the same labels it rebuilds the same deal.
    """
    for i in range(count):
        which = i % len(labels)
        ch = SeededChoices(f"pokercert-deal:{seed}:{i}")
        deal = labelled(ch, game, labels, labels[which])
        yield deal, [which, *ch.record]


def sample_deals(ruleset: Ruleset, profile: Profile | str | None,
                 kinds: Sequence[str], *, seed: int, count: int,
                 situations: Sequence[str] | None = None,
                 features: Iterable[str] = ()) -> list[Deal]:
    """``count`` deals for ``ruleset``, stratified and deterministic for ``seed``.

    Round-robin over the situations :func:`applicable` to the ruleset, profile and
    kinds (or those of ``situations``), so each appears at least
    ``count // len(applicable)`` times; the same seed gives the same list on any
    machine and Python run (no Hypothesis, no clock, no database).  ``features``: the
    protocol features of the adapter the deals are for (see :class:`Game`).
    """
    game = Game(ruleset, profile, kinds, features)
    labels = applicable(game, situations)
    return [deal for deal, _ in seeded_deals(game, labels, seed=seed, count=count)]
