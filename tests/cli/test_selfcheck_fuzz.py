"""``pokercert selfcheck --fuzz N``: fuzz alone, without the corpus, kills the mutants.

The whole fuzz kill matrix is pinned for one seed (1) and 1,000 examples: every mutant of
the catalogue on every ruleset it affects, one test per cell (about a minute of CPU in
all: the seeded sampler finds most mistakes within the first round of situations).  The
other seeds of the issue's bar (2, 3, 4) are run by
``python benchmarks/bench_fuzz.py --kills 1,2,3,4`` or
``pokercert selfcheck --fuzz 1000 --fuzz-only --fuzz-seed S`` (harness/CI.md), not here.
"""

from __future__ import annotations

import json

import pytest

from pokercert.cli.main import main
from pokercert.harness.mutants import get_mutant
from pokercert.harness.mutants.catalogue import MUTANTS, PAI_GOW_MUTANTS
from pokercert.reference import load_profile
from pokercert.reports.fuzz_kills import fuzz_cell
from pokercert.reports.selfcheck import EXCUSED, KILLED

SEED, EXAMPLES = 1, 1000

# every cell of the matrix: the six bug classes of issue 17 among them
# (pair-kickers-ignored, two-pair-kicker-ignored, full-house-by-pair,
# full-house-below-flush, wild-duplicates-allowed, five-of-a-kind-all-equal)
# and pai gow's: fuzz deals compare_two_card, setting and settle (issue 29), so every pai
# gow mutant is a cell too (on main fuzz dealt none of them and each survived)
CELLS = [(m.id, r) for m in MUTANTS for r in m.rulesets]
SIX = {
    "pair-kickers-ignored",
    "two-pair-kicker-ignored",
    "full-house-by-pair",
    "full-house-below-flush",
    "wild-duplicates-allowed",
    "five-of-a-kind-all-equal",
}


def test_the_matrix_holds_the_six_bug_classes():
    assert {m for m, _ in CELLS} >= SIX


def test_the_matrix_holds_every_pai_gow_mutant():
    assert {(m.id, r) for m in PAI_GOW_MUTANTS for r in m.rulesets} <= set(CELLS)


@pytest.mark.parametrize(("mutant_id", "ruleset"), CELLS, ids=[f"{m}@{r}" for m, r in CELLS])
def test_fuzz_alone_kills_the_mutant(mutant_id, ruleset):
    mutant = get_mutant(mutant_id)
    cell = fuzz_cell(mutant, ruleset, "practice", EXAMPLES, SEED)
    if mutant.excused(ruleset, load_profile("practice")) is not None:
        assert cell.status == EXCUSED, cell
        return
    assert cell.status == KILLED, (mutant_id, ruleset, cell)
    assert cell.situation, "the cell names the situation that killed it"


def test_cli_fuzz_column_and_matrix(capsys):
    code = main(
        ["selfcheck", "--mutant", "five-of-a-kind-all-equal", "--fuzz", "1000", "--fuzz-seed", "1"]
    )
    text = capsys.readouterr().out
    assert code == 0, text
    header = next(line for line in text.splitlines() if line.startswith("mutant"))
    assert header.split()[-1] == "fuzz"
    row = next(
        line
        for line in text.splitlines()
        if line.startswith("five-of-a-kind-all-equal") and "five-of-a-kind" in line
    )
    assert row.split()[-1] == "1/1"
    assert "Fuzz kill matrix" in text and "fuzz alone killed 1/1" in text


def test_cli_fuzz_only_json():
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        code = main(
            [
                "selfcheck",
                "--mutant",
                "minitex-board-plays",
                "--fuzz",
                "300",
                "--fuzz-only",
                "--json",
            ]
        )
    data = json.loads(buf.getvalue())
    assert code == 0 and data["exit_code"] == 0
    cells = data["fuzz"]["mutants"]["minitex-board-plays"]
    assert set(cells) == set(get_mutant("minitex-board-plays").rulesets)
    assert all(c["status"] == KILLED for c in cells.values()), cells
    assert "mutants" not in data or not data.get("mutants")


def test_cli_fuzz_survivor_is_red(capsys):
    # one example cannot find a wild card duplicating a held card: the matrix says so
    code = main(["selfcheck", "--mutant", "wild-duplicates-allowed", "--fuzz", "1", "--fuzz-only"])
    text = capsys.readouterr().out
    assert code == 1
    assert "SURVIVED" in text and "RED" in text


def test_cli_fuzz_only_needs_fuzz(capsys):
    assert main(["selfcheck", "--fuzz-only"]) == 3
    assert "--fuzz" in capsys.readouterr().err
