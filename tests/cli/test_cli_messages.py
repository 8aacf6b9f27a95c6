"""Issue 28, item 4: the messages a vendor meets in the first hour.

Each test states what a user needs to read (which option, which player, which place a
card was typed, which stream), worked out by hand from the command typed, not from the
code's output."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from pokercert.cli.main import main

USAGE = 3


def _err(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_a_board_is_refused_where_the_game_deals_none(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _err(
        capsys,
        [
            "evaluate",
            "--ruleset",
            "nj-poker-high-5",
            "--board",
            "2c 3d 7h",
            "As",
            "Ks",
            "Qs",
            "Js",
            "Ts",
        ],
    )
    assert code == USAGE and out == ""
    assert "nj-poker-high-5" in err and "--board" in err


def test_a_missing_board_says_what_the_game_deals(capsys: pytest.CaptureFixture[str]) -> None:
    # Omaha hi-lo: four hole cards and five on the board (NJAC 13:69F)
    code, _, err = _err(capsys, ["evaluate", "--ruleset", "nj-omaha-hi-lo", "Ah", "4h", "Kd", "Qd"])
    assert code == USAGE
    assert "4 hole cards" in err and "5-card board" in err and "--board" in err


def test_a_short_showdown_hand_names_the_player(capsys: pytest.CaptureFixture[str]) -> None:
    # players are numbered from 0 in the showdown's table ("player 0"): the second is 1
    code, _, err = _err(
        capsys,
        [
            "showdown",
            "--ruleset",
            "nj-omaha-hi-lo",
            "--board",
            "2c 3d 7h 8s 9s",
            "Ah 4h Kd Qd",
            "Ac 5c",
        ],
    )
    assert code == USAGE
    assert "hand 1" in err and "expected 4 cards, got 2" in err


def test_a_short_board_is_named_as_the_board(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _err(
        capsys,
        [
            "showdown",
            "--ruleset",
            "nj-omaha-hi-lo",
            "--board",
            "2c 3d 7h 8s",
            "Ah 4h Kd Qd",
            "As 5c 6c Js",
        ],
    )
    assert code == USAGE and "board: expected 5 cards, got 4" in err


@pytest.mark.parametrize(
    ("argv", "first", "second"),
    [
        # the board typed first: the board's 2c is the first occurrence
        (
            [
                "showdown",
                "--ruleset",
                "nj-omaha-hi-lo",
                "--board",
                "2c 3d 7h 8s 9s",
                "Ah 4h Kd Qd",
                "As 5c 2c Js",
            ],
            "board card 1 (2c)",
            "hand 1 card 3 (2c)",
        ),
        # the hands typed first: the second player's 2c comes first
        (
            [
                "showdown",
                "--ruleset",
                "nj-omaha-hi-lo",
                "Ah 4h Kd Qd",
                "As 5c 2c Js",
                "--board",
                "2c 3d 7h 8s 9s",
            ],
            "hand 1 card 3 (2c)",
            "board card 1 (2c)",
        ),
        (
            ["compare", "--ruleset", "nj-holdem", "--board", "2c 3d 7h 8s 9s", "Ah Kh", "Ad Kh"],
            "hand 0 card 2 (Kh)",
            "hand 1 card 2 (Kh)",
        ),
    ],
)
def test_a_duplicate_names_both_places_in_typing_order(
    capsys: pytest.CaptureFixture[str], argv: list[str], first: str, second: str
) -> None:
    code, _, err = _err(capsys, argv)
    assert code == USAGE
    assert first in err and second in err and err.index(first) < err.index(second)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        # hold 'em deals two hole cards and a five-card board: one card is one short
        (
            ["evaluate", "--ruleset", "nj-holdem", "--board", "2c 3d 7h 9s Td", "Ah"],
            "hole cards: expected 2 cards, got 1",
        ),
        # the 2c typed as the second hole card is the board's first card
        (
            ["evaluate", "--ruleset", "nj-holdem", "--board", "2c 3d 7h 9s Td", "Ah", "2c"],
            "duplicate card: board card 1 (2c) and hole card 2 (2c)",
        ),
    ],
)
def test_evaluate_names_the_one_players_hole_cards_not_hand_0(
    capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    # walk28: evaluate has one player; "hand 0" read as a numbering error
    code, _, err = _err(capsys, argv)
    assert code == USAGE and said in err and "hand 0" not in err


def test_version_is_an_answer_on_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    out, err = capsys.readouterr()
    assert stop.value.code in (0, None)
    assert out.startswith("pokercert ") and err == ""


def test_an_adapter_that_does_not_start_is_one_message_on_stderr(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = _err(
        capsys,
        ["smoke", "--adapter", "exec:pokercert-no-such-command-28", "--ruleset", "nj-poker-high-5"],
    )
    assert code == 2
    assert out.strip() == "ADAPTER BROKEN"  # the verdict alone on stdout
    assert err.startswith("the adapter does not start: ")
    assert "\\n" not in err and "failed to start" not in err  # real lines, said once
    assert "pokercert-no-such-command-28" in err


def _skeleton_printing(tmp_path: Path, at: str, instead: str) -> Path:
    """The python skeleton for five-card high, with ``at`` (once, which must be there)
    replaced by ``instead``: a print to stdout where a vendor puts one."""
    folder = tmp_path / "a"
    assert (
        main(["new-adapter", "--lang", "python", "--ruleset", "nj-poker-high-5", str(folder)]) == 0
    )
    adapter = folder / "adapter.py"
    text = adapter.read_text()
    assert at in text
    adapter.write_text(text.replace(at, instead, 1))
    return adapter


def test_a_debug_print_is_shown_once_with_the_cure(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    stub = '    return "high_card"'
    adapter = _skeleton_printing(tmp_path, stub, '    print("DEBUG hand", hand)\n' + stub)
    capsys.readouterr()
    code, out, _ = _err(
        capsys,
        ["smoke", "--adapter", f"exec:{sys.executable} {adapter}", "--ruleset", "nj-poker-high-5"],
    )
    assert code == 2
    assert out.count("DEBUG hand") == 1 and "write logs and debug prints to stderr" in out
    # walk28: the count covers every check the print broke, the batch features' too
    # (they said "reply is not JSON (below)" and were left out: "8 of 10")
    below = out.count("reply is not JSON (below)")
    assert below == 10 and f"{below} of 10 replies were not JSON" in out


@pytest.mark.parametrize(
    "command",
    [
        ["smoke"],
        ["run", "--no-challenge"],
        ["exhaustive", "--range", "0..10"],
    ],
)
def test_a_debug_print_before_the_hello_gets_the_cure_too(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: list[str]
) -> None:
    # a vendor's "loading my evaluator" print at start-up: the harness reads it where
    # the hello reply belongs, and the adapter never starts; the message must show the
    # line and say where logs go, whichever command met it
    main_def = "\ndef main():\n"
    adapter = _skeleton_printing(
        tmp_path, main_def, main_def + '    print("loading my evaluator")\n'
    )
    capsys.readouterr()
    code, _, err = _err(
        capsys,
        [
            *command[:1],
            "--adapter",
            f"exec:{sys.executable} {adapter}",
            "--ruleset",
            "nj-poker-high-5",
            *command[1:],
            *(["--out", str(tmp_path / "out")] if command[0] != "smoke" else []),
        ],
    )
    assert code == 2
    assert "loading my evaluator" in err
    assert "write logs and debug prints to stderr" in err


@pytest.mark.parametrize("command", [["run"], ["exhaustive", "--ruleset", "nj-poker-high-5"]])
def test_a_shard_out_of_range_is_refused_for_itself_first(
    capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    # shard 5 of 4 does not exist, whatever the other options say
    code, _, err = _err(capsys, [*command, "--shard", "5/4"])
    assert code == USAGE
    assert "--shard" in err and "K must be between 1 and N" in err
    assert "--challenge-seed" not in err


def test_report_says_what_it_wrote_on_stdout(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    run = tmp_path / "run"
    assert main(["run", "--ruleset", "nj-poker-high-3", "--no-challenge", "--out", str(run)]) == 0
    capsys.readouterr()
    assert main(["report", str(run)]) == 0  # every format, into the run folder
    out, err = capsys.readouterr()
    assert str(run / "report.html") in out and "CERTIFIED" in out
    assert err == ""


@pytest.mark.parametrize(
    ("argv", "meant"),
    [
        (["rules", "nj-omaha-hilo"], "nj-omaha-hi-lo"),  # a ruleset
        (["run", "--ruleset", "nj-omaha-hilo"], "nj-omaha-hi-lo"),  # a ruleset filter
        (["run", "--flags", "wheell"], "wheel"),  # a flag
        (["run", "--profile", "practise"], "practice"),  # a profile
        (["smoke", "--adapter", "treys2"], "treys"),  # an adapter
        (["interpretations", "low-qualifer"], "low-qualifier"),  # an interpretation
        (["run", "--rulset", "nj-razz"], "--ruleset"),  # an option
        (["evaluate", "--ruleset", "nj-holdem", "--bord", "2c", "As"], "--board"),
    ],
)
def test_an_unknown_id_gets_a_did_you_mean(
    capsys: pytest.CaptureFixture[str], argv: list[str], meant: str
) -> None:
    code, _, err = _err(capsys, argv)
    assert code == USAGE
    assert f"did you mean '{meant}'" in err


def test_one_interpretation_in_full(capsys: pytest.CaptureFixture[str]) -> None:
    # reference/interpretations.toml: the low-qualifier entry cites RRoP-10 and
    # 13:69F-14.3(f), defaults to the practice reading and asks "Who takes the low half"
    code, out, _ = _err(capsys, ["interpretations", "low-qualifier"])
    assert code == 0
    text = " ".join(out.split())  # the question is wrapped
    assert "RRoP-10" in text and "13:69F-14.3(f)" in text
    assert "Who takes the low half when no hand qualifies?" in text
    assert "practice (default):" in text and "literal:" in text
    assert "vectors: " in text


def test_the_interpretations_table_shows_each_question(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _err(capsys, ["interpretations"])
    assert code == 0
    assert out.split()[:2] == ["interpretation", "question"]
    assert "Is a suit order ever implied?" in " ".join(out.split())


def test_the_showdown_names_a_low_as_a_low(capsys: pytest.CaptureFixture[str]) -> None:
    # worked by hand: Ah 4h with the board's 2c 3d 7h is the best low, seven-four
    # (A-5 with the same three board cards is 7-5-3-2-A, a worse low); the high is the
    # 9-high straight 5-6 with 7-8-9
    code, out, _ = _err(
        capsys,
        [
            "showdown",
            "--ruleset",
            "nj-omaha-hi-lo",
            "--board",
            "2c 3d 7h 8s 9s",
            "Ah 4h 5d 6d",
            "As Kc Js Qs",
        ],
    )
    assert code == 0
    (row,) = [line for line in out.splitlines() if "Ah 4h 5d 6d" in line]
    assert "7-4-3-2-A low" in row and "high_card" not in row
    assert "straight" in row


def test_a_paired_razz_low_says_it_is_paired(capsys: pytest.CaptureFixture[str]) -> None:
    # seven cards with three pairs: the best razz low keeps one pair, 4-3-2-2-A
    code, out, _ = _err(
        capsys, ["showdown", "--ruleset", "nj-razz", "Ah 4h 5d 6d 7c Kc Ks", "2d 2s 3c 3s 4c 4s Ac"]
    )
    assert code == 0
    assert "7-6-5-4-A low" in out and "One pair 4-3-2-2-A low" in out


def test_an_adapter_that_does_not_start_leaves_a_run_that_says_so(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # a lab keeps the attempt: run.json records why there is no result, and the folder
    # reports INCOMPLETE (exit 2), not a folder of stderr captures that nothing reads
    out = tmp_path / "r"
    assert (
        main(
            [
                "run",
                "--adapter",
                "exec:pokercert-no-such-command-28",
                "--ruleset",
                "nj-poker-high-5",
                "--no-challenge",
                "--out",
                str(out),
            ]
        )
        == 2
    )
    header = json.loads((out / "run.json").read_text())
    assert "did not start" in header["aborted"]
    capsys.readouterr()
    assert main(["report", str(out), "--format", "json"]) == 2
    assert json.loads(capsys.readouterr().out)["verdict"] == "INCOMPLETE"


def test_a_refused_run_leaves_no_folder(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "r1"
    assert main(["run", "--ruleset", "nj-nope", "--out", str(out)]) == USAGE
    assert not out.exists()
