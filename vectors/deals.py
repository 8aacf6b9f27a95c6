"""What a deal's expectation must look like beyond the schema: a pot that is a pot, a
best hand made of the cards dealt, a board only where the game deals one.

Pure functions of a vector (and its ruleset) returning problem messages; the corpus
reader (:mod:`pokercert.vectors.corpus`) places them at the vector's ``expect`` line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pokercert.reference.cards import CardError, parse_cards
from pokercert.reference.rulesets import Ruleset
from pokercert.vectors.model import Vector, parse_share


def takes_board(rs: Ruleset) -> bool:
    """Whether the ruleset's deals have community cards (a board)."""
    return rs.selection is not None and rs.selection.board > 0


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
            out.append(f"best hand {text!r} uses {used} hole card(s); {rs.id} needs at "
                       f"least {sel.min_hole}")
    return out
