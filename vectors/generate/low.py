"""Families only low games have: straights and flushes in a low game, where the aces stand."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from pokercert.reference.categories import CategoryName
from pokercert.vectors.dealing import Deck
from pokercert.vectors.generate.common import (
    SUITS,
    A,
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
from pokercert.vectors.generate.worked import ranks_of, section


def fam_low_straights_flushes(g: TableGame) -> list[dict[str, Any]]:
    """A-5 low: straights and flushes do not count; 2-7: they do (as bad hands).  The
    hand-worked hands are in ``data/low.toml``."""
    if g.low_ace == "one":
        hands = section("low", "ace-to-five", str(g.size))
        return (
            _a5_sequences(g)
            + _a5_flushes(g, hands)
            + _a5_suited_sequences(g)
            + [_a5_best_against_next(g, hands)]
        )
    return _27_straights(g) + _27_flushes(g, section("low", "deuce-to-seven", str(g.size)))


def _extra(g: TableGame, category: CategoryName) -> list[str]:
    """The clause defining ``category`` where the game's file has one (else none)."""
    return [g.cats[category]] if category in g.cats else []


def _a5_sequences(g: TableGame) -> list[dict[str, Any]]:
    """Every run of the hand size: no sequence counts in ace-to-five low."""
    out = []
    n = g.size
    interp = g.straight_interp  # mt-low-order (literal: they count) or None
    for top in range(A, n - 1, -1):
        ranks = straight_ranks(top, n)
        cards = Deck().hand(ranks)
        # the ace ranks only low here: A-K-Q-J-10 is no sequence under any reading
        ace_top = top == A
        extra = _extra(g, CategoryName.STRAIGHT) if not ace_top else []
        out.append(
            classify(
                cards,
                CategoryName.HIGH_CARD,
                g.L(g.order, g.cat(CategoryName.HIGH_CARD), *extra),
                ["low-straights-flushes"]
                + (["ace-low"] if top == n else [])
                + (["wraparound"] if ace_top else []),
                f"{ranks_text(ranks)} is no sequence (the ace ranks below the "
                "deuce in low poker); it is a no-pair hand."
                if ace_top
                else f"{ranks_text(ranks)} is a sequence, but straights do not "
                "count in this low game: it is a no-pair hand.",
                CategoryName.STRAIGHT if interp and not ace_top else None,
                interp if not ace_top else None,
            )
        )
    return out


def _a5_flushes(g: TableGame, hands: dict[str, Any]) -> list[dict[str, Any]]:
    """Flushes classified, and a flush against the same ranks unsuited: equal, since the
    flush does not count."""
    out = []
    interp = g.straight_interp
    extra = _extra(g, CategoryName.FLUSH)
    for ranks in map(ranks_of, hands["flushes"]):
        cards = [card(r, "c") for r in ranks]
        out.append(
            classify(
                cards,
                CategoryName.HIGH_CARD,
                g.L(g.order, g.cat(CategoryName.HIGH_CARD), *extra),
                ["low-straights-flushes"],
                f"{ranks_text(ranks)} all in clubs: flushes do not count in "
                "this low game, it is a no-pair hand.",
                CategoryName.FLUSH if interp else None,
                interp,
            )
        )
    for i, ranks in enumerate(map(ranks_of, hands["suited_against_unsuited"])):
        a = [card(r, "h") for r in ranks]
        b = [card(r, "scdc"[j % 4]) for j, r in enumerate(ranks)]
        out.append(
            compare(
                [a, b] if i == 0 else [b, a],
                [0, 1],
                g.L(g.order, g.cat(CategoryName.HIGH_CARD), g.tie),
                ["low-straights-flushes"],
                "The same ranks suited and unsuited: the flush does not count, "
                f"the hands {g.word}.",
                ([1] if i == 0 else [0]) if interp else None,
                interp,
            )
        )
    return out


def _a5_suited_sequences(g: TableGame) -> list[dict[str, Any]]:
    """Suited sequences: neither the straight nor the flush counts."""
    out = []
    n = g.size
    interp = g.straight_interp
    extra = _extra(g, CategoryName.STRAIGHT_FLUSH)
    for i, top in enumerate((n, 9, K)):
        ranks = straight_ranks(top, n)
        cards = [card(r, SUITS[i]) for r in ranks]
        out.append(
            classify(
                cards,
                CategoryName.HIGH_CARD,
                g.L(g.order, g.cat(CategoryName.HIGH_CARD), *extra),
                ["low-straights-flushes"] + (["ace-low"] if top == n else []),
                f"{ranks_text(ranks)} all of one suit: neither straights nor "
                "flushes count in this low game, it is a no-pair hand"
                + (" (the best one)." if top == n else "."),
                CategoryName.STRAIGHT_FLUSH if interp else None,
                interp,
            )
        )
    return out


def _a5_best_against_next(g: TableGame, hands: dict[str, Any]) -> dict[str, Any]:
    """The best hand against the next best: straights do not spoil the wheel."""
    n = g.size
    interp = g.straight_interp
    a, b = (h.split() for h in hands["best_against_next"])
    worse = ranks_of(hands["next_best"])
    extra = _extra(g, CategoryName.STRAIGHT)
    return compare(
        [a, b],
        [0],
        g.L(g.order, g.cat(CategoryName.HIGH_CARD), g.tie, *extra),
        ["low-straights-flushes", "ace-low", "named-extreme"],
        f"{ranks_text(straight_ranks(n, n))} is the best low hand; {ranks_text(worse)} is next.",
        [1] if interp else None,
        interp,
    )


def _27_straights(g: TableGame) -> list[dict[str, Any]]:
    """Deuce-to-seven: every straight, each against the next (the lower one wins), and
    the straight flushes."""
    out = []
    for top in range(A, 5, -1):
        ranks = straight_ranks(top, 5)
        out.append(
            classify(
                Deck().hand(ranks),
                CategoryName.STRAIGHT,
                g.L(g.cat(CategoryName.STRAIGHT), g.order),
                ["low-straights-flushes", "straight-order"],
                f"{ranks_text(ranks)} is a straight in deuce-to-seven, where straights count.",
            )
        )
    for i, (top_better, top_worse) in enumerate(pairwise(range(6, A + 1))):
        a = [card(r, "sh"[j % 2]) for j, r in enumerate(straight_ranks(top_better, 5))]
        b = [card(r, "dc"[j % 2]) for j, r in enumerate(straight_ranks(top_worse, 5))]
        hands, winners = seat(i, a, b)
        out.append(
            compare(
                hands,
                winners,
                g.L(g.cat(CategoryName.STRAIGHT), g.tie),
                ["low-straights-flushes", "straight-order"],
                f"The {name(top_better)}-high straight beats the "
                f"{name(top_worse)}-high one in deuce-to-seven: the lower straight "
                "is the better low hand.",
            )
        )
    for j, top in enumerate(range(K, 5, -1)):
        ranks = straight_ranks(top, 5)
        out.append(
            classify(
                [card(r, SUITS[j % 4]) for r in ranks],
                CategoryName.STRAIGHT_FLUSH,
                g.L(g.cat(CategoryName.STRAIGHT_FLUSH)),
                ["low-straights-flushes"],
                f"{ranks_text(ranks)} suited is a straight flush in deuce-to-seven.",
            )
        )
    return out


def _27_flushes(g: TableGame, hands: dict[str, Any]) -> list[dict[str, Any]]:
    """Deuce-to-seven flushes, each against the same ranks unsuited (which win)."""
    out = []
    for i, ranks in enumerate(map(ranks_of, hands["flushes"])):
        out.append(
            classify(
                [card(r, SUITS[i]) for r in ranks],
                CategoryName.FLUSH,
                g.L(g.cat(CategoryName.FLUSH), g.order),
                ["low-straights-flushes"],
                f"{ranks_text(ranks)} all of one suit is a flush, which counts (as a "
                "bad hand) in deuce-to-seven.",
            )
        )
        a = [card(r, SUITS[i]) for r in ranks]
        b = [card(r, SUITS[(i + 1 + j % 2) % 4]) for j, r in enumerate(ranks)]
        hands_, winners = seat(i, b, a)
        out.append(
            compare(
                hands_,
                winners,
                g.L(g.cat(CategoryName.FLUSH), g.cat(CategoryName.HIGH_CARD), g.order),
                ["low-straights-flushes", "category-order"],
                f"{ranks_text(ranks)} unsuited beats the same ranks suited: the "
                "flush counts against a deuce-to-seven hand.",
            )
        )
    return out


def fam_aces(g: TableGame) -> list[dict[str, Any]]:
    """Where the ace stands in matched groups of a low game (ace-to-five)."""
    out = []
    interp = g.ace_pair_interp
    shapes = [(CategoryName.ONE_PAIR, [2, 1, 1, 1] if g.size == 5 else [2, 1], "a pair of {}")]
    if g.size == 5:
        shapes += [
            (CategoryName.THREE_OF_A_KIND, [3, 1, 1], "three {}"),
            (CategoryName.FOUR_OF_A_KIND, [4, 1], "four {}"),
            (CategoryName.FULL_HOUSE, [3, 2], "{} full"),
        ]
    else:
        shapes += [(CategoryName.THREE_OF_A_KIND, [3], "three {}")]
    i = 0
    for category, shape, words in shapes:
        for other in (2, K):
            fill = [k for k in kicker_pool(g) if k != other][: len(shape) - 1]
            tail = [k for k, n in zip(fill, shape[1:], strict=True) for _ in range(n)]
            deck = Deck()
            a = deck.hand([A] * shape[0] + tail, 0)
            b = deck.hand([other] * shape[0] + tail, 1)
            hands, winners = seat(i, a, b)
            i += 1
            out.append(
                compare(
                    hands,
                    winners,
                    g.L(g.cat(category), g.ranks, g.tie),
                    ["ace-low", "low-order"],
                    f"{words.format(plural(A)).capitalize()} against "
                    f"{words.format(plural(other))}: the ace is the lowest low card, "
                    "so the aces are the better low hand"
                    + (
                        "; read literally as the inverse of the high ranking, aces are the worst."
                        if interp
                        else "."
                    ),
                    [1 - winners[0]] if interp else None,
                    interp,
                )
            )
    return out
