"""The corpus registries: the bug-class flags and the JSON Schema of a vector file.

Both are data files shipped with the package (``vectors/flags.toml``,
``vectors/schema/vector.schema.json``); this module only reads them.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

PACKAGE_ROOT = Path(__file__).resolve().parent
FLAGS_FILE = "flags.toml"
AWAITING_FILE = "awaiting.toml"
SCHEMA_FILE = "schema/vector.schema.json"


def _flags(path: Path) -> Mapping[str, str]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return MappingProxyType(
        {fid: str(body["description"]) for fid, body in data.get("flag", {}).items()}
    )


def flags(root: Path | None = None) -> Mapping[str, str]:
    """Flag id -> description, from ``flags.toml`` under ``root`` (default: the package)."""
    return _flags((root or PACKAGE_ROOT) / FLAGS_FILE)


@cache
def schema() -> dict[str, Any]:
    """The JSON Schema every vector file is validated against."""
    document: dict[str, Any] = json.loads(
        (PACKAGE_ROOT / SCHEMA_FILE).read_text(encoding="utf-8")
    )  # a file of ours
    return document


@cache
def awaiting() -> Mapping[str, str]:
    """Ruleset id -> why it has no vectors yet (``awaiting.toml``); such a ruleset is left
    out of coverage and the corpus tests until it has vectors."""
    data = tomllib.loads((PACKAGE_ROOT / AWAITING_FILE).read_text(encoding="utf-8"))
    return MappingProxyType({rid: str(why) for rid, why in data.get("awaiting", {}).items()})


def in_corpus(ruleset_ids: Any) -> list[str]:
    """``ruleset_ids`` less those awaiting their first vectors (order kept)."""
    return [rid for rid in ruleset_ids if rid not in awaiting()]
