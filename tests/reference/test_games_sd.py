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
from pokercert.reference.interpretations import Profile
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


# --- five-card high-low split draw, 20:18:16:12(4): "the player with the best high hand
# and the player with the best low hand split the pot"; "A player who wins high or low
# and ties a player for the other receives three-quarters of the pot"; "A player may win
# both high and low at the same time".  The low half is 12(2)'s, under sd-low-order:
# practice ace-to-five, literal 03's list reversed (straights and flushes count).
HILO = "sd-draw-high-low"
Q = Fraction(1, 4)
LITERAL_LOW = Profile("literal-low", {"sd-low-order": "literal"})


@pytest.mark.parametrize(
    ("hands", "practice", "literal"),
    [
        # the wheel: a five-high straight beats ace high; as ace-to-five the best low, so
        # it scoops; read literally it is a straight, and 6-4-3-2-A takes the low
        (
            ["Ah 2c 3d 4s 5h", "Ac 2d 3c 4h 6s"],
            Pot((0,), (0,), (ONE, NONE)),
            Pot((0,), (1,), (HALF, HALF)),
        ),
        # the flush wins high and (ace-to-five) ties 8-6-4-3-2 for low: 1/2 + 1/4; read
        # literally the flush is a bad low and the offsuit hand wins the low alone
        (
            ["8h 6h 4h 3h 2h", "8c 6d 4c 3s 2d", "Ks Kc 9h 7d 3d"],
            Pot((0,), (0, 1), (3 * Q, Q, NONE)),
            Pot((0,), (1,), (HALF, HALF, NONE)),
        ),
        # the steel wheel: a straight flush, the best high; the best low in practice, the
        # worst literally (below the full house)
        (
            ["Ah 2h 3h 4h 5h", "Kc Kd Ks 9c 9d"],
            Pot((0,), (0,), (ONE, NONE)),
            Pot((0,), (1,), (HALF, HALF)),
        ),
        # no reading changes these: the kings win high, two equal 7-5-4-3-2 share the low
        (
            ["Ks Kd 9c Jh Qd", "7s 5h 4d 3c 2s", "7h 5d 4c 3s 2h"],
            Pot((0,), (1, 2), (HALF, Q, Q)),
            Pot((0,), (1, 2), (HALF, Q, Q)),
        ),
        # A-A beats K-K high (the ace highest) and low (the ace below the deuce, 03)
        (
            ["As Ad 9c 7h 5s", "Kc Kd 9h 7s 5d"],
            Pot((0,), (0,), (ONE, NONE)),
            Pot((0,), (0,), (ONE, NONE)),
        ),
        # the ten-high straight wins high; the wheel is the lower straight and the low
        (
            ["Ah 2c 3d 4s 5h", "6c 7d 8h 9s Tc"],
            Pot((1,), (0,), (HALF, HALF)),
            Pot((1,), (0,), (HALF, HALF)),
        ),
    ],
)
def test_high_low_draw_splits_as_12_4_says(hands, practice, literal):
    assert evaluator(HILO).pot(hands) == practice
    assert evaluator(HILO, LITERAL_LOW).pot(hands) == literal


def test_the_literal_low_reading_leaves_the_high_half_alone():
    """sd-low-order's literal reading sets the low order's categories; the game lists the
    interpretation (so an evaluator is told it) but its high half keeps 03's order: the
    wheel, a straight, still beats a pair of kings for high."""
    ev = evaluator(HILO, LITERAL_LOW)
    assert ev.category("Ah 2c 3d 4s 5h") == "straight"
    assert ev.pot(["Ah 2c 3d 4s 5h", "Kh Kd 9c 7s 2h"]).high == (0,)
    low, _ = ev.half_ranking("low")
    assert low.ruleset.id == "sd-draw-low"
    assert low.category("Ah 2c 3d 4s 5h") == "straight"  # the low half: literally a straight


def test_high_low_draw_has_no_joker_and_five_cards():
    """12(4) names no joker (12(3)'s "If a joker is used" is the high game's): the deck
    is 52 cards, and a hand is five cards (12(1))."""
    ev = evaluator(HILO)
    with pytest.raises(CardError):
        ev.pot(["Jk 2c 3d 4s 5h", "Ac 2d 3c 4h 6s"])
    with pytest.raises(CardError):
        ev.pot(["Ah 2c 3d 4s 5h 9c", "Ac 2d 3c 4h 6s 9d"])


def test_high_low_draw_is_listed_for_south_dakota():
    assert HILO in {rs.id for rs in rulesets_of("SD")}
