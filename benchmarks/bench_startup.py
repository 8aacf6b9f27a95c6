"""Start-up: whole ``pokercert`` commands, timed as a user runs them (one process each).

    python benchmarks/bench_startup.py [--repeat 5] [--python PYTHON ...]

Each command runs ``--repeat`` times in a fresh process, the interpreters given with
``--python`` taking turns (e.g. a checkout of main in its own venv, then this one: a
before/after in one run), and each keeps its fastest wall time and its fastest CPU time
(user + system, from the child's rusage: steadier on a shared machine).  Commands:

* ``pokercert --help``;
* ``pokercert rulesets`` (a light command: the rulesets, no corpus, no harness);
* ``pokercert run --no-challenge`` (the reference over the whole corpus, reports
  written; issue 16's ``run``, the challenge is timed by ``bench_run.py``), with the
  corpus cache warm (a run before the timed ones fills it) and cold (an empty cache
  folder each time: read, validate and cache the corpus);
* ``python -c pass``: the interpreter's own start, the floor under every command.

The cache folder is a temporary one (``POKERCERT_CACHE_DIR``), so the user's is left
alone; byte-code goes to a temporary folder too (``PYTHONPYCACHEPREFIX``, written by the
first run), so an environment with ``PYTHONDONTWRITEBYTECODE`` set does not time the
compilation of every module on every start.  Targets (issue 16): ``--help`` <= 0.1 s,
``run`` <= 0.4 s wall.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tabulate import tabulate

COMMANDS: dict[str, list[str]] = {
    "python -c pass": ["-c", "pass"],
    "pokercert --help": ["-m", "pokercert.cli", "--help"],
    "pokercert rulesets": ["-m", "pokercert.cli", "rulesets"],
    "pokercert run --no-challenge (cache warm)": [
        "-m",
        "pokercert.cli",
        "run",
        "--out",
        "{out}",
        "--no-challenge",
    ],
    "pokercert run --no-challenge (cache cold)": [
        "-m",
        "pokercert.cli",
        "run",
        "--out",
        "{out}",
        "--no-challenge",
    ],
}


def _once(python: str, args: list[str], cache: Path, cold: bool) -> tuple[float, float]:
    """(wall s, cpu s) of one run of the command in a child process."""
    if cold:
        shutil.rmtree(cache, ignore_errors=True)
    with tempfile.TemporaryDirectory() as tmp:
        argv = [python, *(a.replace("{out}", str(Path(tmp) / "run")) for a in args)]
        # byte-code written to a private folder, as an installed package has it, even
        # where PYTHONDONTWRITEBYTECODE is set (the first run of each command writes it)
        env = {
            **{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
            "POKERCERT_CACHE_DIR": str(cache),
            "PYTHONPYCACHEPREFIX": str(
                cache.parent / f"pyc-{Path(python).resolve()}".replace("/", "_")
            ),
        }
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        done = subprocess.run(argv, capture_output=True, env=env, check=False, cwd=tmp)
        wall = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"{' '.join(argv)} exited {done.returncode}:\n{done.stderr.decode()}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--python",
        action="append",
        help="interpreter to run the commands with (repeatable; default: this one)",
    )
    args = parser.parse_args(argv)
    pythons = args.python or [sys.executable]
    print(
        f"python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} CPUs, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    best: dict[tuple[str, str], list[float]] = {}
    with tempfile.TemporaryDirectory() as caches:
        for python in pythons:  # fill each interpreter's warm cache once
            _once(
                python,
                COMMANDS["pokercert run --no-challenge (cache warm)"],
                Path(caches) / str(pythons.index(python)),
                cold=False,
            )
        for _ in range(args.repeat):
            for name, command in COMMANDS.items():
                for i, python in enumerate(pythons):
                    cold = "cold" in name
                    cache = Path(caches) / (f"cold{i}" if cold else str(i))
                    wall, cpu = _once(python, command, cache, cold)
                    got = best.setdefault((name, python), [wall, cpu])
                    got[0], got[1] = min(got[0], wall), min(got[1], cpu)
    rows = [
        [name, python, f"{best[name, python][0]:.3f}", f"{best[name, python][1]:.3f}"]
        for name in COMMANDS
        for python in pythons
    ]
    print(
        tabulate(
            rows,
            headers=["command", "python", "wall s (best)", "cpu s (best)"],
            disable_numparse=True,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
