"""High Card Flush (58 Pa. Code 678a.6): families for a ranking by flush length.

A hand is seven cards; 678a.6(b) ranks it by its longest flush, seven cards down to two,
and (c) decides hands of one length by the highest ranking card one holds and the other
lacks.  Every expectation here is read off the construction:

* ``table-classify``: seven cards dealt as a suit pattern (L cards of one suit, every
  other suit fewer): the hand is an L-card flush whatever the ranks;
* ``table-order``: a longer flush of the lowest cards against a shorter one of the
  highest (both seats, every pair of lengths): the length decides;
* ``high-cards``: flushes of one length that differ first at a named card, with the
  cards outside the flush of equal ranks (both readings of ``hcf-tie-cards`` agree);
  equal flushes in other suits (a tie); and flushes where the better flush sits beside
  lower other cards, which only the reading of ``hcf-tie-cards`` decides;
* ``reject``: one fault per seven-card input.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

from pokercert.reference.cards import BAD_CARD, DUPLICATE_CARD, JOKER_NOT_ALLOWED, WRONG_COUNT
from pokercert.reference.flush_length import FLUSH_OF_LENGTH
from pokercert.vectors.generate.common import (
    SUITS,
    card,
    classify,
    compare,
    hand_of,
    make_record,
    ranks_text,
    seat,
)
from pokercert.vectors.generate.games import game

RID = "pa-high-card-flush"
# the section, the hand size and each category's clause, from the ruleset file
GAME = game(RID, "(a)", "(b)", "(c)", "(a)", royal=None)
SEC, SIZE = GAME.sec, GAME.size
WORD = {7: "seven", 6: "six", 5: "five", 4: "four", 3: "three", 2: "two"}
CATEGORY = {n: FLUSH_OF_LENGTH[n] for n in WORD}
CLAUSE = {n: GAME.cat(CATEGORY[n]) for n in WORD}
INTERP = "hcf-tie-cards"
Hand = list[str]


def L(*short: str) -> list[str]:
    """Full clause labels of the section for short ids."""
    return GAME.L(*short)


def pattern(length: int) -> list[int]:
    """Cards per suit of a seven-card hand whose longest flush is ``length`` cards: the
    flush suit first, the rest spread with fewer each (two-card flushes: seven cards in
    four suits are 2-2-2-1, so the other suits hold two as well)."""
    cap = length - 1 if length > 2 else 2
    rest, counts = SIZE - length, [length, 0, 0, 0]
    i = 1
    while rest:
        if counts[i] < cap:
            counts[i] += 1
            rest -= 1
        i = i % 3 + 1
    assert sum(counts) == SIZE and max(counts[1:]) <= cap, counts
    return counts


def deal(suits: Sequence[str], ranks: Sequence[Sequence[int]]) -> Hand:
    """Cards: ``ranks[i]`` in suit ``suits[i]`` (distinct ranks within a suit)."""
    cards = [card(r, s) for s, rs in zip(suits, ranks, strict=True) for r in rs]
    assert len(set(cards)) == len(cards), cards
    return cards


def _ring(start: int, count: int, step: int) -> list[int]:
    """``count`` distinct ranks 2..14 walking from ``start`` by ``step`` (13 is prime)."""
    return [2 + (start + k * step) % 13 for k in range(count)]


def fam_classify() -> list[dict[str, Any]]:
    """Fourteen hands of each flush length, seven cards down to two, over the ranks."""
    out = []
    for length in range(7, 1, -1):
        counts = pattern(length)
        for i in range(14):
            suits = SUITS[i % 4 :] + SUITS[: i % 4]
            ranks = [_ring(i + 3 * j, n, 2 + j) for j, n in enumerate(counts)]
            hand = deal(suits, ranks)
            if i % 3 == 2:  # dealt out of suit order, cards speak
                hand = hand[1::2] + hand[0::2]
            others = ", ".join(str(n) for n in counts[1:] if n)
            flush = ranks_text(sorted(ranks[0], reverse=True))
            out.append(
                classify(
                    hand,
                    CATEGORY[length],
                    L("(b)", CLAUSE[length]),
                    ["flush-length"] + (["cards-speak"] if i % 3 == 2 else []),
                    f"{length} cards of one suit ({flush}) and {others or 'no'} "
                    f"of the others: a {WORD[length]}-card flush.",
                )
            )
    return out


def _low_high(longer: int, shorter: int) -> tuple[Hand, Hand]:
    """A ``longer`` flush of the lowest ranks (every card 2..8) and a ``shorter`` one of
    the highest (every card 9..A), the two dealt from one deck."""
    low, high = list(range(2, 9)), list(range(14, 8, -1))
    a = deal(
        SUITS,
        [low[:n] if j == 0 else low[-n:][::-1] if n else [] for j, n in enumerate(pattern(longer))],
    )
    b_suits = SUITS[1:] + SUITS[:1]
    b = deal(
        b_suits,
        [high[:n] if j == 0 else high[-n:] if n else [] for j, n in enumerate(pattern(shorter))],
    )
    assert not set(a) & set(b)
    return a, b


def fam_order() -> list[dict[str, Any]]:
    """Every pair of lengths: the longer flush of low cards beats the shorter of high ones."""
    out: list[dict[str, Any]] = []
    for longer, shorter in combinations(range(7, 1, -1), 2):
        a, b = _low_high(longer, shorter)
        for _ in range(2):
            hands, winners = seat(len(out), a, b)
            out.append(
                compare(
                    hands,
                    winners,
                    L("(b)", CLAUSE[longer], CLAUSE[shorter]),
                    ["flush-length", "category-order"],
                    f"A {WORD[longer]}-card flush of low cards beats a "
                    f"{WORD[shorter]}-card flush holding the ace: (b) ranks by "
                    "length before any card.",
                )
            )
    return out


def _same_length(
    length: int, top: Sequence[int], under: Sequence[int], rest: Sequence[int]
) -> tuple[Hand, Hand]:
    """Two hands with ``length``-card flushes ``top`` and ``under`` (suits s and h) and the
    same other ranks ``rest`` in the other suits (each suit under ``length`` cards)."""
    counts = pattern(length)[1:]
    chunks, k = [], 0
    for n in counts:
        chunks.append(list(rest[k : k + n]))
        k += n
    a = deal(("s", "d", "c", "h"), [top, *chunks])
    b = deal(("h", "c", "s", "d"), [under, *chunks])
    return a, b


def fam_high_cards() -> list[dict[str, Any]]:
    """Flushes of one length: the first differing card decides, ties, and the reading."""
    out: list[dict[str, Any]] = []
    for length in range(7, 1, -1):
        rest = [2, 3, 4, 5, 6, 7][: SIZE - length]
        # the flushes differ first at card ``at`` (0: the top card, length - 1: the last);
        # every flush card above the other cards' ranks
        for at in sorted({0, 1, 2, length - 1} & set(range(length))):
            top = [14 - k for k in range(length)]
            under = top[:at] + [r - 1 for r in top[at:]]
            if min(under) <= max(rest, default=0):
                continue
            a, b = _same_length(length, top, under, rest)
            hands, winners = seat(len(out), a, b)
            out.append(
                compare(
                    hands,
                    winners,
                    L(CLAUSE[length], "(c)"),
                    ["flush-length", "kicker-order"],
                    f"Two {WORD[length]}-card flushes, {ranks_text(top)} against "
                    f"{ranks_text(under)}, the other cards alike: the "
                    f"{'highest' if at == 0 else 'highest differing'} card one "
                    "holds and the other lacks decides (c).",
                )
            )
        a, b = _same_length(
            length, [13 - k for k in range(length)], [13 - k for k in range(length)], rest
        )
        out.append(
            compare(
                [a, b],
                [0, 1],
                L(CLAUSE[length], "(c)", "(a)"),
                ["flush-length", "suit-tiebreak"],
                f"The same {WORD[length]}-card flush ranks in other suits, the "
                "other cards alike: identical rank under (c), a tie (suits equal).",
            )
        )
    return out + _reading_vectors(len(out))


def _reading_vectors(n0: int) -> list[dict[str, Any]]:
    """The better flush beside low other cards against a worse one beside an ace: the
    flush decides if the hand of (b) is the flush, the ace if it is all seven cards."""
    out: list[dict[str, Any]] = []
    for length in (3, 4, 5):
        counts = pattern(length)
        better = [12, 10, 9, 8, 7][:length]  # queen-high flush
        worse = [11, 10, 9, 8, 7][:length]  # jack-high flush
        low = [6, 5, 4, 3, 2]
        a = deal(("s", "d", "c", "h"), [better, *[low[:n] for n in counts[1:]]])
        b = deal(
            ("h", "c", "s", "d"),
            [worse, *[[14, 13][:n] + low[: max(0, n - 2)] for n in counts[1:]]],
        )
        for _ in range(2):
            hands, winners = seat(n0 + len(out), a, b)
            loser = [1 - winners[0]]
            out.append(
                compare(
                    hands,
                    winners,
                    L("(b)", CLAUSE[length], "(c)"),
                    ["flush-length", "kicker-order"],
                    f"A queen-high {WORD[length]}-card flush beside low cards "
                    "against a jack-high one beside an ace and a king: the flush "
                    "decides if the hand compared is the flush, the ace if it is "
                    "all seven cards.",
                    literal=loser,
                    interp=INTERP,
                )
            )
    return out


def fam_reject() -> list[dict[str, Any]]:
    """One input fault per vector, on seven-card hands."""
    base = ["As", "Kd", "9h", "5c", "3s", "7d", "Jc"]
    label, flags = L("(a)"), ["input-validation"]

    def rej(hand: Sequence[str], reason: str, why: str) -> dict[str, Any]:
        return make_record(
            "reject",
            {"op": "classify", "hand": hand_of(hand)},
            label,
            flags,
            why,
            expect={"reason": reason},
        )

    return [
        rej([*base[:-1], "As"], DUPLICATE_CARD, "As appears twice in one hand."),
        rej(base[:-1], WRONG_COUNT, "Six cards where High Card Flush deals seven."),
        rej([*base, "2h"], WRONG_COUNT, "Eight cards where High Card Flush deals seven."),
        rej(base[:5], WRONG_COUNT, "Five cards: a poker hand, not a High Card Flush hand."),
        rej([*base[:-1], "1s"], BAD_CARD, "'1s' is not a card: there is no rank 1."),
        rej([*base[:-1], "Kx"], BAD_CARD, "'Kx' is not a card: x is not a suit."),
        rej([*base[:-1], "Xx"], JOKER_NOT_ALLOWED, "A joker in a game dealt without jokers."),
    ]


def hcf_families() -> list[tuple[str, str, Any]]:
    """``(ruleset, topic, build)`` of the High Card Flush families, in a fixed order."""
    return [
        (RID, "table-classify", fam_classify),
        (RID, "table-order", fam_order),
        (RID, "high-cards", fam_high_cards),
        (RID, "reject", fam_reject),
    ]
