"""An in-process evaluator's answer is judged under the same guard as its call.

Judging an answer that is not a plain builtin runs the evaluator's own code: a list
subclass's ``__iter__`` when it is copied, an object's ``__repr__`` when the message
quotes it, an exception's ``__str__`` when its text is written.  That code may raise or
hang; the harness must still give one reply per request (an ERROR, or a TIMEOUT past the
per-request limit), never raise out of ``run_batch`` or ``compare_ties``, never hang.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from pokercert.harness.adapters.base import ANSWERED, ERROR, TIMEOUT, PairCompares
from pokercert.harness.adapters.inprocess import IDLE, InProcessAdapter
from pokercert.harness.api import EvaluatorInfo

HAND, OTHER = "Ah Kd 9c 7s 2h", "As Kh 9d 7c 2s"


class BadRepr:
    def __repr__(self) -> str:
        raise ValueError("no repr for you")


class SlowRepr:
    def __repr__(self) -> str:
        time.sleep(5)
        return "slow"


class BadIter(list):  # a list subclass: copied through its own __iter__
    def __iter__(self) -> Any:
        raise ValueError("no iteration for you")


class BadText(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no text for you")


class Answers:
    """Answers every compare and classify with ``answer()``."""

    info = EvaluatorInfo("test", "hostile", "1")

    def __init__(self, answer: Any) -> None:
        self.answer = answer

    def capabilities(self) -> dict[str, list[str]]:
        return {"nj-poker-high-5": ["classify", "compare", "showdown"]}

    def configure(self, ruleset: str, readings: Any) -> None:
        pass

    def winners(self, hands: Any, board: Any = None) -> Any:
        return self.answer()

    def classify(self, hand: Any) -> Any:
        return self.answer()

    def showdown(self, hands: Any, board: Any = None) -> Any:
        return self.answer()


def _raise(exc: BaseException) -> Any:
    raise exc


ANSWERS = {
    "repr raises": BadRepr,
    "iter raises": lambda: BadIter([0, 1]),
    "text of the exception raises": lambda: _raise(BadText()),
}
REQUESTS = {
    "compare": {"op": "compare", "hands": [HAND, OTHER]},
    "classify": {"op": "classify", "hand": HAND},
    "compare with a board": {"op": "compare", "hands": ["Ah Kd", "As Kh"], "board": "9c 7s 2h"},
    "showdown": {"op": "showdown", "hands": [HAND, OTHER]},
}


def _adapter(answer: Any, timeout: float | None = None) -> InProcessAdapter:
    return InProcessAdapter(Answers(answer), "py:test", "test", "1", timeout=timeout)


@pytest.mark.parametrize("request_", REQUESTS.values(), ids=list(REQUESTS))
@pytest.mark.parametrize("answer", ANSWERS.values(), ids=list(ANSWERS))
def test_an_answer_whose_own_code_raises_is_an_error_reply(answer, request_):
    (reply,) = _adapter(answer).run_batch([request_])
    assert reply.status == ERROR, reply
    assert reply.message


@pytest.mark.parametrize("answer", ANSWERS.values(), ids=list(ANSWERS))
def test_the_same_in_a_tie_batch(answer):
    got = _adapter(answer).compare_ties(PairCompares([HAND] * 3, [OTHER] * 3))
    assert sorted(got) == [0, 1, 2]
    assert {r.status for r in got.values()} == {ERROR}


def test_an_exceptions_unreadable_text_is_said_so():
    (reply,) = _adapter(lambda: _raise(BadText()))._answer([REQUESTS["compare"]])
    assert reply.status == ERROR
    assert reply.message == "BadText (its text could not be read)"


QUOTED = ["compare", "classify", "compare with a board"]  # (messages quote the answer)


@pytest.mark.parametrize("request_", [REQUESTS[k] for k in QUOTED], ids=QUOTED)
def test_an_answer_whose_own_code_hangs_times_out(request_):
    began = time.monotonic()
    (reply,) = _adapter(SlowRepr, timeout=0.3).run_batch([request_])
    assert time.monotonic() - began < 3  # not the 5 s its repr sleeps
    assert reply.status == TIMEOUT, reply


def test_a_plain_answer_is_still_answered():
    (reply,) = _adapter(lambda: [0, 1]).run_batch([REQUESTS["compare"]])
    assert (reply.status, dict(reply.data)) == (ANSWERED, {"winners": [0, 1]})


def test_the_watchdog_sees_a_judging_in_progress():
    """The runner's watchdog looks at ``calling`` to see a call that swallowed the alarm;
    judging runs evaluator code too, so the call's number is there then, IDLE after."""
    seen: list[int] = []

    class Watched:
        def __repr__(self) -> str:
            seen.append(adapter.calling)
            return "watched"

    adapter = _adapter(Watched)
    (reply,) = adapter.run_batch([REQUESTS["compare"]])
    assert reply.status == ERROR and "watched" in reply.message
    assert seen and seen[0] != IDLE
    assert adapter.calling == IDLE
