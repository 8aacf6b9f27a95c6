"""Deals drawn card by card (the rest of the space no situation names) and whole pots:
rank shapes biased to edge structure, related hands, hole cards connected to the board,
and showdowns of every player's cards."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache
from typing import Any

from pokercert.harness.explore.situation_faults import deal_reject
from pokercert.harness.explore.situation_hands import (
    category_hand,
)
from pokercert.reference import Card
from pokercert.vectors.dealing import (
    ACE,
    KING,
    RANKS,
    SUITS,
    TWO,
    Choices,
    Deal,
    Deck,
    Game,
    cards_text,
    coin,
    deal_hand,
    distinct_from,
    distinct_ranks,
    pick,
    run_ranks,
    shuffled,
    wrap_runs,
)
from pokercert.vectors.model import Kind

# --------------------------------------------------------------------------- free

# the older card-by-card deals: rank shapes biased to edge structure, related hands,
# hole cards connected to the board; they reach corners no situation names


@cache
def _partitions(n: int, largest: int = 4) -> tuple[tuple[int, ...], ...]:
    """Group sizes of an n-card hand (no rank more than four times), simplest first."""
    out: list[tuple[int, ...]] = []

    def build(left: int, cap: int, acc: tuple[int, ...]) -> None:
        if left == 0:
            out.append(acc)
            return
        for part in range(min(left, cap), 0, -1):
            build(left - part, part, (*acc, part))

    build(n, largest, ())
    return tuple(sorted(out, key=lambda p: (max(p), p)))  # all-distinct first, pairs, ...


def rank_list(ch: Choices, n: int) -> list[int]:
    """Ranks of an n-card hand, biased to edge structure (groups, runs, near-runs, wraps)."""
    shape = pick(ch, ("groups", "run", "groups", "near_run", *(("wrap",) if n >= 3 else ())))
    if shape == "groups":
        parts = pick(ch, _partitions(n))
        ranks = distinct_ranks(ch, len(parts))
        return [r for r, k in zip(ranks, parts, strict=True) for _ in range(k)]
    if shape == "wrap":
        return list(pick(ch, wrap_runs(n)))
    ranks = run_ranks(pick(ch, [n, *range(ACE, n, -1)]), n)
    if shape == "near_run":
        i = ch.index(n)
        other = pick(ch, RANKS)
        ranks[i] = other if other != ranks[i] else (other % ACE) + 1 if other < ACE else TWO
    return ranks


def _step(rank: int, step: int) -> int:
    moved = rank + step
    return TWO if moved > ACE else ACE if moved < TWO else moved


def _bumped(ch: Choices, ranks: Sequence[int]) -> list[int]:
    """The same ranks with one of them moved one step (a kicker or a pair rank)."""
    out = list(ranks)
    i = ch.index(len(out))
    out[i] = _step(out[i], pick(ch, (-1, 1)))
    return out


def _bumped_group(ch: Choices, ranks: Sequence[int]) -> list[int]:
    """The same hand with every card of one rank moved one step (AA -> KK or 22)."""
    groups = sorted(set(ranks), key=lambda r: (-ranks.count(r), -r))
    rank = pick(ch, groups)
    moved = _step(rank, pick(ch, (-1, 1)))
    return [moved if r == rank else rank if r == moved else r for r in ranks]


def _same_shape(ch: Choices, ranks: Sequence[int]) -> list[int]:
    """Fresh ranks in the same group sizes (two pair against two pair, ...)."""
    sizes = sorted(Counter(ranks).values(), reverse=True)
    fresh = distinct_ranks(ch, len(sizes))
    return [r for r, k in zip(fresh, sizes, strict=True) for _ in range(k)]


SUIT_PLANS = ("any", "one_suit", "near_one_suit")  # suits of a card-by-card hand


def _suited(ch: Choices, ranks: Sequence[int], deck: Deck, plan: str | None = None) -> list[Card]:
    """Cards for these ranks: any suits, all one suit, or all but one of one suit.

    ``plan`` imposes the suit plan (a hand echoing another one: two flushes); the main
    suit is then the first one whose cards of these ranks are all still in the deck.
    """
    if plan is None:
        plan = pick(ch, SUIT_PLANS)
        main = pick(ch, SUITS)
    else:
        main = next((s for s in SUITS if all(deck.free(Card(r, s)) for r in ranks)), SUITS[0])
    odd = ch.index(len(ranks)) if plan == "near_one_suit" else -1
    cards = []
    for i, rank in enumerate(ranks):
        if plan == "any":
            suit = pick(ch, SUITS)
        elif i == odd:
            suit = pick(ch, [s for s in SUITS if s != main])
        else:
            suit = main
        cards.append(deck.take(ch, rank, suit))
    return cards


def _with_jokers(ch: Choices, cards: list[Card], deck: Deck) -> list[Card]:
    """Replace up to the deck's remaining jokers by wild cards: at drawn positions, or in
    place of the kickers (quads and a joker make five of a kind, trips and two jokers
    too, two pair and a joker a full house)."""
    if not deck.jokers:
        return cards
    count = ch.index(min(deck.jokers, len(cards)) + 1)
    if count:
        if pick(ch, ("anywhere", "kickers")) == "kickers":
            counts = Counter(c.rank for c in cards)
            order = sorted(range(len(cards)), key=lambda i: (counts[cards[i].rank], cards[i].rank))
            where = order[:count]
        else:
            where = distinct_from(ch, list(range(len(cards))), count)
        for i in where:
            deck.used.discard(cards[i])
            cards[i] = deck.wild_card()
        deck.jokers -= count
    return cards


def free_hand(
    ch: Choices, n: int, deck: Deck, ranks: Sequence[int] | None = None, plan: str | None = None
) -> list[Card]:
    """One hand of n cards from ``deck`` drawn card by card (from ``ranks`` if given),
    in a drawn order, wild cards included where the deck has jokers."""
    cards = _suited(ch, ranks if ranks is not None else rank_list(ch, n), deck, plan)
    return shuffled(ch, _with_jokers(ch, cards, deck))


RELATIONS = ("independent", "same_ranks", "bump_one", "same_shape", "bump_group", "same_shape")


def related_hands(ch: Choices, count: int, n: int, deck: Deck) -> list[list[Card]]:
    """``count`` hands from one deck; later ones often echo the first one's ranks."""
    first_ranks = rank_list(ch, n)
    first_plan = pick(ch, SUIT_PLANS)
    hands = [free_hand(ch, n, deck, first_ranks, first_plan)]
    for _ in range(count - 1):
        relation = pick(ch, RELATIONS)
        ranks: list[int] | None = None
        if relation == "same_ranks":  # differ in suits only: equal, or a flush
            ranks = list(first_ranks)
        elif relation == "bump_one":  # one card a rank apart: kickers
            ranks = _bumped(ch, first_ranks)
        elif relation == "bump_group":  # a pair, trips or quads a rank apart
            ranks = _bumped_group(ch, first_ranks)
        elif relation == "same_shape":  # e.g. two pair against two pair
            ranks = _same_shape(ch, first_ranks)
        # echo the suit plan too, so that two flushes (or two straights) meet
        plan = first_plan if ranks is not None and coin(ch) else None
        hands.append(free_hand(ch, n, deck, ranks, plan))
    return hands


def _board_deal(ch: Choices, game: Game, holes: int) -> tuple[list[str], str]:
    """A community board and ``holes`` sets of hole cards, often built around the board."""
    sel = game.selection
    assert sel is not None
    deck = game.deck()
    board_ranks = rank_list(ch, sel.board)
    board_cards = _suited(ch, board_ranks, deck)
    board = cards_text(shuffled(ch, _with_jokers(ch, list(board_cards), deck)))
    near = sorted({min(max(r + d, TWO), ACE) for r in board_ranks for d in (-1, 0, 1)})
    out = []
    for _ in range(holes):
        if pick(ch, ("connected", "independent")) == "connected":
            # ranks and suits that combine with the board
            suit = board_cards[0].suit
            cards = [
                deck.take(ch, pick(ch, near), pick(ch, (suit, *SUITS))) for _ in range(sel.hole)
            ]
            out.append(cards_text(_with_jokers(ch, cards, deck)))
        else:
            out.append(cards_text(free_hand(ch, sel.hole, deck)))
    return out, board


SHOWDOWNS = ("showdown-dealt", "showdown-tie", "showdown-low")
# the ranks a low deal draws from (the ace and the eight-or-better cards, weighted up)
LOW_RANKS = (ACE, TWO, 3, 4, 5, 6, 7, 8, ACE, TWO, 3, 4, 5, 6, 7, 8, 9, KING)


def has_low(game: Game) -> bool:
    """Whether a pot of this game has a low half (split games) or is a low (razz)."""
    return any(h.name == "low" for h in game.ruleset.pot_halves)


def _twin(ch: Choices, deck: Deck, cards: Sequence[Card]) -> list[Card]:
    """The same ranks as ``cards`` in other suits where the deck still has them."""
    return shuffled(
        ch, [deck.take(ch, c.rank, pick(ch, [s for s in SUITS if s != c.suit])) for c in cards]
    )


def deal_showdown(ch: Choices, game: Game, want: str | None = None) -> Deal:
    """A whole pot: every player's cards (hole cards, or a stud hand) and the board."""
    sel = game.selection
    assert sel is not None
    labels = [x for x in SHOWDOWNS if x != "showdown-low" or has_low(game)]
    label = want if want in labels else pick(ch, labels)
    deck = game.deck()
    board_game = sel.board > 0
    players = 2 + ch.index((9 if board_game else 7) - 1)
    ranks = LOW_RANKS if label == "showdown-low" else RANKS
    board: list[Card] = []
    # a made hand on the board only where the board holds a whole hand (hold 'em
    # eighty-eight's four community cards do not)
    if label == "showdown-tie" and sel.board >= game.size and coin(ch):
        made = pick(ch, game.makeable[: max(1, len(game.makeable) // 2)])
        board = deal_hand(ch, deck, category_hand(ch, game, made, wild_cap=0))
        board += [deck.take(ch, pick(ch, RANKS)) for _ in range(sel.board - len(board))]
        ranks = RANKS[6:]  # weak hole cards: the board plays
    hands: list[list[Card]] = []
    for i in range(players):
        if i == 1 and label != "showdown-dealt" and not board and coin(ch):
            # the first player's ranks in other suits (all of them for a tie; some for
            # a low: a tied low beside different high hands, the quartered pot)
            share = sel.hole if label == "showdown-tie" else 1 + ch.index(sel.hole)
            hands.append(
                _twin(ch, deck, hands[0][:share])
                + [deck.take(ch, pick(ch, ranks)) for _ in range(sel.hole - share)]
            )
            continue
        hands.append([deck.take(ch, pick(ch, ranks)) for _ in range(sel.hole)])
    if board_game and not board:
        board = [deck.take(ch, pick(ch, ranks)) for _ in range(sel.board)]
    inputs: dict[str, Any] = {"hands": [cards_text(h) for h in hands]}
    if board_game:
        inputs["board"] = cards_text(shuffled(ch, board))
    return Deal(Kind.SHOWDOWN, inputs, label)


def deal_free(ch: Choices, game: Game, want: str | None = None) -> Deal:
    """A deal drawn card by card, of a kind the game asks for (no reject)."""
    options = free_options(game)
    if not options:
        return deal_reject(ch, game)
    kind = pick(ch, options)
    if kind == "classify":
        hand = free_hand(ch, game.size, game.deck())
        return Deal("classify", {"hand": cards_text(hand)}, "free")
    if kind == "compare":
        hands = related_hands(ch, pick(ch, (2, 3, 4)), game.size, game.deck())
        return Deal("compare", {"hands": [cards_text(h) for h in hands]}, "free")
    if kind == "compare_on_board":
        holes, board = _board_deal(ch, game, pick(ch, (2, 3, 4)))
        return Deal("compare", {"hands": holes, "board": board}, "free")
    (hole,), board = _board_deal(ch, game, 1)
    return Deal("best_hand", {"hole": hole, "board": board}, "free")


def free_options(game: Game) -> list[str]:
    """What :func:`deal_free` can deal for ``game``: classify and compare of whole hands, and,
    where a board is dealt, compare on the board and best_hand (a stud game's best_hand
    has no board to draw card by card, so it is not offered there)."""
    options: list[str] = [k for k in (Kind.CLASSIFY, Kind.COMPARE) if k in game.kinds]
    if game.selection is not None and game.selection.board:
        options += [
            k
            for k in ("compare_on_board", Kind.BEST_HAND)
            if k.removesuffix("_on_board") in game.kinds
        ]
    return options
