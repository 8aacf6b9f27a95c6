"""``pokercert run`` challenge options on the command line (issue 13)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pokercert.cli.main import main
from pokercert.harness.run.results import read_header

LOOKUP = "py:tests.helpers.faux.corpus_lookup:CorpusLookup"


@pytest.mark.parametrize(
    "args, word",
    [
        (["--challenge-seed", "4294967296"], "--challenge-seed"),
        (["--challenge-seed", "-1"], "--challenge-seed"),
        (["--challenge", "-3"], "--challenge"),
        (["--challenge", "5", "--no-challenge"], "not allowed with"),
    ],
)
def test_bad_challenge_options_are_usage_errors(args, word, tmp_path, capsys):
    assert main(["run", "--ruleset", "nj-poker-high-3", "--out", str(tmp_path), *args]) == 3
    err = capsys.readouterr().err
    assert word in err and "Traceback" not in err


def test_a_lookup_table_is_not_certified_by_the_default_run(tmp_path, capsys):
    """Through the default isolation (a child process), a corpus-lookup evaluator fails
    the challenge; the summary and every report name the seed that replays it."""
    out = tmp_path / "run"
    assert (
        main(["run", "--adapter", LOOKUP, "--ruleset", "nj-poker-high-3", "--out", str(out)]) == 1
    )
    seed = read_header(out).filters["challenge"]["seed"]
    assert f"replay with --challenge-seed {seed}" in capsys.readouterr().out
    report = json.loads((out / "report.json").read_text())
    assert report["verdict"] == "NOT CERTIFIED" and report["challenge"]["seed"] == seed
    assert f"--challenge-seed {seed}" in (out / "report.md").read_text().replace("\\", "")
    assert f'name="challenge_seed" value="{seed}"' in (out / "report.junit.xml").read_text()
    assert (out / "counterexamples" / "challenge-nj-poker-high-3.toml").is_file()


def test_verify_rerun_replays_the_seed(tmp_path: Path, capsys):
    out = tmp_path / "run"
    assert (
        main(["run", "--ruleset", "nj-poker-high-3", "--challenge", "12", "--out", str(out)]) == 0
    )
    assert main(["verify", str(out), "--rerun", "reference"]) == 0
    text = capsys.readouterr().out
    header = read_header(out)
    total = header.selected
    assert total > 2 * 235 and f"all {total} vectors ended the same" in text.replace("\n", " ")
