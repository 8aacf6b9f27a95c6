"""Properties every ruleset's reference must have, checked with Hypothesis.

These are facts about any correct ranking, independent of the rules' details: the
order of cards and the names of suits never matter (suits are equal in every seed
regulation), comparison is a total preorder, winners() agrees with pairwise compare,
and Mini-tex never lets the board play alone.

Hands come from the situation generator fuzz and the challenge vectors use
(:func:`pokercert.harness.explore.situations.hand_strategy`, ``deal_strategy``): every
category of the game evenly, related hands (equal ranks, a rank apart) and boards that
would play, where a uniformly shuffled deck almost never reaches.
"""

from functools import cache
from itertools import permutations

from hypothesis import given
from hypothesis import strategies as st

from pokercert.harness.explore.situations import deal_strategy, hand_strategy
from pokercert.reference import Card, all_rulesets, evaluator, get_ruleset, parse_cards

RULESETS = [r.id for r in all_rulesets()]
PROFILES = ["practice", "literal"]
SUIT_PERMUTATIONS = list(permutations("shdc"))


@cache
def _hands(ruleset_id: str, profile: str, n_hands: int) -> st.SearchStrategy:
    return hand_strategy(get_ruleset(ruleset_id), profile, count=n_hands)


@st.composite
def deal(draw, n_hands: int = 1, ruleset_ids=RULESETS):
    """A ruleset, a profile and ``n_hands`` hands dealt from one deck."""
    rid = draw(st.sampled_from(ruleset_ids))
    profile = draw(st.sampled_from(PROFILES))
    return rid, profile, draw(_hands(rid, profile, n_hands))


def relabel(hand, mapping):
    return tuple(c if c.is_joker else Card(c.rank, mapping[c.suit]) for c in hand)


@given(deal(), st.sampled_from(SUIT_PERMUTATIONS), st.randoms(use_true_random=False))
def test_card_order_and_suit_names_never_matter(dealt, suits, rnd):
    rid, profile, (hand,) = dealt
    ev = evaluator(rid, profile)
    shuffled = list(hand)
    rnd.shuffle(shuffled)
    mapping = dict(zip("shdc", suits, strict=True))
    base = ev.value(hand)
    for other in (tuple(shuffled), relabel(hand, mapping)):
        got = ev.value(other)
        assert (got.category, got.key) == (base.category, base.key)


@given(
    deal(
        n_hands=3,
        ruleset_ids=[r for r in RULESETS if r != "nj-mini-tex-pocket"] + ["nj-poker-high-3"],
    )
)
def test_compare_is_a_total_preorder(dealt):
    rid, profile, (a, b, c) = dealt
    ev = evaluator(rid, profile)

    def cmp(x, y):
        return ev.compare(x, y)

    assert cmp(a, b) == -cmp(b, a)
    assert cmp(a, a) == 0
    if cmp(a, b) >= 0 and cmp(b, c) >= 0:
        assert cmp(a, c) >= 0
    if cmp(a, b) > 0 and cmp(b, c) >= 0:
        assert cmp(a, c) > 0


@given(deal(n_hands=4), st.integers(min_value=2, max_value=4))
def test_winners_agree_with_pairwise_compare(dealt, n):
    rid, profile, hands = dealt
    ev = evaluator(rid, profile)
    hands = hands[:n]
    winners = ev.winners(hands)
    assert winners
    for w in winners:
        assert all(ev.compare(hands[w], h) >= 0 for h in hands)
    for i in set(range(n)) - set(winners):
        assert any(ev.compare(hands[w], hands[i]) > 0 for w in winners)


@cache
def _boards(profile: str) -> st.SearchStrategy:
    return deal_strategy(get_ruleset("nj-mini-tex-3"), profile, ["best_hand"], free=True)


@given(st.sampled_from(PROFILES).flatmap(lambda p: st.tuples(st.just(p), _boards(p))))
def test_mini_tex_best_hand_uses_a_hole_card_and_is_maximal(dealt):
    profile, case = dealt
    ev = evaluator("nj-mini-tex-3", profile)
    hole, board = parse_cards(case.inputs["hole"]), parse_cards(case.inputs["board"])
    best = ev.best_hand(hole, board)
    for alt in best.alternatives:
        assert set(alt) & set(hole), "the board alone never plays"
        assert set(alt) <= set(hole) | set(board) and len(alt) == 3
    # no legal three-card hand beats it
    from itertools import combinations

    legal = [h for h in combinations(hole + board, 3) if set(h) & set(hole)]
    assert best.value.key == max(ev.value(h).key for h in legal)
