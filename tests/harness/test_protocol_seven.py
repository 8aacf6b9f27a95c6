"""PROTOCOL.md 4.6.1: the seven-card request of an exhaustive pass, as the text shows it.

The section's request and reply examples are read from the document: each hand of the
request is one player's seven cards, and the reply's categories and the order of its keys
are the reference's for the best five of those seven (hold 'em: the first two cards the
hole, the other five the board), so the example teaches what the harness checks.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from pokercert.reference import evaluator

ROOT = Path(__file__).resolve().parents[2]


def _section_examples() -> list[dict]:
    doc = (ROOT / "harness" / "PROTOCOL.md").read_text(encoding="utf-8")
    start = doc.index("### 4.6.1 Seven-card deals")
    section = doc[start : doc.index("\n### ", start + 1)]
    return [json.loads(block) for block in re.findall(r"```json\n(.*?)```", section, re.S)]


def test_the_seven_card_example_is_what_the_reference_checks():
    request, reply = _section_examples()
    assert request["op"] == "evaluate_many" and reply["id"] == request["id"]
    deals = [hand.split(" ") for hand in request["hands"]]
    assert all(len(d) == len(set(d)) == 7 for d in deals)
    ev = evaluator("nj-holdem", "practice")
    best = [ev.best_hand(d[:2], d[2:]) for d in deals]
    assert reply["categories"] == [b.category for b in best]
    keys, values = reply["keys"], [b.value.key for b in best]
    assert len(keys) == len(deals)
    for i in range(len(deals)):
        for j in range(len(deals)):
            assert (keys[i] < keys[j]) == (values[i] < values[j])
            assert (keys[i] == keys[j]) == (values[i] == values[j])
