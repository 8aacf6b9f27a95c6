"""The treys adapter reports what treys itself does, valid input or not.

The expected answers for invalid input are treys's own, obtained by calling treys
directly in the test: the adapter must neither hide nor improve on them.
"""

import pytest

treys = pytest.importorskip(
    "treys", reason="treys is not installed (pip install 'pokercert[treys]')"
)

from pokercert.harness.api import Rejected  # noqa: E402
from pokercert.harness.peers.treys import CATEGORY, TreysEvaluator  # noqa: E402


@pytest.fixture(scope="module")
def adapter():
    a = TreysEvaluator()
    a.configure("nj-poker-high-5", {})
    return a


def raw(hand):
    """treys's own answer: its class name, or the exception it raised."""
    ev = treys.Evaluator()
    try:
        rank = ev.evaluate([treys.Card.new(c) for c in hand], [])
    except Exception as exc:
        return type(exc)
    return ev.class_to_string(ev.get_rank_class(rank))


INVALID = [
    "As As Kd Qc Jh",  # duplicate card
    "As Ah Ad Ac As",  # five aces
    "As Ks Qs Js",  # four cards
    "As Ks Qs Js Ts 9d",  # six cards
    "Xx Ks Qs Js Ts",  # a joker in a game without one
    "10s Ks Qs Js As",  # a spelling treys does not read
    "as ks qs js ts",  # lower-case ranks
]


@pytest.mark.parametrize("hand", INVALID)
def test_invalid_input_gets_treys_own_answer(adapter, hand):
    own = raw(hand.split())
    if isinstance(own, type):
        with pytest.raises(Rejected) as caught:
            adapter.classify(hand.split())
        assert caught.value.code is None
        assert own.__name__ in str(caught.value)
    else:
        assert adapter.classify(hand.split()) == CATEGORY[own]


def test_what_treys_does_with_invalid_hands(adapter):
    # observed treys 0.1.8 behaviour, pinned: a change in treys shows up here
    assert adapter.classify(["As", "As", "Kd", "Qc", "Jh"]) == "one_pair"
    assert adapter.classify(["As", "Ks", "Qs", "Js", "Ts", "9d"]) == "royal_flush"
    with pytest.raises(Rejected, match="KeyError"):
        adapter.classify(["As", "Ks", "Qs", "Js"])
    # the duplicated ace plays as a pair of aces and beats kings
    assert adapter.winners([["As", "As", "Kd", "Qc", "Jh"], ["Kc", "Kh", "Qd", "Jc", "9s"]]) == [0]


def test_royal_flush_is_treys_own_class(adapter):
    for suit in "shdc":
        assert adapter.classify([r + suit for r in "AKQJT"]) == "royal_flush"
    assert adapter.key(["As", "Ks", "Qs", "Js", "Ts"]) > adapter.key(["Ks", "Qs", "Js", "Ts", "9s"])


def test_every_treys_class_has_a_category():
    ev = treys.Evaluator()
    names = {ev.class_to_string(ev.get_rank_class(r)) for r in range(1, 7463)}
    assert names == set(CATEGORY)
