"""Mini-tex families: the two-card pocket wager and best-hand selection from hole and board."""

from __future__ import annotations

from typing import Any

from pokercert.reference import Ruleset, get_ruleset
from pokercert.reference.categories import CategoryName
from pokercert.vectors.generate.common import (
    SUITS,
    A,
    J,
    K,
    Q,
    card,
    classify,
    hand_of,
    make_record,
    name,
    plural,
    ranks_text,
    sorted_cards,
)
from pokercert.vectors.generate.games import TableGame

POCKET = "nj-mini-tex-pocket"


def fam_pocket(g: TableGame) -> list[dict[str, Any]]:
    """Every two-card pocket hand of the Mini-tex pocket wager, named by its clause."""
    rs = get_ruleset(POCKET)
    return _pocket_made(rs) + _pocket_runs(rs) + _pocket_nothing(rs)


def _labels(rs: Ruleset, *short: str) -> list[str]:
    sec = rs.regulation.section
    return [x if x.startswith(sec) else sec + x for x in short]


def _named(rs: Ruleset, category: str, why: str = "(d)") -> list[str]:
    """The clause defining ``category``, then the clause ``why`` it applies."""
    return _labels(rs, rs.category(category).clause, why)


def _pocket_made(rs: Ruleset) -> list[dict[str, Any]]:
    """The royal straight flushes, the pairs of aces and the suited runs."""
    out = []
    royal, aces = CategoryName.ROYAL_STRAIGHT_FLUSH, CategoryName.PAIR_OF_ACES
    for s in SUITS:
        out.append(
            classify(
                [card(A, s), card(K, s)],
                royal,
                _named(rs, royal),
                ["pocket-wager", "royal-naming"],
                "Ace and king of one suit: the royal straight flush (paid once, "
                "not also as a straight flush).",
            )
        )
    for s1, s2 in (("s", "h"), ("s", "d"), ("s", "c"), ("h", "d"), ("h", "c"), ("d", "c")):
        out.append(
            classify(
                [card(A, s1), card(A, s2)],
                aces,
                _named(rs, aces),
                ["pocket-wager"],
                "Two aces: the pair of aces, ranked above every other pair.",
            )
        )
    for i, hi in enumerate(range(K, 2, -1)):
        s = SUITS[i % 4]
        out.append(
            classify(
                [card(hi, s), card(hi - 1, s)],
                CategoryName.STRAIGHT_FLUSH,
                _named(rs, CategoryName.STRAIGHT_FLUSH),
                ["pocket-wager"],
                f"{ranks_text([hi, hi - 1])} of one suit: "
                "two suited cards of consecutive rank, a straight flush.",
            )
        )
    return out


def _pocket_runs(rs: Ruleset) -> list[dict[str, Any]]:
    """Every other pair, the unsuited runs, and the ace-two suited and not."""
    out = []
    flush, straight = CategoryName.STRAIGHT_FLUSH, CategoryName.STRAIGHT
    for i, r in enumerate(range(K, 1, -1)):
        s1, s2 = SUITS[i % 4], SUITS[(i + 1) % 4]
        out.append(
            classify(
                [card(r, s1), card(r, s2)],
                CategoryName.ONE_PAIR,
                _named(rs, CategoryName.ONE_PAIR),
                ["pocket-wager", "rank-order"],
                f"Two {plural(r)}: a pair.",
            )
        )
    for i, hi in enumerate(range(A, 2, -1)):
        s1, s2 = SUITS[i % 4], SUITS[(i + 2) % 4]
        out.append(
            classify(
                [card(hi, s1), card(hi - 1, s2)],
                straight,
                _named(rs, straight),
                ["pocket-wager"],
                f"{ranks_text([hi, hi - 1])} of different "
                "suits: two unsuited cards of consecutive rank, a straight.",
            )
        )
    for suited in (True, False):
        s2 = "s" if suited else "d"
        category = flush if suited else straight
        out.append(
            classify(
                [card(A, "s"), card(2, s2)],
                category,
                _named(rs, category, "(a)"),
                ["pocket-wager", "wheel"],
                f"Ace and two{' of one suit' if suited else ''}: consecutive when "
                "the ace plays low, as (a) allows with a two and three; read "
                "literally the ace plays low only in A-2-3, and A-2 pays nothing.",
                CategoryName.HIGH_CARD,
                "pocket-ace-two",
            )
        )
    return out


def _pocket_nothing(rs: Ruleset) -> list[dict[str, Any]]:
    """Near misses: neither consecutive nor a pair, suited or not."""
    out = []
    for i, (hi, lo) in enumerate(
        ((A, Q), (K, J), (Q, 10), (9, 7), (7, 2), (5, 3), (A, 3), (K, 2), (8, 4), (J, 9))
    ):
        s1 = SUITS[i % 4]
        s2 = s1 if i % 2 == 0 else SUITS[(i + 1) % 4]
        out.append(
            classify(
                [card(hi, s1), card(lo, s2)],
                CategoryName.HIGH_CARD,
                _labels(rs, "(d)"),
                ["pocket-wager", "near-miss"],
                f"{ranks_text([hi, lo])}{' suited' if s1 == s2 else ''}: not "
                "consecutive and not a pair, so no pocket hand.",
            )
        )
    return out


# --------------------------------------------------------------------------- Mini-tex


def fam_best_hand(g: TableGame) -> list[dict[str, Any]]:
    """Best-hand selection where the board alone would be best (it never plays)."""
    out = []
    L = g.L
    # board trips: the best hand is a pair of the board rank and the higher hole card
    for r in range(A, 1, -1):
        hole_ranks = [x for x in (9, 4, K, 6) if x != r and abs(x - r) > 1][:2]
        hi, lo = max(hole_ranks), min(hole_ranks)
        board = [card(r, s) for s in "shd"]
        hole = [card(hi, "c"), card(lo, "s")]
        kicker = card(hi, "c")
        sets = [
            hand_of(sorted_cards([b1, b2, kicker]))
            for b1, b2 in ((board[0], board[1]), (board[0], board[2]), (board[1], board[2]))
        ]
        out.append(
            make_record(
                "best_hand",
                {"hole": hand_of(hole), "board": hand_of(board)},
                L("(a)", g.cat(CategoryName.ONE_PAIR)),
                ["best-hand-selection"],
                f"Board three {plural(r)}: it may not play alone, so the best hand "
                f"is a pair of {plural(r)} with the {name(hi)} from the hole.",
                expect={"category": CategoryName.ONE_PAIR, "cards": sets},
            )
        )
    # board A-K-Q suited: a pocket pair plays with the ace (no flush or straight possible)
    for x in range(10, 1, -1):
        board = [card(A, "s"), card(K, "s"), card(Q, "s")]
        hole = [card(x, "h"), card(x, "d")]
        best = hand_of(sorted_cards([card(A, "s"), *hole]))
        out.append(
            make_record(
                "best_hand",
                {"hole": hand_of(hole), "board": hand_of(board)},
                L("(a)", g.cat(CategoryName.ONE_PAIR)),
                ["best-hand-selection"],
                "Board A-K-Q of spades would be the best straight flush, but a "
                f"hand must use a hole card: two {plural(x)} and the ace make the "
                "best hand.",
                expect={"category": CategoryName.ONE_PAIR, "cards": [best]},
            )
        )
    return out
