"""Figures the docs quote from benchmarks live in marked blocks that a benchmark script
writes (benchmarks/_docs.py): a block no script declares is a figure with no source."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OPEN = re.compile(r"<!-- bench:([a-z0-9-]+) -->")
BLOCK = re.compile(r"<!-- bench:([a-z0-9-]+) -->\n(.*?)<!-- /bench -->", re.S)


def docs() -> list[Path]:
    return [
        p
        for p in ROOT.rglob("*.md")
        if not {".venv", "node_modules", ".git"} & set(p.relative_to(ROOT).parts)
    ]


def declared() -> dict[str, tuple[str, str]]:
    """Block name -> (document, script) from every script's literal DOC_BLOCKS."""
    out: dict[str, tuple[str, str]] = {}
    for script in sorted((ROOT / "benchmarks").glob("*.py")):
        for node in ast.parse(script.read_text()).body:
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "DOC_BLOCKS" for t in node.targets
            ):
                for name, doc in ast.literal_eval(node.value).items():
                    assert name not in out, f"block {name} declared twice"
                    out[name] = (doc, script.name)
    return out


def test_every_block_in_the_docs_has_a_source_script():
    blocks = declared()
    found = []
    for doc in docs():
        text = doc.read_text(encoding="utf-8")
        opened = OPEN.findall(text)
        closed = [name for name, _ in BLOCK.findall(text)]
        assert opened == closed, f"{doc}: a bench block is not closed with <!-- /bench -->"
        rel = doc.relative_to(ROOT).as_posix()
        for name, body in BLOCK.findall(text):
            assert name in blocks, f"{rel}: block {name} is written by no benchmarks/*.py"
            assert blocks[name][0] == rel, f"{rel}: block {name} belongs to {blocks[name][0]}"
            assert body.startswith(f"Written by `python benchmarks/{blocks[name][1]}"), (
                f"{rel}: block {name} was not written by {blocks[name][1]} (edited by hand?)"
            )
            found.append(name)
    assert sorted(found) == sorted(blocks), "a script declares a block no document holds"


def test_the_stale_figures_are_gone():
    """Figures of issue 18 that had no source: now only inside blocks."""
    ci = (ROOT / "harness" / "CI.md").read_text()
    outside = BLOCK.sub("", ci)
    assert "about 45 s" not in outside
    bench = BLOCK.sub("", (ROOT / "benchmarks" / "README.md").read_text())
    assert "| 0.71 |" not in bench
