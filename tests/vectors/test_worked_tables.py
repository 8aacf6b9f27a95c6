"""Hand-worked vector tables are data (issue 27 item 4): ``vectors/generate/data/*.toml``.

The generator reads them; the code keeps the logic.  What can go wrong with data apart
from code: a table nobody reads, a construction the code no longer deals, a hand that is
not five distinct cards, a file that does not ship, a bad key that fails obscurely.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest

from pokercert.reference.cards import RANK_CHARS, SUIT_CHARS
from pokercert.vectors.generate import worked

ROOT = Path(__file__).resolve().parents[2]
GENERATE = ROOT / "vectors" / "generate"
DATA = GENERATE / "data"


def _calls(module: str, function: str) -> list[tuple[object, ...]]:
    """The constant leading arguments of every call of ``function`` in a module."""
    tree = ast.parse((GENERATE / module).read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == function
        ):
            out.append(tuple(a.value for a in node.args if isinstance(a, ast.Constant)))
    return out


def test_the_tables_are_the_files_the_generators_read() -> None:
    read = {
        args[0]
        for module in GENERATE.glob("*.py")
        for args in _calls(module.name, "section")
        if args
    }
    assert read == {p.stem for p in DATA.glob("*.toml")}


def test_every_room_construction_in_the_table_is_dealt() -> None:
    """A construction left in data/rooms.toml but no longer joined to its dealing would
    silently vanish from the corpus (and the other way round would fail to generate)."""
    table = tomllib.loads((DATA / "rooms.toml").read_text(encoding="utf-8"))
    listed = {(game, name) for game, cons in table.items() for name in cons}
    dealt = {
        args[:2]
        # rooms_sd.py, rooms_sd_split.py: South Dakota's games
        for module in ("rooms.py", "rooms_sd.py", "rooms_sd_split.py")
        for args in _calls(module, "made")
        if len(args) >= 2
    }
    # Omaha's two-hole constructions are named in a loop over a literal tuple
    tree = ast.parse((GENERATE / "rooms.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Tuple)
            and len(node.elts) == 2
            and isinstance(node.elts[0], ast.Constant)
            and isinstance(node.elts[1], ast.Attribute)
        ):
            dealt.add(("omaha", node.elts[0].value))
    assert listed == dealt


def _hands(node: object) -> list[str]:
    if isinstance(node, dict):
        found = [node["hand"]] if "hand" in node else []
        found += list(node.get("hands", [])) + list(node.get("best_against_next", []))
        return found + [h for v in node.values() for h in _hands(v)]
    if isinstance(node, list):
        return [h for v in node for h in _hands(v)]
    return []


@pytest.mark.parametrize("name", ["deuces", "low"])
def test_every_hand_worked_hand_is_distinct_valid_cards(name: str) -> None:
    table = tomllib.loads((DATA / f"{name}.toml").read_text(encoding="utf-8"))
    hands = _hands(table)
    assert hands
    for hand in hands:
        cards = hand.split()
        assert len(cards) in (3, 5) and len(set(cards)) == len(cards), hand
        assert all(c[0] in RANK_CHARS and c[1] in SUIT_CHARS and len(c) == 2 for c in cards), hand


# the rank counts of each category's hand, largest first (runs and flushes: all single)
SHAPES = {
    "four_of_a_kind": [4, 1],
    "full_house": [3, 2],
    "three_of_a_kind": [3],
    "two_pair": [2, 2, 1],
    "one_pair": [2, 1, 1, 1],
}


@pytest.mark.parametrize("game", ["high", "ace-to-five", "deuce-to-seven"])
def test_every_cards_speak_sample_is_the_hand_it_says(game: str) -> None:
    """Read by hand: a pair has two cards of one rank, a straight is consecutive ranks
    (the ace at either end), and so on; a typo in the table fails here."""
    from collections import Counter

    from pokercert.reference.categories import CategoryName

    table = tomllib.loads((DATA / "showdowns.toml").read_text(encoding="utf-8"))
    for size, sizes in table["cards-speak"][game].items():
        for row in sizes["samples"]:
            ranks = worked.ranks_of(row["ranks"])
            category = CategoryName(row["category"])
            assert len(ranks) == int(size), row
            counts = sorted(Counter(ranks).values(), reverse=True)
            if category in SHAPES:
                assert counts == SHAPES[category][: len(counts)] and sum(counts) == len(ranks)
            else:
                assert counts == [1] * len(ranks), row
            if category in (CategoryName.STRAIGHT, CategoryName.STRAIGHT_FLUSH):
                low = sorted(1 if r == 14 else r for r in ranks)
                high = sorted(ranks)
                assert any(s == list(range(s[0], s[0] + len(s))) for s in (low, high)), row
            assert (row["suits"] == "suited") == (
                category in (CategoryName.STRAIGHT_FLUSH, CategoryName.FLUSH)
            ), row


def test_the_tables_ship_as_package_data() -> None:
    """pyproject's package-data globs of pokercert.vectors match every table."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    globs = config["tool"]["setuptools"]["package-data"]["pokercert.vectors"]
    shipped = {p for pattern in globs for p in (ROOT / "vectors").glob(pattern)}
    assert set(DATA.glob("*.toml")) <= shipped


def test_a_missing_table_or_key_names_the_file() -> None:
    with pytest.raises(worked.TableError, match=r"deuces\.toml: no \[high\.nowhere\]"):
        worked.section("deuces", "high", "nowhere")
    with pytest.raises(worked.TableError, match=r"nothing\.toml: no such hand-worked table"):
        worked.section("nothing")
