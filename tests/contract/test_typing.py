"""``mypy --strict`` over the package: the typing contract, checked by every ``python -m pytest``.

The whole package passes ``mypy --strict`` (configured in ``pyproject.toml``,
``[tool.mypy]``): :data:`CLEAN` is the single entry ``pokercert``, every module of every
layer, the CLI included.  A module that does not type-check fails this test.

Why a tree of symlinks: ``pyproject.toml`` maps ``pokercert.<sub>`` to the top-level folder
``<sub>/`` (setuptools ``package-dir``), so no folder is named ``pokercert``, and the editable
install is an import hook that mypy does not run.  :func:`shadow_root` lays
``pokercert/<sub> -> <folder>`` for every ``package-dir`` entry (a new one, such as ``cli``, is
picked up by itself) under ``.pytest_cache/d/mypy/`` and mypy runs there with its cache beside.

By hand: ``python tests/contract/test_typing.py`` runs ``mypy --strict`` on the whole package
and prints every error with a count by package;
``python tests/contract/test_typing.py -p pokercert.reports`` checks
one part (any mypy arguments work).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from collections import Counter
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PYPROJECT = REPO / "pyproject.toml"

#: modules and packages (each with every module in it) clean under ``mypy --strict``;
#: grows to ``["pokercert"]``
CLEAN = ["pokercert"]


def package_dirs() -> dict[str, Path]:
    """``pyproject.toml``'s setuptools ``package-dir``: package name -> its folder."""
    with PYPROJECT.open("rb") as fh:
        mapping = tomllib.load(fh)["tool"]["setuptools"]["package-dir"]
    return {name: (REPO / folder).resolve() for name, folder in mapping.items()}


def shadow_root(base: Path) -> Path:
    """Lay ``base/root/pokercert/<sub> -> <folder>`` for each ``package-dir`` entry; the root.

    Stale links (a mapping that is gone or moved) are replaced, so the tree always says what
    ``pyproject.toml`` says.
    """
    root = base / "root"
    wanted = package_dirs()
    for name, folder in sorted(wanted.items()):
        link = root.joinpath(*name.split("."))
        if link.is_symlink():
            if link.resolve() == folder:
                continue
            link.unlink()
        elif link.exists():  # inside a folder linked above (a nested mapping): already there
            continue
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(folder, target_is_directory=True)
    for folder, dirs, _files in os.walk(root):  # does not enter the links
        for entry in dirs:
            link = Path(folder, entry)
            name = ".".join(link.relative_to(root).parts)
            if link.is_symlink() and wanted.get(name) != link.resolve():
                link.unlink()
    return root


def modules_of(root: Path, name: str) -> list[str]:
    """The module ``name``, or every module of the package ``name`` (its ``.py`` files,
    subpackages included), as dotted names; empty if there is no such module."""
    path = root.joinpath(*name.split("."))
    if path.with_suffix(".py").is_file():
        return [name]
    found = []
    for folder, dirs, files in os.walk(path, followlinks=True):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        parts = Path(folder).relative_to(root).parts
        for file in sorted(files):
            if file.endswith(".py"):
                module = parts if file == "__init__.py" else (*parts, file[:-3])
                found.append(".".join(module))
    return found


def target_args(root: Path, names: list[str]) -> list[str]:
    """mypy's ``-m MODULE`` for every module of ``names``."""
    return [arg for name in names for m in modules_of(root, name) for arg in ("-m", m)]


def run_mypy(base: Path, args: list[str]) -> subprocess.CompletedProcess[str]:
    """``mypy --strict`` with the project's configuration, run in the tree of symlinks."""
    root = shadow_root(base)
    cmd = [
        sys.executable,
        "-m",
        "mypy",
        "--strict",
        "--config-file",
        str(PYPROJECT),
        "--cache-dir",
        str(base / "cache"),
        "--no-color-output",
        "--no-error-summary",
    ]
    env = {k: v for k, v in os.environ.items() if k not in ("MYPYPATH", "MYPY_CACHE_DIR")}
    return subprocess.run(
        cmd + args, cwd=root, env=env, capture_output=True, text=True, check=False
    )


def errors_by_package(output: str) -> Counter[str]:
    """Count mypy's ``error:`` lines by package (``pokercert.harness.adapters`` and so on)."""
    counts: Counter[str] = Counter()
    for line in output.splitlines():
        match = re.match(r"(pokercert/[^:]+)\.py:\d+: error:", line)
        if match:
            parts = match.group(1).split("/")[:-1]
            counts[".".join(parts)] += 1
    return counts


def test_clean_modules_pass_mypy_strict(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Every module in :data:`CLEAN` passes ``mypy --strict`` with the project's config."""
    pytest.importorskip("mypy", reason="mypy is not installed (pip install -e '.[test]')")
    cache = getattr(request.config, "cache", None)  # absent under -p no:cacheprovider
    base = cache.mkdir("mypy") if cache is not None else tmp_path_factory.mktemp("mypy")
    root = shadow_root(base)
    missing = [name for name in CLEAN if not modules_of(root, name)]
    assert not missing, f"CLEAN names modules that do not exist (moved?): {missing}"
    result = run_mypy(base, target_args(root, CLEAN))
    assert result.returncode == 0, (
        f"mypy --strict fails on modules listed as clean in {Path(__file__).name}:\n"
        f"{result.stdout}{result.stderr}"
    )


def main(argv: list[str]) -> int:
    """Run ``mypy --strict`` by hand (default: the whole package); print errors by package."""
    base = REPO / ".pytest_cache" / "d" / "mypy"
    base.mkdir(parents=True, exist_ok=True)
    result = run_mypy(base, argv or ["-p", "pokercert"])
    sys.stdout.write(result.stdout)
    sys.stderr.write(result.stderr)
    counts = errors_by_package(result.stdout)
    for package, n in sorted(counts.items()):
        print(f"{n:5d}  {package}")
    print(f"{sum(counts.values()):5d}  errors in total")
    return result.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
