"""Cards drawn in HTML: rank and suit symbol in a small box per card, for the HTML report
and the conformance site.

Suits differ by their symbol's shape (♠ ♥ ♦ ♣), not by colour alone; colour (a
four-colour deck) only helps, and a screen reader names the symbol (the markup stays
small: the site draws tens of thousands of cards).  A token that is not a canonical card
code (``As``, ``Td``, ``Xx``) is shown as escaped text, so anything a vendor wrote stays
text.
"""

from __future__ import annotations

import html
import re
from functools import lru_cache
from typing import Any

from pokercert.reports import text as T

SUIT_SYMBOL = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
RANK_SHOWN = {"T": "10"}
_CARD = re.compile(r"([2-9TJQKA])([shdc])|(Xx)")
# the style of a card, for a page that inlines its style sheet
CARDS_CSS = """
.hand { white-space: nowrap; }
.card { display: inline-block; min-width: 1.9em; text-align: center; margin: 0 .08em;
        padding: 0 .15em; border: 1px solid #777; border-radius: 3px; background: #fff;
        font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace;
        line-height: 1.35; white-space: nowrap; color: #111; }
.card.s-h { color: #b00020; } .card.s-d { color: #0b57d0; } .card.s-c { color: #1b6e20; }
.card.joker { font-style: italic; }
""".strip()


# the most characters of one value an HTML view shows (the JSON report keeps it whole): an
# answer of a million characters would hand a reviewer's browser megabytes per finding
SHOWN_LIMIT = 4000


def cut(text: str, limit: int = SHOWN_LIMIT) -> str:
    """``text``, or its head and tail with how many characters were left out between."""
    if len(text) <= limit:
        return text
    head, tail = limit * 3 // 4, limit // 4
    return f"{text[:head]}…[{len(text) - head - tail} characters omitted]…{text[-tail:]}"


def esc(value: Any) -> str:
    """Any value as HTML text: cut to :data:`SHOWN_LIMIT` characters, printable
    (:func:`pokercert.reports.text.printable`), escaped."""
    return html.escape(T.printable(cut(str(value))), quote=True)


@lru_cache(maxsize=1024)  # 53 cards, drawn ~100,000 times by the site
def card_html(token: str) -> str:
    """One card code as a drawn card, or the token as escaped text when it is no card."""
    m = _CARD.fullmatch(token)
    if not m:
        return esc(token)
    if m.group(3):
        return '<span class="card joker" title="joker">Joker</span>'
    rank, suit = m.group(1), m.group(2)
    return f'<span class="card s-{suit}">{RANK_SHOWN.get(rank, rank)}{SUIT_SYMBOL[suit]}</span>'


def is_cards(value: object) -> bool:
    """Whether ``value`` is a string of canonical card codes, one space apart."""
    return (
        isinstance(value, str) and bool(value) and all(_CARD.fullmatch(t) for t in value.split(" "))
    )


def hand_html(value: object) -> str:
    """A hand (``"As Kd 9h"``) as drawn cards that never wrap apart; a list of hands as
    hands one after another; anything else as escaped text."""
    if isinstance(value, list):
        return " ".join(hand_html(v) for v in value) if value else "[]"
    if not is_cards(value):
        return esc(T.value(value))
    return '<span class="hand">' + "".join(card_html(t) for t in str(value).split(" ")) + "</span>"


def answer_html(data: dict[str, Any] | None) -> str:
    """Inputs or an answer, ``key: value`` per line, card strings drawn as cards (the
    HTML twin of :func:`pokercert.reports.text.describe`)."""
    if data is None:
        return esc("(no answer)")
    if not data:
        return esc("(nothing)")
    return "<br>".join(
        f'<span class="key">{esc(k)}:</span> {hand_html(data[k])}' for k in sorted(data)
    )
