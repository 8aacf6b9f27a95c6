"""The challenge's fresh pai gow deals (harness/run/pai_gow_fresh.py): new hands of every
pai gow kind, with jokers in two-card hands, foul settings and two-card copies among
them, each pai gow mutant answering some of them otherwise than the reference does."""

from __future__ import annotations

import random

import pytest

from pokercert.harness.mutants import MutantEvaluator, get_mutant
from pokercert.harness.run.challenge import FreshDeal
from pokercert.harness.run.pai_gow_fresh import COUNTS, pai_gow_fresh
from pokercert.reference import evaluator
from pokercert.reference.cards import parse_cards
from pokercert.reference.pai_gow import low_key, pai_gow
from pokercert.vectors.model import Kind

RS = "wa-pai-gow-poker"
MUTANTS = (
    "pai-gow-setting-ignored",
    "pai-gow-copies-to-player",
    "pai-gow-two-card-joker-not-ace",
    "pai-gow-high-hand-only",
)


@pytest.fixture(scope="module")
def deals():
    dealt = pai_gow_fresh(evaluator(RS), random.Random(1), lambda op, inputs: True)
    return [FreshDeal(*d) for d in dealt]


def test_every_kind_is_dealt_as_often_as_asked(deals):
    for kind, count in COUNTS.items():
        assert sum(d.kind == kind for d in deals) == count


def test_the_deals_hold_jokers_fouls_and_copies(deals):
    game = pai_gow(RS)
    two = [d for d in deals if d.kind == Kind.COMPARE_TWO_CARD]
    assert any("Xx" in h for d in two for h in d.inputs["hands"])
    assert any(d.expect == {"legal": False} for d in deals if d.kind == Kind.SETTING)
    copies = [
        d
        for d in deals
        if d.kind == Kind.SETTLE
        and low_key(parse_cards(d.inputs["player"][1], jokers=1))
        == low_key(parse_cards(d.inputs["banker"][1], jokers=1))
    ]
    assert copies
    # a banker's foul is never dealt
    assert all(game.legal(*d.inputs["banker"]) for d in deals if d.kind == Kind.SETTLE)


@pytest.mark.parametrize("mutant_id", MUTANTS)
def test_each_pai_gow_mutant_answers_some_fresh_deal_wrongly(deals, mutant_id):
    m = MutantEvaluator(get_mutant(mutant_id))
    m.configure(RS, {})

    def answer(d):
        if d.kind == Kind.COMPARE_TWO_CARD:
            return {"winners": m.compare_two_card([h.split() for h in d.inputs["hands"]])}
        if d.kind == Kind.SETTING:
            return {"legal": m.setting(d.inputs["high"].split(), d.inputs["low"].split())}
        player = [h.split() for h in d.inputs["player"]]
        return {"settlement": m.settle(player, [h.split() for h in d.inputs["banker"]])}

    assert any(answer(d) != d.expect for d in deals)
