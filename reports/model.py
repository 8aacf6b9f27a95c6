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
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from pokercert.harness.identity import not_measured
from pokercert.harness.run.outcome import exit_code
from pokercert.harness.run.results import (
    FAILING,
    HEADER_FILE,
    RESULTS_FILE,
    Outcome,
    Result,
    RunHeader,
    read_header,
    read_results,
    results_problem,
)
from pokercert.harness.run.selection import ids_digest
from pokercert.reference.interpretations import catalogue
from pokercert.reference.rulesets import RulesetError, all_regulations, get_ruleset
from pokercert.reports import verdict as V
from pokercert.reports.canonical import ReportError
from pokercert.reports.covers import corpus_denial, covers

REPORT_FORMAT_VERSION = 5
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
            raise ReportError(
                f"SOURCE_DATE_EPOCH={epoch!r} is not a Unix time in seconds"
            ) from None
        return stamp.strftime("%Y-%m-%dT%H:%M:%SZ")
    return header.finished_at or header.started_at


def load_run(folder: Path) -> tuple[RunHeader, list[Result]]:
    """The header and results of a run folder; user errors name the file and line."""
    folder = Path(folder)
    if not (folder / HEADER_FILE).is_file():
        raise ReportError(f"{folder}: not a results folder (no {HEADER_FILE})")
    try:
        header = read_header(folder)
    except json.JSONDecodeError as exc:
        raise ReportError(f"{folder / HEADER_FILE}: not valid JSON: {exc}") from None
    except TypeError as exc:
        raise ReportError(f"{folder / HEADER_FILE}: incomplete run header ({exc})") from None
    results: list[Result] = []
    it = read_results(folder)
    while True:
        line = len(results) + 1
        try:
            result = next(it)
        except StopIteration:
            break
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
            raise ReportError(
                f"{folder / RESULTS_FILE}:{line}: unreadable result ({exc})"
            ) from None
        results.append(result)
    return header, results


def _excerpt(text: str, limit: int = STDERR_LIMIT) -> str:
    if len(text) <= limit:
        return text
    head, tail = limit // 4, limit - limit // 4
    return f"{text[:head]}\n…[{len(text) - head - tail} characters omitted]…\n{text[-tail:]}"


def _counts(outcomes: Iterable[str]) -> dict[str, int]:
    found = Counter(outcomes)
    return {str(o): found.get(str(o), 0) for o in V.OUTCOME_ORDER}


def _ruleset_info(rid: str) -> dict[str, str]:
    try:
        rs = get_ruleset(rid)
    except RulesetError:
        return {
            "title": "(ruleset not in the installed rulesets)",
            "citation": "",
            "regulation": "",
            "confidence": "",
        }
    return {
        "title": rs.title,
        "citation": rs.citation,
        "regulation": rs.regulation.id,
        "confidence": rs.regulation.confidence,
    }


def _clause_labels(rid: str) -> list[str]:
    try:
        return [c.label for c in get_ruleset(rid).clauses]
    except RulesetError:
        return []


def _failure(r: Result) -> dict[str, Any]:
    return {
        "id": r.vector_id,
        "ruleset": r.ruleset,
        "kind": r.kind,
        "outcome": str(r.outcome),
        "inputs": r.inputs,
        "expected": r.expected,
        "actual": r.actual,
        "message": r.message,
        "why": r.why,
        "flags": list(r.flags),
        "clauses": [{"label": c, "summary": clause_summary(c)} for c in r.clauses],
        "readings": [
            {
                "interpretation": i,
                "reading": r.readings[i],
                "summary": reading_summary(i, r.readings[i]),
            }
            for i in sorted(r.readings)
        ],
        "stderr": _excerpt(r.stderr),
        "attachment": r.attachment,
        "known_failure": getattr(r, "known_failure", ""),
        "scored_as": getattr(r, "scored_as", ""),
        "origin": r.origin,
    }


# ----------------------------------------------------------------------------- conclusions
_PASS, _NA, _XFAIL = str(Outcome.PASS), str(Outcome.NOT_APPLICABLE), str(Outcome.XFAIL)
_FAILING = frozenset(str(o) for o in FAILING)
_DENYING = frozenset(str(o) for o in V.DENYING)

# the report's ``exit_code`` field (reports/schema): the number its verdict is given,
# the same as ``pokercert report``/``verify`` exit with
# (harness.run.outcome.exit_code: the one mapping of an outcome to an exit code)
REPORT_EXIT_CODES = {
    V.CERTIFIED: exit_code(finished=True, complies=True),
    V.NOT_CERTIFIED: exit_code(finished=True, complies=False),
    V.INCOMPLETE: exit_code(finished=False, complies=False),
}
_SEVERITY = {str(o): i for i, o in enumerate(V.SEVERITY)}


def _run_reasons(ident: Mapping[str, Any], ids: list[str]) -> list[str]:
    """Why the run as a whole is incomplete (these deny a certificate to every ruleset);
    a ruleset short of its own selected vectors is caught per ruleset (``_missing``)."""
    reasons = []
    if ident.get("shard"):
        reasons.append(
            f"this results set is shard {ident['shard']} only; merge every shard "
            "(pokercert merge) and report on the merged set"
        )
    if ident.get("aborted"):
        reasons.append(f"the harness gave up on the adapter before the end: {ident['aborted']}")
    if not ident.get("finished_at"):
        reasons.append("the run did not finish (run.json has no finished_at)")
    selected = ident.get("selected", 0)
    if not selected and not ids:
        reasons.append("the selection is empty: no vector was run")
    if len(ids) < selected:
        missing = selected - len(ids)
        reasons.append(
            f"{missing} of {selected} selected vectors "
            f"{'has' if missing == 1 else 'have'} no result"
        )
    elif ident.get("selected_ids_sha256") and ids_digest(ids) != ident["selected_ids_sha256"]:
        reasons.append(
            "the vector ids in the results differ from the ids the run selected "
            "(selected_ids_sha256 does not match)"
        )
    if ident.get("results_sha256") is None:
        reasons.append(
            "run.json records no SHA-256 of results.jsonl, so the results cannot "
            "be tied to the run that wrote them"
        )
    return reasons


def _missing(ident: Mapping[str, Any], rid: str, n: int) -> list[str]:
    selected = ident.get("selected_by_ruleset", {}).get(rid)
    if selected is None or n >= selected:
        return []
    missing = selected - n
    return [
        f"{missing} of this ruleset's {selected} selected vectors "
        f"{'has' if missing == 1 else 'have'} no result"
    ]


def _clause_rows(labels: Iterable[str], vectors: list[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The clause matrix of one ruleset: ``labels`` (the ruleset's clauses), then any
    other clause its vectors cite; the numbers and status of each from the vectors."""
    tally: dict[str, list[int]] = {}  # label -> [run, passed, failed, known, n/a]
    # vectors alike in outcome and clauses counted together (a twin cites its curated
    # vector's clauses): a few hundred kinds for a ruleset's thousands of vectors
    for (outcome, cited), n in Counter(
        (v["outcome"], tuple(v["clauses"])) for v in vectors
    ).items():
        if outcome == _NA:
            for label in cited:
                tally.setdefault(label, [0, 0, 0, 0, 0])[4] += n
            continue
        passed = n if outcome == _PASS else 0
        failed = n if outcome in _FAILING else 0
        known = n if outcome == _XFAIL else 0
        for label in cited:
            t = tally.setdefault(label, [0, 0, 0, 0, 0])
            t[0] += n
            t[1] += passed
            t[2] += failed
            t[3] += known
    labels = list(dict.fromkeys(labels))
    rows = []
    for label in labels + sorted(set(tally) - set(labels)):
        run, passed_, failed, known, na = tally.get(label, (0, 0, 0, 0, 0))
        status = (
            "broken" if failed else "known-failures" if known else "untested" if not run else "ok"
        )
        rows.append(
            {
                "label": label,
                "status": status,
                "run": run,
                "passed": passed_,
                "failed": failed,
                "known_failures": known,
                "not_applicable": na,
            }
        )
    return rows


def _flag_rows(vectors: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    # the ids of the vectors alike in outcome and flags (most carry none), counted together
    alike: dict[tuple[Any, tuple[str, ...]], list[str]] = {}
    for v in vectors:
        flags = v["flags"]
        if flags and v["outcome"] != _NA:
            alike.setdefault((v["outcome"], tuple(flags)), []).append(v["id"])
    rows: dict[str, dict[str, Any]] = {}
    for (outcome, flags), ids in alike.items():
        n = len(ids)
        for flag in flags:
            row = rows.get(flag)
            if row is None:
                row = rows[flag] = {
                    "flag": flag,
                    "run": 0,
                    "passed": 0,
                    "failed": 0,
                    "known_failures": 0,
                    "vectors": [],
                }
            row["run"] += n
            row["passed"] += n if outcome == _PASS else 0
            if outcome in _DENYING:
                row["failed" if outcome in _FAILING else "known_failures"] += n
                row["vectors"] += ids
    for row in rows.values():
        row["vectors"].sort()
    return sorted(rows.values(), key=lambda x: (-x["failed"], -x["known_failures"], x["flag"]))


# the challenge block's states (reports/README.md, "The challenge")
CHALLENGE_PASSED, CHALLENGE_FAILED = "passed", "failed"
CHALLENGE_INCOMPLETE, CHALLENGE_NOT_APPLICABLE = "incomplete", "not applicable"
CHALLENGE_DISABLED, CHALLENGE_NOT_RECORDED = "disabled", "not recorded"
_ORIGINS = ("twin", "fresh")


def _challenge(
    ident: Mapping[str, Any],
    by_ruleset: Mapping[str, list[Mapping[str, Any]]],
    rulesets: Sequence[str],
    complete: bool,
) -> dict[str, Any]:
    """The challenge block: the seed and size the run recorded (``filters.challenge``),
    and per ruleset how the twins and fresh deals ended, from the vector records."""
    asked = ident.get("filters", {}).get("challenge")
    rows, denied, ran = [], 0, 0
    for rid in rulesets:
        row: dict[str, Any] = {"id": rid}
        of_origin: dict[str, list[str]] = {origin: [] for origin in _ORIGINS}
        for v in by_ruleset.get(rid, []):
            origin = v.get("origin")
            if origin:
                of_origin.get(origin.partition(":")[0], []).append(v["outcome"])
        for origin in _ORIGINS:
            outcomes = of_origin[origin]
            row[origin] = {
                "run": sum(o != _NA for o in outcomes),
                "passed": outcomes.count(_PASS),
                "failed": sum(o in _DENYING for o in outcomes),
                "not_applicable": outcomes.count(_NA),
            }
            denied += row[origin]["failed"]
            ran += row[origin]["run"]
        rows.append(row)
    if not isinstance(asked, Mapping):
        status = CHALLENGE_NOT_RECORDED
    elif asked.get("disabled"):
        status = CHALLENGE_DISABLED
    elif denied:
        status = CHALLENGE_FAILED
    elif not complete:
        status = CHALLENGE_INCOMPLETE
    else:
        status = CHALLENGE_PASSED if ran else CHALLENGE_NOT_APPLICABLE
    asked = asked if isinstance(asked, Mapping) else {}
    seed = asked.get("seed")
    return {
        "status": status,
        "seed": seed,
        "fresh_per_ruleset": asked.get("fresh_per_ruleset"),
        "sha256": asked.get("sha256"),
        # quoted: run.json is the vendor's, and a reviewer pastes this command
        "replay": f"--challenge-seed {_word(seed)}"
        + (
            f" --challenge {_word(asked['fresh_per_ruleset'])}"
            if asked.get("fresh_per_ruleset") is not None
            else ""
        )
        if seed is not None
        else "",
        "failed": denied,
        "rulesets": rows if seed is not None else [],
    }


# the attached modes' block (reports/README.md, "Attached modes")
MODE_PASSED, MODE_FAILED, MODE_INCOMPLETE = "passed", "failed", "incomplete"
MODE_NOT_APPLICABLE = "not applicable"


def _mode_settings(mode: str, asked: Mapping[str, Any]) -> tuple[dict[str, Any], str]:
    """A mode's seed and size as the run recorded them, and the run options replaying it."""
    from pokercert.harness.run.attached import FUZZ

    if mode == FUZZ:
        seed, examples = asked.get("seed"), asked.get("examples")
        return {
            "seed": seed,
            "examples": examples,
        }, f"--fuzz {_word(examples)} --fuzz-seed {_word(seed)}"
    seed = asked.get("order_seed")
    return {"order_seed": seed}, f"--exhaustive --order-seed {_word(seed)}"


def _word(value: Any) -> str:
    """A recorded value as one shell word of a replay command (a forged seed
    ``1 ; rm -rf ~`` stays one argument)."""
    return shlex.quote(str(value))


def _item_row(mode: str, rid: str, item: Mapping[str, Any] | None) -> dict[str, Any]:
    """One ruleset's row of a mode: its status (derived from the record), how much it
    checked of how much, how many disagreements it found, and why it was skipped or
    stopped."""
    from pokercert.harness.run.attached import DISAGREEMENTS, FUZZ, INCOMPLETE, item_status

    if item is None:
        return {
            "id": rid,
            "status": INCOMPLETE,
            "checked": 0,
            "of": 0,
            "disagreements": 0,
            "why": "no record: the run ended before this mode reached the ruleset",
        }
    if mode == FUZZ:
        checked, of = int(item.get("requests") or 0), int(item.get("examples") or 0)
        found = int(bool(item.get("counterexample") or item.get("flaky")))
    else:
        checked, of = int(item.get("checked") or 0), int(item.get("total") or 0)
        found = sum(int(item.get(k) or 0) for k in DISAGREEMENTS)
    return {
        "id": rid,
        "status": item_status(mode, item),
        "checked": checked,
        "of": of,
        "disagreements": found,
        "why": str(item.get("skipped") or item.get("aborted") or ""),
    }


def mode_blocks(
    ident: Mapping[str, Any], attached: Mapping[str, Any], rulesets: Sequence[str]
) -> dict[str, Any]:
    """Each attached mode's block: the seed and size the run recorded
    (``filters.fuzz``/``filters.exhaustive``), the options that replay it, and per
    ruleset its status and counts, from the mode's records (``attached``)."""
    from pokercert.harness.run.attached import FAILED, INCOMPLETE, MODES, PASSED

    filters = ident.get("filters", {})
    out: dict[str, Any] = {}
    for mode in MODES:
        asked = filters.get(mode)
        if not isinstance(asked, Mapping):
            continue
        by_ruleset = {
            i.get("ruleset"): i for i in attached.get(mode, []) or [] if isinstance(i, Mapping)
        }
        rows = [_item_row(mode, rid, by_ruleset.get(rid)) for rid in rulesets]
        statuses = {r["status"] for r in rows}
        status = (
            MODE_FAILED
            if FAILED in statuses
            else MODE_INCOMPLETE
            if INCOMPLETE in statuses
            else MODE_PASSED
            if PASSED in statuses
            else MODE_NOT_APPLICABLE
        )
        settings, replay = _mode_settings(mode, asked)
        out[mode] = {
            "status": status,
            **settings,
            "replay": replay,
            "failed": sum(r["status"] == FAILED for r in rows),
            "skipped": sum(r["status"] == "skipped" for r in rows),
            "rulesets": rows,
        }
    return out


def _mode_reasons(modes: Mapping[str, Any], rid: str) -> tuple[list[str], list[str]]:
    """Why the attached modes deny ruleset ``rid`` a certificate (found a disagreement)
    or leave it incomplete, in words."""
    from pokercert.harness.run.attached import FAILED, FUZZ, INCOMPLETE

    failed, incomplete = [], []
    for mode, block in modes.items():
        row = next((r for r in block["rulesets"] if r["id"] == rid), None)
        if row is None:
            continue
        seed = f"seed {block['seed']}" if mode == FUZZ else f"order seed {block['order_seed']}"
        if row["status"] == FAILED:
            failed.append(
                f"{mode} ({seed}) found {row['disagreements']} disagreement(s) "
                f"with the reference in {row['checked']:,} "
                f"{'requests' if mode == FUZZ else 'hands checked'}"
            )
        elif row["status"] == INCOMPLETE:
            why = row["why"] or f"stopped at {row['checked']:,} of {row['of']:,}"
            incomplete.append(f"{mode} ({seed}) did not finish: {why}")
    return failed, incomplete


def conclusions(
    identification: Mapping[str, Any],
    vectors: Sequence[Mapping[str, Any]],
    clause_labels: Mapping[str, Iterable[str]],
    attached: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Every conclusion of a report, derived from its facts: the one place they are made.

    ``identification`` and ``vectors`` are the report's (each vector: id, ruleset, kind,
    outcome, clauses, flags); ``clause_labels`` gives, per ruleset, the clauses its matrix
    lists first.  Returns counts (overall and per ruleset), completeness, the verdict and
    reasons of each ruleset with its clause matrix (numbers and status), the overall
    verdict and exit code, the failures (id, ruleset, kind, outcome, clauses and flags of
    every denying vector, in report order), the flag rows (without descriptions) and the
    not-applicable list, the challenge block and each attached mode's block (from
    ``attached``, the modes' per-ruleset records: a mode that failed on a ruleset denies
    it a certificate), and what the certificate covers (``covers``,
    :mod:`pokercert.reports.covers`: a corpus that is not the published release of its
    version denies every ruleset a certificate).  ``build_report`` adds the words
    (titles, summaries) around them; :func:`contradiction` holds a loaded report to them.
    """
    ident = identification
    ids = [v["id"] for v in vectors]
    by_ruleset, rulesets = _by_ruleset(ident, vectors)
    whole = _run_reasons(ident, ids)
    challenge = _challenge(ident, by_ruleset, rulesets, not whole)
    modes = mode_blocks(ident, attached or {}, rulesets)
    covered = covers(ident)
    denial = corpus_denial(covered)
    ruleset_rows = [
        _ruleset_row(
            rid,
            by_ruleset.get(rid, []),
            ident,
            whole,
            challenge["seed"],
            _mode_reasons(modes, rid),
            denial,
            clause_labels.get(rid, ()),
        )
        for rid in rulesets
    ]
    overall = V.overall_verdict(r["verdict"] for r in ruleset_rows)
    return {
        "verdict": overall,
        "exit_code": int(REPORT_EXIT_CODES[overall]),
        "counts": _counts(v["outcome"] for v in vectors),
        "completeness": _completeness(ident, len(ids), whole),
        "rulesets": ruleset_rows,
        "failures": _failures(vectors, rulesets),
        "flags": _flag_rows(vectors),
        "not_applicable": _not_applicable(rulesets, by_ruleset),
        "challenge": challenge,
        "modes": modes,
        "covers": covered,
    }


def _by_ruleset(
    ident: Mapping[str, Any], vectors: Sequence[Mapping[str, Any]]
) -> tuple[dict[str, list[Mapping[str, Any]]], list[str]]:
    """The vectors by ruleset, and the rulesets in report order: those the run named,
    then any other a vector is of, by id."""
    by_ruleset: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for v in vectors:
        by_ruleset[v["ruleset"]].append(v)
    rulesets = list(dict.fromkeys(ident.get("rulesets", [])))
    rulesets += sorted(set(by_ruleset) - set(rulesets))
    return by_ruleset, rulesets


def _completeness(ident: Mapping[str, Any], results: int, whole: list[str]) -> dict[str, Any]:
    """Whether the run is complete (``whole``: the reasons it is not), the vectors it
    selected, the results it holds and the results lines it repeated."""
    lines = ident.get("results_lines")
    return {
        "complete": not whole,
        "reasons": whole,
        "selected": ident.get("selected", 0),
        "results": results,
        "duplicate_lines": max(lines - results, 0) if lines is not None else 0,
    }


def _failures(vectors: Sequence[Mapping[str, Any]], rulesets: list[str]) -> list[dict[str, Any]]:
    """Every vector whose outcome denies a certificate, by ruleset (in report order),
    severity and id: its id, ruleset, kind, outcome, clauses, flags and origin."""
    order = {rid: i for i, rid in enumerate(rulesets)}
    denying = sorted(
        (v for v in vectors if v["outcome"] in _DENYING),
        key=lambda v: (order[v["ruleset"]], _SEVERITY[v["outcome"]], v["id"]),
    )
    return [
        {k: v[k] for k in ("id", "ruleset", "kind", "outcome", "clauses", "flags")}
        | {"origin": v.get("origin", "")}
        for v in denying
    ]


def _ruleset_row(
    rid: str,
    mine: list[Mapping[str, Any]],
    ident: Mapping[str, Any],
    whole: list[str],
    seed: Any,
    mode_reasons: tuple[list[str], list[str]],
    denial: str,
    labels: Iterable[str],
) -> dict[str, Any]:
    """One ruleset's row of :func:`conclusions`: counts, verdict with every reason
    (the run's own, the challenge's, the attached modes', the corpus's), clause matrix."""
    counts = _counts(v["outcome"] for v in mine)
    verdict, reasons = V.ruleset_verdict(counts, _missing(ident, rid, len(mine)) + whole)
    found = sum(v["outcome"] in _DENYING for v in mine if v.get("origin"))
    if found and verdict == V.NOT_CERTIFIED:
        reasons.append(
            f"{found} of the findings on challenge vectors (seed "
            f"{seed}): inputs no published vector holds"
        )
    verdict, reasons = V.with_attached(verdict, reasons, *mode_reasons)
    verdict, reasons = V.with_corpus(verdict, reasons, denial)
    return {
        "id": rid,
        "verdict": verdict,
        "reasons": reasons,
        "counts": counts,
        "clauses": _clause_rows(labels, mine),
    }


def _not_applicable(
    rulesets: Sequence[str], by_ruleset: Mapping[str, Sequence[Mapping[str, Any]]]
) -> list[dict[str, Any]]:
    """The not-applicable list of :func:`conclusions`: per ruleset and kind, the ids."""
    out: list[dict[str, Any]] = []
    for rid in rulesets:
        kinds: dict[str, list[str]] = defaultdict(list)
        for v in by_ruleset.get(rid, []):
            if v["outcome"] == _NA:
                kinds[v["kind"]].append(v["id"])
        out += [
            {
                "ruleset": rid,
                "kind": kind,
                "count": len(kinds[kind]),
                "vectors": sorted(kinds[kind]),
            }
            for kind in sorted(kinds)
        ]
    return out


def _vector(r: Result) -> dict[str, Any]:
    out = {
        "id": r.vector_id,
        "ruleset": r.ruleset,
        "kind": r.kind,
        "outcome": str(r.outcome),
        "clauses": list(r.clauses),
        "flags": list(r.flags),
        "duration_us": round((r.duration_s or 0.0) * 1e6),
    }
    if r.origin:
        out["origin"] = r.origin
    return out


LAB_KEYS = ("lab", "engineer", "submission_id", "scope")


def lab_fields(lab: Mapping[str, Any] | None) -> dict[str, str]:
    """The lab's fields as the report holds them: every key, "" where not given."""
    lab = lab or {}
    return {k: str(lab.get(k) or "") for k in LAB_KEYS}


def readings_run(header: RunHeader) -> dict[str, str]:
    """The profile's readings of the interpretations that apply to the rulesets run
    (run.json records every reading of the catalogue; the others decided nothing)."""
    readings = dict(header.profile.get("readings", {}))
    used: set[str] = set()
    for rid in header.rulesets:
        try:
            used.update(get_ruleset(rid).interpretations)
        except RulesetError:  # a ruleset not installed here: keep what is recorded
            return dict(sorted(readings.items()))
    return {k: v for k, v in sorted(readings.items()) if k in used}


def identification(header: RunHeader) -> dict[str, Any]:
    """Everything that identifies what was tested, how, and how to do it again; with
    the facts completeness is judged on (selection, shard, end, abort, results hash)."""
    return {
        "suite_version": header.suite_version,
        "corpus": {"version": header.corpus_version, "sha256": header.corpus_sha256},
        "harness_version": header.harness_version,
        "protocol_version": header.protocol_version,
        "results_format_version": header.format_version,
        "evaluator": {
            k: str(header.evaluator.get(k, "")) for k in ("vendor", "name", "version", "build")
        },
        "adapter": {k: str(header.adapter.get(k, "")) for k in ("name", "version")},
        "adapter_spec": header.adapter_spec,
        "measured_identity": getattr(header, "measured_identity", None)
        or not_measured("not measured: the run was made without measured identity"),
        "isolation": getattr(header, "isolation", None)
        or (  # runs from before the field:
            "process" if header.adapter_spec.startswith("exec:") else "in-process"
        ),
        "sandbox": sandbox_of(header),
        "profile": {
            "name": str(header.profile.get("name", UNKNOWN)),
            "readings": readings_run(header),
        },
        "rulesets": list(header.rulesets),
        "filters": header.filters,
        "shard": header.shard,
        "selected": header.selected,
        "selected_ids_sha256": header.selected_ids_sha256,
        "selected_by_ruleset": dict(sorted(getattr(header, "selected_by_ruleset", {}).items())),
        "capabilities": {
            k: list(v) for k, v in sorted(getattr(header, "capabilities", {}).items())
        },
        "limits": dict(getattr(header, "limits", {})),
        "platform": header.platform,
        "started_at": header.started_at,
        "resumed_at": list(getattr(header, "resumed_at", [])),
        "finished_at": header.finished_at,
        "aborted": getattr(header, "aborted", None),
        "results_sha256": getattr(header, "results_sha256", None),
        "results_lines": getattr(header, "results_lines", None),
        "command": list(header.command),
        "command_line": shlex.join(header.command),
        "lab": lab_fields(getattr(header, "lab", None)),
    }


def sandbox_of(header: RunHeader) -> dict[str, str] | None:
    """run.json's ``sandbox`` (mode and reason, as text); None for a run from before it."""
    sandbox = getattr(header, "sandbox", None)
    if not isinstance(sandbox, Mapping):
        return None
    return {"mode": str(sandbox.get("mode", "")), "reason": str(sandbox.get("reason", ""))}


def with_lab(report: Mapping[str, Any], lab: Mapping[str, str]) -> dict[str, Any]:
    """A copy of a sealed report whose lab fields ``lab`` overrides or adds to (``report
    --lab ...``), sealed again: the lab's own statements, not evidence of the run."""
    from pokercert.reports.canonical import seal

    out = json.loads(json.dumps(report))
    out.pop("digest", None)
    ident = out["identification"]
    ident["lab"] = lab_fields({**ident.get("lab", {}), **lab})
    return seal(out)


class ReportRefused(ReportError):
    """A report (or results folder) that cannot be trusted: it disagrees with itself, is
    not genuine, or its results are not what the harness wrote.  Exit code 1.

    A :class:`ReportError` still (``verify --rerun`` catches a refused rerun as one),
    so the CLI's exit-code table looks for it before :class:`InputError`."""


def build_report(folder: Path) -> dict[str, Any]:
    """The report of one results folder (without its digest: see ``canonical.seal``).

    Refuses (:class:`ReportRefused`) a folder whose ``results.jsonl`` does not hash to
    what its ``run.json`` records: the results were changed after the harness wrote them.
    """
    header, raw = load_run(Path(folder))
    problem = results_problem(Path(folder), header)
    if problem:
        raise ReportRefused(problem)
    return report_of(header, raw)


def report_of(header: RunHeader, raw: Iterable[Result]) -> dict[str, Any]:
    """The report of a run from its header and every result line in the order written
    (``pokercert run`` passes what it scored in memory, not what is on disk now)."""
    from pokercert.harness import __version__

    raw = list(raw)
    latest: dict[str, Result] = {}
    for r in raw:  # a resumed run may repeat a vector: its last line counts
        latest[r.vector_id] = r
    results = sorted(latest.values(), key=lambda r: r.vector_id)
    ident = identification(header)
    if ident["results_lines"] is None:  # unrecorded (a killed run): the lines there are
        ident["results_lines"] = len(raw)
    vectors = [_vector(r) for r in results]
    rulesets = set(ident["rulesets"]) | {r.ruleset for r in results}
    attached = json.loads(json.dumps(getattr(header, "attached", None) or {}))
    derived = conclusions(ident, vectors, {rid: _clause_labels(rid) for rid in rulesets}, attached)
    descriptions = flag_descriptions()
    by_id = {r.vector_id: r for r in results}
    return {
        "report_format_version": REPORT_FORMAT_VERSION,
        "generator": {"name": "pokercert", "version": __version__},
        "generated_at": generated_at(header),
        "verdict": derived["verdict"],
        "exit_code": derived["exit_code"],
        "counts": derived["counts"],
        "identification": ident,
        "completeness": derived["completeness"],
        "rulesets": [
            {
                "id": row["id"],
                **_ruleset_info(row["id"]),
                "verdict": row["verdict"],
                "reasons": row["reasons"],
                "counts": row["counts"],
                "clauses": [
                    {"label": c["label"], "summary": clause_summary(c["label"]), **c}
                    for c in row["clauses"]
                ],
            }
            for row in derived["rulesets"]
        ],
        "failures": [_failure(by_id[f["id"]]) for f in derived["failures"]],
        "flags": [
            {
                "flag": row["flag"],
                "description": descriptions.get(row["flag"], "(flag not in the installed corpus)"),
                **row,
            }
            for row in derived["flags"]
        ],
        "not_applicable": derived["not_applicable"],
        "challenge": derived["challenge"],
        "modes": derived["modes"],
        "covers": derived["covers"],
        "attached": attached,
        "vectors": vectors,
    }


# ----------------------------------------------------------------------------- consistency
def _shown(value: Any, limit: int = 160) -> str:
    text = (
        value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, sort_keys=True)
    )
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _key(row: Any, i: int) -> str:
    if isinstance(row, Mapping):
        if "ruleset" in row and "kind" in row and "id" not in row:
            return f"{row['ruleset']}/{row['kind']}"
        for name in ("id", "label", "flag"):
            value = row.get(name)
            if isinstance(value, str):
                return value
    return str(i)


def _first_difference(path: str, claimed: Any, derived: Any) -> tuple[str, Any, Any] | None:
    """The first place ``claimed`` differs from ``derived``, looking only at what
    ``derived`` holds (the words around the conclusions are facts, not checked here)."""
    if isinstance(derived, Mapping):
        if not isinstance(claimed, Mapping):
            return path, claimed, derived
        for k in derived:
            found = _first_difference(f"{path}.{k}", claimed.get(k), derived[k])
            if found:
                return found
        return None
    if isinstance(derived, list):
        if not isinstance(claimed, list):
            return path, claimed, derived
        keyed = derived and isinstance(derived[0], Mapping)
        if keyed and [_key(c, i) for i, c in enumerate(claimed)] != [
            _key(d, i) for i, d in enumerate(derived)
        ]:
            return (
                path,
                [_key(c, i) for i, c in enumerate(claimed)],
                [_key(d, i) for i, d in enumerate(derived)],
            )
        if len(claimed) != len(derived):
            return path, claimed, derived
        for i, (c, d) in enumerate(zip(claimed, derived, strict=True)):
            found = _first_difference(f"{path}[{_key(d, i)}]", c, d)
            if found:
                return found
        return None
    if claimed != derived or type(claimed) is not type(derived):
        return path, claimed, derived
    return None


def _scored_as_problem(failures: list[Any]) -> str:
    for f in failures:
        outcome, before = f.get("outcome"), f.get("scored_as", "")
        ok = (
            before in _FAILING - {str(Outcome.XPASS)}
            if outcome == _XFAIL
            else before == _PASS
            if outcome == str(Outcome.XPASS)
            else before == ""
        )
        if not ok:
            return (
                f"failures[{f.get('id')}].scored_as says {before!r}, which a "
                f"{outcome} vector cannot have been scored as"
            )
    return ""


def contradiction(report: Mapping[str, Any]) -> str:
    """The first way a report disagrees with itself, in words; ``""`` if it does not.

    Recomputes every conclusion (:func:`conclusions`) from the report's facts (its
    identification, per-vector records and the attached modes' records) and compares,
    in this order: the vector records themselves, the counts, the completeness, each
    ruleset (counts, verdict, reasons, clause matrix), the failures, the flag rows, the
    not-applicable list, the challenge, the attached modes, what the certificate covers
    (the corpus against this pokercert's release registry), the overall verdict and the
    exit code.  Expects a report that follows the schema.
    """
    vectors = report["vectors"]
    seen: set[str] = set()
    for v in vectors:
        if v["id"] in seen:
            return f"vectors lists {v['id']} twice"
        seen.add(v["id"])
    labels = {row["id"]: [c["label"] for c in row["clauses"]] for row in report["rulesets"]}
    derived = conclusions(report["identification"], vectors, labels, report.get("attached"))
    claimed = {
        **report,
        "failures": [
            {**f, "clauses": [c["label"] for c in f["clauses"]]} for f in report["failures"]
        ],
    }
    for name in (
        "counts",
        "completeness",
        "rulesets",
        "failures",
        "flags",
        "not_applicable",
        "challenge",
        "modes",
        "covers",
        "verdict",
        "exit_code",
    ):
        found = _first_difference(name, claimed.get(name), derived[name])
        if found is None:
            continue
        path, said, gives = found
        if path.startswith("rulesets[") and path.endswith("].verdict"):
            rid = path[len("rulesets[") : -len("].verdict")]
            row = next(r for r in derived["rulesets"] if r["id"] == rid)
            return f"{path} says {said}, its vectors give {gives} ({'; '.join(row['reasons'])})"
        source = (
            "its rulesets give"
            if name in ("verdict", "exit_code")
            else "its mode records give"
            if name == "modes"
            else "its identification gives (with this pokercert's release registry)"
            if name == "covers"
            else "its vectors give"
        )
        return f"{path} says {_shown(said)}, {source} {_shown(gives)}"
    return _scored_as_problem(report["failures"])
