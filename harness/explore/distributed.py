"""Exhaustive passes on a Dask cluster: hand ranges as tasks, merged by range.

``pokercert exhaustive ... --dask SCHEDULER`` (or ``--workers N``, an embedded
``LocalCluster``) splits the ruleset's hands into contiguous ranges and runs each range
as one ``dask.distributed`` task, :func:`check_range`:

* a task is a pure function of its :class:`RangeTask` (adapter spec and options, ruleset,
  profile, range, card-order seed): it writes nothing and returns the range's
  :class:`~.exhaustive_state.State` as a dict;
* each worker process starts its own adapter (kept for the worker's next tasks), loads
  the reference's class table from the disk cache (:mod:`pokercert.reference.table_cache`)
  and asks the adapter for the classes' keys once per run (key mode), not per range;
* the class order is checked once, by the task of the first range;
* results are merged by range (:func:`~.exhaustive_state.merge_states`): a task whose
  worker is lost is run again by Dask on another worker, and since only finished tasks'
  results are kept, and a range is counted once, no hand is lost or counted twice.

Each finished range is saved in the run folder (``ranges/START-STOP.json``) as it comes
in, so ``--resume`` sends only the ranges still missing.  Dask is an optional extra:
``pip install 'pokercert[dask]'``.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pokercert.harness.adapters import (
    Adapter,
    AdapterAborted,
    AdapterOptions,
    Identity,
    load_adapter,
)
from pokercert.harness.explore.exhaustive import (
    DEFAULT_REPORT,
    ExhaustiveAborted,
    Phase,
    checker_for,
    new_state,
    plan_run,
)
from pokercert.harness.explore.exhaustive_checker import Checker
from pokercert.harness.explore.exhaustive_keyed import KeyedChecker
from pokercert.harness.explore.exhaustive_state import State, merge_states, resume_state
from pokercert.reference import Profile, Ruleset, get_ruleset
from pokercert.reference.classes import ReferenceClasses, space_of
from pokercert.reference.errors import InputError

__all__ = [
    "DaskMissing",
    "RangeTask",
    "check_range",
    "client_for",
    "dask_distributed",
    "missing_ranges",
    "plan_ranges",
    "run_distributed",
    "run_exhaustive_on_dask",
    "saved_ranges",
]

RANGES = "ranges"
# hands per task: small enough that a lost task costs little and the workers stay busy
# to the end, large enough that a task's own cost (about 5 ms of CPU with Dask's round
# trip once the worker is warm, against 0.2 s of seven-card hands) is noise
DEFAULT_TASK_HANDS = 1 << 18


# the configuration of the workers of an embedded LocalCluster (see client_for):
# * Dask's statistical profiler off: it samples every worker thread's stack every 10 ms,
#   which slowed each CPU-bound hand by about half;
# * glibc's malloc left as it is: the nanny starts each worker with MALLOC_TRIM_THRESHOLD_
#   = 65536, which gives memory back to the system after every batch's arrays and faults
#   it in again for the next (11x the page faults, about 0.4 s of CPU per million
#   seven-card deals; benchmarks/README.md).
# * the cluster's own housekeeping slowed: an idle embedded cluster of two workers took
#   about 15% of one core (the scheduler and the nannies in the driver 8%, each worker
#   3%: a 20 ms event-loop tick, a 0.5 s system monitor, a 0.1 s memory monitor), 2% with
#   these settings; the workers' memory limit is off (the tasks hold a few MB each).
# A cluster of one's own: the same settings in each process's environment (harness/CI.md).
WORKER_CONFIG = {
    "distributed.worker.profile.enabled": False,
    "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.worker.memory.monitor-interval": "5s",
}


class DaskMissing(InputError):
    """``--dask`` or ``--workers`` without the optional extra installed."""


@dataclass(frozen=True)
class RangeTask:
    """Everything a worker needs to check hands ``start`` to ``stop - 1``."""

    adapter_spec: str
    options: AdapterOptions
    ruleset: str
    profile: dict[str, Any]  # Profile name and choices
    jokers: bool
    start: int
    stop: int
    order_seed: int | None
    check_order: bool
    batch: int | None = None  # hands a batch (None: the worker's adapter's choice)
    report_limit: int = DEFAULT_REPORT


def plan_ranges(start: int, stop: int, hands_per_task: int) -> list[tuple[int, int]]:
    """Contiguous ranges of at most ``hands_per_task`` that together are [start, stop)."""
    count = max(1, -(-(stop - start) // hands_per_task))
    return [
        (start + i * (stop - start) // count, start + (i + 1) * (stop - start) // count)
        for i in range(count)
    ]


# one started adapter and one reference per worker process, reused by its tasks
_WORKER: dict[Any, Any] = {}
_WORKER_LOCK = threading.Lock()


def _profile(data: dict[str, Any]) -> Profile:
    return Profile(data["name"], dict(data.get("choices", {})))


def _adapter_key(task: RangeTask) -> tuple[str, ...]:
    return (
        task.adapter_spec,
        repr(task.options),
        task.ruleset,
        json.dumps(task.profile, sort_keys=True),
    )


def _worker_adapter(task: RangeTask) -> tuple[Adapter, Identity]:
    key = ("adapter", *_adapter_key(task))
    found = _WORKER.get(key)
    if found is None:
        ruleset = get_ruleset(task.ruleset)
        adapter = load_adapter(task.adapter_spec, task.options)
        adapter.__enter__()
        identity = adapter.start()
        adapter.configure(ruleset.id, _profile(task.profile).readings_for(ruleset))
        found = _WORKER[key] = (adapter, identity)
    return found


def _worker_reference(task: RangeTask) -> ReferenceClasses:
    ruleset = get_ruleset(task.ruleset)
    key = ("reference", task.ruleset, json.dumps(task.profile, sort_keys=True), task.jokers)
    found = _WORKER.get(key)
    if found is None:
        space = space_of(ruleset, _profile(task.profile), task.jokers)
        found = _WORKER[key] = ReferenceClasses(ruleset, _profile(task.profile), space)
    return found


def _check_order(checker: Checker, task: RangeTask, ref: ReferenceClasses) -> None:
    """``checker.check_order()``, by key with the class keys this worker's adapter gave an
    earlier range of the run: they are the same for every range (one adapter, one card
    order), and asking for them again cost about 75 ms of CPU per task, a third of the
    hands of a task of 2**18 seven-card deals (benchmarks/README.md)."""
    if not isinstance(checker, KeyedChecker):
        checker.check_order()
        return
    key = ("class keys", *_adapter_key(task), task.order_seed, task.jokers)
    known = _WORKER.get(key)
    if known is not None:
        ref.rep[:] = known[1]  # the members the keys were taken from, as written up
    checker.check_order(class_keys=known[0] if known else None)
    _WORKER[key] = (checker.class_keys, list(ref.rep))


def _drop_worker_adapter(task: RangeTask) -> None:
    """Forget (and close) this worker's adapter for ``task``, and the class keys it gave:
    the harness gave up on it, so the worker's next task starts a new one."""
    for key in [k for k in _WORKER if k[0] == "class keys" and k[1] == task.adapter_spec]:
        del _WORKER[key]
    for key in [k for k in _WORKER if k[0] == "adapter" and k[1] == task.adapter_spec]:
        adapter, _ = _WORKER.pop(key)
        # (a dead adapter may fail to close: it is forgotten anyway)
        with contextlib.suppress(Exception):
            adapter.__exit__(None, None, None)


def check_range(task: RangeTask) -> dict[str, Any]:
    """Check one range on this worker; the range's state, as a dict (a Dask task).

    If the harness gives up on the adapter mid-range, the state says how far it got
    (``next``), keeps every finding made before and says why in ``aborted``;
    ``finished`` is then false.
    """
    with _WORKER_LOCK:  # one task at a time per adapter
        ruleset = get_ruleset(task.ruleset)
        profile = _profile(task.profile)
        adapter, identity = _worker_adapter(task)
        ref = _worker_reference(task)
        state = new_state(
            adapter,
            identity,
            ruleset,
            profile,
            ref,
            adapter_spec=task.adapter_spec,
            shard=f"{task.start}..{task.stop}",
            start=task.start,
            stop=task.stop,
            order_seed=task.order_seed,
        )
        state.order_checked = not task.check_order
        checker = checker_for(adapter, identity, ruleset, profile, state, ref, task.report_limit)
        started = time.monotonic()
        try:
            _check_order(checker, task, ref)
            checker.run_range(task.stop, task.batch)
            state.finished = True
        except AdapterAborted as exc:
            state.aborted = str(exc)
            _drop_worker_adapter(task)
        # (set above only to skip the check: a range says it checked the order only if
        # its own task did, so a resume knows whether the order is still to be checked)
        state.order_checked = task.check_order and state.order_checked
        state.elapsed_s = time.monotonic() - started
        return state.as_dict()


def dask_distributed() -> Any:
    """The dask.distributed module (untyped here: it is an optional extra); without it, a
    :class:`DaskMissing` (one line, exit code 3)."""
    try:
        return importlib.import_module("distributed")
    except ImportError:
        raise DaskMissing("--dask and --workers need Dask: pip install 'pokercert[dask]'") from None


def client_for(scheduler: str | None, workers: int) -> tuple[Any, Callable[[], None]]:
    """A Dask client of the scheduler at ``scheduler``, or of a new LocalCluster of
    ``workers`` single-threaded worker processes; and how to close what was opened."""
    dist = dask_distributed()
    if scheduler:
        try:
            client = dist.Client(scheduler)
        except (OSError, ValueError) as exc:  # (TimeoutError is an OSError)
            raise InputError(
                f"--dask {scheduler}: cannot reach the Dask scheduler ({exc})"
            ) from None
        return client, client.close
    # (the workers' configuration: WORKER_CONFIG)
    with importlib.import_module("dask").config.set(WORKER_CONFIG):
        cluster = dist.LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            memory_limit=0,
            dashboard_address=None,
            silence_logs=logging.ERROR,
        )
    client = dist.Client(cluster)

    def close() -> None:
        client.close()
        cluster.close()

    return client, close


def _range_file(out: Path, start: int, stop: int) -> Path:
    return out / RANGES / f"{start}-{stop}.json"


def saved_ranges(
    out: Path, start: int, stop: int, order_seed: int | None
) -> dict[tuple[int, int], State]:
    """The ranges of hands ``start`` to ``stop - 1`` an earlier run in ``out`` finished
    with the card order ``order_seed`` (``ranges/A-B.json``), by (A, B).  A file that
    cannot be read, is not finished, lies outside the hands or overlaps one kept before
    is left out: its hands are checked again."""
    done: dict[tuple[int, int], State] = {}
    folder = out / RANGES
    paths = sorted(folder.glob("*.json")) if folder.is_dir() else []
    states = []
    for path in paths:
        try:
            state = State.from_dict(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError, TypeError, KeyError):
            continue
        if (
            state.finished
            and state.order_seed == order_seed
            and start <= state.start <= state.stop <= stop
        ):
            states.append(state)
    at = start
    for state in sorted(states, key=lambda s: (s.start, s.stop)):
        if state.start >= at and state.stop > state.start:
            done[(state.start, state.stop)] = state
            at = state.stop
    return done


def missing_ranges(start: int, stop: int, done: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The parts of [start, stop) that no range of ``done`` (sorted, disjoint) covers."""
    gaps, at = [], start
    for a, b in sorted(done):
        if a > at:
            gaps.append((at, a))
        at = max(at, b)
    if at < stop:
        gaps.append((at, stop))
    return gaps


def _save_range(out: Path, state: State) -> None:
    path = _range_file(out, state.start, state.stop)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(state.as_dict(), sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(path)


def _checked_part(state: State) -> State | None:
    """What a range given up on (``aborted``) did check: its hands ``start`` to
    ``next - 1``, as a finished range of their own (None if it checked nothing)."""
    if state.next <= state.start and not state.order_checked:
        return None
    return replace(state, stop=state.next, finished=True, aborted="")


def run_distributed(
    template: State,
    tasks: Sequence[RangeTask],
    out: Path,
    *,
    scheduler: str | None = None,
    workers: int = 2,
    done: dict[tuple[int, int], State] | None = None,
    report_limit: int = DEFAULT_REPORT,
    progress: Callable[[int, int], None] | None = None,
    started: float | None = None,
) -> State:
    """Run ``tasks`` on Dask and merge their states, with the ranges ``done`` before
    (:func:`saved_ranges`), into one, saved in ``out``.

    ``template`` is the run's state before any hand (what :func:`new_state` gives for the
    whole range): it is saved first, and is the merged state's shape if nothing comes
    back.  Every finished range is saved as it comes back (``ranges/START-STOP.json``).
    A range the harness gave up on (its adapter died for good) keeps the hands it
    checked, and their findings, as a range of its own; a range whose workers were all
    lost (Dask's ``KilledWorker``) keeps nothing.  Either way the rest of the range is
    missing: the merged state is not finished, ``aborted`` names every missing range, and
    a later run with ``resume`` checks only those.  ``elapsed_s`` is the wall time from
    ``started`` (a :func:`time.monotonic` time; default: now).
    """
    started = time.monotonic() if started is None else started
    done = dict(done or {})
    template.save(out)
    missing: list[str] = []
    if tasks:
        client, close = client_for(scheduler, workers)
        try:
            missing = _collect(client, tasks, out, done, template.stop - template.start, progress)
        finally:
            close()
    merged = _merged(template, done, missing, report_limit)
    merged.elapsed_s = time.monotonic() - started
    merged.save(out)
    return merged


def _collect(
    client: Any,
    tasks: Sequence[RangeTask],
    out: Path,
    done: dict[tuple[int, int], State],
    total: int,
    progress: Callable[[int, int], None] | None,
) -> list[str]:
    """Each range's state as it comes back, saved and added to ``done``; what is missing
    (a sentence per range)."""
    dist = dask_distributed()
    checked = sum(s.checked for s in done.values())
    missing: list[str] = []
    futures = client.map(
        check_range,
        tasks,
        pure=False,
        key=[f"pokercert-exhaustive-{t.start}-{t.stop}" for t in tasks],
    )
    ranges = {f.key: (t.start, t.stop) for f, t in zip(futures, tasks, strict=True)}
    for future in dist.as_completed(futures):
        try:
            state = State.from_dict(future.result())
        except dist.KilledWorker as exc:
            a, b = ranges[future.key]
            missing.append(f"hands {a}..{b} not checked: their workers were lost ({exc})")
            continue
        if not state.finished:
            missing.append(f"hands {state.next}..{state.stop} not checked: {state.aborted}")
            part = _checked_part(state)
            if part is None:
                continue
            state = part
        _save_range(out, state)
        done[(state.start, state.stop)] = state
        checked += state.checked
        if progress:
            progress(checked, total)
    return missing


def _merged(
    template: State, done: dict[tuple[int, int], State], missing: list[str], report_limit: int
) -> State:
    """The ranges' states as one (the template's shape if none came back); not finished,
    ``aborted`` naming them, where ranges are missing."""
    if not done:
        merged = replace(template, disagreements=[])
    else:
        merged = merge_states([done[k] for k in sorted(done)], report_limit, gaps=bool(missing))
    if missing:
        merged = replace(
            merged,
            start=template.start,
            stop=template.stop,
            shard=template.shard,
            finished=False,
            next=min(
                [
                    template.stop,
                    *(a for a, _ in missing_ranges(template.start, template.stop, list(done))),
                ]
            ),
            aborted="; ".join(missing),
        )
    return merged


def _finished(merged: State, shard: str, out: Path) -> State:
    """The merged state as the run's (its shard), saved; :class:`ExhaustiveAborted` if
    hands are missing."""
    merged.shard = shard
    merged.save(out)
    if merged.aborted and not merged.finished:
        raise ExhaustiveAborted(merged.aborted, merged)
    return merged


def _whole_task(
    template: State,
    adapter_spec: str,
    options: AdapterOptions | None,
    profile: Profile,
    jokers: bool,
    batch: int | None,
    report_limit: int,
) -> RangeTask:
    """The task of all of ``template``'s hands (its ranges' tasks are copies of it)."""
    return RangeTask(
        adapter_spec,
        options or AdapterOptions(),
        template.ruleset,
        {"name": profile.name, "choices": dict(profile.choices)},
        jokers,
        template.start,
        template.stop,
        template.order_seed,
        check_order=False,
        batch=batch,
        report_limit=report_limit,
    )


def _resumed(out: Path, template: State) -> dict[tuple[int, int], State]:
    """The ranges of ``template``'s run an earlier run in ``out`` finished (a
    :class:`~.exhaustive_state.ResumeError` if ``out`` holds another run)."""
    resume_state(out, template)  # refuses another run's folder
    return saved_ranges(out, template.start, template.stop, template.order_seed)


def _range_tasks(
    template: State, done: dict[tuple[int, int], State], whole: RangeTask, hands_per_task: int
) -> list[RangeTask]:
    """The tasks of the hands of ``template`` that no range of ``done`` covers, each a
    copy of ``whole`` for its range; the first checks the order unless a range of
    ``done`` did (a run with no hands: one task, which checks the order)."""
    lo, hi = template.start, template.stop
    order_done = any(s.order_checked for s in done.values())
    ranges = [
        r for a, b in missing_ranges(lo, hi, list(done)) for r in plan_ranges(a, b, hands_per_task)
    ]
    if not ranges and not done:
        ranges = [(lo, hi)]  # no hands: the task that checks the order
    return [
        replace(whole, start=a, stop=b, check_order=(i == 0 and not order_done))
        for i, (a, b) in enumerate(ranges)
    ]


def run_exhaustive_on_dask(
    adapter: Adapter,
    identity: Identity,
    ruleset: Ruleset,
    profile: Profile,
    out: Path,
    *,
    adapter_spec: str,
    options: AdapterOptions | None = None,
    scheduler: str | None = None,
    workers: int = 2,
    shard: tuple[int, int] = (1, 1),
    resume: bool = False,
    batch: int | None = None,
    jokers: bool = True,
    report_limit: int = DEFAULT_REPORT,
    order_seed: int | None = None,
    sorted_cards: bool = False,
    hands_per_task: int = DEFAULT_TASK_HANDS,
    progress: Callable[[int, int], None] | None = None,
    hands: tuple[int, int] | None = None,
    phase: Phase | None = None,
    started: float | None = None,
) -> State:
    """:func:`~.exhaustive.run_exhaustive` with the hands checked as Dask tasks: the state
    one process would have reached (counts, findings, vector ids).  ``adapter`` (started,
    configured) gives the run's identity and mode; each worker starts its own from
    ``adapter_spec`` and ``options``."""
    started = time.monotonic() if started is None else started
    template, _ = plan_run(
        adapter,
        identity,
        ruleset,
        profile,
        out,
        adapter_spec=adapter_spec,
        shard=shard,
        resume=resume,
        jokers=jokers,
        order_seed=order_seed,
        sorted_cards=sorted_cards,
        hands=hands,
        phase=phase,
    )
    done = _resumed(out, template) if resume else {}
    whole = _whole_task(template, adapter_spec, options, profile, jokers, batch, report_limit)
    merged = run_distributed(
        template,
        _range_tasks(template, done, whole, hands_per_task),
        out,
        scheduler=scheduler,
        workers=workers,
        done=done,
        report_limit=report_limit,
        progress=progress,
        started=started,
    )
    return _finished(merged, template.shard, out)
