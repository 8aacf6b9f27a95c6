"""The eval7 adapter reports what eval7 itself does, valid input or not."""

import pytest

eval7 = pytest.importorskip(
    "eval7", reason="eval7 is not installed (pip install 'pokercert[eval7]')"
)

from pokercert.harness.api import Rejected  # noqa: E402
from pokercert.harness.peers.eval7 import CATEGORY, Eval7Evaluator  # noqa: E402


@pytest.fixture(scope="module")
def adapter():
    a = Eval7Evaluator()
    a.configure("nj-poker-high-5", {})
    return a


INVALID = [
    "As As Kd Qc Jh",
    "As Ah Ad Ac As",
    "As Ks Qs Js",
    "As Ks Qs",
    "As Ks Qs Js Ts 9d",
    "Xx Ks Qs Js Ts",
    "10s Ks Qs Js As",
    "",
]


@pytest.mark.parametrize("hand", INVALID)
def test_invalid_input_gets_eval7s_own_answer(adapter, hand):
    try:
        value = eval7.evaluate([eval7.Card(c) for c in hand.split()])
    except Exception as exc:
        with pytest.raises(Rejected) as caught:
            adapter.classify(hand.split())
        assert caught.value.code is None and type(exc).__name__ in str(caught.value)
        return
    assert adapter.key(hand.split()) == value
    expected = CATEGORY[eval7.handtype(value)]
    if value == eval7.evaluate([eval7.Card(c) for c in ("As", "Ks", "Qs", "Js", "Ts")]):
        expected = "royal_flush"  # eval7 values it as A-K-Q-J-10 suited
    assert adapter.classify(hand.split()) == expected


def test_what_eval7_does_with_invalid_hands(adapter):
    # observed eval7 0.1.11 behaviour, pinned: nothing but unreadable cards is refused
    assert adapter.classify(["As", "As", "Kd", "Qc", "Jh"]) == "one_pair"
    assert adapter.classify(["As", "Ks", "Qs", "Js"]) == "high_card"
    assert adapter.classify([]) == "high_card"
    assert adapter.classify(["As"] * 5) == "full_house"
    # the "pair" made of a duplicated ace loses to a pair of kings
    assert adapter.winners([["As", "As", "Kd", "Qc", "Jh"], ["Kc", "Kh", "Qd", "Jc", "9s"]]) == [1]


def test_royal_flush_is_eval7s_top_straight_flush(adapter):
    for suit in "shdc":
        assert adapter.classify([r + suit for r in "AKQJT"]) == "royal_flush"
    assert adapter.classify(["Ks", "Qs", "Js", "Ts", "9s"]) == "straight_flush"
    assert adapter.classify(["5d", "4d", "3d", "2d", "Ad"]) == "straight_flush"
