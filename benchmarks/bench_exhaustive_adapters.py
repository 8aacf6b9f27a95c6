"""Whole ``pokercert exhaustive`` commands through the shipped adapters, and the set-up of
the reference side (the Montana games value every joker hand's suit pattern first).

Run:  python benchmarks/bench_exhaustive_adapters.py [--repeat K] [--adapters treys,eval7]
      [--write-docs]

Part 1 runs ``pokercert exhaustive --adapter NAME --ruleset nj-poker-high-5`` as a child
process for each installed peer adapter (all 2,598,960 hands), best wall time of
``--repeat`` runs, and reads the checking time (``elapsed_s``) and the verdict from its
``--json`` answer.  Part 2 builds the reference's equivalence classes
(:class:`pokercert.reference.classes.ReferenceClasses`, the set-up every exhaustive run
does before sending a hand) for nj-poker-high-5 and the two Montana games, with their
joker hands.  ``--write-docs`` rewrites the block ``exhaustive-adapters`` of
harness/CI.md with both tables.  A benchmark, not a test: figures depend on the machine.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from importlib.metadata import PackageNotFoundError, version

from _docs import write_block
from _timing import Clock
from tabulate import tabulate

DOC_BLOCKS = {"exhaustive-adapters": "harness/CI.md"}
ADAPTERS = {
    "treys": "treys",
    "eval7": "eval7",
    "phevaluator": "phevaluator",
    "pokerkit": "pokerkit",
}
SETUP_RULESETS = ("nj-poker-high-5", "mt-poker-high", "mt-poker-low")


def _installed(dist: str) -> str | None:
    try:
        return version(dist)
    except PackageNotFoundError:
        return None


def exhaustive(adapter: str, repeat: int) -> tuple[float, float, str]:
    """(best wall s of the whole command, its checking s, verdict)."""
    best: tuple[float, float, str] | None = None
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as out, Clock() as clock:
            proc = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "pokercert.cli",
                    "exhaustive",
                    "--adapter",
                    adapter,
                    "--ruleset",
                    "nj-poker-high-5",
                    "--out",
                    out,
                    "--json",
                ],
                capture_output=True,
                text=True,
                check=False,
            )
        data = json.loads(proc.stdout)
        verdict = "agrees" if data["agrees"] else f"exit {proc.returncode}"
        if best is None or clock.wall < best[0]:
            best = (clock.wall, data["elapsed_s"], verdict)
    assert best is not None
    return best


def setup(ruleset_id: str) -> tuple[Clock, int, int]:
    """Time building the reference classes of every hand of the ruleset, jokers included."""
    from pokercert.reference import get_ruleset, load_profile
    from pokercert.reference.classes import ReferenceClasses, Space

    rs = get_ruleset(ruleset_id)
    space = Space(rs.hand_size, rs.jokers)
    with Clock() as clock:
        ref = ReferenceClasses(rs, load_profile("practice"), space)
    return clock, space.total, len(ref.keys)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--adapters",
        default="treys,eval7,phevaluator",
        help=f"comma-separated subset of {', '.join(ADAPTERS)} (pokerkit, "
        "pure Python, takes minutes)",
    )
    parser.add_argument("--repeat", type=int, default=1, help="runs per adapter (best kept)")
    parser.add_argument(
        "--write-docs",
        action="store_true",
        help="rewrite the block exhaustive-adapters of harness/CI.md",
    )
    args = parser.parse_args(argv)
    rows = []
    for name in [a for a in args.adapters.split(",") if a]:
        ver = _installed(ADAPTERS[name])
        if ver is None:
            rows.append([name, "not installed", "", "", "", ""])
            continue
        wall, checking, verdict = exhaustive(name, args.repeat)
        rows.append(
            [name, ver, f"{wall:.1f}", f"{checking:.1f}", f"{2_598_960 / checking:,.0f}", verdict]
        )
    rows.sort(key=lambda r: float(r[2]) if r[2] else 1e9)
    part1 = tabulate(
        rows,
        headers=[
            "adapter",
            "version",
            "whole command, wall s",
            "checking, s",
            "hands/s checking",
            "verdict",
        ],
        tablefmt="github",
        disable_numparse=True,
    )
    print(part1)
    rows = []
    for rid in SETUP_RULESETS:
        clock, hands, classes = setup(rid)
        rows.append([rid, f"{hands:,}", f"{classes:,}", f"{clock.wall:.1f}", f"{clock.cpu:.1f}"])
    part2 = tabulate(
        rows,
        headers=["reference set-up", "hands (jokers included)", "classes", "wall s", "cpu s"],
        tablefmt="github",
        disable_numparse=True,
    )
    print()
    print(part2)
    if args.write_docs:
        write_block(
            DOC_BLOCKS["exhaustive-adapters"], "exhaustive-adapters", f"{part1}\n\n{part2}\n"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
