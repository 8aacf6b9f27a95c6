"""Seven-card findings of ``pokercert exhaustive`` become corpus drafts (issue 16).

A finding on whole deals (best five of seven) is written up through the one draft writer
as a vector of the game, like a five-card finding: two deals valued apart from the
reference as a ``compare`` of two players (hold 'em: their hole cards on one board; stud:
their seven cards), a deal misclassified as a ``best_hand`` request.  Each draft must go
into a corpus with the authoring tool, with the reference's expectation, and that
expectation is checked again here by TextbookSeven (tests/helpers/faux/quads_kicker.py,
written apart from the reference engine), while the faux that was found out fails it.
"""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

import pytest

from pokercert.cli.main import main
from pokercert.vectors import registry
from pokercert.vectors.check import check_corpus
from tests.helpers.faux.quads_kicker import (
    QuadsKickerIgnored,
    StraightFlushFromAnyFive,
    TextbookSeven,
)

pytest.importorskip("numpy")

FAUX = "py:tests.helpers.faux.quads_kicker:"


def _exhaustive(capsys, faux: str, ruleset: str, hands: str, out: Path) -> dict:
    code = main(
        [
            "exhaustive",
            "--adapter",
            FAUX + faux,
            "--ruleset",
            ruleset,
            "--range",
            hands,
            "--order-seed",
            "11",
            "--report",
            "3",
            "--out",
            str(out),
            "--json",
        ]
    )
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and data["disagreeing"] if "disagreeing" in data else code == 1
    return data


def _added(draft: Path, tmp_path: Path) -> list:
    """The draft's vectors as the authoring tool adds them to an empty corpus (checked
    against the reference and the corpus rules)."""
    from pokercert.vectors.author import add_vectors

    root = tmp_path / "corpus"
    root.mkdir()
    shutil.copy(registry.PACKAGE_ROOT / registry.FLAGS_FILE, root / registry.FLAGS_FILE)
    added = add_vectors(draft, "exhaustive-found", root)
    assert added.ids and not added.warnings, added.warnings
    checked = check_corpus(root, with_manifest=False)
    assert checked.ok, [str(p) for p in checked.problems]
    return list(checked.corpus.vectors)


def _expected(vector, reading: str = "practice") -> dict:
    return dict(vector.expect if vector.expect is not None else vector.expect_by_reading[reading])


def test_hold_em_quads_kicker_findings_are_pots_on_one_board(tmp_path, capsys):
    # the first 20,000 deals all hold the four aces: the faux merges the quads classes
    data = _exhaustive(capsys, "QuadsKickerIgnored", "nj-holdem", "0..20000", tmp_path / "x")
    assert data["order_disagreements"] == 143
    draft = Path(data["draft"])
    assert draft.name == "counterexamples-nj-holdem.toml"
    raw = tomllib.loads(draft.read_text(encoding="utf-8"))
    assert raw["ruleset"] == "nj-holdem" and len(raw["vector"]) == 3
    vectors = _added(draft, tmp_path)
    assert len(vectors) == 3
    textbook, buggy = TextbookSeven(), QuadsKickerIgnored()
    for vector in vectors:
        assert vector.kind == "compare" and len(vector.inputs["hands"]) == 2
        board = vector.inputs["board"].split()
        holes = [h.split() for h in vector.inputs["hands"]]
        assert len(board) == 5 and all(len(h) == 2 for h in holes)
        assert len({*board, *holes[0], *holes[1]}) == 9  # one deck
        want = _expected(vector)["winners"]
        # the reference's expectation, checked by the textbook code; the faux ties them
        assert textbook.winners(holes, board) == want and len(want) == 1
        assert buggy.winners(holes, board) == [0, 1]


def test_stud_deals_misclassified_are_best_hand_drafts(tmp_path, capsys):
    # from position 451,000 the deals hold As Ah Ks Qs Js with two more cards: spade
    # flushes beside straights made with another suit's ten
    data = _exhaustive(
        capsys, "StraightFlushFromAnyFive", "nj-seven-card-stud", "451000..452000", tmp_path / "x"
    )
    assert data["category_disagreements"] > 0
    vectors = _added(Path(data["draft"]), tmp_path)
    best = [v for v in vectors if v.kind == "best_hand"]
    assert best
    textbook, buggy = TextbookSeven(), StraightFlushFromAnyFive()
    for vector in best:
        dealt = vector.inputs["hole"].split()
        assert len(dealt) == 7 and "board" not in vector.inputs
        want = _expected(vector)["category"]
        assert textbook.classify(dealt) == want == "flush"
        assert buggy.classify(dealt) != want
