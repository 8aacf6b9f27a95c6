"""``pokercert rules diff A B`` and ``pokercert rulesets --jurisdiction``: the commands,
their JSON against the published schema, and their errors."""

from __future__ import annotations

import json

import pytest

from pokercert.cli.main import main
from pokercert.cli.schemas import output_schemas, validator
from pokercert.reference.ruleset_diff import ASPECTS

# the Montana rulesets: 23.16.1205's file (high, low, and the deuces-wild postings)
MONTANA = {"mt-poker-high", "mt-poker-low", "mt-poker-high-deuces", "mt-poker-low-deuces"}


def run_json(capsys, *argv):
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def valid(schema_id, document):
    errors = list(validator(schema_id).iter_errors(document))
    assert not errors, "; ".join(f"{list(e.path)}: {e.message}" for e in errors[:5])


@pytest.mark.parametrize(
    "pair",
    [
        ("nj-poker-high-3", "nj-three-card-poker"),
        ("nj-poker-high-5", "nj-lowball-2-7"),
        ("nj-holdem", "nj-omaha-hi-lo"),
        ("mt-poker-high", "nj-mini-tex-3"),
        ("nj-razz", "nj-razz"),
        ("lc-pai-gow-poker", "wa-pai-gow-poker"),
        ("lc-pai-gow-poker", "nj-holdem"),
    ],
)
def test_diff_json_follows_its_schema(capsys, pair):
    data = run_json(capsys, "rules", "diff", *pair)
    valid("urn:pokercert:cli:rules-diff", data)
    assert (data["a"], data["b"]) == pair


def test_the_schema_lists_exactly_the_aspects():
    schema = output_schemas()["urn:pokercert:cli:rules-diff"]
    aspect = schema["properties"]["structure"]["items"]["properties"]["aspect"]
    assert aspect["enum"] == list(ASPECTS)


def test_diff_of_nj_high_and_deuce_to_seven(capsys):
    """14.3(e)/(f): deuce-to-seven is a low game whose ace plays only high."""
    data = run_json(capsys, "rules", "diff", "nj-poker-high-5", "nj-lowball-2-7")
    facts = {(d["aspect"], d["item"]): (d["a"], d["b"]) for d in data["structure"]}
    assert facts[("direction", "direction")] == ("high", "low")
    assert facts[("wheel", "straight_ace")] == ("both", "high")
    way = data["behaviour"]["a_under_b"]
    assert way["compared"] == way["same"] + len(way["changed"])
    assert "nj-poker-high-5/0001" in way["by_clause"]["13:69F-14.3(b)1"]


def test_diff_of_a_ruleset_with_itself_is_empty(capsys):
    data = run_json(capsys, "rules", "diff", "nj-mini-tex-3", "nj-mini-tex-3")
    assert data["structure"] == []
    for way in ("a_under_b", "b_under_a"):
        assert data["behaviour"][way]["changed"] == []
        assert data["behaviour"][way]["not_comparable"] == []
    assert main(["rules", "diff", "nj-mini-tex-3", "nj-mini-tex-3"]) == 0
    assert "structure: no difference" in capsys.readouterr().out


def test_diff_tables(capsys):
    assert main(["rules", "diff", "nj-poker-high-3", "nj-three-card-poker"]) == 0
    out = capsys.readouterr().out
    assert "royal_flush" in out and "13:69F-14.3(c)1" in out
    assert "nj-poker-high-3/0018" in out  # a changed vector, listed
    assert "no dealer qualifier" in out  # the not comparable, counted
    assert main(["rules", "diff", "nj-poker-high-5", "nj-lowball-2-7"]) == 0
    short = capsys.readouterr().out
    assert "more (--all or --json lists them)" in short
    assert main(["rules", "diff", "nj-poker-high-5", "nj-lowball-2-7", "--all"]) == 0
    full = capsys.readouterr().out
    assert "more (--all" not in full and len(full) > len(short)


def test_diff_errors(capsys):
    assert main(["rules", "diff", "nj-mini-tex", "nj-poker-high-5"]) == 3
    err = capsys.readouterr().err
    assert "unknown ruleset 'nj-mini-tex'; did you mean 'nj-mini-tex-3'" in err
    assert main(["rules", "diff", "nj-poker-high-5"]) == 3
    assert "two ruleset ids" in capsys.readouterr().err
    assert main(["rules", "nj-poker-high-5", "--all"]) == 3
    assert main(["rules", "nj-poker-high-5", "nj-razz"]) == 3
    assert main(["rules", "diff", "nj-poker-high-5", "nj-razz", "--profile", "nope"]) == 3


# Saint Lucia s.67(1): A-2-3-4-5 the "Second Highest Straight"; Washington item 2 (wa-wheel
# practice): standard rankings, the wheel the lowest straight.  The player's nine-eight beats
# the banker's eight-seven in front (pai_gow.toml: the higher top card), so the high hand
# decides: above the king-high (0289, 0291: the joker the wheel's ace in Saint Lucia, the
# six in Washington) and six-high (0290) straights in Saint Lucia, the player wins both;
# below them in Washington, one each: a push.
WHEEL_SETTLEMENTS = {
    "0289": (["Ah 2c 3d 4s 5h", "9d 8c"], ["Kd Qh Jc Td 9s", "8h 7h"]),
    "0290": (["Ah 2c 3d 4s 5h", "9d 8c"], ["6d 5c 4h 3c 2s", "8h 7h"]),
    "0291": (["Xx 2c 3d 4s 5h", "9d 8c"], ["Kd Qh Jc Td 9s", "8h 7h"]),
}


def test_pai_gow_diff_lists_the_settlements_the_wheel_turns(capsys):
    data = run_json(capsys, "rules", "diff", "lc-pai-gow-poker", "wa-pai-gow-poker")
    for way, prefix, mine, theirs in (
        ("a_under_b", "lc-pai-gow-poker", "player", "push"),
        ("b_under_a", "wa-pai-gow-poker", "push", "player"),
    ):
        changed = {c["vector"]: c for c in data["behaviour"][way]["changed"]}
        for n, (player, banker) in WHEEL_SETTLEMENTS.items():
            entry = changed[f"{prefix}/{n}"]
            assert entry["kind"] == "settle"
            assert (entry["inputs"]["player"], entry["inputs"]["banker"]) == (player, banker)
            assert (entry["expected"], entry["other"]) == (
                {"settlement": mine},
                {"settlement": theirs},
            )
        assert data["behaviour"][way]["not_comparable"] == []
    assert data["behaviour"]["readings"]["wa-wheel"] == "practice"
    assert main(["rules", "diff", "lc-pai-gow-poker", "wa-pai-gow-poker"]) == 0
    out = capsys.readouterr().out
    assert "lc-pai-gow-poker/0289" in out and "player Ah 2c 3d 4s 5h / 9d 8c" in out
    assert "wa-wheel=practice" in out


def test_pai_gow_diff_under_the_documented_wheel_exception(capsys, tmp_path):
    """wa-wheel literal (the card room documents the exception): A-2-3-4-5 just below
    A-K-Q-J-10 in Washington too, so the three settlements agree: compared, not listed."""
    profile = tmp_path / "wa-exception.toml"
    profile.write_text('name = "wa-exception"\n[readings]\nwa-wheel = "literal"\n')
    data = run_json(
        capsys, "rules", "diff", "lc-pai-gow-poker", "wa-pai-gow-poker", "--profile", str(profile)
    )
    way = data["behaviour"]["a_under_b"]
    listed = {c["vector"] for c in way["changed"]} | {n["vector"] for n in way["not_comparable"]}
    assert not listed & {f"lc-pai-gow-poker/{n}" for n in WHEEL_SETTLEMENTS}
    assert data["behaviour"]["readings"]["wa-wheel"] == "literal"


def test_pai_gow_against_hold_em_names_the_missing_questions(capsys):
    assert main(["rules", "diff", "lc-pai-gow-poker", "nj-holdem"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    for kind in ("compare_two_card", "setting", "settle"):
        assert f"nj-holdem has no {kind} question" in out
    assert "two_card_hand" in out and "a copy goes to the banker" in out


def test_rulesets_by_jurisdiction(capsys):
    every = run_json(capsys, "rulesets")["rulesets"]
    nj = run_json(capsys, "rulesets", "--jurisdiction", "NJ")
    valid("urn:pokercert:cli:rulesets", nj)
    assert {r["id"] for r in nj["rulesets"]} == {
        r["id"] for r in every if r["id"].startswith("nj-")
    }
    assert {r["jurisdiction"] for r in nj["rulesets"]} == {"NJ"}
    mt = run_json(capsys, "rulesets", "--jurisdiction", "mt")["rulesets"]
    assert {r["id"] for r in mt} == MONTANA
    by_name = run_json(capsys, "rulesets", "--jurisdiction", "Montana")["rulesets"]
    assert by_name == mt


def test_an_unknown_jurisdiction_lists_the_known_ones(capsys):
    assert main(["rulesets", "--jurisdiction", "NV"]) == 3
    err = capsys.readouterr().err
    assert "unknown jurisdiction 'NV'" in err
    assert "MT (Montana)" in err and "NJ (New Jersey)" in err
    assert main(["rulesets", "--jurisdiction", "New Jersy"]) == 3
    assert "did you mean 'New Jersey'" in capsys.readouterr().err
