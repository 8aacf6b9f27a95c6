"""The harness's inner layout holds: one vocabulary each, public seams between modules.

Checked on the source (``ast``), not by running it, so that a copy of a rule added
anywhere later fails here (the layering between packages is the CLI's layering test):

* the "which fast methods has this evaluator" probe is :func:`pokercert.harness.api.
  fast_methods`, asked by name nowhere else;
* :mod:`pokercert.harness.scoring` is the only PASS rule: no other module of the run
  pipeline compares an answer with the expectation itself;
* the run pipeline and the explorers use other modules' and libraries' public names
  only (no ``other._private``, no ``getattr(adapter, "evaluator")``).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from pokercert.harness.api import KEY_METHODS

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("reference", "vectors", "harness", "reports", "cli")
# public despite the underscore: named tuples' API (no clash with field names), os._exit
PUBLIC = {"_replace", "_fields", "_asdict", "_make", "_exit"}


def _modules(*folders: str) -> Iterator[tuple[str, ast.Module]]:
    for folder in folders:
        base = ROOT / folder
        if not base.is_dir():
            continue
        for path in sorted(base.rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            yield rel, ast.parse(path.read_text(encoding="utf-8"), rel)


def _const(node: ast.AST) -> object:
    return node.value if isinstance(node, ast.Constant) else None


def test_the_layout_has_the_moved_modules():
    """The walk below sees the modules it is about (a test that cannot fail otherwise)."""
    seen = {rel for rel, _ in _modules(*PACKAGES)}
    assert {
        "harness/api.py",
        "harness/scoring.py",
        "harness/run/runner.py",
        "harness/explore/exhaustive.py",
        "harness/explore/exhaustive_state.py",
        "harness/explore/fuzz.py",
        "reference/classes.py",
    } <= seen


def test_the_fast_method_probe_is_defined_once():
    """Nothing but harness/api.py looks an evaluator's fast method up by its name
    (``getattr(evaluator, "evaluate", None)``, a helper taking the name, ...)."""
    found = []
    for rel, tree in _modules(*PACKAGES):
        if rel == "harness/api.py":
            continue
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and len(node.args) >= 2
                and _const(node.args[1]) in KEY_METHODS
            ):
                found.append(f"{rel}:{node.lineno}: {ast.unparse(node)}")
    assert not found, "use pokercert.harness.api.fast_methods:\n" + "\n".join(found)


def test_scoring_is_the_only_pass_rule():
    """In the run pipeline only scoring.py reads what the expectation says a category or
    the winners are (any other comparison would be a second PASS rule)."""
    found = []
    for rel, tree in _modules("harness/run"):
        if rel == "harness/scoring.py":
            continue
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Subscript)
                and isinstance(node.value, ast.Name)
                and node.value.id == "expected"
                and _const(node.slice) in ("category", "winners", "cards", "reason")
            ):
                found.append(f"{rel}:{node.lineno}: {ast.unparse(node)}")
    assert not found, "score through pokercert.harness.scoring:\n" + "\n".join(found)


@pytest.mark.parametrize("folder", ["harness/run", "harness/explore", "reference/classes.py"])
def test_no_reach_into_private_names(folder):
    """``obj._name`` only on ``self``/``cls``; no ``getattr(x, "evaluator")`` (an adapter's
    evaluator is its business: :meth:`Adapter.direct`)."""
    found = []
    trees = (
        list(_modules(folder))
        if not folder.endswith(".py")
        else [(folder, ast.parse((ROOT / folder).read_text(encoding="utf-8")))]
    )
    for rel, tree in trees:
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
                and node.attr not in PUBLIC
                and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
            ):
                found.append(f"{rel}:{node.lineno}: {ast.unparse(node)}")
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("getattr", "hasattr")
                and len(node.args) >= 2
                and _const(node.args[1]) == "evaluator"
            ):
                found.append(f"{rel}:{node.lineno}: {ast.unparse(node)}")
    assert not found, "\n".join(found)
