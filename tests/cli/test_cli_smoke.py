"""``pokercert smoke --all``: every ruleset the adapter claims, in one table; the default
stays one ruleset."""

from __future__ import annotations

import json
import sys

import pytest

from pokercert.cli.main import main
from tests import helpers

FAUX = helpers.FAUX / "validating_adapter.py"
CLAIMED = ["nj-poker-high-5", "nj-mini-tex-3", "nj-mini-tex-pocket"]  # the faux claims


def spec(mode: str) -> str:
    return f"exec:{sys.executable} {FAUX} {mode}"


def smoke(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict]:
    code = main(["smoke", "--adapter", spec("bad-pocket"), "--json", *args])
    return code, json.loads(capsys.readouterr().out)


def test_the_default_smokes_one_ruleset_and_misses_the_others(capsys):
    code, out = smoke(capsys)
    assert code == 0 and out["verdict"] == "ADAPTER OK"
    assert {c["ruleset"] for c in out["checks"]} == {"nj-poker-high-5"}
    assert "rulesets" not in out


def test_all_smokes_every_claimed_ruleset_and_finds_the_one_that_fails(capsys):
    code, out = smoke(capsys, "--all")
    assert code == 1 and out["verdict"] == "EVALUATOR NON-COMPLIANT"
    assert set(out["rulesets"]) == set(CLAIMED)
    assert out["rulesets"] == {
        "nj-poker-high-5": "ADAPTER OK",
        "nj-mini-tex-3": "ADAPTER OK",
        "nj-mini-tex-pocket": "EVALUATOR NON-COMPLIANT",
    }
    assert {c["ruleset"] for c in out["checks"]} == set(CLAIMED)
    failed = [c for c in out["checks"] if c["outcome"] != "PASS"]
    assert failed and {c["ruleset"] for c in failed} == {"nj-mini-tex-pocket"}


def test_all_prints_one_table_with_a_verdict_per_ruleset(capsys):
    code = main(["smoke", "--adapter", spec("text"), "--all"])
    out = capsys.readouterr().out
    assert code == 0
    assert out.count("\ncheck ") + out.startswith("check ") == 1  # one checks table
    for ruleset in CLAIMED:
        assert f"smoke/{ruleset}/01" in out
        assert any(line.split() == [ruleset, "ADAPTER", "OK"] for line in out.splitlines())


def test_all_and_ruleset_exclude_each_other(capsys):
    assert main(["smoke", "--adapter", "reference", "--all", "--ruleset", "nj-poker-high-5"]) == 3


def test_the_table_fits_a_terminal_and_each_failing_check_is_shown_whole(tmp_path, capsys):
    # walk28: the stub skeleton of nj-omaha-hi-lo printed a 330-column table, every
    # failing answer cut off by the terminal.  The showdown check deals
    # 2s 7c Kd 6h | Qs 4c Td 3h | 9s Ac 7d Kh on 6s Jc 4d Th 3s: high to hand 1 (tens and
    # fours: Td 4c with Th 4d Jc), low to hand 2 (Ac 7d with 6s 4d 3s: 7-6-4-3-A, below
    # hand 0's 7-6-4-3-2), so the pot is 0, 1/2, 1/2; the stub gives hand 0 everything.
    folder = tmp_path / "a"
    assert (
        main(["new-adapter", "--lang", "python", "--ruleset", "nj-omaha-hi-lo", str(folder)]) == 0
    )
    capsys.readouterr()
    code = main(["smoke", "--adapter", f"exec:{sys.executable} {folder / 'adapter.py'}"])
    out = capsys.readouterr().out
    assert code == 1 and out.rstrip().endswith("EVALUATOR NON-COMPLIANT")
    table = out[: out.index("\n\n")].splitlines()
    assert len(table) > 10 and max(len(line) for line in table) <= 180
    block = out[out.index("\nsmoke/nj-omaha-hi-lo/07: FAIL\n") :].split("\n\n")[0]
    assert "  expected  high=[1], low=[2], shares=['0', '1/2', '1/2']" in block
    assert "  actual    high=[0], low=[], shares=['1', '0', '0']" in block
    assert "smoke/nj-omaha-hi-lo/03: " not in out  # a passing check is not repeated
