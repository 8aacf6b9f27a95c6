"""The behavioural ruleset diff on pai gow's questions (two-card hands, settings,
settlements): asked of a ruleset that has them, counted apart with the reason otherwise.

The changed settlements are worked by hand from the texts: Saint Lucia s.67(1) makes
A-2-3-4-5 the "Second Highest Straight" (lc-67-pai-gow-poker.toml, clause '"straight"');
Washington's item 2 applies standard rankings, A-2-3-4-5 the lowest straight, unless the
card room documents the exception (interpretation wa-wheel: practice the lowest, literal
just below A-K-Q-J-10, straights only).  The settlement words are pai_gow.toml's house
rules: both hands won, the player; one each, a push; a two-card hand with the higher top
card wins (nine-eight beats eight-seven).
"""

from __future__ import annotations

import dataclasses

import pytest

from pokercert.reference import Profile, get_ruleset
from pokercert.vectors.behaviour_diff import behaviour_diff, not_comparable
from pokercert.vectors.corpus import load_corpus
from pokercert.vectors.model import PAI_GOW_KINDS, Kind, Vector

LC, WA = "lc-pai-gow-poker", "wa-pai-gow-poker"
# (player's high, banker's high), the player's nine-eight in front of the banker's
# eight-seven: the player wins the two-card hand, so the high hand decides player or push
WHEEL_AGAINST = {
    "0289": ("Ah 2c 3d 4s 5h", "Kd Qh Jc Td 9s"),  # the wheel against a king-high straight
    "0290": ("Ah 2c 3d 4s 5h", "6d 5c 4h 3c 2s"),  # against the six-high straight
    "0291": ("Xx 2c 3d 4s 5h", "Kd Qh Jc Td 9s"),  # the joker as the wheel's ace or the six
}
FRONT = ("9d 8c", "8h 7h")
# the suited wheel against the king-high straight flush (nine-eight against seven-six in
# front): second among straight flushes in Saint Lucia (practice), the lowest in Washington
SUITED_WHEEL = "0295"


@pytest.fixture(scope="module")
def vectors():
    return load_corpus().vectors


def diff(vectors, a, b, profile="practice"):
    return behaviour_diff(get_ruleset(a), get_ruleset(b), vectors, profile)


def settle(ruleset, player, banker, expect="player"):
    return Vector(
        id=f"{ruleset}/9999",
        ruleset=ruleset,
        kind=Kind.SETTLE,
        inputs={"player": list(player), "banker": list(banker)},
        clauses=("x",),
        flags=(),
        why="a hand-made settlement",
        expect={"settlement": expect},
    )


def test_the_wheel_turns_four_settlements_between_saint_lucia_and_washington(vectors):
    """Hand-worked: in Saint Lucia the wheel (and 2-3-4-5 with the joker as its ace) is the
    second highest straight, above the king-high and six-high straights: the player wins
    both hands.  In Washington (practice) it is the lowest straight: the high hand is lost,
    the front won, a push.  The joker hand 0291: in Washington the joker makes 2-3-4-5-6
    (better than the lowest straight), still below the king-high straight: a push.  0295,
    the suited wheel against the king-high straight flush, the same way: the player's in
    Saint Lucia (lc-wheel-straight-flush practice), a push in Washington (every reading)."""
    d = diff(vectors, LC, WA)
    for way, mine, theirs in ((d.a_under_b, "player", "push"), (d.b_under_a, "push", "player")):
        changed = {c.vector: c for c in way.changed if c.kind == Kind.SETTLE}
        assert set(changed) == {f"{way.source}/{n}" for n in [*WHEEL_AGAINST, SUITED_WHEEL]}
        suited = changed[f"{way.source}/{SUITED_WHEEL}"]
        assert suited.inputs["player"] == ["As 2s 3s 4s 5s", "9d 8c"]
        assert (suited.expected, suited.other) == ({"settlement": mine}, {"settlement": theirs})
        for n, (high, banker_high) in WHEEL_AGAINST.items():
            entry = changed[f"{way.source}/{n}"]
            assert entry.inputs["player"] == [high, FRONT[0]]
            assert entry.inputs["banker"] == [banker_high, FRONT[1]]
            assert (entry.expected, entry.other) == ({"settlement": mine}, {"settlement": theirs})
    low_hand = [f"{LC}/{n}" for n in [*WHEEL_AGAINST, SUITED_WHEEL]]
    assert d.a_under_b.by_clause()['67(1) "low hand"'] == low_hand
    assert d.readings["wa-wheel"] == "practice"


def test_every_pai_gow_question_is_asked_between_two_pai_gow_games(vectors):
    """Both texts deal one 53-card deck (one joker) and five- and two-card hands: every
    pai gow vector of either is a question of the other; the wheel decides no setting
    (a straight outranks every two-card hand wherever the wheel ranks) and no two-card
    hand (no straight in two cards)."""
    d = diff(vectors, LC, WA)
    for way in (d.a_under_b, d.b_under_a):
        assert way.not_comparable == ()
        kinds = {c.kind for c in way.changed}
        assert Kind.SETTING not in kinds and Kind.COMPARE_TWO_CARD not in kinds


def test_the_documented_exception_settles_the_wheel_as_saint_lucia_does(vectors):
    """wa-wheel literal: the card room's exception puts A-2-3-4-5 just below A-K-Q-J-10,
    as s.67 does: the three settlements agree (the player wins both), so none is listed."""
    profile = Profile("wa-exception", {"wa-wheel": "literal"})
    d = diff(vectors, LC, WA, profile)
    assert d.readings["wa-wheel"] == "literal"
    compared = {c.vector for c in d.a_under_b.changed} | {
        n.vector for n in d.a_under_b.not_comparable
    }
    assert not compared & {f"{LC}/{n}" for n in WHEEL_AGAINST}
    assert d.a_under_b.vectors == d.a_under_b.same + len(d.a_under_b.changed)


@pytest.mark.parametrize(
    ("readings", "saint_lucia", "washington"),
    [
        ({}, "player", "push"),
        ({"wa-wheel": "literal"}, "player", "push"),
        ({"lc-wheel-straight-flush": "literal"}, "push", "push"),
    ],
)
def test_a_suited_wheel_against_the_king_high_straight_flush(readings, saint_lucia, washington):
    """Hand-worked (the corpus's 0295 is the same deal in other suits): A-2-3-4-5 of hearts against
    K-Q-J-10-9 of spades, nine-eight against eight-seven in front.  Saint Lucia
    (lc-wheel-straight-flush practice: the wheel second among straight flushes too) wins
    the player both hands; Washington keeps the suited wheel the lowest straight flush
    under both readings (the exception speaks of straights only): a push.  Read literally,
    Saint Lucia's special order is the straight's only: a push there too, no change."""
    deal = (["Ah 2h 3h 4h 5h", FRONT[0]], ["Ks Qs Js Ts 9s", FRONT[1]])
    way = diff([settle(LC, *deal, saint_lucia)], LC, WA, Profile("hand-worked", readings))
    changed = [(c.expected, c.other) for c in way.a_under_b.changed]
    if saint_lucia == washington:
        assert (way.a_under_b.same, changed) == (1, [])
    else:
        mine, theirs = {"settlement": saint_lucia}, {"settlement": washington}
        assert changed == [(mine, theirs)]


@pytest.mark.parametrize(
    ("kind", "inputs"),
    [
        (Kind.COMPARE_TWO_CARD, {"hands": ["As Xx", "Kd Kc"]}),
        (Kind.SETTING, {"high": "Kh Kd 9d 5c 3s", "low": "Qs Jc"}),
        (
            Kind.SETTLE,
            {"player": ["Ah Ad 9c 5s 3h", "Ks Qc"], "banker": ["Kh Kd 9d 5c 3s", "Qs Jc"]},
        ),
    ],
)
def test_a_game_without_the_question_is_named_in_the_reason(kind, inputs):
    """Hold 'em (14.10) and South Dakota's joker poker (20:18:16:03) deal no two-card hand
    beside a five-card one: each pai gow question is not comparable, and says so."""
    vector = Vector(
        id=f"{LC}/9999",
        ruleset=LC,
        kind=kind,
        inputs=inputs,
        clauses=("x",),
        flags=(),
        why="a hand-made question",
        expect={},
    )
    for other in ("nj-holdem", "sd-poker-high-joker"):
        reason = not_comparable(vector, get_ruleset(LC), get_ruleset(other))
        assert reason is not None and reason.startswith(f"{other} has no {kind} question")
    assert not_comparable(vector, get_ruleset(LC), get_ruleset(WA)) is None


def test_a_joker_needs_a_deck_with_a_joker():
    """A two-card hand holding the joker cannot be dealt from a pai gow deck without one
    (a hypothetical jokerless Washington game); the same hand without it can."""
    jokerless = dataclasses.replace(get_ruleset(WA), jokers=0)
    assert jokerless.jokers == 0

    def two_card(hand):
        return Vector(
            id=f"{LC}/9999",
            ruleset=LC,
            kind=Kind.COMPARE_TWO_CARD,
            inputs={"hands": [hand, "Kd Kc"]},
            clauses=("x",),
            flags=(),
            why="a hand-made question",
            expect={},
        )

    lc = get_ruleset(LC)
    assert "1 joker(s)" in str(not_comparable(two_card("As Xx"), lc, jokerless))
    assert not_comparable(two_card("As Ad"), lc, jokerless) is None
    deal = settle(LC, ["As Ah Ad Ac Xx", "Ks Qd"], ["9c 8c 7c 6c 5c", "Kh Qh"])
    assert "1 joker(s)" in str(not_comparable(deal, lc, jokerless))


def test_pai_gow_vectors_are_all_accounted_for_against_a_non_pai_gow_game(vectors):
    """Against hold 'em every pai gow vector of Saint Lucia is not comparable, one reason
    per kind; none is dropped."""
    way = diff(vectors, LC, "nj-holdem").a_under_b
    mine = [v for v in vectors if v.ruleset == LC and v.kind in PAI_GOW_KINDS]
    apart = {n.vector: n.reason for n in way.not_comparable}
    assert mine and all(v.id in apart for v in mine)
    assert {apart[v.id] for v in mine} == {
        f"nj-holdem has no {k} question (not a pai gow game: no [[game]] in pai_gow.toml)"
        for k in PAI_GOW_KINDS
    }


@pytest.mark.parametrize("op", PAI_GOW_KINDS)
def test_a_refused_pai_gow_input_is_asked_only_of_a_pai_gow_game(op):
    """A reject vector through a pai gow question (a card twice across the set hands) is
    asked of another pai gow game (the same deal: five- and two-card hands, one deck), and
    counted apart against hold 'em with the question it lacks."""
    inputs = {
        Kind.COMPARE_TWO_CARD: {"hands": ["As Ad", "As Kc"]},
        Kind.SETTING: {"high": "Kh Kd 9d 5c 3s", "low": "Kh Jc"},
        Kind.SETTLE: {"player": ["Ah Ad 9c 5s 3h", "Ks Qc"], "banker": ["Ah Kd 9d 5c 3s", "Qs Jc"]},
    }[op]
    vector = Vector(
        id=f"{LC}/9999",
        ruleset=LC,
        kind=Kind.REJECT,
        inputs={"op": op, **inputs},
        clauses=("x",),
        flags=(),
        why="a hand-made refused input",
        expect={"reason": "duplicate-card"},
    )
    lc = get_ruleset(LC)
    assert not_comparable(vector, lc, get_ruleset(WA)) is None
    reason = not_comparable(vector, lc, get_ruleset("nj-holdem"))
    assert reason is not None and reason.startswith(f"nj-holdem has no {op} question")
