"""The seven-card class table (pokercert.reference.seven) and the space an exhaustive pass
enumerates (classes.dealt_size).

Expectations from outside the table: the engine's own ``best_hand`` of each hand (its
selection rule from the ruleset data), ``itertools.combinations`` for the enumeration,
C(52, 7) = 133,784,560.  That the table equals the engine on a representative of every
one of the 190,346 classes, and reproduces the published census, is proved in
tests/reference/test_games_census.py; here: random hands, other games, the lookups.
"""

from __future__ import annotations

import random
from itertools import combinations, islice
from math import comb

import pytest

np = pytest.importorskip("numpy")

from pokercert.reference import DECK, evaluator  # noqa: E402
from pokercert.reference.batch import rank_rows, rows, unrank  # noqa: E402
from pokercert.reference.classes import ReferenceClasses, dealt_size, space_of  # noqa: E402
from pokercert.reference.rulesets import get_ruleset  # noqa: E402
from pokercert.reference.seven import seven_table  # noqa: E402

TOTAL = comb(52, 7)


@pytest.mark.parametrize(
    ("ruleset", "profile", "size"),
    [
        ("nj-holdem", "practice", 7),  # the board may play: any five of seven
        ("nj-holdem", "literal", 5),  # at least one hole card: no seven-card pass
        ("nj-seven-card-stud", "practice", 7),
        ("nj-razz", "practice", 7),
        ("nj-stud-hi-lo", "practice", 5),  # two halves: the five-card ranking only
        ("nj-omaha", "practice", 5),  # nine cards dealt, exactly two hole cards
        ("nj-mini-tex-3", "practice", 3),
        ("nj-poker-high-5", "practice", 5),
    ],
)
def test_the_space_is_the_deal_where_any_five_of_seven_play(ruleset, profile, size):
    assert dealt_size(evaluator(ruleset, profile)) == size


def test_a_seven_card_space_holds_every_seven_card_hand():
    space = space_of(get_ruleset("nj-holdem"), evaluator("nj-holdem").profile)
    assert (space.size, space.total) == (7, TOTAL == 133_784_560 and TOTAL)


def test_ranking_is_the_inverse_of_unranking():
    picks = np.array([*random.Random(3).sample(range(TOTAL), 5000), 0, TOTAL - 1])
    assert rank_rows(7, unrank(7, picks)).tolist() == picks.tolist()
    index = {c: i for i, c in enumerate(DECK)}
    first = [[index[c] for c in h] for h in islice(combinations(DECK, 7), 40)]
    assert rank_rows(7, np.array(first)).tolist() == list(range(40))


@pytest.mark.parametrize("ruleset", ["nj-holdem", "nj-seven-card-stud", "nj-razz"])
def test_random_hands_get_the_engines_best_five(ruleset):
    """Hold 'em dealt as two hole cards and five board cards, in a random order."""
    ev = evaluator(ruleset)
    table = seven_table(ruleset)
    rng = random.Random(ruleset)
    picks = np.array(rng.sample(range(TOTAL), 1500))
    hands = unrank(7, picks)
    shuffled = np.array([rng.sample(list(h), 7) for h in hands.tolist()])
    categories, dense = table.classify(shuffled)
    hole = ev.ruleset.selection.hole
    for row, category, key in zip(
        shuffled.tolist(), categories.tolist(), dense.tolist(), strict=True
    ):
        cards = [DECK[i] for i in row]
        board = cards[hole:] or None
        best = ev.best_hand(cards[:hole], board)
        assert (table.engine_key(key), table.category_names[category]) == (
            best.value.key,
            best.category,
        ), cards


def test_the_class_keys_run_in_the_engines_order():
    table = seven_table("nj-holdem")
    keys = [table.engine_key(d) for d in range(table.distinct)]
    assert keys == sorted(keys) and len(set(keys)) == table.distinct == 4_824


def test_each_class_member_is_a_hand_of_its_class():
    table = seven_table("nj-holdem")
    members = table.members
    got = table.keys_of(unrank(7, members.ravel())).reshape(members.shape)
    assert (got == np.arange(table.distinct)[:, None]).all()


def test_rows_that_are_no_hand_are_refused():
    table = seven_table("nj-holdem")
    with pytest.raises(ValueError, match="twice"):
        table.classify(np.array([[0, 0, 1, 2, 3, 4, 5]]))
    with pytest.raises(ValueError, match=r"\(m, 7\)"):
        table.classify(np.array([[0, 1, 2, 3, 4]]))


def test_the_reference_classes_of_a_range_are_the_engines():
    ev = evaluator("nj-seven-card-stud")
    ref = ReferenceClasses(ev.ruleset, ev.profile, space_of(ev.ruleset, ev.profile))
    start = 77_000_000
    tokens = ref.tokens(start, start + 300)
    classes = ref.classes(start, tokens)
    for hand, cls, row in zip(tokens, classes, rows(7, start, start + 300).tolist(), strict=True):
        assert [str(DECK[i]) for i in row] == hand
        assert ref.keys[cls] == ev.best_hand(" ".join(hand)).value.key
