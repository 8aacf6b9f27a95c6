"""Worked examples taken from each clause's own words (and each reading's own text).

Every expectation here is read off the regulation (quoted in the comment) or worked by
hand; none is produced by the engine under test.
"""

import pytest

from pokercert.reference import evaluator

HIGH5 = ["nj-poker-high-5", "nj-caribbean-stud", "nj-winners-pot", "mt-poker-high"]
HIGH3 = ["nj-poker-high-3", "nj-mini-tex-3"]

# (ruleset(s), hand, category) -- "X is a hand consisting of ..."
CLASSIFY = [
    (HIGH5[:3], "As Ks Qs Js Ts", "royal_flush"),  # (b)1 A K Q J 10 same suit
    (["mt-poker-high"], "As Ks Qs Js Ts", "royal_flush"),  # (2)(b) ace-high SF is "royal"
    (HIGH5, "Kh Qh Jh Th 9h", "straight_flush"),  # (b)2 highest straight flush
    (HIGH5, "Ad 2d 3d 4d 5d", "straight_flush"),  # (b)2 lowest straight flush
    (HIGH5, "As Ah Ad Ac 2s", "four_of_a_kind"),  # (b)3
    (HIGH5, "As Ah Ad Kc Ks", "full_house"),  # (b)4 aces and kings
    (HIGH5, "2s 2h 2d 3c 3s", "full_house"),  # (b)4 twos and threes
    (HIGH5, "As Ks Qs Js 9s", "flush"),  # 33.5(b)5 highest flush
    (HIGH5, "7c 5c 4c 3c 2c", "flush"),  # 33.5(b)5 lowest flush
    (HIGH5, "Ah Ks Qd Jc Th", "straight"),  # (b)6 highest straight
    (HIGH5, "Ah 2s 3d 4c 5h", "straight"),  # (b)6 lowest straight
    (HIGH5, "Qs Kh Ad 2c 3h", "high_card"),  # (b)6 "queen, king, ace, two, three"
    (HIGH5, "Kh Ad 2c 3h 4s", "high_card"),  # no wraparound either way
    (HIGH5, "Jc Qh Kd As 2c", "high_card"),
    (HIGH5, "As Ah Ad 7c 2s", "three_of_a_kind"),  # (b)7
    (HIGH5, "As Ah Kd Kc 2s", "two_pair"),  # (b)8
    (HIGH5, "3s 3h 2d 2c As", "two_pair"),
    (HIGH5, "As Ah 9d 7c 2s", "one_pair"),  # (b)9
    (["nj-poker-high-3"], "As Ks Qs", "royal_flush"),  # 14.3(c)1 A K Q same suit
    (["nj-mini-tex-3"], "As Ks Qs", "straight_flush"),  # 37.5(b)1 A-K-Q is the best SF
    (HIGH3, "Kh Qh Jh", "straight_flush"),  # 14.3(c)2 highest SF
    (HIGH3, "3d 2d Ad", "straight_flush"),  # "a three, two and ace" lowest SF
    (HIGH3, "Kd Ad 2d", "flush"),  # K-A-2 is no straight flush
    (HIGH3, "Kd Ac 2h", "high_card"),  # "ace may not be combined ..."
    (HIGH3, "As Kd Qc", "straight"),  # A-K-Q highest straight
    (HIGH3, "Ac 2d 3h", "straight"),  # A-2-3 lowest straight
    (HIGH3, "7s 7h 7d", "three_of_a_kind"),
    (HIGH3, "Ks 9s 2s", "flush"),
    (HIGH3, "Ks Kh 2s", "one_pair"),
    (["nj-mini-tex-pocket"], "As Ks", "royal_straight_flush"),  # (d)1 ace-king same suit
    (["nj-mini-tex-pocket"], "As Ah", "pair_of_aces"),  # (d)2
    (["nj-mini-tex-pocket"], "9h 8h", "straight_flush"),  # (d)3
    (["nj-mini-tex-pocket"], "9h 9c", "one_pair"),  # (d)4
    (["nj-mini-tex-pocket"], "9h 8c", "straight"),  # (d)5
    (["nj-mini-tex-pocket"], "Ah Kc", "straight"),  # unsuited A-K is consecutive
    (["nj-mini-tex-pocket"], "9h 7h", "high_card"),
    (["mt-poker-high"], "Ks Kh Kd Kc Xx", "five_of_a_kind"),  # (2)(a) four + a wild card
    (["mt-poker-high"], "Ts Js Qs Ks Xx", "royal_flush"),  # wild completes the best SF
    (["mt-poker-high"], "9s Ts Js Qs Xx", "straight_flush"),  # K-high: A would not connect
    (["mt-poker-low"], "As 2d 3c 4h Xx", "high_card"),  # wild as the lowest missing card
    (["nj-poker-low-5", "mt-poker-low"], "As 2s 3s 4s 5s", "high_card"),  # (f) SF ignored
    (["nj-lowball-2-7"], "As 2s 3s 4s 5s", "flush"),  # (f) flushes count in 2-7
    (["nj-lowball-2-7"], "Ah 2d 3c 4s 5h", "high_card"),  # (e) ace only high: no wheel
    (["nj-lowball-2-7"], "Ah Kd Qc Js Th", "straight"),
]


@pytest.mark.parametrize(("rulesets", "hand", "category"), CLASSIFY)
def test_clause_examples_classify(rulesets, hand, category):
    for rid in rulesets:
        assert evaluator(rid).category(hand) == category, rid


# (ruleset(s), profile, hands, winners)
SHOWDOWNS = [
    (HIGH5[:3], "practice", ["As Ah Ad Ac 3s", "2s 2h 2d 2c Ks"], [0]),  # four aces best
    (HIGH5[:3], "practice", ["Ah 2d 3c 4s 5h", "2h 3d 4c 5s 6h"], [1]),  # wheel lowest straight
    (HIGH5[:3], "practice", ["Ah 2d 3c 4s 5h", "Ac Ad As Ks Qd"], [0]),  # wheel beats trips
    (HIGH5, "practice", ["Kh Qh Jh Th 9h", "As Ad Ah Ac Ks"], [0]),  # lowest SF vs best quads
    (HIGH5, "practice", ["Ad 2d 3d 4d 5d", "Kc Ks Kh Kd Qs"], [0]),
    (HIGH5, "practice", ["As Ks Qs Js Ts", "Ah Kh Qh Jh Th"], [0, 1]),  # suits are equal
    (HIGH5, "practice", ["As Ah Kd Kc 2s", "Ac Ad Ks Kh 3s"], [1]),  # kicker after two pair
    (HIGH5, "practice", ["Ks Kh 2d 2c As", "Qs Qh Jd Jc Ah"], [0]),  # high pair first
    (HIGH5, "practice", ["9s 9h 5d 5c 4s", "9d 9c 6s 6h 2s"], [1]),  # then low pair
    (HIGH5, "practice", ["As Kh 9d 7c 3s", "Ad Kc 9h 7s 2d"], [0]),  # kickers to the last
    (HIGH5[:3], "practice", ["4h 4d 4c 2s 2h", "3h 3d 3c As Ah"], [0]),  # trips first
    (HIGH5[:3], "literal", ["4h 4d 4c 2s 2h", "3h 3d 3c As Ah"], [1]),  # highest card not held
    (["mt-poker-high"], "practice", ["3h 3d 3c Kh Ks", "2h 2d 2c Ah As"], [0]),
    (["mt-poker-high"], "literal", ["3h 3d 3c Kh Ks", "2h 2d 2c Ah As"], [1]),
    (["mt-poker-high"], "practice", ["9s 9h 9d 9c Xx", "As Ks Qs Js Ts"], [0]),  # 5-kind > royal
    (["mt-poker-high"], "practice", ["Ah 2d 3c 4s 5h", "Ac Ad As Ks Qd"], [0]),  # wheel counts
    (["mt-poker-high"], "literal", ["Ah 2d 3c 4s 5h", "Ac Ad As Ks Qd"], [1]),  # ace only high
    (["mt-poker-high"], "practice", ["As Js 8s 4s Xx", "Ah Kh Jh 8h 4h"], [0, 1]),  # wild = K
    (["mt-poker-high"], "literal", ["As Js 8s 4s Xx", "Ah Kh Jh 8h 4h"], [0]),  # wild = A
    (HIGH3, "practice", ["Ac 2d 3h", "Kd As 2h"], [0]),  # A-2-3 > K-A-2 (nothing)
    (HIGH3, "practice", ["Ac 2d 3h", "4d 3c 2h"], [1]),  # A-2-3 lowest straight
    (HIGH3, "practice", ["3d 2d Ad", "Ks Kh Kc"], [0]),  # lowest SF > best trips
    (HIGH3, "practice", ["Ac 2d 3h", "As Kd Jd"], [0]),  # lowest straight > flush
    (["nj-poker-low-5"], "practice", ["7d 5c 4h 3s 2d", "8h 4d 3c 2s Ah"], [0]),
    (["nj-poker-low-5"], "literal", ["7d 5c 4h 3s 2d", "8h 4d 3c 2s Ah"], [1]),
    (["nj-poker-low-5"], "practice", ["Ah 2d 3c 4s 5h", "Ac 2s 3h 4d 6c"], [0]),  # best A-5 low
    (["nj-poker-low-5"], "practice", ["As Ah 3c 4s 5h", "2s 2h 3d 4d 5d"], [0]),  # A-A best pair
    (["nj-poker-low-5"], "literal", ["As Ah 3c 4s 5h", "2s 2h 3d 4d 5d"], [1]),  # inverse of (b)9
    (["nj-poker-low-5"], "practice", ["Ks Qd Jh 9c 8s", "2s 2h 3d 4d 5d"], [0]),  # no pair > pair
    (["nj-lowball-2-7"], "practice", ["7d 5c 4h 3s 2d", "7c 5d 4s 3h 2c"], [0, 1]),  # best 2-7
    (["nj-lowball-2-7"], "practice", ["Ah 2d 3c 4s 5h", "2s 2h 3d 4d 5d"], [0]),
    (["nj-lowball-2-7"], "practice", ["Ah 2d 3c 4s 5h", "Kh Qd Jc Ts 8h"], [1]),  # ace high
    (["nj-lowball-2-7"], "literal", ["Ah 2d 3c 4s 5h", "2s 2h 3d 4d 5d"], [1]),  # wheel straight
    (["nj-lowball-2-7"], "practice", ["8s 6d 4h 3c 2d", "7h 6s 5d 4s 2c"], [1]),
    (["mt-poker-low"], "practice", ["As 2d 3c 4h Xx", "Ac 2h 3d 4s 5c"], [0, 1]),
]


@pytest.mark.parametrize(("rulesets", "profile", "hands", "winners"), SHOWDOWNS)
def test_clause_examples_showdown(rulesets, profile, hands, winners):
    for rid in rulesets:
        assert evaluator(rid, profile).winners(hands) == winners, rid


def test_mini_tex_board_never_plays_alone():
    # board A-K-Q suited is a straight flush, but 37.5(a) demands a hole card
    best = evaluator("nj-mini-tex-3").best_hand("2c 7d", "As Ks Qs")
    assert best.category == "high_card"
    assert {str(c) for c in best.cards} == {"As", "Ks", "7d"}


def test_mini_tex_one_or_two_hole_cards():
    ev = evaluator("nj-mini-tex-3")
    assert ev.best_hand("Jh Td", "9c 2s 3d").category == "straight"  # both hole cards
    assert ev.best_hand("Ah 7d", "As Ad 2c").category == "three_of_a_kind"  # one hole card
    # dealer and player share the board; trips on board, best kicker plays
    assert ev.winners(["Kc 2d", "Qc 3d"], board="9s 9h 9d") == [0]


def test_unsuited_readings():
    # 37.5(b)3 practice: 5-6-7 with two spades is a straight; literal: all suits must differ
    assert evaluator("nj-mini-tex-3").category("5s 6s 7h") == "straight"
    assert evaluator("nj-mini-tex-3", "literal").category("5s 6s 7h") == "high_card"
    assert evaluator("nj-mini-tex-3", "literal").category("5s 6d 7h") == "straight"


def test_pocket_ace_two_readings():
    assert evaluator("nj-mini-tex-pocket").category("Ah 2h") == "straight_flush"
    assert evaluator("nj-mini-tex-pocket", "literal").category("Ah 2h") == "high_card"


def test_five_of_a_kind_readings():
    assert evaluator("mt-poker-high").category("Ks Kh Kd Xx Xx") == "five_of_a_kind"
    assert evaluator("mt-poker-high", "literal").category("Ks Kh Kd Xx Xx") == "four_of_a_kind"
