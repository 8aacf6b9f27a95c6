"""``pokercert vectors ...``: check, measure and grow the corpus.

* ``check``     every structural and reference check, the manifest and released ids
* ``coverage``  clause x vector-count matrix, flag and interpretation rollups
* ``add``       append hand-written draft vectors with the next free ids
* ``manifest``  record the corpus in MANIFEST.json and CHANGELOG.md
* ``generate``  regenerate the systematic families (``--check``: byte-identical?)
* ``list`` / ``show``  browse vectors

Every command takes ``--root DIR`` (default: the corpus shipped in the package) and
``--json`` where it prints a result.  Exit codes: 0 ok, 1 corpus problems (or clauses
under the minimum for ``coverage``), 3 usage error.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tabulate import tabulate

from pokercert.cli.options import Subparsers, UsageError, print_json
from pokercert.reference.errors import ExitCode
from pokercert.vectors.model import KINDS


def register(sub: Subparsers) -> None:
    """Add ``vectors`` and its subcommands."""
    group = sub.add_parser("vectors")
    vsub = group.add_subparsers(
        dest="vectors_command", metavar="SUBCOMMAND", parser_class=type(group)
    )
    group.set_defaults(func=lambda args: _help(group))
    _register_check(vsub)
    _register_coverage(vsub)
    _register_add(vsub)
    _register_manifest(vsub)
    _register_generate(vsub)
    _register_list(vsub)
    _register_show(vsub)


def _register_check(vsub: Subparsers) -> None:
    """``vectors check``: the corpus validated."""
    p = vsub.add_parser(
        "check",
        help="validate the corpus against the schema, the rulesets, "
        "the reference engine and the manifest",
    )
    _root(p)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument(
        "--no-reference",
        action="store_true",
        help="skip the reference-engine agreement (structure and manifest only)",
    )
    p.set_defaults(func=cmd_check)


def _register_coverage(vsub: Subparsers) -> None:
    """``vectors coverage``: vectors per clause, flag and interpretation."""
    p = vsub.add_parser(
        "coverage", help="clause x vector-count matrix, flag and interpretation rollups"
    )
    _root(p)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--ruleset", action="append", metavar="ID", help="only these rulesets")
    p.add_argument(
        "--min",
        type=int,
        default=5,
        metavar="N",
        help="list clauses with fewer than N vectors; exit 1 if any (default 5)",
    )
    p.set_defaults(func=cmd_coverage)


def _register_add(vsub: Subparsers) -> None:
    """``vectors add``: draft vectors appended under the next free ids."""
    p = vsub.add_parser(
        "add", help="append draft vectors (no ids) to a topic file, assigning the next free ids"
    )
    _root(p)
    p.add_argument("draft", type=Path, help="TOML draft: ruleset = ..., [[vector]] without id")
    p.add_argument("--topic", required=True, help="file name under <ruleset>/, e.g. straights")
    p.add_argument("--dry-run", action="store_true", help="validate and show the ids only")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_add)


def _register_manifest(vsub: Subparsers) -> None:
    """``vectors manifest``: MANIFEST.json and CHANGELOG.md recorded."""
    p = vsub.add_parser("manifest", help="record the corpus in MANIFEST.json and CHANGELOG.md")
    _root(p)
    p.add_argument("--dry-run", action="store_true", help="show what would change")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_manifest)


def _register_generate(vsub: Subparsers) -> None:
    """``vectors generate``: the generated families written (or checked)."""
    p = vsub.add_parser("generate", help="write the generated families (vectors/generate.py)")
    _root(p)
    p.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 unless the committed files are byte-identical",
    )
    p.set_defaults(func=cmd_generate)


def _register_list(vsub: Subparsers) -> None:
    """``vectors list``: vectors listed, filtered."""
    p = vsub.add_parser("list", help="list vectors (filters combine)")
    _root(p)
    _filters(p)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_list)


def _register_show(vsub: Subparsers) -> None:
    """``vectors show``: one vector in full."""
    p = vsub.add_parser("show", help="one vector in full, with its clauses' summaries")
    _root(p)
    p.add_argument("id", metavar="ID")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_show)


def _help(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 3


def _root(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--root",
        type=Path,
        metavar="DIR",
        help="corpus folder (default: the corpus installed with pokercert)",
    )


def _filters(p: argparse.ArgumentParser) -> None:
    p.add_argument("--ruleset", action="append", metavar="ID")
    p.add_argument("--flag", action="append", metavar="FLAG")
    p.add_argument("--kind", action="append", choices=KINDS)
    p.add_argument("--clause", action="append", metavar="LABEL")


def _load(args: argparse.Namespace) -> Any:
    from pokercert.vectors.corpus import CorpusError, load_corpus

    try:
        return load_corpus(args.root)
    except CorpusError as exc:
        raise UsageError(
            f"the corpus does not load (run `pokercert vectors check`):\n{exc}"
        ) from None


def cmd_check(args: argparse.Namespace) -> int:
    from pokercert.vectors.check import check_corpus

    report = check_corpus(args.root, with_reference=not args.no_reference)
    if args.json:
        print_json(report.as_dict())
        return ExitCode.OK if report.ok else ExitCode.NONCOMPLIANT
    for p in report.problems:
        print(p)
    for gap in report.gaps:
        print(
            f"known reference gap {gap.id} ({gap.clause}, {gap.ruleset}"
            + (f", {gap.interpretation}={gap.reading}" if gap.interpretation else "")
            + f"): {gap.hits} check(s) not confirmed by the reference; {gap.summary}"
        )
    counts: dict[str, int] = {}
    for v in report.corpus.vectors:
        counts[v.ruleset] = counts.get(v.ruleset, 0) + 1
    status = "ok" if report.ok else f"{len(report.problems)} problem(s)"
    print(
        f"{len(report.corpus.vectors)} vectors in {len(counts)} rulesets, corpus "
        f"{report.corpus.version} (sha256 {report.corpus.sha256[:16]}...), "
        f"{report.variants_checked} reading combinations: {status}"
    )
    return ExitCode.OK if report.ok else ExitCode.NONCOMPLIANT


def cmd_coverage(args: argparse.Namespace) -> int:
    from pokercert.reference import get_ruleset
    from pokercert.vectors.coverage import coverage, render

    corpus = _load(args)
    for rid in args.ruleset or ():
        get_ruleset(rid)  # RulesetError -> usage error naming the known ids
    cov = coverage(corpus, args.min, args.ruleset)
    if args.json:
        print_json(cov.as_dict())
    else:
        print(render(cov))
    return ExitCode.OK if not cov.under_minimum else ExitCode.NONCOMPLIANT


def cmd_add(args: argparse.Namespace) -> int:
    from pokercert.vectors.author import add_vectors
    from pokercert.vectors.corpus import CorpusError

    try:
        added = add_vectors(args.draft, args.topic, args.root, dry_run=args.dry_run)
    except CorpusError as exc:
        if args.json:
            print_json({"ok": False, "problems": [p.as_dict() for p in exc.problems]})
        else:
            for p in exc.problems:
                print(p, file=sys.stderr)
            print(f"nothing added: {len(exc.problems)} problem(s)", file=sys.stderr)
        return ExitCode.NONCOMPLIANT
    if args.json:
        print_json(
            {
                "ok": True,
                "ids": added.ids,
                "file": added.file,
                "dry_run": args.dry_run,
                "reference_disagreements": [p.as_dict() for p in added.warnings],
            }
        )
        return ExitCode.OK
    verb = "would add" if args.dry_run else "added"
    print(
        f"{verb} {len(added.ids)} vector(s) to {added.file}: {added.ids[0]} .. {added.ids[-1]}"
        if added.ids
        else "nothing to add"
    )
    for w in added.warnings:
        print(f"reference disagrees: {w}")
    if not args.dry_run:
        print("next: `pokercert vectors manifest` to record them")
    return ExitCode.OK


def cmd_manifest(args: argparse.Namespace) -> int:
    from pokercert.vectors.corpus import CorpusError
    from pokercert.vectors.manifest import compress_ids, write_manifest

    try:
        release = write_manifest(args.root, dry_run=args.dry_run)
    except CorpusError as exc:
        raise UsageError(f"fix the corpus first:\n{exc}") from None
    if args.json:
        print_json(release.as_dict())
    elif release.refused:
        for p in release.refused:
            print(p, file=sys.stderr)
    elif not release.changed and release.previous is not None:
        print(f"corpus {release.version}: manifest already up to date")
    else:
        print(
            f"corpus {release.previous or '(none)'} -> {release.version}"
            + (" (dry run, nothing written)" if args.dry_run else "")
        )
        for label, ids in (
            ("added", release.added),
            ("retired", release.retired),
            ("metadata changed", release.metadata),
        ):
            if ids:
                print(f"  {label} ({len(ids)}): {compress_ids(ids)}")
    if release.registered and not args.json:
        print(f"release registry: corpus {release.version} recorded (vectors/releases.json)")
    return ExitCode.NONCOMPLIANT if release.refused else ExitCode.OK


def cmd_generate(args: argparse.Namespace) -> int:
    from pokercert.vectors import generate

    root = args.root or generate.default_root()
    if args.check:
        stale = generate.stale_files(root)
        for rel in stale:
            print(f"{rel}: differs from `pokercert vectors generate` output")
        print(
            "generated files are up to date"
            if not stale
            else f"{len(stale)} generated file(s) differ"
        )
        return ExitCode.NONCOMPLIANT if stale else ExitCode.OK
    written = generate.write_all(root)
    print(f"wrote {len(written)} generated file(s) under {root}")
    return ExitCode.OK


def _vector_row(v: Any) -> list[Any]:
    return [v.id, v.kind, " | ".join(inputs_text(v.inputs)), _expect_text(v), ", ".join(v.flags)]


def inputs_text(i: Mapping[str, Any]) -> list[str]:
    """A vector's inputs as short pieces of text (joined with `` | `` in tables)."""
    out = [f"op={i['op']}"] if "op" in i else []
    if "hand" in i:
        out.append(i["hand"])
    out.extend(i.get("hands", []))
    if "hole" in i:
        out.append(f"hole {i['hole']}")
    if "board" in i:
        out.append(f"board {i['board']}")
    if "high" in i:  # pai gow's setting: the five-card and the two-card hand
        out.append(f"high {i['high']} / low {i['low']}")
    for side in ("player", "banker"):  # pai gow's settlement: each side's [high, low]
        if side in i:
            out.append(f"{side} {' / '.join(i[side])}")
    return out


def _expect_text(v: Any) -> str:
    if v.expect_by_reading is not None:
        return "; ".join(f"{r}: {dict(e)}" for r, e in v.expect_by_reading.items())
    return str(dict(v.expect))


def cmd_list(args: argparse.Namespace) -> int:
    corpus = _load(args)
    try:
        vectors = corpus.select(
            rulesets=args.ruleset, flags=args.flag, kinds=args.kind, clauses=args.clause
        )
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        print_json([_as_json(v) for v in vectors])
    else:
        print(
            tabulate(
                [_vector_row(v) for v in vectors],
                headers=["id", "kind", "inputs", "expect", "flags"],
                tablefmt="simple",
            )
        )
        print(f"{len(vectors)} vector(s)")
    return ExitCode.OK


def _as_json(v: Any) -> dict[str, Any]:
    from pokercert.vectors.canonical import digest, record

    return {
        **record(v),
        "ruleset": v.ruleset,
        "digest": digest(v),
        "location": str(v.location) if v.location else None,
    }


def cmd_show(args: argparse.Namespace) -> int:
    from pokercert.reference import get_interpretation, get_ruleset

    corpus = _load(args)
    v = corpus.by_id.get(args.id)
    if v is None:
        raise UsageError(f"no vector {args.id!r} in corpus {corpus.version}")
    if args.json:
        print_json(_as_json(v))
        return ExitCode.OK
    rs = get_ruleset(v.ruleset)
    print(f"{v.id}  ({v.kind}, {rs.title})  {v.location}")
    for line in inputs_text(v.inputs):
        print(f"  input   {line}")
    if v.expect_by_reading is not None:
        interp = get_interpretation(v.interpretations[0])
        print(f"  depends on {interp.id}: {interp.title}")
        for reading, expect in v.expect_by_reading.items():
            print(f"  expect  [{reading}] {dict(expect)}")
    else:
        print(f"  expect  {dict(v.expect)}  ({rs.equal_outcome} when several win)")
    for label in v.clauses:
        print(f"  clause  {label}: {rs.clause(label).summary}")
    print(f"  flags   {', '.join(v.flags)}")
    print(f"  why     {v.why}")
    return ExitCode.OK
