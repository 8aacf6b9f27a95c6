"""What a certificate covers (issue 26): the corpus against the release registry, the
identity's coverage, the sandbox and the challenge seed, in every format.

The published digest of corpus 1.11.0 is a fact from outside the code: the ``sha256``
of ``vectors/MANIFEST.json`` as released in commit 86193ac (``CORPUS`` of the report
fixtures).  The run.json fields ``measured_identity.coverage`` and ``sandbox`` are the
shapes the identity and sandbox work records; a run from before them says "not recorded".
"""

from __future__ import annotations

import json
import re
import unicodedata
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from pokercert.cli.run import print_summary
from pokercert.harness.run.results import read_header
from pokercert.harness.run.runner import count
from pokercert.reports import render_html, render_junit, render_markdown
from pokercert.reports.canonical import canonical_bytes, compute_digest, seal
from pokercert.reports.model import build_report, report_of
from pokercert.reports.output import write_default_reports
from pokercert.reports.verify import FAILED, conclude, verify_report
from tests.helpers.faux.hostile_identity import HOSTILE
from tests.helpers.reports_fixtures import CORPUS, FAILING, H3, H5, LOW, PASSING, write_run

PUBLISHED = CORPUS[1]
EDITED = "e" * 64
MODIFIED_WORDS = f"modified corpus (digest {EDITED[:16]}; 1.11.0 is {PUBLISHED[:16]})"
COVERAGE = {
    "scope": "launcher-and-script",
    "hashed": "the launcher /usr/bin/python3 and the script /opt/acme/adapter.py",
    "warning": "only a launcher and a script were hashed: the library that ranks "
    "the hands is not covered",
}
SANDBOX = {"mode": "bubblewrap", "reason": "no network; the corpus and the run folder hidden"}


def _run(
    tmp_path: Path,
    results: list[Any] = PASSING,
    *,
    corpus: tuple[str, str] = CORPUS,
    coverage: dict[str, str] | None = None,
    sandbox: dict[str, str] | None = None,
) -> tuple[Path, dict[str, Any]]:
    """A fixture run, its run.json given the new fields as the harness would write them;
    the report built from the folder (what `pokercert report` does)."""
    folder = write_run(tmp_path, results, corpus=corpus)
    if coverage is not None or sandbox is not None:
        data = json.loads((folder / "run.json").read_text(encoding="utf-8"))
        if coverage is not None:
            data["measured_identity"] = {
                "kind": "exec",
                "digest": "ab" * 32,
                "files": [],
                "distributions": [],
                "identity_files": [],
                "problems": [],
                "coverage": coverage,
                "cost": {"files": 0, "bytes": 0, "seconds": 0.0},
            }
        if sandbox is not None:
            data["sandbox"] = sandbox
        (folder / "run.json").write_text(json.dumps(data), encoding="utf-8")
    header = read_header(folder)
    if sandbox is not None:  # (a RunHeader of before the field drops unknown keys)
        header.sandbox = sandbox  # type: ignore[attr-defined]
        from pokercert.harness.run.results import read_results

        report = seal(report_of(header, list(read_results(folder))))
    else:
        report = seal(build_report(folder))
    return folder, report


def _views(report: dict[str, Any]) -> dict[str, str]:
    return {
        "markdown": render_markdown.render(report),
        "html": render_html.render(report),
        "junit": render_junit.render(report),
    }


def _summary(
    report: dict[str, Any], folder: Path, capsys: pytest.CaptureFixture[str], exit_code: int = 0
) -> str:
    header = read_header(folder)
    from pokercert.harness.run.results import read_results

    print_summary(header, count(read_results(folder)), folder, exit_code, False, report, True)
    return capsys.readouterr().out


# ----------------------------------------------------------------------------- corpus
def test_a_published_corpus_is_named_as_published_and_certifies(tmp_path):
    _, report = _run(tmp_path)
    assert report["covers"]["corpus"] == {
        "version": "1.11.0",
        "sha256": PUBLISHED,
        "status": "published",
        "published_sha256": PUBLISHED,
        "words": f"corpus 1.11.0 (published release, sha256 {PUBLISHED[:16]})",
    }
    assert report["verdict"] == "CERTIFIED"


def test_a_modified_corpus_says_so_in_every_format_and_certifies_nothing(tmp_path, capsys):
    """Every vector passed, but the corpus's files are not the published 1.11.0: each
    ruleset that applies is NOT CERTIFIED with the corpus as its first reason (the not
    applicable one stays not applicable), and every view and the summary name it."""
    folder, report = _run(tmp_path, corpus=("1.11.0", EDITED))
    assert report["counts"]["FAIL"] == 0
    assert report["covers"]["corpus"]["status"] == "modified"
    assert report["covers"]["corpus"]["words"] == MODIFIED_WORDS
    assert report["verdict"] == "NOT CERTIFIED" and report["exit_code"] == 1
    verdicts = {r["id"]: (r["verdict"], r["reasons"][0]) for r in report["rulesets"]}
    assert verdicts[H5] == verdicts[H3] == ("NOT CERTIFIED", MODIFIED_WORDS)
    assert verdicts[LOW][0] == "NOT APPLICABLE"
    for name, text in _views(report).items():
        assert MODIFIED_WORDS in text, name
        assert "CERTIFIED" in text and "✅ CERTIFIED" not in text, name
    md = render_markdown.render(report)
    assert md.splitlines()[0].startswith("# ❌ NOT CERTIFIED")
    assert f"> **Warning:** {MODIFIED_WORDS}: not certified under that version's name" in md
    props = {
        p.get("name"): p.get("value")
        for p in ET.fromstring(render_junit.render(report)).iter("property")
    }
    assert props["corpus_status"] == "modified" and props["overall_verdict"] == "NOT CERTIFIED"
    out = _summary(report, folder, capsys)
    assert f"WARNING: {MODIFIED_WORDS}" in out
    assert out.rstrip().splitlines()[-1] == (
        f"NOT CERTIFIED: {folder / 'report.html'} (run exit code 0: no failure beyond what "
        "the expectations file predicts)"
    )


def test_a_version_no_release_has_is_an_unpublished_corpus(tmp_path):
    _, report = _run(tmp_path, corpus=("1.99.0", PUBLISHED))
    assert report["covers"]["corpus"]["status"] == "unpublished"
    assert report["covers"]["corpus"]["words"] == (
        f"unpublished corpus (digest {PUBLISHED[:16]}; 1.99.0 is not a release this "
        "pokercert knows)"
    )
    assert report["verdict"] == "NOT CERTIFIED"


def test_a_report_that_calls_a_modified_corpus_published_is_refused(tmp_path):
    """The corpus status is a conclusion: re-derived by verify's consistent check from the
    identification and the verifier's release registry.  Claiming the corpus published
    (and the verdict CERTIFIED, digest recomputed) is a contradiction."""
    _, report = _run(tmp_path, corpus=("1.11.0", EDITED))
    forged = json.loads(json.dumps(report))
    forged["covers"]["corpus"].update(
        status="published",
        published_sha256=EDITED,
        words=f"corpus 1.11.0 (published release, sha256 {EDITED[:16]})",
    )
    forged["verdict"], forged["exit_code"] = "CERTIFIED", 0
    for row in forged["rulesets"]:
        if row["verdict"] == "NOT CERTIFIED":
            row["verdict"], row["reasons"] = "CERTIFIED", row["reasons"][1:]
    forged["digest"] = compute_digest(forged)
    path = tmp_path / "forged.json"
    path.write_bytes(canonical_bytes(forged))
    checks, loaded = verify_report(path)
    consistent = next(c for c in checks if c.name == "consistent")
    assert consistent.status == FAILED
    assert f"says CERTIFIED, its vectors give NOT CERTIFIED ({MODIFIED_WORDS}" in consistent.detail
    found = conclude(checks, loaded)
    assert not found.genuine and found.words.startswith("NOT GENUINE: consistent: ")


# ----------------------------------------------------------------------------- coverage
def test_the_block_says_not_recorded_for_a_run_without_the_new_fields(tmp_path, capsys):
    folder, report = _run(tmp_path)
    assert report["identification"]["sandbox"] is None
    assert report["covers"]["identity"]["scope"] == "not recorded"
    assert report["covers"]["sandbox"]["mode"] == "not recorded"
    assert report["covers"]["challenge_seed"] is None  # (PASSING has no challenge)
    for name, text in [*_views(report).items(), ("terminal", _summary(report, folder, capsys))]:
        assert (
            "not recorded: run.json does not say what the measured identity covers (a "
            "run made before the harness recorded it)" in text
        ), name
        assert (
            "not recorded: run.json does not say how the evaluator was sandboxed (a run "
            "made before the harness recorded it)" in text
        ), name


def test_the_block_shows_coverage_sandbox_and_seed_with_the_warning_up_front(tmp_path, capsys):
    folder, report = _run(tmp_path, coverage=COVERAGE, sandbox=SANDBOX)
    assert report["covers"]["identity"] == COVERAGE
    assert report["covers"]["sandbox"] == SANDBOX
    assert report["identification"]["sandbox"] == SANDBOX
    identity = f"{COVERAGE['scope']}: {COVERAGE['hashed']}"
    sandbox = f"{SANDBOX['mode']}: {SANDBOX['reason']}"
    views = _views(report)
    md, page = views["markdown"], views["html"]
    assert f"| Identity | {identity} |" in md and f"| Sandbox | {sandbox} |" in md
    head = md.split("## Rulesets")[0]  # the warning comes before the rulesets
    assert f"> **Warning:** identity: {COVERAGE['warning']}" in head
    assert (
        f'<p class="warning"><strong>Warning:</strong> identity: {COVERAGE["warning"]}'
        in page.split('<h2 id="rulesets">')[0]
    )
    assert f"<dt>Sandbox</dt><dd>{sandbox}</dd>" in page
    props = {p.get("name"): p.get("value") for p in ET.fromstring(views["junit"]).iter("property")}
    assert props["covers_identity"] == identity and props["covers_sandbox"] == sandbox
    assert props["covers_identity_warning"] == COVERAGE["warning"]
    assert props["covers_warning"] == f"identity: {COVERAGE['warning']}"
    out = _summary(report, folder, capsys)
    assert f"  identity: {identity}" in out and f"  sandbox: {sandbox}" in out
    assert f"WARNING: identity: {COVERAGE['warning']}" in out


def test_the_challenge_seed_is_in_the_block(tmp_path):
    from tests.helpers.reports_fixtures import CHALLENGE, FRESH_KICKER, TWIN_WHEEL

    folder = write_run(tmp_path, [*PASSING, TWIN_WHEEL, FRESH_KICKER], challenge=CHALLENGE)
    report = seal(build_report(folder))
    assert report["covers"]["challenge_seed"] == 7
    assert "| Challenge seed | 7 |" in render_markdown.render(report)


# ----------------------------------------------------------------------------- escaping
def _invisible(text: str) -> list[str]:
    return sorted(
        {
            f"U+{ord(c):04X}"
            for c in text
            if c not in "\n\t" and (unicodedata.category(c) in ("Cc", "Cf", "Cs", "Zl", "Zp"))
        }
    )


def test_every_string_of_the_block_is_escaped_in_every_format(tmp_path, capsys):
    """The hashed sentence names the vendor's files and the sandbox's reason may quote
    them: the hostile adapter's text in each is escaped in Markdown, HTML, JUnit and the
    terminal, and can add no line, heading, tag or link."""
    hostile = {"scope": HOSTILE, "hashed": HOSTILE, "warning": HOSTILE}
    folder, report = _run(
        tmp_path, FAILING, coverage=hostile, sandbox={"mode": HOSTILE, "reason": HOSTILE}
    )
    assert report["covers"]["identity"]["warning"] == HOSTILE  # JSON: the text itself
    write_default_reports(folder)  # refuses nothing: the report is genuine
    views = _views(report)
    md = views["markdown"]
    block = md.split("## What this certificate covers")[1].split("## Rulesets")[0]
    assert not re.findall(r"(?<!\\)<\s*/?\s*(?!br\b)[A-Za-z]", block)
    assert not re.findall(r"(?<!\\)[`\[&]", block)
    assert not any(re.match(r"\s*#+\s*CERTIFIED", line) for line in md.splitlines())
    for row in [line for line in block.splitlines() if line.startswith("|")]:
        assert len(re.findall(r"(?<!\\)\|", row)) == 3, row
    page = views["html"]
    assert "<script>" not in page and "<img" not in page and "&lt;script&gt;" in page
    raw = views["junit"]
    ET.fromstring(raw.encode("utf-8"))
    for name, text in [*views.items(), ("terminal", _summary(report, folder, capsys))]:
        assert _invisible(text) == [], name
        assert "\\u202e" in text, name
    terminal = _summary(report, folder, capsys)
    assert not any(line.lstrip().startswith("# CERTIFIED") for line in terminal.splitlines())
    assert "</td></table><script>alert(1)</script>\\n# CERTIFIED" in terminal
