"""A faux evaluator that passes the curated corpus and hangs on anything else (issue 13).

    py:tests.helpers.faux.hangs_off_corpus:HangsOffCorpus

The corpus-lookup evaluator (``corpus_lookup.py``): every input the installed corpus holds
is answered with its stored expectation; any other input (what fuzzing, the exhaustive
check or the challenge deal) makes it loop forever, catching ``BaseException``, so the
harness's per-request timeout is swallowed too.  Run ``--in-process --no-challenge``, it
passes every vector and hangs only once the attached modes begin: the watchdog must end
that run with the reason, not leave it hanging.
"""

from __future__ import annotations

import contextlib
import time
from typing import Any, NoReturn

from pokercert.harness.api import EvaluatorInfo
from tests.helpers.faux.corpus_lookup import CorpusLookup


class HangsOffCorpus(CorpusLookup):
    info = EvaluatorInfo(vendor="faux", name="hangs-off-corpus", version="1", build="")

    def unknown(self, op: str, inputs: dict[str, Any]) -> NoReturn:
        while True:  # hostile on purpose: the harness's timeout is swallowed too
            with contextlib.suppress(BaseException):
                time.sleep(0.05)
