"""The seven-card census of a 53-card deck with one restricted joker (the bug), by classes.

Pai gow poker and South Dakota's joker poker deal from 52 cards and a joker that may be
an ace, or the card that completes a straight, a flush or a straight flush, and nothing
else; four aces and the joker are "five aces", the best hand.  Brian Alspach counted the
best five-card hand of every one of the C(53, 7) = 154,143,080 seven-card hands of that
deck ("7-Card Poker Hands with Joker", 31 July 2003,
http://people.math.sfu.ca/~alspach/comp40/ ; the derivations are in his "Pai Gow Poker
Computations", comp38).  Those published numbers are the expectation here.

No test enumerates the 154 million hands.  They fall into classes, each valued once:

* the 133,784,560 hands without the joker are the classes of the 52-card census
  (``test_games_census``: a rank multiset, and the ranks of a suit holding five or more);
* the 20,358,520 hands with the joker (C(52, 6) = 6 natural cards beside it) are classes
  of the six naturals: their rank multiset, and the ranks of the suit holding four or
  more of them (the joker completes a flush from four suited cards; six cards hold at
  most one such suit).  Nothing else about the suits can change a category: a joker
  standing for an ace can always be an ace the hand lacks (the fifth ace excepted, which
  the rule allows), and a straight takes no suits.

Each class's size is a product of binomials.  The test checks three facts: the textbook
categories written out below (not the engine's code) reproduce Alspach's table; the
reference's best five of seven (the engine's value of each of the 21 five-card subsets
of the class's representative hand, the best kept) puts every class in its textbook
category; so the reference's census is the published one.  It runs the engine on about
190 thousand natural and 40 thousand joker classes: slow (a minute or two), so it is
marked as the other exhaustive passes are.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from functools import cache
from itertools import combinations
from math import comb, prod

import pytest

from pokercert.reference import JOKER, Card, evaluator
from tests.reference.test_games_census import (
    FLUSH_SUIT,
    all_classes,
    category_of,
    classes,
    rank_multisets,
    representative,
)

ACE = 14
RULESET = "sd-poker-high-joker"

# Alspach, comp40: the best five of seven cards, 53-card deck with one joker
ALSPACH = {
    "five_of_a_kind": 1_128,  # "5 aces"
    "straight_flush": 210_964,  # royal flushes included (see ROYAL)
    "four_of_a_kind": 307_472,
    "full_house": 4_188_528,
    "flush": 6_172_088,
    "straight": 11_236_028,
    "three_of_a_kind": 7_470_676,
    "two_pair": 35_553_816,
    "one_pair": 64_221_960,
    "high_card": 24_780_420,
}
# Alspach's note says 26,124 of the straight flushes are royal.  Counted directly, a
# royal is 4,324 hands without the joker (the 52-card census) and, per suit, the six
# naturals holding four of that suit's A-K-Q-J-10 (5 x C(47, 2)) or all five (47) beside
# the joker: 4,324 + 4 x 5,452 = 26,132 (six naturals cannot hold four of two suits, and
# five aces need four aces, which leave no room for four royal cards).  The 8 hands
# between the two are not explained on the page (its royal figure comes from the
# pai gow bonus-hand table of comp38, which files some hands under other bonus names);
# the test holds the category rows, where the straight flushes agree, to the published
# table, and the royal flushes to the direct count.
ROYAL = 4_324 + 4 * (5 * comb(47, 2) + 47)
TOTAL = 154_143_080  # C(53, 7)

Class = tuple[dict[int, int], frozenset[int] | None, int]


# ------------------------------------------------------------ the textbook categories


def runs_completed(ranks: frozenset[int], gaps: int) -> list[int]:
    """Top cards of the five-card runs (the wheel tops at 5) that ``ranks`` fill but for
    at most ``gaps`` cards."""
    tops = []
    for top in range(14, 4, -1):
        run = {14, 2, 3, 4, 5} if top == 5 else {top - i for i in range(5)}
        if len(run - ranks) <= gaps:
            tops.append(top)
    return tops


def joker_category(counts: dict[int, int], flush_ranks: frozenset[int] | None) -> str:
    """The best five-card category of six natural cards (``counts`` by rank; the ranks of
    the suit holding four or more, or None) and the bug: an ace, or the card completing
    a straight, a flush or a straight flush."""
    if counts.get(ACE, 0) == 4:
        return "five_of_a_kind"
    if flush_ranks is not None:
        tops = runs_completed(flush_ranks, 1)
        if tops:
            return "royal_flush" if tops[0] == ACE else "straight_flush"
    as_ace = Counter(counts)
    as_ace[ACE] += 1  # everywhere else the joker is an ace
    shape = sorted(as_ace.values(), reverse=True)
    if shape[0] >= 4:
        return "four_of_a_kind"
    if shape[0] == 3 and shape[1] >= 2:
        return "full_house"
    if flush_ranks is not None:
        return "flush"
    if runs_completed(frozenset(counts), 1):
        return "straight"
    if shape[0] == 3:
        return "three_of_a_kind"
    if shape[0] == 2 and shape[1] == 2:
        return "two_pair"
    return "one_pair" if shape[0] == 2 else "high_card"


# ------------------------------------------------------------ the joker classes


def joker_classes() -> Iterator[Class]:
    """(rank counts of the six naturals, ranks of their suit holding four or more or
    None, number of hands in the class): with flush ranks F in suit s, each rank of F
    gives one card to s and the rest to the other three suits, every other rank all its
    cards to those three; four suits can be s; the rest have no such suit."""
    yield from classes(6, 4)


def joker_representative(counts: dict[int, int], flush_ranks: frozenset[int] | None) -> list[Card]:
    """Six naturals of the class (:func:`representative`: flush ranks get a spade, every
    other card the suit least used so far, so no suit reaches four) and the joker."""
    hand = representative(counts, flush_ranks)
    assert len(hand) == 6 and (
        flush_ranks is not None or max(Counter(c.suit for c in hand).values()) < 4
    )
    return [*hand, JOKER]


@cache
def all_joker_classes() -> tuple[Class, ...]:
    return tuple(c for c in joker_classes() if c[2])


def natural_category(counts: dict[int, int], flush_ranks: frozenset[int] | None) -> str:
    return category_of(counts, flush_ranks)


def census(royal_apart: bool) -> Counter[str]:
    """The textbook count of every seven-card hand of the 53-card deck."""
    totals = Counter[str]()
    for counts, flush_ranks, n in all_classes():
        totals[natural_category(counts, flush_ranks)] += n
    for counts, flush_ranks, n in all_joker_classes():
        totals[joker_category(counts, flush_ranks)] += n
    if not royal_apart:
        totals["straight_flush"] += totals.pop("royal_flush")
    return totals


# ------------------------------------------------------------ the tests


def test_the_textbook_joker_categories_on_hands_worked_by_hand() -> None:
    # six naturals and the joker, checked by eye against the rule of 20:18:16:12(3)
    assert joker_category({14: 4, 2: 1, 3: 1}, None) == "five_of_a_kind"
    assert (
        joker_category({13: 1, 12: 1, 11: 1, 10: 1, 2: 1, 3: 1}, frozenset({13, 12, 11, 10}))
        == "royal_flush"
    )  # joker the ace
    assert (
        joker_category({14: 1, 2: 1, 4: 1, 5: 1, 9: 1, 8: 1}, frozenset({14, 2, 4, 5}))
        == "straight_flush"
    )  # joker the 3
    assert joker_category({13: 3, 12: 1, 7: 1, 2: 1}, None) == "three_of_a_kind"  # K-K-K-A
    assert joker_category({13: 3, 12: 2, 2: 1}, None) == "full_house"  # natural
    assert joker_category({13: 2, 12: 2, 7: 1, 2: 1}, None) == "two_pair"  # not a full house
    assert joker_category({14: 2, 13: 2, 7: 1, 2: 1}, None) == "full_house"  # A-A-A-K-K
    assert joker_category({14: 3, 7: 1, 5: 1, 2: 1}, None) == "four_of_a_kind"
    # no pair, no four to a straight or flush: the joker is an ace (A-K-J-9-7 high)
    assert joker_category({13: 1, 11: 1, 9: 1, 7: 1, 5: 1, 3: 1}, None) == "high_card"
    assert joker_category({14: 1, 11: 1, 9: 1, 7: 1, 4: 1, 3: 1}, None) == "one_pair"
    assert joker_category({12: 1, 11: 1, 9: 1, 8: 1, 3: 1, 2: 1}, None) == "straight"
    assert runs_completed(frozenset({2, 3, 4, 5}), 1) == [6, 5]
    # the classes cover the joker hands exactly once
    assert sum(n for _, _, n in all_joker_classes()) == comb(52, 6)


def test_the_class_count_reproduces_alspachs_census() -> None:
    totals = census(royal_apart=True)
    assert totals["royal_flush"] == ROYAL == 26_132
    totals["straight_flush"] += totals.pop("royal_flush")
    assert sum(totals.values()) == TOTAL == comb(53, 7)
    assert dict(totals) == ALSPACH


def best_of_seven(ev: object, hand: list[Card]) -> str:
    """The reference's best five of seven: the engine's value of every five-card subset,
    the best key kept (the ruleset deals five cards, so the test chooses the five)."""
    value = ev.value  # type: ignore[attr-defined]
    return str(max((value(c) for c in combinations(hand, 5)), key=lambda v: v.key).category)


@pytest.mark.slow
def test_the_reference_census_with_the_joker_is_alspachs() -> None:
    """Every class's representative valued by the reference, counted with the class's
    size: the published census, and every class in its textbook category."""
    ev = evaluator(RULESET)
    totals = Counter[str]()
    wrong = []
    for space, textbook, rep in (
        (all_classes(), natural_category, representative),
        (all_joker_classes(), joker_category, joker_representative),
    ):
        for counts, flush_ranks, n in space:
            hand = rep(counts, flush_ranks)
            got = best_of_seven(ev, hand)
            totals[got] += n
            if got != textbook(counts, flush_ranks):
                wrong.append((" ".join(map(str, hand)), got))
    assert wrong[:10] == []
    assert totals["royal_flush"] == ROYAL
    totals["straight_flush"] += totals.pop("royal_flush")
    assert dict(totals) == ALSPACH


# ------------------------------------------------------------ five cards from 53

# the five-card census of 52 cards (Wikipedia, "Poker probability", 5-card hands)
FIVE_CARD_NATURAL = {
    "royal_flush": 4,
    "straight_flush": 36,
    "four_of_a_kind": 624,
    "full_house": 3_744,
    "flush": 5_108,
    "straight": 10_200,
    "three_of_a_kind": 54_912,
    "two_pair": 123_552,
    "one_pair": 1_098_240,
    "high_card": 1_302_540,
}


def four_natural_classes() -> Iterator[Class]:
    """(rank counts of four naturals beside the joker, their ranks if all four share a
    suit else None, number of hands): four suited cards are four distinct ranks in one of
    four suits; the rest are every suit choice less those."""
    for counts in rank_multisets(4):
        every = prod(comb(4, n) for n in counts.values())
        suited = 4 if len(counts) == 4 else 0
        if suited:
            yield counts, frozenset(counts), suited
        yield counts, None, every - suited


def test_the_five_card_census_with_the_joker() -> None:
    """All C(53, 5) = 2,869,685 five-card hands: the 52-card census beside the joker hands
    counted by classes of their four naturals, each class valued by the reference as its
    textbook category says.  Counts worked by hand: five aces is one hand; a royal flush
    with the joker is the joker beside four of a suit's five royal cards (4 x 5 = 20)."""
    ev = evaluator(RULESET)
    joker = Counter[str]()
    wrong = []
    for counts, flush_ranks, n in four_natural_classes():
        if not n:
            continue
        want = joker_category(counts, flush_ranks)
        joker[want] += n
        if flush_ranks is not None:
            hand = [*(Card(r, FLUSH_SUIT) for r in flush_ranks), JOKER]
        else:  # four cards, four suits (a rank's cards are distinct ones)
            ranks = [r for r, k in sorted(counts.items()) for _ in range(k)]
            hand = [*(Card(r, "shdc"[i]) for i, r in enumerate(ranks)), JOKER]
        assert len(set(hand)) == 5
        got = ev.value(tuple(hand)).category
        if got != want:
            wrong.append((" ".join(map(str, hand)), got, want))
    assert wrong == []
    assert sum(joker.values()) == comb(52, 4)
    assert joker["five_of_a_kind"] == 1 and joker["royal_flush"] == 4 * 5
    total = Counter(FIVE_CARD_NATURAL) + joker
    assert sum(total.values()) == comb(53, 5) == 2_869_685
