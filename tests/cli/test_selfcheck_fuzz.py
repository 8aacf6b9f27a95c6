"""``pokercert selfcheck --fuzz N``: fuzz alone, without the corpus, kills the mutants.

The kill matrix is pinned for one seed (1) and 1,000 examples on a subset chosen to keep
this file near a minute of CI time: the six bug classes of issue 17 on the ruleset each
was reported on, the cells the older card-by-card generator let through with this seed
(kickers compared from the lowest up in Montana, card-by-card comparison in three-card
poker, flush and straight swapped in Montana), and
one cell of each remaining kind of situation (a Mini-tex board, a reject, a wild card in
low poker).  The full matrix, every mutant on every ruleset it affects with four seeds,
is run by ``pokercert selfcheck --fuzz 1000 --fuzz-only --fuzz-seed S`` (harness/CI.md).
"""

from __future__ import annotations

import json

import pytest

from pokercert.cli.main import main
from pokercert.harness.mutants import get_mutant
from pokercert.reports.fuzz_kills import fuzz_cell
from pokercert.reports.selfcheck import KILLED

SEED, EXAMPLES = 1, 1000

PINNED = [
    # the six bug classes of issue 17
    ("pair-kickers-ignored", "nj-poker-high-5"),
    ("two-pair-kicker-ignored", "nj-poker-high-5"),
    ("full-house-by-pair", "nj-poker-high-5"),
    ("full-house-below-flush", "nj-poker-high-5"),
    ("wild-duplicates-allowed", "mt-poker-high"),
    ("five-of-a-kind-all-equal", "mt-poker-high"),
    # survivors of the older generator with this seed
    ("kickers-lowest-first", "mt-poker-high"),
    ("all-cards-sorted", "nj-poker-high-3"),
    ("flush-below-straight", "mt-poker-high"),
    # boards, rejects, wild cards in low poker
    ("minitex-board-plays", "nj-mini-tex-3"),
    ("unknown-suit-accepted", "nj-poker-low-5"),
    ("natural-beats-wild", "mt-poker-low"),
]


@pytest.mark.parametrize(("mutant_id", "ruleset"), PINNED)
def test_fuzz_alone_kills_the_mutant(mutant_id, ruleset):
    cell = fuzz_cell(get_mutant(mutant_id), ruleset, "practice", EXAMPLES, SEED)
    assert cell.status == KILLED, (mutant_id, ruleset, cell)
    assert cell.situation, "the cell names the situation that killed it"


def test_cli_fuzz_column_and_matrix(capsys):
    code = main(["selfcheck", "--mutant", "five-of-a-kind-all-equal", "--fuzz", "1000",
                 "--fuzz-seed", "1"])
    text = capsys.readouterr().out
    assert code == 0, text
    header = next(line for line in text.splitlines() if line.startswith("mutant"))
    assert header.split()[-1] == "fuzz"
    row = next(line for line in text.splitlines()
               if line.startswith("five-of-a-kind-all-equal") and "five-of-a-kind" in line)
    assert row.split()[-1] == "1/1"
    assert "Fuzz kill matrix" in text and "fuzz alone killed 1/1" in text


def test_cli_fuzz_only_json():
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        code = main(["selfcheck", "--mutant", "minitex-board-plays", "--fuzz", "300",
                     "--fuzz-only", "--json"])
    data = json.loads(buf.getvalue())
    assert code == 0 and data["exit_code"] == 0
    cells = data["fuzz"]["mutants"]["minitex-board-plays"]
    assert set(cells) == set(get_mutant("minitex-board-plays").rulesets)
    assert all(c["status"] == KILLED for c in cells.values()), cells
    assert "mutants" not in data or not data.get("mutants")


def test_cli_fuzz_survivor_is_red(capsys):
    # one example cannot find a wild card duplicating a held card: the matrix says so
    code = main(["selfcheck", "--mutant", "wild-duplicates-allowed", "--fuzz", "1",
                 "--fuzz-only"])
    text = capsys.readouterr().out
    assert code == 1
    assert "SURVIVED" in text and "RED" in text


def test_cli_fuzz_only_needs_fuzz(capsys):
    assert main(["selfcheck", "--fuzz-only"]) == 3
    assert "--fuzz" in capsys.readouterr().err
