""":func:`certify`: the certification pipeline, stage by stage, as one call."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pokercert.certify.seal import seal
from pokercert.harness.run.results import RunHeader
from pokercert.harness.run.runner import DEFAULT_BATCH, DEFAULT_OUT, RunConfig, RunOutcome, run
from pokercert.reference.errors import ExitCode
from pokercert.reports.verdict import INCOMPLETE

__all__ = ["Certification", "Limits", "certify"]


@dataclass(frozen=True)
class Limits:
    """How long and how much the harness gives the evaluator (``pokercert run``'s
    ``--timeout``, ``--run-timeout``, ``--batch-size``, ``--max-restarts``,
    ``--max-memory``, ``--max-cpu``); ``watchdog_grace_s``: how long past a timeout an
    in-process call that will not stop may run before the run ends (None: the timeout,
    at least 1 s)."""

    timeout: float = 10.0
    run_timeout: float | None = None
    batch_size: int = DEFAULT_BATCH
    max_restarts: int = 50
    max_memory_mb: int | None = None
    max_cpu_s: int | None = None
    watchdog_grace_s: float | None = None


@dataclass
class Certification:
    """What :func:`certify` returns: the run (folder, header, counts, every result),
    the sealed report (None only if it could not be built: ``problems`` says why) and
    whether it was written into the folder."""

    run: RunOutcome
    report: dict[str, Any] | None
    written: bool
    problems: list[str] = field(default_factory=list)

    @property
    def folder(self) -> Path:
        return self.run.folder

    @property
    def header(self) -> RunHeader:
        return self.run.header

    @property
    def exit_code(self) -> ExitCode:
        """The run's exit code (``harness.run.outcome.exit_code``, the one mapping)."""
        return ExitCode(self.run.exit_code)

    @property
    def verdict(self) -> str:
        """The sealed report's verdict: CERTIFIED, NOT CERTIFIED or INCOMPLETE."""
        return str(self.report["verdict"]) if self.report is not None else INCOMPLETE

    @property
    def warnings(self) -> list[str]:
        return self.run.warnings


def adapter_spec(adapter: str | object) -> tuple[str, Any]:
    """The spec run.json records and the evaluator object to run in this process (None:
    the spec is loaded as ``pokercert run --adapter`` loads it).  An object is named by
    its class (``py:module:Class``), which the harness measures as the software run."""
    if isinstance(adapter, str):
        return adapter, None
    cls = type(adapter)
    return f"py:{cls.__module__}:{cls.__qualname__}", adapter


def certify(
    adapter: str | object,
    *,
    rulesets: Sequence[str] | None = None,
    profile: str = "practice",
    challenge_seed: int | None = None,
    limits: Limits = Limits(),
    out: str | Path = DEFAULT_OUT,
    flags: Sequence[str] | None = None,
    shard: str | None = None,
    expect: str | Path | None = None,
    resume: bool = False,
    identity_files: Sequence[str] = (),
    lab: Mapping[str, str] | None = None,
    in_process: bool = False,
    sandbox: bool = True,
    challenge: bool = True,
    challenge_fresh: int | None = None,
    fuzz: int | None = None,
    fuzz_seed: int | None = None,
    exhaustive: bool = False,
    order_seed: int | None = None,
    workers: int = 1,
    scheduler: str | None = None,
    tasks: int | None = None,
    write_reports: bool = True,
    progress: Callable[[int, int], None] | None = None,
    phases: Callable[[str, int, int], None] | None = None,
    command: Sequence[str] | None = None,
) -> Certification:
    """Certify the evaluator ``adapter`` (a spec as ``--adapter`` takes it, or an
    evaluator object, run in this process) on ``rulesets`` (default: every one) under
    ``profile``; the run folder is ``out``.  Every option is ``pokercert run``'s of the
    same name; ``workers`` > 1 or a ``scheduler`` runs the shards on Dask.  ``progress``
    hears (vectors done, selected); ``phases`` the attached modes' (phase, done, total)
    in one process (a Dask run's shards report none).

    The stages: the harness's (plan, open, start the adapter, score, attached modes,
    finish: :func:`~pokercert.harness.run.runner.run`, or each Dask shard's), then
    :func:`~pokercert.certify.seal.seal`.  Raises what the run raises (``RunError``:
    bad input, exit 3; ``AdapterError``: the adapter did not start, exit 2)."""
    spec, evaluator = adapter_spec(adapter)
    config = RunConfig(
        adapter=spec,
        out=Path(out),
        rulesets=list(rulesets) if rulesets else None,
        profile=profile,
        flags=list(flags) if flags else None,
        shard=shard,
        expect=Path(expect) if expect is not None else None,
        timeout=limits.timeout,
        run_timeout=limits.run_timeout,
        batch_size=limits.batch_size,
        max_restarts=limits.max_restarts,
        max_memory_mb=limits.max_memory_mb,
        max_cpu_s=limits.max_cpu_s,
        watchdog_grace_s=limits.watchdog_grace_s,
        resume=resume,
        identity_files=list(identity_files),
        lab=dict(lab or {}),
        in_process=in_process or evaluator is not None,
        sandbox=sandbox,
        challenge=challenge,
        challenge_seed=challenge_seed,
        challenge_fresh=challenge_fresh,
        fuzz=fuzz,
        fuzz_seed=fuzz_seed,
        exhaustive=exhaustive,
        order_seed=order_seed,
        evaluator=evaluator,
    )
    if command is not None:
        config = replace(config, command=list(command))
    if scheduler or workers > 1:
        from pokercert.harness.run.on_dask import run_on_dask

        outcome = run_on_dask(
            config, scheduler=scheduler, workers=workers, tasks=tasks, progress=progress
        )
    else:
        outcome = run(config, progress=progress, phases=phases)
    sealed = seal(outcome, write_reports)
    return Certification(outcome, sealed.report, sealed.written, sealed.problems)
