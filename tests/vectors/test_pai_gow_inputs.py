"""The corpus checks of pai gow vectors (vectors/pai_gow_inputs.py): a pai gow kind only
in a pai gow ruleset, one deck across the set hands, no banker's foul setting (no text
says how it settles), and the reference's outcome under each reading of the setting
interpretation (worked by hand: sevens behind sevens)."""

from __future__ import annotations

from pokercert.reference import evaluator, get_ruleset
from pokercert.reference.interpretations import Profile
from pokercert.vectors.model import Kind
from pokercert.vectors.pai_gow_inputs import answer, input_problem

WA = get_ruleset("wa-pai-gow-poker")
LEGAL_BANKER = ["Kh Kd 9d 5c 3s", "Qs Jc"]


def test_a_pai_gow_kind_outside_a_pai_gow_game_is_a_problem():
    found = input_problem(
        Kind.SETTING, {"high": "Kd Kc 9h 5s 3d", "low": "Qs Jh"}, get_ruleset("nj-poker-high-5")
    )
    assert found is not None and "not a pai gow game" in found[1]


def test_a_card_twice_across_the_set_hands_is_a_problem():
    inputs = {"player": ["Ah Ad 9c 5s 3h", "Qs Qc"], "banker": LEGAL_BANKER}
    field, message = input_problem(Kind.SETTLE, inputs, WA)
    assert field == "player" and "duplicate-card" in message


def test_a_banker_foul_setting_is_a_problem():
    inputs = {"player": ["Ah Ad 9c 5s 3h", "Ks Qc"], "banker": ["Kh Qd 9d 5c 3s", "Ac 2c"]}
    _, message = input_problem(Kind.SETTLE, inputs, WA)
    assert "banker's setting is foul" in message


def test_a_legal_settlement_has_no_problem():
    inputs = {"player": ["Ah Ad 9c 5s 3h", "Ks Qc"], "banker": LEGAL_BANKER}
    assert input_problem(Kind.SETTLE, inputs, WA) is None


def test_the_setting_reading_reaches_the_answer():
    inputs = {"high": "7d 7c Kh Qs 3d", "low": "7s 7h"}
    practice = evaluator(WA.id)
    literal = evaluator(WA.id, Profile("t", {"pai-gow-setting-equal": "literal"}))
    assert answer(Kind.SETTING, inputs, practice) == {"legal": True}
    assert answer(Kind.SETTING, inputs, literal) == {"legal": False}
