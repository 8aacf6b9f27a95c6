"""An evaluator whose process dies once, mid-run (in process, for Dask worker tests).

    py:tests.helpers.faux.dies_once:DiesOnce

The kicker-order evaluator (``kicker_order.py``), except that the first time any process
meets a hand holding the three aces As Ah Ad, it leaves a mark in the file named by
``$POKERCERT_FAUX_DIE_MARK`` and ends its own process at once (``os._exit``), as a
worker machine lost mid-task would; every later time (the mark exists) it answers.
With ``$POKERCERT_FAUX_DIE_FOR_GOOD`` set, asked the category of that hand it ends its
process every time (a worker lost for good on the range of that hand: only a range's
own hands are classified, never the class representatives whose keys every range asks).
"""

from __future__ import annotations

import os
from pathlib import Path

from pokercert.harness.api import EvaluatorInfo
from tests.helpers.faux.kicker_order import KickerOrder

TRIGGER = frozenset({"As", "Ah", "Ad"})


class DiesOnce(KickerOrder):
    info = EvaluatorInfo(vendor="tests", name="dies-once", version="1")

    def key(self, hand: list[str]) -> tuple[int, ...]:
        if set(hand) >= TRIGGER:
            mark = Path(os.environ["POKERCERT_FAUX_DIE_MARK"])
            try:
                with mark.open("x") as f:
                    f.write(f"{os.getpid()}\n")
            except FileExistsError:
                pass
            else:
                os._exit(17)
        return KickerOrder.key(self, hand)

    def classify(self, hand: list[str]) -> str:
        if set(hand) >= TRIGGER and os.environ.get("POKERCERT_FAUX_DIE_FOR_GOOD"):
            os._exit(17)
        return KickerOrder.classify(self, hand)
