"""The fresh-deal dealer's speed work, held to the same deals.

A certification run deals its fresh challenge deals in a forked child while the main
process loads the corpus and builds the twins (``prefetch_fresh``); the run loses wall
time whenever the main process has to wait for them.  Two things keep it short, each
tested here without a clock: the seeded sampler never imports Hypothesis (only the
shrinking strategies need it), and ``build_challenge`` builds every twin before it asks
for the dealt deals.  ``test_challenge.py`` pins that the set stays the same, byte for byte.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Mapping, Sequence

import pytest

import pokercert.harness.run.challenge as challenge
from pokercert.reference import load_profile
from pokercert.vectors.corpus import load_corpus

SMALL = ("nj-poker-high-3", "nj-mini-tex-3")


def test_dealing_fresh_deals_does_not_import_hypothesis() -> None:
    code = (
        "import sys\n"
        "from pokercert.harness.run.challenge import fresh_deals\n"
        "from pokercert.reference import load_profile\n"
        "assert fresh_deals('nj-holdem', load_profile('practice'), 5, 12)\n"
        "print('hypothesis' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_twins_are_built_before_the_dealt_deals_are_asked_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    curated = [v for v in load_corpus().vectors if v.ruleset in SMALL]
    profile = load_profile("practice")
    made = {"twins": 0}
    real_twin = challenge.twin

    def counting_twin(*args, **kwargs):  # type: ignore[no-untyped-def]
        made["twins"] += 1
        return real_twin(*args, **kwargs)

    asked: list[int] = []

    def dealt() -> Mapping[str, Sequence[challenge.FreshDeal]]:
        asked.append(made["twins"])
        return {
            rid: challenge.fresh_deals(rid, profile, 3, challenge.DEFAULT_FRESH, curated)
            for rid in SMALL
        }

    monkeypatch.setattr(challenge, "twin", counting_twin)
    lazily = challenge.build_challenge(curated, profile, 3, dealt=dealt)
    assert asked == [len(curated)]  # asked once, after the last twin
    monkeypatch.setattr(challenge, "twin", real_twin)
    assert lazily.to_jsonl() == challenge.build_challenge(curated, profile, 3).to_jsonl()
