"""What a deal's expectation must look like beyond the schema: a pot that is a pot, a
best hand made of the cards dealt, a board only where the game deals one, and a deal the
game can produce at all (:func:`impossible_deal`).

Pure functions of a vector (and its ruleset) returning problem messages; the corpus
reader (:mod:`pokercert.vectors.corpus`) places them at the vector's ``expect`` line.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from pokercert.reference.cards import DECK, JOKER, CardError, parse_cards
from pokercert.reference.rulesets import Ruleset
from pokercert.vectors.model import Vector, parse_share


def has_half(rs: Ruleset, name: str) -> bool:
    """Whether the ruleset's pot has a half called ``name`` (razz: only ``low``)."""
    return any(h.name == name for h in rs.pot_halves)


def pot_problems(vec: Vector, expect: Mapping[str, Any]) -> list[str]:
    """A showdown expectation must be a pot: winners in range and ascending, one share
    per hand, shares adding up to the whole pot, a share only for a winner."""
    out: list[str] = []
    n = len(vec.inputs.get("hands", ()))
    for half in ("high", "low"):
        got = list(expect.get(half, ()))
        if any(w >= n for w in got):
            out.append(f"{half} winner index out of range for {n} hands: {got}")
        elif got != sorted(got):
            out.append(f"list {half} winners in ascending order: {sorted(got)}")
    shares = [parse_share(s) for s in expect.get("shares", ())]
    if len(shares) != n:
        return [*out, f"{len(shares)} shares for {n} hands"]
    if any(s is None for s in shares):
        return out  # reported by the schema
    winners = set(expect.get("high", ())) | set(expect.get("low", ()))
    if sum(s for s in shares if s is not None) != 1:
        out.append("the shares do not add up to the whole pot")
    elif any(s and i not in winners for i, s in enumerate(shares)):
        out.append("a hand that wins neither half has a share")
    return out


def best_cards_problems(vec: Vector, rs: Ruleset, sets: Sequence[str]) -> list[str]:
    """Every best-hand card set must be made of dealt cards, with as many hole cards as
    the ruleset's selection asks for at least."""
    sel = rs.selection
    try:
        hole = set(parse_cards(vec.inputs["hole"]))
        board = set(parse_cards(vec.inputs.get("board", "")))
    except CardError:
        return []  # reported with the inputs
    out: list[str] = []
    for text in sets:
        try:
            cards = parse_cards(text, jokers=rs.jokers, count=rs.hand_size)
        except CardError as exc:
            out.append(f"best hand {text!r}: {exc}")
            continue
        outside = [str(c) for c in cards if c not in hole | board]
        used = sum(1 for c in cards if c in hole)
        if outside:
            out.append(f"best hand {text!r} uses cards not dealt: {' '.join(outside)}")
        elif sel is not None and used < sel.min_hole:
            out.append(
                f"best hand {text!r} uses {used} hole card(s); {rs.id} needs at "
                f"least {sel.min_hole}"
            )
    return out


# the vector kinds that stand for one deal of the game as it is dealt (a whole pot, one
# player's cards); compare and classify take final hands, whatever the game deals
DEALT_KINDS = ("showdown", "best_hand")


def impossible_deal(vec: Vector, rs: Ruleset) -> list[str]:
    """Why the game ``rs`` could never deal this showdown or best_hand, one message each
    naming the vector (empty if it could): every player holds the selection's ``hole``
    cards and the board is its ``board`` cards (a game without a selection:
    ``hand_size`` cards each, no board), no card twice across the deal (jokers up to the
    deck's count), no more cards than the deck.  Read from the ruleset data and the card
    tokens alone, never the engine."""
    if vec.kind not in DEALT_KINDS:
        return []
    inputs = vec.inputs
    hands = list(inputs["hands"]) if vec.kind == "showdown" else [inputs["hole"]]
    sel = rs.selection
    hole, board_size = (sel.hole, sel.board) if sel is not None else (rs.hand_size, 0)
    rule = (
        f"{rs.id} deals each player {hole} card(s)"
        + (f" and a board of {board_size}" if board_size else ", no board")
        + (f" (selection, clause {sel.clause})" if sel is not None else "")
    )
    out: list[str] = []
    for i, hand in enumerate(hands):
        n = len(hand.split())
        if n != hole:
            who = f"hand {i}" if vec.kind == "showdown" else "the hole"
            out.append(f"{who} holds {n} card(s): {rule}")
    table = str(inputs.get("board", "")).split()
    if "board" in inputs and not board_size:
        out.append(f"a board (community cards): {rule}")
    elif len(table) != board_size:
        out.append(f"a board of {len(table)} card(s): {rule}")
    dealt = [t for hand in hands for t in hand.split()] + table
    jokers = sum(1 for t in dealt if t == str(JOKER))
    twice = sorted(t for t, n in Counter(dealt).items() if n > 1 and t != str(JOKER))
    if twice:
        out.append(f"dealt twice across the deal: {' '.join(twice)}")
    if jokers > rs.jokers:
        out.append(f"{jokers} jokers dealt; the {rs.id} deck holds {rs.jokers}")
    if len(dealt) > len(DECK) + rs.jokers:
        out.append(f"{len(dealt)} cards dealt; the {rs.id} deck holds {len(DECK) + rs.jokers}")
    return [f"{vec.id}: a {vec.kind} {rs.id} cannot deal: {why}" for why in out]
