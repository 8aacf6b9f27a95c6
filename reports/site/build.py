"""Write the conformance site: :func:`build_site`."""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from pokercert.reports.cards_html import CARDS_CSS
from pokercert.reports.site import pages
from pokercert.reports.site.data import RunRead, Site, clause_slug, gather


@dataclass(frozen=True)
class Built:
    """What a build wrote: the number of files and their bytes."""

    files: int
    bytes: int


def _resource(package: str, *parts: str) -> str:
    node = resources.files(package)
    for part in parts:
        node = node / part
    return node.read_text(encoding="utf-8")


class _Writer:
    def __init__(self, out: Path) -> None:
        self.out, self.files, self.bytes = out, 0, 0

    def write(self, relative: str, text: str) -> None:
        path = self.out / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        data = text.encode("utf-8")
        path.write_bytes(data)
        self.files += 1
        self.bytes += len(data)


def write_site(site: Site, out: Path) -> Built:
    """Every page of ``site`` under ``out`` (the folders the site owns are made anew)."""
    for owned in ("rulesets", "evaluators"):
        shutil.rmtree(out / owned, ignore_errors=True)
    w = _Writer(out)
    w.write(
        "site.css",
        _resource("pokercert.reports", "templates", "report.css")
        + CARDS_CSS
        + "\n"
        + _resource("pokercert.reports.site", "templates", "site.css"),
    )
    w.write("site.js", _resource("pokercert.reports.site", "templates", "site.js"))
    w.write("index.html", pages.home(site))
    for rs in site.rulesets:
        w.write(f"rulesets/{rs.id}/index.html", pages.ruleset_page(site, rs))
        for i, clause in enumerate(rs.clauses, 1):
            w.write(
                f"rulesets/{rs.id}/{clause_slug(i, clause.label)}", pages.clause_page(site, rs, i)
            )
        for ev in site.evaluators:
            if pages.cell_state(ev, rs.id)["page"]:
                w.write(f"evaluators/{ev.key}/{rs.id}.html", pages.cell_page(site, ev, rs))
    return Built(w.files, w.bytes)


def build_site(
    out: Path, run_folders: Sequence[Path | RunRead] = (), corpus_root: Path | None = None
) -> Built:
    """The conformance site of the installed corpus (or ``corpus_root``) and the given run
    folders (or runs :func:`~pokercert.reports.site.data.read_run` read already), written
    under ``out``: plain files, no server, no network at view time."""
    return write_site(gather(run_folders, corpus_root), Path(out))
