"""The report model: verdict rules, per-clause matrix, findings, completeness, determinism.

Expected numbers are counted by hand from the fixed results sets in
``test_reports_fixtures`` (each vector there is listed with its outcome).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from pokercert.harness.run.results import HEADER_FILE, RESULTS_FILE, Outcome
from pokercert.reference import get_ruleset
from pokercert.reports import model as M
from pokercert.reports import verdict as V
from pokercert.reports.canonical import ReportError, canonical_bytes, schema_errors, seal
from pokercert.reports.model import build_report
from tests.helpers.reports_fixtures import (
    BOTH_ASKED,
    CHALLENGE,
    CORPUS,
    FAILING,
    FAILING_ATTACHED,
    H3,
    H5,
    LOW,
    PASSING,
    ROYAL,
    header,
    make_runs,
    rehash,
    write_run,
)


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    return make_runs(tmp_path_factory.mktemp("runs"))


@pytest.fixture(scope="module")
def reports(runs) -> dict[str, dict]:
    return {name: seal(build_report(folder)) for name, folder in runs.items()}


def by_id(items, key="id"):
    return {x[key]: x for x in items}


# ---------------------------------------------------------------- verdict rules
def counts(**kw) -> dict[str, int]:
    return {str(o): kw.get(str(o), 0) for o in Outcome}


@pytest.mark.parametrize("outcome", sorted(str(o) for o in V.DENYING))
def test_any_finding_denies_the_certificate(outcome):
    verdict, reasons = V.ruleset_verdict(counts(PASS=99, **{outcome: 1}))
    assert verdict == V.NOT_CERTIFIED
    assert outcome in reasons[0] or "known failures" in reasons[0]


def test_a_finding_is_final_even_when_the_run_is_incomplete():
    assert (
        V.ruleset_verdict(counts(PASS=3, FAIL=1), ["2 vectors have no result"])[0]
        == V.NOT_CERTIFIED
    )


def test_known_failures_alone_still_deny_the_certificate():
    verdict, reasons = V.ruleset_verdict(counts(PASS=5, XFAIL=2))
    assert verdict == V.NOT_CERTIFIED
    assert "known failures" in reasons[0]


def test_missing_vectors_make_it_incomplete():
    assert V.ruleset_verdict(counts(PASS=5), ["1 vector has no result"]) == (
        V.INCOMPLETE,
        ["1 vector has no result"],
    )


def test_not_applicable_vectors_do_not_block_and_all_na_is_not_applicable():
    assert V.ruleset_verdict(counts(PASS=5, NOT_APPLICABLE=7))[0] == V.CERTIFIED
    assert V.ruleset_verdict(counts(NOT_APPLICABLE=7))[0] == V.NOT_APPLICABLE
    assert V.ruleset_verdict(counts())[0] == V.INCOMPLETE


@pytest.mark.parametrize(
    ("verdicts", "overall"),
    [
        ([V.CERTIFIED, V.CERTIFIED], V.CERTIFIED),
        ([V.CERTIFIED, V.NOT_APPLICABLE], V.CERTIFIED),
        ([V.CERTIFIED, V.INCOMPLETE], V.INCOMPLETE),
        ([V.INCOMPLETE, V.NOT_CERTIFIED], V.NOT_CERTIFIED),
        ([V.NOT_APPLICABLE], V.INCOMPLETE),  # nothing certified at all
        ([], V.INCOMPLETE),
    ],
)
def test_overall_verdict(verdicts, overall):
    assert V.overall_verdict(verdicts) == overall


def test_exit_codes_follow_the_cli_convention():
    assert [M.REPORT_EXIT_CODES[v] for v in V.OVERALL_VERDICTS] == [0, 1, 2]


# ---------------------------------------------------------------- the fixed runs
def test_passing_run(reports):
    rep = reports["passing"]
    assert (rep["verdict"], rep["exit_code"]) == ("CERTIFIED", 0)
    verdicts = {r["id"]: r["verdict"] for r in rep["rulesets"]}
    assert verdicts == {H5: "CERTIFIED", H3: "CERTIFIED", LOW: "NOT APPLICABLE"}
    assert rep["failures"] == []
    assert rep["completeness"]["complete"]


def test_failing_run_verdicts_and_counts(reports):
    rep = reports["failing"]
    assert (rep["verdict"], rep["exit_code"]) == ("NOT CERTIFIED", 1)
    rs = by_id(rep["rulesets"])
    # (the challenge: the wheel's twin fails, the fresh deal passes)
    assert rs[H5]["counts"] == counts(PASS=3, FAIL=3, XPASS=1, WRONG_REASON=1, ERROR=1, TIMEOUT=1)
    assert rs[H3]["counts"] == counts(PASS=1, CRASH=1, XFAIL=1, NOT_APPLICABLE=1)
    assert rs[H3]["verdict"] == "NOT CERTIFIED"
    assert rs[LOW]["verdict"] == "NOT APPLICABLE"


def test_clause_matrix_counts_by_hand(reports):
    rs = by_id(reports["failing"]["rulesets"])
    h5 = by_id(rs[H5]["clauses"], "label")
    # (b)6: the wheel, its twin and the wraparound vectors, all FAIL
    assert {k: h5["13:69F-14.3(b)6"][k] for k in ("run", "passed", "failed", "status")} == {
        "run": 3,
        "passed": 0,
        "failed": 3,
        "status": "broken",
    }
    # (d): kicker PASS, the fresh kicker deal PASS, suits XPASS, full house ERROR
    assert (
        h5["13:69F-14.3(d)"]["run"],
        h5["13:69F-14.3(d)"]["passed"],
        h5["13:69F-14.3(d)"]["failed"],
    ) == (4, 2, 2)
    assert h5["13:69F-14.3(b)2"]["status"] == "untested"
    h3 = by_id(rs[H3]["clauses"], "label")
    assert (h3["13:69F-14.3(c)4"]["status"], h3["13:69F-14.3(c)4"]["known_failures"]) == (
        "known-failures",
        1,
    )
    assert (h3["13:69F-14.3(a)"]["run"], h3["13:69F-14.3(a)"]["not_applicable"]) == (0, 1)
    # every clause of the ruleset is listed, in the regulation's order, with our summary
    assert [c["label"] for c in rs[H5]["clauses"]] == [c.label for c in get_ruleset(H5).clauses]
    assert h5["13:69F-14.3(b)6"]["summary"] == get_ruleset(H5).clause("13:69F-14.3(b)6").summary


def test_findings_rule_breaches_first_with_everything_a_reader_needs(reports):
    failures = reports["failing"]["failures"]
    assert [(f["id"], f["outcome"]) for f in failures] == [
        ("h5-challenge-7-00001", "FAIL"),
        ("h5-wheel-001", "FAIL"),
        ("h5-wrap-001", "FAIL"),
        ("h5-suits-001", "XPASS"),
        ("h5-quads-001", "TIMEOUT"),
        ("h5-fullhouse-001", "ERROR"),
        ("h5-reject-dup-001", "WRONG_REASON"),
        ("h3-royal-001", "CRASH"),
        ("h3-straight-001", "XFAIL"),
    ]
    assert failures[0]["origin"] == "twin:h5-wheel-001"
    assert {f["origin"] for f in failures[1:]} == {""}
    wheel = failures[1]
    assert wheel["expected"] == {"category": "straight"}
    assert wheel["actual"] == {"category": "high_card"}
    assert wheel["clauses"][0]["summary"].startswith("Straight: five cards in sequence")
    assert wheel["flags"] == ["wheel"]
    suits = by_id(failures)["h5-suits-001"]
    assert [r["interpretation"] for r in suits["readings"]] == [
        "identical-rank-tiebreak",
        "suits-equal",
    ]
    assert all(r["reading"] == "practice" and r["summary"] for r in suits["readings"])
    assert suits["scored_as"] == "PASS"
    crash = by_id(failures)["h3-royal-001"]
    assert crash["attachment"] == "h3-royal-001.stderr"
    assert "characters omitted" in crash["stderr"] and len(crash["stderr"]) < 2100


def test_flags_rollup_counts_applicable_vectors_only(reports):
    flags = by_id(reports["failing"]["flags"], "flag")
    assert (flags["rank-order"]["run"], flags["rank-order"]["failed"]) == (2, 1)
    assert flags["named-extreme"]["vectors"] == ["h3-royal-001"]
    assert flags["straight-order"]["known_failures"] == 1
    assert flags["three-card-order"]["failed"] == 0
    assert flags["wheel"]["description"].startswith("The ace plays low")
    # the lowball vectors were not applicable: their flags are not rolled up from them
    assert "input-validation" in flags and flags["input-validation"]["run"] == 1


def test_not_applicable_list(reports):
    na = reports["failing"]["not_applicable"]
    assert [(n["ruleset"], n["kind"], n["count"]) for n in na] == [
        (H3, "reject", 1),
        (LOW, "classify", 1),
        (LOW, "compare", 1),
    ]


def test_incomplete_run(reports):
    rep = reports["incomplete"]
    assert (rep["verdict"], rep["exit_code"]) == ("INCOMPLETE", 2)
    assert rep["completeness"]["reasons"] == [
        "the run did not finish (run.json has no finished_at)",
        "2 of 6 selected vectors have no result",
    ]
    rs = by_id(rep["rulesets"])
    assert rs[H5]["reasons"][0] == "1 of this ruleset's 4 selected vectors has no result"
    assert {r["verdict"] for r in rep["rulesets"]} == {"INCOMPLETE"}


def test_identification_comes_from_the_run_header(reports):
    ident = reports["failing"]["identification"]
    assert ident["evaluator"] == {
        "vendor": "Acme Gaming",
        "name": "acme-fives",
        "version": "1.4.2",
        "build": "9f3c2e1",
    }
    assert ident["corpus"] == {"version": "1.11.0", "sha256": CORPUS[1]}
    # only the readings of the rulesets run (issue 11): high-5, high-3, lowball 2-7
    assert set(ident["profile"]["readings"]) == {
        "identical-rank-tiebreak",
        "suits-equal",
        "low-card-order",
        "lowball-wheel",
    }
    assert ident["command_line"] == (
        "pokercert run --adapter "
        "py:acme_fives.pokercert:AcmeEvaluator --profile practice "
        "--out results"
    )


@pytest.mark.parametrize("name", ["passing", "failing", "incomplete"])
def test_reports_follow_the_published_schema(reports, name):
    assert schema_errors(reports[name]) == []


def test_schema_rejects_what_is_not_a_report(reports):
    bad = json.loads(json.dumps(reports["passing"]))
    bad["verdict"] = "PROBABLY FINE"
    del bad["rulesets"][0]["clauses"][0]["summary"]
    errors = schema_errors(bad)
    assert any(e.startswith("verdict:") for e in errors)
    assert any("summary" in e for e in errors)


# ---------------------------------------------------------------- run-level completeness
def test_a_shard_alone_is_incomplete(tmp_path):
    rep = build_report(write_run(tmp_path, PASSING, shard="1/2"))
    assert rep["verdict"] == "INCOMPLETE"
    assert "shard 1/2 only" in rep["completeness"]["reasons"][0]


def test_results_that_are_not_the_selection_are_incomplete(tmp_path):
    other = [f"{r.vector_id}-other" for r in PASSING]
    write_run(tmp_path, PASSING)
    from pokercert.harness.run.results import write_header

    write_header(tmp_path, header([r.vector_id for r in PASSING], selected=other))
    rep = build_report(tmp_path)
    assert rep["verdict"] == "INCOMPLETE"
    assert "selected_ids_sha256 does not match" in rep["completeness"]["reasons"][0]


def test_aborted_run_is_incomplete(tmp_path):
    write_run(tmp_path, PASSING)
    data = json.loads((tmp_path / HEADER_FILE).read_text())
    data["aborted"] = "too many restarts (50)"
    (tmp_path / HEADER_FILE).write_text(json.dumps(data))
    rep = build_report(tmp_path)
    assert rep["verdict"] == "INCOMPLETE"
    assert "too many restarts (50)" in rep["completeness"]["reasons"][0]


def test_a_repeated_vector_counts_once_last_line_wins(tmp_path):
    write_run(tmp_path, PASSING)
    failed = ROYAL.to_json() | {"outcome": "FAIL", "actual": {"category": "straight_flush"}}
    with (tmp_path / RESULTS_FILE).open("a") as fh:
        fh.write(json.dumps(failed) + "\n")
    rehash(tmp_path)  # as a resumed run's harness records it
    rep = build_report(tmp_path)
    assert rep["completeness"]["duplicate_lines"] == 1
    assert len(rep["vectors"]) == len(PASSING)
    assert by_id(rep["vectors"])[ROYAL.vector_id]["outcome"] == "FAIL"
    assert rep["verdict"] == "NOT CERTIFIED"


def test_a_torn_last_line_is_a_missing_result(tmp_path):
    write_run(tmp_path, PASSING)
    with (tmp_path / RESULTS_FILE).open("a") as fh:
        fh.write('{"vector_id": "h5-extra", "outc')
    data = json.loads((tmp_path / HEADER_FILE).read_text())  # killed: no hash, no end
    data["results_sha256"] = data["results_lines"] = data["finished_at"] = None
    (tmp_path / HEADER_FILE).write_text(json.dumps(data))
    rep = build_report(tmp_path)
    assert rep["completeness"]["results"] == len(PASSING)
    assert rep["verdict"] == "INCOMPLETE"


def test_unreadable_results_name_the_file_and_line(tmp_path):
    write_run(tmp_path, PASSING)
    lines = (tmp_path / RESULTS_FILE).read_text().splitlines(keepends=True)
    lines[2] = "not json\n"
    (tmp_path / RESULTS_FILE).write_text("".join(lines))
    with pytest.raises(ReportError, match=rf"{RESULTS_FILE}:3: unreadable result"):
        build_report(tmp_path)


def test_a_folder_without_run_json_is_a_usage_error(tmp_path):
    with pytest.raises(ReportError, match="not a results folder"):
        build_report(tmp_path)


# ---------------------------------------------------------------- determinism
def test_same_results_anywhere_in_any_order_give_identical_bytes(tmp_path, runs):
    shuffled = FAILING[:]
    random.Random(7).shuffle(shuffled)
    again = write_run(
        tmp_path / "elsewhere" / "deeper",
        shuffled,
        challenge=CHALLENGE,
        modes=BOTH_ASKED,
        attached=FAILING_ATTACHED,
    )
    one, two = build_report(runs["failing"]), build_report(again)
    # the one difference: the hash of results.jsonl, whose lines are in another order
    assert one["identification"].pop("results_sha256") != two["identification"].pop(
        "results_sha256"
    )
    assert canonical_bytes(seal(one)) == canonical_bytes(seal(two))


def test_generated_at_comes_from_the_results_or_source_date_epoch(runs, monkeypatch):
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    assert build_report(runs["failing"])["generated_at"] == "2026-01-15T10:00:07Z"
    assert build_report(runs["incomplete"])["generated_at"] == "2026-01-15T10:00:00Z"
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    assert build_report(runs["failing"])["generated_at"] == "2023-11-14T22:13:20Z"
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "yesterday")
    with pytest.raises(ReportError, match="SOURCE_DATE_EPOCH"):
        build_report(runs["failing"])
