"""A compare-only exhaustive pass is practical (issue 28 item 2) and finds what it found.

Before, ordering the classes by compare alone streamed the whole space once per class
whose members' suit renamings all share cards (the pools of
:meth:`ReferenceClasses.disjoint_member`), and sent one batch per merge step (O(n)
round trips to an ``exec:`` adapter): minutes on five-card high.  These tests hold the
new path to:

* the same results as before: ``data/compare_only_before.json`` is what the previous
  path (main at 76540ba) reported for six compare-only evaluators on three-card high,
  order seed 1: a correct one, four with consistent planted bugs (a flush above a
  straight, kickers ignored in pairs, suits breaking ties, high cards compared from the
  lowest up) and one whose compare is not an order at all;
* one streamed pass over the space for every class's members;
* few batches for an evaluator that agrees: each merge asks ahead, so a merge that goes
  one way takes about log2 of its length round trips;
* an elapsed time that counts the reference's classes and the order check, not only
  the hands.
"""

from __future__ import annotations

import json
import time
from math import ceil, log2
from pathlib import Path

import pytest

from pokercert.harness.adapters import load_adapter
from pokercert.harness.adapters.inprocess import InProcessAdapter
from tests.harness.explore.test_exhaustive_compare_only import exhaustive_high_3
from tests.helpers.faux.compare_only import CompareOnly

HIGH_3 = "nj-poker-high-3"
BEFORE = json.loads(
    (Path(__file__).parent / "data" / "compare_only_before.json").read_text(encoding="utf-8")
)


@pytest.mark.parametrize("spec", sorted(BEFORE))
def test_the_compare_path_reports_what_it_reported_before(spec, tmp_path):
    state = exhaustive_high_3(load_adapter(spec), spec, tmp_path, report_limit=10).as_dict()
    state.pop("elapsed_s")
    before = dict(BEFORE[spec])
    # the profile names every interpretation of the catalogue, which grows with new
    # rulesets; the ruleset's own readings are what the pass ran under
    assert {
        k: v for k, v in state["profile"]["readings"].items() if k in before["profile"]["readings"]
    } == before["profile"]["readings"]
    state.pop("profile"), before.pop("profile")
    assert state == before


class _Counted(InProcessAdapter):
    """The reference's compare, counting the batches sent."""

    def __init__(self) -> None:
        super().__init__(CompareOnly(), "py:tests", "tests", "1")
        self.batches = 0

    def run_batch(self, requests):
        self.batches += 1
        return super().run_batch(requests)


def test_the_space_is_streamed_once_for_the_members_of_every_class(tmp_path, monkeypatch):
    from pokercert.reference import batch

    calls = []
    real, whole = batch.rows, batch.hands
    monkeypatch.setattr(batch, "rows", lambda *a: calls.append(a) or real(*a))
    monkeypatch.setattr(batch, "hands", lambda size: calls.append((size, 0, 22_100)) or whole(size))
    state = exhaustive_high_3(_Counted(), "py:tests", tmp_path)
    # 52 hands (three of a kind) have no member of their class beside them: each of the
    # 13 ranks' trips needed the pool of its class, one whole-space pass each before
    # (the space made at once by hands(), or streamed by rows())
    assert state.unverifiable_hands == 52 and state.disagreeing == 0
    assert len([c for c in calls if c[1:] == (0, 22_100)]) == 1


def test_classes_that_agree_are_ordered_in_few_batches(tmp_path):
    adapter = _Counted()
    state = exhaustive_high_3(adapter, "py:tests", tmp_path, hands=(0, 1))
    n = state.classes
    assert n == 741 and state.disagreeing == 0
    levels = ceil(log2(n))
    # per level about log2 of the longest merge (asked ahead), the neighbours once, the
    # one hand: a batch per merge step would be more than n / 2
    assert adapter.batches <= levels * (levels + 2) + 2 < n // 2


def test_the_elapsed_time_counts_every_phase(tmp_path):
    began = time.monotonic()
    state = exhaustive_high_3(_Counted(), "py:tests", tmp_path, hands=(0, 1))
    wall = time.monotonic() - began
    # one hand takes a millisecond; the classes and their order most of the wall
    assert state.checked == 1 and state.elapsed_s >= 0.9 * wall


def test_each_phase_reports_its_start_and_end(tmp_path):
    phases = []
    exhaustive_high_3(
        _Counted(),
        "py:tests",
        tmp_path,
        hands=(0, 1),
        phase=lambda name, done, total: phases.append((name, done, total)),
    )
    # a one-step phase (total 1): started, then what it made (three-card high: 741 classes)
    assert phases[:2] == [
        ("reference classes", 0, 1),
        ("741 reference classes of 22,100 hands", 1, 1),
    ]
    order = [p for p in phases[2:] if p[0] == "order"]
    assert len(order) == len(phases) - 3 and phases[-1] == ("hands", 0, 1)
    # 741 classes: 10 merge levels, between the pair table and the neighbours' check
    assert order[0] == ("order", 0, 12) and order[-1] == ("order", 12, 12)
    assert [done for _, done, _ in order] == list(range(13))


def test_a_resumed_run_adds_its_time_to_the_saved_one(tmp_path):
    first = exhaustive_high_3(_Counted(), "py:tests", tmp_path, hands=(0, 2))
    again = exhaustive_high_3(_Counted(), "py:tests", tmp_path, hands=(0, 2), resume=True)
    assert again.elapsed_s > first.elapsed_s
