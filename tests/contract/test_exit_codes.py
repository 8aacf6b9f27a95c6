"""A certification's outcome becomes an exit code in one place.

``pokercert.harness.run.outcome.exit_code`` maps (finished, complies) to an
:class:`~pokercert.reference.errors.ExitCode`; every module of the certification
pipeline (the harness's run package, ``pokercert.certify``, the report model, the CLI's
``run``) asks it instead of naming a member itself, so the run's exit code, the report's
``exit_code`` field and the CLI's cannot drift apart.  This contract reads the modules'
syntax: an ``ExitCode.OK``-style member anywhere else in them fails it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from tests import helpers

ROOT = helpers.ROOT
#: the modules of the certification pipeline
PIPELINE = [
    *sorted((ROOT / "harness" / "run").glob("*.py")),
    *sorted((ROOT / "certify").glob("*.py")),
    ROOT / "reports" / "model.py",
    ROOT / "cli" / "run.py",
]
#: (file, function) allowed to name ExitCode members, and why
ALLOWED = {
    ("harness/run/outcome.py", "exit_code"): "the one mapping",
    ("cli/run.py", "_smoke_outcome"): "smoke is no certification: its own verdict words "
    "(ADAPTER BROKEN, NOTHING TESTED) and codes",
}


def members_named(path: Path) -> Iterator[tuple[int, str, str]]:
    """(line, enclosing function or "<module>", member) of each ``ExitCode.X`` in the
    file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))

    def walk(node: ast.AST, where: str) -> Iterator[tuple[int, str, str]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                yield from walk(child, child.name)
                continue
            if (
                isinstance(child, ast.Attribute)
                and isinstance(child.value, ast.Name)
                and child.value.id == "ExitCode"
            ):
                yield child.lineno, where, child.attr
            yield from walk(child, where)

    yield from walk(tree, "<module>")


def test_only_the_one_mapping_names_an_exit_code_member() -> None:
    found = []
    for path in PIPELINE:
        rel = path.relative_to(ROOT).as_posix()
        found += [
            f"{rel}:{line}: ExitCode.{member} in {where}"
            for line, where, member in members_named(path)
            if (rel, where) not in ALLOWED
        ]
    assert not found, "name the outcome through harness.run.outcome.exit_code:\n" + "\n".join(found)


def test_the_mapping_itself_is_where_the_contract_says() -> None:
    named = {where for _, where, _ in members_named(ROOT / "harness/run/outcome.py")}
    assert named == {"exit_code"}


def test_the_reader_finds_a_member_in_a_function_and_at_module_level(tmp_path: Path) -> None:
    path = tmp_path / "mod.py"
    path.write_text("X = {ExitCode.OK: 1}\ndef f():\n    return ExitCode.ERROR\n", encoding="utf-8")
    assert list(members_named(path)) == [(1, "<module>", "OK"), (3, "f", "ERROR")]
