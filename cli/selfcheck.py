"""``pokercert selfcheck``: prove the corpus fails every deliberately broken evaluator.

Runs the corpus through the real runner against the reference (which must be certified)
and against every mutant of :mod:`pokercert.harness.mutants` (none may be certified on a
ruleset it affects), then prints the kill matrix and the per-flag report.

Exit code: 0 green; 1 a mutant survived on some ruleset, or the reference is not
certified; 2 a mutant is broken (refused only through errors) or a run did not finish;
3 usage error.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

from tabulate import tabulate

from pokercert.cli.options import (
    Subparsers,
    UsageError,
    out_folder,
    positive_float,
    print_json,
    profile_arg,
)
from pokercert.cli.progress import Progress
from pokercert.harness.mutants import MUTANTS, Mutant, get_mutant
from pokercert.reference import all_rulesets
from pokercert.reference.errors import ExitCode
from pokercert.reports.selfcheck import (
    EXCUSED,
    KILLED,
    SURVIVED,
    SelfcheckReport,
    selfcheck,
    spec_for,
)

IDS_SHOWN = 3


def register(sub: Subparsers) -> None:
    p = sub.add_parser(
        "selfcheck", help="prove the corpus fails every deliberately broken evaluator",
        description="Certify the reference, then run the corpus against every mutant (a "
        "reference with one realistic mistake put in) through the real runner and print "
        "which vectors kill which mutant on which ruleset. Exit code: 0 every mutant "
        "killed on every ruleset it affects and the reference certified; 1 a mutant "
        "survived or the reference failed; 2 a mutant is broken or a run did not finish; "
        "3 usage error.")
    p.add_argument("--mutant", action="append", metavar="ID", dest="mutants",
                   help="only this mutant (repeatable; default: all of them)")
    p.add_argument("--list", action="store_true", help="list the mutants and exit")
    profile_arg(p)
    p.add_argument("--out", type=Path, metavar="DIR",
                   help="keep the run folders here (default: a temporary folder, removed)")
    p.add_argument("--ids", action="store_true",
                   help="list the killing vector ids of every mutant and ruleset")
    p.add_argument("--timeout", type=positive_float, default=10.0, metavar="S",
                   help="per-request timeout in seconds (default: %(default)s)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_selfcheck)


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
        return selfcheck(out, chosen, profile=args.profile, timeout=args.timeout,
                         progress=progress)
    finally:
        bar.close()


def _list(chosen: list[Mutant], as_json: bool) -> int:
    rows = [{"id": m.id, "flag": m.flag, "rulesets": list(m.rulesets), "summary": m.summary,
             "adapter": spec_for(m.id)} for m in chosen]
    if as_json:
        print_json({"mutants": rows})
    else:
        print(tabulate([(r["id"], r["flag"], len(r["rulesets"]), r["summary"]) for r in rows],
                       headers=["mutant", "flag", "rulesets", "mistake"]))
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


def _print_human(report: SelfcheckReport, show_ids: bool) -> None:
    out = sys.stdout
    order = [r.id for r in all_rulesets()]
    used = [r for r in order if any(r in m.cells for m in report.mutants)]
    print("Reference (must be CERTIFIED on every ruleset):", file=out)
    print(tabulate([(r, *report.reference[r][:1], "; ".join(report.reference[r][1]))
                    for r in order if r in report.reference],
                   headers=["ruleset", "verdict", "why"]), file=out)
    print("\nKill matrix (cell: how many vectors kill the mutant there; blank: not "
          "affected; 'reading': the profile's reading makes it no mistake):", file=out)
    rows = []
    for m in report.mutants:
        rows.append([m.mutant.id, m.mutant.flag,
                     *[_cell_text(m.cells[r]) if r in m.cells else "" for r in used]])
    print(tabulate(rows, headers=["mutant", "flag", *[short(r) for r in used]]), file=out)
    if show_ids:
        print("\nKilled by (vector ids):", file=out)
        print(tabulate([(m.mutant.id, c.ruleset, c.status, " ".join(c.killed_by))
                        for m in report.mutants for c in m.cells.values()],
                       headers=["mutant", "ruleset", "status", "vectors"]), file=out)
    print("\nPer flag (vectors carrying it; mutants any of them kills; mutants of this bug "
          "class, and how many of those its own vectors kill):", file=out)
    print(tabulate([(f.flag, f.vectors, f.mutants_killed, f.own_mutants,
                     f"{f.own_killed}/{f.own_mutants}" if f.own_mutants else "-")
                    for f in report.flags],
                   headers=["flag", "vectors", "kills", "own mutants", "own killed by flag"]),
          file=out)
    problems = [(m.mutant.id, c.ruleset, c.status, "; ".join(c.reasons) or "-",
                 " ".join(c.faulty[:IDS_SHOWN]))
                for m in report.mutants for c in m.cells.values()
                if c.status not in (KILLED, EXCUSED)]
    if problems:
        print("\nNot killed (a survivor needs new vectors, never a weaker mutant):", file=out)
        print(tabulate(problems, headers=["mutant", "ruleset", "status", "verdict reasons",
                                          "faulty vectors"]), file=out)
    killed = sum(m.status == KILLED for m in report.mutants)
    cells = [c for m in report.mutants for c in m.cells.values()]
    print(f"\n{killed}/{len(report.mutants)} mutants killed on every ruleset they affect "
          f"({sum(c.status == KILLED for c in cells)}/{len(cells)} mutant x ruleset cells; "
          f"{len(report.survivors)} survived, {len(report.broken)} broken); reference "
          f"{'CERTIFIED' if report.reference_certified else 'NOT CERTIFIED'}: "
          f"{'GREEN' if report.green else 'RED'}", file=out)

