"""The committed example reports (reports/examples/) are genuine and current.

Each JSON report must be canonical, match its digest and follow the published schema;
each view must be exactly what today's renderers make of that JSON.  After changing a
renderer, re-render the views with ``pokercert report reports/examples/NAME/report.json
--out reports/examples/NAME``; after a corpus change, run ``reports/examples/regenerate.sh``.
(The corpus check is left out: the examples record the corpus they were run with.)
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pokercert.reports.output import render
from pokercert.reports.verify import OK, VIEW_FORMATS, verify_bytes

EXAMPLES = Path(__file__).resolve().parents[2] / "reports" / "examples"
RUNS = (
    sorted(p.name for p in EXAMPLES.iterdir() if (p / "report.json").is_file())
    if EXAMPLES.is_dir()
    else []
)


def test_examples_exist_for_the_reference_and_pokerkit():
    assert RUNS == ["pokerkit", "reference"]


@pytest.mark.parametrize("name", RUNS)
def test_example_is_genuine_and_current(name):
    folder = EXAMPLES / name
    report, checks = verify_bytes((folder / "report.json").read_bytes())
    assert [c.status for c in checks] == [OK, OK, OK, OK], checks  # + consistent
    for view in ("report.md", "report.html", "report.junit.xml"):
        fmt = VIEW_FORMATS[Path(view).suffix]
        assert (folder / view).read_bytes() == render(report, fmt), (
            f"{folder / view} is stale: re-render it (see this module's docstring)"
        )


def test_the_examples_show_both_verdicts():
    import json

    verdicts = {n: json.loads((EXAMPLES / n / "report.json").read_text())["verdict"] for n in RUNS}
    assert verdicts == {"reference": "CERTIFIED", "pokerkit": "NOT CERTIFIED"}
