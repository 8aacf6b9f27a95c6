"""``pokercert run --dask SCHEDULER`` / ``run --workers N``: a run's shards as Dask tasks.

The run is split as ``run --shard K/N`` splits it, and merged as ``pokercert merge``
merges shard folders (:func:`~pokercert.harness.run.merge.merge`, the one merge):

* the driver fixes every seed first (challenge, fuzz, card order: drawn once when not
  given), so the N shards of the run share one challenge set and one attached mode;
* each shard is one ``dask.distributed`` task, :func:`run_shard`: a pure function of its
  :class:`ShardTask`.  On its worker it runs the shard (:func:`~.runner.run`: the run's
  stages, the ones ``pokercert.certify`` runs in one process; the worker
  starting its own adapter: a child process, or the evaluator imported in the worker
  with ``--in-process``) into a temporary folder, and returns that folder's files;
* shard 1 runs the attached modes after its vectors (:func:`~.runner.runs_attached`);
* the driver writes each shard's files once, as its task ends, and merges the N folders
  into the run folder.  A task whose worker is lost is run again by Dask on another
  worker (it wrote nothing the driver keeps: only a finished task's files count, one
  per shard), so no vector is lost or counted twice; a shard whose workers keep dying
  (Dask's ``KilledWorker``) is missing from the merge, and the run says so (INCOMPLETE).

The cluster is the one :mod:`pokercert.harness.explore.distributed` opens
(:func:`~pokercert.harness.explore.distributed.client_for`).  Paths the run is given
(``--expect``, ``--profile FILE``, ``--identity-file``) are read on the workers: on a
cluster of other machines they must exist there, at the same path.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pokercert.harness.adapters import AdapterError
from pokercert.harness.run.results import read_header, write_header
from pokercert.harness.run.runner import (
    RunConfig,
    RunError,
    RunOutcome,
    outcome_of_folder,
    run,
)

__all__ = ["ShardTask", "run_on_dask", "run_shard", "shard_configs"]


@dataclass(frozen=True)
class ShardTask:
    """Everything a worker needs to run shard ``config.shard`` of a run."""

    config: RunConfig


def run_shard(task: ShardTask) -> dict[str, bytes]:
    """Run one shard on this worker (a Dask task); the files of its run folder by path
    relative to the folder.  The folder is a temporary one of the worker, removed
    before the task returns: a task run twice (its first worker lost) leaves nothing."""
    from pokercert.vectors.corpus import load_corpus

    with tempfile.TemporaryDirectory(prefix="pokercert-shard-") as tmp:
        folder = Path(tmp) / "shard"
        # (the corpus given: no forked dealer child in a worker process of threads)
        run(replace(task.config, out=folder), load_corpus())
        return {
            p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*"))
            if p.is_file()
        }


def shard_configs(config: RunConfig, n: int) -> list[RunConfig]:
    """The configs of the ``n`` shards of ``config``'s run: every seed fixed once (the
    one given, else drawn here), shard ``K/N`` and its command line set."""
    from pokercert.harness.run.attached import EXHAUSTIVE, FUZZ, asked
    from pokercert.harness.run.challenge import draw_seed

    if config.resume:
        raise RunError(
            "--resume continues a run of one process; run the Dask run again "
            "(its seeds are in run.json: pass them to replay it)"
        )
    if config.evaluator is not None:
        raise RunError(
            "an evaluator object runs in this process; give Dask workers an "
            "adapter spec (py:module:attr, a name, exec:COMMAND) to load"
        )
    if config.shard:
        raise RunError(
            f"--shard {config.shard} runs one shard here; --dask and --workers "
            "run every shard of the run as Dask tasks"
        )
    modes = asked(config.fuzz, config.fuzz_seed, config.exhaustive, config.order_seed)
    seeds: dict[str, Any] = {
        "challenge_seed": config.challenge_seed
        if config.challenge_seed is not None or not config.challenge
        else draw_seed(),
        "fuzz_seed": modes.get(FUZZ, {}).get("seed"),
        "order_seed": modes.get(EXHAUSTIVE, {}).get("order_seed"),
    }
    return [
        replace(config, shard=f"{k}/{n}", command=[*config.command, "--shard", f"{k}/{n}"], **seeds)
        for k in range(1, n + 1)
    ]


@dataclass
class _Shards:
    """The shard folders written so far, in a temporary folder of the driver."""

    root: Path
    folders: dict[int, Path] = field(default_factory=dict)
    lost: dict[int, str] = field(default_factory=dict)

    def write(self, k: int, files: dict[str, bytes]) -> Path:
        """Write shard ``k``'s files; a name that would land outside its folder (absolute,
        or climbing with ``..``: a worker runs the vendor's adapter, so what it sends back
        is not trusted) is refused before anything of the shard is written."""
        folder = self.folders[k] = self.root / f"shard-{k}"
        for name in files:
            if not (folder / name).resolve().is_relative_to(folder.resolve()):
                raise AdapterError(
                    f"shard {k}: the worker sent a file outside its run folder: {name!r}"
                )
        for name, data in files.items():
            path = folder / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        return folder


def run_on_dask(
    config: RunConfig,
    *,
    scheduler: str | None = None,
    workers: int = 2,
    tasks: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> RunOutcome:
    """Run ``config`` as ``tasks`` shards (default: one per worker) on the Dask cluster
    at ``scheduler``, or on a new LocalCluster of ``workers`` processes, and merge them
    into ``config.out``.  Raises :class:`~.runner.RunError` for bad input (before the
    cluster starts, where it can be told), and what a shard's run raised."""
    from pokercert.harness.explore.distributed import client_for, dask_distributed
    from pokercert.harness.run.merge import merge
    from pokercert.vectors.corpus import load_corpus

    dist = dask_distributed()  # without the extra: one line, exit 3
    shard_configs(config, 1)  # usage errors before any cluster starts
    try:
        load_corpus().select(rulesets=config.rulesets, flags=config.flags)
    except ValueError as exc:
        raise RunError(str(exc)) from None
    out = Path(config.out)
    client, close = client_for(scheduler, workers)
    try:
        n = tasks or max(1, len(client.scheduler_info().get("workers", {})))
        configs = shard_configs(config, n)
        futures = {
            client.submit(
                run_shard, ShardTask(c), pure=False, key=f"pokercert-run-shard-{k}-of-{n}"
            ): k
            for k, c in enumerate(configs, 1)
        }
        with tempfile.TemporaryDirectory(prefix="pokercert-shards-") as tmp:
            shards = _Shards(Path(tmp))
            done = total = 0
            for future in dist.as_completed(list(futures)):
                k = futures[future]
                try:
                    files = future.result()
                except dist.KilledWorker as exc:
                    shards.lost[k] = f"shard {k}/{n}: its workers were lost ({exc})"
                    continue
                header = read_header(shards.write(k, files))
                done += header.selected
                total = int(header.filters.get("unsharded_selected", total))
                if progress:
                    progress(done, total)
            if not shards.folders:
                raise AdapterError(
                    "no shard of the run finished: " + "; ".join(shards.lost.values())
                )
            merged, warnings = merge(out, [shards.folders[k] for k in sorted(shards.folders)])
    finally:
        close()
    if shards.lost:
        merged.aborted = "; ".join(filter(None, [merged.aborted, *shards.lost.values()]))
        write_header(out, merged)
    return outcome_of_folder(out, merged, warnings)
