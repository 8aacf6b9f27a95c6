"""One writer of ready-to-add drafts for every finding: fuzz's ``Found``, the records an
exhaustive run keeps, and failing challenge vectors all come out of ``drafts_text``."""

from __future__ import annotations

from pathlib import Path

from pokercert.harness.explore.counterexample import (
    Draft,
    draft_of,
    drafts_text,
    finding_comment,
    found_vector,
)
from pokercert.vectors.canonical import record

RULESET = "nj-poker-high-5"


def test_a_found_and_its_kept_record_give_the_same_draft() -> None:
    """An exhaustive run keeps a finding as its record and message (exhaustive.json);
    written up, it is byte for byte the draft fuzz writes for the same finding."""
    found = found_vector(
        RULESET,
        "classify",
        {"hand": "5s 4s 3s 2s As"},
        "practice",
        actual={"category": "flush"},
        message="category 'flush', expected 'straight_flush'",
    )
    kept = Draft(record(found.vector), finding_comment("acme", found.message))
    assert (
        drafts_text(RULESET, [kept])
        == found.draft("acme")
        == drafts_text(RULESET, [draft_of(found, "acme")])
    )
    text = found.draft("acme")
    assert text.startswith(f'ruleset = "{RULESET}"\n') and "\nid =" not in text
    assert "# adapter acme: category 'flush', expected 'straight_flush'" in text


def test_no_second_draft_writer_is_left() -> None:
    """The two writers side by side (``to_drafts_text`` for Found, ``drafts_text`` for
    records) are folded: no module defines or calls the old one."""
    root = Path(__file__).resolve().parents[3]
    for folder in ("harness", "cli", "reports"):
        for path in (root / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            assert "to_drafts_text" not in text and "to_draft_text" not in text, path
