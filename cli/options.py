"""Checks of command-line input, shared by the commands: one clear line, exit code 3.

Two kinds of helper:

* argparse ``type=`` functions for numeric options (:func:`positive_float`,
  :func:`positive_int`, :func:`nonnegative_int`): argparse turns their complaint into
  ``pokercert CMD: error: argument --timeout: ...`` and exit code 3;
* checks of the paths an option names (:func:`out_folder`, :func:`out_file`,
  :func:`write_file`), raising :class:`UsageError` with the option, the path and what
  is wrong, before any work is done (a folder that cannot be written is found before a
  long run, not after it).

And the options several command groups share (:func:`profile_arg`,
:func:`adapter_args`, :func:`lab_args`) with :func:`print_json`, the one ``--json``
output form.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from pokercert.reference.errors import InputError
from pokercert.reference.names import unknown_name


class UsageError(InputError):
    """Bad command-line input: printed without a traceback, exit code 3."""


NOT_JSON = "reply is not JSON"  # harness.protocol's words for a line that is not a reply
STDOUT_CURE = "stdout carries the protocol alone: write logs and debug prints to stderr"


def adapter_advice(message: str) -> str:
    """``message`` (an adapter error's words) with what to do about it, where the words
    say the adapter wrote something that is not a reply (a debug print before its hello,
    say): the line it wrote is in ``message`` already; the cure is not."""
    if NOT_JSON in message and STDOUT_CURE not in message:
        return f"{message}\n{STDOUT_CURE}"
    return message


class Subparsers(Protocol):
    """What a command group's ``register`` is given: ``add_parser`` of argparse's
    subparsers action (named here, so no command names argparse's private class)."""

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser: ...


def _number(text: str, kind: type[int] | type[float]) -> float | int:
    try:
        value: float | int = kind(text)
    except ValueError:
        noun = "an integer" if kind is int else "a number"
        raise argparse.ArgumentTypeError(f"expected {noun}, got {text!r}") from None
    if isinstance(value, float) and not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"expected a finite number, got {text!r}")
    return value


def positive_float(text: str) -> float:
    """An argparse type: a finite number greater than 0 (seconds, ...)."""
    value = float(_number(text, float))
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be greater than 0, got {text!r}")
    return value


def positive_int(text: str) -> int:
    """An argparse type: an integer of at least 1."""
    value = int(_number(text, int))
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {text!r}")
    return value


def hand_range(text: str) -> tuple[int, int]:
    """An argparse type: ``START..STOP``, two integers with 0 <= START < STOP."""
    start, sep, stop = text.partition("..")
    try:
        lo, hi = int(start.replace("_", "")), int(stop.replace("_", ""))
    except ValueError:
        lo = hi = -1
    if not sep or not 0 <= lo < hi:
        raise argparse.ArgumentTypeError(
            f"expected START..STOP with 0 <= START < STOP, got {text!r}"
        )
    return lo, hi


def nonnegative_int(text: str) -> int:
    """An argparse type: an integer of at least 0."""
    value = int(_number(text, int))
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be at least 0, got {text!r}")
    return value


def shard_text(text: str) -> str:
    """An argparse type for ``--shard K/N``: checked as it is read (before any other
    option is weighed against it), kept as typed."""
    from pokercert.harness.run.selection import SelectionError, parse_shard

    try:
        parse_shard(text)
    except SelectionError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


# usual names that are not the format's name in pokercert
FORMAT_ALIASES = {
    "md": "markdown",
    "htm": "html",
    "xml": "junit",
    "junit-xml": "junit",
    "junitxml": "junit",
}


def choice(names: Sequence[str], what: str = "format") -> Callable[[str], str]:
    """An argparse type: one of ``names``; anything else is refused with the right name
    suggested (``md`` -> ``markdown``)."""

    def check(text: str) -> str:
        if text in names:
            return text
        guess = FORMAT_ALIASES.get(text.lower())
        if guess in names:
            raise argparse.ArgumentTypeError(
                f"unknown {what} {text!r}; did you mean {guess!r}? (known: {', '.join(names)})"
            )
        raise argparse.ArgumentTypeError(unknown_name(what, text, names))

    check.__name__ = what  # argparse names the type in some messages
    return check


def _writable(folder: Path, shown: Path, option: str) -> None:
    """``folder`` exists and can be written in, or its nearest existing ancestor can."""
    base = folder
    while not base.exists() and base != base.parent:
        base = base.parent
    if not base.is_dir():
        raise UsageError(f"{option} {shown}: {base} is not a folder")
    try:
        with tempfile.TemporaryFile(dir=base, prefix=".pokercert-probe-"):
            pass
    except OSError as exc:
        raise UsageError(
            f"{option} {shown}: cannot write in {base} ({exc.strerror or exc})"
        ) from None


def out_folder(path: Path, option: str = "--out", create: bool = False) -> Path:
    """Make sure ``path`` is, or can be made, a folder this process can write in; else
    a :class:`UsageError` naming the option and the path.  Nothing is created unless
    ``create`` (a usage error found later leaves no empty folder behind)."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise UsageError(f"{option} {path}: exists and is not a folder")
    _writable(path, path, option)
    if create:
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UsageError(
                f"{option} {path}: cannot create the folder ({exc.strerror or exc})"
            ) from None
    return path


def out_file(path: Path, option: str = "--out") -> Path:
    """Make sure ``path`` can be written as a file: not a folder, and its folder a
    writable folder or one that can be made; else a :class:`UsageError`."""
    path = Path(path)
    if path.is_dir():
        raise UsageError(f"{option} {path}: is a folder, not a file")
    _writable(path.parent, path, option)
    return path


def write_file(path: Path, data: bytes, option: str = "--out") -> None:
    """Write ``data`` to ``path`` (making its folder); a failure is a
    :class:`UsageError` naming the option."""
    try:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_bytes(data)
    except OSError as exc:
        raise UsageError(f"{option} {path}: cannot write ({exc.strerror or exc})") from None


_PATHLIKE_SUFFIXES = (".txt", ".md", ".toml", ".json")


def text_or_file(text: str, option: str) -> str:
    """An option that takes TEXT or a FILE: the file's text if ``text`` names a file.

    One word that looks like a path (a ``/`` in it, or a ``.txt``/``.md`` ending) but
    names no file is refused: a mistyped file name must not become the text itself.
    """
    path = Path(text)
    try:
        is_file = path.is_file()
    except (OSError, ValueError):  # a name too long for the file system, a NUL, ...
        is_file = False
    if not is_file:
        word = text.strip()
        if (
            word
            and not any(c.isspace() for c in word)
            and (os.sep in word or word.lower().endswith(_PATHLIKE_SUFFIXES))
        ):
            raise UsageError(
                f"{option} {text}: no such file (to give the text itself, write it in words)"
            )
        return text
    try:
        return path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
        raise UsageError(f"{option} {path}: cannot read the file ({why})") from None


def print_json(data: Any) -> None:
    """The stable machine-readable form every ``--json`` option prints."""
    print(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False))


def profile_arg(parser: argparse.ArgumentParser) -> None:
    """The one ``--profile`` option every scoring command takes."""
    parser.add_argument(
        "--profile",
        default="practice",
        help="interpretation profile: practice (default), literal, or a TOML file",
    )


def adapter_args(p: argparse.ArgumentParser, default: str | None) -> None:
    """The adapter options every command that runs an evaluator shares (``--adapter``,
    timeouts, restarts, resource limits)."""
    p.add_argument(
        "--adapter",
        default=default,
        required=default is None,
        metavar="SPEC",
        help="NAME (an installed adapter), py:module:attr, or exec:COMMAND"
        + (f" (default: {default})" if default else ""),
    )
    p.add_argument(
        "--timeout",
        type=positive_float,
        default=10.0,
        metavar="S",
        help="per-request timeout in seconds (default: %(default)s)",
    )
    p.add_argument(
        "--max-restarts",
        type=nonnegative_int,
        default=50,
        metavar="N",
        help="restarts of a crashing exec: adapter before giving up (default: %(default)s)",
    )
    p.add_argument(
        "--max-memory",
        type=positive_int,
        metavar="MB",
        help="address-space limit of an exec: adapter (POSIX)",
    )
    p.add_argument(
        "--max-cpu",
        type=positive_int,
        metavar="S",
        help="CPU-time limit of an exec: adapter process (POSIX)",
    )
    p.add_argument(
        "--no-sandbox",
        dest="sandbox",
        action="store_false",
        help="run an exec: adapter without the sandbox (bubblewrap: no network, "
        "the corpus, the run folder and the caches hidden); the run records it",
    )


def dask_args(p: argparse.ArgumentParser, work: str) -> None:
    """``--dask SCHEDULER`` and ``--workers N``: ``work`` (the run's shards, an exhaustive
    pass's hand ranges) as Dask tasks, each worker with its own adapter (the optional extra
    ``pokercert[dask]``); ``run`` and ``exhaustive`` both declare them here."""
    p.add_argument(
        "--dask",
        metavar="SCHEDULER",
        help=f"run {work} as tasks on the dask.distributed scheduler at SCHEDULER "
        "(tcp://host:8786); each worker starts its own adapter (extra: "
        "pokercert[dask])",
    )
    p.add_argument(
        "--workers",
        type=positive_int,
        default=1,
        metavar="N",
        help=f"with N > 1 and no --dask: {work} on a local Dask cluster of N "
        "worker processes (default: %(default)s, one process, no Dask)",
    )


# the lab's own statements about a run: option -> key in run.json "lab" and the report
LAB_OPTIONS = {
    "lab": "--lab",
    "engineer": "--engineer",
    "submission_id": "--submission-id",
    "scope": "--scope",
}


def lab_args(p: argparse.ArgumentParser) -> None:
    """``--lab``, ``--engineer``, ``--submission-id`` and ``--scope`` (``run``, ``report``)."""
    p.add_argument("--lab", metavar="NAME", help="the testing laboratory (shown in reports)")
    p.add_argument("--engineer", metavar="NAME", help="the engineer responsible for the run")
    p.add_argument("--submission-id", metavar="ID", help="the lab's submission reference")
    p.add_argument(
        "--scope",
        metavar="TEXT|FILE",
        help="what the certification covers: text, or a file holding it",
    )


def lab_fields(args: argparse.Namespace) -> dict[str, str]:
    """The lab fields given on the command line (``--scope FILE``: the file's text);
    empty values are refused."""
    out = {}
    for key, option in LAB_OPTIONS.items():
        value = getattr(args, key, None)
        if value is None:
            continue
        if key == "scope":
            value = text_or_file(value, option)
        if not value.strip():
            raise UsageError(f"{option}: empty")
        out[key] = value
    return out
