"""Exhaustive states merged by range (``merge_states``): the parts of one run give the
state one process gives; gaps, overlaps, a range checked twice with other results and
parts of other runs are refused.

WheelBlind on three-card high (tests/helpers/textbook_eval.py): 64 hands in the wrong
category and two neighbouring pairs of classes out of order (counted by hand in
tests/harness/explore/test_exhaustive.py), so the findings to merge are many and mixed.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from pokercert.harness.adapters import load_adapter
from pokercert.harness.explore.exhaustive import run_exhaustive
from pokercert.harness.explore.exhaustive_state import merge_states
from pokercert.harness.merging import MergeError
from pokercert.reference import get_ruleset, load_profile

HIGH_3 = "nj-poker-high-3"
SPEC = "py:tests.helpers.textbook_eval:WheelBlind"


def _check(tmp_path, **kwargs):
    rs, prof = get_ruleset(HIGH_3), load_profile("practice")
    with load_adapter(SPEC) as adapter:
        identity = adapter.start()
        adapter.configure(HIGH_3, prof.readings_for(rs))
        return run_exhaustive(
            adapter, identity, rs, prof, tmp_path, adapter_spec=SPEC, order_seed=9, **kwargs
        )


def _result(state) -> dict:
    return {k: v for k, v in state.as_dict().items() if k != "elapsed_s"}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("merge")
    whole = _check(base / "whole")
    parts = [_check(base / str(k), shard=(k, 3)) for k in (1, 2, 3)]
    return whole, parts


def test_the_shards_of_a_run_merge_into_the_single_process_state(runs):
    whole, parts = runs
    assert whole.category_disagreements == 64 and whole.order_disagreements == 2
    merged = merge_states(list(reversed(parts)), report_limit=10)
    assert _result(merged) == _result(whole)


def test_a_range_given_twice_counts_once(runs):
    whole, parts = runs
    merged = merge_states([*parts, parts[1]], report_limit=10)
    assert merged.checked == 22_100 and _result(merged) == _result(whole)


def test_gaps_overlaps_and_other_runs_are_refused(runs):
    _, (a, b, c) = runs
    with pytest.raises(MergeError, match="leave a gap"):
        merge_states([a, c], report_limit=10)
    with pytest.raises(MergeError, match="overlap"):
        merge_states([a, replace(b, start=b.start - 1), c], report_limit=10)
    with pytest.raises(MergeError, match="different results"):
        merge_states([a, b, replace(b, errors=1), c], report_limit=10)
    with pytest.raises(MergeError, match="order_seed"):
        merge_states([a, replace(b, order_seed=10), c], report_limit=10)
