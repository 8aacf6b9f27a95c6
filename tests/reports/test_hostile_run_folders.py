"""A vendor hands the lab a run folder it wrote itself (the trust model: every evaluator
is adversarial, and so is its run folder).  Every one of these folders was once read
with a traceback, read forever, or shown as if it were something else; each must be
refused with a message naming the file (and line), by the report and by the site alike.
"""

from __future__ import annotations

import html
import json
import os
import re
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from pokercert.harness.run.results import Outcome
from pokercert.reports.canonical import ReportError
from pokercert.reports.model import build_report
from tests.helpers.reports_fixtures import H5, r, rehash, write_run

FAILED = r(
    "h5-wheel-001",
    H5,
    "classify",
    Outcome.FAIL,
    {"hand": "5d 4c 3h 2s Ad"},
    {"category": "straight"},
    {"category": "high_card"},
    ("13:69F-14.3(b)6",),
    ("wheel",),
    "A-2-3-4-5 is the lowest straight.",
)


def _edited(folder: Path, **fields: object) -> Path:
    """A run folder of one failed vector whose result line holds ``fields`` instead, its
    hash in run.json made to match (as a vendor rewriting both files would)."""
    write_run(folder, [FAILED])
    path = folder / "results.jsonl"
    line = json.loads(path.read_text(encoding="utf-8"))
    line.update(fields)
    path.write_text(json.dumps(line) + "\n", encoding="utf-8")
    rehash(folder)
    return folder


# each field of a result line, holding a JSON value of another type than the harness
# writes (the answers and inputs are objects, the words strings, the tags lists of strings)
WRONG_TYPES = [
    ("expected", [1, 2]),
    ("expected", "straight"),
    ("actual", ["high_card"]),
    ("actual", "high_card"),
    ("inputs", ["5d 4c 3h 2s Ad"]),
    ("readings", ["practice"]),
    ("message", 5),
    ("stderr", ["boom"]),
    ("why", {"a": 1}),
    ("clauses", "13:69F-14.3(b)6"),
    ("flags", [1]),
    ("origin", 7),
    ("vector_id", None),
    ("ruleset", ["nj"]),
]


@pytest.mark.parametrize(
    "name,value", WRONG_TYPES, ids=[f"{n}-{type(v).__name__}" for n, v in WRONG_TYPES]
)
def test_a_result_field_of_another_type_is_refused_naming_the_line(tmp_path, name, value):
    folder = _edited(tmp_path / "run", **{name: value})
    with pytest.raises(ReportError, match=r"results\.jsonl:1: .*" + name):
        build_report(folder)


# ------------------------------------------------------------------------------- the site
def _installed_corpus() -> tuple[str, str]:
    from pokercert.vectors.corpus import load_corpus

    corpus = load_corpus()
    return corpus.version, corpus.sha256


def _site_of(tmp_path: Path, *runs: Path) -> Path:
    from pokercert.reports.site.build import build_site

    build_site(tmp_path / "site", list(runs))
    return tmp_path / "site"


def _site_command(out: Path, folder: Path) -> subprocess.CompletedProcess[str]:
    """``pokercert site`` in a child held to 1 GB of memory and 60 s (a link to
    /dev/zero was once read until the machine's memory ran out)."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    return subprocess.run(
        [sys.executable, "-m", "pokercert.cli", "site", "--no-reference", str(out), str(folder)],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=limit,
        check=False,
    )


@pytest.mark.parametrize("name", ["results.jsonl", "run.json"])
def test_the_site_refuses_a_run_file_that_is_a_link_out_of_the_folder(tmp_path, name):
    """results.jsonl -> /dev/zero was read until memory ran out (one line, never ending);
    a link to another folder's file is not this run's either."""
    folder = write_run(tmp_path / "run", [FAILED], corpus=_installed_corpus())
    target = tmp_path / "elsewhere"
    (folder / name).rename(target)
    (folder / name).symlink_to("/dev/zero" if name == "results.jsonl" else target)
    done = _site_command(tmp_path / "site", folder)
    assert done.returncode == 1, done.stderr[-1500:]
    assert "Traceback" not in done.stderr
    assert f"{folder / name}: a symbolic link" in done.stderr


def test_the_site_refuses_a_run_file_that_is_not_a_regular_file(tmp_path):
    """A FIFO for results.jsonl: its reader waited for a writer forever."""
    folder = write_run(tmp_path / "run", [FAILED], corpus=_installed_corpus())
    (folder / "results.jsonl").unlink()
    os.mkfifo(folder / "results.jsonl")
    done = _site_command(tmp_path / "site", folder)
    assert done.returncode == 1, done.stderr[-1500:]
    assert f"{folder / 'results.jsonl'}: not a regular file" in done.stderr


def test_the_site_refuses_a_run_of_another_corpus(tmp_path):
    """Its outcomes are of the vectors of that corpus: shown beside the vectors of the
    installed one (same ids, other hands) they would say what was never tested."""
    version = _installed_corpus()[0]
    for i, corpus in enumerate([("1.11.0", "f" * 64), (version, "0" * 64)]):
        folder = write_run(tmp_path / f"run{i}", [FAILED], corpus=corpus)
        with pytest.raises(ReportError, match=f"run{i}.*corpus {corpus[0]}.*{version}"):
            _site_of(tmp_path, folder)


WRONG_HEADER = [
    ("evaluator", ["acme"]),
    ("profile", "practice"),
    ("selected", "many"),
    ("rulesets", "nj-poker-high-5"),
    ("adapter_spec", ["exec:x"]),
    ("results_lines", "1"),
    ("lab", ["x"]),
    ("capabilities", []),
]


@pytest.mark.parametrize("name,value", WRONG_HEADER, ids=[n for n, _ in WRONG_HEADER])
def test_a_run_header_field_of_another_type_is_refused_naming_it(tmp_path, name, value):
    """A list for the evaluator, a word for the profile or the selected count: each was
    a traceback in the report and the site (AttributeError, TypeError)."""
    folder = write_run(tmp_path / "run", [FAILED])
    path = folder / "run.json"
    head = json.loads(path.read_text(encoding="utf-8"))
    head[name] = value
    path.write_text(json.dumps(head), encoding="utf-8")
    with pytest.raises(ReportError, match=r"run\.json: .*" + name):
        build_report(folder)


def test_a_verdict_on_part_of_a_ruleset_says_how_small_a_part(tmp_path):
    """One forged passing line of nj-holdem, its selection recorded to match: the report
    calls nj-holdem CERTIFIED on 1 vector, and the site's matrix said "CERTIFIED 1/1
    passed" beside a ruleset of hundreds of vectors."""
    from pokercert.harness.run.results import read_header, write_header
    from pokercert.harness.run.selection import ids_digest
    from pokercert.vectors.corpus import load_corpus

    corpus = load_corpus()
    vector = next(v for v in corpus.vectors if v.ruleset == "nj-holdem")
    total = sum(v.ruleset == "nj-holdem" for v in corpus.vectors)
    line = r(
        vector.id,
        "nj-holdem",
        str(vector.kind),
        Outcome.PASS,
        dict(vector.inputs),
        {"x": 1},
        {"x": 1},
        ("13:69F-14.10",),
        (),
        "forged",
    )
    folder = write_run(
        tmp_path / "run",
        [line],
        corpus=(corpus.version, corpus.sha256),
        rulesets=["nj-holdem"],
        selected=[],
    )
    head = read_header(folder)
    head.selected, head.selected_by_ruleset = 1, {"nj-holdem": 1}
    head.selected_ids_sha256 = ids_digest([vector.id])
    write_header(folder, head)
    home = (_site_of(tmp_path, folder) / "index.html").read_text(encoding="utf-8")
    assert f"only 1 of the corpus&#39;s {total} vectors" in home


def test_a_huge_answer_is_shown_cut_in_every_view(tmp_path):
    """An answer of a million characters was copied whole into report.html (twice: the
    answer and its plain reading) and into the site's page: a reviewer's browser was
    handed megabytes per finding.  Every view shows its head and how much was left out
    (the JSON report keeps it whole)."""
    from pokercert.reports.formats import render
    from pokercert.reports.output import load

    huge = "A" * 1_000_000
    bad = FAILED._replace(actual={"category": huge}, message="M" * 1_000_000)
    folder = write_run(tmp_path / "run", [bad], corpus=_installed_corpus())
    report = load(folder)
    assert report["failures"][0]["actual"]["category"] == huge
    page = render(report, "html").decode("utf-8")
    assert len(page) < 100_000 and "characters omitted" in page
    assert len(render(report, "markdown").decode("utf-8")) < 65_536
    cell = _site_of(tmp_path, folder) / "evaluators" / "e1" / f"{H5}.html"
    assert cell.stat().st_size < 100_000


def test_a_forged_report_json_in_the_folder_changes_nothing_on_the_site(tmp_path):
    """report.json is the vendor's to rewrite: the site builds each column from the
    results the harness hashed, so a report.json saying CERTIFIED over a failed vector
    shows NOT CERTIFIED (a regression guard: this held on main)."""
    from pokercert.reports.output import write_default_reports

    folder = write_run(tmp_path / "run", [FAILED], corpus=_installed_corpus())
    write_default_reports(folder)
    forged = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    forged["verdict"] = "CERTIFIED"
    for row in forged["rulesets"]:
        row["verdict"] = "CERTIFIED"
    (folder / "report.json").write_text(json.dumps(forged), encoding="utf-8")
    home = (_site_of(tmp_path, folder) / "index.html").read_text(encoding="utf-8")
    matrix = home[home.index('id="matrix-table"') : home.index('id="rulesets"')]
    assert "NOT CERTIFIED" in matrix and ">CERTIFIED<" not in matrix


def test_a_forged_seed_cannot_add_a_shell_command_to_a_replay_line(tmp_path):
    """run.json's challenge seed went unquoted into the replay command every view prints
    for a reviewer to paste: ``--challenge-seed 1 ; touch PWNED #`` ran a second
    command.  Split as a shell would, every replay line is one pokercert command."""
    import shlex

    from pokercert.reports.formats import render
    from pokercert.reports.output import load
    from pokercert.reports.site.data import read_evaluator
    from pokercert.reports.site.pages import replay

    evil = "1 ; touch PWNED #"
    folder = write_run(
        tmp_path / "run",
        [FAILED._replace(origin="fresh:x")],
        corpus=_installed_corpus(),
        challenge={"seed": evil, "fresh_per_ruleset": "2 && id"},
        modes={
            "fuzz": {"seed": "3 | sh", "examples": "4`id`"},
            "exhaustive": {"order_seed": "$(id)"},
        },
    )
    report = load(folder)
    lines = [replay(read_evaluator("e1", folder), H5, report["failures"][0])]
    for fmt in ("html", "markdown"):  # each view's text as a reader copies it
        text = render(report, fmt).decode("utf-8")
        text = html.unescape(text) if fmt == "html" else re.sub(r"\\(.)", r"\1", text)
        lines += [m.split(").")[0] for m in text.split("replay: ")[1:]]
    for block in report["modes"].values():
        lines.append("pokercert run " + block["replay"])
    assert len(lines) >= 6  # the site, the challenge line of each view, the modes
    for line in lines:
        words = shlex.split(line, comments=True)
        assert not {";", "&&", "|", "#"} & set(words), line
        assert evil in words or "PWNED" not in line, line


def test_two_runs_declared_alike_are_two_columns_told_apart(tmp_path):
    """Two run folders of one vendor name, version and adapter spec: two columns whose
    heads read the same, and the evaluator's page named itself "SiteEvaluator"."""
    one = write_run(tmp_path / "monday", [FAILED], corpus=_installed_corpus())
    two = write_run(tmp_path / "tuesday", [FAILED], corpus=_installed_corpus())
    site = _site_of(tmp_path, one, two)
    home = (site / "index.html").read_text(encoding="utf-8")
    heads = re.findall(r"<th><span class=\"evname\".*?</th>", home)
    assert len(heads) == 2 and heads[0] != heads[1]
    assert "monday" in heads[0] and "tuesday" in heads[1]
    cell = (site / "evaluators" / "e2" / f"{H5}.html").read_text(encoding="utf-8")
    assert "SiteEvaluator" not in cell and "e2 · tuesday" in cell
