"""The pruned wild-card search on the curated corpus: every wild hand, every reading.

A run values each hand holding a joker or a wild deuce through ``Evaluator._wild_search``,
which by default skips rank choices that cannot beat the best key found so far; its
oracle is the exhaustive search (``fast=False``).  Seeded random hands are compared in
``tests/reference/test_wild_search.py``; here every hand with a wild card that a curated
vector deals (a classify hand, each hand of a compare or showdown), under every
combination of readings of its ruleset's interpretations, must get the same category,
key and substitutes from both.
"""

from __future__ import annotations

from pokercert.reference import CardError, get_ruleset
from pokercert.reference.cards import Card
from pokercert.reference.engine import Evaluator
from pokercert.vectors.check import variants
from pokercert.vectors.corpus import load_corpus
from tests.reference.test_wild_search import WILD_GAMES, Exhaustive


def _wild_hands(ev: Evaluator, inputs: dict[str, object]) -> list[tuple[Card, ...]]:
    texts = [inputs["hand"]] if isinstance(inputs.get("hand"), str) else []
    hands = inputs.get("hands")
    if isinstance(hands, (list, tuple)):
        texts += [h for h in hands if isinstance(h, str)]
    out = []
    for text in texts:
        try:
            hand = ev.parse_hand(str(text))
        except CardError:  # a reject vector's malformed hand
            continue
        if any(ev.is_wild(c) for c in hand):
            out.append(hand)
    return out


def test_every_wild_hand_of_the_corpus_values_the_same_on_both_searches() -> None:
    corpus = load_corpus()
    checked = 0
    for rid in WILD_GAMES:
        vectors = [v for v in corpus.vectors if v.ruleset == rid]
        for variant in variants(get_ruleset(rid)):
            profile = variant.profile()
            fast, slow = Evaluator(rid, profile), Exhaustive(rid, profile)
            for v in vectors:
                for hand in _wild_hands(fast, dict(v.inputs)):
                    assert fast.value(hand) == slow.value(hand), (v.id, variant.describe(), hand)
                    checked += 1
    assert checked > 1000
