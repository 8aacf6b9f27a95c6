"""The self-check: the corpus certifies the reference and fails every mutant.

One full self-check runs per test session (about half a minute: 57 mutants through the
real runner); the other tests read its report or score synthetic results.

KNOWN_SURVIVORS lists the mutant x ruleset cells the shipped corpus does not kill yet,
each with the vector that would kill it.  The fix for a survivor is that vector (in the
corpus), never a weaker mutant; the list may only shrink, and an entry whose mutant is
now killed fails the test until it is removed (like an XPASS).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pokercert.cli.main import main
from pokercert.cli.selfcheck import exit_code
from pokercert.harness.adapters import load_adapter
from pokercert.harness.mutants import MUTANTS, get_mutant
from pokercert.harness.run.results import Outcome, Result, read_results
from pokercert.reference import load_profile
from pokercert.reports.selfcheck import (
    BROKEN,
    EXCUSED,
    KILLED,
    SURVIVED,
    SelfcheckReport,
    score_mutant,
    selfcheck,
    spec_for,
)
from pokercert.vectors import registry
from pokercert.vectors.corpus import load_corpus

# (mutant, ruleset) -> the vector that kills it (ruleset, kind, inputs -> expected, clause)
KNOWN_SURVIVORS: dict[tuple[str, str], str] = {}


@pytest.fixture(scope="module")
def corpus():
    return load_corpus()


@pytest.fixture(scope="module")
def report(corpus, tmp_path_factory) -> SelfcheckReport:
    return selfcheck(tmp_path_factory.mktemp("selfcheck"), corpus=corpus)


def test_reference_is_certified_on_every_ruleset(report):
    assert report.reference_certified, report.reference
    assert set(report.reference) == {r for m in MUTANTS for r in m.rulesets}


def test_no_mutant_is_broken(report):
    assert not report.broken, [(m.mutant.id, c.ruleset, c.reasons) for m, c in report.broken]


def test_every_mutant_is_killed_except_the_known_survivors(report):
    survivors = {(m.mutant.id, c.ruleset) for m, c in report.survivors}
    new = survivors - set(KNOWN_SURVIVORS)
    assert not new, f"these mutants survive the corpus; add vectors that kill them: {new}"
    fixed = set(KNOWN_SURVIVORS) - survivors
    assert not fixed, f"now killed, remove them from KNOWN_SURVIVORS: {fixed}"
    assert report.green == (not KNOWN_SURVIVORS)


def test_kills_are_failing_vectors_of_the_run(report, corpus):
    m = next(m for m in report.mutants if m.mutant.id == "wheel-missing")
    failed = {r.vector_id for r in read_results(m.folder) if r.outcome is Outcome.FAIL}
    for cell in m.cells.values():
        assert cell.status == KILLED
        assert cell.killed_by and set(cell.killed_by) <= failed
        assert all(corpus.by_id[v].ruleset == cell.ruleset for v in cell.killed_by)
    # the wheel vectors are among the killers
    assert "wheel" in m.kill_flags


def test_excused_where_the_profile_reads_it_so(report):
    m = next(m for m in report.mutants if m.mutant.id == "wheel-missing")
    assert m.cells["mt-poker-high"].status == KILLED  # practice: a mistake
    literal = load_profile("literal")
    assert get_mutant("wheel-missing").excused("mt-poker-high", literal)
    assert get_mutant("wheel-missing").excused("nj-poker-high-5", literal) is None


def test_flag_report(report, corpus):
    rows = {f.flag: f for f in report.flags}
    assert set(rows) == set(registry.flags())
    for flag, row in rows.items():
        assert row.vectors == sum(flag in v.flags for v in corpus.vectors)
        assert row.own_mutants == sum(m.flag == flag for m in MUTANTS)
        assert row.own_killed <= row.own_mutants
        assert row.mutants_killed <= len(MUTANTS)
    assert rows["wraparound"].mutants_killed >= 1


def test_the_json_form_names_every_mutant(report):
    data = json.loads(json.dumps(report.as_dict()))
    assert set(data["mutants"]) == {m.id for m in MUTANTS}
    cell = data["mutants"]["wheel-missing"]["cells"]["nj-poker-high-5"]
    assert cell["status"] == KILLED and cell["killed_by"]


# ------------------------------------------------------------------ scoring, synthetic
def _result(vid: str, outcome: Outcome, actual=None, ruleset="nj-poker-high-5") -> Result:
    return Result(
        vector_id=vid,
        ruleset=ruleset,
        kind="classify",
        outcome=outcome,
        expected={"category": "straight"},
        actual=actual,
        flags=("wheel",),
    )


@pytest.mark.parametrize(
    ("outcomes", "status"),
    [
        ([Outcome.PASS, Outcome.FAIL], KILLED),
        ([Outcome.PASS, Outcome.WRONG_REASON], KILLED),
        ([Outcome.PASS, Outcome.PASS], SURVIVED),
        ([Outcome.PASS, Outcome.ERROR], BROKEN),  # raised: the mutant is faulty
        ([Outcome.CRASH, Outcome.TIMEOUT], BROKEN),
        ([], SURVIVED),  # no vector for the ruleset at all
    ],
)
def test_cell_status(outcomes, status):
    m = get_mutant("royal-not-named")
    results = {"nj-poker-high-5": [_result(f"v/{i}", o) for i, o in enumerate(outcomes)]}
    cell = score_mutant(
        m, results, [], Path("."), excused={r: "x" for r in m.rulesets if r != "nj-poker-high-5"}
    ).cells["nj-poker-high-5"]
    assert cell.status == status


def test_a_malformed_answer_is_a_kill_but_an_exception_is_not():
    m = get_mutant("minitex-royal-named")
    answered = [_result("a", Outcome.ERROR, {"category": "royal_flush"}, "nj-mini-tex-3")]
    raised = [_result("b", Outcome.ERROR, None, "nj-mini-tex-3")]
    assert score_mutant(m, {"nj-mini-tex-3": answered}, [], Path(".")).status == KILLED
    assert score_mutant(m, {"nj-mini-tex-3": raised}, [], Path(".")).status == BROKEN


def test_an_aborted_run_is_broken_not_killed():
    m = get_mutant("minitex-board-plays")
    rep = score_mutant(m, {}, ["the run was aborted: restarts exhausted"], Path("."))
    assert rep.status == BROKEN


def test_exit_codes():
    m = get_mutant("royal-not-named")
    ok = {"nj-poker-high-5": ("CERTIFIED", [])}

    def report_with(outcome: Outcome, reference=ok) -> SelfcheckReport:
        rep = score_mutant(
            m,
            {"nj-poker-high-5": [_result("v", outcome)]},
            [],
            Path("."),
            excused={r: "x" for r in m.rulesets if r != "nj-poker-high-5"},
        )
        return SelfcheckReport("practice", Path("."), reference, [rep], [])

    assert exit_code(report_with(Outcome.FAIL)) == 0
    assert exit_code(report_with(Outcome.PASS)) == 1
    assert exit_code(report_with(Outcome.ERROR)) == 2
    assert exit_code(report_with(Outcome.FAIL, {"x": ("NOT CERTIFIED", [])})) == 1
    assert report_with(Outcome.FAIL).mutants[0].cells["nj-caribbean-stud"].status == EXCUSED


# ------------------------------------------------------------------ the command line
def test_a_mutant_is_an_ordinary_adapter_spec():
    with load_adapter(spec_for("wheel-missing")) as adapter:
        identity = adapter.start()
    assert identity.evaluator["name"] == "mutant:wheel-missing"
    assert set(identity.capabilities) == set(get_mutant("wheel-missing").rulesets)


def test_cli_one_mutant_json(corpus, monkeypatch, capsys, tmp_path):
    import pokercert.vectors.corpus as corpus_module

    monkeypatch.setattr(corpus_module, "load_corpus", lambda *a, **k: corpus)
    code = main(
        ["selfcheck", "--mutant", "straight-flush-as-flush", "--json", "--out", str(tmp_path)]
    )
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["exit_code"] == 0 and data["green"]
    assert set(data["mutants"]) == {"straight-flush-as-flush"}
    assert (tmp_path / "straight-flush-as-flush" / "results.jsonl").exists()


def test_cli_human_output(corpus, monkeypatch, capsys):
    import pokercert.vectors.corpus as corpus_module

    monkeypatch.setattr(corpus_module, "load_corpus", lambda *a, **k: corpus)
    code = main(["selfcheck", "--mutant", "pocket-aces-as-pair", "--ids"])
    out = capsys.readouterr().out
    assert code == 0
    assert "Kill matrix" in out and "pocket-aces-as-pair" in out and "GREEN" in out
    assert "nj-mini-tex-pocket/" in out  # --ids lists the killing vectors


def test_cli_list_and_usage_errors(capsys):
    assert main(["selfcheck", "--list", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)["mutants"]
    assert len(listed) == len(MUTANTS) >= 40
    assert main(["selfcheck", "--mutant", "no-such-mutant"]) == 3
    assert "unknown mutant" in capsys.readouterr().err
