"""High Card Flush: a ranking by the length of the longest flush, not by poker hands.

58 Pa. Code 678a.6(b) ranks a hand by how many of its cards share one suit, seven down to
two; 678a.6(c) breaks a tie between hands of the same length by the highest ranking card
of (a) (ace high, no ace-low) that one hand holds and the other does not.  The "hand" of
(b) is the flush ("a hand consisting of N cards of the same suit"), so the tie is decided
on the flush's cards: with suits equal that is their ranks compared from the highest
down.  Where a player holds two suits of the longest length, the hand is the better of
the two flushes.

This module knows nothing of the engine: :func:`flush_value` takes the cards and the
ruleset's category order and gives (category, key); the engine plugs it in as its
``natural`` step when a ruleset's ``rules.ranking`` is ``flush_length``.
"""

from __future__ import annotations

from collections.abc import Sequence

from pokercert.reference.cards import Card
from pokercert.reference.categories import CategoryName

# the category of a longest flush of n cards (n = 7 .. 2); a hand whose suits are all
# different (possible only in fewer than five cards) holds none of them
FLUSH_OF_LENGTH: dict[int, str] = {
    7: CategoryName.SEVEN_CARD_FLUSH.value,
    6: CategoryName.SIX_CARD_FLUSH.value,
    5: CategoryName.FIVE_CARD_FLUSH.value,
    4: CategoryName.FOUR_CARD_FLUSH.value,
    3: CategoryName.THREE_CARD_FLUSH.value,
    2: CategoryName.TWO_CARD_FLUSH.value,
}
NO_FLUSH = CategoryName.HIGH_CARD.value


def flush_value(
    categories: Sequence[str], tiebreak: str | None, cards: Sequence[Card]
) -> tuple[str, tuple[int, ...]]:
    """Category and comparable key of ``cards`` under the flush-length ranking.

    ``categories`` is the ruleset's ranking in use, best first; the key starts with the
    category's place in it, then the ranks 678a.6(c) compares from the highest down: the
    flush's (``tiebreak`` ``flush_cards``, the default) or every card's (``all_cards``).
    Ranks compared from the top are the text's rule: the first place two such lists
    differ is the highest card one hand holds and the other lacks.
    """
    by_suit: dict[str, list[int]] = {}
    for c in cards:
        by_suit.setdefault(c.suit, []).append(c.rank)
    length = max(len(r) for r in by_suit.values())
    flush = max(tuple(sorted(r, reverse=True)) for r in by_suit.values() if len(r) == length)
    category = FLUSH_OF_LENGTH.get(length, NO_FLUSH)
    if category == NO_FLUSH or tiebreak == "all_cards":
        flush = tuple(sorted((c.rank for c in cards), reverse=True))
    # a category the ruleset does not rank (no flush: fewer than five cards) ranks lowest
    place = len(categories) - categories.index(category) if category in categories else 0
    return category, (place, *flush)
