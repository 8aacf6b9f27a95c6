"""A batch of pair compares sent to an ``exec:`` adapter is checked reply by reply as the
same batch of request dicts is (issue 28: ``PairCompares`` skips building the dicts; it
must not skip a check).  The adapter here is hostile: one crafted item per request."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pokercert.harness.adapters import ANSWERED
from pokercert.harness.adapters.base import PairCompares
from tests.helpers.crafted_adapter import crafted_adapter

# each request's reply item by its position in the batch (JSON text after the id)
CRAFTED = [
    '"winners": [0, 1]',  # a tie: the only good one
    '"winners": [0, true]',  # a bool is not an index
    '"winners": [0, 1.0]',
    '"winners": [0, 1], "extra": 1',  # a field the protocol does not define: ignored
    '"winners": "01"',
    '"winners": [0, 1, 2]',  # no third hand: well formed, scored wrong against [0, 1]
    '"error": "boom"',
    '"rejected": "bad-card"',
]


@pytest.fixture
def adapter(tmp_path: Path):
    with crafted_adapter(tmp_path, CRAFTED) as a:
        a.start()
        a.configure("nj-poker-high-5", {})
        yield a


def test_each_crafted_reply_to_a_pair_batch_is_judged_as_in_a_dict_batch(adapter):
    first = ["As Ks Qs Js Ts"] * len(CRAFTED)
    second = ["Ah Kh Qh Jh Th"] * len(CRAFTED)
    pairs = adapter.run_batch(PairCompares(first, second))
    dicts = adapter.run_batch(list(PairCompares(first, second)))

    def seen(reply):  # (the messages name each batch's own request ids)
        return reply.status, dict(reply.data).get("winners"), re.sub(r"\d+", "N", reply.message)

    assert [seen(r) for r in pairs] == [seen(r) for r in dicts]
    # answered: the ties (an undefined field is ignored: PROTOCOL.md section 6) and the
    # well-formed wrong answer; every malformed item is an error, the refusal a refusal
    answered = [r.status == ANSWERED for r in pairs]
    assert answered == [True, False, False, True, False, True, False, False]
