"""The poker-room games' five-card ranking and their malformed inputs.

A poker-room game ranks its five-card hands by the 14.3 ruleset it ``ranks_by``
(hold'em, Omaha and stud by the high order, razz by the ace-to-five low order), so an
evaluator of the game must name and order five-card hands as that ruleset does: every
category classified, every pair of neighbouring categories compared with the better
hand in each seat.  The hands are dealt from a seeded deck by construction (four of a
kind: four cards of one rank and a fifth), and the category and the winner are read off
the generator's own arithmetic (:func:`.pots.high_value`, :func:`.pots.low_value`),
never the reference engine; a draw whose arithmetic disagrees with its construction
(five random ranks that happen to run in sequence) is dealt again.

The reject family holds one input fault per vector in five-card hands (a reject of a
whole showdown is not a vector form yet: the reject ``op`` is classify, compare or
best_hand).
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from pokercert.reference import get_ruleset
from pokercert.vectors.generate.common import CATEGORY_WORDS, classify, compare
from pokercert.vectors.generate.pots import (
    LOW_NAMES,
    Card,
    Dealer,
    PotGame,
    high_name,
    high_value,
    low_value,
    text_of,
)
from pokercert.vectors.generate.reject import fam_reject
from pokercert.vectors.generate.room_deals import five_of

CLASSIFY_EACH = 3  # classify vectors per category
COMPARE_EACH = 2  # compares per neighbouring pair and seat


def _value(g: PotGame, five: list[Card]) -> tuple[int, ...]:
    """The generator's value of five cards under the game's first ranking (larger is
    better): high, or the ace-to-five low without a qualifier (razz)."""
    if "high" in g.halves:
        return high_value(five)
    low = low_value(five, False)
    assert low is not None
    return low


def _name(g: PotGame, five: list[Card]) -> str:
    """The category the arithmetic gives five cards under the game's first ranking."""
    value = _value(g, five)
    return high_name(value) if "high" in g.halves else LOW_NAMES[-value[0]]


def _deal(g: PotGame, dealer: Dealer, category: str) -> list[Card]:
    """Five cards of ``category`` by construction, dealt again until the arithmetic
    agrees (random unpaired ranks can run in sequence or share a suit) and no card is
    one the deal already holds."""
    for _ in range(200):
        saved = set(dealer.used)
        try:
            five = five_of(category, dealer)
        except AssertionError:  # a card the other hand holds: deal again
            dealer.used = saved
            continue
        if _name(g, five) == category:
            return five
        dealer.used = saved
    raise AssertionError(f"{g.rid}: no {category} could be dealt")


def ranking(g: PotGame, seed: int) -> list[dict[str, Any]]:
    """Every category classified, and every neighbouring pair of categories compared,
    the better hand in each seat, in the ruleset's own category order."""
    rs = get_ruleset(g.rid)
    order = list(rs.rules["categories"])  # best first
    clause = {c.name: c.clause for c in rs.categories}
    # the ruleset it ranks by, or (ranking by its own) the clause that orders its hands
    source = rs.ranks_by or ", ".join(rs.order_clauses)
    out: list[dict[str, Any]] = []
    dealer = Dealer(seed)
    for category in order:
        for _ in range(CLASSIFY_EACH):
            dealer.used = set()
            five = _deal(g, dealer, category)
            dealer.rng.shuffle(five)
            out.append(
                classify(
                    text_of(five).split(),
                    category,
                    [clause[category]],
                    ["category-order"],
                    f"Five cards of {CATEGORY_WORDS[category].removeprefix('a ')} (built "
                    f"so): the game ranks its five-card hands as {source} does.",
                )
            )
    for upper, lower in pairwise(order):
        for seat in (0, 1):
            for _ in range(COMPARE_EACH):
                dealer.used = set()
                better, worse = _deal(g, dealer, upper), _deal(g, dealer, lower)
                # the arithmetic must agree with the category order it is built on
                assert _value(g, better) > _value(g, worse), (g.rid, upper, lower)
                hands = [better, worse] if seat == 0 else [worse, better]
                out.append(
                    compare(
                        [text_of(h).split() for h in hands],
                        [seat],
                        list(dict.fromkeys([*rs.order_clauses, clause[upper], clause[lower]])),
                        ["category-order"],
                        f"{CATEGORY_WORDS[upper].capitalize()} against "
                        f"{CATEGORY_WORDS[lower]}: the next category down in the game's "
                        "order, so the first wins whatever the ranks.",
                    )
                )
    return out


def rejects(g: PotGame) -> list[dict[str, Any]]:
    """One fault per vector, in the five-card forms every ruleset gets (classify and
    compare), the card clauses those of the game's ranking."""
    return fam_reject(None, g.rid, g.L("cards"))
