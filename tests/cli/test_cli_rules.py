"""The rules commands: tables for people, stable JSON for labs, exit codes."""

import json

import pytest

from pokercert.cli.main import main


def run_json(capsys, *argv):
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_rulesets_lists_every_seed_ruleset(capsys):
    data = run_json(capsys, "rulesets")
    ids = {r["id"] for r in data["rulesets"]}
    assert ids == {
        "nj-poker-high-5",
        "nj-poker-high-3",
        "nj-poker-low-5",
        "nj-poker-low-3",
        "nj-lowball-2-7",
        "nj-caribbean-stud",
        "nj-winners-pot",
        "mt-poker-high",
        "mt-poker-low",
        "nj-mini-tex-3",
        "nj-mini-tex-pocket",
        # issue 14's poker-room games
        "nj-holdem",
        "nj-omaha",
        "nj-omaha-hi-lo",
        "nj-seven-card-stud",
        "nj-stud-hi-lo",
        "nj-razz",
        # issue 15: the NJ table games with a retrieved ranking text
        "nj-three-card-poker",
        "nj-four-card-poker",
        "nj-double-down-stud",
        "nj-double-cross-poker",
        # and the Montana 'deuces wild' postings of 23.16.1205(5)
        "mt-poker-high-deuces",
        "mt-poker-low-deuces",
        # issue 29: the Pennsylvania table games of 58 Pa. Code Subpart K
        "pa-mississippi-stud",
        "pa-crazy-4-poker",
        "pa-four-card-frenzy",
        "pa-raise-it-up-stud",
        "pa-ultimate-texas-holdem",
        "pa-high-card-flush",
        # issue 29: the joker games
        "sd-poker-high-joker",
        "lc-pai-gow-poker",
        "wa-pai-gow-poker",
        # issue 29: South Dakota's poker room (ARSD 20:18:16:12(2), 13, 15.01)
        "sd-draw-low",
        "sd-five-card-stud",
        "sd-holdem-88",
        # issue 29: South Dakota's high-low split draw (ARSD 20:18:16:12(4))
        "sd-draw-high-low",
    }
    words = {r["id"]: r["equal_outcome"] for r in data["rulesets"]}
    # 16.x(c) "push", 33.5(c) "tie", 37.5(c) "push", 14.3(d) pot "equally divided"
    assert words["nj-caribbean-stud"] == "push" and words["nj-winners-pot"] == "tie"
    assert words["nj-mini-tex-3"] == "push" and words["nj-poker-high-5"] == "split"
    citations = {r["id"]: (r["citation"], r["confidence"]) for r in data["rulesets"]}
    assert citations["nj-four-card-poker"] == (
        "N.J.A.C. 13:69F-27.3 (Four-card poker rankings)",
        "confirmed",
    )


def test_rules_shows_table_game_orders_and_the_qualifier(capsys):
    """Categories best first in the regulation's words: 20.3(b) and 27.3(b)."""
    tc = run_json(capsys, "rules", "nj-three-card-poker")
    assert [c["label"] for c in tc["categories"]][:5] == [
        "Straight flush",
        "Three-of-a-kind",
        "Straight",
        "Flush",
        "Pair",
    ]
    assert tc["qualifier"]["words"] == "Queen-high or better"
    fc = run_json(capsys, "rules", "nj-four-card-poker")
    assert [c["name"] for c in fc["categories"]][:2] == ["four_of_a_kind", "straight_flush"]
    assert fc["qualifier"] is None
    mx = run_json(capsys, "rules", "nj-mini-tex-3")["qualifier"]
    assert (mx["words"], mx["minimum"], mx["confidence"]) == (
        "a pair or better",
        "2h 2d 3c",
        "house-rule",
    )


def test_rules_shows_clauses_categories_and_interpretations(capsys):
    data = run_json(capsys, "rules", "nj-mini-tex-3")
    assert data["regulation"]["confidence"] == "confirmed"
    assert [c["name"] for c in data["categories"]][:2] == ["straight_flush", "three_of_a_kind"]
    assert "13:69F-37.5(b)3" in {c["label"] for c in data["clauses"]}
    assert data["selection"] == {
        "hole": 2,
        "board": 3,
        "min_hole": 1,
        "max_hole": 2,
        "clause": "13:69F-37.5(a)",
    }
    assert {i["id"] for i in data["interpretations"]} >= {"unsuited", "identical-rank-tiebreak"}
    assert main(["rules", "nj-mini-tex-3"]) == 0
    assert "13:69F-37.5(b)3" in capsys.readouterr().out


def test_evaluate_names_the_category_clause(capsys):
    data = run_json(
        capsys, "evaluate", "--ruleset", "nj-poker-high-5", "Qs", "Kh", "Ad", "2c", "3h"
    )
    assert data["category"] == "high_card"  # (b)6: Q-K-A-2-3 is no straight
    data = run_json(capsys, "evaluate", "--ruleset", "mt-poker-high", "As Js 8s 4s Xx")
    assert (data["category"], data["played"]) == ("flush", "As Js 8s 4s Ks")
    assert data["clauses"] == ["23.16.1205(2)(e)"]


def test_evaluate_with_a_board_picks_a_hand_with_a_hole_card(capsys):
    data = run_json(
        capsys, "evaluate", "--ruleset", "nj-mini-tex-3", "--board", "As Ks Qs", "2c", "7d"
    )
    assert data["category"] == "high_card"
    assert "13:69F-37.5(a)" in data["clauses"]


def test_compare_reports_winners_word_and_deciding_clauses(capsys):
    hands = ["4h 4d 4c 2s 2h", "3h 3d 3c As Ah"]
    data = run_json(capsys, "compare", "--ruleset", "nj-poker-high-5", *hands)
    assert data["winners"] == [0] and data["outcome"] == "win"
    assert data["clauses"] == ["13:69F-14.3(b)4", "13:69F-14.3(d)"]
    data = run_json(
        capsys, "compare", "--ruleset", "nj-poker-high-5", "--profile", "literal", *hands
    )
    assert data["winners"] == [1]
    data = run_json(
        capsys, "compare", "--ruleset", "nj-winners-pot", "As Ks Qs Js 9s", "Ah Kh Qh Jh 9h"
    )
    assert data["outcome"] == "tie" and data["winners"] == [0, 1]
    data = run_json(
        capsys, "compare", "--ruleset", "nj-poker-high-5", "Ah 2d 3c 4s 5h", "Ac Ad As Ks Qd"
    )
    assert data["clauses"] == ["13:69F-14.3(b)", "13:69F-14.3(b)6"]


@pytest.mark.parametrize(
    "argv",
    [
        ["evaluate", "--ruleset", "nj-poker-high-5", "As", "As", "Kd", "Qc", "Jh"],
        ["evaluate", "--ruleset", "nj-poker-high-5", "As", "Kd", "Qc", "Jh"],
        ["evaluate", "--ruleset", "nj-poker-high-5", "As", "Kd", "Qc", "Jh", "Xx"],
        ["evaluate", "--ruleset", "nope", "As"],
        ["rules", "nope"],
        ["compare", "--ruleset", "nj-poker-high-5", "As Kd Qc Jh 9s"],
    ],
)
def test_bad_input_is_a_usage_error_naming_the_problem(capsys, argv):
    assert main(argv) == 3
    err = capsys.readouterr().err
    assert "error:" in err and "Traceback" not in err
