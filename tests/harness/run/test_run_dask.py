"""``pokercert run --workers N`` / ``--dask SCHEDULER`` (issue 16): a run's shards as Dask
tasks, merged as ``pokercert merge`` merges shard folders.

The expectation is always the one-process run of the same adapter, ruleset and seeds:
the merged run folder and report must say the same of every vector and every attached
mode, and differ only in timing fields and the provenance of the split (its command line,
the shards merged, the hash of a results file written in another order).  The evaluators
are faux adapters (tests/helpers/faux/): ``OneBadEntry`` (one corrupted cell only the
exhaustive check finds) and ``DiesOnce`` (kickers in input order, and the first process
to meet three aces ends itself, as a lost worker would).

Dask is an optional extra; CI installs it (the test extra), so there these tests run.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from pokercert.cli.main import main
from pokercert.reports.verify import verify
from tests import helpers

try:
    import distributed  # noqa: F401
except ImportError:
    if os.environ.get("CI"):
        raise
    HAVE_DASK = False
else:
    HAVE_DASK = True

needs_dask = pytest.mark.skipif(
    not HAVE_DASK,
    reason="dask.distributed is not installed "
    "here (pip install 'pokercert[dask]'); CI runs these tests",
)

ONE_BAD = "py:tests.helpers.faux.one_bad_entry:OneBadEntry"
DIES = "py:tests.helpers.faux.dies_once:DiesOnce"
H3 = "nj-poker-high-3"
SEEDS = [
    "--challenge-seed",
    "5",
    "--fuzz",
    "60",
    "--fuzz-seed",
    "4",
    "--exhaustive",
    "--order-seed",
    "3",
]
# what a split run may say otherwise: clocks, durations, its command line, the shards it
# merged, and the hash of a results file whose lines come in another order
TIMING = {
    "generated_at",
    "digest",
    "started_at",
    "finished_at",
    "duration_us",
    "duration_s",
    "cost",
    "results_sha256",
    "command",
    "command_line",
    "merged_shards",
    "unsharded_selected",
    "unsharded_ids_sha256",
}


def _without_timing(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _without_timing(v) for k, v in data.items() if k not in TIMING}
    if isinstance(data, list):
        return [_without_timing(v) for v in data]
    return data


def _results(folder: Path) -> dict[str, Any]:
    lines = (json.loads(line) for line in (folder / "results.jsonl").read_text().splitlines())
    return {r["vector_id"]: _without_timing(r) for r in lines}


def _json(path: Path) -> Any:
    return json.loads(path.read_bytes())


@pytest.fixture(autouse=True)
def _workers_import_the_tests(monkeypatch):
    # the worker processes import tests.helpers... as this process does
    monkeypatch.setenv("PYTHONPATH", helpers.child_pythonpath())


@needs_dask
def test_two_local_workers_merge_to_the_one_process_run(tmp_path, capsys):
    base = ["run", "--adapter", ONE_BAD, "--ruleset", H3, *SEEDS]
    assert main([*base, "--out", str(tmp_path / "one")]) == 1
    assert main([*base, "--workers", "2", "--out", str(tmp_path / "dask")]) == 1
    one, dask = tmp_path / "one", tmp_path / "dask"
    # 241 curated vectors, 241 twins, 130 fresh deals (the ladder, every situation at its
    # quota, the fresh siblings: issue 26)
    assert _results(dask) == _results(one) and len(_results(one)) == 612
    h1, h2 = _json(one / "run.json"), _json(dask / "run.json")
    assert h2["filters"]["merged_shards"] == ["1/2", "2/2"]  # it was split, and says so
    assert _without_timing(h2) == _without_timing(h1)
    assert "--shard" not in h2["command"]  # the run's command, not a shard's
    # one record per ruleset and mode (shard 1 ran them), the finding and its draft kept
    (record,) = h2["attached"]["exhaustive"]
    assert record["category_disagreements"] == 1 and len(h2["attached"]["fuzz"]) == 1
    for name in ("exhaustive-nj-poker-high-3.toml",):
        assert (dask / "counterexamples" / name).read_bytes() == (
            one / "counterexamples" / name
        ).read_bytes()
    r1, r2 = _json(one / "report.json"), _json(dask / "report.json")
    assert r2["verdict"] == "NOT CERTIFIED"
    assert _without_timing(r2) == _without_timing(r1)
    # a lab replays the split run in one process: the same vectors, the same evidence
    checks = {c.name: c for c in verify(dask, rerun_spec=ONE_BAD)}
    assert all(c.status == "ok" for c in checks.values()), checks
    assert "attached modes replayed the same" in checks["rerun"].detail


@needs_dask
def test_a_worker_lost_mid_shard_is_retried_without_losing_or_double_counting(
    tmp_path, monkeypatch
):
    mark = tmp_path / "died"
    monkeypatch.setenv("POKERCERT_FAUX_DIE_MARK", str(mark))
    base = [
        "run",
        "--adapter",
        DIES,
        "--ruleset",
        H3,
        "--no-challenge",
        "--in-process",
        "--no-report",
    ]
    assert main([*base, "--workers", "2", "--tasks", "3", "--out", str(tmp_path / "d")]) == 1
    assert mark.exists() and int(mark.read_text()) != os.getpid()  # a worker did die
    assert main([*base, "--out", str(tmp_path / "one")]) == 1  # (no death now)
    merged = _results(tmp_path / "d")
    assert merged == _results(tmp_path / "one")
    lines = (tmp_path / "d" / "results.jsonl").read_text().splitlines()
    assert len(lines) == len(merged) == _json(tmp_path / "one" / "run.json")["selected"]
    header = _json(tmp_path / "d" / "run.json")
    assert header["aborted"] is None and header["filters"]["merged_shards"] == ["1/3", "2/3", "3/3"]


def test_without_dask_the_options_fail_in_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    for option in (["--workers", "2"], ["--dask", "tcp://127.0.0.1:1"]):
        assert main(["run", "--ruleset", H3, *option, "--out", str(tmp_path / "x")]) == 3
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and "pip install 'pokercert[dask]'" in err
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--tasks", "2"], "give --dask SCHEDULER or --workers N"),
        (["--workers", "2", "--shard", "1/2"], "--shard runs in one process"),
        (["--workers", "2", "--resume"], "--resume runs in one process"),
    ],
)
def test_usage_errors(tmp_path, capsys, args, needle):
    assert main(["run", "--ruleset", H3, *args, "--out", str(tmp_path / "x")]) == 3
    assert needle in capsys.readouterr().err


@pytest.mark.parametrize(
    "name", ["../escaped.json", "/tmp/pokercert-escaped.json", "attachments/../../escaped.json"]
)
def test_a_shard_file_named_outside_its_folder_is_refused(tmp_path: Path, name: str) -> None:
    """What a worker sends back is written by the driver; a worker runs the vendor's adapter,
    so a file name climbing out of the shard's folder is refused and nothing is written."""
    from pokercert.harness.adapters import AdapterError
    from pokercert.harness.run.on_dask import _Shards

    shards = _Shards(tmp_path / "driver")
    with pytest.raises(AdapterError, match="outside its run folder"):
        shards.write(1, {"run.json": b"{}", name: b"forged"})
    assert not list(tmp_path.rglob("*escaped.json"))
    assert not (tmp_path / "driver" / "shard-1" / "run.json").exists()
