"""HTML view: one self-contained file a regulator opens in any browser.

No script, no network, no external asset: the style sheet is inlined from
``templates/report.css`` into ``templates/report.html``.  Order: the verdict, the
rulesets, the per-clause tables, the findings, then bug classes, what was not
applicable and the full identification.
"""

from __future__ import annotations

import html
from importlib import resources
from string import Template
from typing import Any

from pokercert.harness.run.results import Outcome
from pokercert.reports import plain
from pokercert.reports import text as T
from pokercert.reports.cards_html import CARDS_CSS, answer_html
from pokercert.reports.cards_html import esc as cards_esc


def _template(name: str) -> str:
    return (resources.files("pokercert.reports") / "templates" / name).read_text(encoding="utf-8")


def esc(value: Any) -> str:
    """Any value as HTML text: printable, then escaped."""
    return html.escape(T.printable(str(value)), quote=True)


def vendor_esc(value: Any) -> str:
    """A value the vendor controls (a message, a why, a reading of its answer) as
    :func:`esc`, cut to its head and tail when huge (:func:`cards_html.esc`)."""
    return cards_esc(value)


def slug(verdict_or_status: str) -> str:
    return verdict_or_status.lower().replace(" ", "-")


def badge(word: str, cls: str | None = None) -> str:
    return f'<span class="badge b-{esc(cls or slug(word))}">{esc(word)}</span>'


def table(
    headers: list[str],
    rows: list[list[str]],
    row_class: str = "",
    numeric: frozenset[int] = frozenset(),
) -> str:
    """An HTML table; cells are already escaped HTML."""
    head = "".join(f"<th>{esc(h)}</th>" for h in headers)
    cls = f' class="{row_class}"' if row_class else ""
    body = "\n".join(
        f"<tr{cls}>"
        + "".join(
            f'<td class="n">{c}</td>' if i in numeric else f"<td>{c}</td>" for i, c in enumerate(r)
        )
        + "</tr>"
        for r in rows
    )
    return f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{body}\n</tbody>\n</table>"


def _banner(report: dict[str, Any]) -> str:
    ident = report["identification"]
    lines = [
        f'<section class="verdict v-{slug(report["verdict"])}" id="verdict">',
        f'<h1 id="overall-verdict">{esc(report["verdict"])}</h1>',
        f"<p><strong>{vendor_esc(T.evaluator_line(ident))}</strong> through adapter "
        f"<code>{esc(ident['adapter_spec'])}</code>, profile "
        f"<code>{esc(ident['profile']['name'])}</code>, "
        f"{esc(T.corpus_line(report))}, pokercert {esc(ident['suite_version'])}.</p>",
        f"<p>Evaluator {esc(T.DECLARED_LABEL)}: {vendor_esc(T.evaluator_line(ident))}. "
        f"Identity {esc(T.MEASURED_LABEL)}: <code>{esc(T.measured_line(ident))}</code>"
        ".</p>",
        f"<p>Vectors: {esc(T.counts_line(report['counts']))}.</p>",
        *_what_failed(report),
    ]
    lab = T.lab_line(ident)
    if lab:
        lines.append(f'<p class="lab">{esc(lab)}</p>')
    for warning in T.covers_warnings(report):
        lines.append(f'<p class="warning"><strong>Warning:</strong> {esc(warning)}</p>')
    for reason in report["completeness"]["reasons"]:
        lines.append(f"<p><strong>Incomplete:</strong> {esc(reason)}</p>")
    lines.append("</section>")
    links = [
        ("covers", "What this covers"),
        ("rulesets", "Rulesets"),
        ("challenge", "Challenge"),
        *((f"mode-{m}", T.MODE_TITLES.get(m, m)) for m, _ in T.attached_modes(report)),
        ("clauses", "Clauses"),
        ("findings", f"Findings ({len(report['failures'])})"),
        ("flags", "Bug classes"),
        ("not-applicable", "Not applicable"),
        ("identification", "Identification"),
    ]
    lines.append("<nav>" + "".join(f'<a href="#{a}">{esc(t)}</a>' for a, t in links) + "</nav>")
    return "\n".join(lines)


def _what_failed(report: dict[str, Any]) -> list[str]:
    """The findings in plain words, a line per distinct reading, at the top: what a
    reader wants first from a report that is not CERTIFIED (the Findings section has each
    one in full)."""
    failures = report["failures"]
    if not failures:
        return []
    shown, rest = plain.what_failed_shown(failures)
    items = "".join(f"<li>{_what_failed_item(g)}</li>" for g in shown)
    items += f"<li>{esc(rest)}</li>" if rest else ""
    return [
        f'<div class="what-failed" id="what-failed"><strong>{esc(T.WHAT_FAILED_TITLE)}'
        f"</strong><ul>{items}</ul>"
        f"<p>Run them again: <code>{esc(T.failures_replay(report))}</code></p></div>"
    ]


def _what_failed_item(group: dict[str, Any]) -> str:
    """One line of What failed, each clause label kept on one line (as in the findings
    table)."""
    return "".join(
        f'<code class="label">{esc(text)}</code>' if label else vendor_esc(text)
        for text, label in plain.what_failed_parts(group)
    )


def _covers(report: dict[str, Any]) -> str:
    rows = "\n".join(
        f"<dt>{esc(what)}</dt><dd>{esc(words)}</dd>" for what, words in T.covers_rows(report)
    )
    return (
        f'<h2 id="covers">{esc(T.COVERS_TITLE)}</h2>\n<dl class="ident covers">\n{rows}\n'
        f'</dl>\n<p class="muted">{esc(T.COVERS_LEGEND)}</p>'
    )


def _rulesets(report: dict[str, Any]) -> str:
    rows = []
    for rs in report["rulesets"]:
        c = rs["counts"]
        run = sum(v for k, v in c.items() if k != Outcome.NOT_APPLICABLE)
        rows.append(
            [
                f"<code>{esc(rs['id'])}</code>",
                esc(rs["title"]),
                esc(T.citation_line(rs)),
                badge(rs["verdict"]),
                str(run),
                str(c[Outcome.PASS]),
                str(run - c[Outcome.PASS]),
                str(c[Outcome.NOT_APPLICABLE]),
                esc("; ".join(rs["reasons"])),
            ]
        )
    return (
        '<h2 id="rulesets">Rulesets</h2>\n'
        + table(
            [
                "Ruleset",
                "Game",
                "Citation (confidence)",
                "Verdict",
                "Run",
                "Passed",
                "Not passed",
                "Not applicable",
                "Why",
            ],
            rows,
            "ruleset",
            frozenset({4, 5, 6, 7}),
        )
        + f'\n<p class="muted" id="confidence-words">{esc(plain.CONFIDENCE_LEGEND)}</p>'
    )


def _challenge(report: dict[str, Any]) -> str:
    parts = ['<h2 id="challenge">Challenge</h2>', f"<p>{esc(T.challenge_line(report))}</p>"]
    rows = T.challenge_rows(report)
    if rows:
        parts.append(f'<p class="muted">{esc(T.CHALLENGE_LEGEND)}</p>')
        parts.append(
            table(
                T.CHALLENGE_HEADERS,
                [[f"<code>{esc(r[0])}</code>", *(str(x) for x in r[1:])] for r in rows],
                "challenge",
                frozenset(range(1, 8)),
            )
        )
    return "\n".join(parts)


def _modes(report: dict[str, Any]) -> str:
    """One section per attached mode (``run --fuzz N``, ``run --exhaustive``)."""
    parts = []
    for mode, block in T.attached_modes(report):
        parts += [
            f'<h2 id="mode-{esc(mode)}">{esc(T.MODE_TITLES.get(mode, mode))}</h2>',
            f"<p>{esc(T.mode_line(report, mode, block))}</p>",
            f'<p class="muted">{esc(T.MODE_LEGENDS.get(mode, ""))}</p>',
            table(
                T.MODE_HEADERS,
                [
                    [f"<code>{esc(r[0])}</code>", badge(r[1]), *(esc(str(x)) for x in r[2:])]
                    for r in T.mode_rows(block)
                ],
                "mode",
                frozenset({2, 3, 4}),
            ),
        ]
        found = T.mode_findings(report, mode)
        if found:
            parts += [
                f"<h3>Counterexamples ({len(found)})</h3>",
                table(
                    T.MODE_FINDING_HEADERS,
                    [[f"<code>{esc(r[0])}</code>", *(esc(x) for x in r[1:])] for r in found],
                    "finding",
                ),
            ]
    return "\n".join(parts)


def _clauses(report: dict[str, Any]) -> str:
    parts = [
        '<h2 id="clauses">Clauses</h2>',
        '<p class="muted">Every clause of each ruleset, with our one-line summary; the '
        "regulation's own text is authoritative.</p>",
    ]
    for rs in report["rulesets"]:
        rows = [
            [
                f"<code>{esc(c['label'])}</code>",
                esc(c["summary"]),
                badge(c["status"]),
                str(c["run"]),
                str(c["passed"]),
                str(c["failed"]),
                str(c["known_failures"]),
                str(c["not_applicable"]),
            ]
            for c in rs["clauses"]
        ]
        parts.append(
            f'<h3 id="clauses-{esc(rs["id"])}">{esc(rs["id"])}: {esc(T.citation_line(rs))}</h3>'
        )
        parts.append(
            table(
                [
                    "Clause",
                    "Rule (our summary)",
                    "Status",
                    "Run",
                    "Passed",
                    "Failed",
                    "Known",
                    "Not applicable",
                ],
                rows,
                "clause",
                frozenset({3, 4, 5, 6, 7}),
            )
        )
    return "\n".join(parts)


FINDING_HEADERS = ["Vector", "Outcome", "Clause", "Inputs", "Expected", "Actual", "Why"]


def _finding_cells(f: dict[str, Any]) -> list[str]:
    source = plain.twin_source(f)
    twin = (
        (
            f'<br><span class="muted">challenge twin of <a href="#v-{esc(source)}">'
            f"{esc(source)}</a></span>"
        )
        if source
        else ""
    )
    ruleset = "" if plain.vector_name(f) == f["id"] else f"{f['ruleset']} · "
    return [
        f'<code id="v-{esc(f["id"])}">{esc(f["id"])}</code>{twin}<br>'
        f'<span class="muted">{esc(ruleset)}{esc(f["kind"])}</span>',
        badge(f["outcome"], f["outcome"]) + f'<br><span class="muted">'
        f"{esc(T.OUTCOME_WORDS.get(f['outcome'], ''))}</span>",
        "<br>".join(f'<code class="label">{esc(c["label"])}</code>' for c in f["clauses"]) or "-",
        answer_html(f["inputs"]),
        answer_html(f["expected"]),
        answer_html(f["actual"]),
        vendor_esc(f["why"]),
    ]


def _finding_rows(report: dict[str, Any], f: dict[str, Any]) -> str:
    """Two rows per finding: the facts, then the plain reading, rules, readings, flags,
    the command that replays it and output."""
    main = _finding_cells(f)
    detail = [
        f'<strong>In plain words</strong> <span class="plain">'
        f"{vendor_esc(plain.plain_reading(f))}</span>"
    ]
    detail += [
        f"<strong>Rule</strong> <code>{esc(c['label'])}</code>: {esc(c['summary'])}"
        for c in f["clauses"]
    ]
    detail += [
        f"<strong>Scored under</strong> <code>{esc(r['interpretation'])}="
        f"{esc(r['reading'])}</code>: {esc(r['summary'])}"
        for r in f["readings"]
    ]
    if f["flags"]:
        detail.append(
            "<strong>Flags</strong> " + ", ".join(f"<code>{esc(x)}</code>" for x in f["flags"])
        )
    if f["known_failure"]:
        detail.append(f"<strong>Known failure</strong> {esc(T.known_line(f))}")
    detail.append(f"<strong>Replay</strong> <code>{esc(T.finding_replay(report, f))}</code>")
    if f["message"]:
        detail.append(f"<strong>Message</strong><pre>{vendor_esc(f['message'])}</pre>")
    if f["stderr"]:
        where = f" (whole capture: attachments/{esc(f['attachment'])})" if f["attachment"] else ""
        detail.append(
            f"<details><summary>Adapter stderr{where}</summary>"
            f"<pre>{esc(f['stderr'])}</pre></details>"
        )
    cells = "".join(f"<td>{c}</td>" for c in main)
    cls = "failure twin" if plain.twin_source(f) else "failure"
    return (
        f'<tr class="{cls}">{cells}</tr>\n<tr class="failure-detail">'
        f'<td colspan="{len(main)}">' + "<br>".join(detail) + "</td></tr>"
    )


def _failures(report: dict[str, Any]) -> str:
    failures = report["failures"]
    if not failures:
        return '<h2 id="findings">Findings</h2>\n<p>None: every applicable vector passed.</p>'
    head = "".join(f"<th>{h}</th>" for h in FINDING_HEADERS)
    body = "\n".join(_finding_rows(report, f) for f in plain.grouped_findings(failures))
    return (
        f'<h2 id="findings">Findings ({len(failures)})</h2>\n'
        f'<p class="muted">{esc(T.FINDINGS_LEGEND)}</p>\n<table class="findings">\n'
        f"<thead><tr>{head}</tr></thead>\n<tbody>\n{body}\n</tbody>\n</table>"
    )


def _flags(report: dict[str, Any]) -> str:
    rows = [
        [
            f"<code>{esc(f['flag'])}</code>",
            esc(f["description"]),
            str(f["run"]),
            str(f["passed"]),
            str(f["failed"]),
            str(f["known_failures"]),
            esc(", ".join(f["vectors"])),
        ]
        for f in report["flags"]
    ]
    return '<h2 id="flags">Bug classes (flags)</h2>\n' + (
        table(
            ["Flag", "Bug class", "Run", "Passed", "Failed", "Known", "Failing vectors"],
            rows,
            "flag",
            frozenset({2, 3, 4, 5}),
        )
        if rows
        else "<p>No vector carried a flag.</p>"
    )


def _not_applicable(report: dict[str, Any]) -> str:
    rows = [
        [
            f"<code>{esc(n['ruleset'])}</code>",
            esc(n["kind"]),
            str(n["count"]),
            f"<details><summary>ids</summary>{esc(', '.join(n['vectors']))}</details>",
        ]
        for n in report["not_applicable"]
    ]
    intro = (
        '<h2 id="not-applicable">Not applicable</h2>\n'
        "<p>Not claimed by the adapter, so not certified.</p>\n"
    )
    return intro + (
        table(["Ruleset", "Kind", "Vectors", ""], rows, "na", frozenset({2}))
        if rows
        else "<p>Nothing: the adapter claims every vector selected.</p>"
    )


def _identification(report: dict[str, Any]) -> str:
    ident = report["identification"]
    items = [
        (f"Evaluator ({esc(T.DECLARED_LABEL)})", vendor_esc(T.evaluator_line(ident))),
        (f"Identity ({esc(T.MEASURED_LABEL)})", esc(T.measured_line(ident))),
        ("Adapter", esc(f"{ident['adapter']['name']} {ident['adapter']['version']}")),
        ("Adapter spec", f"<code>{esc(ident['adapter_spec'])}</code>"),
        ("Isolation", esc(T.isolation_line(ident))),
        ("Suite version", esc(ident["suite_version"])),
        (
            "Corpus",
            esc(ident["corpus"]["version"])
            + " sha256 <code>"
            + esc(ident["corpus"]["sha256"])
            + "</code> ("
            + esc(report["covers"]["corpus"]["status"])
            + ")",
        ),
        ("Harness version", esc(ident["harness_version"])),
        ("Protocol version", esc(ident["protocol_version"])),
        ("Profile", f"<code>{esc(ident['profile']['name'])}</code>"),
        ("Rulesets", esc(", ".join(ident["rulesets"]))),
        *[
            (T.LAB_LABELS[k], esc(v) if v else '<span class="muted">not given</span>')
            for k, v in T.lab_items(ident)
        ],
        ("Filters", esc(T.filters_line(ident))),
        ("Shard", esc(ident["shard"] or "whole run")),
        (
            "Selected vectors",
            f"{ident['selected']} (ids sha256 <code>{esc(ident['selected_ids_sha256'])}</code>)",
        ),
        ("Capabilities claimed", esc(T.capabilities_line(ident))),
        ("Limits", esc(T.describe(ident["limits"]))),
        ("Platform", esc(T.describe(ident["platform"]))),
        ("Started", esc(ident["started_at"])),
        ("Resumed", esc(", ".join(ident["resumed_at"]) or "never")),
        ("Finished", esc(ident["finished_at"] or "did not finish")),
        ("Reproduce", f"<code>{esc(ident['command_line'])}</code>"),
        ("Report generated", esc(report["generated_at"])),
        ("Report digest", f"<code>{esc(report['digest'])}</code>"),
    ]
    dl = "\n".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in items)
    readings = [[f"<code>{esc(k)}</code>", esc(v)] for k, v in ident["profile"]["readings"].items()]
    measured = [
        [esc(c) if i != 2 else f"<code>{esc(c)}</code>" for i, c in enumerate(r)]
        for r in T.measured_rows(ident)
    ]
    return (
        f'<h2 id="identification">Identification</h2>\n<dl class="ident">\n{dl}\n</dl>\n'
        f'<h3 id="measured-identity">Identity {esc(T.MEASURED_LABEL)}</h3>\n'
        + table(["What", "Where", "SHA-256 / status"], measured)
        + "\n"
        "<h3>Interpretation readings</h3>\n" + table(["Interpretation", "Reading"], readings)
    )


def render(report: dict[str, Any]) -> str:
    """The HTML view of a sealed report."""
    body = "\n".join(
        [
            _banner(report),
            _covers(report),
            _rulesets(report),
            _challenge(report),
            _modes(report),
            _clauses(report),
            _failures(report),
            _flags(report),
            _not_applicable(report),
            _identification(report),
        ]
    )
    ident = report["identification"]
    return Template(_template("report.html")).substitute(
        title=vendor_esc(f"{report['verdict']}: {T.evaluator_line(ident)} (pokercert report)"),
        generator=esc(f"pokercert {report['generator']['version']}"),
        digest=esc(report["digest"]),
        css=_template("report.css") + CARDS_CSS + "\n",
        body=body,
    )
