"""Families over the categories of a game: straights, groups (quads, trips, pairs,
full houses, two pairs), flushes and high cards, each classified and compared step by step."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise
from typing import Any

from pokercert.reference.categories import CategoryName
from pokercert.vectors.dealing import Deck
from pokercert.vectors.generate.common import (
    CATEGORY_WORDS,
    SUITS,
    A,
    J,
    K,
    Q,
    a_name,
    card,
    classify,
    compare,
    is_run,
    kicker_pool,
    name,
    not_flush,
    plural,
    rank_order,
    ranks_text,
    seat,
    step_worse,
    straight_ranks,
    straight_tops,
)
from pokercert.vectors.generate.games import TableGame


def fam_straights(g: TableGame) -> list[dict[str, Any]]:
    """Every straight classified; every straight against the next lower one."""
    out = []
    cat = g.cat(CategoryName.STRAIGHT)
    for top in straight_tops(g.size, g):
        ranks = straight_ranks(top, g.size)
        cards = [card(r, SUITS[i % 4]) for i, r in enumerate(ranks)]
        wheel = top == g.size
        literal = interp = None
        if g.straight_interp == "unsuited" and g.size == 5:
            literal, interp = CategoryName.HIGH_CARD, "unsuited"
        elif wheel and g.wheel_interp:
            literal, interp = CategoryName.HIGH_CARD, g.wheel_interp
        flags = ["straight-order"] + (["wheel"] if wheel else [])
        clauses = g.L(cat) + (g.L(g.ranks) if wheel or top == A else [])
        what = (
            "the lowest straight (the ace plays low)"
            if wheel
            else ("the highest straight" if top == A else f"the {name(top)}-high straight")
        )
        out.append(
            classify(
                cards,
                CategoryName.STRAIGHT,
                clauses,
                flags,
                f"{ranks_text(ranks)} in mixed suits is {what}.",
                literal,
                interp,
            )
        )
    tops = straight_tops(g.size, g)
    for i, (hi, lo) in enumerate(pairwise(tops)):
        if g.size == 5:
            a = [card(r, "sh"[j % 2]) for j, r in enumerate(straight_ranks(hi, g.size))]
            b = [card(r, "dc"[j % 2]) for j, r in enumerate(straight_ranks(lo, g.size))]
        else:  # rainbow, so the literal 'unsuited' reading agrees
            a = [card(r, "shd"[j]) for j, r in enumerate(straight_ranks(hi, g.size))]
            b = [card(r, "dcs"[j]) for j, r in enumerate(straight_ranks(lo, g.size))]
        hands, winners = seat(i, a, b)
        winners_literal: list[int] | None = None
        interp = None
        wheel = lo == g.size
        if g.straight_interp == "unsuited" and g.size == 5 and wheel:
            # read literally no five-card straight exists: ace-high beats six-high
            winners_literal, interp = [1 - winners[0]], "unsuited"
        low_word = "the wheel (five-high)" if wheel else f"{name(lo)}-high"
        out.append(
            compare(
                hands,
                winners,
                g.L(g.cat(CategoryName.STRAIGHT)) + (g.L(g.ranks) if wheel else []),
                ["straight-order"] + (["wheel"] if wheel else []),
                f"{a_name(hi).capitalize()}-high straight beats {low_word}: "
                "straights rank by their top card.",
                winners_literal,
                interp,
            )
        )
    return out


def fam_straight_flushes(g: TableGame) -> list[dict[str, Any]]:
    """The top straight flush named (royal or not), every other one classified, every
    one against the next lower one."""
    return [*_top_straight_flushes(g), *_straight_flushes_classified(g), *_straight_flush_steps(g)]


def _top_straight_flushes(g: TableGame) -> list[dict[str, Any]]:
    """The ace-high straight flush in two suits: the royal flush where the game names one."""
    out = []
    sf = g.cat(CategoryName.STRAIGHT_FLUSH)
    for i, suit in enumerate(SUITS):
        ranks = straight_ranks(A, g.size)
        cards = [card(r, suit) for r in ranks]
        if g.royal:
            out.append(
                classify(
                    cards,
                    g.royal,
                    g.L(g.cat(g.royal)),
                    ["royal-naming", "named-extreme"],
                    f"{ranks_text(ranks)} all of one suit is the royal flush.",
                )
            )
        else:
            out.append(
                classify(
                    cards,
                    CategoryName.STRAIGHT_FLUSH,
                    g.L(sf),
                    ["royal-naming", "named-extreme"],
                    f"{ranks_text(ranks)} suited is the highest straight flush; "
                    "this game names no royal flush.",
                )
            )
        if i == 1:
            break
    return out


def _straight_flushes_classified(g: TableGame) -> list[dict[str, Any]]:
    """Every straight flush below the ace-high one classified, the wheel's reading noted."""
    out = []
    sf = g.cat(CategoryName.STRAIGHT_FLUSH)
    for j, top in enumerate(straight_tops(g.size, g)[1:]):
        ranks = straight_ranks(top, g.size)
        suit = SUITS[j % 4]
        cards = [card(r, suit) for r in ranks]
        wheel = top == g.size
        literal = interp = None
        if wheel and g.wheel_interp:
            literal, interp = CategoryName.FLUSH, g.wheel_interp
        extreme = ["named-extreme"] if wheel or top == A - 1 else []
        out.append(
            classify(
                cards,
                CategoryName.STRAIGHT_FLUSH,
                g.L(sf) + (g.L(g.ranks) if wheel else []),
                ["straight-order", *extreme] + (["wheel"] if wheel else []),
                f"{ranks_text(ranks)} all of one suit is a straight flush"
                + (" (the lowest one)." if wheel else "."),
                literal,
                interp,
            )
        )
    return out


def _straight_flush_steps(g: TableGame) -> list[dict[str, Any]]:
    """Every straight flush against the next lower one: they rank by their top card."""
    out = []
    sf = g.cat(CategoryName.STRAIGHT_FLUSH)
    tops = straight_tops(g.size, g)
    for i, (hi, lo) in enumerate(pairwise(tops)):
        a = [card(r, "s") for r in straight_ranks(hi, g.size)]
        b = [card(r, "h") for r in straight_ranks(lo, g.size)]
        hands, winners = seat(i, a, b)
        wheel = lo == g.size
        royal = g.royal if hi == A else None  # the category name of the top one, if named
        clauses = g.L(g.cat(royal) if royal else sf, sf) + (g.L(g.ranks) if wheel else [])
        flags = (
            ["straight-order"] + (["wheel"] if wheel else []) + (["royal-naming"] if royal else [])
        )
        upper = "The royal flush" if royal else f"{a_name(hi).capitalize()}-high straight flush"
        out.append(
            compare(
                hands,
                winners,
                clauses,
                flags,
                f"{upper} beats the {name(lo) if not wheel else 'five'}-high "
                "straight flush: straight flushes rank by their top card.",
            )
        )
    return out


def group_family(
    g: TableGame, category: str, shape: Sequence[int], flags: list[str], what: Callable[[int], str]
) -> list[dict[str, Any]]:
    """Classify every rank of the first group; compare each rank with the next worse one.

    The other groups keep the same ranks in both hands, so only the first group differs
    (and every reading of the tie rules agrees).
    """
    out = []
    cat = g.cat(category)
    order = rank_order(g)  # best first
    fill = kicker_pool(g)
    for r in order:
        deck = Deck()
        rest = [k for k in fill if k != r][: len(shape) - 1]
        ranks = [r] * shape[0] + [k for k, n in zip(rest, shape[1:], strict=True) for _ in range(n)]
        cards = deck.hand(ranks)
        if category not in (CategoryName.FLUSH,) and len(shape) == g.size and g.size > 2:
            assert not_flush(cards)
        out.append(
            classify(
                cards,
                category,
                g.L(cat),
                ["rank-order"],
                f"{ranks_text(ranks)} is {CATEGORY_WORDS[category]} ({what(r)}).",
            )
        )
    pairs = [
        (x, y) for x, y in pairwise(order) if not (g.ace_pair_interp and A in (x, y))
    ]  # see fam_aces
    for i, (better, worse) in enumerate(pairs):
        if shape[1:] and any(n > 2 for n in shape[1:]):
            raise AssertionError("shared groups must fit twice in one deck")
        rest = [k for k in fill if k not in (better, worse)][: len(shape) - 1]
        deck = Deck()
        tail = [k for k, n in zip(rest, shape[1:], strict=True) for _ in range(n)]
        a = deck.hand([better] * shape[0] + tail, 0)
        b = deck.hand([worse] * shape[0] + tail, 1)
        hands, winners = seat(i, a, b)
        direction = "lower" if g.direction == "low" else "higher"
        out.append(
            compare(
                hands,
                winners,
                g.L(cat, g.tie),
                ["rank-order", *flags],
                f"{what(better).capitalize()} beats {what(worse)} with the same "
                f"other cards: the {direction} {CATEGORY_WORDS[category]} wins.",
            )
        )
    return out


def fam_quads(g: TableGame) -> list[dict[str, Any]]:
    return group_family(g, CategoryName.FOUR_OF_A_KIND, [4, 1], [], lambda r: f"four {plural(r)}")


def fam_trips(g: TableGame) -> list[dict[str, Any]]:
    shape = [3, 1, 1] if g.size == 5 else [3]
    return group_family(g, CategoryName.THREE_OF_A_KIND, shape, [], lambda r: f"three {plural(r)}")


def fam_pairs(g: TableGame) -> list[dict[str, Any]]:
    shape = [2, 1, 1, 1] if g.size == 5 else [2, 1]
    out = group_family(g, CategoryName.ONE_PAIR, shape, [], lambda r: f"a pair of {plural(r)}")
    out.extend(_kicker_steps(g, CategoryName.ONE_PAIR, shape))
    return out


def fam_full_houses(g: TableGame) -> list[dict[str, Any]]:
    out = group_family(
        g, CategoryName.FULL_HOUSE, [3, 2], ["full-house-order"], lambda r: f"{plural(r)} full"
    )
    # every rank as the pair, under the same trips
    order = rank_order(g)
    fill = kicker_pool(g)
    for p in order:
        t = order[-1] if p != order[-1] else order[-2]
        if p == next(k for k in fill if k != t):
            continue  # the trips family above already holds this hand
        deck = Deck()
        cards = deck.hand([t, t, t, p, p])
        out.append(
            classify(
                cards,
                CategoryName.FULL_HOUSE,
                g.L(g.cat(CategoryName.FULL_HOUSE)),
                ["rank-order"],
                f"Three {plural(t)} and two {plural(p)} make a full house.",
            )
        )
    if g.direction == "high":
        out.extend(_trips_before_pair(g))
    return out


def _trips_before_pair(g: TableGame) -> list[dict[str, Any]]:
    """Higher trips with a low pair against lower trips with aces: practice vs literal."""
    out = []
    interp = "mt-full-house" if g.rid == "mt-poker-high" else "identical-rank-tiebreak"
    for i, r in enumerate(range(K, 3, -1)):
        deck = Deck()
        a = deck.hand([r, r, r, 2, 2], 0)
        b = deck.hand([r - 1] * 3 + [A, A], 1)
        hands, winners = seat(i, a, b)
        out.append(
            compare(
                hands,
                winners,
                g.L(g.cat(CategoryName.FULL_HOUSE), g.tie),
                ["full-house-order"],
                f"{plural(r).capitalize()} full of twos against {plural(r - 1)} full "
                "of aces: in practice the three of a kind decides first; read "
                "literally the highest card decides, and the aces win.",
                literal=[1 - winners[0]],
                interp=interp,
            )
        )
    return out


def fam_two_pair(g: TableGame) -> list[dict[str, Any]]:
    """Two pairs compared pair by pair and by the kicker, then every rank classified as
    the top pair."""
    return [
        *_two_pair_top_steps(g),
        *_two_pair_second_steps(g),
        *_two_pair_kicker_steps(g),
        *_two_pair_classified(g),
    ]


def _two_pair_top_steps(g: TableGame) -> list[dict[str, Any]]:
    """The top pair one rank worse, the same second pair and kicker: the top pair decides."""
    out = []
    cat = g.cat(CategoryName.TWO_PAIR)
    order = rank_order(g)
    # high pair varies (same low pair and kicker)
    lowp = order[-1]  # the worst rank: always below the pairs that vary
    pairs = [
        (x, y)
        for x, y in pairwise(order)
        if lowp not in (x, y) and not (g.ace_pair_interp and A in (x, y))
    ]
    for i, (better, worse) in enumerate(pairs):
        kick = next(k for k in kicker_pool(g) if k not in (better, worse, lowp))
        deck = Deck()
        a = deck.hand([better, better, lowp, lowp, kick], 0)
        b = deck.hand([worse, worse, lowp, lowp, kick], 1)
        hands, winners = seat(i, a, b)
        out.append(
            compare(
                hands,
                winners,
                g.L(cat, g.tie),
                ["two-pair-order", "rank-order"],
                f"{plural(better).capitalize()} up beats {plural(worse)} up with the "
                f"same second pair and kicker: the higher pair decides first."
                if g.direction == "high"
                else f"{plural(better).capitalize()} and {plural(lowp)} beat "
                f"{plural(worse)} and {plural(lowp)}: the lower top pair wins.",
            )
        )
    return out


def _two_pair_second_steps(g: TableGame) -> list[dict[str, Any]]:
    """The second pair one rank worse under the same top pair and kicker."""
    out = []
    cat = g.cat(CategoryName.TWO_PAIR)
    order = rank_order(g)
    worst, best = order[-1], order[0]
    # low pair varies under the same top pair
    top = best if g.direction == "high" else worst
    pairs = [
        (x, y)
        for x, y in pairwise(order)
        if top not in (x, y) and not (g.ace_pair_interp and A in (x, y))
    ]
    for i, (better, worse) in enumerate(pairs):
        kick = next(k for k in kicker_pool(g) if k not in (better, worse, top))
        deck = Deck()
        a = deck.hand([top, top, better, better, kick], 0)
        b = deck.hand([top, top, worse, worse, kick], 1)
        hands, winners = seat(i + 1, a, b)
        out.append(
            compare(
                hands,
                winners,
                g.L(cat, g.tie),
                ["two-pair-order", "rank-order"],
                f"With the same top pair ({plural(top)}), {plural(better)} beat "
                f"{plural(worse)} as the second pair.",
            )
        )
    return out


def _two_pair_kicker_steps(g: TableGame) -> list[dict[str, Any]]:
    """The kicker one rank worse under the same two pairs (the first eight steps)."""
    out = []
    cat = g.cat(CategoryName.TWO_PAIR)
    order = rank_order(g)
    # kicker decides under the same two pairs
    p1, p2 = (Q, 4) if g.direction == "high" else (9, 4) if g.low_ace == "one" else (9, 5)
    kicks = [(x, y) for x, y in pairwise(order) if not {x, y} & {p1, p2}]
    for i, (better, worse) in enumerate(kicks[:8]):
        deck = Deck()
        a = deck.hand([p1, p1, p2, p2, better], 0)
        b = deck.hand([p1, p1, p2, p2, worse], 1)
        hands, winners = seat(i, a, b)
        out.append(
            compare(
                hands,
                winners,
                g.L(cat, g.tie),
                ["two-pair-order", "kicker-order"],
                f"Same two pairs ({plural(p1)} and {plural(p2)}): the "
                f"{name(better)} kicker beats the {name(worse)}.",
            )
        )
    return out


def _two_pair_classified(g: TableGame) -> list[dict[str, Any]]:
    """Every rank as the top pair, over the worst possible second pair, classified."""
    out = []
    cat = g.cat(CategoryName.TWO_PAIR)
    order = rank_order(g)
    worst = order[-1]
    # classify: every rank as the top pair (over the worst possible second pair)
    for r in order:
        second = worst if r != worst else order[-2]
        kick = next(k for k in kicker_pool(g) if k not in (r, second))
        deck = Deck()
        out.append(
            classify(
                deck.hand([r, r, second, second, kick]),
                CategoryName.TWO_PAIR,
                g.L(cat),
                ["rank-order"],
                f"Two {plural(r)}, two {plural(second)} and a {name(kick)} are two pairs.",
            )
        )
    return out


def _kicker_steps(g: TableGame, category: str, shape: Sequence[int]) -> list[dict[str, Any]]:
    """Same pair (split between the hands), one kicker one rank worse: to the last card."""
    out = []
    n_kick = len(shape) - 1
    bases = (
        ([K, 9, 6][:n_kick], [J, 8, 5][:n_kick])
        if g.direction == "high"
        else ([9, 6, 4][:n_kick], [Q, 10, 7][:n_kick])
    )
    pair_ranks = [A, 2] if g.direction == "high" else [8, 3] if g.low_ace == "one" else [8, 2]
    i = 0
    for pr, base in zip(pair_ranks, bases, strict=True):
        for pos in range(n_kick):
            worse = list(base)
            step = step_worse(g, base[pos])
            if step is None or step in (pr, *base):
                continue
            worse[pos] = step
            better = list(base)
            deck = Deck()
            a = deck.hand([pr, pr, *better], 0)
            b = deck.hand([pr, pr, *worse], 1)
            hands, winners = seat(i, a, b)
            i += 1
            which = "last" if pos == n_kick - 1 else ["first", "second", "third"][pos]
            out.append(
                compare(
                    hands,
                    winners,
                    g.L(g.cat(category), g.tie),
                    ["kicker-order"],
                    f"Both hold a pair of {plural(pr)}; the {which} kicker decides "
                    f"({name(base[pos])} against {name(worse[pos])}).",
                )
            )
    return out


def _distinct_steps(
    g: TableGame, category: str, bases: Sequence[Sequence[int]], suited: bool
) -> list[dict[str, Any]]:
    """Hands of distinct ranks differing in one card by one rank, at every position."""
    out = []
    i = 0
    for base in bases:
        for pos in range(len(base)):
            worse = list(base)
            step = step_worse(g, base[pos])
            if step is None or step in base:
                continue
            worse[pos] = step
            ace_low = g.low_ace != "high"
            if is_run(base, ace_low) or is_run(worse, ace_low):
                continue
            if suited:
                a = [card(r, "s") for r in base]
                b = [card(r, "h") for r in worse]
            else:
                deck = Deck()
                a = deck.hand(base, 0)
                b = deck.hand(worse, 1)
                assert not_flush(a) and not_flush(b)
            hands, winners = seat(i, a, b)
            i += 1
            which = "last" if pos == len(base) - 1 else ["first", "second", "third", "fourth"][pos]
            word = CATEGORY_WORDS[category]
            rule = "lower" if g.direction == "low" else "higher"
            out.append(
                compare(
                    hands,
                    winners,
                    g.L(g.cat(category), g.tie),
                    ["kicker-order"] + (["low-order"] if g.direction == "low" else []),
                    f"{ranks_text(base)} against {ranks_text(worse)}, both "
                    f"{word}: the {which} card decides, the {rule} one wins.",
                )
            )
    return out


def fam_flushes(g: TableGame) -> list[dict[str, Any]]:
    bases = ([A, Q, 10, 8, 6], [K, J, 9, 7, 4]) if g.size == 5 else ([A, J, 8], [K, 9, 6])
    out = _distinct_steps(g, CategoryName.FLUSH, bases, suited=True)
    lowest = [7, 5, 4, 3, 2] if g.size == 5 else [5, 3, 2]
    for i, top in enumerate(range(A, lowest[0] - 1, -1)):
        ranks = [top, *lowest[1:]] if top != lowest[0] else lowest
        if top == A and g.size == 5:
            ranks = [A, K, Q, J, 9]
        elif top == A:
            ranks = [A, K, J]
        if is_run(ranks, g.low_ace != "high"):
            continue
        suit = SUITS[i % 4]
        note = ""
        if ranks in ([A, K, Q, J, 9], [A, K, J]):
            note = " (the highest flush)"
        elif ranks == lowest:
            note = " (the lowest flush)"
        out.append(
            classify(
                [card(r, suit) for r in ranks],
                CategoryName.FLUSH,
                g.L(g.cat(CategoryName.FLUSH)),
                ["named-extreme"] if note else ["rank-order"],
                f"{ranks_text(ranks)} all of one suit is a flush{note}.",
            )
        )
    return out


def fam_high_cards(g: TableGame) -> list[dict[str, Any]]:
    if g.size == 5:
        bases = (
            ([A, Q, 10, 8, 6], [K, J, 9, 7, 4])
            if g.direction == "high"
            else (
                [9, 7, 5, 3, A] if g.low_ace == "one" else [J, 9, 7, 5, 2],
                [K, J, 8, 6, 4],
                [8, 6, 4, 3, 2] if g.low_ace == "high" else [8, 6, 4, 3, A],
            )
        )
    else:
        bases = (
            ([A, J, 8], [K, 9, 6], [7, 5, 3])
            if g.direction == "high"
            else ([8, 6, A], [K, J, 9], [7, 4, 2])
        )
    out = _distinct_steps(g, CategoryName.HIGH_CARD, bases, suited=False)
    cat = g.cat(CategoryName.HIGH_CARD)
    if g.direction == "high":
        lowest = [7, 5, 4, 3, 2] if g.size == 5 else [5, 3, 2]
        for top in range(A, lowest[0] - 1, -1):
            ranks = [top, *lowest[1:]] if top != lowest[0] else lowest
            if top == A:
                ranks = [A, K, Q, J, 9] if g.size == 5 else [A, K, J]
            deck = Deck()
            cards = deck.hand(ranks)
            assert not_flush(cards) and not is_run(ranks)
            out.append(
                classify(
                    cards,
                    CategoryName.HIGH_CARD,
                    g.L(cat),
                    ["kicker-order"],
                    f"{ranks_text(ranks)} of mixed suits holds no listed hand; its "
                    f"top card is the {name(top)}.",
                )
            )
    return out
