"""The structural ruleset diff on pai gow's points: the two-card hand, the setting rule,
the settlement, what a copy and a foul do, the joker in the two-card hand.

Facts from the texts and the house descriptions pai_gow.toml cites: Saint Lucia s.67(1)
names a "low hand" (the two-card hand) and a "high hand"; Washington's game rules deal
seven cards to each hand; hold 'em (14.10) deals no two-card hand beside a five-card one.
"""

from __future__ import annotations

import dataclasses

from pokercert.reference import get_ruleset
from pokercert.reference import ruleset_diff as module
from pokercert.reference.pai_gow import pai_gow_rules
from pokercert.reference.ruleset_diff import ruleset_diff

LC, WA = "lc-pai-gow-poker", "wa-pai-gow-poker"
POINTS = {"two_card_hand", "low_hand_joker", "setting", "settlement", "copies", "player_foul"}


def pai_gow_points(a: str, b: str):
    found = ruleset_diff(get_ruleset(a), get_ruleset(b))
    return {d.item: d for d in found if d.aspect == "pai_gow"}


def test_only_the_pai_gow_game_has_the_two_card_hand_setting_and_settlement():
    """Saint Lucia against hold 'em: every pai gow point is Saint Lucia's alone, the
    two-card hand cited by s.67(1)'s "low hand"; and the other way round."""
    found = pai_gow_points(LC, "nj-holdem")
    assert set(found) == POINTS
    for d in found.values():
        assert d.a is not None and d.b is None and "only lc-pai-gow-poker" in d.note
    assert found["two_card_hand"].clauses_a == ('67(1) "low hand"',)
    assert "ace" in str(found["low_hand_joker"].a)  # kingscardclub: "just another ace"
    assert "outrank" in str(found["setting"].a) and "pai-gow-setting-equal" in str(
        found["setting"].a
    )
    assert found["copies"].a == "a copy goes to the banker"
    back = pai_gow_points("nj-holdem", LC)
    assert set(back) == POINTS and all(d.a is None and d.b for d in back.values())


def test_two_pai_gow_games_on_the_same_house_rules_differ_in_no_pai_gow_point():
    """Saint Lucia and Washington: the same house descriptions (pai_gow.toml) for the
    two-card hand, setting and settlement; their difference is the wheel, a knob."""
    assert pai_gow_points(LC, WA) == {}
    found = {(d.aspect, d.item) for d in ruleset_diff(get_ruleset(LC), get_ruleset(WA))}
    assert ("wheel", "wheel_place") in found


def test_the_points_come_from_the_data_not_the_ids(monkeypatch):
    """A Washington whose data gave copies to the player would differ in that point alone
    (a hypothetical house: the points are read from pai_gow.toml's rows)."""
    player_copies = dataclasses.replace(pai_gow_rules(WA), copies="player")

    def rules(ruleset_id: str):
        return player_copies if ruleset_id == WA else pai_gow_rules(ruleset_id)

    monkeypatch.setattr(module, "pai_gow_rules", rules)
    found = pai_gow_points(LC, WA)
    assert set(found) == {"copies"}
    d = found["copies"]
    assert (d.a, d.b) == ("a copy goes to the banker", "a copy goes to the player")
