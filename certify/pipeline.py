""":func:`certify`: the certification pipeline, stage by stage, as one call."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pokercert.certify.seal import seal
from pokercert.harness.run.limits import DEFAULT_LIMITS, Limits
from pokercert.harness.run.results import RunHeader
from pokercert.harness.run.runner import DEFAULT_OUT, RunConfig, RunError, RunOutcome, run
from pokercert.reference.errors import ExitCode
from pokercert.reports.verdict import INCOMPLETE

if TYPE_CHECKING:
    from pokercert.vectors.corpus import Corpus

__all__ = ["Certification", "Limits", "certify"]


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
    limits: Limits = DEFAULT_LIMITS,
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
    corpus: Corpus | None = None,
) -> Certification:
    """Certify the evaluator ``adapter`` (a spec as ``--adapter`` takes it, or an
    evaluator object, run in this process) on ``rulesets`` (default: every one) under
    ``profile``; the run folder is ``out``.  Every option is ``pokercert run``'s of the
    same name; ``workers`` > 1 or a ``scheduler`` runs the shards on Dask.  ``progress``
    hears (vectors done, selected); ``phases`` the attached modes' (phase, done, total)
    in one process (a Dask run's shards report none).  ``corpus``: another corpus than
    the installed one (in one process; the report then says whether it is a published
    release).

    The stages: :func:`configure`, :func:`run_stages` (the harness's: plan, open, start
    the adapter, score, attached modes, finish), :func:`~pokercert.certify.seal.seal`.
    Raises what the run raises (``RunError``: bad input, exit 3; ``AdapterError``: the
    adapter did not start, exit 2)."""
    # every argument named as a RunConfig field goes to it (one list: RunConfig's fields)
    config = configure(adapter, {k: v for k, v in locals().items() if k in _RUN_FIELDS})
    outcome = run_stages(config, corpus, workers, scheduler, tasks, progress, phases)
    sealed = seal(outcome, write_reports)
    return Certification(outcome, sealed.report, sealed.written, sealed.problems)


#: the run options :func:`certify` passes on to :class:`RunConfig` as given
_RUN_FIELDS = frozenset(f.name for f in fields(RunConfig)) - {"adapter", "evaluator"}
#: the options given as any sequence that RunConfig holds as a list (None when empty)
_AS_LIST = ("rulesets", "flags")


def configure(adapter: str | object, options: Mapping[str, Any]) -> RunConfig:
    """Stage *configure*: the run's :class:`RunConfig` from the adapter (a spec or an
    evaluator object, which runs in this process) and ``certify``'s options named as
    RunConfig's fields (sequences become lists, paths :class:`~pathlib.Path`;
    ``command`` None keeps RunConfig's default, this process's own command line)."""
    spec, evaluator = adapter_spec(adapter)
    given = dict(options)
    for name in _AS_LIST:
        given[name] = list(given[name]) if given.get(name) else None
    if given.get("command") is None:
        given.pop("command", None)
    else:
        given["command"] = list(given["command"])
    given["out"] = Path(given["out"])
    given["expect"] = Path(given["expect"]) if given.get("expect") is not None else None
    given["identity_files"] = list(given.get("identity_files", ()))
    given["lab"] = dict(given.get("lab") or {})
    given["in_process"] = bool(given.get("in_process")) or evaluator is not None
    return RunConfig(adapter=spec, evaluator=evaluator, **given)


def run_stages(
    config: RunConfig,
    corpus: Corpus | None = None,
    workers: int = 1,
    scheduler: str | None = None,
    tasks: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    phases: Callable[[str, int, int], None] | None = None,
) -> RunOutcome:
    """Stage *run*: the harness's stages in this process, or in each shard on Dask
    (``workers`` > 1 or a ``scheduler``) merged; a given ``corpus`` runs in this
    process only."""
    if scheduler or workers > 1:
        if corpus is not None:
            raise RunError("a corpus given as an object runs in this process, not on Dask")
        from pokercert.harness.run.on_dask import run_on_dask

        return run_on_dask(
            config, scheduler=scheduler, workers=workers, tasks=tasks, progress=progress
        )
    return run(config, corpus, progress=progress, phases=phases)
