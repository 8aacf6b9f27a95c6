"""The deal toolkit: one deck, one hand plan, one game view, shared by every dealer.

Two layers deal cards: the corpus generator (:mod:`pokercert.vectors.generate`, fixed
constructions) and the harness's situation strategies
(:mod:`pokercert.harness.explore.situations`, seeded or Hypothesis-drawn deals).  Both take
their cards from here, so each name means one thing:

* :class:`Deck`: the cards still undealt in one deal (wild cards counted apart);
  :meth:`Deck.take` draws a suit through a :class:`Choices`, :meth:`Deck.hand` and
  :meth:`Deck.suited` take fixed suits for a generator's hand-built vectors;
* :class:`Hand`: the ranks of a hand before suits (groups, kickers, suit plan, wild cards),
  realised by :func:`deal_hand`;
* :class:`Game`: what a dealer reads about one ruleset under one profile (the category
  ranking in use, hand size, wild cards, selection, straights), all from data;
* :class:`Deal`: one generated request, a vector kind, its inputs in the corpus's form and
  the situation it was drawn for.

Every decision goes through :class:`Choices` (``index(n)``: a number below n); the
backends (Hypothesis draws, a seeded ``random.Random``) live with the strategies in the
harness.  The generator's own clause table of a ruleset is
:class:`pokercert.vectors.generate.games.TableGame`, its seeded pot dealer
:class:`pokercert.vectors.generate.pots.Dealer`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from math import factorial
from typing import Any, NamedTuple, Protocol, TypeVar

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
from pokercert.reference.categories import CategoryName
from pokercert.vectors.model import KINDS, PAI_GOW_KINDS, Kind

__all__ = [
    "ACE",
    "DEAL_KINDS",
    "KING",
    "QUEEN",
    "RANKS",
    "ROYALS",
    "RUNS",
    "SUITED",
    "SUITS",
    "TWO",
    "Choices",
    "Deal",
    "Deck",
    "Game",
    "Hand",
    "cards_text",
    "coin",
    "deal_hand",
    "distinct_from",
    "distinct_ranks",
    "group_sizes",
    "is_run",
    "kicker_count",
    "max_group",
    "pick",
    "run_ranks",
    "shuffled",
    "wrap_runs",
]

T = TypeVar("T")
ACE, KING, QUEEN, TWO = 14, 13, 12, 2
RANKS = tuple(range(ACE, TWO - 1, -1))  # A K Q ... 2: shrinking favours high cards
SUITS = tuple(SUIT_CHARS)
# the kinds dealt at random (pai gow's set hands are not dealt yet: hand-written vectors)
DEAL_KINDS = tuple(k for k in KINDS if k not in PAI_GOW_KINDS)
ROYALS = frozenset({CategoryName.ROYAL_FLUSH, CategoryName.ROYAL_STRAIGHT_FLUSH})
RUNS = frozenset({*ROYALS, CategoryName.STRAIGHT_FLUSH, CategoryName.STRAIGHT})
SUITED = frozenset({*ROYALS, CategoryName.STRAIGHT_FLUSH, CategoryName.FLUSH})

# the cards a hand of a category needs at least (others: one)
CARDS_NEEDED: dict[str, int] = {
    CategoryName.FIVE_OF_A_KIND: 5,
    CategoryName.FOUR_OF_A_KIND: 4,
    CategoryName.FULL_HOUSE: 5,
    CategoryName.TWO_PAIR: 4,
    CategoryName.THREE_OF_A_KIND: 3,
    CategoryName.ONE_PAIR: 2,
    CategoryName.PAIR_OF_ACES: 2,
}
# group sizes of the defining ranks (none: runs, flushes, high cards)
GROUPS: dict[str, tuple[int, ...]] = {
    CategoryName.FIVE_OF_A_KIND: (5,),
    CategoryName.FOUR_OF_A_KIND: (4,),
    CategoryName.FULL_HOUSE: (3, 2),
    CategoryName.THREE_OF_A_KIND: (3,),
    CategoryName.TWO_PAIR: (2, 2),
    CategoryName.ONE_PAIR: (2,),
    CategoryName.PAIR_OF_ACES: (2,),
}
LARGEST_GROUP: dict[str, int] = {category: max(sizes) for category, sizes in GROUPS.items()}


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

    def __init__(
        self,
        ruleset: Ruleset,
        profile: Profile | str | None = None,
        kinds: Sequence[str] = DEAL_KINDS,
        features: Iterable[str] = (),
    ) -> None:
        self.ruleset = ruleset
        # protocol features the adapter names (PROTOCOL.md 6): a rule of section 3 that a
        # feature states is dealt only to adapters naming it, as its vectors are sent
        self.features = frozenset(features)
        self.ev: Evaluator = evaluator(ruleset.id, load_profile(profile))
        self.ranking: tuple[str, ...] = self.ev.categories  # best first
        self.size = ruleset.hand_size
        self.jokers = ruleset.jokers
        # the posted wild cards: the jokers, or the deck's cards of a wild rank (deuces
        # wild): those are never dealt as naturals, and a hand's wild cards are them
        self.wild_rank = self.ev.wild_rank
        self.wilds = ruleset.jokers if self.wild_rank is None else len(SUITS)
        self.selection = ruleset.selection
        self.kinds = tuple(
            k
            for k in DEAL_KINDS
            if k in kinds
            and (k != Kind.BEST_HAND or ruleset.selection is not None)
            and (k != Kind.QUALIFIES or ruleset.qualifier is not None)
        )
        straight_ace = self.ev.rules["straight_ace"]
        self.ace_low_runs = straight_ace in ("both", "low")
        self.ace_high_runs = straight_ace in ("both", "high")
        self.has_runs = any(c in RUNS for c in self.ranking)
        # a reading may ask a straight for cards of distinct suits
        self.distinct_straights = self.ev.rules["straight_suits"] == "distinct"
        self.has_flush = any(c in SUITED for c in self.ranking)
        self.makeable = tuple(c for c in self.ranking if self.can_make(c))
        self.with_kickers = tuple(
            c for c in self.makeable if kicker_count(c, self.size) > 0 and max_group(c) <= 2
        )
        self.twinnable = tuple(c for c in self.makeable if max_group(c) <= 2)

    def can_make(self, category: str) -> bool:
        """Whether a hand of this category can be dealt in this game at all."""
        n = self.size
        need = CARDS_NEEDED.get(category, 1)
        if category == CategoryName.FIVE_OF_A_KIND:
            # wild cards make the best hand: in a low game never a fifth card of a rank
            return n == 5 and self.wilds > 0 and self.ev.rules["direction"] == "high"
        if category == CategoryName.PAIR_OF_ACES:
            return n == 2
        if category in (CategoryName.FULL_HOUSE,):
            return n == 5
        if category == CategoryName.STRAIGHT and self.distinct_straights:
            return 2 <= n <= len(SUITS)
        if category in RUNS or category == CategoryName.FLUSH:
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


def max_group(category: str) -> int:
    """The largest group of one rank a hand of ``category`` holds (1: all single)."""
    return LARGEST_GROUP.get(category, 1)


def group_sizes(category: str, n: int) -> tuple[int, ...]:
    """Group sizes of the defining ranks (empty for runs, flushes and high cards)."""
    return GROUPS.get(category, ())


def kicker_count(category: str, n: int) -> int:
    """How many of an n-card hand of ``category`` are kickers (none in a run)."""
    if category in RUNS:
        return 0
    return n - sum(group_sizes(category, n))


def run_ranks(top: int, n: int) -> list[int]:
    """The ranks of the n-card straight with this top card (top == n: the ace-low one)."""
    if top == n:
        return [*range(n, TWO - 1, -1), ACE]
    return list(range(top, top - n, -1))


def is_run(ranks: Iterable[int]) -> bool:
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

    groups: tuple[tuple[int, int], ...]  # (rank, count), in the order they rank
    kickers: tuple[int, ...]  # high to low
    suited: bool
    wilds: int = 0
    distinct: bool = False  # every card of another suit

    @property
    def ranks(self) -> list[int]:
        """Every card's rank: the groups' ranks repeated, then the kickers."""
        return [r for r, k in self.groups for _ in range(k)] + list(self.kickers)


def wrap_runs(n: int) -> list[list[int]]:
    """Runs of n ranks that go round the corner (contain K, A and 2): no straights."""
    cycle = list(range(TWO, ACE + 1))
    found = []
    for start in range(len(cycle)):
        window = [cycle[(start + i) % len(cycle)] for i in range(n)]
        if {KING, ACE, TWO} <= set(window) or (n == 2 and {ACE, KING} == set(window)):
            found.append(window)
    return found


class Choices(Protocol):
    """The one source of decisions of the generator: an index below ``n``."""

    def index(self, n: int) -> int:
        """A number in ``range(n)`` (0 when n <= 1, without a decision)."""
        ...


def coin(ch: Choices) -> bool:
    """A fair yes or no."""
    return ch.index(2) == 1


def pick(ch: Choices, options: Sequence[Any]) -> Any:
    """One of ``options`` (shrinks towards the first)."""
    return options[ch.index(len(options))]


def distinct_ranks(ch: Choices, k: int, avoid: Iterable[int] = ()) -> list[int]:
    """k distinct ranks, none in ``avoid`` (one draw per rank; shrinks towards aces)."""
    free = [r for r in RANKS if r not in set(avoid)]
    out = []
    for _ in range(k):
        out.append(free.pop(ch.index(len(free))))
    return out


def distinct_from(ch: Choices, options: Sequence[int], k: int) -> list[int]:
    """``k`` distinct members of ``options``, in the order drawn."""
    pool = list(options)
    return [pool.pop(ch.index(len(pool))) for _ in range(k)]


class Deck:
    """The cards still undealt in one deal (wild cards counted separately).

    ``jokers`` is how many wild cards are left: jokers, or with ``wild_rank`` (deuces
    wild) the cards of that rank, which are then never dealt as natural cards.  A drawn
    deal takes its suits through :meth:`take`; a generator's hand-built vector takes fixed
    ones through :meth:`hand`.
    """

    def __init__(self, jokers: int = 0, wild_rank: int | None = None) -> None:
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
        """Whether ``card`` is still undealt."""
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

    def take_first(self, rank: int, prefer: int = 0) -> Card:
        """The card of this rank in the first undealt suit from suit ``prefer`` round
        (s h d c); a ValueError when all four are dealt (a construction mistake)."""
        order = SUITS[prefer % len(SUITS) :] + SUITS[: prefer % len(SUITS)]
        suit = next((s for s in order if Card(rank, s) not in self.used), None)
        if suit is None:
            raise ValueError(f"no card of rank {rank} left in the deck")
        card = Card(rank, suit)
        self.used.add(card)
        return card

    def hand(self, ranks: Sequence[int], seat_no: int = 0) -> list[str]:
        """The text of one card of each rank, fixed suits: the i-th card is
        :meth:`take_first` from suit ``seat_no + i`` (a generator's hand-built vector)."""
        return [str(self.take_first(r, seat_no + i)) for i, r in enumerate(ranks)]


def deal_hand(
    ch: Choices, deck: Deck, hand: Hand, *, avoid_suit: str | None = None, shuffle: bool = True
) -> list[Card]:
    """Cards realising ``hand`` from ``deck``: one suit for a suited hand, otherwise
    drawn suits that never all agree; wild cards last before the shuffle."""
    ranks = hand.ranks
    cards: list[Card] = []
    if hand.suited:
        order = list(SUITS[ch.index(4) :]) + list(SUITS)
        suits = [s for s in dict.fromkeys(order) if s != avoid_suit] + (
            [avoid_suit] if avoid_suit else []
        )
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
            cards.append(deck.take(ch, r, pick(ch, free) if free else None))
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
    code = ch.index(factorial(len(rest)))  # the permutation's Lehmer code
    out = []
    while rest:
        code, pick = divmod(code, len(rest))
        out.append(rest.pop(pick))
    return out


def cards_text(cards: Iterable[Card]) -> str:
    """The cards as corpus text ("As Kd ...")."""
    return format_cards(cards)
