"""diff and the report command line, on two known results sets."""

from __future__ import annotations

import json

import pytest

from pokercert.cli.main import main
from pokercert.harness.run.results import Outcome
from pokercert.reports.diff import diff_reports
from pokercert.reports.output import load
from tests.helpers.reports_fixtures import (
    KICKER,
    ROYAL,
    SUITS,
    WHEEL,
    WRAP,
    make_runs,
    write_run,
)

# old: evaluator 1.4.2; new: 1.4.3, where the wheel broke, the wraparound bug was fixed,
# the kicker vector was dropped from the selection and a new vector was added
OLD = [
    ROYAL,
    WHEEL,
    WRAP._replace(outcome=Outcome.FAIL, actual={"category": "straight"}),
    KICKER,
    SUITS,
]
NEW = [
    ROYAL,
    WHEEL._replace(outcome=Outcome.FAIL, actual={"category": "high_card"}),
    WRAP,
    SUITS._replace(outcome=Outcome.NOT_APPLICABLE, actual=None),
    ROYAL._replace(vector_id="h5-royal-002", inputs={"hand": "Ah Kh Qh Jh Th"}),
]


@pytest.fixture
def pair(tmp_path):
    return (write_run(tmp_path / "old", OLD), write_run(tmp_path / "new", NEW, version="1.4.3"))


def test_diff_per_vector(pair):
    result = diff_reports(load(pair[0]), load(pair[1]))
    got = {k: [(c["id"], c["old"], c["new"]) for c in v] for k, v in result["changes"].items()}
    assert got == {
        "newly_failing": [("h5-wheel-001", "PASS", "FAIL")],
        "fixed": [("h5-wrap-001", "FAIL", "PASS")],
        "changed": [("h5-suits-001", "PASS", "NOT_APPLICABLE")],  # coverage lost
        "added": [("h5-royal-002", None, "PASS")],
        "removed": [("h5-kicker-001", "PASS", None)],
    }
    assert result["identification_changes"] == [
        {
            "field": "evaluator",
            "old": load(pair[0])["identification"]["evaluator"],
            "new": load(pair[1])["identification"]["evaluator"],
        }
    ]
    assert (result["old"]["verdict"], result["new"]["verdict"]) == (
        "NOT CERTIFIED",
        "NOT CERTIFIED",
    )


def test_diff_of_a_run_with_itself_is_empty(pair):
    result = diff_reports(load(pair[0]), load(pair[0]))
    assert result["counts"] == dict.fromkeys(result["counts"], 0)


def test_cli_diff_exit_code_and_json(pair, capsys):
    old, new = pair
    assert main(["diff", str(old), str(new), "--json"]) == 1  # something newly fails
    out = json.loads(capsys.readouterr().out)
    assert out["counts"] == {"newly_failing": 1, "fixed": 1, "changed": 1, "added": 1, "removed": 1}
    assert main(["diff", str(new), str(old)]) == 1  # reversed: wraparound is back
    text = capsys.readouterr().out
    assert "note: evaluator differs" in text and "h5-wrap-001" in text
    # reports work as inputs too, and a fix alone is not a failure
    main(["report", str(old), "--format", "all"])
    fixed_only = write_run(old.parent / "fixed", [*OLD[:2], WRAP, *OLD[3:]])
    assert main(["diff", str(old / "report.json"), str(fixed_only)]) == 0
    capsys.readouterr()


# ---------------------------------------------------------------- report command
@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    return make_runs(tmp_path_factory.mktemp("runs"))


@pytest.mark.parametrize(("run", "code"), [("passing", 0), ("failing", 1), ("incomplete", 2)])
def test_report_exit_code_is_the_verdict(runs, run, code, capsys):
    assert main(["report", str(runs[run]), "--format", "json"]) == code
    captured = capsys.readouterr()
    assert json.loads(captured.out)["exit_code"] == code
    assert captured.err.startswith(("CERTIFIED", "NOT CERTIFIED", "INCOMPLETE"))


def test_report_to_a_file_and_all_into_a_folder(runs, tmp_path, capsys):
    out = tmp_path / "sub" / "r.xml"
    assert main(["report", str(runs["failing"]), "--format", "junit", "--out", str(out)]) == 1
    assert out.read_text().startswith("<?xml")
    folder = tmp_path / "all"
    main(["report", str(runs["passing"]), "--out", str(folder)])
    assert sorted(p.name for p in folder.iterdir()) == [
        "report.html",
        "report.json",
        "report.junit.xml",
        "report.md",
    ]
    capsys.readouterr()


def test_report_re_renders_a_genuine_json_report(runs, tmp_path, capsys):
    main(["report", str(runs["failing"]), "--out", str(tmp_path)])
    capsys.readouterr()
    assert main(["report", str(tmp_path / "report.json"), "--format", "markdown"]) == 1
    assert capsys.readouterr().out == (tmp_path / "report.md").read_text()


@pytest.mark.parametrize(
    "argv",
    [
        ["report", "/nonexistent/run"],
        ["report", "{run}", "--format", "pdf"],
        ["report", "{run}", "--format", "html", "--sign", "key.pem"],
    ],
)
def test_report_usage_errors(runs, argv, capsys):
    argv = [a.replace("{run}", str(runs["passing"])) for a in argv]
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own errors exit at once, with 3
        code = exc.code
    assert code == 3
    assert "error" in capsys.readouterr().err


def test_challenges_of_different_seeds_compare_as_a_whole(tmp_path):
    """Challenge vectors of another seed are other inputs: not 'added' and 'removed' by
    id; a challenge that newly fails is a new failure (exit 1) all the same."""
    from tests.helpers.reports_fixtures import CHALLENGE, FAILING, PASSING, write_run

    old = load(write_run(tmp_path / "old", PASSING, challenge=CHALLENGE))
    renamed = [
        r._replace(vector_id=r.vector_id.replace("-7-", "-8-")) if r.origin else r for r in FAILING
    ]
    new = load(write_run(tmp_path / "new", renamed, challenge={**CHALLENGE, "seed": 8}))
    result = diff_reports(old, new)
    assert not any("challenge" in c["id"] for k in result["changes"] for c in result["changes"][k])
    assert result["challenge"]["newly_failing"] is True
    assert result["challenge"]["compared"].startswith("as a whole")
    assert main(["diff", str(tmp_path / "old"), str(tmp_path / "new")]) == 1
    same = diff_reports(old, load(write_run(tmp_path / "same", FAILING, challenge=CHALLENGE)))
    assert {
        "id": "h5-challenge-7-00001",
        "ruleset": "nj-poker-high-5",
        "old": "PASS",
        "new": "FAIL",
    } in same["changes"]["newly_failing"]
