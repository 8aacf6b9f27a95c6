"""The poker-room interpretations (issue 14): each reading changes the outcome it names.

Deals worked by hand under both readings of board-plays, omaha-two-hole-cards,
low-qualifier and same-cards-both-halves (INTERPRETING.md states the question each one
answers); the practice reading is the default.
"""

from __future__ import annotations

from fractions import Fraction

from pokercert.reference import Evaluator, Pot, Profile, evaluator, get_interpretation


def literal(rid: str, iid: str) -> Evaluator:
    return Evaluator(rid, Profile("t", {iid: "literal"}))


def test_defaults_are_the_practice_readings() -> None:
    for iid in ("board-plays", "omaha-two-hole-cards", "low-qualifier", "same-cards-both-halves"):
        assert get_interpretation(iid).default == "practice"


def test_board_plays() -> None:
    # royal flush on board.  practice: both play it and split.  literal (a hole card must
    # play): 3d + A K Q J (of the board) against 5h + A K Q J -> the five wins
    deal = (["2c 3d", "4h 5h"], "As Ks Qs Js Ts")
    assert evaluator("nj-holdem").pot(*deal).high == (0, 1)
    assert literal("nj-holdem", "board-plays").pot(*deal).high == (1,)


def test_omaha_two_hole_cards() -> None:
    # four hearts on board, one in hand.  practice: no flush (ace high); literal, any five
    # of the nine: Jh with Ah Kh Qh 2h is a flush
    deal = ("Jh 3c 4d 5s", "Ah Kh Qh 2h 7c")
    assert evaluator("nj-omaha").best_hand(*deal).category == "high_card"
    assert literal("nj-omaha", "omaha-two-hole-cards").best_hand(*deal).category == "flush"


def test_low_qualifier() -> None:
    # p0's only low is 9-6-4-3-2; p1's is Q-J-T-5-A.  practice: neither qualifies, so p1's
    # two pair (queens and fives, over p0's kings) take the whole pot.  literal: the
    # nine-low is the best low and takes half
    hands = ["9h 6d 4c 3s 2h Kd Kc", "Qs Qh Jd Tc 5c 5s Ad"]
    assert evaluator("nj-stud-hi-lo").pot(hands) == Pot((1,), None, (Fraction(0), Fraction(1)))
    half = Fraction(1, 2)
    assert literal("nj-stud-hi-lo", "low-qualifier").pot(hands) == Pot((1,), (0,), (half, half))


def test_same_cards_both_halves() -> None:
    # p0 A 2 3 4 5 K Q: the wheel is p0's best high (a straight) and only eight-or-better
    # low.  practice: it wins both halves.  literal: the low must be other five cards,
    # and p0 has none that qualify (K and Q are above eight): no low, p0 still scoops high
    hands = ["Ah 2d 3c 4s 5h Kd Qc", "Ks Kh Jd Jc 9c 8s 7s"]
    assert evaluator("nj-stud-hi-lo").pot(hands).low == (0,)
    split = literal("nj-stud-hi-lo", "same-cards-both-halves")
    assert split.pot(hands) == Pot((0,), None, (Fraction(1), Fraction(0)))
    assert split.best_hand(hands[0], half="low") is None
