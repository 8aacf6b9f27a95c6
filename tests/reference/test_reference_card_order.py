"""The card order exhaustive passes send hands in (``pokercert.reference.classes``).

What must hold, from the design rather than from the code: each hand's order is a
permutation of its cards, fixed by (seed, the hand's cards) alone, the same with and
without numpy and in every batch; different seeds give different orders; and over many
hands every slot holds the highest card about equally often (a shuffle, not a rotation).
"""

from __future__ import annotations

from collections import Counter
from math import comb

import numpy as np
import pytest

from pokercert.reference import get_ruleset, load_profile
from pokercert.reference.classes import (
    CODED_CARDS,
    ReferenceClasses,
    Space,
    card_order,
    cards,
    shuffled,
)


@pytest.fixture(scope="module")
def high3() -> ReferenceClasses:
    return ReferenceClasses(get_ruleset("nj-poker-high-3"), load_profile("practice"), Space(3, 0))


def test_each_hand_is_a_permutation_of_the_enumerated_one(high3):
    total = comb(52, 3)
    plain = high3.tokens(0, total)
    mixed = high3.tokens(0, total, order_seed=11)
    assert [sorted(h) for h in mixed] == [sorted(h) for h in plain]
    moved = sum(m != p for m, p in zip(mixed, plain, strict=True))
    # a random order of 3 distinct cards is the sorted one with probability 1/6
    assert 0.8 < moved / total < 0.87


def test_the_order_depends_on_the_seed_and_the_cards_only(high3):
    whole = high3.tokens(0, 5000, order_seed=11)
    pieces = [
        h for s in range(0, 5000, 333) for h in high3.tokens(s, min(s + 333, 5000), order_seed=11)
    ]
    assert pieces == whole  # batch boundaries do not matter
    assert whole != high3.tokens(0, 5000, order_seed=12)  # the seed does
    for hand in whole[:200]:  # the hand's own order does not
        given = cards(hand)
        assert list(map(str, shuffled(given, 11))) == hand
        assert shuffled(tuple(reversed(given)), 11) == shuffled(given, 11)


def test_numpy_and_pure_python_give_the_same_order():
    rng = np.random.default_rng(0)
    rows = np.array([rng.choice(53, size=5, replace=False) for _ in range(300)], dtype=np.uint8)
    rows[:20, 3:] = 52  # hands with two jokers
    got = card_order(99, rows)
    for row, out in zip(rows.tolist(), got.tolist(), strict=True):
        hand = cards([CODED_CARDS[c] for c in row])
        assert [CODED_CARDS[c] for c in out] == list(map(str, shuffled(hand, 99)))


def test_every_slot_gets_the_top_card_about_as_often(high3):
    top = Counter(
        h.index(max(h, key=lambda t: "23456789TJQKA".index(t[0])))
        for h in high3.tokens(0, 22_100, order_seed=5)
        if len({t[0] for t in h}) == 3
    )
    n = sum(top.values())
    assert all(abs(top[slot] / n - 1 / 3) < 0.02 for slot in range(3))


def test_sorted_is_the_enumeration_order(high3):
    assert high3.tokens(0, 3) == [["As", "Ah", "Ad"], ["As", "Ah", "Ac"], ["As", "Ah", "Ks"]]
    assert shuffled(cards(["As", "Ah", "Ks"]), None) == cards(["As", "Ah", "Ks"])
