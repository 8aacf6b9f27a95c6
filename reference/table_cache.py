"""The reference's class tables on disk, built once per ruleset, profile and engine version.

An exhaustive pass needs the reference's value of every hand of a ruleset
(:class:`pokercert.reference.batch.Table`).  Building one streams the whole space through
the engine's few thousand distinct values; every shard, every Dask worker and every
later run would pay for it again.  This module keeps each built table as one file:

* **content-addressed**: the file name is the SHA-256 of everything the table depends on:
  the ruleset's definition (its whole parsed record), the engine knobs and readings of
  the profile, the hand size, and the engine version (the package version and a digest
  of the engine's source files).  A change to any of them gives another name, so a stale
  table is never read; each file also records the engine version it was written for,
  and a writer removes the files of another engine version that nobody has rewritten
  for :data:`STALE_AFTER_S` (a week), so the folder does not grow with every upgrade;
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

import atexit
import contextlib
import hashlib
import io
import json
import os
import tempfile
import time
from collections.abc import Callable
from functools import cache
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, TypeVar

from pokercert.reference import collector
from pokercert.reference.cache_dir import CACHE_ENV, cache_folder

if TYPE_CHECKING:
    import numpy as np

    from pokercert.reference.interpretations import Profile
    from pokercert.reference.rulesets import Ruleset

__all__ = [
    "CACHE_ENV",
    "VALUE_CACHE_ENV",
    "cache_dir",
    "engine_version",
    "load_or_build",
    "prune_stale",
    "shared_values",
    "table_digest",
    "table_path",
    "values_digest",
    "values_path",
]

FORMAT = 2  # 2: each class key's length stored (a -1 digit is no padding)
# the sources whose behaviour a table records
_ENGINE_SOURCES = (
    "engine.py",
    "cards.py",
    "batch.py",
    "seven.py",
    "rulesets.py",
    "interpretations.py",
)


STALE_AFTER_S = 7 * 24 * 3600
"""A cache file written for another engine version and not rewritten for this many
seconds is removed by the next writer in its folder (a version still in use elsewhere
rebuilds its file once, at worst)."""


class _Keyed(Protocol):
    """What a table is keyed on: the evaluator's ruleset and profile (the engine's
    :class:`~pokercert.reference.engine.Evaluator` is one; the engine imports this
    module, so this module names only what it reads, not the engine)."""

    @property
    def ruleset(self) -> Ruleset: ...

    @property
    def profile(self) -> Profile: ...


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


def table_digest(ev: _Keyed, size: int) -> str:
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


def table_path(ev: _Keyed, size: int) -> Path:
    return cache_dir() / f"{ev.ruleset.id}-{size}-{table_digest(ev, size)[:32]}.npz"


def _checksum(arrays: dict[str, np.ndarray]) -> str:
    import numpy as np

    digest = hashlib.sha256()
    for name in sorted(arrays):
        a = np.ascontiguousarray(arrays[name])
        digest.update(f"{name}:{a.dtype.str}:{a.shape}".encode())
        digest.update(a.tobytes())
    return digest.hexdigest()


def _read(path: Path, digest: str) -> dict[str, np.ndarray] | None:
    """The arrays of a sound cache file written for ``digest``; None for anything else."""
    import numpy as np

    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["__meta__"]))
            arrays = {k: data[k] for k in data.files if k != "__meta__"}
    except Exception:
        return None
    if (
        not isinstance(meta, dict)
        or meta.get("digest") != digest
        or meta.get("checksum") != _checksum(arrays)
    ):
        return None
    return arrays


def _write(path: Path, digest: str, arrays: dict[str, np.ndarray]) -> None:
    import numpy as np

    meta = json.dumps({"digest": digest, "checksum": _checksum(arrays), "engine": engine_version()})
    buffer = io.BytesIO()
    np.savez(buffer, __meta__=np.array(meta), **arrays)  # type: ignore[arg-type]
    _replace(path, buffer.getvalue())


def _replace(path: Path, data: bytes) -> None:
    """Write ``data`` as ``path`` through a private temporary file renamed over it: a
    reader sees a whole file or none, and concurrent writers each leave a whole one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load_or_build(ev: _Keyed, size: int, make: Callable[[Any], T]) -> T:
    """``make(arrays)`` from the cache file of this table if it is sound, else
    ``make(None)`` (which builds the table) saved for the next process.  ``make``'s
    result must have ``arrays`` (what is saved)."""
    digest = table_digest(ev, size)
    path = table_path(ev, size)
    arrays = _read(path, digest)
    if arrays is not None:
        return make(arrays)
    built = make(None)
    with contextlib.suppress(OSError):  # a read-only or full cache folder: go on without
        _write(path, digest, built.arrays)
        prune_stale(path.parent, ".npz", _table_engine)
    return built


def _table_engine(path: Path) -> str | None:
    """The engine version a table file was written for (None: unreadable)."""
    import numpy as np

    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["__meta__"]))
        return str(meta["engine"])
    except Exception:
        return None


def _values_engine(path: Path) -> str | None:
    """The engine version a values file was written for (None: unreadable)."""
    try:
        with path.open("rb") as f:
            return str(json.loads(f.readline())["engine"])
    except Exception:
        return None


def prune_stale(folder: Path, suffix: str, engine_of: Callable[[Path], str | None]) -> list[Path]:
    """Remove the ``*suffix`` files of ``folder`` written for another engine version (by
    ``engine_of``; an unreadable file counts as another) and not rewritten for
    :data:`STALE_AFTER_S`; return the files removed.  Files of this engine version are
    kept however old: they are what this version reads.  Errors (a file another writer
    removed meanwhile, a read-only folder) are ignored: pruning is housekeeping."""
    current, now, removed = engine_version(), time.time(), []
    with contextlib.suppress(OSError):
        for path in sorted(folder.glob("*" + suffix)):
            with contextlib.suppress(OSError):
                if now - path.stat().st_mtime >= STALE_AFTER_S and engine_of(path) != current:
                    path.unlink()
                    removed.append(path)
    return removed


# ----------------------------------------------------------------------------- values
# The engine's memos of values (reference.engine: a class's category and key per set of
# valuation rules, a class's best key per half ranking and qualifier, a wild-card search
# per canonical hand) are pure functions of the engine's sources and the store's key.  A
# run meets tens of thousands of classes for the first time (about 0.4 s of CPU); each
# memo is kept on disk as one file and read back by the next process:
#
# * content-addressed like the tables: the name is the SHA-256 of the format, the
#   engine version (package version and a digest of the engine's sources, as above),
#   the kind of memo and the memo's key (the valuation rules' canonical text, with the
#   qualifier for a best-key memo), so a stale file (other sources, other rules) is
#   never read;
# * checked on load: the file's first line holds the digest it was written for and the
#   SHA-256 of the second line (the entries); a file written for another digest, with
#   entries that do not match their checksum or that do not decode to the memo's types
#   is ignored (and replaced at exit), never trusted;
# * written at the end of the process (atexit) by the process that grew it, and only what
#   it added: a file is a series of records, each a head line (the digest, the SHA-256 of
#   the next line, the engine version) and a line of entries; a process appends one
#   record of the entries it computed (one ``write`` of an ``O_APPEND`` file, so the
#   write costs what the process added, not what the folder holds).  A record that is
#   torn, spoilt or foreign is skipped when read (never trusted), and the next writer
#   then rewrites the file whole, as it does once it holds :data:`_RECORDS_KEPT`
#   records; a whole file is written through a private temporary file renamed over the
#   name (a reader sees a whole file or none), keeping the newest :data:`_VALUES_KEPT`
#   entries (fewer for a memo that keeps fewer).  A forked child that leaves by
#   ``os._exit`` (the challenge's dealer) writes nothing.
#
# JSON, not pickle: reading a file cannot run code.  ``POKERCERT_VALUE_CACHE=0`` turns
# the files off (the memos then start empty in every process, as before).
VALUES_FORMAT = 1
VALUE_CACHE_ENV = "POKERCERT_VALUE_CACHE"
_RECORDS_KEPT = 16  # records a file holds before its next writer rewrites it whole
_VALUES_KEPT = 1 << 17  # entries a whole file keeps (the newest; a memo has no more)


class _Kept(NamedTuple):
    """A memo of this process, kept to be written back at exit."""

    path: Path
    digest: str
    memo: dict[Any, Any]
    loaded: int  # entries read from the file: those after it are new
    whole: bool  # the file must be rewritten whole (absent, unsound, long)
    encode: Callable[[dict[Any, Any]], Any]
    kept: int  # entries a whole file keeps (the newest)


_KEPT: list[_Kept] = []


def values_digest(kind: str, key: str) -> str:
    """The content address of the memo ``kind`` (``classified``, ``best``, ``wild``,
    ``deals``) kept under ``key`` (its canonical text)."""
    what = {"format": VALUES_FORMAT, "engine": engine_version(), "kind": kind, "key": key}
    return hashlib.sha256(json.dumps(what, sort_keys=True).encode()).hexdigest()


def values_path(kind: str, key: str) -> Path:
    return cache_folder("values") / f"{kind}-{values_digest(kind, key)[:32]}.json"


def shared_values(
    kind: str,
    key: str,
    decode: Callable[[Any], dict[Any, Any]],
    encode: Callable[[dict[Any, Any]], Any],
    kept: int = _VALUES_KEPT,
) -> dict[Any, Any]:
    """The memo ``kind`` of ``key``: what the sound records of its file hold (``decode``
    of each one's entries; a record that fails to decode counts as none), else empty;
    kept for this process's exit, when what it added is written back (``encode``; a
    file written whole keeps the newest ``kept`` entries)."""
    if os.environ.get(VALUE_CACHE_ENV, "1") == "0":
        return {}
    path, digest = values_path(kind, key), values_digest(kind, key)
    memo: dict[Any, Any] = {}
    records = unsound = 0
    try:
        lines = path.read_bytes().split(b"\n")
    except OSError:
        lines = []
    i = 0
    while i < len(lines):
        if _record(memo, lines, i, digest, decode):
            records += 1
            i += 2
        else:  # a torn, spoilt or foreign line: skipped, never trusted
            unsound += 1
            i += 1
    if not _KEPT:
        atexit.register(_write_values)
    _KEPT.append(
        _Kept(
            path,
            digest,
            memo,
            len(memo),
            not records or unsound > 0 or records >= _RECORDS_KEPT,
            encode,
            kept,
        )
    )
    return memo


def _record(
    memo: dict[Any, Any],
    lines: list[bytes],
    at: int,
    digest: str,
    decode: Callable[[Any], dict[Any, Any]],
) -> bool:
    """Add to ``memo`` the entries of the record whose head is ``lines[at]`` if it is
    sound: a head of ``digest`` whose checksum is the next line's, entries that decode."""
    with contextlib.suppress(Exception):
        meta = json.loads(lines[at])
        if (
            at + 1 < len(lines)
            and meta["digest"] == digest
            and meta["checksum"] == hashlib.sha256(lines[at + 1]).hexdigest()
        ):
            # decoding builds tens of thousands of tuples of ints and strings (no cycles)
            with collector.paused():
                memo.update(decode(json.loads(lines[at + 1])))
            return True
    return False


def _write_values() -> None:
    """Write back what every memo of this process added since it was read: appended to
    its file as one record, or the whole memo (its newest entries, as many as the memo
    keeps) in a file written anew where the file must be (then prune the folder of other
    engine versions' stale files)."""
    written: Path | None = None
    for path, digest, memo, loaded, whole, encode, kept in _KEPT:
        if len(memo) <= loaded:
            continue
        with contextlib.suppress(OSError):  # a read-only or full cache folder
            if not whole:
                try:
                    _append(
                        path,
                        _values_record(digest, encode(dict(islice(memo.items(), loaded, None)))),
                    )
                    written = path.parent
                    continue
                except FileNotFoundError:  # removed meanwhile: written whole
                    pass
            newest = (
                memo if len(memo) <= kept else dict(islice(memo.items(), len(memo) - kept, None))
            )
            _replace(path, _values_record(digest, encode(newest)))
            written = path.parent
    if written is not None:
        prune_stale(written, ".json", _values_engine)


def _values_record(digest: str, entries: Any) -> bytes:
    """One record of a values file: its head line, then its entries' line."""
    body = json.dumps(entries, separators=(",", ":")).encode()
    head = json.dumps(
        {"digest": digest, "checksum": hashlib.sha256(body).hexdigest(), "engine": engine_version()}
    ).encode()
    return head + b"\n" + body


def _append(path: Path, record: bytes) -> None:
    """Append ``record`` to the file ``path`` (which must exist) after a line break, in
    one write: concurrent appenders each leave whole records, and a record torn by a
    crash is one unsound line that the next reader skips."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND)
    try:
        data = b"\n" + record
        if os.write(fd, data) != len(data):
            raise OSError("short write")
    finally:
        os.close(fd)
