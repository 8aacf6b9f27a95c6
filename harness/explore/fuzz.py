"""Differential fuzzing: an evaluator against the reference, on generated deals.

Deals come from the situation-driven generator (:mod:`pokercert.harness.explore.situations`):
the seeded sampler deals ``--examples`` requests round-robin over every situation the
ruleset and the adapter's kinds allow (two categories side by side, kickers, crossed
defining ranks, the wheel and broadway, boards, wild cards, malformed requests where the
adapter claims reject) plus the card-by-card ``free`` deals, so each situation gets its
quota on every seed.  Each deal goes through the adapter exactly as a corpus vector would
(the request of :func:`pokercert.harness.scoring.request_for`, the verdict of
:func:`pokercert.harness.scoring.score`) with the reference's answer as the
expectation.  The first disagreement is replayed in Hypothesis from its choice record,
shrunk to a minimal counterexample and written up as a ready-to-add corpus vector
(:mod:`pokercert.harness.explore.counterexample`).

Runs are deterministic for a given seed (the sampler uses no Hypothesis database and no
clock); the Hypothesis example database lives in the run's folder, so a rerun with the
same folder replays the last counterexample first.
"""

from __future__ import annotations

import functools
import hashlib
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest import SkipTest

from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis.database import (
    DirectoryBasedExampleDatabase,
    ExampleDatabase,
    InMemoryExampleDatabase,
    choices_to_bytes,
)
from hypothesis.errors import FlakyFailure, FlakyReplay

from pokercert.harness.adapters.base import Adapter
from pokercert.harness.explore.counterexample import (
    Found,
    expected_outcome,
    found_vector,
    placeholder_vector,
)
from pokercert.harness.explore.situation_pai_gow import PAI_GOW_SITUATIONS, pai_gow_labels
from pokercert.harness.explore.situations import (
    Deal,
    Game,
    applicable,
    game_strategy,
    seeded_deals,
    situation_labels,
)
from pokercert.harness.outcome import Outcome
from pokercert.harness.scoring import Scored, request_for, score
from pokercert.reference import Profile, Ruleset, evaluator
from pokercert.vectors.model import KINDS, Kind

__all__ = ["Case", "FuzzReport", "claimed_kinds", "fuzz", "fuzz_labels"]

FUZZ_KINDS = KINDS  # every kind: reject requests where the adapter claims reject


# one generated request (kind, inputs in the corpus's form, situation): the generator's
Case = Deal


# extra turns in fuzz's round-robin: the situations that split into the most cases
# (a pair of neighbours among ten categories, a category among ten for crossed ranks)
# and the whole pots of the poker-room games (many players, two halves, ties and lows)
EXTRA_TURNS = {
    "categories": 2,
    "defining-ranks": 2,
    "showdown-dealt": 1,
    "showdown-tie": 2,
    "showdown-low": 3,
}


def fuzz_labels(game: Game, kinds: Sequence[str] = ()) -> list[str]:
    """The situations fuzz deals round-robin: every one the game allows (reject ones
    where the adapter claims reject) and the card-by-card ``free`` deals, once each per
    round, then the extra turns of :data:`EXTRA_TURNS`, then the pai gow situations of
    the pai gow kinds among ``kinds`` (:func:`.situation_pai_gow.pai_gow_labels`; none
    in a game that is not pai gow, so other games' labels, and deals, are unchanged)."""
    labels = _applicable_or_none(game, kinds)
    return (
        labels
        + [
            name
            for turn in range(max(EXTRA_TURNS.values()))
            for name, extra in EXTRA_TURNS.items()
            if turn < extra and name in labels
        ]
        + pai_gow_labels(game, kinds)
    )


def _applicable_or_none(game: Game, kinds: Sequence[str]) -> list[str]:
    """:func:`applicable` with ``free``; an adapter claiming only pai gow kinds has
    nothing else to deal (an empty list, not an error)."""
    try:
        return applicable(game, free=True)
    except ValueError:
        if not pai_gow_labels(game, kinds):
            raise
        return []


# --------------------------------------------------------------------------- the oracle


@dataclass
class Differential:
    """Sends one case to the adapter and scores the reply against the reference."""

    adapter: Adapter
    ruleset: Ruleset
    profile: Profile
    calls: int = 0

    def __post_init__(self) -> None:
        self.reference = evaluator(self.ruleset.id, self.profile)

    def check(self, case: Case) -> tuple[Scored, dict[str, Any]]:
        expect = expected_outcome(self.reference, case.kind, case.inputs)
        vector = placeholder_vector(self.ruleset.id, case.kind, case.inputs, expect)
        (reply,) = self.adapter.run_batch([request_for(vector)])
        self.calls += 1
        return score(vector, expect, reply, self.ruleset), expect


# --------------------------------------------------------------------------- the run


@dataclass
class FuzzReport:
    """What a fuzz run did and found."""

    ruleset: str
    profile: str
    seed: int
    examples: int  # the budget asked for
    calls: int = 0  # requests sent to the adapter (shrinking included)
    kinds: list[str] = field(default_factory=list)
    found: Found | None = None
    outcome: Outcome | None = None  # the scorer's verdict on the minimal counterexample
    flaky: str = ""  # the adapter answered the same input differently
    situation: str = ""  # what the minimal counterexample was drawn for
    # requests sent per situation label (shrinking included), in SITUATIONS order
    situations: dict[str, int] = field(default_factory=dict)

    def as_dict(self, adapter: str = "") -> dict[str, Any]:
        data: dict[str, Any] = {
            "ruleset": self.ruleset,
            "profile": self.profile,
            "seed": self.seed,
            "examples": self.examples,
            "calls": self.calls,
            "kinds": self.kinds,
            "adapter": adapter,
            "agrees": self.found is None and not self.flaky,
            "flaky": self.flaky or None,
            "counterexample": None,
            "situations": dict(self.situations),
            "situation": self.situation or None,
        }
        if self.found is not None:
            from pokercert.vectors.canonical import record

            data["counterexample"] = {
                "outcome": str(self.outcome),
                "actual": self.found.actual,
                "message": self.found.message,
                "note": self.found.note or None,
                "vector": record(self.found.vector),
                "toml": self.found.toml(adapter),
            }
        return data


class _Keyed(ExampleDatabase):
    """An example database that files every entry under ``target`` as well as the key
    Hypothesis gives it, so that the one fuzz test keeps the examples of each ruleset,
    profile and adapter apart (a custom database is Hypothesis's public extension point;
    the key it gives is the same for every fuzz run).

    ``seeded`` are choice sequences offered first on every fetch of a primary key: the
    seeded deal that disagreed, which Hypothesis's reuse phase replays and then shrinks.
    """

    def __init__(self, inner: ExampleDatabase, target: bytes, seeded: Sequence[bytes] = ()) -> None:
        super().__init__()
        self.inner = inner
        self.prefix = hashlib.sha256(target).digest()
        self.seeded = list(seeded)

    def save(self, key: bytes, value: bytes) -> None:
        self.inner.save(self.prefix + key, value)

    def fetch(self, key: bytes) -> Iterable[bytes]:
        if self.seeded and not key.endswith((b".secondary", b".pareto")):
            yield from self.seeded
        yield from self.inner.fetch(self.prefix + key)

    def delete(self, key: bytes, value: bytes) -> None:
        if value in self.seeded:
            self.seeded.remove(value)
        self.inner.delete(self.prefix + key, value)

    def move(self, src: bytes, dest: bytes, value: bytes) -> None:
        self.inner.move(self.prefix + src, self.prefix + dest, value)


class _Disagreement(AssertionError):
    """Raised inside the Hypothesis test to mark a failing case."""


def fuzz(
    adapter: Adapter,
    ruleset: Ruleset,
    profile: Profile,
    *,
    kinds: Sequence[str],
    examples: int = 1000,
    seed: int | None = None,
    database: Path | None = None,
    on_example: Callable[[int], None] | None = None,
    shrink: bool = True,
    features: Iterable[str] = (),
) -> FuzzReport:
    """Fuzz a started and configured ``adapter`` on ``ruleset`` against the reference.

    ``kinds`` are the vector kinds to generate (those the adapter claims).  Exploration
    is the seeded sampler (:func:`.situations.seeded_deals`): ``examples`` deals
    round-robin over :func:`fuzz_labels`, so every situation gets its quota whatever
    the seed.  The first disagreement is then replayed in Hypothesis from its choice
    record and shrunk (``shrink=False``: reported as found, as the self-check's kill
    matrix does).  ``database`` is the folder of the Hypothesis example database (None:
    none): a rerun there replays the stored counterexample before exploring.
    ``features`` are the protocol features the adapter names (``Identity.features``):
    a rule a feature states (PROTOCOL.md 3.3) is fuzzed only where the adapter names it,
    as the corpus sends its vectors.
    """
    run_seed = seed if seed is not None else random.SystemRandom().randrange(2**32)
    report = FuzzReport(ruleset.id, profile.name, run_seed, examples, kinds=list(kinds))
    game = Game(ruleset, profile, kinds, features)
    labels = fuzz_labels(game, kinds)
    run = _Run(Differential(adapter, ruleset, profile), game, labels, report, on_example)
    # one database entry per ruleset, profile and adapter, not one for every run
    target = f"{ruleset.id}|{sorted(profile.readings_for(ruleset).items())}|{adapter.spec}"
    # labels are part of the key: a stored record replays only with the same labels
    target += "|" + ",".join(run.labels)

    def store() -> ExampleDatabase:
        return (
            DirectoryBasedExampleDatabase(str(database)) if database else InMemoryExampleDatabase()
        )

    replay = functools.partial(run.replay, target, examples, shrink, store)
    if database is not None:
        replay(())  # a counterexample stored by an earlier run
    if not run.last and not report.flaky:
        run.explore(examples, shrink, replay)
    run.conclude(ruleset, profile)
    return report


@dataclass
class _Run:
    """One fuzz run's exploration and shrinking (:func:`fuzz`)."""

    oracle: Differential
    game: Game
    labels: list[str]
    report: FuzzReport
    on_example: Callable[[int], None] | None
    seen: Counter[str] = field(default_factory=Counter)
    last: list[tuple[Case, Scored]] = field(default_factory=list)

    def conclude(self, ruleset: Ruleset, profile: Profile) -> None:
        """The report's counts, and the last (minimal) disagreement as a vector."""
        report = self.report
        report.calls = self.oracle.calls
        # every situation the run could deal, sent or not (0: not exercised), then "free"
        pai_gow = [name for name in PAI_GOW_SITUATIONS if name in self.labels]
        report.situations = {
            name: self.seen[name] for name in [*situation_labels(self.game), *pai_gow, "free"]
        }
        if self.last:
            case, scored = self.last[-1]
            report.outcome = scored.outcome
            report.situation = case.situation
            report.found = found_vector(
                ruleset.id,
                case.kind,
                case.inputs,
                profile,
                actual=scored.actual,
                message=scored.message,
            )

    def check(self, case: Case) -> Scored:
        self.seen[case.situation] += 1
        scored, _ = self.oracle.check(case)
        if self.on_example is not None:
            self.on_example(self.oracle.calls)
        return scored

    def hypothesis_check(self, case: Case) -> None:
        scored = self.check(case)
        if scored.outcome is not Outcome.PASS:
            self.last.append((case, scored))
            raise _Disagreement(f"{case!r}: {scored.outcome}: {scored.message}")

    def replay(
        self,
        target: str,
        examples: int,
        shrink: bool,
        database: Callable[[], ExampleDatabase],
        seeded: Sequence[bytes],
    ) -> None:
        """Hypothesis replays the stored and ``seeded`` records, shrinks what fails."""
        test = settings(
            max_examples=max(examples, 1),
            deadline=None,
            print_blob=False,
            report_multiple_bugs=False,
            verbosity=Verbosity.quiet,
            database=_Keyed(database(), target.encode(), seeded),
            suppress_health_check=list(HealthCheck),
            phases=(Phase.reuse, *((Phase.shrink,) if shrink else ())),
        )(
            hypothesis_seed(self.report.seed)(
                given(game_strategy(self.game, self.labels))(self.hypothesis_check)
            )
        )
        try:
            test()
        except (_Disagreement, SkipTest):  # SkipTest: nothing stored to replay
            pass
        except (FlakyFailure, FlakyReplay) as exc:
            self.report.flaky = f"the adapter answered the same input differently: {exc}"

    def explore(
        self, examples: int, shrink: bool, replay: Callable[[Sequence[bytes]], None]
    ) -> None:
        """The seeded deals until the first disagreement, replayed and shrunk."""
        report = self.report
        for case, record in seeded_deals(self.game, self.labels, seed=report.seed, count=examples):
            scored = self.check(case)
            if scored.outcome is Outcome.PASS:
                continue
            if shrink:
                replay([choices_to_bytes(tuple(record))])
                if not self.last and not report.flaky and self.check(case).outcome is Outcome.PASS:
                    report.flaky = f"the adapter answered the same input differently: {case!r}"
            if not self.last and not report.flaky:
                self.last.append((case, scored))  # not shrunk (or could not replay)
            return


def claimed_kinds(capabilities: Mapping[str, Sequence[str]], ruleset: Ruleset) -> list[str]:
    """The fuzzable kinds the adapter claims for ``ruleset`` (best_hand only with a board)."""
    claimed = set(capabilities.get(ruleset.id, ()))
    return [
        k
        for k in FUZZ_KINDS
        if k in claimed and (k != Kind.BEST_HAND or ruleset.selection is not None)
    ]
