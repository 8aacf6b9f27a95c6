"""Malformed requests through pai gow's operations: a valid two-card deal, setting or
settlement (:func:`.situation_pai_gow.deal_pai_gow`) with exactly one fault, a card too
many or too few in one hand, a card dealt twice (in one hand, across hands, across the
player and the banker), a token that is no card, or a joker more than the deck holds (a
joker where it has none)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pokercert.harness.explore.situation_faults import BAD_SUITS
from pokercert.harness.explore.situation_pai_gow import REJECT_OP, deal_pai_gow
from pokercert.reference.cards import JOKER, parse_card
from pokercert.vectors.dealing import RANKS, Choices, Deal, Game, coin, pick
from pokercert.vectors.model import Kind

__all__ = ["deal_pai_gow_reject"]

FAULTS = ("count", "duplicate", "suit", "joker")
# the valid deal each operation's fault is put into
VALID: dict[str, str] = {
    Kind.COMPARE_TWO_CARD: "pai-gow-two-card",
    Kind.SETTING: "pai-gow-setting",
    Kind.SETTLE: "pai-gow-settle",
}
Hands = list[list[str]]


def deal_pai_gow_reject(ch: Choices, game: Game, want: str | None = None) -> Deal:
    """A request through the operation of ``want`` (one of :data:`REJECT_OP`) holding
    exactly one fault."""
    label = want if want in REJECT_OP else pick(ch, list(REJECT_OP))
    op = REJECT_OP[label]
    valid = deal_pai_gow(ch, game, VALID[op])
    hands = _hands(op, valid.inputs)
    fault = pick(ch, FAULTS)
    if fault == "count":
        _count(ch, game, hands)
    elif fault == "duplicate":
        _duplicate(ch, hands)
    elif fault == "suit":
        i, j = _position(ch, hands)
        rank = hands[i][j][:-1]  # (the joker's X with an x is the joker again)
        hands[i][j] = rank + pick(ch, [b for b in BAD_SUITS if rank + b != str(JOKER)])
    else:
        _joker(ch, game, hands)
    return Deal(Kind.REJECT, {"op": op, **_inputs(op, hands)}, label)


def _hands(op: str, inputs: Mapping[str, Any]) -> Hands:
    """The request's card texts as token lists, in the order of the request."""
    if op == Kind.COMPARE_TWO_CARD:
        texts = list(inputs["hands"])
    elif op == Kind.SETTING:
        texts = [inputs["high"], inputs["low"]]
    else:
        texts = [*inputs["player"], *inputs["banker"]]
    return [str(t).split() for t in texts]


def _inputs(op: str, hands: Hands) -> dict[str, Any]:
    texts = [" ".join(h) for h in hands]
    if op == Kind.COMPARE_TWO_CARD:
        return {"hands": texts}
    if op == Kind.SETTING:
        return {"high": texts[0], "low": texts[1]}
    return {"player": texts[:2], "banker": texts[2:]}


def _position(ch: Choices, hands: Hands) -> tuple[int, int]:
    i = ch.index(len(hands))
    return i, ch.index(len(hands[i]))


def _count(ch: Choices, game: Game, hands: Hands) -> None:
    """One hand a card short, or a card long (a card no hand holds)."""
    i, j = _position(ch, hands)
    if coin(ch):
        hands[i].pop(j)
        return
    deck = game.deck()
    deck.used.update(parse_card(t) for h in hands for t in h if t != str(JOKER))
    hands[i].insert(j, str(deck.take(ch, pick(ch, RANKS))))


def _duplicate(ch: Choices, hands: Hands) -> None:
    """A card of the deal written over another card (of the same hand or another)."""
    i, j = _position(ch, hands)
    k, m = _position(ch, hands)
    if (k, m) == (i, j):  # the card itself: the next one round the deal
        flat = [(a, b) for a, h in enumerate(hands) for b in range(len(h))]
        k, m = flat[(flat.index((i, j)) + 1) % len(flat)]
    hands[k][m] = hands[i][j]


def _joker(ch: Choices, game: Game, hands: Hands) -> None:
    """Natural cards replaced by jokers until the deal holds one more than the deck (a
    joker in a game without)."""
    naturals = [(a, b) for a, h in enumerate(hands) for b, t in enumerate(h) if t != str(JOKER)]
    held = sum(t == str(JOKER) for h in hands for t in h)
    for _ in range(game.jokers + 1 - held):
        a, b = naturals.pop(ch.index(len(naturals)))
        hands[a][b] = str(JOKER)
