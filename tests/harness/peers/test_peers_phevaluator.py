"""The phevaluator adapter reports what phevaluator itself does, valid input or not."""

import pytest

pytest.importorskip(
    "phevaluator", reason="phevaluator is not installed (pip install 'pokercert[phevaluator]')"
)

from phevaluator.evaluator import evaluate_cards

from pokercert.harness.api import Rejected
from pokercert.harness.peers._library import LibraryAnswerError
from pokercert.harness.peers.phevaluator import (
    PhevaluatorEvaluator,
    category_of_rank,
)


@pytest.fixture(scope="module")
def adapter():
    a = PhevaluatorEvaluator()
    a.configure("nj-poker-high-5", {})
    return a


# Cactus Kev's published bands (first and last rank of each category)
BANDS = [
    (1, 1, "royal_flush"),
    (2, 10, "straight_flush"),
    (11, 166, "four_of_a_kind"),
    (167, 322, "full_house"),
    (323, 1599, "flush"),
    (1600, 1609, "straight"),
    (1610, 2467, "three_of_a_kind"),
    (2468, 3325, "two_pair"),
    (3326, 6185, "one_pair"),
    (6186, 7462, "high_card"),
]


@pytest.mark.parametrize(("first", "last", "category"), BANDS)
def test_rank_bands(first, last, category):
    assert category_of_rank(first) == category_of_rank(last) == category


@pytest.mark.parametrize("rank", [0, -1, 7463])
def test_a_rank_outside_the_documented_range_is_no_answer(rank):
    with pytest.raises(LibraryAnswerError, match=str(rank)):
        category_of_rank(rank)


INVALID = [
    "As As Kd Qc Jh",
    "As As Ks Qs Js",
    "As Ah Ad Ac As",
    "As Ks Qs Js",
    "As Ks Qs Js Ts 9d",
    "Xx Ks Qs Js Ts",
    "10s Ks Qs Js As",
    "AS KS QS JS TS",
]


@pytest.mark.parametrize("hand", INVALID)
def test_invalid_input_gets_phevaluators_own_answer(adapter, hand):
    try:
        own = evaluate_cards(*hand.split())
    except Exception as exc:
        with pytest.raises(Rejected) as caught:
            adapter.classify(hand.split())
        assert caught.value.code is None and type(exc).__name__ in str(caught.value)
        return
    assert adapter.key(hand.split()) == -own
    if 1 <= own <= 7462:
        assert adapter.classify(hand.split()) == category_of_rank(own)
    else:
        with pytest.raises(LibraryAnswerError):
            adapter.classify(hand.split())


def test_what_phevaluator_does_with_invalid_hands(adapter):
    # observed phevaluator 0.6.0 behaviour, pinned
    assert adapter.classify(["As", "As", "Kd", "Qc", "Jh"]) == "one_pair"
    assert adapter.classify(["As", "Ks", "Qs", "Js", "Ts", "9d"]) == "royal_flush"
    with pytest.raises(Rejected, match="ValueError"):
        adapter.classify(["As", "Ks", "Qs", "Js"])
    # rank 0: classify has no category for it, and in a showdown it beats a royal flush
    with pytest.raises(LibraryAnswerError, match="rank 0"):
        adapter.classify(["As", "As", "Ks", "Qs", "Js"])
    assert adapter.winners([["As", "As", "Ks", "Qs", "Js"], ["Ah", "Kh", "Qh", "Jh", "Th"]]) == [0]
