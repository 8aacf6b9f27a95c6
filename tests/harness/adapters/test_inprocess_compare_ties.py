"""``InProcessAdapter.compare_ties``: the exhaustive pass's tie batches in one loop (issue 28).

The pass sets each hand against a member of its own class and expects a tie; the
adapter tells the ties in a few steps and gives, by position, only the other replies.
Those must be exactly the replies :meth:`run_batch` gives (``not_tied`` of them), for
every answer a hostile in-process evaluator may return, on both forms of the batch (the
hand texts, the card codes), with the guarantees of ``run_batch``: the per-request alarm,
the user's Ctrl-C told from a ``KeyboardInterrupt`` of evaluator code, new lists for every
call.  Each hostile answer's expected reply is also worked out by hand from the protocol
(PROTOCOL.md: a compare's ``winners`` is a list of integers; the Python API may return a
list or a tuple), so a check dropped from both paths alike still fails here.
"""

from __future__ import annotations

import contextlib
import signal
import time
from typing import Any

import numpy as np
import pytest

from pokercert.harness.adapters.base import (
    ANSWERED,
    ERROR,
    REJECTED,
    TIMEOUT,
    PairCompares,
    Reply,
    not_tied,
)
from pokercert.harness.adapters.inprocess import IDLE, InProcessAdapter
from pokercert.harness.api import EvaluatorInfo, Rejected
from pokercert.reference.classes import CODED_CARDS

# four requests: a hand and another of its class beside it (the pass's shape), as sent
FIRST = ["Ah Kd 9c 7s 2h", "Qs Qd 8h 5c 3s", "Tc 9d 8s 7h 6c", "Jh Jd 9s 4c 4d"]
SECOND = ["As Kh 9d 7c 2s", "Qh Qc 8d 5s 3d", "Td 9s 8c 7d 6h", "Jc Js 9h 4h 4s"]


def _codes(texts: list[str]) -> Any:
    return np.array([[CODED_CARDS.index(c) for c in t.split(" ")] for t in texts], dtype=np.int16)


FORMS = {
    "texts": lambda: PairCompares(list(FIRST), list(SECOND)),
    "codes": lambda: PairCompares.of_codes(_codes(FIRST), _codes(SECOND)),
}


class Int(int):
    """An int that says it equals everything."""

    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = int.__hash__


class Listed(list):
    pass


class Boom(BaseException):
    """Neither an Exception nor the harness's: raised by evaluator code, its ERROR."""


def _raise(exc: BaseException) -> Any:
    raise exc


def _answered(*winners: int) -> tuple[str, dict[str, Any]]:
    return ANSWERED, {"winners": list(winners)}


_ERROR = (ERROR, {})
# what winners() returns (or raises) at the odd positions (1 and 3), and the reply worked
# out by hand: None for a tie (left out of compare_ties's answer)
HOSTILE: dict[str, tuple[Any, tuple[str, dict[str, Any]] | None]] = {
    "tie": (lambda: [0, 1], None),
    "tie reversed": (lambda: [1, 0], None),
    "[0]": (lambda: [0], _answered(0)),
    "[1]": (lambda: [1], _answered(1)),
    "[]": (lambda: [], _answered()),
    "[0, 0]": (lambda: [0, 0], _answered(0, 0)),
    "[1, 1]": (lambda: [1, 1], _answered(1, 1)),
    "[0, 1, 2]": (lambda: [0, 1, 2], _answered(0, 1, 2)),
    "[1, 0, 1]": (lambda: [1, 0, 1], _answered(1, 0, 1)),
    "[-1, 0]": (lambda: [-1, 0], _answered(-1, 0)),
    "bools [True, False]": (lambda: [True, False], _ERROR),  # a bool is not an integer
    "bools [False, True]": (lambda: [False, True], _ERROR),
    "[0, True]": (lambda: [0, True], _ERROR),
    "[0, 1.0]": (lambda: [0, 1.0], _ERROR),
    "[0.0, 1]": (lambda: [0.0, 1], _ERROR),
    "[Int(0), 1]": (lambda: [Int(0), 1], _ERROR),  # an int subclass, equal to all
    "[0, Int(1)]": (lambda: [0, Int(1)], _ERROR),
    "[Int(5), Int(7)]": (lambda: [Int(5), Int(7)], _ERROR),
    "tuple (0, 1)": (lambda: (0, 1), None),  # the Python API's sequence: a tie
    "tuple (1, 0)": (lambda: (1, 0), None),
    "tuple (1, 1)": (lambda: (1, 1), _answered(1, 1)),
    "tuple (True, False)": (lambda: (True, False), _ERROR),
    "list subclass [0, 1]": (lambda: Listed([0, 1]), None),  # copied to a plain list
    "list subclass [0]": (lambda: Listed([0]), _answered(0)),
    "list subclass [0, True]": (lambda: Listed([0, True]), _ERROR),
    "None": (lambda: None, _ERROR),
    "a string": (lambda: "01", _ERROR),
    "an int": (lambda: 0, _ERROR),
    "a dict": (lambda: {"winners": [0, 1]}, _ERROR),
    "a set": (lambda: {0, 1}, _ERROR),
    "raises ValueError": (lambda: _raise(ValueError("boom")), _ERROR),
    "refuses": (
        lambda: _raise(Rejected("bad-card", "no such card")),
        (REJECTED, {"rejected": "bad-card"}),
    ),
    "raises SystemExit": (lambda: _raise(SystemExit(3)), _ERROR),
    "raises KeyboardInterrupt itself": (lambda: _raise(KeyboardInterrupt()), _ERROR),
    "raises a BaseException": (lambda: _raise(Boom("deep")), _ERROR),
}


class Scripted:
    """Answers ties at the even positions of a batch and ``answer()`` at the odd ones;
    keeps every argument it was given (so no two are the same object by reuse)."""

    info = EvaluatorInfo("test", "scripted", "1")

    def __init__(self, answer: Any = lambda: [0, 1]) -> None:
        self.answer = answer
        self.calls = 0
        self.given: list[Any] = []
        self.seen: list[list[list[str]]] = []

    def capabilities(self) -> dict[str, list[str]]:
        return {"nj-poker-high-5": ["compare"]}

    def configure(self, ruleset: str, readings: Any) -> None:
        pass

    def winners(self, hands: Any, board: Any = None) -> Any:
        k, self.calls = self.calls, self.calls + 1
        self.given.append(hands)
        self.seen.append([list(h) for h in hands])
        if k % 2:
            return self.answer()
        return [0, 1] if k % 4 else [1, 0]


def _adapter(evaluator: Any, timeout: float | None = None) -> InProcessAdapter:
    return InProcessAdapter(evaluator, "py:test", "test", "1", timeout=timeout)


def _same(got: Reply, want: Reply) -> None:
    """The same reply but for its duration (and the harness's frames in a traceback)."""
    assert (got.status, dict(got.data), got.message, got.attachment) == (
        want.status,
        dict(want.data),
        want.message,
        want.attachment,
    )
    assert bool(got.stderr) == bool(want.stderr)
    if want.stderr:  # the traceback ends with the evaluator's exception, as run_batch's
        assert got.stderr.splitlines()[-1] == want.stderr.splitlines()[-1]
    assert got.duration_s >= 0


def _against_run_batch(make: Any, form: str, timeout: float | None = None) -> dict[int, Reply]:
    """compare_ties of a fresh evaluator ``make()`` over the batch; asserted equal, position
    by position, to not_tied of run_batch's replies from another fresh one."""
    got = _adapter(make(), timeout).compare_ties(FORMS[form]())
    want = not_tied(_adapter(make(), timeout).run_batch(FORMS[form]()))
    assert sorted(got) == sorted(want)
    for k in want:
        _same(got[k], want[k])
    return got


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("name", HOSTILE)
def test_each_hostile_answer_is_set_apart_as_run_batch_replies_it(name, form):
    answer, expected = HOSTILE[name]
    got = _against_run_batch(lambda: Scripted(answer), form)
    # worked out by hand: the odd positions (1 and 3) carry the answer
    want = {} if expected is None else {1: expected, 3: expected}
    assert {k: (r.status, dict(r.data)) for k, r in got.items()} == want
    for reply in got.values():
        if reply.status == ANSWERED:  # plain ints in a plain list, never the evaluator's
            assert type(reply.data["winners"]) is list
            assert all(type(i) is int for i in reply.data["winners"])
        else:
            assert reply.message


@pytest.mark.parametrize("form", FORMS)
def test_every_call_gets_new_lists_of_the_requests_cards(form):
    evaluator = Scripted()
    pairs = FORMS[form]()
    before = (list(pairs.first), list(pairs.second))
    codes = None if pairs.codes is None else (pairs.codes[0].copy(), pairs.codes[1].copy())

    def mutating(hands: Any, board: Any = None) -> Any:
        answer = Scripted.winners(evaluator, hands)
        hands[0].clear()  # its own lists: nothing of the batch or another call changes
        hands[1].append("Xx")
        hands.append(["As"])
        return answer

    evaluator.winners = mutating
    assert _adapter(evaluator).compare_ties(pairs) == {}
    pairs_sent = zip(FIRST, SECOND, strict=True)
    assert evaluator.seen == [[a.split(" "), b.split(" ")] for a, b in pairs_sent]
    assert all(type(h) is list and len(h) == 3 for h in evaluator.given)  # (after the appends)
    objects = [*evaluator.given, *(hand for args in evaluator.given for hand in args)]
    assert len({id(x) for x in objects}) == len(objects)  # (all kept alive: ids unique)
    assert (list(pairs.first), list(pairs.second)) == before
    if codes is not None:
        assert pairs.codes is not None
        assert (pairs.codes[0] == codes[0]).all() and (pairs.codes[1] == codes[1]).all()
    assert all(type(c) is str for args in evaluator.seen for hand in args for c in hand)


def test_an_empty_hand_is_no_cards_as_run_batch_sends_it():
    evaluator = Scripted()
    assert _adapter(evaluator).compare_ties(PairCompares(["", "As Kd"], ["Qh", ""])) == {}
    assert evaluator.seen == [[[], ["Qh"]], [["As", "Kd"], []]]


@pytest.mark.parametrize("form", FORMS)
def test_one_list_returned_every_time_and_changed_later_is_judged_as_returned(form):
    # the same list object, set before each return; a reply holding it (not a copy)
    # would show what it became later: [0, 1]
    script = [[0, 1], [0], [1, 0], [1, 1, 1]]

    def make() -> Any:
        kept: list[int] = []
        evaluator = Scripted()

        def winners(hands: Any, board: Any = None) -> Any:
            kept[:] = script[evaluator.calls]
            evaluator.calls += 1
            return kept

        evaluator.winners = winners
        evaluator.kept = kept
        return evaluator

    evaluator = make()
    got = _adapter(evaluator).compare_ties(FORMS[form]())
    evaluator.kept[:] = [0, 1]
    assert {k: dict(r.data) for k, r in got.items()} == {
        1: {"winners": [0]},
        3: {"winners": [1, 1, 1]},
    }
    assert got[1].data["winners"] is not evaluator.kept
    _against_run_batch(make, form)


@pytest.mark.parametrize("form", FORMS)
def test_a_call_past_the_timeout_is_a_timeout_and_the_others_are_answered(form):
    def slow() -> Any:
        time.sleep(5)  # interrupted by the alarm after 0.2 s
        return [0, 1]

    def make() -> Scripted:
        calls = iter([lambda: [0], slow])
        return Scripted(lambda: next(calls)())

    started = time.monotonic()
    got = _against_run_batch(make, form, timeout=0.2)
    assert time.monotonic() - started < 3
    assert {k: r.status for k, r in got.items()} == {1: ANSWERED, 3: TIMEOUT}
    assert got[3].message == "no answer within 0.2 s"


@pytest.mark.parametrize("form", FORMS)
def test_the_alarm_times_each_call_not_the_batch(form):
    # four calls of 0.1 s under a 0.3 s timeout: the batch runs past it, no call does
    # (the alarm measures from the start of the call in progress)
    class Steady(Scripted):
        def winners(self, hands: Any, board: Any = None) -> Any:
            time.sleep(0.1)
            return super().winners(hands, board)

    adapter = _adapter(Steady(), timeout=0.3)
    handler = signal.getsignal(signal.SIGALRM)
    started = time.monotonic()
    assert adapter.compare_ties(FORMS[form]()) == {}
    assert time.monotonic() - started > 0.35
    assert signal.getsignal(signal.SIGALRM) == handler  # put back
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)  # disarmed after the batch


def test_each_call_is_numbered_while_it_runs_and_idle_between():
    seen: list[int] = []
    adapter: InProcessAdapter

    class Watched(Scripted):
        def winners(self, hands: Any, board: Any = None) -> Any:
            seen.append(adapter.calling)
            if len(seen) == 2:
                raise ValueError("boom")
            return super().winners(hands, board)

    adapter = _adapter(Watched(), timeout=5)
    got = adapter.compare_ties(FORMS["codes"]())
    assert sorted(got) == [1] and got[1].status == ERROR
    assert adapter.calling == IDLE
    again = adapter.compare_ties(FORMS["codes"]())  # (its second call raises no more)
    assert again == {} and adapter.calling == IDLE
    # a number each call, never one seen before, and never IDLE while a call runs
    assert len(seen) == 8 and seen[0] > IDLE and seen == sorted(set(seen))


def test_a_reply_carries_the_batch_mean_and_a_timeout_at_least_the_timeout():
    """The tie loop times no call: a reply made there carries the mean time of the
    batch's calls so far (as an exec: batch's replies do), a TIMEOUT the timeout."""

    class Sleepy(Scripted):
        def winners(self, hands: Any, board: Any = None) -> Any:
            k, self.calls = self.calls, self.calls + 1
            seconds, answer = [(0.05, [0, 1]), (0.05, [0]), (5.0, [0, 1]), (0.0, [1, 0])][k]
            time.sleep(seconds)  # (the third one interrupted by the alarm after 0.3 s)
            return answer

    adapter = _adapter(Sleepy(), timeout=0.3)
    got = adapter.compare_ties(FORMS["codes"]())
    assert {k: r.status for k, r in got.items()} == {1: ANSWERED, 2: TIMEOUT}
    assert 0.04 <= got[1].duration_s <= 0.5  # two calls of 0.05 s, their mean
    assert got[2].duration_s >= 0.3


@pytest.fixture
def python_sigint() -> Any:
    """Python's own SIGINT handler while the test runs (the adapter installs its own only
    over that one; a test run earlier in this process may have left another), the one
    found put back after."""
    found = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, found)


@pytest.mark.parametrize("form", FORMS)
def test_the_users_ctrl_c_during_a_call_interrupts_the_batch(form, python_sigint):
    evaluator = Scripted(lambda: signal.raise_signal(signal.SIGINT))  # as a Ctrl-C would
    with pytest.raises(KeyboardInterrupt):
        _adapter(evaluator).compare_ties(FORMS[form]())
    assert evaluator.calls == 2  # stopped at the call it came in
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back


@pytest.mark.parametrize("form", FORMS)
def test_a_ctrl_c_swallowed_by_evaluator_code_still_interrupts_after_the_batch(form, python_sigint):
    def swallows() -> Any:
        with contextlib.suppress(KeyboardInterrupt):
            signal.raise_signal(signal.SIGINT)
        return [0, 1]

    evaluator = Scripted(swallows)
    with pytest.raises(KeyboardInterrupt):
        _adapter(evaluator).compare_ties(FORMS[form]())
    assert evaluator.calls == 4
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_an_all_tie_batch_makes_no_reply_and_does_not_go_through_run_batch(monkeypatch):
    def unused(*args: Any) -> Any:
        raise AssertionError("an all-tie batch went the general way")

    monkeypatch.setattr(InProcessAdapter, "run_batch", unused)
    monkeypatch.setattr(InProcessAdapter, "_compared", unused)
    monkeypatch.setattr(InProcessAdapter, "_failed", unused)
    for form in FORMS:
        assert _adapter(Scripted()).compare_ties(FORMS[form]()) == {}


def test_without_winners_or_requests_it_is_the_base_behaviour():
    class NoCompare(Scripted):
        winners = None

    got = _against_run_batch(NoCompare, "texts")
    assert sorted(got) == [0, 1, 2, 3] and {r.status for r in got.values()} == {ERROR}
    assert _adapter(Scripted()).compare_ties(PairCompares([], [])) == {}
