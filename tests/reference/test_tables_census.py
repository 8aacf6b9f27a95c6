"""Exhaustive proof of the table-game rulesets, with expectations from outside the engine.

Each census deals every hand of the game's size and counts the reference's categories.
The expected counts come from published tables or, where none was retrieved, from the
closed-form counts written out below (a method that shares nothing with the engine:
binomials over ranks and suits).  Orderings the texts fix (a straight above a flush in
three cards, four of a kind above a straight flush in four) are checked on every pair of
categories.
"""

from collections import Counter
from functools import cache
from itertools import combinations
from math import comb

import pytest

from pokercert.reference import DECK, evaluator

# Three-card poker, 22,100 hands.  Published: B. Alspach, "3-Card Poker Hands" (2000),
# http://www.math.sfu.ca/~alspach/comp16/ , and the Wizard of Odds, "Three Card Poker
# Appendix 1", https://wizardofodds.com/games/three-card-poker/appendix/1/ (both
# retrieved 2026-12-01): 48 straight flushes, 52 trips, 720 straights, 1,096 flushes,
# 3,744 pairs, 16,440 others.
THREE_CARD_POKER = {
    "straight_flush": 48,
    "three_of_a_kind": 52,
    "straight": 720,
    "flush": 1096,
    "one_pair": 3744,
    "high_card": 16440,
}

# Four-card hands, 270,725.  No published table was retrieved, so the counts are worked
# out here by hand: 11 runs of four ranks (A-K-Q-J .. 4-3-2-A, 13:69F-27.3(a)),
# C(13,4) rank sets, 4**4 suit patterns of which 4 are one suit.
_RUNS4 = 11
FOUR_CARD = {
    "four_of_a_kind": 13,
    "straight_flush": _RUNS4 * 4,
    "three_of_a_kind": 13 * comb(4, 3) * 48,
    "flush": 4 * (comb(13, 4) - _RUNS4),
    "straight": _RUNS4 * (4**4 - 4),
    "two_pair": comb(13, 2) * comb(4, 2) ** 2,
    "one_pair": 13 * comb(4, 2) * comb(12, 2) * 4**2,
    "high_card": (comb(13, 4) - _RUNS4) * (4**4 - 4),
}


@cache
def census_pass(ruleset: str) -> tuple[Counter[str], dict[str, tuple[tuple[int, ...], ...]]]:
    """One pass over every hand: category counts, and each category's lowest and highest key."""
    ev = evaluator(ruleset)
    counts: Counter[str] = Counter()
    span: dict[str, tuple[tuple[int, ...], ...]] = {}
    for hand in combinations(DECK, ev.ruleset.hand_size):
        value = ev.value(hand)
        counts[value.category] += 1
        low, high = span.get(value.category, (value.key, value.key))
        span[value.category] = (min(low, value.key), max(high, value.key))
    return counts, span


def _census(ruleset: str, size: int) -> Counter[str]:
    assert evaluator(ruleset).ruleset.hand_size == size
    return census_pass(ruleset)[0]


def test_four_card_table_adds_up() -> None:
    """The hand-worked four-card table covers every four-card hand exactly once."""
    assert sum(FOUR_CARD.values()) == comb(52, 4) == 270_725
    assert FOUR_CARD == {
        "four_of_a_kind": 13,
        "straight_flush": 44,
        "three_of_a_kind": 2496,
        "flush": 2816,
        "straight": 2772,
        "two_pair": 2808,
        "one_pair": 82368,
        "high_card": 177408,
    }


def test_three_card_poker_census() -> None:
    counts = _census("nj-three-card-poker", 3)
    assert sum(counts.values()) == 22_100
    assert dict(counts) == THREE_CARD_POKER


def test_four_card_poker_census() -> None:
    counts = _census("nj-four-card-poker", 4)
    assert dict(counts) == FOUR_CARD


@pytest.mark.parametrize("ruleset", ["nj-double-down-stud", "nj-double-cross-poker"])
def test_five_card_table_games_census(ruleset: str) -> None:
    """The textbook five-card table (4 royal, 36 straight flushes, ... 1,302,540 others)."""
    from tests.reference.test_reference_exhaustive import FIVE_HIGH

    assert dict(_census(ruleset, 5)) == FIVE_HIGH


@pytest.mark.parametrize(
    ("ruleset", "better", "worse"),
    [
        # 13:69F-20.3(b): straight (3) above flush (4); straight flush (1) above trips (2)
        ("nj-three-card-poker", "straight", "flush"),
        ("nj-three-card-poker", "straight_flush", "three_of_a_kind"),
        ("nj-three-card-poker", "three_of_a_kind", "straight"),
        # 13:69F-27.3(b): four of a kind (1) above straight flush (2), trips (3) above flush (4)
        ("nj-four-card-poker", "four_of_a_kind", "straight_flush"),
        ("nj-four-card-poker", "three_of_a_kind", "flush"),
        ("nj-four-card-poker", "flush", "straight"),
        ("nj-four-card-poker", "straight", "two_pair"),
    ],
)
def test_every_hand_of_the_better_category_wins(ruleset: str, better: str, worse: str) -> None:
    """The worst hand of the better category beats the best hand of the worse one."""
    span = census_pass(ruleset)[1]
    assert span[better][0] > span[worse][1]
