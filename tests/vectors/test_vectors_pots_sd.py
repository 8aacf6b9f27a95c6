"""The generator's pot arithmetic for South Dakota's high-low split draw (ARSD
20:18:16:12(4)), held to hand-worked deals.

12(4) names no qualifier: every hand plays for the low half.  The low half is 12(2)'s low
game under sd-low-order: practice ace-to-five; literal 03's list reversed, so a straight
or a flush is a bad low (the ace below the deuce: A-2-3-4-5 a straight, 10-J-Q-K-A not).
Every expectation is worked by hand from those words, not read from the engine.
"""

from __future__ import annotations

from dataclasses import replace

from pokercert.vectors.generate.pots import (
    PRACTICE,
    PotGame,
    by_reading,
    low_value,
    parse,
    settle,
)

ROLES = {"select": ("s",), "split": ("p",), "low": ("l",)}
DRAW_HL = PotGame(
    "draw-hi-lo", 5, 0, None, ("high", "low"), ROLES, (("sd-low-order", "a5_low"),), False
)
LITERAL = replace(PRACTICE, a5_low=False)


def low(hand: str, rules=PRACTICE):
    value = low_value(parse(hand), False, rules)
    assert value is not None
    return value


def test_literal_low_counts_straights_and_flushes_against_a_hand():
    # practice: the wheel is the best low; literally A-2-3-4-5 is a straight, worse
    # than 6-4-3-2-A (no pair) and than a pair
    assert low("Ah 2c 3d 4s 5h") > low("Ac 2d 3c 4h 6s")
    assert low("Ah 2c 3d 4s 5h", LITERAL) < low("Ac 2d 3c 4h 6s", LITERAL)
    assert low("Ah 2c 3d 4s 5h", LITERAL) < low("Kd Kc 9h 7d 3d", LITERAL)
    # a flush: no matter in practice, below one pair literally
    assert low("9s 7s 5s 3s 2s") > low("Qd Qc 8h 6d 4c")
    assert low("9s 7s 5s 3s 2s", LITERAL) < low("Qd Qc 8h 6d 4c", LITERAL)
    # a straight flush is the worst literal low, below four of a kind
    assert low("Ah 2h 3h 4h 5h", LITERAL) < low("Kc Kd Ks Kh 9d", LITERAL)
    # the ace is low: 10-J-Q-K-A is no sequence, a king-high no-pair hand either way
    assert low("Ts Jh Qd Kc Ah", LITERAL) > low("9s 9h 8d 7c 6h", LITERAL)
    # two straights: the lower one is the better low
    assert low("Ah 2c 3d 4s 5h", LITERAL) > low("6c 7d 8h 9s Tc", LITERAL)


def test_no_qualifier_a_king_low_still_wins_the_low_half():
    # eight or better would leave no low here; 12(4) names no qualifier
    got = settle(DRAW_HL, [parse("Ks Kd 9c Jh Qd"), parse("Kh Qs Jd 9s 7c")], [])
    assert got.high == (0,) and got.low == (1,)
    assert [str(s) for s in got.shares] == ["1/2", "1/2"]


def test_three_quarters_under_practice_halves_under_literal():
    hands = [parse(h) for h in ("8h 6h 4h 3h 2h", "8c 6d 4c 3s 2d", "Ks Kc 9h 7d 3d")]
    practice, interp, literal = by_reading(DRAW_HL, hands, [])
    assert interp == "sd-low-order"
    assert [str(s) for s in practice.shares] == ["3/4", "1/4", "0"]
    assert literal is not None and [str(s) for s in literal.shares] == ["1/2", "1/2", "0"]


def test_the_wheel_scoops_in_practice_only():
    hands = [parse("Ah 2c 3d 4s 5h"), parse("Ac 2d 3c 4h 6s")]
    practice, interp, literal = by_reading(DRAW_HL, hands, [])
    assert (practice.high, practice.low) == ((0,), (0,))
    assert interp == "sd-low-order" and literal is not None
    assert (literal.high, literal.low) == ((0,), (1,))
