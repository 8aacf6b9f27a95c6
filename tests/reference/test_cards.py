"""The one card parser: every accepted spelling, the canonical form, every error code."""

import pytest

from pokercert.reference import JOKER, Card, CardError, format_cards, parse_cards, sort_cards


@pytest.mark.parametrize(
    "text",
    [
        "As Kd 9h 5c 3s",
        "AsKd9h5c3s",
        "as kd 9H 5C 3S",
        "A♠ K♦ 9♥ 5♣ 3♠",
        "As,Kd,9h,5c,3s",
    ],
)
def test_spellings_parse_to_the_same_cards(text):
    assert format_cards(parse_cards(text)) == "As Kd 9h 5c 3s"


@pytest.mark.parametrize("text", ["10s", "Ts", "ts", "10♠"])
def test_ten_spellings(text):
    assert parse_cards(text) == (Card(10, "s"),)


@pytest.mark.parametrize("token", ["Xx", "xx", "Jk", "JK", "jk"])
def test_joker_spellings(token):
    assert parse_cards(token, jokers=1) == (JOKER,)


def test_canonical_form_round_trips_every_card():
    from pokercert.reference import DECK

    text = format_cards(DECK)
    assert parse_cards(text) == DECK
    assert len(set(text.split())) == 52


def test_iterables_of_tokens_and_cards():
    assert parse_cards(["As", Card(13, "d"), "9h5c"]) == parse_cards("As Kd 9h 5c")


@pytest.mark.parametrize(
    ("text", "code", "token", "position"),
    [
        ("As Kd 1h", "bad-card", "1h", 2),
        ("As Kz", "bad-card", "Kz", 1),
        ("As Ks Qs Js As", "duplicate-card", "As", 4),
        ("As Xx", "joker-not-allowed", "Xx", 1),
        ("A", "bad-card", "A", 0),
    ],
)
def test_errors_name_the_token_and_its_position(text, code, token, position):
    with pytest.raises(CardError) as info:
        parse_cards(text)
    err = info.value
    assert (err.code, err.token, err.position) == (code, token, position)
    assert repr(token) in str(err) and f"card {position + 1}" in str(err)


def test_wrong_count_and_joker_limit():
    with pytest.raises(CardError) as info:
        parse_cards("As Ks Qs Js", count=5)
    assert info.value.code == "wrong-count" and "expected 5 cards, got 4" in str(info.value)
    assert len(parse_cards("Xx Xx As", jokers=2)) == 3
    with pytest.raises(CardError) as info:
        parse_cards("Xx Xx Xx", jokers=2)
    assert info.value.code == "duplicate-card"


def test_sort_cards_is_rank_then_suit_with_jokers_last():
    assert format_cards(sort_cards(parse_cards("2c Xx As Ah Td", jokers=1))) == "As Ah Td 2c Xx"
