"""The layering is a contract: each layer imports only the layers below it.

    reference  <-  vectors  <-  harness  <-  reports  <-  cli

Every module of the package is read with :mod:`ast` (imports inside functions count:
a lazy import is still a dependency), and three rules are checked:

* no module imports a layer above its own;
* nothing outside ``pokercert.cli`` imports ``pokercert.cli`` (libraries raise, the
  command line alone turns errors into exit codes);
* the layers' import graph has no cycle;
* no cycle between the units of a layer either (issue 27, "no hidden cycles"): neither
  between two modules (``reports.output`` <-> ``reports.verify`` was one), nor between
  two units, a unit being a subpackage of a layer taken whole (``harness.run``,
  ``harness.explore``, ``vectors.generate``, ...) or a module at a layer's top
  (``harness.identity``, ``reports.verify``): ``harness.run`` <-> ``harness.explore`` was
  one, through two modules that did not import each other.  A failure names every edge
  of the cycle with its file:line.

Imports under ``if TYPE_CHECKING:`` count.  They do not run, so they cannot fail an
import, but they are a dependency all the same: the module's types name the other
module, a change there breaks this one under mypy, and a cycle through them is a cycle
a reader has to hold in mind.  A lazy (function-local) import counts for the same
reason: it hides a dependency, it does not remove it.
"""

from __future__ import annotations

import ast
import graphlib
import itertools
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAYERS = (
    "pokercert.reference",
    "pokercert.vectors",
    "pokercert.harness",
    "pokercert.reports",
    "pokercert.certify",
    "pokercert.cli",
)
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


def _statements(module: str, path: Path) -> Iterator[tuple[int, str, list[str] | None]]:
    """(line, module named, names taken) for every import statement of the file, at any
    depth; a relative ``from`` resolved against ``module``; names None for ``import x``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    is_package = path.name == "__init__.py"
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, None
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: resolve against this module
                parts = module.split(".")
                parts = parts[: len(parts) - node.level + (1 if is_package else 0)]
                base = ".".join([*parts, node.module] if node.module else parts)
            yield node.lineno, base, [alias.name for alias in node.names]


def _imports(module: str, path: Path) -> Iterator[tuple[int, str]]:
    """(line, imported module) for every import statement of the file, at any depth."""
    for line, name, taken in _statements(module, path):
        yield line, name
        if name == "pokercert" and taken:  # `from pokercert import cli`
            for alias in taken:
                yield line, f"{name}.{alias}"


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
    path.write_text(
        "def f():\n    from pokercert.cli.main import main\n"
        "from ..reports import verdict\nfrom pokercert import cli\n",
        encoding="utf-8",
    )
    names = {name for _, name in _imports("pokercert.harness.mod", path)}
    assert names == {"pokercert", "pokercert.cli", "pokercert.cli.main", "pokercert.reports"}
    assert {layer_of(n) for n in names} == {None, 3, 5}


# --- cycles inside the layers -------------------------------------------------------

Graph = dict[str, dict[str, list[str]]]  # node -> imported node -> ["file:line", ...]


def module_graph(modules: dict[str, Path], root: Path = ROOT) -> Graph:
    """Module -> the package modules it imports, each edge with its file:line.

    ``from pokercert.reports import verify`` is an edge to the module ``verify`` when it
    is one (else to the package); an import of a name in a module, to that module.
    """

    def owner(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: Graph = {module: {} for module in modules}
    for module, path in modules.items():
        for line, name in _imported_modules(module, path, modules):
            target = owner(name)
            if target is not None and target != module:
                graph[module].setdefault(target, []).append(f"{path.relative_to(root)}:{line}")
    return graph


def _imported_modules(
    module: str, path: Path, modules: dict[str, Path]
) -> Iterator[tuple[int, str]]:
    """(line, name) of what each import statement, at any depth, loads: ``from a import
    b`` is ``a.b`` when that is a module, else ``a``.  The parent packages an import
    also runs are not counted (each submodule would otherwise close a cycle with its
    package's re-exports); a package imported by name is."""
    for line, base, taken in _statements(module, path):
        if taken is None:
            yield line, base
            continue
        for alias in taken:
            sub = f"{base}.{alias}"
            yield line, sub if sub in modules else base


def unit_of(module: str, modules: dict[str, Path]) -> str:
    """A subpackage of a layer taken whole, else the module itself (a layer's top)."""
    parts = module.split(".")
    if len(parts) > 3 and modules[".".join(parts[:3])].name == "__init__.py":
        return ".".join(parts[:3])
    return module


def unit_graph(graph: Graph, modules: dict[str, Path]) -> Graph:
    """``graph`` with each module replaced by its unit; an edge keeps its file:lines."""
    units: Graph = {}
    for module, targets in graph.items():
        edges = units.setdefault(unit_of(module, modules), {})
        for target, where in targets.items():
            if unit_of(target, modules) != unit_of(module, modules):
                edges.setdefault(unit_of(target, modules), []).extend(
                    f"{w} ({module} imports {target})" for w in where
                )
    return units


def cycles(graph: Graph) -> list[str]:
    """One message per cycle found (each edge with its file:lines); empty if none.

    The cycles are cut one at a time: each found is reported, its edges dropped, and
    the search goes on, so one run names every independent cycle."""
    edges = {node: dict(targets) for node, targets in graph.items()}
    found: list[str] = []
    while True:
        try:
            list(graphlib.TopologicalSorter({n: set(t) for n, t in edges.items()}).static_order())
            return found
        except graphlib.CycleError as exc:
            loop = list(reversed(exc.args[1]))  # graphlib lists it against the edges
            steps = list(itertools.pairwise(loop))
            lines = [f"  {a} -> {b}: " + ", ".join(sorted(set(edges[a][b]))) for a, b in steps]
            found.append(" -> ".join(loop) + "\n" + "\n".join(lines))
            for a, b in steps:
                del edges[a][b]


def _package_modules() -> dict[str, Path]:
    return dict(_modules())


def test_no_import_cycle_between_modules():
    found = cycles(module_graph(_package_modules()))
    assert not found, "import cycles between modules:\n" + "\n".join(found)


def test_no_import_cycle_between_subpackages_or_top_modules():
    modules = _package_modules()
    found = cycles(unit_graph(module_graph(modules), modules))
    assert not found, "import cycles between subpackages:\n" + "\n".join(found)


def _tree(tmp_path: Path, files: dict[str, str]) -> dict[str, Path]:
    modules: dict[str, Path] = {}
    for rel, text in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        parts = [p for p in Path(rel).with_suffix("").parts if p != "__init__"]
        modules[".".join(["pokercert", *parts])] = path
    return modules


def test_the_cycle_checker_sees_lazy_and_type_checking_imports(tmp_path):
    """A cycle closed by a function-local import and one closed under TYPE_CHECKING are
    both found, each edge named with its file:line."""
    modules = _tree(
        tmp_path,
        {
            "lay/__init__.py": "",
            "lay/a.py": "from pokercert.lay import b\n",
            "lay/b.py": "def f():\n    from pokercert.lay.a import thing\n",
            "lay/c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
            "    from pokercert.lay.d import D\n",
            "lay/d.py": "import pokercert.lay.c\n",
        },
    )
    found = cycles(module_graph(modules, tmp_path))
    assert len(found) == 2
    text = "\n".join(found)
    assert "pokercert.lay.a -> pokercert.lay.b: lay/a.py:1" in text
    assert "pokercert.lay.b -> pokercert.lay.a: lay/b.py:2" in text
    assert "pokercert.lay.c -> pokercert.lay.d: lay/c.py:3" in text
    assert "pokercert.lay.d -> pokercert.lay.c: lay/d.py:1" in text


def test_the_cycle_checker_sees_a_cycle_between_subpackages_only(tmp_path):
    """run.x -> explore.y and explore.z -> run.w: no two modules import each other, the
    two subpackages do (the shape of harness.run <-> harness.explore)."""
    modules = _tree(
        tmp_path,
        {
            "lay/__init__.py": "",
            "lay/top.py": "",
            "lay/run/__init__.py": "",
            "lay/run/x.py": "from pokercert.lay.explore.y import Y\n",
            "lay/run/w.py": "from pokercert.lay import top\n",
            "lay/explore/__init__.py": "",
            "lay/explore/y.py": "",
            "lay/explore/z.py": "from pokercert.lay.run.w import W\n",
        },
    )
    graph = module_graph(modules, tmp_path)
    assert cycles(graph) == []
    found = cycles(unit_graph(graph, modules))
    assert len(found) == 1
    assert "lay/run/x.py:1 (pokercert.lay.run.x imports pokercert.lay.explore.y)" in found[0]
    assert "lay/explore/z.py:1 (pokercert.lay.explore.z imports pokercert.lay.run.w)" in found[0]
