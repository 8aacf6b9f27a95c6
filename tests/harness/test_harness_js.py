"""The JavaScript example evaluator through the subprocess protocol: the protocol is
language-agnostic, and the example itself is right."""

from __future__ import annotations

import shutil
from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest

from pokercert.cli.main import main
from pokercert.harness.adapters import ANSWERED, load_adapter
from pokercert.harness.run.results import Outcome
from pokercert.harness.run.runner import score_vectors
from pokercert.reference import DECK, load_profile
from tests.helpers.harness_vectors import VECTORS, assert_no_false_pass

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="Node.js not installed")
ADAPTER = Path(__file__).resolve().parents[2] / "examples" / "js-evaluator" / "adapter.js"
SPEC = f"exec:node {ADAPTER}"


@pytest.mark.parametrize("ruleset", ["nj-poker-high-5", "nj-poker-high-3"])
def test_smoke_passes(ruleset, capsys):
    assert main(["smoke", "--adapter", SPEC, "--ruleset", ruleset]) == 0


def test_the_hand_made_vectors_pass():
    with load_adapter(SPEC) as adapter:
        identity = adapter.start()
        results = [
            r
            for b in score_vectors(adapter, identity, VECTORS, load_profile("practice"))
            for r in b
        ]
    assert_no_false_pass(results)
    assert {r.outcome for r in results} == {Outcome.PASS}


def test_three_card_census_matches_the_textbook():
    """All 22,100 three-card hands, classified over the protocol in batches.

    Textbook counts (any three-card poker table): 48 straight flushes (4 of them A-K-Q,
    the royal of 13:69F-14.3(c)1), 52 trips, 720 straights, 1,096 flushes, 3,744 pairs,
    16,440 others.
    """
    hands = [" ".join(str(c) for c in h) for h in combinations(DECK, 3)]
    requests = [{"op": "classify", "hand": h} for h in hands]
    with load_adapter(SPEC) as adapter:
        adapter.start()
        adapter.configure("nj-poker-high-3", {})
        replies = [
            r
            for b in adapter.run_batches(
                requests[i : i + 1000] for i in range(0, len(requests), 1000)
            )
            for r in b
        ]
    assert {r.status for r in replies} == {ANSWERED}
    counts = Counter(r.data["category"] for r in replies)
    assert counts == {
        "royal_flush": 4,
        "straight_flush": 44,
        "three_of_a_kind": 52,
        "straight": 720,
        "flush": 1096,
        "one_pair": 3744,
        "high_card": 16440,
    }


@pytest.mark.parametrize("reading, winners", [("practice", [1]), ("literal", [0])])
def test_it_follows_the_configured_reading(reading, winners):
    # interpretations.toml, identical-rank-tiebreak: 4-4-4-2-2 beats 3-3-3-A-A in
    # practice; read word for word, the ace (held by one hand only) decides
    with load_adapter(SPEC) as adapter:
        adapter.start()
        adapter.configure("nj-poker-high-5", {"identical-rank-tiebreak": reading})
        (reply,) = adapter.run_batch(
            [{"op": "compare", "hands": ["3c 3d 3h As Ad", "4c 4d 4h 2s 2d"]}]
        )
    assert reply.data["winners"] == winners
