"""Fuzz speed: 1,000 examples against the reference, per ruleset, and a named peer.

    python benchmarks/bench_fuzz.py [--examples 1000] [--seed 1] [--repeat 1]
                                    [--ruleset ID ...] [--skip-peers]

For every ruleset, ``pokercert fuzz`` against the reference in process (the path of
``pokercert fuzz --adapter reference``: the seeded round-robin sampler, the reference's
expectation, the adapter call and the scorer), timed through the same :func:`fuzz` call
as

* ``treys``: the same deals (reject requests left out: treys refuses without a reason
  code), answered by the treys adapter instead of the reference (the rulesets treys
  claims, where it is installed): a real third-party evaluator through the same path.
  ``ratio`` is reference CPU / treys CPU.

With ``--kills 1,2,3,4`` it runs the issue-17 bar instead: the fuzz kill matrix (every
self-check mutant on every ruleset it affects, fuzz alone, ``--examples`` each, no
shrinking) for each seed, one row per seed with its CPU time, the cell that took the
most requests to kill (the margin left in the budget) and every survivor; exit 1 if any.
It is the slow four-seed check the test suite leaves out (the suite pins seed 1).

Target: 1,000 examples on the reference in <= 5 s CPU per ruleset.  Columns are wall and
CPU seconds (compare CPU on a shared machine), and requests sent.  Each row keeps its
fastest of ``--repeat`` runs by CPU time.
"""

from __future__ import annotations

import argparse
import platform
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _timing import Clock
from tabulate import tabulate

from pokercert.harness.adapters import load_adapter
from pokercert.harness.explore.fuzz import claimed_kinds, fuzz
from pokercert.reference import all_rulesets, get_ruleset, load_profile

TARGET_S = 5.0


def timed(
    spec: str, ruleset: str, examples: int, seed: int, repeat: int
) -> tuple[float, float, int] | None:
    """(wall, cpu, requests) of the fastest run, or None if the adapter lacks the ruleset."""
    rs, prof = get_ruleset(ruleset), load_profile("practice")
    best: tuple[float, float, int] | None = None
    for _ in range(repeat):
        adapter = load_adapter(spec)
        with adapter:
            identity = adapter.start()
            kinds = claimed_kinds(identity.capabilities, rs)
            if spec != "reference":  # a peer's own refusals are not what is timed
                kinds = [k for k in kinds if k != "reject"]
            if not kinds:
                return None
            adapter.configure(ruleset, prof.readings_for(rs))
            with Clock() as clock:
                report = fuzz(
                    adapter,
                    rs,
                    prof,
                    kinds=kinds,
                    examples=examples,
                    seed=seed,
                    features=identity.features,
                )
        if report.found is not None:
            raise SystemExit(
                f"{spec} disagrees with the reference on {ruleset}: {report.found.message}"
            )
        if best is None or clock.cpu < best[1]:
            best = (clock.wall, clock.cpu, report.calls)
    return best


def kill_matrix(seeds: list[int], examples: int) -> int:
    """The fuzz kill matrix for each seed (see the module docstring)."""
    from pokercert.reports.fuzz_kills import fuzz_kills

    print(
        f"{platform.node()} {platform.machine()} python {platform.python_version()}; "
        f"fuzz kill matrix, {examples} examples, profile practice"
    )
    rows, survivors = [], []
    for seed in seeds:
        with Clock() as clock:
            kills = fuzz_kills(examples=examples, seed=seed)
        cells = [(m, r, c) for m, row in kills.cells.items() for r, c in row.items()]
        status = Counter(c.status for _, _, c in cells)
        slowest = max((c.calls, f"{m} on {r}") for m, r, c in cells if c.status == "killed")
        rows.append(
            [
                seed,
                len(cells),
                status["killed"],
                status["survived"],
                status["broken"],
                status["excused"],
                f"{slowest[0]} ({slowest[1]})",
                f"{clock.cpu:.1f}",
            ]
        )
        survivors += [f"seed {seed}: {m} on {r}" for m, r in kills.survivors]
    print(
        tabulate(
            rows,
            headers=[
                "seed",
                "cells",
                "killed",
                "survived",
                "broken",
                "excused",
                "most requests to a kill",
                "cpu s",
            ],
        )
    )
    for line in survivors:
        print("SURVIVED", line)
    return 1 if survivors else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--examples", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--ruleset", action="append", dest="rulesets")
    ap.add_argument("--skip-peers", action="store_true")
    ap.add_argument(
        "--kills",
        metavar="SEEDS",
        help="comma-separated seeds: the fuzz kill matrix per seed instead",
    )
    args = ap.parse_args()
    if args.kills:
        return kill_matrix([int(s) for s in args.kills.split(",")], args.examples)
    print(
        f"{platform.node()} {platform.machine()} python {platform.python_version()}; "
        f"{args.examples} examples, seed {args.seed}, best of {args.repeat}"
    )
    rows = []
    slow = []
    for rs in all_rulesets():
        if args.rulesets and rs.id not in args.rulesets:
            continue
        row: list[object] = [rs.id]
        specs = ["reference"] + ([] if args.skip_peers else ["treys"])
        cpus: dict[str, float] = {}
        for spec in specs:
            try:
                got = timed(spec, rs.id, args.examples, args.seed, args.repeat)
            except Exception as exc:  # a peer not installed: said, not fatal
                got = None
                print(f"  {spec} on {rs.id}: skipped ({type(exc).__name__}: {exc})")
            if got is None:
                row += ["-", "-", "-"]
                continue
            wall, cpu, calls = got
            cpus[spec] = cpu
            row += [f"{wall:.2f}", f"{cpu:.2f}", calls]
            if spec == "reference" and cpu > TARGET_S:
                slow.append(rs.id)
        if not args.skip_peers:
            row.append(
                f"{cpus['reference'] / cpus['treys']:.2f}"
                if "treys" in cpus and "reference" in cpus
                else "-"
            )
        rows.append(row)
    heads = ["ruleset"]
    for name in ("reference", *(() if args.skip_peers else ("treys",))):
        heads += [f"{name} wall s", "cpu s", "requests"]
    if not args.skip_peers:
        heads.append("ratio ref/treys")
    print(tabulate(rows, headers=heads))
    print(
        f"\ntarget: {args.examples} examples on the reference in <= {TARGET_S:.0f} s CPU "
        f"per ruleset: {'met' if not slow else 'MISSED on ' + ', '.join(slow)}"
    )
    return 0 if not slow else 1


if __name__ == "__main__":
    raise SystemExit(main())
