"""The formats of a sealed report, and the bytes of each.

The JSON report is the sealed one; every other format is rendered from it, so one
report's views always agree.  Both writing (:mod:`pokercert.reports.output`) and
verifying (:mod:`pokercert.reports.verify`: a view must be the render of the JSON) read
this table, which is why it lives below both.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pokercert.reports import render_html, render_junit, render_markdown
from pokercert.reports.canonical import ReportError, canonical_bytes

__all__ = ["DEFAULT_FORMATS", "FORMATS", "render"]

# format name -> (default file name, renderer of a sealed report)
FORMATS: dict[str, tuple[str, Callable[[dict[str, Any]], bytes]]] = {
    "json": ("report.json", canonical_bytes),
    "markdown": ("report.md", lambda r: render_markdown.render(r).encode("utf-8")),
    "html": ("report.html", lambda r: render_html.render(r).encode("utf-8")),
    "junit": ("report.junit.xml", lambda r: render_junit.render(r).encode("utf-8")),
}
DEFAULT_FORMATS = tuple(FORMATS)


def render(report: dict[str, Any], fmt: str) -> bytes:
    """The bytes of one format of a sealed report."""
    try:
        return FORMATS[fmt][1](report)
    except KeyError:
        raise ReportError(f"unknown report format {fmt!r}; known: {', '.join(FORMATS)}") from None
