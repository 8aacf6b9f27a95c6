"""Differential fuzzing: an evaluator against the reference, on generated deals.

Hypothesis generates deals for one ruleset, biased towards the structure where evaluators
go wrong: straights and near-straights with the ace (the wheel, wraparounds), flushes and
near-flushes, pairs, trips and kickers that differ by one rank, hands that differ only in
suits, wild jokers (Montana), and Mini-tex boards with hole cards that connect to them.
Each deal goes through the adapter exactly as a corpus vector would (the request of
:func:`pokercert.harness.run.scoring.request_for`, the verdict of
:func:`pokercert.harness.run.scoring.score`) with the reference's answer as the expectation.
The first disagreement is shrunk by Hypothesis to a minimal counterexample and written
up as a ready-to-add corpus vector (:mod:`pokercert.harness.explore.counterexample`).

Runs are deterministic for a given seed; the Hypothesis example database lives in the
run's folder, so a rerun with the same folder replays the last counterexample first.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from math import factorial
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.database import DirectoryBasedExampleDatabase, ExampleDatabase
from hypothesis.errors import FlakyFailure, FlakyReplay

from pokercert.harness.adapters.base import Adapter
from pokercert.harness.explore.counterexample import (
    Found,
    expected_outcome,
    found_vector,
    placeholder_vector,
)
from pokercert.harness.explore.situations import Deal, Game, deal_strategy, situation_labels
from pokercert.harness.run.results import Outcome
from pokercert.harness.run.scoring import Scored, request_for, score
from pokercert.reference import JOKER, Card, Profile, Ruleset, evaluator, format_cards
from pokercert.reference.cards import SUIT_CHARS
from pokercert.vectors.model import KINDS, Kind

__all__ = ["Case", "FuzzReport", "case_strategy", "fuzz", "fuzz_strategy", "hand_strategy"]

ACE, KING, TWO = 14, 13, 2
RANKS = tuple(range(ACE, TWO - 1, -1))      # A K Q ... 2: shrinking favours high cards
SUITS = tuple(SUIT_CHARS)
FUZZ_KINDS = KINDS  # every kind: reject requests where the adapter claims reject


# one generated request (kind, inputs in the corpus's form, situation): the generator's
Case = Deal


# --------------------------------------------------------------------------- rank shapes

def _partitions(n: int, largest: int = 4) -> list[tuple[int, ...]]:
    """Group sizes of an n-card hand (no rank more than four times), simplest first."""
    out: list[tuple[int, ...]] = []

    def build(left: int, cap: int, acc: tuple[int, ...]) -> None:
        if left == 0:
            out.append(acc)
            return
        for part in range(min(left, cap), 0, -1):
            build(left - part, part, (*acc, part))

    build(n, largest, ())
    return sorted(out, key=lambda p: (max(p), p))   # all-distinct first, then pairs, ...


def _run(top: int, n: int) -> list[int]:
    """The ranks of the n-card straight with this top card (top == n: the ace-low one)."""
    if top == n:
        return [*range(n, TWO - 1, -1), ACE]
    return list(range(top, top - n, -1))


def _wraps(n: int) -> list[list[int]]:
    """Runs of n ranks that go round the corner (contain K, A and 2): no straights."""
    cycle = list(range(TWO, ACE + 1))
    found = []
    for start in range(len(cycle)):
        window = [cycle[(start + i) % len(cycle)] for i in range(n)]
        if {KING, ACE, TWO} <= set(window):
            found.append(window)
    return found


# strategies are built once and reused: building them on every draw costs more than
# the draws themselves
_RANK = st.sampled_from(RANKS)
_SUIT = st.sampled_from(SUITS)
_STEP = st.sampled_from((-1, 1))


@cache
def _index(n: int) -> st.SearchStrategy[int]:
    return st.integers(0, n - 1)


@cache
def _shapes(n: int) -> st.SearchStrategy[str]:
    # group shapes twice: pairs, trips, two pair, full houses and quads are most hands
    return st.sampled_from(("groups", "straight", "groups", "near_straight",
                            *(("wrap",) if n >= 3 else ())))


@cache
def _group_sizes(n: int) -> st.SearchStrategy[tuple[int, ...]]:
    return st.sampled_from(_partitions(n))


@cache
def _distinct_ranks(k: int) -> st.SearchStrategy[list[int]]:
    return st.lists(_RANK, min_size=k, max_size=k, unique=True)


@cache
def _wrap_runs(n: int) -> st.SearchStrategy[list[int]]:
    return st.sampled_from(_wraps(n))


@cache
def _tops(n: int) -> st.SearchStrategy[int]:
    # the ace-low run first, then ace-high down: both ends of the straights are edges
    return st.sampled_from([n, *range(ACE, n, -1)])


def rank_list(draw: st.DrawFn, n: int) -> list[int]:
    """Ranks of an n-card hand, biased to edge structure."""
    shape = draw(_shapes(n))
    if shape == "groups":
        parts = draw(_group_sizes(n))
        ranks = draw(_distinct_ranks(len(parts)))
        return [r for r, k in zip(ranks, parts, strict=True) for _ in range(k)]
    if shape == "wrap":
        return list(draw(_wrap_runs(n)))
    ranks = _run(draw(_tops(n)), n)
    if shape == "near_straight":
        i = draw(_index(n))
        other = draw(_RANK)
        ranks[i] = other if other != ranks[i] else (other % ACE) + 1 if other < ACE else TWO
    return ranks


def _bumped(draw: st.DrawFn, ranks: Sequence[int]) -> list[int]:
    """The same ranks with one of them moved one step (a kicker or a pair rank)."""
    out = list(ranks)
    i = draw(_index(len(out)))
    step = draw(_STEP)
    moved = out[i] + step
    if moved > ACE:
        moved = TWO
    elif moved < TWO:
        moved = ACE
    out[i] = moved
    return out


# --------------------------------------------------------------------------- cards

class _Deck:
    """The cards still undealt in one deal (jokers counted separately)."""

    def __init__(self, jokers: int) -> None:
        self.used: set[Card] = set()
        self.jokers = jokers

    def take(self, draw: st.DrawFn, rank: int, suit: str) -> Card:
        card = Card(rank, suit)
        if card in self.used:
            free = [Card(rank, s) for s in SUITS if Card(rank, s) not in self.used]
            if not free:
                # every card of this rank is dealt: take the nearest rank that has one
                for other in sorted(RANKS, key=lambda r: (abs(r - rank), r)):
                    free = [Card(other, s) for s in SUITS if Card(other, s) not in self.used]
                    if free:
                        break
            card = free[draw(_index(len(free)))]
        self.used.add(card)
        return card


_SUIT_PLAN = st.sampled_from(("any", "flush", "near_flush"))
_OTHER_SUIT = {s: tuple(o for o in SUITS if o != s) for s in SUITS}


def _suited(draw: st.DrawFn, ranks: Sequence[int], deck: _Deck,
            plan: str | None = None) -> list[Card]:
    """Cards for these ranks: any suits, all one suit, or all but one of one suit.

    ``plan`` imposes the suit plan (a hand echoing another one: two flushes); the main
    suit is then the first one whose cards of these ranks are all still in the deck.
    """
    if plan is None:
        plan = draw(_SUIT_PLAN)
        main = draw(_SUIT)
    else:
        main = next((s for s in SUITS if not any(Card(r, s) in deck.used for r in ranks)),
                    SUITS[0])
    odd = draw(_index(len(ranks))) if plan == "near_flush" else -1
    cards = []
    for i, rank in enumerate(ranks):
        if plan == "any":
            suit = draw(_SUIT)
        elif i == odd:
            suit = _OTHER_SUIT[main][draw(_index(len(SUITS) - 1))]
        else:
            suit = main
        cards.append(deck.take(draw, rank, suit))
    return cards


def _with_jokers(draw: st.DrawFn, cards: list[Card], deck: _Deck) -> list[Card]:
    """Replace up to the deck's remaining jokers by wild cards: at drawn positions, or in
    place of the kickers (quads and a joker make five of a kind, trips and two jokers
    too, two pair and a joker a full house)."""
    if not deck.jokers:
        return cards
    count = draw(_index(min(deck.jokers, len(cards)) + 1))
    if count:
        if draw(_JOKER_PLACE) == "kickers":
            counts = Counter(c.rank for c in cards)
            order = sorted(range(len(cards)), key=lambda i: (counts[cards[i].rank],
                                                             cards[i].rank))
            where = order[:count]
        else:
            places = list(range(len(cards)))
            where = [places.pop(draw(_index(len(places)))) for _ in range(count)]
        for i in where:
            deck.used.discard(cards[i])
            cards[i] = JOKER
        deck.jokers -= count
    return cards


def _text(cards: Iterable[Card]) -> str:
    return format_cards(cards)


def _hand(draw: st.DrawFn, n: int, deck: _Deck, ranks: Sequence[int] | None = None,
          plan: str | None = None) -> str:
    """One hand of n cards from ``deck``, from ``ranks`` if given, in a drawn order."""
    cards = _suited(draw, ranks if ranks is not None else rank_list(draw, n), deck, plan)
    return _text(_shuffled(draw, _with_jokers(draw, cards, deck)))


def _shuffled(draw: st.DrawFn, cards: list[Card]) -> list[Card]:
    """The cards in a drawn order (one draw; shrinks towards the order they were made in)."""
    rest = list(cards)
    code = draw(_index(factorial(len(rest))))      # the permutation's Lehmer code
    out = []
    while rest:
        code, pick = divmod(code, len(rest))
        out.append(rest.pop(pick))
    return out


def hand_strategy(ruleset: Ruleset, n: int | None = None) -> st.SearchStrategy[str]:
    """Single hands of ``n`` cards (default: the ruleset's size) in canonical text."""
    size = n or ruleset.hand_size

    @st.composite
    def hands(draw: st.DrawFn) -> str:
        return _hand(draw, size, _Deck(ruleset.jokers))

    return hands()


_PLAYERS = st.sampled_from((2, 3, 4))
_SUIT_NEAR = {s: st.sampled_from((s, *SUITS)) for s in SUITS}
_RELATION = st.sampled_from(("independent", "same_ranks", "bump_one", "same_shape",
                             "bump_group", "same_shape"))
_ECHO_PLAN = st.booleans()
_JOKER_PLACE = st.sampled_from(("anywhere", "kickers"))
_HOLE_RELATION = st.sampled_from(("connected", "independent"))


def _related_hands(draw: st.DrawFn, count: int, n: int, deck: _Deck) -> list[str]:
    """``count`` hands from one deck; later ones often echo the first one's ranks."""
    first_ranks = rank_list(draw, n)
    first_plan = draw(_SUIT_PLAN)
    hands = [_hand(draw, n, deck, first_ranks, first_plan)]
    for _ in range(count - 1):
        relation = draw(_RELATION)
        if relation == "same_ranks":        # differ in suits only: equal, or a flush
            ranks: list[int] | None = list(first_ranks)
        elif relation == "bump_one":        # one card a rank apart: kickers
            ranks = _bumped(draw, first_ranks)
        elif relation == "bump_group":      # a pair, trips or quads a rank apart
            ranks = _bumped_group(draw, first_ranks)
        elif relation == "same_shape":      # e.g. two pair against two pair
            ranks = _same_shape(draw, first_ranks)
        else:
            ranks = None
        # echo the suit plan too, so that two flushes (or two straights) meet
        plan = first_plan if ranks is not None and draw(_ECHO_PLAN) else None
        hands.append(_hand(draw, n, deck, ranks, plan))
    return hands


def _bumped_group(draw: st.DrawFn, ranks: Sequence[int]) -> list[int]:
    """The same hand with every card of one rank moved one step (AA -> KK or 22)."""
    groups = sorted(set(ranks), key=lambda r: (-ranks.count(r), -r))
    rank = groups[draw(_index(len(groups)))]
    step = draw(_STEP)
    moved = rank + step
    moved = TWO if moved > ACE else ACE if moved < TWO else moved
    return [moved if r == rank else rank if r == moved else r for r in ranks]


def _same_shape(draw: st.DrawFn, ranks: Sequence[int]) -> list[int]:
    """Fresh ranks in the same group sizes (two pair against two pair, ...)."""
    sizes = sorted(Counter(ranks).values(), reverse=True)
    fresh = draw(_distinct_ranks(len(sizes)))
    return [r for r, k in zip(fresh, sizes, strict=True) for _ in range(k)]


def _board_deal(draw: st.DrawFn, ruleset: Ruleset, holes: int) -> tuple[list[str], str]:
    """A community board and ``holes`` sets of hole cards, often built around the board."""
    sel = ruleset.selection
    assert sel is not None
    deck = _Deck(ruleset.jokers)
    board_ranks = rank_list(draw, sel.board)
    board_cards = _suited(draw, board_ranks, deck)
    board = _text(_shuffled(draw, _with_jokers(draw, list(board_cards), deck)))
    near = sorted({min(max(r + d, TWO), ACE) for r in board_ranks for d in (-1, 0, 1)})
    out = []
    for _ in range(holes):
        relation = draw(_HOLE_RELATION)
        if relation == "connected":         # ranks and suits that combine with the board
            ranks = [near[draw(_index(len(near)))] for _ in range(sel.hole)]
            suit = board_cards[0].suit
            cards = [deck.take(draw, r, draw(_SUIT_NEAR[suit])) for r in ranks]
            out.append(_text(_with_jokers(draw, cards, deck)))
        else:
            out.append(_hand(draw, sel.hole, deck))
    return out, board


def case_strategy(ruleset: Ruleset, kinds: Sequence[str] = FUZZ_KINDS) \
        -> st.SearchStrategy[Case]:
    """Deals for ``ruleset`` of the given vector kinds (those the ruleset has)."""
    size = ruleset.hand_size

    @st.composite
    def classify(draw: st.DrawFn) -> Case:
        return Case("classify", {"hand": _hand(draw, size, _Deck(ruleset.jokers))})

    @st.composite
    def compare(draw: st.DrawFn) -> Case:
        hands = _related_hands(draw, draw(_PLAYERS), size, _Deck(ruleset.jokers))
        return Case("compare", {"hands": hands})

    @st.composite
    def compare_on_board(draw: st.DrawFn) -> Case:
        holes, board = _board_deal(draw, ruleset, draw(_PLAYERS))
        return Case("compare", {"hands": holes, "board": board})

    @st.composite
    def best_hand(draw: st.DrawFn) -> Case:
        (hole,), board = _board_deal(draw, ruleset, 1)
        return Case("best_hand", {"hole": hole, "board": board})

    options: list[st.SearchStrategy[Case]] = []
    if Kind.CLASSIFY in kinds:
        options.append(classify())
    if Kind.COMPARE in kinds:
        options.append(compare())
        if ruleset.selection is not None:
            options.append(compare_on_board())
    if Kind.BEST_HAND in kinds and ruleset.selection is not None:
        options.append(best_hand())
    if not options:
        raise ValueError(f"{ruleset.id}: nothing to fuzz for kinds {list(kinds)}")
    return st.one_of(options)


# the older card-by-card deals keep a share: related hands and connected boards reach
# corners no situation names
FREE_WEIGHT = 4


def fuzz_strategy(ruleset: Ruleset, profile: Profile, kinds: Sequence[str] = FUZZ_KINDS) \
        -> st.SearchStrategy[Case]:
    """What ``fuzz`` draws from: situation-driven deals (:mod:`.explore.situations`),
    malformed requests included, plus the free-form deals of :func:`case_strategy`."""
    try:
        extra = [(case_strategy(ruleset, kinds), FREE_WEIGHT)]
    except ValueError:              # only reject asked for: no free-form deal of that kind
        extra = []
    return deal_strategy(ruleset, profile, kinds, extra=extra)


# --------------------------------------------------------------------------- the oracle

@dataclass
class Differential:
    """Sends one case to the adapter and scores the reply against the reference."""

    adapter: Adapter
    ruleset: Ruleset
    profile: Profile
    calls: int = 0

    def __post_init__(self) -> None:
        self.reference = evaluator(self.ruleset.id, self.profile)

    def check(self, case: Case) -> tuple[Scored, dict[str, Any]]:
        expect = expected_outcome(self.reference, case.kind, case.inputs)
        vector = placeholder_vector(self.ruleset.id, case.kind, case.inputs, expect)
        (reply,) = self.adapter.run_batch([request_for(vector)])
        self.calls += 1
        return score(vector, expect, reply, self.ruleset), expect


# --------------------------------------------------------------------------- the run

@dataclass
class FuzzReport:
    """What a fuzz run did and found."""

    ruleset: str
    profile: str
    seed: int
    examples: int                       # the budget asked for
    calls: int = 0                      # requests sent to the adapter (shrinking included)
    kinds: list[str] = field(default_factory=list)
    found: Found | None = None
    outcome: Outcome | None = None      # the scorer's verdict on the minimal counterexample
    flaky: str = ""                     # the adapter answered the same input differently
    situation: str = ""                 # what the minimal counterexample was drawn for
    # requests sent per situation label (shrinking included), in SITUATIONS order
    situations: dict[str, int] = field(default_factory=dict)

    def as_dict(self, adapter: str = "") -> dict[str, Any]:
        data: dict[str, Any] = {
            "ruleset": self.ruleset, "profile": self.profile, "seed": self.seed,
            "examples": self.examples, "calls": self.calls, "kinds": self.kinds,
            "adapter": adapter, "agrees": self.found is None and not self.flaky,
            "flaky": self.flaky or None, "counterexample": None,
            "situations": dict(self.situations), "situation": self.situation or None,
        }
        if self.found is not None:
            from pokercert.vectors.canonical import record

            data["counterexample"] = {
                "outcome": str(self.outcome), "actual": self.found.actual,
                "message": self.found.message, "note": self.found.note or None,
                "vector": record(self.found.vector), "toml": self.found.toml(adapter)}
        return data


class _Keyed(ExampleDatabase):
    """An example database that files every entry under ``target`` as well as the key
    Hypothesis gives it, so that the one fuzz test keeps the examples of each ruleset,
    profile and adapter apart (a custom database is Hypothesis's public extension point;
    the key it gives is the same for every fuzz run)."""

    def __init__(self, inner: ExampleDatabase, target: bytes) -> None:
        super().__init__()
        self.inner = inner
        self.prefix = hashlib.sha256(target).digest()

    def save(self, key: bytes, value: bytes) -> None:
        self.inner.save(self.prefix + key, value)

    def fetch(self, key: bytes) -> Iterable[bytes]:
        return self.inner.fetch(self.prefix + key)

    def delete(self, key: bytes, value: bytes) -> None:
        self.inner.delete(self.prefix + key, value)

    def move(self, src: bytes, dest: bytes, value: bytes) -> None:
        self.inner.move(self.prefix + src, self.prefix + dest, value)


class _Disagreement(AssertionError):
    """Raised inside the Hypothesis test to mark a failing case."""


def fuzz(adapter: Adapter, ruleset: Ruleset, profile: Profile, *, kinds: Sequence[str],
         examples: int = 1000, seed: int | None = None, database: Path | None = None,
         on_example: Callable[[int], None] | None = None,
         strategy: st.SearchStrategy[Case] | None = None, shrink: bool = True) -> FuzzReport:
    """Fuzz a started and configured ``adapter`` on ``ruleset`` against the reference.

    ``kinds`` are the vector kinds to generate (those the adapter claims); ``database``
    is the folder of the Hypothesis example database (None: no database); ``strategy``
    replaces :func:`fuzz_strategy` (benchmarks compare generators through this path);
    ``shrink=False`` reports the first disagreement as found (the self-check's kill
    matrix only asks whether there is one).
    """
    run_seed = seed if seed is not None else random.SystemRandom().randrange(2 ** 32)
    report = FuzzReport(ruleset.id, profile.name, run_seed, examples, kinds=list(kinds))
    oracle = Differential(adapter, ruleset, profile)
    last: list[tuple[Case, Scored]] = []
    if strategy is None:
        strategy = fuzz_strategy(ruleset, profile, kinds)
    seen: Counter[str] = Counter()

    def check(case: Case) -> None:
        seen[case.situation] += 1
        scored, _ = oracle.check(case)
        if on_example is not None:
            on_example(oracle.calls)
        if scored.outcome is not Outcome.PASS:
            last.append((case, scored))
            raise _Disagreement(f"{case!r}: {scored.outcome}: {scored.message}")

    # one database entry per ruleset, profile and adapter, not one for every run
    target = f"{ruleset.id}|{sorted(profile.readings_for(ruleset).items())}|{adapter.spec}"
    test = settings(
        max_examples=examples, deadline=None, derandomize=False, print_blob=False,
        report_multiple_bugs=False, verbosity=Verbosity.quiet,
        database=_Keyed(DirectoryBasedExampleDatabase(str(database)), target.encode())
        if database else None,
        suppress_health_check=list(HealthCheck),
        phases=(Phase.explicit, Phase.reuse, Phase.generate,
                *((Phase.shrink,) if shrink else ())),
    )(hypothesis_seed(run_seed)(given(strategy)(check)))
    try:
        test()
    except _Disagreement:
        pass
    except (FlakyFailure, FlakyReplay) as exc:
        report.flaky = f"the adapter answered the same input differently: {exc}"
    report.calls = oracle.calls
    # every situation the run could deal, sent or not (0: not exercised), then "free"
    labels = situation_labels(Game(ruleset, profile, kinds))
    report.situations = {name: seen[name] for name in [*labels, "free"]}
    if last:
        case, scored = last[-1]
        report.outcome = scored.outcome
        report.situation = case.situation
        report.found = found_vector(ruleset.id, case.kind, case.inputs, profile,
                                    actual=scored.actual, message=scored.message)
    return report


def claimed_kinds(capabilities: Mapping[str, Sequence[str]], ruleset: Ruleset) -> list[str]:
    """The fuzzable kinds the adapter claims for ``ruleset`` (best_hand only with a board)."""
    claimed = set(capabilities.get(ruleset.id, ()))
    return [k for k in FUZZ_KINDS if k in claimed
            and (k != Kind.BEST_HAND or ruleset.selection is not None)]
