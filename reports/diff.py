"""``pokercert diff OLD NEW``: what changed, vector by vector, between two runs.

For a modification re-test of a certified evaluator: which vectors newly fail, which
were fixed, which changed in another way (for example PASS to NOT_APPLICABLE, a loss of
coverage), which were added to or removed from the selection (challenge vectors by id only when
both runs used the same challenge seed; else the two challenges compare as a whole,
and a challenge that newly fails counts as a new failure); and which identifying
facts (evaluator version, corpus, profile, rulesets) differ, since outcomes only
compare under the same corpus and profile.
"""

from __future__ import annotations

from typing import Any

from pokercert.harness.run.results import Outcome
from pokercert.reports.verdict import DENYING

CHANGE_KINDS = ("newly_failing", "fixed", "changed", "added", "removed")
COMPARED = (
    ("evaluator",),
    ("measured_identity", "digest"),
    ("adapter_spec",),
    ("suite_version",),
    ("corpus", "version"),
    ("corpus", "sha256"),
    ("profile",),
    ("rulesets",),
    ("filters",),
)
_DENYING = {str(o) for o in DENYING}


def _get(ident: dict[str, Any], path: tuple[str, ...]) -> Any:
    for key in path:
        ident = ident.get(key, {}) if isinstance(ident, dict) else {}
    if path == ("filters",) and isinstance(ident, dict):  # the challenge: compared apart
        return {k: v for k, v in ident.items() if k != "challenge"}
    return ident


def _kind(old: str | None, new: str | None) -> str | None:
    if old == new:
        return None
    if old is None:
        return "added"
    if new is None:
        return "removed"
    if new in _DENYING and old not in _DENYING:
        return "newly_failing"
    if old in _DENYING and new == Outcome.PASS:
        return "fixed"
    return "changed"


def diff_reports(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """Per vector id, how ``new`` differs from ``old`` (both sealed or unsealed reports)."""
    same_seed = _challenge(old)["seed"] == _challenge(new)["seed"]
    # challenge vectors of different seeds are different inputs: compared as a whole
    before = {v["id"]: v for v in old["vectors"] if same_seed or not v.get("origin")}
    after = {v["id"]: v for v in new["vectors"] if same_seed or not v.get("origin")}
    changes: dict[str, list[dict[str, Any]]] = {k: [] for k in CHANGE_KINDS}
    for vid in sorted(before.keys() | after.keys()):
        a, b = before.get(vid), after.get(vid)
        kind = _kind(a and a["outcome"], b and b["outcome"])
        if kind:
            changes[kind].append(
                {
                    "id": vid,
                    "ruleset": (b or a)["ruleset"],  # type: ignore
                    "old": a and a["outcome"],
                    "new": b and b["outcome"],
                }
            )
    ident_old, ident_new = old["identification"], new["identification"]
    differs = [
        {"field": ".".join(p), "old": _get(ident_old, p), "new": _get(ident_new, p)}
        for p in COMPARED
        if _get(ident_old, p) != _get(ident_new, p)
    ]
    return {
        "old": {
            "verdict": old["verdict"],
            "digest": old.get("digest", ""),
            "evaluator": ident_old["evaluator"],
        },
        "new": {
            "verdict": new["verdict"],
            "digest": new.get("digest", ""),
            "evaluator": ident_new["evaluator"],
        },
        "identification_changes": differs,
        "changes": changes,
        "counts": {k: len(v) for k, v in changes.items()},
        "challenge": {
            "old": _challenge(old),
            "new": _challenge(new),
            "compared": "by vector id"
            if same_seed
            else "as a whole (the seeds differ, so the vectors do)",
            "newly_failing": not same_seed
            and _challenge(new)["status"] == "failed"
            and _challenge(old)["status"] != "failed",
        },
    }


def _challenge(report: dict[str, Any]) -> dict[str, Any]:
    ch = report.get("challenge") or {}
    return {
        "seed": ch.get("seed"),
        "status": ch.get("status", "not recorded"),
        "failed": ch.get("failed", 0),
    }
