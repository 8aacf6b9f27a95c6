"""The canonical form of a request (issue 26): what a memoriser up to symmetry keys on.

Facts from outside the code: hand-worked requests that are or are not symmetries of one
another (the same hand in other suits, in another order, the hands of a compare swapped),
and a brute-force form computed here, independently, over the 24 relabellings.
"""

from __future__ import annotations

import random

import pytest

from pokercert.harness.canonical_form import (
    Request,
    canonical,
    canonical_key,
    published_forms,
)
from pokercert.harness.run.challenge import build_challenge
from pokercert.reference import load_profile
from pokercert.vectors.corpus import load_corpus
from pokercert.vectors.model import Kind
from tests.helpers.suit_forms import brute_form

SAME = [
    ({"hand": "As Ks Qs Js Ts"}, {"hand": "Th Jh Qh Kh Ah"}),
    ({"hand": "2s 2h 7d 9c Kc"}, {"hand": "Kh 9h 7c 2d 2s"}),
    ({"hands": ["As Ah Ad", "Kh Kd Kc"]}, {"hands": ["Kd Kh Ks", "Ac As Ah"]}),
    ({"hole": "As Kd", "board": "2c 3c 4c 5h 9h"}, {"hole": "Kh Ac", "board": "9s 5s 4d 2d 3d"}),
]
DIFFERENT = [
    # a flush is no relabelling of a hand of two suits
    ({"hand": "As Ks Qs Js 9s"}, {"hand": "As Ks Qs Js 9h"}),
    # trips of aces missing the suit the kings miss, and missing another
    ({"hands": ["As Ah Ad", "Ks Kh Kd"]}, {"hands": ["As Ah Ad", "Kh Kd Kc"]}),
    # a card moved from the hole to the board
    ({"hole": "As Kd", "board": "2c 3c 4c 5h 9h"}, {"hole": "As 2c", "board": "Kd 3c 4c 5h 9h"}),
]


@pytest.mark.parametrize(("a", "b"), SAME)
def test_symmetries_share_one_form(a: dict[str, object], b: dict[str, object]) -> None:
    op = Kind.COMPARE if "hands" in a else Kind.CLASSIFY
    assert canonical_key("r", op, a) == canonical_key("r", op, b)
    assert Request("r", op, b) in published_forms_of("r", op, a)


@pytest.mark.parametrize(("a", "b"), DIFFERENT)
def test_other_suit_patterns_have_other_forms(a: dict[str, object], b: dict[str, object]) -> None:
    op = Kind.COMPARE if "hands" in a else Kind.CLASSIFY
    assert canonical_key("r", op, a) != canonical_key("r", op, b)
    assert Request("r", op, b) not in published_forms_of("r", op, a)


def published_forms_of(ruleset: str, op: str, inputs: dict[str, object]):  # type: ignore[no-untyped-def]
    from pokercert.vectors.model import Vector

    return published_forms(
        [
            Vector(
                id=f"{ruleset}/0001",
                ruleset=ruleset,
                kind=op,
                inputs=inputs,
                clauses=(),
                flags=(),
                why="",
                expect={},
            )
        ]
    )


def test_the_form_is_the_smallest_relabelling_worked_independently() -> None:
    rng = random.Random(5)
    deck = [r + s for r in "23456789TJQKA" for s in "shdc"]
    for _ in range(300):
        cards = rng.sample(deck, 12)
        inputs = {
            "hands": [" ".join(cards[:4]), " ".join(cards[4:8])],
            "board": " ".join(cards[8:]),
        }
        form = canonical_key("r", Kind.COMPARE, inputs)
        (_, _, (hands, fields, extra)) = brute_form("r", Kind.COMPARE, inputs)
        assert (form[2], form[3], form[4]) == (hands, fields, extra)


def test_the_form_maps_hands_and_suits_back() -> None:
    """``order`` and ``suits`` say where each hand and suit of the request went."""
    inputs = {"hands": ["Kd Kh Ks", "Ac As Ah"]}
    form = canonical("r", Kind.COMPARE, inputs)
    hands = form.key[2]
    for place, index in enumerate(form.order):
        mine = " ".join(sorted(c[0] + form.suits[c[1]] for c in inputs["hands"][index].split()))
        assert mine == hands[place]


def test_every_twin_is_a_symmetry_of_its_curated_vector() -> None:
    """What makes the twins worthless against a memoriser up to symmetry: each has the
    form of the vector it twins (the reject twins' malformed tokens included)."""
    corpus = load_corpus()
    curated = [v for v in corpus.vectors if v.ruleset in ("nj-omaha-hi-lo", "mt-poker-high")]
    challenge = build_challenge(curated, load_profile("practice"), 4, fresh=False)
    by_id = {v.id: v for v in curated}
    for t in challenge.vectors:
        v = by_id[challenge.origins[t.id].partition(":")[2]]
        op = v.inputs["op"] if v.kind == Kind.REJECT else v.kind
        assert canonical_key(v.ruleset, op, v.inputs) == canonical_key(t.ruleset, op, t.inputs)
