"""A whole batch of compare (or classify) answers taken at once by the ``exec:`` adapter
(issue 28) decides each item as the full check does: one odd item among good ones, or
items out of order, send the batch through the item-by-item checks."""

from __future__ import annotations

import pytest

from pokercert.harness.adapters import load_adapter
from pokercert.harness.adapters.base import ERROR
from tests.harness.test_harness_protocol import ITEMS
from tests.harness.test_process_fast_replies import MORE

COMPARE = {"op": "compare", "hands": ["As Ks Qs Js Ts", "2c 3c 4c 5c 7d"]}
ODD = [item for op, item in ITEMS + MORE if op == "compare"] + [
    {"id": 1, "winners": [0, 1], "extra": 1},
    {"id": True, "winners": [0]},
    {"id": 1.0, "winners": [0]},
    {"winners": [0]},
    [0, 1],
]


def full(adapter, requests, ids, items):
    return [adapter._item(r, i, item, 0.5) for r, i, item in zip(requests, ids, items, strict=True)]


@pytest.mark.parametrize("odd", ODD)
@pytest.mark.parametrize("at", [0, 3, 5])
def test_one_odd_item_in_a_batch_is_checked_as_alone(odd, at):
    adapter = load_adapter("exec:true")  # never started: only its reply checks are used
    ids = range(10, 16)
    requests = [COMPARE] * 6
    items = [{"id": i, "winners": [0, 1] if i % 2 else [1]} for i in ids]
    items[at] = {**odd, "id": ids[at]} if isinstance(odd, dict) and odd.get("id") == 1 else odd
    got = adapter._match(requests, ids, items, 0.5)
    good = [k for k in range(6) if k != at]
    assert [got[k] for k in good] == [adapter._item(COMPARE, ids[k], items[k], 0.5) for k in good]
    alone = adapter._match([COMPARE], range(ids[at], ids[at] + 1), [items[at]], 0.5)[0]
    assert got[at].status == alone.status
    if isinstance(odd, dict) and odd.get("id") == 1:
        assert got[at] == adapter._item(COMPARE, ids[at], items[at], 0.5)


def test_a_batch_of_good_answers_is_the_full_checks():
    adapter = load_adapter("exec:true")
    ids = range(100, 400)
    requests = [COMPARE] * 300
    items = [{"id": i, "winners": [[0], [1], [0, 1]][i % 3]} for i in ids]
    assert adapter._match(requests, ids, items, 0.5) == full(adapter, requests, ids, items)


def test_answers_out_of_order_or_of_another_op_are_matched_by_id():
    adapter = load_adapter("exec:true")
    ids = range(1, 5)
    items = [{"id": i, "winners": [0]} for i in reversed(ids)]
    got = adapter._match([COMPARE] * 4, ids, items, 0.5)
    assert [r.data for r in got] == [{"id": i, "winners": [0]} for i in ids]
    classify = {"op": "classify", "hand": "As Ks Qs Js Ts"}
    items = [{"id": i, "winners": [0]} for i in ids]
    got = adapter._match([classify] * 4, ids, items, 0.5)
    assert [r.status for r in got] == [ERROR] * 4


CLASSIFY = {"op": "classify", "hand": "As Ks Qs Js Ts"}
ODD_CLASSIFY = [item for op, item in ITEMS if op == "classify"] + [
    {"id": 1, "category": "flush", "extra": 1},
    {"id": 1, "category": ["flush"]},
    {"id": 1, "winners": [0]},
    {"id": True, "category": "flush"},
]


@pytest.mark.parametrize("odd", ODD_CLASSIFY)
@pytest.mark.parametrize("at", [0, 5])
def test_one_odd_classify_answer_in_a_batch_is_checked_as_alone(odd, at):
    adapter = load_adapter("exec:true")
    ids = range(10, 16)
    requests = [CLASSIFY] * 6
    items = [{"id": i, "category": "royal_flush"} for i in ids]
    items[at] = {**odd, "id": ids[at]} if odd.get("id") == 1 else odd
    got = adapter._match(requests, ids, items, 0.5)
    good = [k for k in range(6) if k != at]
    assert [got[k] for k in good] == [adapter._item(CLASSIFY, ids[k], items[k], 0.5) for k in good]
    alone = adapter._match([CLASSIFY], range(ids[at], ids[at] + 1), [items[at]], 0.5)[0]
    assert got[at].status == alone.status
    if odd.get("id") == 1:
        assert got[at] == adapter._item(CLASSIFY, ids[at], items[at], 0.5)


def test_a_batch_of_good_classify_answers_is_the_full_checks():
    adapter = load_adapter("exec:true")
    ids = range(7, 207)
    items = [{"id": i, "category": ["flush", "straight"][i % 2]} for i in ids]
    got = adapter._match([CLASSIFY] * 200, ids, items, 0.5)
    assert got == full(adapter, [CLASSIFY] * 200, ids, items)
