"""The seven-card census, counted by classes and checked against the engine (issue 14).

The 133,784,560 seven-card hands fall into classes: a multiset of ranks (how many cards of
each rank) and, when five or more of the cards share a suit, which ranks that suit holds.
Each class's size is a product of binomials over the four suits and its category follows
from the textbook definitions written out below (not the engine's code); the category
totals must equal the published census, and the engine's best five of seven must put each
class's representative hand in the class's category.  No test enumerates the 133 million
hands.

Expectations from outside the code: the published seven-card census (the issue quotes it;
it is the standard table, e.g. Wikipedia's "Poker probability", 7-card poker hands) and
the 4,824 distinct hand values a best five of seven can take (same source: of the 7,462
five-card values, 4,824 occur as the best five of seven cards).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from functools import cache
from itertools import combinations
from math import comb, prod

import pytest

from pokercert.reference import DECK, Card, evaluator

RANKS = tuple(range(2, 15))  # 2 .. ace (14)
SUITS = "shdc"
FLUSH_SUIT, OTHER_SUITS = "s", "hdc"

CENSUS = {
    "royal_flush": 4_324,
    "straight_flush": 37_260,
    "four_of_a_kind": 224_848,
    "full_house": 3_473_184,
    "flush": 4_047_644,
    "straight": 6_180_020,
    "three_of_a_kind": 6_461_620,
    "two_pair": 31_433_400,
    "one_pair": 58_627_800,
    "high_card": 23_294_460,
}
TOTAL = 133_784_560  # C(52, 7)
DISTINCT_BEST_FIVE = 4_824


# ------------------------------------------------------------ the textbook categories


def straight_top(ranks: frozenset[int]) -> int | None:
    """Top card of the highest five-card run in ``ranks`` (the wheel A-2-3-4-5 tops at 5)."""
    for top in range(14, 4, -1):
        run = {top - i for i in range(5)}
        if top == 5:
            run = {14, 2, 3, 4, 5}
        if run <= ranks:
            return top
    return None


def category_of(counts: dict[int, int], flush_ranks: frozenset[int] | None) -> str:
    """The best five-card category seven cards make: ``counts`` by rank, and the ranks of
    the suit holding five or more of them (None: no suit does)."""
    if flush_ranks is not None:
        top = straight_top(flush_ranks)
        if top == 14:
            return "royal_flush"
        if top is not None:
            return "straight_flush"
    shape = sorted(counts.values(), reverse=True)
    if shape[0] == 4:
        return "four_of_a_kind"
    if shape[0] == 3 and shape[1] >= 2:
        return "full_house"
    if flush_ranks is not None:
        return "flush"
    if straight_top(frozenset(counts)) is not None:
        return "straight"
    if shape[0] == 3:
        return "three_of_a_kind"
    if shape[0] == 2 and shape[1] == 2:
        return "two_pair"
    return "one_pair" if shape[0] == 2 else "high_card"


# ------------------------------------------------------------ the classes


def rank_multisets(cards: int = 7) -> Iterator[dict[int, int]]:
    """Every multiset of ``cards`` ranks with at most four of a rank."""

    def grow(i: int, left: int, acc: dict[int, int]) -> Iterator[dict[int, int]]:
        if left == 0:
            yield dict(acc)
            return
        if i == len(RANKS):
            return
        for n in range(min(4, left), -1, -1):
            if n:
                acc[RANKS[i]] = n
            yield from grow(i + 1, left - n, acc)
            acc.pop(RANKS[i], None)

    yield from grow(0, cards, {})


def classes(
    cards: int = 7, flush: int = 5
) -> Iterator[tuple[dict[int, int], frozenset[int] | None, int]]:
    """(rank counts, flush ranks or None, number of seven-card hands in the class).

    Seven cards hold five of one suit in at most one suit.  With flush ranks F in suit s,
    each rank of F gives one card to s and its others to the three other suits; every
    other rank puts all its cards in those three.  Four suits can be s.  The hands with
    no such suit are all suit choices less the flush ones.

    (``cards`` and ``flush`` generalise it: the joker census counts six naturals whose
    suit of four or more the joker completes, ``classes(6, 4)``.)"""
    for counts in rank_multisets(cards):
        every = prod(comb(4, n) for n in counts.values())
        flushes = 0
        for size in range(flush, min(cards, len(counts)) + 1):
            for ranks in combinations(sorted(counts), size):
                ways = 4 * prod(
                    comb(3, n - 1) if r in ranks else comb(3, n) for r, n in counts.items()
                )
                if ways:
                    flushes += ways
                    yield counts, frozenset(ranks), ways
        yield counts, None, every - flushes


def representative(counts: dict[int, int], flush_ranks: frozenset[int] | None) -> list[Card]:
    """One hand of the class: flush ranks get a spade, every other card the suit least
    used so far (so no suit but the flush's reaches the flush size)."""
    hand: list[Card] = []
    used = Counter[str]()
    for rank, n in sorted(counts.items()):
        pool = list(SUITS if flush_ranks is None else OTHER_SUITS)
        if flush_ranks is not None and rank in flush_ranks:
            hand.append(Card(rank, FLUSH_SUIT))
            n -= 1
        pool.sort(key=lambda s: used[s])
        for suit in pool[:n]:
            hand.append(Card(rank, suit))
            used[suit] += 1
    assert len(set(hand)) == len(hand) == sum(counts.values())
    return hand


@cache
def all_classes() -> tuple[tuple[dict[int, int], frozenset[int] | None, int], ...]:
    return tuple((c, f, n) for c, f, n in classes() if n)


# ------------------------------------------------------------ the tests


def test_the_class_count_reproduces_the_published_census() -> None:
    totals = Counter[str]()
    for counts, flush_ranks, n in all_classes():
        totals[category_of(counts, flush_ranks)] += n
    assert sum(totals.values()) == TOTAL == comb(52, 7)
    assert dict(totals) == CENSUS


def test_the_textbook_categories_on_hands_worked_by_hand() -> None:
    # the helpers the census rests on, on cases checked by eye
    assert straight_top(frozenset({14, 2, 3, 4, 5, 9})) == 5
    assert straight_top(frozenset({14, 13, 12, 11, 10, 9})) == 14
    assert straight_top(frozenset({13, 14, 2, 3, 4})) is None  # no wrap-around
    assert category_of({9: 4, 2: 2, 3: 1}, None) == "four_of_a_kind"
    assert category_of({9: 3, 2: 3, 3: 1}, None) == "full_house"  # 3 + 3 + 1
    assert category_of({2: 2, 3: 2, 4: 2, 9: 1}, None) == "two_pair"  # 2 + 2 + 2 + 1
    assert category_of({r: 1 for r in (2, 3, 4, 5, 6, 7, 8)}, None) == "straight"
    assert (
        category_of({r: 1 for r in (2, 3, 4, 5, 6, 7, 8)}, frozenset({2, 4, 6, 7, 8})) == "flush"
    )  # not in sequence
    assert (
        category_of({9: 3, 2: 1, 3: 1, 5: 1, 7: 1}, frozenset({9, 2, 3, 5, 7})) == "flush"
    )  # beats the trips
    assert len(list(rank_multisets())) == 49_205


def test_the_engine_puts_every_class_in_its_category() -> None:
    """Stud's best five of seven for one hand of each class: the class's category, and
    over all classes exactly the published number of distinct values.

    The same representatives looked up in the reference's seven-card class table
    (pokercert.reference.seven, what ``pokercert exhaustive`` checks seven-card hands
    against): every one of the 190,346 classes gets the engine's own best-five key and
    category, so the table is the engine's best_hand on every seven-card hand; and its
    classes weighted by their sizes give the published census."""
    np = pytest.importorskip("numpy")
    from pokercert.reference.seven import seven_table

    ev = evaluator("nj-seven-card-stud")
    wrong = []
    values = set()
    keys, hands = [], []
    for counts, flush_ranks, _ in all_classes():
        hand = representative(counts, flush_ranks)
        best = ev.best_hand(hand)
        values.add(best.value.key)
        keys.append(best.value.key)
        hands.append(hand)
        want = category_of(counts, flush_ranks)
        if best.category != want:
            wrong.append((" ".join(map(str, hand)), best.category, want))
    assert wrong == []
    # a class fixes the best five's value (its ranks, and its flush suit's ranks), so the
    # classes' values are every value a seven-card hand can have
    assert len(values) == DISTINCT_BEST_FIVE
    assert len(keys) == 190_346
    table = seven_table("nj-seven-card-stud")
    assert table.distinct == DISTINCT_BEST_FIVE
    index = {c: i for i, c in enumerate(DECK)}
    rows = np.array([[index[c] for c in h] for h in hands], dtype=np.uint8)
    categories, dense = table.classify(rows)
    assert [table.engine_key(int(d)) for d in dense] == keys
    totals = Counter[str]()
    for (_, _, n), c in zip(all_classes(), categories.tolist(), strict=True):
        totals[table.category_names[c]] += n
    assert dict(totals) == CENSUS


def test_holdem_selection_agrees_with_the_census_classes() -> None:
    """The same classes dealt as 2 hole + 5 board cards (every 25th class, the hole cards
    taken from the top of the sorted hand so the board often plays)."""
    ev = evaluator("nj-holdem")
    wrong = []
    for counts, flush_ranks, _ in all_classes()[::25]:
        hand = representative(counts, flush_ranks)
        best = ev.best_hand(hand[-2:], hand[:-2])
        if best.category != category_of(counts, flush_ranks):
            wrong.append(" ".join(map(str, hand)))
    assert wrong == []
