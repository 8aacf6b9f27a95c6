"""``pokercert run``'s summary table prints each ruleset's verdict from the sealed
report, never one worked out again from the outcome counts: an attached fuzzing that
found a disagreement denies a ruleset whose every vector passed (the report's verdict
rule 5, reports/verdict.py), and the table must say so, as the report does."""

from __future__ import annotations

from pokercert.cli.run import print_summary
from pokercert.harness.run.results import read_header, read_results
from pokercert.harness.run.runner import outcome_of_folder
from pokercert.reports.canonical import seal
from pokercert.reports.model import report_of
from tests.helpers.reports_fixtures import (
    BOTH_ASKED,
    FAILING_ATTACHED,
    H3,
    H5,
    PASSING,
    write_run,
)


def test_the_table_has_the_reports_verdicts_attached_modes_included(tmp_path, capsys):
    # every vector passed; the attached fuzzing found a disagreement on H5, the
    # exhaustive check one on H3 (FAILING_ATTACHED)
    folder = write_run(tmp_path / "run", PASSING, modes=BOTH_ASKED, attached=FAILING_ATTACHED)
    header = read_header(folder)
    report = seal(report_of(header, list(read_results(folder))))
    by_id = {row["id"]: row["verdict"] for row in report["rulesets"]}
    assert by_id[H5] == by_id[H3] == "NOT CERTIFIED"
    outcome = outcome_of_folder(folder, header)
    print_summary(header, outcome.counts, folder, outcome.exit_code, False, report, True)
    table = {
        line.split()[0]: line
        for line in capsys.readouterr().out.splitlines()
        if line.split() and line.split()[0] in (H5, H3)
    }
    assert table[H5].endswith("NOT CERTIFIED") and table[H3].endswith("NOT CERTIFIED")
    assert outcome.exit_code == 1  # the run's own code says a failure too
