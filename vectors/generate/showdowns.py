"""Showdown families every game has: suit ties, multiway pots and cards speak."""

from __future__ import annotations

from collections.abc import Sequence
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
    card,
    classify,
    compare,
    hand_of,
    is_run,
    name,
    not_flush,
    step_worse,
    straight_ranks,
)
from pokercert.vectors.generate.games import TableGame
from pokercert.vectors.generate.worked import ranks_of, section


def fam_suit_ties(g: TableGame) -> list[dict[str, Any]]:
    """Hands with the same ranks in different suits: equal in every category."""
    return [
        *_suit_ties_of_runs_and_flushes(g),
        *_suit_ties_of_groups(g),
        *_suit_ties_of_high_cards(g),
    ]


def _suit_tie(
    g: TableGame, a: list[str], b: list[str], category: str, extra: list[str] | None = None
) -> dict[str, Any]:
    """Hands ``a`` and ``b`` of ``category``, the same ranks in other suits: they tie."""
    clauses = g.L(g.suits, g.tie)
    return compare(
        [a, b],
        [0, 1],
        clauses + [x for x in g.L(g.cat(category)) if x not in clauses],
        ["suit-tiebreak", *(extra or [])],
        f"{CATEGORY_WORDS[category].capitalize()} against the same ranks in "
        f"other suits: suits are equal, the hands {g.word}.",
        literal=[0, 1],
        interp="suits-equal",
    )


def _suit_ties_of_runs_and_flushes(g: TableGame) -> list[dict[str, Any]]:
    """In a high game: straight flushes (the top one, the wheel), a flush, straights."""
    if g.direction != "high":
        return []
    out = []
    n = g.size
    royal = straight_ranks(A, n)
    for s1, s2 in (("s", "h"), ("d", "c")):
        cat = g.royal or CategoryName.STRAIGHT_FLUSH
        out.append(_suit_tie(g, [card(r, s1) for r in royal], [card(r, s2) for r in royal], cat))
    for top in (9, n):
        ranks = straight_ranks(top, n)
        out.append(
            _suit_tie(
                g,
                [card(r, "c") for r in ranks],
                [card(r, "d") for r in ranks],
                CategoryName.STRAIGHT_FLUSH,
                ["wheel"] if top == n else [],
            )
        )
    fl = [A, Q, 10, 8, 6][:n] if n == 5 else [A, J, 8]
    out.append(
        _suit_tie(g, [card(r, "h") for r in fl], [card(r, "s") for r in fl], CategoryName.FLUSH)
    )
    for top in (A, 8, n):
        ranks = straight_ranks(top, n)
        a = [card(r, SUITS[(j % 2)]) for j, r in enumerate(ranks)]
        b = [card(r, SUITS[2 + (j % 2)]) for j, r in enumerate(ranks)]
        if n == 3:
            a = [card(r, SUITS[j]) for j, r in enumerate(ranks)]
            b = [card(r, SUITS[(j + 1) % 4]) for j, r in enumerate(ranks)]
        out.append(_suit_tie(g, a, b, CategoryName.STRAIGHT, ["wheel"] if top == n else []))
    return out


def _suit_ties_of_groups(g: TableGame) -> list[dict[str, Any]]:
    """Two pair (in a five-card game that has it) and one pair."""
    out = []
    n = g.size
    if n == 5 and CategoryName.TWO_PAIR in g.cats:
        ranks = [K, K, 7, 7, 3] if g.direction == "high" else [4, 4, 3, 3, 6]
        deck = Deck()
        out.append(_suit_tie(g, deck.hand(ranks, 0), deck.hand(ranks, 1), CategoryName.TWO_PAIR))
    pair = (
        ([A, A, K, 9, 4] if n == 5 else [A, A, 9])
        if g.direction == "high"
        else ([2, 2, 5, 4, 3] if n == 5 else [2, 2, 3])
    )
    deck = Deck()
    out.append(_suit_tie(g, deck.hand(pair, 0), deck.hand(pair, 1), CategoryName.ONE_PAIR))
    return out


def _suit_ties_of_high_cards(g: TableGame) -> list[dict[str, Any]]:
    """Two high-card hands: near the best and near the worst of the game."""
    out = []
    n = g.size
    for ranks in (
        ([[A, Q, 10, 8, 6], [7, 5, 4, 3, 2]] if n == 5 else [[A, J, 8], [5, 3, 2]])
        if g.direction == "high"
        else (
            [[5, 4, 3, 2, A], [K, Q, J, 9, 8]]
            if n == 5 and g.low_ace == "one"
            else [[7, 5, 4, 3, 2], [A, K, Q, J, 9]]
            if n == 5
            else [[3, 2, A], [K, Q, 10]]
        )
    ):
        deck = Deck()
        a, b = deck.hand(ranks, 0), deck.hand(ranks, 1)
        out.append(_suit_tie(g, a, b, CategoryName.HIGH_CARD))
    return out


def fam_multiway(g: TableGame) -> list[dict[str, Any]]:
    """Three- and four-way equal hands (and a three-way split beside a losing hand)."""
    return [*_multiway_runs_and_flushes(g), *_multiway_high_cards(g)]


def _rotated(ranks: Sequence[int], players: int) -> list[list[str]]:
    """``players`` hands of ``ranks``, each in suits rotated one place from the last."""
    return [[card(r, SUITS[(p + j) % 4]) for j, r in enumerate(ranks)] for p in range(players)]


def _multiway(
    g: TableGame, hands: list[list[str]], winners: list[int], category: str, why: str
) -> dict[str, Any]:
    """A showdown of ``hands`` of ``category`` that ``winners`` split."""
    clauses = g.L(g.tie)
    return compare(
        hands,
        winners,
        clauses + [x for x in g.L(g.cat(category)) if x not in clauses],
        ["multiway-split", "suit-tiebreak"],
        why,
    )


def _multiway_runs_and_flushes(g: TableGame) -> list[dict[str, Any]]:
    """In a high game: four top straight flushes, four- and three-way straights, four
    flushes of the same ranks."""
    if g.direction != "high":
        return []
    out = []
    n = g.size
    royal = straight_ranks(A, n)
    cat = g.royal or CategoryName.STRAIGHT_FLUSH
    out.append(
        _multiway(
            g,
            [[card(r, s) for r in royal] for s in SUITS],
            [0, 1, 2, 3],
            cat,
            f"Four {CATEGORY_WORDS[cat].split(' ', 1)[1]}es, one per suit: a four-way {g.word}.",
        )
    )
    for top in (A, 9, n):
        hands = _rotated(straight_ranks(top, n), 4)
        out.append(
            _multiway(
                g,
                hands,
                [0, 1, 2, 3],
                CategoryName.STRAIGHT,
                f"Four {name(top) if top != n else 'ace-low'} straights in rotated suits: a "
                f"four-way {g.word}.",
            )
        )
        out.append(
            _multiway(
                g,
                hands[:3],
                [0, 1, 2],
                CategoryName.STRAIGHT,
                f"Three equal straights: a three-way {g.word}.",
            )
        )
    fl = [K, J, 9, 7, 4][:n] if n == 5 else [K, 9, 6]
    out.append(
        _multiway(
            g,
            [[card(r, s) for r in fl] for s in SUITS],
            [0, 1, 2, 3],
            CategoryName.FLUSH,
            f"Four flushes of the same ranks: a four-way {g.word}.",
        )
    )
    return out


def _multiway_high_cards(g: TableGame) -> list[dict[str, Any]]:
    """Four- and three-way equal high cards; three equal hands beside one worse by its
    last card."""
    n = g.size
    hc = (
        ([A, Q, 10, 8, 6] if n == 5 else [A, J, 8])
        if g.direction == "high"
        else (([8, 6, 4, 3, A] if g.low_ace == "one" else [9, 7, 5, 4, 2]) if n == 5 else [5, 3, A])
    )
    hands = _rotated(hc, 4)
    out = [
        _multiway(
            g,
            hands,
            [0, 1, 2, 3],
            CategoryName.HIGH_CARD,
            f"Four hands of the same ranks in rotated suits: a four-way {g.word}.",
        ),
        _multiway(
            g,
            hands[:3],
            [0, 1, 2],
            CategoryName.HIGH_CARD,
            f"Three hands of the same ranks: a three-way {g.word}.",
        ),
    ]
    # three equal hands and one that loses by its last card
    worse = list(hc)
    worse[-1] = step_worse(g, hc[-1]) or hc[-1]
    loser = [card(r, SUITS[(3 + j) % 4]) for j, r in enumerate(worse)]
    if not_flush(loser) and not is_run(worse, g.low_ace != "high"):
        out.append(
            _multiway(
                g,
                [*hands[:2], loser, hands[2]],
                [0, 1, 3],
                CategoryName.HIGH_CARD,
                f"Three equal hands {g.word} and the fourth, worse by its last card, loses.",
            )
        )
    return out


def fam_cards_speak(g: TableGame) -> list[dict[str, Any]]:
    """Hands presented out of order still rank by the cards they hold."""
    out = []
    perm5, perm3 = [2, 4, 0, 3, 1], [1, 2, 0]
    perm = perm5 if g.size == 5 else perm3
    clause = g.L(g.speak) if g.speak else g.L(g.ranks)
    n = g.size
    for ranks, category, style in _speaking_samples(g):
        cards = [card(r, "d") for r in ranks] if style == "suited" else Deck().hand(ranks)
        shuffled = [cards[p] for p in perm]
        literal = interp = None
        wheel = category in (CategoryName.STRAIGHT, CategoryName.STRAIGHT_FLUSH) and ranks[0] == n
        if category == CategoryName.STRAIGHT and g.straight_interp == "unsuited" and n == 5:
            literal, interp = CategoryName.HIGH_CARD, "unsuited"
        elif wheel and g.wheel_interp and g.direction == "high":
            literal = (
                CategoryName.HIGH_CARD if category == CategoryName.STRAIGHT else CategoryName.FLUSH
            )
            interp = g.wheel_interp
        if g.rid in ("mt-poker-low", "sd-draw-low") and category == CategoryName.HIGH_CARD:
            # A-2-3-4-5 counts, literally
            literal, interp = CategoryName.STRAIGHT, g.straight_interp
        cat_clause = g.L(g.cat(category if category in g.cats else CategoryName.HIGH_CARD))
        out.append(
            classify(
                shuffled,
                category,
                clause + cat_clause,
                ["cards-speak"] + (["wheel"] if wheel else []),
                f"{hand_of(shuffled)} is {CATEGORY_WORDS[category]} whatever the "
                "order the cards are shown in.",
                literal,
                interp,
            )
        )
    return out


def _speaking_samples(g: TableGame) -> list[tuple[list[int], str, str]]:
    """(ranks, category, suits) of the hands :func:`fam_cards_speak` shows shuffled, from
    ``data/showdowns.toml``; a category not in the vocabulary is a ValueError there."""
    kind = (
        "high"
        if g.direction == "high"
        else "ace-to-five"
        if g.low_ace == "one"
        else "deuce-to-seven"
    )
    rows = section("showdowns", "cards-speak", kind, str(g.size))["samples"]
    return [(ranks_of(row["ranks"]), CategoryName(row["category"]), row["suits"]) for row in rows]
