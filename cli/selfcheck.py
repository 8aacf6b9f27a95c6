"""``pokercert selfcheck``: prove the corpus fails every deliberately broken evaluator.

Runs the corpus through the real runner against the reference (which must be certified)
and against every mutant of :mod:`pokercert.harness.mutants` (none may be certified on a
ruleset it affects), then prints the kill matrix and the per-flag report.  Its
``fresh`` column says on how many of its rulesets the challenge's fresh deals alone (of
``--fresh-seed``) kill each mutant: what stands between a certificate and an evaluator
that memorised the public corpus up to symmetry (issue 26); it does not change the exit
code.

Exit code: 0 green; 1 a mutant survived on some ruleset, or the reference is not
certified; 2 a mutant is broken (refused only through errors) or a run did not finish;
3 usage error.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any, TextIO

from tabulate import tabulate

from pokercert.cli.options import (
    Subparsers,
    UsageError,
    nonnegative_int,
    out_folder,
    positive_float,
    positive_int,
    print_json,
    profile_arg,
)
from pokercert.cli.progress import Progress
from pokercert.harness.mutants import MUTANTS, Mutant, get_mutant
from pokercert.reference import all_rulesets
from pokercert.reference.errors import ExitCode
from pokercert.reports.selfcheck import (
    EXCUSED,
    FRESH_SEED,
    KILLED,
    SURVIVED,
    SelfcheckReport,
    selfcheck,
    spec_for,
)

IDS_SHOWN = 3


def register(sub: Subparsers) -> None:
    """Add ``selfcheck``."""
    p = sub.add_parser(
        "selfcheck",
        description="Certify the reference, then run the corpus against every mutant (a "
        "reference with one realistic mistake put in) through the real runner and print "
        "which vectors kill which mutant on which ruleset. Exit code: 0 every mutant "
        "killed on every ruleset it affects and the reference certified; 1 a mutant "
        "survived or the reference failed; 2 a mutant is broken or a run did not finish; "
        "3 usage error.",
    )
    _run_args(p)
    _fuzz_args(p)
    _fresh_args(p)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_selfcheck)


def _run_args(p: argparse.ArgumentParser) -> None:
    """Which mutants, the profile, where the run folders go, what is listed, the timeout."""
    p.add_argument(
        "--mutant",
        action="append",
        metavar="ID",
        dest="mutants",
        help="only this mutant (repeatable; default: all of them)",
    )
    p.add_argument("--list", action="store_true", help="list the mutants and exit")
    profile_arg(p)
    p.add_argument(
        "--out",
        type=Path,
        metavar="DIR",
        help="keep the run folders here (default: a temporary folder, removed)",
    )
    p.add_argument(
        "--ids", action="store_true", help="list the killing vector ids of every mutant and ruleset"
    )
    p.add_argument(
        "--timeout",
        type=positive_float,
        default=10.0,
        metavar="S",
        help="per-request timeout in seconds (default: %(default)s)",
    )


def _fuzz_args(p: argparse.ArgumentParser) -> None:
    """``--fuzz``, its seed, and fuzzing alone."""
    p.add_argument(
        "--fuzz",
        type=positive_int,
        metavar="N",
        help="also fuzz every mutant with N examples, without the corpus, and "
        "show which it kills (the 'fuzz' column and a fuzz kill matrix)",
    )
    p.add_argument(
        "--fuzz-seed",
        type=int,
        default=1,
        metavar="S",
        help="seed of the --fuzz runs (default: %(default)s)",
    )
    p.add_argument(
        "--fuzz-only",
        action="store_true",
        help="with --fuzz: skip the corpus runs, show the fuzz kill matrix only",
    )


def _fresh_args(p: argparse.ArgumentParser) -> None:
    """The 'fresh' column: its challenge seed, or none."""
    fresh = p.add_mutually_exclusive_group()
    fresh.add_argument(
        "--fresh-seed",
        type=nonnegative_int,
        default=FRESH_SEED,
        metavar="S",
        help="challenge seed of the 'fresh' column: the fresh deals a run "
        "with this seed adds, alone, against every mutant (default: "
        "%(default)s)",
    )
    fresh.add_argument("--no-fresh", action="store_true", help="leave the 'fresh' column out")


def short(ruleset: str) -> str:
    """A column header: the ruleset id without the words every id repeats."""
    return ruleset.removeprefix("nj-").replace("poker-", "")


def cmd_selfcheck(args: argparse.Namespace) -> int:
    try:
        chosen = [get_mutant(m) for m in args.mutants] if args.mutants else list(MUTANTS)
    except KeyError as exc:
        raise UsageError(exc.args[0]) from None
    if args.list:
        return _list(chosen, args.json)
    if args.fuzz_only and not args.fuzz:
        raise UsageError("--fuzz-only needs --fuzz N")
    if args.fuzz is not None:
        return _with_fuzz(args, chosen)
    if args.out is not None:
        out_folder(args.out)
        return _report(_check(args, chosen, args.out), args)
    with tempfile.TemporaryDirectory(prefix="pokercert-selfcheck-") as tmp:
        return _report(_check(args, chosen, Path(tmp)), args)


def _check(args: argparse.Namespace, chosen: list[Mutant], out: Path) -> SelfcheckReport:
    bar = Progress()

    def progress(name: str, done: int, total: int) -> None:
        bar(done, total)

    try:
        return selfcheck(
            out,
            chosen,
            profile=args.profile,
            timeout=args.timeout,
            progress=progress,
            fresh_seed=None if args.no_fresh else args.fresh_seed,
        )
    finally:
        bar.close()


def _list(chosen: list[Mutant], as_json: bool) -> int:
    rows = [
        {
            "id": m.id,
            "flag": m.flag,
            "rulesets": list(m.rulesets),
            "summary": m.summary,
            "adapter": spec_for(m.id),
        }
        for m in chosen
    ]
    if as_json:
        print_json({"mutants": rows})
    else:
        print(
            tabulate(
                [(r["id"], r["flag"], len(r["rulesets"]), r["summary"]) for r in rows],
                headers=["mutant", "flag", "rulesets", "mistake"],
            )
        )
        print(f"\n{len(rows)} mutants")
    return ExitCode.OK


def exit_code(report: SelfcheckReport) -> int:
    if report.survivors or not report.reference_certified:
        return ExitCode.NONCOMPLIANT
    if report.broken:
        return ExitCode.ERROR
    return ExitCode.OK


def _report(report: SelfcheckReport, args: argparse.Namespace) -> int:
    code = exit_code(report)
    if args.json:
        data = report.as_dict()
        if args.out is None:
            data.pop("out")
            for m in data["mutants"].values():
                m.pop("run")
        data["exit_code"] = code
        print_json(data)
        return code
    _print_human(report, args.ids)
    return code


def _cell_text(cell: Any) -> str:
    if cell.status == KILLED:
        return str(len(cell.killed_by))
    return {SURVIVED: "SURVIVED", EXCUSED: "reading"}.get(cell.status, "BROKEN")


def _print_human(report: SelfcheckReport, show_ids: bool, fuzz: Any = None) -> None:
    out = sys.stdout
    order = [r.id for r in all_rulesets()]
    _print_reference(report, order, out)
    _print_kill_matrix(report, order, fuzz, out)
    if show_ids:
        _print_killed_by(report, out)
    _print_flags(report, out)
    _print_not_killed(report, out)
    _print_totals(report, out)


def _print_reference(report: SelfcheckReport, order: list[str], out: TextIO) -> None:
    """The reference's verdict on every ruleset, with why."""
    print("Reference (must be CERTIFIED on every ruleset):", file=out)
    print(
        tabulate(
            [
                (r, *report.reference[r][:1], "; ".join(report.reference[r][1]))
                for r in order
                if r in report.reference
            ],
            headers=["ruleset", "verdict", "why"],
        ),
        file=out,
    )


def _print_kill_matrix(report: SelfcheckReport, order: list[str], fuzz: Any, out: TextIO) -> None:
    """Mutant x ruleset: how many vectors kill each mutant where it matters; the fresh
    deals' and the fuzzing's own kills beside, when they ran."""
    used = [r for r in order if any(r in m.cells for m in report.mutants)]
    fresh = report.fresh
    print(
        "\nKill matrix (cell: how many vectors kill the mutant there; blank: not "
        "affected; 'reading': the profile's reading makes it no mistake"
        + (
            ""
            if fresh is None
            else f"; fresh: rulesets where the fresh deals of challenge "
            f"seed {fresh.seed} alone kill it, of those that count"
        )
        + "):",
        file=out,
    )
    print(
        tabulate(
            _kill_rows(report, used, fuzz),
            headers=[
                "mutant",
                "flag",
                *[short(r) for r in used],
                *(["fresh"] if fresh is not None else []),
                *(["fuzz"] if fuzz is not None else []),
            ],
        ),
        file=out,
    )


def _kill_rows(report: SelfcheckReport, used: list[str], fuzz: Any) -> list[list[str]]:
    """One kill-matrix row per mutant: its cells on the ``used`` rulesets, then the
    fresh deals' and the fuzzing's kills (rulesets killed / that count)."""
    rows = []
    for m in report.mutants:
        rows.append(
            [
                m.mutant.id,
                m.mutant.flag,
                *[_cell_text(m.cells[r]) if r in m.cells else "" for r in used],
            ]
        )
        if report.fresh is not None:  # fresh deals alone: rulesets killed / that count
            counted = [c for c in m.cells.values() if c.fresh is not None]
            rows[-1].append(f"{sum(bool(c.fresh) for c in counted)}/{len(counted)}")
        if fuzz is not None:  # fuzz alone: rulesets killed / rulesets that count
            rows[-1].append("{}/{}".format(*fuzz.killed_of(m.mutant.id)))
    return rows


def _print_killed_by(report: SelfcheckReport, out: TextIO) -> None:
    """``--ids``: the vectors that kill each mutant on each ruleset."""
    print("\nKilled by (vector ids):", file=out)
    print(
        tabulate(
            [
                (m.mutant.id, c.ruleset, c.status, " ".join(c.killed_by))
                for m in report.mutants
                for c in m.cells.values()
            ],
            headers=["mutant", "ruleset", "status", "vectors"],
        ),
        file=out,
    )


def _print_flags(report: SelfcheckReport, out: TextIO) -> None:
    """Per flag: its vectors, the mutants they kill, and its own bug class's kills."""
    print(
        "\nPer flag (vectors carrying it; mutants any of them kills; mutants of this bug "
        "class, and how many of those its own vectors kill):",
        file=out,
    )
    print(
        tabulate(
            [
                (
                    f.flag,
                    f.vectors,
                    f.mutants_killed,
                    f.own_mutants,
                    f"{f.own_killed}/{f.own_mutants}" if f.own_mutants else "-",
                )
                for f in report.flags
            ],
            headers=["flag", "vectors", "kills", "own mutants", "own killed by flag"],
        ),
        file=out,
    )


def _print_not_killed(report: SelfcheckReport, out: TextIO) -> None:
    """The cells not killed (survived or broken), and those the fresh deals alone miss."""
    problems = [
        (
            m.mutant.id,
            c.ruleset,
            c.status,
            "; ".join(c.reasons) or "-",
            " ".join(c.faulty[:IDS_SHOWN]),
        )
        for m in report.mutants
        for c in m.cells.values()
        if c.status not in (KILLED, EXCUSED)
    ]
    if problems:
        print("\nNot killed (a survivor needs new vectors, never a weaker mutant):", file=out)
        print(
            tabulate(
                problems,
                headers=["mutant", "ruleset", "status", "verdict reasons", "faulty vectors"],
            ),
            file=out,
        )
    fresh = report.fresh
    if fresh is not None and report.not_killed_by_fresh:
        print(
            f"\nNot killed by the fresh deals alone (seed {fresh.seed}): an evaluator that "
            "memorised the public corpus up to symmetry would be certified there with "
            "this mistake:",
            file=out,
        )
        print(
            tabulate(
                [(m.mutant.id, c.ruleset) for m, c in report.not_killed_by_fresh],
                headers=["mutant", "ruleset"],
            ),
            file=out,
        )


def _print_totals(report: SelfcheckReport, out: TextIO) -> None:
    """The last line: mutants and cells killed, survivors, broken, the reference, GREEN/RED."""
    killed = sum(m.status == KILLED for m in report.mutants)
    cells = [c for m in report.mutants for c in m.cells.values()]
    print(
        f"\n{killed}/{len(report.mutants)} mutants killed on every ruleset they affect "
        f"({sum(c.status == KILLED for c in cells)}/{len(cells)} mutant x ruleset cells; "
        f"{len(report.survivors)} survived, {len(report.broken)} broken); reference "
        f"{'CERTIFIED' if report.reference_certified else 'NOT CERTIFIED'}: "
        f"{'GREEN' if report.green else 'RED'}",
        file=out,
    )


# ----------------------------------------------------------------------------- --fuzz
def _fuzz_matrix(args: argparse.Namespace, chosen: list[Mutant]) -> Any:
    from pokercert.reports.fuzz_kills import fuzz_kills

    bar = Progress()
    try:
        return fuzz_kills(
            chosen,
            examples=args.fuzz,
            seed=args.fuzz_seed,
            profile=args.profile,
            progress=lambda _, i, n: bar(i, n),
        )
    finally:
        bar.close()


def _with_fuzz(args: argparse.Namespace, chosen: list[Mutant]) -> int:
    """The corpus self-check (unless --fuzz-only) and the fuzz kill matrix; red if fuzz
    alone lets a mutant through on a ruleset it affects."""
    kills = _fuzz_matrix(args, chosen)
    fuzz_code: int = (
        ExitCode.NONCOMPLIANT
        if kills.survivors
        else (ExitCode.ERROR if kills.broken else ExitCode.OK)
    )
    report: SelfcheckReport | None = None
    code: int = fuzz_code
    if not args.fuzz_only:
        if args.out is not None:
            out_folder(args.out)
            report = _check(args, chosen, args.out)
        else:
            with tempfile.TemporaryDirectory(prefix="pokercert-selfcheck-") as tmp:
                report = _check(args, chosen, Path(tmp))
        corpus_code = exit_code(report)
        code = (
            max(corpus_code, fuzz_code)
            if ExitCode.OK in (corpus_code, fuzz_code)
            else min(corpus_code, fuzz_code)
        )
    if args.json:
        data: dict[str, Any] = report.as_dict() if report is not None else {}
        if report is not None and args.out is None:
            data.pop("out")
            for m in data["mutants"].values():
                m.pop("run")
        data["fuzz"] = kills.as_dict()
        data["exit_code"] = code
        print_json(data)
        return code
    if report is not None:
        _print_human(report, args.ids, fuzz=kills)
    _print_fuzz(kills, [m.id for m in chosen])
    return code


def _fuzz_text(cell: Any) -> str:
    if cell.status == KILLED:
        return cell.situation or "killed"
    return {SURVIVED: "SURVIVED", EXCUSED: "reading"}.get(cell.status, "BROKEN")


def _print_fuzz(kills: Any, order: list[str]) -> None:
    rulesets = [r.id for r in all_rulesets()]
    used = [r for r in rulesets if any(r in row for row in kills.cells.values())]
    print(
        f"\nFuzz kill matrix: fuzz alone, no corpus; {kills.examples} examples, seed "
        f"{kills.seed}, profile {kills.profile} (cell: the situation of the first "
        "disagreement; blank: not affected):"
    )
    rows = [
        [m, *[_fuzz_text(kills.cells[m][r]) if r in kills.cells[m] else "" for r in used]]
        for m in order
        if m in kills.cells
    ]
    print(tabulate(rows, headers=["mutant", *[short(r) for r in used]]))
    cells = [c for row in kills.cells.values() for c in row.values() if c.status != EXCUSED]
    killed = sum(c.status == KILLED for c in cells)
    print(
        f"\nfuzz alone killed {killed}/{len(cells)} mutant x ruleset cells "
        f"({len(kills.survivors)} survived, {len(kills.broken)} broken): "
        f"{'GREEN' if not kills.survivors and not kills.broken else 'RED'}"
    )
