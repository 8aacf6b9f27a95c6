"""The poker-room game commands (issue 14): evaluate per half, showdown with shares.

The deals are the hand-worked ones of tests/reference/test_games_pot.py; the expected
hands and shares are worked out there from the rules, not read back from the engine.
"""

import json

from pokercert.cli.main import main

QUARTERED = ["--board", "2c 3d 7h Kc Ks", "Ah 4h Kd Qd", "Ac 4s 9d 9c", "Jc Jd Th Ts"]


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_rulesets_lists_the_six_games(capsys):
    code, out, _ = run(capsys, "rulesets", "--json")
    rows = {r["id"]: r for r in json.loads(out)["rulesets"]}
    games = [
        "nj-holdem",
        "nj-omaha",
        "nj-omaha-hi-lo",
        "nj-seven-card-stud",
        "nj-stud-hi-lo",
        "nj-razz",
    ]
    assert code == 0 and set(games) <= set(rows)
    assert rows["nj-holdem"]["confidence"] == "confirmed"  # 14.10 is printed
    assert rows["nj-omaha"]["confidence"] == "house-rule"  # no NJ Omaha text found


def test_evaluate_prints_the_high_and_the_low_hand(capsys):
    code, out, _ = run(
        capsys,
        "evaluate",
        "--ruleset",
        "nj-omaha-hi-lo",
        "--board",
        "2c 3d 7h Kc Ks",
        "Ah",
        "4h",
        "Kd",
        "Qd",
    )
    assert code == 0
    high, low = out.strip().splitlines()
    assert high.startswith("high: ") and "three_of_a_kind" in high
    assert low.startswith("low: ") and "high_card" in low and "RRoP-10" in low


def test_evaluate_says_when_no_low_qualifies(capsys):
    code, out, _ = run(
        capsys,
        "evaluate",
        "--ruleset",
        "nj-omaha-hi-lo",
        "--board",
        "9c Td Jh Qs 2d",
        "Ah 3d Kc Kd",
    )
    assert code == 0 and "low: no qualifying low [RRoP-10]" in out
    code, out, _ = run(
        capsys,
        "evaluate",
        "--ruleset",
        "nj-omaha-hi-lo",
        "--board",
        "9c Td Jh Qs 2d",
        "Ah 3d Kc Kd",
        "--json",
    )
    data = json.loads(out)
    assert data["halves"]["low"] is None and data["halves"]["high"]["category"] == "straight"


def test_evaluate_stud_takes_seven_cards_and_five_still_classify(capsys):
    code, out, _ = run(
        capsys, "evaluate", "--ruleset", "nj-seven-card-stud", "--json", "9h 8h 7h 6h 5c Kd 2s"
    )
    assert code == 0 and json.loads(out)["category"] == "straight"
    code, out, _ = run(
        capsys, "evaluate", "--ruleset", "nj-seven-card-stud", "--json", "9h 8h 7h 6h 5c"
    )
    assert code == 0 and json.loads(out)["category"] == "straight"


def test_showdown_prints_winners_and_shares(capsys):
    code, out, _ = run(capsys, "showdown", "--ruleset", "nj-omaha-hi-lo", *QUARTERED)
    assert code == 0
    assert "high: player 0" in out and "low: player 0, player 1" in out
    assert "3/4" in out and "1/4" in out
    code, out, _ = run(capsys, "showdown", "--ruleset", "nj-omaha-hi-lo", "--json", *QUARTERED)
    data = json.loads(out)
    assert (data["high"], data["low"], data["shares"]) == ([0], [0, 1], ["3/4", "1/4", "0"])
    assert data["players"][2]["low"] is None


def test_showdown_razz_has_no_high_and_bad_input_is_one_line(capsys):
    code, out, _ = run(
        capsys,
        "showdown",
        "--ruleset",
        "nj-razz",
        "--json",
        "5h 4d 3c 2s Ah Kd Kc",
        "6h 4c 3d 2h As Qd Qc",
    )
    data = json.loads(out)
    assert code == 0 and (data["high"], data["low"], data["shares"]) == ([], [0], ["1", "0"])
    code, _, err = run(
        capsys,
        "showdown",
        "--ruleset",
        "nj-omaha",
        "--board",
        "9c Td Jh Qs 2d",
        "Ah Kh",
        "2c 3c 4c 5c",
    )
    assert code == 3 and len(err.strip().splitlines()) == 1 and "expected 4 cards" in err


def test_rules_shows_selection_and_halves(capsys):
    code, out, _ = run(capsys, "rules", "nj-omaha-hi-lo", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["selection"]["min_hole"] == data["selection"]["max_hole"] == 2
    assert [(h["name"], h["ranks_by"]) for h in data["halves"]] == [
        ("high", "nj-poker-high-5"),
        ("low", "nj-poker-low-5"),
    ]
    assert data["halves"][1]["qualifier"] == {
        "categories": ["high_card"],
        "max_rank": 8,
        "clause": "RRoP-10",
    }
    assert data["regulation"]["retrieved"] == "2026-12-01"
    code, out, _ = run(capsys, "rules", "nj-razz")
    assert code == 0 and "the best 5 of 7 own cards [RRoP-8]" in out
