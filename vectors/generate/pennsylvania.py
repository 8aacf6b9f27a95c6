"""Pennsylvania's table games (58 Pa. Code Subpart K): the families their texts support.

Each ranking section read (655a.6, 657a.6, 669a.6, 684a.6, 653a.6) orders categories and,
in some, names the highest and the lowest hand of a category; none of the stored copies
holds a rule for two hands of one category that was read whole.  So these rulesets get
the table-game families of :mod:`.tables` (every category classified, categories compared
across, the named extremes compared) and the one-fault reject family, and nothing that
would need an unread clause.  The hand-checkable edge cases (K-A-2-3 and Q-K-A-2 no
straight, A-K-Q-J the top and A-2-3-4 the bottom four-card straight, the flush extremes
of 653a.6(b)(5)) are hand-written ``edge-cases`` vectors beside the generated files.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from pokercert.reference.categories import CategoryName
from pokercert.vectors.generate.games import TableGame, game
from pokercert.vectors.generate.high_card_flush import hcf_families
from pokercert.vectors.generate.reject import fam_reject
from pokercert.vectors.generate.tables import fam_table_classify, fam_table_order

Build = Callable[[], list[dict[str, Any]]]

# (game, categories whose own clause names their highest and lowest hand, as the
# constructions of tables.py build them: a run's top and its ace-low bottom, a group's
# aces and twos, two pairs' A-A-K-K and 3-3-2-2)
C = CategoryName
# the four-card games' categories whose clause names their extremes (657a.6(b), 684a.6(b))
FOUR_CARD_EXTREMES = (
    C.FOUR_OF_A_KIND,
    C.STRAIGHT_FLUSH,
    C.THREE_OF_A_KIND,
    C.STRAIGHT,
    C.TWO_PAIR,
    C.ONE_PAIR,
)
PA_TABLE_GAMES: tuple[tuple[TableGame, tuple[str, ...]], ...] = (
    # 655a.6(b) and 669a.6(b) name no extremes
    (game("pa-mississippi-stud", "(a)", "(b)", "(b)", "(a)"), ()),
    (game("pa-crazy-4-poker", "(a)", "(b)", "(c)", "(a)", royal=None), FOUR_CARD_EXTREMES),
    (game("pa-four-card-frenzy", "(a)", "(b)", "(c)", "(a)", royal=None), FOUR_CARD_EXTREMES),
    (game("pa-raise-it-up-stud", "(a)", "(b)", "(b)", "(a)"), ()),
    # 653a.6(b)(2)-(7); the flush and full house extremes the text names are not the
    # tables.py constructions' ends, so they are hand-written
    (
        game("pa-ultimate-texas-holdem", "(a)", "(b)", "(b)", "(a)"),
        (C.STRAIGHT_FLUSH, C.FOUR_OF_A_KIND, C.STRAIGHT, C.THREE_OF_A_KIND),
    ),
)


def pa_families() -> list[tuple[str, str, Build]]:
    """``(ruleset, topic, build)`` of every Pennsylvania family, in a fixed order."""
    out: list[tuple[str, str, Build]] = []
    for g, extremes in PA_TABLE_GAMES:
        out.append((g.rid, "table-classify", partial(fam_table_classify, g)))
        out.append((g.rid, "table-order", partial(fam_table_order, g, extremes)))
        out.append((g.rid, "reject", partial(fam_reject, g, g.rid)))
    return out + hcf_families()
