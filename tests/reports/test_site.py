"""The conformance site (issue 30): built from the corpus, a real pokerkit run and a hostile
run folder; every page checked by an HTML parser, nothing from a run folder interpreted.

The pokerkit facts are the pinned peer's (pokerkit 0.7.7, the test extra): on
nj-mini-tex-3 it values a hand of three board cards alone (``As Ks Qs``), which the
ruleset forbids (a player must use their hole cards), and names the straight flush of the
board; the corpus expects the best hand the rules allow, a high card.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from html.parser import HTMLParser
from pathlib import Path

import pytest

from pokercert.harness.run.results import Outcome
from pokercert.reports.site.build import build_site
from pokercert.vectors.corpus import load_corpus
from tests.helpers.reports_fixtures import H5, r, write_run

html5lib = pytest.importorskip("html5lib", reason="html5lib is in the test extra")

SCRIPT = "<script>alert('{}')</script>"
# the one script element a page may hold: the site's own filter script
OWN_SCRIPT = re.compile(r'<script src="(?:\.\./)*site\.js" defer></script>')
VOID = {
    "area",
    "base",
    "br",
    "col",
    "embed",
    "hr",
    "img",
    "input",
    "link",
    "meta",
    "source",
    "track",
    "wbr",
}


class _Balance(HTMLParser):
    """Every element closed explicitly, in order (our pages never rely on implied ends)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []
        self.problems: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag not in VOID:
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.open or self.open[-1] != tag:
            self.problems.append(f"</{tag}> at {self.getpos()} closes {self.open[-1:]}")
        else:
            self.open.pop()


def html_problems(page: str) -> list[str]:
    """Parse errors (html5lib, strict) and elements left open or closed out of order."""
    try:
        html5lib.HTMLParser(strict=True).parse(page)
    except Exception as exc:  # html5lib raises ParseError with the first error
        return [f"html5lib: {exc}"]
    balance = _Balance()
    balance.feed(page)
    balance.close()
    return balance.problems + [f"never closed: {t}" for t in balance.open]


def test_the_checker_catches_what_it_should():
    good = (
        '<!DOCTYPE html><html lang="en"><head><title>t</title></head><body><p>a<br>b</p>'
        "</body></html>"
    )
    assert html_problems(good) == []
    assert html_problems(good.replace("</p>", ""))  # implied end: refused
    assert html_problems(good.replace("<br>", "<span>"))  # unclosed span
    assert html_problems(good.replace("<p>a", "<p>a</b>"))  # stray end tag


def hostile_run(folder: Path) -> Path:
    """A run folder whose vendor, adapter spec, answers, message and stderr hold markup."""
    bad = r(
        "h5-wheel-001",
        H5,
        "classify",
        Outcome.FAIL,
        {"hand": "5d 4c 3h 2s Ad"},
        {"category": "straight"},
        {"category": SCRIPT.format("actual")},
        ("13:69F-14.3(b)6",),
        ("wheel",),
        "A-2-3-4-5 is the lowest straight.",
        message=SCRIPT.format("message"),
        stderr=SCRIPT.format("stderr") + "\n\x1b[31m",
    )
    corpus = load_corpus()  # the site refuses a run of another corpus
    write_run(folder, [bad], corpus=(corpus.version, corpus.sha256))
    run = json.loads((folder / "run.json").read_text(encoding="utf-8"))
    run["evaluator"] = {
        "vendor": SCRIPT.format("vendor"),
        "name": '"><img src=x onerror=1>',
        "version": "1",
        "build": "",
    }
    run["adapter_spec"] = "exec:" + SCRIPT.format("spec")
    (folder / "run.json").write_text(json.dumps(run), encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("site")
    pokerkit = root / "pokerkit-run"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pokercert.cli",
            "run",
            "--adapter",
            "pokerkit",
            "--ruleset",
            "nj-mini-tex-3",
            "--out",
            str(pokerkit),
            "--no-report",
            "--challenge-seed",
            "1",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1, done.stderr[-2000:]  # NOT CERTIFIED, finished
    out = root / "site"
    build_site(out, [pokerkit, hostile_run(root / "hostile-run")])
    return out


def test_home_shows_the_matrix(site):
    home = (site / "index.html").read_text(encoding="utf-8")
    matrix = home[home.index('id="matrix-table"') : home.index('id="rulesets"')]
    row = re.search(
        r'<tr><td><a href="rulesets/nj-mini-tex-3/index.html">.*?</tr>', matrix, re.S
    ).group(0)
    assert 'href="evaluators/e1/nj-mini-tex-3.html"' in row and "NOT CERTIFIED" in row
    assert row.count("not run") == 1  # the hostile run never selected it
    for rs in ("nj-holdem", "mt-poker-high", "nj-omaha-hi-lo"):
        assert f'href="rulesets/{rs}/index.html"' in home


def test_why_pokerkit_fails_nj_mini_tex_3(site):
    page = (site / "evaluators" / "e1" / "nj-mini-tex-3.html").read_text(encoding="utf-8")
    assert "a high card was called a straight flush" in page
    assert "pokercert run --adapter pokerkit --profile practice --ruleset nj-mini-tex-3" in page
    # the board's three spades drawn as cards, with their suit symbols
    assert '<span class="card s-s">A♠</span><span class="card s-s">K♠</span>' in page


def test_a_clause_page_draws_its_vectors_with_each_evaluators_outcome(site):
    folder = site / "rulesets" / "nj-poker-high-5"
    pages = sorted(folder.glob("clause-*.html"))
    assert len(pages) == len(
        __import__("pokercert.reference", fromlist=["x"]).get_ruleset("nj-poker-high-5").clauses
    )
    royal = next(p for p in pages if "14.3_b_1" in p.name)
    text = royal.read_text(encoding="utf-8")
    # the royal flush of spades, drawn: 10 J Q K A of spades in some order
    assert "10♠" in text and "A♠" in text and "royal_flush" in text
    # pokerkit did not run this ruleset, the hostile run did not select this vector
    assert text.count("not run") >= 2


def test_nothing_from_a_run_folder_is_markup(site):
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert "<script" not in OWN_SCRIPT.sub("", text), page
        assert "<img" not in text and "\x1b" not in text, page
    cell = (site / "evaluators" / "e2" / "nj-poker-high-5.html").read_text(encoding="utf-8")
    for where in ("vendor", "message", "stderr", "actual", "spec"):
        assert f"&lt;script&gt;alert(&#39;{where}&#39;)&lt;/script&gt;" in cell, where
    assert "\\x1b[31m" in cell


def test_pages_are_well_formed_html(site):
    """Every page but the clause pages (6,000 vectors' worth), and the first clause page
    of every ruleset: the same template makes them all."""
    chosen = [p for p in site.rglob("*.html") if not p.name.startswith("clause-")]
    chosen += [sorted(f.glob("clause-*.html"))[0] for f in (site / "rulesets").iterdir()]
    assert len(chosen) > 40
    for page in chosen:
        assert html_problems(page.read_text(encoding="utf-8")) == [], page


@pytest.mark.slow
def test_every_clause_page_is_well_formed_html(site):
    """Every clause page (the whole corpus drawn as cards), each run through the same
    strict check: a vector whose inputs or answers break the markup shows on its page."""
    pages = sorted(site.rglob("clause-*.html"))
    assert len(pages) > 250
    broken = {
        str(p.relative_to(site)): problems
        for p in pages
        if (problems := html_problems(p.read_text(encoding="utf-8")))
    }
    assert broken == {}


# ---------------------------------------------------------------- in a real browser
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="chromium is not installed (apt-get install -y chromium)"
)
# where the screenshots go: $POKERCERT_TEST_OUTPUT/site, else the temporary folder's
OUTPUT = (
    Path(
        os.environ.get("POKERCERT_TEST_OUTPUT")
        or Path(tempfile.gettempdir()) / "pokercert-test-output"
    )
    / "site"
)


def chromium(page: Path, profile: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            f"--user-data-dir={profile}",
            "--window-size=1280,900",
            "--enable-logging=stderr",
            "--v=0",
            *extra,
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@needs_chromium
@pytest.mark.parametrize(
    "name,page",
    [
        ("home", "index.html"),
        ("clause", "rulesets/nj-mini-tex-3/clause-01-13_69F-37.5_a.html"),
        ("pokerkit-on-nj-mini-tex-3", "evaluators/e1/nj-mini-tex-3.html"),
    ],
)
def test_pages_render_without_console_errors(site, tmp_path, name, page):
    OUTPUT.mkdir(parents=True, exist_ok=True)
    shot = OUTPUT / f"{name}.png"
    shot.unlink(missing_ok=True)
    done = chromium(site / page, tmp_path / "profile", f"--screenshot={shot}")
    assert done.returncode == 0, done.stderr[-2000:]
    console = [line for line in done.stderr.splitlines() if ":CONSOLE" in line]
    assert console == []
    assert shot.stat().st_size > 10_000  # a page was drawn, not a blank screen


FILTER_PROBE = """<script>
document.addEventListener("DOMContentLoaded", function () {
  setTimeout(function () {
    var box = document.querySelector("input[data-filter]");
    box.value = "royal_flush";
    box.dispatchEvent(new Event("input"));
    var rows = document.querySelectorAll("#vectors-table tbody > tr");
    var shown = Array.prototype.filter.call(rows, function (tr) { return !tr.hidden; });
    var pre = document.createElement("pre");
    pre.id = "probe-result";
    pre.textContent = rows.length + " " + shown.length + " " + shown.every(function (tr) {
      return tr.textContent.indexOf("royal_flush") >= 0; });
    document.body.appendChild(pre);
  }, 0);
});
</script>"""


@needs_chromium
def test_the_filter_box_hides_the_rows_without_the_words(site, tmp_path):
    royal = next((site / "rulesets" / "nj-poker-high-5").glob("clause-*14.3_b_1.html"))
    probed = royal.with_name("probed.html")
    probed.write_text(
        royal.read_text(encoding="utf-8").replace("</body>", FILTER_PROBE + "</body>"),
        encoding="utf-8",
    )
    done = chromium(probed, tmp_path / "profile", "--dump-dom")
    found = re.search(r'<pre id="probe-result">(\d+) (\d+) (true|false)</pre>', done.stdout)
    assert found, done.stdout[-2000:]
    total, shown, all_match = int(found[1]), int(found[2]), found[3]
    assert 0 < shown < total and all_match == "true"
