"""The PokerKit adapter: every game it claims, worked by hand, and what PokerKit does
with invalid input (obtained from PokerKit itself).

Expected categories and winners come from N.J.A.C. 13:69F-14.3 and 13:69F-37.5 read
under the practice readings (see reference/interpretations.toml).
"""

import pytest

pokerkit = pytest.importorskip(
    "pokerkit", reason="pokerkit is not installed (pip install 'pokercert[pokerkit]')"
)

import random  # noqa: E402
from itertools import combinations, islice  # noqa: E402

from pokercert.harness.api import Hands, Rejected  # noqa: E402
from pokercert.harness.peers.pokerkit import HAND_TYPE, PokerkitEvaluator  # noqa: E402


@pytest.fixture(scope="module")
def adapter():
    return PokerkitEvaluator()


def test_claims():
    basic = ["classify", "compare", "reject"]
    assert PokerkitEvaluator().capabilities() == {
        "nj-poker-high-5": basic,
        "nj-caribbean-stud": basic,
        "nj-winners-pot": basic,
        "nj-poker-low-5": basic,
        "nj-lowball-2-7": basic,
        "nj-poker-high-3": basic,
        "nj-mini-tex-3": [*basic, "best_hand"],
        "nj-three-card-poker": basic,
        "nj-double-down-stud": basic,
        "nj-double-cross-poker": basic,
        "pa-mississippi-stud": basic,
        "pa-raise-it-up-stud": basic,
        "pa-ultimate-texas-holdem": basic,
        # issue 14: pokerkit's hold'em, Omaha, eight-or-better and razz hand types settle
        # whole pots of the six poker-room games
        **{
            rid: ["showdown"]
            for rid in (
                "nj-holdem",
                "nj-omaha",
                "nj-omaha-hi-lo",
                "nj-seven-card-stud",
                "nj-stud-hi-lo",
                "nj-razz",
            )
        },
    }


CATEGORIES = {
    "nj-poker-low-5": [
        ("5s 4s 3s 2s As", "high_card"),  # (f) straights and flushes do not count
        ("2c 3d 4h 5s 6c", "high_card"),
        ("Ac Ad 2h 3s 4c", "one_pair"),
        ("Ac Ad Ah Kc Kd", "full_house"),
        ("Kc Kd Kh Ks Ac", "four_of_a_kind"),
    ],
    "nj-lowball-2-7": [
        ("7h 5d 4c 3s 2h", "high_card"),
        ("As 2d 3c 4h 5s", "high_card"),  # no wheel: ace-high
        ("2c 3d 4h 5s 6c", "straight"),
        ("2s 3s 4s 5s 7s", "flush"),
        ("2s 3s 4s 5s 6s", "straight_flush"),
        ("As Ks Qs Js Ts", "royal_flush"),
    ],
    "nj-poker-high-3": [
        ("As Ks Qs", "royal_flush"),  # (c)1
        ("Ks Qs Js", "straight_flush"),  # (c)2
        ("As 2s 3s", "straight_flush"),  # (c)2, the worst one
        ("2c 2d 2h", "three_of_a_kind"),  # (c)3
        ("As Kd Qc", "straight"),  # (c)4
        ("Ks As 2d", "high_card"),  # (c)4, K-A-2 is no straight
        ("As 9s 4s", "flush"),  # (c)5
        ("Ac Ad 2h", "one_pair"),  # (c)6
        ("Ac Kd 9h", "high_card"),
    ],
    "nj-mini-tex-3": [
        ("As Ks Qs", "straight_flush"),  # 37.5(b) has no royal flush
        ("3c 3d 3h", "three_of_a_kind"),
        ("Jc Qd Kh", "straight"),
        ("2h 7h 9h", "flush"),
        ("9c 9d 2h", "one_pair"),
        ("Ac Kd 9h", "high_card"),
    ],
}


@pytest.mark.parametrize(
    ("ruleset", "hand", "category"),
    [(rs, h, c) for rs, cases in CATEGORIES.items() for h, c in cases],
)
def test_categories(adapter, ruleset, hand, category):
    adapter.configure(ruleset, {})
    assert adapter.classify(hand.split()) == category


@pytest.mark.parametrize(
    ("ruleset", "hands", "winners"),
    [
        ("nj-poker-low-5", ["5s 4s 3s 2s As", "6c 4d 3h 2s Ac"], [0]),  # the wheel is best
        ("nj-poker-low-5", ["7c 5d 4h 3s 2c", "8c 4d 3h 2s Ac"], [0]),  # highest card first
        ("nj-poker-low-5", ["Ac Ad 2h 3s 4c", "2c 2d 3h 4s 5c"], [0]),  # A-A the best pair
        ("nj-lowball-2-7", ["7h 5d 4c 3s 2h", "8h 5d 4c 3s 2c"], [0]),
        ("nj-lowball-2-7", ["As 2d 3c 4h 5s", "Kc Qd Jh Ts 8c"], [1]),  # ace-high loses to K
        ("nj-lowball-2-7", ["2c 2d 3h 4s 5c", "Kc Qd Jh Ts 8c"], [1]),  # any pair loses
        ("nj-poker-high-3", ["As Kd Qc", "As 9s 4s"], [0]),  # straight over flush
        ("nj-poker-high-3", ["2c 2d 2h", "As Kd Qc"], [0]),  # trips over straight
        ("nj-poker-high-3", ["Ah Kd Qc", "As Kc Qd"], [0, 1]),
        ("nj-mini-tex-3", ["As 2d 3c", "2s 3d 4c"], [1]),  # A-2-3 the lowest
    ],
)
def test_showdowns(adapter, ruleset, hands, winners):
    adapter.configure(ruleset, {})
    assert sorted(adapter.winners([h.split() for h in hands])) == winners


def test_best_hand_may_use_the_board_alone(adapter):
    # 13:69F-37.5(a) wants at least one hole card; PokerKit's from_game takes the best
    # three of all five, so here it plays the board's straight flush.  Pinned as observed.
    adapter.configure("nj-mini-tex-3", {})
    cards, category = adapter.best_hand(["2c", "7d"], ["As", "Ks", "Qs"])
    assert sorted(cards) == ["As", "Ks", "Qs"] and category == "straight_flush"
    own = pokerkit.RhodeIslandHoldemHand.from_game("2c7d", "AsKsQs")
    assert sorted(cards) == sorted(repr(c) for c in own.cards)
    # both players "play the board", so PokerKit splits a pot the rules give to hand 1
    assert adapter.winners([["2c", "7d"], ["Ah", "Kh"]], ["As", "Ks", "Qs"]) == [0, 1]


def raw(hand_type, hand):
    try:
        return hand_type("".join(hand)).entry.label.value
    except Exception as exc:
        return type(exc)


@pytest.mark.parametrize(
    ("ruleset", "hand_type", "hand"),
    [
        ("nj-poker-high-5", "StandardHighHand", "As As Kd Qc Jh"),
        ("nj-poker-high-5", "StandardHighHand", "As Ah Ad Ac As"),
        ("nj-poker-high-5", "StandardHighHand", "As Ks Qs Js"),
        ("nj-poker-high-5", "StandardHighHand", "As Ks Qs Js Ts 9d"),
        ("nj-poker-high-5", "StandardHighHand", "Xx Ks Qs Js Ts"),
        ("nj-poker-low-5", "RegularLowHand", "As As 2d 3c 4h"),
        ("nj-lowball-2-7", "StandardLowHand", "7h 7h 4c 3s 2h"),
        ("nj-poker-high-3", "RhodeIslandHoldemHand", "As As Kd"),
        ("nj-poker-high-3", "RhodeIslandHoldemHand", "As As As"),
    ],
)
def test_invalid_input_gets_pokerkits_own_answer(adapter, ruleset, hand_type, hand):
    adapter.configure(ruleset, {})
    own = raw(getattr(pokerkit, hand_type), hand.split())
    if isinstance(own, type):
        with pytest.raises(Rejected) as caught:
            adapter.classify(hand.split())
        assert caught.value.code is None and own.__name__ in str(caught.value)
    else:
        assert adapter.classify(hand.split()) == own.lower().replace(" ", "_")


def test_what_pokerkit_does_with_invalid_hands(adapter):
    # observed PokerKit 0.7.7 behaviour, pinned
    adapter.configure("nj-poker-high-5", {})
    assert adapter.classify(["As", "As", "Kd", "Qc", "Jh"]) == "one_pair"
    assert adapter.winners([["As", "As", "Kd", "Qc", "Jh"], ["Kc", "Kh", "Qd", "Jc", "9s"]]) == [0]
    with pytest.raises(Rejected, match="ValueError"):
        adapter.classify(["As", "Ks", "Qs", "Js"])
    # its parser reads 10s as the ten, and one token as two cards
    assert adapter.classify(["10s", "Ks", "Qs", "Js", "As"]) == "royal_flush"
    assert adapter.classify(["AsKs", "Qs", "Js", "Ts"]) == "royal_flush"


@pytest.mark.parametrize("ruleset", sorted(HAND_TYPE))
def test_the_batch_path_answers_as_hand_by_hand_in_every_claimed_game(adapter, ruleset):
    # the first 2,000 hands of the enumeration (four of a kind down to pairs), every hand
    # of one suit (flushes, straight flushes, the royal flush), 4,000 random hands (high
    # cards, pairs, straights); in the three-card games, the same drawn three at a time
    adapter.configure(ruleset, {})
    size = HAND_TYPE[ruleset].card_count
    draw = random.Random(16)
    hands = [
        *islice(combinations(range(52), size), 2_000),
        *combinations(range(0, 52, 4), size),
        *(draw.sample(range(52), size) for _ in range(4_000)),
    ]
    batch = Hands(None, size, [c for h in hands for c in h])
    categories, keys = adapter.evaluate_many(batch)
    assert list(zip(categories, keys, strict=True)) == [adapter.evaluate(h) for h in batch]
