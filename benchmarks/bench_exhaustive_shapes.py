"""Exhaustive passes per adapter shape: compare-only, keyed, batched; in process and exec:.

Run:  python benchmarks/bench_exhaustive_shapes.py [--hands N] [--repeat K]
      [--shapes compare-only,keyed,batched] [--write-docs]

One evaluator, treys (a named peer: its bare loop over the same hands is the floor every
row is held to), behind six adapters: in process (an evaluator object given to the
harness directly) and ``exec:`` (a small JSON-lines adapter script written to a temporary
folder and run with this Python), each in three shapes:

* compare-only: claims ``compare`` and nothing else (no categories, no key): the classes
  are ordered by compare requests, each hand set against a member of its class;
* keyed: ``classify`` and ``compare``; in process also a per-hand ``key``; over exec:
  no batch operation (one ``classify`` request per hand, the classes by compare);
* batched: ``classify_many`` and ``evaluate_many`` over exec:, ``evaluate_many`` in
  process: whole batches of hands, the classes by key.

Each row runs ``run_exhaustive`` over N hands of nj-poker-high-5 from ``--start`` and
splits the time
into the set-up (the reference's classes and the classes' order: fixed per run) and the
hands.  CPU is the harness's (this process) and the adapter's (the exec: child, read
from /proc while it runs); in process the harness's is the same pass's with every
evaluator call answered by ``next`` of a pass's answers kept (a call of C,
:func:`harness_alone`), the adapter's the rest of a real pass's.  ``harness share`` is
the harness's part of the CPU of the hands phase (issue 28's target: at most 10% for a
compare-only pass).
``--write-docs`` rewrites the block ``exhaustive-shapes`` of benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from functools import partial
from itertools import combinations, islice
from pathlib import Path
from typing import Any

from _docs import write_block
from tabulate import tabulate

DOC_BLOCKS = {
    "exhaustive-shapes": "benchmarks/README.md",
    "exhaustive-stages": "benchmarks/README.md",
}
RULESET = "nj-poker-high-5"
SHAPES = ("compare-only", "keyed", "batched")
_NAMES = {
    1: "straight_flush",
    2: "four_of_a_kind",
    3: "full_house",
    4: "flush",
    5: "straight",
    6: "three_of_a_kind",
    7: "two_pair",
    8: "one_pair",
    9: "high_card",
}

# the exec: adapter: protocol 1 (harness/PROTOCOL.md), only what an exhaustive pass sends
EXEC_ADAPTER = """
import json, sys
from treys import Card, Evaluator
EV = Evaluator()
NAMES = %(names)r
KINDS, FEATURES = %(kinds)r, %(features)r
def score(hand):
    return EV.evaluate([Card.new(c) for c in hand.split(" ")], [])
def category(s):
    return "royal_flush" if s == 1 else NAMES[EV.get_rank_class(s)]
def answer(r):
    op = r["op"]
    if op == "classify":
        return {"category": category(score(r["hand"]))}
    if op == "compare":
        s = [score(h) for h in r["hands"]]
        return {"winners": [i for i, x in enumerate(s) if x == min(s)]}
    s = [score(h) for h in r["hands"]]
    out = {"categories": [category(x) for x in s]}
    if op == "evaluate_many":
        out["keys"] = [7463 - x for x in s]
    return out
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        reply = {"type": "hello", "protocol": 1, "capabilities": {%(ruleset)r: KINDS},
                 "evaluator": {"vendor": "bench", "name": "treys", "version": "0"},
                 "adapter": {"name": "bench", "version": "0"}, "features": FEATURES}
    elif m["type"] == "configure":
        reply = {"type": "configure", "ok": True}
    elif m["type"] == "batch":
        reply = {"type": "batch", "id": m["id"],
                 "replies": [{"id": r["id"], **answer(r)} for r in m["requests"]]}
    else:
        break
    sys.stdout.write(json.dumps(reply) + "\\n")
    sys.stdout.flush()
"""
_EXEC_SHAPES = {
    "compare-only": (["compare"], {}),
    "keyed": (["classify", "compare"], {}),
    "batched": (["classify", "compare"], {"classify_many": 1, "evaluate_many": 1}),
}


class _Treys:
    """treys in process, in one of the three shapes (:data:`SHAPES`)."""

    def __init__(
        self, shape: str, answers: dict[str, list[Any]] | None = None, keep: bool = False
    ) -> None:
        from treys import Card, Evaluator

        from pokercert.harness.api import EvaluatorInfo

        self.info = EvaluatorInfo(vendor="bench", name="treys", version="0")
        self.shape, self.card, self.ev = shape, Card.new, Evaluator()
        methods = {"winners": self._winners}
        if shape == "keyed":
            methods |= {"classify": self._classify, "key": self._key}
        if shape == "batched":
            methods |= {"classify": self._classify, "evaluate_many": self._evaluate_many}
        # every answer of a pass, by method: kept (``keep``), or, given ``answers``
        # (another pass's over the same hands, asked in the same order), given back in
        # order by a callable of C (``next`` of the answers, the call's argument its
        # unused default): no frame of ours a call (:func:`harness_alone`)
        self.kept: dict[str, list[Any]] = {}
        self._left: dict[str, Any] = {}
        for name, method in methods.items():
            if answers is not None:
                self._left[name] = iter(answers[name])
                setattr(self, name, partial(next, self._left[name]))
            elif keep:
                setattr(self, name, self._kept(name, method))
            else:
                setattr(self, name, method)

    def _kept(self, name: str, method: Any) -> Any:
        kept = self.kept.setdefault(name, [])

        def call(*args: Any) -> Any:
            found = method(*args)
            kept.append(found)
            return found

        return call

    def all_given(self) -> bool:
        """Whether every kept answer was asked for (a replayed pass asked what the kept
        one did)."""
        end = object()
        return all(next(left, end) is end for left in self._left.values())

    def capabilities(self) -> dict[str, list[str]]:
        return {RULESET: ["compare"] if self.shape == "compare-only" else ["classify", "compare"]}

    def configure(self, ruleset: str, readings: dict[str, str]) -> None:
        pass

    def _score(self, hand: list[str]) -> int:
        return int(self.ev.evaluate([self.card(c) for c in hand], []))

    def _classify(self, hand: list[str]) -> str:
        s = self._score(hand)
        return "royal_flush" if s == 1 else _NAMES[self.ev.get_rank_class(s)]

    def _key(self, hand: list[str]) -> int:
        return 7463 - self._score(hand)

    def _evaluate_many(self, hands: Any) -> tuple[list[str], list[int]]:
        scores = [self._score(h) for h in hands]
        return (
            [("royal_flush" if s == 1 else _NAMES[self.ev.get_rank_class(s)]) for s in scores],
            [7463 - s for s in scores],
        )

    def _winners(self, hands: list[list[str]], board: Any = None) -> list[int]:
        s = [self._score(h) for h in hands]
        return [i for i, x in enumerate(s) if x == min(s)]


def _children_cpu() -> float:
    """CPU seconds of this process's children and their children, as they run (Linux)."""
    tick = os.sysconf("SC_CLK_TCK")
    todo, total = [os.getpid()], 0.0
    while todo:
        pid = todo.pop()
        for task in Path(f"/proc/{pid}/task").glob("*/children"):
            for child in task.read_text().split():
                todo.append(int(child))
                try:
                    stat = Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()
                    total += (int(stat[11]) + int(stat[12])) / tick
                except (OSError, IndexError, ValueError):
                    continue
    return total


def _adapter(
    shape: str,
    transport: str,
    folder: str,
    answers: dict[str, list[Any]] | None = None,
    keep: bool = False,
) -> Any:
    from pokercert.harness.adapters import AdapterOptions, load_adapter
    from pokercert.harness.adapters.inprocess import InProcessAdapter

    if transport == "in process":  # guarded as the CLI guards it: the default timeout
        timeout = AdapterOptions().timeout
        return InProcessAdapter(_Treys(shape, answers, keep), "py:bench", "bench", "0", timeout)
    kinds, features = _EXEC_SHAPES[shape]
    script = Path(folder) / f"{shape}.py"
    script.write_text(
        EXEC_ADAPTER % {"names": _NAMES, "kinds": kinds, "features": features, "ruleset": RULESET},
        encoding="utf-8",
    )
    return load_adapter(f"exec:{sys.executable} {script}")


class Stages:
    """Harness CPU per stage of the hands phase: each named function, wrapped, adds its
    own process time to its stage (a stage called inside another is taken out of the
    outer one's time); what no stage holds is the rest (the batch loop, request dicts,
    reply checks).  ``run_batches`` (the pipelined ``exec:`` batches: a generator) is
    timed step by step.  Installed for one pass; ``reset`` as the hands phase begins."""

    def __init__(self) -> None:
        self.cpu: dict[str, float] = dict.fromkeys(STAGES, 0.0)
        self._open: list[list[Any]] = []  # [stage, when it last resumed]
        self._undo: list[tuple[Any, str, Any]] = []

    def install(self, adapter: Any) -> None:
        from pokercert.harness.explore import exhaustive_compare as compare
        from pokercert.harness.explore.class_pairs import ClassPairs
        from pokercert.harness.explore.exhaustive_batches import BatchSource
        from pokercert.reference.classes import ReferenceClasses

        for owner, name, stage in [
            (BatchSource, "hands", "reference hands"),
            (ReferenceClasses, "class_index", "reference classes of the hands"),
            (ClassPairs, "members_beside", "a class member beside each hand"),
            (compare, "batch_texts", "hand texts"),
            (adapter, "run_batch", TRANSPORT),
            (adapter, "compare_ties", TRANSPORT),
        ]:
            self._wrap(owner, name, stage)
        batches = adapter.run_batches

        def run_batches(requests: Any) -> Any:
            steps = batches(requests)
            while True:
                try:
                    replies = self.timed(TRANSPORT, next, steps)
                except StopIteration:
                    return
                yield replies

        adapter.run_batches = run_batches
        self._undo.append((adapter, "run_batches", batches))

    def timed(self, stage: str, call: Any, *args: Any, **kwargs: Any) -> Any:
        """``call(*args, **kwargs)``, its own CPU added to ``stage``."""
        now = time.process_time()
        if self._open:  # the outer stage pauses
            outer = self._open[-1]
            self.cpu[outer[0]] += now - outer[1]
        self._open.append([stage, now])
        try:
            return call(*args, **kwargs)
        finally:
            now = time.process_time()
            inner = self._open.pop()
            self.cpu[inner[0]] += now - inner[1]
            if self._open:
                self._open[-1][1] = now

    def _wrap(self, owner: Any, name: str, stage: str) -> None:
        original = getattr(owner, name)

        def timed(*args: Any, **kwargs: Any) -> Any:
            return self.timed(stage, original, *args, **kwargs)

        setattr(owner, name, timed)
        self._undo.append((owner, name, original))

    def reset(self) -> None:
        self.cpu = dict.fromkeys(STAGES, 0.0)

    def uninstall(self) -> None:
        for owner, name, original in reversed(self._undo):
            if isinstance(owner, type) or hasattr(owner, "__file__"):
                setattr(owner, name, original)
            else:
                delattr(owner, name)  # the instance's own attribute: the method shows again
        self._undo.clear()


TRANSPORT = "transport (run_batch, run_batches, compare_ties)"
STAGES = (
    "reference hands",
    "reference classes of the hands",
    "a class member beside each hand",
    "hand texts",
    TRANSPORT,
)


def one_pass(
    shape: str,
    transport: str,
    start: int,
    hands: int,
    stages: Stages | None = None,
    answers: dict[str, list[Any]] | None = None,
    keep: bool = False,
) -> dict[str, Any]:
    """Times of one pass: set-up and hands, wall and CPU (harness: this process's;
    adapter: the exec: child's; in process the evaluator's CPU is inside this process's,
    told apart by :func:`measure`).  ``stages``: the harness's CPU per stage too.
    In process, ``keep``: the evaluator's answers kept (``kept``); ``answers``: every
    call answered from another pass's, at next to no cost (:func:`harness_alone`)."""
    from pokercert.harness.explore.exhaustive import run_exhaustive
    from pokercert.reference import get_ruleset, load_profile

    rs, prof = get_ruleset(RULESET), load_profile("practice")
    marks: dict[str, tuple[float, float, float]] = {}

    def mark(name: str) -> None:
        marks[name] = (time.perf_counter(), time.process_time(), _children_cpu())

    with tempfile.TemporaryDirectory() as folder:
        adapter = _adapter(shape, transport, folder, answers, keep)
        treys = getattr(adapter, "evaluator", None)

        phase = _on_hands(lambda: mark("hands"), stages)
        with adapter:
            identity = adapter.start()
            adapter.configure(RULESET, prof.readings_for(rs))
            if stages is not None:
                stages.install(adapter)
            mark("start")
            try:
                state = run_exhaustive(
                    adapter,
                    identity,
                    rs,
                    prof,
                    Path(folder),
                    adapter_spec="bench",
                    order_seed=1,
                    hands=(start, start + hands),
                    phase=phase,
                )
                mark("end")
            finally:
                if stages is not None:
                    stages.uninstall()
    assert state.finished and not state.disagreeing, state.as_dict()
    assert treys is None or treys.all_given(), "the replayed pass asked other calls"
    return {
        **_times(state.mode, marks),
        "kept": treys.kept if treys is not None else {},
    }


def _on_hands(mark: Any, stages: Stages | None) -> Any:
    """The pass's phase hook: as the hands begin, the mark, and the stages' counts
    started afresh (the set-up's calls are not the hands')."""

    def phase(name: str, done: int, total: int) -> None:
        if name == "hands":
            mark()
            if stages is not None:
                stages.reset()

    return phase


def _times(mode: str, marks: dict[str, tuple[float, float, float]]) -> dict[str, Any]:
    """The pass's set-up and hands times from its marks (in process this process's CPU
    is the harness's and the evaluator's together: :func:`measure` tells them apart)."""
    (w0, c0, a0), (w1, c1, a1), (w2, c2, a2) = marks["start"], marks["hands"], marks["end"]
    return {
        "mode": mode,
        "setup_wall": w1 - w0,
        "setup_cpu": c1 - c0 + a1 - a0,
        "wall": w2 - w1,
        "harness": c2 - c1,
        "adapter": a2 - a1,
    }


def bare_loop(start: int, hands: int) -> float:
    """CPU seconds of treys's bare loop over the same ``hands`` five-card hands (the
    peer's own floor: a list comprehension over its own card type)."""
    from treys import Card, Evaluator

    from pokercert.reference import DECK

    ev, cards = Evaluator(), [Card.new(str(c)) for c in DECK]
    rows = list(islice(combinations(cards, 5), start, start + hands))
    start = time.process_time()
    _ = [ev.evaluate(list(r), []) for r in rows]
    return time.process_time() - start


def harness_alone(shape: str, start: int, hands: int, repeat: int) -> float:
    """CPU seconds of the harness alone over the hands of a pass in process: the hands
    phase's CPU when every evaluator call is answered from another pass's answers over
    the same hands (:func:`one_pass` ``keep``, then ``answers``), by ``next`` of them:
    a call of C, no Python frame, whose small cost is counted as the harness's.  Best
    of ``repeat``."""
    kept = one_pass(shape, "in process", start, hands, keep=True)["kept"]
    return min(
        one_pass(shape, "in process", start, hands, answers=kept)["harness"] for _ in range(repeat)
    )


def measure(shapes: list[str], start: int, hands: int, repeat: int) -> list[list[Any]]:
    """One row per shape and transport: the best of ``repeat`` passes (by hands CPU),
    interleaved so that a change in the machine's load hits every row alike."""
    best: dict[tuple[str, str], dict[str, Any]] = {}
    for _ in range(repeat):
        for shape in shapes:
            for transport in ("in process", "exec:"):
                got = one_pass(shape, transport, start, hands)
                key = (shape, transport)
                if (
                    key not in best
                    or got["harness"] + got["adapter"] < best[key]["harness"] + best[key]["adapter"]
                ):
                    best[key] = got
    floor = min(bare_loop(start, hands) for _ in range(repeat))
    rows = []
    for (shape, transport), r in best.items():
        harness, adapter = r["harness"], r["adapter"]
        cpu = harness + adapter
        if transport == "in process":  # the harness alone; the evaluator the rest
            harness = min(cpu, harness_alone(shape, start, hands, repeat))
            adapter = cpu - harness
        rows.append(
            [
                shape,
                transport,
                r["mode"],
                f"{r['setup_wall']:.2f}",
                f"{r['setup_cpu']:.2f}",
                f"{r['wall']:.2f}",
                f"{harness:.2f}",
                f"{adapter:.2f}",
                f"{100 * harness / cpu:.1f}%" if cpu else "",
                f"{hands / cpu:,.0f}" if cpu else "",
                f"{cpu / floor:.1f}",
            ]
        )
    return rows


def stage_rows(shapes: list[str], start: int, hands: int, repeat: int) -> list[list[Any]]:
    """Where each pass's hands-phase CPU goes: the harness's stages (:class:`Stages`),
    the rest of the harness, and the adapter; per hand and as a share of the whole.  In
    process the stages are timed in a pass whose evaluator calls cost nothing (every CPU
    second of it is the harness's, :func:`harness_alone`), the evaluator's CPU is what a
    real pass (stages timed too) spends beyond it.  Best of ``repeat`` by hands CPU."""
    rows: list[list[Any]] = []
    for shape in shapes:
        for transport in ("in process", "exec:"):
            kept = (
                one_pass(shape, transport, start, hands, keep=True)["kept"]
                if transport == "in process"
                else None
            )
            best = _best_staged(shape, transport, start, hands, repeat, kept)
            if kept is not None:
                real = min(
                    _cpu(one_pass(shape, transport, start, hands, Stages())) for _ in range(repeat)
                )
                best[0]["adapter"] = max(0.0, real - best[0]["harness"])
            rows += _stage_table(shape, transport, hands, *best)
    return rows


def _cpu(got: dict[str, Any]) -> float:
    return float(got["harness"] + got["adapter"])


def _best_staged(
    shape: str, transport: str, start: int, hands: int, repeat: int, kept: Any
) -> tuple[dict[str, Any], dict[str, float]]:
    """The pass (stages timed) of least hands CPU of ``repeat``, and its stages' CPU."""
    best: tuple[dict[str, Any], dict[str, float]] | None = None
    for _ in range(repeat):
        stages = Stages()
        got = one_pass(shape, transport, start, hands, stages, answers=kept)
        if best is None or _cpu(got) < _cpu(best[0]):
            best = got, dict(stages.cpu)
    assert best is not None
    return best


def _stage_table(
    shape: str, transport: str, hands: int, got: dict[str, Any], cpu: dict[str, float]
) -> list[list[Any]]:
    total = got["harness"] + got["adapter"]
    parts = [
        *((f"harness: {name}", cpu[name]) for name in STAGES),
        ("harness: the rest (batch loop, request dicts, reply checks)", 0.0),
        ("adapter (the evaluator's own calls)", got["adapter"]),
    ]
    parts[len(STAGES)] = (parts[len(STAGES)][0], max(0.0, got["harness"] - sum(cpu.values())))
    return [
        [shape, transport, name, f"{t:.3f}", f"{1e6 * t / hands:.2f}", f"{100 * t / total:.0f}%"]
        for name, t in parts
    ]


STAGE_HEAD = ["shape", "adapter", "stage", "cpu s", "µs/hand", "share of the hands' cpu"]


HEAD = [
    "shape",
    "adapter",
    "mode",
    "set-up wall s",
    "set-up cpu s",
    "hands wall s",
    "harness cpu s",
    "adapter cpu s",
    "harness share",
    "hands/cpu s",
    "hands cpu / treys bare loop",
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--start",
        type=int,
        default=1_000_000,
        help="the first hand (default: %(default)s, a stretch of one-pair "
        "and high-card hands, the bulk of the space)",
    )
    ap.add_argument("--hands", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--shapes", default=",".join(SHAPES))
    ap.add_argument("--write-docs", action="store_true")
    ap.add_argument(
        "--stages",
        action="store_true",
        help="where the hands phase's CPU goes, stage by stage (see Stages)",
    )
    args = ap.parse_args()
    if args.stages:
        rows = stage_rows(args.shapes.split(","), args.start, args.hands, args.repeat)
        table = tabulate(rows, STAGE_HEAD, tablefmt="github")
        print(table)
        if args.write_docs:
            write_block("benchmarks/README.md", "exhaustive-stages", table + "\n")
        return
    rows = measure(args.shapes.split(","), args.start, args.hands, args.repeat)
    table = tabulate(rows, HEAD, tablefmt="github")
    note = (
        f"\nhands {args.start:,}..{args.start + args.hands:,} of {RULESET}; best of "
        f"{args.repeat} interleaved runs by hands-phase CPU; treys's bare loop over the "
        "same hands is the floor; in process the harness's CPU is the harness alone (the "
        "same pass, every evaluator call answered by next() of the answers kept), the "
        "adapter's the rest of a real pass\n"
    )
    print(table + note)
    if args.write_docs:
        write_block("benchmarks/README.md", "exhaustive-shapes", table + "\n" + note)


if __name__ == "__main__":
    main()
