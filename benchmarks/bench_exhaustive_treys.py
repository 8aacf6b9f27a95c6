"""Exhaustive nj-poker-high-5 through the treys adapter vs treys's own bare loop.

Run:  python benchmarks/bench_exhaustive_treys.py [--limit N] [--batch 256] [--repeat K]

All 2,598,960 five-card hands (or the first N), four ways, in one run:

1. ``treys bare``: treys's own loop, ``Evaluator.evaluate(list(hand), [])`` over
   ``itertools.combinations`` of the 52 cards already converted to treys integers;
2. ``adapter``: :class:`pokercert.harness.peers.treys.TreysEvaluator` ``classify`` on each
   hand given as canonical card strings, as the harness hands it over (card conversion,
   the refusal guard and the category mapping included);
3. ``harness in-process``: the same through the harness's in-process adapter
   (``load_adapter("treys").run_batch``, batches of ``--batch`` classify requests), which
   adds the request/reply handling every in-process run pays;
4. ``pokercert exhaustive``: the exhaustive mode itself
   (:func:`pokercert.harness.explore.exhaustive.run_exhaustive`, the same hands as shard 1 of
   2,598,960 / N): ``TreysEvaluator.evaluate_many`` on batches of 4,096 hands given as
   card codes, every category and every key checked against the reference's classes;
   its setup (the reference's classes, the class keys and their order) is timed too.

Each row prints wall seconds, CPU seconds of this process, hands per second and both
ratios to the bare loop; the target of issue 6 is an overhead of at most 1.5x.  On a
shared machine the CPU ratio is the steadier one (other processes stretch wall time
unevenly between the rows); ``--repeat K`` runs the four paths K times, interleaved,
and keeps each path's fastest run.  Rows 2 and 3 also check that every category
agrees with the reference's batch path, so a fast wrong answer cannot pass unnoticed.
"""

from __future__ import annotations

import argparse
import sys
from itertools import combinations, islice

from _timing import Clock
from tabulate import tabulate

from pokercert.reference import DECK

CANONICAL = [str(c) for c in DECK]
FIVE = 2_598_960


def bare(limit: int) -> Clock:
    from treys import Card, Evaluator

    evaluate = Evaluator().evaluate
    deck = [Card.new(c) for c in CANONICAL]
    with Clock() as clock:
        values = [evaluate(list(h), []) for h in islice(combinations(deck, 5), limit)]
    assert len(values) == limit
    return clock


def adapter(limit: int) -> tuple[Clock, list[str]]:
    from pokercert.harness.peers.treys import TreysEvaluator

    ev = TreysEvaluator()
    ev.configure("nj-poker-high-5", {})
    classify = ev.classify
    with Clock() as clock:
        found = [classify(list(h)) for h in islice(combinations(CANONICAL, 5), limit)]
    return clock, found


def _request_form(adapter_) -> type:
    """Whether this harness version takes a hand as a card string or a token list."""
    for form in (str, list):
        hand = "As Ks Qs Js Ts" if form is str else ["As", "Ks", "Qs", "Js", "Ts"]
        reply = adapter_.run_batch([{"op": "classify", "hand": hand}])[0]
        if reply.data.get("category") == "royal_flush":
            return form
    raise SystemExit("cannot tell how this harness passes a hand to an in-process adapter")


def harness(limit: int, size: int) -> tuple[Clock, list[str]]:
    from pokercert.harness.adapters import load_adapter

    with load_adapter("treys") as ad:
        ad.start()
        ad.configure("nj-poker-high-5", {})
        form = _request_form(ad)
        hands = islice(combinations(CANONICAL, 5), limit)
        found: list[str] = []
        with Clock() as clock:
            while True:
                chunk = list(islice(hands, size))
                if not chunk:
                    break
                requests = [
                    {"op": "classify", "hand": " ".join(h) if form is str else list(h)}
                    for h in chunk
                ]
                found.extend(r.data.get("category", r.status) for r in ad.run_batch(requests))
        return clock, found


def exhaustive(shards: int, size: int) -> tuple[Clock, str]:
    import tempfile
    from pathlib import Path

    from pokercert.harness.adapters import load_adapter
    from pokercert.harness.explore.exhaustive import run_exhaustive
    from pokercert.reference import get_ruleset, load_profile

    ruleset, profile = get_ruleset("nj-poker-high-5"), load_profile("practice")
    with load_adapter("treys") as ad, tempfile.TemporaryDirectory() as out:
        identity = ad.start()
        ad.configure(ruleset.id, profile.readings_for(ruleset))
        with Clock() as clock:
            state = run_exhaustive(
                ad,
                identity,
                ruleset,
                profile,
                Path(out),
                adapter_spec="treys",
                shard=(1, shards),
                batch=size,
            )
    verdict = "yes" if state.finished and not state.disagreeing else "NO"
    return clock, f"{verdict} ({state.mode} mode)"


def reference_categories(limit: int) -> list[str]:
    from pokercert.reference.batch import classify_all

    result = classify_all("nj-poker-high-5")
    names = result.category_names
    return [names[i] for i in result.categories[:limit].tolist()]


def measure(limit: int, shards: int, batch: int, repeat: int) -> tuple[dict[str, Clock], str]:
    """Each path's fastest run of ``repeat`` (interleaved), with whether its categories
    are the reference's ("agrees": the adapter and harness rows; the exhaustive verdict)."""
    expected = reference_categories(limit)
    runs: dict[str, list[Clock]] = {"bare": [], "adapter": [], "harness": [], "exhaustive": []}
    agree = {"adapter": True, "harness": True}
    verdict = ""
    for _ in range(max(1, repeat)):
        runs["bare"].append(bare(limit))
        clock, found = adapter(limit)
        runs["adapter"].append(clock)
        agree["adapter"] &= found == expected
        clock, found = harness(limit, batch)
        runs["harness"].append(clock)
        agree["harness"] &= found == expected
        clock, verdict = exhaustive(shards, 4096)
        runs["exhaustive"].append(clock)
    best = {path: min(clocks, key=lambda c: c.cpu) for path, clocks in runs.items()}
    marks = {path: "yes" if ok else "NO" for path, ok in agree.items()}
    return best, f"{marks['adapter']},{marks['harness']},{verdict}"


def table(limit: int, batch: int, best: dict[str, Clock], agrees: str) -> str:
    """The rows of :func:`measure`, each against treys's bare loop."""
    base = best["bare"]
    adapter_ok, harness_ok, verdict = agrees.split(",", 2)

    def row(path: str, clock: Clock, agrees: str) -> list[str]:
        return [
            path,
            f"{clock.wall:.3f}",
            f"{clock.cpu:.3f}",
            f"{limit / clock.wall:,.0f}",
            f"{clock.wall / base.wall:.2f}",
            f"{clock.cpu / base.cpu:.2f}",
            agrees,
        ]

    rows = [
        row("treys bare", base, ""),
        row("adapter (TreysEvaluator.classify)", best["adapter"], adapter_ok),
        row(f"harness in-process (batches of {batch})", best["harness"], harness_ok),
        row("pokercert exhaustive (batches of 4096)", best["exhaustive"], verdict),
    ]
    headers = ["path", "wall s", "cpu s", "hands/s", "x bare (wall)", "x bare (cpu)"]
    return tabulate(rows, headers=[*headers, "categories = reference"], disable_numparse=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--limit",
        type=int,
        default=FIVE,
        help="about this many hands (default all; rounded to 2,598,960/K)",
    )
    parser.add_argument("--batch", type=int, default=256, help="requests per harness batch")
    parser.add_argument("--repeat", type=int, default=1, help="runs per path (fastest kept)")
    args = parser.parse_args(argv)
    from pokercert.harness.explore.exhaustive_state import shard_range

    shards = max(1, FIVE // max(1, min(args.limit, FIVE)))
    limit = shard_range(FIVE, 1, shards)[1]
    best, agrees = measure(limit, shards, args.batch, args.repeat)
    print(f"nj-poker-high-5, {limit:,} hands\n")
    print(table(limit, args.batch, best, agrees))
    return 0


if __name__ == "__main__":
    sys.exit(main())
