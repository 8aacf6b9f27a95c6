"""Reject vectors through pai gow's operations (``compare_two_card``, ``setting``,
``settle``): invalid input a pai gow evaluator must refuse, one fault per vector (a few
with two), each reasoned by hand from the game: one 53-card deck (one joker), two-card
hands of two cards, a five-card and a two-card hand set from one player's seven cards,
the player's and the banker's fourteen cards from the same deck.

Every card text here is canonical except the faulty token; the reference refuses each
input for ``reason`` (it reads the hands left to right, counting each hand's cards after
reading them, then looks for a card dealt twice across the hands); ``also`` lists an
input's other faults (PROTOCOL.md 3.2: any of them passes)."""

from __future__ import annotations

from typing import Any

from pokercert.reference import get_ruleset
from pokercert.reference.cards import BAD_CARD, DUPLICATE_CARD, WRONG_COUNT
from pokercert.reference.pai_gow import low_hand_label, pai_gow_rules
from pokercert.vectors.generate.reject import Rej, rejector

# the clauses a ruleset's text gives the deck and the five-card ("high") hand (ids within
# the ruleset's section); the two-card hand's is pai_gow.toml's low_hand_clause
DECK_CLAUSE = {"wa-pai-gow-poker": "1"}  # WSGC-PGP-1: one deck with one joker, 53 cards
HIGH_HAND_CLAUSE = {"lc-pai-gow-poker": '"high hand"'}  # 67(1) names the 5-card hand

FIVE = "Ks Qd 9h 5c 3s"  # a king-high five-card hand
TWO = "Jc Td"  # behind it, jack-ten: a legal setting
BANKER = ["Ah Kh 8d 6d 4d", "9c 7c"]  # ace high over nine-seven: set legally


def fam_reject_pai_gow(rid: str) -> list[dict[str, Any]]:
    """The reject vectors of a pai gow ruleset through its three pai gow operations."""
    rules = pai_gow_rules(rid)
    if rules is None:
        raise ValueError(f"{rid} is not a pai gow game (reference/pai_gow.toml)")
    section = get_ruleset(rid).regulation.section
    deck = [section + DECK_CLAUSE[rid]] if rid in DECK_CLAUSE else []
    high = [section + HIGH_HAND_CLAUSE[rid]] if rid in HIGH_HAND_CLAUSE else []
    low = [low_hand_label(rules)]
    out: list[dict[str, Any]] = []
    _two_card_faults(rejector(out, [*low, *deck]))
    _setting_faults(rejector(out, list(dict.fromkeys([*high, *low, *deck]))))
    _settle_faults(rejector(out, list(dict.fromkeys([*high, *low, *deck]))))
    return out


def _two_card_faults(rej: Rej) -> None:
    op = "compare_two_card"
    rej(
        op,
        {"hands": ["As Kd 9h", TWO]},
        WRONG_COUNT,
        "A three-card two-card hand: the low hand holds exactly two cards.",
    )
    rej(op, {"hands": ["As", TWO]}, WRONG_COUNT, "A two-card hand of one card.")
    rej(
        op,
        {"hands": ["Ks Ks", TWO]},
        DUPLICATE_CARD,
        "Ks twice in one two-card hand: a deck holds one of each card.",
    )
    rej(
        op,
        {"hands": ["As Td", TWO]},
        DUPLICATE_CARD,
        "Td is in both two-card hands: one deck is dealt.",
        ["one-deck"],
    )
    rej(
        op,
        {"hands": ["Xx Kd", "Xx Qc"]},
        DUPLICATE_CARD,
        "A joker in each two-card hand: the 53-card deck holds one joker.",
        ["wild-card", "one-deck"],
    )
    rej(op, {"hands": ["As 1s", TWO]}, BAD_CARD, "'1s' is not a card: there is no rank 1.")
    rej(
        op,
        {"hands": [TWO, "Ah Kx"]},
        BAD_CARD,
        "'Kx' is not a card: x is not a suit (the joker is written Xx).",
    )
    rej(
        op,
        {"hands": ["As Zz Qh", TWO]},
        BAD_CARD,
        "Three tokens in a two-card hand, and 'Zz' is not a card: either reason passes.",
        None,
        [WRONG_COUNT],
    )


def _setting_faults(rej: Rej) -> None:
    op = "setting"
    rej(
        op,
        {"high": "Ks Qd 9h 5c 3s 7d", "low": TWO},
        WRONG_COUNT,
        "Eight cards set: a five-card hand of six; a player sets exactly seven cards.",
    )
    rej(
        op,
        {"high": FIVE, "low": "Jc Td 8h"},
        WRONG_COUNT,
        "Eight cards set: a two-card hand of three.",
    )
    rej(op, {"high": "Ks Qd 9h 5c", "low": TWO}, WRONG_COUNT, "A five-card hand of four cards.")
    rej(op, {"high": FIVE, "low": ""}, WRONG_COUNT, "No two-card hand at all.")
    rej(
        op,
        {"high": FIVE, "low": "Ks Td"},
        DUPLICATE_CARD,
        "Ks is in the five-card hand and in the two-card hand: seven cards, one deck.",
        ["one-deck"],
    )
    rej(
        op,
        {"high": "Ks Qd 9h 9h 3s", "low": TWO},
        DUPLICATE_CARD,
        "9h twice in the five-card hand.",
    )
    rej(
        op,
        {"high": "Xx Qd 9h 5c 3s", "low": "Xx Td"},
        DUPLICATE_CARD,
        "A joker in each hand of one setting: the deck holds one joker.",
        ["wild-card", "one-deck"],
    )
    rej(op, {"high": FIVE, "low": "Jc Tz"}, BAD_CARD, "'Tz' is not a card: z is not a suit.")
    rej(op, {"high": "Ks Qd 9h 5c Q", "low": TWO}, BAD_CARD, "'Q' is not a card: no suit.")
    rej(
        op,
        {"high": "Ks Qd 9h 5c Zs 7d", "low": TWO},
        BAD_CARD,
        "A five-card hand of six tokens, and 'Zs' is not a card: either reason passes.",
        None,
        [WRONG_COUNT],
    )


def _settle_faults(rej: Rej) -> None:
    op = "settle"
    rej(
        op,
        {"player": [FIVE, "Jc 9c"], "banker": BANKER},
        DUPLICATE_CARD,
        "9c is in the player's two-card hand and in the banker's: one deck is dealt.",
        ["one-deck"],
    )
    rej(
        op,
        {"player": ["Ah Qd 9h 5c 3s", TWO], "banker": BANKER},
        DUPLICATE_CARD,
        "Ah is in the player's five-card hand and in the banker's.",
        ["one-deck"],
    )
    rej(
        op,
        {"player": ["Xx Qd 9h 5c 3s", TWO], "banker": ["Xx Kh 8d 6d 4d", "9c 7c"]},
        DUPLICATE_CARD,
        "A joker in the player's hand and another in the banker's: the deck holds one.",
        ["wild-card", "one-deck"],
    )
    rej(
        op,
        {"player": ["Ks Qd 9h 5c", TWO], "banker": BANKER},
        WRONG_COUNT,
        "The player's five-card hand has four cards.",
    )
    rej(
        op,
        {"player": [FIVE, TWO], "banker": ["Ah Kh 8d 6d 4d", "9c 7c 2c"]},
        WRONG_COUNT,
        "The banker's two-card hand has three cards: eight cards set.",
    )
    rej(
        op,
        {"player": [FIVE, TWO], "banker": ["Ah Kh 8d 6d 4d", "9c 7e"]},
        BAD_CARD,
        "'7e' is not a card in the banker's two-card hand: e is not a suit.",
    )
    rej(
        op,
        {"player": ["Ks Ks 9h 5c 3s", TWO], "banker": BANKER},
        DUPLICATE_CARD,
        "Ks twice in the player's five-card hand.",
    )
