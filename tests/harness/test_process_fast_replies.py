"""The ``exec:`` adapter's fast reply check decides as the full one (issue 28).

A batch of well-formed classify or compare answers in request order is taken without the
full item check (the exhaustive pass sends one compare per hand); every item, well formed
or not, must come out as the full check (``check_item`` and the outcome fields) makes it.
"""

from __future__ import annotations

import pytest

from pokercert.harness.adapters import load_adapter
from tests.harness.test_harness_protocol import ITEMS

REQUESTS = {
    "classify": {"op": "classify", "hand": "As Ks Qs Js Ts"},
    "compare": {"op": "compare", "hands": ["As Ks Qs Js Ts", "2c 3c 4c 5c 7d"]},
}
MORE = [
    ("compare", {"id": 1, "winners": [1, 0]}),
    ("compare", {"id": 1, "winners": []}),
    ("compare", {"id": 1, "winners": [0, 1.0]}),
    ("compare", {"id": 1, "winners": (0, 1)}),
    ("compare", {"id": 1, "error": "boom"}),
    ("compare", {"id": 1, "rejected": "bad-card"}),
]


@pytest.mark.parametrize("op, item", [(o, i) for o, i in ITEMS if o in REQUESTS] + MORE)
def test_a_reply_taken_fast_is_the_full_checks(op, item):
    adapter = load_adapter("exec:true")  # never started: only its reply checks are used
    request = REQUESTS[op]
    fast = adapter._match([request], range(1, 2), [item], 0.5)
    assert fast == [adapter._item(request, 1, item, 0.5)]
