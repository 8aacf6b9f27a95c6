"""Poker-room games (issue 14): best-hand selection and split pots, hand-worked.

Every expectation below was worked out by hand from the rules the rulesets cite
(13:69F-14.3 rankings; 14.10(a) high only; house rules RRoP-5 to RRoP-10 for the board,
Omaha's two hole cards and the eight-or-better split); the comment on each case shows
the working, never a value read back from the engine.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from pokercert.reference import (
    CardError,
    Pot,
    RulesetError,
    evaluator,
    format_cards,
    get_ruleset,
    sort_cards,
)
from pokercert.reference.cards import WRONG_COUNT

HALF, QUARTER, THREE_QUARTERS = Fraction(1, 2), Fraction(1, 4), Fraction(3, 4)


def cards(text: str) -> str:
    """A card set in the engine's sorted text form, for comparing chosen hands."""
    from pokercert.reference import parse_cards

    return format_cards(sort_cards(parse_cards(text)))


def chosen(best: object) -> str:
    return format_cards(sort_cards(best.cards))  # type: ignore[attr-defined]


# ----------------------------------------------------------------- data


def test_the_six_rulesets_exist_with_their_selection_and_halves() -> None:
    shape = {
        # id: (hole, board, hole cards a hand may use, halves)
        "nj-holdem": (2, 5, range(0, 3), ("high",)),
        "nj-omaha": (4, 5, range(2, 3), ("high",)),
        "nj-omaha-hi-lo": (4, 5, range(2, 3), ("high", "low")),
        "nj-seven-card-stud": (7, 0, range(0, 8), ("high",)),
        "nj-stud-hi-lo": (7, 0, range(0, 8), ("high", "low")),
        "nj-razz": (7, 0, range(0, 8), ("low",)),
    }
    for rid, (hole, board, span, halves) in shape.items():
        rs = get_ruleset(rid)
        assert rs.selection is not None
        assert (rs.selection.hole, rs.selection.board, rs.selection.hole_range) == (
            hole,
            board,
            span,
        ), rid
        assert tuple(h.name for h in rs.pot_halves) == halves, rid
        assert rs.hand_size == 5


def test_low_halves_rank_by_ace_to_five_behind_eight_or_better() -> None:
    for rid in ("nj-omaha-hi-lo", "nj-stud-hi-lo"):
        low = get_ruleset(rid).half("low")
        assert low.ranks_by == "nj-poker-low-5"
        assert low.qualifier is not None
        assert (low.qualifier.categories, low.qualifier.max_rank) == (("high_card",), 8)
    # razz: the low ranking is the game's own, with no qualifier
    razz = get_ruleset("nj-razz")
    assert razz.rules["direction"] == "low" and razz.pot_halves[0].qualifier is None
    # 14.10(a): "a winning high hand only"
    assert get_ruleset("nj-holdem").half("high").clause == "13:69F-14.10(a)"


def test_games_cite_the_ranking_clauses_they_rank_by() -> None:
    holdem = get_ruleset("nj-holdem")
    assert holdem.has_clause("13:69F-14.3(b)3") and holdem.has_clause("RRoP-5")
    hilo = get_ruleset("nj-omaha-hi-lo")
    assert hilo.has_clause("13:69F-14.3(f)") and hilo.has_clause("RRoP-10")


# ----------------------------------------------------------------- hold'em


def test_holdem_board_plays_and_splits() -> None:
    # a royal flush on board: neither player's hole cards improve it -> both play the board
    pot = evaluator("nj-holdem").pot(["2c 3d", "4h 5h"], "As Ks Qs Js Ts")
    assert pot == Pot(high=(0, 1), low=None, shares=(HALF, HALF))


def test_holdem_kicker_of_quads_on_board() -> None:
    # four nines on board; the fifth card is each player's best other card: A beats K
    ev = evaluator("nj-holdem")
    pot = ev.pot(["Ah 3d", "Kh Qd"], "9c 9d 9h 9s 2c")
    assert pot == Pot(high=(0,), low=None, shares=(Fraction(1), Fraction(0)))
    # and when the board's own kicker is the best, both play the board
    pot = ev.pot(["3h 4d", "5h 6d"], "9c 9d 9h 9s Ac")
    assert pot.high == (0, 1) and pot.shares == (HALF, HALF)


def test_holdem_counterfeited_two_pair() -> None:
    # board K K 5 5 8: pocket threes are worth less than the board's fives, so player 0
    # plays K K 5 5 8; player 1 plays K K 5 5 A and wins on the kicker
    ev = evaluator("nj-holdem")
    best = ev.best_hand("3c 3d", "Kc Kd 5h 5s 8c")
    assert best is not None and best.category == "two_pair"
    assert chosen(best) == cards("Kc Kd 5h 5s 8c")
    assert ev.pot(["3c 3d", "Ah 4d"], "Kc Kd 5h 5s 8c").high == (1,)


def test_holdem_has_no_low_half() -> None:
    with pytest.raises(RulesetError, match="no 'low' half"):
        evaluator("nj-holdem").best_hand("Ah 2d", "3c 4d 5h Kc Qs", half="low")


# ----------------------------------------------------------------- Omaha


def test_omaha_four_flush_on_board_needs_two_suited_hole_cards() -> None:
    # four hearts on board and one heart in hand: exactly two hole cards must play, so
    # no flush; best is J-5 from the hand with A K Q from the board (ace high)
    ev = evaluator("nj-omaha")
    best = ev.best_hand("Jh 3c 4d 5s", "Ah Kh Qh 2h 7c")
    assert best is not None and best.category == "high_card"
    assert chosen(best) == cards("Jh 5s Ah Kh Qh")
    # a pair in the hand (9 9 + A K Q) beats it
    assert ev.pot(["Jh 3c 4d 5s", "9c 9d 8s 8d"], "Ah Kh Qh 2h 7c").high == (1,)


def test_omaha_three_suited_hole_cards_make_no_flush() -> None:
    # A K Q of clubs in hand, J T of clubs on board: the royal flush needs three hole
    # cards; with two (K Q) and three board cards (J T 9) the best is a king-high straight
    best = evaluator("nj-omaha").best_hand("Ac Kc Qc 2d", "Jc Tc 5h 6s 9d")
    assert best is not None and best.category == "straight"
    assert {c.rank for c in best.cards} == {13, 12, 11, 10, 9}


def test_omaha_board_never_plays() -> None:
    # a straight flush on board is worth nothing without two hole cards: with no spade
    # and nothing that connects in the hand, the best is the deuces with K Q J from the
    # board (3 4 + board cards make no straight: 5 and 6 are missing)
    best = evaluator("nj-omaha").best_hand("2c 2d 3h 4h", "9s Ts Js Qs Ks")
    assert best is not None and best.category == "one_pair"
    assert chosen(best) == cards("2c 2d Ks Qs Js")


# ----------------------------------------------------------------- split pots


def test_omaha_hi_lo_quartered_low() -> None:
    # board 2c 3d 7h Kc Ks
    # p0 Ah 4h Kd Qd: high Kd Qd + Kc Ks 7h = three kings; low Ah 4h + 2 3 7 = 7-4-3-2-A
    # p1 Ac 4s 9d 9c: high 9 9 + K K 7 = two pair; low A 4 + 2 3 7 = 7-4-3-2-A (tie)
    # p2 Jc Jd Th Ts: high J J + K K 7; no two hole cards of eight or lower -> no low
    # high to p0 (1/2); low split p0/p1 (1/4 each): p0 3/4, p1 1/4 -- quartered
    pot = evaluator("nj-omaha-hi-lo").pot(
        ["Ah 4h Kd Qd", "Ac 4s 9d 9c", "Jc Jd Th Ts"], "2c 3d 7h Kc Ks"
    )
    assert pot == Pot(high=(0,), low=(0, 1), shares=(THREE_QUARTERS, QUARTER, Fraction(0)))
    assert sum(pot.shares) == 1


def test_omaha_hi_lo_counterfeit_low_and_scoop() -> None:
    # board 2d 4h 5s Js Kc
    # p0 Ac 2c Kh Qd: A 2 + 2 4 5 pairs the deuce (counterfeit); A+K, A+Q, 2+K... carry a
    #    card above eight -> no low at all
    # p1 3c 6d 9h 9s: 3 6 + 2 4 5 = 6-5-4-3-2, a low, and also a six-high straight, which
    #    beats p0's pair of kings -> p1 scoops with the same five cards both ways
    ev = evaluator("nj-omaha-hi-lo")
    assert ev.best_hand("Ac 2c Kh Qd", "2d 4h 5s Js Kc", half="low") is None
    pot = ev.pot(["Ac 2c Kh Qd", "3c 6d 9h 9s"], "2d 4h 5s Js Kc")
    assert pot == Pot(high=(1,), low=(1,), shares=(Fraction(0), Fraction(1)))


def test_no_qualifying_low_gives_the_high_hand_the_whole_pot() -> None:
    # only one board card (the 2) is eight or lower: no player can make five low cards
    pot = evaluator("nj-omaha-hi-lo").pot(["Ah 3d Kc Kd", "As 4s 5s 6s"], "9c Td Jh Qs 2d")
    assert pot.low is None
    assert pot.high == (0,)  # three kings
    assert pot.shares == (Fraction(1), Fraction(0))


def test_stud_hi_lo_wheel_scoops() -> None:
    # p0 A 2 3 4 5 K Q: a five-high straight (beats p1's two pair) and the best low
    pot = evaluator("nj-stud-hi-lo").pot(["Ah 2d 3c 4s 5h Kd Qc", "Ks Kh Jd Jc 9c 8s 7s"])
    assert pot == Pot(high=(0,), low=(0,), shares=(Fraction(1), Fraction(0)))


def test_stud_hi_lo_wheel_wins_low_only_against_a_full_house() -> None:
    pot = evaluator("nj-stud-hi-lo").pot(["Ah 2d 3c 4s 5h Kd Kc", "Qs Qh Qd 9c 9d 8s 7s"])
    assert pot == Pot(high=(1,), low=(0,), shares=(HALF, HALF))


def test_nine_low_does_not_qualify() -> None:
    # p0 9 6 4 3 2 + K K: the only five unpaired cards are 9-6-4-3-2 -> above eight
    ev = evaluator("nj-stud-hi-lo")
    assert ev.best_hand("9h 6d 4c 3s 2h Kd Kc", half="low") is None
    pot = ev.pot(["9h 6d 4c 3s 2h Kd Kc", "Qs Qh Jd Tc 5c 5s Ad"])
    assert pot == Pot(high=(1,), low=None, shares=(Fraction(0), Fraction(1)))


def test_eight_low_qualifies_and_straights_flushes_are_ignored_for_low() -> None:
    # 8 7 6 5 4 of hearts is a straight flush for high and an eight-low for low
    ev = evaluator("nj-stud-hi-lo")
    low = ev.best_hand("8h 7h 6h 5h 4h Kd Kc", half="low")
    assert low is not None and chosen(low) == cards("8h 7h 6h 5h 4h")
    high = ev.best_hand("8h 7h 6h 5h 4h Kd Kc")
    assert high is not None and high.category == "straight_flush"


def test_three_way_split_of_the_high_half() -> None:
    # hold'em: a broadway straight on board that no hand improves -> three-way chop
    pot = evaluator("nj-holdem").pot(["2c 3d", "4h 5h", "6s 7c"], "As Kd Qh Jc Tc")
    third = Fraction(1, 3)
    assert pot == Pot(high=(0, 1, 2), low=None, shares=(third, third, third))


def test_identical_hands_by_suit_split() -> None:
    # four hearts, three diamonds: no flush either side; both play A K Q J 9
    pot = evaluator("nj-seven-card-stud").pot(["Ah Kh Qh Jh 9c 3c 2d", "As Ks Qd Jd 9d 3h 2s"])
    assert pot.high == (0, 1) and pot.shares == (HALF, HALF)


# ----------------------------------------------------------------- stud and razz


def test_stud_four_of_a_suit_and_a_straight() -> None:
    # four hearts only -> no flush; 9-8-7-6-5 is a straight
    best = evaluator("nj-seven-card-stud").best_hand("9h 8h 7h 6h 5c Kd 2s")
    assert best is not None and best.category == "straight"
    assert chosen(best) == cards("9h 8h 7h 6h 5c")


def test_stud_takes_the_best_five_not_the_first_five() -> None:
    # the first five cards are a pair of twos; the last three make trips with them? no:
    # 2c 2d 7h 8s 9d + 2h 2s -> four twos with the nine
    best = evaluator("nj-seven-card-stud").best_hand("2c 2d 7h 8s 9d 2h 2s")
    assert best is not None and best.category == "four_of_a_kind"
    assert chosen(best) == cards("2c 2d 2h 2s 9d")


def test_razz_ranks_ace_to_five_without_qualifier() -> None:
    ev = evaluator("nj-razz")
    # the wheel is the best low (its straight does not count); 6-4-3-2-A beats 7-5-4-3-2
    pot = ev.pot(["5h 4d 3c 2s Ah Kd Kc", "6h 4c 3d 2h As Qd Qc", "Ks Kh 7c 5d 4h 3s 2c"])
    assert pot == Pot(high=(), low=(0,), shares=(Fraction(1), Fraction(0), Fraction(0)))
    assert ev.winners(["6h 4c 3d 2h As Qd Qc", "Kh Ks 7c 5d 4h 3s 2c"]) == [0]
    # razz with pairs: A A 2 2 3 3 4 -> the best five is a pair of aces with 4-3-2
    best = ev.best_hand("Ah Ad 2c 2d 3h 3s 4c", half="low")
    assert best is not None and best.category == "one_pair"
    assert sorted(c.rank for c in best.cards) == [2, 3, 4, 14, 14]
    # no high half in razz; and a nine-low still wins when it is the lowest
    with pytest.raises(RulesetError, match="no 'high' half"):
        ev.best_hand("Ah Ad 2c 2d 3h 3s 4c", half="high")
    # no half named: the game's own (first) half, here the low
    assert ev.best_hand("Ah Ad 2c 2d 3h 3s 4c") == best
    assert ev.pot(["9h 6d 4c 3s 2h Kd Kc", "Ts 8h 7d 6c 5s Qd Qc"]).low == (0,)


# ----------------------------------------------------------------- input


def test_deals_are_checked_for_counts_and_duplicates() -> None:
    with pytest.raises(CardError, match="expected 4 cards"):
        evaluator("nj-omaha").pot(["Ah Kh", "2c 3c 4c 5c"], "9c Td Jh Qs 2d")
    with pytest.raises(CardError, match="duplicate"):
        evaluator("nj-holdem").pot(["Ah Kh", "Ah 3c"], "9c Td Jh Qs 2d")
    # PROTOCOL.md 3.3: a board where the game deals none is too many cards (wrong-count)
    with pytest.raises(CardError, match="no community cards") as board:
        evaluator("nj-razz").pot(["Ah Kh 2c 3c 4c 5c 6c", "Ad Kd 2d 3d 4d 5d 6d"], "9c")
    assert board.value.code == WRONG_COUNT
