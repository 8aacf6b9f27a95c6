"""The HTML report in a real browser: the verdict and the failure rows are on screen.

Headless Chromium loads a copy of the report with one probe script appended (the report
itself has no script); the probe measures what the layout engine actually drew: the
verdict inside the first screen, each failure row with a visible, non-empty box, and
no resource fetched from anywhere.  Skipped, saying why, only when chromium is absent
(``.ci/run`` installs Debian's ``chromium``).
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess

import pytest

from pokercert.reports.output import load, render
from tests.helpers.reports_fixtures import make_runs

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="chromium is not installed (apt-get install -y chromium)"
)

PROBE = """<script>
(function () {
  function shown(el) {
    if (!el) return false;
    var r = el.getBoundingClientRect(), s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility === "visible" && s.display !== "none"
      && parseFloat(s.opacity) > 0;
  }
  var verdict = document.getElementById("overall-verdict");
  var rows = Array.prototype.slice.call(document.querySelectorAll("tr.failure"));
  var out = {
    verdict: verdict ? verdict.textContent : null,
    verdict_on_first_screen: shown(verdict) &&
      verdict.getBoundingClientRect().bottom <= window.innerHeight,
    what_failed: (function (box) {
      return box ? {first_screen: shown(box) &&
                      box.getBoundingClientRect().bottom <= window.innerHeight,
                    lines: Array.prototype.slice.call(box.querySelectorAll("li")).map(
                      function (li) { return li.textContent; }),
                    labels: box.querySelectorAll("code.label").length,
                    unbroken: Array.prototype.slice.call(
                      box.querySelectorAll("code.label")).every(function (el) {
                        return el.getClientRects().length === 1; })} : null;
    })(document.getElementById("what-failed")),
    rows: rows.map(function (tr) {
      return {id: tr.cells[0].querySelector("code").textContent,
              outcome: tr.cells[1].querySelector(".badge").textContent,
              shown: shown(tr), text: tr.innerText,
              twin: tr.classList.contains("twin"),
              plain: tr.nextElementSibling.querySelector(".plain").textContent,
              unbroken: Array.prototype.slice.call(
                tr.querySelectorAll("code.label, .hand, .card")).every(function (el) {
                  return el.getClientRects().length === 1; }),
              cards: tr.querySelectorAll(".card").length};
    }),
    resources: performance.getEntriesByType("resource").length
  };
  var pre = document.createElement("pre");
  pre.id = "probe-result";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>"""


def dump_dom(html_path, profile_dir) -> str:
    result = subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            f"--user-data-dir={profile_dir}",
            "--window-size=1280,900",
            "--dump-dom",
            html_path.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout


def probe(tmp_path, run: str) -> dict:
    report = load(make_runs(tmp_path / "runs")[run])
    page = render(report, "html").decode()
    page_path = tmp_path / "probed.html"
    page_path.write_text(page.replace("</body>", PROBE + "\n</body>"), encoding="utf-8")
    dom = dump_dom(page_path, tmp_path / "chromium-profile")
    found = re.search(r'<pre id="probe-result">(.*?)</pre>', dom, re.S)
    assert found, dom[-2000:]
    return json.loads(html.unescape(found.group(1)))


def test_failing_report_on_screen(tmp_path):
    seen = probe(tmp_path, "failing")
    assert seen["verdict"] == "NOT CERTIFIED"
    assert seen["verdict_on_first_screen"]
    assert seen["resources"] == 0
    assert [(r["id"], r["outcome"]) for r in seen["rows"]] == [
        ("h5-wheel-001", "FAIL"),
        ("h5-challenge-7-00001", "FAIL"),  # the wheel's challenge twin, under it
        ("h5-wrap-001", "FAIL"),
        ("h5-suits-001", "XPASS"),
        ("h5-quads-001", "TIMEOUT"),
        ("h5-fullhouse-001", "ERROR"),
        ("h5-reject-dup-001", "WRONG_REASON"),
        ("h3-royal-001", "CRASH"),
        ("h3-straight-001", "XFAIL"),
    ]
    assert all(r["shown"] for r in seen["rows"])
    wheel, twin = seen["rows"][0], seen["rows"][1]
    assert "13:69F-14.3(b)6" in wheel["text"] and "category: high_card" in wheel["text"]
    assert twin["twin"] and not wheel["twin"] and "challenge twin of h5-wheel-001" in twin["text"]
    # issue 28 item 5: the plain reading of the wheel (A-2-3-4-5 answered high card)
    assert wheel["plain"] == "a straight was called a high card"
    # every clause label, hand and card is on one line, and the hands are drawn as cards
    # (the wheel's five input cards at least), the ace of diamonds with its suit symbol
    assert all(r["unbroken"] for r in seen["rows"])
    assert wheel["cards"] >= 5 and "A♦" in wheel["text"]
    # walk28: what failed, in plain words, without scrolling: the wheel and its twin are
    # one line, the first (two findings; every other reading has one)
    assert seen["what_failed"]["first_screen"]
    assert seen["what_failed"]["lines"][0].startswith("a straight was called a high card: 2 ")
    assert seen["what_failed"]["labels"] >= 8 and seen["what_failed"]["unbroken"]


def test_passing_report_on_screen(tmp_path):
    seen = probe(tmp_path, "passing")
    assert seen["verdict"] == "CERTIFIED" and seen["verdict_on_first_screen"]
    assert seen["rows"] == [] and seen["what_failed"] is None
