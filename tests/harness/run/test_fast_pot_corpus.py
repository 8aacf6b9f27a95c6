"""The pot's fast path on the curated corpus: every showdown vector, every reading.

The scoring of a run settles each showdown vector through ``Evaluator.pot``, which takes
each hand's best key from the fast path (:meth:`~pokercert.reference.engine.Evaluator.best_key`);
its oracle is the engine's candidate-by-candidate search (``pot(..., fast=False)``).
Random deals are compared in ``tests/reference/test_fast_pot.py``; here the corpus's own
hand-worked deals (boards that play, wheels, no qualifying low, split halves) are, under
the default profile and under each reading a vector lists.
"""

from __future__ import annotations

from pokercert.reference import Profile, evaluator
from pokercert.reference.interpretations import get_interpretation
from pokercert.vectors.corpus import load_corpus
from pokercert.vectors.model import Kind


def test_every_showdown_vector_settles_the_same_on_both_paths() -> None:
    showdowns = load_corpus().select(kinds=[Kind.SHOWDOWN])
    assert len(showdowns) > 100
    checked = 0
    for v in showdowns:
        profiles = [Profile("practice", {})] + [
            Profile(f"{iid}={r}", {iid: r})
            for iid in v.interpretations
            for r in get_interpretation(iid).readings
        ]
        for profile in profiles:
            ev = evaluator(v.ruleset, profile)
            hands, board = list(v.inputs["hands"]), v.inputs.get("board")
            assert ev.pot(hands, board) == ev.pot(hands, board, fast=False), (v.id, profile.name)
            checked += 1
    assert checked >= len(showdowns)
