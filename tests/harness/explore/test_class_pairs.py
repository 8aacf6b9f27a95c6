"""The member pairs found for many class pairs at once are the hand-by-hand search's.

:class:`ClassPairs` replaces, for speed, three searches of
:class:`~pokercert.reference.classes.ReferenceClasses` done hand by hand in Python; each
is held here to the original on whole games: three-card high (every neighbouring pair
of its 741 classes and random pairs), and the Montana game with its joker (a joker hand
and a hand may not hold more jokers between them than the deck has).
"""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

from pokercert.harness.api import Hands
from pokercert.harness.explore.class_pairs import ClassPairs, python_first_pair
from pokercert.reference import get_ruleset, load_profile
from pokercert.reference.classes import (
    CODED_CARDS,
    ReferenceClasses,
    cards,
    joker_count,
    mask,
    member_step,
    row_texts,
    shuffled,
    space_of,
    text,
)

SEED = 7


def _reference(ruleset_id: str) -> tuple[ReferenceClasses, ClassPairs]:
    rs, prof = get_ruleset(ruleset_id), load_profile("practice")
    ref = ReferenceClasses(rs, prof, space_of(rs, prof, True))
    for i, members in enumerate(ref.candidates):  # as the compare path sets them
        ref.rep[i] = members[0]
    return ref, ClassPairs(ref, SEED, rs.jokers)


def _pairs(n: int, neighbours: int, extra: int) -> list[tuple[int, int]]:
    rnd = random.Random(1)
    step = max(1, (n - 1) // neighbours)
    return [(i - 1, i) for i in range(1, n, step)] + [
        tuple(sorted(rnd.sample(range(n), 2))) for _ in range(extra)
    ]


@pytest.mark.parametrize(
    ("ruleset_id", "neighbours", "extra"),
    [("nj-poker-high-3", 740, 500), ("mt-poker-high", 150, 150)],
)
def test_the_pairs_are_the_hand_by_hand_searchs(ruleset_id, neighbours, extra):
    ref, table = _reference(ruleset_id)
    pairs = _pairs(len(ref.keys), neighbours, extra)
    want = []
    for a, b in pairs:
        pair = python_first_pair(ref, a, b)
        want.append(
            None if pair is None else (text(shuffled(pair[0], SEED)), text(shuffled(pair[1], SEED)))
        )
    assert table.first_pairs(pairs) == want
    assert None in want or ruleset_id != "mt-poker-high"  # jokers leave some apart


@pytest.mark.parametrize(
    ("ruleset_id", "neighbours"), [("nj-poker-high-3", 740), ("mt-poker-high", 300)]
)
def test_neighbours_apart_by_renaming_as_disjoint_pair_says(ruleset_id, neighbours):
    ref, table = _reference(ruleset_id)
    pairs = _pairs(len(ref.keys), neighbours, 0)
    apart = table.apart_by_renaming(pairs)
    for (a, b), ok in zip(pairs, apart, strict=True):
        by_renaming = any(
            not m_lo & m_up and ref.fits(up, joker_count(low))
            for m_lo, low in ref.alternatives(a)
            for m_up, up in ref.alternatives(b)
        )
        assert ok == by_renaming, (a, b)


def _class_of(ref, hand):
    """The reference's class of a hand: of its value, or over whole deals of its best
    hand's (the batch table's classes of rows of deck positions)."""
    if not ref.best_of_dealt:
        return ref.index[ref.value(tuple(hand)).key]
    import numpy as np

    return int(ref.class_of_rows(np.array([sorted(CODED_CARDS.index(str(c)) for c in hand)]))[0])


def _members_as_disjoint_member_gives(ref, table, rows, classes):
    """Every hand's member beside it is ReferenceClasses.disjoint_member's (None alike);
    how many hands had one, and how many of those none among the class's renamings."""
    codes, apart = table.members_beside(classes, rows)
    sent = row_texts(codes)
    got = [t if ok else None for t, ok in zip(sent, apart.tolist(), strict=True)]
    found = beyond = 0
    for tokens, c, member in zip(Hands(None, rows.shape[1], rows=rows), classes, got, strict=True):
        h = cards(tokens)
        want = ref.disjoint_member(c, mask(h), joker_count(h), skip=mask(h))
        assert member == (None if want is None else text(shuffled(want, SEED))), tokens
        if want is not None:  # and it is one: apart from the hand, of the hand's class
            assert not mask(want) & mask(h), (tokens, member)
            assert _class_of(ref, want) == c, (tokens, member)
        found += member is not None
        beyond += member is not None and all(
            m & mask(h) or m == mask(h) or not ref.fits(alt, joker_count(h))
            for m, alt in ref.alternatives(c)
        )
    return found, beyond


def test_members_beside_a_batch_are_disjoint_members():
    ref, table = _reference("nj-poker-high-3")
    rows = ref.code_rows(0, 22_100, SEED)
    classes = ref.class_index(0, Hands(None, 3, rows=rows))
    found, _ = _members_as_disjoint_member_gives(ref, table, rows, classes)
    # every hand but the 52 three of a kind (no member of their class apart from them)
    assert found == 22_100 - 52


def test_members_beside_in_a_joker_game_are_disjoint_members():
    """Montana's joker game: a member beside a hand with the joker must leave the deck's
    one joker to the hand (and a hand's jokers are no card the two share)."""
    ref, table = _reference("mt-poker-high")
    # the last natural hands, the first with one joker; the last with one, the first with two
    for start in (2_592_960, 2_863_685):
        rows = ref.code_rows(start, start + 12_000, SEED)
        classes = ref.class_index(start, Hands(None, 5, rows=rows))
        jokers = (rows == len(CODED_CARDS) - 1).sum(axis=1)
        assert len(set(jokers.tolist())) == 2  # hands of two joker counts among them
        found, _ = _members_as_disjoint_member_gives(ref, table, rows, classes)
        assert found > 0


def test_members_beside_found_beyond_the_renamings_are_disjoint_members():
    """One-pair and high-card hands of five-card high whose class's renamings all share a
    card with them (a pair's two suits and kickers fill the deck's suits): their member is
    looked up among every member of the class, for the whole batch at once."""
    ref, table = _reference("nj-poker-high-5")
    rows = ref.code_rows(1_000_000, 1_008_000, SEED)
    classes = ref.class_index(1_000_000, Hands(None, 5, rows=rows))
    _, beyond = _members_as_disjoint_member_gives(ref, table, rows, classes)
    assert beyond > 100  # the batch search beyond the renamings was exercised


@pytest.mark.parametrize("size", [*range(1, 400), 1_020, 4_096, 65_536, 99_991])
def test_member_search_order_visits_every_member_once(size):
    """The stride search order over a class is a permutation of its members: a hand with
    no member found beside it has none in the whole class."""
    step = member_step(size)
    assert sorted((k * step) % size for k in range(size)) == list(range(size))


@pytest.mark.parametrize("ruleset_id", ["nj-poker-high-5", "mt-poker-high"])
def test_every_class_steps_as_member_step_says(ruleset_id):
    """The steps made for all classes at once (numpy) are :func:`member_step`'s."""
    ref, _ = _reference(ruleset_id)
    starts = ref.natural_members()[2]
    sizes = [int(b - a) for a, b in pairwise(starts)]
    assert ref.member_steps().tolist() == [member_step(n) for n in sizes]


@pytest.mark.parametrize("width", [1, 8, 63, 64, 65, 97, 130])
def test_the_first_free_hand_of_a_row_is_the_first_sharing_no_card(width):
    """:class:`_Holders` (bits of which hands hold each card) finds, for each hand, the
    first usable hand of its class's row that shares no card with it: checked against
    a plain scan of the rows, over rows wider than one 64-bit word."""
    import numpy as np

    from pokercert.harness.explore.class_pairs import _JOKER, _Holders

    rng = np.random.default_rng(width)
    classes, size, hands = 5, 3, 400
    # a few cards and the joker, so that hands share cards often
    alphabet = np.array([*range(9), _JOKER])
    codes = alphabet[rng.integers(0, len(alphabet), (classes, width, size))]
    usable = rng.random((classes, width)) < 0.9
    holders = _Holders(np, codes, usable)
    of = rng.integers(0, classes, hands)
    rows = alphabet[rng.integers(0, len(alphabet), (hands, size))]
    found, first = holders.first_free(of, rows)
    for k in range(hands):
        cards = set(rows[k].tolist()) - {_JOKER}
        free = [
            r
            for r in range(width)
            if usable[of[k], r] and not cards & (set(codes[of[k], r].tolist()) - {_JOKER})
        ]
        assert found[k] == bool(free), k
        if free:
            assert first[k] == free[0], k
    assert found.any() and (width > 8 or not found.all())


@pytest.mark.parametrize("ruleset_id", ["nj-razz", "nj-holdem"])
def test_members_beside_seven_card_deals_are_disjoint_members(ruleset_id):
    """Whole seven-card deals: a class holds more renamings than one 64-bit word (72),
    and no natural member table (every deal is its own best hand's)."""
    ref, table = _reference(ruleset_id)
    assert table._codes.shape[1] > 64
    rows = ref.code_rows(5_000_000, 5_001_500, SEED)
    classes = ref.class_index(5_000_000, Hands(None, 7, rows=rows))
    found, _ = _members_as_disjoint_member_gives(ref, table, rows, classes)
    assert 0 < found < len(rows)
