"""Families only low games have: straights and flushes in a low game, where the aces stand."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from pokercert.vectors.dealing import Deck
from pokercert.vectors.generate.common import (
    SUITS,
    A,
    J,
    K,
    card,
    classify,
    compare,
    kicker_pool,
    name,
    plural,
    ranks_text,
    seat,
    straight_ranks,
)
from pokercert.vectors.generate.games import TableGame


def fam_low_straights_flushes(g: TableGame) -> list[dict[str, Any]]:
    """A-5 low: straights and flushes do not count; 2-7: they do (as bad hands)."""
    out = []
    n = g.size
    if g.low_ace == "one":
        interp = g.straight_interp        # mt-low-order (literal: they count) or None
        for top in range(A, n - 1, -1):
            ranks = straight_ranks(top, n)
            cards = Deck().hand(ranks)
            # the ace ranks only low here: A-K-Q-J-10 is no sequence under any reading
            ace_top = top == A
            extra = [g.cats["straight"]] if "straight" in g.cats and not ace_top else []
            out.append(classify(cards, "high_card", g.L(g.order, g.cat("high_card"), *extra),
                                ["low-straights-flushes"] + (["ace-low"] if top == n else [])
                                + (["wraparound"] if ace_top else []),
                                f"{ranks_text(ranks)} is no sequence (the ace ranks below the "
                                "deuce in low poker); it is a no-pair hand." if ace_top else
                                f"{ranks_text(ranks)} is a sequence, but straights do not "
                                "count in this low game: it is a no-pair hand.",
                                "straight" if interp and not ace_top else None,
                                interp if not ace_top else None))
        flushes = ([K, 10, 8, 5, 3], [7, 5, 4, 3, 2], [6, 4, 3, 2, A]) if n == 5 else (
            [K, 9, 5], [5, 3, 2], [4, 2, A])
        extra = [g.cats["flush"]] if "flush" in g.cats else []
        for ranks in flushes:
            cards = [card(r, "c") for r in ranks]
            out.append(classify(cards, "high_card", g.L(g.order, g.cat("high_card"), *extra),
                                ["low-straights-flushes"],
                                f"{ranks_text(ranks)} all in clubs: flushes do not count in "
                                "this low game, it is a no-pair hand.",
                                "flush" if interp else None, interp))
        # a flush against the same ranks unsuited: equal, since the flush does not count
        for i, ranks in enumerate(([8, 6, 4, 3, A], [7, 5, 4, 3, 2])
                                  if n == 5 else ([6, 4, A], [7, 5, 2])):
            a = [card(r, "h") for r in ranks]
            b = [card(r, "scdc"[j % 4]) for j, r in enumerate(ranks)]
            out.append(compare([a, b] if i == 0 else [b, a], [0, 1],
                               g.L(g.order, g.cat("high_card"), g.tie),
                               ["low-straights-flushes"],
                               "The same ranks suited and unsuited: the flush does not count, "
                               f"the hands {g.word}.", ([1] if i == 0 else [0]) if interp
                               else None, interp))
        # suited sequences: neither the straight nor the flush counts
        extra = [g.cats["straight_flush"]] if "straight_flush" in g.cats else []
        for i, top in enumerate((n, 9, K)):
            ranks = straight_ranks(top, n)
            cards = [card(r, SUITS[i]) for r in ranks]
            out.append(classify(cards, "high_card", g.L(g.order, g.cat("high_card"), *extra),
                                ["low-straights-flushes"] + (["ace-low"] if top == n else []),
                                f"{ranks_text(ranks)} all of one suit: neither straights nor "
                                "flushes count in this low game, it is a no-pair hand"
                                + (" (the best one)." if top == n else "."),
                                "straight_flush" if interp else None, interp))
        # the best hand against the next best: straights do not spoil the wheel
        if n == 5:
            a, b = ["5s", "4h", "3d", "2c", "Ah"], ["6s", "4d", "3c", "2h", "As"]
        else:
            a, b = ["3s", "2h", "Ad"], ["4s", "2d", "Ac"]
        worse = [6, 4, 3, 2, A] if n == 5 else [4, 2, A]
        extra = [g.cats["straight"]] if "straight" in g.cats else []
        out.append(compare([a, b], [0], g.L(g.order, g.cat("high_card"), g.tie, *extra),
                           ["low-straights-flushes", "ace-low", "named-extreme"],
                           f"{ranks_text(straight_ranks(n, n))} is the best low hand; "
                           f"{ranks_text(worse)} is next.",
                           [1] if interp else None, interp))
        return out
    # deuce-to-seven: straights and flushes count
    for top in range(A, 5, -1):
        ranks = straight_ranks(top, 5)
        out.append(classify(Deck().hand(ranks), "straight", g.L(g.cat("straight"), g.order),
                            ["low-straights-flushes", "straight-order"],
                            f"{ranks_text(ranks)} is a straight in deuce-to-seven, where "
                            "straights count."))
    tops = list(range(6, A + 1))
    for i, (top_better, top_worse) in enumerate(pairwise(tops)):
        a = [card(r, "sh"[j % 2]) for j, r in enumerate(straight_ranks(top_better, 5))]
        b = [card(r, "dc"[j % 2]) for j, r in enumerate(straight_ranks(top_worse, 5))]
        hands, winners = seat(i, a, b)
        out.append(compare(hands, winners, g.L(g.cat("straight"), g.tie),
                           ["low-straights-flushes", "straight-order"],
                           f"The {name(top_better)}-high straight beats the "
                           f"{name(top_worse)}-high one in deuce-to-seven: the lower straight "
                           "is the better low hand."))
    for j, top in enumerate(range(K, 5, -1)):
        ranks = straight_ranks(top, 5)
        out.append(classify([card(r, SUITS[j % 4]) for r in ranks], "straight_flush",
                            g.L(g.cat("straight_flush")), ["low-straights-flushes"],
                            f"{ranks_text(ranks)} suited is a straight flush in deuce-to-seven."))
    for i, ranks in enumerate(([7, 5, 4, 3, 2], [K, J, 9, 6, 3], [A, 8, 6, 4, 2])):
        out.append(classify([card(r, SUITS[i]) for r in ranks], "flush",
                            g.L(g.cat("flush"), g.order), ["low-straights-flushes"],
                            f"{ranks_text(ranks)} all of one suit is a flush, which counts (as a "
                            "bad hand) in deuce-to-seven."))
        a = [card(r, SUITS[i]) for r in ranks]
        b = [card(r, SUITS[(i + 1 + j % 2) % 4]) for j, r in enumerate(ranks)]
        hands, winners = seat(i, b, a)
        out.append(compare(hands, winners, g.L(g.cat("flush"), g.cat("high_card"), g.order),
                           ["low-straights-flushes", "category-order"],
                           f"{ranks_text(ranks)} unsuited beats the same ranks suited: the "
                           "flush counts against a deuce-to-seven hand."))
    return out


def fam_aces(g: TableGame) -> list[dict[str, Any]]:
    """Where the ace stands in matched groups of a low game (ace-to-five)."""
    out = []
    interp = g.ace_pair_interp
    shapes = [("one_pair", [2, 1, 1, 1] if g.size == 5 else [2, 1], "a pair of {}")]
    if g.size == 5:
        shapes += [("three_of_a_kind", [3, 1, 1], "three {}"),
                   ("four_of_a_kind", [4, 1], "four {}"),
                   ("full_house", [3, 2], "{} full")]
    else:
        shapes += [("three_of_a_kind", [3], "three {}")]
    i = 0
    for category, shape, words in shapes:
        for other in (2, K):
            fill = [k for k in kicker_pool(g) if k != other][:len(shape) - 1]
            tail = [k for k, n in zip(fill, shape[1:], strict=True) for _ in range(n)]
            deck = Deck()
            a = deck.hand([A] * shape[0] + tail, 0)
            b = deck.hand([other] * shape[0] + tail, 1)
            hands, winners = seat(i, a, b)
            i += 1
            out.append(compare(hands, winners, g.L(g.cat(category), g.ranks, g.tie),
                               ["ace-low", "low-order"],
                               f"{words.format(plural(A)).capitalize()} against "
                               f"{words.format(plural(other))}: the ace is the lowest low card, "
                               "so the aces are the better low hand"
                               + ("; read literally as the inverse of the high ranking, aces "
                                  "are the worst." if interp else "."),
                               [1 - winners[0]] if interp else None, interp))
    return out

