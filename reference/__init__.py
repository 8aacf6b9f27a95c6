"""pokercert.reference: cards, rulesets as data, interpretations and the reference engine.

Typical use::

    from pokercert.reference import evaluator
    ev = evaluator("nj-poker-high-5")            # practice readings by default
    ev.category("As Ks Qs Js Ts")                # 'royal_flush'
    ev.winners(["Ah Kh Qd Jc 9s", "Ad Kd Qs Jh 9c"])   # [0, 1]: a split

    omaha = evaluator("nj-omaha-hi-lo")          # poker-room games: selection + split pot
    omaha.best_hand("Ah 2h Kd Qd", "3c 4d 9s Ks Jh", half="low")   # None if no 8-low
    omaha.pot(["Ah 2h Kd Qd", "Ac 3s 9d 9c"], "4c 5d 7h Kc Ks")     # Pot(high, low, shares)

The names below are imported from their modules when first used (PEP 562), so that
importing one light module of the package (``pokercert.reference.errors``, as every
command line start does) does not import the engine, the rulesets and TOML with it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pokercert.reference.cards import (
        DECK,
        JOKER,
        REASON_CODES,
        Card,
        CardError,
        format_cards,
        parse_card,
        parse_cards,
        sort_cards,
    )
    from pokercert.reference.engine import BestHand, Evaluator, HandValue, Pot, evaluator
    from pokercert.reference.interpretations import (
        Interpretation,
        Profile,
        Reading,
        catalogue,
        get_interpretation,
        load_profile,
    )
    from pokercert.reference.rulesets import (
        Category,
        Clause,
        Half,
        HalfQualifier,
        Regulation,
        Ruleset,
        RulesetError,
        Selection,
        all_regulations,
        all_rulesets,
        get_ruleset,
    )

# each public name -> the module of this package that defines it
_HOME = {
    **dict.fromkeys(
        (
            "DECK",
            "JOKER",
            "REASON_CODES",
            "Card",
            "CardError",
            "format_cards",
            "parse_card",
            "parse_cards",
            "sort_cards",
        ),
        "cards",
    ),
    **dict.fromkeys(("BestHand", "Evaluator", "HandValue", "Pot", "evaluator"), "engine"),
    **dict.fromkeys(
        ("Interpretation", "Profile", "Reading", "catalogue", "get_interpretation", "load_profile"),
        "interpretations",
    ),
    **dict.fromkeys(
        (
            "Category",
            "Clause",
            "Half",
            "HalfQualifier",
            "Regulation",
            "Ruleset",
            "RulesetError",
            "Selection",
            "all_regulations",
            "all_rulesets",
            "get_ruleset",
        ),
        "rulesets",
    ),
}

__all__ = [
    "DECK",
    "JOKER",
    "REASON_CODES",
    "BestHand",
    "Card",
    "CardError",
    "Category",
    "Clause",
    "Evaluator",
    "Half",
    "HalfQualifier",
    "HandValue",
    "Interpretation",
    "Pot",
    "Profile",
    "Reading",
    "Regulation",
    "Ruleset",
    "RulesetError",
    "Selection",
    "all_regulations",
    "all_rulesets",
    "catalogue",
    "evaluator",
    "format_cards",
    "get_interpretation",
    "get_ruleset",
    "load_profile",
    "parse_card",
    "parse_cards",
    "sort_cards",
]


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value  # looked up once
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
