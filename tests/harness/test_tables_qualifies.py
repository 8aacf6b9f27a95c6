"""The 'qualifies' kind end to end: in-process, over the subprocess protocol, and scored."""

from __future__ import annotations

import sys

import pytest

from pokercert.harness.adapters import AdapterOptions, load_adapter
from pokercert.harness.adapters.inprocess import InProcessAdapter
from pokercert.harness.api import EvaluatorInfo
from pokercert.harness.peers.pokerkit import PokerkitEvaluator
from pokercert.harness.peers.treys import TreysEvaluator
from pokercert.harness.protocol import check_item
from pokercert.harness.run.results import Outcome
from pokercert.harness.run.runner import score_vectors
from pokercert.reference import load_profile
from pokercert.vectors.corpus import load_corpus
from pokercert.vectors.model import Kind

PRACTICE = load_profile("practice")
RULESET = "nj-three-card-poker"


def qualifier_vectors():
    return [v for v in load_corpus().vectors if v.kind == Kind.QUALIFIES and v.ruleset == RULESET]


class QueenHigh:
    """A three-card evaluator whose qualifier compares only the top card to a queen."""

    info = EvaluatorInfo("test", "queen-top-card", "1")
    order = "23456789TJQKA"

    def __init__(self, claims=("classify", "qualifies"), answer=None):
        self.claims, self.answer = list(claims), answer

    def capabilities(self):
        return {RULESET: self.claims}

    def configure(self, ruleset, readings):
        pass

    def classify(self, hand):
        return "high_card"

    def qualifies(self, hand):
        if self.answer is not None:
            return self.answer
        return max(self.order.index(c[0]) for c in hand) >= self.order.index("Q")


def run(adapter):
    identity = adapter.start()
    try:
        return {
            r.vector_id: r
            for batch in score_vectors(adapter, identity, qualifier_vectors(), PRACTICE)
            for r in batch
        }
    finally:
        adapter.close()


def test_the_reference_passes_every_qualifies_vector_over_the_protocol():
    spec = f"exec:{sys.executable} -m pokercert.harness.adapters.serve reference"
    results = run(load_adapter(spec, AdapterOptions(timeout=20.0)))
    assert results and {r.outcome for r in results.values()} == {Outcome.PASS}


def test_a_top_card_qualifier_fails_the_straights_and_pairs_below_a_queen():
    results = run(InProcessAdapter(QueenHigh(), "py:test", "test", "1", timeout=5.0))
    failed = {r.inputs["hand"] for r in results.values() if r.outcome is Outcome.FAIL}
    # J-10-9 (a straight), 5-3-2 suited (a flush), 2-2-3 (a pair) qualify by category
    assert failed == {"Js Td 9c", "5h 3h 2h", "2s 2d 3c"}


@pytest.mark.parametrize("answer", ["yes", 1, [True]])
def test_a_qualifies_answer_that_is_not_a_bool_is_an_error(answer):
    results = run(InProcessAdapter(QueenHigh(answer=answer), "py:test", "test", "1", timeout=5.0))
    assert {r.outcome for r in results.values()} == {Outcome.ERROR}


def test_an_adapter_that_does_not_claim_qualifies_is_not_applicable():
    results = run(
        InProcessAdapter(QueenHigh(claims=("classify",)), "py:test", "test", "1", timeout=5.0)
    )
    assert {r.outcome for r in results.values()} == {Outcome.NOT_APPLICABLE}


def test_library_peers_never_claim_the_new_kind():
    for peer in (PokerkitEvaluator, TreysEvaluator):
        assert all(Kind.QUALIFIES not in kinds for kinds in peer.RULESETS.values())


@pytest.mark.parametrize(
    ("item", "ok"),
    [
        ({"qualifies": True}, True),
        ({"qualifies": False}, True),
        ({"qualifies": "true"}, False),
        ({"qualifies": 1}, False),
        ({"qualifies": True, "category": "flush"}, False),
        ({"category": "flush"}, False),
        ({"rejected": "bad-card"}, True),
    ],
)
def test_the_reply_check_for_qualifies(item, ok):
    assert (check_item("qualifies", item) is None) is ok
