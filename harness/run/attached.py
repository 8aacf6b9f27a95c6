"""Fuzz and exhaustive runs attached to a certification run: one certificate, all evidence.

``pokercert run --fuzz N`` and ``pokercert run --exhaustive`` run, after the curated
corpus and the challenge and with the same started adapter, the existing explorers over
every ruleset of the run:

* **fuzz** (:func:`pokercert.harness.explore.fuzz.fuzz`): ``N`` deals per ruleset,
  round-robin over its situations, from one fuzz seed; the first disagreement shrunk;
* **exhaustive** (:func:`pokercert.harness.explore.exhaustive.run_exhaustive`): every
  hand of each ruleset the adapter claims classify or compare for (its exhaustive path),
  each sent in the card order of one order seed; the others are skipped and said so.

What each did per ruleset is one plain record (:func:`fuzz_item`, :func:`exhaustive_item`),
kept in ``run.json`` (``attached``) beside what was asked (``filters.fuzz``,
``filters.exhaustive``: seeds and sizes).  The records are facts: a report derives each
mode's status and its share of the verdict from them (``reports.model``) and refuses one
that says otherwise.  Records hold no clock, so the same seeds give the same records, byte
for byte.  Findings are written up as drafts for the corpus by the one draft writer
(``counterexamples/fuzz-RULESET.toml``, ``counterexamples/exhaustive-RULESET.toml``).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pokercert.harness.adapters import Adapter, AdapterAborted, AdapterError, Identity
from pokercert.harness.run.results import ATTACHED, COUNTEREXAMPLES
from pokercert.reference import Profile, get_ruleset
from pokercert.reference.errors import InputError

# a mode's progress as it goes: (phase name, done, total), e.g. ("exhaustive nj-holdem:
# hands", 40_000, 133_784_560); the CLI draws it (a plain stderr line without a terminal)
Phases = Callable[[str, int, int], None]

__all__ = [
    "EXHAUSTIVE",
    "FAILED",
    "FUZZ",
    "INCOMPLETE",
    "ITEM_STATUSES",
    "MODES",
    "PASSED",
    "SKIPPED",
    "asked",
    "exhaustive_item",
    "fuzz_item",
    "item_status",
    "run_attached",
    "skipped_item",
]

FUZZ, EXHAUSTIVE = "fuzz", "exhaustive"
MODES = (FUZZ, EXHAUSTIVE)
FINDINGS_KEPT = 10  # exhaustive findings kept per ruleset (as `exhaustive`)


# what a mode's record of one ruleset says (reports.model derives it, never reads it)
PASSED, FAILED, INCOMPLETE, SKIPPED = "passed", "failed", "incomplete", "skipped"
ITEM_STATUSES = (PASSED, FAILED, INCOMPLETE, SKIPPED)
DISAGREEMENTS = (
    "category_disagreements",
    "class_disagreements",
    "order_disagreements",
    "errors",
    "order_errors",
)


def item_status(mode: str, item: Mapping[str, Any]) -> str:
    """The status of one ruleset's record of ``mode``, from its facts alone: ``skipped``
    (the mode could not cover the ruleset), ``failed`` (fuzz: a counterexample, or the
    adapter answered one input two ways; exhaustive: any disagreement or error),
    ``incomplete`` (the harness gave up, or the exhaustive pass did not finish), else
    ``passed``.  A finding is final even when the mode did not finish."""
    if item.get("skipped"):
        return SKIPPED
    if mode == FUZZ:
        failed = bool(item.get("counterexample") or item.get("flaky"))
    else:
        failed = any(int(item.get(k) or 0) for k in DISAGREEMENTS)
    if failed:
        return FAILED
    if item.get("aborted") or (mode == EXHAUSTIVE and not item.get("finished")):
        return INCOMPLETE
    return PASSED


def asked(
    fuzz_examples: int | None, fuzz_seed: int | None, exhaustive: bool, order_seed: int | None
) -> dict[str, dict[str, Any]]:
    """What ``run.json`` records as asked (``filters.fuzz`` / ``filters.exhaustive``):
    the seed and size of each mode the run attaches, seeds drawn where none was given."""
    # (the imports only when asked: the default run pays nothing for the modes)
    out: dict[str, dict[str, Any]] = {}
    if fuzz_examples is not None:
        from pokercert.harness.run.challenge import draw_seed

        out[FUZZ] = {
            "seed": draw_seed() if fuzz_seed is None else fuzz_seed,
            "examples": fuzz_examples,
        }
    if exhaustive:
        from pokercert.harness.explore.exhaustive import draw_order_seed

        out[EXHAUSTIVE] = {"order_seed": draw_order_seed() if order_seed is None else order_seed}
    return out


def skipped_item(ruleset: str, why: str) -> dict[str, Any]:
    """The record of a ruleset a mode could not cover (said in every report)."""
    return {"ruleset": ruleset, "skipped": why}


def fuzz_item(report: Any, draft: str | None) -> dict[str, Any]:
    """The record of one ruleset's fuzz run (a :class:`~pokercert.harness.explore.fuzz.
    FuzzReport`): seed, size, requests sent, situations, and the minimal counterexample
    with the adapter's answer and the reference's, if any."""
    counterexample = None
    if report.found is not None:
        vector = report.found.vector
        counterexample = {
            "kind": vector.kind,
            "inputs": dict(vector.inputs),
            "expected": _expected(vector),
            "actual": report.found.actual,
            "outcome": str(report.outcome),
            "message": report.found.message,
            "situation": report.situation or None,
        }
    return {
        "ruleset": report.ruleset,
        "seed": report.seed,
        "examples": report.examples,
        "kinds": list(report.kinds),
        "requests": report.calls,
        "situations": dict(report.situations),
        "flaky": report.flaky or None,
        "counterexample": counterexample,
        "draft": draft,
        "aborted": None,
    }


def _expected(vector: Any) -> dict[str, Any]:
    if vector.expect is not None:
        return dict(vector.expect)
    return {"by_reading": {r: dict(e) for r, e in (vector.expect_by_reading or {}).items()}}


def exhaustive_item(state: Any, draft: str | None) -> dict[str, Any]:
    """The record of one ruleset's exhaustive run (its saved state, elapsed time left
    out): hands checked of how many, the mode, the disagreements by check, what could
    not be decided, and the first findings."""
    keys = (
        "order_seed",
        "mode",
        "total",
        "checked",
        "classes",
        "category_disagreements",
        "class_disagreements",
        "order_disagreements",
        "errors",
        "order_errors",
        "unverifiable_hands",
        "unverifiable_orders",
        "finished",
    )
    item: dict[str, Any] = {"ruleset": state.ruleset, **{k: getattr(state, k) for k in keys}}
    item["aborted"] = state.aborted or None
    item["findings"] = [_finding(d) for d in state.disagreements]
    item["draft"] = draft
    return item


def _finding(d: Any) -> dict[str, Any]:
    """One exhaustive finding for the report: the check, the hands, the message (what the
    evaluator did) and, from the vector it was written up as (when it was), the
    reference's answer (``expected``) and its reason (``why``)."""
    found: dict[str, Any] = {"check": d.check, "hands": list(d.hands), "message": d.message}
    if d.vector:
        found["expected"] = dict(d.vector.get("expect") or {})
        found["why"] = str(d.vector.get("why") or "")
    return found


def _write_drafts(folder: Path, name: str, ruleset: str, drafts: Sequence[Any]) -> str | None:
    """The drafts of one mode and ruleset in ``counterexamples/NAME-RULESET.toml`` by the
    one draft writer; the path relative to the run folder (None: nothing found)."""
    from pokercert.harness.explore.counterexample import drafts_text

    if not drafts:
        return None
    path = Path(folder) / COUNTEREXAMPLES / f"{name}-{ruleset}.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(drafts_text(ruleset, drafts), encoding="utf-8")
    return path.relative_to(folder).as_posix()


def _fuzz(
    adapter: Adapter,
    identity: Identity,
    rid: str,
    profile: Profile,
    settings: Mapping[str, Any],
    folder: Path,
    spec: str,
    phases: Phases | None = None,
) -> dict[str, Any]:
    from pokercert.harness.explore.counterexample import draft_of
    from pokercert.harness.explore.fuzz import claimed_kinds, fuzz

    ruleset = get_ruleset(rid)
    kinds = claimed_kinds(identity.capabilities, ruleset)
    if not kinds:
        return skipped_item(rid, "the adapter claims no kind fuzz deals for this ruleset")
    adapter.configure(rid, profile.readings_for(ruleset))
    examples = int(settings["examples"])
    shown = None if phases is None else (lambda done: phases(f"fuzz {rid}", done, examples))
    report = fuzz(
        adapter,
        ruleset,
        profile,
        kinds=kinds,
        examples=examples,
        seed=int(settings["seed"]),
        features=identity.features,
        on_example=shown,
    )
    found = [draft_of(report.found, spec)] if report.found is not None else []
    return fuzz_item(report, _write_drafts(folder, FUZZ, rid, found))


def _exhaustive(
    adapter: Adapter,
    identity: Identity,
    rid: str,
    profile: Profile,
    settings: Mapping[str, Any],
    folder: Path,
    spec: str,
    phases: Phases | None = None,
) -> dict[str, Any]:
    from pokercert.harness.explore.exhaustive import ExhaustiveAborted, run_exhaustive

    if not (identity.claims(rid, "classify") or identity.claims(rid, "compare")):
        return skipped_item(
            rid,
            "the adapter claims neither classify nor compare for this ruleset: no exhaustive path",
        )
    ruleset = get_ruleset(rid)
    adapter.configure(rid, profile.readings_for(ruleset))
    try:
        state = run_exhaustive(
            adapter,
            identity,
            ruleset,
            profile,
            Path(folder) / ATTACHED / EXHAUSTIVE / rid,
            adapter_spec=spec,
            report_limit=FINDINGS_KEPT,
            order_seed=int(settings["order_seed"]),
            progress=None
            if phases is None
            else (lambda done, total: phases(f"exhaustive {rid}: hands", done, total)),
            phase=None
            if phases is None
            else (lambda name, done, total: phases(f"exhaustive {rid}: {name}", done, total)),
        )
    except ExhaustiveAborted as exc:
        # the harness gave up mid-pass: the record keeps what was checked and found
        exc.record = _exhaustive_record(exc.state, folder, rid, spec)
        raise
    except InputError as exc:  # no pass this adapter can take (seven cards, no key)
        return skipped_item(rid, str(exc))
    return _exhaustive_record(state, folder, rid, spec)


def _exhaustive_record(state: Any, folder: Path, rid: str, spec: str) -> dict[str, Any]:
    """The record of an exhaustive pass, its findings written up as drafts."""
    from pokercert.harness.explore.counterexample import Draft, finding_comment

    drafts = [
        Draft(d.vector, finding_comment(spec, d.message)) for d in state.disagreements if d.vector
    ]
    return exhaustive_item(state, _write_drafts(folder, EXHAUSTIVE, rid, drafts))


_RUNNERS = {FUZZ: _fuzz, EXHAUSTIVE: _exhaustive}


def run_attached(
    adapter: Adapter,
    identity: Identity,
    rulesets: Sequence[str],
    profile: Profile,
    modes: Mapping[str, Mapping[str, Any]],
    folder: Path,
    spec: str,
    into: dict[str, list[dict[str, Any]]] | None = None,
    phases: Phases | None = None,
) -> tuple[dict[str, list[dict[str, Any]]], str]:
    """Run each asked mode (``filters``' ``fuzz`` / ``exhaustive``) over ``rulesets`` with
    the started ``adapter``; returns the records by mode and, if the harness gave up on
    the adapter, why (the records of the rulesets not reached say ``aborted``).  The
    ``phases`` (if given) hears each mode's progress.  The
    records are added to ``into`` (if given) as each ruleset ends, so a watchdog that
    ends the process mid-mode finds the records of the rulesets done."""
    shutil.rmtree(Path(folder) / ATTACHED, ignore_errors=True)
    out: dict[str, list[dict[str, Any]]] = {} if into is None else into
    aborted = ""
    for mode in MODES:
        if mode not in modes:
            continue
        items = out[mode] = []
        for rid in rulesets:
            if aborted:
                items.append({"ruleset": rid, "aborted": aborted})
                continue
            try:
                items.append(
                    _RUNNERS[mode](
                        adapter, identity, rid, profile, modes[mode], folder, spec, phases
                    )
                )
            except AdapterAborted as exc:
                aborted = str(exc)
                # (an exhaustive pass keeps what it checked and found before: its record)
                items.append(getattr(exc, "record", None) or {"ruleset": rid, "aborted": aborted})
            except AdapterError as exc:  # (configure refused): this ruleset only
                items.append({"ruleset": rid, "aborted": f"the adapter failed: {exc}"})
    return out, aborted
