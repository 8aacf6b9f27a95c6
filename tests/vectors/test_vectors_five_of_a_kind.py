"""Issue 26: an evaluator that ties every five of a kind is caught by the curated corpus
of each wild-card posting alone, under either reading of mt-five-of-a-kind.

ARM 23.16.1205(3): hands of one category are decided by the highest matched cards, so
five aces beat five kings whatever cards are wild (deuces, or jokers).
"""

from __future__ import annotations

import dataclasses

import pytest

from pokercert.harness.mutants.catalogue import get_mutant
from pokercert.harness.mutants.model import Mutant
from pokercert.reference import load_profile
from pokercert.vectors.check import normalise, reference_outcome
from pokercert.vectors.corpus import load_corpus
from pokercert.vectors.model import Kind

POSTINGS = ("mt-poker-high", "mt-poker-high-deuces")


def _ties_every_five_of_a_kind() -> Mutant:
    # the self-check's mutant, applied to both high postings of Montana's wild cards
    return dataclasses.replace(get_mutant("five-of-a-kind-all-equal"), rulesets=POSTINGS)


@pytest.mark.parametrize("reading", ["practice", "literal"])
@pytest.mark.parametrize("ruleset", POSTINGS)
def test_tying_every_five_of_a_kind_fails_the_curated_vectors(ruleset: str, reading: str) -> None:
    profile = load_profile(reading)
    engine = _ties_every_five_of_a_kind().build(ruleset, profile.choices)
    failed = [
        v.id
        for v in load_corpus().select(rulesets=[ruleset], kinds=[Kind.COMPARE])
        if reference_outcome(engine, v) != normalise(v.kind, v.expected(profile))
    ]
    assert failed, f"{ruleset} ({reading}): no curated vector tells five of a kind apart"


def test_the_deuces_posting_compares_five_of_a_kind_of_different_ranks() -> None:
    """Hand-checked: each compare's hands hold one rank of natural cards plus deuces
    summing to five (four naturals and a deuce, or fewer naturals and more deuces)."""
    found = []
    for v in load_corpus().select(rulesets=["mt-poker-high-deuces"], kinds=[Kind.COMPARE]):
        ranks = []
        for hand in v.inputs["hands"]:
            naturals = {c[0] for c in hand.split() if c[0] != "2"}
            ranks.append(naturals.pop() if len(naturals) == 1 else None)
        if None not in ranks and len(set(ranks)) == len(ranks):
            found.append(v.id)
            assert "23.16.1205(2)(a)" in v.clauses and "23.16.1205(3)" in v.clauses
            assert {"five-of-a-kind", "rank-order"} <= set(v.flags)
    assert len(found) >= 5, found
