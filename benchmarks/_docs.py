"""What the benchmark scripts share: writing the figures the docs quote.

A figure a document quotes from a benchmark lives in a marked block,

    <!-- bench:NAME -->
    ...written by the script...
    <!-- /bench -->

and the script that measures it rewrites the block with ``--write-docs``: the figures in
the docs are the script's last run, never typed by hand.  Each script lists its blocks
in a module-level ``DOC_BLOCKS = {"NAME": "path/of/doc.md"}`` (a literal: the contract
test tests/contract/test_bench_blocks.py reads it without running the script, and fails
on a block no script writes).
"""

from __future__ import annotations

import datetime
import os
import platform
import re
import shlex
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BLOCK = re.compile(r"(<!-- bench:(?P<name>[a-z0-9-]+) -->\n)(?P<body>.*?)(<!-- /bench -->)", re.S)


def machine() -> str:
    """One line on where the figures were measured."""
    try:
        load = f", load average {os.getloadavg()[0]:.1f}"
    except OSError:
        load = ""
    return f"{platform.machine()}, {os.cpu_count()} CPUs{load}; Python {platform.python_version()}"


def write_block(doc: str, name: str, body: str) -> None:
    """Replace block ``name`` of ``doc`` (relative to the repository) with ``body``,
    headed by the command that wrote it, the date and the machine."""
    path = ROOT / doc
    text = path.read_text(encoding="utf-8")
    found = [m for m in BLOCK.finditer(text) if m.group("name") == name]
    if len(found) != 1:
        raise SystemExit(f"{doc}: expected one block <!-- bench:{name} -->, found {len(found)}")
    command = "python " + " ".join(
        shlex.quote(a) for a in [f"benchmarks/{Path(sys.argv[0]).name}", *sys.argv[1:]]
    )
    when = datetime.date.today().isoformat()
    head = f"Written by `{command}` on {when} ({machine()}):\n\n"
    match = found[0]
    text = text[: match.start("body")] + head + body.rstrip("\n") + "\n" + text[match.end("body") :]
    path.write_text(text, encoding="utf-8")
    print(f"wrote block {name} of {doc}")
