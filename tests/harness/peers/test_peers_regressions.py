"""Each real peer's actual outcomes on the whole corpus, pinned with pytest-regressions.

Per peer the pinned file holds the evaluator's version, what the adapter claims and, for
every vector that is not a PASS or NOT_APPLICABLE, its outcome and the peer's answer.
A change in a peer (a new release) shows up as a diff of that file, and so does a change
in the corpus that a peer does not pass (new vectors it passes leave the file alone).
Regenerate on purpose with
``pytest tests/harness/peers/test_peers_regressions.py --force-regen`` and review the diff.

Nothing here says the peers are right: the expectations are the corpus's; these files
record what each library actually does with it.
"""

import pytest

from pokercert.harness.adapters import load_adapter
from pokercert.harness.run.challenge import build_challenge
from pokercert.harness.run.results import Outcome
from pokercert.harness.run.runner import count, score_vectors, with_origins
from pokercert.reference import load_profile
from pokercert.reports.verdict import ruleset_verdict
from pokercert.vectors.corpus import load_corpus

PEERS = {"treys": "treys", "phevaluator": "phevaluator", "eval7": "eval7", "pokerkit": "pokerkit"}
QUIET = {str(Outcome.PASS), str(Outcome.NOT_APPLICABLE)}


@pytest.fixture(scope="module")
def corpus():
    return load_corpus()


@pytest.mark.parametrize("peer", sorted(PEERS))
def test_outcomes_on_the_corpus(peer, corpus, data_regression):
    pytest.importorskip(
        PEERS[peer], reason=f"{PEERS[peer]} is not installed (pip install 'pokercert[{peer}]')"
    )
    profile = load_profile("practice")
    with load_adapter(peer) as adapter:
        identity = adapter.start()
        results = [
            r for batch in score_vectors(adapter, identity, corpus.vectors, profile) for r in batch
        ]
    assert len(results) == len(corpus.vectors)
    findings = {
        r.vector_id: {"outcome": str(r.outcome), "actual": r.actual}
        for r in results
        if str(r.outcome) not in QUIET
    }
    data_regression.check(
        {
            "evaluator": {
                "name": identity.evaluator["name"],
                "version": identity.evaluator["version"],
            },
            "claims": {rs: list(kinds) for rs, kinds in sorted(identity.capabilities.items())},
            "profile": profile.name,
            "findings": findings,
        }
    )


SEED = 20261201  # a fixed challenge seed, so the pinned findings are reproducible


@pytest.mark.parametrize("peer", ["reference", *sorted(PEERS)])
def test_verdicts_hold_under_the_challenge(peer, corpus, data_regression):
    """Issue 13: the reference and every shipped peer keep each ruleset's verdict when the
    default challenge (a twin of every vector, fresh deals) follows the corpus: the
    challenge tells a lookup table from an evaluator, it does not move a real evaluator's
    verdict.  The challenge's own findings are pinned beside the verdicts."""
    if peer != "reference":
        pytest.importorskip(PEERS[peer], reason=f"{PEERS[peer]} is not installed")
    profile = load_profile("practice")
    challenge = build_challenge(corpus.vectors, profile, SEED)
    with load_adapter(peer) as adapter:
        identity = adapter.start()
        results = [
            r
            for batch in score_vectors(
                adapter, identity, [*corpus.vectors, *challenge.vectors], profile
            )
            for r in with_origins(batch, challenge.origins)
        ]
    curated = count(r for r in results if not r.origin)
    everything = count(results)
    verdicts = {rid: ruleset_verdict(curated[rid])[0] for rid in sorted(curated)}
    assert {rid: ruleset_verdict(everything[rid])[0] for rid in sorted(everything)} == verdicts
    data_regression.check(
        {
            "seed": SEED,
            "challenge_sha256": challenge.sha256(),
            "verdicts": verdicts,
            "challenge_findings": {
                r.vector_id: {"origin": r.origin, "outcome": str(r.outcome), "actual": r.actual}
                for r in results
                if r.origin and str(r.outcome) not in QUIET
            },
        }
    )
