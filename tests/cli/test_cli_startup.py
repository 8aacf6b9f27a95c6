"""Issue 16, fast start: the command line imports what a command uses, on use.

``COMMAND_GROUPS`` is the one list of commands (with the line ``--help`` shows); a
group's module is imported only when one of its commands runs, so ``pokercert --help``
imports neither the harness nor the reports (checked in a fresh interpreter, by the
modules it holds afterwards, never by a time).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from pokercert.cli import main as cli_main
from pokercert.cli.main import COMMAND_GROUPS, CommandGroup, build_parser, main


def _modules_after(argv: list[str]) -> set[str]:
    """The pokercert modules a fresh interpreter holds after ``main(argv)``."""
    code = (
        "import json, sys\n"
        "from pokercert.cli.main import main\n"
        "try:\n"
        f"    main({argv!r})\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('pokercert'))))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(json.loads(done.stdout.splitlines()[-1]))


@pytest.mark.parametrize("argv", [["--help"], ["--version"], ["no-such-command"]])
def test_the_command_list_imports_no_command_module(argv):
    loaded = _modules_after(argv)
    heavy = {
        m
        for m in loaded
        if m.startswith(
            ("pokercert.harness.", "pokercert.reports", "pokercert.vectors", "pokercert.cli.")
        )
    }
    assert heavy == {"pokercert.cli.main"}
    # the engine, the rulesets and their TOML are not loaded to print a list of commands
    assert not loaded & {"pokercert.reference.engine", "pokercert.reference.rulesets"}


def test_a_command_imports_its_own_group_only():
    loaded = _modules_after(["rulesets", "--json"])
    assert "pokercert.cli.rules" in loaded
    assert not {m for m in loaded if m.startswith(("pokercert.harness.", "pokercert.reports"))}
    assert not loaded & {g.module for g in COMMAND_GROUPS} - {"pokercert.cli.rules"}


@pytest.mark.parametrize("command", [name for g in COMMAND_GROUPS for name, _ in g.commands])
def test_every_listed_command_is_registered_by_its_module(command, capsys):
    with pytest.raises(SystemExit) as done:
        main([command, "--help"])
    assert done.value.code == 0
    assert capsys.readouterr().out.startswith(f"usage: pokercert {command} ")


def test_the_top_level_help_lists_every_command_with_its_line(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    shown = capsys.readouterr().out
    for group in COMMAND_GROUPS:
        for name, line in group.commands:
            assert name in shown and line.split()[0] in shown


def test_a_module_registering_an_unlisted_command_fails_loudly(monkeypatch):
    group = CommandGroup("tests.helpers.cli_groups", (("listed", "a listed command"),))
    monkeypatch.setattr(cli_main, "COMMAND_GROUPS", (group,))
    with pytest.raises(LookupError, match=r"'unlisted'.*COMMAND_GROUPS"):
        build_parser("listed")
