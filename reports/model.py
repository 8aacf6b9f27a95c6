"""The report model: one results folder in, one plain JSON-able report out.

Every renderer (Markdown, HTML, JUnit) and every check (verify, diff) reads this one
structure, never the results folder itself; the structure is what the JSON report
holds and what ``reports/schema/report.schema.json`` describes.

Nothing here reads the clock or the file system beyond the results folder and the
installed rulesets (for clause and interpretation summaries), so the same results give
the same report.  ``generated_at`` comes from ``SOURCE_DATE_EPOCH`` when it is set,
else from the run's own end (or start) time.
"""

from __future__ import annotations

import json
import os
import shlex
import tomllib
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from pokercert.harness.cli import UsageError
from pokercert.harness.identity import not_measured
from pokercert.harness.results import (
    HEADER_FILE,
    RESULTS_FILE,
    Outcome,
    Result,
    RunHeader,
    read_header,
    read_results,
)
from pokercert.harness.selection import ids_digest
from pokercert.reference.interpretations import catalogue
from pokercert.reference.rulesets import RulesetError, all_regulations, get_ruleset
from pokercert.reports import verdict as V

REPORT_FORMAT_VERSION = 1
STDERR_LIMIT = 2000  # characters of a failure's stderr excerpt kept in the report
UNKNOWN = "unknown"


@cache
def _clause_summaries() -> dict[str, str]:
    return {c.label: c.summary for reg in all_regulations() for c in reg.clauses}


def clause_summary(label: str) -> str:
    """Our one-line summary of a clause, by its exact label."""
    return _clause_summaries().get(label, "(clause not in the installed rulesets)")


@cache
def flag_descriptions() -> dict[str, str]:
    """Bug-class descriptions from the corpus's ``flags.toml`` (empty if not installed)."""
    try:
        text = (resources.files("pokercert.vectors") / "flags.toml").read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except (OSError, tomllib.TOMLDecodeError):
        return {}
    return {k: str(v.get("description", "")) for k, v in data.get("flag", {}).items()}


def reading_summary(iid: str, reading: str) -> str:
    interp = catalogue().get(iid)
    if interp is None or reading not in interp.readings:
        return "(reading not in the installed interpretation catalogue)"
    return interp.readings[reading].summary


def generated_at(header: RunHeader) -> str:
    """``SOURCE_DATE_EPOCH`` as UTC if set, else the run's end or start time."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch:
        try:
            stamp = datetime.fromtimestamp(int(epoch), tz=UTC)
        except (ValueError, OverflowError, OSError):
            raise UsageError(f"SOURCE_DATE_EPOCH={epoch!r} is not a Unix time in seconds") \
                from None
        return stamp.strftime("%Y-%m-%dT%H:%M:%SZ")
    return header.finished_at or header.started_at


def load_run(folder: Path) -> tuple[RunHeader, list[Result]]:
    """The header and results of a run folder; user errors name the file and line."""
    folder = Path(folder)
    if not (folder / HEADER_FILE).is_file():
        raise UsageError(f"{folder}: not a results folder (no {HEADER_FILE})")
    try:
        header = read_header(folder)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{folder / HEADER_FILE}: not valid JSON: {exc}") from None
    except TypeError as exc:
        raise UsageError(f"{folder / HEADER_FILE}: incomplete run header ({exc})") from None
    results: list[Result] = []
    it = read_results(folder)
    while True:
        line = len(results) + 1
        try:
            result = next(it)
        except StopIteration:
            break
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
            raise UsageError(f"{folder / RESULTS_FILE}:{line}: unreadable result ({exc})") \
                from None
        results.append(result)
    return header, results


def _excerpt(text: str, limit: int = STDERR_LIMIT) -> str:
    if len(text) <= limit:
        return text
    head, tail = limit // 4, limit - limit // 4
    return f"{text[:head]}\n…[{len(text) - head - tail} characters omitted]…\n{text[-tail:]}"


def _counts(results: Iterable[Result]) -> dict[str, int]:
    found = Counter(str(r.outcome) for r in results)
    return {str(o): found.get(str(o), 0) for o in V.OUTCOME_ORDER}


def _ruleset_info(rid: str) -> dict[str, str]:
    try:
        rs = get_ruleset(rid)
    except RulesetError:
        return {"title": "(ruleset not in the installed rulesets)", "citation": "",
                "regulation": "", "confidence": ""}
    return {"title": rs.title, "citation": rs.citation, "regulation": rs.regulation.id,
            "confidence": rs.regulation.confidence}


def _clause_rows(rid: str, results: list[Result]) -> list[dict[str, Any]]:
    try:
        labels = [c.label for c in get_ruleset(rid).clauses]
    except RulesetError:
        labels = []
    cited = sorted({c for r in results for c in r.clauses} - set(labels))
    rows = []
    for label in labels + cited:
        mine = [r for r in results if label in r.clauses]
        applicable = [r for r in mine if r.outcome is not Outcome.NOT_APPLICABLE]
        failed = sum(r.outcome.is_failure for r in applicable)
        known = sum(r.outcome is Outcome.XFAIL for r in applicable)
        passed = sum(r.outcome is Outcome.PASS for r in applicable)
        status = ("broken" if failed else "known-failures" if known
                  else "untested" if not applicable else "ok")
        rows.append({"label": label, "summary": clause_summary(label), "status": status,
                     "run": len(applicable), "passed": passed, "failed": failed,
                     "known_failures": known, "not_applicable": len(mine) - len(applicable)})
    return rows


def _failure(r: Result) -> dict[str, Any]:
    return {
        "id": r.vector_id, "ruleset": r.ruleset, "kind": r.kind, "outcome": str(r.outcome),
        "inputs": r.inputs, "expected": r.expected, "actual": r.actual,
        "message": r.message, "why": r.why, "flags": list(r.flags),
        "clauses": [{"label": c, "summary": clause_summary(c)} for c in r.clauses],
        "readings": [{"interpretation": i, "reading": r.readings[i],
                      "summary": reading_summary(i, r.readings[i])} for i in sorted(r.readings)],
        "stderr": _excerpt(r.stderr), "attachment": r.attachment,
        "known_failure": getattr(r, "known_failure", ""),
        "scored_as": getattr(r, "scored_as", ""),
    }


def _flag_rows(results: list[Result]) -> list[dict[str, Any]]:
    rows: dict[str, dict[str, Any]] = {}
    for r in results:
        if r.outcome is Outcome.NOT_APPLICABLE:
            continue
        for flag in r.flags:
            if flag not in rows:
                rows[flag] = {"flag": flag, "description": flag_descriptions().get(
                    flag, "(flag not in the installed corpus)"), "run": 0, "passed": 0,
                    "failed": 0, "known_failures": 0, "vectors": []}
            row = rows[flag]
            row["run"] += 1
            row["passed"] += r.outcome is Outcome.PASS
            if r.outcome.is_failure or r.outcome is Outcome.XFAIL:
                row["failed" if r.outcome.is_failure else "known_failures"] += 1
                row["vectors"].append(r.vector_id)
    for row in rows.values():
        row["vectors"].sort()
    return sorted(rows.values(), key=lambda x: (-x["failed"], -x["known_failures"], x["flag"]))


def _not_applicable(rulesets: list[str], by_ruleset: Mapping[str, list[Result]]) -> \
        list[dict[str, Any]]:
    out = []
    for rid in rulesets:
        kinds: dict[str, list[str]] = defaultdict(list)
        for r in by_ruleset.get(rid, []):
            if r.outcome is Outcome.NOT_APPLICABLE:
                kinds[r.kind].append(r.vector_id)
        for kind in sorted(kinds):
            out.append({"ruleset": rid, "kind": kind, "count": len(kinds[kind]),
                        "vectors": sorted(kinds[kind])})
    return out


def completeness(header: RunHeader, results: list[Result], duplicates: int) -> dict[str, Any]:
    """Whether the results cover exactly what the run selected, and why not.

    These reasons concern the whole run and deny a certificate to every ruleset; a
    ruleset short of its own selected vectors is caught per ruleset (``_missing``).
    """
    reasons = []
    ids = [r.vector_id for r in results]
    if header.shard:
        reasons.append(f"this results set is shard {header.shard} only; merge every shard "
                       "(pokercert merge) and report on the merged set")
    aborted = getattr(header, "aborted", None)
    if aborted:
        reasons.append(f"the harness gave up on the adapter before the end: {aborted}")
    if not header.finished_at:
        reasons.append("the run did not finish (run.json has no finished_at)")
    if not header.selected and not ids:
        reasons.append("the selection is empty: no vector was run")
    if len(ids) < header.selected:
        missing = header.selected - len(ids)
        reasons.append(f"{missing} of {header.selected} selected vectors "
                       f"{'has' if missing == 1 else 'have'} no result")
    elif header.selected_ids_sha256 and ids_digest(ids) != header.selected_ids_sha256:
        reasons.append("the vector ids in the results differ from the ids the run selected "
                       "(selected_ids_sha256 does not match)")
    return {"complete": not reasons, "reasons": reasons, "selected": header.selected,
            "results": len(ids), "duplicate_lines": duplicates}


def _missing(header: RunHeader, rid: str, results: list[Result]) -> list[str]:
    selected = getattr(header, "selected_by_ruleset", {}).get(rid)
    if selected is None or len(results) >= selected:
        return []
    missing = selected - len(results)
    return [f"{missing} of this ruleset's {selected} selected vectors "
            f"{'has' if missing == 1 else 'have'} no result"]


def identification(header: RunHeader) -> dict[str, Any]:
    """Everything that identifies what was tested, how, and how to do it again."""
    return {
        "suite_version": header.suite_version,
        "corpus": {"version": header.corpus_version, "sha256": header.corpus_sha256},
        "harness_version": header.harness_version,
        "protocol_version": header.protocol_version,
        "results_format_version": header.format_version,
        "evaluator": {k: str(header.evaluator.get(k, "")) for k in
                      ("vendor", "name", "version", "build")},
        "adapter": {k: str(header.adapter.get(k, "")) for k in ("name", "version")},
        "adapter_spec": header.adapter_spec,
        "measured_identity": getattr(header, "measured_identity", None) or not_measured(
            "not measured: the run was made without measured identity"),
        "profile": {"name": str(header.profile.get("name", UNKNOWN)),
                    "readings": dict(sorted(header.profile.get("readings", {}).items()))},
        "rulesets": list(header.rulesets),
        "filters": header.filters,
        "shard": header.shard,
        "selected": header.selected,
        "selected_ids_sha256": header.selected_ids_sha256,
        "capabilities": {k: list(v) for k, v in
                         sorted(getattr(header, "capabilities", {}).items())},
        "limits": dict(getattr(header, "limits", {})),
        "platform": header.platform,
        "started_at": header.started_at,
        "resumed_at": list(getattr(header, "resumed_at", [])),
        "finished_at": header.finished_at,
        "command": list(header.command),
        "command_line": shlex.join(header.command),
    }


def build_report(folder: Path) -> dict[str, Any]:
    """The report of one results folder (without its digest: see ``canonical.seal``)."""
    from pokercert.harness import __version__

    header, raw = load_run(Path(folder))
    latest: dict[str, Result] = {}
    for r in raw:  # a resumed run may repeat a vector: its last line counts
        latest[r.vector_id] = r
    results = sorted(latest.values(), key=lambda r: r.vector_id)
    by_ruleset: dict[str, list[Result]] = defaultdict(list)
    for r in results:
        by_ruleset[r.ruleset].append(r)
    rulesets = list(dict.fromkeys(header.rulesets))
    rulesets += sorted(set(by_ruleset) - set(rulesets))
    whole = completeness(header, results, len(raw) - len(results))

    ruleset_rows = []
    for rid in rulesets:
        counts = _counts(by_ruleset.get(rid, []))
        mine = by_ruleset.get(rid, [])
        verdict, reasons = V.ruleset_verdict(counts, _missing(header, rid, mine)
                                             + whole["reasons"])
        ruleset_rows.append({"id": rid, **_ruleset_info(rid), "verdict": verdict,
                             "reasons": reasons, "counts": counts,
                             "clauses": _clause_rows(rid, mine)})
    overall = V.overall_verdict(r["verdict"] for r in ruleset_rows)
    order = {rid: i for i, rid in enumerate(rulesets)}
    severity = {o: i for i, o in enumerate(V.SEVERITY)}
    findings = sorted((r for r in results if r.outcome in V.DENYING),
                      key=lambda r: (order[r.ruleset], severity[r.outcome], r.vector_id))
    return {
        "report_format_version": REPORT_FORMAT_VERSION,
        "generator": {"name": "pokercert", "version": __version__},
        "generated_at": generated_at(header),
        "verdict": overall,
        "exit_code": V.exit_code(overall),
        "counts": _counts(results),
        "identification": identification(header),
        "completeness": whole,
        "rulesets": ruleset_rows,
        "failures": [_failure(r) for r in findings],
        "flags": _flag_rows(results),
        "not_applicable": _not_applicable(rulesets, by_ruleset),
        "vectors": [{"id": r.vector_id, "ruleset": r.ruleset, "kind": r.kind,
                     "outcome": str(r.outcome), "duration_us": round((r.duration_s or 0.0) * 1e6)}
                    for r in results],
    }
