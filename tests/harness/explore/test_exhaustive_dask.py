"""``pokercert exhaustive`` on Dask: ranges as tasks, merged by range, lost workers retried.

The expectation is the single-process run of the same adapter, ruleset and card order:
a distributed run must end in the very same state (every count, every finding, the same
vector ids), also when a worker process dies in the middle of a task.  The evaluator is
the faux kicker-order one (it disagrees on thousands of hands, so the findings and their
order are a sharp comparison), on three-card high (22,100 hands) in ranges of 3,000.

Dask is an optional extra; CI installs it (the test extra), so there these tests run.
"""

from __future__ import annotations

import json
import os
from itertools import pairwise

import pytest

from pokercert.cli.main import main
from pokercert.harness.adapters import load_adapter
from pokercert.harness.explore.distributed import plan_ranges, run_exhaustive_on_dask
from pokercert.harness.explore.exhaustive import run_exhaustive
from pokercert.reference import get_ruleset, load_profile
from tests import helpers

helpers.require_dask()

HIGH_3 = "nj-poker-high-3"
KICKERS = "py:tests.helpers.faux.kicker_order:KickerOrder"
SEED = 5


def _run(spec: str, out, dask: bool, **kwargs):
    rs, prof = get_ruleset(HIGH_3), load_profile("practice")
    with load_adapter(spec) as adapter:
        identity = adapter.start()
        adapter.configure(HIGH_3, prof.readings_for(rs))
        if dask:
            return run_exhaustive_on_dask(
                adapter,
                identity,
                rs,
                prof,
                out,
                adapter_spec=spec,
                workers=2,
                order_seed=SEED,
                hands_per_task=3000,
                **kwargs,
            )
        return run_exhaustive(
            adapter, identity, rs, prof, out, adapter_spec=spec, order_seed=SEED, **kwargs
        )


def _result(state) -> dict:
    return {k: v for k, v in state.as_dict().items() if k != "elapsed_s"}


@pytest.fixture(autouse=True)
def _workers_import_the_tests(monkeypatch):
    # the worker processes import tests.helpers... as this process does
    monkeypatch.setenv("PYTHONPATH", helpers.child_pythonpath())


def test_ranges_cover_the_hands_exactly():
    ranges = plan_ranges(0, 22_100, 3000)
    assert len(ranges) == 8 and ranges[0][0] == 0 and ranges[-1][1] == 22_100
    assert all(a[1] == b[0] for a, b in pairwise(ranges))


def test_two_local_workers_reach_the_single_process_state(tmp_path):
    single = _run(KICKERS, tmp_path / "one", dask=False)
    merged = _run(KICKERS, tmp_path / "dask", dask=True)
    assert merged.checked == 22_100 and single.class_disagreements > 0
    assert _result(merged) == _result(single)
    saved = json.loads((tmp_path / "dask" / "exhaustive.json").read_text())
    assert saved["checked"] == 22_100 and saved["order_seed"] == SEED
    assert len(list((tmp_path / "dask" / "ranges").iterdir())) == 8


def test_a_worker_lost_mid_task_is_retried_without_losing_or_double_counting(tmp_path, monkeypatch):
    mark = tmp_path / "died"
    monkeypatch.setenv("POKERCERT_FAUX_DIE_MARK", str(mark))
    spec = "py:tests.helpers.faux.dies_once:DiesOnce"
    # the driver process itself asks nothing of the evaluator but its identity
    merged = _run(spec, tmp_path / "dask", dask=True)
    assert mark.exists()  # a worker did die
    assert int(mark.read_text()) != os.getpid()
    single = _run(spec, tmp_path / "one", dask=False)  # the mark exists: no death now
    assert merged.checked == 22_100
    assert _result(merged) == _result(single)


def test_cli_workers_start_a_local_cluster(tmp_path, capsys):
    code = main(
        [
            "exhaustive",
            "--adapter",
            KICKERS,
            "--ruleset",
            HIGH_3,
            "--workers",
            "2",
            "--order-seed",
            str(SEED),
            "--task-size",
            "6000",
            "--out",
            str(tmp_path / "a"),
            "--json",
        ]
    )
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and data["checked"] == 22_100 and data["class_disagreements"] > 0
    assert "--workers" in data["rerun"]


def test_seven_card_deals_on_two_workers_reach_the_single_process_state(tmp_path):
    """Each worker builds (or loads) the seven-card class table and checks its ranges of
    the 133,784,560 deals; here 60,000 of them holding four of a kind and more, with the
    faux evaluator that ignores the kicker of four of a kind."""
    spec = "py:tests.helpers.faux.quads_kicker:QuadsKickerIgnored"
    rs, prof = get_ruleset("nj-holdem"), load_profile("practice")
    states = []
    for dask in (False, True):
        with load_adapter(spec) as adapter:
            identity = adapter.start()
            adapter.configure(rs.id, prof.readings_for(rs))
            run = run_exhaustive_on_dask if dask else run_exhaustive
            extra = {"workers": 2, "hands_per_task": 20_000} if dask else {}
            states.append(
                run(
                    adapter,
                    identity,
                    rs,
                    prof,
                    tmp_path / str(dask),
                    adapter_spec=spec,
                    order_seed=SEED,
                    hands=(0, 60_000),
                    **extra,
                )
            )
    single, merged = states
    assert single.total == 133_784_560 and single.order_disagreements == 143
    assert _result(merged) == _result(single)


def _worker_settings() -> dict:
    import dask

    return {
        "malloc_trim": os.environ.get("MALLOC_TRIM_THRESHOLD_"),
        "profile": dask.config.get("distributed.worker.profile.enabled"),
        "tick": dask.config.get("distributed.admin.tick.interval"),
    }


def test_an_embedded_clusters_workers_run_without_dasks_per_hand_costs():
    """Dask's nanny would start each worker with MALLOC_TRIM_THRESHOLD_=65536 (every
    batch's arrays given back to the system and faulted in again: 24 to 94 times the page
    faults, benchmarks/README.md), its profiler sampling every 10 ms and a 20 ms tick."""
    from pokercert.harness.explore.distributed import client_for

    client, close = client_for(None, 1)
    try:
        (settings,) = client.run(_worker_settings).values()
    finally:
        close()
    assert settings == {"malloc_trim": None, "profile": False, "tick": "1s"}
