"""``pokercert site OUT/ [RUN_FOLDER ...] [--peers]``: the static conformance site."""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
from pathlib import Path

from pokercert.cli.options import Subparsers, UsageError, out_folder
from pokercert.reference.errors import ExitCode

# the bundled adapters, the reference first; each peer runs when its library is installed
PEERS = ("reference", "pokerkit", "treys", "eval7", "phevaluator")
RUNS_FOLDER = "runs"


def register(sub: Subparsers) -> None:
    p = sub.add_parser(
        "site",
        description="Write a static conformance site into OUT: every jurisdiction and "
        "ruleset, each clause with its vectors drawn as cards, and a matrix of evaluators "
        "(the reference, then one per RUN_FOLDER) against rulesets, with what failed and "
        "why. Plain files: "
        "open OUT/index.html from disk or serve it from any static host. Exit code: 0 "
        "written; 1 a run folder's results are not what the harness wrote; 3 usage error.",
    )
    p.add_argument("out", type=Path, metavar="OUT", help="folder to write the site in")
    p.add_argument(
        "runs",
        type=Path,
        nargs="*",
        metavar="RUN_FOLDER",
        help="results folders of `pokercert run`, or genuine JSON reports (one matrix column each)",
    )
    p.add_argument(
        "--peers",
        action="store_true",
        help="first run the reference and every bundled peer that is installed "
        f"({', '.join(PEERS)}) into OUT/{RUNS_FOLDER}/NAME, and show them first",
    )
    p.add_argument(
        "--no-reference",
        action="store_true",
        help="no reference column (by default the reference is run into "
        f"OUT/{RUNS_FOLDER}/reference first, so the matrix always shows it)",
    )
    p.add_argument(
        "--challenge-seed",
        type=int,
        metavar="N",
        help="with --peers: the challenge seed of their runs (default: a new one)",
    )
    p.set_defaults(func=cmd_site)


def installed_peers() -> list[str]:
    """The bundled adapters whose library is importable here, the reference first."""
    return [
        name for name in PEERS if name == "reference" or importlib.util.find_spec(name) is not None
    ]


def run_peer(name: str, folder: Path, seed: int | None) -> bool:
    """``pokercert run --adapter NAME`` into ``folder`` (a child process: a peer that
    crashes takes only its own run down); True when the run finished."""
    command = [
        sys.executable,
        "-m",
        "pokercert.cli",
        "run",
        "--adapter",
        name,
        "--out",
        str(folder),
        "--no-report",
    ]
    if seed is not None:
        command += ["--challenge-seed", str(seed)]
    print(f"running {name} into {folder} ...", file=sys.stderr, flush=True)
    done = subprocess.run(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False
    )
    if done.returncode >= ExitCode.ERROR:
        tail = done.stderr.strip().splitlines()[-1:] or ["no message"]
        print(
            f"{name}: the run did not finish (exit {done.returncode}): {tail[0]}; left "
            "out of the site",
            file=sys.stderr,
        )
        return False
    return True


def cmd_site(args: argparse.Namespace) -> int:
    from pokercert.reports.site.build import build_site
    from pokercert.reports.site.data import read_run

    for folder in args.runs:
        if not Path(folder).exists():
            raise UsageError(f"RUN_FOLDER {folder}: no such folder")
    # each given folder read once, here: a bad one is refused before any run starts, and
    # the site shows what was checked (not the folder read again after the peers ran)
    given = [read_run(Path(folder)) for folder in args.runs]
    out = out_folder(args.out, "OUT", create=True)
    # the reference column is always run here: a folder's word that it ran the reference
    # is the vendor's (run.json), so it never stands in for the reference's own run
    names = installed_peers() if args.peers else [] if args.no_reference else ["reference"]
    runs = [
        out / RUNS_FOLDER / name
        for name in names
        if run_peer(name, out / RUNS_FOLDER / name, args.challenge_seed)
    ]
    built = build_site(out, [*runs, *given])
    print(f"site written: {out / 'index.html'} ({built.files} files, {built.bytes / 1e6:.1f} MB)")
    return ExitCode.OK
