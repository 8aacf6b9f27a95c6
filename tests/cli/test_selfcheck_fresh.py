"""``pokercert selfcheck``'s fresh column (issue 26): killed by the fresh deals alone.

What it must say comes from outside the column's code: a mutant whose mistake any fresh
comparison of a full house with a flush shows is killed there on every ruleset; the
royal flush's naming, in games of whole hands without wild cards, can only be shown by a
published input (tests/harness/run/test_fresh_decides.py proves those cells closed), so
the column lists them as not killed, and the JSON says so in the schema's words.
"""

from __future__ import annotations

import json

import pytest

from pokercert.cli.main import main
from pokercert.harness.mutants import get_mutant
from tests.cli.test_schemas import valid


def _selfcheck(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    main(["selfcheck", *argv, "--json"])
    out: dict[str, object] = json.loads(capsys.readouterr().out)
    valid("urn:pokercert:cli:selfcheck", out)
    return out


def test_the_json_says_which_cells_the_fresh_deals_alone_kill(capsys) -> None:  # type: ignore[no-untyped-def]
    out = _selfcheck(
        capsys,
        "--mutant",
        "full-house-below-flush",
        "--mutant",
        "royal-not-named",
        "--fresh-seed",
        "2",
    )
    fresh = out["fresh"]
    assert isinstance(fresh, dict) and fresh["seed"] == 2
    closed = [
        "nj-poker-high-5",
        "nj-caribbean-stud",
        "nj-winners-pot",
        "nj-lowball-2-7",
        "nj-poker-high-3",
    ]
    assert sorted(fresh["not_killed"]) == sorted(f"royal-not-named on {r}" for r in closed)
    cells = out["mutants"]["full-house-below-flush"]["cells"]  # type: ignore[index]
    assert set(cells) == set(get_mutant("full-house-below-flush").rulesets)
    assert all(c["killed_by_fresh"] is True for c in cells.values())
    royal = out["mutants"]["royal-not-named"]["cells"]  # type: ignore[index]
    assert royal["mt-poker-high"]["killed_by_fresh"] is True  # a joker makes it new
    assert all(royal[r]["killed_by_fresh"] is False for r in closed)


def test_no_fresh_leaves_the_column_out(capsys) -> None:  # type: ignore[no-untyped-def]
    out = _selfcheck(capsys, "--mutant", "three-card-flush-over-straight", "--no-fresh")
    assert out["fresh"] is None
    cells = out["mutants"]["three-card-flush-over-straight"]["cells"]  # type: ignore[index]
    assert all(c["killed_by_fresh"] is None for c in cells.values())


def test_the_table_has_a_fresh_column_and_names_what_it_misses(capsys) -> None:  # type: ignore[no-untyped-def]
    main(["selfcheck", "--mutant", "royal-not-named"])
    text = capsys.readouterr().out
    header = next(line for line in text.splitlines() if line.startswith("mutant "))
    assert header.split()[-1] == "fresh"
    row = next(line for line in text.splitlines() if line.startswith("royal-not-named "))
    assert row.split()[-1] == "1/6"  # mt-poker-high only (its jokers)
    assert "Not killed by the fresh deals alone (seed 1)" in text
