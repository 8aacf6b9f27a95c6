"""Census of South Dakota five-card low draw (ARSD 20:18:16:12(2)) under both readings of
``sd-low-order``: every one of the C(52, 5) = 2,598,960 hands, by classes.

The expected counts are worked out here by combinatorics, not read from the engine:

* paired hands are the textbook counts (the ace's place changes no count): one pair
  1,098,240; two pair 123,552; three of a kind 54,912; full house 3,744; four of a kind
  624.
* practice (ace-to-five: straights and flushes do not count): every hand of five ranks is
  a no-pair hand, C(13, 5) * 4^5 = 1,287 * 1,024 = 1,317,888.
* literal (03's list reversed, the ace below the deuce): a sequence needs the ace low, so
  there are 9 runs of five ranks (A-2-3-4-5 up to 9-10-J-Q-K; 10-J-Q-K-A is none, the ace
  being below the deuce); straight flushes 9 * 4 = 36, straights 9 * (4^5 - 4) = 9,180,
  flushes 4 * (1,287 - 9) = 5,112, no pair (1,287 - 9) * (4^5 - 4) = 1,303,560.

The reference is asked one hand per class (a rank multiset with one suit pattern: suited
or not for five ranks; for paired ranks every suit choice is alike), each class weighted
by how many hands it stands for.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, combinations_with_replacement
from math import comb

import pytest

from pokercert.reference import evaluator

RANKS = "23456789TJQKA"
PAIRED = {
    "one_pair": 1_098_240,
    "two_pair": 123_552,
    "three_of_a_kind": 54_912,
    "full_house": 3_744,
    "four_of_a_kind": 624,
}
EXPECTED = {
    "practice": {"high_card": 1_317_888, **PAIRED},
    "literal": {
        "high_card": 1_303_560,
        "straight": 9_180,
        "flush": 5_112,
        "straight_flush": 36,
        **PAIRED,
    },
}


def census(profile: str) -> Counter[str]:
    ev = evaluator("sd-draw-low", profile)
    counts: Counter[str] = Counter()
    for ranks in combinations(RANKS, 5):  # five different ranks
        suited = " ".join(r + "h" for r in ranks)
        mixed = " ".join(r + s for r, s in zip(ranks, "hhhhs", strict=True))
        counts[ev.category(suited)] += 4
        counts[ev.category(mixed)] += 4**5 - 4
    for ranks in combinations_with_replacement(RANKS, 5):
        multiplicity = Counter(ranks)
        if len(multiplicity) == 5 or max(multiplicity.values()) > 4:
            continue
        cards = [r + s for r, n in multiplicity.items() for s in "shdc"[:n]]
        weight = 1
        for n in multiplicity.values():
            weight *= comb(4, n)
        counts[ev.category(" ".join(cards))] += weight
    return counts


@pytest.mark.parametrize("profile", ["practice", "literal"])
def test_every_five_card_hand_is_counted_as_worked_out(profile: str) -> None:
    counts = census(profile)
    assert sum(counts.values()) == comb(52, 5)
    assert dict(counts) == EXPECTED[profile]
