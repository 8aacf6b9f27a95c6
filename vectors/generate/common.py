"""The generator's vocabulary: cards, words and records (the deck is
:class:`pokercert.vectors.dealing.Deck`).

Every family builds its vectors from these pieces, so a record is written one way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pokercert.reference.categories import CategoryName
from pokercert.vectors.generate.games import TableGame

RANK_CHARS = "23456789TJQKA"
SUITS = "shdc"
A, K, Q, J, T = 14, 13, 12, 11, 10


def card(rank: int, suit: str) -> str:
    return RANK_CHARS[rank - 2] + suit


def name(rank: int) -> str:
    return {
        14: "ace",
        13: "king",
        12: "queen",
        11: "jack",
        10: "ten",
        9: "nine",
        8: "eight",
        7: "seven",
        6: "six",
        5: "five",
        4: "four",
        3: "three",
        2: "two",
    }[rank]


def plural(rank: int) -> str:
    return "sixes" if rank == 6 else name(rank) + "s"


def ranks_text(ranks: Sequence[int]) -> str:
    return "-".join("10" if r == 10 else RANK_CHARS[r - 2] for r in ranks)


def hand_of(cards: Sequence[str]) -> str:
    return " ".join(cards)


def is_run(ranks: Sequence[int], ace_low: bool = True) -> bool:
    """Construction guard: do these distinct ranks form a sequence (ace high or low)?"""
    s = sorted(set(ranks))
    if len(s) != len(ranks):
        return False
    if s[-1] - s[0] == len(s) - 1:
        return True
    return ace_low and s[-1] == A and is_run([1 if r == A else r for r in s], ace_low=False)


CATEGORY_WORDS: dict[str, str] = {
    CategoryName.ROYAL_FLUSH: "a royal flush",
    CategoryName.STRAIGHT_FLUSH: "a straight flush",
    CategoryName.FOUR_OF_A_KIND: "four of a kind",
    CategoryName.FULL_HOUSE: "a full house",
    CategoryName.FLUSH: "a flush",
    CategoryName.STRAIGHT: "a straight",
    CategoryName.THREE_OF_A_KIND: "three of a kind",
    CategoryName.TWO_PAIR: "two pairs",
    CategoryName.ONE_PAIR: "one pair",
    CategoryName.HIGH_CARD: "no listed hand",
    CategoryName.FIVE_OF_A_KIND: "five of a kind",
}

# --------------------------------------------------------------------------- records

# what the literal reading changes, appended to a generated ``why`` that depends on it
READING_NOTES = {
    "unsuited": "read literally ('unsuited' = every card a different suit), no five-card "
    "straight can exist",
    "mt-wheel": "read literally (the ace is only high), A-2-3-4-5 is no straight",
    "mt-low-order": "read literally, straights and flushes count as bad low hands",
    "sd-low-order": "read literally, straights and flushes count as bad low hands",
}


def make_record(
    kind: str,
    inputs: dict[str, Any],
    clauses: list[str],
    flags: list[str],
    why: str,
    expect: dict[str, Any] | None = None,
    interp: str | None = None,
    by_reading: dict[str, dict[str, Any]] | None = None,
) -> dict[str, Any]:
    rec: dict[str, Any] = {"kind": kind, **inputs}
    if by_reading is not None:
        assert interp is not None
        if by_reading["practice"] == by_reading["literal"] and interp != "suits-equal":
            rec["expect"] = by_reading["practice"]  # the readings agree: no dependency
        else:
            rec["interpretations"] = [interp]
            rec["expect_by_reading"] = by_reading
            if interp in READING_NOTES:
                why = f"{why.rstrip('.')}; {READING_NOTES[interp]}."
    else:
        rec["expect"] = expect
    rec["clauses"] = clauses
    rec["flags"] = flags
    rec["why"] = why
    return rec


def classify(
    hand: Sequence[str],
    category: str,
    clauses: list[str],
    flags: list[str],
    why: str,
    literal: str | None = None,
    interp: str | None = None,
) -> dict[str, Any]:
    """A classify vector; ``literal`` (with ``interp``) gives the literal reading's answer."""
    if literal is not None:
        return make_record(
            "classify",
            {"hand": hand_of(hand)},
            clauses,
            flags,
            why,
            interp=interp,
            by_reading={"practice": {"category": category}, "literal": {"category": literal}},
        )
    return make_record(
        "classify", {"hand": hand_of(hand)}, clauses, flags, why, expect={"category": category}
    )


def compare(
    hands: Sequence[Sequence[str]],
    winners: list[int],
    clauses: list[str],
    flags: list[str],
    why: str,
    literal: list[int] | None = None,
    interp: str | None = None,
    board: Sequence[str] | None = None,
) -> dict[str, Any]:
    inputs: dict[str, Any] = {"hands": [hand_of(h) for h in hands]}
    if board is not None:
        inputs["board"] = hand_of(board)
    if literal is not None:
        return make_record(
            "compare",
            inputs,
            clauses,
            flags,
            why,
            interp=interp,
            by_reading={"practice": {"winners": winners}, "literal": {"winners": literal}},
        )
    return make_record("compare", inputs, clauses, flags, why, expect={"winners": winners})


def seat(i: int, better: Sequence[str], worse: Sequence[str]) -> tuple[list[list[str]], list[int]]:
    """Alternate the seat of the better hand so no evaluator passes by favouring seat 0."""
    if i % 2 == 0:
        return [list(better), list(worse)], [0]
    return [list(worse), list(better)], [1]


def not_flush(cards: Sequence[str]) -> bool:
    return len({c[1] for c in cards}) > 1


def straight_ranks(top: int, size: int) -> list[int]:
    """The ranks of the straight topped by ``top`` (5 = wheel A-2-3-4-5, 3 = A-2-3)."""
    return [A if r == 1 else r for r in range(top, top - size, -1)]


def straight_tops(size: int, game: TableGame) -> list[int]:
    """Top cards of every straight, best first, for a high game."""
    return list(range(A, size - 1, -1))


def rank_order(g: TableGame) -> list[int]:
    """Ranks best first: A..2 in high games, A,2..K in ace-to-five, 2..A in deuce-to-seven."""
    if g.direction == "high":
        return list(range(A, 1, -1))
    if g.low_ace == "one":
        return [A, *range(2, A)]
    return list(range(2, A + 1))


def step_worse(g: TableGame, rank: int) -> int | None:
    """The next worse rank in the game's card order (None past the worst card)."""
    order = rank_order(g)
    i = order.index(rank)
    return order[i + 1] if i + 1 < len(order) else None


def a_name(rank: int) -> str:
    word = name(rank)
    return ("an " if word[0] in "ae" else "a ") + word


def kicker_pool(g: TableGame) -> list[int]:
    """Ranks to fill the unvarying cards with (any order works; these keep hands plain)."""
    if g.direction == "high":
        return [A, K, Q, J, 9, 7]
    return [2, 3, 4, 5, 7, 8] if g.low_ace == "high" else [3, 4, 5, 7, 8, 9]


def sorted_cards(cards: Sequence[str]) -> list[str]:
    return sorted(cards, key=lambda c: (-(RANK_CHARS.index(c[0]) + 2), SUITS.index(c[1])))
