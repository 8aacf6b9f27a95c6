"""South Dakota's poker-room games (issue 29), hand-worked from the stored texts.

ARSD 20:18:16:15.01(7) (hold 'em eighty-eight): "each player makes that player's best
five-card hand, using either one card from the player's hand together with four
community cards or both cards from the player's hand together with three community
cards"; tying hands split the pot.  20:18:16:13: five-card stud is played only at high
poker, its suit order (spades, hearts, diamonds, clubs) decides who opens; 31(5): suits
do not count at the showdown; 03(6): the ace is low only in the five-high straight.
The comment on each case shows the working; no value is read back from the engine.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from pokercert.reference import CardError, Pot, evaluator
from pokercert.reference.jurisdictions import rulesets_of

HALF = Fraction(1, 2)
ONE, NONE = Fraction(1), Fraction(0)
H88, STUD5 = "sd-holdem-88", "sd-five-card-stud"


@pytest.mark.parametrize(
    ("hands", "board", "pot"),
    [
        # the board is four kings: each hand is those quads and one hole card, the
        # player's own best; the ace beats the queen (03(3), then the fifth card)
        (["As 2c", "Qh Jh"], "Ks Kh Kd Kc", Pot((0,), None, (ONE, NONE))),
        # four hearts on the board, one heart in the first hand: Ah with the four
        # hearts is an ace-high flush (one hole card, four community cards); the kings
        # make only a pair of kings.  (Two hole cards required, as in Omaha, would give
        # the first hand no flush and the pot to the kings.)
        (["Ah 3c", "Ks Kc"], "2h 7h 9h Jh", Pot((0,), None, (ONE, NONE))),
        # both hole cards with three community cards: K-K-9-9-4 two pair beats A-9-9-4-2
        # one pair (with one hole card only, K-9-9-4-2 would lose to A-9-9-4-2)
        (["Ks Kh", "Ac Qc"], "9c 9d 4s 2h", Pot((0,), None, (ONE, NONE))),
        # four to a straight (8-7-6-5) on the board: a nine with it is nine-high, a four
        # eight-high; the nine wins
        (["9s 2c", "4d 2d"], "8c 7h 6s 5d", Pot((0,), None, (ONE, NONE))),
        # the same ranks in other suits: suits do not count (31(5)), the pot is split
        # (15.01(7) "the pot is split among them")
        (["As Qd", "Ac Qh"], "Kc 9d 5s 3h", Pot((0, 1), None, (HALF, HALF))),
    ],
)
def test_holdem_88_hands_use_one_or_both_hole_cards(hands, board, pot):
    assert evaluator(H88).pot(hands, board) == pot


def test_holdem_88_board_of_four_cards_only():
    """15.01(4): three flop cards and one final community card; five are no deal."""
    with pytest.raises(CardError):
        evaluator(H88).pot(["As 2c", "Qh Jh"], "Ks Kh Kd Kc 3s")


@pytest.mark.parametrize(
    ("hands", "pot"),
    [
        # A-2-3-4-5 is the lowest straight (03(6)): the six-high straight wins
        (["Ah 2c 3d 4s 5h", "2d 3c 4h 5c 6s"], Pot((1,), None, (NONE, ONE))),
        # the same five ranks, spades against hearts: 13's suit order decides only the
        # opener; at the showdown suits do not count (31(5)): split
        (["Ks Qs 9d 7c 4s", "Kh Qh 9c 7s 4h"], Pot((0, 1), None, (HALF, HALF))),
        # a pair of twos beats ace high (03(9) above 03(10)): the five cards are the hand
        (["2s 2h 5d 8c Jh", "Ac Kd Qs 9h 7d"], Pot((0,), None, (ONE, NONE))),
    ],
)
def test_five_card_stud_the_five_cards_are_the_hand(hands, pot):
    assert evaluator(STUD5).pot(hands) == pot


def test_five_card_stud_deals_no_board_and_five_cards():
    ev = evaluator(STUD5)
    with pytest.raises(CardError):
        ev.pot(["Ah 2c 3d 4s 5h 9c", "2d 3c 4h 5c 6s 9d"])
    with pytest.raises(CardError):
        ev.pot(["Ah 2c 3d 4s 5h", "2d 3c 4h 5c 6s"], "9c 9d 9h")


def test_south_dakota_lists_its_poker_room_games():
    ids = {rs.id for rs in rulesets_of("SD")}
    assert {H88, STUD5, "sd-poker-high-joker"} <= ids
