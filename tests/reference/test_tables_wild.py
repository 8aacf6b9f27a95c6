"""Wild-card postings as ruleset data: deuces wild, proved by an independent count.

ARM 23.16.1205(5) says only "Wild cards may be used"; the card room posts which.  The
``-deuces`` rulesets are the posting "the four twos are wild".  The census below counts
every five-card hand by a rule-based classifier written here (what the wild cards can
reach, decided from the natural cards' counts, suits and span), not by the engine's
substitution search.  No whole published deuces-wild table of dealt hands was retrieved
(2026-12-01; the stored copies of the tables stop before them): the counts are this
independent method's, the rows they must meet are worked out by hand below, and the one
published row found is checked: 672 five-card "quints" with four wild cards of one rank
(B. Alspach, "Wild Cards in Profusion: Part 2", Poker Digest 5(9), 2002,
http://people.math.sfu.ca/~alspach/mag94, retrieved 2026-12-01).  The four-deuces row of
the usual tables is folded into five of a kind (four wild deuces and any card are five
of that card's rank), as Alspach's count does.
"""

from collections import Counter
from itertools import combinations
from math import comb

import pytest

from pokercert.reference import DECK, evaluator, get_ruleset
from pokercert.reference.cards import Card, parse_cards
from pokercert.reference.rulesets import Regulation, Ruleset, RulesetError, _Loader

ACE = 14
NATURALS = tuple(c for c in DECK if c.rank != 2)


def independent_category(naturals: tuple[Card, ...], wilds: int) -> str:
    """Best high category of ``naturals`` plus ``wilds`` deuces wild, by rules of reach."""
    ranks = [c.rank for c in naturals]
    counts = sorted(Counter(ranks).values(), reverse=True) or [0]
    suited = len({c.suit for c in naturals}) <= 1
    distinct = len(set(ranks)) == len(ranks)
    # a straight needs the naturals inside one window of five ranks (2 is wild here, so
    # the wheel window is A-3-4-5 plus the deuce's place)
    windows = [set(range(t - 4, t + 1)) for t in range(14, 5, -1)] + [{14, 2, 3, 4, 5}]
    fits = distinct and any(set(ranks) <= w for w in windows)
    royal = distinct and set(ranks) <= {10, 11, 12, 13, 14}
    if counts[0] + wilds >= 5:
        return "five_of_a_kind"
    if suited and royal:
        return "royal_flush"
    if suited and fits:
        return "straight_flush"
    if counts[0] + wilds >= 4:
        return "four_of_a_kind"
    if counts[:2] == [3, 2] or (wilds == 1 and counts[:2] == [2, 2]):
        return "full_house"
    if suited:
        return "flush"
    if fits:
        return "straight"
    if counts[0] + wilds >= 3:
        return "three_of_a_kind"
    if counts[:2] == [2, 2]:
        return "two_pair"
    if counts[0] + wilds >= 2:
        return "one_pair"
    return "high_card"


@pytest.fixture(scope="module")
def deuces_census() -> tuple[Counter[str], Counter[str]]:
    """(engine, independent) counts over all 2,598,960 hands, grouped by the naturals:
    a hand with k deuces is its 5-k natural cards times C(4, k) choices of deuces.  The
    engine values only hands with a deuce (886,656 of them): the 1,712,304 without one
    are natural hands, whose census is the textbook table proved for every seed ruleset
    (tests/reference/test_reference_exhaustive.py); the independent count covers all."""
    ev = evaluator("mt-poker-high-deuces")
    deuces = [c for c in DECK if c.rank == 2]
    engine: Counter[str] = Counter()
    independent: Counter[str] = Counter()
    for k in range(5):
        ways = comb(4, k)
        wild = tuple(deuces[:k])
        for naturals in combinations(NATURALS, 5 - k):
            expected = independent_category(naturals, k)
            independent[expected] += ways
            if k:
                engine[ev.value(naturals + wild).category] += ways
            else:
                engine[expected] += ways  # no wild card: the natural census stands
    return engine, independent


def test_the_hand_worked_rows(deuces_census: tuple[Counter[str], Counter[str]]) -> None:
    _, independent = deuces_census
    assert sum(independent.values()) == comb(52, 5)
    # natural royal flushes 4; with wild deuces a royal needs its naturals inside
    # T-J-Q-K-A of one suit: k wilds and 5-k of those five ranks, 4 suits
    assert independent["royal_flush"] == sum(4 * comb(5, 5 - k) * comb(4, k) for k in range(4))
    # five of a kind: 4 deuces and any natural (48, the folded four-deuces row), or
    # k deuces with 5-k naturals of one rank (k = 1..3), 12 natural ranks
    assert independent["five_of_a_kind"] == 48 + sum(
        12 * comb(4, 5 - k) * comb(4, k) for k in (1, 2, 3)
    )
    assert independent["five_of_a_kind"] == 672  # Alspach's published count


def test_the_batch_tables_meet_the_independent_count(
    deuces_census: tuple[Counter[str], Counter[str]],
) -> None:
    """reference/batch.py values all 2,598,960 hands of the deuces posting by its codes
    (ranks and the naturals' suit class): category by category the independent count."""
    batch = pytest.importorskip("pokercert.reference.batch")
    _, independent = deuces_census
    counts = batch.classify_all("mt-poker-high-deuces").counts()
    assert {k: v for k, v in counts.items() if v} == dict(independent)


def test_the_engine_agrees_with_the_independent_count(
    deuces_census: tuple[Counter[str], Counter[str]],
) -> None:
    engine, independent = deuces_census
    assert engine == independent


@pytest.mark.parametrize(
    ("ruleset", "hand", "category"),
    [
        # deuces wild: two deuces complete a straight flush, which beats natural quads
        ("mt-poker-high-deuces", "2s 2h 9c 8c 7c", "straight_flush"),
        ("mt-poker-high-deuces", "2d 2c Ah Ad Ac", "five_of_a_kind"),
        ("mt-poker-high-deuces", "2h Kh Qh Jh 9h", "straight_flush"),
        # ace-to-five low: a deuce plays as the card the low hand lacks
        ("mt-poker-low-deuces", "2s 3h 4d 5c 7s", "high_card"),
    ],
)
def test_posted_deuces(ruleset: str, hand: str, category: str) -> None:
    assert evaluator(ruleset).category(hand) == category


def test_deuces_wild_beats_natural_quads_only_as_a_straight_flush() -> None:
    ev = evaluator("mt-poker-high-deuces")
    assert ev.winners(["2s 2h 9c 8c 7c", "Ks Kh Kd Kc 3s"]) == [0]


def test_a_deuces_posting_low_hand_uses_the_wilds_as_ace_and_missing_card() -> None:
    ev = evaluator("mt-poker-low-deuces")
    # 2-2-3-4-5: the deuces are an ace and the deuce itself, A-2-3-4-5, the best low
    assert ev.winners(["2s 2h 3d 4c 5s", "Ah 3c 4h 5d 6s"]) == [0]


def _load_ruleset(name: str, reg: Regulation, table: dict[str, object]) -> Ruleset:
    """One ruleset table loaded as the registry loads it (beside ``reg``'s regulation)."""
    return _Loader({reg.id: reg}, {"x": (name, reg, dict(table))}).get("x", name)


def test_wild_designations_are_checked_data() -> None:
    base = {
        "id": "x",
        "title": "t",
        "clauses": [],
        "hand_size": 5,
        "equal_outcome": "split",
        "interpretations": [],
        "order_clauses": [],
        "tiebreak_clauses": [],
        "categories": [],
        "rules": {
            "direction": "high",
            "ace": "high",
            "straight_ace": "both",
            "straight_suits": "any",
            "tiebreak": "grouped",
        },
    }
    reg = get_ruleset("mt-poker-high").regulation
    with pytest.raises(RulesetError, match=r"deck\.wild 'sevens'"):
        _load_ruleset("f.toml", reg, {**base, "deck": {"wild": "sevens"}})
    with pytest.raises(RulesetError, match="needs jokers"):
        _load_ruleset("f.toml", reg, {**base, "deck": {"wild": "bug"}})
    with pytest.raises(RulesetError, match="without jokers"):
        _load_ruleset("f.toml", reg, {**base, "deck": {"wild": "deuces", "jokers": 1}})
    assert get_ruleset("mt-poker-high-deuces").wild == "deuces"
    assert parse_cards("2s 2h 2d 2c As", jokers=0)  # deuces are ordinary cards to parse


def _bug_evaluator():  # type: ignore[no-untyped-def]
    """Montana high with one joker posted as a bug (ace, or completing a straight/flush)."""
    from dataclasses import replace

    from pokercert.reference.engine import Evaluator

    return Evaluator(replace(get_ruleset("mt-poker-high"), jokers=1, wild="bug"))


@pytest.mark.parametrize(
    ("hand", "category"),
    [
        ("Xx As Ah Ad Ac", "five_of_a_kind"),  # the bug is an ace: five aces
        ("Xx Kh Qh Jh Th", "royal_flush"),  # it completes the royal flush (as the ace)
        ("Xx 9h 8h 7h 6h", "straight_flush"),  # it completes a straight flush (as the ten)
        ("Xx 9h 8d 7c 6s", "straight"),  # it completes a straight (as the ten)
        ("Xx Ah Jh 8h 4h", "flush"),  # it completes a flush
        ("Xx Kh Kd 9c 4h", "one_pair"),  # a joker would make three kings; a bug is an ace
        ("Xx Kh Kd Kc 4h", "three_of_a_kind"),  # not four kings: kings and an ace
        ("Xx Ah Kd 9c 4s", "one_pair"),  # the bug pairs the ace
    ],
)
def test_the_bug_is_an_ace_or_completes_a_straight_or_flush(hand: str, category: str) -> None:
    assert _bug_evaluator().category(hand) == category


def test_the_bug_plays_as_an_ace_beside_a_pair() -> None:
    value = _bug_evaluator().evaluate("Xx Kh Kd 9c 4h")
    assert sorted(c.rank for c in value.played) == [4, 9, 13, 13, 14]
