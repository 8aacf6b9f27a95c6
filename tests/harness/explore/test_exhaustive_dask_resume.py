"""A Dask exhaustive run that loses a range for good ends INCOMPLETE, keeps what that
range checked, and a ``--resume`` completes it to the single-process state (issue 16).

The expectation is the single-process run of the same adapter, ruleset and card order
(every count, every finding, the same vector ids): the resumed run must reach it exactly,
neither losing the hands checked before the loss nor counting any of them twice.  The
ruleset is three-card high (22,100 hands, enumerated as ``itertools.combinations`` over
the deck A to 2, suits s h d c), in ten ranges of 2,210 and batches of 1,000.
"""

from __future__ import annotations

import json
import sys
from itertools import combinations, islice

import pytest

from pokercert.cli.main import main
from tests import helpers

helpers.require_dask()

HIGH_3, HANDS, SEED = "nj-poker-high-3", 22_100, 5
DECK = [r + s for r in "AKQJT98765432" for s in "shdc"]
# the hand at position 1,500 of the enumeration: in the first range (0..2,210), in its
# second batch (1,000..2,000)
TRIGGER = " ".join(next(islice(combinations(DECK, 3), 1500, None)))
DASK = ("--workers", "2", "--task-size", "2210")


@pytest.fixture(autouse=True)
def _workers_import_the_tests(monkeypatch):
    monkeypatch.setenv("PYTHONPATH", helpers.child_pythonpath())


def _exhaustive(spec: str, out, capsys, *extra: str) -> tuple[int, dict]:
    code = main(
        [
            "exhaustive",
            "--adapter",
            spec,
            "--ruleset",
            HIGH_3,
            "--order-seed",
            str(SEED),
            "--batch-size",
            "1000",
            "--max-restarts",
            "1",
            "--out",
            str(out),
            "--json",
            *extra,
        ]
    )
    return code, json.loads(capsys.readouterr().out)


def _result(data: dict) -> dict:
    # what the run found and counted; not its timing, folder or command line
    return {k: v for k, v in data.items() if k not in ("elapsed_s", "folder", "rerun", "draft")}


def test_an_adapter_dead_for_good_on_one_range_keeps_its_findings_and_resumes(tmp_path, capsys):
    switch = tmp_path / "broken"
    switch.write_text("")
    spec = f"exec:{sys.executable} {helpers.FAUX / 'dies_later.py'} --on-hand {switch} '{TRIGGER}'"
    code, lost = _exhaustive(spec, tmp_path / "dask", capsys, *DASK)
    # the range 0..2,210 died on its second batch: its first 1,000 hands count, with the
    # wrong category of the three aces (hand 0), and the rest of it is named missing
    assert not lost["finished"] and not lost["agrees"]
    assert "hands 1000..2210 not checked" in lost["aborted"] and "gave up" in lost["aborted"]
    assert lost["checked"] == HANDS - 1210
    assert lost["category_disagreements"] == 1
    assert {"As", "Ah", "Ad"} <= set(lost["disagreements"][0]["hands"][0].split())
    assert code == 1  # a finding is final: noncompliant
    saved = json.loads((tmp_path / "dask" / "exhaustive.json").read_text(encoding="utf-8"))
    assert saved["aborted"] == lost["aborted"] and saved["checked"] == HANDS - 1210

    switch.unlink()  # the evaluator mended: same spec, same identity
    code, resumed = _exhaustive(spec, tmp_path / "dask", capsys, *DASK, "--resume")
    _, single = _exhaustive(spec, tmp_path / "one", capsys)
    assert single["finished"] and single["checked"] == HANDS and code == 1
    assert _result(resumed) == _result(single)
    assert (tmp_path / "dask" / "ranges" / "1000-2210.json").exists()


def test_a_range_whose_workers_are_lost_for_good_is_named_and_resumed(
    tmp_path, capsys, monkeypatch
):
    """An in-process evaluator that ends its worker's process when asked the category of
    the three aces (hand 0), every time: Dask gives the range up (``KilledWorker``) and
    the run says which."""
    import dask

    mark = tmp_path / "died"
    mark.write_text("")  # (its die-once trigger spent)
    monkeypatch.setenv("POKERCERT_FAUX_DIE_MARK", str(mark))
    monkeypatch.setenv("POKERCERT_FAUX_DIE_FOR_GOOD", "1")
    spec = "py:tests.helpers.faux.dies_once:DiesOnce"
    # a range is given up at its worker's first death; one task per worker at a time, so
    # that a death takes only the task that caused it
    with dask.config.set(
        {
            "distributed.scheduler.allowed-failures": 0,
            "distributed.scheduler.worker-saturation": 1.0,
        }
    ):
        code, lost = _exhaustive(spec, tmp_path / "dask", capsys, *DASK)
    assert "hands 0..2210 not checked: their workers were lost" in lost["aborted"]
    assert lost["checked"] == HANDS - 2210 and not lost["finished"]
    assert code == 1 and lost["class_disagreements"] > 0  # the other ranges' findings
    monkeypatch.delenv("POKERCERT_FAUX_DIE_FOR_GOOD")
    code, resumed = _exhaustive(spec, tmp_path / "dask", capsys, *DASK, "--resume")
    _, single = _exhaustive(spec, tmp_path / "one", capsys)
    assert resumed["finished"] and resumed["checked"] == HANDS
    assert single["class_disagreements"] > 0 and code == 1
    assert _result(resumed) == _result(single)
