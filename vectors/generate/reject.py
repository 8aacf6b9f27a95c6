"""The reject family of every ruleset: one input fault per vector, then inputs with several
faults (any reason code the input earns passes: PROTOCOL.md 3.2; ``reason`` is the one the
reference names, ``also`` the others) and fields the game does not use (3.3)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pokercert.reference import get_ruleset
from pokercert.reference.cards import BAD_CARD, DUPLICATE_CARD, JOKER_NOT_ALLOWED, WRONG_COUNT
from pokercert.vectors.generate.common import hand_of, make_record
from pokercert.vectors.generate.games import TableGame

# the clause that defines the cards, for a ruleset the generator has no TableGame for
CARD_CLAUSE = {"nj-mini-tex-pocket": "(d)"}

# the cards the faulty hands are made of: a hand of any size, and one card more
SAMPLE = ["As", "Kd", "9h", "5c", "3s", "7d"]

# no extra flag: a several-fault vector is one with expect.also
SEVERAL: list[str] = []


def fam_reject(
    g: TableGame | None, rid: str, cards: list[str] | None = None
) -> list[dict[str, Any]]:
    """One fault per vector, for every ruleset: duplicate, count, token, joker; then
    several faults per vector, and a board where the game deals none.

    ``cards``: the labels of the clauses that define the cards, for a ruleset without a
    :class:`TableGame` and not in :data:`CARD_CLAUSE` (a poker-room game: its ranking's)."""
    size, jokers, label = _shape(g, rid, cards)
    hand = SAMPLE[:size]
    out: list[dict[str, Any]] = []
    rej = rejector(out, label)
    _one_fault_counts(rej, size, hand)
    _one_fault_tokens(rej, hand, jokers)
    if rid != "nj-mini-tex-pocket":
        _one_fault_deals(rej, rid, size, hand, jokers)
    _several_faults(rej, rid, size, hand, jokers)
    return out


def _shape(g: TableGame | None, rid: str, cards: list[str] | None) -> tuple[int, int, list[str]]:
    """(hand size, jokers in the deck, labels of the clauses that define the cards)."""
    if g is not None:
        return g.size, g.jokers, [g.sec + g.ranks]
    # a ruleset without a TableGame of its own: its shape from the ruleset file
    rs = get_ruleset(rid)
    label = cards if cards is not None else [rs.regulation.section + CARD_CLAUSE[rid]]
    return rs.hand_size, rs.jokers, label


Rej = Callable[..., None]


def rejector(out: list[dict[str, Any]], label: list[str]) -> Rej:
    """A function appending to ``out`` one reject vector: its op, inputs, the reason the
    reference names, why, extra flags and the other reasons the input earns (``also``)."""
    flags = ["input-validation"]

    def rej(
        op: str,
        inputs: dict[str, Any],
        reason: str,
        why: str,
        extra: list[str] | None = None,
        also: list[str] | None = None,
    ) -> None:
        expect: dict[str, Any] = {"reason": reason, **({"also": also} if also else {})}
        out.append(
            make_record(
                "reject", {"op": op, **inputs}, label, flags + (extra or []), why, expect=expect
            )
        )

    return rej


def _one_fault_counts(rej: Rej, size: int, hand: list[str]) -> None:
    """One hand with one fault: a card twice, a card too few or too many, no cards."""
    sample = SAMPLE[: size + 1]
    rej(
        "classify",
        {"hand": hand_of([*hand[:-1], hand[0]])},
        DUPLICATE_CARD,
        f"{hand[0]} appears twice in one hand: a deck holds one of each card.",
    )
    rej(
        "classify",
        {"hand": hand_of(hand[:-1])},
        WRONG_COUNT,
        f"{size - 1} cards where the game needs {size}.",
    )
    rej(
        "classify",
        {"hand": hand_of(sample)},
        WRONG_COUNT,
        f"{size + 1} cards where the game needs {size}.",
    )
    if size >= 3:
        quads = ["As", "Ah", "Ad", "Ac"][: size - 1]
        rej(
            "classify",
            {"hand": hand_of(quads)},
            WRONG_COUNT,
            f"{hand_of(quads)}: only {size - 1} cards, however strong they look; an evaluator "
            "must not rank a short hand.",
            ["near-miss"],
        )
    rej("classify", {"hand": ""}, WRONG_COUNT, "An empty hand.")


def _one_fault_tokens(rej: Rej, hand: list[str], jokers: int) -> None:
    """One hand with one token that is not a card, or one joker too many."""
    rej(
        "classify",
        {"hand": hand_of([*hand[:-1], "1s"])},
        BAD_CARD,
        "'1s' is not a card: there is no rank 1 (the ace is A).",
    )
    rej(
        "classify",
        {"hand": hand_of([*hand[:-1], "Kx"])},
        BAD_CARD,
        "'Kx' is not a card: x is not a suit (jokers are written Xx).",
    )
    rej(
        "classify",
        {"hand": hand_of([*hand[:-1], "Q"])},
        BAD_CARD,
        "'Q' is not a card: the suit is missing.",
    )
    rej(
        "classify",
        {"hand": hand_of(["Zs", *hand[1:]])},
        BAD_CARD,
        "'Zs' is not a card: Z is not a rank.",
    )
    if jokers == 0:
        rej(
            "classify",
            {"hand": hand_of([*hand[:-1], "Xx"])},
            JOKER_NOT_ALLOWED,
            "A joker in a game played without jokers.",
            ["wild-card"],
        )
    else:
        rej(
            "classify",
            {"hand": "Xx Xx Xx As Kd"},
            DUPLICATE_CARD,
            "Three jokers: the deck holds at most two.",
            ["wild-card"],
        )


def _one_fault_deals(rej: Rej, rid: str, size: int, hand: list[str], jokers: int) -> None:
    """One fault per vector in a showdown (and, for Mini-tex, a best hand)."""
    _one_fault_showdowns(rej, size, hand, jokers)
    if rid == "nj-mini-tex-3":
        _mini_tex_best_hand_faults(rej)
        _mini_tex_showdown_faults(rej)


def _one_fault_showdowns(rej: Rej, size: int, hand: list[str], jokers: int) -> None:
    """A showdown with one fault: a card in both hands, one hand, a short hand, a bad
    token, a joker too many."""
    other = ["2c", "4d", "6h", "8s", "Tc"][:size]
    rej(
        "compare",
        {"hands": [hand_of(hand), hand_of([hand[1], *other[1:]])]},
        DUPLICATE_CARD,
        f"{hand[1]} is in both hands: one deck is dealt.",
        ["one-deck"],
    )
    rej("compare", {"hands": [hand_of(hand)]}, WRONG_COUNT, "A showdown with only one hand.")
    rej(
        "compare",
        {"hands": [hand_of(hand), hand_of(other[:-1])]},
        WRONG_COUNT,
        f"The second hand has {size - 1} cards.",
    )
    rej(
        "compare",
        {"hands": [hand_of(hand), hand_of([*other[:-1], "Bh"])]},
        BAD_CARD,
        "'Bh' is not a card in the second hand.",
    )
    if jokers == 0:
        rej(
            "compare",
            {"hands": [hand_of(hand), hand_of([*other[:-1], "Xx"])]},
            JOKER_NOT_ALLOWED,
            "A joker in the second hand of a game without jokers.",
            ["wild-card"],
        )
    else:
        rej(
            "compare",
            {"hands": ["Xx Xx Kd 9h 5c", "Xx 2c 4d 6h 8s"]},
            DUPLICATE_CARD,
            "Two jokers in one hand and a third in the other: the deck holds two.",
            ["wild-card", "one-deck"],
        )


def _mini_tex_best_hand_faults(rej: Rej) -> None:
    """Mini-tex's best hand with one fault in the hole cards or the three-card board."""
    board = "Ah 7c 3d"
    rej(
        "best_hand",
        {"hole": "Ks", "board": board},
        WRONG_COUNT,
        "One hole card: each player and the dealer hold two.",
    )
    rej(
        "best_hand",
        {"hole": "Ks Qs Js", "board": board},
        WRONG_COUNT,
        "Three hole cards: each player and the dealer hold two.",
    )
    rej(
        "best_hand",
        {"hole": "Ks Qs", "board": "Ah 7c"},
        WRONG_COUNT,
        "Two community cards: the board has three.",
    )
    rej(
        "best_hand",
        {"hole": "Ks Qs", "board": "Ah 7c 3d 2d"},
        WRONG_COUNT,
        "Four community cards: the board has three.",
    )
    rej(
        "best_hand",
        {"hole": "Ks Ah", "board": board},
        DUPLICATE_CARD,
        "Ah is both a hole card and a community card.",
        ["one-deck"],
    )
    rej(
        "best_hand",
        {"hole": "Ks Ks", "board": board},
        DUPLICATE_CARD,
        "The same hole card twice.",
    )
    rej(
        "best_hand",
        {"hole": "Ks Qs", "board": "Ah 7c 3x"},
        BAD_CARD,
        "'3x' is not a card on the board.",
    )
    rej(
        "best_hand",
        {"hole": "Ks Xx", "board": board},
        JOKER_NOT_ALLOWED,
        "A joker among the hole cards of a game without jokers.",
        ["wild-card"],
    )
    rej(
        "best_hand",
        {"hole": "", "board": board},
        WRONG_COUNT,
        "No hole cards: the board alone never plays.",
        ["best-hand-selection"],
    )


def _mini_tex_showdown_faults(rej: Rej) -> None:
    """Mini-tex's showdown (player's and dealer's hole cards on one board) with one fault."""
    board = "Ah 7c 3d"
    rej(
        "compare",
        {"hands": ["Ks Qs", "Ks 2d"], "board": board},
        DUPLICATE_CARD,
        "Ks is dealt to the player and to the dealer.",
        ["one-deck"],
    )
    rej(
        "compare",
        {"hands": ["Ks Qs", "7c 2d"], "board": board},
        DUPLICATE_CARD,
        "7c is both the dealer's hole card and a community card.",
        ["one-deck"],
    )
    rej(
        "compare",
        {"hands": ["Ks Qs Jd", "8c 2d"], "board": board},
        WRONG_COUNT,
        "The player holds three hole cards.",
    )
    rej(
        "compare",
        {"hands": ["Ks Qs", "8c 2d"], "board": "Ah 7c"},
        WRONG_COUNT,
        "A showdown on a two-card board.",
    )


def _several_faults(rej: Rej, rid: str, size: int, hand: list[str], jokers: int) -> None:
    """Inputs with two or three faults: ``reason`` is the fault the reference meets first
    (it reads cards left to right and counts them last), ``also`` the others; the check
    finds every fault token by token and requires exactly these."""
    _several_faults_in_a_hand(rej, size, hand, jokers)
    if rid != "nj-mini-tex-pocket":
        _several_faults_in_a_deal(rej, rid, size, hand)


def _several_faults_in_a_hand(rej: Rej, size: int, hand: list[str], jokers: int) -> None:
    """One hand with two or three faults: a bad token and a count, a card twice, jokers."""
    short = [*hand[: size - 2], "Zs"]
    rej(
        "classify",
        {"hand": hand_of(short)},
        BAD_CARD,
        f"{len(short)} tokens where the game needs {size}, and 'Zs' is not a card: both faults "
        "are true, so either reason passes.",
        SEVERAL,
        [WRONG_COUNT],
    )
    twice = [hand[0], hand[0], "1s", *hand[3:size]]
    faults = [BAD_CARD] + ([WRONG_COUNT] if len(twice) != size else [])
    rej(
        "classify",
        {"hand": hand_of(twice)},
        DUPLICATE_CARD,
        f"{hand[0]} twice and '1s', which is not a card"
        + (f", in {len(twice)} tokens where the game needs {size}" if len(twice) != size else "")
        + ": any of these reasons passes.",
        SEVERAL,
        faults,
    )
    if jokers == 0:
        jok = ["Xx", hand[0], hand[0], *hand[3:size]]
        extra = [DUPLICATE_CARD] + ([WRONG_COUNT] if len(jok) != size else [])
        rej(
            "classify",
            {"hand": hand_of(jok)},
            JOKER_NOT_ALLOWED,
            f"A joker in a game without jokers, and {hand[0]} twice: either reason passes.",
            [*SEVERAL, "wild-card"],
            extra,
        )
    elif jokers + 2 <= size:
        jok = ["Xx"] * (jokers + 1) + ["Zs", *hand[1 : size - jokers - 1]]
        rej(
            "classify",
            {"hand": hand_of(jok)},
            DUPLICATE_CARD,
            f"{jokers + 1} jokers where the deck holds {jokers}, and 'Zs', which is not a card: "
            "either reason passes.",
            [*SEVERAL, "wild-card"],
            [BAD_CARD],
        )


def _several_faults_in_a_deal(rej: Rej, rid: str, size: int, hand: list[str]) -> None:
    """A showdown (or Mini-tex's best hand) with two faults; a board where the game deals
    none (a field it does not use)."""
    rej(
        "compare",
        {"hands": [hand_of([*hand[:-1], "Zz"])]},
        WRONG_COUNT,
        "One hand only, and 'Zz' is not a card: either reason passes.",
        SEVERAL,
        [BAD_CARD],
    )
    other = ["2c", "4d", "6h", "8s", "Tc"][:size]
    rej(
        "compare",
        {"hands": [hand_of(hand), hand_of([hand[1], *other[2:]])]},
        WRONG_COUNT,
        f"The second hand has {size - 1} cards, and {hand[1]} is in both hands: either reason "
        "passes.",
        [*SEVERAL, "one-deck"],
        [DUPLICATE_CARD],
    )
    if rid == "nj-mini-tex-3":
        rej(
            "best_hand",
            {"hole": "Ks Zz Qs", "board": "Ah 7c 3d"},
            BAD_CARD,
            "Three hole cards, one of them 'Zz', which is not a card: either reason passes.",
            SEVERAL,
            [WRONG_COUNT],
        )
    elif get_ruleset(rid).selection is None:
        rej(
            "compare",
            {"hands": [hand_of(hand), hand_of(other)], "board": "2h 3h 4h"},
            WRONG_COUNT,
            "A board in a game without community cards: a field the game does "
            "not use is refused as too many cards (PROTOCOL.md 3.3).",
            ["unused-field"],
        )
