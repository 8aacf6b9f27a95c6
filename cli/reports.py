"""Commands ``report``, ``verify``, ``diff`` and ``keygen`` of the ``pokercert`` CLI."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tabulate import tabulate

from pokercert.cli.options import (
    Subparsers,
    UsageError,
    choice,
    lab_args,
    lab_fields,
    out_file,
    out_folder,
    print_json,
    write_file,
)
from pokercert.reference.errors import ExitCode
from pokercert.reports import text as T
from pokercert.reports.output import (
    DEFAULT_FORMATS,
    FORMATS,
    load,
    load_with_bytes,
    render,
    write_reports,
)
from pokercert.reports.signing import SIG_SUFFIX, keygen, sign


def register(sub: Subparsers) -> None:
    """Add ``report``, ``verify``, ``diff`` and ``keygen``."""
    _register_report(sub)
    _register_verify(sub)
    _register_diff(sub)
    _register_keygen(sub)


def _register_report(sub: Subparsers) -> None:
    """``report``: a results folder's report (or a report re-rendered), one format or all."""
    p = sub.add_parser(
        "report",
        description="Build the report of a results folder (or re-render a "
        "genuine JSON report) as JSON, Markdown, HTML or JUnit XML. Exit code: "
        "0 CERTIFIED, 1 NOT CERTIFIED, 2 INCOMPLETE.",
    )
    p.add_argument(
        "source", metavar="RESULTS_DIR", type=Path, help="a run's results folder, or a report.json"
    )
    p.add_argument(
        "--format",
        default="all",
        type=choice([*FORMATS, "all"]),
        metavar="{" + ",".join([*FORMATS, "all"]) + "}",
        help="one format, or all of them (default)",
    )
    p.add_argument(
        "--out",
        type=Path,
        help="file for one format (default: stdout); folder for all (default: the results folder)",
    )
    p.add_argument(
        "--sign",
        type=Path,
        metavar="KEY",
        help="Ed25519 private key (PEM): also write report.json.sig",
    )
    lab_args(p)
    p.set_defaults(func=cmd_report)


def _register_verify(sub: Subparsers) -> None:
    """``verify``: a report's digest, conclusions, corpus, signature (and outcomes) checked."""
    p = sub.add_parser(
        "verify",
        description="Recompute a report's digest and every conclusion from its "
        "per-vector facts, check its corpus against this pokercert's release "
        "registry, its signature with --key, for a run folder that the report "
        "was built from exactly its results, and with --rerun re-run the "
        "evaluator and compare every outcome. Prints GENUINE: <verdict> or NOT "
        "GENUINE: <why>. Exit code: 0 GENUINE: CERTIFIED, 1 GENUINE: NOT "
        "CERTIFIED or NOT GENUINE, 2 GENUINE: INCOMPLETE.",
    )
    p.add_argument(
        "report",
        metavar="REPORT",
        type=Path,
        help="report.json, a .md/.html/.xml view beside its report.json, or a "
        "run folder (also checks its report was built from exactly its results)",
    )
    p.add_argument("--key", type=Path, metavar="PUB", help="Ed25519 public key (PEM)")
    p.add_argument("--sig", type=Path, help="signature file (default: REPORT_JSON.sig)")
    p.add_argument(
        "--report-json",
        type=Path,
        help="the JSON report a view was rendered from (default: report.json beside the view)",
    )
    p.add_argument("--rerun", metavar="SPEC", help="adapter spec to re-run the evaluator with")
    p.add_argument(
        "--allow-identity-change",
        action="store_true",
        help="with --rerun: compare outcomes even when the evaluator's declared or "
        "measured identity differs from the report's (the differences are printed)",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_verify)


def _register_diff(sub: Subparsers) -> None:
    """``diff``: two results folders or reports compared vector by vector."""
    p = sub.add_parser(
        "diff",
        description="Compare two results folders or JSON reports vector by "
        "vector. Exit 1 if any vector newly fails, else 0.",
    )
    p.add_argument("old", metavar="OLD", type=Path, help="results folder or report.json")
    p.add_argument("new", metavar="NEW", type=Path, help="results folder or report.json")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_diff)


def _register_keygen(sub: Subparsers) -> None:
    """``keygen``: an Ed25519 key pair for signing reports."""
    p = sub.add_parser("keygen")
    p.add_argument(
        "--out",
        type=Path,
        default=Path("pokercert-signing-key.pem"),
        help="private key file (default: %(default)s); the public key is OUT.pub",
    )
    p.add_argument("--force", action="store_true", help="overwrite existing key files")
    p.set_defaults(func=cmd_keygen)


def _require(path: Path) -> Path:
    if not path.exists():
        raise UsageError(f"{path}: no such file or folder")
    return path


def _record_lab(folder: Path, lab: dict[str, str]) -> None:
    """The lab fields ``report`` adds, recorded in the run folder's run.json too, when
    the reports go back into that folder: its reports and run.json then say the same
    (and ``verify RUN_FOLDER``, which rebuilds the report from the folder, agrees)."""
    from pokercert.harness.run.results import read_header, write_header

    header = read_header(folder)
    header.lab = {**header.lab, **lab}
    write_header(folder, header)


def cmd_report(args: argparse.Namespace) -> int:
    from pokercert.reports.model import with_lab

    lab = lab_fields(args)
    if args.out is not None:
        (out_folder if args.format == "all" else out_file)(args.out)
    report, loaded = load_with_bytes(_require(args.source))
    data: bytes | None = loaded
    # what was written and the verdict go to stdout, unless stdout carries the report
    said = sys.stdout if args.format == "all" or args.out is not None else sys.stderr
    if lab:  # the lab's fields change the report: sealed again, its bytes made anew
        report, data = with_lab(report, lab), None
    if args.format == "all":
        folder = args.out or (args.source if args.source.is_dir() else args.source.parent)
        try:
            if lab and args.source.is_dir() and Path(folder).resolve() == args.source.resolve():
                _record_lab(args.source, lab)
            paths = write_reports(report, folder, DEFAULT_FORMATS, args.sign, data)
        except OSError as exc:
            raise UsageError(
                f"{folder}: cannot write the reports ({exc.strerror or exc})"
            ) from None
        for p in paths:
            print(p, file=said)
    else:
        data = render(report, args.format)
        if args.out is None:
            if args.sign:
                raise UsageError("--sign needs --out (the signature is a file beside it)")
            sys.stdout.buffer.write(data)
            sys.stdout.flush()
        else:
            if args.sign and args.format != "json":
                raise UsageError("--sign signs the canonical JSON: use --format json or all")
            write_file(args.out, data)
            if args.sign:
                write_file(args.out.with_name(args.out.name + SIG_SUFFIX), sign(data, args.sign))
    print(
        T.printable(
            f"{report['verdict']}: {T.evaluator_line(report['identification'])} "
            f"({T.counts_line(report['counts'])})"
        ),
        file=said,
    )
    for warning in T.covers_warnings(report):
        print(T.one_line(f"warning: {warning}"), file=sys.stderr)
    print(T.printable(T.challenge_line(report)), file=said)
    for mode, block in T.attached_modes(report):
        print(T.one_line(T.mode_line(report, mode, block)), file=said)
    return int(report["exit_code"])


def _check_verify_args(args: argparse.Namespace) -> None:
    """What ``verify`` is given must name something: a --sig without --key would be
    ignored (and the report called GENUINE with its signature unchecked), a key, a
    signature or a JSON report that is not there, a --rerun spec that names nothing."""
    from pokercert.harness.adapters import AdapterOptions, SpecError, load_adapter

    if args.sig is not None and args.key is None:
        raise UsageError("--sig needs --key: a signature is checked against a public key")
    for option, path in (
        ("--key", args.key),
        ("--sig", args.sig),
        ("--report-json", args.report_json),
    ):
        if path is not None and not Path(path).is_file():
            raise UsageError(f"{option} {path}: no such file")
    if args.rerun:
        try:
            load_adapter(args.rerun, AdapterOptions()).close()
        except SpecError as exc:
            raise UsageError(f"--rerun: {exc}") from None


def cmd_verify(args: argparse.Namespace) -> int:
    from pokercert.reports.verify import conclude, verify_report

    if args.allow_identity_change and not args.rerun:
        raise UsageError("--allow-identity-change needs --rerun SPEC")
    _check_verify_args(args)
    checks, report = verify_report(
        _require(args.report),
        args.key,
        args.sig,
        args.rerun,
        args.report_json,
        args.allow_identity_change,
    )
    found = conclude(checks, report)
    if args.json:
        print_json(
            {"report": str(args.report), **found.as_dict(), "checks": [c.as_dict() for c in checks]}
        )
    else:
        print(
            tabulate(
                [[c.name, c.status, T.printable(c.detail)] for c in checks],
                headers=["Check", "Result", "Detail"],
                disable_numparse=True,
                maxcolwidths=[None, None, 80],
            )
        )
        print()
        print(T.one_line(f"{args.report}: {found.words}"))
    return found.exit_code


def cmd_diff(args: argparse.Namespace) -> int:
    from pokercert.reports.diff import CHANGE_KINDS, diff_reports

    result = diff_reports(load(_require(args.old)), load(_require(args.new)))
    if args.json:
        print_json(result)
    else:
        for d in result["identification_changes"]:
            print(f"note: {d['field']} differs: {T.value(d['old'])} -> {T.value(d['new'])}")
        rows = [
            [kind.replace("_", " "), c["id"], c["ruleset"], c["old"] or "-", c["new"] or "-"]
            for kind in CHANGE_KINDS
            for c in result["changes"][kind]
        ]
        if rows:
            print(
                tabulate(
                    rows,
                    headers=["Change", "Vector", "Ruleset", "Old", "New"],
                    disable_numparse=True,
                )
            )
        ch = result["challenge"]
        print(
            f"challenge: seed {ch['old']['seed']} {ch['old']['status']} -> seed "
            f"{ch['new']['seed']} {ch['new']['status']} ({ch['new']['failed']} failed), "
            f"compared {ch['compared']}"
        )
        print(
            f"{result['old']['verdict']} -> {result['new']['verdict']}: "
            + ", ".join(f"{n} {k.replace('_', ' ')}" for k, n in result["counts"].items())
        )
    newly = result["counts"]["newly_failing"] or result["challenge"]["newly_failing"]
    return ExitCode.NONCOMPLIANT if newly else ExitCode.OK


def cmd_keygen(args: argparse.Namespace) -> int:
    out_file(args.out)
    try:
        private, public = keygen(args.out, args.force)
    except OSError as exc:
        raise UsageError(
            f"--out {args.out}: cannot write the key ({exc.strerror or exc})"
        ) from None
    print(
        f"private key: {private} (keep it secret; sign with "
        f"`pokercert report RESULTS --sign {private}`)"
    )
    print(
        f"public key:  {public} (publish it; check with "
        f"`pokercert verify report.json --key {public}`)"
    )
    return ExitCode.OK
