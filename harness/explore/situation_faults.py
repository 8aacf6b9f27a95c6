"""Malformed requests: exactly one fault (a duplicate card, a card too many or too few, an
unknown suit, a card in two hands, a joker where the deck has none, a board where the
game deals none) in an otherwise valid request."""

from __future__ import annotations

from pokercert.harness.explore.situation_families import deal_categories
from pokercert.harness.explore.situation_hands import (
    category_hand,
)
from pokercert.harness.protocol import needs_feature
from pokercert.reference import Card
from pokercert.reference.categories import CategoryName
from pokercert.vectors.dealing import (
    RANKS,
    Choices,
    Deal,
    Deck,
    Game,
    cards_text,
    coin,
    deal_hand,
    pick,
)
from pokercert.vectors.model import OPERATIONS, Kind

REJECTS = ("duplicate", "count", "suit", "across", "joker")
BAD_SUITS = ("x", "z", "e")
# the protocol feature whose rule "reject-board" deals (PROTOCOL.md 3.3), read from the
# flag its corpus vectors carry so that deals and vectors are gated by the same feature
BOARD_FEATURE = needs_feature(("unused-field",))


def board_deals(game: Game) -> bool:
    """Whether ``game`` deals "reject-board": a compare with a board in a game without
    community cards, to an adapter that claims compare and reject and names the rule."""
    return (
        game.selection is None
        and Kind.COMPARE in game.kinds
        and Kind.REJECT in game.kinds
        and BOARD_FEATURE in game.features
    )


def deal_reject(ch: Choices, game: Game, want: str | None = None) -> Deal:
    """Exactly one fault in an otherwise valid request (the corpus's reject vectors).
    The request's operation is one of the kinds asked for; with ``reject`` alone, one of
    the operations the ruleset has (a malformed request of any of them)."""
    ops = [k for k in game.kinds if k in OPERATIONS] or [
        k for k in OPERATIONS if k != Kind.BEST_HAND or game.selection is not None
    ]
    which = want.removeprefix("reject-") if want else pick(ch, REJECTS)
    if which == "across" and "compare" not in ops and "best_hand" not in ops:
        which = "duplicate"
    if which == "joker" and game.jokers:
        which = "count"
    if which == "board" and not board_deals(game):
        which = "count"
    deck = Deck(0)
    n = game.size
    if which == "board":  # two valid hands; the board is the one fault (3.3)
        hands = [cards_text(_natural_hand(ch, game, deck, shared=True)) for _ in range(2)]
        table = [deck.take(ch, pick(ch, RANKS)) for _ in range(1 + ch.index(5))]
        return Deal(
            "reject", {"op": "compare", "hands": hands, "board": cards_text(table)}, "reject-board"
        )
    tokens = [str(c) for c in _natural_hand(ch, game, deck, shared=False)]
    if which == "across":
        return _across(ch, game, deck, ops, tokens)
    i = ch.index(n)
    if which == "duplicate":
        j = (i + 1 + ch.index(n - 1)) % n
        tokens[j] = tokens[i]
    elif which == "count":
        if coin(ch) or n == 1:
            tokens.append(str(deck.take(ch, pick(ch, RANKS))))
            if _whole_deal(game, len(tokens)):  # one more: a whole deal is a valid hand
                tokens.append(str(deck.take(ch, pick(ch, RANKS))))
        else:
            tokens.pop(i)
    elif which == "suit":
        tokens[i] = tokens[i][:-1] + pick(ch, BAD_SUITS)
    else:
        tokens[i] = "Xx"
    faulty = " ".join(tokens)
    if "classify" in ops:
        return Deal("reject", {"op": "classify", "hand": faulty}, f"reject-{which}")
    if "compare" in ops:
        other = [deck.take(ch, pick(ch, RANKS)) for _ in range(n)]
        hands = [faulty, cards_text(other)] if coin(ch) else [cards_text(other), faulty]
        return Deal("reject", {"op": "compare", "hands": hands}, f"reject-{which}")
    return deal_categories(ch, game)


def _whole_deal(game: Game, count: int) -> bool:
    """Whether ``count`` cards are a whole deal of the game (its hole and board cards,
    which the reference values as their best hand: hold 'em eighty-eight's six), so a
    hand of that many cards is no count fault."""
    sel = game.selection
    return sel is not None and count != game.size and count == sel.hole + sel.board


def _natural_hand(ch: Choices, game: Game, deck: Deck, *, shared: bool) -> list[Card]:
    """A valid hand of any category but five of a kind (no wild card); ``shared``: its
    ranks chosen among those ``deck`` still has (a hand beside others)."""
    category = pick(ch, [c for c in game.makeable if c != CategoryName.FIVE_OF_A_KIND])
    return deal_hand(
        ch, deck, category_hand(ch, game, category, wild_cap=0, deck=deck if shared else None)
    )


def _across(ch: Choices, game: Game, deck: Deck, ops: list[str], tokens: list[str]) -> Deal:
    """The same card in two hands (compare), or in the hole and on the board."""
    n = game.size
    if "compare" in ops:
        other = [deck.take(ch, pick(ch, RANKS)) for _ in range(n - 1)]
        tokens2 = [str(c) for c in other]
        tokens2.insert(ch.index(n), pick(ch, tokens))
        return Deal(
            "reject",
            {"op": "compare", "hands": [" ".join(tokens), " ".join(tokens2)]},
            "reject-across",
        )
    sel = game.selection
    assert sel is not None
    hole = [str(deck.take(ch, pick(ch, RANKS))) for _ in range(sel.hole)]
    board = [str(deck.take(ch, pick(ch, RANKS))) for _ in range(sel.board - 1)]
    board.insert(ch.index(sel.board), pick(ch, hole))
    return Deal(
        "reject",
        {"op": "best_hand", "hole": " ".join(hole), "board": " ".join(board)},
        "reject-across",
    )
