"""One Dask worker's ranges of a run: the adapter's class keys asked for once, same results.

The tasks run here in this process, as a worker runs them one after the other
(:func:`~pokercert.harness.explore.distributed.check_range`; no cluster needed).  A
range's hands are each sent once for their key; the classes' keys (a few members of each
of the 1,755 classes of three-card high) are the adapter's for the whole run, so a
worker asks for them on its first range only.  Whatever ran on the worker before, a
range's state is the one a fresh worker computes (the expectation: the range checked by
a worker that has done nothing else).
"""

from __future__ import annotations

import pytest

from pokercert.harness.adapters import AdapterOptions
from pokercert.harness.explore import distributed
from pokercert.harness.explore.distributed import RangeTask, check_range
from tests.helpers.textbook_eval import TextbookHigh

HIGH_3 = "nj-poker-high-3"
HERE = "py:tests.harness.explore.test_distributed_tasks"


class CountingKeys(TextbookHigh):
    """The textbook evaluator, counting the hands it is asked to key."""

    calls = 0

    def key(self, hand: list[str]) -> tuple[int, ...]:
        CountingKeys.calls += 1
        return TextbookHigh.key(self, hand)


@pytest.fixture(autouse=True)
def _fresh_worker(monkeypatch):
    # a new worker process: no adapter started, no class keys known
    monkeypatch.setattr(distributed, "_WORKER", {})
    CountingKeys.calls = 0


def _task(spec: str, start: int, stop: int, *, check_order: bool = False) -> RangeTask:
    return RangeTask(
        spec,
        AdapterOptions(),
        HIGH_3,
        {"name": "practice", "choices": {}},
        True,
        start,
        stop,
        5,
        check_order=check_order,
        report_limit=3,
    )


def _result(state: dict) -> dict:
    return {k: v for k, v in state.items() if k != "elapsed_s"}


def test_a_workers_later_ranges_send_only_their_own_hands():
    first = check_range(_task(f"{HERE}:CountingKeys", 0, 1000, check_order=True))
    asked_first = CountingKeys.calls
    CountingKeys.calls = 0
    later = [check_range(_task(f"{HERE}:CountingKeys", a, a + 1000)) for a in (1000, 5000)]
    assert first["finished"] and all(s["finished"] and not s["disagreements"] for s in later)
    # the first range also asked for the classes' keys (at least one member of each)
    assert asked_first >= 1000 + 1755
    # each later range: its 1,000 hands, nothing more (each hand twice: its key, and the
    # textbook's classify, which reads the category off the key)
    assert CountingKeys.calls == 2 * 2000


def test_a_range_after_another_runs_ranges_is_the_one_a_fresh_worker_checks(monkeypatch):
    kickers = "py:tests.helpers.faux.kicker_order:KickerOrder"
    textbook = "py:tests.helpers.textbook_eval:TextbookHigh"
    fresh = check_range(_task(kickers, 9000, 12000))
    monkeypatch.setattr(distributed, "_WORKER", {})
    # the worker checks a range of this run, then one of another run (another adapter:
    # its own class keys, other class members written up), then this run's again
    check_range(_task(kickers, 0, 3000, check_order=True))
    check_range(_task(textbook, 3000, 6000, check_order=True))
    again = check_range(_task(kickers, 9000, 12000))
    assert fresh["class_disagreements"] > 0 and len(fresh["disagreements"]) == 3
    assert _result(again) == _result(fresh)
