"""A fresh reject input's expectation names every fault the input has (walk28).

PROTOCOL.md 3.2: an input with several faults is refused rightly with any of their
codes.  The curated corpus writes such vectors with ``reason`` and ``also``; fresh deals
(challenge siblings, fuzz cases, counterexamples) take their expectation from
``expected_outcome``, which named only the reference's code, so a correct adapter that
names another fault first was scored WRONG_REASON.  The faults below are worked from
the inputs by hand: five-card high wants five cards, ``Zs`` is no card, a card twice is
a duplicate.
"""

from __future__ import annotations

import pytest

from pokercert.harness.explore.counterexample import expected_outcome
from pokercert.reference import evaluator, load_profile


@pytest.mark.parametrize(
    ("inputs", "faults"),
    [
        # four cards, one of them no card: wrong-count and bad-card
        ({"op": "classify", "hand": "As Kd 9h Zs"}, {"bad-card", "wrong-count"}),
        # five cards, one no card: bad-card alone
        ({"op": "classify", "hand": "As Kd 9h Zs 2c"}, {"bad-card"}),
        # six cards, one twice: wrong-count and duplicate-card
        ({"op": "classify", "hand": "As Kd 9h As 2c 3c"}, {"duplicate-card", "wrong-count"}),
        # five cards, one twice: duplicate-card alone
        ({"op": "classify", "hand": "As Kd 9h As 2c"}, {"duplicate-card"}),
    ],
)
def test_a_reject_expectation_lists_every_fault_of_its_input(inputs, faults):
    ev = evaluator("nj-poker-high-5", load_profile("practice"))
    expect = expected_outcome(ev, "reject", inputs)
    assert expect["reason"] in faults
    assert {expect["reason"], *expect.get("also", ())} == faults
    assert expect.get("also", []) == sorted(expect.get("also", []))
