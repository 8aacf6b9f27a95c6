"""The batch lines sent to an ``exec:`` adapter are ``json.dumps`` of the batch, byte for
byte (issue 28: the exhaustive pass writes its compare and classify lines from the hand
texts, without the JSON encoder; the wire must not change)."""

from __future__ import annotations

import json
import random
from itertools import combinations, islice
from typing import Any

import pytest

from pokercert.harness.adapters.base import Classifies, PairCompares
from pokercert.harness.adapters.batch_line import _ITEMS, _coded_line, _plain_line, batch_line
from pokercert.harness.protocol import batch_request
from pokercert.reference.classes import CODED_CARDS


def dumped(batch_id: int, ids: range, requests: list[dict]) -> bytes:
    """The protocol's line as the JSON library writes it (compact, no ASCII escapes)."""
    message = batch_request(batch_id, list(zip(ids, requests, strict=True)))
    return (json.dumps(message, separators=(",", ":"), ensure_ascii=False) + "\n").encode()


def hands(count: int, size: int = 5, seed: int = 7) -> list[str]:
    """``count`` hands of ``size`` cards over every card code (the joker's included)."""
    rng = random.Random(seed)
    return [" ".join(rng.sample(CODED_CARDS, size)) for _ in range(count)]


def test_every_card_code_needs_no_escape_and_is_written_as_json_writes_it():
    every = list(islice(combinations(CODED_CARDS, 5), 0, None, 997))
    requests = [{"op": "compare", "hands": [" ".join(h), " ".join(h[::-1])]} for h in every]
    ids = range(10**9 - 2500, 10**9 - 2500 + len(requests))
    assert {c for h in every for c in h} == set(CODED_CARDS)
    assert _plain_line(123456, ids, requests) is not None  # written from the texts
    assert batch_line(123456, ids, requests) == dumped(123456, ids, requests)


@pytest.mark.parametrize("size", [1, 2, 3, 5, 7])
def test_many_hands_of_compare_and_classify_are_the_dumped_line(size):
    texts = hands(4000, size)
    requests = [
        {"op": "compare", "hands": [a, b]} if i % 3 else {"op": "classify", "hand": a}
        for i, (a, b) in enumerate(zip(texts, reversed(texts), strict=True))
    ]
    for bid, first in [(0, 0), (1, 4000), (77, 123_456_789)]:
        ids = range(first, first + len(requests))
        assert batch_line(bid, ids, requests) == dumped(bid, ids, requests)


ODD = [
    'As "Ks',  # a quote
    "As \\Ks",  # a backslash
    "As\nKs",  # control characters
    "As\tKs\x00",
    "A♠ K♠",  # not ASCII: written as it is, never escaped
    "",
    "As  Ks ",
]


@pytest.mark.parametrize("text", ODD)
def test_a_text_json_escapes_or_an_odd_one_is_still_the_dumped_line(text):
    requests = [
        {"op": "compare", "hands": ["As Ks Qs Js Ts", text]},
        {"op": "classify", "hand": text},
        {"op": "compare", "hands": [text, text]},
    ]
    ids = range(5, 8)
    assert batch_line(3, ids, requests) == dumped(3, ids, requests)


@pytest.mark.parametrize(
    "request_",
    [
        {"hands": ["As Ks Qs Js Ts", "2c 3c 4c 5c 7d"], "op": "compare"},  # key order
        {"op": "compare", "hands": ["As Ks Qs Js Ts", "2c 3c 4c 5c 7d"], "board": "2h 3h 4h"},
        {"op": "compare", "hands": ["As Ks Qs Js Ts", "2c 3c 4c 5c 7d", "2d 3d 4d 5d 7s"]},
        {"op": "compare", "hands": ("As Ks Qs Js Ts", "2c 3c 4c 5c 7d")},
        {"op": "classify", "hand": ["As", "Ks"]},
        {"op": "evaluate_many", "hands": ["As Ks Qs Js Ts", "2c 3c 4c 5c 7d"]},
        {"op": "best_hand", "hole": "As Ks", "board": "Qs Js Ts 2c 3d"},
        {"op": "qualifies", "hand": "As Ks Qs Js Ts"},
    ],
)
def test_any_other_request_is_the_dumped_line(request_):
    requests = [{"op": "classify", "hand": "As Ks Qs Js Ts"}, request_]
    assert batch_line(9, range(2), requests) == dumped(9, range(2), requests)


@pytest.mark.parametrize("op", ["compare", "classify"])
def test_a_batch_of_one_operation_on_card_texts_is_written_from_its_texts(op):
    texts = hands(3000)
    requests = [
        {"op": "compare", "hands": [a, b]} if op == "compare" else {"op": "classify", "hand": a}
        for a, b in zip(texts, texts[1:] + texts[:1], strict=True)
    ]
    ids = range(40, 40 + len(requests))
    assert _plain_line(40, ids, requests) is not None
    assert batch_line(40, ids, requests) == dumped(40, ids, requests)


@pytest.mark.parametrize("size", [1, 5, 7])
def test_a_batch_of_pair_lists_is_the_dumped_line_of_its_dicts(size):
    texts = hands(3000, size)
    pairs = PairCompares(texts, texts[::-1])
    requests = [{"op": "compare", "hands": [a, b]} for a, b in zip(texts, texts[::-1], strict=True)]
    assert list(pairs) == requests and [pairs[k] for k in range(len(pairs))] == requests
    for bid, first in [(0, 0), (12, 10**9)]:
        ids = range(first, first + len(pairs))
        assert _plain_line(bid, ids, pairs) is not None  # written from the two lists
        assert batch_line(bid, ids, pairs) == dumped(bid, ids, requests)


@pytest.mark.parametrize("text", ODD)
def test_pair_lists_with_an_odd_text_go_through_the_encoder(text):
    pairs = PairCompares(["As Ks Qs Js Ts", text], [text, "2c 3d 4h 5s 7c"])
    ids = range(1, 3)
    assert batch_line(4, ids, pairs) == dumped(4, ids, list(pairs))


def test_pair_lists_of_two_lengths_are_refused_and_slices_stay_pair_lists():
    with pytest.raises(ValueError, match="3 first hands but 2 second hands"):
        PairCompares(["a", "b", "c"], ["d", "e"])
    pairs = PairCompares(["a", "b", "c"], ["d", "e", "f"])
    assert type(pairs[1:]) is PairCompares and list(pairs[1:]) == list(pairs)[1:]


@pytest.mark.parametrize("kind", ["compare", "classify"])
@pytest.mark.parametrize("size", [1, 3, 5, 7])
@pytest.mark.parametrize(
    ("first", "count"),
    [(0, 1), (0, 2500), (7, 20), (95, 10), (998, 1005), (999_000, 4096), (10**9 - 3, 6)],
)
def test_a_batch_of_coded_hands_is_the_dumped_line_of_its_dicts(kind, size, first, count):
    """Pairs to compare, or hands to classify, held as card codes are written by numpy;
    the line is the dumped one across every width of id (a run of ids crossing 10**k
    changes the items' width mid-line)."""
    import numpy as np

    rng = np.random.default_rng(first + count + size)
    codes = [rng.integers(0, len(CODED_CARDS), (count, size)) for _ in range(2)]
    texts = [[" ".join(CODED_CARDS[c] for c in row) for row in side.tolist()] for side in codes]
    if kind == "compare":
        batch: Any = PairCompares.of_codes(*codes)
        requests = [{"op": "compare", "hands": [a, b]} for a, b in zip(*texts, strict=True)]
    else:
        batch, codes = Classifies.of_codes(codes[0]), codes[:1]
        requests = [{"op": "classify", "hand": t} for t in texts[0]]
    assert list(batch) == requests  # (its texts, made when read, are the codes' cards)
    ids = range(first, first + count)
    assert _coded_line(31, ids, _ITEMS[type(batch)], tuple(codes)) == dumped(31, ids, requests)
    assert batch_line(31, ids, type(batch).of_codes(*codes)) == dumped(31, ids, requests)
    assert type(batch[1:]) is type(batch) and list(batch[1:]) == requests[1:]
