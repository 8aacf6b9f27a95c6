"""The ``pokercert`` command line.

Each group of subcommands lives in its own module of this package and exposes
``register(subparsers)``: it adds its parsers and sets ``func`` on each, a callable
taking the parsed arguments and returning the exit code.  :data:`COMMAND_GROUPS` lists
them explicitly, each command with the one line ``pokercert --help`` shows for it: the
one place commands are listed.  A group's module is imported only when one of its
commands runs (or shows its own help), so ``pokercert --help`` or ``pokercert rules``
never imports the harness or the reports.  A command module that fails to import fails
its commands, loudly; one that registers a command the list does not hold fails too.

Exit codes (all commands, :class:`ExitCode`): 0 ok, 1 a finding (a failure, a NOT
CERTIFIED verdict, a refused report, or a corpus error found by ``vectors check``), 2
adapter or harness error (INCOMPLETE), 3 usage error.  Library code raises
:class:`PokercertError` kinds; :func:`exit_codes` is the one table that turns them into
exit codes.  Outcomes map to codes in one place each: a report's verdict by
``reports.model.REPORT_EXIT_CODES`` (``report``: 0 CERTIFIED, 1 NOT CERTIFIED, 2
INCOMPLETE), a verification by ``reports.verify.conclude`` (``verify``: GENUINE: CERTIFIED
0, GENUINE: NOT CERTIFIED 1, GENUINE: INCOMPLETE 2, NOT GENUINE 1), a run by
``harness.run.outcome.exit_code_for`` (``run``, ``merge``: 0 no failure beyond what an
expectations file predicts, 1 a failure, 2 the run did not finish; the run's last line
is its report's verdict); the run's code and the report's both come from
``harness.run.outcome.exit_code``, the one mapping of a certification's outcome.
"""

from __future__ import annotations

import argparse
import sys
from functools import cache

from pokercert.reference.errors import ExitCode, InputError, PokercertError

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing; mypy knows it)
if TYPE_CHECKING:  # annotations only: this module is all `pokercert --help` imports
    from collections.abc import Callable, Sequence
    from types import ModuleType
    from typing import Any, NoReturn

__all__ = ["COMMAND_GROUPS", "CommandGroup", "ExitCode", "build_parser", "exit_codes", "main"]


class CommandGroup:
    """A module of commands, imported on use (its ``register(subparsers)`` adds them),
    and its commands: (name, the line ``pokercert --help`` shows), in that order.

    (A plain class: a dataclass would import ``inspect`` and more into every start.)"""

    __slots__ = ("commands", "module")

    def __init__(self, module: str, commands: tuple[tuple[str, str], ...]) -> None:
        self.module = module
        self.commands = commands

    def load(self) -> ModuleType:
        import importlib

        return importlib.import_module(self.module)

    def help(self, command: str) -> str | None:
        return dict(self.commands).get(command)


# the command groups, in the order ``pokercert --help`` lists their commands
COMMAND_GROUPS: tuple[CommandGroup, ...] = (
    CommandGroup(
        "pokercert.cli.rules",
        (
            ("rulesets", "list the rulesets (ids, citations, clause counts)"),
            ("rules", "one ruleset: citation, clauses, categories, interpretations"),
            ("interpretations", "the catalogue of ambiguous clauses, their readings and vectors"),
            ("evaluate", "classify a hand with the reference evaluator"),
            ("compare", "decide a showdown between hands with the reference"),
            (
                "showdown",
                "a poker-room showdown: who wins each half of the pot and each "
                "player's exact share",
            ),
        ),
    ),
    CommandGroup(
        "pokercert.cli.vectors", (("vectors", "check, measure and extend the vector corpus"),)
    ),
    CommandGroup(
        "pokercert.cli.run",
        (
            ("run", "run the corpus against an evaluator (default: certify the reference)"),
            ("merge", "join the run folders of the shards of one run"),
            ("smoke", "a dozen trivial requests: is the adapter itself sound?"),
        ),
    ),
    CommandGroup(
        "pokercert.cli.reports",
        (
            ("report", "write certification reports from a results folder"),
            ("verify", "check a report is genuine (and optionally re-run it)"),
            ("diff", "what changed per vector between two runs"),
            ("keygen", "make an Ed25519 key pair for signing reports"),
        ),
    ),
    CommandGroup(
        "pokercert.cli.explore",
        (
            ("fuzz", "differential fuzzing of an evaluator against the reference"),
            ("exhaustive", "every hand of a ruleset: categories and equivalence classes"),
        ),
    ),
    CommandGroup(
        "pokercert.cli.selfcheck",
        (("selfcheck", "prove the corpus fails every deliberately broken evaluator"),),
    ),
    CommandGroup(
        "pokercert.cli.new_adapter",
        (("new-adapter", "write a skeleton adapter (protocol layer done, stub evaluator)"),),
    ),
    CommandGroup("pokercert.cli.site", (("site", "a static site: rulesets, vectors and results"),)),
)


@cache
def exit_codes() -> tuple[tuple[type[BaseException], ExitCode, str], ...]:
    """Exception -> (exit code, how the message starts); the first class that matches
    wins, so a narrower class comes before the class it derives from.  (A function, so
    that the harness and reports are imported when an error is turned into a code, not
    by every start of the command line.)"""
    from pokercert.harness.adapters import AdapterAborted, AdapterError
    from pokercert.reports.model import ReportRefused

    return (
        (ReportRefused, ExitCode.NONCOMPLIANT, "refused: "),  # a ReportError, so first
        (InputError, ExitCode.USAGE, "error: "),
        (AdapterAborted, ExitCode.ERROR, "the harness gave up on the adapter: "),
        (AdapterError, ExitCode.ERROR, "adapter error: "),
        (PokercertError, ExitCode.ERROR, "error: "),
    )


DEFAULT_COMMAND = "run"  # `pokercert` alone certifies the bundled reference


class _Parser(argparse.ArgumentParser):
    command: str | None = None  # the command the parser was built for (build_parser)

    def error(self, message: str) -> NoReturn:
        # argparse exits 2; we reserve 2 for harness errors.  One line, like every
        # other usage error (the usage text is one --help away)
        if message.startswith("unrecognized arguments: "):
            message += self._option_hints(message.split(": ", 1)[1].split())
        self.exit(ExitCode.USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")

    def _option_hints(self, words: list[str]) -> str:
        """``; did you mean '--ruleset'?`` for a mistyped option of the command."""
        from pokercert.reference.names import did_you_mean

        options = list(self._option_string_actions)
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction) and self.command in action.choices:
                options += list(action.choices[self.command]._option_string_actions)
        long = [o[2:] for o in options if o.startswith("--")]  # compared without "--"
        return "".join(
            did_you_mean(w.split("=")[0][2:], long, "--") for w in words if w.startswith("--")
        )


class _Version(argparse.Action):
    """``--version``: the installed version, looked up only when asked for."""

    def __init__(
        self,
        option_strings: list[str],
        dest: str = argparse.SUPPRESS,
        default: str = argparse.SUPPRESS,
        help: str | None = None,
    ) -> None:
        super().__init__(option_strings, dest, nargs=0, default=default, help=help)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        from pokercert.harness import __version__

        print(f"pokercert {__version__}")  # an answer, not a diagnostic: stdout
        parser.exit()


class _Listed:
    """The subparsers as one group's ``register`` sees them: each command it adds must
    be listed in its :class:`CommandGroup`, whose line is the command's help."""

    def __init__(self, sub: Any, group: CommandGroup) -> None:
        self._sub, self._group = sub, group

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser:
        text = self._group.help(name)
        if text is None or "help" in kwargs:
            raise LookupError(
                f"{self._group.module} registers the command {name!r}: "
                "list it (with its help line) in COMMAND_GROUPS "
                "(pokercert.cli.main), and only there"
            )
        parser: argparse.ArgumentParser = self._sub.add_parser(name, help=text, **kwargs)
        return parser


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command of :data:`COMMAND_GROUPS`: in full for the group of
    ``command`` (its module imported), the others by name and help line only."""
    parser = _Parser(
        prog="pokercert",
        description="Certify poker hand evaluators against regulations, clause by clause.",
    )
    parser.add_argument("--version", action=_Version, help="show the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for group in COMMAND_GROUPS:
        if group.help(command or "") is not None:
            group.load().register(_Listed(sub, group))
            continue
        for name, text in group.commands:  # a stand-in: its arguments are not read here
            sub.add_parser(name, help=text, add_help=False)
    return parser


def _command(argv: list[str]) -> str | None:
    """The command ``argv`` names, read by the parser of names alone (so ``--help``,
    ``--version`` and an unknown command are answered without importing any group).
    A first word that is a listed command is that command: then the one parser made is
    the command's own (the top level has no option taking a value)."""
    if argv and any(argv[0] == name for g in COMMAND_GROUPS for name, _ in g.commands):
        return argv[0]
    args, _ = build_parser().parse_known_args(argv)
    command: str | None = args.command
    return command


def exit_code_of(exc: BaseException) -> tuple[ExitCode, str] | None:
    """The exit code and message prefix :func:`exit_codes` gives ``exc`` (None: not ours)."""
    for kind, code, prefix in exit_codes():
        if isinstance(exc, kind):
            return code, prefix
    return None


# commands whose process ends without the interpreter's teardown (:func:`exit_now`) when
# main() is the process's entry point: a certification run leaves a heap (the corpus, the
# plan, every result, the reference's tables) whose teardown took 0.5-0.8 s of wall time
QUICK_EXIT = frozenset({"run"})


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``pokercert`` console script (and ``python -m pokercert.cli``).

    Called without ``argv`` (as the process's entry point), a command of
    :data:`QUICK_EXIT` ends the process itself once it has finished
    (:func:`exit_now`); called with ``argv`` (from Python), it returns the exit code."""
    entry = argv is None
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv:
        argv = [DEFAULT_COMMAND]
    try:
        command = _command(argv)
        parser = build_parser(command)
        if isinstance(parser, _Parser):
            parser.command = command
        args = parser.parse_args(argv)
    except SystemExit as exc:  # a usage error is a return code, like any other error
        if exc.code == ExitCode.USAGE:  # (--help and --version still exit)
            return ExitCode.USAGE
        raise
    func: Callable[[argparse.Namespace], int] | None = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return ExitCode.USAGE
    quick = entry and args.command in QUICK_EXIT
    try:
        code = int(func(args))
    except PokercertError as exc:
        from pokercert.cli.options import adapter_advice

        code, prefix = exit_code_of(exc) or (ExitCode.ERROR, "error: ")
        said = str(exc) if code == ExitCode.USAGE else adapter_advice(str(exc))
        print(f"pokercert {args.command}: {prefix}{said}", file=sys.stderr)
    except BrokenPipeError:
        return ExitCode.OK
    if quick:
        exit_now(code)
    return code


def exit_now(code: int) -> None:
    """End the process with ``code`` as the interpreter's own exit would, less its
    teardown (freeing every object one by one: 0.5-0.8 s of wall time after a default
    run): every ``atexit`` hook runs (the reference's value cache is written by one),
    then every open file and stream is flushed, then ``os._exit(code)``.

    Returns (and the interpreter exits as usual) when that would not be the same: while
    another thread is alive (the interpreter joins them first), or when flushing a
    stream fails (the interpreter reports it and exits 120: a pipe closed early)."""
    import atexit
    import threading

    if threading.active_count() > 1:
        return
    atexit._run_exitfuncs()
    if threading.active_count() > 1:  # a hook started one
        return
    import gc
    import io
    import os

    # files opened and never closed (the teardown would flush them): text layers first,
    # then the buffers beneath them; stdout and stderr last
    files = [
        obj
        for obj in gc.get_objects()
        if isinstance(obj, io.IOBase) and obj is not sys.stdout and obj is not sys.stderr
    ]
    files.sort(key=lambda f: not isinstance(f, io.TextIOBase))
    try:
        for f in files:
            if not f.closed and f.writable():
                f.flush()
        sys.stdout.flush()
        sys.stderr.flush()
    except Exception:  # any failure: the interpreter exits as it would have
        return
    os._exit(code)


if __name__ == "__main__":
    sys.exit(main())
