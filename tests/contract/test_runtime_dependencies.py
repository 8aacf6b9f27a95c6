"""The shipped commands run on a plain ``pip install .``: nothing from the test extra.

The suite itself runs with the test extra installed, so a command that quietly imports a
test-only library (Hypothesis, pytest, a peer library) passes every other test and then
fails on a lab's fresh machine with ``ModuleNotFoundError``: exactly what happened to the
README's first command when the challenge vectors started dealing through the situation
generator. Here the commands run in a child interpreter whose import system refuses every
top-level module that only the optional extras provide, so such an import fails the test
with the module's name.
"""

from __future__ import annotations

import importlib.metadata
import json
import re
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _requirement_name(requirement: str) -> str:
    """The distribution name of one PEP 508 requirement string, normalised."""
    match = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement.strip())
    assert match, requirement
    return re.sub(r"[-_.]+", "-", match.group(0)).lower()


def _extra_only_modules() -> list[str]:
    """Top-level import names installed only by the optional extras, never by a plain install."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    runtime = {_requirement_name(r) for r in project["dependencies"]}
    optional = {
        _requirement_name(r)
        for requirements in project["optional-dependencies"].values()
        for r in requirements
    }
    extra_only = optional - runtime
    modules: set[str] = set()
    for module, distributions in importlib.metadata.packages_distributions().items():
        names = {_requirement_name(d) for d in distributions}
        # a module shared with a runtime distribution (a namespace) is not extra-only
        if names & extra_only and not names & runtime:
            modules.add(module)
    return sorted(modules)


CHILD = textwrap.dedent(
    """
    import importlib.abc, json, sys
    refused = set(json.loads(sys.argv[1]))

    class RefuseExtras(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.partition(".")[0] in refused:
                raise ModuleNotFoundError(f"No module named {name!r} (an optional extra)")
            return None

    sys.meta_path.insert(0, RefuseExtras())
    from pokercert.cli.main import main
    sys.exit(main(sys.argv[2:]))
    """
)


def _run_without_extras(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    refused = _extra_only_modules()
    return subprocess.run(
        [sys.executable, "-c", CHILD, json.dumps(refused), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def test_the_refused_set_holds_the_test_only_libraries() -> None:
    """The guard itself: the libraries we know are test-only are among the refused modules."""
    refused = set(_extra_only_modules())
    assert {"pytest", "treys", "eval7"} <= refused
    assert "tabulate" not in refused and "jsonschema" not in refused


@pytest.mark.parametrize(
    "args",
    [
        pytest.param([], id="bare pokercert (README command 1)"),
        pytest.param(
            ["fuzz", "--ruleset", "nj-poker-high-5", "--examples", "50", "--seed", "1"],
            id="fuzz",
        ),
    ],
)
def test_a_shipped_command_needs_no_optional_extra(args: list[str], tmp_path: Path) -> None:
    done = _run_without_extras(args, tmp_path)
    assert "No module named" not in done.stderr, done.stderr[-2000:]
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-2000:])
