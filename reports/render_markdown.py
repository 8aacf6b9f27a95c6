"""Markdown view: fits a CI step summary and a pull-request comment.

Verdict first, then rulesets, broken clauses and findings; the per-clause matrix, bug
classes, not-applicable list and identification fold into ``<details>``.  The whole
view is kept under :data:`LIMIT` characters (a pull-request comment holds 65,536): the
findings list is shortened first, then folded sections are left out, each time saying
so and pointing to the JSON report.

Every value that reaches the view (the vendor's declared identity, adapter spec,
capabilities, messages, answers, the lab's fields, and our own words alike) goes through
the one escaping function :func:`pokercert.reports.text.md`; the reproduce command is a
fenced block (:func:`pokercert.reports.text.md_fence`).
"""

from __future__ import annotations

from typing import Any

from pokercert.harness.run.results import Outcome
from pokercert.reports import plain
from pokercert.reports import text as T
from pokercert.reports.cards_html import cut

LIMIT = 60_000
FAILURE_ROWS = 50


def cell(value: Any) -> str:
    """Any value as Markdown text: :func:`pokercert.reports.text.md` (escaped, control
    characters shown, line breaks as ``<br>``)."""
    return T.md(value)


CELL_LIMIT = 1500  # the most characters of one vendor value shown (the JSON has it whole)


def vendor_cell(value: Any) -> str:
    """A value the vendor controls (an answer, a message, its declared identity) as
    :func:`cell`, its head and tail only when longer than :data:`CELL_LIMIT`: a
    million-character answer made the view a megabyte."""
    return cell(cut(str(value), CELL_LIMIT))


def table(headers: list[str], rows: list[list[Any]]) -> str:
    """A GitHub-flavoured table without padding (padding only spends the size budget)."""
    lines = [
        "| " + " | ".join(cell(h) for h in headers) + " |",
        "|" + "|".join("---" for _ in headers) + "|",
    ]
    lines += ["| " + " | ".join(cell(v) for v in r) + " |" for r in rows]
    return "\n".join(lines)


def _head(report: dict[str, Any]) -> list[str]:
    ident = report["identification"]
    lines = [
        f"# {T.VERDICT_MARK[report['verdict']]} {report['verdict']}: "
        f"{vendor_cell(T.evaluator_line(ident))}",
        "",
        f"**Evaluator** {vendor_cell(T.evaluator_line(ident))} ({cell(T.DECLARED_LABEL)}) · "
        f"**{cell(T.MEASURED_LABEL)}** {cell(T.measured_line(ident))}",
        "",
        f"**Adapter** {vendor_cell(ident['adapter_spec'])} · **profile** "
        f"{cell(ident['profile']['name'])} · **{cell(T.corpus_line(report))}** · "
        f"**pokercert** {cell(ident['suite_version'])}",
        "",
        f"**Vectors:** {cell(T.counts_line(report['counts']))}",
        "",
        *_what_failed(report),
    ]
    lab = T.lab_line(ident)
    if lab:
        lines += [cell(lab), ""]
    for warning in T.covers_warnings(report):
        lines += [f"> **Warning:** {cell(warning)}", ""]
    if not report["completeness"]["complete"]:
        lines.append("> **Incomplete:**")
        lines += [f"> - {cell(r)}" for r in report["completeness"]["reasons"]]
        lines.append("")
    return lines


def _what_failed(report: dict[str, Any]) -> list[str]:
    """The findings in plain words, a line per distinct reading, and the command that
    runs them again (the Findings table has each one)."""
    failures = report["failures"]
    if not failures:
        return []
    return [
        f"**{cell(T.WHAT_FAILED_TITLE)}:**",
        "",
        *(f"- {vendor_cell(line)}" for line in plain.what_failed_lines(failures)),
        "",
        "Run them again:",
        "",
        *T.md_fence(T.failures_replay(report), "sh"),
        "",
    ]


def _covers(report: dict[str, Any]) -> list[str]:
    return [
        f"## {cell(T.COVERS_TITLE)}",
        "",
        table(["What", "Covered"], T.covers_rows(report)),
        "",
        cell(T.COVERS_LEGEND),
        "",
    ]


def _rulesets(report: dict[str, Any]) -> list[str]:
    rows = []
    for rs in report["rulesets"]:
        c = rs["counts"]
        run = sum(v for k, v in c.items() if k != Outcome.NOT_APPLICABLE)
        rows.append(
            [
                rs["id"],
                T.citation_line(rs),
                f"{T.VERDICT_MARK[rs['verdict']]} {rs['verdict']}",
                run,
                c[Outcome.PASS],
                run - c[Outcome.PASS],
                c[Outcome.NOT_APPLICABLE],
                "; ".join(rs["reasons"]),
            ]
        )
    return [
        "## Rulesets",
        "",
        table(
            [
                "Ruleset",
                "Citation (confidence)",
                "Verdict",
                "Run",
                "Passed",
                "Not passed",
                "Not applicable",
                "Why",
            ],
            rows,
        ),
        "",
    ]


def _challenge(report: dict[str, Any]) -> list[str]:
    lines = ["## Challenge", "", cell(T.challenge_line(report)), ""]
    if report["challenge"]["rulesets"]:
        lines += [
            cell(T.CHALLENGE_LEGEND),
            "",
            table(T.CHALLENGE_HEADERS, T.challenge_rows(report)),
            "",
        ]
    return lines


def _modes(report: dict[str, Any]) -> list[str]:
    """One section per attached mode (``run --fuzz N``, ``run --exhaustive``)."""
    lines: list[str] = []
    for mode, block in T.attached_modes(report):
        lines += [
            f"## {cell(T.MODE_TITLES.get(mode, mode))}",
            "",
            cell(T.mode_line(report, mode, block)),
            "",
            cell(T.MODE_LEGENDS.get(mode, "")),
            "",
            table(T.MODE_HEADERS, T.mode_rows(block)),
            "",
        ]
        found = T.mode_findings(report, mode)
        if found:
            lines += [
                f"**Counterexamples ({len(found)})**",
                "",
                table(T.MODE_FINDING_HEADERS, found),
                "",
            ]
    return lines


def _broken(report: dict[str, Any]) -> list[str]:
    rows = [
        [
            rs["id"],
            c["label"],
            c["summary"],
            c["run"],
            c["passed"],
            c["failed"] + c["known_failures"],
        ]
        for rs in report["rulesets"]
        for c in rs["clauses"]
        if c["status"] in ("broken", "known-failures")
    ]
    if not rows:
        return []
    return [
        "## Broken clauses",
        "",
        table(["Ruleset", "Clause", "Rule (our summary)", "Run", "Passed", "Failed"], rows),
        "",
    ]


def _failures(report: dict[str, Any], limit: int) -> list[str]:
    failures = report["failures"]
    if not failures:
        return []
    shown = plain.grouped_findings(failures)[:limit]  # each twin under the vector it copies
    title = (
        f"## Findings ({len(failures)})"
        if len(shown) == len(failures)
        else f"## Findings (first {len(shown)} of {len(failures)}; all are in the JSON report)"
    )
    rows = [
        [
            cut(str(x), CELL_LIMIT)
            for x in (
                plain.vector_name(f),
                f["outcome"],
                T.clauses_line(f),
                T.describe(f["inputs"]),
                T.describe(f["expected"]),
                T.describe(f["actual"]),
                f["why"],
            )
        ]
        for f in shown
    ]
    return [
        title,
        "",
        cell(T.FINDINGS_LEGEND),
        "",
        table(["Vector", "Outcome", "Clause", "Inputs", "Expected", "Actual", "Why"], rows),
        "",
    ]


def _details(summary: str, body: list[str]) -> list[str]:
    return ["<details>", f"<summary>{summary}</summary>", "", *body, "", "</details>", ""]


def _matrix(report: dict[str, Any]) -> list[str]:
    body = []
    for rs in report["rulesets"]:
        rows = [
            [
                c["label"],
                c["status"],
                c["run"],
                c["passed"],
                c["failed"],
                c["known_failures"],
                c["summary"],
            ]
            for c in rs["clauses"]
        ]
        body += [
            f"**{cell(rs['id'])}**: {cell(T.citation_line(rs))}",
            "",
            table(["Clause", "Status", "Run", "Passed", "Failed", "Known", "Rule"], rows),
            "",
        ]
    return _details("Per-clause matrix", body)


def _flags(report: dict[str, Any]) -> list[str]:
    if not report["flags"]:
        return []
    rows = [
        [f["flag"], f["run"], f["passed"], f["failed"], f["known_failures"], f["description"]]
        for f in report["flags"]
    ]
    return _details(
        "Bug classes (flags)",
        [table(["Flag", "Run", "Passed", "Failed", "Known", "Bug class"], rows)],
    )


def _not_applicable(report: dict[str, Any]) -> list[str]:
    if not report["not_applicable"]:
        return []
    rows = [[n["ruleset"], n["kind"], n["count"]] for n in report["not_applicable"]]
    return _details(
        "Not applicable (not claimed by the adapter, so not certified)",
        [table(["Ruleset", "Kind", "Vectors"], rows)],
    )


def _identification(report: dict[str, Any]) -> list[str]:
    ident = report["identification"]
    rows = [
        [f"Evaluator ({T.DECLARED_LABEL})", T.evaluator_line(ident)],
        [f"Identity ({T.MEASURED_LABEL})", T.measured_line(ident)],
        ["Adapter", f"{ident['adapter']['name']} {ident['adapter']['version']}".strip()],
        ["Adapter spec", ident["adapter_spec"]],
        ["Isolation", T.isolation_line(ident)],
        ["Suite version", ident["suite_version"]],
        [
            "Corpus",
            f"{ident['corpus']['version']} sha256 {ident['corpus']['sha256']} "
            f"({report['covers']['corpus']['status']})",
        ],
        ["Harness / protocol", f"{ident['harness_version']} / {ident['protocol_version']}"],
        ["Profile", ident["profile"]["name"]],
        ["Readings", ", ".join(f"{k}={v}" for k, v in ident["profile"]["readings"].items())],
        ["Rulesets", ", ".join(ident["rulesets"])],
        *[[T.LAB_LABELS[k], v or "not given"] for k, v in T.lab_items(ident)],
        ["Filters", T.filters_line(ident)],
        ["Shard", ident["shard"] or "whole run"],
        ["Capabilities claimed", T.capabilities_line(ident)],
        ["Limits", T.describe(ident["limits"])],
        ["Platform", T.describe(ident["platform"])],
        ["Resumed", ", ".join(ident["resumed_at"]) or "never"],
        ["Started / finished", f"{ident['started_at']} / {ident['finished_at'] or '-'}"],
        ["Report digest", report["digest"]],
    ]
    body = [
        table(["", ""], rows),
        "",
        cell(f"Identity {T.MEASURED_LABEL} (SHA-256 of what ran):"),
        "",
        table(["What", "Where", "SHA-256 / status"], T.measured_rows(ident)),
        "",
        "Reproduce:",
        "",
        *T.md_fence(ident["command_line"]),
    ]
    return _details("Identification", body)


def render(report: dict[str, Any], limit: int = LIMIT) -> str:
    """The Markdown view of a sealed report, at most ``limit`` characters when possible."""
    head = (
        _head(report)
        + _covers(report)
        + _rulesets(report)
        + _challenge(report)
        + _modes(report)
        + _broken(report)
    )
    folded = [_matrix(report), _flags(report), _not_applicable(report)]
    tail = _identification(report)
    folded = [s for s in folded if s]
    rows, dropped = FAILURE_ROWS, 0
    while True:
        lines = head + _failures(report, rows)
        for section in folded:
            lines += section
        if dropped:
            lines += [
                f"_{dropped} folded section(s) left out to fit; the JSON report has everything._",
                "",
            ]
        text = "\n".join([*lines, *tail]).rstrip("\n") + "\n"
        if len(text) <= limit:
            return text
        if rows > 10:
            rows = max(10, rows // 2)
        elif folded:
            folded, dropped = folded[:-1], dropped + 1
        else:
            return text  # cannot shrink further; the verdict and rulesets come first anyway
