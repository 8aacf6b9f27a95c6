"""Issue 11, cases 1-3: a report cannot lie about its own results.

1. A report whose verdicts were flipped and its digest recomputed is refused everywhere
   (verify, verify --rerun, report --sign, re-rendering, diff): every conclusion is
   recomputed from the report's facts.
2. An ``exec:`` adapter that rewrites ``results.jsonl`` while the harness runs cannot
   make any report say CERTIFIED: run reports from what it scored in memory, and the
   results hash in run.json gives the edit away (``report DIR``, ``verify DIR``).
3. One run folder holds one run: a later run (even one that writes no report, or whose
   adapter does not start) or merge leaves no earlier report or signature behind.

The hostile adapters are real protocol speakers under tests/helpers/faux/ (``adapter.py
wrong-answers``, ``rewriter.py``).
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pokercert.cli.main import main
from pokercert.reports.canonical import canonical_bytes, seal
from pokercert.reports.verify import FAILED, SKIPPED, passed, verify, verify_bytes
from tests import helpers
from tests.helpers.reports_fixtures import make_runs

FAUX = helpers.FAUX
WRONG = f"exec:{sys.executable} {FAUX / 'adapter.py'} wrong-answers"
REWRITER = f"exec:{sys.executable} {FAUX / 'rewriter.py'}"
SMALL = ["--ruleset", "nj-poker-high-5", "--flags", "wheel", "straight-order"]
H5 = "nj-poker-high-5"


def run_cli(*args: str) -> int:
    return main(["run", *SMALL, *args])


def report_files(folder: Path) -> list[str]:
    return sorted(
        p.name for p in folder.iterdir() if p.name.startswith("report.") or p.name.endswith(".sig")
    )


def forge(report: dict[str, Any]) -> dict[str, Any]:
    """Every verdict of ``report`` flipped to CERTIFIED, the digest recomputed."""
    forged = json.loads(json.dumps(report))
    forged["verdict"], forged["exit_code"] = "CERTIFIED", 0
    for row in forged["rulesets"]:
        row["verdict"] = "CERTIFIED"
    forged.pop("digest")
    return seal(forged)


@pytest.fixture(scope="module")
def failing_run(tmp_path_factory) -> Path:
    """A real run of an evaluator that gets straights wrong, with its reports."""
    folder = tmp_path_factory.mktemp("failing") / "run"
    assert run_cli("--adapter", WRONG, "--out", str(folder)) == 1
    return folder


@pytest.fixture
def forged(failing_run, tmp_path) -> Path:
    report = json.loads((failing_run / "report.json").read_bytes())
    assert report["verdict"] == "NOT CERTIFIED"
    path = tmp_path / "forged.json"
    path.write_bytes(canonical_bytes(forge(report)))
    return path


# ----------------------------------------------------------------------------- case 1
def test_a_report_with_flipped_verdicts_does_not_verify(forged, failing_run, capsys):
    fails = json.loads((failing_run / "report.json").read_bytes())["counts"]["FAIL"]
    assert fails > 0
    assert main(["verify", str(forged)]) == 1
    out = capsys.readouterr().out
    assert out.rstrip().splitlines()[-1].startswith(f"{forged}: NOT GENUINE: consistent: ")
    checks = {c.name: c for c in verify(forged)}
    assert checks["digest"].status != FAILED  # the digest alone is no defence
    assert checks["consistent"].status == FAILED
    assert (
        f"rulesets[{H5}].verdict says CERTIFIED, its vectors give NOT CERTIFIED ({fails} FAIL; "
    ) in checks["consistent"].detail
    assert "of the findings on challenge vectors (seed" in checks["consistent"].detail


def test_a_report_that_hides_its_failed_challenge_does_not_verify(failing_run):
    """Challenge records are facts too: a report whose challenge block is edited to say
    passed (digest recomputed) disagrees with its own vector records."""
    from pokercert.reports.canonical import canonical_bytes, seal

    report = json.loads((failing_run / "report.json").read_bytes())
    assert report["challenge"]["status"] == "failed"
    report.pop("digest")
    report["challenge"] = {**report["challenge"], "status": "passed", "failed": 0}
    forged = failing_run.parent / "hidden-challenge.json"
    forged.write_bytes(canonical_bytes(seal(report)))
    checks = {c.name: c for c in verify(forged)}
    assert checks["digest"].status != FAILED
    assert checks["consistent"].status == FAILED
    assert "challenge.status says passed, its vectors give failed" in checks["consistent"].detail


def test_verify_rerun_of_a_forged_report_is_not_ok(forged, capsys):
    assert main(["verify", str(forged), "--rerun", WRONG]) == 1
    checks = {c.name: c.status for c in verify(forged, rerun_spec=WRONG)}
    assert checks["rerun"] == SKIPPED and checks["consistent"] == FAILED


def test_report_sign_refuses_a_forged_report(forged, tmp_path, capsys):
    key = tmp_path / "lab.pem"
    assert main(["keygen", "--out", str(key)]) == 0
    out = tmp_path / "signed"
    assert main(["report", str(forged), "--sign", str(key), "--out", str(out)]) == 1
    assert "disagrees with itself" in capsys.readouterr().err
    assert not out.exists() or not list(out.iterdir())
    one = tmp_path / "one.json"
    assert (
        main(["report", str(forged), "--format", "json", "--sign", str(key), "--out", str(one)])
        == 1
    )
    assert not one.exists() and not one.with_name("one.json.sig").exists()


def test_a_forged_report_does_not_render(forged, capsys):
    assert main(["report", str(forged), "--format", "markdown"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "refused" in captured.err and "CERTIFIED" in captured.err


def test_diff_refuses_a_forged_report(forged, failing_run, capsys):
    assert main(["diff", str(failing_run / "report.json"), str(forged)]) == 1
    assert "disagrees with itself" in capsys.readouterr().err


def _mutations() -> dict[str, Any]:
    """Ways to change one conclusion of the fixture's failing report."""

    def ruleset(rep):
        return next(r for r in rep["rulesets"] if r["id"] == H5)

    def clause_row(rep):
        return next(c for c in ruleset(rep)["clauses"] if c["status"] == "broken")

    def drop_failure(rep):
        rep["failures"].pop(0)

    def counts(rep):
        rep["counts"]["PASS"] += 1

    def ruleset_counts(rep):
        ruleset(rep)["counts"]["FAIL"] = 0

    def reasons(rep):
        ruleset(rep)["reasons"] = ["all applicable vectors passed"]

    def clause(rep):
        clause_row(rep)["status"] = "ok"
        clause_row(rep)["failed"] = 0

    def drop_clause_row(rep):
        label = clause_row(rep)["label"]
        ruleset(rep)["clauses"] = [c for c in ruleset(rep)["clauses"] if c["label"] != label]

    def flag(rep):
        rep["flags"][0]["failed"] = 0

    def not_applicable(rep):
        rep["not_applicable"].pop()

    def completeness(rep):
        rep["completeness"]["duplicate_lines"] = 3

    def exit_code(rep):
        rep["exit_code"] = 0

    def verdict(rep):
        rep["verdict"] = "INCOMPLETE"

    def outcome_only_in_failures(rep):
        rep["failures"][0]["outcome"] = "XFAIL"

    def vector_fixed_but_still_listed(rep):
        fid = rep["failures"][0]["id"]
        next(v for v in rep["vectors"] if v["id"] == fid)["outcome"] = "PASS"

    def scored_as(rep):
        next(f for f in rep["failures"] if f["outcome"] == "XFAIL")["scored_as"] = "PASS"

    return {
        f.__name__: f
        for f in (
            drop_failure,
            counts,
            ruleset_counts,
            reasons,
            clause,
            drop_clause_row,
            flag,
            not_applicable,
            completeness,
            exit_code,
            verdict,
            outcome_only_in_failures,
            vector_fixed_but_still_listed,
            scored_as,
        )
    }


MUTATIONS = _mutations()


@pytest.fixture(scope="module")
def fixture_report(tmp_path_factory) -> dict[str, Any]:
    from pokercert.reports.output import load

    return load(make_runs(tmp_path_factory.mktemp("runs"))["failing"])


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_every_conclusion_is_recomputed(fixture_report, name):
    changed = json.loads(json.dumps(fixture_report))
    MUTATIONS[name](changed)
    changed.pop("digest")
    raw = canonical_bytes(seal(changed))
    checks = verify_bytes(raw)[1]
    assert not passed(checks), name
    assert [c.name for c in checks if c.status == FAILED] == ["consistent"], checks


def test_genuine_reports_are_consistent(fixture_report, failing_run):
    assert passed(verify_bytes(canonical_bytes(fixture_report))[1])
    assert passed(verify_bytes((failing_run / "report.json").read_bytes())[1])


# ----------------------------------------------------------------------------- case 2
def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pokercert.cli", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_an_adapter_that_rewrites_its_results_cannot_certify(tmp_path):
    # --no-sandbox: the sandbox hides the run folder, which stops the attack itself
    # (tests/harness/test_trust_sandbox.py); this is the defence behind it
    run = _cli("run", *SMALL, "--adapter", REWRITER, "--out", "out", "--no-sandbox", cwd=tmp_path)
    assert run.returncode == 1, run.stderr
    folder = tmp_path / "out"
    forged = [json.loads(line) for line in (folder / "results.jsonl").read_text().splitlines()]
    assert forged and {r["outcome"] for r in forged} == {"PASS"}, "the attack did not happen"
    # the reports the run wrote say what the harness scored
    report = json.loads((folder / "report.json").read_bytes())
    assert report["verdict"] == "NOT CERTIFIED" and report["counts"]["FAIL"] > 0
    assert "NOT CERTIFIED" in (folder / "report.md").read_text().splitlines()[0]
    for name in report_files(folder):
        text = (folder / name).read_text()
        assert "NOT CERTIFIED" in text or name.endswith(".xml"), name
    # rebuilding from the rewritten file is refused; verify of the folder fails
    rebuilt = _cli("report", "out", "--format", "json", cwd=tmp_path)
    assert rebuilt.returncode == 1 and rebuilt.stdout == ""
    assert "was changed after the harness wrote it" in rebuilt.stderr
    again = _cli("report", "out", cwd=tmp_path)
    assert again.returncode == 1
    assert json.loads((folder / "report.json").read_bytes())["verdict"] == "NOT CERTIFIED"
    checked = _cli("verify", "out", "--json", cwd=tmp_path)
    assert checked.returncode == 1, checked.stderr
    result = json.loads(checked.stdout)
    assert (result["genuine"], result["verdict"]) == (False, None)
    problems = {c["name"]: c["detail"] for c in result["checks"] if c["status"] == FAILED}
    assert "changed after the harness wrote it" in problems.get("results", ""), problems


@pytest.fixture(scope="module")
def certified_run(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("certified") / "run"
    assert run_cli("--out", str(folder)) == 0
    return folder


def test_verify_of_a_run_folder(certified_run, tmp_path, capsys):
    folder = tmp_path / "run"
    shutil.copytree(certified_run, folder)
    assert main(["verify", str(folder)]) == 0
    assert "results" in capsys.readouterr().out
    # an edited result line: refused by report, caught by verify
    path = folder / "results.jsonl"
    lines = path.read_text().splitlines(keepends=True)
    lines[0] = lines[0].replace('"PASS"', '"FAIL"', 1)
    path.write_text("".join(lines))
    assert main(["report", str(folder)]) == 1
    assert "changed after the harness wrote it" in capsys.readouterr().err
    assert main(["verify", str(folder)]) == 1
    assert {c.name: c.status for c in verify(folder)}["results"] == FAILED


def test_a_run_reports_in_memory_what_a_rebuild_from_its_folder_gives(failing_run):
    """run's own report (from memory) is the report of the folder, failures and all."""
    checks = {c.name: c for c in verify(failing_run)}
    assert checks["results"].status == "ok", checks
    assert passed(list(checks.values()))


def test_merge_refuses_a_shard_whose_results_were_changed(tmp_path, capsys):
    shards = [tmp_path / f"shard{k}" for k in (1, 2)]
    for k, shard in enumerate(shards, 1):
        assert (
            run_cli(
                "--shard", f"{k}/2", "--challenge-seed", "5", "--out", str(shard), "--no-report"
            )
            == 0
        )
    path = shards[1] / "results.jsonl"
    path.write_text(path.read_text().replace('"PASS"', '"FAIL"', 1))
    assert main(["merge", str(tmp_path / "merged"), *map(str, shards)]) == 3
    assert "changed after the harness wrote it" in capsys.readouterr().err


def test_a_rewritten_report_loses_its_old_signature(reported_certified, tmp_path):
    from pokercert.reports.output import load, write_reports

    sig = reported_certified / "report.json.sig"
    write_reports(load(reported_certified), reported_certified)  # same bytes: kept
    assert sig.is_file()
    report = load(reported_certified)
    report["generator"] = {**report["generator"], "version": "0.0.0-other"}
    report.pop("digest")
    write_reports(seal(report), reported_certified)  # other bytes: void
    assert not sig.exists()


def test_verify_of_a_folder_holding_another_runs_report(certified_run, failing_run, tmp_path):
    folder = tmp_path / "run"
    shutil.copytree(certified_run, folder)
    shutil.copy(failing_run / "report.json", folder / "report.json")
    checks = {c.name: c for c in verify(folder)}
    assert checks["results"].status == FAILED, checks


def test_verify_of_a_folder_whose_report_facts_were_edited(certified_run, tmp_path):
    """Consistent and from the same results file, but not what those results give."""
    folder = tmp_path / "run"
    shutil.copytree(certified_run, folder)
    report = json.loads((folder / "report.json").read_bytes())
    report["identification"]["evaluator"]["version"] = "9.9 (certified build)"
    report.pop("digest")
    (folder / "report.json").write_bytes(canonical_bytes(seal(report)))
    checks = {c.name: c for c in verify(folder)}
    assert checks["consistent"].status == "ok"
    assert checks["results"].status == FAILED
    assert "differs in: identification" in checks["results"].detail


def test_run_json_and_report_record_the_results_hash(certified_run):
    data = (certified_run / "results.jsonl").read_bytes()
    head = json.loads((certified_run / "run.json").read_text())
    assert head["results_sha256"] == hashlib.sha256(data).hexdigest()
    assert head["results_lines"] == data.count(b"\n")
    ident = json.loads((certified_run / "report.json").read_bytes())["identification"]
    assert (ident["results_sha256"], ident["results_lines"]) == (
        head["results_sha256"],
        head["results_lines"],
    )


def test_resume_hashes_the_valid_prefix_and_what_follows(certified_run, tmp_path):
    folder = tmp_path / "run"
    shutil.copytree(certified_run, folder)
    path = folder / "results.jsonl"
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:5]) + lines[5][:30])  # killed mid-line
    head = json.loads((folder / "run.json").read_text())
    head.update(finished_at=None, results_sha256=None, results_lines=None)
    (folder / "run.json").write_text(json.dumps(head))
    assert run_cli("--out", str(folder), "--resume") == 0
    data = path.read_bytes()
    head = json.loads((folder / "run.json").read_text())
    assert head["results_sha256"] == hashlib.sha256(data).hexdigest()
    assert head["results_lines"] == len(lines)
    assert passed(verify(folder))


def test_resume_refuses_results_changed_after_the_run(certified_run, tmp_path, capsys):
    folder = tmp_path / "run"
    shutil.copytree(certified_run, folder)
    path = folder / "results.jsonl"
    path.write_text("".join(path.read_text().splitlines(keepends=True)[:-1]))
    assert run_cli("--out", str(folder), "--resume") == 3
    assert "changed after the harness wrote it" in capsys.readouterr().err


# ----------------------------------------------------------------------------- case 3
@pytest.fixture
def reported_certified(certified_run, tmp_path, capsys) -> Path:
    """A copy of a CERTIFIED run with its reports, the JSON signed."""
    folder = tmp_path / "x"
    shutil.copytree(certified_run, folder)
    key = tmp_path / "lab.pem"
    assert main(["keygen", "--out", str(key)]) == 0
    assert main(["report", str(folder), "--sign", str(key)]) == 0
    assert "report.json.sig" in report_files(folder)
    assert json.loads((folder / "report.json").read_bytes())["verdict"] == "CERTIFIED"
    capsys.readouterr()
    return folder


def test_a_failing_run_with_no_report_leaves_no_stale_report(reported_certified):
    assert run_cli("--adapter", WRONG, "--out", str(reported_certified), "--no-report") == 1
    assert report_files(reported_certified) == []
    assert (
        main(
            [
                "report",
                str(reported_certified),
                "--format",
                "json",
                "--out",
                str(reported_certified / "report.json"),
            ]
        )
        == 1
    )  # NOT CERTIFIED


def test_an_adapter_that_does_not_start_leaves_no_stale_report(reported_certified, tmp_path):
    missing = tmp_path / "no-such-evaluator"
    assert run_cli("--adapter", f"exec:{missing}", "--out", str(reported_certified)) == 2
    assert report_files(reported_certified) == []
    assert not (reported_certified / "results.jsonl").exists()
    # the run.json left is this run's, recording the failed start (issue 28: a lab finds
    # why the folder holds no results), never the earlier certified run's
    header = json.loads((reported_certified / "run.json").read_bytes())
    assert "did not start" in header["aborted"]
    assert (
        main(
            [
                "report",
                str(reported_certified),
                "--format",
                "json",
                "--out",
                str(reported_certified / "report.json"),
            ]
        )
        == 2
    )  # INCOMPLETE


def test_a_resumed_run_with_no_report_leaves_no_stale_report(reported_certified):
    assert run_cli("--out", str(reported_certified), "--resume", "--no-report") == 0
    assert report_files(reported_certified) == []


def test_a_merge_into_a_reported_folder_leaves_no_stale_report(reported_certified, tmp_path):
    shards = [tmp_path / f"shard{k}" for k in (1, 2)]
    for k, shard in enumerate(shards, 1):
        assert run_cli(
            "--adapter",
            WRONG,
            "--shard",
            f"{k}/2",
            "--challenge-seed",
            "5",
            "--out",
            str(shard),
            "--no-report",
        ) in (0, 1)
    assert main(["merge", str(reported_certified), *map(str, shards)]) == 1
    assert report_files(reported_certified) == []
    merged = sum(1 for _ in (reported_certified / "results.jsonl").open())
    assert merged == sum(sum(1 for _ in (s / "results.jsonl").open()) for s in shards)
    assert main(["report", str(reported_certified)]) == 1
    verdict = json.loads((reported_certified / "report.json").read_bytes())["verdict"]
    assert verdict == "NOT CERTIFIED"
