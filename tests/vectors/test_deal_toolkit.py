"""One deal toolkit (issue 27): ``Deck``, ``Deal`` and ``Game`` each mean one thing.

The corpus generator and the harness's situation strategies used to define a ``Deck``, a
``Deal`` and a ``Game`` each, with different meanings; both now deal from
:mod:`pokercert.vectors.dealing`.  The facts below are worked out by hand.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from pokercert.reference import Card
from pokercert.vectors.dealing import Deck

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("reference", "vectors", "harness", "reports", "cli")
TOOLKIT = ("Deck", "Deal", "Game")


def _top_level_names(tree: ast.Module) -> set[str]:
    """Classes and module-level assignments (type aliases included) a module defines
    (Python 3.11: no ``type`` statement)."""
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def test_each_toolkit_name_is_defined_once_in_the_deal_toolkit() -> None:
    """No second ``Deck``, ``Deal`` or ``Game`` anywhere in the package: the generator's
    clause table is ``TableGame``, its (holes, board) alias ``Dealt``."""
    where: dict[str, list[str]] = {name: [] for name in TOOLKIT}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for name in _top_level_names(tree) & set(TOOLKIT):
                where[name].append(path.relative_to(ROOT).as_posix())
    assert where == {name: ["vectors/dealing.py"] for name in TOOLKIT}


def test_a_generators_hand_takes_the_first_free_suit_from_its_seat() -> None:
    """Card i of seat k takes the first undealt suit from suit k + i round s h d c:
    seat 1 deals A from h (suit 1), A from d (suit 2), K from c (suit 3)."""
    deck = Deck()
    assert deck.hand([14, 14, 13], seat_no=1) == ["Ah", "Ad", "Kc"]
    # seat 2: the first ace from d round (d is gone: c), the second from c round (s)
    assert deck.hand([14, 14], seat_no=2) == ["Ac", "As"]


def test_a_rank_dealt_out_is_a_clear_error() -> None:
    deck = Deck()
    deck.hand([9, 9, 9, 9])
    with pytest.raises(ValueError, match="no card of rank 9"):
        deck.hand([9])


def test_the_wild_rank_is_never_dealt_as_a_natural_card() -> None:
    """Deuces wild: the four deuces are the wild cards, so a hand-built hand gets none."""
    deck = Deck(4, wild_rank=2)
    with pytest.raises(ValueError, match="rank 2"):
        deck.hand([2])
    assert deck.wild_card() == Card(2, "s")
