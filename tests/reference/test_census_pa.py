"""Exhaustive proof of the Pennsylvania rulesets, with expectations from outside the engine.

The four- and five-card games rank as the New Jersey table games do, so the same tables
apply: the four-card one worked out by hand in test_tables_census.py (11 runs of four
ranks, 58 Pa. Code 657a.6(a) and 684a.6(a) admitting A-2-3-4 and barring K-A-2-3 and
Q-K-A-2), the textbook five-card table (655a.6, 669a.6, 653a.6: A-2-3-4-5 the only
wrap).  Orders the texts fix (four of a kind above the straight flush, three of a kind
above the flush) are checked on every pair of hands through each category's span.

High Card Flush (678a.6) ranks seven cards by their longest flush.  The number of
seven-card hands whose longest flush is at most L cards is the coefficient of x**7 in
(sum over k <= L of C(13, k) x**k) ** 4 (choose k of a suit's 13 ranks, four suits): a
closed form that shares nothing with the engine.  The reference's side values real
hands: every hand of a 20-card deck (five ranks in each suit) exhaustively, and for the
full deck one seeded hand per suit pattern (the category depends on the pattern alone,
which the test checks with a second hand), weighted by the pattern's number of hands.
"""

from collections import Counter
from itertools import combinations, product
from math import comb, prod
from random import Random

import pytest

from pokercert.reference import DECK, evaluator
from tests.reference.test_reference_exhaustive import FIVE_HIGH
from tests.reference.test_tables_census import FOUR_CARD, census_pass

FOUR_CARD_PA = ("pa-crazy-4-poker", "pa-four-card-frenzy")
FIVE_CARD_PA = ("pa-mississippi-stud", "pa-raise-it-up-stud", "pa-ultimate-texas-holdem")
HCF = "pa-high-card-flush"
LENGTH_CATEGORY = {
    7: "seven_card_flush",
    6: "six_card_flush",
    5: "five_card_flush",
    4: "four_card_flush",
    3: "three_card_flush",
    2: "two_card_flush",
}


@pytest.mark.parametrize("ruleset", FOUR_CARD_PA)
def test_four_card_census(ruleset: str) -> None:
    assert evaluator(ruleset).ruleset.hand_size == 4
    assert dict(census_pass(ruleset)[0]) == FOUR_CARD


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", FIVE_CARD_PA)
def test_five_card_census(ruleset: str) -> None:
    assert evaluator(ruleset).ruleset.hand_size == 5
    assert dict(census_pass(ruleset)[0]) == FIVE_HIGH


@pytest.mark.parametrize("ruleset", FOUR_CARD_PA)
@pytest.mark.parametrize(
    ("better", "worse"),
    [
        # 657a.6(b) and 684a.6(b): (1) four of a kind, (2) straight flush, (3) three of a
        # kind, (4) flush, (5) straight, (6) two pairs, (7) pair
        ("four_of_a_kind", "straight_flush"),
        ("straight_flush", "three_of_a_kind"),
        ("three_of_a_kind", "flush"),
        ("flush", "straight"),
        ("straight", "two_pair"),
        ("two_pair", "one_pair"),
        ("one_pair", "high_card"),
    ],
)
def test_four_card_order(ruleset: str, better: str, worse: str) -> None:
    """The worst hand of the better category beats the best hand of the worse one."""
    span = census_pass(ruleset)[1]
    assert span[better][0] > span[worse][1]


def _at_most(length: int, ranks: int = 13) -> int:
    """Seven-card hands (suits of ``ranks`` cards) with no suit holding more than
    ``length`` cards: the coefficient of x**7 in (sum_{k<=length} C(ranks, k) x**k)**4."""
    poly = [1]
    suit = [comb(ranks, k) for k in range(length + 1)]
    for _ in range(4):
        poly = [
            sum(poly[i] * suit[n - i] for i in range(len(poly)) if 0 <= n - i < len(suit))
            for n in range(len(poly) + len(suit) - 1)
        ]
    return poly[7] if len(poly) > 7 else 0


def _longest_flush_table(ranks: int = 13) -> dict[str, int]:
    return {
        LENGTH_CATEGORY[n]: _at_most(n, ranks) - _at_most(n - 1, ranks) for n in range(7, 1, -1)
    }


def test_high_card_flush_table_adds_up() -> None:
    """The closed form covers every seven-card hand once; a hand-worked spot check: the
    seven-card flushes are 4 * C(13, 7) = 6,864; no hand lacks a two-card flush."""
    table = _longest_flush_table()
    assert sum(table.values()) == comb(52, 7) == 133_784_560
    assert table["seven_card_flush"] == 4 * comb(13, 7) == 6_864
    # six of one suit and one of another: 4 * C(13, 6) * 39
    assert table["six_card_flush"] == 4 * comb(13, 6) * 39
    assert _at_most(1) == 0


def test_high_card_flush_census_on_a_small_deck() -> None:
    """Every seven-card hand of the twenty cards A, K, Q, J, 10 of each suit, valued."""
    ev = evaluator(HCF)
    deck = [c for c in DECK if c.rank >= 10]
    assert len(deck) == 20
    counts = Counter(ev.value(hand).category for hand in combinations(deck, 7))
    assert dict(counts) == {k: v for k, v in _longest_flush_table(5).items() if v}


def test_high_card_flush_census_over_all_seven_card_hands() -> None:
    """All 133,784,560 hands, one suit pattern at a time (two seeded hands per pattern
    must agree), weighted by the pattern's count of hands."""
    ev = evaluator(HCF)
    by_suit = {s: [c for c in DECK if c.suit == s] for s in "shdc"}
    rng = Random(678)
    counts: Counter[str] = Counter()
    for pattern in product(range(8), repeat=4):
        if sum(pattern) != 7:
            continue
        seen = set()
        for _ in range(2):
            hand = tuple(
                c for s, n in zip("shdc", pattern, strict=True) for c in rng.sample(by_suit[s], n)
            )
            seen.add(ev.value(hand).category)
        assert len(seen) == 1, (pattern, seen)
        counts[seen.pop()] += prod(comb(13, n) for n in pattern)
    assert sum(counts.values()) == comb(52, 7)
    assert dict(counts) == _longest_flush_table()
