"""Reading a batch reply of the one shape the harness expects of it, in one typed decode.

The exhaustive pass sends one request a hand: a ``compare`` of the hand and a member of
its class (expected a tie) and, where the adapter has no batch operation, a ``classify``.
Read the general way (the JSON parse into dicts, the check of every item, a
:class:`~.base.Reply` a request, then the answers taken out of them) such a reply cost
more than the rest of the harness's work on the hand.  Here the whole line is decoded
once against the one shape it has when nothing is wrong with it (msgspec's typed
decoder: the JSON parse and the type checks in one pass in C), and a check or two over
the decoded items says whether every request was answered, in order.

These are only shortcuts: an answer means the general reading would have found the same
(each item its request's id and the answer, nothing else); ``False`` or ``None`` says
nothing more, and the caller reads the line the general way, which says what is wrong
with it.  Every JSON text msgspec decodes here decodes to the same values with
:func:`json.loads` (duplicate keys: the last wins in both; what only :mod:`json`
accepts, ``NaN`` or integers past 64 bits, fails here and is read the general way).
"""

from __future__ import annotations

from operator import attrgetter
from typing import Literal

import msgspec


class _Tie(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    """A reply item holding a compare's answer of two winners and nothing else."""

    id: int
    winners: tuple[int, int]


class _TieBatch(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    """A batch reply (PROTOCOL.md, batches) of such items and nothing else."""

    type: Literal["batch"]
    id: int
    replies: list[_Tie]


class _Category(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    """A reply item holding a classify's answer and nothing else."""

    id: int
    category: str


class _CategoryBatch(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    """A batch reply of such items and nothing else."""

    type: Literal["batch"]
    id: int
    replies: list[_Category]


_ties = msgspec.json.Decoder(_TieBatch).decode
_categories = msgspec.json.Decoder(_CategoryBatch).decode
_id, _winners, _category = attrgetter("id"), attrgetter("winners"), attrgetter("category")
_TIES = {(0, 1), (1, 0)}


def all_tied(line: bytes, batch_id: int, ids: range) -> bool:
    """Whether ``line`` is the reply to batch ``batch_id`` answering the requests ``ids``
    item for item, in order, each with its id and ``winners`` [0, 1] or [1, 0] and no
    other field (integers, not booleans or floats).  False says nothing more: read the
    line the general way."""
    try:
        batch = _ties(line)
    except msgspec.DecodeError:  # (ValidationError is one)
        return False
    replies = batch.replies
    return (
        batch.id == batch_id
        and len(replies) == len(ids)
        and set(map(_winners, replies)) <= _TIES
        and list(map(_id, replies)) == list(ids)
    )


def categories(line: bytes, batch_id: int, ids: range) -> list[str] | None:
    """The categories of ``line``, if it is the reply to batch ``batch_id`` answering the
    requests ``ids`` item for item, in order, each with its id and a string
    ``category`` and no other field; else None (read the line the general way)."""
    try:
        batch = _categories(line)
    except msgspec.DecodeError:
        return None
    replies = batch.replies
    if batch.id != batch_id or len(replies) != len(ids) or list(map(_id, replies)) != list(ids):
        return None
    return list(map(_category, replies))
