"""A faux Python evaluator that watches when the harness measures it (issue 13).

    py:tests.helpers.faux.measured_first:WatchesTheMeasure     (with --in-process)

The harness measures the software under test in a background thread that overlaps the
corpus load and the plan (:class:`pokercert.harness.identity.MeasureAhead`); the trust
model says that measurement is complete before any vendor code runs.  This module is
vendor code that checks it: at import time, when built and when first configured it notes whether a
measurement thread (named ``pokercert-measure``) is still running (:data:`SEEN`), and at
import time it appends a line to the file named by ``$POKERCERT_FAUX_REWRITE`` (a file
the lab lists with ``--identity-file``): measured before the import, the run sees the
file change and ends; measured after it, the change would pass unseen.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from pokercert.harness.api import EvaluatorInfo
from pokercert.harness.peers.reference import ReferenceEvaluator

#: ``(when, measurement threads alive)``, in the order seen
SEEN: list[tuple[str, list[str]]] = []


def _measuring() -> list[str]:
    return [t.name for t in threading.enumerate() if t.name == "pokercert-measure"]


SEEN.append(("import", _measuring()))
if os.environ.get("POKERCERT_FAUX_REWRITE"):
    with Path(os.environ["POKERCERT_FAUX_REWRITE"]).open("a", encoding="utf-8") as fh:
        fh.write("rewritten at import\n")


class WatchesTheMeasure(ReferenceEvaluator):
    """The reference, noting when built and first configured whether a measurement runs."""

    def __init__(self) -> None:
        super().__init__()
        self.info = EvaluatorInfo("faux", "WatchesTheMeasure", "0", "test")
        SEEN.append(("init", _measuring()))

    def configure(self, ruleset: str, readings: dict[str, str]) -> None:
        if len(SEEN) < 3:
            SEEN.append(("configure", _measuring()))
        super().configure(ruleset, readings)
