"""The JUnit view is written as text (reports/render_junit.py), in exactly the form
ElementTree writes the tree it denotes: reading it back with ElementTree and writing that
tree again gives the same text, byte for byte, for the example reports and for reports
whose vendor-controlled strings hold everything XML escapes."""

from __future__ import annotations

import copy
import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokercert.reports import render_junit

EXAMPLES = Path(__file__).resolve().parents[2] / "reports" / "examples"
POKERKIT = json.loads((EXAMPLES / "pokerkit" / "report.json").read_text(encoding="utf-8"))
DECLARATION = "<?xml version='1.0' encoding='utf-8'?>\n"


def _as_elementtree_writes_it(text: str) -> str:
    assert text.startswith(DECLARATION) and text.endswith("\n")
    tree = ET.fromstring(text[len(DECLARATION) :])
    return DECLARATION + ET.tostring(tree, encoding="unicode") + "\n"


@pytest.mark.parametrize("name", ["pokerkit", "reference"])
def test_example_views_are_what_elementtree_writes(name: str) -> None:
    report = json.loads((EXAMPLES / name / "report.json").read_text(encoding="utf-8"))
    text = render_junit.render(report)
    assert text == _as_elementtree_writes_it(text)
    assert text.encode("utf-8") == (EXAMPLES / name / "report.junit.xml").read_bytes()


# (no "\r" in element text: an XML reader turns it into "\n", so it cannot round-trip;
# in attributes it is written &#13; and does)
_hostile = st.text(st.sampled_from(list("&<>\"'\t\n ab\u202eé]]>")), max_size=12)


@settings(max_examples=25, deadline=None)
@given(st.lists(_hostile, min_size=6, max_size=6), st.sampled_from(["", "x\r\ny\rz"]))
def test_hostile_strings_are_escaped_as_elementtree_escapes_them(words: list[str], cr: str) -> None:
    report: dict[str, Any] = copy.deepcopy(POKERKIT)
    report["identification"]["evaluator"]["name"] = words[0] + cr
    report["identification"]["adapter_spec"] = words[1]
    failure = report["failures"][0]
    failure.update(message=words[2], why=words[3], stderr=words[4])
    record = next(v for v in report["vectors"] if v["id"] == failure["id"])
    record["id"] = failure["id"] = failure["id"] + words[5]
    text = render_junit.render(report)
    assert text == _as_elementtree_writes_it(text)
