"""What the conformance site shows, gathered once: the rulesets and the corpus, and for
each run folder its sealed report and the outcome of every vector it ran.

Nothing a vendor controls becomes a file name: evaluators are numbered (``e1``, ``e2``
...) in the order given, and ruleset and clause pages are named from our own ids.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pokercert.harness.run.results import HEADER_FILE, RESULTS_FILE
from pokercert.reference import all_rulesets
from pokercert.reference.rulesets import Ruleset
from pokercert.reports import text as T
from pokercert.reports.model import ReportRefused
from pokercert.reports.output import load
from pokercert.vectors.corpus import Corpus, load_corpus
from pokercert.vectors.model import Kind, Vector


@dataclass(frozen=True)
class SiteEvaluator:
    """One column of the matrix: a run folder's sealed report and per-vector outcomes."""

    key: str
    folder: Path
    report: Mapping[str, Any]
    outcomes: Mapping[str, str]

    @property
    def name(self) -> str:
        """The evaluator as its vendor declared it (text: escaped where shown)."""
        return T.evaluator_line(self.report["identification"])

    @property
    def short_name(self) -> str:
        """Name and version, for a column head (the build is on the evaluator's pages)."""
        ev = self.report["identification"]["evaluator"]
        return " ".join(str(x) for x in (ev["name"], ev["version"]) if x) or self.adapter

    @property
    def label(self) -> str:
        """The column's own name: its number and its run folder's name (two runs of one
        evaluator, declared alike, are told apart by it)."""
        return f"{self.key} · {self.folder.name}"

    @property
    def adapter(self) -> str:
        return str(self.report["identification"]["adapter_spec"])

    def ruleset(self, rid: str) -> Mapping[str, Any] | None:
        """The report's entry for ruleset ``rid``, or None when the run did not select it."""
        return next((r for r in self.report["rulesets"] if r["id"] == rid), None)

    def failures(self, rid: str) -> list[dict[str, Any]]:
        return [f for f in self.report["failures"] if f["ruleset"] == rid]


@dataclass(frozen=True)
class Site:
    """Everything the pages are made from."""

    rulesets: tuple[Ruleset, ...]
    corpus: Corpus
    evaluators: tuple[SiteEvaluator, ...]
    by_ruleset: Mapping[str, list[Vector]] = field(default_factory=dict)
    # each vector's inputs and expectations drawn once (it is on a page per clause)
    drawn: dict[str, Any] = field(default_factory=dict)

    def clause_vectors(self, rid: str, label: str) -> list[Vector]:
        return [v for v in self.by_ruleset.get(rid, []) if label in v.clauses]


def clause_slug(index: int, label: str) -> str:
    """A clause page's file name: its place in the ruleset and its label in safe letters."""
    return f"clause-{index:02d}-" + re.sub(r"[^A-Za-z0-9.-]+", "_", label).strip("_") + ".html"


def _own_files(source: Path) -> None:
    """Refuse a run folder's file (or a report) that is a symbolic link or not a regular
    file: a link to /dev/zero is read forever, a FIFO waits forever, a link to another
    folder's results is not this run's."""
    paths = [source / HEADER_FILE, source / RESULTS_FILE] if source.is_dir() else [source]
    for path in paths:
        if path.is_symlink():
            raise ReportRefused(
                f"{path}: a symbolic link; the files of a run folder are "
                "read only as regular files of the folder itself"
            )
        if path.exists() and not path.is_file():
            raise ReportRefused(f"{path}: not a regular file")


def _same_corpus(source: Path, report: Mapping[str, Any], corpus: Corpus) -> None:
    """Refuse a run of another corpus (version or content): its outcomes are of that
    corpus's vectors, and beside the vectors shown (same ids, other hands) they would
    say what was never tested."""
    ran = report["identification"]["corpus"]
    if (ran.get("version"), ran.get("sha256")) != (corpus.version, corpus.sha256):
        raise ReportRefused(
            f"{source}: a run of corpus {T.printable(str(ran.get('version')))} (sha256 "
            f"{T.printable(str(ran.get('sha256')))}); the site shows corpus {corpus.version} "
            f"(sha256 {corpus.sha256}): run it again against this corpus"
        )


@dataclass(frozen=True)
class RunRead:
    """A run folder (or a genuine JSON report) read once: where, and its sealed report."""

    folder: Path
    report: Mapping[str, Any]


def read_run(source: Path) -> RunRead:
    """A run folder (or a genuine JSON report), read and sealed: refused when its results
    are not what the harness wrote, or when a file of it is a link or no regular file."""
    _own_files(source)
    return RunRead(source, load(source))


def read_evaluator(key: str, source: Path | RunRead, corpus: Corpus | None = None) -> SiteEvaluator:
    """A run folder (read here, or already by :func:`read_run`) as a column: its sealed
    report (refused as :func:`read_run` says, or when it ran another corpus than
    ``corpus``) and the outcome of each vector."""
    read = source if isinstance(source, RunRead) else read_run(source)
    if corpus is not None:
        _same_corpus(read.folder, read.report, corpus)
    return SiteEvaluator(
        key,
        read.folder,
        read.report,
        {str(v["id"]): str(v["outcome"]) for v in read.report["vectors"]},
    )


def gather(runs: Sequence[Path | RunRead], corpus_root: Path | None = None) -> Site:
    """The site's data: every ruleset, the installed (or given) corpus, every run (a
    folder read here, or one :func:`read_run` read already: each is read once)."""
    corpus = load_corpus(corpus_root)
    by_ruleset: dict[str, list[Vector]] = defaultdict(list)
    for v in corpus.vectors:
        by_ruleset[v.ruleset].append(v)
    evaluators = tuple(
        read_evaluator(f"e{i}", r if isinstance(r, RunRead) else Path(r), corpus)
        for i, r in enumerate(runs, 1)
    )
    return Site(all_rulesets(), corpus, evaluators, dict(by_ruleset))


def example_hand(vectors: Sequence[Vector], category: str) -> str:
    """A hand of ``category`` from the corpus (a classify vector that expects it), or ""."""
    for v in vectors:
        if (
            v.kind == Kind.CLASSIFY
            and v.expect is not None
            and v.expect.get("category") == category
        ):
            return str(v.inputs.get("hand", ""))
    return ""
