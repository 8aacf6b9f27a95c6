"""``sample_deals``: the seeded, stratified sampler of the situation generator.

Deterministic for a seed (also across processes with different hash salts), different
for different seeds, every applicable situation at least its quota, every deal valid for
the reference and every reject deal really rejected.  The judge is the reference, never
the sampler's own labels: "rare" categories are counted from the reference's answers.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter

import pytest

from pokercert.harness.explore.counterexample import expected_outcome
from pokercert.harness.explore.situations import (
    DEAL_KINDS,
    SITUATIONS,
    Game,
    applicable,
    sample_deals,
)
from pokercert.reference import all_rulesets, evaluator, get_ruleset

RULESETS = [r.id for r in all_rulesets()]
PROFILES = ["practice", "literal"]

_DUMP = """
import json, sys
from pokercert.harness.explore.situations import DEAL_KINDS, sample_deals
from pokercert.reference import get_ruleset
deals = sample_deals(get_ruleset(sys.argv[1]), "practice", DEAL_KINDS, seed=int(sys.argv[2]),
                     count=200)
print(json.dumps([[d.kind, d.inputs, d.situation] for d in deals], sort_keys=True))
"""


def _dump(deals) -> str:
    return json.dumps([[d.kind, d.inputs, d.situation] for d in deals], sort_keys=True)


def _sample(
    rs_id: str,
    profile: str = "practice",
    seed: int = 1,
    count: int = 200,
    kinds=DEAL_KINDS,
    situations=None,
):
    return sample_deals(
        get_ruleset(rs_id), profile, kinds, seed=seed, count=count, situations=situations
    )


def test_same_seed_same_deals_and_other_seeds_differ():
    first = _sample("mt-poker-high", seed=3)
    assert _dump(first) == _dump(_sample("mt-poker-high", seed=3))
    assert _dump(first) != _dump(_sample("mt-poker-high", seed=4))
    # a deal depends on the seed and its place only: a longer run starts the same way
    assert _dump(_sample("mt-poker-high", seed=3, count=400)[:200]) == _dump(first)


@pytest.mark.parametrize("rs_id", ["mt-poker-high", "nj-mini-tex-3"])
def test_same_seed_same_deals_in_two_processes(rs_id):
    """Byte-identical output in two fresh interpreters with different hash salts."""
    outs = []
    for salt in ("1", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": salt}
        done = subprocess.run(
            [sys.executable, "-c", _DUMP, rs_id, "7"],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        outs.append(done.stdout)
    assert outs[0] == outs[1]
    assert outs[0].strip() == _dump(_sample(rs_id, seed=7))


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("rs_id", RULESETS)
def test_every_situation_gets_its_quota_and_every_deal_is_valid(rs_id, profile):
    count = 250
    game = Game(get_ruleset(rs_id), profile, DEAL_KINDS)
    labels = applicable(game)
    deals = _sample(rs_id, profile, seed=11, count=count)
    assert len(deals) == count
    seen = Counter(d.situation for d in deals)
    short = {s: seen[s] for s in labels if seen[s] < count // len(labels)}
    assert not short, short
    assert set(seen) <= set(labels), set(seen) - set(labels)
    ev = evaluator(rs_id, profile)
    for deal in deals:
        outcome = expected_outcome(ev, deal.kind, deal.inputs)  # raises on a bad deal
        if deal.kind == "reject":
            assert outcome.get("reason"), (deal, outcome)
        else:
            assert "reason" not in outcome, (deal, outcome)


def _categories(ev, deals) -> Counter[str]:
    cats: Counter[str] = Counter()
    for deal in deals:
        if deal.kind == "classify":
            cats[ev.category(deal.inputs["hand"])] += 1
        elif deal.kind == "compare" and "board" not in deal.inputs:
            cats.update(ev.category(h) for h in deal.inputs["hands"])
    return cats


def test_rare_categories_and_edges_come_up():
    """In 500 deals: straight flushes, royal flushes, wheels (five-card high); five of a
    kind (Montana); boards that play alone (Mini-tex) - by the reference's account."""
    ev = evaluator("nj-poker-high-5")
    deals = _sample("nj-poker-high-5", count=500)
    cats = _categories(ev, deals)
    assert cats["straight_flush"] >= 5 and cats["four_of_a_kind"] >= 5, cats
    wheels = [
        d
        for d in deals
        if d.kind == "classify"
        and sorted(c.rank for c in ev.evaluate(d.inputs["hand"]).played) == [2, 3, 4, 5, 14]
        and ev.category(d.inputs["hand"]) in ("straight", "straight_flush")
    ]
    assert len(wheels) >= 2, len(wheels)
    mt = evaluator("mt-poker-high")
    assert _categories(mt, _sample("mt-poker-high", count=500))["five_of_a_kind"] >= 5
    # Mini-tex (a hole card must play): boards that would beat the best legal hand alone
    tex = evaluator("nj-mini-tex-3")
    plays = sum(
        tex.compare(
            d.inputs["board"], tex.best_hand(d.inputs["hole"], d.inputs["board"]).value.played
        )
        > 0
        for d in _sample("nj-mini-tex-3", count=300, kinds=["best_hand"])
    )
    assert plays >= 10, plays


def test_situations_restrict_and_unknown_names_are_refused():
    deals = _sample("nj-poker-high-5", count=40, situations=["kicker-2", "wild-five"])
    # wild-five does not apply without jokers: only kicker-2 is dealt
    assert {d.situation for d in deals} == {"kicker-2"}
    with pytest.raises(ValueError, match="unknown situation 'kicker-9'"):
        _sample("nj-poker-high-5", situations=["kicker-9"])
    with pytest.raises(ValueError, match="nothing to deal"):
        _sample("nj-poker-high-5", situations=["wild-five"])
    assert set(SITUATIONS) >= set(applicable(Game(get_ruleset("mt-poker-high"))))


def _replayed(game, labels, record):
    """The first deal Hypothesis builds when ``record`` is its only stored example."""
    from hypothesis import Phase, given, settings
    from hypothesis.database import InMemoryExampleDatabase, choices_to_bytes

    from pokercert.harness.explore.fuzz import _Keyed
    from pokercert.harness.explore.situations import game_strategy

    seen = []
    db = _Keyed(InMemoryExampleDatabase(), b"replay", [choices_to_bytes(tuple(record))])

    @settings(database=db, phases=(Phase.reuse,), deadline=None)
    @given(game_strategy(game, labels))
    def replay(case):
        seen.append(case)

    replay()
    return seen[0]


@pytest.mark.parametrize("rs_id", ["mt-poker-high", "nj-mini-tex-3", "nj-lowball-2-7"])
def test_a_seeded_deal_replays_in_hypothesis_from_its_record(rs_id):
    """The record of a seeded deal, offered to Hypothesis as a stored example, rebuilds
    exactly that deal through the Hypothesis backend: what lets fuzz shrink what the
    seeded sampler found."""
    from pokercert.harness.explore.fuzz import fuzz_labels
    from pokercert.harness.explore.situations import seeded_deals

    game = Game(get_ruleset(rs_id), "practice", DEAL_KINDS)
    labels = fuzz_labels(game)
    for deal, record in list(seeded_deals(game, labels, seed=9, count=len(labels))):
        assert _replayed(game, labels, record) == deal, deal.situation


# the rulesets the corpus certifies (the poker-room games await their vectors and their
# showdown situations: issue 14)
def _certified_rulesets() -> list[str]:
    from pokercert.vectors import registry

    return [r for r in RULESETS if r not in registry.awaiting()]


@pytest.mark.parametrize("rs_id", _certified_rulesets())
def test_reject_alone_deals_malformed_requests_of_the_rulesets_operations(rs_id):
    """``kinds=["reject"]``: only malformed requests, each of an operation the ruleset
    has, each refused by the reference (it raised IndexError in ``_hand_kind``)."""
    from pokercert.vectors.model import OPERATIONS

    rs = get_ruleset(rs_id)
    ops = {k for k in OPERATIONS if k != "best_hand" or rs.selection is not None}
    deals = _sample(rs_id, count=30, kinds=["reject"])
    assert len(deals) == 30
    assert {d.kind for d in deals} == {"reject"}
    assert {d.inputs["op"] for d in deals} <= ops
    assert all(d.situation.startswith("reject-") for d in deals)
    ev = evaluator(rs_id)
    assert all(expected_outcome(ev, "reject", d.inputs).get("reason") for d in deals)


@pytest.mark.parametrize("rs_id", _certified_rulesets())
@pytest.mark.parametrize(
    "kinds", [["classify"], ["compare"], ["best_hand"], ["reject"], ["classify", "reject"]]
)
def test_every_situation_alone_deals_or_says_nothing_to_deal(rs_id, kinds):
    """A restricted list deals exactly its situation, of the kinds asked, or refuses with
    "nothing to deal"; never an IndexError (a board situation under classify alone
    raised one: a board deal is a best_hand or a compare on the board)."""
    rs = get_ruleset(rs_id)
    if "best_hand" in kinds and rs.selection is None:
        pytest.skip("best_hand needs a board")
    ev = evaluator(rs_id)
    dealt = 0
    for name in SITUATIONS:
        try:
            deals = _sample(rs_id, count=6, kinds=kinds, situations=[name])
        except ValueError as exc:
            assert "nothing to deal" in str(exc), (name, exc)
            continue
        dealt += 1
        assert {d.situation for d in deals} == {name}, name
        assert {d.kind for d in deals} <= set(kinds), name
        for d in deals:  # every deal is a request the reference answers as its kind says
            outcome = expected_outcome(ev, d.kind, d.inputs)
            assert ("reason" in outcome) == (d.kind == "reject"), (name, d, outcome)
    assert dealt, f"{rs_id} {kinds}: no situation dealt at all"


def test_multiway_chain_flush_when_its_suit_is_used_up():
    """mt-poker-high, ``situations=["multiway-chain"]``, seed 135: a chain holding a royal
    flush and a straight flush in one suit left a later flush too few ranks of that suit
    ("pop from empty list"); the flush now takes the next suit that still holds one."""
    ev = evaluator("mt-poker-high")
    deals = _sample(
        "mt-poker-high", seed=135, count=25, kinds=["compare"], situations=["multiway-chain"]
    )
    assert len(deals) == 25
    for d in deals:  # a chain: every hand of its own category, weakest first
        cats = [ev.evaluate(h).category for h in d.inputs["hands"]]
        keys = [ev.evaluate(h).key for h in d.inputs["hands"]]
        assert keys == sorted(keys), (d, cats)
