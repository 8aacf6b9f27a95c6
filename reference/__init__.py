"""pokercert.reference: cards, rulesets as data, interpretations and the reference engine.

Typical use::

    from pokercert.reference import evaluator
    ev = evaluator("nj-poker-high-5")            # practice readings by default
    ev.category("As Ks Qs Js Ts")                # 'royal_flush'
    ev.winners(["Ah Kh Qd Jc 9s", "Ad Kd Qs Jh 9c"])   # [0, 1]: a split
"""

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
from pokercert.reference.engine import BestHand, Evaluator, HandValue, evaluator
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
    Regulation,
    Ruleset,
    RulesetError,
    all_regulations,
    all_rulesets,
    get_ruleset,
)

__all__ = [
    "DECK", "JOKER", "REASON_CODES", "BestHand", "Card", "CardError", "Category", "Clause",
    "Evaluator", "HandValue", "Interpretation", "Profile", "Reading", "Regulation", "Ruleset",
    "RulesetError", "all_regulations", "all_rulesets", "catalogue", "evaluator",
    "format_cards", "get_interpretation", "get_ruleset", "load_profile", "parse_card",
    "parse_cards", "sort_cards",
]
