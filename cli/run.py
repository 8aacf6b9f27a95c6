"""Commands ``run``, ``merge`` and ``smoke`` of the ``pokercert`` CLI.

``pokercert`` with no arguments is ``pokercert run``: the bundled reference certified on
the whole corpus into ``./pokercert-run``.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tabulate import tabulate

from pokercert.cli.options import (
    NOT_JSON,
    STDOUT_CURE,
    Subparsers,
    UsageError,
    adapter_advice,
    adapter_args,
    dask_args,
    lab_args,
    lab_fields,
    nonnegative_int,
    out_folder,
    positive_float,
    positive_int,
    print_json,
    profile_arg,
    shard_text,
)
from pokercert.cli.progress import PLAIN_EVERY, Progress
from pokercert.harness.adapters import (
    Adapter,
    AdapterAborted,
    AdapterError,
    AdapterOptions,
    Identity,
)
from pokercert.harness.adapters import load_adapter as _load_adapter
from pokercert.harness.run.challenge import DEFAULT_FRESH, SEED_LIMIT
from pokercert.harness.run.outcome import exit_code
from pokercert.harness.run.results import FAILING, Outcome, RunHeader
from pokercert.reference.errors import ExitCode
from pokercert.reports.text import one_line, printable

OUTCOME_COLUMNS = (
    Outcome.PASS,
    Outcome.FAIL,
    Outcome.WRONG_REASON,
    Outcome.ERROR,
    Outcome.TIMEOUT,
    Outcome.CRASH,
    Outcome.XFAIL,
    Outcome.XPASS,
    Outcome.NOT_APPLICABLE,
)
SHORT = {Outcome.WRONG_REASON: "WRONG_RSN", Outcome.NOT_APPLICABLE: "N/A"}


def register(sub: Subparsers) -> None:
    """Add ``run``, ``merge`` and ``smoke``."""
    _register_run(sub)
    _register_merge(sub)
    _register_smoke(sub)


def _register_run(sub: Subparsers) -> None:
    """``run``: a certification, and its options."""
    p = sub.add_parser(
        "run",
        description="Run the vector corpus against an evaluator and stream scored results "
        "into a run folder; the last line is the report's verdict (CERTIFIED, NOT CERTIFIED, "
        "INCOMPLETE) and the path of report.html. Exit code: 0 no failure beyond what an "
        "expectations file predicts, 1 a failure, 2 adapter or harness error (the run did "
        "not finish), 3 usage error; the certificate is the report's verdict.",
    )
    adapter_args(p, default="reference")
    _run_selection_args(p)
    _run_folder_args(p)
    _run_modes_args(p)
    p.set_defaults(func=cmd_run)


def _run_selection_args(p: argparse.ArgumentParser) -> None:
    """``run``'s choice of what runs, and where: rulesets, profile, flags, shard, Dask."""
    p.add_argument(
        "--ruleset",
        action="append",
        metavar="ID",
        dest="rulesets",
        help="only this ruleset (repeatable; default: every ruleset)",
    )
    profile_arg(p)
    p.add_argument(
        "--flags", nargs="+", metavar="FLAG", help="only vectors carrying any of these flags"
    )
    p.add_argument(
        "--shard",
        type=shard_text,
        metavar="K/N",
        help="run shard K of N (merge them afterwards; "
        "shard 1 runs the attached --fuzz/--exhaustive)",
    )
    dask_args(p, "the shards of the run (merged here)")
    p.add_argument(
        "--tasks",
        type=positive_int,
        metavar="N",
        help="with --dask or --workers: split the run into N shards (default: one per worker)",
    )


def _run_folder_args(p: argparse.ArgumentParser) -> None:
    """``run``'s expectations, run folder, resuming, time limit, batch size, reports."""
    p.add_argument(
        "--expect",
        type=Path,
        metavar="FILE",
        help="expectations file of known failures (XFAIL/XPASS)",
    )
    p.add_argument(
        "--out",
        type=Path,
        default=Path("pokercert-run"),
        metavar="DIR",
        help="run folder (default: %(default)s)",
    )
    p.add_argument(
        "--resume",
        action="store_true",
        help="continue a killed run in --out, skipping vectors already scored",
    )
    p.add_argument(
        "--run-timeout",
        type=positive_float,
        metavar="S",
        help="give up after S seconds in all (default: no limit)",
    )
    p.add_argument(
        "--batch-size",
        type=positive_int,
        default=256,
        metavar="N",
        help="requests per batch (default: %(default)s)",
    )
    p.add_argument(
        "--no-report",
        action="store_true",
        help="do not write the default reports into the run folder",
    )


def _register_merge(sub: Subparsers) -> None:
    """``merge``: shard run folders into one."""
    p = sub.add_parser(
        "merge",
        description="Merge shard run folders (run with --shard K/N) into one "
        "run folder. Exit code as for run, from the merged results.",
    )
    p.add_argument("out", type=Path, metavar="OUT", help="merged run folder to write")
    p.add_argument("shards", type=Path, nargs="+", metavar="SHARD_DIR")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.set_defaults(func=cmd_merge)


def _register_smoke(sub: Subparsers) -> None:
    """``smoke``: trivial requests telling a broken adapter from a non-compliant one."""
    p = sub.add_parser(
        "smoke",
        description="Send trivial requests to tell a broken adapter (exit 2) "
        "from an evaluator that does not comply (exit 1); 0 if all pass.",
    )
    adapter_args(p, default=None)
    which = p.add_mutually_exclusive_group()
    which.add_argument(
        "--ruleset",
        metavar="ID",
        help="ruleset to use (default: the first ruleset the adapter claims)",
    )
    which.add_argument(
        "--all",
        action="store_true",
        help="every ruleset the adapter claims, "
        "in one table (one configure and one batch per ruleset)",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_smoke)


def _run_modes_args(p: argparse.ArgumentParser) -> None:
    """``run``'s challenge, attached modes, identity, lab and output options."""
    _run_challenge_args(p)
    _run_attached_args(p)
    _run_identity_args(p)
    p.add_argument("--json", action="store_true", help="print the summary as JSON")


def _run_challenge_args(p: argparse.ArgumentParser) -> None:
    """The challenge: its fresh deals (or none) and its seed."""
    challenge = p.add_mutually_exclusive_group()
    challenge.add_argument(
        "--challenge",
        type=nonnegative_int,
        metavar="N",
        dest="challenge_fresh",
        help="situation deals per ruleset among the fresh challenge "
        f"deals, after a twin of every curated vector (default: "
        f"{DEFAULT_FRESH}, at least 2 of every situation; the category "
        "ladder and the fresh siblings of the corpus come on top; 0: no "
        "fresh deals)",
    )
    challenge.add_argument(
        "--no-challenge",
        action="store_true",
        help="curated corpus only, no challenge vectors (CI gates; every report states it)",
    )
    p.add_argument(
        "--challenge-seed",
        type=challenge_seed,
        metavar="N",
        help="replay the challenge set of this seed (default: drawn at run time and recorded)",
    )


def _run_attached_args(p: argparse.ArgumentParser) -> None:
    """The attached modes: fuzzing and the exhaustive check, each with its seed."""
    p.add_argument(
        "--fuzz",
        type=positive_int,
        metavar="N",
        dest="fuzz",
        help="attach fuzzing to the run: N deals per ruleset against the "
        "reference after the vectors; a disagreement withholds the certificate",
    )
    p.add_argument(
        "--fuzz-seed",
        type=challenge_seed,
        metavar="S",
        help="replay the fuzzing of this seed (with --fuzz; default: drawn at run "
        "time and recorded)",
    )
    p.add_argument(
        "--exhaustive",
        action="store_true",
        help="attach an exhaustive check to the run: every hand of each ruleset "
        "the adapter claims classify or compare for (others are skipped and "
        "named); a disagreement withholds the certificate",
    )
    p.add_argument(
        "--order-seed",
        type=challenge_seed,
        metavar="S",
        help="with --exhaustive: send each hand in the card order of seed S "
        "(default: drawn at run time and recorded)",
    )


def _run_identity_args(p: argparse.ArgumentParser) -> None:
    """The files measured into the identity, the lab's fields, running in process."""
    p.add_argument(
        "--identity",
        "--identity-file",
        action="append",
        default=[],
        metavar="PATH",
        dest="identity_files",
        help="a file or folder of the evaluator (its library, its tables) whose "
        "SHA-256 the harness records in the run's measured identity; a folder is "
        "hashed file by file and as a tree (repeatable; --identity-file is the "
        "old name)",
    )
    lab_args(p)
    p.add_argument(
        "--in-process",
        action="store_true",
        help="run a py: or named evaluator in this process (fast, NOT isolated: "
        "for CI gates; the report says so); default: in a child process",
    )


def challenge_seed(text: str) -> int:
    """``--challenge-seed``: an integer in [0, 2**32)."""
    value = nonnegative_int(text)
    if value >= SEED_LIMIT:
        raise argparse.ArgumentTypeError(f"must be below {SEED_LIMIT}, got {text!r}")
    return value


# ----------------------------------------------------------------------------- summary
def summary_rows(
    header: RunHeader, counts: Mapping[str, Counter[str]], report: Mapping[str, Any] | None
) -> list[dict[str, Any]]:
    """The rows of the summary table, each ruleset's counts and verdict as the sealed
    report has them (never worked out here); without a report (it could not be built),
    the counts on disk and the verdict INCOMPLETE, as the last line says."""
    from pokercert.reports.verdict import INCOMPLETE

    made = {row["id"]: row for row in report["rulesets"]} if report is not None else {}
    rows = []
    for rs in sorted(set(header.selected_by_ruleset) | set(counts) | set(made)):
        given = made.get(rs)
        c: Mapping[str, int] = given["counts"] if given is not None else counts.get(rs, Counter())
        missing = header.selected_by_ruleset.get(rs, 0) - sum(c.values())
        row: dict[str, Any] = {"ruleset": rs}
        row.update({str(o): c.get(str(o), 0) for o in OUTCOME_COLUMNS})
        row["not run"] = max(missing, 0)
        row["verdict"] = given["verdict"] if given is not None else INCOMPLETE
        rows.append(row)
    return rows


def challenge_summary(header: RunHeader) -> str:
    """The run's challenge in one line: seed and size, or that there was none."""
    ch = header.filters.get("challenge") or {}
    if ch.get("seed") is None:
        return (
            "challenge: none (--no-challenge): the curated corpus alone, which a lookup "
            "table could also pass"
        )
    per = ch.get("by_ruleset", {})
    twins = sum(r.get("twin", 0) for r in per.values())
    fresh = sum(r.get("fresh", 0) for r in per.values())
    return (
        f"challenge: seed {ch['seed']}, {twins} twins + {fresh} fresh deals (sha256 "
        f"{str(ch.get('sha256', ''))[:12]}); replay with --challenge-seed {ch['seed']}"
    )


def attached_modes(header: RunHeader) -> dict[str, Any]:
    """The blocks of the attached modes, as every report derives them."""
    from pokercert.reports.model import mode_blocks

    return mode_blocks({"filters": header.filters}, header.attached, header.rulesets)


# what `run`'s own exit code says, when it differs from the report's verdict's
RUN_EXIT_WORDS = {
    exit_code(
        finished=True, complies=True
    ): "no failure beyond what the expectations file predicts",
    exit_code(finished=True, complies=False): "a failure, or nothing applicable was run",
    exit_code(finished=False, complies=False): "the run did not finish",
}


def last_line(report: Mapping[str, Any] | None, folder: Path, code: int, written: bool) -> str:
    """The summary's last line, in the report's words: its verdict and where the HTML
    report is (or that none was written), and the run's exit code when it says another
    thing than the verdict (a failure the expectations file predicts: exit 0)."""
    from pokercert.reports.model import REPORT_EXIT_CODES
    from pokercert.reports.output import FORMATS
    from pokercert.reports.verdict import INCOMPLETE

    verdict = str(report["verdict"]) if report is not None else INCOMPLETE
    where = (
        f"{folder / FORMATS['html'][0]}"
        if written
        else f"results in {folder}/ (no report written; `pokercert report {folder}` writes it)"
    )
    line = f"{verdict}: {where}"
    if REPORT_EXIT_CODES.get(verdict) != code:
        line += f" (run exit code {int(code)}: {RUN_EXIT_WORDS[ExitCode(code)]})"
    return line


def print_summary(
    header: RunHeader,
    counts: Mapping[str, Counter[str]],
    folder: Path,
    exit_code: int,
    as_json: bool,
    report: Mapping[str, Any] | None = None,
    written: bool = False,
) -> None:
    """The run's summary: who was run on what, what the certificate covers, the table of
    outcomes, the challenge and attached modes, and last the report's verdict."""
    rows = summary_rows(header, counts, report)
    modes = attached_modes(header)
    if as_json:
        print_json(_summary_json(header, folder, exit_code, rows, modes, report, written))
        return
    _print_who(header, report)
    _print_outcomes(rows)
    print(f"\n{challenge_summary(header)}")
    _print_modes(header, modes, report)
    if header.aborted:
        print(f"\nthe run did not finish: {one_line(header.aborted)}")
    print(f"\n{last_line(report, folder, exit_code, written)}")


def _summary_json(
    header: RunHeader,
    folder: Path,
    exit_code: int,
    rows: list[dict[str, Any]],
    modes: Mapping[str, Any],
    report: Mapping[str, Any] | None,
    written: bool,
) -> dict[str, Any]:
    """The summary as ``--json`` prints it."""
    from pokercert.reports.output import FORMATS

    return {
        "run": str(folder),
        "exit_code": exit_code,
        "aborted": header.aborted,
        "evaluator": header.evaluator,
        "adapter_spec": header.adapter_spec,
        "measured_identity": header.measured_identity.get("digest", ""),
        "challenge": header.filters.get("challenge"),
        "rulesets": rows,
        "modes": modes,
        "verdict": report["verdict"] if report is not None else None,
        "covers": report["covers"] if report is not None else None,
        "report": str(folder / FORMATS["html"][0]) if written else None,
    }


def _print_who(header: RunHeader, report: Mapping[str, Any] | None) -> None:
    """Who was run on what: the declared evaluator, its spec, the profile, the corpus, the
    measured identity; and what the certificate covers, with its warnings."""
    from pokercert.reports.text import corpus_line, covers_rows, covers_warnings

    ident = header.evaluator
    declared = one_line(
        f"{ident.get('vendor', '?')} {ident.get('name', '?')} {ident.get('version', '')}"
    )
    corpus = (
        corpus_line(dict(report))
        if report is not None
        else f"corpus {header.corpus_version} {header.corpus_sha256[:12]}"
    )
    print(
        f"evaluator: {declared} ({one_line(header.adapter_spec)}); profile "
        f"{one_line(header.profile.get('name'))}; {one_line(corpus)}"
    )
    measured = header.measured_identity
    if measured.get("digest"):
        print(
            f"measured identity: sha256 {measured['digest'][:16]} "
            f"({len(measured.get('files', []))} files hashed by the harness)"
        )
    if report is not None:
        print("what this certificate covers:")
        for what, words in covers_rows(dict(report)):
            print(one_line(f"  {what.lower()}: {words}"))
        for warning in covers_warnings(dict(report)):
            print(one_line(f"WARNING: {warning}"))


def _print_outcomes(rows: list[dict[str, Any]]) -> None:
    """The table of outcomes: one row per ruleset with its verdict, then the totals."""
    table = [
        [
            r["ruleset"],
            *(r[str(o)] or "" for o in OUTCOME_COLUMNS),
            r["not run"] or "",
            r["verdict"],
        ]
        for r in rows
    ]
    total = [
        "total",
        *(sum(r[str(o)] for r in rows) or "" for o in OUTCOME_COLUMNS),
        sum(r["not run"] for r in rows) or "",
        "",
    ]
    heads = ["ruleset", *(SHORT.get(o, str(o)) for o in OUTCOME_COLUMNS), "not run", "verdict"]
    print(tabulate([*table, total], headers=heads, tablefmt="simple"))


def _print_modes(
    header: RunHeader, modes: Mapping[str, Any], report: Mapping[str, Any] | None
) -> None:
    """Each attached mode's line (with its replay command) and the rulesets it did not
    pass."""
    from pokercert.reports.text import mode_line

    # the replay commands name the run's adapter, profile and rulesets (the report's
    # identification, or run.json's when no report was written)
    said = (
        dict(report)
        if report is not None
        else {
            "identification": {
                "adapter_spec": header.adapter_spec,
                "profile": header.profile,
                "filters": header.filters,
            }
        }
    )
    for mode, block in modes.items():
        print(one_line(mode_line(said, mode, block)))
        for r in block["rulesets"]:
            if r["status"] != "passed":
                print(
                    one_line(
                        f"  {r['id']}: {r['status']}, {r['disagreements']} "
                        f"disagreement(s) in {r['checked']:,} of {r['of']:,}"
                        + (f": {r['why']}" if r["why"] else "")
                    )
                )


# ----------------------------------------------------------------------------- commands
def cmd_run(args: argparse.Namespace) -> int:
    from pokercert.certify import Limits, certify

    _check_run_args(args)
    on_dask = bool(args.dask) or args.workers > 1
    progress = Progress()
    # the attached modes can run for minutes: their phases print plain lines to stderr
    # when no terminal shows a bar (as `pokercert exhaustive` does)
    modes_progress = Progress(unit="hands/s", plain_every=PLAIN_EVERY, label="pokercert run: ")
    try:
        done = certify(
            args.adapter,
            rulesets=args.rulesets,
            profile=args.profile,
            challenge_seed=args.challenge_seed,
            out=args.out,
            limits=Limits(
                timeout=args.timeout,
                run_timeout=args.run_timeout,
                batch_size=args.batch_size,
                max_restarts=args.max_restarts,
                max_memory_mb=args.max_memory,
                max_cpu_s=args.max_cpu,
            ),
            flags=args.flags,
            shard=args.shard,
            expect=args.expect,
            resume=args.resume,
            identity_files=args.identity_files,
            lab=lab_fields(args),
            in_process=args.in_process,
            sandbox=args.sandbox,
            challenge=not args.no_challenge,
            challenge_fresh=args.challenge_fresh,
            fuzz=args.fuzz,
            fuzz_seed=args.fuzz_seed,
            exhaustive=args.exhaustive,
            order_seed=args.order_seed,
            workers=args.workers,
            scheduler=args.dask,
            tasks=args.tasks,
            write_reports=not args.no_report,
            progress=progress,
            phases=modes_progress.phase,
            command=["pokercert", *sys.argv[1:]],
        )
    except KeyboardInterrupt:
        progress.close()
        modes_progress.close()
        return _interrupted(args, on_dask)
    finally:
        progress.close()
        modes_progress.close()
    _print_done(args, done)
    return done.exit_code


def _interrupted(args: argparse.Namespace, on_dask: bool) -> int:
    """A run stopped with Ctrl-C: how to go on (resume, or run again on Dask); its code."""
    print(
        "pokercert run: interrupted; "
        + (
            "run it again (a Dask run does not resume)"
            if on_dask
            else f"continue with --resume --out {args.out}"
        ),
        file=sys.stderr,
    )
    return exit_code(finished=False, complies=False)


def _print_done(args: argparse.Namespace, done: Any) -> None:
    """A finished certification's warnings and problems (stderr), then its summary."""
    for warning in done.warnings:
        print(f"pokercert run: warning: {warning}", file=sys.stderr)
    for problem in done.problems:
        print(problem, file=sys.stderr)
    print_summary(
        done.header,
        done.run.counts,
        done.folder,
        done.exit_code,
        args.json,
        done.report,
        done.written,
    )


def _check_run_args(args: argparse.Namespace) -> None:
    """The usage errors of ``run`` found before anything is planned."""
    lab_fields(args)
    if args.fuzz_seed is not None and args.fuzz is None:
        raise UsageError("--fuzz-seed replays an attached fuzzing: give --fuzz N as well")
    if args.order_seed is not None and not args.exhaustive:
        raise UsageError(
            "--order-seed sets the card order of an attached exhaustive check: "
            "give --exhaustive as well"
        )
    if args.expect is not None and not args.expect.is_file():
        raise UsageError(f"--expect {args.expect}: no such file")
    on_dask = bool(args.dask) or args.workers > 1
    if args.tasks is not None and not on_dask:
        raise UsageError(
            "--tasks splits a run on Dask: give --dask SCHEDULER or --workers N as well"
        )
    if on_dask and (args.shard or args.resume):
        raise UsageError(
            f"{'--shard' if args.shard else '--resume'} runs in one process; "
            "--dask and --workers run (and merge) every shard of the run"
        )
    if args.resume:
        _check_resumable(args.out)
    out_folder(args.out)


def _check_resumable(folder: Path) -> None:
    """``--resume`` needs a run to resume: a readable run.json and results.jsonl whose
    every complete line is a result (a torn last line is what a killed run leaves, and
    the resume cuts it); else a usage error naming the file and line."""
    import json

    from pokercert.harness.run.results import HEADER_FILE, RESULTS_FILE, Result, read_header

    if not (folder / HEADER_FILE).is_file():
        raise UsageError(
            f"--resume: {folder} holds no run to resume (no {HEADER_FILE}); "
            "leave out --resume to start a new run"
        )
    try:
        read_header(folder)
    except (OSError, ValueError, TypeError) as exc:
        raise UsageError(f"{folder / HEADER_FILE}: not a readable run header ({exc})") from None
    path = folder / RESULTS_FILE
    if not path.exists():
        return
    try:
        with path.open(encoding="utf-8") as fh:
            for number, line in enumerate(fh, 1):
                if not line.endswith("\n"):
                    break  # torn last line: cut on resume
                try:
                    Result.from_json(json.loads(line))
                except (ValueError, KeyError, TypeError, AttributeError) as exc:
                    raise UsageError(
                        f"{path}:{number}: not a result ({exc}); this run cannot be resumed"
                    ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: cannot read ({exc})") from None


def cmd_merge(args: argparse.Namespace) -> int:
    from pokercert.certify.seal import seal
    from pokercert.harness.run.merge import merge
    from pokercert.harness.run.runner import outcome_of_folder

    out_folder(args.out, "OUT")
    header, warnings = merge(args.out, args.shards)
    for w in warnings:
        print(f"pokercert merge: warning: {w}", file=sys.stderr)
    outcome = outcome_of_folder(args.out, header, warnings)
    sealed = seal(outcome, write=False)
    for problem in sealed.problems:
        print(problem, file=sys.stderr)
    print_summary(header, outcome.counts, args.out, outcome.exit_code, args.json, sealed.report)
    return outcome.exit_code


def cmd_smoke(args: argparse.Namespace) -> int:
    from pokercert.harness.run.smoke import smoke_vectors
    from pokercert.reference import get_ruleset

    if args.ruleset:
        get_ruleset(args.ruleset)  # an unknown id: a usage error before the adapter starts
    options = AdapterOptions(
        timeout=args.timeout,
        max_restarts=args.max_restarts,
        max_memory_mb=args.max_memory,
        max_cpu_s=args.max_cpu,
        sandbox=args.sandbox,
    )
    adapter = _load_adapter(args.adapter, options)
    with adapter:
        try:
            identity = adapter.start()
        except AdapterError as exc:
            said = str(exc).replace(": the adapter failed to start: ", ": ", 1)
            said = adapter_advice(f"the adapter does not start: {said}")
            return _smoke_verdict(args, [], said, None)
        rulesets = _smoke_rulesets(args, identity)
        if not rulesets:
            return _smoke_verdict(args, [], "the adapter claims no ruleset", identity.evaluator)
        vectors = [
            v for rs in rulesets for v in smoke_vectors(rs, identity.capabilities.get(rs, []))
        ]
        untested = [rs for rs in rulesets if not any(v.ruleset == rs for v in vectors)]
        if (untested and not args.all) or not vectors:
            return _smoke_verdict(
                args,
                [],
                f"the adapter claims nothing of {', '.join(untested)} the smoke set can test",
                identity.evaluator,
            )
        results, problem = _smoke_checks(adapter, identity, vectors, rulesets)
    return _smoke_verdict(
        args, results, problem, identity.evaluator, rulesets if args.all else None, untested
    )


def _smoke_rulesets(args: argparse.Namespace, identity: Identity) -> list[str]:
    """The rulesets to smoke: every one the adapter claims (``--all``), else the one
    asked for (a usage error if the adapter does not claim it) or its first."""
    from pokercert.harness.run.smoke import claimed_rulesets, pick_ruleset

    claimed = sorted(r for r, kinds in identity.capabilities.items() if kinds)
    if args.ruleset and args.ruleset not in claimed:
        raise UsageError(
            f"--ruleset {args.ruleset}: the adapter does not claim it; it "
            f"claims {', '.join(claimed) or 'no ruleset'}"
        )
    first = pick_ruleset(identity, args.ruleset)
    return claimed_rulesets(identity) if args.all else [first] if first else []


def _smoke_checks(
    adapter: Adapter, identity: Identity, vectors: list[Any], rulesets: list[str]
) -> tuple[list[Any], str]:
    """The smoke vectors scored (one batch per ruleset), then the feature checks; and why
    the adapter was given up on, if it was (the results up to then are kept)."""
    from pokercert.harness.run.runner import score_vectors
    from pokercert.harness.run.smoke import feature_checks
    from pokercert.reference import load_profile

    results: list[Any] = []
    try:
        for batch in score_vectors(
            adapter,
            identity,
            vectors,
            load_profile("practice"),
            batch_size=max(len(v) for v in _per_ruleset(vectors)),
        ):
            results.extend(batch)
        results.extend(feature_checks(adapter, identity, rulesets))
    except AdapterAborted as exc:
        return results, str(exc)
    return results, ""


def _per_ruleset(vectors: list[Any]) -> list[list[Any]]:
    groups: dict[str, list[Any]] = {}
    for v in vectors:
        groups.setdefault(v.ruleset, []).append(v)
    return list(groups.values())


BROKEN = frozenset({Outcome.ERROR, Outcome.TIMEOUT, Outcome.CRASH})


def _smoke_verdict(
    args: argparse.Namespace,
    results: list[Any],
    problem: str,
    evaluator: Mapping[str, Any] | None,
    rulesets: list[str] | None = None,
    untested: Sequence[str] = (),
) -> int:
    """Print the smoke table and verdict; ``rulesets`` (with ``--all``): every ruleset
    smoked, each also with a verdict of its own."""
    code, verdict = _smoke_outcome(results, problem)
    per_ruleset = {
        rs: _smoke_one([r for r in results if r.ruleset == rs], rs in untested)
        for rs in rulesets or ()
    }
    if args.json:
        print_json(
            {
                "verdict": verdict,
                "exit_code": code,
                "problem": problem,
                "evaluator": dict(evaluator or {}),
                **({"rulesets": per_ruleset} if rulesets is not None else {}),
                "checks": [_check_json(r) for r in results],
            }
        )
        return code
    noise = [r.message for r in results if NOT_JSON in r.message]
    if results:
        _print_checks(results)
    if per_ruleset:
        print(
            "\n"
            + tabulate(
                [[rs, v] for rs, v in per_ruleset.items()], headers=["ruleset", "smoke verdict"]
            )
        )
    if noise:
        _print_not_json(noise, len(results))
    if problem:  # a diagnostic: on stderr, its lines as lines (the adapter's indented)
        print(printable(problem).rstrip("\n").replace("\n", "\n  "), file=sys.stderr)
    print(f"{chr(10) if results or per_ruleset else ''}{verdict}")
    return code


def _smoke_outcome(results: list[Any], problem: str) -> tuple[ExitCode, str]:
    """The smoke's exit code and verdict: broken adapter, non-compliant evaluator, nothing
    tested, or OK, in that order."""
    if problem or any(r.outcome in BROKEN for r in results):
        return ExitCode.ERROR, "ADAPTER BROKEN"
    if any(r.outcome in FAILING for r in results):
        return ExitCode.NONCOMPLIANT, "EVALUATOR NON-COMPLIANT"
    if not any(r.outcome is Outcome.PASS for r in results):
        return ExitCode.ERROR, "NOTHING TESTED"
    return ExitCode.OK, "ADAPTER OK"


def _check_json(r: Any) -> dict[str, Any]:
    """One smoke check as ``--json`` prints it."""
    return {
        "id": r.vector_id,
        "ruleset": r.ruleset,
        "kind": r.kind,
        "inputs": r.inputs,
        "expected": r.expected,
        "actual": r.actual,
        "outcome": str(r.outcome),
        "message": r.message,
    }


SMOKE_CELL = 34  # the most characters of inputs, expected or actual in the table's cells


def _print_checks(results: list[Any]) -> None:
    """The table of checks: inputs, expected, actual (or why there is none), outcome,
    each cell cut to :data:`SMOKE_CELL` characters so the table fits a terminal; then
    every check that did not pass, in full (what a vendor has to read)."""
    rows = [
        [
            r.vector_id,
            r.kind,
            _cell(_inputs(r.inputs)),
            _cell(_short(r.expected)),
            _cell(_actual(r)),
            str(r.outcome),
        ]
        for r in results
    ]
    print(tabulate(rows, headers=["check", "kind", "inputs", "expected", "actual", "outcome"]))
    for r in results:
        if r.outcome is Outcome.PASS or NOT_JSON in r.message:
            continue  # (a line that is not JSON is shown once, below)
        print(f"\n{r.vector_id}: {r.outcome}")
        print(f"  inputs    {one_line(_inputs(r.inputs))}")
        print(f"  expected  {_short(r.expected)}")
        if r.actual is not None:
            print(f"  actual    {_short(r.actual)}")
        if r.message:
            print(f"  message   {one_line(r.message[:300])}")


def _actual(r: Any) -> str:
    if r.actual is not None:
        return _short(r.actual)
    if NOT_JSON in r.message:
        return f"{NOT_JSON} (below)"
    return one_line(r.message[:60])


def _cell(text: str) -> str:
    return text if len(text) <= SMOKE_CELL else text[: SMOKE_CELL - 3] + "..."


def _print_not_json(noise: list[str], replies: int) -> None:
    """Replies that were not JSON, once, not in every row: the line the adapter wrote to
    stdout and what to do about it."""
    line = next((n for n in noise if n.startswith(NOT_JSON)), noise[0]).split("): ", 1)[-1]
    line = line if len(line) <= 80 else line[:77] + "..."
    print(
        f"\n{len(noise)} of {replies} replies were not JSON; the adapter wrote "
        f"this line to stdout: {one_line(line)}\n{STDOUT_CURE}"
    )


def _smoke_one(results: list[Any], untested: bool) -> str:
    """One ruleset's part of a ``smoke --all`` verdict."""
    if untested:
        return "NOTHING TESTED"
    if any(r.outcome in BROKEN for r in results):
        return "ADAPTER BROKEN"
    if any(r.outcome in FAILING for r in results):
        return "EVALUATOR NON-COMPLIANT"
    return "ADAPTER OK" if results else "NOTHING TESTED"


def _inputs(inputs: Mapping[str, Any]) -> str:
    parts = [
        f"{k}={' | '.join(v) if isinstance(v, list) else v}" for k, v in inputs.items() if k != "op"
    ]
    return "; ".join(parts)


def _short(data: Mapping[str, Any]) -> str:
    return one_line(", ".join(f"{k}={v}" for k, v in data.items() if k not in ("id", "message")))
