"""Families for house-banked table games whose ranking section orders categories only.

Double down stud (13:69F-17.5) is paid on a posted table and its section has no rule for
two hands of one category; the retrieved texts of double cross poker (13:69F-25.5) and
four-card poker (13:69F-27.3) stop before any such rule.  These families therefore hold
what the texts decide and nothing more:

* ``table-classify``: hands built to be of one category (the construction names the
  category; the reference is only checked against it), for every category of the game,
  in four- and five-card hands;
* ``table-order``: hands of different categories compared, the worst of the better
  category against the best of the worse one (both seats) for neighbours in the ranking,
  one typical pair for every other two categories, and, where a clause names the best
  and the worst hand of a category itself, those two compared.

Every construction is checkable by hand: straights are runs of consecutive ranks, flushes
are one suit over ranks that are no run, groups are counted ranks.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, pairwise
from typing import Any

from pokercert.reference import get_ruleset
from pokercert.reference.categories import CategoryName
from pokercert.vectors.generate.common import (
    CATEGORY_WORDS,
    SUITS,
    A,
    card,
    classify,
    compare,
    is_run,
    plural,
    ranks_text,
    seat,
    straight_ranks,
)
from pokercert.vectors.generate.games import TableGame

PER_CATEGORY = 10  # classify members per category (ten categories fill one id block)
Hand = list[str]


def _tops(g: TableGame, royal_named: bool) -> list[int]:
    """Tops of the straights a game knows, best first (A..size; the ace-low run last)."""
    tops = list(range(A, g.size - 1, -1))
    return tops[1:] if royal_named else tops


def _mixed(ranks: Sequence[int], shift: int = 0) -> Hand:
    """Cards of these ranks in at least two suits (no flush), suits cycling from ``shift``."""
    return [card(r, SUITS[(i + shift) % 4]) for i, r in enumerate(ranks)]


def _spaced(top: int, size: int) -> list[int]:
    """``size`` distinct ranks from ``top`` down with a gap, so they never form a run."""
    ranks = [top, top - 2, *range(top - 3, top - 3 - (size - 2), -1)]
    ranks = [r if r >= 2 else r + 13 for r in ranks]
    assert len(set(ranks)) == size and not is_run(ranks), ranks
    return ranks


def _others(exclude: set[int], count: int, start: int) -> list[int]:
    """``count`` ranks not in ``exclude``, distinct, walking down from ``start``."""
    out: list[int] = []
    r = start
    while len(out) < count:
        if r not in exclude and r not in out:
            out.append(r)
        r = r - 1 if r > 2 else A
    return out


def _group(counts: Sequence[tuple[int, int]], size: int, shift: int) -> Hand:
    """A hand of rank groups ``(rank, n)``; unmatched cards fill up to ``size``."""
    ranks = [r for r, _ in counts]
    cards: Hand = []
    for i, (r, n) in enumerate(counts):
        cards += [card(r, SUITS[(j + i + shift) % 4]) for j in range(n)]
    start = ranks[0] - 3 if ranks[0] - 3 >= 2 else ranks[0] + 10
    fill = _others(set(ranks), size - len(cards), start)
    cards += [card(r, SUITS[(i + shift + 1) % 4]) for i, r in enumerate(fill)]
    return cards


def _pool(g: TableGame, category: str) -> list[tuple[Hand, str]]:
    """Hands of ``category``, best first, each with a hand-checkable description."""
    size = g.size
    if category in _RUNS:
        out = _run_pool(g, category)
    elif category in _UNPAIRED:
        out = _unpaired_pool(size, category)
    elif category in _GROUPS:
        out = _group_pool(size, category)
    else:  # pragma: no cover - a category the table families do not build
        raise AssertionError(f"no construction for {category}")
    for hand, _ in out:
        assert len(hand) == size and len(set(hand)) == size, hand
    return out


_RUNS = (CategoryName.ROYAL_FLUSH, CategoryName.STRAIGHT_FLUSH, CategoryName.STRAIGHT)
_UNPAIRED = (CategoryName.FLUSH, CategoryName.HIGH_CARD)
_GROUPS = (
    CategoryName.FOUR_OF_A_KIND,
    CategoryName.FULL_HOUSE,
    CategoryName.THREE_OF_A_KIND,
    CategoryName.TWO_PAIR,
    CategoryName.ONE_PAIR,
)


def _run_pool(g: TableGame, category: str) -> list[tuple[Hand, str]]:
    """Royal flushes (one per suit), straight flushes or straights, best first."""
    size = g.size
    out: list[tuple[Hand, str]] = []
    if category == CategoryName.ROYAL_FLUSH:
        for s in SUITS:
            out.append(([card(r, s) for r in straight_ranks(A, size)], "A-K-Q-J-10 of one suit"))
    elif category == CategoryName.STRAIGHT_FLUSH:
        royal = CategoryName.ROYAL_FLUSH in g.cats
        for i, top in enumerate(_tops(g, royal)):
            ranks = straight_ranks(top, size)
            out.append(
                (
                    [card(r, SUITS[i % 4]) for r in ranks],
                    f"{ranks_text(ranks)} of one suit, in sequence",
                )
            )
    else:
        for i, top in enumerate(_tops(g, False)):
            ranks = straight_ranks(top, size)
            out.append((_mixed(ranks, i), f"{ranks_text(ranks)} in mixed suits, in sequence"))
    return out


def _unpaired_pool(size: int, category: str) -> list[tuple[Hand, str]]:
    """Flushes or high cards: spaced ranks (no run) from each top down, suited or mixed."""
    out: list[tuple[Hand, str]] = []
    for i, top in enumerate(range(A, 5, -1)):
        ranks = _spaced(top, size)
        if category == CategoryName.FLUSH:
            out.append(
                (
                    [card(r, SUITS[i % 4]) for r in ranks],
                    f"{ranks_text(ranks)} of one suit, not in sequence",
                )
            )
        else:
            out.append(
                (
                    _mixed(ranks, i),
                    f"{ranks_text(ranks)} in mixed suits: no pair, no sequence, no flush",
                )
            )
    return out


def _group_pool(size: int, category: str) -> list[tuple[Hand, str]]:
    """Hands of counted ranks (quads, a full house, trips, two pair, a pair), every rank
    of the group from the ace down."""
    out: list[tuple[Hand, str]] = []
    if category == CategoryName.FOUR_OF_A_KIND:
        for i, r in enumerate(range(A, 1, -1)):
            out.append((_group([(r, 4)], size, i), f"four {plural(r)}"))
    elif category == CategoryName.FULL_HOUSE:
        for i, r in enumerate(range(A, 1, -1)):
            p = r - 1 if r > 2 else A
            out.append(
                (_group([(r, 3), (p, 2)], size, i), f"three {plural(r)} and two {plural(p)}")
            )
    elif category == CategoryName.THREE_OF_A_KIND:
        for i, r in enumerate(range(A, 1, -1)):
            out.append((_group([(r, 3)], size, i), f"three {plural(r)} and unmatched cards"))
    elif category == CategoryName.TWO_PAIR:
        for i, r in enumerate(range(A, 2, -1)):
            out.append(
                (_group([(r, 2), (r - 1, 2)], size, i), f"two {plural(r)} and two {plural(r - 1)}")
            )
    else:
        for i, r in enumerate(range(A, 1, -1)):
            out.append((_group([(r, 2)], size, i), f"two {plural(r)} and unmatched cards"))
    return out


def _ranking(g: TableGame) -> list[str]:
    return list(get_ruleset(g.rid).rules["categories"])


def _ace_low(hand: Hand) -> bool:
    ranks = {c[0] for c in hand}
    return "A" in ranks and "2" in ranks


def fam_table_classify(g: TableGame) -> list[dict[str, Any]]:
    """Up to :data:`PER_CATEGORY` hands of every category, spread over the ranks."""
    out = []
    for category in _ranking(g):
        pool = _pool(g, category)
        step = max(1, len(pool) // PER_CATEGORY)
        picked = pool[::step][: PER_CATEGORY - 1]
        if pool[-1] not in picked:  # the worst member always, once
            picked.append(pool[-1])
        for hand, what in picked:
            low = _ace_low(hand) and category in (
                CategoryName.STRAIGHT,
                CategoryName.STRAIGHT_FLUSH,
            )
            clauses = g.L(g.cat(category)) + (
                g.L(g.ranks) if low or category == CategoryName.ROYAL_FLUSH else []
            )
            flags = (
                ["category-order"]
                + (["wheel"] if low else [])
                + (["royal-naming"] if category == CategoryName.ROYAL_FLUSH else [])
            )
            if low:
                what += " (the ace plays low)"
            out.append(
                classify(
                    hand, category, clauses, flags, f"{_cap(what)} is {CATEGORY_WORDS[category]}."
                )
            )
    return out


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _disjoint(a: Hand, b: Hand) -> bool:
    return not set(a) & set(b)


def _pick(
    upper: list[tuple[Hand, str]], lower: list[tuple[Hand, str]], want_i: int, want_j: int
) -> tuple[tuple[Hand, str], tuple[Hand, str]]:
    """The two hands nearest positions ``want_i``/``want_j`` (-1: last) sharing no card."""
    wi, wj = want_i % len(upper), want_j % len(lower)
    cands = [
        (abs(i - wi) + abs(j - wj), i, j)
        for i in range(len(upper))
        for j in range(len(lower))
        if _disjoint(upper[i][0], lower[j][0])
    ]
    _, i, j = min(cands)
    return upper[i], lower[j]


def fam_table_order(g: TableGame, named_extremes: Sequence[str] = ()) -> list[dict[str, Any]]:
    """Categories against each other; extremes of the categories whose clause names them."""
    ranking = _ranking(g)
    pools = {c: _pool(g, c) for c in ranking}
    out = []
    n = 0
    for hi, lo in pairwise(ranking):
        up, down = pools[hi], pools[lo]
        # the worst of the better category against the best of the worse one, and the
        # other way round (the widest gap): both seats each
        closest = _pick(up, down, -1, 0)
        widest = _pick(up, down, 0, -1)
        for (a, wa), (b, wb) in (closest, widest):
            for _ in range(2):
                hands, winners = seat(n, a, b)
                n += 1
                out.append(
                    compare(
                        hands,
                        winners,
                        g.L(g.order, g.cat(hi), g.cat(lo)),
                        ["category-order"],
                        f"{_cap(wa)} ({CATEGORY_WORDS[hi]}) beats {wb} "
                        f"({CATEGORY_WORDS[lo]}): the order of {g.sec}{g.order}.",
                    )
                )
    for hi, lo in combinations(ranking, 2):
        if ranking.index(lo) - ranking.index(hi) < 2:
            continue
        (a, wa), (b, wb) = _pick(pools[hi], pools[lo], 0, 0)
        hands, winners = seat(n, a, b)
        n += 1
        out.append(
            compare(
                hands,
                winners,
                g.L(g.order, g.cat(hi), g.cat(lo)),
                ["category-order"],
                f"{_cap(wa)} ({CATEGORY_WORDS[hi]}) beats {wb} ({CATEGORY_WORDS[lo]}).",
            )
        )
    for category in named_extremes:
        pool = pools[category]
        (best, wbest), (worst, wworst) = _pick(pool, pool, 0, -1)
        low = _ace_low(worst) and category in (CategoryName.STRAIGHT, CategoryName.STRAIGHT_FLUSH)
        for _ in range(2):
            hands, winners = seat(n, best, worst)
            n += 1
            out.append(
                compare(
                    hands,
                    winners,
                    g.L(g.cat(category)) + (g.L(g.ranks) if low else []),
                    ["named-extreme"] + (["wheel"] if low else []),
                    f"{_cap(wbest)} against {wworst}: {g.sec}{g.cat(category)} "
                    "names the first the highest and the second the lowest "
                    f"{CATEGORY_WORDS[category].removeprefix('a ')}.",
                )
            )
    return out
