"""``run --shard K/N`` with the attached modes (issue 13): shard 1 runs ``--fuzz`` and
``--exhaustive`` after its vectors, ``merge`` keeps exactly one record per ruleset and
mode, and the verdict's rule for the attached modes holds on the merged folder.

And the watchdog of an in-process run covers the attached modes: an evaluator that
hangs (swallowing the harness's timeout) on inputs the corpus does not hold, only met
once fuzzing begins, ends the run with the reason (exit 2, INCOMPLETE), not a hung run.

The expectations are the unsharded run of the same evaluator and seeds (the records
hold no clock: the same seeds give the same records) and the faux evaluators' planted
bugs: ``OneBadEntry`` has one corrupted cell only the exhaustive check meets.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from pokercert.cli.main import main
from pokercert.cli.schemas import validator
from pokercert.harness.merging import MergeError
from pokercert.harness.run.merge import merge
from pokercert.harness.run.results import read_header, write_header
from tests import helpers

ONE_BAD = "py:tests.helpers.faux.one_bad_entry:OneBadEntry"
HANGS = "py:tests.helpers.faux.hangs_off_corpus:HangsOffCorpus"
H3 = "nj-poker-high-3"
BASE = [
    "run",
    "--adapter",
    ONE_BAD,
    "--ruleset",
    H3,
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


def _json(path: Path) -> Any:
    return json.loads(path.read_bytes())


def _valid_run_json(folder: Path) -> None:
    errors = list(validator("urn:pokercert:harness:run").iter_errors(_json(folder / "run.json")))
    assert not errors, errors[0].message


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> Path:
    """The unsharded run, its two shards and their merge."""
    root = tmp_path_factory.mktemp("sharded")
    assert main([*BASE, "--out", str(root / "one")]) == 1
    assert main([*BASE, "--shard", "1/2", "--out", str(root / "s1")]) == 1
    assert main([*BASE, "--shard", "2/2", "--out", str(root / "s2")]) == 0  # vectors only
    assert main(["merge", str(root / "m"), str(root / "s1"), str(root / "s2")]) == 1
    return root


def test_shard_one_runs_the_modes_and_the_merge_keeps_one_record_each(runs):
    s1, s2 = _json(runs / "s1" / "run.json"), _json(runs / "s2" / "run.json")
    assert sorted(s1["attached"]) == ["exhaustive", "fuzz"] and s2["attached"] == {}
    assert s1["filters"] == s2["filters"]  # both recorded what the run attaches
    one, merged = _json(runs / "one" / "run.json"), _json(runs / "m" / "run.json")
    assert merged["attached"] == one["attached"]
    assert [len(merged["attached"][m]) for m in ("fuzz", "exhaustive")] == [1, 1]
    # the exhaustive finding's draft and state come with the records
    (record,) = merged["attached"]["exhaustive"]
    assert record["category_disagreements"] == 1
    assert (runs / "m" / record["draft"]).read_bytes() == (
        runs / "one" / record["draft"]
    ).read_bytes()
    assert (runs / "m" / "attached" / "exhaustive" / H3).is_dir()
    _valid_run_json(runs / "m")


def test_the_verdict_holds_on_the_merged_folder(runs, capsys):
    # every vector passes; the exhaustive check alone withholds the certificate
    assert (
        main(
            [
                "report",
                str(runs / "m"),
                "--format",
                "json",
                "--out",
                str(runs / "m" / "report.json"),
            ]
        )
        == 1
    )
    report = _json(runs / "m" / "report.json")
    assert report["verdict"] == "NOT CERTIFIED" and report["counts"]["FAIL"] == 0
    assert report["modes"]["exhaustive"]["status"] == "failed"
    assert report["modes"]["fuzz"]["status"] == "passed"
    assert report["modes"] == _json(runs / "one" / "report.json")["modes"]


def test_a_merge_refuses_two_shards_that_both_record_the_modes(runs, tmp_path):
    forged = tmp_path / "s2"
    shutil.copytree(runs / "s2", forged)
    header = read_header(forged)
    header.attached = read_header(runs / "s1").attached
    write_header(forged, header)
    with pytest.raises(MergeError, match="both record attached modes"):
        merge(tmp_path / "m", [runs / "s1", forged])


@pytest.mark.parametrize(
    ("drop", "option"), [("--fuzz-seed", "--fuzz-seed"), ("--order-seed", "--order-seed")]
)
def test_each_shard_needs_the_seeds_of_the_modes(tmp_path, capsys, drop, option):
    args = list(BASE)
    del args[args.index(drop) : args.index(drop) + 2]
    assert main([*args, "--shard", "2/2", "--out", str(tmp_path / "x")]) == 3
    assert f"give every shard the same {option}" in capsys.readouterr().err


def test_in_process_a_hang_inside_the_attached_fuzz_ends_the_run_with_the_reason(tmp_path):
    out = tmp_path / "run"
    start = time.monotonic()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pokercert.cli",
            "run",
            "--adapter",
            HANGS,
            "--ruleset",
            H3,
            "--no-challenge",
            "--in-process",
            "--timeout",
            "0.5",
            "--fuzz",
            "20",
            "--fuzz-seed",
            "1",
            "--out",
            str(out),
        ],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": helpers.child_pythonpath()},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert time.monotonic() - start < 90
    assert done.returncode == 2, done.stderr
    assert "did not stop" in done.stderr and "Traceback" not in done.stderr
    header = read_header(out)
    assert header.aborted and header.aborted.startswith("watchdog:")
    assert (
        header.results_lines is None
        and len((out / "results.jsonl").read_text().splitlines()) == header.selected
    )
    (record,) = header.attached["fuzz"]  # the mode says why it stopped
    assert record == {"ruleset": H3, "aborted": header.aborted}
    _valid_run_json(out)
    assert main(["report", str(out), "--format", "json", "--out", str(tmp_path / "r.json")]) == 2
    report = _json(tmp_path / "r.json")
    assert report["verdict"] == "INCOMPLETE"
    assert report["modes"]["fuzz"]["rulesets"][0]["why"] == header.aborted
