"""Hand-worked tables, read from ``data/<name>.toml`` beside the generator.

A vector worked out by hand (a hand, its category, the clauses and the reason) is data;
the family builders keep only the logic that turns a table into records (clause labels,
seat orders, the literal reading).  The files ship as package data of
``pokercert.vectors`` and are read once per process.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from pokercert.reference.cards import RANK_CHARS
from pokercert.reference.errors import InputError

DATA = Path(__file__).resolve().parent / "data"


class TableError(InputError, ValueError):
    """A hand-worked table is missing, malformed or lacks a key (message names the file)."""


@cache
def table(name: str) -> Mapping[str, Any]:
    """The parsed ``data/<name>.toml``; a clear :class:`TableError` naming the file when
    it is missing or is not TOML."""
    path = DATA / f"{name}.toml"
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise TableError(f"{path}: no such hand-worked table") from exc
    except tomllib.TOMLDecodeError as exc:
        raise TableError(f"{path}: {exc}") from exc


def section(name: str, *keys: str) -> Any:
    """``table(name)[keys[0]][keys[1]]...``; a :class:`TableError` naming the file and the
    missing key."""
    node: Any = table(name)
    for i, key in enumerate(keys):
        if not isinstance(node, Mapping) or key not in node:
            raise TableError(f"{DATA / name}.toml: no [{'.'.join(keys[: i + 1])}]")
        node = node[key]
    return node


def rows(groups: list[Mapping[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every row of every group, in file order, the group's keys (but ``rows``) as the
    defaults a row overrides."""
    for group in groups:
        defaults = {k: v for k, v in group.items() if k != "rows"}
        for row in group["rows"]:
            yield {**defaults, **row}


def ranks_of(text: str) -> list[int]:
    """Ranks written as rank characters, best card first ("KT853", "5432A": the wheel)."""
    return [RANK_CHARS.index(c) + 2 for c in text]
