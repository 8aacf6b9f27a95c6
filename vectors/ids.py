"""Vector ids: ``<ruleset>/<NNNN>``, allocated here and nowhere else.

Numbers below :data:`GENERATED_FIRST` are hand-written vectors (``pokercert vectors
add``, counterexamples the harness turns into drafts): each new one takes the next number
after every one in use or retired in the manifest, so an id is never reused.  From
:data:`GENERATED_FIRST` on, each family of the generator owns a block of
:data:`FAMILY_SIZE` ids starting at its :data:`FAMILY_BASE`; member ``i`` gets
``base + i``, so regenerating never renumbers.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from pokercert.reference.errors import InputError
from pokercert.vectors import registry
from pokercert.vectors.manifest import read_manifest

GENERATED_FIRST = 5000  # ids from here on belong to the generator (vectors/generate/)
FAMILY_SIZE = 100  # ids per generated family
# first id of each generated family (ids base .. base+FAMILY_SIZE-1); append new
# families at the end, never move one
FAMILY_BASE = {
    "straights": 5000,
    "straight-flushes": 5100,
    "quads": 5200,
    "full-houses": 5300,
    "flushes": 5400,
    "trips": 5500,
    "two-pair": 5600,
    "pairs": 5700,
    "high-cards": 5800,
    "suit-ties": 5900,
    "multiway": 6000,
    "cards-speak": 6100,
    "reject": 6200,
    "pocket": 6300,
    "best-hand": 6400,
    "aces": 6500,
    # the poker-room games (showdown vectors)
    "board-plays": 6600,
    "board-kickers": 6700,
    "two-hole": 6800,
    "lows": 6900,
    "stud-hands": 7000,
    "razz": 7100,
    "deals": 7200,
    "categories": 7300,
    # the table games and the deuces-wild postings (issue 15)
    "table-classify": 7400,
    "table-order": 7500,
    "deuces-natural-1": 7600,
    "deuces-natural-2": 7700,
    "deuces-natural-3": 7800,
    "deuces-wild": 7900,
    # the poker-room games' five-card ranking (classify and compare); from the top of
    # the generator's range, clear of the blocks other families take from 7400 up
    "ranking": 9900,
    # razz's final hands as five-card compares and seven-card deals of few ranks (corpus
    # 1.12: the five-card showdowns nj-razz/7170-7199 were retired)
    "razz-hands": 8000,
}
ID_PATTERN = re.compile(r"^(?P<ruleset>[a-z0-9-]+)/(?P<n>\d{4})$")


class IdBlockFull(InputError, ValueError):
    """The hand-written id block of a ruleset has no room for the ids asked for."""


def vector_id(ruleset: str, number: int) -> str:
    """The id of vector ``number`` of ``ruleset`` (``nj-poker-high-5/0042``)."""
    return f"{ruleset}/{number:04d}"


def used_numbers(root: Path, ruleset: str) -> set[int]:
    """Every id number of ``ruleset`` in the corpus files or retired in the manifest."""
    numbers: set[int] = set()
    pattern = re.compile(rf'^\s*id\s*=\s*"{re.escape(ruleset)}/(\d{{4}})"', re.M)
    folder = root / ruleset
    for path in sorted(folder.glob("*.toml")) if folder.is_dir() else ():
        numbers.update(int(n) for n in pattern.findall(path.read_text(encoding="utf-8")))
    manifest = read_manifest(root) or {}
    for vid in [*manifest.get("vectors", {}), *manifest.get("retired", {})]:
        prefix, _, num = vid.rpartition("/")
        if prefix == ruleset:
            numbers.add(int(num))
    return numbers


def next_ids(
    ruleset: str, count: int, taken: Iterable[str] = (), root: Path | None = None
) -> list[str]:
    """The next ``count`` free hand-written ids of ``ruleset`` in the corpus at ``root``.

    ``root`` defaults to the corpus shipped with the package.  The new ids come after
    every hand-written id in use or retired and after ``taken`` (ids handed out already,
    e.g. earlier counterexamples of the same run).  Raises :class:`IdBlockFull` when they
    would reach the generator's block.
    """
    root = root if root is not None else registry.PACKAGE_ROOT
    used = {n for n in used_numbers(root, ruleset) if n < GENERATED_FIRST}
    for vid in taken:
        m = ID_PATTERN.match(vid)
        if m and m["ruleset"] == ruleset:
            used.add(int(m["n"]))
    first = max(used, default=0) + 1
    if first + count > GENERATED_FIRST:
        raise IdBlockFull(
            f"{ruleset}: the hand-written id block (0001-{GENERATED_FIRST - 1:04d}) is full"
        )
    return [vector_id(ruleset, first + i) for i in range(count)]


def family_id(ruleset: str, family: str, member: int) -> str:
    """The id of member ``member`` (0-based) of the generated ``family`` of ``ruleset``."""
    if not 0 <= member < FAMILY_SIZE:
        raise IdBlockFull(
            f"{ruleset} {family}: member {member} overflows the id block of {FAMILY_SIZE}"
        )
    return vector_id(ruleset, FAMILY_BASE[family] + member)


__all__ = [
    "FAMILY_BASE",
    "FAMILY_SIZE",
    "GENERATED_FIRST",
    "IdBlockFull",
    "family_id",
    "next_ids",
    "used_numbers",
    "vector_id",
]
