"""Exhaustive proof of the reference: every hand of every size, counted.

The expected numbers are the textbook tables (e.g. the five-card frequencies every
probability text gives, 7,462 distinct high hand values, 6,175 ace-to-five values),
worked out independently of this code.  Each five-card pass takes about ten seconds.
"""

from collections import Counter
from itertools import combinations

import pytest

from pokercert.reference import DECK, evaluator

FIVE_HIGH = {
    "royal_flush": 4,
    "straight_flush": 36,
    "four_of_a_kind": 624,
    "full_house": 3744,
    "flush": 5108,
    "straight": 10200,
    "three_of_a_kind": 54912,
    "two_pair": 123552,
    "one_pair": 1098240,
    "high_card": 1302540,
}
# deuce-to-seven: the wheel is no straight, so 4 straight flushes become flushes and
# 1,020 straights become no-pair hands
DEUCE_SEVEN = {
    **FIVE_HIGH,
    "straight_flush": 32,
    "flush": 5112,
    "straight": 9180,
    "high_card": 1303560,
}
# ace-to-five: straights and flushes ignored
ACE_FIVE = {
    "four_of_a_kind": 624,
    "full_house": 3744,
    "three_of_a_kind": 54912,
    "two_pair": 123552,
    "one_pair": 1098240,
    "high_card": 1317888,
}
THREE_HIGH = {
    "royal_flush": 4,
    "straight_flush": 44,
    "three_of_a_kind": 52,
    "straight": 720,
    "flush": 1096,
    "one_pair": 3744,
    "high_card": 16440,
}
MINI_TEX = {**{k: v for k, v in THREE_HIGH.items() if k != "royal_flush"}, "straight_flush": 48}
THREE_LOW = {"three_of_a_kind": 52, "one_pair": 3744, "high_card": 18304}
POCKET = {
    "royal_straight_flush": 4,
    "pair_of_aces": 6,
    "straight_flush": 48,
    "one_pair": 72,
    "straight": 156,
    "high_card": 1040,
}


def census(ruleset: str, size: int) -> tuple[Counter, int]:
    ev = evaluator(ruleset)
    counts: Counter = Counter()
    keys = set()
    for hand in combinations(DECK, size):
        value = ev.value(hand)
        counts[value.category] += 1
        keys.add(value.key)
    return counts, len(keys)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("ruleset", "table", "distinct"),
    [
        ("nj-poker-high-5", FIVE_HIGH, 7462),
        ("nj-lowball-2-7", DEUCE_SEVEN, 7462),
        ("nj-poker-low-5", ACE_FIVE, 6175),
    ],
)
def test_five_card_census(ruleset, table, distinct):
    counts, n_keys = census(ruleset, 5)
    assert sum(counts.values()) == 2_598_960
    assert dict(counts) == table
    assert n_keys == distinct


@pytest.mark.parametrize(
    ("ruleset", "table", "distinct"),
    [
        # 12 straight flushes + 13 trips + 12 straights + 274 flushes + 156 pairs + 274 high
        ("nj-poker-high-3", THREE_HIGH, 741),
        ("nj-mini-tex-3", MINI_TEX, 741),
        ("nj-poker-low-3", THREE_LOW, 455),  # 286 no-pair + 156 pairs + 13 trips
    ],
)
def test_three_card_census(ruleset, table, distinct):
    counts, n_keys = census(ruleset, 3)
    assert sum(counts.values()) == 22_100
    assert dict(counts) == table
    assert n_keys == distinct


def test_pocket_census():
    counts, _ = census("nj-mini-tex-pocket", 2)
    assert dict(counts) == POCKET


def test_pocket_census_without_ace_two():
    # literal reading: A-2 not consecutive, so 4 suited and 12 unsuited A-2 pay nothing
    ev = evaluator("nj-mini-tex-pocket", "literal")
    counts = Counter(ev.value(h).category for h in combinations(DECK, 2))
    assert dict(counts) == {**POCKET, "straight_flush": 44, "straight": 144, "high_card": 1056}


def test_winners_pot_unsuited_literal_leaves_no_five_card_straight():
    # with four suits, five cards always repeat one: "all different suits" is impossible
    ev = evaluator("nj-winners-pot", "literal")
    for top in range(5, 15):
        ranks = [top - i for i in range(5)]
        hand = " ".join(
            f"{'A' if r in (1, 14) else '23456789TJQK'[r - 2]}{s}"
            for r, s in zip(ranks, "shdcs", strict=True)
        )
        assert ev.category(hand) == "high_card"
