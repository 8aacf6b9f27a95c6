"""A results.jsonl line is the JSON of its result's fields in their order
(harness/run/results.py): ``json.dumps(result.to_json(), ensure_ascii=False)`` and a
newline, read back by ``Result.from_json`` to the same result.  The writer builds each
line from pieces (``_line``); these cases hold it to that definition, byte for byte."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from types import MappingProxyType
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pokercert.harness.run.results import (
    EMPTY,
    RESULTS_FILE,
    Outcome,
    Result,
    ResultWriter,
    read_results,
    write_results,
)


def _defined(results: list[Result]) -> bytes:
    return "".join(json.dumps(r.to_json(), ensure_ascii=False) + "\n" for r in results).encode(
        "utf-8"
    )


_text = st.text(max_size=12) | st.sampled_from(["", "é", "\u202e", 'a "b"\n\\', "\x00\x1f"])
_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | _text
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda kids: st.lists(kids, max_size=3) | st.dictionaries(_text, kids, max_size=3),
    max_leaves=8,
)
_mapping = st.dictionaries(_text, _json, max_size=3)
# recurring clause and flag tuples, as a run has them (the writer keeps their text)
_labels = st.lists(st.sampled_from(["13:69F-33.5(c)", "23.16.1205(1)", "é", ""]), max_size=3).map(
    tuple
)


@st.composite
def _results(draw: st.DrawFn) -> Result:
    readings = draw(_mapping | st.just({}))
    # a pass has no message, stderr, attachment or expectations-file notes: all ""
    notes = [""] * 5 if draw(st.booleans()) else [draw(_text) for _ in range(5)]
    return Result(
        vector_id=draw(_text),
        ruleset=draw(_text),
        kind=draw(_text),
        outcome=draw(st.sampled_from(list(Outcome))),
        expected=draw(_mapping),
        actual=draw(st.none() | _mapping),
        message=notes[0],
        readings=draw(st.sampled_from([readings, MappingProxyType(readings), EMPTY])),
        clauses=draw(_labels),
        flags=draw(_labels),
        why=draw(_text),
        inputs=draw(_mapping),
        duration_s=draw(
            st.floats(min_value=0, max_value=1e6)
            | st.just(0.0)
            | st.sampled_from([2.4e-05, 1e-7, 0.1, 1e22])
        ),
        stderr=notes[1],
        attachment=notes[2],
        known_failure=notes[3],
        scored_as=notes[4],
        origin=draw(st.just("") | _text),
    )


@settings(max_examples=150, deadline=None)
@given(st.lists(_results(), max_size=6))
def test_written_lines_are_the_defined_json(tmp_path_factory: Any, results: list[Result]) -> None:
    folder = tmp_path_factory.mktemp("run")
    sha, lines = write_results(folder, results)
    data = (folder / RESULTS_FILE).read_bytes()
    assert data == _defined(results)
    assert lines == len(results)
    assert sha == hashlib.sha256(data).hexdigest()
    assert list(read_results(folder)) == results


def test_one_at_a_time_and_unusual_values(tmp_path: Path) -> None:
    """``write`` as ``write_many``; values no scorer makes (a plain-string outcome, an
    int duration, a list of clauses, NaN) still written as the definition says."""
    odd = [
        Result("v", "r", "classify", Outcome.PASS, {}, clauses=("a",), flags=("a",)),
        Result(
            "v",
            "r",
            "classify",
            "FAIL",
            {"x": [1]},
            None,  # type: ignore[arg-type]
            duration_s=3,
            clauses=["a", "b"],
            flags=("x", ["y"]),
        ),  # type: ignore[arg-type]
        Result("w", "r", "compare", Outcome.ERROR, {}, duration_s=float("nan"), origin="twin:v"),
    ]
    with ResultWriter(tmp_path) as out:
        for r in odd:
            out.write(r)
    assert (tmp_path / RESULTS_FILE).read_bytes() == _defined(odd)
