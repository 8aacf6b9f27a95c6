"""The behavioural ruleset diff: which vectors decide differently under the other text.

Entries are checked by hand against the regulation texts (our clause summaries in
``reference/regulations/*.toml``); the accounting checks that no vector is dropped.
"""

from __future__ import annotations

import pytest

from pokercert.reference import all_rulesets, get_ruleset
from pokercert.vectors.behaviour_diff import behaviour_diff
from pokercert.vectors.corpus import load_corpus
from pokercert.vectors.model import Kind

RANKS = "23456789TJQKA"


@pytest.fixture(scope="module")
def vectors():
    return load_corpus().vectors


def diff(vectors, a, b, profile="practice"):
    return behaviour_diff(get_ruleset(a), get_ruleset(b), vectors, profile)


def _ace_king_queen_suited(hand: str) -> bool:
    cards = hand.split()
    return sorted(c[0] for c in cards) == ["A", "K", "Q"] and len({c[1] for c in cards}) == 1


def test_three_card_royal_flush_is_the_one_change_between_14_3c_and_20_3(vectors):
    """Hand-checked: 14.3(c)1 calls A-K-Q of one suit a royal flush; 20.3(b)1 calls it
    the best straight flush.  Every other three-card category and order agrees, so the
    vectors that change are exactly the classify vectors of a suited A-K-Q."""
    d = diff(vectors, "nj-poker-high-3", "nj-three-card-poker")
    for way, mine, theirs in (
        (d.a_under_b, "royal_flush", "straight_flush"),
        (d.b_under_a, "straight_flush", "royal_flush"),
    ):
        assert way.changed
        for c in way.changed:
            assert c.kind == Kind.CLASSIFY and _ace_king_queen_suited(c.inputs["hand"])
            assert (c.expected, c.other) == ({"category": mine}, {"category": theirs})
        akq = {
            v.id
            for v in vectors
            if v.ruleset == way.source
            and v.kind == Kind.CLASSIFY
            and _ace_king_queen_suited(v.inputs["hand"])
        }
        assert {c.vector for c in way.changed} == akq
    assert set(d.a_under_b.by_clause()) == {"13:69F-14.3(c)1"}


def test_queen_high_qualifies_in_three_card_poker_not_in_mini_tex(vectors):
    """Hand-checked: the three-card poker dealer qualifies 'Queen-high or better', the
    Mini-tex dealer 'a pair or better' (both house rules, see the ruleset files): Q-3-2
    (vector nj-three-card-poker/0018) qualifies in the one, not in the other; a hand that
    changes holds no pair."""
    way = diff(vectors, "nj-three-card-poker", "nj-mini-tex-3").a_under_b
    changed = {c.vector: c for c in way.changed}
    entry = changed["nj-three-card-poker/0018"]
    assert sorted(entry.inputs["hand"].split()) == ["2c", "3d", "Qs"]
    assert (entry.expected, entry.other) == ({"qualifies": True}, {"qualifies": False})
    for c in way.changed:
        assert c.kind == Kind.QUALIFIES
        assert len({card[0] for card in c.inputs["hand"].split()}) == 3  # no pair


def test_high_poker_under_deuce_to_seven(vectors):
    """14.3(f): low hands rank in the reverse of the high hands, so the royal flush
    against the king-high straight flush (nj-poker-high-5/0001) changes winner; 14.3(e):
    in deuce-to-seven the ace is only high, so every unsuited A-2-3-4-5 that is a straight
    in high poker is an ace-high no-pair hand there (practice reading)."""
    way = diff(vectors, "nj-poker-high-5", "nj-lowball-2-7").a_under_b
    changed = {c.vector: c for c in way.changed}
    first = changed["nj-poker-high-5/0001"]
    assert sorted(first.inputs["hands"][0].split()) == ["Ad", "Jd", "Kd", "Qd", "Td"]
    assert (first.expected, first.other) == ({"winners": [0]}, {"winners": [1]})
    wheels = [
        v
        for v in vectors
        if v.ruleset == "nj-poker-high-5"
        and v.kind == Kind.CLASSIFY
        and sorted(c[0] for c in v.inputs["hand"].split()) == sorted("A2345")
        and len({c[1] for c in v.inputs["hand"].split()}) > 1
    ]
    assert wheels
    for v in wheels:
        assert changed[v.id].other == {"category": "high_card"}
    # read literally (lowball-wheel), A-2-3-4-5 is a straight in deuce-to-seven too
    literal = {
        c.vector
        for c in diff(vectors, "nj-poker-high-5", "nj-lowball-2-7", "literal").a_under_b.changed
    }
    assert not literal & {v.id for v in wheels}


def test_questions_the_other_ruleset_cannot_be_asked_are_counted_with_the_reason(vectors):
    d = diff(vectors, "nj-three-card-poker", "nj-poker-high-3")
    qualifies = [
        v for v in vectors if v.ruleset == "nj-three-card-poker" and v.kind == Kind.QUALIFIES
    ]
    apart = d.a_under_b.not_comparable
    assert len(apart) == len(qualifies) > 0
    assert all("no dealer qualifier" in n.reason for n in apart)
    # jokers: Montana's joker hands cannot be dealt from New Jersey's deck
    way = diff(vectors, "mt-poker-high", "nj-poker-high-5").a_under_b
    joker_hands = {
        v.id
        for v in vectors
        if v.ruleset == "mt-poker-high" and v.kind != Kind.REJECT and "Xx" in str(dict(v.inputs))
    }
    assert joker_hands and joker_hands <= {n.vector for n in way.not_comparable}
    # hold'em hands (two hole cards) are no Omaha deal (four)
    way = diff(vectors, "nj-holdem", "nj-omaha-hi-lo").a_under_b
    assert any("4 cards a hand" in n.reason for n in way.not_comparable)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("nj-poker-high-5", "nj-lowball-2-7"),
        ("nj-mini-tex-3", "nj-three-card-poker"),
        ("nj-holdem", "nj-omaha-hi-lo"),
        ("mt-poker-high", "nj-poker-high-5"),
    ],
)
def test_every_vector_is_accounted_for(vectors, a, b):
    d = diff(vectors, a, b)
    for way in (d.a_under_b, d.b_under_a):
        mine = [v.id for v in vectors if v.ruleset == way.source]
        listed = [c.vector for c in way.changed] + [n.vector for n in way.not_comparable]
        assert way.vectors == len(mine) == way.same + len(listed)
        assert len(set(listed)) == len(listed) and set(listed) <= set(mine)


@pytest.mark.parametrize("rs", all_rulesets(), ids=lambda r: r.id)
def test_a_ruleset_answers_its_own_vectors_the_same(vectors, rs):
    way = behaviour_diff(rs, rs, vectors).a_under_b
    assert not way.changed and not way.not_comparable


def test_a_kind_it_cannot_count_cards_of_is_not_comparable_not_an_error():
    """A kind added later (a set hand of some new game, say) is counted apart with the reason
    until this module is taught its inputs; its own ruleset is still asked it."""
    from pokercert.vectors.behaviour_diff import not_comparable
    from pokercert.vectors.model import Vector

    later = Vector(
        id="nj-poker-high-5/9999",
        ruleset="nj-poker-high-5",
        kind="set_hand",
        inputs={"five": "As Ks Qs Js Ts", "two": "2c 2d"},
        clauses=("x",),
        flags=(),
        why="a kind this module does not know",
        expect={},
    )
    a, b = get_ruleset("nj-poker-high-5"), get_ruleset("nj-lowball-2-7")
    assert "not compared across rulesets" in str(not_comparable(later, a, b))
    assert not_comparable(later, a, a) is None


def test_a_half_the_other_game_does_not_have_is_not_comparable():
    """Stud high-low's low hand of seven cards (RRoP: eight or better) cannot be asked of
    seven-card stud, whose pot has only a high half; the high hand can."""
    from pokercert.vectors.behaviour_diff import not_comparable
    from pokercert.vectors.model import Vector

    def best(half):
        return Vector(
            id="nj-stud-hi-lo/9999",
            ruleset="nj-stud-hi-lo",
            kind=Kind.BEST_HAND,
            inputs={"hole": "Ah 2c 3d 4s 8h Kc Kd", "half": half},
            clauses=("x",),
            flags=(),
            why="a hand-made request",
            expect={},
        )

    hilo, stud = get_ruleset("nj-stud-hi-lo"), get_ruleset("nj-seven-card-stud")
    assert not_comparable(best("low"), hilo, stud) == "nj-seven-card-stud has no low half"
    assert not_comparable(best("high"), hilo, stud) is None
