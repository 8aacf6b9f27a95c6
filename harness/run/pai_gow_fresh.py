"""Fresh pai gow deals for the challenge: two-card hands, settings and settlements dealt
from a seeded stream, their expectations from the reference (:mod:`pokercert.reference.pai_gow`).

An evaluator that memorised the published pai gow vectors (up to suits and the order of
the cards) meets hands it has never seen: two-card hands with the joker in half of them,
seven cards split at random (legal settings and fouls), and settlements whose banker is
set legally (a banker's foul is never dealt: no text says how it settles), a third of
them with the two-card hands a copy (the same ranks in other suits).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pokercert.reference.cards import DECK, JOKER, Card, format_cards
from pokercert.reference.engine import Evaluator
from pokercert.reference.pai_gow import PaiGow, low_hand_label, pai_gow_rules
from pokercert.vectors import pai_gow_inputs
from pokercert.vectors.model import Kind

# one deal: (kind, inputs, situation, expect, clauses, flags, why), the fields of
# :class:`pokercert.harness.run.challenge.FreshDeal` (which wraps it)
PaiGowDeal = tuple[str, dict[str, Any], str, dict[str, Any], tuple[str, ...], tuple[str, ...], str]

# deals per kind and ruleset, and how often a deal is drawn again while it is no new one
COUNTS = {Kind.COMPARE_TWO_CARD: 12, Kind.SETTING: 12, Kind.SETTLE: 18}
REDRAWS = 20
FLAGS = {
    Kind.COMPARE_TWO_CARD: "two-card-hand",
    Kind.SETTING: "setting-rule",
    Kind.SETTLE: "settlement",
}
# whether a dealt input is new: no symmetry of a published vector nor of one already taken
IsNew = Callable[[str, Mapping[str, Any]], bool]


def pai_gow_fresh(ev: Evaluator, rng: random.Random, new: IsNew) -> list[PaiGowDeal]:
    """The fresh pai gow deals of ``ev``'s ruleset (none for a ruleset that is no pai gow
    game), each new (``new``: no symmetry of a published input or of one already taken)."""
    rules = pai_gow_rules(ev.ruleset.id)
    if rules is None:
        return []
    game = PaiGow(ev, rules)
    deck = (*DECK, JOKER) if ev.ruleset.jokers else DECK
    deal = {
        Kind.COMPARE_TWO_CARD: _two_card,
        Kind.SETTING: _setting,
        Kind.SETTLE: _settle,
    }
    out: list[PaiGowDeal] = []
    for kind, count in COUNTS.items():
        for i in range(count):
            for _ in range(REDRAWS):
                inputs = deal[kind](rng, deck, game, i)
                if inputs is not None and new(kind, inputs):
                    expect = pai_gow_inputs.answer(kind, inputs, ev)
                    out.append(
                        (
                            kind,
                            inputs,
                            f"pai-gow-{kind}",
                            expect,
                            (low_hand_label(rules),),
                            (FLAGS[kind],),
                            f"Fresh deal (pai gow {kind}): the reference says {expect}.",
                        )
                    )
                    break
    return out


def _text(cards: Sequence[Card]) -> str:
    return format_cards(cards)


def _draw(rng: random.Random, deck: Sequence[Card], n: int, joker: bool) -> list[Card]:
    """``n`` cards of ``deck``, the joker among them when ``joker`` (and the deck has it)."""
    naturals = [c for c in deck if c != JOKER]
    if joker and JOKER in deck:
        return [JOKER, *rng.sample(naturals, n - 1)]
    return rng.sample(naturals, n)


def _two_card(rng: random.Random, deck: Sequence[Card], game: PaiGow, i: int) -> dict[str, Any]:
    cards = _draw(rng, deck, 4, joker=i % 2 == 0)
    rng.shuffle(cards)
    return {"hands": [_text(cards[:2]), _text(cards[2:])]}


def _setting(rng: random.Random, deck: Sequence[Card], game: PaiGow, i: int) -> dict[str, Any]:
    cards = _draw(rng, deck, 7, joker=i % 3 == 0)
    rng.shuffle(cards)
    return {"high": _text(cards[:5]), "low": _text(cards[5:])}


def _settle(
    rng: random.Random, deck: Sequence[Card], game: PaiGow, i: int
) -> dict[str, Any] | None:
    """A player's seven cards split at random and a banker's split legally; every third
    deal the two-card hands are a copy (the same two ranks, other suits)."""
    naturals = [c for c in deck if c != JOKER]
    if i % 3 == 0:
        low = rng.sample(naturals, 2)
        others = [c for c in naturals if c not in low and c.rank in {x.rank for x in low}]
        found = [next((c for c in others if c.rank == x.rank), None) for x in low]
        twin = [c for c in found if c is not None]
        if len(twin) != 2 or len({*low, *twin}) != 4:
            return None
        rest = [c for c in deck if c not in low and c not in twin]
        cards = rng.sample(rest, 10)
        player: list[list[Card]] = [cards[:5], twin]
        banker: list[list[Card]] = [cards[5:], low]
        if not game.legal(_text(banker[0]), _text(banker[1])):
            return None  # drawn again: the copy stays a copy
    else:
        cards = _draw(rng, deck, 14, joker=i % 3 == 1)
        rng.shuffle(cards)
        player, banker = [cards[:5], cards[5:7]], [cards[7:12], cards[12:]]
    for _ in range(20):  # the banker sets legally (a foul banker is never dealt)
        if game.legal(_text(banker[0]), _text(banker[1])):
            return {
                "player": [_text(player[0]), _text(player[1])],
                "banker": [_text(banker[0]), _text(banker[1])],
            }
        seven = [*banker[0], *banker[1]]
        rng.shuffle(seven)
        banker = [seven[:5], seven[5:]]
    return None
