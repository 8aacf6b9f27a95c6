"""Fresh deals that decide alone (issue 26): a memoriser up to symmetry is not certified.

The hostile vendor of the issue answers every published vector and every twin from the
installed corpus through a canonical form, and everything else with a bug.  Here it is
``tests/helpers/faux/symmetric_memoriser.py`` over each self-check mutant, and the proof
that no such vendor is certified comes in three parts, each checked from outside the
code that builds the challenge:

1. the memoriser answers every curated vector and every twin exactly as the corpus says
   (so its verdict is decided by the fresh deals alone);
2. no fresh deal is a symmetry of a published input (an independent brute-force form,
   ``tests/helpers/suit_forms.py``), so on the fresh deals it *is* its mutant;
3. the fresh deals alone show every mutant a wrong answer on every ruleset it claims,
   with three fixed challenge seeds (excused cells aside, and the CLOSED cells below,
   each proved closed: no unpublished input can show that mistake);

then end to end: ``run`` of the memoriser over a handful of mutants is NOT CERTIFIED on
every ruleset, and only fresh deals fail.

On main (before issue 26) part 3 fails for 91 mutant x ruleset cells of 39 mutants with
seed 1, and 28 of its 1,104 fresh deals were symmetries of published inputs.
"""

from __future__ import annotations

from collections import Counter

import pytest

from pokercert.harness.adapters import load_adapter
from pokercert.harness.mutants import MUTANTS, get_mutant
from pokercert.harness.run.challenge import build_challenge
from pokercert.harness.run.results import Outcome, read_results
from pokercert.harness.run.runner import RunConfig, run, score_vectors
from pokercert.reference import evaluator, get_ruleset, load_profile
from pokercert.reports.selfcheck import FreshDeals, fresh_kills, fresh_part
from pokercert.reports.verdict import CERTIFIED, ruleset_verdict
from pokercert.vectors.corpus import load_corpus
from pokercert.vectors.model import Kind
from tests.helpers.faux.symmetric_memoriser import spec_over
from tests.helpers.suit_forms import brute_form

SEEDS = (1, 2, 3)
PROFILE = "practice"
ROYAL5 = ("nj-poker-high-5", "nj-caribbean-stud", "nj-winners-pot", "nj-lowball-2-7")
# Cells no fresh deal can decide: the mistake shows only in naming a royal flush when it
# is classified, in a game of whole hands without wild cards or a board, and such a game
# has one royal flush per suit: one canonical form, published (test_closed_cells_...).
CLOSED = {("royal-not-named", r) for r in (*ROYAL5, "nj-poker-high-3")} | {
    ("table-royal-not-named", r)
    for r in (
        "nj-double-down-stud",
        "nj-double-cross-poker",
        "pa-mississippi-stud",
        "pa-raise-it-up-stud",
        "pa-ultimate-texas-holdem",
    )
}
# end to end: the examples (a flush above a full house, the wheel ace-high, three
# of a kind above a straight in three cards, five of a kind below a straight flush, a wild
# card duplicating a held card)
END_TO_END = (
    "full-house-below-flush",
    "wheel-ranked-ace-high",
    "three-card-trips-below-straight",
    "five-of-a-kind-below-straight-flush",
    "wild-duplicates-allowed",
)


@pytest.fixture(scope="module")
def corpus():  # type: ignore[no-untyped-def]
    return load_corpus()


@pytest.fixture(scope="module")
def rulesets() -> list[str]:
    return sorted({r for m in MUTANTS for r in m.rulesets})


@pytest.fixture(scope="module", params=SEEDS)
def fresh(request, corpus, rulesets) -> FreshDeals:  # type: ignore[no-untyped-def]
    return fresh_part(rulesets, PROFILE, request.param, corpus)


def _op(v) -> str:  # type: ignore[no-untyped-def]
    return v.inputs["op"] if v.kind == Kind.REJECT else v.kind


def test_the_memoriser_answers_every_curated_vector_and_twin_as_the_corpus_says(corpus):  # type: ignore[no-untyped-def]
    """Part 1: with no fallback at all, every curated vector and every twin PASSes."""
    profile = load_profile(PROFILE)
    twins = build_challenge(corpus.vectors, profile, SEEDS[0], fresh=False).vectors
    adapter = load_adapter("py:tests.helpers.faux.symmetric_memoriser:SymmetricMemoriser")
    with adapter:
        identity = adapter.start()
        outcomes = Counter(
            str(r.outcome)
            for batch in score_vectors(adapter, identity, [*corpus.vectors, *twins], profile)
            for r in batch
        )
    assert outcomes == {str(Outcome.PASS): len(corpus.vectors) + len(twins)}


def test_no_fresh_deal_is_a_symmetry_of_a_published_input(fresh, corpus):  # type: ignore[no-untyped-def]
    """Part 2: no fresh deal has the form of a curated vector (nor of another fresh
    deal), by the brute-force form."""
    published = {brute_form(v.ruleset, _op(v), v.inputs) for v in corpus.vectors}
    seen: set[object] = set()
    for vectors in fresh.vectors.values():
        for v in vectors:
            form = brute_form(v.ruleset, _op(v), v.inputs)
            assert form not in published, v
            assert form not in seen, v
            seen.add(form)


def test_the_fresh_deals_alone_kill_every_mutant_on_every_ruleset(fresh):  # type: ignore[no-untyped-def]
    """Part 3: through the runner's scoring path, the fresh deals alone show every
    mutant a wrong answer on every ruleset it claims, but the closed cells."""
    profile = load_profile(PROFILE)
    alive = set()
    for mutant in MUTANTS:
        todo = [r for r in mutant.rulesets if mutant.excused(r, profile) is None]
        alive |= {
            (mutant.id, r)
            for r, killed in fresh_kills(mutant, fresh, PROFILE, todo).items()
            if not killed
        }
    assert alive == CLOSED, f"seed {fresh.seed}"


@pytest.mark.parametrize(("mutant_id", "ruleset"), sorted(CLOSED))
def test_closed_cells_are_closed(mutant_id: str, ruleset: str, corpus) -> None:  # type: ignore[no-untyped-def]
    """A closed cell: the mutant ranks as the reference does and only names the royal
    flush a straight flush; the game (no wild cards, no board) has four royal flushes,
    one canonical form, and the corpus publishes a classify of it."""
    mutant, rs = get_mutant(mutant_id), get_ruleset(ruleset)
    assert rs.jokers == 0 and rs.selection is None
    ref = evaluator(ruleset, load_profile(PROFILE))
    engine = mutant.build(ruleset, load_profile(PROFILE).readings_for(rs))
    assert [c for c in ref.categories if c != "royal_flush"] == list(engine.categories)
    n = rs.hand_size
    royals = [" ".join(f"{'AKQJT'[i]}{suit}" for i in range(n)) for suit in "shdc"]
    assert all(ref.category(h) == "royal_flush" for h in royals)
    forms = {brute_form(ruleset, Kind.CLASSIFY, {"hand": h}) for h in royals}
    published = {
        brute_form(v.ruleset, Kind.CLASSIFY, v.inputs)
        for v in corpus.vectors
        if v.ruleset == ruleset and v.kind == Kind.CLASSIFY
    }
    assert len(forms) == 1 and forms <= published


@pytest.mark.parametrize("mutant_id", END_TO_END)
def test_the_memoriser_over_a_mutant_is_not_certified(mutant_id: str, tmp_path, corpus) -> None:  # type: ignore[no-untyped-def]
    """End to end: the default run of the memoriser over the mutant (challenge seed
    fixed) is NOT CERTIFIED on every ruleset the mutant claims, and every wrong answer
    is a fresh deal's (the curated vectors and the twins all pass)."""
    mutant = get_mutant(mutant_id)
    run(
        RunConfig(
            adapter=spec_over(mutant_id),
            out=tmp_path / "run",
            in_process=True,
            rulesets=list(mutant.rulesets),
            challenge_seed=SEEDS[0],
            command=["test"],
        ),
        corpus=corpus,
    )
    results = list(read_results(tmp_path / "run"))
    for rid in mutant.rulesets:
        counts = Counter(str(r.outcome) for r in results if r.ruleset == rid)
        assert ruleset_verdict(counts, [])[0] != CERTIFIED, rid
    failing = [r for r in results if r.outcome is not Outcome.PASS]
    assert failing and all(r.origin.startswith("fresh:") for r in failing)
