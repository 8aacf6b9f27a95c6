"""The ``pokercert`` command line.

Each group of subcommands lives in its own module of this package and exposes
``register(subparsers)``: it adds its parsers and sets ``func`` on each, a callable
taking the parsed arguments and returning the exit code.  :data:`COMMAND_GROUPS` lists
them explicitly: a command module that fails to import fails the command line, loudly.

Exit codes (all commands, :class:`ExitCode`): 0 compliant / ok, 1 non-compliant (a
verdict, a refused report, or a corpus error found by ``vectors check``), 2 adapter or
harness error, 3 usage error.  Library code raises :class:`PokercertError` kinds;
:data:`EXIT_CODES` is the one table that turns them into exit codes.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import NoReturn

from pokercert.cli import explore, reports, rules, run, selfcheck, vectors
from pokercert.harness.adapters import AdapterAborted, AdapterError
from pokercert.reference.errors import ExitCode, InputError, PokercertError
from pokercert.reports.model import ReportRefused

__all__ = ["COMMAND_GROUPS", "EXIT_CODES", "ExitCode", "build_parser", "main"]

# the command groups, in the order ``pokercert --help`` lists their commands
COMMAND_GROUPS: tuple[ModuleType, ...] = (rules, vectors, run, reports, explore, selfcheck)

# exception -> (exit code, how the message starts); the first class that matches wins,
# so a narrower class comes before the class it derives from
EXIT_CODES: tuple[tuple[type[BaseException], ExitCode, str], ...] = (
    (ReportRefused, ExitCode.NONCOMPLIANT, "refused: "),      # a ReportError, so first
    (InputError, ExitCode.USAGE, "error: "),
    (AdapterAborted, ExitCode.ERROR, "the harness gave up on the adapter: "),
    (AdapterError, ExitCode.ERROR, "adapter error: "),
    (PokercertError, ExitCode.ERROR, "error: "),
)

DEFAULT_COMMAND = "run"   # `pokercert` alone certifies the bundled reference


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # argparse exits 2; we reserve 2 for harness errors.  One line, like every
        # other usage error (the usage text is one --help away)
        self.exit(ExitCode.USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The parser of every command of :data:`COMMAND_GROUPS`."""
    from pokercert.harness import __version__

    parser = _Parser(prog="pokercert", description="Certify poker hand evaluators against "
                     "regulations, clause by clause.")
    parser.add_argument("--version", action="version", version=f"pokercert {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for group in COMMAND_GROUPS:
        group.register(sub)
    return parser


def exit_code_of(exc: BaseException) -> tuple[ExitCode, str] | None:
    """The exit code and message prefix :data:`EXIT_CODES` gives ``exc`` (None: not ours)."""
    for kind, code, prefix in EXIT_CODES:
        if isinstance(exc, kind):
            return code, prefix
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``pokercert`` console script."""
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv:
        argv = [DEFAULT_COMMAND]
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:      # a usage error is a return code, like any other error
        if exc.code == ExitCode.USAGE:   # (--help and --version still exit)
            return ExitCode.USAGE
        raise
    func: Callable[[argparse.Namespace], int] | None = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return ExitCode.USAGE
    try:
        return int(func(args))
    except PokercertError as exc:
        code, prefix = exit_code_of(exc) or (ExitCode.ERROR, "error: ")
        print(f"pokercert {args.command}: {prefix}{exc}", file=sys.stderr)
        return code
    except BrokenPipeError:
        return ExitCode.OK


if __name__ == "__main__":
    sys.exit(main())
