"""The generator's own pot arithmetic (vectors/generate/pots.py), held to hand-worked deals.

Every expectation here is worked by hand from the rules of the games (the textbook order
of hands, ace-to-five low with the eight-or-better qualifier, halves split equally),
not taken from the reference engine or from the code under test.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from pokercert.vectors.generate.pots import (
    PotGame,
    Rules,
    by_reading,
    high_value,
    low_value,
    parse,
    settle,
)

ROLES = {"select": ("s",), "order": ("o",), "split": ("p",), "low": ("l",)}
HOLDEM = PotGame("holdem", 2, 5, None, ("high",), ROLES)
OMAHA_HL = PotGame("omaha-hi-lo", 4, 5, 2, ("high", "low"), ROLES)
STUD_HL = PotGame("stud-hi-lo", 7, 0, None, ("high", "low"), ROLES)
RAZZ = PotGame("razz", 7, 0, None, ("razz",), ROLES)


def pot(g: PotGame, hands: list[str], board: str = "") -> tuple[list[int], list[int], list[str]]:
    got = settle(g, [parse(h) for h in hands], parse(board))
    return list(got.high), list(got.low or ()), [str(s) for s in got.shares]


@pytest.mark.parametrize(
    "better, worse",
    [
        ("Kh Kd Ks Qc Qd", "5h 4d 3c 2s Ah"),  # a full house beats a straight
        ("5h 4d 3c 2s Ah", "Kh Kd Ks Qc Jd"),  # the wheel beats three kings
        ("2h 3h 4h 5h 6h", "Ah Ad Ac As Kd"),  # straight flush beats four aces
        ("Ah Ad Ac As 2d", "Kh Kd Kc Ks Ad"),  # four aces beat four kings
        ("6h 5d 4c 3s 2h", "5h 4d 3c 2s Ah"),  # the wheel is the lowest straight
        ("Ah Ad 3c 3s 2h", "Kh Kd Qc Qs Ah"),  # two pairs: the higher pair first
        ("9h 9d 7c 5s 4h", "9s 9c 7d 5h 3h"),  # then kicker by kicker
    ],
)
def test_high_values_order_hands_as_the_textbook_does(better, worse):
    assert high_value(parse(better)) > high_value(parse(worse))


def test_low_values_qualify_eight_or_better_only():
    assert low_value(parse("8h 7d 6c 5s 4h"), qualify=True) is not None
    assert low_value(parse("9h 4d 3c 2s Ah"), qualify=True) is None  # a nine-low
    assert low_value(parse("8h 8d 3c 2s Ah"), qualify=True) is None  # a pair
    wheel = low_value(parse("5h 4d 3c 2s Ah"), qualify=True)
    six = low_value(parse("6h 4d 3c 2s Ah"), qualify=True)
    assert wheel is not None and six is not None and wheel > six  # the wheel is best


def test_razz_counts_pairs_against_a_hand():
    assert low_value(parse("Kh Qd Jc Ts 9h"), qualify=False) > low_value(
        parse("2h 2d 3c 4s 5h"), qualify=False
    )  # no pair beats a pair


def test_an_omaha_low_is_quartered():
    """Both players hold ace-deuce for 7-4-3-2-A with 3-4-7 on the board; kings-up wins
    high: 1/4, 1/4, 1/2 (the PROTOCOL.md example)."""
    assert pot(OMAHA_HL, ["Ah 2h Kc Qd", "As 2s 9c 9d", "Kh Ks 8c 7c"], "3c 4d 7h Ts Tc") == (
        [2],
        [0, 1],
        ["1/4", "1/4", "1/2"],
    )


def test_omaha_takes_exactly_two_hole_cards():
    """Four spades on the board: the ace of spades alone makes no flush; the player with
    two small spades has one."""
    high, _, _ = pot(
        PotGame("omaha", 4, 5, 2, ("high",), ROLES),
        ["As Kd Qh Jc", "3s 2s 7d 7h"],
        "Ks 9s 8s 4s 2c",
    )
    assert high == [1]


def test_no_qualifying_low_means_high_scoops():
    """Only two cards of eight or lower on the board (a nine beside them): no Omaha low
    exists, and kings and queens (K-Q in hand, K-Q on the board) take the whole pot from
    a pair of jacks."""
    assert pot(OMAHA_HL, ["Ah 2h Kc Qd", "3s 4s Jc Jd"], "9c 5d 7h Ks Qc") == ([0], [], ["1", "0"])


def test_the_same_stud_hand_may_scoop_both_halves():
    """A-2-3-4-5 is the best low and a five-high straight, better for high than kings
    and jacks (the other hand has no low: only three cards of eight or lower)."""
    assert pot(STUD_HL, ["Ah 2d 3c 4s 5h Kc Qd", "Ks Kd 9c 8s 6h Jc Jd"]) == ([0], [0], ["1", "0"])


def test_holdem_board_plays_and_splits():
    assert pot(HOLDEM, ["2c 3d", "4h 2h", "3c 4c"], "Ts Jh Qd Kc As") == (
        [0, 1, 2],
        [],
        ["1/3", "1/3", "1/3"],
    )


def test_razz_pot_is_all_low():
    high, low, shares = pot(RAZZ, ["Kh Kd Qc Qs Jh Jd Tc", "2h 2d 3c 4s 5h 9d 9c"])
    assert (high, low, shares) == ([], [1], ["0", "1"])
    assert sum(Fraction(s) for s in shares) == 1


def test_a_reading_that_changes_the_pot_is_named_with_both_pots():
    """A straight on the board: everyone plays it (practice); if a hold'em hand needed a
    hole card (literal board-plays) A-K-Q-J plus the best hole card decides, and the two
    players holding a four split."""
    g = PotGame(
        "holdem",
        2,
        5,
        None,
        ("high",),
        ROLES,
        (("board-plays", "board_plays"), ("suits-equal", None)),
    )
    holes = [parse("2c 3d"), parse("4h 2h"), parse("3c 4c")]
    practice, interp, literal = by_reading(g, holes, parse("Ts Jh Qd Kc As"))
    assert practice.high == (0, 1, 2) and interp == "board-plays"
    assert literal is not None and (literal.high, [str(s) for s in literal.shares]) == (
        (1, 2),
        ["0", "1/2", "1/2"],
    )


def test_literal_readings_of_the_split_games():
    """A nine-low wins the low half when no qualifier applies (literal low-qualifier); a
    wheel may not be both high and low (literal same-cards-both-halves): the low then
    comes from another five of the seven cards."""
    literal_q = Rules(qualifier=False)
    nine = settle(
        OMAHA_HL, [parse("Ah 2h Kc Qd"), parse("3s 4s Jc Jd")], parse("9c 5d 7h Ks Qc"), literal_q
    )
    assert nine.low == (0,)  # 9-7-5-2-A beats 9-7-5-4-3 (the fourth card decides)
    distinct = Rules(shared_cards=False)
    wheel = settle(
        STUD_HL, [parse("Ah 2d 3c 4s 5h Kc Qd"), parse("Ks Kd 9c 8s 6h Jc Jd")], [], distinct
    )
    assert wheel.high == (0,) and wheel.low is None  # its only low five is its straight
