"""The poker-room families every game gets: a category won at showdown, razz's
final hands, and plain seeded deals (see :mod:`.rooms` for the game-specific ones).

Every family is a list of :class:`~.pots.Construction`; the pots are settled by the
arithmetic of :mod:`.pots`, never by the reference engine.
"""

from __future__ import annotations

from pokercert.vectors.generate.common import SUITS, A, K
from pokercert.vectors.generate.pots import (
    Card,
    Construction,
    Deal,
    Dealer,
    Pot,
    PotGame,
    best,
    players,
    ranked,
)


def between(dealer: Dealer, lo: int, hi: int) -> int:
    """A seeded count from lo to hi (players at a table, extra cards)."""
    return dealer.rng.randint(lo, hi)


CATEGORY_OF = {"royal_flush": (8, A), "straight_flush": (8,), "four_of_a_kind": (7,),
               "full_house": (6,), "flush": (5,), "straight": (4,), "three_of_a_kind": (3,),
               "two_pair": (2,), "one_pair": (1,), "high_card": (0,)}


def five_of(category: str, dealer: Dealer) -> list[Card]:
    """Five cards of ``category``, dealt from what is left."""
    rng = dealer.rng
    suit = rng.choice(SUITS)
    if category in ("royal_flush", "straight_flush"):
        top = A if category == "royal_flush" else rng.randint(5, K)
        return dealer.take([(A if r == 1 else r, suit) for r in range(top, top - 5, -1)])
    if category == "straight":
        top = rng.randint(5, A)
        return ranked([A if r == 1 else r for r in range(top, top - 5, -1)], dealer)
    if category == "flush":
        ranks = sorted(rng.sample(range(2, A + 1), 5), reverse=True)
        return dealer.take([(r, suit) for r in ranks])
    shape = {"four_of_a_kind": (4, 1), "full_house": (3, 2), "three_of_a_kind": (3, 1, 1),
             "two_pair": (2, 2, 1), "one_pair": (2, 1, 1, 1), "high_card": (1,) * 5}[category]
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
        if len(g.halves) > 1 and category in ("high_card", "one_pair"):
            continue        # beside a low half these rarely win high: other families have them
        def deal(dealer: Dealer, category: str = category) -> Deal:
            five = five_of(category, dealer)
            if g.board:
                hole = five[:2] + dealer.draw(g.hole - 2)
                board = five[2:] + dealer.draw(g.board - 3)
            else:
                hole, board = five + dealer.draw(2), []
            dealer.rng.shuffle(hole)
            weak = category in ("high_card", "one_pair")   # rarely best against many
            return [hole, *players(dealer, 1 if weak else between(dealer, 1, most), g.hole)], board

        def wins_with(d: Deal, p: Pot, prefix: tuple[int, ...] = prefix) -> bool:
            v = best(g, "high", d[0][0], d[1])
            return 0 in p.high and v is not None and v[:len(prefix)] == prefix and (
                prefix != (8,) or v[1] != A)
        out.append(Construction(
            "categories", ("select",), ("category-order",),
            f"One player's cards hold {category.replace('_', ' ')} (built first, then the "
            "deal around it): it wins the high pot against every other hand the deal makes, "
            "by the order of the categories or the tie rule within one.", deal, wins_with,
            each))
    return out


def razz_hands(g: PotGame) -> list[Construction]:
    """Razz showdowns of final five-card hands, one player holding each paired category
    (four of a kind, a full house, three of a kind, two pairs, a pair) against hands of
    other categories: pairs count against a low, so the category order decides."""
    out = []
    for category in ("four_of_a_kind", "full_house", "three_of_a_kind", "two_pair",
                     "one_pair"):
        def deal(dealer: Dealer, category: str = category) -> Deal:
            hands = [five_of(category, dealer)]
            for other in dealer.rng.sample(["four_of_a_kind", "full_house", "three_of_a_kind",
                                            "two_pair", "one_pair", "high_card"], 2):
                if other != category:
                    hands.append(five_of(other, dealer))
            return hands, []
        out.append(Construction(
            "razz", ("order", "cards"), ("razz-pairs", "category-order"),
            f"Final five-card razz hands, one of them {category.replace('_', ' ')}: pairs "
            "count against a low hand, the fewer matched cards the better, so the hands rank "
            "by the order of the low categories.", deal,
            lambda d, p: len(d[0]) >= 2, 6))
    return out


def deals(g: PotGame) -> list[Construction]:
    """Seeded deals of 2 to 9 players (7 in stud): no single construction, the pot
    settled by the arithmetic of :mod:`.pots` (searching every five-card hand)."""
    most = (9 if g.board else 7) if len(g.halves) == 1 else 4

    def deal(dealer: Dealer) -> Deal:
        n = between(dealer, 2, most)
        holes = players(dealer, n, g.hole)
        return holes, dealer.draw(g.board)
    roles_ = ("select", "split", "low", "cards", "speak")
    return [Construction(
        "deals", roles_, ("dealt-showdown",),
        f"A deal of two to {most} players from a seeded deck, each hand as dealt (cards "
        "speak): the pot is settled by searching every five-card hand each player may make "
        "under the game's rules.", deal,
        lambda d, p: True, 100 if len(g.halves) == 1 else 50)]
