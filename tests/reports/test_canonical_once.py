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
    return (
        json.dumps(report, indent=2, sort_keys=True, ensure_ascii=False, allow_nan=False) + "\n"
    ).encode("utf-8")


def _defined_digest(report: dict[str, Any]) -> str:
    body = {k: v for k, v in report.items() if k != "digest"}
    return "sha256:" + hashlib.sha256(_defined(body)).hexdigest()


_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.text()
    | st.floats(allow_nan=False, allow_infinity=False)
)
_values = st.recursive(
    _scalars,
    lambda kids: (
        st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4)
    ),
    max_leaves=20,
)
# top-level keys on both sides of "digest" in sort order, and "digest" itself sometimes
_keys = st.sampled_from(
    ["", "a", "counts", "dig", "digest", "digestz", "e", "vectors", "Z", "é", "\n", "zz"]
) | st.text(max_size=6)
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


# ------------------------------------------------- the canonical text without the stdlib
# The form is written by reports/canonical.py's own encoder (memos of object layouts and
# of string lists); each case below is compared with the definition above.
_words = st.sampled_from(["", "a", "b", "PASS", "é", "\u202e", "x\ny", '"q"', "[1, 2]"])
_pool = st.lists(_words, max_size=3)  # string lists that recur, at many depths
_shared_keys = st.sampled_from([("id", "b", "a"), ("a", "id", "b"), ("z",), ("b", "a")])


@st.composite
def _records(draw: st.DrawFn) -> dict[str, Any]:
    """Objects with recurring key sets (in differing insertion orders) holding recurring
    string lists, ints, bools and floats: what the layout and list memos key on."""
    keys = draw(_shared_keys)
    leaves = (
        _pool
        | st.integers(-3, 3)
        | st.booleans()
        | st.none()
        | st.floats(allow_nan=False, allow_infinity=False)
        | _words
    )
    return {k: draw(leaves) for k in keys}


_nested = st.recursive(
    _records() | _pool,
    lambda kids: (
        st.lists(kids, max_size=4)
        | st.dictionaries(st.sampled_from(["a", "b", "id", "vectors"]), kids, max_size=3)
    ),
    max_leaves=30,
)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(_keys, _nested, max_size=6))
def test_recurring_layouts_and_lists_are_the_defined_form(report: dict[str, Any]) -> None:
    out, data = sealed(report)
    assert data == _defined(out)
    assert canonical_bytes(report) == _defined(report)


def test_values_left_to_the_standard_library() -> None:
    """A tuple, enums (int and str subclasses), a dict subclass, a non-string key deep
    down, an int/bool list beside a bool/int list (equal as tuples) and a huge int: the
    same text as the definition; NaN is refused as before."""
    from collections import OrderedDict
    from enum import IntEnum, StrEnum

    import pytest

    from pokercert.reports.canonical import ReportError

    class Level(IntEnum):
        HIGH = 3

    class Word(StrEnum):
        PASS = "PASS"

    report = {
        "t": (1, "a"),
        "e": [Level.HIGH, Word.PASS, {"k": Level.HIGH}],
        "o": OrderedDict([("b", 1), ("a", [Word.PASS])]),
        "n": {"x": {1: "one"}},
        "ib": [[1, True], [True, 1], [1.0, 1], [0, False]],
        "big": 10**30,
        "w": [["PASS"], [Word.PASS]],
        "f": [-0.0, 1e-7, 1e22, 0.1],
    }
    assert canonical_bytes(report) == _defined(report)
    assert sealed(report)[1] == _defined(sealed(report)[0])
    with pytest.raises(ReportError):
        canonical_bytes({"a": [float("nan")]})
    with pytest.raises(ReportError):
        sealed({"a": {"b": float("inf")}})


def test_a_plain_report_is_not_written_by_the_pure_python_encoder(monkeypatch: Any) -> None:
    """An example report (strings, ints, bools, null, lists and objects; each vector's
    kind an enum, as a run has it) is sealed without the standard library's indenting
    encoder (its pure-Python path cost 0.2-0.35 s of CPU per default run), to the same
    bytes."""
    import pokercert.reports.canonical as canonical
    from pokercert.vectors.model import Kind

    raw = sorted(EXAMPLES.rglob("report.json"))[0].read_bytes()
    body = {k: v for k, v in json.loads(raw).items() if k != "digest"}
    for record in body["vectors"]:  # as a run builds them: the vector's kind, an enum
        record["kind"] = Kind(record["kind"])

    def refuse(value: Any) -> str:
        raise AssertionError("the pure-Python encoder was used")

    monkeypatch.setattr(canonical, "_dumps", refuse)
    assert sealed(body)[1] == raw
