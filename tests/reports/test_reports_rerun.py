"""verify --rerun: a regulator re-runs the evaluator a report describes.

A real run of the reference on one ruleset is reported; re-running the reference must
give every vector the same outcome, and re-running a mutant (the reference with the
wheel forgotten) must not.
"""

from __future__ import annotations

import pytest

from pokercert.harness.mutants import MutantEvaluator, get_mutant
from pokercert.reports import write_default_reports
from pokercert.reports.verify import FAILED, OK, verify

RULESET = "nj-poker-high-5"


class WheelMissing(MutantEvaluator):
    """The reference with one bug: A-2-3-4-5 is not a straight."""

    def __init__(self) -> None:
        super().__init__(get_mutant("wheel-missing"))


@pytest.fixture(scope="module")
def reference_run(tmp_path_factory, corpus_once):
    from pokercert.harness.run.runner import RunConfig, run

    out = tmp_path_factory.mktemp("run") / "reference"
    outcome = run(
        RunConfig(
            adapter="reference",
            out=out,
            rulesets=[RULESET],
            flags=["wheel", "straight-order"],
            command=["pokercert", "run"],
        ),
        corpus=corpus_once,
    )
    assert outcome.exit_code == 0
    write_default_reports(out)
    return out


def rerun_check(report, spec):
    return next(c for c in verify(report, rerun_spec=spec) if c.name == "rerun")


def test_rerun_of_the_same_evaluator_agrees(reference_run):
    check = rerun_check(reference_run / "report.json", "reference")
    assert check.status == OK, check.detail


def test_rerun_of_another_evaluator_is_caught(reference_run):
    check = rerun_check(reference_run / "report.json", f"py:{__name__}:WheelMissing")
    assert check.status == FAILED
    assert "newly failing" in check.detail and f"{RULESET}/" in check.detail
