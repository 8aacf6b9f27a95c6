"""The card parser's cache of plain texts: the same cards, the same refusals.

``parse_cards`` keeps the cards of every *plain* text it parsed (words of one known card
each, no natural card twice) and answers them again from the cache; the count and the
deck's jokers are still checked on every call.  The oracle is the general parser, which
reads the same text given as a one-item list (it never consults the text cache).
"""

from __future__ import annotations

import random

import pytest

from pokercert.reference.cards import (
    DECK,
    DUPLICATE_CARD,
    JOKER_NOT_ALLOWED,
    WRONG_COUNT,
    CardError,
    parse_cards,
)


def _outcome(cards: object, **kw: object) -> object:
    try:
        return parse_cards(cards, **kw)  # type: ignore[arg-type]
    except CardError as exc:
        return (exc.code, str(exc), exc.token, exc.position)


def test_a_plain_text_is_parsed_once() -> None:
    first = parse_cards("Qs Jd 9c 5h 2s", count=5)
    assert parse_cards("Qs Jd 9c 5h 2s") is first


@pytest.mark.parametrize(
    ("text", "kw", "code"),
    [
        ("As Kd", {"count": 3}, WRONG_COUNT),
        ("As Kd", {"count": (3, 4)}, WRONG_COUNT),
        ("Xx As", {"jokers": 0}, JOKER_NOT_ALLOWED),
        ("Xx Xx As", {"jokers": 1}, DUPLICATE_CARD),
    ],
)
def test_a_cached_text_is_still_checked_against_count_and_deck(
    text: str, kw: dict[str, object], code: str
) -> None:
    parse_cards(text, jokers=2)  # cached, as a deck of two jokers allows
    with pytest.raises(CardError) as err:
        parse_cards(text, **kw)  # type: ignore[arg-type]
    assert err.value.code == code
    assert _outcome(text, **kw) == _outcome([text], **kw)


def test_cached_and_general_parser_agree_on_random_texts() -> None:
    """Plain and other texts (tens, lower case, suit symbols, commas, cards run
    together, a card twice, jokers, bad tokens) under several counts and decks: the
    cached path gives what the general parser gives, cards or the refusal's words."""
    rng = random.Random(13)
    spell = [str(c) for c in DECK] + ["10s", "10h", "as", "kD", "A♠", "Xx", "Jk", "1s", "Zz", "T"]
    for _ in range(3000):
        words = [rng.choice(spell) for _ in range(rng.randint(0, 7))]
        sep = rng.choice([" ", " ", "  ", ",", ", ", ""])
        text = sep.join(words)
        for kw in ({}, {"count": 5}, {"count": (2, 5)}, {"jokers": 1}, {"jokers": 2}):
            for _ in range(2):  # the second call meets the cache
                assert _outcome(text, **kw) == _outcome([text], **kw), (text, kw)
