"""Harness speed: in-process overhead, and hands per second through the subprocess protocol.

    python benchmarks/bench_harness.py [--repeat 7] [--hands 300000] [--skip-treys]

1. The whole corpus through the reference in process (``score_vectors``, and a full
   ``run`` that also writes results.jsonl), against the bare engine answering the same
   vectors in a plain loop.  Target: harness / bare <= 1.2.
2. The same through any other in-process adapter (treys, if installed): harness wall
   time against the time spent inside the adapter's own calls.
3. Hands classified through the subprocess protocol to the Node.js example evaluator:
   as ``classify_many`` requests (the protocol feature: thousands of hands per request)
   and as one ``classify`` request per hand.  Target: >= 200,000 hands/s with batching.

In process: the paths take turns ``--repeat`` times and each keeps its fastest run by CPU
time (wall time is shown too); the subprocess figures are the best of ``--repeat`` runs.
Both the harness and the child share this machine's cores, so run it on an idle machine.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from itertools import combinations, islice
from pathlib import Path
from typing import Any

from _timing import Clock

from pokercert.harness.adapters import load_adapter
from pokercert.harness.runner import RunConfig, run, score_vectors
from pokercert.reference import DECK, CardError, evaluator, load_profile
from pokercert.vectors.corpus import load_corpus

ROOT = Path(__file__).resolve().parents[1]
JS = f"exec:node {ROOT / 'examples' / 'js-evaluator' / 'adapter.js'}"


def best(repeat: int, fn: Any) -> float:
    """The fastest of ``repeat`` calls (``fn`` may return its own timing instead)."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        got = fn()
        times.append(got[0] if isinstance(got, tuple) else time.perf_counter() - t)
    return min(times)


def bare_reference(vectors: list[Any], profile: Any) -> None:
    """The engine alone, answering each vector's request directly."""
    for v in vectors:
        ev = evaluator(v.ruleset, profile)
        inputs = v.inputs
        op = inputs["op"] if v.kind == "reject" else v.kind
        try:
            if op == "classify":
                ev.category(inputs["hand"])
            elif op == "compare":
                ev.winners(inputs["hands"], inputs.get("board"))
            else:
                ev.best_hand(inputs["hole"], inputs["board"])
        except CardError:
            pass


def through_harness(spec: str, vectors: list[Any], profile: Any) -> tuple[Clock, float]:
    """Run the vectors through a started adapter: (clock of the scoring loop alone, time
    spent inside the adapter's own calls)."""
    own = 0.0
    with load_adapter(spec) as adapter:
        identity = adapter.start()
        with Clock() as clock:
            for batch in score_vectors(adapter, identity, vectors, profile):
                own += sum(r.duration_s for r in batch)
        return clock, own


def interleaved(repeat: int, paths: dict[str, Any]) -> dict[str, Clock]:
    """Each path run ``repeat`` times, the paths taking turns (so that a spell of load on
    the machine falls on all of them), and each path's fastest run by CPU time; the wall
    time shown is that run's.  A path may return the :class:`Clock` of the part of it
    that counts; otherwise the whole call is timed."""
    runs: dict[str, list[Clock]] = {name: [] for name in paths}
    for _ in range(repeat):
        for name, fn in paths.items():
            with Clock() as clock:
                got = fn()
            runs[name].append(got if isinstance(got, Clock) else clock)
    return {name: min(clocks, key=lambda c: c.cpu) for name, clocks in runs.items()}


def in_process(repeat: int, skip_treys: bool) -> None:
    corpus = load_corpus()
    vectors = corpus.vectors
    profile = load_profile("practice")
    n = len(vectors)
    bare_reference(vectors, profile)  # warm the engine caches for both sides
    through_harness("reference", vectors, profile)
    folder = Path(tempfile.mkdtemp())
    try:
        clocks = interleaved(repeat, {
            "bare": lambda: bare_reference(vectors, profile),
            "harness": lambda: through_harness("reference", vectors, profile)[0],
            "full": lambda: run(RunConfig(out=folder, command=["bench"]), corpus)})
    finally:
        shutil.rmtree(folder)
    bare = clocks["bare"]
    print(f"corpus: {n} vectors ({corpus.version}, {corpus.sha256[:12]}); "
          f"fastest of {repeat} runs each, taking turns")
    print(f"  {'':30s} {'vectors/s':>10s} {'cpu us/vector':>14s} {'x bare (cpu)':>13s} "
          f"{'x bare (wall)':>14s}")
    for name, label in (("bare", "bare reference engine"),
                        ("harness", "reference through harness"),
                        ("full", "full run, results written")):
        c = clocks[name]
        print(f"  {label:30s} {n / c.wall:>10,.0f} {c.cpu * 1e6 / n:>14.1f} "
              f"{c.cpu / bare.cpu:>13.2f} {c.wall / bare.wall:>14.2f}"
              + ("   (target <= 1.2)" if name == "harness" else ""))
    if skip_treys:
        return
    try:
        treys_vectors = [v for v in vectors if v.ruleset == "nj-poker-high-5"]
        runs = [through_harness("treys", treys_vectors, profile) for _ in range(repeat)]
        clock, own = min(runs, key=lambda r: r[0].cpu)
        wall = clock.wall
    except Exception as exc:  # the extra is optional
        print(f"  treys: skipped ({exc})")
        return
    print(f"  treys through harness        {len(treys_vectors) / wall:>10,.0f} vectors/s   "
          f"harness / adapter's own time x{wall / max(own, 1e-9):.2f}")


def subprocess_protocol(repeat: int, hands: int, batch: int) -> None:
    if shutil.which("node") is None:
        print("subprocess: skipped (node not installed)")
        return
    deck = [str(c) for c in DECK]
    texts = [" ".join(h) for h in islice(combinations(deck, 5), hands)]
    n = len(texts)
    reference = reference_categories(n)
    for many in (True, False):
        child_before = _children_cpu()
        measured = _through_protocol(texts, batch, many, repeat)
        if measured is None:
            print("  (the adapter does not offer classify_many)")
            continue
        elapsed, harness_cpu, found = measured
        child_cpu = (_children_cpu() - child_before) / (repeat * n)  # the child has exited
        form = (f"classify_many requests of {batch} hands" if many else
                f"batches of {batch} classify requests")
        print(f"subprocess protocol, Node.js example, {form}, two batches in flight:")
        print(f"  wall clock                   {n / elapsed:>10,.0f} hands/s   "
              f"(target >= 200,000)   categories = reference: "
              f"{'yes' if found == reference else 'NO'}")
        print(f"  CPU per hand: harness {harness_cpu * 1e6:.2f} us, adapter "
              f"{child_cpu * 1e6:.2f} us -> {1 / max(harness_cpu, child_cpu):,.0f} hands/s "
              "when each side has an idle core")


def _through_protocol(texts: list[str], batch: int, many: bool, repeat: int) \
        -> tuple[float, float, list[Any]] | None:
    """(best wall time, harness CPU per hand, categories) of the hands through the Node.js
    example: ``classify_many`` requests of ``batch`` hands, or batches of ``batch``
    classify requests; None if the adapter has no classify_many."""
    n = len(texts)
    found: list[Any] = []
    with load_adapter(JS) as adapter:
        adapter.start()
        adapter.configure("nj-poker-high-5", {})
        supports = getattr(adapter, "supports", None)   # (harness versions before 0.2: none)
        if many and not (supports and supports("classify_many")):
            return None
        if many:
            chunks = [[{"op": "classify_many", "hands": texts[i:i + batch]}]
                      for i in range(0, n, batch)]
        else:
            chunks = [[{"op": "classify", "hand": t} for t in texts[i:i + batch]]
                      for i in range(0, n, batch)]

        def once() -> None:
            found.clear()
            for replies in adapter.run_batches(chunks):
                if many:
                    found.extend(replies[0].data.get("categories", ()))
                else:
                    found.extend(r.data.get("category") for r in replies)

        cpu_before = time.process_time()
        elapsed = best(repeat, once)
        harness_cpu = (time.process_time() - cpu_before) / (repeat * n)
    return elapsed, harness_cpu, found


def reference_categories(n: int) -> list[str]:
    """The reference's category of the first n hands (the batch path), to check answers."""
    from pokercert.reference.batch import classify_all

    result = classify_all("nj-poker-high-5")
    names = result.category_names
    return [names[i] for i in result.categories[:n].tolist()]


def _children_cpu() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--repeat", type=int, default=7)
    p.add_argument("--hands", type=int, default=300_000)
    p.add_argument("--batch", type=int, default=4096)
    p.add_argument("--skip-treys", action="store_true")
    args = p.parse_args()
    in_process(args.repeat, args.skip_treys)
    subprocess_protocol(args.repeat, args.hands, args.batch)


if __name__ == "__main__":
    main()
