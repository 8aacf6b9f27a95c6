"""One certificate, all evidence (issue 13): ``run --fuzz N`` and ``run --exhaustive``
attach fuzzing and the exhaustive check to the run folder, the verdict and every report.

The evaluators are faux adapters (tests/helpers/faux/): ``OneBadEntry`` (a lookup table
with one corrupted cell, a card set no curated vector holds: only the exhaustive check can
see it) and ``LookupOverKickerOrder`` (teaching to the test: the corpus's answers where it
has them, kickers in input order elsewhere: fresh deals see it).  The curated corpus alone
certifies both; each attached mode withholds the certificate.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from pokercert.cli.main import main
from pokercert.reports.canonical import canonical_bytes, seal
from pokercert.vectors.author import add_vectors
from pokercert.vectors.corpus import default_root
from pokercert.vectors.manifest import write_manifest

ONE_BAD = "py:tests.helpers.faux.one_bad_entry:OneBadEntry"
TAUGHT = "py:tests.helpers.faux.corpus_lookup:LookupOverKickerOrder"
H3 = "nj-poker-high-3"
BASE = ["run", "--ruleset", H3, "--no-challenge"]


def _run(out: Path, adapter: str, *extra: str) -> int:
    return main([*BASE, "--adapter", adapter, *extra, "--out", str(out)])


def _report(folder: Path) -> dict[str, Any]:
    return json.loads((folder / "report.json").read_bytes())


@pytest.fixture(scope="module")
def exhaustive_run(tmp_path_factory) -> Path:
    """OneBadEntry with the exhaustive check and fuzzing attached, fixed seeds."""
    out = tmp_path_factory.mktemp("attached") / "run"
    assert (
        _run(out, ONE_BAD, "--exhaustive", "--order-seed", "3", "--fuzz", "150", "--fuzz-seed", "4")
        == 1
    )
    return out


def test_the_corpus_alone_certifies_both_faux_evaluators(tmp_path):
    for name, adapter in (("one-bad", ONE_BAD), ("taught", TAUGHT)):
        assert _run(tmp_path / name, adapter) == 0, name
        report = _report(tmp_path / name)
        assert report["verdict"] == "CERTIFIED" and report["modes"] == {}


def test_an_exhaustive_only_bug_withholds_the_certificate(exhaustive_run, tmp_path, capsys):
    report = _report(exhaustive_run)
    assert report["verdict"] == "NOT CERTIFIED"
    assert report["counts"]["FAIL"] == 0 and report["failures"] == []  # every vector passed
    block = report["modes"]["exhaustive"]
    assert (block["status"], block["order_seed"]) == ("failed", 3)
    (row,) = block["rulesets"]
    assert (row["status"], row["checked"], row["of"]) == ("failed", 22100, 22100)
    (ruleset,) = report["rulesets"]
    assert ruleset["verdict"] == "NOT CERTIFIED"
    assert ruleset["reasons"][0].startswith("exhaustive (order seed 3) found ")
    # fuzz, 150 deals from its own seed, did not meet the one bad card set
    assert report["modes"]["fuzz"]["status"] == "passed"
    (record,) = report["attached"]["exhaustive"]
    assert record["category_disagreements"] == 1 and record["finished"]
    assert any("2h 5d 7c" in " ".join(f["hands"]) for f in record["findings"])
    # the finding as a ready-to-add draft, written by the one draft writer
    draft = exhaustive_run / record["draft"]
    assert draft.name == f"exhaustive-{H3}.toml"
    root = tmp_path / "vectors"
    (root / H3).mkdir(parents=True)
    shutil.copy(default_root() / "flags.toml", root)
    write_manifest(root)
    added = add_vectors(draft, "exhaustive-found", root)
    assert added.ids and not added.warnings  # the reference agrees with each


def test_a_bug_fuzzing_finds_withholds_the_certificate(tmp_path, capsys):
    assert _run(tmp_path / "run", TAUGHT, "--fuzz", "300", "--fuzz-seed", "1") == 1
    shown = capsys.readouterr().out
    assert (
        "Fuzz: seed 1, 300 deals per ruleset, 1 ruleset(s) run, 1 failed "
        "(replay: pokercert run --adapter py:tests.helpers.faux.corpus_lookup:"
        "LookupOverKickerOrder --profile practice --ruleset nj-poker-high-3 --fuzz 300 "
        "--fuzz-seed 1)." in shown
    )
    report = _report(tmp_path / "run")
    assert report["verdict"] == "NOT CERTIFIED" and report["counts"]["FAIL"] == 0
    assert (
        main(
            [
                "report",
                str(tmp_path / "run" / "report.json"),
                "--format",
                "json",
                "--out",
                str(tmp_path / "again.json"),
            ]
        )
        == 1
    )
    # (issue 28: what report wrote and its summary are on stdout)
    assert "Fuzz: seed 1, 300 deals per ruleset" in capsys.readouterr().out
    (record,) = report["attached"]["fuzz"]
    assert record["counterexample"]["outcome"] == "FAIL"
    assert (tmp_path / "run" / "counterexamples" / f"fuzz-{H3}.toml").is_file()
    assert "exhaustive" not in report["modes"]


def test_the_same_seeds_give_byte_identical_evidence(exhaustive_run, tmp_path):
    again = tmp_path / "again"
    assert (
        _run(
            again, ONE_BAD, "--exhaustive", "--order-seed", "3", "--fuzz", "150", "--fuzz-seed", "4"
        )
        == 1
    )
    one, two = (json.loads((f / "run.json").read_bytes()) for f in (exhaustive_run, again))
    assert json.dumps(one["attached"], sort_keys=True) == json.dumps(
        two["attached"], sort_keys=True
    )
    assert one["filters"] == two["filters"]
    drafts = sorted(p.name for p in (exhaustive_run / "counterexamples").iterdir())
    assert drafts == [f"exhaustive-{H3}.toml"]
    for name in drafts:
        assert (exhaustive_run / "counterexamples" / name).read_bytes() == (
            again / "counterexamples" / name
        ).read_bytes()
    r1, r2 = _report(exhaustive_run), _report(again)
    assert canonical_bytes(r1["modes"]) == canonical_bytes(r2["modes"])
    assert canonical_bytes(r1["attached"]) == canonical_bytes(r2["attached"])


def _rerun(folder: Path, spec: str, allow: bool = False) -> Any:
    from pokercert.reports.verify import verify

    return {c.name: c for c in verify(folder, rerun_spec=spec, allow_identity_change=allow)}[
        "rerun"
    ]


def test_verify_rerun_replays_the_seeds_and_sizes(exhaustive_run):
    check = _rerun(exhaustive_run, ONE_BAD)
    assert check.status == "ok", check.detail
    assert (
        "attached modes replayed the same: exhaustive (--exhaustive --order-seed 3), "
        "fuzz (--fuzz 150 --fuzz-seed 4)" in check.detail
    )
    # a correct evaluator in its place agrees on every vector, but not on the evidence
    check = _rerun(exhaustive_run, "reference", allow=True)
    assert check.status == "failed"
    assert f"attached modes differ: exhaustive {H3}: category_disagreements 1 -> 0" in check.detail


def _forged(report: dict[str, Any], path: Path) -> Path:
    report.pop("digest")
    path.write_bytes(canonical_bytes(seal(report)))
    return path


def test_a_report_whose_modes_contradict_their_records_is_refused(exhaustive_run, tmp_path, capsys):
    # the block edited to say passed, the verdict flipped: the records say otherwise
    report = _report(exhaustive_run)
    report["modes"]["exhaustive"]["status"] = "passed"
    report["modes"]["exhaustive"]["failed"] = 0
    report["verdict"], report["exit_code"] = "CERTIFIED", 0
    assert main(["report", str(_forged(report, tmp_path / "a.json"))]) == 1
    assert (
        "modes.exhaustive.status says passed, its mode records give failed"
        in capsys.readouterr().err
    )
    # the records edited to hide the finding, the block left failed
    report = _report(exhaustive_run)
    (record,) = report["attached"]["exhaustive"]
    record.update(category_disagreements=0, class_disagreements=0, findings=[])
    assert main(["report", str(_forged(report, tmp_path / "b.json"))]) == 1
    assert "says NOT CERTIFIED, its vectors give CERTIFIED" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--fuzz-seed", "3"], "give --fuzz N as well"),
        (["--order-seed", "3"], "give --exhaustive as well"),
        (
            ["--fuzz", "10", "--shard", "1/2", "--challenge-seed", "1"],
            "give every shard the same --fuzz-seed",
        ),
    ],
)
def test_usage_errors(tmp_path, capsys, args, needle):
    assert main(["run", "--ruleset", H3, *args, "--out", str(tmp_path / "x")]) == 3
    assert needle in capsys.readouterr().err


def test_a_resume_keeps_the_seeds_its_run_began_with(tmp_path):
    out = tmp_path / "run"
    assert (
        _run(
            out,
            "reference",
            "--fuzz",
            "40",
            "--fuzz-seed",
            "9",
            "--exhaustive",
            "--order-seed",
            "8",
        )
        == 0
    )
    first = json.loads((out / "run.json").read_bytes())
    assert main([*BASE, "--fuzz", "40", "--exhaustive", "--resume", "--out", str(out)]) == 0
    again = json.loads((out / "run.json").read_bytes())
    assert again["filters"]["fuzz"] == {"seed": 9, "examples": 40}
    assert again["filters"]["exhaustive"] == {"order_seed": 8}
    assert again["attached"] == first["attached"]
