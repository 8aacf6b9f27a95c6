"""The ``pokercert`` command line.

Each group of subcommands lives in its own module that exposes
``register(subparsers)``; the module adds its parsers and sets ``func`` on each, a
callable taking the parsed arguments and returning the exit code.

Exit codes (all commands): 0 compliant / ok, 1 non-compliant (a verdict, or a corpus
error found by ``vectors check``), 2 adapter or harness error, 3 usage error.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Sequence
from typing import Any

EXIT_OK, EXIT_NONCOMPLIANT, EXIT_ERROR, EXIT_USAGE = 0, 1, 2, 3

COMMAND_MODULES = (
    "pokercert.harness.cmd_rules",
    "pokercert.vectors.cmd",
    "pokercert.harness.cmd_run",
    "pokercert.reports.cmd",
    "pokercert.harness.cmd_fuzz",
    "pokercert.harness.cmd_selfcheck",
)


class UsageError(Exception):
    """Bad command-line input: printed without a traceback, exit code 3."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse exits 2; we reserve 2 for harness errors
        # one line, like every other usage error (the usage text is one --help away)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def print_json(data: Any) -> None:
    """The stable machine-readable form every ``--json`` option prints."""
    print(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False))


def profile_arg(parser: argparse.ArgumentParser) -> None:
    """The one ``--profile`` option every scoring command takes."""
    parser.add_argument("--profile", default="practice",
                        help="interpretation profile: practice (default), literal, or a TOML file")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="pokercert", description="Certify poker hand evaluators against "
                     "regulations, clause by clause.")
    from pokercert.harness import __version__
    parser.add_argument("--version", action="version", version=f"pokercert {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:  # a command group not built yet
                continue
            raise
        module.register(sub)
    return parser


def _commands(parser: argparse.ArgumentParser) -> set[str]:
    for action in parser._subparsers._group_actions if parser._subparsers else ():
        if isinstance(action, argparse._SubParsersAction):
            return set(action.choices)
    return set()


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``pokercert`` console script."""
    from pokercert.harness.adapters import AdapterAborted, AdapterError
    from pokercert.reference import CardError, RulesetError

    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv and "run" in _commands(parser):
        argv = ["run"]  # the main job on the bundled default: certify the reference
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:      # a usage error is a return code, like any other error
        if exc.code == EXIT_USAGE:   # (--help and --version still exit)
            return EXIT_USAGE
        raise
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_USAGE
    try:
        return int(args.func(args))
    except (UsageError, CardError, RulesetError) as exc:
        print(f"pokercert {args.command}: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except AdapterAborted as exc:    # (a command with more to say catches it itself)
        print(f"pokercert {args.command}: the harness gave up on the adapter: {exc}",
              file=sys.stderr)
        return EXIT_ERROR
    except AdapterError as exc:
        print(f"pokercert {args.command}: adapter error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
