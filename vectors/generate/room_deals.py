"""The poker-room families every game gets: a category won at showdown, razz's
final hands (five-card compares, and seven-card deals of few ranks), and plain seeded
deals (see :mod:`.rooms` for the game-specific ones).

Every family is a list of :class:`~.pots.Construction`; the pots are settled by the
arithmetic of :mod:`.pots`, never by the reference engine.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from pokercert.reference.categories import CategoryName
from pokercert.reference.engine import Pot
from pokercert.vectors.generate.common import SUITS, A, K, compare
from pokercert.vectors.generate.pots import (
    LOW_NAMES,
    Card,
    Construction,
    Dealer,
    Dealt,
    PotGame,
    best,
    deciding,
    family,
    low_value,
    players,
    ranked,
    text_of,
)

RAZZ_EACH = 6  # five-card razz compares per paired category


def between(dealer: Dealer, lo: int, hi: int) -> int:
    """A seeded count from lo to hi (players at a table, extra cards)."""
    return dealer.rng.randint(lo, hi)


CATEGORY_OF: dict[str, tuple[int, ...]] = {
    CategoryName.ROYAL_FLUSH: (8, A),
    CategoryName.STRAIGHT_FLUSH: (8,),
    CategoryName.FOUR_OF_A_KIND: (7,),
    CategoryName.FULL_HOUSE: (6,),
    CategoryName.FLUSH: (5,),
    CategoryName.STRAIGHT: (4,),
    CategoryName.THREE_OF_A_KIND: (3,),
    CategoryName.TWO_PAIR: (2,),
    CategoryName.ONE_PAIR: (1,),
    CategoryName.HIGH_CARD: (0,),
}


# group sizes of a five-card hand of each category without a run or a suit
FIVE_CARD_SHAPES: dict[str, tuple[int, ...]] = {
    CategoryName.FOUR_OF_A_KIND: (4, 1),
    CategoryName.FULL_HOUSE: (3, 2),
    CategoryName.THREE_OF_A_KIND: (3, 1, 1),
    CategoryName.TWO_PAIR: (2, 2, 1),
    CategoryName.ONE_PAIR: (2, 1, 1, 1),
    CategoryName.HIGH_CARD: (1,) * 5,
}


def five_of(category: str, dealer: Dealer) -> list[Card]:
    """Five cards of ``category``, dealt from what is left."""
    rng = dealer.rng
    suit = rng.choice(SUITS)
    if category in (CategoryName.ROYAL_FLUSH, CategoryName.STRAIGHT_FLUSH):
        top = A if category == CategoryName.ROYAL_FLUSH else rng.randint(5, K)
        return dealer.take([(A if r == 1 else r, suit) for r in range(top, top - 5, -1)])
    if category == CategoryName.STRAIGHT:
        top = rng.randint(5, A)
        return ranked([A if r == 1 else r for r in range(top, top - 5, -1)], dealer)
    if category == CategoryName.FLUSH:
        ranks = sorted(rng.sample(range(2, A + 1), 5), reverse=True)
        return dealer.take([(r, suit) for r in ranks])
    shape = FIVE_CARD_SHAPES[category]
    ranks = rng.sample(range(2, A + 1), len(shape))
    out: list[Card] = []
    for r, n in zip(ranks, shape, strict=True):
        out += dealer.take([(r, s) for s in rng.sample(SUITS, n)])
    return out


def categories(g: PotGame, each: int) -> list[Construction]:
    """For every category of hand, deals that one player wins with it (the five cards
    built first: two in the hole and three on the board, or all among a stud hand's
    seven), whatever the rest of the deal makes of it."""
    out = []
    most = 5 if len(g.halves) == 1 else 2
    for category, prefix in CATEGORY_OF.items():
        if len(g.halves) > 1 and category in (CategoryName.HIGH_CARD, CategoryName.ONE_PAIR):
            continue  # beside a low half these rarely win high: other families have them

        def deal(dealer: Dealer, category: str = category) -> Dealt:
            five = five_of(category, dealer)
            if g.board:
                hole = five[:2] + dealer.draw(g.hole - 2)
                board = five[2:] + dealer.draw(g.board - 3)
            else:
                hole, board = five + dealer.draw(g.hole - 5), []
            dealer.rng.shuffle(hole)
            weak = category in (
                CategoryName.HIGH_CARD,
                CategoryName.ONE_PAIR,
            )  # rarely best against many
            return [hole, *players(dealer, 1 if weak else between(dealer, 1, most), g.hole)], board

        def wins_with(d: Dealt, p: Pot, prefix: tuple[int, ...] = prefix) -> bool:
            v = best(g, "high", d[0][0], d[1])
            return (
                0 in p.high
                and v is not None
                and v[: len(prefix)] == prefix
                and (prefix != (8,) or v[1] != A)
            )

        out.append(
            Construction(
                "categories",
                ("select",),
                ("category-order",),
                f"One player's cards hold {category.replace('_', ' ')} (built first, then the "
                "deal around it): it wins the high pot against every other hand the deal makes, "
                "by the order of the categories or the tie rule within one.",
                deal,
                wins_with,
                each,
            )
        )
    return out


PAIRED = (
    CategoryName.FOUR_OF_A_KIND,
    CategoryName.FULL_HOUSE,
    CategoryName.THREE_OF_A_KIND,
    CategoryName.TWO_PAIR,
    CategoryName.ONE_PAIR,
)


def razz_compares(g: PotGame, seed: int) -> list[dict[str, Any]]:
    """Final five-card razz hands compared (``compare``: razz deals seven cards each, so
    five-card hands are no showdown), one hand of each paired category (four of a kind,
    a full house, three of a kind, two pairs, a pair) against one or two hands of other
    categories: pairs count against a low, so the order of the low categories decides.
    The winner is the generator's low arithmetic (:func:`.pots.low_value`), held to the
    construction: every hand is of the category it was built as, no two alike."""
    out: list[dict[str, Any]] = []
    dealer = Dealer(seed)
    for category in PAIRED:
        made = 0
        while made < RAZZ_EACH:
            dealer.used = set()
            others = [
                c for c in dealer.rng.sample([*PAIRED, CategoryName.HIGH_CARD], 2) if c != category
            ]
            built = [category, *others]
            try:
                hands = [five_of(c, dealer) for c in built]
            except AssertionError:  # a card another hand holds: deal again
                continue
            values = [low_value(h, False) for h in hands]
            if [LOW_NAMES[-v[0]] if v else None for v in values] != built:
                continue  # five random ranks can pair or run: deal again
            order = list(range(len(hands)))
            dealer.rng.shuffle(order)
            seated = [hands[i] for i in order]
            best_seat = max(range(len(seated)), key=lambda i: values[order[i]] or ())
            clauses = list(dict.fromkeys([*g.L("select", "low"), *deciding(g, seated, [])]))
            out.append(
                compare(
                    [text_of(h).split() for h in seated],
                    [best_seat],
                    clauses,
                    ["razz-pairs", "category-order"],
                    f"Final five-card razz hands, one of them {category.replace('_', ' ')}: "
                    "pairs count against a low hand, the fewer matched cards the better, so the "
                    "hands rank by the order of the low categories.",
                )
            )
            made += 1
    return out


def _of_ranks(ranks: list[int], card: Card) -> bool:
    return card[0] in ranks


def razz_few_ranks(g: PotGame) -> list[Construction]:
    """Seven-card razz deals whose players hold few ranks, so the best low each can make
    is paired: four ranks make at best one pair, three ranks two pairs, two ranks a full
    house (never three or four of a kind: those only five-card compares reach)."""

    def deal(dealer: Dealer) -> Dealt:
        holes = []
        for ranks in dealer.rng.sample([2, 3, 4], 2 + dealer.rng.randint(0, 1)):
            picked = dealer.rng.sample(range(2, A + 1), ranks)
            cards = ranked(picked, dealer, spread=False)
            cards += dealer.draw(7 - ranks, partial(_of_ranks, picked))
            dealer.rng.shuffle(cards)
            holes.append(cards)
        return holes, []

    return [
        Construction(
            "razz-hands",
            ("order", "cards"),
            ("razz-pairs", "category-order"),
            "Seven cards each, every player's of only two, three or four ranks: the best low of "
            "four ranks is one pair, of three ranks two pairs, of two ranks a full house; pairs "
            "count against a low, so the fewer matched cards win.",
            deal,
            lambda d, p: len(p.low or ()) == 1,
            30,
        )
    ]


def razz_hands(g: PotGame, seed: int) -> list[dict[str, Any]]:
    """The family ``razz-hands`` of the game's seed: :func:`razz_compares`, then the
    seven-card deals of :func:`razz_few_ranks`."""
    return [
        *razz_compares(g, seed + sum(map(ord, "razz-compares"))),
        *family(g, razz_few_ranks(g), seed + sum(map(ord, "razz-hands"))),
    ]


def deals(g: PotGame) -> list[Construction]:
    """Seeded deals of 2 to 9 players (7 in stud): no single construction, the pot
    settled by the arithmetic of :mod:`.pots` (searching every five-card hand)."""
    most = (9 if g.board else 7) if len(g.halves) == 1 else 4

    def deal(dealer: Dealer) -> Dealt:
        n = between(dealer, 2, most)
        holes = players(dealer, n, g.hole)
        return holes, dealer.draw(g.board)

    roles_ = ("select", "split", "low", "cards", "speak")
    return [
        Construction(
            "deals",
            roles_,
            ("dealt-showdown",),
            f"A deal of two to {most} players from a seeded deck, each hand as dealt (cards "
            "speak): the pot is settled by searching every five-card hand each player may make "
            "under the game's rules.",
            deal,
            lambda d, p: True,
            100 if len(g.halves) == 1 else 50,
        )
    ]
