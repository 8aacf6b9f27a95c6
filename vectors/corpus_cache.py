"""The cache of loaded corpora: one file per corpus, keyed by everything its load reads.

:func:`pokercert.vectors.corpus.load_corpus` asks :func:`read` for the key of the
corpus it is about to load and, on a miss, gives what it loaded to :func:`write`.  The key
(:func:`cache_key`) covers the corpus digest (the one ``MANIFEST.json`` records,
recomputed from the files), ``MANIFEST.json`` itself, the vector schema, the rulesets
and interpretations, the code of the reference and of the loader, the paths problems are
shown with, and the Python version.  A file that cannot be read or was written for
another key is ignored (and replaced by the next write); writes are atomic (a temporary
file renamed over the final name), and a folder that cannot be written means no cache.
The folder: :func:`pokercert.reference.cache_dir.cache_folder` ``("corpus")``
(``$POKERCERT_CACHE_DIR/corpus`` if set, else the user's cache folder).
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
from pathlib import Path
from typing import Any

from pokercert.reference.cache_dir import CACHE_ENV
from pokercert.reference.cache_dir import cache_folder as _cache_folder
from pokercert.reference.errors import InputError
from pokercert.vectors import registry

__all__ = ["CACHE_ENV", "cache_file", "cache_folder", "cache_key", "read", "write"]

FORMAT = 1
KEEP = 16  # cache files kept (the newest); each is one corpus as loaded
MANIFEST_FILE = "MANIFEST.json"
_HERE = Path(__file__).resolve().parent


def cache_folder() -> Path:
    """Where loaded corpora are kept: ``$POKERCERT_CACHE_DIR/corpus`` if set, else the
    user's cache folder (``$XDG_CACHE_HOME`` or ``~/.cache``; ``%LOCALAPPDATA%`` on
    Windows, ``~/Library/Caches`` on macOS) ``/pokercert/corpus``."""
    return _cache_folder("corpus")


def _sources() -> list[Path]:
    """The files besides the corpus that loading reads or runs: the vector schema, the
    rulesets and interpretations, and the code of the reference and of the loader."""
    reference = Path(sys.modules[InputError.__module__].__file__ or "").resolve().parent
    return sorted(
        [
            *reference.rglob("*.py"),
            *reference.rglob("*.toml"),
            *(
                _HERE / name
                for name in (
                    "corpus.py",
                    "corpus_cache.py",
                    "deals.py",
                    "locations.py",
                    "model.py",
                    "registry.py",
                    "schema_messages.py",
                )
            ),
            _HERE / registry.SCHEMA_FILE,
        ]
    )


def cache_key(root: Path, corpus_digest: str, shown_as: str) -> str:
    """The key of the corpus under ``root`` whose files digest to ``corpus_digest``,
    its paths shown (in problems and locations) relative to ``shown_as``."""
    resolved = root.resolve()
    digest = hashlib.sha256()
    for part in (
        f"format {FORMAT}",
        sys.version,
        str(resolved),
        shown_as,
        os.getcwd() if Path.cwd().is_relative_to(resolved) else "",
        corpus_digest,
    ):
        digest.update(part.encode() + b"\0")
    for path in [root / MANIFEST_FILE, *_sources()]:
        try:
            digest.update(path.read_bytes())
        except OSError:
            digest.update(b"absent")
        digest.update(b"\0")
    return digest.hexdigest()


def cache_file(key: str) -> Path:
    return cache_folder() / f"{key[:32]}.pickle"


def read(key: str) -> Any:
    """What was written under ``key``; None if there is none, or the file is damaged, of
    another format, or written for another key (then the next write replaces it)."""
    try:
        data = cache_file(key).read_bytes()
    except OSError:
        return None
    try:
        stored_key, value = pickle.loads(data)  # our own file in the user's cache
    except Exception:  # a damaged or foreign file: anything unpickling can raise
        return None
    return value if stored_key == key else None


def write(key: str, value: Any) -> None:
    """Keep ``value`` under ``key`` (atomically: a reader sees a whole file or none);
    a cache folder that cannot be written just means no cache."""
    target = cache_file(key)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(
            "wb", dir=target.parent, suffix=".tmp", delete=False
        ) as out:
            try:
                pickle.dump((key, value), out, protocol=pickle.HIGHEST_PROTOCOL)
                out.close()
                os.replace(out.name, target)
            finally:
                Path(out.name).unlink(missing_ok=True)  # left only if replace failed
        old = sorted(target.parent.glob("*.pickle"), key=lambda p: p.stat().st_mtime)
        for stale in old[:-KEEP]:
            stale.unlink(missing_ok=True)
    except OSError:
        return
