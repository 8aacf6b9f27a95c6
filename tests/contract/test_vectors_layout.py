"""Issue 12, vectors slice: each vocabulary defined once, a public corpus reader, one id
allocator, and a generator that reads its clause tables from the ruleset files.

The vocabulary tests read the package's source (its syntax tree, not its text), so a
kind, a reason code or an outcome typed again as a string literal fails them, wherever
it is added.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from pokercert.reference import REASON_CODES, all_regulations, all_rulesets, get_ruleset
from pokercert.reference.categories import SHAPES

REPO = Path(__file__).resolve().parents[2]
# every folder of the installed package (those not yet there are simply skipped)
PACKAGE_DIRS = ("reference", "vectors", "harness", "reports", "cli")
KIND_WORDS = {"classify", "compare", "best_hand", "reject"}


def _sources(*folders: str) -> Iterator[tuple[str, ast.Module]]:
    for folder in folders:
        base = REPO / folder
        for path in sorted(base.rglob("*.py")) if base.is_dir() else ():
            if ".venv" in path.parts:
                continue
            rel = path.relative_to(REPO).as_posix()
            yield rel, ast.parse(path.read_text(encoding="utf-8"), filename=rel)


def _docstrings(tree: ast.Module) -> set[int]:
    """ids of the Constant nodes that are docstrings (text, not vocabulary)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def _strings(tree: ast.Module) -> Iterator[ast.Constant]:
    skip = _docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            yield node


def _literal_words(node: ast.AST) -> set[str]:
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        elts: list[ast.expr | None] = list(node.elts)
    elif isinstance(node, ast.Dict):
        elts = list(node.keys)
    else:
        return set()
    return {e.value for e in elts if isinstance(e, ast.Constant) and isinstance(e.value, str)}


# --------------------------------------------------------------------------- vocabularies


def test_the_kinds_are_listed_only_by_the_kind_enum() -> None:
    """No tuple, list, set or dict literal anywhere lists vector kinds again."""
    repeats = [
        f"{rel}:{node.lineno}"
        for rel, tree in _sources(*PACKAGE_DIRS)
        for node in ast.walk(tree)
        if len(_literal_words(node) & KIND_WORDS) >= 2
    ]
    assert repeats == []


def test_vectors_compares_kinds_with_the_enum() -> None:
    """Inside pokercert.vectors a kind is tested against Kind, never a typed string."""
    typed = [
        f"{rel}:{node.lineno}"
        for rel, tree in _sources("vectors")
        for node in ast.walk(tree)
        if isinstance(node, ast.Compare)
        for side in (node.left, *node.comparators)
        if isinstance(side, ast.Constant) and side.value in KIND_WORDS
    ]
    assert typed == []


def test_kind_values_match_the_vector_schema_and_the_protocol() -> None:
    from pokercert.harness.api import CAPABILITY_KINDS, OPERATIONS
    from pokercert.vectors import registry
    from pokercert.vectors.model import KINDS, Kind

    assert [k.value for k in Kind] == list(KINDS) == list(CAPABILITY_KINDS)
    assert set(OPERATIONS) == set(KINDS) - {Kind.REJECT}
    schema = registry.schema()
    assert schema["$defs"]["vector"]["properties"]["kind"]["enum"] == list(KINDS)


def test_reason_codes_are_spelled_only_in_reference_cards() -> None:
    codes = set(REASON_CODES)
    typed = [
        f"{rel}:{node.lineno} {node.value}"
        for rel, tree in _sources(*PACKAGE_DIRS)
        if rel != "reference/cards.py"
        for node in _strings(tree)
        if node.value in codes
    ]
    assert typed == []


def test_the_report_views_name_outcomes_through_the_enum() -> None:
    from pokercert.harness.run.results import Outcome

    names = {o.value for o in Outcome}
    typed = [
        f"{rel}:{node.lineno} {node.value}"
        for rel, tree in _sources("reports")
        for node in _strings(tree)
        if node.value in names
    ]
    assert typed == []


def test_no_module_reaches_for_another_modules_private_names() -> None:
    """``from pokercert.x import _y`` is a private API in use: make it public instead."""
    private = [
        f"{rel}:{node.lineno} {alias.name}"
        for rel, tree in _sources(*PACKAGE_DIRS)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("pokercert")
        for alias in node.names
        if alias.name.startswith("_") and not alias.name.startswith("__")
    ]
    assert private == []


# --------------------------------------------------------------------------- corpus reader

DRAFT = """\
format_version = 1
ruleset = "nj-poker-high-5"

[[vector]]
id = "nj-poker-high-5/0001"
kind = "classify"
hand = "As Ks Qs Js Ts"
expect = {{ category = "royal_flush" }}
clauses = ["13:69F-14.3(b)1"]
flags = ["royal-naming"]
why = "{why}"
"""


def test_read_text_checks_a_text_against_the_corpus_it_would_join() -> None:
    from pokercert.vectors.corpus import load_corpus, read_text

    corpus = load_corpus()
    text = DRAFT.format(why="A royal flush, the best hand there is.")
    found, problems = read_text(
        text, "draft.toml", "nj-poker-high-5", corpus.root, taken=corpus.vectors
    )
    assert found == []
    first = corpus.by_id["nj-poker-high-5/0001"].location
    assert [str(p) for p in problems] == [
        f"draft.toml:5: duplicate id nj-poker-high-5/0001 (first used at {first})"
    ]
    # read on its own, the same text is a sound vector located in the text it came from
    alone, none = read_text(text, "draft.toml", "nj-poker-high-5", corpus.root)
    assert none == [] and [str(v.location) for v in alone] == ["draft.toml:4"]


def test_read_text_lets_the_caller_prepare_the_parsed_data() -> None:
    from pokercert.vectors.corpus import default_root, read_text

    def unknown_flag(data: dict[str, object]) -> None:
        for raw in data["vector"]:  # type: ignore[attr-defined]
            raw["flags"] = ["not-a-registered-flag"]

    text = DRAFT.format(why="A royal flush, the best hand there is.")
    _, problems = read_text(text, "d.toml", "nj-poker-high-5", default_root(), prepare=unknown_flag)
    assert [p.location.line for p in problems] == [10]
    assert "unknown flag 'not-a-registered-flag'" in problems[0].message


# --------------------------------------------------------------------------- ids


def _corpus_with(tmp_path: Path, numbers: list[int], retired: list[int]) -> Path:
    folder = tmp_path / "nj-poker-high-5"
    folder.mkdir()
    (folder / "a.toml").write_text(
        "".join(f'id = "nj-poker-high-5/{n:04d}"\n' for n in numbers)
        + 'id = "nj-caribbean-stud/0040"\n',
        encoding="utf-8",
    )
    manifest = {"vectors": {}, "retired": {f"nj-poker-high-5/{n:04d}": {} for n in retired}}
    (tmp_path / "MANIFEST.json").write_text(json.dumps(manifest), encoding="utf-8")
    return tmp_path


def test_next_ids_skip_used_retired_and_handed_out_ids_below_the_generators_block(
    tmp_path: Path,
) -> None:
    from pokercert.vectors.ids import GENERATED_FIRST, next_ids

    root = _corpus_with(tmp_path, [1, 3, GENERATED_FIRST, GENERATED_FIRST + 7], retired=[6])
    assert next_ids("nj-poker-high-5", 2, root=root) == [
        "nj-poker-high-5/0007",
        "nj-poker-high-5/0008",
    ]
    assert next_ids(
        "nj-poker-high-5", 1, taken=["nj-poker-high-5/0011", "nj-winners-pot/0090"], root=root
    ) == ["nj-poker-high-5/0012"]
    # an id counts only in its own ruleset's folder
    assert next_ids("nj-caribbean-stud", 1, root=root) == ["nj-caribbean-stud/0001"]


def test_next_ids_refuse_to_enter_the_generators_block(tmp_path: Path) -> None:
    from pokercert.vectors.ids import GENERATED_FIRST, IdBlockFull, next_ids

    root = _corpus_with(tmp_path, [GENERATED_FIRST - 2], retired=[])
    assert next_ids("nj-poker-high-5", 1, root=root) == [f"nj-poker-high-5/{GENERATED_FIRST - 1}"]
    with pytest.raises(IdBlockFull, match=r"hand-written id block \(0001-4999\) is full"):
        next_ids("nj-poker-high-5", 2, root=root)


def test_one_id_allocator_serves_the_authoring_tool_and_the_harness() -> None:
    from pokercert.harness.explore import counterexample
    from pokercert.vectors import author, ids

    assert counterexample.next_ids is ids.next_ids
    assert author.next_ids is ids.next_ids
    assert not hasattr(author, "used_numbers") and not hasattr(author, "GENERATED_FIRST")


# --------------------------------------------------------------------------- the generator


def test_the_generator_is_a_package_split_by_job() -> None:
    import pokercert.vectors.generate as generate

    assert hasattr(generate, "__path__")
    too_long = {
        rel: n
        for rel, tree in _sources("vectors")
        if (n := len((REPO / rel).read_text(encoding="utf-8").splitlines())) > 600
    }
    assert too_long == {}


def test_the_generator_types_no_clause_table_or_section_again() -> None:
    """Category -> clause tables and regulation sections come from the ruleset files."""
    assert (REPO / "vectors" / "generate").is_dir()
    sections = {reg.section for reg in all_regulations()}
    clause_id = re.compile(r"^\(")
    typed = []
    for rel, tree in _sources("vectors/generate"):
        for node in ast.walk(tree):
            if isinstance(node, ast.Dict):
                pairs = [
                    (k.value, v.value)
                    for k, v in zip(node.keys, node.values, strict=True)
                    if isinstance(k, ast.Constant) and isinstance(v, ast.Constant)
                ]
                clauses = [
                    k for k, v in pairs if k in SHAPES and isinstance(v, str) and clause_id.match(v)
                ]
                if len(clauses) >= 2:
                    typed.append(f"{rel}:{node.lineno} category->clause table")
        typed += [
            f"{rel}:{node.lineno} {node.value}" for node in _strings(tree) if node.value in sections
        ]
    assert typed == []


@pytest.mark.parametrize(
    "rid", sorted(__import__("pokercert.vectors.generate", fromlist=["GAMES"]).GAMES)
)
def test_each_game_is_its_ruleset_as_the_file_says(rid: str) -> None:
    from pokercert.vectors.generate import GAMES

    game, rs = GAMES[rid], get_ruleset(rid)
    assert game.sec == rs.regulation.section
    assert (game.size, game.jokers, game.word) == (rs.hand_size, rs.jokers, rs.equal_outcome)
    assert {name: game.sec + clause for name, clause in game.cats.items()} == {
        c.name: c.clause for c in rs.categories
    }
    for role in (game.ranks, game.order, game.tie, game.suits, game.speak):
        assert role is None or rs.has_clause(game.sec + role), role


def test_every_ruleset_with_generated_files_is_known_to_the_generator() -> None:
    from pokercert.vectors.generate import plan

    assert {f.ruleset for f in plan()} <= {rs.id for rs in all_rulesets()}
