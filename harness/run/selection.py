"""Shards and selection digests (filtering by ruleset and flag is ``Corpus.select``).

Shards split the *filtered* selection, in corpus order, by position modulo N: shard K
takes positions K-1, K-1+N, ... so every shard gets the same mix of rulesets and kinds,
and the N shards of one selection partition it exactly (``pokercert merge`` checks that).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from typing import TypeVar

from pokercert.reference.errors import InputError

T = TypeVar("T")

_SHARD = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")


class SelectionError(InputError, ValueError):
    """A malformed shard."""


def parse_shard(text: str) -> tuple[int, int]:
    """``"K/N"`` -> (K, N) with 1 <= K <= N."""
    m = _SHARD.match(text)
    if not m:
        raise SelectionError(f"shard {text!r}: expected K/N, e.g. 2/4")
    k, n = int(m.group(1)), int(m.group(2))
    if not 1 <= k <= n:
        raise SelectionError(f"shard {text!r}: K must be between 1 and N")
    return k, n


def shard(vectors: Sequence[T], k: int, n: int) -> list[T]:
    """Shard ``k`` of ``n`` (1-based) of an already filtered selection."""
    return list(vectors[k - 1 :: n])


def ids_digest(ids: Iterable[str]) -> str:
    """SHA-256 of the sorted vector ids, one per line: names a selection exactly."""
    h = hashlib.sha256()
    for vid in sorted(ids):
        h.update(vid.encode("utf-8") + b"\n")
    return h.hexdigest()
