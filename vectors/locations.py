"""Where things are in a vector file: the line of each ``[[vector]]`` table, of a key inside
one, of a TOML parse error; what every problem the corpus reports points at."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pokercert.vectors.model import Location

_HEADER = re.compile(r"^\s*\[\[\s*vector\s*\]\]\s*(#.*)?$")
_TOML_LINE = re.compile(r"at line (\d+)")


def defines(line: str, key: str) -> bool:
    """Whether ``line`` of a vector file sets ``key`` (``key = ...`` or ``key.sub = ...``)."""
    return re.match(rf"^\s*{re.escape(key)}\s*[=.]", line) is not None


def vector_starts(lines: Sequence[str]) -> list[int]:
    """The 1-based line of each ``[[vector]]`` table header in a file's ``lines``."""
    return [n for n, line in enumerate(lines, 1) if _HEADER.match(line)]


@dataclass
class FileText:
    """One vector file's text and where each ``[[vector]]`` table starts."""

    display: str
    lines: list[str]
    starts: list[int] = field(default_factory=list)  # 1-based line of each [[vector]]

    def span(self, index: int) -> tuple[int, int]:
        start = self.starts[index] if index < len(self.starts) else 1
        end = self.starts[index + 1] if index + 1 < len(self.starts) else len(self.lines) + 1
        return start, end

    def line_of(self, index: int | None, key: str | None = None) -> int:
        """Line of vector ``index`` (or of its ``key`` when found), else of a top-level key."""
        if index is None:
            if key is not None:
                for n, text in enumerate(self.lines, 1):
                    if defines(text, key):
                        return n
            return 1
        start, end = self.span(index)
        if key is not None:
            for n in range(start, end):
                if defines(self.lines[n - 1], key):
                    return n
        return start

    def at(self, index: int | None, key: str | None = None) -> Location:
        return Location(self.display, self.line_of(index, key))


def key_location(where: Location, *keys: str) -> Location:
    """The line of the first of ``keys`` inside the vector table starting at ``where``.

    Used to point a problem found after loading (a reference disagreement) at the line
    that holds the expectation rather than the table header; falls back to ``where``.
    """
    try:
        lines = Path(where.file).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return where
    for n in range(where.line + 1, len(lines) + 1):
        text = lines[n - 1]
        if _HEADER.match(text):
            break
        if any(defines(text, k) for k in keys):
            return Location(where.file, n)
    return where


def toml_line(exc: Exception) -> int:
    """The line a TOML parse error names (1 when it names none)."""
    found = _TOML_LINE.search(str(exc))
    return int(found.group(1)) if found else 1
