"""Re-run the evaluator a report describes, through the harness, to compare outcomes.

The run repeats the report's selection: the same ruleset and flag filters, the same
shard, every interpretation reading of its profile (written to a profile file, so a
custom profile is reproduced exactly), and its timeouts.  It runs without the vendor's
expectations file: outcomes are compared as scored before any expectations applied
(an XFAIL that was a FAIL must be a FAIL again), so a regulator needs no vendor file.
The challenge set is generated again from the report's seed and size (the same seed
gives the same vectors), so its outcomes compare vector by vector as well; so are the
attached modes, fuzz with its seed and deals per ruleset, exhaustive with its card-order
seed (:func:`modes_of`), whose records must come out the same (:func:`mode_changes`).
The same ``--identity-file`` paths are measured again, so the rerun's measured identity
compares with the report's (:func:`identity_changes`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pokercert.reports.canonical import ReportError


def _profile_file(profile: dict[str, Any], folder: Path) -> Path:
    lines = [f"name = {json.dumps(profile['name'])}", "", "[readings]"]
    lines += [f"{json.dumps(k)} = {json.dumps(v)}" for k, v in profile["readings"].items()]
    path = folder / "profile.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def challenge_of(filters: dict[str, Any]) -> dict[str, Any]:
    """The run options that replay a report's challenge: its seed and size, or none
    (a run with --no-challenge, or from before challenge vectors)."""
    challenge = filters.get("challenge") or {}
    if challenge.get("seed") is None:
        return {"challenge": False}
    return {
        "challenge": True,
        "challenge_seed": int(challenge["seed"]),
        "challenge_fresh": int(challenge.get("fresh_per_ruleset", 0)),
    }


def modes_of(filters: dict[str, Any]) -> dict[str, Any]:
    """The run options that replay a report's attached modes: the fuzz seed and deals per
    ruleset, the exhaustive card-order seed (none: the mode was not attached)."""
    out: dict[str, Any] = {}
    fuzz, exhaustive = filters.get("fuzz"), filters.get("exhaustive")
    if isinstance(fuzz, dict):
        out.update(fuzz=int(fuzz["examples"]), fuzz_seed=int(fuzz["seed"]))
    if isinstance(exhaustive, dict):
        out.update(exhaustive=True, order_seed=int(exhaustive["order_seed"]))
    return out


def rerun(report: dict[str, Any], spec: str, folder: Path) -> Path:
    """Run ``spec`` on the report's selection into ``folder``; returns the results folder."""
    from pokercert.harness.adapters import AdapterError, SpecError
    from pokercert.harness.run.limits import Limits
    from pokercert.harness.run.runner import RunConfig, RunError, run

    ident = report["identification"]
    filters, limits = ident["filters"], ident["limits"]
    config = RunConfig(
        adapter=spec,
        out=folder / "results",
        rulesets=filters.get("rulesets") or None,
        profile=str(_profile_file(ident["profile"], folder)),
        flags=filters.get("flags") or None,
        shard=ident["shard"],
        limits=Limits(
            timeout=float(limits.get("timeout_s") or 10.0),
            max_restarts=int(limits.get("max_restarts") or 50),
        ),
        identity_files=list(ident.get("measured_identity", {}).get("identity_files", [])),
        command=["pokercert", "verify", "--rerun", spec],
        **challenge_of(filters),
        **modes_of(filters),
    )
    try:
        outcome = run(config)
    except (RunError, SpecError) as exc:
        raise ReportError(f"cannot re-run {spec}: {exc}") from None
    except AdapterError as exc:
        raise ReportError(f"cannot start adapter {spec}: {exc}") from None
    return outcome.folder


def scored_outcomes(report: dict[str, Any]) -> dict[str, Any]:
    """``report`` with each XFAIL/XPASS outcome replaced by the outcome it was scored as."""
    before = {f["id"]: f["scored_as"] for f in report["failures"] if f.get("scored_as")}
    vectors = [{**v, "outcome": before.get(v["id"], v["outcome"])} for v in report["vectors"]]
    return {**report, "vectors": vectors}


DECLARED = ("vendor", "name", "version", "build")


def identity_changes(report: dict[str, Any], fresh: dict[str, Any]) -> list[str]:
    """How the rerun's identity differs from the report's: the evaluator's declared
    vendor, name, version and build, then the identity the harness measured (which file,
    old and new SHA-256).  Empty: the same software, as far as both can tell."""
    from pokercert.harness.identity import differences

    old, new = report["identification"], fresh["identification"]
    out = [
        f"declared {k}: {old['evaluator'].get(k, '')!r} -> {new['evaluator'].get(k, '')!r}"
        for k in DECLARED
        if old["evaluator"].get(k, "") != new["evaluator"].get(k, "")
    ]
    out += [
        f"measured {d}"
        for d in differences(old.get("measured_identity", {}), new.get("measured_identity", {}))
    ]
    return out


def mode_changes(report: dict[str, Any], fresh: dict[str, Any]) -> list[str]:
    """How the rerun's attached modes differ from the report's: per mode and ruleset, the
    first field of its record that differs (the same seeds give the same records)."""
    out = []
    old, new = report.get("attached", {}), fresh.get("attached", {})
    for mode in sorted(set(old) | set(new)):
        before = {i.get("ruleset"): i for i in old.get(mode, [])}
        after = {i.get("ruleset"): i for i in new.get(mode, [])}
        for rid in sorted(set(before) | set(after), key=str):
            a, b = before.get(rid, {}), after.get(rid, {})
            for key in sorted(set(a) | set(b)):
                if key != "draft" and a.get(key) != b.get(key):
                    out.append(f"{mode} {rid}: {key} {_short(a.get(key))} -> {_short(b.get(key))}")
                    break
    return out


def _short(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False)
    return text if len(text) <= 80 else text[:79] + "…"
