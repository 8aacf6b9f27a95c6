"""Issue 26: the reference settles a pot (and a best hand) only of a deal the game deals.

Robert's Rules of Poker section 8 deals seven cards in stud (razz and stud high-low are
stud); section 5 two hole cards and a five-card board in hold'em; section 6 four hole
cards and five on the board in Omaha.  Any other count is ``wrong-count`` (PROTOCOL.md
3.2); a ``compare`` of final five-card hands is not a deal and stays valid.
"""

from __future__ import annotations

import pytest

from pokercert.reference import CardError, evaluator
from pokercert.reference.cards import WRONG_COUNT

QUADS_AND_FULL = ["Qc Qh Qs Qd 9h", "2d 2c 2s 5h 5d"]  # five cards each
SEVEN_EACH = ["Qc Qh Qs Qd 9h 3c 4c", "2d 2c 2s 5h 5d 6c 7c"]


@pytest.mark.parametrize("ruleset", ["nj-razz", "nj-seven-card-stud", "nj-stud-hi-lo"])
def test_a_five_card_stud_or_razz_showdown_is_wrong_count(ruleset: str) -> None:
    ev = evaluator(ruleset)
    with pytest.raises(CardError) as raised:
        ev.pot(QUADS_AND_FULL)
    assert raised.value.code == WRONG_COUNT
    with pytest.raises(CardError) as raised:
        ev.pot([QUADS_AND_FULL[0], SEVEN_EACH[1]])  # one player short
    assert raised.value.code == WRONG_COUNT
    with pytest.raises(CardError) as raised:
        ev.best_hand(QUADS_AND_FULL[0])
    assert raised.value.code == WRONG_COUNT


def test_seven_card_razz_is_settled_and_five_card_razz_hands_still_compare() -> None:
    ev = evaluator("nj-razz")
    # hand-worked: Q-Q-Q-Q-9-4-3 has four ranks, its best low a pair of queens
    # (Q-Q-9-4-3); 7-6-5-5-2-2-2 has four ranks too, its best low a pair of deuces
    # (7-6-5-2-2): one pair each, the lower pair wins, the deuces
    assert ev.pot(SEVEN_EACH).low == (1,)
    # final five-card hands: a full house is a better low than four of a kind
    # (13:69F-14.3(b): the low order best first ends full house, four of a kind)
    assert ev.winners(QUADS_AND_FULL) == [1]


@pytest.mark.parametrize(
    ("ruleset", "hands", "board"),
    [
        ("nj-holdem", ["As Ks Qs Js Ts", "2c 3c 4c 5c 7d"], None),  # five cards, no board
        ("nj-holdem", ["As Ks", "2c 3c"], "Qs Js Ts 9d"),  # a four-card board
        ("nj-holdem", ["As Ks Qd", "2c 3c"], "Qs Js Ts 9d 8d"),  # three hole cards
        ("nj-omaha", ["As Ks Qd Jd", "2c 3c 4c 5c"], "Qs Js Ts 9d"),  # a four-card board
        ("nj-omaha-hi-lo", ["As Ks", "2c 3c"], "Qs Js Ts 9d 8d"),  # hold'em hole cards
    ],
)
def test_a_board_game_deals_its_hole_cards_and_its_whole_board(
    ruleset: str, hands: list[str], board: str | None
) -> None:
    with pytest.raises(CardError) as raised:
        evaluator(ruleset).pot(hands, board)
    assert raised.value.code == WRONG_COUNT


def test_a_best_hand_of_a_board_game_needs_its_whole_board() -> None:
    with pytest.raises(CardError) as raised:
        evaluator("nj-holdem").best_hand("As Ks", "Qs Js Ts")
    assert raised.value.code == WRONG_COUNT
    assert evaluator("nj-holdem").best_hand("As Ks", "Qs Js Ts 2d 3c").category == "royal_flush"
