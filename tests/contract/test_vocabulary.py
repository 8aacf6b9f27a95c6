"""One vocabulary (issue 27): each word list is defined once in Python, and every JSON
schema that repeats it says exactly that list.

The vocabularies and where each is defined:

* vector kinds: :class:`pokercert.vectors.model.Kind`;
* outcomes of a vector: :class:`pokercert.harness.outcome.Outcome`;
* reason codes of refused input: :data:`pokercert.reference.cards.REASON_CODES`;
* categories: :class:`pokercert.reference.categories.CategoryName` (no schema
  enumerates them today: a category is checked against the configured ruleset; one that
  starts to is checked here).  Every ruleset file's category names are members of it
  (read from the TOML data, not through the loader that enforces it).

A schema "lists" a vocabulary where an ``enum``, a ``required`` list or the keys of a
``properties`` object hold two or more of its words.  An ``enum`` must then be exactly
the vocabulary, a ``required`` list or ``properties`` object must hold all of it (beside
its other keys), unless :data:`SUBSETS` names that place, the part of the vocabulary
it lists (computed from the Python definitions, never copied) and why.

Also here: no two error classes of the package share a name (there were two
``MergeError``: one for a sharded run's folders, one for an exhaustive pass's states).
"""

from __future__ import annotations

import ast
import copy
import json
import tomllib
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pokercert.harness.outcome import Outcome
from pokercert.harness.protocol import MANY_OPS
from pokercert.reference import all_rulesets
from pokercert.reference.cards import REASON_CODES
from pokercert.reference.categories import SHAPES, CategoryName
from pokercert.reports.verdict import DENYING
from pokercert.vectors.model import OPERATIONS, Kind

from .test_architecture import ROOT, _modules

SCHEMA_GLOBS = (
    "harness/schema/*.json",
    "reports/schema/*.json",
    "cli/schema/*.json",
    "vectors/schema*/*.json",
)

VOCABULARIES: dict[str, frozenset[str]] = {
    "kinds": frozenset(str(k) for k in Kind),
    "outcomes": frozenset(str(o) for o in Outcome),
    "reasons": frozenset(REASON_CODES),
    "categories": frozenset(c.value for c in CategoryName),
}

# (file, JSON pointer) -> (vocabulary, the part of it listed there, why)
SUBSETS: dict[tuple[str, str], tuple[str, frozenset[str], str]] = {
    ("harness/schema/batch-request.json", "/$defs/request/properties/op/enum"): (
        "kinds",
        frozenset(OPERATIONS) | frozenset(MANY_OPS),
        "a request names an operation (every kind but reject: a reject vector is sent as "
        "the operation it tests) or a batched one",
    ),
    ("vectors/schema/vector.schema.json", "/$defs/vector/properties/op/enum"): (
        "kinds",
        frozenset(OPERATIONS) - {Kind.SHOWDOWN},
        "the operation a reject vector's invalid input is sent through; a showdown's "
        "invalid hands are a compare's (pai gow's kinds have reject vectors: issue 29)",
    ),
    ("vectors/schema/vector.schema.json", "/$defs/vector/allOf/10/if/not/properties/kind/enum"): (
        "kinds",
        frozenset({Kind.SETTING, Kind.SETTLE, Kind.REJECT}),
        "the kinds whose inputs are set hands (``high``/``low``, ``player``/``banker``), "
        "and reject (through setting or settle; its op branches forbid them elsewhere): "
        "no other kind may carry those fields",
    ),
    (
        "vectors/schema/vector.schema.json",
        "/$defs/vector/allOf/6/then/allOf/0/if/properties/op/enum",
    ): (
        "kinds",
        frozenset({Kind.CLASSIFY, Kind.QUALIFIES}),
        "the reject operations that take one hand (the branch that requires ``hand``)",
    ),
    ("reports/schema/report.schema.json", "/properties/failures/items/properties/outcome/enum"): (
        "outcomes",
        frozenset(str(o) for o in DENYING),
        "the report's failures are the vectors that deny a certificate",
    ),
}


def schema_files() -> list[Path]:
    return sorted({p for pattern in SCHEMA_GLOBS for p in ROOT.glob(pattern)})


def listings(schema: Any, pointer: str = "") -> Iterator[tuple[str, str, list[str]]]:
    """(JSON pointer, "enum" | "keys", words) of every word list in a schema."""
    if isinstance(schema, dict):
        for key, value in schema.items():
            here = f"{pointer}/{key}"
            if key == "enum" and isinstance(value, list):
                yield here, "enum", [v for v in value if isinstance(v, str)]
            elif key == "required" and isinstance(value, list):
                yield here, "keys", [v for v in value if isinstance(v, str)]
            elif key == "properties" and isinstance(value, dict):
                yield here, "keys", list(value)
            yield from listings(value, here)
    elif isinstance(schema, list):
        for i, value in enumerate(schema):
            yield from listings(value, f"{pointer}/{i}")


def disagreements(name: str, schema: Any) -> Iterator[str]:
    """What a schema lists against the vocabularies (empty: it agrees)."""
    for pointer, shape, words in listings(schema):
        for vocabulary, members in VOCABULARIES.items():
            if len(members & set(words)) < 2:
                continue
            declared = SUBSETS.get((name, pointer))
            expected = members if declared is None or declared[0] != vocabulary else declared[1]
            listed = set(words) if shape == "enum" else set(words) & members
            if shape == "keys":
                expected = expected & members
            if listed != expected:
                yield (
                    f"{name}{pointer}: lists {vocabulary} "
                    f"{sorted(listed)}; missing {sorted(expected - listed)}, "
                    f"not {vocabulary} {sorted(listed - expected)}"
                )


def _schemas() -> Iterator[tuple[str, Any]]:
    for path in schema_files():
        yield str(path.relative_to(ROOT)), json.loads(path.read_text(encoding="utf-8"))


def test_every_schema_lists_exactly_the_vocabulary():
    found = [d for name, schema in _schemas() for d in disagreements(name, schema)]
    assert not found, "schemas against the Python vocabulary:\n" + "\n".join(found)


def test_the_check_sees_the_schemas_that_list_a_vocabulary():
    """Not vacuous: the four harness schemas that repeat the vector kinds (issue 27), the
    outcome lists and the reason codes are all found, and every declared subset still
    names a list that exists."""
    seen: dict[str, set[str]] = {v: set() for v in VOCABULARIES}
    places = set()
    for name, schema in _schemas():
        for pointer, _, words in listings(schema):
            places.add((name, pointer))
            for vocabulary, members in VOCABULARIES.items():
                if len(members & set(words)) >= 2:
                    seen[vocabulary].add(name)
    assert {n for n in seen["kinds"] if n.startswith("harness/")} >= {
        "harness/schema/fuzz.schema.json",
        "harness/schema/hello-reply.json",
        "harness/schema/results-line.schema.json",
        "harness/schema/run.schema.json",
    }
    assert {"harness/schema/results-line.schema.json", "reports/schema/report.schema.json"} <= seen[
        "outcomes"
    ]
    assert "vectors/schema/vector.schema.json" in seen["reasons"]
    assert set(SUBSETS) <= places, set(SUBSETS) - places


def test_a_schema_that_drops_or_adds_a_word_is_named():
    """The check itself, on hand-made schemas: a kind missing from an enum, an outcome
    missing from a counts object, a word that is no kind in a kind enum."""
    kinds = sorted(VOCABULARIES["kinds"] - {"qualifies"})
    outcomes = sorted(VOCABULARIES["outcomes"] - {"XPASS"})
    schema = {
        "properties": {
            "kind": {"enum": kinds},
            "op": {"enum": [*sorted(VOCABULARIES["kinds"]), "evaluate"]},
            "counts": {"required": ["total", *outcomes]},
        }
    }
    found = "\n".join(disagreements("x.json", schema))
    assert "x.json/properties/kind/enum: lists kinds" in found
    assert "missing ['qualifies']" in found
    assert "x.json/properties/op/enum" in found and "not kinds ['evaluate']" in found
    assert "x.json/properties/counts/required: lists outcomes" in found
    assert "missing ['XPASS']" in found
    whole = {"properties": {"kind": {"enum": sorted(VOCABULARIES["kinds"])}}}
    assert list(disagreements("y.json", whole)) == []


def _first_enum(vocabulary: str) -> tuple[str, str]:
    """(file, JSON pointer) of the first shipped schema enum that is exactly ``vocabulary``."""
    for name, schema in _schemas():
        for pointer, shape, words in listings(schema):
            if shape == "enum" and set(words) == VOCABULARIES[vocabulary]:
                return name, pointer
    raise AssertionError(f"no shipped schema enumerates the {vocabulary}")


def _at(schema: Any, pointer: str) -> Any:
    node = schema
    for part in pointer.strip("/").split("/"):
        node = node[int(part)] if isinstance(node, list) else node[part]
    return node


def test_a_shipped_schema_with_a_word_dropped_is_named():
    """The check on mutated copies of the shipped schemas: the kind, outcome and reason
    enums each lose their last word, and the copy is named at that place."""
    shipped = dict(_schemas())
    for vocabulary in ("kinds", "outcomes", "reasons"):
        name, pointer = _first_enum(vocabulary)
        mutated = copy.deepcopy(shipped[name])
        dropped = _at(mutated, pointer).pop()
        found = "\n".join(disagreements(name, mutated))
        assert f"{name}{pointer}: lists {vocabulary}" in found, (vocabulary, found)
        assert f"missing [{dropped!r}]" in found
        assert list(disagreements(name, shipped[name])) == []


def test_a_schema_that_lists_categories_or_reasons_must_list_them_all():
    """Categories and reason codes are held to their enums as the kinds are: a category
    enum without ``pair_of_aces`` and a reason enum with a made-up code are named."""
    categories = [c for c in SHAPES if c != CategoryName.PAIR_OF_ACES]
    reasons = [*sorted(REASON_CODES), "bad-vibes"]
    schema = {"properties": {"category": {"enum": categories}, "reason": {"enum": reasons}}}
    found = "\n".join(disagreements("z.json", schema))
    assert "z.json/properties/category/enum: lists categories" in found
    assert "missing ['pair_of_aces']" in found
    assert "z.json/properties/reason/enum: lists reasons" in found
    assert "not reasons ['bad-vibes']" in found
    whole = {"properties": {"category": {"enum": list(SHAPES)}}}
    assert list(disagreements("w.json", whole)) == []


# ------------------------------------------------------------------ ruleset categories
REGULATIONS = ROOT / "reference" / "regulations"
INTERPRETATIONS = ROOT / "reference" / "interpretations.toml"


def category_names_in(data: Any, where: str = "") -> Iterator[tuple[str, Any]]:
    """(place, name) of every category a ruleset file names: each string of a
    ``categories`` list (a ranking, a qualifier's) and each ``name`` of its tables (the
    categories a ruleset defines), at any depth of the file's data."""
    if isinstance(data, dict):
        for key, value in data.items():
            here = f"{where}.{key}" if where else str(key)
            if key == "categories" and isinstance(value, list):
                for i, item in enumerate(value):
                    yield f"{here}[{i}]", item.get("name") if isinstance(item, dict) else item
            yield from category_names_in(value, here)
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from category_names_in(value, f"{where}[{i}]")


def strangers(data: Any) -> list[str]:
    """The places of ``data`` that name a category :class:`CategoryName` lacks."""
    members = {c.value for c in CategoryName}
    return [f"{place}: {name!r}" for place, name in category_names_in(data) if name not in members]


def _ruleset_files() -> list[tuple[str, Any]]:
    paths = [*sorted(REGULATIONS.glob("*.toml")), INTERPRETATIONS]
    return [(str(p.relative_to(ROOT)), tomllib.loads(p.read_text(encoding="utf-8"))) for p in paths]


def test_every_ruleset_file_names_only_members_of_the_category_enum():
    """From the data itself, not through the loader that checks it against SHAPES: every
    category a regulation file defines, ranks or asks a qualifier for, and every
    category a reading of interpretations.toml ranks, is a CategoryName member."""
    files = _ruleset_files()
    named = {name for _, data in files for _, name in category_names_in(data)}
    assert len(files) > 5 and len(named) >= 10, named  # the walk sees the rulesets
    bad = [f"{path}: {place}" for path, data in files for place in strangers(data)]
    assert not bad, "categories outside CategoryName:\n" + "\n".join(bad)


def test_a_misspelt_category_in_a_ruleset_file_is_named():
    """The check on a mutated copy of a shipped regulation file: one category defined
    under a misspelt name, one ranking naming a category no game has."""
    data = next(d for _, d in _ruleset_files() if "'royal_flush'" in str(d))
    mutated = copy.deepcopy(data)
    ruleset = next(
        r
        for r in _tables(mutated)
        if any(
            isinstance(c, dict) and c.get("name") == "royal_flush" for c in r.get("categories", [])
        )
    )
    next(c for c in ruleset["categories"] if c["name"] == "royal_flush")["name"] = "royal_flsh"
    ruleset.setdefault("rules", {})["categories"] = ["high_card", "seven_of_a_kind"]
    found = "\n".join(strangers(mutated))
    assert "'royal_flsh'" in found and "'seven_of_a_kind'" in found, found
    assert strangers(data) == []


def _tables(data: Any) -> Iterator[dict[str, Any]]:
    """Every table (dict) of a TOML file's data, at any depth."""
    if isinstance(data, dict):
        yield data
        for value in data.values():
            yield from _tables(value)
    elif isinstance(data, list):
        for value in data:
            yield from _tables(value)


def test_the_loaded_rulesets_rank_only_members_and_answer_plain_strings():
    """As loaded: every ruleset's categories and ranking are members, and SHAPES (what
    the engine answers from) holds the members' values as plain ``str``, never a member
    (the harness refuses a reply that is a ``str`` subclass)."""
    members = set(CategoryName)
    for rs in all_rulesets():
        assert set(rs.category_names) <= members, rs.id
        assert set(rs.rules["categories"]) <= members, rs.id
    assert tuple(c.value for c in CategoryName) == SHAPES
    assert {type(s) for s in SHAPES} == {str}


# ------------------------------------------------------------------ category literals
# where a category name may still be a string literal: file (or folder) -> why
LITERALS_ALLOWED: dict[str, str] = {
    "reference/categories.py": "the enum's definition",
}


def category_literals(source: str) -> Iterator[tuple[int, str]]:
    """(line, name) of every string literal of ``source`` that is a category name, but
    for docstrings and engine knob names (the ``five_of_a_kind`` knob: a key of
    ``RULE_VALUES``, a subscript of ``rules`` or the key of ``rules.get``)."""
    names = {c.value for c in CategoryName}
    tree = ast.parse(source)
    skip: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(body, list)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
        ):
            skip.add(id(body[0].value))  # a docstring
        if isinstance(node, ast.Subscript):
            holder = node.value
            named = holder.attr if isinstance(holder, ast.Attribute) else getattr(holder, "id", "")
            if named == "rules":
                skip.add(id(node.slice))  # rules["five_of_a_kind"]
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
            and node.args
        ):
            holder = node.func.value
            named = holder.attr if isinstance(holder, ast.Attribute) else getattr(holder, "id", "")
            if named == "rules":
                skip.add(id(node.args[0]))  # rules.get("five_of_a_kind")
        if isinstance(node, ast.AnnAssign | ast.Assign) and isinstance(node.value, ast.Dict):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(getattr(t, "id", "") == "RULE_VALUES" for t in targets):
                skip.update(id(k) for k in node.value.keys)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and node.value in names and id(node) not in skip:
            yield node.lineno, node.value


def test_code_names_categories_through_the_enum():
    """No category name as a string literal in the package (issue 27: 515 literals in 21
    modules), but where :data:`LITERALS_ALLOWED` says why."""
    found = []
    for _, path in _modules():
        rel = str(path.relative_to(ROOT))
        if any(rel.startswith(allowed) for allowed in LITERALS_ALLOWED):
            continue
        found += [
            f"{rel}:{line}: {name!r}"
            for line, name in category_literals(path.read_text(encoding="utf-8"))
        ]
    assert not found, (
        "category names as literals (use CategoryName; an answer takes "
        ".value):\n" + "\n".join(found)
    )


def test_a_category_literal_is_found_but_docstrings_and_knobs_are_not():
    """The scan itself, on a hand-made module."""
    source = (
        '"""flush"""\n'
        'RULE_VALUES = {"five_of_a_kind": ("any",)}\n'
        "def f(rules):\n"
        '    """straight"""\n'
        '    x = rules["five_of_a_kind"] or ev.rules.get("five_of_a_kind")\n'
        '    return "royal_flush" if x else "high card"\n'
    )
    assert list(category_literals(source)) == [(6, "royal_flush")]


def _error_classes() -> Iterator[tuple[str, str]]:
    """(class name, file:line) of every class of the package that derives from an
    exception (a base named ``*Error`` / ``*Exception`` or one of these classes)."""
    classes: list[tuple[str, list[str], str]] = []
    for _, path in _modules():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                bases = [
                    b.attr if isinstance(b, ast.Attribute) else getattr(b, "id", "")
                    for b in node.bases
                ]
                classes.append((node.name, bases, f"{path.relative_to(ROOT)}:{node.lineno}"))
    errors: set[str] = set()
    grew = True
    while grew:
        before = len(errors)
        errors |= {
            name
            for name, bases, _ in classes
            if any(b.endswith(("Error", "Exception")) or b in errors for b in bases)
        }
        grew = len(errors) != before
    for name, _, where in classes:
        if name in errors:
            yield name, where


def test_no_two_error_classes_share_a_name():
    """One class per error: a caller that catches ``MergeError`` catches every merge's."""
    where: dict[str, list[str]] = {}
    for name, place in _error_classes():
        where.setdefault(name, []).append(place)
    assert len(where) > 20  # the walk sees the package's errors
    assert {"InputError", "MergeError", "AdapterError", "RunError"} <= set(where)
    twice = {name: places for name, places in where.items() if len(places) > 1}
    assert not twice, f"error classes defined twice: {twice}"


# class name -> why two public classes of the package still share it
SHARED_CLASS_NAMES: dict[str, str] = {}


def _public_classes() -> dict[str, list[str]]:
    """Public class name -> file:line of each class of the package that has it."""
    where: dict[str, list[str]] = {}
    for _, path in _modules():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                where.setdefault(node.name, []).append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return where


def test_one_class_per_concept():
    """No two public classes share a name (issue 27: two Pot, two Outcome, two Deck, two
    Game): a reader meeting ``Pot`` knows which one it is.  A pending entry whose
    classes were folded is a warning, for whoever prunes the list."""
    where = _public_classes()
    assert len(where) > 50 and "Evaluator" in where  # the walk sees the package
    twice = {
        name: places
        for name, places in where.items()
        if len(places) > 1 and name not in SHARED_CLASS_NAMES
    }
    assert not twice, f"classes defined twice: {twice}"
    folded = [name for name in SHARED_CLASS_NAMES if len(where.get(name, [])) < 2]
    if folded:
        warnings.warn(f"prune SHARED_CLASS_NAMES, folded: {folded}", stacklevel=1)
