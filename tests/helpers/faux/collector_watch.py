"""An evaluator that notes, on every call, whether Python's cyclic garbage collector is
on (in process).

    py:tests.helpers.faux.collector_watch:CollectorWatch

The textbook evaluator (``tests/helpers/textbook_eval.py``) answering as it does, each
``key`` call appending ``gc.isenabled()`` to :data:`SEEN`: what a test reads to see
whether the harness paused the collector while the vectors were scored.
"""

from __future__ import annotations

import gc

from pokercert.harness.api import EvaluatorInfo
from tests.helpers.textbook_eval import TextbookHigh

SEEN: list[bool] = []  # gc.isenabled() at each call, in order


class CollectorWatch(TextbookHigh):
    """TextbookHigh that records the collector's state at each valuation."""

    info = EvaluatorInfo(vendor="tests", name="collector-watch", version="1")

    def key(self, hand: list[str]) -> tuple[int, ...]:
        SEEN.append(gc.isenabled())
        return TextbookHigh.key(self, hand)
