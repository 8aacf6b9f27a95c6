"""The reference, as the shipped adapter ``reference``, certifies every ruleset on the
corpus under both built-in profiles (anything else is a bug in the corpus or engine)."""

from __future__ import annotations

from collections import Counter

import pytest

from pokercert.harness.adapters import load_adapter
from pokercert.harness.api import Rejected
from pokercert.harness.peers.reference import ReferenceEvaluator
from pokercert.harness.run.results import Outcome
from pokercert.harness.run.runner import score_vectors
from pokercert.reference import all_rulesets, load_profile
from pokercert.vectors.corpus import load_corpus
from pokercert.vectors.registry import in_corpus
from tests.helpers.coded_hands import CodesOnly, coded


@pytest.fixture(scope="module")
def corpus():
    loaded = load_corpus()
    if not loaded.vectors:
        pytest.skip("the corpus has no vectors yet")
    return loaded


@pytest.mark.parametrize("profile", ["practice", "literal"])
def test_the_reference_passes_every_vector_of_every_ruleset(corpus, profile):
    with load_adapter("reference") as adapter:
        identity = adapter.start()
        results = [
            r
            for b in score_vectors(adapter, identity, corpus.vectors, load_profile(profile))
            for r in b
        ]
    bad = [
        (r.vector_id, str(r.outcome), r.message) for r in results if r.outcome is not Outcome.PASS
    ]
    assert bad == []
    per_ruleset = Counter(r.ruleset for r in results)
    assert set(per_ruleset) == set(in_corpus(rs.id for rs in all_rulesets()))


@pytest.mark.parametrize(
    "hand, code",
    [
        (["As", "Ks", "Qs", "Js", "Zz"], "bad-card"),
        (["As", "As", "Qs", "Js", "Ts"], "duplicate-card"),
        (["As", "Ks", "Qs", "Js"], "wrong-count"),
        (["As", "Ks", "Qs", "Js", "Xx"], "joker-not-allowed"),
    ],
)
def test_the_reference_refuses_with_the_card_parsers_codes(hand, code):
    ev = ReferenceEvaluator()
    ev.configure("nj-poker-high-5", {})
    for call in (ev.classify, ev.key, ev.evaluate, lambda h: ev.evaluate_many([h])):
        with pytest.raises(Rejected) as info:
            call(hand)
        assert info.value.code == code


def test_a_batch_of_codes_is_valued_without_card_strings():
    # 13:69F-14.3(b)1 and 3: a royal flush; four aces with a king
    ev = ReferenceEvaluator()
    ev.configure("nj-poker-high-5", {})
    hands = ["As Ks Qs Js Ts", "Ac Ad Ah As Kc"]
    categories, keys = ev.evaluate_many(coded(*hands, cls=CodesOnly))
    assert categories == ["royal_flush", "four_of_a_kind"]
    assert (categories, keys) == ev.evaluate_many([h.split() for h in hands])


@pytest.mark.parametrize(
    "ruleset, hand, code",
    [
        ("nj-poker-high-5", "As As Qs Js Ts", "duplicate-card"),
        ("nj-poker-high-5", "As Ks Qs Js Xx", "joker-not-allowed"),
        # mt-poker-high's deck has two jokers (its ruleset's deck section): three are too many
        ("mt-poker-high", "Xx Xx Xx Js Ts", "duplicate-card"),
    ],
)
def test_a_batch_of_codes_is_refused_as_its_card_strings_are(ruleset, hand, code):
    ev = ReferenceEvaluator()
    ev.configure(ruleset, {})
    with pytest.raises(Rejected) as info:
        ev.evaluate_many(coded("As Ks Qs Js Ts", hand))
    assert info.value.code == code
    with pytest.raises(Rejected) as by_text:
        ev.evaluate(hand.split())
    assert (by_text.value.code, str(by_text.value)) == (code, str(info.value))


def test_jokers_in_a_batch_of_codes_are_wild_where_the_ruleset_has_them():
    # in mt-poker-high a joker completes a royal flush, and two jokers with three aces
    # make five of a kind (ARM 23.16.1205, the ruleset's wild-card clauses)
    ev = ReferenceEvaluator()
    ev.configure("mt-poker-high", {})
    hands = ["Xx Ks Qs Js Ts", "Xx Xx As Ah Ad"]
    categories, keys = ev.evaluate_many(coded(*hands))
    assert categories == ["royal_flush", "five_of_a_kind"]
    assert (categories, keys) == ev.evaluate_many([h.split() for h in hands])


def test_the_reference_keys_order_hands_as_the_rules_do():
    # 13:69F-14.3(b)6: A-2-3-4-5 is the lowest straight; (d): kickers after the pair
    ev = ReferenceEvaluator()
    ev.configure("nj-poker-high-5", {})
    wheel, six_high = ["5h", "4d", "3c", "2s", "Ah"], ["6h", "5d", "4c", "3s", "2h"]
    assert ev.key(wheel) < ev.key(six_high)
    assert ev.evaluate(wheel) == ("straight", ev.key(wheel))
    pairs = [["Ac", "Ad", "Kh", "Qs", "Jc"], ["Ah", "As", "Kc", "Qd", "Tc"]]
    categories, keys = ev.evaluate_many(pairs)
    assert categories == ["one_pair", "one_pair"] and keys[0] > keys[1]


def test_the_reference_claims_best_hand_only_where_a_board_exists():
    caps = ReferenceEvaluator().capabilities()
    with_board = {rs.id for rs in all_rulesets() if rs.selection is not None}
    assert {r for r, kinds in caps.items() if "best_hand" in kinds} == with_board
