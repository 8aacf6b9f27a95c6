"""Pai gow's kinds (compare_two_card, setting, settle) end to end: claimed per ruleset,
answered in-process and over the subprocess protocol, scored, and refused where the
answer is not of the protocol's exact types."""

from __future__ import annotations

import sys

import pytest

from pokercert.harness.adapters import AdapterOptions, load_adapter
from pokercert.harness.adapters.inprocess import InProcessAdapter
from pokercert.harness.api import EvaluatorInfo, PaiGowEvaluator
from pokercert.harness.peers.pokerkit import PokerkitEvaluator
from pokercert.harness.peers.reference import ReferenceEvaluator
from pokercert.harness.peers.treys import TreysEvaluator
from pokercert.harness.protocol import check_item
from pokercert.harness.run.results import Outcome
from pokercert.harness.run.runner import score_vectors
from pokercert.reference import get_ruleset, load_profile
from pokercert.vectors.corpus import load_corpus
from pokercert.vectors.model import PAI_GOW_KINDS, Kind, kinds_for

PRACTICE = load_profile("practice")
RULESET = "wa-pai-gow-poker"


def pai_gow_vectors(kind: str | None = None):
    return [
        v
        for v in load_corpus().vectors
        if v.ruleset == RULESET and v.kind in PAI_GOW_KINDS and kind in (None, v.kind)
    ]


class Naive(ReferenceEvaluator):
    """The reference with its answers replaced where a test says so."""

    info = EvaluatorInfo("test", "naive-pai-gow", "1")

    def __init__(self, claims=(*PAI_GOW_KINDS,), legal=None, settlement=None, winners=None):
        super().__init__()
        self.claims, self.legal, self.settlement, self.found = claims, legal, settlement, winners

    def capabilities(self):
        return {RULESET: list(self.claims)}

    def setting(self, high, low):
        return super().setting(high, low) if self.legal is None else self.legal

    def settle(self, player, banker):
        return super().settle(player, banker) if self.settlement is None else self.settlement

    def compare_two_card(self, hands):
        return super().compare_two_card(hands) if self.found is None else self.found


def run(adapter, vectors):
    identity = adapter.start()
    try:
        return {
            r.vector_id: r
            for batch in score_vectors(adapter, identity, vectors, PRACTICE)
            for r in batch
        }
    finally:
        adapter.close()


def in_process(evaluator):
    return InProcessAdapter(evaluator, "py:test", "test", "1", timeout=5.0)


def test_only_pai_gow_rulesets_have_the_kinds():
    assert set(PAI_GOW_KINDS) <= set(kinds_for(get_ruleset(RULESET)))
    assert set(PAI_GOW_KINDS) <= set(kinds_for(get_ruleset("lc-pai-gow-poker")))
    for other in ("nj-poker-high-5", "sd-poker-high-joker", "nj-three-card-poker"):
        assert not set(PAI_GOW_KINDS) & set(kinds_for(get_ruleset(other)))


def test_each_kind_has_at_least_40_vectors_per_pai_gow_ruleset():
    for ruleset in (RULESET, "lc-pai-gow-poker"):
        for kind in PAI_GOW_KINDS:
            found = [v for v in load_corpus().vectors if v.ruleset == ruleset and v.kind == kind]
            assert len(found) >= 40, (ruleset, kind, len(found))


def test_the_reference_passes_every_pai_gow_vector_over_the_protocol():
    spec = f"exec:{sys.executable} -m pokercert.harness.adapters.serve reference"
    results = run(load_adapter(spec, AdapterOptions(timeout=20.0)), pai_gow_vectors())
    assert len(results) >= 120
    assert {r.outcome for r in results.values()} == {Outcome.PASS}


def test_a_setting_rule_ignored_fails_exactly_the_foul_settings():
    vectors = pai_gow_vectors(Kind.SETTING)
    results = run(in_process(Naive(legal=True)), vectors)
    failed = {vid for vid, r in results.items() if r.outcome is Outcome.FAIL}
    fouls = {v.id for v in vectors if v.expected(PRACTICE)["legal"] is False}
    assert fouls and failed == fouls


@pytest.mark.parametrize("answer", ["true", 1, None])
def test_a_setting_answer_that_is_not_a_bool_is_an_error(answer):
    results = run(in_process(Naive(legal=answer or 0)), pai_gow_vectors(Kind.SETTING)[:5])
    assert {r.outcome for r in results.values()} == {Outcome.ERROR}


@pytest.mark.parametrize("answer", ["dealer", "Player", 1, ["player"]])
def test_a_settlement_outside_the_three_words_is_an_error(answer):
    results = run(in_process(Naive(settlement=answer)), pai_gow_vectors(Kind.SETTLE)[:5])
    assert {r.outcome for r in results.values()} == {Outcome.ERROR}


def test_always_the_banker_fails_every_player_win_and_push():
    vectors = pai_gow_vectors(Kind.SETTLE)
    results = run(in_process(Naive(settlement="banker")), vectors)
    failed = {vid for vid, r in results.items() if r.outcome is Outcome.FAIL}
    assert failed == {v.id for v in vectors if v.expected(PRACTICE)["settlement"] != "banker"}


def test_two_card_winners_out_of_range_are_an_error():
    results = run(in_process(Naive(winners=[5])), pai_gow_vectors(Kind.COMPARE_TWO_CARD)[:5])
    assert {r.outcome for r in results.values()} == {Outcome.ERROR}


def test_an_adapter_that_does_not_claim_the_kinds_is_not_applicable():
    results = run(in_process(Naive(claims=("classify",))), pai_gow_vectors())
    assert {r.outcome for r in results.values()} == {Outcome.NOT_APPLICABLE}


def test_the_reference_is_a_pai_gow_evaluator_and_library_peers_claim_none():
    assert isinstance(ReferenceEvaluator(), PaiGowEvaluator)
    for peer in (PokerkitEvaluator, TreysEvaluator):
        for kinds in peer.RULESETS.values():
            assert not set(PAI_GOW_KINDS) & set(kinds)


@pytest.mark.parametrize(
    ("op", "item", "ok"),
    [
        ("setting", {"legal": True}, True),
        ("setting", {"legal": False}, True),
        ("setting", {"legal": "false"}, False),
        ("setting", {"legal": 0}, False),
        ("setting", {"legal": True, "qualifies": True}, False),
        ("setting", {"rejected": "duplicate-card"}, True),
        ("settle", {"settlement": "player"}, True),
        ("settle", {"settlement": "banker"}, True),
        ("settle", {"settlement": "push"}, True),
        ("settle", {"settlement": "tie"}, False),
        ("settle", {"settlement": "push", "legal": True}, False),
        ("settle", {"legal": True}, False),
        ("compare_two_card", {"winners": [0, 1]}, True),
        ("compare_two_card", {"winners": ["0"]}, False),
        ("compare_two_card", {"winners": [0], "category": "one_pair"}, False),
    ],
)
def test_the_reply_checks_of_the_pai_gow_operations(op, item, ok):
    assert (check_item(op, item) is None) is ok
