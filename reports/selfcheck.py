"""The self-check: run the corpus against the reference and every mutant, score the kills.

Every run goes through :func:`pokercert.harness.run.runner.run`, the runner behind
``pokercert run``, with the mutant named by an ordinary adapter spec
(:func:`spec_for`), so a mutant is loaded, configured, batched and scored exactly as a
vendor's evaluator is.  Each run leaves a normal run folder (``OUT/reference``,
``OUT/<mutant id>``) that ``pokercert report`` can read.

A mutant is

* **killed** on a ruleset when the runner does not certify it there and at least one
  vector shows a wrong answer: FAIL, WRONG_REASON or XPASS, or ERROR on an answer the
  harness refused as malformed (a category the ruleset does not have);
* **survived** when the runner certifies it (the corpus has no vector that tells it
  from the reference);
* **broken** when it was refused a certificate only by exceptions, timeouts or
  crashes, or the run did not finish: the mutant itself is faulty (an engine step it
  patches is gone, say), and such a "kill" proves nothing;
* **excused** on a ruleset where the chosen profile picks the very reading the mistake
  amounts to (``Mutant.same_as_reading``): there it is no mistake, and is not run.

Beside the kills of the curated corpus, each cell says whether the challenge's **fresh
deals alone** kill the mutant there (:func:`fresh_kills`): the fresh part of the challenge
set of one seed (:data:`FRESH_SEED` unless told), scored through the runner's own path.
That is what stands between a certificate and an evaluator that memorised the public
corpus up to symmetry (issue 26): it answers every curated vector and every twin from its
table, and only the fresh deals are new to it.

The verdict is meant for the default (practice) profile.  Under another profile a
survivor may also be a mistake that the chosen readings happen to make harmless (with
the literal "unsuited" reading, five-card straights cannot exist, so swapping flush and
straight changes nothing): judge those by hand.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pokercert.harness.mutants.catalogue import MUTANTS
from pokercert.harness.mutants.model import Mutant
from pokercert.harness.run.limits import Limits
from pokercert.harness.run.results import Outcome, Result, read_results
from pokercert.harness.run.runner import RunConfig, run
from pokercert.reference import load_profile
from pokercert.reports.verdict import CERTIFIED, ruleset_verdict
from pokercert.vectors import registry
from pokercert.vectors.model import Vector

KILLED, SURVIVED, BROKEN, EXCUSED = "killed", "survived", "broken", "excused"
# outcomes that show a wrong answer (not merely a faulty evaluator)
WRONG_ANSWER = frozenset({Outcome.FAIL, Outcome.WRONG_REASON, Outcome.XPASS})
FAULTY = frozenset({Outcome.ERROR, Outcome.TIMEOUT, Outcome.CRASH})


def shows_wrong_answer(result: Result) -> bool:
    """A wrong answer, or an answer the harness refused as malformed (ERROR + actual)."""
    return result.outcome in WRONG_ANSWER or (
        result.outcome is Outcome.ERROR and result.actual is not None
    )


def spec_for(mutant_id: str) -> str:
    """The adapter spec that loads one mutant (usable with ``pokercert run --adapter``)."""
    return f"py:pokercert.harness.mutants:mutant.{mutant_id.replace('-', '_')}"


@dataclass
class Cell:
    """One mutant on one ruleset: the verdict and the vectors that decided it."""

    ruleset: str
    status: str
    verdict: str
    killed_by: list[str] = field(default_factory=list)
    faulty: list[str] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    # whether the challenge's fresh deals alone show a wrong answer (None: not checked,
    # or excused)
    fresh: bool | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "verdict": self.verdict,
            "killed_by": self.killed_by,
            "faulty": self.faulty,
            "reasons": self.reasons,
            "killed_by_fresh": self.fresh,
        }


@dataclass
class MutantReport:
    mutant: Mutant
    cells: dict[str, Cell]
    folder: Path
    kill_flags: dict[str, set[str]]  # flag -> rulesets where a vector with it killed

    @property
    def status(self) -> str:
        statuses = {c.status for c in self.cells.values()}
        for s in (SURVIVED, BROKEN, KILLED):
            if s in statuses:
                return s
        return EXCUSED

    def as_dict(self) -> dict[str, Any]:
        m = self.mutant
        return {
            "id": m.id,
            "flag": m.flag,
            "summary": m.summary,
            "rulesets": list(m.rulesets),
            "status": self.status,
            "adapter": spec_for(m.id),
            "run": str(self.folder),
            "cells": {r: c.as_dict() for r, c in self.cells.items()},
            "killed_by_flags": sorted(self.kill_flags),
        }


@dataclass
class FlagRow:
    flag: str
    vectors: int  # vectors of the checked rulesets carrying the flag
    mutants_killed: int  # mutants killed by at least one of those vectors
    own_mutants: int  # mutants whose bug class is this flag
    own_killed: int  # ... killed by a vector carrying this flag

    def as_dict(self) -> dict[str, Any]:
        return {
            "vectors": self.vectors,
            "mutants_killed": self.mutants_killed,
            "own_mutants": self.own_mutants,
            "own_killed_by_flag": self.own_killed,
        }


@dataclass
class SelfcheckReport:
    profile: str
    out: Path
    reference: dict[str, tuple[str, list[str]]]  # ruleset -> (verdict, reasons)
    mutants: list[MutantReport]
    flags: list[FlagRow]
    fresh: FreshDeals | None = None  # the fresh deals the fresh column scored

    @property
    def not_killed_by_fresh(self) -> list[tuple[MutantReport, Cell]]:
        """The cells the fresh deals alone do not kill (excused ones aside)."""
        return [(m, c) for m in self.mutants for c in m.cells.values() if c.fresh is False]

    @property
    def reference_certified(self) -> bool:
        return all(v == CERTIFIED for v, _ in self.reference.values())

    @property
    def survivors(self) -> list[tuple[MutantReport, Cell]]:
        return [(m, c) for m in self.mutants for c in m.cells.values() if c.status == SURVIVED]

    @property
    def broken(self) -> list[tuple[MutantReport, Cell]]:
        return [(m, c) for m in self.mutants for c in m.cells.values() if c.status == BROKEN]

    @property
    def green(self) -> bool:
        return self.reference_certified and not self.survivors and not self.broken

    def as_dict(self) -> dict[str, Any]:
        return {
            "green": self.green,
            "profile": self.profile,
            "out": str(self.out),
            "reference": {
                r: {"verdict": v, "reasons": why} for r, (v, why) in self.reference.items()
            },
            "mutants": {m.mutant.id: m.as_dict() for m in self.mutants},
            "flags": {f.flag: f.as_dict() for f in self.flags},
            "fresh": None
            if self.fresh is None
            else {
                "seed": self.fresh.seed,
                "vectors": {r: len(vs) for r, vs in self.fresh.vectors.items()},
                "not_killed": [
                    f"{m.mutant.id} on {c.ruleset}" for m, c in self.not_killed_by_fresh
                ],
            },
            "summary": {
                "mutants": len(self.mutants),
                "killed": sum(m.status == KILLED for m in self.mutants),
                "survivors": [f"{m.mutant.id} on {c.ruleset}" for m, c in self.survivors],
                "broken": [f"{m.mutant.id} on {c.ruleset}" for m, c in self.broken],
            },
        }


def _by_ruleset(results: Iterable[Result]) -> dict[str, list[Result]]:
    out: dict[str, list[Result]] = {}
    for r in results:
        out.setdefault(r.ruleset, []).append(r)
    return out


def _counts(results: Sequence[Result]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for r in results:
        counts[str(r.outcome)] = counts.get(str(r.outcome), 0) + 1
    return counts


def _run(
    adapter: str, folder: Path, rulesets: Sequence[str], profile: str, corpus: Any, timeout: float
) -> tuple[dict[str, list[Result]], list[str]]:
    """One runner run; the results by ruleset and why the run is incomplete (if it is)."""
    rulesets = [r for r in rulesets if r in set(corpus.rulesets)]
    if not rulesets:  # the corpus has no vector for any of them: nothing to run
        return {}, []
    # the curated corpus alone: the self-check asks whether the *corpus* tells each mutant
    # from the reference (a survivor calls for new vectors); challenge vectors would
    # hide that, and change with every seed
    outcome = run(
        RunConfig(
            adapter=adapter,
            out=folder,
            rulesets=list(rulesets),
            profile=profile,
            limits=Limits(timeout=timeout),
            challenge=False,
            command=["pokercert", "selfcheck"],
        ),
        corpus=corpus,
    )
    incomplete = (
        [f"the run was aborted: {outcome.header.aborted}"] if outcome.header.aborted else []
    )
    return _by_ruleset(read_results(folder)), incomplete


def score_mutant(
    mutant: Mutant,
    results: dict[str, list[Result]],
    incomplete: list[str],
    folder: Path,
    excused: dict[str, str] | None = None,
) -> MutantReport:
    """The cells of one mutant from its run's results (``excused``: ruleset -> why)."""
    cells: dict[str, Cell] = {}
    kill_flags: dict[str, set[str]] = {}
    for rid in mutant.rulesets:
        if excused and rid in excused:
            cells[rid] = Cell(rid, EXCUSED, "-", reasons=[excused[rid]])
            continue
        mine = results.get(rid, [])
        verdict, reasons = ruleset_verdict(_counts(mine), incomplete)
        killed_by = sorted(r.vector_id for r in mine if shows_wrong_answer(r))
        faulty = sorted(
            r.vector_id for r in mine if r.outcome in FAULTY and not shows_wrong_answer(r)
        )
        for r in mine:
            if shows_wrong_answer(r):
                for flag in r.flags:
                    kill_flags.setdefault(flag, set()).add(rid)
        if verdict == CERTIFIED or (not mine and not incomplete):
            status = SURVIVED
        elif killed_by:
            status = KILLED
        else:
            status = BROKEN
        cells[rid] = Cell(rid, status, verdict, killed_by, faulty, reasons)
    return MutantReport(mutant, cells, folder, kill_flags)


FRESH_SEED = 1  # the challenge seed of the fresh column unless told


@dataclass
class FreshDeals:
    """The fresh part of the challenge set of one seed, by ruleset, as vectors."""

    seed: int
    vectors: dict[str, list[Vector]]


def fresh_part(rulesets: Iterable[str], profile: str, seed: int, corpus: Any) -> FreshDeals:
    """The fresh deals a default run with challenge seed ``seed`` would add, by ruleset
    (:func:`~pokercert.harness.run.challenge.fresh_deals`, numbered as in the run)."""
    from pokercert.harness.run.challenge import DEFAULT_FRESH, fresh_deals, fresh_vectors

    chosen = load_profile(profile)
    out: dict[str, list[Vector]] = {}
    for rid in rulesets:
        mine = [v for v in corpus.vectors if v.ruleset == rid]
        deals = fresh_deals(rid, chosen, seed, DEFAULT_FRESH, mine)
        out[rid] = [v for v, _ in fresh_vectors(rid, seed, deals, mine, len(mine) + 1)]
    return FreshDeals(seed, out)


def fresh_kills(
    mutant: Mutant, fresh: FreshDeals, profile: str, rulesets: Iterable[str]
) -> dict[str, bool]:
    """For each of ``rulesets``: whether the fresh deals alone show the mutant a wrong
    answer there, scored in process through the runner's own path
    (:func:`~pokercert.harness.run.runner.score_vectors`)."""
    from pokercert.harness.adapters import load_adapter
    from pokercert.harness.run.runner import score_vectors

    chosen = load_profile(profile)
    out: dict[str, bool] = {}
    adapter = load_adapter(spec_for(mutant.id))
    with adapter:
        identity = adapter.start()
        for rid in rulesets:
            out[rid] = any(
                shows_wrong_answer(r)
                for batch in score_vectors(adapter, identity, fresh.vectors.get(rid, []), chosen)
                for r in batch
            )
    return out


def flag_rows(
    corpus: Any, rulesets: Iterable[str], mutants: Sequence[MutantReport]
) -> list[FlagRow]:
    wanted = set(rulesets)
    rows = []
    for flag in registry.flags():
        carrying = sum(1 for v in corpus.vectors if v.ruleset in wanted and flag in v.flags)
        killed = [m for m in mutants if flag in m.kill_flags]
        own = [m for m in mutants if m.mutant.flag == flag]
        rows.append(
            FlagRow(
                flag, carrying, len(killed), len(own), sum(1 for m in own if flag in m.kill_flags)
            )
        )
    return rows


def selfcheck(
    out: Path,
    mutants: Sequence[Mutant] = MUTANTS,
    profile: str = "practice",
    corpus: Any = None,
    timeout: float = 10.0,
    progress: Callable[[str, int, int], None] | None = None,
    fresh_seed: int | None = FRESH_SEED,
) -> SelfcheckReport:
    """Certify the reference, then try to certify every mutant, and score each against
    the fresh deals of challenge seed ``fresh_seed`` alone (None: not); see the module
    docstring."""
    chosen_profile = load_profile(profile)
    if corpus is None:
        from pokercert.vectors.corpus import load_corpus

        corpus = load_corpus()
    rulesets = sorted(
        {r for m in mutants for r in m.rulesets} or {v.ruleset for v in corpus.vectors}
    )
    if progress:
        progress("reference", 0, len(mutants))
    ref_results, ref_incomplete = _run(
        "reference", out / "reference", rulesets, profile, corpus, timeout
    )
    reference = {
        r: ruleset_verdict(_counts(ref_results.get(r, [])), ref_incomplete) for r in rulesets
    }
    fresh = fresh_part(rulesets, profile, fresh_seed, corpus) if fresh_seed is not None else None
    reports = []
    for i, mutant in enumerate(mutants, 1):
        if progress:
            progress(mutant.id, i, len(mutants))
        folder = out / mutant.id
        excused = {
            r: why
            for r in mutant.rulesets
            if (why := mutant.excused(r, chosen_profile)) is not None
        }
        todo = [r for r in mutant.rulesets if r not in excused]
        results, incomplete = _run(spec_for(mutant.id), folder, todo, profile, corpus, timeout)
        report = score_mutant(mutant, results, incomplete, folder, excused)
        if fresh is not None:
            for rid, killed in fresh_kills(mutant, fresh, profile, todo).items():
                report.cells[rid].fresh = killed
        reports.append(report)
    return SelfcheckReport(
        profile, out, reference, reports, flag_rows(corpus, rulesets, reports), fresh
    )
