"""Harness speed: in-process overhead, and hands per second through the subprocess protocol.

    python benchmarks/bench_harness.py [--repeat 7] [--hands 300000] [--skip-treys]
                                       [--instructions]

1. The whole corpus through the reference in process: ``score_vectors`` (driving the
   adapter, guarding and timing each call, scoring: the harness proper) and a full
   ``run`` (which also writes and counts results.jsonl), against the bare engine
   answering the same vectors in a plain loop.  Two ratios per row: ``x bare`` (CPU
   time against the bare loop's, in separate runs) and ``x own time`` (the row's wall
   time against the time spent inside the evaluator's calls *in the same run*, as the
   results record it: the issue's "overhead as a ratio to the adapter's own time", and
   the steadier of the two on a shared machine, since a spell of load slows both sides
   of it alike).  Target: <= 1.2.  A last row runs the harness against an evaluator
   that answers from a list (:class:`AnswerKey`): the harness's own cost per vector,
   whatever the evaluator.
2. The same through another in-process adapter (treys, if installed): harness wall time
   against the time spent inside the adapter's own calls.
3. ``--instructions``: machine instructions per vector, bare engine and through the
   harness, counted by Valgrind (a count no other process can disturb; about 4 min).
4. Hands classified through the subprocess protocol to the Node.js example evaluator:
   as ``classify_many`` requests (the protocol feature: thousands of hands per request)
   and as one ``classify`` request per hand.  Target: >= 200,000 hands/s with batching.

In process: the paths take turns ``--repeat`` times and each keeps its fastest run by CPU
time; the subprocess figures are the best of ``--repeat`` runs.  Both the harness and the
child share this machine's cores, so run it on an idle machine.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from itertools import combinations, islice
from operator import attrgetter
from pathlib import Path
from typing import Any

from _timing import Clock

from pokercert.harness.adapters import load_adapter
from pokercert.harness.adapters.inprocess import InProcessAdapter
from pokercert.harness.api import EvaluatorInfo, Rejected
from pokercert.harness.peers.reference import ReferenceEvaluator
from pokercert.harness.run.results import Outcome, read_results
from pokercert.harness.run.runner import RunConfig, run, score_vectors
from pokercert.reference import DECK, CardError, evaluator, load_profile
from pokercert.vectors.corpus import load_corpus

_DURATION = attrgetter("duration_s")  # (a generator here would be timed as harness)
_OUTCOME = attrgetter("outcome")
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
    spent inside the adapter's own calls, as the results record it)."""
    own = 0.0
    with load_adapter(spec) as adapter:
        identity = adapter.start()
        with Clock() as clock:
            for batch in score_vectors(adapter, identity, vectors, profile):
                own += sum(map(_DURATION, batch))
        return clock, own


class AnswerKey:
    """An evaluator that answers each request with the corpus's expected answer, taken
    in order from a list: it costs next to nothing, so a run through it measures the
    harness alone.  ``vectors`` must be grouped by ruleset (the order the runner asks)."""

    info = EvaluatorInfo(vendor="pokercert-bench", name="answer-key", version="1", build="")

    def __init__(self, vectors: list[Any], profile: Any) -> None:
        self.answers: list[Any] = []
        for v in vectors:
            want = v.expected(profile)
            self.answers.append(
                want["category"]
                if v.kind == "classify"
                else list(want["winners"])
                if v.kind == "compare"
                else (want["cards"][0].split(), want["category"])
                if v.kind == "best_hand"
                else Rejected(want["reason"], "refused")
            )
        self._next = iter(self.answers).__next__

    def rewind(self) -> None:
        self._next = iter(self.answers).__next__

    def capabilities(self) -> dict[str, list[str]]:
        return ReferenceEvaluator().capabilities()

    def configure(self, ruleset: str, readings: dict[str, str]) -> None:
        pass

    def _answer(self) -> Any:
        answer = self._next()
        if type(answer) is Rejected:
            raise answer
        return answer

    def classify(self, hand: list[str]) -> Any:
        return self._answer()

    def winners(self, hands: list[list[str]], board: list[str] | None = None) -> Any:
        return self._answer()[:]

    def best_hand(self, hole: list[str], board: list[str]) -> Any:
        return self._answer()


def harness_alone(key: AnswerKey, vectors: list[Any], profile: Any) -> tuple[Clock, float]:
    """The grouped vectors through the harness to the answer key (every one must pass)."""
    key.rewind()
    own, failed = 0.0, 0
    adapter = InProcessAdapter(key, "answer-key", "answer-key", "1", timeout=10.0)
    identity = adapter.start()
    with Clock() as clock:
        for batch in score_vectors(adapter, identity, vectors, profile):
            own += sum(map(_DURATION, batch))
            failed += len(batch) - list(map(_OUTCOME, batch)).count(Outcome.PASS)
    if failed:
        raise AssertionError(f"{failed} vectors did not pass against the answer key")
    return clock, own


def full_run(corpus: Any, folder: Path) -> tuple[Clock, float]:
    """``pokercert run`` of the reference, the corpus already loaded: (clock of the whole
    run, time inside the adapter's calls as results.jsonl records it)."""
    with Clock() as clock:
        run(RunConfig(out=folder, command=["bench"]), corpus)
    return clock, sum(map(_DURATION, read_results(folder)))


def interleaved(repeat: int, paths: dict[str, Any]) -> dict[str, tuple[Clock, float]]:
    """Each path run ``repeat`` times, the paths taking turns (so that a spell of load on
    the machine falls on all of them), and each path's fastest run by CPU time.  A path
    returns the :class:`Clock` of the part of it that counts and the time spent inside
    the adapter's calls during it (0: not measured)."""
    runs: dict[str, list[tuple[Clock, float]]] = {name: [] for name in paths}
    for _ in range(repeat):
        for name, fn in paths.items():
            runs[name].append(fn())
    return {name: min(timed, key=lambda t: t[0].cpu) for name, timed in runs.items()}


def _timed(fn: Any) -> tuple[Clock, float]:
    with Clock() as clock:
        fn()
    return clock, 0.0


def in_process(repeat: int, skip_treys: bool) -> None:
    corpus = load_corpus()
    vectors = corpus.vectors
    profile = load_profile("practice")
    n = len(vectors)
    bare_reference(vectors, profile)  # warm the engine caches for both sides
    through_harness("reference", vectors, profile)
    grouped = sorted(vectors, key=lambda v: v.ruleset)  # stable: the runner's order
    key = AnswerKey(grouped, profile)
    folder = Path(tempfile.mkdtemp())
    try:
        timed = interleaved(
            repeat,
            {
                "bare": lambda: _timed(lambda: bare_reference(vectors, profile)),
                "harness": lambda: through_harness("reference", vectors, profile),
                "full": lambda: full_run(corpus, folder),
                "alone": lambda: harness_alone(key, grouped, profile),
            },
        )
    finally:
        shutil.rmtree(folder)
    bare = timed["bare"][0]
    print(
        f"corpus: {n} vectors ({corpus.version}, {corpus.sha256[:12]}); "
        f"fastest of {repeat} runs each, taking turns"
    )
    print(
        f"  {'':30s} {'vectors/s':>10s} {'cpu us/vector':>14s} {'x bare (cpu)':>13s} "
        f"{'x own time':>11s}"
    )
    for name, label in (
        ("bare", "bare reference engine"),
        ("harness", "reference through harness"),
        ("full", "full run, results written"),
        ("alone", "harness alone (answer key)"),
    ):
        c, own = timed[name]
        ratio = f"{c.wall / own:>11.2f}" if own and name != "alone" else f"{'':>11s}"
        print(
            f"  {label:30s} {n / c.wall:>10,.0f} {c.cpu * 1e6 / n:>14.1f} "
            f"{c.cpu / bare.cpu:>13.2f} {ratio}"
            + ("   (target <= 1.2)" if name == "harness" else "")
        )
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
    print(
        f"  treys through harness        {len(treys_vectors) / wall:>10,.0f} vectors/s   "
        f"harness / adapter's own time x{wall / max(own, 1e-9):.2f}"
    )


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
        form = (
            f"classify_many requests of {batch} hands"
            if many
            else f"batches of {batch} classify requests"
        )
        print(f"subprocess protocol, Node.js example, {form}, two batches in flight:")
        print(
            f"  wall clock                   {n / elapsed:>10,.0f} hands/s   "
            f"(target >= 200,000)   categories = reference: "
            f"{'yes' if found == reference else 'NO'}"
        )
        print(
            f"  CPU per hand: harness {harness_cpu * 1e6:.2f} us, adapter "
            f"{child_cpu * 1e6:.2f} us -> {1 / max(harness_cpu, child_cpu):,.0f} hands/s "
            "when each side has an idle core"
        )


def _through_protocol(
    texts: list[str], batch: int, many: bool, repeat: int
) -> tuple[float, float, list[Any]] | None:
    """(best wall time, harness CPU per hand, categories) of the hands through the Node.js
    example: ``classify_many`` requests of ``batch`` hands, or batches of ``batch``
    classify requests; None if the adapter has no classify_many."""
    n = len(texts)
    found: list[Any] = []
    with load_adapter(JS) as adapter:
        adapter.start()
        adapter.configure("nj-poker-high-5", {})
        supports = getattr(adapter, "supports", None)  # (harness versions before 0.2: none)
        if many and not (supports and supports("classify_many")):
            return None
        if many:
            chunks = [
                [{"op": "classify_many", "hands": texts[i : i + batch]}] for i in range(0, n, batch)
            ]
        else:
            chunks = [
                [{"op": "classify", "hand": t} for t in texts[i : i + batch]]
                for i in range(0, n, batch)
            ]

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


def instructions(passes: int = 2) -> None:
    """Machine instructions per vector, bare engine and through the harness, counted by
    Valgrind's callgrind: a figure no other process on the machine can disturb (time
    cannot show a change of a few per cent here).  Each path runs in a child under
    callgrind twice, with 0 and with ``passes`` passes over the corpus after the same
    start-up (corpus loaded, both paths warmed); the difference is the passes alone."""
    if shutil.which("valgrind") is None:
        print("instructions: skipped (valgrind not installed)")
        return
    import os
    import re
    import subprocess
    import sys
    from concurrent.futures import ThreadPoolExecutor

    def count(path: str, n: int) -> int:
        done = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                "--callgrind-out-file=/dev/null",
                sys.executable,
                __file__,
                "--count-path",
                path,
                "--count-passes",
                str(n),
            ],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONHASHSEED": "0"},
            check=True,
        )
        found = re.search(r"Collected : (\d+)", done.stderr)
        if found is None:
            raise RuntimeError(f"callgrind printed no count:\n{done.stderr[-2000:]}")
        return int(found.group(1))

    jobs = [("bare", 0), ("bare", passes), ("harness", passes)]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        start, bare, harness = pool.map(lambda job: count(*job), jobs)
    n = passes * len(load_corpus().vectors)
    per_bare, per_harness = (bare - start) / n, (harness - start) / n
    print(
        f"instructions per vector (callgrind, {passes} passes): bare engine "
        f"{per_bare:,.0f}, reference through harness {per_harness:,.0f}: "
        f"x{per_harness / per_bare:.3f} (harness's own {per_harness - per_bare:,.0f})"
    )


def count_path(path: str, passes: int) -> None:
    """The child of :func:`instructions`: start-up, then ``passes`` passes of ``path``."""
    vectors = load_corpus().vectors
    profile = load_profile("practice")
    bare_reference(vectors, profile)
    through_harness("reference", vectors, profile)
    for _ in range(passes):
        if path == "bare":
            bare_reference(vectors, profile)
        else:
            through_harness("reference", vectors, profile)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--repeat", type=int, default=7)
    p.add_argument("--hands", type=int, default=300_000)
    p.add_argument("--batch", type=int, default=4096)
    p.add_argument("--skip-treys", action="store_true")
    p.add_argument(
        "--instructions",
        action="store_true",
        help="also count instructions per vector under Valgrind (about 3 min)",
    )
    p.add_argument("--count-path", choices=("bare", "harness"), help=argparse.SUPPRESS)
    p.add_argument("--count-passes", type=int, default=0, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.count_path:
        count_path(args.count_path, args.count_passes)
        return
    in_process(args.repeat, args.skip_treys)
    if args.instructions:
        instructions()
    subprocess_protocol(args.repeat, args.hands, args.batch)


if __name__ == "__main__":
    main()
