"""The one vocabulary of hand categories: every name a ruleset may rank.

:class:`CategoryName` is a :class:`~enum.StrEnum`, so a member *is* its snake_case
string: it compares equal to the name in a ruleset file, a vector or a reply, and it
serialises as that string in JSON.  Code names a category through this enum, never as a
string literal, so a misspelt category is a mypy or import error rather than a silently
unmatched string.  The declaration order is the engine's detection order
(:data:`SHAPES`): a hand takes the first shape it has that its ruleset lists.
"""

from __future__ import annotations

from enum import StrEnum, unique

__all__ = ["SHAPES", "CategoryName"]


@unique
class CategoryName(StrEnum):
    """A hand category name, strongest shape first (the detection order)."""

    FIVE_OF_A_KIND = "five_of_a_kind"
    ROYAL_FLUSH = "royal_flush"
    ROYAL_STRAIGHT_FLUSH = "royal_straight_flush"
    STRAIGHT_FLUSH = "straight_flush"
    PAIR_OF_ACES = "pair_of_aces"
    FOUR_OF_A_KIND = "four_of_a_kind"
    FULL_HOUSE = "full_house"
    FLUSH = "flush"
    STRAIGHT = "straight"
    THREE_OF_A_KIND = "three_of_a_kind"
    TWO_PAIR = "two_pair"
    ONE_PAIR = "one_pair"
    HIGH_CARD = "high_card"
    # High Card Flush (58 Pa. Code 678a.6(b)): the longest flush, seven cards down to two
    SEVEN_CARD_FLUSH = "seven_card_flush"
    SIX_CARD_FLUSH = "six_card_flush"
    FIVE_CARD_FLUSH = "five_card_flush"
    FOUR_CARD_FLUSH = "four_card_flush"
    THREE_CARD_FLUSH = "three_card_flush"
    TWO_CARD_FLUSH = "two_card_flush"


# Every category name the engine can detect, strongest shape first.  Detection takes
# the first shape (in this order) that the hand has and the ruleset lists.  Plain
# strings (each member's value), not members: an answer the reference gives must be
# exactly a ``str``, as the harness asks of every evaluator's reply.
SHAPES: tuple[str, ...] = tuple(c.value for c in CategoryName)
