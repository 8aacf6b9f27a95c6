"""tests/ mirrors the packages and stays collectable in importlib mode.

A test file dropped at the top of tests/, a folder without ``__init__.py`` (whose modules
pytest would import by their bare names) or a bare import of a sibling helper would only
work in pytest's default import mode; these checks fail on each of them.
"""

from __future__ import annotations

import ast
import tomllib

from tests import helpers

TESTS = helpers.ROOT / "tests"
# one folder per package of pyproject's package-dir, plus the whole-repository checks
MIRRORS = {"reference", "vectors", "harness", "reports", "certify", "cli", "contract"}
# folders of data, not code: fixtures, and the snapshots pytest-regressions keeps beside
# a test file in a folder of its name
DATA = {*TESTS.glob("**/data/"), *TESTS.glob("**/test_*/")}


def _test_files() -> list[str]:
    return sorted(str(p.relative_to(TESTS)) for p in TESTS.rglob("test_*.py"))


def test_every_test_file_lives_in_a_folder_named_after_a_package() -> None:
    config = tomllib.loads((helpers.ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    packages = {name.split(".")[1] for name in config["tool"]["setuptools"]["package-dir"]}
    assert packages <= MIRRORS, f"no tests/ folder for {sorted(packages - MIRRORS)}"
    misplaced = [f for f in _test_files() if f.split("/")[0] not in MIRRORS]
    assert not misplaced, f"move into tests/<package>/: {misplaced}"


def test_every_folder_with_python_files_is_a_package() -> None:
    folders = {p.parent for p in TESTS.rglob("*.py") if not any(p.is_relative_to(d) for d in DATA)}
    missing = sorted(
        str(d.relative_to(helpers.ROOT)) for d in folders if not (d / "__init__.py").is_file()
    )
    assert not missing, f"add __init__.py to {missing}"


def test_no_test_imports_a_sibling_by_its_bare_name() -> None:
    """Shared code is imported as ``tests.helpers...`` (or ``tests.<folder>.<module>``)."""
    local = {p.stem for p in TESTS.rglob("*.py")} | {p.name for p in TESTS.rglob("*/")}
    local -= {"__init__", "conftest", "tests"}
    bare = []
    for path in TESTS.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom) and node.level == 0
                else []
            )
            bare += [f"{path.relative_to(TESTS)}: {n}" for n in names if n.split(".")[0] in local]
    assert not bare, f"import these as tests.<...>: {bare}"


def test_pytest_runs_in_importlib_mode_with_the_root_on_the_path() -> None:
    config = tomllib.loads((helpers.ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    pytest_ini = config["tool"]["pytest"]["ini_options"]
    assert "--import-mode=importlib" in pytest_ini["addopts"].split()
    assert pytest_ini["pythonpath"] == ["."]
