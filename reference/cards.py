"""Cards: the one parser and formatter for the whole project.

Accepted spellings (case-insensitive, with or without spaces between cards):
``As Kd 9h 5c 3s``, ``AsKd9h5c3s``, ``10s`` or ``Ts``, suit symbols ``♠♥♦♣``,
jokers as ``Xx`` (also ``Jk``/``JK``).  The canonical form is rank letter then
lower-case suit letter (``Ts``, ``Ah``), jokers ``Xx``, cards joined by one space.

Bad input raises :class:`CardError`, which names the offending token, its
position and a machine-readable ``code`` (the same reason codes the corpus uses
for ``reject`` vectors).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from pokercert.reference.errors import InputError

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "shdc"
SUIT_SYMBOLS = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}
JOKER_RANK = 0
JOKER_SUIT = "x"

# reason codes shared with the corpus (reject vectors) and the harness
BAD_CARD = "bad-card"
DUPLICATE_CARD = "duplicate-card"
WRONG_COUNT = "wrong-count"
JOKER_NOT_ALLOWED = "joker-not-allowed"
REASON_CODES = (BAD_CARD, DUPLICATE_CARD, WRONG_COUNT, JOKER_NOT_ALLOWED)


class Card(NamedTuple):
    """A playing card: ``rank`` 2..14 (ace 14) and ``suit`` in ``shdc``; a joker is (0, 'x')."""

    rank: int
    suit: str

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER_RANK

    def __str__(self) -> str:
        if self.is_joker:
            return "Xx"
        return RANK_CHARS[self.rank - 2] + self.suit


JOKER = Card(JOKER_RANK, JOKER_SUIT)
DECK: tuple[Card, ...] = tuple(Card(r, s) for r in range(14, 1, -1) for s in SUIT_CHARS)


class CardError(InputError, ValueError):
    """Invalid card input.  ``code`` is one of :data:`REASON_CODES`."""

    def __init__(
        self, code: str, message: str, token: str | None = None, position: int | None = None
    ) -> None:
        where = (
            f" (card {position + 1}: {token!r})"
            if token is not None and position is not None
            else ""
        )
        super().__init__(f"{message}{where}")
        self.code = code
        self.token = token
        self.position = position


def _tokens(text: str) -> list[str]:
    """Split ``text`` into card tokens, whether or not the cards are separated."""
    out: list[str] = []
    for word in text.replace(",", " ").split():
        i = 0
        while i < len(word):
            take = 3 if word[i : i + 2] == "10" else 2
            out.append(word[i : i + take])
            i += take
    return out


def parse_card(token: str, position: int = 0) -> Card:
    """Parse one card token; raise :class:`CardError` naming the token if it is not a card."""
    found = _PARSED.get(token)
    if found is None:
        found = _parse_card(token, position)
        if len(token) <= _LONGEST:
            _PARSED[token] = found
            if len(token) == 2 or token.startswith("10"):
                _ONE_CARD[token] = found
    return found


# the card of every short token parsed before (a few hundred spellings at most: three
# characters; a token that is no card raises, and is not kept)
_PARSED: dict[str, Card] = {}
_LONGEST = 3
# those of them that are one card each in a text's words (two characters, or three
# starting "10"): what a plain text is made of (_plain)
_ONE_CARD: dict[str, Card] = {}


def _parse_card(token: str, position: int) -> Card:
    raw = token.strip()
    if raw.upper() in ("XX", "JK"):
        return JOKER
    if len(raw) < 2:
        raise CardError(BAD_CARD, "incomplete card", raw, position)
    rank_part, suit_part = raw[:-1], raw[-1]
    rank_key = "T" if rank_part == "10" else rank_part.upper()
    if len(rank_key) != 1 or rank_key not in RANK_CHARS:
        raise CardError(BAD_CARD, f"unknown rank {rank_part!r}", raw, position)
    suit = SUIT_SYMBOLS.get(suit_part, suit_part.lower())
    if suit not in SUIT_CHARS:
        raise CardError(BAD_CARD, f"unknown suit {suit_part!r}", raw, position)
    return Card(RANK_CHARS.index(rank_key) + 2, suit)


# the cards of every plain text parsed before (below), up to _TEXTS_KEPT texts: a run
# parses the same hands again and again (the reference's answer, the scoring, the reports)
_TEXTS: dict[str, tuple[Card, ...]] = {}
_TEXTS_KEPT = 1 << 16


def _plain(text: str) -> tuple[Card, ...] | None:
    """The cards of ``text`` if it is *plain*: words of one card each (two characters,
    or three starting ``10``) that were parsed before, no natural card twice; None
    otherwise (the general parser then reads it, and names any fault).  A plain text's
    cards are exactly those the general parser gives, so it is kept (:data:`_TEXTS`);
    whether its jokers are allowed depends on the deck, and is checked by the caller."""
    try:
        found = tuple(map(_ONE_CARD.__getitem__, text.split()))
    except KeyError:
        return None
    if len(set(found)) != len(found):  # a card twice: only jokers may repeat
        naturals = [c for c in found if c.rank != JOKER_RANK]
        if len(set(naturals)) != len(naturals):
            return None
    if len(_TEXTS) >= _TEXTS_KEPT:
        _TEXTS.clear()
    _TEXTS[text] = found
    return found


def parse_cards(
    cards: str | Iterable[str | Card], *, jokers: int = 0, count: int | Sequence[int] | None = None
) -> tuple[Card, ...]:
    """Parse cards from a string or an iterable of tokens/cards.

    ``jokers`` is how many jokers the deck holds (0 = jokers are refused);
    ``count``, if given, is the required number of cards (or the allowed numbers).
    Duplicate cards are refused; jokers may repeat up to ``jokers``.
    """
    if type(cards) is str:
        found = _TEXTS.get(cards)
        if found is None:
            found = _plain(cards)
        if found is not None and (JOKER not in found or found.count(JOKER) <= jokers):
            if count != len(found):  # (a number of cards, or the allowed ones)
                _check_count(len(found), count)
            return found
    if isinstance(cards, str):
        items: list[str | Card] = list(_tokens(cards))
    else:
        items = []
        for item in cards:
            items.extend(_tokens(item) if isinstance(item, str) else [item])
    parsed: list[Card] = []
    seen: dict[Card, int] = {}
    for pos, item in enumerate(items):
        card = item if isinstance(item, Card) else parse_card(item, pos)
        if card.rank == JOKER_RANK:
            if jokers == 0:
                raise CardError(JOKER_NOT_ALLOWED, "this ruleset has no jokers", str(item), pos)
            if parsed.count(JOKER) >= jokers:
                raise CardError(
                    DUPLICATE_CARD, f"the deck has only {jokers} joker(s)", str(item), pos
                )
        elif card in seen:
            raise CardError(
                DUPLICATE_CARD,
                f"duplicate card, first seen as card {seen[card] + 1}",
                str(item),
                pos,
            )
        seen[card] = pos
        parsed.append(card)
    _check_count(len(parsed), count)
    if type(cards) is str:
        kept = _plain(cards)  # its cards are known now: kept if it is plain
        if kept is not None:
            return kept
    return tuple(parsed)


def _check_count(n: int, count: int | Sequence[int] | None) -> None:
    """Refuse ``n`` cards where ``count`` (a number, or the allowed numbers) says other."""
    if count is not None:
        allowed = (count,) if isinstance(count, int) else tuple(count)
        if n not in allowed:
            want = " or ".join(str(a) for a in allowed)
            raise CardError(WRONG_COUNT, f"expected {want} cards, got {n}")


def format_cards(cards: Iterable[Card]) -> str:
    """Canonical text form: cards joined by single spaces, in the given order."""
    return " ".join(str(c) for c in cards)


def sort_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Cards in a canonical order: rank descending, then suit in ``shdc`` order; jokers last."""
    return tuple(
        sorted(cards, key=lambda c: (-c.rank if not c.is_joker else 1, SUIT_CHARS.find(c.suit)))
    )
