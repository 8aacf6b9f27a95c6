"""Whole ``pokercert exhaustive`` command vs each peer's bare library loop, peak RSS.

Run:  python benchmarks/bench_exhaustive.py [--peers treys,eval7,phevaluator]
                                            [--repeat K] [--pokercert PATH] [--workers]
      python benchmarks/bench_exhaustive.py --seven N [--repeat K] [--workers]
      python benchmarks/bench_exhaustive.py --stages N
      python benchmarks/bench_exhaustive.py --dask-phases N

For each named peer, in one run, interleaved, the fastest of ``--repeat`` runs:

* ``command``: ``pokercert exhaustive --adapter PEER --ruleset nj-poker-high-5`` as a
  child process (every one of the 2,598,960 five-card hands, start-up and reports
  included): CPU seconds of it and its children (steadier than wall time on a shared
  machine), wall seconds and its peak RSS;
* ``bare``: the peer's own loop over the same hands (CPU seconds), cards already in its
  own form
  (treys ``Evaluator.evaluate``, eval7 ``evaluate``, phevaluator ``evaluate_cards``);
* ``ratio``: command / bare (the targets of issue 16: treys and eval7 <= 1.3x, pokerkit
  <= 2x, phevaluator <= 2x its C entry point).

Also the fixed set-up every process pays (``setup``: the command on a one-hand shard,
``--shard 1/2598960``), cold (an empty class-table cache) and warm (the table on disk),
with its peak RSS; and with ``--workers``, the whole command with ``--workers 2`` (a
local Dask cluster) against one process.  ``--pokercert PATH`` times another install's
command (a checkout of main, for a before/after); it must take the same options except
those this branch added (``--order-seed``, ``--workers``), which are left out for it.

``--seven N``: the seven-card pass instead (issue 16), ``pokercert exhaustive --adapter
eval7 --ruleset nj-holdem --range 0..N`` (the first N of the 133,784,560 deals, each
valued by its best five) against eval7's bare loop over the same N hands
(``eval7.evaluate`` of each ``combinations(deck, 7)``); the command's fixed set-up (a
one-hand range, class tables on disk) is measured apart, so the whole space is
extrapolated as set-up + N-hand rate x 133,784,560, for both sides, and said so.  Peak
RSS per process; with ``--workers``, the same range on ``--workers 2`` (tasks of the
command's default size, as the whole pass runs them) against one process (wall: what two
cores buy), each row with the load average it ran under.

``--stages N``: where the time of the in-process key path goes, per hand (CPU us), for
eval7 on five cards (``nj-poker-high-5``) and seven (``nj-holdem``): each stage of one
batch of the pass timed apart over N hands (4,096 a batch, as the command runs them):
unranking, the card order, the reference's classes, eval7's cards for the batch (one
gather), eval7's own ``evaluate`` over them, the adapter's categories, and comparing
both with the reference; against eval7's bare loop over the same N hands.

``--dask-phases N``: where a ``--workers 2`` run's time goes beside the hands (issues
16, 27), seven cards, eval7, in this process: the embedded cluster's start (wall); each
worker's set-up for its first task (adapter start, class table, the adapter's class
keys: its first one-hand task's CPU less a later one's); a task's own fixed cost on a warm
worker (a one-hand task, CPU of the thread that runs it); Dask's round trip of
``--tasks`` one-hand tasks (default 511, the whole pass's count at the default task
size) through the driver's own loop (``run_distributed`` on this cluster: submit,
collect, save each range, merge), CPU per task in the driver (scheduler included) and in
the workers, and the merge of their states apart; one range of N hands on a worker
against the same range in this process (the least CPU of three each, interleaved) and
its page faults; the idle cluster's own CPU over 10 s (the scheduler and nannies in the
driver, each worker); its close (wall).  ``--dask-pass M`` adds deals 0 to M - 1 as tasks
of the default size on the warm workers (CPU of the workers and the driver, wall) against
the same deals in one plain process and in two at once (halves; CPU of the hands, set-up
excluded): two plain processes of our own pass are the ceiling of ``--workers 2``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from itertools import combinations
from pathlib import Path
from typing import Any

from _docs import write_block
from tabulate import tabulate

# the block --seven --write-docs rewrites (tests/contract/test_bench_blocks.py)
DOC_BLOCKS = {"exhaustive-seven": "benchmarks/README.md"}

CANONICAL = [r + s for r in "AKQJT98765432" for s in "shdc"]
FIVE = 2_598_960
SEVEN = 133_784_560


def bare_treys() -> float:
    from treys import Card, Evaluator

    evaluate = Evaluator().evaluate
    deck = [Card.new(c) for c in CANONICAL]
    t = time.process_time()
    for h in combinations(deck, 5):
        evaluate(list(h), [])
    return time.process_time() - t


def bare_eval7() -> float:
    import eval7

    evaluate = eval7.evaluate
    deck = [eval7.Card(c) for c in CANONICAL]
    t = time.process_time()
    for h in combinations(deck, 5):
        evaluate(list(h))
    return time.process_time() - t


def bare_phevaluator() -> float:
    from phevaluator import evaluate_cards

    # phevaluator's own card ids: 4 * rank (2 = 0) + suit (c d h s)
    ids = [4 * "23456789TJQKA".index(c[0]) + "cdhs".index(c[1]) for c in CANONICAL]
    t = time.process_time()
    for h in combinations(ids, 5):
        evaluate_cards(*h)
    return time.process_time() - t


BARE = {"treys": bare_treys, "eval7": bare_eval7, "phevaluator": bare_phevaluator}


def bare_eval7_seven(n: int) -> float:
    """CPU seconds of eval7's own loop over the first ``n`` seven-card hands."""
    from itertools import islice

    import eval7

    evaluate = eval7.evaluate
    deck = [eval7.Card(c) for c in CANONICAL]
    t = time.process_time()
    for h in islice(combinations(deck, 7), n):
        evaluate(list(h))
    return time.process_time() - t


CONTROL = (
    "import time; t = time.perf_counter(); x = 0\n"
    "for i in range(20_000_000): x += i\n"
    "print(time.perf_counter() - t)"
)


def control() -> float:
    """What two cores buy right now: wall of one CPU-bound Python loop alone, over the
    wall of two run at once (2.0 on an idle 2-core machine; a loaded one gives less)."""

    def run(n: int) -> float:
        t = time.perf_counter()
        procs = [
            subprocess.Popen([sys.executable, "-c", CONTROL], stdout=subprocess.DEVNULL)
            for _ in range(n)
        ]
        for p in procs:
            p.wait()
        return time.perf_counter() - t

    one = run(1)
    return 2 * one / run(2)


def load() -> str:
    """The 1-minute load average now (the machine is shared: every row says it)."""
    return f"{os.getloadavg()[0]:.1f}"


def seven(args: argparse.Namespace) -> None:
    """The seven-card rows (see the module docstring)."""
    n = args.seven
    cache = Path(tempfile.mkdtemp(prefix="bench-exh7-cache-"))
    base = ["--adapter", "eval7", "--ruleset", "nj-holdem", "--order-seed", "1"]
    cold = command(args.pokercert, [*base, "--range", "0..1"], cache)  # builds the tables
    best, loads = _seven_runs(args, n, base, cache)
    rows = _seven_rows(n, best, loads)
    if args.workers:
        rows += _workers_rows(best, loads)
    text = (
        f"seven-card pass, nj-holdem, eval7, hands 0..{n:,} (min of {args.repeat}); "
        f"cold set-up (tables built) {cold[0]:.2f} s CPU\n\n"
        + tabulate(
            rows,
            headers=[
                "",
                f"{n:,} hands, s",
                "peak RSS MB",
                "133,784,560 hands, s (extrapolated)",
                "ratio",
                "load average (before-after)",
            ],
            tablefmt="github",
        )
    )
    print(text)
    if args.write_docs:
        write_block(DOC_BLOCKS["exhaustive-seven"], "exhaustive-seven", text + "\n")
    shutil.rmtree(cache, ignore_errors=True)


Best = dict[str, tuple[float, ...]]


def _seven_runs(
    args: argparse.Namespace, n: int, base: list[str], cache: Path
) -> tuple[Best, dict[str, list[str]]]:
    """The least CPU of ``--repeat`` runs of each row (bare loop, set-up, command, and
    with ``--workers`` the command on two workers, its tasks of the default size, as the
    whole pass runs them), each with the load averages it ran under."""
    best: Best = {}
    loads: dict[str, list[str]] = {}
    hands = [*base, "--range", f"0..{n}"]
    runs = [
        ("bare", lambda: (bare_eval7_seven(n), 0.0, 0.0)),
        ("setup", lambda: command(args.pokercert, [*base, "--range", "0..1"], cache)),
        ("command", lambda: command(args.pokercert, hands, cache)),
    ]
    if args.workers:
        runs.append(
            ("workers2", lambda: command(args.pokercert, [*hands, "--workers", "2"], cache))
        )
    for _ in range(args.repeat):
        for name, run in runs:
            before = load()
            got = run()
            loads.setdefault(name, []).append(f"{before}-{load()}")
            if name not in best or got[0] < best[name][0]:
                best[name] = got
    return best, loads


def _seven_rows(n: int, best: Best, loads: dict[str, list[str]]) -> list[list[str]]:
    """The one-process rows: bare loop, set-up, whole command (CPU and wall)."""
    bare, setup, cmd = best["bare"][0], best["setup"][0], best["command"][0]
    per_hand = (cmd - setup) / n
    whole_cmd, whole_bare = setup + per_hand * SEVEN, bare / n * SEVEN
    command_loads = ", ".join(loads["command"])
    return [
        [
            "eval7 bare loop (CPU)",
            f"{bare:.2f}",
            "",
            f"{whole_bare:,.0f}",
            "",
            ", ".join(loads["bare"]),
        ],
        [
            "set-up: one-hand range (CPU)",
            f"{setup:.2f}",
            f"{best['setup'][2]:.0f}",
            "",
            "",
            ", ".join(loads["setup"]),
        ],
        [
            "whole command (CPU)",
            f"{cmd:.2f}",
            f"{best['command'][2]:.0f}",
            f"{whole_cmd:,.0f}",
            f"**{whole_cmd / whole_bare:.2f}x**",
            command_loads,
        ],
        ["whole command (wall)", f"{best['command'][1]:.2f}", "", "", "", command_loads],
    ]


def _workers_rows(best: Best, loads: dict[str, list[str]]) -> list[list[str]]:
    """The ``--workers 2`` rows (wall and CPU against one process) and the control."""
    w2, cmd = best["workers2"], best["command"]
    before = load()
    twice = control()
    speed = cmd[1] / w2[1]
    w2_loads = ", ".join(loads["workers2"])
    return [
        [
            "--workers 2 (wall)",
            f"{w2[1]:.2f}",
            f"{w2[2]:.0f}",
            "",
            f"**{speed:.2f}x** one process's wall; {speed / twice:.2f}x the control's",
            w2_loads,
        ],
        [
            "--workers 2 (CPU, all processes)",
            f"{w2[0]:.2f}",
            "",
            "",
            f"{w2[0] / cmd[0]:.2f}x one process's CPU",
            w2_loads,
        ],
        [
            "control: two CPU-bound loops at once",
            "",
            "",
            "",
            f"{twice:.2f}x one loop's throughput",
            f"{before}-{load()}",
        ],
    ]


def _timed_range(task: object) -> tuple[float, float, int]:
    """(CPU s of this thread, wall s, its page faults) of :func:`check_range` over
    ``task`` (a Dask task, or called in this process); page faults do not depend on the
    load: they count memory given back to the system and taken again."""
    import resource

    from pokercert.harness.explore.distributed import check_range

    faults = resource.getrusage(resource.RUSAGE_THREAD).ru_minflt
    cpu, wall = time.thread_time(), time.perf_counter()
    check_range(task)  # type: ignore[arg-type]
    return (
        time.thread_time() - cpu,
        time.perf_counter() - wall,
        resource.getrusage(resource.RUSAGE_THREAD).ru_minflt - faults,
    )


def _process_cpu() -> float:
    return time.process_time()


def _seven_task(start: int, stop: int, check_order: bool = False) -> object:
    """The Dask task of deals ``start`` to ``stop - 1`` of the seven-card pass (eval7)."""
    from pokercert.harness.adapters import AdapterOptions
    from pokercert.harness.explore.distributed import RangeTask

    practice = {"name": "practice", "choices": {}}
    return RangeTask(
        "eval7", AdapterOptions(), "nj-holdem", practice, True, start, stop, 1, check_order
    )


def _on(client: Any, worker: str, task: object) -> tuple[float, float, int]:
    """:func:`_timed_range` of ``task`` run as a task on ``worker``."""
    future = client.submit(_timed_range, task, workers=[worker], pure=False)
    return future.result()


def _task_costs(client: Any, workers: list[str]) -> list[list[str]]:
    """Each worker's set-up (its first one-hand task less a later one) and a task's own
    fixed cost on a warm worker (a one-hand task), CPU of the thread that runs it."""
    first = [_on(client, w, _seven_task(i, i + 1, i == 0)) for i, w in enumerate(workers)]
    later = [
        min(_on(client, w, _seven_task(1000 * k + i, 1000 * k + i + 1)) for k in range(1, 4))
        for i, w in enumerate(workers)
    ]
    return [
        [
            "each worker's set-up for its first task (adapter, class table, class keys), CPU",
            " / ".join(f"{a[0] - b[0]:.3f}" for a, b in zip(first, later, strict=True)),
            "once per worker",
        ],
        [
            "a task's own fixed cost on a warm worker (a one-hand task), CPU",
            " / ".join(f"{b[0] * 1e3:.2f} ms" for b in later),
            "",
        ],
    ]


def _round_trip(client: Any, count: int) -> list[list[str]]:
    """``count`` one-hand tasks through the driver's own loop (:func:`run_distributed` on
    this cluster: submit, collect, save each range, merge): CPU per task in the driver
    (scheduler included) and in the workers, and the merge of their states apart."""
    from pokercert.harness.explore.distributed import check_range, run_distributed, saved_ranges
    from pokercert.harness.explore.exhaustive_state import State, merge_states

    shape = check_range(_seven_task(0, 1))
    template = State.from_dict(
        {**shape, "stop": count, "next": 0, "checked": 0, "finished": False, "order_checked": False}
    )
    tasks = [_seven_task(i, i + 1) for i in range(count)]
    out = Path(tempfile.mkdtemp(prefix="bench-exh-dask-"))
    workers = client.run(_process_cpu)
    driver = time.process_time()
    address = client.scheduler.address
    merged = run_distributed(template, tasks, out, scheduler=address)
    driver = time.process_time() - driver
    after = client.run(_process_cpu)
    states = list(saved_ranges(out, 0, count, 1).values())
    merge = time.process_time()
    merge_states(states, 10)
    merge = time.process_time() - merge
    shutil.rmtree(out, ignore_errors=True)
    assert merged.checked == count, merged.aborted
    per_worker = sum(after[w] - workers[w] for w in workers) / count
    return [
        [
            f"Dask's round trip of {count:,} one-hand tasks (submit, collect, save each "
            "range, merge), CPU per task: driver and scheduler / workers",
            f"{driver / count * 1e3:.2f} ms / {per_worker * 1e3:.2f} ms",
            f"{(driver / count + per_worker) * count:.2f} s for {count:,} tasks",
        ],
        [f"the driver's merge of the {count:,} range states, CPU", f"{merge:.3f}", ""],
    ]


def _range_costs(client: Any, worker: str, n: int) -> list[list[str]]:
    """One range of ``n`` deals on a worker and in this process, interleaved, the least
    CPU (of the thread that runs it) of three each, and their page faults."""
    task = _seven_task(5_000_000, 5_000_000 + n)
    _timed_range(_seven_task(0, 1, True))  # this process's set-up, not timed
    there, here = [], []
    for _ in range(3):
        there.append(_on(client, worker, task))
        here.append(_timed_range(task))
    w, h = min(there), min(here)
    return [
        [
            f"a range of {n:,} hands, CPU: on a worker / in this process (least of 3)",
            f"{w[0]:.3f} / {h[0]:.3f}",
            f"{w[0] / h[0]:.2f}x",
        ],
        [
            "the same, page faults: on a worker / in this process",
            f"{w[2]:,} / {h[2]:,}",
            f"{w[2] / max(h[2], 1):.1f}x",
        ],
    ]


def _idle_cost(client: Any) -> list[str]:
    """The idle cluster's own CPU over 10 s: the driver (scheduler, nannies), each worker."""
    before = client.run(_process_cpu)
    driver = time.process_time()
    time.sleep(10)
    driver = time.process_time() - driver
    after = client.run(_process_cpu)
    idle = [after[w] - before[w] for w in before]
    return [
        "idle cluster over 10 s, CPU: driver (scheduler, nannies) / workers",
        f"{driver:.2f} / " + " / ".join(f"{x:.2f}" for x in idle),
        f"{(driver + sum(idle)) / 10:.1%} of one core",
    ]


# a plain process of our own pass: hands argv[1] to argv[2] - 1 of the seven-card pass in
# one task, after its set-up (adapter, class table, class keys); prints that CPU
PLAIN = (
    "import sys, time\n"
    "from bench_exhaustive import _seven_task\n"
    "from pokercert.harness.explore.distributed import check_range\n"
    "check_range(_seven_task(0, 1, True))\n"
    "t = time.thread_time(); check_range(_seven_task(int(sys.argv[1]), int(sys.argv[2])))\n"
    "print(time.thread_time() - t)"
)


def _plain(*ranges: tuple[int, int]) -> tuple[float, float]:
    """(CPU of the hands, wall) of one plain process per range, all at once."""
    t = time.perf_counter()
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", PLAIN, str(a), str(b)],
            stdout=subprocess.PIPE,
            text=True,
            cwd=Path(__file__).parent,
        )
        for a, b in ranges
    ]
    cpu = sum(float(p.communicate()[0].split()[-1]) for p in procs)
    return cpu, time.perf_counter() - t


def _pass_costs(client: Any, n: int) -> list[list[str]]:
    """Hands 0 to ``n - 1`` as tasks of the default size on the (warm) workers, against
    the same hands in two plain processes at once (halves: what two processes of our own
    pass get from two cores, the ceiling) and in one: CPU of the hands, and wall."""
    from pokercert.harness.explore.distributed import (
        DEFAULT_TASK_HANDS,
        check_range,
        plan_ranges,
        run_distributed,
    )
    from pokercert.harness.explore.exhaustive_state import State

    one = _plain((0, n))
    two = _plain((0, n // 2), (n // 2, n))
    shape = check_range(_seven_task(0, 1))
    template = State.from_dict({**shape, "stop": n, "next": 0, "checked": 0, "finished": False})
    tasks = [_seven_task(a, b) for a, b in plan_ranges(0, n, DEFAULT_TASK_HANDS)]
    out = Path(tempfile.mkdtemp(prefix="bench-exh-dask-"))
    before, driver, t = client.run(_process_cpu), time.process_time(), time.perf_counter()
    run_distributed(template, tasks, out, scheduler=client.scheduler.address)
    wall, driver = time.perf_counter() - t, time.process_time() - driver
    after = client.run(_process_cpu)
    shutil.rmtree(out, ignore_errors=True)
    dask = driver + sum(after[w] - before[w] for w in before)
    return [
        [
            f"{n:,} deals: one plain process, CPU / wall",
            f"{one[0]:.2f} / {one[1]:.2f}",
            "",
        ],
        [
            "the same in two plain processes at once (halves), CPU / wall",
            f"{two[0]:.2f} / {two[1]:.2f}",
            f"{two[0] / one[0]:.2f}x the CPU, {one[1] / two[1]:.2f}x the speed",
        ],
        [
            f"the same as {len(tasks)} tasks on the 2 workers, CPU (workers and driver) / wall",
            f"{dask:.2f} / {wall:.2f}",
            f"{dask / one[0]:.2f}x the CPU, {one[1] / wall:.2f}x the speed",
        ],
    ]


def dask_phases(n: int, tasks: int, whole: int) -> None:
    """The ``--dask-phases`` table (see the module docstring)."""
    from pokercert.harness.explore.distributed import client_for

    loads = [load()]
    t = time.perf_counter()
    client, close = client_for(None, 2)
    rows = [["cluster start (2 workers), wall", f"{time.perf_counter() - t:.2f}", ""]]
    try:
        workers = list(client.scheduler_info()["workers"])
        rows += _task_costs(client, workers)
        rows += _round_trip(client, tasks)
        rows += _range_costs(client, workers[0], n)
        rows.append(_idle_cost(client))
        if whole:
            rows += _pass_costs(client, whole)
    finally:
        t = time.perf_counter()
        close()
        rows.append(["cluster close, wall", f"{time.perf_counter() - t:.2f}", ""])
    loads.append(load())
    print(
        f"--workers 2 phases, nj-holdem, eval7, ranges of {n:,} hands "
        f"(load average {loads[0]}-{loads[1]})\n"
    )
    print(tabulate(rows, headers=["phase", "s", ""], tablefmt="github"))


def stages(n: int) -> None:
    """The ``--stages`` table (see the module docstring)."""
    rows_out = []
    for rid, start in (("nj-poker-high-5", 1_000_000), ("nj-holdem", 5_000_000)):
        t, size = _stage_times(rid, start, n)
        bare = _bare_from(size, start, n)
        ours = sum(t.values()) - t["eval7 evaluate"]
        rows_out.append(
            [
                f"{rid} ({size} cards)",
                *(f"{v / n * 1e6:.3f}" for v in t.values()),
                f"{ours / n * 1e6:.3f}",
                f"{bare / n * 1e6:.3f}",
                f"{sum(t.values()) / bare:.2f}x",
            ]
        )
    print(f"per hand, CPU us, {n:,} hands from a fixed position, load average {load()}")
    print(
        tabulate(
            rows_out,
            headers=["", *t, "ours (all but evaluate)", "bare loop", "stages / bare"],
            tablefmt="github",
        )
    )


def _stage_times(rid: str, start: int, n: int) -> tuple[dict[str, float], int]:
    """CPU seconds of each stage of the in-process key path over hands ``start`` to
    ``start + n - 1`` of ``rid`` in batches of 4,096, and the hands' size."""
    import eval7

    from pokercert.harness.api import Hands
    from pokercert.harness.peers.eval7 import Eval7Evaluator
    from pokercert.reference import get_ruleset, load_profile
    from pokercert.reference.classes import ReferenceClasses, card_order, space_of

    clock = time.process_time
    rs, prof = get_ruleset(rid), load_profile("practice")
    ref = ReferenceClasses(rs, prof, space_of(rs, prof))
    size = ref.space.size
    ev = Eval7Evaluator()
    ev.configure(rid, {})
    key_of = ref.lookup(list(range(len(ref.keys))))
    names = ["unrank", "card order", "reference classes", "eval7 cards", "eval7 evaluate"]
    t = dict.fromkeys([*names, "categories", "compare with reference"], 0.0)
    for pos in range(start, start + n, 4096):
        stop = min(pos + 4096, start + n)
        c = clock()
        rows = ref._rows(pos, stop)
        t["unrank"] += clock() - c
        c = clock()
        batch = Hands(None, size, rows=card_order(1, rows, presorted=True))
        t["card order"] += clock() - c
        c = clock()
        classes = ref.class_index(pos, batch)
        t["reference classes"] += clock() - c
        c = clock()
        cards = ev._code_array[batch.rows.ravel()].tolist()
        t["eval7 cards"] += clock() - c
        c = clock()
        values = list(map(eval7.evaluate, zip(*[iter(cards)] * size, strict=True)))
        t["eval7 evaluate"] += clock() - c
        c = clock()
        categories = ev._categories_of(values)
        t["categories"] += clock() - c
        c = clock()
        _ = categories == ref.categories_of(classes) and values == key_of(classes)
        t["compare with reference"] += clock() - c
    return t, size


def _bare_from(size: int, start: int, n: int) -> float:
    """CPU seconds of eval7's own loop over the ``n`` hands of ``size`` cards from
    ``start`` (the hands before it skipped before the clock starts)."""
    from itertools import islice

    import eval7

    deck = [eval7.Card(x) for x in CANONICAL]
    hands = combinations(deck, size)
    next(islice(hands, start - 1, start))
    c = time.process_time()
    for h in islice(hands, n):
        eval7.evaluate(list(h))
    return time.process_time() - c


def command(pokercert: str, args: list[str], cache: Path) -> tuple[float, float, float]:
    """(CPU seconds, wall seconds, peak RSS MB) of one child command and its children
    (Dask workers, adapter processes)."""
    out = Path(tempfile.mkdtemp(prefix="bench-exh-"))
    env = {**os.environ, "POKERCERT_CACHE_DIR": str(cache)}
    # a fresh process per command, so that the children's usage is this command's alone
    probe = [
        sys.executable,
        "-c",
        "import resource, subprocess, sys, time; t = time.perf_counter(); "
        "r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL); "
        "u = resource.getrusage(resource.RUSAGE_CHILDREN); "
        "print(u.ru_utime + u.ru_stime, time.perf_counter() - t, u.ru_maxrss); "
        "sys.exit(r.returncode)",
        pokercert,
        "exhaustive",
        *args,
        "--out",
        str(out),
    ]
    done = subprocess.run(probe, capture_output=True, text=True, env=env)
    shutil.rmtree(out, ignore_errors=True)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(args)}: exit {done.returncode}\n{done.stderr[-2000:]}")
    cpu, wall, rss = done.stdout.split()[-3:]
    return float(cpu), float(wall), int(rss) / 1024


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--peers", default="treys,eval7,phevaluator")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--pokercert", default=shutil.which("pokercert") or "pokercert")
    parser.add_argument(
        "--old", action="store_true", help="the command predates --sorted/--order-seed/--workers"
    )
    parser.add_argument(
        "--workers", action="store_true", help="also time --workers 2 (a local Dask cluster)"
    )
    parser.add_argument(
        "--seven", type=int, metavar="N", help="the seven-card pass over the first N deals instead"
    )
    parser.add_argument(
        "--write-docs",
        action="store_true",
        help="with --seven: rewrite the block exhaustive-seven of "
        "benchmarks/README.md with the figures",
    )
    parser.add_argument(
        "--stages",
        type=int,
        metavar="N",
        help="where the in-process pass's time goes, per hand, over N hands",
    )
    parser.add_argument(
        "--dask-phases",
        type=int,
        metavar="N",
        help="where a --workers 2 run's time goes beside its hands, ranges of N hands",
    )
    parser.add_argument(
        "--tasks",
        type=int,
        default=-(-SEVEN // 2**18),
        help="with --dask-phases: one-hand tasks for the round trip (default: 511, as many "
        "as the whole seven-card pass has at the default task size, 2**18 deals)",
    )
    parser.add_argument(
        "--dask-pass",
        type=int,
        default=0,
        metavar="M",
        help="with --dask-phases: also M deals as tasks of the default size on the workers "
        "against two plain processes at once and one",
    )
    return parser.parse_args()


def main() -> None:
    args = _arguments()
    if args.dask_phases:
        dask_phases(args.dask_phases, args.tasks, args.dask_pass)
    elif args.stages:
        stages(args.stages)
    elif args.seven:
        seven(args)
    else:
        order = [] if args.old else ["--order-seed", "1"]
        peers_vs_bare_loops(args, order)
        fixed_setup(args, order)


def peers_vs_bare_loops(args: argparse.Namespace, order: list[str]) -> None:
    """Each peer's whole command against its bare loop (best CPU of ``--repeat``)."""
    peers = args.peers.split(",")
    cache = Path(tempfile.mkdtemp(prefix="bench-exh-cache-"))
    best: dict[str, dict[str, float]] = {p: {} for p in peers}
    for _ in range(args.repeat):
        for peer in peers:
            b = best[peer]
            b["bare"] = min(b.get("bare", 1e9), BARE[peer]())
            cpu, wall, rss = command(
                args.pokercert, ["--adapter", peer, "--ruleset", "nj-poker-high-5", *order], cache
            )
            if cpu < b.get("command", 1e9):
                b["command"], b["wall"], b["rss"] = cpu, wall, rss
            if args.workers:
                _, wall, _ = command(
                    args.pokercert,
                    ["--adapter", peer, "--ruleset", "nj-poker-high-5", *order, "--workers", "2"],
                    cache,
                )
                b["workers2"] = min(b.get("workers2", 1e9), wall)
    rows = []
    for peer in peers:
        b = best[peer]
        row = [
            peer,
            f"{b['command']:.2f}",
            f"{b['bare']:.2f}",
            f"**{b['command'] / b['bare']:.2f}x**",
            f"{b['wall']:.2f}",
            f"{b['rss']:.0f}",
        ]
        if args.workers:
            row.append(f"{b['workers2']:.2f} ({b['wall'] / b['workers2']:.2f}x)")
        rows.append(row)
    headers = ["peer", "command CPU s", "bare loop CPU s", "ratio", "command wall s", "peak RSS MB"]
    if args.workers:
        headers.append("--workers 2 wall s (speed-up)")
    print(tabulate(rows, headers=headers, tablefmt="github"))
    shutil.rmtree(cache, ignore_errors=True)


def fixed_setup(args: argparse.Namespace, order: list[str]) -> None:
    """The fixed set-up: a one-hand shard, cold and warm class-table cache."""
    empty = Path(tempfile.mkdtemp(prefix="bench-exh-cold-"))
    one = ["--adapter", "treys", "--ruleset", "nj-poker-high-5", "--shard", f"1/{FIVE}", *order]
    cold = command(args.pokercert, one, empty)
    warm = min(
        (command(args.pokercert, one, empty) for _ in range(max(args.repeat, 2))),
        key=lambda r: r[0],
    )
    print()
    print(
        tabulate(
            [
                ["cold (no table on disk)", f"{cold[0]:.2f}", f"{cold[2]:.0f}"],
                ["warm (table on disk)", f"{warm[0]:.2f}", f"{warm[2]:.0f}"],
            ],
            headers=["set-up: one-hand shard", "CPU s", "peak RSS MB"],
            tablefmt="github",
        )
    )
    shutil.rmtree(empty, ignore_errors=True)


if __name__ == "__main__":
    main()
