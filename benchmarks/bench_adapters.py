"""Exhaustive five-card runs per shipped adapter: whole command, adapter batch path, bare loop.

    python benchmarks/bench_adapters.py [--adapters reference,treys,...] [--repeat 3]
                                        [--python PYTHON]

For each adapter, over all 2,598,960 hands of nj-poker-high-5 (the order of
``combinations(DECK, 5)``), in one run, side by side:

* **bare**: the library's own loop over the hands already in its own card type (the
  floor for any Python caller; for phevaluator also its C entry point
  ``_pheval.evaluate_5cards``, for pokerkit both its ``Hand`` class and its lookup; the
  reference's bare loop is ``Evaluator.value`` on parsed cards);
* **adapter**: the adapter's ``evaluate_many`` on the same hands, in batches of 4,096
  given as :class:`~pokercert.harness.api.Hands` of codes, exactly as exhaustive gives
  them (the conversion layer: codes -> the library's cards -> categories and keys);
* **command**: ``pokercert exhaustive --adapter NAME --ruleset nj-poker-high-5`` in a
  child process (start-up, the reference's classes, enumeration and checking included),
  its CPU time from the child's rusage.

Columns are CPU seconds (steadier than wall time on a shared machine; wall is printed
too) and the ratios adapter/bare and command/bare against the floor named in the
``vs`` column.  ``--repeat K`` interleaves K rounds and keeps each path's fastest.
``--python`` runs the command with another interpreter (e.g. another checkout's venv,
for a before/after in one run; the bare and adapter columns always use this one).
``--shard N`` times the first 1/N of the hands on every path (the command's ``--shard
1/N``): the adapter/bare ratio does not depend on N, but the command's fixed costs
(start-up, the reference's classes of the whole space) weigh N times more.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, version
from itertools import combinations, islice
from typing import Any

from _timing import Clock
from tabulate import tabulate

from pokercert.harness.api import Hands
from pokercert.reference import DECK, evaluator

RULESET = "nj-poker-high-5"
FIVE = 2_598_960
BATCH = 4096
CANONICAL = [str(c) for c in DECK]


# ---------------------------------------------------------------- bare loops
# each: {label: (cpu s, wall s)} of the library's own loop over every hand
HANDS = FIVE  # hands timed: the first FIVE // --shard of the enumeration


def _combinations(deck: Any) -> Any:
    return islice(combinations(deck, 5), HANDS)


def _timed(fn: Callable[[], list[Any]]) -> tuple[float, float]:
    with Clock() as clock:
        values = fn()
    assert len(values) == HANDS, len(values)
    return clock.cpu, clock.wall


def _bare_reference() -> dict[str, tuple[float, float]]:
    value = evaluator(RULESET).value
    return {"Evaluator.value": _timed(lambda: [value(h) for h in _combinations(DECK)])}


def _bare_treys() -> dict[str, tuple[float, float]]:
    from treys import Card, Evaluator

    evaluate = Evaluator().evaluate
    deck = [Card.new(c) for c in CANONICAL]
    return {
        "Evaluator.evaluate": _timed(lambda: [evaluate(list(h), []) for h in _combinations(deck)])
    }


def _bare_eval7() -> dict[str, tuple[float, float]]:
    import eval7

    evaluate = eval7.evaluate
    deck = [eval7.Card(c) for c in CANONICAL]
    return {"eval7.evaluate": _timed(lambda: [evaluate(h) for h in _combinations(deck)])}


def _bare_phevaluator() -> dict[str, tuple[float, float]]:
    from phevaluator import _pheval
    from phevaluator.card import Card
    from phevaluator.evaluator import evaluate_5cards

    deck = [Card(c).id_ for c in CANONICAL]
    native = _pheval.evaluate_5cards
    return {
        "evaluate_5cards": _timed(lambda: [evaluate_5cards(*h) for h in _combinations(deck)]),
        "C entry (_pheval)": _timed(lambda: [native(*h) for h in _combinations(deck)]),
    }


def _bare_pokerkit() -> dict[str, tuple[float, float]]:
    from pokerkit import Card, StandardHighHand

    deck = [next(iter(Card.parse(c))) for c in CANONICAL]
    get_entry = StandardHighHand.lookup.get_entry
    return {
        "StandardHighHand(h).entry": _timed(
            lambda: [StandardHighHand(h).entry for h in _combinations(deck)]
        ),
        "lookup.get_entry": _timed(lambda: [get_entry(h) for h in _combinations(deck)]),
    }


BARE: dict[str, tuple[str, Callable[[], dict[str, tuple[float, float]]]]] = {
    "reference": ("pokercert", _bare_reference),
    "treys": ("treys", _bare_treys),
    "eval7": ("eval7", _bare_eval7),
    "phevaluator": ("phevaluator", _bare_phevaluator),
    "pokerkit": ("pokerkit", _bare_pokerkit),
}


# ---------------------------------------------------------------- adapter batch path
def _batches() -> list[list[int]]:
    """Every hand as codes (positions in CODED_CARDS = DECK order), in batches."""
    hands = islice(combinations(range(len(DECK)), 5), HANDS)
    out = []
    while chunk := list(islice(hands, BATCH)):
        out.append([c for h in chunk for c in h])
    return out


def _adapter(name: str, batches: list[list[int]]) -> tuple[float, float]:
    from pokercert.harness.adapters.spec import parse_spec, resolve

    ev = resolve(parse_spec(name))[0]
    ev.configure(RULESET, {})
    many = ev.evaluate_many
    with Clock() as clock:
        n = 0
        for codes in batches:
            categories, _ = many(Hands(None, 5, codes[:]))
            n += len(categories)
    assert n == HANDS, n
    return clock.cpu, clock.wall


# ---------------------------------------------------------------- whole command
def _command(python: str, name: str, shard: int) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as out:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        done = subprocess.run(
            [
                python,
                "-m",
                "pokercert.cli",
                "exhaustive",
                "--adapter",
                name,
                "--ruleset",
                RULESET,
                "--out",
                out,
                "--shard",
                f"1/{shard}",
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        wall = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0 or "AGREES" not in done.stdout:
        sys.exit(f"{name}: exhaustive exited {done.returncode}:\n{done.stdout}\n{done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def _installed(dist: str) -> str | None:
    try:
        return version(dist)
    except PackageNotFoundError:
        return None


def _parser() -> argparse.ArgumentParser:
    """The command line: which adapters, how many rounds, which interpreter, which shard."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--adapters", default=",".join(BARE), help=f"comma-separated subset of {', '.join(BARE)}"
    )
    parser.add_argument("--repeat", type=int, default=1, help="rounds; each path keeps its best")
    parser.add_argument(
        "--python",
        default=sys.executable,
        help="interpreter that runs the whole command (default: this one)",
    )
    parser.add_argument(
        "--shard",
        type=int,
        default=1,
        metavar="N",
        help="time the first 1/N of the hands (default: all)",
    )
    parser.add_argument(
        "--skip-command", action="store_true", help="bare loops and adapter batch paths only"
    )
    return parser


def _best_times(
    args: argparse.Namespace, names: list[str]
) -> dict[tuple[str, str], tuple[float, float]]:
    """(adapter, path) -> its best (cpu, wall) over ``args.repeat`` rounds of every path:
    the bare loops, the adapter's batch path and (unless skipped) the whole command."""
    batches = _batches()
    best: dict[tuple[str, str], tuple[float, float]] = {}

    def keep(key: tuple[str, str], got: tuple[float, float]) -> None:
        if key not in best or got[0] < best[key][0]:
            best[key] = got

    for _ in range(args.repeat):
        for name in names:
            for label, got in BARE[name][1]().items():
                keep((name, "bare: " + label), got)
            keep((name, "adapter"), _adapter(name, batches))
            if not args.skip_command:
                keep((name, "command"), _command(args.python, name, args.shard))
    return best


def _rows(
    names: list[str], best: dict[tuple[str, str], tuple[float, float]], skip_command: bool
) -> list[list[str]]:
    """One table row per (adapter, path), its cpu time also as a multiple of the adapter's
    fastest bare loop (the floor)."""
    rows = []
    for name in names:
        bares = {k[1]: v for k, v in best.items() if k[0] == name and k[1].startswith("bare")}
        floor_label, floor = min(bares.items(), key=lambda kv: kv[1][0])
        for label, (cpu, wall) in [
            *bares.items(),
            ("adapter", best[(name, "adapter")]),
            *([("command", best[(name, "command")])] if not skip_command else []),
        ]:
            rows.append(
                [
                    name,
                    f"{_installed(BARE[name][0])}",
                    label,
                    f"{cpu:.2f}",
                    f"{wall:.2f}",
                    f"{cpu / floor[0]:.2f}",
                    floor_label.removeprefix("bare: "),
                ]
            )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    names = [n for n in args.adapters.split(",") if n]
    unknown = [n for n in names if n not in BARE]
    if unknown:
        parser.error(f"unknown adapters {unknown}; known: {', '.join(BARE)}")
    names = [n for n in names if _installed(BARE[n][0]) is not None]
    global HANDS
    HANDS = FIVE // args.shard

    print(
        f"python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} CPUs, "
        f"load average {os.getloadavg()[0]:.1f}; command run by {args.python}; "
        f"{HANDS:,} hands"
    )
    best = _best_times(args, names)
    print(
        tabulate(
            _rows(names, best, args.skip_command),
            headers=["adapter", "version", "path", "cpu s", "wall s", "x floor (cpu)", "vs"],
            disable_numparse=True,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
