"""The reference's class tables on disk, built once per ruleset, profile and engine version.

An exhaustive pass needs the reference's value of every hand of a ruleset
(:class:`pokercert.reference.batch.Table`).  Building one streams the whole space through
the engine's few thousand distinct values; every shard, every Dask worker and every
later run would pay for it again.  This module keeps each built table as one file:

* **content-addressed**: the file name is the SHA-256 of everything the table depends on:
  the ruleset's definition (its whole parsed record), the engine knobs and readings of
  the profile, the hand size, and the engine version (the package version and a digest
  of the engine's source files).  A change to any of them gives another name, so a stale
  table is never read, only left behind;
* **checked on load**: the file holds the digest it was written for and a SHA-256 of its
  arrays; a file that cannot be read, was written for another digest or whose arrays do
  not match their checksum is rebuilt and replaced, never trusted;
* **safe against concurrent writers**: each writer writes a private temporary file in the
  cache folder and renames it over the final name (atomic on POSIX and Windows), so a
  reader sees a whole file or none, and two writers of the same table both leave a good
  one.

The folder is :func:`pokercert.reference.cache_dir.cache_folder` ``("tables")``:
``$POKERCERT_CACHE_DIR/tables`` if set, else the user's cache folder ``/pokercert/tables``.
If it cannot be written, tables are built in memory and the run goes on.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import tempfile
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import numpy as np

from pokercert.reference.cache_dir import CACHE_ENV, cache_folder

if TYPE_CHECKING:
    from pokercert.reference.engine import Evaluator

__all__ = ["CACHE_ENV", "cache_dir", "engine_version", "load_or_build", "table_digest",
           "table_path"]

FORMAT = 2      # 2: each class key's length stored (a -1 digit is no padding)
# the sources whose behaviour a table records
_ENGINE_SOURCES = ("engine.py", "cards.py", "batch.py", "seven.py", "rulesets.py",
                   "interpretations.py")



class _Saved(Protocol):
    @property
    def arrays(self) -> dict[str, np.ndarray]: ...


T = TypeVar("T", bound=_Saved)


def cache_dir() -> Path:
    """Where tables are kept (see the module docstring)."""
    return cache_folder("tables")


@cache
def engine_version() -> str:
    """The package version and a digest of the engine's sources."""
    try:
        from importlib.metadata import version

        package = version("pokercert")
    except Exception:  # pragma: no cover - not installed
        package = "0+unknown"
    here = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for name in _ENGINE_SOURCES:
        digest.update(name.encode())
        digest.update((here / name).read_bytes())
    return f"{package}+{digest.hexdigest()[:16]}"


def table_digest(ev: Evaluator, size: int) -> str:
    """The content address of the table of ``ev`` (ruleset and profile) for ``size``."""
    ruleset = ev.ruleset
    what = {
        "format": FORMAT,
        "engine": engine_version(),
        "ruleset": repr(ruleset),
        "rules": repr(sorted(ev.profile.rules_for(ruleset).items())),
        "readings": ev.profile.readings_for(ruleset),
        "size": size,
    }
    text = json.dumps(what, sort_keys=True, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()


def table_path(ev: Evaluator, size: int) -> Path:
    return cache_dir() / f"{ev.ruleset.id}-{size}-{table_digest(ev, size)[:32]}.npz"


def _checksum(arrays: dict[str, np.ndarray]) -> str:
    digest = hashlib.sha256()
    for name in sorted(arrays):
        a = np.ascontiguousarray(arrays[name])
        digest.update(f"{name}:{a.dtype.str}:{a.shape}".encode())
        digest.update(a.tobytes())
    return digest.hexdigest()


def _read(path: Path, digest: str) -> dict[str, np.ndarray] | None:
    """The arrays of a sound cache file written for ``digest``; None for anything else."""
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["__meta__"]))
            arrays = {k: data[k] for k in data.files if k != "__meta__"}
    except Exception:
        return None
    if not isinstance(meta, dict) or meta.get("digest") != digest \
            or meta.get("checksum") != _checksum(arrays):
        return None
    return arrays


def _write(path: Path, digest: str, arrays: dict[str, np.ndarray]) -> None:
    meta = json.dumps({"digest": digest, "checksum": _checksum(arrays),
                       "engine": engine_version()})
    buffer = io.BytesIO()
    np.savez(buffer, __meta__=np.array(meta), **arrays)   # type: ignore[arg-type]
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(buffer.getvalue())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load_or_build(ev: Evaluator, size: int, make: Callable[[Any], T]) -> T:
    """``make(arrays)`` from the cache file of this table if it is sound, else
    ``make(None)`` (which builds the table) saved for the next process.  ``make``'s
    result must have ``arrays`` (what is saved)."""
    digest = table_digest(ev, size)
    path = table_path(ev, size)
    arrays = _read(path, digest)
    if arrays is not None:
        return make(arrays)
    built = make(None)
    with contextlib.suppress(OSError):   # a read-only or full cache folder: go on without
        _write(path, digest, built.arrays)
    return built
