"""``pokercert.certify.certify``: a whole certification as one library call, in process.

The facts checked come from outside the pipeline: the bundled reference is the rules
(it passes every curated vector of a ruleset), the faux ExitWatch is the textbook
evaluator, which ranks three-card hands by five-card rules and fails curated vectors of
nj-poker-high-3 (tests/cli/test_cli_run_exit.py runs it as a process: exit 1), and the
exit codes are the ones ``pokercert run --help`` documents (0 no failure, 1 a failure,
2 the run did not finish)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pokercert.certify import Certification, Limits, certify
from pokercert.harness.run.outcome import exit_code
from pokercert.harness.run.runner import RunError
from pokercert.reference.errors import ExitCode
from pokercert.reports.verify import passed, verify
from tests.helpers.faux.exit_watch import ExitWatch

RULESET = "nj-poker-high-3"


def _certify(adapter: str | object, out: Path, **options: object) -> Certification:
    return certify(
        adapter,
        rulesets=[RULESET],
        challenge=False,
        out=out,
        limits=Limits(timeout=30.0),
        **options,
    )  # type: ignore[arg-type]


def test_the_reference_is_certified_and_its_sealed_report_is_the_folders(tmp_path):
    done = _certify("reference", tmp_path / "run")
    assert done.verdict == "CERTIFIED" and done.exit_code is ExitCode.OK
    assert done.written and done.problems == []
    on_disk = json.loads((tmp_path / "run" / "report.json").read_text(encoding="utf-8"))
    assert done.report is not None and on_disk == done.report
    assert on_disk["digest"] and on_disk["exit_code"] == 0
    assert (tmp_path / "run" / "run.json").is_file()
    assert passed(verify(tmp_path / "run"))  # the seal holds, built from the folder


def test_a_failing_evaluator_object_is_not_certified_and_exits_1(tmp_path):
    done = _certify(ExitWatch(), tmp_path / "run")
    assert done.verdict == "NOT CERTIFIED" and done.exit_code is ExitCode.NONCOMPLIANT
    assert done.report is not None and done.report["failures"]
    assert all(f["ruleset"] == RULESET for f in done.report["failures"])
    # the object is named by its class, and ran in this process
    assert done.header.adapter_spec == "py:tests.helpers.faux.exit_watch:ExitWatch"
    assert done.header.isolation == "in-process"
    assert done.header.evaluator["name"] == "exit-watch"


def test_without_reports_the_report_is_sealed_in_memory_only(tmp_path):
    done = _certify("reference", tmp_path / "run", write_reports=False)
    assert not done.written and done.report is not None and done.report["digest"]
    assert not (tmp_path / "run" / "report.json").exists()


def test_an_object_cannot_go_to_dask_workers(tmp_path):
    with pytest.raises(RunError, match="evaluator object runs in this process"):
        _certify(ExitWatch(), tmp_path / "run", workers=2)


@pytest.mark.parametrize(
    ("finished", "complies", "code"),
    [(True, True, 0), (True, False, 1), (False, True, 2), (False, False, 2)],
)
def test_the_one_mapping_of_an_outcome_to_an_exit_code(finished, complies, code):
    """As ``pokercert run --help`` says: 2 whenever the run did not finish (a finding in
    an unfinished run does not make it a finished one), else 1 for a failure, else 0."""
    assert exit_code(finished=finished, complies=complies) == code


def test_every_option_of_certify_reaches_the_run_or_a_stage_of_its_own():
    """An option named as no RunConfig field would be dropped without a word (a renamed
    field): each is RunConfig's, or one the pipeline's own stages take."""
    import inspect
    from dataclasses import fields

    from pokercert.harness.run.runner import RunConfig

    own = {"adapter", "workers", "scheduler", "tasks", "write_reports", "progress", "phases"}
    own |= {"corpus"}
    options = set(inspect.signature(certify).parameters)
    assert options - own <= {f.name for f in fields(RunConfig)}
    assert "limits" in options - own  # RunConfig holds the Limits given (issue 27)


def test_the_limits_given_are_the_runs(tmp_path):
    done = _certify("reference", tmp_path / "run")
    assert done.header.limits["timeout_s"] == 30.0  # Limits(timeout=30.0) above
