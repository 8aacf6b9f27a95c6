"""A vendor hands the lab a run folder it wrote itself (the trust model: every evaluator
is adversarial, and so is its run folder).  Every one of these folders was once read
with a traceback, read forever, or shown as if it were something else; each must be
refused with a message naming the file (and line), by the report and by the site alike.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from pokercert.harness.run.results import Outcome
from pokercert.reports.canonical import ReportError
from pokercert.reports.model import build_report
from tests.helpers.reports_fixtures import H5, r, rehash, write_run

FAILED = r("h5-wheel-001", H5, "classify", Outcome.FAIL, {"hand": "5d 4c 3h 2s Ad"},
           {"category": "straight"}, {"category": "high_card"}, ("13:69F-14.3(b)6",),
           ("wheel",), "A-2-3-4-5 is the lowest straight.")


def _edited(folder: Path, **fields: object) -> Path:
    """A run folder of one failed vector whose result line holds ``fields`` instead, its
    hash in run.json made to match (as a vendor rewriting both files would)."""
    write_run(folder, [FAILED])
    path = folder / "results.jsonl"
    line = json.loads(path.read_text(encoding="utf-8"))
    line.update(fields)
    path.write_text(json.dumps(line) + "\n", encoding="utf-8")
    rehash(folder)
    return folder


# each field of a result line, holding a JSON value of another type than the harness
# writes (the answers and inputs are objects, the words strings, the tags lists of strings)
WRONG_TYPES = [
    ("expected", [1, 2]), ("expected", "straight"), ("actual", ["high_card"]),
    ("actual", "high_card"), ("inputs", ["5d 4c 3h 2s Ad"]), ("readings", ["practice"]),
    ("message", 5), ("stderr", ["boom"]), ("why", {"a": 1}), ("clauses", "13:69F-14.3(b)6"),
    ("flags", [1]), ("origin", 7), ("vector_id", None), ("ruleset", ["nj"]),
]


@pytest.mark.parametrize("name,value", WRONG_TYPES, ids=[f"{n}-{type(v).__name__}"
                                                          for n, v in WRONG_TYPES])
def test_a_result_field_of_another_type_is_refused_naming_the_line(tmp_path, name, value):
    folder = _edited(tmp_path / "run", **{name: value})
    with pytest.raises(ReportError, match=r"results\.jsonl:1: .*" + name):
        build_report(folder)
