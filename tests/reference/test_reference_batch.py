"""The vectorised reference path (reference/batch.py) against independent facts.

Category counts and distinct-value counts are the textbook tables (the same numbers
tests/reference/test_reference_exhaustive.py proves for the scalar engine); agreement with the
scalar engine is checked hand by hand on random samples, for every ruleset and both
built-in profiles.  Each five-card pass takes well under a second.
"""

from itertools import combinations, islice, pairwise
from math import comb

import pytest

np = pytest.importorskip("numpy", reason="the batch path needs numpy (extra 'fast')")

# the textbook tables, kept once for the scalar and the batch census
from pokercert.reference import DECK, all_rulesets, evaluator  # noqa: E402
from pokercert.reference.batch import cards_of, classify_all, hands, table  # noqa: E402
from tests.reference.test_reference_exhaustive import (  # noqa: E402
    ACE_FIVE,
    DEUCE_SEVEN,
    FIVE_HIGH,
    MINI_TEX,
    POCKET,
    THREE_HIGH,
    THREE_LOW,
)

# pocket hands: 13 two-card sequences (A-2 counts) x 4 suits = 52 suited, of which A-K
# is the royal; 13 x 12 unsuited sequences; 13 x 6 pairs, of which 6 are aces.  Under
# the literal reading of 13:69F-37.5(d) A-2 is not consecutive (4 suited, 12 unsuited lost)
POCKET_LITERAL = {**POCKET, "straight_flush": 44, "straight": 144, "high_card": 1056}


@pytest.mark.parametrize("size", [2, 3, 5])
def test_hands_are_every_combination_in_itertools_order(size):
    rows = hands(size).astype(np.int64)
    assert rows.shape == (comb(52, size), size)
    # strictly increasing inside each row, rows strictly increasing lexicographically:
    # exactly the order in which itertools.combinations yields every subset
    assert (rows[:, 1:] > rows[:, :-1]).all()
    code = rows @ (52 ** np.arange(size - 1, -1, -1))
    assert (np.diff(code) > 0).all()
    assert [tuple(r) for r in rows[:100].tolist()] == list(
        islice(combinations(range(52), size), 100)
    )


@pytest.mark.parametrize(
    ("ruleset", "profile", "table_", "distinct"),
    [
        ("nj-poker-high-5", "practice", FIVE_HIGH, 7462),
        ("nj-caribbean-stud", "practice", FIVE_HIGH, 7462),
        ("nj-lowball-2-7", "practice", DEUCE_SEVEN, 7462),
        # literal reading: the wheel is a straight again, so the high-poker table returns
        ("nj-lowball-2-7", "literal", FIVE_HIGH, 7462),
        ("nj-poker-low-5", "practice", ACE_FIVE, 6175),
        ("nj-poker-high-3", "practice", THREE_HIGH, 741),
        ("nj-mini-tex-3", "practice", MINI_TEX, 741),
        ("nj-poker-low-3", "practice", THREE_LOW, 455),
        ("nj-mini-tex-pocket", "practice", POCKET, 6),
        ("nj-mini-tex-pocket", "literal", POCKET_LITERAL, 6),
    ],
)
def test_census(ruleset, profile, table_, distinct):
    result = classify_all(ruleset, profile)
    assert len(result) == comb(52, result.size)
    assert result.counts() == table_
    assert result.distinct == distinct
    assert result.keys.min() == 0 and result.keys.max() == distinct - 1


def test_montana_natural_deck_has_no_five_of_a_kind():
    counts = classify_all("mt-poker-high").counts()
    assert counts["five_of_a_kind"] == 0
    assert {k: v for k, v in counts.items() if k != "five_of_a_kind"} == FIVE_HIGH


def test_keys_order_the_textbook_extremes():
    result = classify_all("nj-poker-high-5")
    rows = hands(5)
    best = cards_of(rows[int(np.argmax(result.keys))])
    worst = {c.rank for c in cards_of(rows[int(np.argmin(result.keys))])}
    assert {c.rank for c in best} == {14, 13, 12, 11, 10} and len({c.suit for c in best}) == 1
    assert worst == {7, 5, 4, 3, 2}  # 7-5-4-3-2 offsuit, the worst hand
    low = classify_all("nj-poker-low-5")
    wheel = {c.rank for c in cards_of(rows[int(np.argmax(low.keys))])}
    assert wheel == {14, 2, 3, 4, 5}  # A-2-3-4-5 is the best ace-to-five


# the poker rankings (a hand's value from its sorted ranks and suit class); High Card
# Flush ranks by flush length and is refused (test_a_flush_length_ranking_is_refused)
RULESET_IDS = [r.id for r in all_rulesets() if r.rules.get("ranking", "poker") == "poker"]


def test_a_flush_length_ranking_is_refused():
    """Suit class cannot tell a six-card flush from a two-card one: no table for it."""
    with pytest.raises(ValueError, match="pa-high-card-flush ranks by 'flush_length'"):
        classify_all("pa-high-card-flush")


@pytest.mark.parametrize("profile", ["practice", "literal"])
@pytest.mark.parametrize("ruleset", RULESET_IDS)
def test_agrees_with_scalar_engine_on_a_sample(ruleset, profile):
    ev = evaluator(ruleset, profile)
    result = classify_all(ruleset, profile)
    rows = hands(result.size)
    rng = np.random.default_rng(20240916)
    sample = rng.choice(len(result), size=min(len(result), 1500), replace=False)
    values = {}
    for i in sample.tolist():
        value = ev.value(cards_of(rows[i]))
        assert result.category(i) == value.category, cards_of(rows[i])
        values[i] = value.key
    # the dense keys order the sample exactly as the engine's keys do, ties included
    ordered = sorted(values, key=lambda i: int(result.keys[i]))
    for a, b in pairwise(ordered):
        same_batch = result.keys[a] == result.keys[b]
        assert (values[a] == values[b]) == same_batch, (cards_of(rows[a]), cards_of(rows[b]))
        assert values[a] <= values[b]


def test_classify_any_rows_in_any_card_order():
    tb = table("nj-poker-high-5")
    rows = hands(5)[::9973]
    categories, keys = tb.classify(rows[:, ::-1])
    everything = tb.classify_all()
    assert (categories == everything.categories[::9973]).all()
    assert (keys == everything.keys[::9973]).all()


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([[0, 0, 1, 2, 3]], "repeats a card"),
        ([[0, 52, 1, 2, 3]], "outside DECK"),
        ([[0, 1, 2, 3]], "expected an"),
    ],
)
def test_classify_refuses_rows_that_are_no_hands(rows, message):
    with pytest.raises(ValueError, match=message):
        table("nj-poker-high-5").classify(np.array(rows))


def test_deck_indices_are_the_deck():
    assert cards_of([0, 51]) == (DECK[0], DECK[51])


def test_each_class_key_is_the_engines_whole_key_even_ending_in_minus_one():
    """Ace-to-five low keys end in -1 (the ace): the table's padding must not eat it
    (it did: the best low, 5-4-3-2-A, came back as 5-4-3-2)."""
    from pokercert.reference import DECK, evaluator
    from pokercert.reference.batch import table, unrank

    ev = evaluator("nj-poker-low-5")
    tab = table("nj-poker-low-5")
    members = unrank(5, tab.members[:, 0]).tolist()
    wrong = [
        d
        for d, row in enumerate(members)
        if ev.value(tuple(DECK[i] for i in row)).key != tab.engine_key(d)
    ]
    assert wrong == []
    assert tab.engine_key(tab.distinct - 1) == ev.evaluate("5s 4h 3d 2c Ah").key
