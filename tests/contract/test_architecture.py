"""The layering is a contract: each layer imports only the layers below it.

    reference  <-  vectors  <-  harness  <-  reports  <-  cli

Every module of the package is read with :mod:`ast` (imports inside functions count:
a lazy import is still a dependency), and three rules are checked:

* no module imports a layer above its own;
* nothing outside ``pokercert.cli`` imports ``pokercert.cli`` (libraries raise, the
  command line alone turns errors into exit codes);
* the layers' import graph has no cycle.
"""

from __future__ import annotations

import ast
import graphlib
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("pokercert.reference", "pokercert.vectors", "pokercert.harness",
          "pokercert.reports", "pokercert.cli")
CLI = "pokercert.cli"


def _package_dirs() -> dict[str, Path]:
    """Package name -> folder, as pyproject.toml maps them (the layers' folders)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    mapping = config["tool"]["setuptools"]["package-dir"]
    return {name: ROOT / folder for name, folder in mapping.items() if name in LAYERS}


def _modules() -> Iterator[tuple[str, Path]]:
    for package, folder in sorted(_package_dirs().items()):
        for path in sorted(folder.rglob("*.py")):
            rel = path.relative_to(folder).with_suffix("")
            parts = [p for p in rel.parts if p != "__init__"]
            yield ".".join([package, *parts]), path


def _imports(module: str, path: Path) -> Iterator[tuple[int, str]]:
    """(line, imported module) for every import statement of the file, at any depth."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    is_package = path.name == "__init__.py"
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:                      # relative: resolve against this module
                base = module.split(".")
                base = base[:len(base) - node.level + (1 if is_package else 0)]
                name = ".".join([*base, node.module] if node.module else base)
            else:
                name = node.module or ""
            yield node.lineno, name
            if name == "pokercert":            # `from pokercert import cli`
                for alias in node.names:
                    yield node.lineno, f"{name}.{alias.name}"


def layer_of(name: str) -> int | None:
    """The index of the layer a module belongs to (None: not pokercert's)."""
    for i, layer in enumerate(LAYERS):
        if name == layer or name.startswith(layer + "."):
            return i
    return None


def violations() -> tuple[list[str], dict[str, set[str]]]:
    """Every upward import, and the layers' import graph."""
    found: list[str] = []
    graph: dict[str, set[str]] = {layer: set() for layer in LAYERS}
    for module, path in _modules():
        own = layer_of(module)
        assert own is not None, module
        for line, name in _imports(module, path):
            target = layer_of(name)
            if target is None or target == own:
                continue
            graph[LAYERS[own]].add(LAYERS[target])
            where = f"{path.relative_to(ROOT)}:{line}: {module} imports {name}"
            if LAYERS[target] == CLI:
                found.append(f"{where} (only the CLI imports the CLI)")
            elif target > own:
                found.append(f"{where} ({LAYERS[target]} is above {LAYERS[own]})")
    return found, graph


def test_every_layer_has_modules():
    seen = {layer_of(m) for m, _ in _modules()}
    assert seen == set(range(len(LAYERS)))


def test_no_layer_imports_a_layer_above_it_nor_the_cli():
    found, _ = violations()
    assert not found, "imports against the layering:\n" + "\n".join(sorted(set(found)))


def test_the_layers_import_graph_has_no_cycle():
    _, graph = violations()
    try:
        list(graphlib.TopologicalSorter(graph).static_order())
    except graphlib.CycleError as exc:
        pytest.fail(f"import cycle between layers: {' -> '.join(exc.args[1])}")


def test_the_checker_sees_imports_inside_functions(tmp_path):
    """The checker itself: a lazy import is found, a relative one resolved, and
    ``from pokercert import cli`` counts as importing the CLI."""
    path = tmp_path / "mod.py"
    path.write_text("def f():\n    from pokercert.cli.main import main\n"
                    "from ..reports import verdict\nfrom pokercert import cli\n",
                    encoding="utf-8")
    names = {name for _, name in _imports("pokercert.harness.mod", path)}
    assert names == {"pokercert", "pokercert.cli", "pokercert.cli.main", "pokercert.reports"}
    assert {layer_of(n) for n in names} == {None, 3, 4}
