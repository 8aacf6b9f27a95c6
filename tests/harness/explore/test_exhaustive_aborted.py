"""An exhaustive pass the harness gives up on keeps what it found before (issue 16).

The faux adapter tests/helpers/faux/dies_later.py calls the first hand of the
nj-poker-high-3 enumeration (the three aces) a high card, then dies on every batch from
its sixth on, in every process the harness restarts: the restart budget runs out and the
pass is aborted.  The finding made before is final: it stays in the saved state, in the
printed result, in the draft for the corpus and in a certification run's record, with
how far the pass got.
"""

from __future__ import annotations

import json
import re
import sys
import tomllib
from pathlib import Path

from pokercert.cli.main import main
from pokercert.harness.adapters import AdapterOptions, load_adapter
from pokercert.harness.run.attached import EXHAUSTIVE, FAILED, item_status, run_attached
from pokercert.reference import load_profile

FAUX = Path(__file__).resolve().parents[2] / "helpers" / "faux" / "dies_later.py"
RULESET, HANDS = "nj-poker-high-3", 22_100


def _spec(tmp_path: Path) -> str:
    """The faux counts its batches in a file of the test's folder, across restarts: the
    sandbox (rightly) lets it write nowhere but its own temporary folder, so every
    use of this spec runs with the sandbox off (--no-sandbox, ``sandbox=False``)."""
    return f"exec:{sys.executable} {FAUX} {tmp_path / 'batches'} 6"


def _kept_finding(findings: list) -> None:
    (finding,) = findings
    assert finding["check"] == "category"
    assert set(finding["hands"][0].split()) == {"As", "Ah", "Ad"}


def test_the_findings_before_the_abort_are_kept_and_written_up(tmp_path, capsys):
    out = tmp_path / "out"
    code = main(
        [
            "exhaustive",
            "--adapter",
            _spec(tmp_path),
            "--ruleset",
            RULESET,
            "--batch-size",
            "1000",
            "--max-restarts",
            "2",
            "--order-seed",
            "3",
            "--out",
            str(out),
            "--json",
            "--no-sandbox",
        ]
    )
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert code == 1  # a finding is final: noncompliant
    assert "gave up" in data["aborted"] and "restart" in data["aborted"]
    assert not data["finished"] and not data["agrees"]
    assert 0 < data["checked"] < HANDS and data["next"] == data["checked"]
    assert data["category_disagreements"] == 1
    _kept_finding(data["disagreements"])
    saved = json.loads((out / "exhaustive.json").read_text(encoding="utf-8"))
    assert saved["aborted"] == data["aborted"] and saved["checked"] == data["checked"]
    _kept_finding(saved["disagreements"])
    draft = tomllib.loads(Path(data["draft"]).read_text(encoding="utf-8"))
    (vector,) = draft["vector"]
    assert vector["kind"] == "classify" and vector["expect"] == {"category": "three_of_a_kind"}
    assert "--resume" in captured.err


def test_the_printed_result_says_how_far_it_got(tmp_path, capsys):
    code = main(
        [
            "exhaustive",
            "--adapter",
            _spec(tmp_path),
            "--ruleset",
            RULESET,
            "--batch-size",
            "1000",
            "--max-restarts",
            "2",
            "--order-seed",
            "3",
            "--out",
            str(tmp_path / "out"),
            "--no-sandbox",
        ]
    )
    printed = capsys.readouterr().out
    assert code == 1 and "DISAGREES" in printed
    # the sixth batch the faux reads (its messages: batches of 1,000 hands, and the aces
    # asked again) kills it: a few whole batches of 1,000 were checked before
    got = re.search(r"ABORTED after ([\d,]+) of 22,100", printed)
    assert got and int(got[1].replace(",", "")) in (1000, 2000, 3000, 4000)
    assert "three_of_a_kind" in printed


def test_a_certification_run_records_the_findings_of_an_aborted_pass(tmp_path):
    spec = _spec(tmp_path)
    with load_adapter(spec, AdapterOptions(max_restarts=2, sandbox=False)) as adapter:
        identity = adapter.start()
        records, aborted = run_attached(
            adapter,
            identity,
            [RULESET],
            load_profile("practice"),
            {EXHAUSTIVE: {"order_seed": 3}},
            tmp_path / "run",
            spec,
        )
    (record,) = records[EXHAUSTIVE]
    assert aborted and record["aborted"] == aborted
    assert 0 < record["checked"] < record["total"] == HANDS and not record["finished"]
    _kept_finding(record["findings"])
    assert item_status(EXHAUSTIVE, record) == FAILED
    draft = tomllib.loads((tmp_path / "run" / record["draft"]).read_text(encoding="utf-8"))
    assert [v["kind"] for v in draft["vector"]] == ["classify"]


def test_the_abort_travels_with_its_state():
    """Raised inside a Dask task, the abort is pickled back to the client whole."""
    import pickle

    from pokercert.harness.explore.exhaustive import ExhaustiveAborted
    from pokercert.harness.explore.exhaustive_state import State

    state = State(RULESET, {}, "a", {}, "1/1", 0, 10, 10, 0, "key", 3, checked=4, aborted="gave up")
    again = pickle.loads(pickle.dumps(ExhaustiveAborted("gave up", state)))
    assert str(again) == "gave up" and again.state == state
