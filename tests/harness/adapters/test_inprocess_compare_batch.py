"""A batch of compares answered in process decides each reply as one request alone does
(issue 28: a batch of compares without a board is answered in one loop, its answers
taken in one step when they are a plain list of plain ints).  An in-process evaluator is
adversarial: a wrong-typed answer is an ERROR, never a crash or a pass."""

from __future__ import annotations

import pytest

from pokercert.harness.adapters.base import ANSWERED, ERROR, REJECTED, PairCompares
from pokercert.harness.adapters.inprocess import InProcessAdapter
from pokercert.harness.api import EvaluatorInfo, Rejected


class Int(int):
    def __eq__(self, other):  # lies: equal to everything
        return True

    __hash__ = int.__hash__


class Listed(list):
    pass


def _raise(exc):
    raise exc


# what an evaluator's winners() may do
ANSWERS = [
    lambda: [0, 1],
    lambda: [0],
    lambda: [1],
    lambda: [],
    lambda: (0, 1),  # a tuple: a list to check_item
    lambda: [0, True],  # a bool is not an int
    lambda: [0, 1.0],
    lambda: [Int(0), 1],
    lambda: Listed([0, 1]),
    lambda: [0, 1, 2],
    lambda: [-1],
    lambda: None,
    lambda: "01",
    lambda: 0,
    lambda: {"winners": [0, 1]},
    lambda: _raise(ValueError("boom")),
    lambda: _raise(Rejected("bad-card", "no such card")),
    lambda: _raise(SystemExit(3)),
    lambda: _raise(KeyboardInterrupt()),  # the evaluator's own: its ERROR
]


class Scripted:
    info = EvaluatorInfo("test", "scripted", "1")

    def capabilities(self):
        return {"nj-poker-high-5": ["compare"]}

    def configure(self, ruleset, readings):
        pass

    def winners(self, hands, board=None):
        return [0, 1]


PAIR = ["As Ks Qs Js Ts", "2c 3d 4h 5s 7c"]
BATCHES = {
    "dicts": lambda: [{"op": "compare", "hands": list(PAIR)}] * 3,
    # the exhaustive pass's form: the two hand lists, no dict a hand
    "pair lists": lambda: PairCompares([PAIR[0]] * 3, [PAIR[1]] * 3),
}


@pytest.mark.parametrize("form", BATCHES)
@pytest.mark.parametrize("i", range(len(ANSWERS)))
def test_each_answer_in_a_batch_is_replied_as_alone(i, form, monkeypatch):
    monkeypatch.setattr(Scripted, "winners", lambda self, hands, board=None: ANSWERS[i]())
    adapter = InProcessAdapter(Scripted(), "py:test", "test", "1")
    batch = BATCHES[form]()
    replies = adapter.run_batch(batch)
    assert len(replies) == 3
    alone = adapter._one(batch[0])  # call_evaluator and check_item: the full path
    for reply in replies:
        assert (reply.status, reply.data, reply.message[:60]) == (
            alone.status,
            alone.data,
            alone.message[:60],
        )
    if alone.status == ANSWERED:
        assert type(replies[0].data["winners"]) is list
    else:
        assert replies[0].status in (ERROR, REJECTED)


@pytest.mark.parametrize(
    "answer, status",
    [
        ([0, True], ERROR),
        ([0, 1.0], ERROR),
        ([Int(0), 1], ERROR),
        (Listed([0, 1]), ANSWERED),  # a list subclass: copied into a plain list of ints
        ("01", ERROR),
        (None, ERROR),
    ],
)
def test_a_wrong_typed_answer_is_an_error_never_a_pass(answer, status):
    class Odd(Scripted):
        def winners(self, hands, board=None):
            return answer

    (reply,) = InProcessAdapter(Odd(), "py:test", "test", "1").run_batch(
        [{"op": "compare", "hands": ["As Ks Qs Js Ts", "2c 3d 4h 5s 7c"]}] * 1
    )
    assert reply.status == status
    if status == ANSWERED:
        assert type(reply.data["winners"]) is list
        assert all(type(i) is int for i in reply.data["winners"])


def test_the_winners_replied_are_a_copy_the_evaluator_cannot_change_later():
    kept = [0, 1]

    class Keeps(Scripted):
        def winners(self, hands, board=None):
            return kept

    replies = InProcessAdapter(Keeps(), "py:test", "test", "1").run_batch(
        [{"op": "compare", "hands": ["As Ks Qs Js Ts", "2c 3d 4h 5s 7c"]}] * 2
    )
    kept.append(2)
    assert [r.data["winners"] for r in replies] == [[0, 1], [0, 1]]


def test_a_batch_with_a_board_or_another_op_is_answered_request_by_request():
    seen = []

    class Records(Scripted):
        def winners(self, hands, board=None):
            seen.append(board)
            return [0, 1]

        def classify(self, hand):
            return "high_card"

    adapter = InProcessAdapter(Records(), "py:test", "test", "1")
    replies = adapter.run_batch(
        [
            {"op": "compare", "hands": ["As Ks", "2c 3d"], "board": "Qs Js Ts"},
            {"op": "compare", "hands": ["As Ks Qs Js Ts", "2c 3d 4h 5s 7c"]},
            {"op": "classify", "hand": "2c 3d 4h 5s 7c"},
        ]
    )
    assert [r.status for r in replies] == [ANSWERED] * 3
    assert seen == [["Qs", "Js", "Ts"], None]
    assert replies[2].data == {"category": "high_card"}


def test_the_evaluator_gets_the_pair_lists_hands_in_order_as_new_lists():
    seen = []

    class Records(Scripted):
        def winners(self, hands, board=None):
            seen.append(hands)
            hands[0].clear()  # its own lists: nothing of the batch changes
            return [0]

    first, second = ["As Ks Qs Js Ts", "2c 3d 4h 5s 7c"], ["9h 8h 7h 6h 5h", "Ad Ac Ah As Kd"]
    replies = InProcessAdapter(Records(), "py:test", "test", "1").run_batch(
        PairCompares(first, second)
    )
    assert [r.data["winners"] for r in replies] == [[0], [0]]
    assert seen == [[[], ["9h", "8h", "7h", "6h", "5h"]], [[], ["Ad", "Ac", "Ah", "As", "Kd"]]]
    assert first == ["As Ks Qs Js Ts", "2c 3d 4h 5s 7c"]
