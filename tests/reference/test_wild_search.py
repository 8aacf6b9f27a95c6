"""The pruned wild-card search against the exhaustive one, on seeded random wild hands.

``Evaluator._wild_search`` tries every rank the wild cards may take and, for each, the
suits that reach every suit class; by default (``fast=True``) it skips the suits of a
rank choice whose keys under every reachable suit class are no better than the best key
found so far.  The exhaustive search (``fast=False``) is the oracle: the two must give
the same category, key *and* substitutes (what the hand plays as) for every hand, under
every combination of readings of the wild rulesets' interpretations.  Here on seeded
random hands with one to four wild cards (jokers, or the deuces where they are posted
wild); ``tests/harness/run/test_wild_search_corpus.py`` checks every wild hand of the
curated corpus.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import pytest

from pokercert.reference import DECK, JOKER, Profile, all_rulesets
from pokercert.reference.cards import Card
from pokercert.reference.engine import Evaluator, HandValue
from pokercert.reference.interpretations import get_interpretation
from pokercert.reference.rulesets import Ruleset

WILD_GAMES = sorted(rs.id for rs in all_rulesets() if rs.jokers or rs.wild == "deuces")
HANDS = 12  # random hands per ruleset and profile


class Exhaustive(Evaluator):
    """The reference engine with the wild-card search left unpruned (the oracle)."""

    def _wild_search(
        self, naturals: tuple[Card, ...], wilds: int, size: int, fast: bool = True
    ) -> tuple[str, tuple[int, ...], tuple[Card, ...]]:
        return super()._wild_search(naturals, wilds, size, fast=False)


def every_profile(rs: Ruleset) -> Iterator[Profile]:
    """Every combination of readings of the ruleset's interpretations."""
    ids = sorted(rs.interpretations)
    for combo in itertools.product(*(get_interpretation(i).readings for i in ids)):
        yield Profile("|".join(combo), dict(zip(ids, combo, strict=True)))


def each_reading(rs: Ruleset) -> Iterator[Profile]:
    """The default readings, then each other reading of each interpretation alone."""
    yield Profile("practice", {})
    for iid in sorted(rs.interpretations):
        interp = get_interpretation(iid)
        for reading in interp.readings:
            if reading != interp.default:
                yield Profile(f"{iid}={reading}", {iid: reading})


def wild_hands(rs: Ruleset, rng: random.Random, count: int) -> Iterator[tuple[Card, ...]]:
    """``count`` hands of the ruleset's size with 1, 2, 3 wild cards in turn (up to the
    deck's jokers), the rest natural, in a random order (four wild deuces: below)."""
    if rs.wild == "deuces":
        wild_cards = [c for c in DECK if c.rank == 2]
        naturals = [c for c in DECK if c.rank != 2]
    else:
        wild_cards = [JOKER] * rs.jokers
        naturals = list(DECK)
    for n in range(count):
        wilds = 1 + n % min(3, len(wild_cards))
        hand = rng.sample(wild_cards, wilds) + rng.sample(naturals, rs.hand_size - wilds)
        rng.shuffle(hand)
        yield tuple(hand)


def test_the_wild_games_are_all_here() -> None:
    assert {"mt-poker-high", "mt-poker-low", "mt-poker-high-deuces", "mt-poker-low-deuces"} <= set(
        WILD_GAMES
    )


@pytest.mark.parametrize("rid", WILD_GAMES)
def test_pruned_search_equals_the_exhaustive_one_on_random_hands(rid: str) -> None:
    checked = 0
    profiles = list(every_profile(Evaluator(rid).ruleset))
    per_profile = max(HANDS, -(-HANDS * 16 // len(profiles)))  # few readings: more hands
    for profile in profiles:
        fast, slow = Evaluator(rid, profile), Exhaustive(rid, profile)
        rng = random.Random(f"{rid}|{profile.name}")
        for hand in wild_hands(fast.ruleset, rng, per_profile):
            assert fast.value(hand) == slow.value(hand), (rid, profile.name, hand)
            checked += 1
    assert checked >= HANDS * 16


@pytest.mark.parametrize("rid", ["mt-poker-high-deuces", "mt-poker-low-deuces"])
def test_four_wild_deuces_beside_every_natural_rank(rid: str) -> None:
    """The costliest searches (1,820 rank choices for four wilds): four deuces and a
    natural card of each rank (the search renames suits, so one suit stands for all),
    under each reading, as the exhaustive search answers."""
    deuces = tuple(c for c in DECK if c.rank == 2)
    for profile in each_reading(Evaluator(rid).ruleset):
        fast, slow = Evaluator(rid, profile), Exhaustive(rid, profile)
        for card in (c for c in DECK if c.rank != 2 and c.suit == "s"):
            hand = (*deuces, card)
            assert fast.value(hand) == slow.value(hand), (rid, profile.name, hand)


def test_the_pruned_search_skips_rank_choices(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pruning does happen: the four-deuce hand that cost the exhaustive search 1,820
    suit loops takes far fewer (the test fails if ``fast`` stops pruning)."""
    import pokercert.reference.engine as engine

    loops = {"n": 0}
    real = engine.product

    def counting(*args: object, **kwargs: object) -> Iterator[tuple[str, ...]]:
        loops["n"] += 1
        return real(*args, **kwargs)  # type: ignore[call-overload, no-any-return]

    monkeypatch.setattr(engine, "product", counting)
    hand = (*(c for c in DECK if c.rank == 2), Card(13, "h"))
    value: HandValue = Evaluator("mt-poker-high-deuces").value(hand)
    pruned = loops["n"]
    loops["n"] = 0
    assert Exhaustive("mt-poker-high-deuces").value(hand) == value
    assert loops["n"] == 1820
    assert pruned < 100
