"""The canonical forms of a vector: its meaning digest and its TOML text.

* :func:`digest` hashes what a vector *means* (ruleset, kind, inputs, expectation,
  the interpretation it depends on).  The manifest records it per id; a released id
  whose digest changes has changed meaning, which is never allowed.  Clauses, flags
  and ``why`` are metadata: fixing them does not change meaning (:func:`meta_digest`).
* :func:`to_toml` writes one record the way the authoring tool and the generator do,
  so every tool-written record looks the same and diffs stay small.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from pokercert.vectors.model import Vector

# record keys in the order they are written
# (pai gow's set hands: ``high`` and ``low`` of a setting, ``player`` and ``banker``)
INPUT_KEYS = ("op", "hand", "hands", "hole", "board", "half", "high", "low", "player", "banker")
KEY_ORDER = (
    "id",
    "kind",
    *INPUT_KEYS,
    "interpretations",
    "expect",
    "expect_by_reading",
    "clauses",
    "flags",
    "why",
)


def _sha(data: Any) -> str:
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def meaning(vector: Vector) -> dict[str, Any]:
    """The part of a vector that defines what it tests (hashed by :func:`digest`)."""
    return {
        "ruleset": vector.ruleset,
        "kind": vector.kind,
        "inputs": dict(vector.inputs),
        "expect": dict(vector.expect) if vector.expect is not None else None,
        "expect_by_reading": (
            {k: dict(v) for k, v in vector.expect_by_reading.items()}
            if vector.expect_by_reading is not None
            else None
        ),
        "interpretations": list(vector.interpretations),
    }


def digest(vector: Vector) -> str:
    """SHA-256 of the canonical JSON of :func:`meaning`."""
    return _sha(meaning(vector))


def meta_digest(vector: Vector) -> str:
    """SHA-256 of the metadata (clauses, flags, why): changes here are not changes of meaning."""
    return _sha({"clauses": list(vector.clauses), "flags": list(vector.flags), "why": vector.why})


def record(vector: Vector) -> dict[str, Any]:
    """The vector as a TOML record (the inverse of the loader)."""
    out: dict[str, Any] = {"id": vector.id, "kind": vector.kind}
    for key in INPUT_KEYS:
        if key in vector.inputs:
            value = vector.inputs[key]
            out[key] = (
                list(value) if isinstance(value, Sequence) and not isinstance(value, str) else value
            )
    if vector.interpretations:
        out["interpretations"] = list(vector.interpretations)
    if vector.expect is not None:
        out["expect"] = dict(vector.expect)
    if vector.expect_by_reading is not None:
        out["expect_by_reading"] = {k: dict(v) for k, v in vector.expect_by_reading.items()}
    out["clauses"] = list(vector.clauses)
    out["flags"] = list(vector.flags)
    out["why"] = vector.why
    return out


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, Mapping):
        inner = ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items())
        return "{ " + inner + " }" if inner else "{}"
    if isinstance(value, Sequence):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} as TOML")


def _key(key: str) -> str:
    bare = key.replace("_", "").replace("-", "").isalnum() and key.isascii()
    return key if bare else json.dumps(key)


def to_toml(rec: Mapping[str, Any], comment: Sequence[str] = ()) -> str:
    """One ``[[vector]]`` table in canonical layout (keys in :data:`KEY_ORDER`).

    ``expect_by_reading`` is written as dotted keys, one reading per line, in the
    order given (practice first by convention).  ``comment`` lines go above the table.
    """
    lines = [line if line.startswith("#") else f"# {line}".rstrip() for line in comment]
    lines.append("[[vector]]")
    for key in KEY_ORDER:
        if key not in rec:
            continue
        if key == "expect_by_reading":
            for reading, expect in rec[key].items():
                lines.append(f"expect_by_reading.{_key(reading)} = {_value(expect)}")
        else:
            lines.append(f"{key} = {_value(rec[key])}")
    unknown = [k for k in rec if k not in KEY_ORDER]
    if unknown:
        raise ValueError(f"unknown record keys {unknown}")
    return "\n".join(lines) + "\n"


def file_header(ruleset: str, title: str) -> str:
    """The first lines of a new vector file."""
    return f'# {title}\nformat_version = 1\nruleset = "{ruleset}"\n'
