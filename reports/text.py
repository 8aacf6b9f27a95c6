"""Words shared by the human views (Markdown, HTML, JUnit): one way to say each thing."""

from __future__ import annotations

import json
import re
from typing import Any

from pokercert.reports import verdict as V

VERDICT_MARK = {V.CERTIFIED: "✅", V.NOT_CERTIFIED: "❌", V.INCOMPLETE: "⚠️",
                V.NOT_APPLICABLE: "➖"}
OUTCOME_WORDS = {
    "FAIL": "wrong answer",
    "WRONG_REASON": "refused for the wrong reason",
    "ERROR": "adapter raised or answered malformed",
    "TIMEOUT": "no answer in time",
    "CRASH": "evaluator process died",
    "XFAIL": "known failure (expectations file)",
    "XPASS": "passed although listed as a known failure",
}
# characters XML 1.0 cannot carry at all (vendor output may hold anything)
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def printable(text: str) -> str:
    """``text`` with control characters shown as ``\\xNN`` (safe in XML, HTML, Markdown)."""
    return _NOT_XML.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def value(v: Any) -> str:
    """One input or answer value in words: card strings as is, lists bracketed."""
    if isinstance(v, str):
        return v
    if isinstance(v, list):
        return "[" + ", ".join(value(x) for x in v) + "]"
    if v is None:
        return "none"
    if isinstance(v, dict):
        return describe(v)
    return json.dumps(v, ensure_ascii=False)


def describe(data: dict[str, Any] | None) -> str:
    """``key: value; key: value`` for inputs, expected and actual answers."""
    if data is None:
        return "(no answer)"
    if not data:
        return "(nothing)"
    return printable("; ".join(f"{k}: {value(data[k])}" for k in sorted(data)))


def clauses_line(failure: dict[str, Any]) -> str:
    return ", ".join(c["label"] for c in failure["clauses"]) or "(no clause)"


def readings_line(failure: dict[str, Any]) -> str:
    return ", ".join(f"{r['interpretation']}={r['reading']}" for r in failure["readings"])


def evaluator_line(ident: dict[str, Any]) -> str:
    ev = ident["evaluator"]
    words = " ".join(x for x in (ev["vendor"], ev["name"], ev["version"]) if x)
    return words + (f" (build {ev['build']})" if ev["build"] else "")


def counts_line(counts: dict[str, int]) -> str:
    """``12 PASS, 1 FAIL`` in the severity order, zeros left out."""
    parts = [f"{counts[o]} {o}" for o in map(str, V.OUTCOME_ORDER) if counts.get(o)]
    return ", ".join(parts) or "no vectors"


def known_line(f: dict[str, Any]) -> str:
    """An XFAIL/XPASS finding's entry in the expectations file."""
    before = f" (scored {f['scored_as']} before it applied)" if f["scored_as"] else ""
    return printable(f"expectations file: {f['known_failure']}{before}")


def failure_message(f: dict[str, Any]) -> str:
    """The one-paragraph finding: outcome, clause, why, expected vs actual."""
    parts = [f"{f['outcome']} ({OUTCOME_WORDS.get(f['outcome'], '')}) under {clauses_line(f)}"]
    for c in f["clauses"]:
        parts.append(f"{c['label']}: {c['summary']}")
    if f["why"]:
        parts.append(f"why: {f['why']}")
    parts.append(f"expected: {describe(f['expected'])}")
    parts.append(f"actual: {describe(f['actual'])}")
    if f["message"]:
        parts.append(f"message: {printable(f['message'])}")
    if f["known_failure"]:
        parts.append(known_line(f))
    if f["readings"]:
        parts.append(f"scored under: {readings_line(f)}")
    if f["flags"]:
        parts.append(f"flags: {', '.join(f['flags'])}")
    return "\n".join(parts)


def capabilities_line(ident: dict[str, Any]) -> str:
    caps = ident["capabilities"]
    return "; ".join(f"{rid}: {', '.join(kinds)}" for rid, kinds in caps.items()) or "-"
