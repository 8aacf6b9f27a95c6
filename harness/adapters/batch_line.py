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
from functools import cache
from operator import itemgetter
from typing import Any

from pokercert.harness.adapters.base import Classifies, HandRequests, PairCompares
from pokercert.harness.protocol import batch_request
from pokercert.reference.classes import CODED_CARDS

_encode = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False).encode
_op, _hands, _hand = itemgetter("op"), itemgetter("hands"), itemgetter("hand")
_STR, _DICT, _LIST, _OP, _TWO = {str}, {dict}, {list}, {"op"}, {2}


def batch_line(batch_id: int, ids: range, requests: Sequence[Mapping[str, Any]]) -> bytes:
    """The line (newline included, UTF-8) of batch ``batch_id``: ``requests`` with the
    request ids ``ids``, as the protocol's encoder writes it."""
    if isinstance(requests, HandRequests) and requests.codes is not None:
        item = _ITEMS.get(type(requests))
        coded = None if item is None else _coded_line(batch_id, ids, item, requests.codes)
        if coded is not None:
            return coded
    line = _plain_line(batch_id, ids, requests)
    if line is None:
        line = _encode(batch_request(batch_id, list(zip(ids, requests, strict=True))))
    return (line + "\n").encode()


# an item's bytes around its id and its hands' texts, by the type of batch
_ITEMS: dict[type[HandRequests], tuple[bytes, ...]] = {
    PairCompares: (b'{"id":', b',"op":"compare","hands":["', b'","', b'"]}'),
    Classifies: (b'{"id":', b',"op":"classify","hand":"', b'"}'),
}


def _coded_line(
    batch_id: int, ids: range, item: tuple[bytes, ...], columns: tuple[Any, ...]
) -> bytes | None:
    """The line of a batch of requests of hands held as card codes, written by numpy:
    every item of one width of id is the same bytes (``item``: before the id, then
    before, between and after the hands) but for the id's digits and the cards, so the
    items are rows of one byte array, filled a few columns at a time, and the line is
    that array's bytes.  None for ids that are not consecutive from 0 up (the
    protocol's ids are; the text path writes others)."""
    import numpy as np

    if type(batch_id) is not int or ids.step != 1 or ids.start < 0:
        return None
    if not len(ids) or len(ids) != len(columns[0]):
        return None
    texts = [_spelt(hands) for hands in columns]
    width = texts[0].shape[1]
    head, tail = b'{"type":"batch","id":%d,"requests":[' % batch_id, b"]}\n"
    # the items whose ids have as many digits as each other: (start, stop, digits)
    runs = []
    start = ids.start
    while start < ids.stop:
        digits = len(str(start))
        runs.append((start, min(ids.stop, 10**digits), digits))
        start = runs[-1][1]
    fixed = sum(map(len, item)) + len(texts) * width + 1  # an item and its comma, but the id
    size = sum((b - a) * (fixed + d) for a, b, d in runs)
    # the last item's comma is where the tail begins
    line = np.empty(len(head) + size + len(tail), dtype=np.uint8)
    line[: len(head)] = np.frombuffer(head, dtype=np.uint8)
    at = len(head)
    for a, b, digits in runs:
        blank = item[0] + b"0" * digits + item[1]
        blank += b"".join(b" " * width + piece for piece in item[2:]) + b","
        rows = line[at : at + (b - a) * len(blank)].reshape(b - a, len(blank))
        rows[:] = np.frombuffer(blank, dtype=np.uint8)
        column = len(item[0])
        rows[:, column : column + digits] = _spelt_numbers(a, b, digits)
        column += digits + len(item[1])
        for text, piece in zip(texts, item[2:], strict=True):
            rows[:, column : column + width] = text[a - ids.start : b - ids.start]
            column += width + len(piece)
        at += (b - a) * len(blank)
    line[at - 1 : at - 1 + len(tail)] = np.frombuffer(tail, dtype=np.uint8)
    return line[: at - 1 + len(tail)].tobytes()


def _spelt(hands: Any) -> Any:
    """(hands, 3 * cards - 1) bytes: each hand's text, its card codes apart by spaces."""
    import numpy as np

    return _code_bytes().take(hands).view(np.uint8).reshape(len(hands), -1)[:, :-1]


def _spelt_numbers(start: int, stop: int, digits: int) -> Any:
    """(stop - start, digits) bytes: the decimal digits of each of start..stop - 1, all
    of ``digits`` digits, three at a time from a table of 000 to 999: the last three
    cycle through the table, each group above repeats its value for a run of ids."""
    import numpy as np

    groups = -(-digits // 3)
    count = stop - start
    spelt = np.empty((count, groups), dtype="S3")
    table = _thousand()
    spelt[:, groups - 1] = np.resize(np.roll(table, -(start % 1000)), count)
    for g in range(1, groups):
        unit = 1000**g
        values = np.arange(start // unit, (stop - 1) // unit + 1, dtype=np.int64)
        runs = np.full(len(values), unit, dtype=np.int64)
        runs[0] = unit - start % unit
        runs[-1] = (stop - 1) % unit + 1 if len(values) > 1 else count
        spelt[:, groups - 1 - g] = np.repeat(table.take(values % 1000), runs)
    return spelt.view(np.uint8).reshape(count, 3 * groups)[:, 3 * groups - digits :]


@cache
def _thousand() -> Any:
    """The numbers 000 to 999, three digits each (numpy ``S3``)."""
    import numpy as np

    return np.array([b"%03d" % k for k in range(1000)], dtype="S3")


@cache
def _code_bytes() -> Any:
    """Each card code and a space (numpy ``S3``; made on first use).  Every code is two
    printable ASCII characters other than a quote or a backslash: written as they are,
    as the JSON encoder writes them."""
    import numpy as np

    for code in CODED_CARDS:
        assert len(code) == 2 and code.isascii() and code.isprintable(), code
        assert '"' not in code and "\\" not in code, code
    return np.array([f"{code} ".encode() for code in CODED_CARDS], dtype="S3")


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
