"""The structural ruleset diff states what the regulation texts state differently.

Each expectation is read from the clause texts (our summaries in
``reference/regulations/*.toml``), not from the diff's own output.
"""

from __future__ import annotations

import pytest

from pokercert.reference import all_rulesets, get_ruleset
from pokercert.reference.ruleset_diff import ASPECTS, ruleset_diff


def facts(a: str, b: str) -> dict[tuple[str, str], tuple[object, object]]:
    return {(d.aspect, d.item): (d.a, d.b) for d in ruleset_diff(get_ruleset(a), get_ruleset(b))}


@pytest.mark.parametrize("rs", all_rulesets(), ids=lambda r: r.id)
def test_a_ruleset_does_not_differ_from_itself(rs):
    assert ruleset_diff(rs, rs) == ()


def test_high_poker_and_deuce_to_seven_differ_in_direction_and_the_wheel():
    """14.3(e): in deuce-to-seven the ace is the worst card (practice: only high, so
    A-2-3-4-5 is no straight); 14.3(f): low hands rank in the reverse of (b)."""
    found = facts("nj-poker-high-5", "nj-lowball-2-7")
    assert found[("direction", "direction")] == ("high", "low")
    assert found[("wheel", "straight_ace")] == ("both", "high")
    ranking = next(
        d
        for d in ruleset_diff(get_ruleset("nj-poker-high-5"), get_ruleset("nj-lowball-2-7"))
        if d.item == "ranking"
    )
    assert ranking.b == tuple(reversed(ranking.a))  # (f): the reverse of (b)
    assert "reverse" in ranking.note
    # a full reversal is said once, not as 45 pairs
    assert not [k for k in found if k[0] == "order" and " / " in k[1]]


def test_five_and_three_card_high_order_straight_and_flush_the_other_way():
    """14.3(b) lists flush, straight, three of a kind (best first); 14.3(c) lists three
    of a kind, straight, flush: exactly those three pairs are ranked the other way."""
    found = facts("nj-poker-high-5", "nj-poker-high-3")
    pairs = {k[1]: v for k, v in found.items() if k[0] == "order" and " / " in k[1]}
    assert pairs == {
        "flush / straight": ("flush above straight", "straight above flush"),
        "flush / three_of_a_kind": ("flush above three_of_a_kind", "three_of_a_kind above flush"),
        "straight / three_of_a_kind": (
            "straight above three_of_a_kind",
            "three_of_a_kind above straight",
        ),
    }
    assert found[("hand", "hand_size")] == (5, 3)
    # (c) lists no four of a kind, full house or two pairs: three cards cannot make them
    only_five = {k[1] for k, v in found.items() if k[0] == "categories" and v[1] is None}
    assert only_five == {"four_of_a_kind", "full_house", "two_pair"}


def test_three_card_texts_differ_in_the_royal_flush_not_in_straight_against_flush():
    """14.3(c)1 names a three-card royal flush (A K Q suited); 20.3(b) names none (its
    straight flush has ace-king-queen best).  Both texts rank a straight above a flush
    (14.3(c): straight, flush; 20.3(b): straight, flush), so no order pair differs."""
    found = facts("nj-poker-high-3", "nj-three-card-poker")
    assert found[("categories", "royal_flush")] == ("Royal flush", None)
    assert not [k for k in found if k[0] == "order" and " / " in k[1]]
    assert found[("equal_outcome", "equal_outcome")] == ("split", "push")  # 14.3(d), 20.3(c)
    assert found[("labels", "one_pair")] == ("One pair", "Pair")  # (c)6, (b)5
    # Mini-tex 37.5(b) has no royal flush either, and the same three-card order
    found = facts("nj-poker-high-3", "nj-mini-tex-3")
    assert ("categories", "royal_flush") in found
    assert not [k for k in found if k[0] == "order" and " / " in k[1]]
    assert found[("hand", "selection")][0] is None  # 37.5(a)


def test_montana_jokers_and_five_of_a_kind():
    """23.16.1205(2)(a): five of a kind (with a wild card) tops the list; (5) wild cards
    may be used (jokers); New Jersey 14.3 has neither."""
    found = facts("mt-poker-high", "nj-poker-high-5")
    assert found[("categories", "five_of_a_kind")][1] is None
    assert found[("wild", "jokers")] == (2, 0)
    assert found[("wild", "wild")] == ("joker", None)
    assert ("interpretations", "mt-wheel") in found


def test_only_one_side_interpretations_name_their_default():
    found = facts("nj-poker-high-5", "nj-lowball-2-7")
    assert found[("interpretations", "lowball-wheel")] == (None, "default: practice")
    assert found[("interpretations", "identical-rank-tiebreak")] == ("default: practice", None)
    assert ("interpretations", "suits-equal") not in found  # both are read under it


def test_the_diff_is_the_same_facts_both_ways():
    """Swapping A and B swaps every value (order pairs are named best-first by A)."""
    for a, b in [
        ("nj-poker-high-5", "nj-lowball-2-7"),
        ("mt-poker-high", "nj-mini-tex-3"),
        ("nj-holdem", "nj-omaha-hi-lo"),
        ("nj-razz", "nj-stud-hi-lo"),
    ]:
        ab = {
            (d.aspect, d.item, d.a, d.b)
            for d in ruleset_diff(get_ruleset(a), get_ruleset(b))
            if " / " not in d.item
        }
        ba = {
            (d.aspect, d.item, d.b, d.a)
            for d in ruleset_diff(get_ruleset(b), get_ruleset(a))
            if " / " not in d.item
        }
        assert ab == ba
        assert all(d.aspect in ASPECTS for d in ruleset_diff(get_ruleset(a), get_ruleset(b)))


def test_knobs_added_later_land_in_their_aspect():
    """A knob for the wheel's place (pai gow: A-2-3-4-5 second highest) or a wraparound
    is a 'wheel' difference, a joker knob 'wild'; anything else 'rules'."""
    from pokercert.reference.ruleset_diff import knob_aspect

    assert knob_aspect("straight_ace") == "wheel"
    assert knob_aspect("wheel_rank") == "wheel" and knob_aspect("wraparound") == "wheel"
    assert knob_aspect("joker_completes") == "wild"
    assert knob_aspect("low_card_order") == "rules"
