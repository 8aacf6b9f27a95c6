"""Commands ``fuzz`` and ``exhaustive``: an evaluator against the reference, beyond the corpus.

``pokercert fuzz`` deals situation by situation from a seeded sampler and shrinks what it
finds with Hypothesis (:mod:`pokercert.harness.explore.fuzz`);
``pokercert exhaustive`` walks every hand of a ruleset
(:mod:`pokercert.harness.explore.exhaustive`).
Both print any disagreement as a ready-to-add corpus vector.  ``--adapter`` defaults to
the reference, so both commands demo out of the box (and must then find nothing).

Exit codes: 0 the adapter agrees with the reference, 1 it disagrees, 2 adapter or harness
error, 3 usage error.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pokercert.cli.options import (
    Subparsers,
    UsageError,
    adapter_args,
    dask_args,
    hand_range,
    nonnegative_int,
    out_folder,
    positive_int,
    print_json,
    profile_arg,
    shard_text,
)
from pokercert.cli.progress import PLAIN_EVERY, Progress
from pokercert.harness.adapters import (
    Adapter,
    AdapterAborted,
    AdapterOptions,
    Identity,
    SpecError,
    load_adapter,
)
from pokercert.reference import Profile, Ruleset, get_ruleset, load_profile
from pokercert.reference.errors import ExitCode
from pokercert.vectors.model import KINDS

DEFAULT_FUZZ_OUT = Path("pokercert-fuzz")
DEFAULT_EXAMPLES = 1000


def register(sub: Subparsers) -> None:
    p = sub.add_parser(
        "fuzz",
        description="Deal N requests round-robin over the situations where evaluators go "
        "wrong (adjacent categories, kickers, crossed ranks, the wheel and broadway, "
        "boards, wild cards, malformed input where the adapter claims reject, and "
        "card-by-card deals), from a seeded sampler (the same seed, the same deals), "
        "compare the adapter's answers with the reference, shrink the first disagreement "
        "with Hypothesis to a minimal counterexample and print it as a ready-to-add corpus "
        "vector, with the situations exercised. Exit code: 0 no "
        "disagreement, 1 a disagreement, 2 adapter error, 3 usage error.",
    )
    adapter_args(p, default="reference")
    p.add_argument("--ruleset", required=True, metavar="ID")
    profile_arg(p)
    p.add_argument(
        "--examples",
        type=positive_int,
        default=DEFAULT_EXAMPLES,
        metavar="N",
        help="deals to generate (default: %(default)s; shrinking adds more)",
    )
    p.add_argument(
        "--seed",
        type=int,
        metavar="S",
        help="random seed (default: a fresh one, printed for reruns)",
    )
    p.add_argument(
        "--kind",
        action="append",
        dest="kinds",
        metavar="KIND",
        choices=KINDS,
        help="only this kind of request (repeatable; default: every kind the adapter claims)",
    )
    p.add_argument(
        "--out",
        type=Path,
        default=DEFAULT_FUZZ_OUT,
        metavar="DIR",
        help="run folder: Hypothesis database and findings (default: %(default)s)",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_fuzz)
    _register_exhaustive(sub)


def _register_exhaustive(sub: Subparsers) -> None:
    p = sub.add_parser(
        "exhaustive",
        description="Send every hand of the ruleset through the adapter (2,598,960 five-card, "
        "22,100 three-card, 1,326 two-card hands; with jokers where the game has them; in "
        "a best-five-of-seven game, stud or hold 'em where the board plays, all "
        "133,784,560 seven-card deals, each valued by its best five) and "
        "check that every category agrees with the reference and that the adapter's order "
        "induces exactly the reference's equivalence classes (by the evaluator's key() if "
        "it has one, else by compare requests). Resumable and shardable. Exit code: 0 "
        "agrees, 1 disagrees, 2 adapter error or unfinished, 3 usage error.",
    )
    adapter_args(p, default="reference")
    p.add_argument("--ruleset", required=True, metavar="ID")
    profile_arg(p)
    _exhaustive_hands_args(p)
    _exhaustive_order_args(p)
    dask_args(p, "the hand ranges")
    p.add_argument(
        "--task-size", type=positive_int, metavar="N", help="hands per Dask task (default: 262144)"
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_exhaustive)


def _exhaustive_hands_args(p: argparse.ArgumentParser) -> None:
    """Which hands ``exhaustive`` checks (shard or range), where, in what batches."""
    where = p.add_mutually_exclusive_group()
    where.add_argument(
        "--shard", type=shard_text, metavar="K/N", help="check shard K of N (contiguous ranges)"
    )
    where.add_argument(
        "--range",
        dest="hands",
        type=hand_range,
        metavar="START..STOP",
        help="check the hands at positions START to STOP - 1 of the "
        "enumeration (e.g. 0..1000000); merge ranges as shards",
    )
    p.add_argument(
        "--resume",
        action="store_true",
        help="continue the run saved in --out from its last checkpoint",
    )
    p.add_argument(
        "--out",
        type=Path,
        metavar="DIR",
        help="run folder (default: pokercert-exhaustive/RULESET[-K-of-N | -START-STOP])",
    )
    p.add_argument(
        "--batch-size",
        type=positive_int,
        default=None,
        metavar="N",
        help="hands per batch (default: 4096 over exec:, where one timeout covers a "
        "batch's reply; 16384 in process, where each call has its own)",
    )
    p.add_argument(
        "--naturals-only",
        action="store_true",
        help="skip the hands holding jokers (games with wild cards)",
    )
    p.add_argument(
        "--report",
        type=nonnegative_int,
        default=10,
        metavar="N",
        help="write up the first N disagreements as vectors (default: %(default)s)",
    )


def _exhaustive_order_args(p: argparse.ArgumentParser) -> None:
    """The card order each hand is sent in (a seed, or sorted)."""
    order = p.add_mutually_exclusive_group()
    order.add_argument(
        "--order-seed",
        type=nonnegative_int,
        metavar="N",
        help="send each hand's cards in the order of seed N (default: a fresh "
        "seed, printed and recorded for replays)",
    )
    order.add_argument(
        "--sorted",
        action="store_true",
        help="send each hand's cards sorted high to low, as enumerated (an "
        "evaluator that reads cards in input order is then not caught)",
    )


# ----------------------------------------------------------------------------- shared
def _options(args: argparse.Namespace, out: Path) -> AdapterOptions:
    return AdapterOptions(
        timeout=args.timeout,
        attachments=out / "attachments",
        max_restarts=args.max_restarts,
        max_memory_mb=args.max_memory,
        max_cpu_s=args.max_cpu,
        sandbox=args.sandbox,
    )


@contextmanager
def started(args: argparse.Namespace, out: Path) -> Iterator[tuple[Adapter, Identity]]:
    """The adapter of ``--adapter``, started; SpecError is a usage error."""
    try:
        adapter = load_adapter(args.adapter, _options(args, out))
    except SpecError as exc:
        raise UsageError(str(exc)) from None
    with adapter:
        yield adapter, adapter.start()


def _ruleset_and_profile(args: argparse.Namespace) -> tuple[Ruleset, Profile]:
    return get_ruleset(args.ruleset), load_profile(args.profile)


def _who(identity: Identity, spec: str) -> str:
    return _named(identity.evaluator, spec)


def _named(ev: Any, spec: str) -> str:
    """The evaluator (vendor, name, version) and the adapter spec, for a summary line."""
    name = " ".join(str(ev.get(k, "")) for k in ("vendor", "name", "version") if ev.get(k))
    return f"{name or '?'} ({spec})"


def _write_json(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8"
    )


# ----------------------------------------------------------------------------- fuzz
def cmd_fuzz(args: argparse.Namespace) -> int:
    ruleset, profile = _ruleset_and_profile(args)
    out: Path = out_folder(args.out, create=True)
    ran = _fuzz_pass(args, ruleset, profile, out)
    if isinstance(ran, int):
        return ran
    report, identity, kinds = ran
    data = report.as_dict(args.adapter)
    data["evaluator"] = dict(identity.evaluator)
    rerun = _fuzz_rerun(args, ruleset.id, report.seed, out)
    data["rerun"] = rerun
    _write_json(out / f"fuzz-{ruleset.id}.json", data)
    draft = out / f"counterexample-{ruleset.id}.toml"
    if report.found is not None:
        draft.write_text(report.found.draft(args.adapter), encoding="utf-8")
        data["draft"] = str(draft)
    # a disagreement seen once is a finding even if the adapter then answered otherwise
    code = (
        ExitCode.NONCOMPLIANT if report.found else ExitCode.ERROR if report.flaky else ExitCode.OK
    )
    if args.json:
        data["exit_code"] = code
        print_json(data)
        return code
    print(
        f"fuzz {ruleset.id}: {_who(identity, args.adapter)}; profile {profile.name}; "
        f"kinds {', '.join(kinds)}; seed {report.seed}"
    )
    _print_fuzz(report, args.adapter, ruleset.id, draft)
    print(f"rerun: {' '.join(_quote(a) for a in rerun)}")
    return code


def _fuzz_pass(args: argparse.Namespace, ruleset: Ruleset, profile: Profile, out: Path) -> Any:
    """(the fuzz report, the adapter's identity, the kinds fuzzed), or the exit code of a
    usage error (the adapter claims none of the kinds asked)."""
    from pokercert.harness.explore.fuzz import claimed_kinds, fuzz

    progress = Progress(unit="examples/s")
    try:
        with started(args, out) as (adapter, identity):
            kinds = claimed_kinds(identity.capabilities, ruleset)
            if args.kinds:
                kinds = [k for k in kinds if k in args.kinds]
            if not kinds:
                asked = args.kinds or KINDS
                print(
                    f"pokercert fuzz: the adapter claims none of {', '.join(asked)} for "
                    f"{ruleset.id} (it claims: "
                    f"{dict(identity.capabilities).get(ruleset.id, 'nothing')})",
                    file=sys.stderr,
                )
                return ExitCode.USAGE
            adapter.configure(ruleset.id, profile.readings_for(ruleset))
            report = fuzz(
                adapter,
                ruleset,
                profile,
                kinds=kinds,
                examples=args.examples,
                seed=args.seed,
                database=out / "hypothesis",
                features=identity.features,
                on_example=lambda n: progress(min(n, args.examples), args.examples),
            )
    finally:  # (adapter errors: reported by cli.main)
        progress.close()
    return report, identity, kinds


def _fuzz_rerun(args: argparse.Namespace, ruleset: str, seed: int, out: Path) -> list[str]:
    """The command that replays this fuzz run (the same seed and folder)."""
    return [
        "pokercert",
        "fuzz",
        "--adapter",
        args.adapter,
        "--ruleset",
        ruleset,
        "--profile",
        args.profile,
        "--examples",
        str(args.examples),
        "--seed",
        str(seed),
        "--out",
        str(out),
    ]


def _print_fuzz(report: Any, adapter: str, ruleset: str, draft: Path) -> None:
    """The fuzz run's summary after its first line: counts, situations, the finding."""
    print(f"{report.examples} examples asked, {report.calls} requests sent")
    print_situations(report.situations)
    if report.flaky:
        print(f"\nFLAKY: {report.flaky}")
    if report.found is None and not report.flaky:
        print("\nno disagreement with the reference")
    elif report.found is not None:
        found = report.found
        print(f"\nDISAGREEMENT ({report.outcome}), shrunk to a minimal counterexample:")
        print(f"  {found.message}")
        print(f"\nready-to-add vector for vectors/{ruleset}/:\n")
        print(found.toml(adapter))
        print(f"add it with: pokercert vectors add {_quote(str(draft))} --topic fuzz-found")


def print_situations(counts: dict[str, int]) -> None:
    """The coverage table: requests sent per situation (see harness/CI.md)."""
    from tabulate import tabulate

    total = sum(counts.values()) or 1
    rows = [(name, n, f"{100 * n / total:.0f}%") for name, n in counts.items()]
    missing = [name for name, n in counts.items() if not n]
    print("\nsituations exercised (requests sent, shrinking included):")
    print(tabulate(rows, headers=["situation", "requests", "share"], colalign=("left",)))
    if missing:
        print(f"NOT exercised in this run (more --examples, or another seed): {', '.join(missing)}")


def _quote(arg: str) -> str:
    import shlex

    return shlex.quote(arg)


# ----------------------------------------------------------------------------- exhaustive
# what a phase of a pass is called on the bar and in the plain lines
_PHASES = {
    "order": "class order (pair table and members, merge levels, neighbours)",
    "class keys": "class keys (the adapter's key of each class's members)",
}


def _phases_on(progress: Progress) -> Callable[[str, int, int], None]:
    """A pass's phases drawn on ``progress``, by their names for people."""

    def phase(name: str, done: int, total: int) -> None:
        progress.phase(_PHASES.get(name, name), done, total)

    return phase


def cmd_exhaustive(args: argparse.Namespace) -> int:
    from pokercert.harness.explore.exhaustive import ExhaustiveAborted
    from pokercert.harness.explore.exhaustive_state import ResumeError

    clock = time.monotonic()  # the summary's time is all the user waited
    ruleset, profile = _ruleset_and_profile(args)
    out, shard = _exhaustive_folder(args, ruleset.id)
    progress = Progress(unit="hands/s", plain_every=PLAIN_EVERY, label="pokercert exhaustive: ")
    gave_up = ""
    try:
        state = _exhaustive_pass(args, ruleset, profile, out, shard, progress, clock)
        if isinstance(state, int):
            return state
    except ResumeError as exc:
        raise UsageError(str(exc)) from None
    except AdapterAborted as exc:
        progress.close()
        print(
            f"pokercert exhaustive: the harness gave up on the adapter: {exc}; continue "
            f"with --resume --out {out}",
            file=sys.stderr,
        )
        if not isinstance(exc, ExhaustiveAborted):
            return ExitCode.ERROR
        # what was checked before is reported, its findings written up: they are final
        state, gave_up = exc.state, str(exc)
    except KeyboardInterrupt:
        progress.close()
        print(
            f"pokercert exhaustive: interrupted; continue with --resume --out {out}",
            file=sys.stderr,
        )
        return ExitCode.ERROR
    finally:
        progress.close()
    return _exhaustive_outcome(args, state, gave_up, out, ruleset.id)


def _exhaustive_folder(args: argparse.Namespace, ruleset: str) -> tuple[Path, tuple[int, int]]:
    """The run folder and shard of ``exhaustive``; with ``--resume``, a folder that holds
    a run to resume."""
    from pokercert.harness.explore.exhaustive_state import STATE_FILE, load_state
    from pokercert.harness.run.selection import SelectionError, parse_shard

    try:
        shard = parse_shard(args.shard) if args.shard else (1, 1)
    except SelectionError as exc:
        raise UsageError(str(exc)) from None
    suffix = (
        f"-{shard[0]}-of-{shard[1]}"
        if args.shard
        else f"-{args.hands[0]}-{args.hands[1]}"
        if args.hands
        else ""
    )
    out: Path = out_folder(args.out or Path("pokercert-exhaustive") / f"{ruleset}{suffix}")
    if args.resume:
        try:
            saved = load_state(out)
        except (OSError, ValueError, TypeError, KeyError) as exc:
            raise UsageError(
                f"{out / STATE_FILE}: not a readable exhaustive state ({exc})"
            ) from None
        if saved is None:
            raise UsageError(
                f"--resume: {out} holds no exhaustive run to resume (no "
                f"{STATE_FILE}); leave out --resume to start one"
            )
    return out, shard


def _exhaustive_pass(
    args: argparse.Namespace,
    ruleset: Ruleset,
    profile: Profile,
    out: Path,
    shard: tuple[int, int],
    progress: Progress,
    clock: float,
) -> Any:
    """The pass's state (in one process or on Dask), or the exit code of a usage error."""
    from pokercert.harness.explore.exhaustive import run_exhaustive

    with started(args, out) as (adapter, identity):
        if not (identity.claims(ruleset.id, "classify") or identity.claims(ruleset.id, "compare")):
            print(
                f"pokercert exhaustive: the adapter claims neither classify nor "
                f"compare for {ruleset.id}",
                file=sys.stderr,
            )
            return ExitCode.USAGE
        adapter.configure(ruleset.id, profile.readings_for(ruleset))
        common: dict[str, Any] = {
            "adapter_spec": args.adapter,
            "shard": shard,
            "resume": args.resume,
            "batch": args.batch_size,
            "jokers": not args.naturals_only,
            "report_limit": args.report,
            "order_seed": args.order_seed,
            "sorted_cards": args.sorted,
            "hands": args.hands,
            "started": clock,
            "progress": lambda done, total: progress.phase("hands", done, total, "hands/s"),
            "phase": _phases_on(progress),
        }
        if not (args.dask or args.workers > 1):
            return run_exhaustive(adapter, identity, ruleset, profile, out, **common)
        from pokercert.harness.explore.distributed import (
            DEFAULT_TASK_HANDS,
            run_exhaustive_on_dask,
        )

        return run_exhaustive_on_dask(
            adapter,
            identity,
            ruleset,
            profile,
            out,
            options=_options(args, out),
            scheduler=args.dask,
            workers=args.workers,
            hands_per_task=args.task_size or DEFAULT_TASK_HANDS,
            **common,
        )


def _exhaustive_outcome(
    args: argparse.Namespace, state: Any, gave_up: str, out: Path, ruleset: str
) -> int:
    """Print the pass's summary (or its JSON); its exit code."""
    code = (
        ExitCode.NONCOMPLIANT if state.disagreeing else ExitCode.ERROR if gave_up else ExitCode.OK
    )
    rerun = _exhaustive_rerun(args, state, out)
    draft = _write_drafts(state, ruleset, args.adapter, out)
    if args.json:
        print_json(
            {
                **state.as_dict(),
                "exit_code": code,
                "folder": str(out),
                "rerun": rerun,
                **({"draft": str(draft)} if draft else {}),
            }
        )
        return code
    _print_exhaustive(state, args.adapter, out)
    if draft:
        print(f"add them with: pokercert vectors add {_quote(str(draft))} --topic exhaustive-found")
    print(f"rerun: {' '.join(_quote(a) for a in rerun)}")
    return code


def _exhaustive_rerun(args: argparse.Namespace, state: Any, out: Path) -> list[str]:
    """The command that replays this run: same adapter, ruleset, profile, shard, card
    order (the seed, or --sorted)."""
    rerun = [
        "pokercert",
        "exhaustive",
        "--adapter",
        args.adapter,
        "--ruleset",
        state.ruleset,
        "--profile",
        args.profile,
    ]
    if args.shard:
        rerun += ["--shard", args.shard]
    if args.hands:
        rerun += ["--range", f"{args.hands[0]}..{args.hands[1]}"]
    if args.naturals_only:
        rerun.append("--naturals-only")
    if args.dask:
        rerun += ["--dask", args.dask]
    elif args.workers > 1:
        rerun += ["--workers", str(args.workers)]
    rerun += ["--sorted"] if state.order_seed is None else ["--order-seed", str(state.order_seed)]
    return [*rerun, "--out", str(out)]


def _write_drafts(state: Any, ruleset: str, adapter: str, out: Path) -> Path | None:
    """The disagreements written up as one draft for ``pokercert vectors add`` (the tool
    assigns ids), beside the state; None (and no file) when there are none."""
    from pokercert.harness.explore.counterexample import Draft, drafts_text, finding_comment

    path = out / f"counterexamples-{ruleset}.toml"
    drafts = [
        Draft(d.vector, finding_comment(adapter, d.message))
        for d in state.disagreements
        if d.vector
    ]
    if not drafts:
        path.unlink(missing_ok=True)
        return None
    path.write_text(drafts_text(ruleset, drafts), encoding="utf-8")
    return path


def _hand_size(ruleset: str, total: int, jokers: int) -> int:
    """The size of the hands of an exhaustive space of ``total`` hands (C(52, n) + the
    joker hands)."""
    from pokercert.reference.classes import Space

    return next(n for n in range(1, 8) if Space(n, jokers).total == total)


def _print_exhaustive(state: Any, spec: str, out: Path) -> None:
    rate = state.checked / state.elapsed_s if state.elapsed_s else 0.0
    print(
        f"exhaustive {state.ruleset}: {_named(state.evaluator, spec)}; profile "
        f"{state.profile['name']}; classes checked by {state.mode}"
    )
    jokers = f", hands with up to {state.jokers} joker(s) included" if state.jokers else ""
    print(
        f"hands {state.start:,}..{state.stop:,} of {state.total:,} (shard {state.shard}"
        f"{jokers}): {state.checked:,} checked in {state.elapsed_s:.1f} s, set-up included "
        f"({rate:,.0f} hands/s overall; the progress line's rate is the hands' alone)"
    )
    print(f"reference equivalence classes: {state.classes:,}")
    size = _hand_size(state.ruleset, state.total, state.jokers)
    if size != get_ruleset(state.ruleset).hand_size:
        print(
            f"hands: every {size}-card deal, each valued by its best "
            f"{get_ruleset(state.ruleset).hand_size} cards"
        )
    print(
        "card order: sorted high to low, as enumerated (--sorted)"
        if state.order_seed is None
        else f"card order: shuffled per hand, seed {state.order_seed} (--order-seed "
        f"{state.order_seed} replays it)"
    )
    _print_exhaustive_counts(state)
    for d in state.disagreements:
        print(f"\n{d.check}: {d.message}")
        if d.toml:
            print(d.toml)
    verdict = (
        "DISAGREES with the reference"
        if state.disagreeing
        else "AGREES with the reference on every hand checked"
    )
    if state.aborted:
        verdict += (
            f"; ABORTED after {state.checked:,} of {state.stop - state.start:,} hands "
            f"(the next to check: {state.next:,}): {state.aborted}; continue with "
            f"--resume --out {out}"
        )
    print(f"\n{verdict}; state in {out}/")


def _print_exhaustive_counts(state: Any) -> None:
    """The disagreements by check, and what the pass could not check or decide."""
    rows = [
        ("categories", state.category_disagreements),
        ("hands valued apart from their class", state.class_disagreements),
        ("neighbouring classes out of order or merged", state.order_disagreements),
        ("hands with errors (raised, malformed, timed out, no answer)", state.errors),
        ("class keys or class pairs with errors", state.order_errors),
    ]
    for label, n in rows:
        print(f"  {label}: {n:,} disagreement(s)")
    if state.mode == "compare-only":
        print(
            "  categories NOT checked: the adapter claims compare, not classify; the "
            "order and every hand's class are checked by its compare alone"
        )
    if state.mode == "categories-only":
        print(
            "  equivalence classes NOT checked: the adapter has no key() and does not claim compare"
        )
    if state.unverifiable_hands or state.unverifiable_orders:
        print(
            f"  not decidable in one deal: {state.unverifiable_hands:,} hand(s) whose class "
            f"has no member disjoint from them, {state.unverifiable_orders:,} neighbouring "
            "class pair(s) with no disjoint pair"
        )
        if state.mode in ("compare", "compare-only"):
            print(
                "  (a compare deals its hands from one deck, so a hand meets only the "
                "members of its class that share no card with it; these hands and pairs "
                "went unchecked by compare. An adapter that claims evaluate_many, the "
                "skeleton's key(), has every hand checked by its key)"
            )
