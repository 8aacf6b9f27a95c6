"""Reading the reply to a batch of compares the harness expects all answered a tie.

The exhaustive pass without keys sets each hand against a member of its own class: one
``compare`` a hand, nearly every one answered a tie.  Read the general way (the JSON
parse into dicts, the check of every item, a :class:`~.base.Reply` a request, then the
check that every answer is a tie) that reply cost about 0.7 µs a hand, more than the
rest of the harness's work on the hand.  Here the whole line is decoded once against
the one shape such a reply has when nothing is wrong with it (msgspec's typed decoder:
the JSON parse and the type checks in one pass in C), and two checks over the decoded
items say whether every request was answered a tie, in order.

It is only a shortcut: ``True`` means the general reading would have found the same
(each item its request's id and a tie, nothing else); on ``False`` the caller reads the
line the general way, which says what is wrong with it or which answers are not ties.
Every JSON text msgspec decodes here decodes to the same values with :func:`json.loads`
(duplicate keys: the last wins in both; what only :mod:`json` accepts, ``NaN`` or
integers past 64 bits, fails here and is read the general way).
"""

from __future__ import annotations

from operator import attrgetter
from typing import Literal

import msgspec


class _Tie(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    """A reply item holding a compare's answer and nothing else."""

    id: int
    winners: tuple[int, int]


class _TieBatch(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    """A batch reply (PROTOCOL.md, batches) of such items and nothing else."""

    type: Literal["batch"]
    id: int
    replies: list[_Tie]


_decode = msgspec.json.Decoder(_TieBatch).decode
_id, _winners = attrgetter("id"), attrgetter("winners")
_TIES = {(0, 1), (1, 0)}


def all_tied(line: bytes, batch_id: int, ids: range) -> bool:
    """Whether ``line`` is the reply to batch ``batch_id`` answering the requests ``ids``
    item for item, in order, each with its id and ``winners`` [0, 1] or [1, 0] and no
    other field (integers, not booleans or floats).  False says nothing more: read the
    line the general way."""
    try:
        batch = _decode(line)
    except msgspec.DecodeError:  # (ValidationError is one)
        return False
    replies = batch.replies
    return (
        batch.id == batch_id
        and len(replies) == len(ids)
        and set(map(_winners, replies)) <= _TIES
        and list(map(_id, replies)) == list(ids)
    )
