"""Mutants of the High Card Flush ranking (58 Pa. Code 678a.6): a hand ranks by its
longest flush, then by that flush's cards.

Each is one mistake an implementer who knows poker makes here: ranking by the best
card and not the length, stopping a flush at five cards, picking the suit of the highest
card, comparing a tie from the lowest card or on all seven cards, reading the ace low,
never breaking a tie, or not counting two suited cards as a hand.  They patch the
ranking's own step (``natural``: cards -> category and key), so every other step stays
the reference's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from pokercert.harness.mutants.changes import knobs, patch, wrapped
from pokercert.harness.mutants.model import Change, Mutant
from pokercert.reference.cards import Card
from pokercert.reference.categories import CategoryName
from pokercert.reference.engine import Evaluator
from pokercert.reference.flush_length import FLUSH_OF_LENGTH, flush_value

HCF = ("pa-high-card-flush",)
Value = tuple[str, tuple[int, ...]]


def _valued(fn: Callable[[Evaluator, Sequence[Card], Value], Value]) -> Change:
    """Patch the flush-length ranking: ``fn(engine, cards, reference value)``."""

    def wrap(orig: Callable[..., Any], ev: Evaluator) -> Callable[..., Any]:
        return lambda hand: fn(ev, hand, orig(hand))

    return patch(lambda s: replace(s, natural=wrapped(s.natural, wrap)))


def _place(ev: Evaluator, category: str) -> int:
    return len(ev.categories) - ev.categories.index(category)


def _length_ignored(ev: Evaluator, hand: Sequence[Card], value: Value) -> Value:
    return value[0], (1, *value[1][1:])


def _capped_at_five(ev: Evaluator, hand: Sequence[Card], value: Value) -> Value:
    if len(value[1]) - 1 <= 5:
        return value
    five = FLUSH_OF_LENGTH[5]
    return five, (_place(ev, five), *value[1][1:6])


def _suit_of_highest_card(ev: Evaluator, hand: Sequence[Card], value: Value) -> Value:
    suit = max(hand, key=lambda c: c.rank).suit
    return flush_value(ev.categories, None, [c for c in hand if c.suit == suit])


def _lowest_first(ev: Evaluator, hand: Sequence[Card], value: Value) -> Value:
    return value[0], (value[1][0], *reversed(value[1][1:]))


def _ace_low(ev: Evaluator, hand: Sequence[Card], value: Value) -> Value:
    tail = sorted((1 if r == 14 else r for r in value[1][1:]), reverse=True)
    return value[0], (value[1][0], *tail)


def _ties_never_broken(ev: Evaluator, hand: Sequence[Card], value: Value) -> Value:
    return value[0], value[1][:1]


def _two_cards_no_flush(ev: Evaluator, hand: Sequence[Card], value: Value) -> Value:
    if value[0] != CategoryName.TWO_CARD_FLUSH:
        return value
    # 'none of the permissible hands': below every hand the ruleset ranks
    return CategoryName.HIGH_CARD.value, (0, *sorted((c.rank for c in hand), reverse=True))


FLUSH_LENGTH_MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        "hcf-flush-length-ignored",
        "flush-length",
        HCF,
        "Hands of different flush lengths are compared by their flush cards alone, "
        "as if the ace-high two-card flush beat a low five-card one.",
        (_valued(_length_ignored),),
    ),
    Mutant(
        "hcf-flush-capped-at-five",
        "flush-length",
        HCF,
        "A flush counts five cards at most, as in poker: six- and seven-card flushes "
        "are five-card flushes of their top five.",
        (_valued(_capped_at_five),),
    ),
    Mutant(
        "hcf-suit-of-highest-card",
        "flush-length",
        HCF,
        "The flush is taken in the suit of the hand's highest card, not the longest suit.",
        (_valued(_suit_of_highest_card),),
    ),
    Mutant(
        "hcf-tie-on-all-seven-cards",
        "kicker-order",
        HCF,
        "A tie between flushes of one length is broken on all seven cards.",
        (knobs(flush_tiebreak="all_cards"),),
        same_as_reading=(("hcf-tie-cards", "literal"),),
    ),
    Mutant(
        "hcf-tie-from-lowest-card",
        "kicker-order",
        HCF,
        "A tie between flushes of one length is broken from the lowest card up.",
        (_valued(_lowest_first),),
    ),
    Mutant(
        "hcf-ace-low",
        "rank-order",
        HCF,
        "The ace counts as the lowest card when flushes of one length are compared.",
        (_valued(_ace_low),),
    ),
    Mutant(
        "hcf-ties-never-broken",
        "kicker-order",
        HCF,
        "Flushes of one length always tie: (c) is never applied.",
        (_valued(_ties_never_broken),),
    ),
    Mutant(
        "hcf-two-cards-no-flush",
        "flush-length",
        HCF,
        "Two suited cards are no flush: a hand whose longest flush is two cards is "
        "'none of the permissible hands'.",
        (_valued(_two_cards_no_flush),),
    ),
)
