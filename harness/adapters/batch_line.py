"""A batch request as the JSON line sent to an ``exec:`` adapter (PROTOCOL.md, batches).

The line is ``json.dumps`` of :func:`~pokercert.harness.protocol.batch_request` (compact
separators, no ASCII escaping), byte for byte.  The exhaustive pass sends one
``compare`` (or ``classify``) request per hand, and encoding each request's dict cost
more than the adapter's own work on it; so a batch made only of such requests, their
hand texts needing no JSON escape (card codes never do), is written from its texts
directly, and any other batch through the JSON encoder.  A text is written as it is
only if it is printable ASCII without a quote or a backslash (nothing the encoder
escapes).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from operator import itemgetter
from typing import Any

from pokercert.harness.adapters.base import PairCompares
from pokercert.harness.protocol import batch_request

_encode = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False).encode
_op, _hands, _hand = itemgetter("op"), itemgetter("hands"), itemgetter("hand")
_STR, _DICT, _LIST, _OP, _TWO = {str}, {dict}, {list}, {"op"}, {2}


def batch_line(batch_id: int, ids: range, requests: Sequence[Mapping[str, Any]]) -> bytes:
    """The line (newline included, UTF-8) of batch ``batch_id``: ``requests`` with the
    request ids ``ids``, as the protocol's encoder writes it."""
    line = _plain_line(batch_id, ids, requests)
    if line is None:
        line = _encode(batch_request(batch_id, list(zip(ids, requests, strict=True))))
    return (line + "\n").encode()


def _plain_line(batch_id: int, ids: range, requests: Sequence[Mapping[str, Any]]) -> str | None:
    """The line of a batch of ``compare`` requests of two hands, or of ``classify``
    requests (exactly those keys, ``op`` first), made from their texts; None for any other
    batch, or texts the JSON encoder would escape or that are not ASCII.  Each check runs
    over the whole batch at once (a loop in C): a Python loop over the requests to check
    them cost as much as the JSON encoder."""
    if type(batch_id) is not int or type(ids) is not range or len(ids) != len(requests):
        return None
    if not requests:
        return None
    if type(requests) is PairCompares:  # the two hand lists, no dict to look into
        return _checked_line(
            batch_id,
            [*requests.first, *requests.second],
            [
                f'{{"id":{r},"op":"compare","hands":["{a}","{b}"]}}'
                for r, a, b in zip(ids, requests.first, requests.second, strict=True)
            ],
        )
    if set(map(type, requests)) != _DICT or set(map(len, requests)) != _TWO:
        return None
    ops = set(map(_op, requests)) if set(map(next, map(iter, requests))) == _OP else None
    try:
        if ops == {"compare"}:
            hands = list(map(_hands, requests))
            if set(map(type, hands)) != _LIST or set(map(len, hands)) != _TWO:
                return None
            first, second = zip(*hands, strict=True)
            texts = [*first, *second]
            items = [
                f'{{"id":{r},"op":"compare","hands":["{a}","{b}"]}}'
                for r, a, b in zip(ids, first, second, strict=True)
            ]
        elif ops == {"classify"}:
            texts = list(map(_hand, requests))
            items = [
                f'{{"id":{r},"op":"classify","hand":"{t}"}}'
                for r, t in zip(ids, texts, strict=True)
            ]
        else:  # mixed, or other operations
            return None
    except KeyError:  # the other key is not the op's
        return None
    if set(map(type, ops)) != _STR:
        return None
    return _checked_line(batch_id, texts, items)


def _checked_line(batch_id: int, texts: list[Any], items: list[str]) -> str | None:
    """The batch line of ``items``, if every hand text in them is a ``str`` the JSON
    encoder would write as it is; else None."""
    if set(map(type, texts)) != _STR:
        return None
    joined = "".join(texts)
    # printable ASCII without a quote or a backslash: nothing the JSON encoder escapes
    if '"' in joined or "\\" in joined or not (joined.isascii() and joined.isprintable()):
        return None
    return f'{{"type":"batch","id":{batch_id},"requests":[{",".join(items)}]}}'
