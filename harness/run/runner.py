"""The runner: selected vectors -> adapter requests in batches -> scored results on disk.

Two layers:

* :func:`score_vectors` drives one started adapter over a list of vectors and yields
  :class:`~pokercert.harness.run.results.Result` lists, a batch at a time (``smoke`` and
  ``run`` use it; the pytest plugin runs ``run`` through ``pokercert.certify``);
* :func:`run` is a whole certification run: corpus, selection, shard, run folder with
  ``run.json`` and streamed ``results.jsonl``, ``--resume``, and the exit code, as a
  sequence of named stages (:func:`plan_run`, :func:`open_run`, :func:`start_adapter`,
  :func:`score_run`, :func:`attach_modes`, :func:`measure_end`, :func:`finish_run`) that
  a Dask shard runs too and ``pokercert.certify`` follows with the sealed report (the
  pytest plugin and ``pokercert run`` both call it).
"""

from __future__ import annotations

import contextlib
import os
import platform
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from itertools import groupby
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pokercert.harness import __version__
from pokercert.harness.adapters import (
    Adapter,
    AdapterAborted,
    AdapterError,
    AdapterOptions,
    AdapterSpec,
    Identity,
    Reply,
    SpecError,
    load_adapter,
    parse_spec,
)
from pokercert.harness.adapters.base import ERROR
from pokercert.harness.adapters.inprocess import CallWatch, InProcessAdapter
from pokercert.harness.adapters.sandbox import IN_PROCESS_RECORD
from pokercert.harness.adapters.spec import isolation_of
from pokercert.harness.adapters.trace import Observed, probe_ahead
from pokercert.harness.identity import (
    COMMON_LOADED,
    NO_LOADED,
    IdentityError,
    MeasureAhead,
    differences,
    measure_spec,
)
from pokercert.harness.protocol import HALF_FEATURE, PROTOCOL_VERSION, needs_feature
from pokercert.harness.run.expectations import Known, apply, check_against, load_expectations
from pokercert.harness.run.limits import DEFAULT_BATCH, Limits
from pokercert.harness.run.outcome import exit_code_for
from pokercert.harness.run.results import (
    EMPTY,
    HEADER_FILE,
    RESULTS_FILE,
    Outcome,
    Result,
    ResultWriter,
    RunHeader,
    clear_folder,
    passed,
    read_header,
    read_results,
    results_problem,
    write_header,
)
from pokercert.harness.run.selection import ids_digest, parse_shard, shard
from pokercert.harness.scoring import operation, passes, request_for, score
from pokercert.reference import Profile, Ruleset, all_rulesets, collector, get_ruleset, load_profile
from pokercert.reference.errors import InputError

if TYPE_CHECKING:
    from pokercert.harness.run.attached import Phases
from pokercert.vectors.model import Kind, Vector

DEFAULT_OUT = Path("pokercert-run")
ATTACHMENTS = "attachments"


class RunError(InputError):
    """A run that cannot start as asked (usage: bad filter, resume mismatch, ...)."""


def now_iso() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


# ----------------------------------------------------------------------------- scoring
def _micro(seconds: float) -> float:
    """A duration rounded to the microsecond (integer arithmetic: ``round(x, 6)`` formats
    the float, several times slower)."""
    return int(seconds * 1e6 + 0.5) / 1e6


def _result(
    vector: Vector,
    profile: Profile,
    reply: Reply,
    known: Known | None,
    expected: Mapping[str, Any],
    outcome: Outcome,
    actual: Mapping[str, Any] | None,
    message: str,
) -> Result:
    final = apply(outcome, known) if known is not None else outcome
    passed_ = outcome is Outcome.PASS
    return Result(
        vector_id=vector.id,
        ruleset=vector.ruleset,
        kind=vector.kind,
        outcome=final,
        expected=expected,
        actual=actual,
        message=message,
        readings=vector.reading_used(profile) if vector.interpretations else EMPTY,
        clauses=vector.clauses,
        flags=vector.flags,
        why=vector.why,
        inputs=vector.inputs,
        duration_s=_micro(reply.duration_s),
        stderr="" if passed_ else reply.stderr,
        attachment="" if passed_ else reply.attachment,
        known_failure=known.reason if known is not None and final is not outcome else "",
        scored_as=str(outcome) if final is not outcome else "",
    )


def not_applicable(
    vector: Vector, profile: Profile, identity: Identity | None = None, why: str = ""
) -> Result:
    """The result of a vector outside the adapter's declared capabilities (or of one that
    tests a protocol feature the adapter does not name; ``why``: another reason)."""
    op = operation(vector)
    need = Kind.REJECT.value if vector.kind == Kind.REJECT else op
    what = f"{need!r}" + (f" and {op!r}" if vector.kind == Kind.REJECT else "")
    message = f"the adapter does not claim {what} for {vector.ruleset}"
    feature = needs_feature(vector.flags)
    if feature is not None and (identity is None or feature not in identity.features):
        message += f" or does not name the protocol feature {feature!r} this vector tests"
        if identity is not None and identity.claims(vector.ruleset, vector.kind):
            message = (
                f"the adapter does not name the protocol feature {feature!r} this "
                "vector tests (PROTOCOL.md section 6)"
            )
    return _result(
        vector,
        profile,
        Reply(ERROR),
        None,
        vector.expected(profile),
        Outcome.NOT_APPLICABLE,
        None,
        why or message,
    )


def applicable(identity: Identity, vector: Vector) -> bool:
    """Whether the adapter claims this vector (a reject vector needs its op as well, and a
    vector testing a rule of a protocol feature needs the feature: PROTOCOL.md 6)."""
    if not identity.claims(vector.ruleset, vector.kind):
        return False
    feature = needs_feature(vector.flags)
    if feature is not None and feature not in identity.features:
        return False
    return vector.kind != Kind.REJECT or identity.claims(vector.ruleset, vector.inputs["op"])


def score_vectors(
    adapter: Adapter,
    identity: Identity,
    vectors: Sequence[Vector],
    profile: Profile,
    known: Mapping[str, Known] | None = None,
    batch_size: int = DEFAULT_BATCH,
    run_deadline: float | None = None,
) -> Iterator[list[Result]]:
    """Run ``vectors`` through a started adapter, yielding scored results batch by batch.

    Vectors are grouped by ruleset (one ``configure`` each).  Raises
    :class:`AdapterAborted` when the harness gives up on the adapter; everything yielded
    before that is final.
    """
    known = known or {}
    for ruleset_id, group in _by_ruleset(vectors).items():
        ruleset = get_ruleset(ruleset_id)
        todo, skipped = _claimed(group, identity, profile, known)
        if not adapter.supports(HALF_FEATURE) and any("half" in v.inputs for v in todo):
            skipped += [
                not_applicable(
                    v,
                    profile,
                    why=f"the adapter does not speak the "
                    f"protocol feature {HALF_FEATURE} this best_hand needs",
                )
                for v in todo
                if "half" in v.inputs
            ]
            todo = [v for v in todo if "half" not in v.inputs]
        if skipped:
            yield skipped
        if not todo:
            continue
        try:
            adapter.configure(ruleset_id, profile.readings_for(ruleset))
            failure = ""
        except AdapterAborted:
            raise
        except AdapterError as exc:
            failure = f"configure failed: {exc}"
        chunks = [todo[i : i + batch_size] for i in range(0, len(todo), batch_size)]
        if failure:
            replies_per_chunk: Iterator[list[Reply]] = iter(
                [[Reply(ERROR, message=failure[:1000]) for _ in c] for c in chunks]
            )
        else:
            replies_per_chunk = _guarded(adapter, chunks, run_deadline)
        for chunk, replies in zip(chunks, replies_per_chunk, strict=True):
            yield _score_chunk(chunk, replies, profile, ruleset, known)


_RULESET = attrgetter("ruleset")
_KIND = attrgetter("kind")


def _by_ruleset(vectors: Sequence[Vector]) -> dict[str, list[Vector]]:
    """The vectors grouped by ruleset, in their order (the corpus keeps each ruleset's
    vectors together, so this takes whole runs of them at a time)."""
    groups: dict[str, list[Vector]] = {}
    for ruleset_id, same in groupby(vectors, key=_RULESET):
        groups.setdefault(ruleset_id, []).extend(same)
    return groups


def _claimed(
    group: list[Vector], identity: Identity, profile: Profile, known: Mapping[str, Known]
) -> tuple[list[Vector], list[Result]]:
    """One ruleset's vectors the adapter claims (:func:`applicable`), and the
    NOT_APPLICABLE results of the others."""
    kinds = frozenset(identity.capabilities.get(group[0].ruleset, ()))
    present = set(map(_KIND, group))
    if (
        present <= kinds
        and (
            "reject" not in present
            or {v.inputs["op"] for v in group if v.kind == Kind.REJECT} <= kinds
        )
        and all(needs_feature(v.flags) in (None, *identity.features) for v in group)
    ):
        return group, []  # the usual case: everything is claimed
    todo, skipped = [], []
    for v in group:
        if applicable(identity, v):
            todo.append(v)
        else:
            skipped.append(not_applicable(v, profile, identity))
    return todo, skipped


def _score_chunk(
    chunk: Sequence[Vector],
    replies: Sequence[Reply],
    profile: Profile,
    ruleset: Ruleset,
    known: Mapping[str, Known],
) -> list[Result]:
    """The results of one chunk.  With no expectations file, a vector that
    :func:`~pokercert.harness.scoring.passes` (the common case: a classify or compare
    answered exactly as expected) becomes its PASS result on the spot; everything else is
    scored in full (:func:`~pokercert.harness.scoring.score`).  The scoring module
    alone decides what passes."""
    if known:
        return [
            _scored(v, reply, profile, ruleset, known.get(v.id))
            for v, reply in zip(chunk, replies, strict=True)
        ]
    out: list[Result] = []
    append = out.append
    for v, reply in zip(chunk, replies, strict=True):
        # (a vector without readings has its expectation in ``expect``)
        expected = (
            v.expect
            if v.expect is not None and v.expect_by_reading is None
            else v.expected(profile)
        )
        actual = passes(v, expected, reply)
        if actual is None:
            append(_scored(v, reply, profile, ruleset, None))
        else:
            append(
                passed(
                    v.id,
                    v.ruleset,
                    v.kind,
                    expected,
                    actual,
                    v.reading_used(profile) if v.interpretations else EMPTY,
                    v.clauses,
                    v.flags,
                    v.why,
                    v.inputs,
                    int(reply.duration_s * 1e6 + 0.5) / 1e6,
                )
            )  # _micro, inlined
    return out


def _scored(
    v: Vector, reply: Reply, profile: Profile, ruleset: Ruleset, known: Known | None
) -> Result:
    """One vector scored in full."""
    expected = v.expected(profile)
    outcome, actual, message = score(v, expected, reply, ruleset)
    return _result(v, profile, reply, known, expected, outcome, actual, message)


def _guarded(
    adapter: Adapter, chunks: list[list[Vector]], run_deadline: float | None
) -> Iterator[list[Reply]]:
    """Replies chunk by chunk; an adapter-level error fails the chunk, not the run."""

    def requests() -> Iterator[list[dict[str, Any]]]:
        for chunk in chunks:
            if run_deadline is not None and time.monotonic() >= run_deadline:
                raise AdapterAborted("run timeout reached")
            yield [
                {"op": "classify", "hand": v.inputs["hand"]}
                if v.kind == Kind.CLASSIFY
                else request_for(v)
                for v in chunk
            ]

    done = 0
    try:
        for replies in adapter.run_batches(requests()):
            done += 1
            yield replies
    except AdapterAborted:
        raise
    except AdapterError as exc:
        for chunk in chunks[done:]:
            yield [Reply(ERROR, message=str(exc)[:1000]) for _ in chunk]


# ----------------------------------------------------------------------------- watchdog
class Watchdog(threading.Thread):
    """For an in-process run: a call that will not stop (it swallows the timeout: a loop
    catching ``BaseException``, or native code) cannot hang the run forever.  Past its
    timeout (or the run timeout) plus ``grace`` seconds, the watchdog records why in
    ``run.json`` (``aborted``; the results already written stay), says so on stderr and
    ends the process with exit code 2."""

    def __init__(
        self,
        adapter: InProcessAdapter,
        folder: Path,
        header: RunHeader,
        timeout: float | None,
        run_deadline: float | None,
        grace: float,
    ) -> None:
        super().__init__(name="pokercert-watchdog", daemon=True)
        self.adapter = adapter
        self.folder = folder
        self.header = header
        self.timeout = timeout
        self.run_deadline = run_deadline
        self.grace = grace
        # while the attached modes run (harness/run/attached.py): the modes and rulesets
        # asked, so a watchdog that fires records each ruleset not reached as aborted
        self.attaching: tuple[Sequence[str], Sequence[str]] | None = None
        self._done = threading.Event()
        self._call = CallWatch()  # the call in progress, seen at each look

    def stop(self) -> None:
        self._done.set()

    def run(self) -> None:
        while not self._done.wait(0.2):
            why = self._overdue()
            if why:
                self._fire(why)

    def _overdue(self) -> str:
        if self.timeout:
            running = self._call.running(self.adapter.calling, time.perf_counter())
            if running > self.timeout + self.grace:
                return (
                    f"an evaluator call ran {running:.1f} s and did not stop at its "
                    f"{self.timeout} s timeout (in-process evaluator code swallowed it)"
                )
        if self.run_deadline is not None and time.monotonic() > self.run_deadline + self.grace:
            return "run timeout reached and the in-process evaluator did not stop"
        return ""

    def _fire(self, why: str) -> None:
        if self._done.is_set():
            return
        self.header.aborted = f"watchdog: {why}"
        self.header.finished_at = now_iso()
        if self.attaching is not None:  # the ruleset in progress has no record yet
            modes, rulesets = self.attaching
            for mode in modes:
                items = self.header.attached.setdefault(mode, [])
                reached = {item.get("ruleset") for item in items}
                items += [
                    {"ruleset": rid, "aborted": self.header.aborted}
                    for rid in rulesets
                    if rid not in reached
                ]
        try:
            write_header(self.folder, self.header)
        finally:
            print(
                f"pokercert run: {why}; gave up (exit 2). The results written so far are "
                f"in {self.folder}/. Run without --in-process to contain this evaluator.",
                file=sys.stderr,
                flush=True,
            )
            os._exit(2)


# ----------------------------------------------------------------------------- a run
@dataclass
class RunConfig:
    """Everything ``pokercert run`` was asked; the defaults certify the reference."""

    adapter: str = "reference"
    out: Path = DEFAULT_OUT
    rulesets: list[str] | None = None
    profile: str = "practice"
    flags: list[str] | None = None
    shard: str | None = None
    expect: Path | None = None
    limits: Limits = field(default_factory=Limits)  # timeouts, batch size, restarts, rlimits
    resume: bool = False
    identity_files: list[str] = field(default_factory=list)  # --identity, as given
    lab: dict[str, str] = field(default_factory=dict)  # the lab's fields (--lab, ...)
    command: list[str] = field(default_factory=lambda: ["pokercert", *sys.argv[1:]])
    # run a py: or named evaluator in this process (fast, not isolated: CI gates) instead
    # of in a child process through the serve bridge (the default of a certification)
    in_process: bool = False
    # run an exec: adapter in the sandbox (harness/adapters/sandbox.py); False: --no-sandbox
    sandbox: bool = True
    # challenge vectors after the curated ones (harness/run/challenge.py): on by default
    # (a certification); False is --no-challenge (CI gates), which every report states
    challenge: bool = True
    challenge_seed: int | None = None  # None: drawn at run time (a resume keeps its own)
    challenge_fresh: int | None = None  # fresh deals per ruleset (None: DEFAULT_FRESH)
    # attached modes (harness/run/attached.py), after the vectors, with the same adapter:
    # --fuzz N deals per ruleset from fuzz_seed, --exhaustive every hand in the card order
    # of order_seed (None seeds: drawn at run time, a resume keeps its own)
    fuzz: int | None = None
    fuzz_seed: int | None = None
    exhaustive: bool = False
    order_seed: int | None = None
    # an evaluator object to run in this process (``pokercert.certify`` given an object,
    # not a spec): ``adapter`` is then the py: spec naming its class, for run.json
    evaluator: Any = None


@dataclass
class RunOutcome:
    """What a finished (or aborted) run produced."""

    folder: Path
    header: RunHeader
    counts: dict[str, Counter[str]]  # ruleset -> outcome -> count
    exit_code: int
    new_results: int = 0
    # every result line of the folder in the order written (those of earlier sessions
    # first): what the harness scored, for reports that do not re-read results.jsonl
    results: list[Result] = field(default_factory=list)
    # what the run (a merge of shards: run --dask/--workers) warns of: missing shards
    warnings: list[str] = field(default_factory=list)


def platform_info() -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "system": platform.system(),
        "release": platform.release(),
        "machine": platform.machine(),
    }


def _load_corpus(corpus: Any) -> Any:
    if corpus is not None:
        return corpus
    from pokercert.vectors.corpus import load_corpus

    return load_corpus()


@dataclass
class Plan:
    """What a run (or shard) takes: the vectors, curated then challenge, the filters that
    chose them (``filters["challenge"]``: the challenge's seed and size, as run.json
    records them), and the origin of each challenge vector by id."""

    vectors: list[Vector]
    filters: dict[str, Any]
    origins: dict[str, str] = field(default_factory=dict)


def plan(
    config: RunConfig,
    corpus: Any,
    profile: Profile | None = None,
    seed: int | None = None,
    dealt: Callable[[], Mapping[str, Sequence[Any]]] | None = None,
    folder: Path | None = None,
) -> Plan:
    """The vectors this run (or shard) takes, and the filters that chose them.

    With ``config.challenge`` the challenge set (:mod:`.challenge`) of the whole filtered
    selection follows the curated vectors, from ``seed`` (else ``config.challenge_seed``,
    else a fresh one); a shard then takes its share of both.  ``dealt`` gives fresh deals
    dealt ahead (:func:`~pokercert.harness.run.challenge.prefetch_fresh`).  The attached
    modes asked (``--fuzz``, ``--exhaustive``) are recorded with their seeds; ``folder``
    is the run folder a resume takes their seeds from."""
    from pokercert.harness.run.challenge import DEFAULT_FRESH, build_challenge, draw_seed

    try:
        chosen = corpus.select(rulesets=config.rulesets, flags=config.flags)
    except ValueError as exc:
        raise RunError(str(exc)) from None
    filters: dict[str, Any] = {
        "rulesets": sorted(config.rulesets or []),
        "flags": sorted(config.flags or []),
    }
    origins: dict[str, str] = {}
    if config.challenge:
        fresh = config.challenge_fresh if config.challenge_fresh is not None else DEFAULT_FRESH
        seed = seed if seed is not None else config.challenge_seed
        if seed is None and config.shard:
            raise RunError(
                f"--shard {config.shard}: give every shard the same "
                "--challenge-seed (or --no-challenge), so the shards of one run "
                "share one challenge set"
            )
        challenge = build_challenge(
            chosen,
            profile or load_profile(config.profile),
            seed if seed is not None else draw_seed(),
            fresh,
            fresh=not config.flags,
            dealt=dealt,
        )
        filters["challenge"] = challenge.summary()
        origins = challenge.origins
        chosen = [*chosen, *challenge.vectors]
    else:
        filters["challenge"] = {"seed": None, "disabled": "--no-challenge"}
    filters.update(_attached_asked(config, folder))
    if config.shard:
        try:
            k, n = parse_shard(config.shard)
        except ValueError as exc:
            raise RunError(str(exc)) from None
        filters["unsharded_selected"] = len(chosen)
        filters["unsharded_ids_sha256"] = ids_digest(v.id for v in chosen)
        chosen = shard(chosen, k, n)
    return Plan(chosen, filters, origins)


def _attached_asked(config: RunConfig, folder: Path | None) -> dict[str, dict[str, Any]]:
    """``filters["fuzz"]`` and ``filters["exhaustive"]``: the seeds and sizes of the
    modes the run attaches; a seed not given is the one a resumed run began with, else a
    fresh one (:func:`~pokercert.harness.run.attached.asked`)."""
    from pokercert.harness.run.attached import EXHAUSTIVE, FUZZ, asked

    fuzz_seed, order_seed = config.fuzz_seed, config.order_seed
    if config.resume and folder is not None and (folder / HEADER_FILE).is_file():
        try:
            old = read_header(folder).filters
        except (OSError, ValueError, TypeError):
            old = {}  # the resume itself says what is wrong with the folder
        if fuzz_seed is None and type(old.get(FUZZ, {}).get("seed")) is int:
            fuzz_seed = old[FUZZ]["seed"]
        if order_seed is None and type(old.get(EXHAUSTIVE, {}).get("order_seed")) is int:
            order_seed = old[EXHAUSTIVE]["order_seed"]
    if config.shard:  # each shard records what the run attaches: the same seeds in all
        for given, seed, option in (
            (config.fuzz, fuzz_seed, "--fuzz-seed"),
            (config.exhaustive or None, order_seed, "--order-seed"),
        ):
            if given is not None and seed is None:
                raise RunError(
                    f"--shard {config.shard}: give every shard the same {option}, "
                    "so the shards of one run record one attached mode (shard 1 "
                    "runs it)"
                )
    return asked(config.fuzz, fuzz_seed, config.exhaustive, order_seed)


def runs_attached(shard_: str | None) -> bool:
    """Whether a run (or shard) runs the attached modes it records: an unsharded run, or
    shard 1 of a sharded one (the modes cover whole rulesets, not a share of vectors, so
    one shard runs each once and ``merge`` keeps its records)."""
    return shard_ is None or parse_shard(shard_)[0] == 1


def _challenge_seed(config: RunConfig, folder: Path) -> int | None:
    """The run's challenge seed: the one given, else the one a resumed run began with,
    else a fresh one (None: no challenge, or a shard given none, which :func:`plan`
    refuses)."""
    if not config.challenge:
        return None
    if config.challenge_seed is not None:
        return config.challenge_seed
    if config.resume and (folder / HEADER_FILE).is_file():
        try:
            seed = read_header(folder).filters.get("challenge", {}).get("seed")
        except (OSError, ValueError, TypeError, AttributeError):
            seed = None  # the resume itself says what is wrong with the folder
        if type(seed) is int:
            return seed
    if config.shard:
        return None
    from pokercert.harness.run.challenge import draw_seed

    return draw_seed()


def with_origins(results: Sequence[Result], origins: Mapping[str, str]) -> list[Result]:
    """``results`` with each challenge vector's origin (:mod:`.challenge`) filled in."""
    get = origins.get
    out = []
    for r in results:
        origin = get(r.vector_id)
        out.append(r._replace(origin=origin) if origin else r)
    return out


def _expectations(config: RunConfig, corpus: Any) -> tuple[dict[str, Known], dict[str, Any]]:
    if config.expect is None:
        return {}, {}
    try:
        known = load_expectations(config.expect)
        check_against(known, corpus.by_id, str(config.expect))
    except ValueError as exc:
        raise RunError(str(exc)) from None
    import hashlib

    digest = hashlib.sha256(Path(config.expect).read_bytes()).hexdigest()
    return known, {"file": str(config.expect), "sha256": digest, "entries": len(known)}


_RESUME_MUST_MATCH = (
    "adapter_spec",
    "corpus_sha256",
    "profile",
    "filters",
    "selected_ids_sha256",
    "shard",
)


def _prepare_folder(
    folder: Path, header: RunHeader, resume: bool
) -> tuple[RunHeader, list[Result]]:
    """Start a fresh run folder, or reopen one to resume; returns the header and the
    results already there.  Either way every earlier report and signature goes first
    (:func:`~pokercert.harness.run.results.clear_folder`): one folder holds one run."""
    if resume and (folder / HEADER_FILE).exists():
        old = read_header(folder)
        for name in _RESUME_MUST_MATCH:
            if getattr(old, name) != getattr(header, name):
                raise RunError(
                    f"cannot resume {folder}: its {name} differs from this run's "
                    f"({getattr(old, name)!r} vs {getattr(header, name)!r})"
                )
        problem = results_problem(folder, old)
        if problem:
            raise RunError(f"cannot resume {folder}: {problem}")
        clear_folder(folder, keep_results=True)
        _drop_torn_line(folder / RESULTS_FILE)
        done = list(read_results(folder))
        old.resumed_at.append(header.started_at)
        old.finished_at = None
        old.aborted = None
        old.command = header.command
        old.results_sha256 = old.results_lines = None
        old.isolation = header.isolation
        old.attached = {}  # the attached modes run again, whole, when the vectors end
        return old, done
    clear_folder(folder)
    return header, []


def _drop_torn_line(path: Path) -> None:
    """Cut a half-written last line (the run was killed mid-write) so appends stay valid."""
    if not path.exists():
        return
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        with path.open("r+b") as fh:
            fh.truncate(data.rfind(b"\n") + 1)


def count(
    results: Sequence[Result] | Iterator[Result], into: dict[str, Counter[str]] | None = None
) -> dict[str, Counter[str]]:
    """Outcomes per ruleset (added to ``into``, if given)."""
    out: dict[str, Counter[str]] = {} if into is None else into
    for r in results:
        out.setdefault(r.ruleset, Counter())[str(r.outcome)] += 1
    return out


def _measure(
    spec: AdapterSpec,
    config: RunConfig,
    identity: Identity | None,
    observed: Observed | None = None,
) -> dict[str, Any]:
    """The measured identity of what ``spec`` runs (:mod:`pokercert.harness.identity`),
    with the files the adapter's hello lists once it has started and the files its
    processes were seen to load (``observed``)."""
    try:
        return measure_spec(
            spec,
            config.identity_files,
            identity.manifest if identity is not None else (),
            observed=observed,
            in_process=isolation_of(spec, not config.in_process) == "in-process",
        )
    except IdentityError as exc:  # an --identity-file removed since the run began
        raise RunError(str(exc)) from None


def _measure_ahead(config: RunConfig) -> MeasureAhead | None:
    """The "before" measurement of what ``config.adapter`` runs, started in a thread
    (:class:`~pokercert.harness.identity.MeasureAhead`) as soon as the spec is known, so
    it overlaps loading the corpus and planning; ``None`` for a spec that does not parse
    (:func:`run` says so where it always has)."""
    try:
        spec = parse_spec(config.adapter)
    except SpecError:
        return None
    if spec.kind == "exec":
        probe_ahead()  # whether strace can observe it: answered while the corpus loads
    return MeasureAhead(partial(_measure, spec, config, None))


def _joined(ahead: MeasureAhead | None) -> dict[str, Any] | RunError:
    """The "before" measurement, waited for; a :class:`RunError` (an ``--identity-file``
    gone) is returned, to be raised after the usage checks that come first."""
    assert ahead is not None  # (the spec parsed: the caller parsed it again)
    try:
        return ahead.join()
    except RunError as exc:
        return exc


def _check_resumed_identity(
    folder: Path, before: Mapping[str, Any], now: Mapping[str, Any]
) -> None:
    """Refuse to resume a run over software other than the one it began with (what the
    adapter loads is compared at the end of the resumed run, not before it starts)."""
    changed = differences(before, now, NO_LOADED)
    if changed:
        raise RunError(
            f"cannot resume {folder}: the measured identity of the software under "
            f"test changed since the run began: {'; '.join(changed[:5])}"
            + (f" (and {len(changed) - 5} more)" if len(changed) > 5 else "")
        )


# ----------------------------------------------------------------------------- the stages
# A run is these stages in this order (:func:`run` composes them; ``pokercert.certify``
# runs them and seals the report): plan -> open -> start -> score -> attached modes ->
# end -> finish.  Each takes what the one before left in the :class:`Session`.
@dataclass
class Planned:
    """What the plan stage (:func:`plan_run`) leaves: the profile, the "before"
    measurement running in its thread, the corpus, the plan and the expectations."""

    profile: Profile
    ahead: MeasureAhead | None
    corpus: Any
    plan: Plan
    known: dict[str, Known]


@dataclass
class Session:
    """One run between its stages: what each stage leaves the next."""

    config: RunConfig
    profile: Profile
    folder: Path
    plan: Plan
    known: dict[str, Known]
    header: RunHeader
    spec: AdapterSpec
    adapter: Adapter
    started_as: dict[str, Any]  # measured before any vendor code ran
    deadline: float | None
    previous: list[Result]  # the results a resumed run found on disk
    counts: dict[str, Counter[str]]  # the results on disk: those before, and new
    scored: list[Result]  # every line of results.jsonl, as written
    new: int = 0
    identity: Identity | None = None
    measured: dict[str, Any] = field(default_factory=dict)
    loaded_ahead: MeasureAhead | None = None
    seen: Observed | None = None
    after: MeasureAhead | None = None
    watchdog: Watchdog | None = None
    results_sha256: str | None = None
    results_lines: int | None = None

    @property
    def started(self) -> Identity:
        """The identity the adapter declared (the start stage has run)."""
        assert self.identity is not None, "the start stage has not run"
        return self.identity


def plan_run(config: RunConfig, corpus: Any = None) -> Planned:
    """Stage *plan*: the profile, the corpus, the vectors (curated, then the challenge
    set of the run's seed, then the shard's share) and the expectations.  The "before"
    measurement of the software under test starts in a thread as soon as the spec
    parses, beside the corpus load and the plan."""
    try:
        profile = load_profile(config.profile)
    except ValueError as exc:
        raise RunError(str(exc)) from None
    ahead = _measure_ahead(config)
    folder = Path(config.out)
    seed, dealt = _challenge_seed(config, folder), None
    with collector.paused(freeze=True):  # the plan lives as long as the run
        if corpus is None and seed is not None and not config.flags:
            # deal the fresh challenge deals in a child process while the corpus loads
            from pokercert.harness.run.challenge import DEFAULT_FRESH, prefetch_fresh

            dealt = prefetch_fresh(
                config.rulesets or [rs.id for rs in all_rulesets()],
                profile,
                seed,
                DEFAULT_FRESH if config.challenge_fresh is None else config.challenge_fresh,
            )
        corpus = _load_corpus(corpus)
        planned = plan(config, corpus, profile, seed, dealt, folder)
    known, expect_info = _expectations(config, corpus)
    if expect_info:
        planned.filters["expectations"] = expect_info
    return Planned(profile, ahead, corpus, planned, known)


def _header(config: RunConfig, planned: Planned, isolation: str) -> RunHeader:
    """The run's ``run.json`` as it begins (before the adapter has said who it is)."""
    chosen, corpus = planned.plan.vectors, planned.corpus
    by_ruleset = Counter(v.ruleset for v in chosen)
    return RunHeader(
        suite_version=__version__,
        corpus_version=corpus.version,
        corpus_sha256=corpus.sha256,
        harness_version=__version__,
        protocol_version=str(PROTOCOL_VERSION),
        adapter_spec=config.adapter,
        evaluator={},
        adapter={},
        profile=planned.profile.as_dict(),
        rulesets=sorted(by_ruleset),
        filters=planned.plan.filters,
        selected=len(chosen),
        selected_ids_sha256=ids_digest(v.id for v in chosen),
        platform=platform_info(),
        command=list(config.command),
        started_at=now_iso(),
        shard=config.shard,
        selected_by_ruleset=dict(sorted(by_ruleset.items())),
        lab=dict(config.lab),
        limits=config.limits.as_record(),
        isolation=isolation,
    )


def open_run(config: RunConfig, planned: Planned) -> Session:
    """Stage *open*: the run folder (fresh, or reopened to resume) and the adapter loaded,
    not started; the "before" measurement is joined before any vendor code is imported."""
    folder = Path(config.out)
    folder.mkdir(parents=True, exist_ok=True)
    deadline = time.monotonic() + config.limits.run_timeout if config.limits.run_timeout else None
    options = AdapterOptions(
        timeout=config.limits.timeout,
        run_deadline=deadline,
        attachments=folder / ATTACHMENTS,
        max_restarts=config.limits.max_restarts,
        max_memory_mb=config.limits.max_memory_mb,
        max_cpu_s=config.limits.max_cpu_s,
        isolate=not config.in_process,
        sandbox=config.sandbox,
        observe_code=True,
    )
    try:
        isolation = isolation_of(config.adapter, not config.in_process)
    except SpecError as exc:  # (a vendor module's own ValueError is not one)
        raise RunError(str(exc)) from None
    header = _header(config, planned, isolation)
    try:
        spec = parse_spec(config.adapter)
        before = _joined(planned.ahead)  # measured before any vendor code is imported
        adapter = (
            load_adapter(spec, options)
            if config.evaluator is None
            else InProcessAdapter(
                config.evaluator,
                spec.text,
                spec.target,
                str(getattr(config.evaluator, "adapter_version", "") or ""),
                timeout=config.limits.timeout,
            )
        )
    except SpecError as exc:  # (a vendor module's own ValueError is not one)
        raise RunError(str(exc)) from None
    for given in config.identity_files:  # a usage error before anything is started
        if not Path(given).exists():
            raise RunError(f"--identity {given}: no such file or folder")
    header, previous = _prepare_folder(folder, header, config.resume)
    header.lab = {**header.lab, **config.lab}  # a resume may add to the lab's fields
    if isinstance(before, RunError):
        raise before
    return Session(
        config,
        planned.profile,
        folder,
        planned.plan,
        planned.known,
        header,
        spec,
        adapter,
        before,
        deadline,
        previous,
        count(previous),
        list(previous),
    )


def start_adapter(s: Session) -> None:
    """Stage *start*: the adapter's hello; the identity it declares and the one measured
    go into ``run.json`` before any vector is sent; an in-process run gets its watchdog.
    A failed start is recorded in the folder (an INCOMPLETE run) and raised."""
    header = s.header
    try:
        identity = s.adapter.start()
    except AdapterError as exc:  # the folder says why it holds no result (an INCOMPLETE run)
        header.aborted, header.finished_at = f"the adapter did not start: {exc}", now_iso()
        write_header(s.folder, header)
        raise
    if s.previous and header.evaluator and header.evaluator != dict(identity.evaluator):
        raise RunError(
            f"cannot resume {s.folder}: it was run against {header.evaluator}, "
            f"the adapter now declares {dict(identity.evaluator)}"
        )
    # what its processes loaded up to hello: with a hello manifest, measured now (the
    # header records the files it lists); else hashed in a thread while the first
    # vectors run (the header has the named files, all a resume compares)
    seen = s.adapter.code_seen()
    s.measured = _measure(s.spec, s.config, identity, seen) if identity.manifest else s.started_as
    s.loaded_ahead = (
        MeasureAhead(partial(_measure, s.spec, s.config, identity, seen))
        if seen is not None and not identity.manifest
        else None
    )
    if s.previous:
        _check_resumed_identity(s.folder, header.measured_identity, s.measured)
    header.measured_identity = s.measured
    header.evaluator = dict(identity.evaluator)
    header.adapter = dict(identity.adapter)
    header.capabilities = {k: list(v) for k, v in identity.capabilities.items()}
    header.sandbox = getattr(s.adapter, "sandbox", IN_PROCESS_RECORD).as_dict()
    write_header(s.folder, header)
    s.identity = identity
    limits = s.config.limits
    if isinstance(s.adapter, InProcessAdapter):  # (it watches the attached modes too)
        s.watchdog = Watchdog(
            s.adapter, s.folder, header, limits.timeout, s.deadline, limits.grace()
        )
        s.watchdog.start()


def score_run(s: Session, progress: Callable[[int, int], None] | None = None) -> None:
    """Stage *score*: every planned vector not already scored, through
    :func:`score_vectors`, streamed into ``results.jsonl``; the harness giving up on the
    adapter is recorded in the header (the results written stay)."""
    chosen, origins = s.plan.vectors, s.plan.origins
    done = {r.vector_id for r in s.previous}
    todo = [v for v in chosen if v.id not in done]
    with ResultWriter(s.folder, append=bool(done)) as writer:
        if progress:
            progress(len(done), len(chosen))
        # the cyclic collector paused while the vectors are scored (their number bounds
        # the stretch; pokercert.reference.collector): each of its passes over the whole
        # heap (the corpus, the plan, every result so far) cost 0.15-0.37 s of CPU in a
        # default run; the attached modes, whose evaluator calls have no such bound, run
        # with it on
        try:
            with collector.paused():
                for results in score_vectors(
                    s.adapter,
                    s.started,
                    todo,
                    s.profile,
                    s.known,
                    s.config.limits.batch_size,
                    s.deadline,
                ):
                    if origins:
                        results = with_origins(results, origins)
                    writer.write_many(results)
                    s.scored.extend(results)
                    count(results, into=s.counts)
                    s.new += len(results)
                    if progress:
                        progress(len(done) + s.new, len(chosen))
        except AdapterAborted as exc:
            s.header.aborted = str(exc)
    s.results_sha256, s.results_lines = writer.sha256, writer.lines


def attach_modes(s: Session, phases: Phases | None = None) -> None:
    """Stage *attached modes*: ``--fuzz`` and ``--exhaustive`` with the same adapter
    after the vectors (:mod:`.attached`), in an unsharded run or shard 1, unless the
    run was aborted."""
    filters = s.plan.filters
    modes: dict[str, Any] = {m: filters[m] for m in ("fuzz", "exhaustive") if m in filters}
    if not modes or s.header.aborted or not runs_attached(s.config.shard):
        return
    from pokercert.harness.run.attached import run_attached

    write_header(s.folder, s.header)  # the vectors are done: say so first
    if s.watchdog:
        s.watchdog.attaching = (list(modes), s.header.rulesets)
    s.header.attached = {}
    _, gave_up = run_attached(
        s.adapter,
        s.started,
        s.header.rulesets,
        s.profile,
        modes,
        s.folder,
        s.config.adapter,
        into=s.header.attached,
        phases=phases,
    )
    if gave_up:
        s.header.aborted = gave_up


def measure_end(s: Session) -> None:
    """Stage *end* (the adapter still open): the "after" measurement.  The bytes launched
    must be the bytes measured, to the end: an adapter that rewrites its own files (at
    start-up or later) is not the software recorded.  Measured after the adapter's last
    call, while it closes and the drafts are written (neither reads the measurement);
    joined in :func:`finish_run`.  What its processes loaded is read before it stops (they
    are read while they live; code loads lazily), and hashed before it stops if some file
    can only be reached through a live process (/proc/PID/root of a sandboxed one)."""
    s.seen = seen = s.adapter.code_seen()
    s.after = MeasureAhead(partial(_measure, s.spec, s.config, s.started, seen))
    if seen is not None and seen.through_proc:
        with contextlib.suppress(RunError):
            s.after.join()
            if s.loaded_ahead is not None:
                s.loaded_ahead.join()


def _changes(s: Session) -> list[str]:
    """How the software under test changed during the run (the measurements joined)."""
    assert s.after is not None, "the end stage has not run"
    changed: list[str] = []
    try:
        at_start = s.loaded_ahead.join() if s.loaded_ahead is not None else s.measured
        changed += [
            d
            for d in differences(s.started_as, at_start, NO_LOADED)
            if not d.startswith("manifest:")
        ]
        ended = s.after.join()
        changed += differences(at_start, ended, COMMON_LOADED)
        if s.seen is not None:  # the end measurement holds what loaded later on
            s.header.measured_identity = {
                **ended,
                "at_start": {"digest": at_start["digest"], "files": len(at_start["files"])},
            }
    except RunError as exc:  # an --identity file removed while the run went on
        changed.append(str(exc))
    return changed


def finish_run(s: Session) -> RunOutcome:
    """Stage *finish* (the adapter closed): the challenge drafts, whether the software
    changed during the run, the header's last words, and the run's outcome."""
    header = s.header
    if s.plan.origins:
        from pokercert.harness.run.challenge import write_drafts

        write_drafts(s.folder, s.scored, s.profile, s.config.adapter)
    changed = _changes(s)
    if changed and not header.aborted:
        header.aborted = "the software under test changed during the run: " + "; ".join(changed[:5])
    header.finished_at = now_iso()
    header.results_sha256, header.results_lines = s.results_sha256, s.results_lines
    write_header(s.folder, header)
    return RunOutcome(s.folder, header, s.counts, exit_code_for(header, s.counts), s.new, s.scored)


def run(
    config: RunConfig,
    corpus: Any = None,
    progress: Callable[[int, int], None] | None = None,
    phases: Phases | None = None,
) -> RunOutcome:
    """Run a certification as ``config`` says; results stream into ``config.out``.

    The stages, in order: :func:`plan_run`, :func:`open_run`, :func:`start_adapter`,
    :func:`score_run`, :func:`attach_modes`, :func:`measure_end`, :func:`finish_run` (a Dask shard
    runs this same sequence; ``pokercert.certify`` adds the sealed report).

    Raises :class:`RunError` for bad input, :class:`AdapterError` if the adapter cannot
    be started at all (nothing is run then).

    The software under test is measured (:mod:`pokercert.harness.identity`) before any
    vendor code runs and again after the adapter's last call.  The "before" measurement
    runs in a thread started as soon as the spec parses, beside the corpus load and the
    plan, and is joined before the adapter is loaded (an in-process module imported, a
    child started); the "after" one runs beside the adapter's closing and the drafts and
    is joined before ``header.aborted`` is decided.  Nothing reads a measurement before
    its join.
    """
    session = open_run(config, plan_run(config, corpus))
    with session.adapter:
        start_adapter(session)
        try:
            score_run(session, progress)
            attach_modes(session, phases)
        finally:
            if session.watchdog:
                session.watchdog.stop()
        measure_end(session)
    return finish_run(session)


def outcome_of_folder(folder: Path, header: RunHeader, warnings: Sequence[str] = ()) -> RunOutcome:
    """The outcome of a run folder written whole by another hand (a merge of shards:
    ``pokercert merge``, ``run --dask``), from its header and its results on disk."""
    results = list(read_results(folder))
    counts = count(results)
    return RunOutcome(
        folder,
        header,
        counts,
        exit_code_for(header, counts),
        len(results),
        results,
        warnings=list(warnings),
    )
