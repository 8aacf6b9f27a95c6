"""The fuzz kill matrix: ``pokercert fuzz`` alone, without the corpus, against every mutant.

For each mutant of :mod:`pokercert.harness.mutants` and each ruleset it affects, the mutant
is loaded by its ordinary adapter spec, configured for the ruleset and profile, and fuzzed
against the reference with a fixed budget and seed (:func:`pokercert.harness.explore.fuzz.fuzz`).
A cell is

* **killed** when fuzz found a deal the mutant answers wrongly (a FAIL, WRONG_REASON or
  XPASS, or an answer the harness refused as malformed); the cell names the situation
  the first such deal was drawn for (no shrinking: the matrix asks only whether fuzz
  finds the mistake, and how soon);
* **survived** when every deal of the budget agreed with the reference;
* **broken** when fuzz only saw exceptions, timeouts or a flaky adapter (the mutant
  itself is faulty, as in the corpus self-check);
* **excused** where the profile's reading is the very mistake (``Mutant.same_as_reading``).

``pokercert selfcheck --fuzz N`` prints this matrix beside the corpus's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pokercert.harness.adapters import load_adapter
from pokercert.harness.explore.fuzz import claimed_kinds, fuzz
from pokercert.harness.mutants.catalogue import MUTANTS
from pokercert.harness.mutants.model import Mutant
from pokercert.harness.run.results import Outcome
from pokercert.reference import get_ruleset, load_profile
from pokercert.reports.selfcheck import (
    BROKEN,
    EXCUSED,
    KILLED,
    SURVIVED,
    WRONG_ANSWER,
    spec_for,
)

__all__ = ["FuzzCell", "FuzzKills", "fuzz_kills"]


@dataclass
class FuzzCell:
    """One mutant fuzzed on one ruleset."""

    ruleset: str
    status: str
    situation: str = ""  # what the minimal counterexample was drawn for
    calls: int = 0  # requests sent, shrinking included
    counterexample: str = ""  # the scorer's account of the minimal disagreement

    def as_dict(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "situation": self.situation or None,
            "calls": self.calls,
            "counterexample": self.counterexample or None,
        }


@dataclass
class FuzzKills:
    """The fuzz kill matrix of one budget, seed and profile."""

    examples: int
    seed: int
    profile: str
    cells: dict[str, dict[str, FuzzCell]] = field(default_factory=dict)  # mutant -> ruleset

    @property
    def survivors(self) -> list[tuple[str, str]]:
        return [
            (m, r) for m, row in self.cells.items() for r, c in row.items() if c.status == SURVIVED
        ]

    @property
    def broken(self) -> list[tuple[str, str]]:
        return [
            (m, r) for m, row in self.cells.items() for r, c in row.items() if c.status == BROKEN
        ]

    def killed_of(self, mutant: str) -> tuple[int, int]:
        """(cells killed, cells that count) of one mutant: excused cells do not count."""
        row = [c for c in self.cells[mutant].values() if c.status != EXCUSED]
        return sum(c.status == KILLED for c in row), len(row)

    def as_dict(self) -> dict[str, Any]:
        return {
            "examples": self.examples,
            "seed": self.seed,
            "profile": self.profile,
            "mutants": {
                m: {r: c.as_dict() for r, c in row.items()} for m, row in self.cells.items()
            },
            "survivors": [f"{m} on {r}" for m, r in self.survivors],
            "broken": [f"{m} on {r}" for m, r in self.broken],
        }


def fuzz_cell(mutant: Mutant, ruleset: str, profile: str, examples: int, seed: int) -> FuzzCell:
    """Fuzz one mutant on one ruleset (in process, no example database)."""
    rs, prof = get_ruleset(ruleset), load_profile(profile)
    why = mutant.excused(ruleset, prof)
    if why is not None:
        return FuzzCell(ruleset, EXCUSED, counterexample=why)
    adapter = load_adapter(spec_for(mutant.id))
    with adapter:
        identity = adapter.start()
        adapter.configure(ruleset, prof.readings_for(rs))
        report = fuzz(
            adapter,
            rs,
            prof,
            kinds=claimed_kinds(identity.capabilities, rs),
            examples=examples,
            seed=seed,
            shrink=False,
            features=identity.features,
        )
    if report.found is None:
        status = BROKEN if report.flaky else SURVIVED
        return FuzzCell(ruleset, status, calls=report.calls, counterexample=report.flaky)
    wrong = report.outcome in WRONG_ANSWER or (
        report.outcome is Outcome.ERROR and report.found.actual is not None
    )
    return FuzzCell(
        ruleset, KILLED if wrong else BROKEN, report.situation, report.calls, report.found.message
    )


def fuzz_kills(
    mutants: Sequence[Mutant] = MUTANTS,
    *,
    examples: int = 1000,
    seed: int = 1,
    profile: str = "practice",
    rulesets: Sequence[str] | None = None,
    progress: Callable[[str, int, int], None] | None = None,
) -> FuzzKills:
    """Fuzz every mutant on every ruleset it affects (or only on ``rulesets``)."""
    out = FuzzKills(examples, seed, profile)
    todo = [(m, r) for m in mutants for r in m.rulesets if rulesets is None or r in rulesets]
    for i, (mutant, ruleset) in enumerate(todo, 1):
        if progress:
            progress(f"{mutant.id} {ruleset}", i, len(todo))
        out.cells.setdefault(mutant.id, {})[ruleset] = fuzz_cell(
            mutant, ruleset, profile, examples, seed
        )
    return out
