"""Situation deals for a board smaller than a hand (issue 29: South Dakota's hold 'em
eighty-eight, ARSD 20:18:16:15.01: two hole cards and four community cards)."""

from __future__ import annotations

from pokercert.harness.explore.situation_choices import SeededChoices
from pokercert.harness.explore.situation_faults import deal_reject
from pokercert.harness.explore.situation_free import deal_showdown
from pokercert.harness.explore.situations import Game
from pokercert.reference import evaluator, get_ruleset

H88 = "sd-holdem-88"


def test_situation_deals_fit_a_four_card_board():
    """The challenge's fresh showdowns and count faults for hold 'em eighty-eight: the
    board always has four cards (a made five-card hand on the board does not fit it),
    and a count fault never holds six cards (six are a whole deal, two hole and four
    community, which the reference values as their best five).  Before issue 29 the
    'showdown-tie' deal put five cards on every board and the count fault dealt six."""
    game = Game(get_ruleset(H88), "practice")
    ev = evaluator(H88)
    for seed in range(60):
        deal = deal_showdown(SeededChoices(seed), game, "showdown-tie")
        assert len(deal.inputs["board"].split()) == 4, deal
        ev.pot(deal.inputs["hands"], deal.inputs["board"])  # a valid deal
        fault = deal_reject(SeededChoices(seed), game, "reject-count")
        hand = fault.inputs.get("hand") or ""
        assert len(hand.split()) != 6, fault
