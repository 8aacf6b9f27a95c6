"""One vocabulary (issue 27): each word list is defined once in Python, and every JSON
schema that repeats it says exactly that list.

The vocabularies and where each is defined:

* vector kinds: :class:`pokercert.vectors.model.Kind`;
* outcomes of a vector: :class:`pokercert.harness.outcome.Outcome`;
* reason codes of refused input: :data:`pokercert.reference.cards.REASON_CODES`;
* categories: the union of every shipped ruleset's categories (no schema enumerates
  them today: a category is checked against the configured ruleset; one that starts to
  is checked here).

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
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pokercert.harness.outcome import Outcome
from pokercert.harness.protocol import MANY_OPS
from pokercert.reference import all_rulesets
from pokercert.reference.cards import REASON_CODES
from pokercert.reports.verdict import DENYING
from pokercert.vectors.model import OPERATIONS, Kind

from .test_architecture import ROOT, _modules

SCHEMA_GLOBS = ("harness/schema/*.json", "reports/schema/*.json", "cli/schema/*.json",
                "vectors/schema*/*.json")

VOCABULARIES: dict[str, frozenset[str]] = {
    "kinds": frozenset(str(k) for k in Kind),
    "outcomes": frozenset(str(o) for o in Outcome),
    "reasons": frozenset(REASON_CODES),
    "categories": frozenset(c.name for rs in all_rulesets() for c in rs.categories),
}

# (file, JSON pointer) -> (vocabulary, the part of it listed there, why)
SUBSETS: dict[tuple[str, str], tuple[str, frozenset[str], str]] = {
    ("harness/schema/batch-request.json", "/$defs/request/properties/op/enum"): (
        "kinds", frozenset(OPERATIONS) | frozenset(MANY_OPS),
        "a request names an operation (every kind but reject: a reject vector is sent as "
        "the operation it tests) or a batched one"),
    ("vectors/schema/vector.schema.json", "/$defs/vector/properties/op/enum"): (
        "kinds", frozenset(OPERATIONS) - {Kind.SHOWDOWN},
        "the operation a reject vector's invalid input is sent through; a showdown's "
        "invalid hands are a compare's"),
    ("vectors/schema/vector.schema.json",
     "/$defs/vector/allOf/6/then/allOf/0/if/properties/op/enum"): (
        "kinds", frozenset({Kind.CLASSIFY, Kind.QUALIFIES}),
        "the reject operations that take one hand (the branch that requires ``hand``)"),
    ("reports/schema/report.schema.json",
     "/properties/failures/items/properties/outcome/enum"): (
        "outcomes", frozenset(str(o) for o in DENYING),
        "the report's failures are the vectors that deny a certificate"),
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
            expected = members if declared is None or declared[0] != vocabulary \
                else declared[1]
            listed = set(words) if shape == "enum" else set(words) & members
            if shape == "keys":
                expected = expected & members
            if listed != expected:
                yield (f"{name}{pointer}: lists {vocabulary} "
                       f"{sorted(listed)}; missing {sorted(expected - listed)}, "
                       f"not {vocabulary} {sorted(listed - expected)}")


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
        "harness/schema/fuzz.schema.json", "harness/schema/hello-reply.json",
        "harness/schema/results-line.schema.json", "harness/schema/run.schema.json"}
    assert {"harness/schema/results-line.schema.json",
            "reports/schema/report.schema.json"} <= seen["outcomes"]
    assert "vectors/schema/vector.schema.json" in seen["reasons"]
    assert set(SUBSETS) <= places, set(SUBSETS) - places


def test_a_schema_that_drops_or_adds_a_word_is_named():
    """The check itself, on hand-made schemas: a kind missing from an enum, an outcome
    missing from a counts object, a word that is no kind in a kind enum."""
    kinds = sorted(VOCABULARIES["kinds"] - {"qualifies"})
    outcomes = sorted(VOCABULARIES["outcomes"] - {"XPASS"})
    schema = {"properties": {"kind": {"enum": kinds},
                             "op": {"enum": [*sorted(VOCABULARIES["kinds"]), "evaluate"]},
                             "counts": {"required": ["total", *outcomes]}}}
    found = "\n".join(disagreements("x.json", schema))
    assert "x.json/properties/kind/enum: lists kinds" in found
    assert "missing ['qualifies']" in found
    assert "x.json/properties/op/enum" in found and "not kinds ['evaluate']" in found
    assert "x.json/properties/counts/required: lists outcomes" in found
    assert "missing ['XPASS']" in found
    whole = {"properties": {"kind": {"enum": sorted(VOCABULARIES["kinds"])}}}
    assert list(disagreements("y.json", whole)) == []


def _error_classes() -> Iterator[tuple[str, str]]:
    """(class name, file:line) of every class of the package that derives from an
    exception (a base named ``*Error`` / ``*Exception`` or one of these classes)."""
    classes: list[tuple[str, list[str], str]] = []
    for _, path in _modules():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                bases = [b.attr if isinstance(b, ast.Attribute) else getattr(b, "id", "")
                         for b in node.bases]
                classes.append((node.name, bases,
                                f"{path.relative_to(ROOT)}:{node.lineno}"))
    errors: set[str] = set()
    grew = True
    while grew:
        before = len(errors)
        errors |= {name for name, bases, _ in classes
                   if any(b.endswith(("Error", "Exception")) or b in errors for b in bases)}
        grew = len(errors) != before
    for name, _, where in classes:
        if name in errors:
            yield name, where


def test_no_two_error_classes_share_a_name():
    """One class per error: a caller that catches ``MergeError`` catches every merge's."""
    where: dict[str, list[str]] = {}
    for name, place in _error_classes():
        where.setdefault(name, []).append(place)
    assert len(where) > 20       # the walk sees the package's errors
    assert {"InputError", "MergeError", "AdapterError", "RunError"} <= set(where)
    twice = {name: places for name, places in where.items() if len(places) > 1}
    assert not twice, f"error classes defined twice: {twice}"
