"""The showdown kind end to end: pots in process and over the protocol, shares compared
exactly as fractions, and adapters written before the kind (or the ``half`` of
best_hand) still working."""

from __future__ import annotations

import sys

import pytest

from pokercert.harness.adapters import AdapterOptions, load_adapter
from pokercert.harness.adapters.base import ANSWERED, Reply
from pokercert.harness.run.results import Outcome
from pokercert.harness.run.runner import score_vectors
from pokercert.harness.scoring import request_for, score
from pokercert.reference import get_ruleset, load_profile
from pokercert.vectors.model import Vector
from tests import helpers
from tests.helpers.harness_vectors import SHOWDOWNS, VECTORS, assert_no_false_pass

PRACTICE = load_profile("practice")
RULESET = get_ruleset("nj-poker-high-5")
SPLIT = SHOWDOWNS[1]  # two hands differing only in suits: 1/2 and 1/2
HALF = Vector(
    id="nj-mini-tex-3/9999",
    ruleset="nj-mini-tex-3",
    kind="best_hand",
    inputs={"hole": "As Ks", "board": "Qs 2d 7c", "half": "high"},
    clauses=("13:69F-37.5(a)",),
    flags=("best-hand-selection",),
    why="ace-king-queen of spades: a straight flush from two hole cards and one board",
    expect={"category": "straight_flush", "cards": ["As Ks Qs"]},
)


def run(spec: str, vectors: list[Vector]) -> dict[str, tuple[Outcome, str]]:
    adapter = load_adapter(spec, AdapterOptions(timeout=20.0))
    results = []
    with adapter:
        identity = adapter.start()
        for batch in score_vectors(adapter, identity, vectors, PRACTICE):
            results.extend(batch)
    assert_no_false_pass(results)
    return {r.vector_id: (r.outcome, r.message) for r in results}


def faux(name: str) -> str:
    return f"py:tests.helpers.faux.pots:{name}"


def served(name: str) -> str:
    return f"exec:{sys.executable} -m pokercert.harness.adapters.serve {faux(name)}"


def reply(**answer: object) -> Reply:
    return Reply(ANSWERED, dict(answer))


def test_a_showdown_request_carries_the_deal_and_nothing_else():
    assert request_for(SPLIT) == {"op": "showdown", "hands": list(SPLIT.inputs["hands"])}
    board = Vector(
        id="x/0001",
        ruleset="nj-mini-tex-3",
        kind="showdown",
        inputs={"hands": ["As Ks", "2c 3d"], "board": "Qs 2d 7c"},
        clauses=("x",),
        flags=("x",),
        why="x",
        expect={"high": [0], "low": [], "shares": ["1", "0"]},
    )
    assert request_for(board)["board"] == "Qs 2d 7c"
    assert request_for(HALF) == {
        "op": "best_hand",
        "hole": "As Ks",
        "board": "Qs 2d 7c",
        "half": "high",
    }


def test_shares_are_compared_exactly_as_fractions():
    expected = SPLIT.expected()
    assert (
        score(SPLIT, expected, reply(high=[1, 0], low=[], shares=["2/4", "1/2"]), RULESET).outcome
        == Outcome.PASS
    )
    wrong = score(SPLIT, expected, reply(high=[0, 1], low=[], shares=["2/3", "1/3"]), RULESET)
    assert wrong.outcome == Outcome.FAIL and "hand 0: 2/3, expected 1/2" in wrong.message
    nolow = score(SPLIT, expected, reply(high=[0, 1], low=[0], shares=["1/2", "1/2"]), RULESET)
    assert nolow.outcome == Outcome.FAIL and "low winners [0], expected none" in nolow.message


@pytest.mark.parametrize(
    "answer, why",
    [
        ({"high": [0, 1], "low": [], "shares": ["0.5", "0.5"]}, "fractions"),
        ({"high": [0, 1], "low": [], "shares": ["1/2"]}, "1 shares for 2 hands"),
        ({"high": [0, 2], "low": [], "shares": ["1/2", "1/2"]}, "not distinct indices"),
        ({"high": [0, 1], "low": None, "shares": ["1/2", "1/2"]}, "'low'"),
    ],
)
def test_a_malformed_pot_is_an_error_not_a_fail(answer, why):
    got = score(SPLIT, SPLIT.expected(), reply(**answer), RULESET)
    assert got.outcome == Outcome.ERROR and why in got.message


@pytest.mark.parametrize(
    "name, outcome",
    [
        ("Fractions", Outcome.PASS),
        ("Spelled", Outcome.PASS),
        ("WrongShare", Outcome.FAIL),
        ("DecimalShares", Outcome.ERROR),
        ("ShortShares", Outcome.ERROR),
    ],
)
def test_pots_in_process(name, outcome):
    got = run(faux(name), SHOWDOWNS)
    want = {v.id: Outcome.PASS for v in SHOWDOWNS}
    if outcome != Outcome.PASS:
        changed = (
            [v.id for v in SHOWDOWNS if len(v.expect["high"]) == 2]
            if name == "WrongShare"
            else [v.id for v in SHOWDOWNS]
        )
        want.update(dict.fromkeys(changed, outcome))
    assert {k: o for k, (o, _) in got.items()} == want


def test_pots_over_the_protocol(monkeypatch):
    """Fractions leave the evaluator as Fraction objects and travel as "n/d" strings."""
    monkeypatch.setenv("PYTHONPATH", helpers.child_pythonpath())
    got = run(served("Fractions"), SHOWDOWNS)
    assert {o for o, _ in got.values()} == {Outcome.PASS}
    got = run(served("WrongShare"), SHOWDOWNS[1:2])
    assert got[SHOWDOWNS[1].id][0] == Outcome.FAIL


def test_an_adapter_from_before_the_showdown_kind_keeps_working():
    """It claims no showdown: those vectors are not sent, everything else runs as before."""
    old = f"exec:{sys.executable} {helpers.FAUX / 'adapter.py'} ok"
    got = run(old, [*VECTORS, *SHOWDOWNS])
    assert {got[v.id][0] for v in VECTORS} == {Outcome.PASS}
    assert {got[v.id][0] for v in SHOWDOWNS} == {Outcome.NOT_APPLICABLE}
    assert {o for o, _ in run(faux("NoShowdown"), SHOWDOWNS).values()} == {Outcome.NOT_APPLICABLE}


def test_best_hand_with_a_half_needs_the_feature_over_the_protocol(monkeypatch):
    """In process the half is passed as a keyword; over the protocol only to an adapter
    that names the feature best_hand_half (the serve bridge does: it speaks for a Python
    evaluator); elsewhere the vector is NOT_APPLICABLE, with the reason."""
    monkeypatch.setenv("PYTHONPATH", helpers.child_pythonpath())
    assert run(faux("HalfAware"), [HALF])[HALF.id][0] == Outcome.PASS
    assert run(served("HalfAware"), [HALF])[HALF.id][0] == Outcome.PASS
    low = Vector(
        **{**HALF.__dict__, "id": "nj-mini-tex-3/9998", "inputs": {**HALF.inputs, "half": "low"}}
    )
    assert run(faux("HalfAware"), [low])[low.id][0] == Outcome.FAIL  # it was asked for low
    old = f"exec:{sys.executable} {helpers.FAUX / 'adapter.py'} ok"
    adapter = load_adapter(old, AdapterOptions(timeout=20.0))
    with adapter:
        identity = adapter.start()
        identity.capabilities["nj-mini-tex-3"] = ["best_hand"]
        (result,) = [r for b in score_vectors(adapter, identity, [HALF], PRACTICE) for r in b]
    assert result.outcome == Outcome.NOT_APPLICABLE and "best_hand_half" in result.message
