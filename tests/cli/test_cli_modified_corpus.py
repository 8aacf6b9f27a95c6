"""A modified corpus never passes as the published one (issue 26, item 4), end to end.

A copy of the installed corpus is run through ``POKERCERT_CORPUS_DIR`` (the one way to
point a run at another corpus folder): a verbatim copy is the published release the
installed ``vectors/MANIFEST.json`` names (its files digest to the ``sha256`` recorded
there at release), and the same run is CERTIFIED; the copy with one expectation edited
(of a ruleset the run does not even select) is a modified corpus: every format and the
terminal say "modified corpus (digest X; V is Y)", the verdict is NOT CERTIFIED, and
``verify`` names it while calling the report genuine.  X is computed here from the files
by the definition the manifest documents (the SHA-256 of the ``sha256sum`` listing of
the vector files and the flag registry).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests import helpers

MANIFEST = json.loads((helpers.ROOT / "vectors" / "MANIFEST.json").read_text(encoding="utf-8"))
VERSION, PUBLISHED = MANIFEST["corpus_version"], MANIFEST["sha256"]  # as released
EDITED_FILE = Path("nj-poker-high-5") / "cards-speak.toml"
RUN = ["--ruleset", "nj-poker-high-3", "--no-challenge"]


def _digest(root: Path) -> str:
    """The corpus digest by its documented definition, not by the code under test."""
    files = sorted([*root.glob("*/*.toml"), root / "flags.toml"])
    files = [p for p in files if p.parent.name not in ("schema", "generate")]
    listing = "".join(
        f"{hashlib.sha256(p.read_bytes()).hexdigest()}  {p.relative_to(root).as_posix()}\n"
        for p in sorted(files, key=lambda p: p.relative_to(root).as_posix())
    )
    return hashlib.sha256(listing.encode()).hexdigest()


def _copy(to: Path) -> Path:
    shutil.copytree(
        helpers.ROOT / "vectors",
        to,
        ignore=shutil.ignore_patterns("*.py", "__pycache__", "generate", "*.md"),
    )
    return to


def _cli(tmp: Path, corpus: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "PYTHONPATH": helpers.child_pythonpath(),
        "POKERCERT_CORPUS_DIR": str(corpus),
        "POKERCERT_CACHE_DIR": str(tmp / "cache"),
    }
    return subprocess.run(
        [sys.executable, "-m", "pokercert.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp,
        timeout=300,
    )


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    tmp = tmp_path_factory.mktemp("modified")
    verbatim, edited = _copy(tmp / "verbatim"), _copy(tmp / "edited")
    path = edited / EDITED_FILE
    text = path.read_text(encoding="utf-8")
    first = re.search(r"expect = \{ winners = \[0\] \}", text)
    assert first is not None
    path.write_text(
        text[: first.start()] + "expect = { winners = [1] }" + text[first.end() :], encoding="utf-8"
    )
    out: dict[str, object] = {"edited_digest": _digest(edited), "tmp": tmp}
    assert _digest(verbatim) == PUBLISHED  # the definition, checked on the release
    for name, corpus in (("verbatim", verbatim), ("edited", edited)):
        out[name] = _cli(tmp, corpus, "run", *RUN, "--out", str(tmp / f"run-{name}"))
    return out


def test_a_verbatim_copy_is_the_published_corpus_and_certifies(runs):
    done = runs["verbatim"]
    folder = runs["tmp"] / "run-verbatim"
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip().splitlines()[-1] == f"CERTIFIED: {folder / 'report.html'}"
    report = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    assert report["covers"]["corpus"]["status"] == "published"
    assert report["identification"]["corpus"] == {"version": VERSION, "sha256": PUBLISHED}


def test_one_edited_expectation_is_a_modified_corpus_in_every_format(runs):
    done = runs["edited"]
    folder = runs["tmp"] / "run-edited"
    words = f"modified corpus (digest {runs['edited_digest'][:16]}; {VERSION} is {PUBLISHED[:16]})"
    assert done.returncode == 1, done.stderr  # every vector run passed, yet exit 1
    report = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    assert report["identification"]["corpus"]["sha256"] == runs["edited_digest"]
    assert report["covers"]["corpus"]["words"] == words
    assert report["counts"]["FAIL"] == 0
    assert report["verdict"] == "NOT CERTIFIED"  # ...and nothing is certified
    assert [r["reasons"][0] for r in report["rulesets"]] == [words]
    for name in ("report.md", "report.html", "report.junit.xml"):
        assert words in (folder / name).read_text(encoding="utf-8"), name
    props = {
        p.get("name"): p.get("value")
        for p in ET.parse(folder / "report.junit.xml").iter("property")
    }
    assert props["corpus_status"] == "modified"
    assert f"WARNING: {words}" in done.stdout
    assert done.stdout.rstrip().splitlines()[-1] == f"NOT CERTIFIED: {folder / 'report.html'}"


def test_verify_names_the_modified_corpus_and_calls_the_report_genuine(runs):
    folder = runs["tmp"] / "run-edited"
    words = f"modified corpus (digest {runs['edited_digest'][:16]}; {VERSION} is {PUBLISHED[:16]})"
    # verified with the installed pokercert and its own corpus: the registry decides
    env_free = {**os.environ, "PYTHONPATH": helpers.child_pythonpath()}
    env_free.pop("POKERCERT_CORPUS_DIR", None)
    done = subprocess.run(
        [sys.executable, "-m", "pokercert.cli", "verify", str(folder)],
        capture_output=True,
        text=True,
        env=env_free,
        timeout=300,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stdout.rstrip().splitlines()[-1] == f"{folder}: GENUINE: NOT CERTIFIED ({words})"
    assert re.search(r"corpus\s+failed\s+modified corpus", done.stdout)
