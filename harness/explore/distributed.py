"""Exhaustive passes on a Dask cluster: hand ranges as tasks, merged by range.

``pokercert exhaustive ... --dask SCHEDULER`` (or ``--workers N``, an embedded
``LocalCluster``) splits the ruleset's hands into contiguous ranges and runs each range
as one ``dask.distributed`` task, :func:`check_range`:

* a task is a pure function of its :class:`RangeTask` (adapter spec and options, ruleset,
  profile, range, card-order seed): it writes nothing and returns the range's
  :class:`~.exhaustive_state.State` as a dict;
* each worker process starts its own adapter (kept for the worker's next tasks) and loads
  the reference's class table from the disk cache (:mod:`pokercert.reference.table_cache`);
* the class order is checked once, by the task of the first range;
* results are merged by range (:func:`~.exhaustive_state.merge_states`): a task whose
  worker is lost is run again by Dask on another worker, and since only finished tasks'
  results are kept, and a range is counted once, no hand is lost or counted twice.

Each finished range is saved in the run folder (``ranges/START-STOP.json``) as it comes
in, so ``--resume`` sends only the ranges still missing.  Dask is an optional extra:
``pip install 'pokercert[dask]'``.
"""

from __future__ import annotations

import importlib
import json
import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pokercert.harness.adapters import Adapter, AdapterOptions, Identity, load_adapter
from pokercert.harness.explore.exhaustive import (
    DEFAULT_BATCH,
    DEFAULT_REPORT,
    Checker,
    new_state,
    plan_run,
)
from pokercert.harness.explore.exhaustive_state import State, merge_states, resume_state
from pokercert.reference import Profile, Ruleset, get_ruleset
from pokercert.reference.classes import ReferenceClasses, space_of
from pokercert.reference.errors import InputError

__all__ = ["DaskMissing", "RangeTask", "check_range", "client_for", "dask_distributed",
           "plan_ranges", "run_distributed", "run_exhaustive_on_dask"]

RANGES = "ranges"
# hands per task: small enough that a lost task costs little and the workers stay busy
# to the end, large enough that a task's set-up (a few ms once the worker is warm) is noise
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
WORKER_CONFIG = {"distributed.worker.profile.enabled": False,
                 "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None,
                 "distributed.admin.tick.interval": "1s",
                 "distributed.admin.system-monitor.interval": "5s",
                 "distributed.worker.memory.monitor-interval": "5s"}


class DaskMissing(InputError):
    """``--dask`` or ``--workers`` without the optional extra installed."""


@dataclass(frozen=True)
class RangeTask:
    """Everything a worker needs to check hands ``start`` to ``stop - 1``."""

    adapter_spec: str
    options: AdapterOptions
    ruleset: str
    profile: dict[str, Any]        # Profile name and choices
    jokers: bool
    start: int
    stop: int
    order_seed: int | None
    check_order: bool
    batch: int = DEFAULT_BATCH
    report_limit: int = DEFAULT_REPORT


def plan_ranges(start: int, stop: int, hands_per_task: int) -> list[tuple[int, int]]:
    """Contiguous ranges of at most ``hands_per_task`` that together are [start, stop)."""
    count = max(1, -(-(stop - start) // hands_per_task))
    return [(start + i * (stop - start) // count, start + (i + 1) * (stop - start) // count)
            for i in range(count)]


# one started adapter and one reference per worker process, reused by its tasks
_WORKER: dict[Any, Any] = {}
_WORKER_LOCK = threading.Lock()


def _profile(data: dict[str, Any]) -> Profile:
    return Profile(data["name"], dict(data.get("choices", {})))


def _worker_adapter(task: RangeTask) -> tuple[Adapter, Identity]:
    key = ("adapter", task.adapter_spec, repr(task.options), task.ruleset,
           json.dumps(task.profile, sort_keys=True))
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


def check_range(task: RangeTask) -> dict[str, Any]:
    """Check one range on this worker; the range's state, as a dict (a Dask task)."""
    with _WORKER_LOCK:              # one task at a time per adapter
        ruleset = get_ruleset(task.ruleset)
        profile = _profile(task.profile)
        adapter, identity = _worker_adapter(task)
        ref = _worker_reference(task)
        state = new_state(adapter, identity, ruleset, profile, ref,
                          adapter_spec=task.adapter_spec, shard=f"{task.start}..{task.stop}",
                          start=task.start, stop=task.stop, order_seed=task.order_seed)
        state.order_checked = not task.check_order
        checker = Checker(adapter, identity, ruleset, profile, state, ref, task.report_limit)
        started = time.monotonic()
        checker.check_order()
        checker.run_range(task.stop, task.batch)
        state.elapsed_s = time.monotonic() - started
        state.finished = True
        return state.as_dict()


def dask_distributed() -> Any:
    """The dask.distributed module (untyped here: it is an optional extra); without it, a
    :class:`DaskMissing` (one line, exit code 3)."""
    try:
        return importlib.import_module("distributed")
    except ImportError:
        raise DaskMissing("--dask and --workers need Dask: pip install 'pokercert[dask]'") \
            from None


def client_for(scheduler: str | None, workers: int) -> tuple[Any, Callable[[], None]]:
    """A Dask client of the scheduler at ``scheduler``, or of a new LocalCluster of
    ``workers`` single-threaded worker processes; and how to close what was opened."""
    dist = dask_distributed()
    if scheduler:
        try:
            client = dist.Client(scheduler)
        except (OSError, ValueError) as exc:     # (TimeoutError is an OSError)
            raise InputError(f"--dask {scheduler}: cannot reach the Dask scheduler "
                             f"({exc})") from None
        return client, client.close
    # (the workers' configuration: WORKER_CONFIG)
    with importlib.import_module("dask").config.set(WORKER_CONFIG):
        cluster = dist.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                    memory_limit=0, dashboard_address=None,
                                    silence_logs=logging.ERROR)
    client = dist.Client(cluster)

    def close() -> None:
        client.close()
        cluster.close()
    return client, close


def _range_file(out: Path, start: int, stop: int) -> Path:
    return out / RANGES / f"{start}-{stop}.json"


def _saved_ranges(out: Path, tasks: Sequence[RangeTask]) -> dict[tuple[int, int], State]:
    done = {}
    for task in tasks:
        path = _range_file(out, task.start, task.stop)
        try:
            state = State.from_dict(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError, TypeError, KeyError):
            continue
        if state.finished and state.order_seed == task.order_seed:
            done[(task.start, task.stop)] = state
    return done


def run_distributed(template: State, tasks: Sequence[RangeTask], out: Path, *,
                    scheduler: str | None = None, workers: int = 2, resume: bool = False,
                    report_limit: int = DEFAULT_REPORT,
                    progress: Callable[[int, int], None] | None = None) -> State:
    """Run ``tasks`` on Dask and merge their states into one, saved in ``out``.

    ``template`` is the run's state before any hand (what :func:`new_state` gives for the
    whole range): it is saved first, and is the merged state's shape if nothing comes
    back.  With ``resume``, ranges saved by an earlier run of the same tasks are kept.
    """
    done = _saved_ranges(out, tasks) if resume else {}
    template.save(out)
    todo = [t for t in tasks if (t.start, t.stop) not in done]
    total = sum(t.stop - t.start for t in tasks)
    checked = sum(s.checked for s in done.values())
    started = time.monotonic()
    if todo:
        client, close = client_for(scheduler, workers)
        try:
            as_completed = dask_distributed().as_completed
            futures = client.map(check_range, todo, pure=False,
                                 key=[f"pokercert-exhaustive-{t.start}-{t.stop}" for t in todo])
            for future in as_completed(futures):
                state = State.from_dict(future.result())
                path = _range_file(out, state.start, state.stop)
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(json.dumps(state.as_dict(), sort_keys=True) + "\n",
                                encoding="utf-8")
                done[(state.start, state.stop)] = state
                checked += state.checked
                if progress:
                    progress(checked, total)
        finally:
            close()
    merged = merge_states([done[k] for k in sorted(done)], report_limit)
    merged.elapsed_s = time.monotonic() - started
    merged.save(out)
    return merged


def run_exhaustive_on_dask(adapter: Adapter, identity: Identity, ruleset: Ruleset,
                           profile: Profile, out: Path, *, adapter_spec: str,
                           options: AdapterOptions | None = None,
                           scheduler: str | None = None, workers: int = 2,
                           shard: tuple[int, int] = (1, 1), resume: bool = False,
                           batch: int = DEFAULT_BATCH, jokers: bool = True,
                           report_limit: int = DEFAULT_REPORT,
                           order_seed: int | None = None, sorted_cards: bool = False,
                           hands_per_task: int = DEFAULT_TASK_HANDS,
                           progress: Callable[[int, int], None] | None = None,
                           hands: tuple[int, int] | None = None) -> State:
    """:func:`~.exhaustive.run_exhaustive` with the hands checked as Dask tasks.

    ``adapter`` (started and configured here) gives the identity and mode of the run; the
    workers start their own from ``adapter_spec`` and ``options``.  The result is the
    state one process would have reached (counts, findings, vector ids).
    """
    template, _ = plan_run(adapter, identity, ruleset, profile, out,
                           adapter_spec=adapter_spec, shard=shard, resume=resume,
                           jokers=jokers, order_seed=order_seed, sorted_cards=sorted_cards,
                           hands=hands)
    seed, lo, hi = template.order_seed, template.start, template.stop
    if resume:
        resume_state(out, template)           # refuses another run's folder
    ranges = plan_ranges(lo, hi, hands_per_task)
    tasks = [RangeTask(adapter_spec, options or AdapterOptions(), ruleset.id,
                       {"name": profile.name, "choices": dict(profile.choices)}, jokers,
                       a, b, seed, check_order=(i == 0), batch=batch,
                       report_limit=report_limit)
             for i, (a, b) in enumerate(ranges)]
    merged = run_distributed(template, tasks, out, scheduler=scheduler, workers=workers,
                             resume=resume, report_limit=report_limit, progress=progress)
    merged.shard = template.shard
    merged.save(out)
    return merged
