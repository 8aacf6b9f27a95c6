"""No function or method over :data:`LIMIT` lines (issue 27 item 5).

A long function does several jobs under one name; split it into pieces whose names say
what each does.  Declarative tables (data) are not functions and are not counted.  The
only exceptions are those in :data:`EXCEPTIONS`, each with its reason; one marked
``pending:`` is being split by another change of issue 27, and comes out of the list
once that change has landed (a pending entry whose function is short now, or gone, is
reported as a warning so the list can be pruned; any other stale entry fails).

A function's length is its lines from ``def`` to its last line (nested functions
count in the function that holds them, and on their own).  The package's modules and
the benchmarks are scanned.
"""

from __future__ import annotations

import ast
import warnings
from collections.abc import Iterator
from pathlib import Path

from .test_architecture import ROOT, _modules

LIMIT = 60

PENDING = "pending: being split by {} (issue 27)"

# qualified name (module.Class.function) -> why it may be longer than LIMIT.  `ruff format`
# (issue 27 item 5: the tree formatted, `ruff format --check` in .ci/run) put one argument
# per line where a call overflows, which pushed these over the limit; each is being split
# by the change named
EXCEPTIONS: dict[str, str] = {}


def _files() -> Iterator[tuple[str, Path]]:
    """(module name, path) of every scanned file: the package and the benchmarks."""
    yield from _modules()
    for path in sorted((ROOT / "benchmarks").glob("*.py")):
        yield f"benchmarks.{path.stem}", path


def functions(tree: ast.AST, prefix: str) -> Iterator[tuple[str, int, int]]:
    """(qualified name, first line, line count) of every function and method in
    ``tree``, nested ones included (named after the function that holds them)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            name = f"{prefix}.{node.name}"
            end = node.end_lineno or node.lineno
            yield name, node.lineno, end - node.lineno + 1
            yield from functions(node, name)
        elif isinstance(node, ast.ClassDef):
            yield from functions(node, f"{prefix}.{node.name}")
        else:
            yield from functions(node, prefix)


def long_functions(source: str, module: str, limit: int = LIMIT) -> dict[str, str]:
    """Qualified name -> ``"<lines> lines (line <n>)"`` of every function of ``source``
    longer than ``limit`` lines."""
    tree = ast.parse(source)
    return {
        name: f"{count} lines (line {line})"
        for name, line, count in functions(tree, module)
        if count > limit
    }


def scan() -> dict[str, str]:
    """Every function of the scanned files over :data:`LIMIT` lines, with where it is."""
    found: dict[str, str] = {}
    for module, path in _files():
        long = long_functions(path.read_text(encoding="utf-8"), module)
        rel = path.relative_to(ROOT)
        found.update({name: f"{rel}: {where}" for name, where in long.items()})
    return found


def test_no_function_is_longer_than_the_limit():
    too_long = {name: where for name, where in scan().items() if name not in EXCEPTIONS}
    assert not too_long, (
        f"functions over {LIMIT} lines (split them, or list them in "
        "EXCEPTIONS with a reason):\n" + "\n".join(f"{n}: {w}" for n, w in sorted(too_long.items()))
    )


def test_every_exception_has_a_reason_and_is_still_needed():
    """An exception names a function that is still too long; a pending one whose
    function was split (or moved) is only a warning, for whoever prunes the list."""
    assert all(reason.strip() for reason in EXCEPTIONS.values())
    found = scan()
    stale = [name for name in EXCEPTIONS if name not in found]
    pending = [n for n in stale if EXCEPTIONS[n].startswith("pending:")]
    if pending:
        warnings.warn(f"prune EXCEPTIONS, no longer over {LIMIT} lines: {pending}", stacklevel=1)
    assert not set(stale) - set(pending), f"stale exceptions: {sorted(stale)}"


def test_the_scan_sees_long_functions_and_nested_ones():
    """The check itself, on hand-made sources: a function of LIMIT + 1 lines is found,
    one of LIMIT lines is not, a long method is named after its class, a nested
    function after the function holding it."""

    def body(n: int, indent: str = "    ") -> str:
        return "".join(f"{indent}x = {i}\n" for i in range(n))

    short = "def fits():\n" + body(LIMIT - 1)
    long = "def sprawls():\n" + body(LIMIT)
    method = "class Big:\n    def grows(self):\n" + body(LIMIT, " " * 8)
    nested = "def outer():\n    def inner():\n" + body(LIMIT, " " * 8)
    found = long_functions("\n".join([short, long, method, nested]), "m")
    assert set(found) == {"m.sprawls", "m.Big.grows", "m.outer", "m.outer.inner"}
    assert found["m.sprawls"].startswith(f"{LIMIT + 1} lines")
