"""A half's own interpretations (reference/rulesets.py ``Half``): South Dakota's
high-low split draw (ARSD 20:18:16:12(4)) ranks its low half by 12(2)'s low game, whose
interpretation sd-low-order sets a category list; the game lists it (an evaluator is
told the reading) and its low half names it as its own, so the reading never reaches the
high half.  A file that names such an interpretation wrongly is refused, naming it."""

from __future__ import annotations

import copy
import tomllib
from importlib import resources
from typing import Any

import pytest

from pokercert.reference.interpretations import Profile
from pokercert.reference.rulesets import RulesetError, _Loader, all_regulations, get_ruleset

FILE = "sd-20-18-16-room.toml"


def _load(edit: Any) -> None:
    """Build sd-draw-high-low from its file after ``edit`` changes its table."""
    text = (resources.files("pokercert.reference") / "regulations" / FILE).read_text()
    tables = {r["id"]: r for r in tomllib.loads(text)["ruleset"]}
    regulations = {reg.id: reg for reg in all_regulations()}
    room = regulations["sd-20-18-16-room"]
    game = copy.deepcopy(tables["sd-draw-high-low"])
    edit(game)
    raw = {
        "sd-draw-high-low": (FILE, room, game),
        "sd-draw-low": (FILE, room, tables["sd-draw-low"]),
    }
    _Loader(regulations, raw).get("sd-draw-high-low", FILE)


def test_the_file_as_written_loads():
    _load(lambda game: None)
    rs = get_ruleset("sd-draw-high-low")
    assert rs.half("low").interpretations == ("sd-low-order",)
    assert rs.half_only_interpretations == {"sd-low-order"}


def test_a_half_interpretation_the_game_does_not_list_is_refused():
    def unlisted(game: dict[str, Any]) -> None:
        game["interpretations"] = []

    with pytest.raises(RulesetError, match=r"sd-draw-high-low.*\['sd-low-order'\]"):
        _load(unlisted)


def test_a_half_interpretation_its_ranking_does_not_list_is_refused():
    def foreign(game: dict[str, Any]) -> None:
        game["interpretations"] = ["sd-low-order", "low-qualifier"]
        game["half"][1]["interpretations"] = ["sd-low-order", "low-qualifier"]

    with pytest.raises(RulesetError, match=r"half low: sd-draw-low does not list.*low-qualifier"):
        _load(foreign)


def test_the_game_keeps_its_own_knobs_under_the_literal_reading():
    rs = get_ruleset("sd-draw-high-low")
    literal = Profile("literal-low", {"sd-low-order": "literal"})
    assert literal.rules_for(rs) == dict(rs.rules)  # 03's order, not the low list
    low = get_ruleset("sd-draw-low")
    assert "straight" in literal.rules_for(low)["categories"]  # the low half's ranking
