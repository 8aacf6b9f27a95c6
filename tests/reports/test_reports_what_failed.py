"""A report that is not CERTIFIED says first, in plain words, what failed, and how to run
it again (walk28: a newcomer who planted one bug read the verdict box, then had to
scroll past the covers, rulesets, challenge and clause tables to learn what it was, and
no finding said how to replay it, though README's quick start promises a replay command).

The fixture's failing run (tests.helpers.reports_fixtures) holds, among others, the wheel
A-2-3-4-5 answered high card (h5-wheel-001) and its challenge twin (h5-challenge-7-00001,
seed 7, challenge size 1), through the adapter py:acme_fives.pokercert:AcmeEvaluator
under the practice profile: the expected words below are worked from those facts."""

from __future__ import annotations

import re

from pokercert.reports.output import load, render
from tests.helpers.reports_fixtures import make_runs

ADAPTER = "py:acme_fives.pokercert:AcmeEvaluator"
WHEEL = (
    "a straight was called a high card: 2 findings (nj-poker-high-5, clause "
    "13:69F-14.3(b)6); e.g. pokercert vectors show h5-wheel-001: A-2-3-4-5 is the lowest "
    "straight."  # the vector's Why: the rule the reading alone does not state
)
RUN_H5 = f"pokercert run --adapter {ADAPTER} --profile practice --ruleset nj-poker-high-5"


def _failing(tmp_path):
    return load(make_runs(tmp_path / "runs")["failing"])


def test_markdown_opens_with_what_failed_and_the_command_to_run_it_again(tmp_path):
    md = render(_failing(tmp_path), "markdown").decode()
    head = md[: md.index("## What this certificate covers")]
    assert "**What failed, in plain words:**" in head
    # the two wheel findings (the curated vector and its twin) are one line, first
    assert head.index("- a straight was called a high card") < head.index("- a high card")
    assert "- " + WHEEL + "\n" in head
    # both failing rulesets, and the challenge seed because a twin failed
    assert (
        "```sh\n" + RUN_H5 + " --ruleset nj-poker-high-3 --challenge-seed 7 --challenge 1\n```"
    ) in head


def test_a_passing_report_has_no_such_section(tmp_path):
    runs = make_runs(tmp_path / "runs")
    md = render(load(runs["passing"]), "markdown").decode()
    page = render(load(runs["passing"]), "html").decode()
    assert "What failed" not in md and "what-failed" not in page


def _detail_of(page: str, vector: str) -> str:
    """The detail row that follows a finding's row in the HTML."""
    start = page.index(f'id="v-{vector}"')
    found = re.search(r'<tr class="failure-detail">(.*?)</tr>', page[start:], re.S)
    assert found
    return found.group(1)


def test_html_says_what_failed_in_the_verdict_box_and_each_finding_its_replay(tmp_path):
    page = render(_failing(tmp_path), "html").decode()
    box = page[page.index('<section class="verdict') : page.index("</section>")]
    # the clause label marked up as in the findings table (kept on one line)
    label = "13:69F-14.3(b)6"
    item = WHEEL.replace(label, f'<code class="label">{label}</code>')
    assert 'id="what-failed"' in box and f"<li>{item}</li>" in box
    # a curated vector replays with its ruleset; its challenge twin needs the seed too
    assert f"<strong>Replay</strong> <code>{RUN_H5}</code>" in _detail_of(page, "h5-wheel-001")
    assert (
        f"<strong>Replay</strong> <code>{RUN_H5} --challenge-seed 7 --challenge 1</code>"
        in _detail_of(page, "h5-challenge-7-00001")
    )
    assert "--ruleset nj-poker-high-3</code>" in _detail_of(page, "h3-royal-001")


def test_markdown_findings_put_each_twin_under_the_vector_it_copies(tmp_path):
    # the fixture's results list the wheel's challenge twin before the wheel itself; the
    # HTML already grouped them (issue 28 item 5), the Markdown kept the results' order
    md = render(_failing(tmp_path), "markdown").decode()
    table = md[md.index("## Findings") :].split("\n\n")[2].splitlines()[2:]
    ids = [row.split(" | ")[0].lstrip("| ") for row in table]
    # (the fixture's ids do not start with their ruleset, so the view puts it before them)
    assert ids[:3] == [
        "nj-poker-high-5 h5-wheel-001",
        "nj-poker-high-5 h5-challenge-7-00001",
        "nj-poker-high-5 h5-wrap-001",
    ]
