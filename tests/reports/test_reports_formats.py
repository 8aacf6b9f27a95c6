"""Every format of every fixed results set, pinned byte for byte, plus what each must hold.

Snapshots live in ``tests/reports/test_reports_formats/``; after an intended change, review the
diff and refresh with ``pytest tests/reports/test_reports_formats.py --force-regen``.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

import pokercert.harness
from pokercert.harness.run.results import Outcome
from pokercert.reports import render_markdown
from pokercert.reports import text as T
from pokercert.reports.output import FORMATS, load, render
from tests.helpers.reports_fixtures import FAILING, PASSING, make_runs, write_run

EXTENSIONS = {"json": ".json", "markdown": ".md", "html": ".html", "junit": ".xml"}


@pytest.fixture(autouse=True)
def fixed_generator(monkeypatch):
    """Snapshots must not churn with every pokercert release."""
    monkeypatch.setattr(pokercert.harness, "__version__", "0.0.0+snapshot")
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    return make_runs(tmp_path_factory.mktemp("runs"))


@pytest.mark.parametrize("fmt", list(FORMATS))
@pytest.mark.parametrize("run", ["passing", "failing", "incomplete"])
def test_snapshot(runs, run, fmt, file_regression):
    data = render(load(runs[run]), fmt)
    file_regression.check(data, binary=True, extension=EXTENSIONS[fmt], basename=f"{run}_{fmt}")


def test_rendering_twice_gives_the_same_bytes(runs):
    one, two = load(runs["failing"]), load(runs["failing"])
    assert all(render(one, f) == render(two, f) for f in FORMATS)


# ---------------------------------------------------------------- JUnit
def test_junit_one_testcase_per_vector_named_by_id(runs):
    report = load(runs["failing"])
    root = ET.fromstring(render(report, "junit"))
    cases = [
        c
        for s in root.findall("./testsuite")
        if s.get("name") not in T.MODE_TITLES
        for c in s.findall("testcase")
    ]
    assert sorted(c.get("name") for c in cases) == sorted(r.vector_id for r in FAILING)
    # the 16 vectors, then a testcase per ruleset of each attached mode (fuzz: a failure
    # and a skip; exhaustive: an error (did not finish), a failure and a skip)
    assert (root.get("tests"), root.get("failures"), root.get("errors"), root.get("skipped")) == (
        "22",
        "7",
        "4",
        "6",
    )
    by_name = {c.get("name"): c for c in cases}
    wheel = by_name["h5-wheel-001"].find("failure")
    assert wheel.get("message") == "FAIL 13:69F-14.3(b)6: A-2-3-4-5 is the lowest straight."
    assert "expected: category: straight" in wheel.text
    assert by_name["h3-royal-001"].find("error").get("type") == "CRASH"
    assert by_name["h3-straight-001"].find("skipped").get("type") == "XFAIL"
    assert by_name["low-001"].find("skipped").get("type") == "NOT_APPLICABLE"
    assert list(by_name["h5-royal-001"]) == []  # PASS: no child element
    # the NUL and BEL of the crash's stderr are shown, not written raw (XML cannot hold them)
    assert "\\x00\\x07" in by_name["h3-royal-001"].find("system-err").text


def test_junit_suites_carry_the_verdicts(runs):
    root = ET.fromstring(render(load(runs["passing"]), "junit"))
    props = {
        s.get("name"): {p.get("name"): p.get("value") for p in s.iter("property")}
        for s in root.findall("testsuite")
    }
    assert props["nj-poker-high-5"]["verdict"] == "CERTIFIED"
    assert props["nj-lowball-2-7"]["verdict"] == "NOT APPLICABLE"


# ---------------------------------------------------------------- HTML
def test_html_is_self_contained(runs):
    page = render(load(runs["failing"]), "html").decode()
    for forbidden in ("<script", "<link", "src=", "url(", "http://", "https://", "@import"):
        assert forbidden not in page, forbidden
    assert (
        page.index("NOT CERTIFIED")
        < page.index('id="rulesets"')
        < page.index('id="clauses"')
        < page.index('id="findings"')
    )


def test_html_escapes_vendor_text(runs):
    page = render(load(runs["failing"]), "html").decode()
    assert "<b>bold</b>" not in page
    assert "&lt;b&gt;bold&lt;/b&gt;" in page
    assert "\x00" not in page and "\\x00" in page
    assert page.count('<tr class="failure">') + page.count('<tr class="failure twin">') == 9


# ---------------------------------------------------------------- the challenge
def test_every_format_has_the_challenge_section_with_its_seed(runs):
    """Issue 13: the challenge's seed, size and outcome in JSON, Markdown, HTML, JUnit;
    its vectors in suites of their own; a run without one says so."""
    report = load(runs["failing"])
    assert report["challenge"]["status"] == "failed" and report["challenge"]["seed"] == 7
    assert report["challenge"]["rulesets"][0] == {
        "id": "nj-poker-high-5",
        "twin": {"run": 1, "passed": 0, "failed": 1, "not_applicable": 0},
        "fresh": {"run": 1, "passed": 1, "failed": 0, "not_applicable": 0},
    }
    # issue 28 item 5: the replay names the adapter, the profile and the failing ruleset,
    # so it can be pasted as it stands
    line = (
        "Challenge: seed 7, 1 twins + 1 fresh deals run, 1 failed (replay: "
        "pokercert run --adapter py:acme_fives.pokercert:AcmeEvaluator --profile practice "
        "--ruleset nj-poker-high-5 --challenge-seed 7 --challenge 1)."
    )
    md = render(report, "markdown").decode()
    assert "## Challenge" in md and line in md.replace("\\", "")
    page = render(report, "html").decode()
    assert '<h2 id="challenge">Challenge</h2>' in page and line in page
    root = ET.fromstring(render(report, "junit"))
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    challenge = suites["nj-poker-high-5 challenge"]
    assert [c.get("name") for c in challenge.findall("testcase")] == [
        "h5-challenge-7-00001",
        "h5-challenge-7-00002",
    ]
    props = {p.get("name"): p.get("value") for p in challenge.iter("property")}
    assert props["challenge_seed"] == "7" and props["challenge"] == line
    assert "h5-challenge-7-00001" not in [
        c.get("name") for c in suites["nj-poker-high-5"].findall("testcase")
    ]
    without = load(runs["incomplete"])
    assert without["challenge"]["status"] == "disabled"
    assert "--no-challenge" in render(without, "markdown").decode().replace("\\", "")


# ---------------------------------------------------------------- attached modes
def test_every_format_shows_each_attached_mode_in_its_own_section(runs):
    """Issue 13: run --fuzz N and run --exhaustive in the same certificate: each mode's
    seed, size, outcome per ruleset and counterexamples in JSON, Markdown, HTML, JUnit;
    a mode that failed withholds the certificate; a ruleset it could not cover is named;
    the vendor's answers and messages are shown, never interpreted."""
    report = load(runs["failing"])
    fuzz, exhaustive = report["modes"]["fuzz"], report["modes"]["exhaustive"]
    assert (fuzz["status"], fuzz["seed"], fuzz["examples"]) == ("failed", 3, 100)
    assert [(r["id"], r["status"]) for r in fuzz["rulesets"]] == [
        ("nj-poker-high-5", "failed"),
        ("nj-poker-high-3", "passed"),
        ("nj-lowball-2-7", "skipped"),
    ]
    assert (exhaustive["status"], exhaustive["order_seed"]) == ("failed", 5)
    assert [(r["id"], r["status"], r["disagreements"]) for r in exhaustive["rulesets"]] == [
        ("nj-poker-high-5", "incomplete", 0),
        ("nj-poker-high-3", "failed", 2),
        ("nj-lowball-2-7", "skipped", 0),
    ]
    verdicts = {rs["id"]: (rs["verdict"], rs["reasons"]) for rs in report["rulesets"]}
    assert verdicts["nj-poker-high-3"][0] == "NOT CERTIFIED"
    assert (
        "exhaustive (order seed 5) found 2 disagreement(s) with the reference in 22,100 "
        "hands checked" in verdicts["nj-poker-high-3"][1]
    )
    assert any(
        w.startswith("fuzz (seed 3) found 1 disagreement(s)")
        for w in verdicts["nj-poker-high-5"][1]
    )
    fuzz_line = (
        "Fuzz: seed 3, 100 deals per ruleset, 2 ruleset(s) run, 1 failed "
        "(replay: pokercert run --adapter py:acme_fives.pokercert:AcmeEvaluator "
        "--profile practice --ruleset nj-poker-high-5 --fuzz 100 --fuzz-seed 3). "
        "Skipped: nj-lowball-2-7."
    )
    md = render(report, "markdown").decode()
    assert md.index("## Challenge") < md.index("## Fuzz") < md.index("## Exhaustive")
    assert fuzz_line in md.replace("\\", "")
    assert "<b>bold</b>" not in md and "\\<b\\>bold\\</b\\>" in md
    assert "**CERTIFIED**" not in md and "\u202e" not in md and "\\u202e" in md
    assert "<script>" not in md and "<i>" not in md
    page = render(report, "html").decode()
    assert '<h2 id="mode-fuzz">Fuzz</h2>' in page and fuzz_line in page
    assert '<h2 id="mode-exhaustive">Exhaustive</h2>' in page
    assert "<b>bold</b>" not in page and "&lt;b&gt;bold&lt;/b&gt;" in page
    assert "<script>" not in page and "&lt;script&gt;" in page and "\u202e" not in page
    root = ET.fromstring(render(report, "junit"))
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    cases = {c.get("name"): c for c in suites["fuzz"].findall("testcase")}
    assert cases["nj-poker-high-5 fuzz"].find("failure") is not None
    assert "<b>bold</b>" in cases["nj-poker-high-5 fuzz"].find("failure").text  # XML-escaped
    assert cases["nj-lowball-2-7 fuzz"].find("skipped") is not None
    assert list(cases["nj-poker-high-3 fuzz"]) == []
    ex = {c.get("name"): c for c in suites["exhaustive"].findall("testcase")}
    assert ex["nj-poker-high-5 exhaustive"].find("error").get("type") == "incomplete"
    props = {p.get("name"): p.get("value") for p in suites["exhaustive"].iter("property")}
    assert props["order_seed"] == "5" and props["replay"] == "--exhaustive --order-seed 5"
    # a run without attached modes has no such section
    plain = load(runs["incomplete"])
    assert plain["modes"] == {} and "## Fuzz" not in render(plain, "markdown").decode()


# ---------------------------------------------------------------- Markdown
def test_markdown_tables_survive_pipes_and_backticks(runs):
    md = render(load(runs["failing"]), "markdown").decode()
    assert md.startswith("# ❌ NOT CERTIFIED: Acme Gaming acme-fives 1.4.2")
    tables, current = [], []
    for line in [*md.splitlines(), ""]:
        if line.startswith("|"):
            current.append(line)
        elif current:
            tables.append(current)
            current = []
    assert len(tables) >= 5
    for table in tables:  # every row has as many cell borders as the header row
        borders = {len(re.findall(r"(?<!\\)\|", row)) for row in table}
        assert len(borders) == 1, table


def test_markdown_fits_a_pull_request_comment_however_many_findings(tmp_path):
    wheel = next(r for r in FAILING if r.vector_id == "h5-wheel-001")
    many = [wheel._replace(vector_id=f"h5-wheel-{i:04d}", why="x|" * 700) for i in range(3000)]
    report = load(write_run(tmp_path, many))
    md = render(report, "markdown").decode()
    assert len(md) <= render_markdown.LIMIT
    shown = re.search(r"## Findings \(first (\d+) of 3000; all are in the JSON report\)", md)
    assert shown and int(shown.group(1)) < render_markdown.FAILURE_ROWS
    assert md.startswith("# ❌ NOT CERTIFIED")


def test_markdown_of_a_passing_run_has_no_findings(runs):
    md = render(load(runs["passing"]), "markdown").decode()
    assert "Findings" not in md and "# ✅ CERTIFIED" in md
    assert all(r.outcome in (Outcome.PASS, Outcome.NOT_APPLICABLE) for r in PASSING)
