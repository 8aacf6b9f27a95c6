"""Where pokercert keeps what it computes once and reuses: one folder per kind of file.

Light on purpose (only ``os``, ``sys`` and ``pathlib``): the corpus loader
(:mod:`pokercert.vectors.corpus_cache`) and the reference's class tables
(:mod:`pokercert.reference.table_cache`) both ask here, so both honour the same
``$POKERCERT_CACHE_DIR`` and the same per-platform default.

``cache_folder("tables")`` is ``$POKERCERT_CACHE_DIR/tables`` if that variable is set,
else the user's cache folder (``$XDG_CACHE_HOME`` or ``~/.cache``; ``%LOCALAPPDATA%`` on
Windows, ``~/Library/Caches`` on macOS) ``/pokercert/tables``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

__all__ = ["CACHE_ENV", "cache_folder", "cache_root"]

CACHE_ENV = "POKERCERT_CACHE_DIR"


def cache_root() -> Path:
    """The folder every pokercert cache lives under (see the module docstring)."""
    explicit = os.environ.get(CACHE_ENV)
    if explicit:
        return Path(explicit)
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "pokercert"


def cache_folder(kind: str) -> Path:
    """The folder of one kind of cached file (``corpus``, ``tables``)."""
    return cache_root() / kind
