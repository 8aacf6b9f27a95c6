"""Who watches an in-process call: its number while it runs, seen from outside.

No call is timed by a clock of its own; the alarm (a few times a timeout) and the
runner's watchdog (every 0.2 s) look at ``InProcessAdapter.calling`` and stop, or give
up on, a call whose number has been in progress for longer than its timeout.  These
tests hold that to hand-worked timelines (a clock given, no sleeping) and to a real
alarm: never before the timeout, always after it, each call timed on its own.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from pokercert.harness.adapters.inprocess import IDLE, CallWatch, InProcessAdapter
from pokercert.harness.api import EvaluatorInfo
from pokercert.harness.run import runner

COMPARE = {"op": "compare", "hands": ["Ah Kd 9c 7s 2h", "As Kh 9d 7c 2s"]}


def test_a_call_is_seen_running_from_its_first_sight():
    watch = CallWatch()
    assert watch.running(IDLE, 10.0) == 0.0
    assert watch.running(7, 10.5) == 0.0  # first sight
    assert watch.running(7, 11.25) == 0.75
    assert watch.running(7, 12.0) == 1.5
    assert watch.running(8, 12.5) == 0.0  # the next call starts afresh
    assert watch.running(8, 13.0) == 0.5
    assert watch.running(IDLE, 20.0) == 0.0  # between calls: nothing runs
    assert watch.running(8, 21.0) == 0.0  # (a number seen again after IDLE: from then)


class _Clock:
    """The runner module's ``time`` with a clock the test moves."""

    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        return self.now

    def monotonic(self) -> float:
        return self.now


class _Calling:
    calling = IDLE


@pytest.fixture
def watched(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> tuple[Any, _Clock, _Calling]:
    clock, adapter = _Clock(), _Calling()
    monkeypatch.setattr(runner, "time", clock)
    dog = runner.Watchdog(
        adapter,  # type: ignore[arg-type]
        tmp_path,
        None,  # type: ignore[arg-type]
        timeout=1.0,
        run_deadline=None,
        grace=0.5,
    )
    return dog, clock, adapter


def _looks(dog: Any, clock: _Clock, adapter: _Calling, timeline: list[tuple[float, int]]) -> str:
    """The watchdog's verdict at the last of its looks at (time, call in progress)."""
    why = ""
    for clock.now, adapter.calling in timeline:
        why = dog._overdue()
    return why


def test_the_watchdog_gives_up_on_one_call_past_its_timeout_and_grace(watched):
    dog, clock, adapter = watched
    looks = [(0.2 * i, 3) for i in range(8)]  # one call, looked at from 0.0 to 1.4 s
    assert _looks(dog, clock, adapter, looks) == ""
    why = _looks(dog, clock, adapter, [(1.6, 3)])  # 1.6 s > timeout 1.0 + grace 0.5
    assert "ran 1.6 s and did not stop at its 1.0 s timeout" in why


def test_the_watchdog_times_each_call_not_the_run(watched):
    dog, clock, adapter = watched
    # ten seconds of calls of 0.4 s each, looked at every 0.2 s: none is overdue
    looks = [(0.2 * i, i // 2) for i in range(50)]
    assert _looks(dog, clock, adapter, looks) == ""
    # and long stretches between calls are no call at all
    assert _looks(dog, clock, adapter, [(10.0 + i, IDLE) for i in range(10)]) == ""


class Timed:
    """Calls of the given lengths in turn; ``swallow``: a call that catches its
    deadline (and counts how often it was raised into it) and goes on."""

    info = EvaluatorInfo("test", "timed", "1")

    def __init__(self, seconds: list[float], swallow: int = -1) -> None:
        self.seconds, self.swallow, self.k = seconds, swallow, 0
        self.deadlines = 0

    def capabilities(self) -> dict[str, list[str]]:
        return {"nj-poker-high-5": ["compare"]}

    def configure(self, ruleset: str, readings: Any) -> None:
        pass

    def winners(self, hands: Any, board: Any = None) -> list[int]:
        k, self.k = self.k, self.k + 1
        end = time.monotonic() + self.seconds[k]
        while time.monotonic() < end:
            try:
                time.sleep(0.005)
            except BaseException:
                if k != self.swallow:
                    raise
                self.deadlines += 1
        return [0, 1]


def _run(evaluator: Timed, calls: int, timeout: float) -> list[Any]:
    adapter = InProcessAdapter(evaluator, "py:test", "test", "1", timeout=timeout)
    return adapter.run_batch([COMPARE] * calls)


def test_the_alarm_never_stops_a_call_before_its_timeout():
    # each call well under the timeout (a loaded machine may stretch one), the batch
    # past it: all answered
    replies = _run(Timed([0.1] * 4), 4, timeout=0.3)
    assert [r.status for r in replies] == ["answered"] * 4


def test_the_alarm_stops_a_call_past_its_timeout_soon_after_it():
    started = time.monotonic()
    (fast, slow, after) = _run(Timed([0.0, 5.0, 0.0]), 3, timeout=0.2)
    assert time.monotonic() - started < 1.0  # (0.2 s and two looks of 0.02 s, at most)
    assert (fast.status, slow.status, after.status) == ("answered", "timeout", "answered")
    assert 0.2 <= slow.duration_s < 1.0


def test_the_alarm_stops_a_call_that_runs_on_at_each_look_and_the_next_call_again():
    # the first call swallows every deadline and runs on to 0.5 s: it is stopped again
    # at each look past its timeout (looks every 0.01 s from 0.1 s on), and answers; the
    # second is stopped at its own timeout, not at once for the first's overrun
    evaluator = Timed([0.5, 5.0], swallow=0)
    first, second = _run(evaluator, 2, timeout=0.1)
    assert evaluator.deadlines > 1  # (about 40 on an idle machine)
    assert (first.status, second.status) == ("answered", "timeout")
    assert 0.1 <= second.duration_s < 1.0


class _SlowText(Exception):
    def __str__(self) -> str:
        time.sleep(5)  # interrupted by the alarm: reading it is a call of its own
        return "slow"


def test_reading_an_exception_is_watched_even_after_its_call_swallowed_the_deadline():
    # the call swallows its deadlines, runs on, then raises an exception whose text
    # hangs: reading that text is evaluator code, stopped at its own timeout (traceback
    # reads it under a bare except, which swallows the first deadline: the next look
    # stops it again)
    class Swallows(Timed):
        def winners(self, hands: Any, board: Any = None) -> list[int]:
            super().winners(hands, board)
            raise _SlowText

    evaluator = Swallows([0.3], swallow=0)
    started = time.monotonic()
    (reply,) = _run(evaluator, 1, timeout=0.1)
    assert evaluator.deadlines > 1
    assert time.monotonic() - started < 2.0
    assert reply.status == "error" and "its text could not be read" in reply.message
