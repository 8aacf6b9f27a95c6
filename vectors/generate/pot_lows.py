"""The low values of the poker-room pot arithmetic (:mod:`.pots`): five ranks (the ace
1) as a key, larger better.

Ace-to-five by default: pairs count against a hand, straights and flushes do not
(:data:`LOW_NAMES`).  Under the literal reading of South Dakota's ``sd-low-order``
(``a5`` False) 20:18:16:03's list is read reversed, so straights and flushes count as bad
low hands (:data:`LOW_NAMES_ALL`): the ace below the deuce, A-2-3-4-5 is a straight and
10-J-Q-K-A none.  Written from the rules, never from the reference engine.
"""

from __future__ import annotations

from collections import Counter
from functools import cache

from pokercert.reference.categories import CategoryName
from pokercert.vectors.generate.common import A

LOW_NAMES = (
    CategoryName.HIGH_CARD,
    CategoryName.ONE_PAIR,
    CategoryName.TWO_PAIR,
    CategoryName.THREE_OF_A_KIND,
    CategoryName.FULL_HOUSE,
    CategoryName.FOUR_OF_A_KIND,
)

# the low categories when straights and flushes count (sd-low-order's literal reading:
# 20:18:16:03's list reversed), best first; index = badness
LOW_NAMES_ALL = (
    CategoryName.HIGH_CARD,
    CategoryName.ONE_PAIR,
    CategoryName.TWO_PAIR,
    CategoryName.THREE_OF_A_KIND,
    CategoryName.STRAIGHT,
    CategoryName.FLUSH,
    CategoryName.FULL_HOUSE,
    CategoryName.FOUR_OF_A_KIND,
    CategoryName.STRAIGHT_FLUSH,
)
SHAPE_NAME = {
    (1, 1, 1, 1, 1): CategoryName.HIGH_CARD,
    (2, 1, 1, 1): CategoryName.ONE_PAIR,
    (2, 2, 1): CategoryName.TWO_PAIR,
    (3, 1, 1): CategoryName.THREE_OF_A_KIND,
    (3, 2): CategoryName.FULL_HOUSE,
    (4, 1): CategoryName.FOUR_OF_A_KIND,
}


def low_name(ranks: tuple[int, ...], flush: bool, a5: bool) -> str:
    """The low category of five ranks (the ace 1, sorted up): by their groups, and with
    ``a5`` False also a run of five (A-2-3-4-5 yes, 10-J-Q-K-A no: the ace is below the
    deuce) and five of one suit."""
    name = SHAPE_NAME[tuple(sorted(Counter(ranks).values(), reverse=True))]
    if a5 or name != CategoryName.HIGH_CARD:
        return name
    run = ranks[4] - ranks[0] == 4
    if run and flush:
        return CategoryName.STRAIGHT_FLUSH
    return CategoryName.FLUSH if flush else CategoryName.STRAIGHT if run else name


@cache
def low_key(
    ranks: tuple[int, ...],
    qualify: bool,
    worst_first: bool,
    aces_best_pair: bool,
    flush: bool = False,
    a5: bool = True,
) -> tuple[int, ...] | None:
    """The low key of five ranks (the ace 1, sorted up), larger better; None when
    ``qualify`` asks for eight or better and they are not.  The category's badness first
    (:func:`low_name`), then the matched ranks (A-A the best pair unless not
    ``aces_best_pair``), then the other cards from the highest down (from the lowest up
    unless ``worst_first``), the lower better."""
    counts = Counter(ranks)
    if qualify and (len(counts) < 5 or max(ranks) > 8):
        return None
    name = low_name(ranks, flush, a5)
    badness = (LOW_NAMES if a5 else LOW_NAMES_ALL).index(name)
    paired = sorted(
        ((n, A if r == 1 and not aces_best_pair else r) for r, n in counts.items() if n > 1),
        reverse=True,
    )
    single = sorted((r for r, n in counts.items() if n == 1), reverse=worst_first)
    return (-badness, *(-r for _, r in paired), *(-r for r in single))


__all__ = ["LOW_NAMES", "LOW_NAMES_ALL", "low_key", "low_name"]
