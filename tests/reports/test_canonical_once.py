"""The canonical form made by one encoding (digest line spliced in) is byte for byte the
form the report format defines: ``json.dumps(report, indent=2, sort_keys=True,
ensure_ascii=False) + "\\n"``, digest = SHA-256 of that form of the report less
``digest`` (reports/canonical.py's docstring; reports/README.md).  The expectations below
are computed from that definition with the standard library, not by the code under test.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pokercert.reports.canonical import (
    canonical_and_digest,
    canonical_bytes,
    compute_digest,
    sealed,
)
from pokercert.reports.verify import verify_bytes

EXAMPLES = Path(__file__).resolve().parents[2] / "reports" / "examples"


def _defined(report: Any) -> bytes:
    return (json.dumps(report, indent=2, sort_keys=True, ensure_ascii=False,
                       allow_nan=False) + "\n").encode("utf-8")


def _defined_digest(report: dict[str, Any]) -> str:
    body = {k: v for k, v in report.items() if k != "digest"}
    return "sha256:" + hashlib.sha256(_defined(body)).hexdigest()


_scalars = st.none() | st.booleans() | st.integers() | st.text() | \
    st.floats(allow_nan=False, allow_infinity=False)
_values = st.recursive(_scalars, lambda kids: st.lists(kids, max_size=4)
                       | st.dictionaries(st.text(max_size=8), kids, max_size=4), max_leaves=20)
# top-level keys on both sides of "digest" in sort order, and "digest" itself sometimes
_keys = st.sampled_from(["", "a", "counts", "dig", "digest", "digestz", "e", "vectors", "Z",
                         "é", "\n", "zz"]) | st.text(max_size=6)
_reports = st.dictionaries(_keys, _values, max_size=8)


@settings(max_examples=150, deadline=None)
@given(_reports)
def test_sealed_bytes_are_the_defined_form(report: dict[str, Any]) -> None:
    out, data = sealed(report)
    assert out == {**report, "digest": _defined_digest(report)}
    assert data == _defined(out)
    assert canonical_bytes(report) == _defined(report)
    assert compute_digest(report) == _defined_digest(report)
    assert canonical_and_digest(report) == (_defined(report), _defined_digest(report))


def test_indented_values_and_empty_report() -> None:
    """Multi-line values, empty containers and strings holding newlines or brackets."""
    report = {"b": {"x": [1, {"y": []}], "w": {}}, "a": "line\nbreak {[", "z": [[], [2.5]]}
    assert sealed(report)[1] == _defined(sealed(report)[0])
    assert sealed({})[1] == _defined({"digest": _defined_digest({})})
    assert canonical_bytes({}) == b"{}\n"
    # not a report: still the defined form (a list, a non-string key)
    assert canonical_bytes(["a", {"b": 1}]) == _defined(["a", {"b": 1}])  # type: ignore[arg-type]
    assert canonical_bytes({2: "x", 1: [1.5]}) == _defined({2: "x", 1: [1.5]})  # type: ignore[dict-item]


def test_shipped_examples_still_verify_and_reseal_identically() -> None:
    """Every example report under reports/examples was sealed by the earlier encoder:
    it still verifies, and re-sealing its content gives its exact bytes."""
    examples = sorted(EXAMPLES.rglob("*.json"))
    reports = [(p, p.read_bytes()) for p in examples]
    reports = [(p, raw) for p, raw in reports if b'"digest": "sha256:' in raw]
    assert reports, "no example reports found"
    for path, raw in reports:
        report, checks = verify_bytes(raw)
        assert report is not None
        assert [c.name for c in checks if c.status == "failed"] == [], path
        body = {k: v for k, v in report.items() if k != "digest"}
        assert sealed(body)[1] == raw, path
