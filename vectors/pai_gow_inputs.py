"""The corpus checks and the reference's answers for pai gow's kinds (``compare_two_card``,
``setting``, ``settle``): one place, so the corpus reader and ``vectors check`` agree.

A pai gow vector's inputs: two-card ``hands``; a ``high`` five-card and a ``low``
two-card hand; or ``player`` and ``banker``, each ``[high, low]``.  Answers come from
:mod:`pokercert.reference.pai_gow` with the engine of the reading checked.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pokercert.reference.cards import CardError
from pokercert.reference.engine import Evaluator, evaluator
from pokercert.reference.pai_gow import HIGH_CARDS, LOW_CARDS, PaiGow, pai_gow_rules
from pokercert.reference.rulesets import Ruleset
from pokercert.vectors.model import PAI_GOW_KINDS, Kind

# the field of a vector file a pai gow kind's cards are in (where a problem is reported)
CARDS_FIELD: dict[str, str] = {
    Kind.COMPARE_TWO_CARD: "hands",
    Kind.SETTING: "high",
    Kind.SETTLE: "player",
}


def input_problem(kind: str, inputs: Mapping[str, Any], rs: Ruleset) -> tuple[str, str] | None:
    """What is wrong with a pai gow vector's inputs as ``(field, message)``, or None.

    Not a pai gow game, or cards the reference refuses (a card twice in the deal, a
    second joker, the wrong count) are problems of the vector; a banker's foul setting
    in ``settle`` too (no text says how it settles)."""
    if pai_gow_rules(rs.id) is None:
        return kind, f"{rs.id} is not a pai gow game: {kind} does not apply"
    try:
        answer(kind, inputs, evaluator(rs.id))
    except CardError as exc:
        return CARDS_FIELD[kind], f"invalid cards ({exc.code}): {exc}"
    except ValueError as exc:
        return CARDS_FIELD[kind], str(exc)
    return None


def answer(kind: str, inputs: Mapping[str, Any], ev: Evaluator) -> dict[str, Any]:
    """The outcome of a pai gow vector (the form of its ``expect``) from the engine ``ev``
    of a pai gow ruleset (its readings, as the engine's knobs, decide the setting rule)."""
    rules = pai_gow_rules(ev.ruleset.id)
    if rules is None:
        raise ValueError(f"{ev.ruleset.id} is not a pai gow game")
    game = PaiGow(ev, rules)
    if kind == Kind.COMPARE_TWO_CARD:
        return {"winners": game.compare_two_card(list(inputs["hands"]))}
    if kind == Kind.SETTING:
        return {"legal": game.legal(inputs["high"], inputs["low"])}
    if kind == Kind.SETTLE:
        return {"settlement": game.settle(list(inputs["player"]), list(inputs["banker"]))}
    raise ValueError(f"{kind!r} is not a pai gow kind (those are {', '.join(PAI_GOW_KINDS)})")


def card_groups(kind: str, inputs: Mapping[str, Any]) -> list[tuple[str, int]]:
    """Each card text of a pai gow request with the count it must hold (a reject
    vector's faults are found text by text): the two-card hands; the five-card and the
    two-card hand of a setting; each side's five and two in a settlement."""
    if kind == Kind.COMPARE_TWO_CARD:
        return [(text, LOW_CARDS) for text in inputs.get("hands", ())]
    sides = [inputs.get("high", ""), inputs.get("low", "")] if kind == Kind.SETTING else []
    for side in ("player", "banker") if kind == Kind.SETTLE else ():
        sides += list(inputs.get(side, ()))
    return list(zip(sides, [HIGH_CARDS, LOW_CARDS] * (len(sides) // 2), strict=False))
