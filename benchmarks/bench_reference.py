"""Exhaustive passes: the reference's batch path against the fastest PyPI evaluators.

Run:  python benchmarks/bench_reference.py [--peers treys,eval7,...] [--skip-peers]
      [--write-docs]

Part 1 values all 2,598,960 five-card hands (nj-poker-high-5) with the reference's
vectorised path (:mod:`pokercert.reference.batch`), timed cold: the hand enumeration and
the lookup table are built inside the timing, nothing is cached; a second row times the
same pass once the table exists (``Table.classify`` on all hands, validation included).
In the same run every installed peer values the same hands in its own fastest public
form: a list comprehension over ``itertools.combinations`` of the 52 cards already
converted to the peer's card type (the conversion of 52 cards is outside the timing).
The table prints wall and CPU seconds, hands per second, the ratios reference/peer
(below 1: the reference is faster) and, as a sanity check, the number of distinct values each
produced (7,462 for five-card high).

Part 2 times the reference's other exhaustive passes, cold as well: the three-card games
(22,100 hands), ace-to-five low and deuce-to-seven (2,598,960 each) and the two-card
pocket wager (1,326); PokerKit, the only peer that plays those games, runs the
three-card one.

Target (issues 2 and 4): the reference no slower than the fastest peer, and the other
passes as fast.  This is a benchmark, not a test: numbers depend on the machine.
``--write-docs`` rewrites the block ``reference-vs-peers`` of benchmarks/README.md with
both tables (benchmarks/_docs.py).
"""

from __future__ import annotations

import argparse
import platform
import sys
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, version
from itertools import combinations

from _docs import write_block
from _timing import Clock
from tabulate import tabulate

from pokercert.reference import DECK, batch

DOC_BLOCKS = {"reference-vs-peers": "benchmarks/README.md"}

CANONICAL = [str(c) for c in DECK]
FIVE = 2_598_960


def _cold_reference(ruleset: str) -> tuple[Clock, int, int]:
    """Timing of a cold exhaustive pass, hands valued, distinct values."""
    batch.hands.cache_clear()
    batch._table.cache_clear()
    batch._code_tables.cache_clear()
    with Clock() as clock:
        result = batch.classify_all(ruleset)
    return clock, len(result), result.distinct


# ------------------------------------------------------------------- peers' bare loops
# each returns (timing, values): the peer's own values for every hand, in a list
def _treys() -> tuple[Clock, list]:
    from treys import Card, Evaluator

    evaluate = Evaluator().evaluate
    deck = [Card.new(c) for c in CANONICAL]
    with Clock() as clock:
        values = [evaluate(list(h), []) for h in combinations(deck, 5)]
    return clock, values


def _eval7() -> tuple[Clock, list]:
    import eval7

    evaluate = eval7.evaluate
    deck = [eval7.Card(c) for c in CANONICAL]
    with Clock() as clock:
        values = [evaluate(h) for h in combinations(deck, 5)]
    return clock, values


def _phevaluator() -> tuple[Clock, list]:
    from phevaluator.card import Card
    from phevaluator.evaluator import evaluate_5cards

    deck = [Card(c).id_ for c in CANONICAL]
    with Clock() as clock:
        values = [evaluate_5cards(*h) for h in combinations(deck, 5)]
    return clock, values


def _phevaluator_native() -> tuple[Clock, list]:
    # the C function phevaluator's own evaluate_5cards calls: the floor for a Python caller
    from phevaluator import _pheval
    from phevaluator.card import Card

    evaluate = _pheval.evaluate_5cards
    deck = [Card(c).id_ for c in CANONICAL]
    with Clock() as clock:
        values = [evaluate(*h) for h in combinations(deck, 5)]
    return clock, values


def _holdem_hand_evaluator() -> tuple[Clock, list]:
    from holdem_hand_evaluator import evaluate_hand

    with Clock() as clock:
        values = [evaluate_hand("".join(h)) for h in combinations(CANONICAL, 5)]
    return clock, values


PEERS: dict[str, tuple[str, Callable[[], tuple[Clock, list]]]] = {
    "treys": ("treys", _treys),
    "eval7": ("eval7", _eval7),
    "phevaluator": ("phevaluator", _phevaluator),
    "phevaluator-native": ("phevaluator", _phevaluator_native),
    "holdem-hand-evaluator": ("holdem-hand-evaluator", _holdem_hand_evaluator),
}


def _installed(dist: str) -> str | None:
    try:
        return version(dist)
    except PackageNotFoundError:
        return None


def _pokerkit_three() -> Clock | None:
    if _installed("pokerkit") is None:
        return None
    from pokerkit import Card, RhodeIslandHoldemHand

    deck = [next(iter(Card.parse(c))) for c in CANONICAL]
    with Clock() as clock:
        values = [RhodeIslandHoldemHand(h).entry for h in combinations(deck, 3)]
    assert len(values) == 22_100
    return clock


def _part_one(wanted: list[str]) -> str:
    """Part 1: every five-card hand valued by the reference (cold, then with its table
    built) and by each ``wanted`` peer; printed, and returned as a GitHub table."""
    print(f"\nPart 1: all {FIVE:,} five-card hands (nj-poker-high-5)\n")
    ref, n, distinct = _cold_reference("nj-poker-high-5")
    assert n == FIVE

    def row(name: str, ver: str, clock: Clock, ratio: str, values: int) -> list[str]:
        return [
            name,
            ver,
            f"{clock.wall:.3f}",
            f"{clock.cpu:.3f}",
            f"{FIVE / clock.wall:,.0f}",
            ratio,
            str(values),
        ]

    rows = [row("reference (batch, cold)", "", ref, "1.00 / 1.00", distinct)]
    # warm: the lookup table exists (as in an exhaustive run that values hands in batches)
    with Clock() as warm:
        _, keys = batch.table("nj-poker-high-5").classify(batch.hands(5))
    rows.append(row("reference (batch, table built)", "", warm, "", len(set(keys.tolist()))))
    for name in wanted:
        dist, run = PEERS[name]
        ver = _installed(dist)
        if ver is None:
            rows.append([name, "not installed", "", "", "", "", ""])
            continue
        clock, values = run()
        assert len(values) == FIVE
        rows.append(
            row(
                name,
                ver,
                clock,
                f"{ref.wall / clock.wall:.2f} / {ref.cpu / clock.cpu:.2f}",
                len(set(values)),
            )
        )
    headers = [
        "evaluator",
        "version",
        "wall s",
        "cpu s",
        "hands/s",
        "reference/peer (wall / cpu)",
        "distinct values",
    ]
    print(tabulate(rows, headers=headers, disable_numparse=True))
    return tabulate(rows, headers=headers, tablefmt="github", disable_numparse=True)


def _part_two() -> str:
    """Part 2: the reference's other exhaustive passes, cold; printed, and returned as
    a GitHub table."""
    print("\nPart 2: the reference's other exhaustive passes (cold)\n")
    rows = []
    for ruleset in (
        "nj-poker-low-5",
        "nj-lowball-2-7",
        "nj-poker-high-3",
        "nj-mini-tex-3",
        "nj-poker-low-3",
        "nj-mini-tex-pocket",
    ):
        clock, n, distinct = _cold_reference(ruleset)
        rows.append(
            [
                ruleset,
                f"{n:,}",
                f"{clock.wall:.3f}",
                f"{clock.cpu:.3f}",
                f"{n / clock.wall:,.0f}",
                distinct,
            ]
        )
    headers = ["ruleset", "hands", "wall s", "cpu s", "hands/s", "distinct values"]
    print(tabulate(rows, headers=headers, disable_numparse=True))
    return tabulate(rows, headers=headers, tablefmt="github", disable_numparse=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--peers", default=",".join(PEERS), help=f"comma-separated subset of {', '.join(PEERS)}"
    )
    parser.add_argument("--skip-peers", action="store_true", help="reference passes only")
    parser.add_argument(
        "--write-docs",
        action="store_true",
        help="rewrite the block reference-vs-peers of benchmarks/README.md",
    )
    args = parser.parse_args(argv)
    wanted = [] if args.skip_peers else [p for p in args.peers.split(",") if p]
    unknown = [p for p in wanted if p not in PEERS]
    if unknown:
        parser.error(f"unknown peers {unknown}; known: {', '.join(PEERS)}")

    print(
        f"python {platform.python_version()}, numpy {_installed('numpy')}, "
        f"{platform.machine()}, {__import__('os').cpu_count()} CPUs"
    )
    part1 = _part_one(wanted)
    part2 = _part_two()
    pokerkit = ""
    if not args.skip_peers:
        pk = _pokerkit_three()
        if pk is not None:
            pokerkit = (
                f"pokerkit {_installed('pokerkit')}, RhodeIslandHoldemHand over all "
                f"22,100 three-card hands: {pk.wall:.3f} s wall, {pk.cpu:.3f} s cpu"
            )
            print(f"\n{pokerkit}")
    if args.write_docs:
        write_block(
            DOC_BLOCKS["reference-vs-peers"],
            "reference-vs-peers",
            f"{part1}\n\n{part2}\n\n{pokerkit}\n",
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
