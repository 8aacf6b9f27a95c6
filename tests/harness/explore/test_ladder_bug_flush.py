"""The ladder's bug-flush step (issue 29's joker games): a flush of the bug and a natural
ace against a natural flush, decided only by the rank the bug truly fills.

The expectation here is worked from the texts' rule, not from the engine: a bug in a
flush is the highest rank the flush lacks (ARSD 20:18:16:12(3), the Washington and pai gow
practice: "as an ace or to complete a straight or flush"); with an ace already in the
flush it cannot be a second ace of that suit.  Flushes then compare card by card.
"""

from __future__ import annotations

import pytest

from pokercert.harness.explore.ladder import ladder_steps
from pokercert.harness.explore.situations import Game
from pokercert.reference import evaluator, get_ruleset
from pokercert.reference.cards import parse_cards

JOKER_GAMES = ("sd-poker-high-joker", "lc-pai-gow-poker", "wa-pai-gow-poker")
ACE = 14


def _bug_flush_step(rid: str):
    game = Game(get_ruleset(rid), None, ["classify", "compare"])
    steps = [
        s
        for s in ladder_steps(game)
        if getattr(s, "func", None) and s.func.__name__ == "_bug_flush"
    ]
    assert len(steps) == 1
    return steps[0]


def _ranks_as_played(hand: str) -> list[int]:
    cards = parse_cards(hand, jokers=1)
    natural = sorted((c.rank for c in cards if not c.is_joker), reverse=True)
    if len(natural) < len(cards):  # the bug: the highest rank lacking
        natural.append(max(r for r in range(2, ACE + 1) if r not in natural))
    return sorted(natural, reverse=True)


@pytest.mark.parametrize("rid", JOKER_GAMES)
def test_the_bug_flush_is_decided_by_the_rank_the_bug_fills(rid):
    step = _bug_flush_step(rid)
    deals = [d for d in (step(f"seed-{i}") for i in range(40)) if d is not None]
    assert len(deals) >= 10
    ev = evaluator(rid)
    for deal in deals:
        hands = deal.inputs["hands"]
        bug = next(i for i, h in enumerate(hands) if "Xx" in h)
        played = [_ranks_as_played(h) for h in hands]
        assert played[bug][0] == ACE and ACE not in played[bug][1:]  # one ace only
        winner = max(range(2), key=lambda i: played[i])
        assert played[winner] > played[1 - winner]  # no tie
        assert winner != bug  # the rival wins: the bug is not a second ace
        assert ev.winners(hands) == [winner]


def test_no_bug_flush_step_where_the_joker_is_fully_wild_or_absent():
    for rid in ("mt-poker-high", "nj-poker-high-5"):
        game = Game(get_ruleset(rid), None, ["classify", "compare"])
        assert not [
            s
            for s in ladder_steps(game)
            if getattr(s, "func", None) and s.func.__name__ == "_bug_flush"
        ]
