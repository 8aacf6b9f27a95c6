"""Hands of a situation: a category realised as ranks, rivals that echo a hand, and the
one-or-two-hand request a situation ends in."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

from pokercert.reference import Card
from pokercert.reference.categories import CategoryName
from pokercert.vectors.dealing import (
    ACE,
    RANKS,
    ROYALS,
    RUNS,
    SUITS,
    Choices,
    Deal,
    Deck,
    Game,
    Hand,
    cards_text,
    deal_hand,
    distinct_ranks,
    group_sizes,
    is_run,
    kicker_count,
    pick,
    run_ranks,
)
from pokercert.vectors.model import Kind

__all__ = [
    "KIND_OF_HAND",
    "category_hand",
    "echo_hand",
    "hand_deal",
    "hand_kind",
    "kicker_ranks",
    "other_five",
]


def kicker_ranks(
    ch: Choices, game: Game, k: int, avoid: Sequence[int], no_run: bool
) -> tuple[int, ...]:
    """k distinct kicker ranks, high to low; never a straight when that would change
    the category (all cards single in a game with straights)."""
    ranks = sorted(distinct_ranks(ch, k, avoid), reverse=True)
    if no_run and game.has_runs and is_run(ranks):
        # move the lowest card one rank further down (or the top one up): no run any more
        used = set(avoid) | set(ranks)
        for alt in [r for r in RANKS[::-1] if r not in used]:
            trial = [*ranks[:-1], alt]
            if not is_run(trial):
                ranks = sorted(trial, reverse=True)
                break
    return tuple(ranks)


def category_hand(
    ch: Choices,
    game: Game,
    category: str,
    *,
    wild_cap: int = 2,
    jokers_left: int | None = None,
    deck: Deck | None = None,
) -> Hand:
    """The ranks (and suit plan) of a hand of ``category`` in ``game``.

    Five of a kind takes 1 or 2 wild cards (at most ``wild_cap`` and ``jokers_left``);
    a category that cannot be dealt falls back to the next weaker one the game has.
    With ``deck``, only ranks (and suits) still undealt there are chosen, so that the
    later hands of a deal keep their category too.
    """
    n = game.size
    left = game.wilds if jokers_left is None else jokers_left
    if deck is not None:
        left = min(left, deck.jokers)
    room = partial(spare, game, deck)
    if category == CategoryName.FIVE_OF_A_KIND and min(wild_cap, left) < 1:
        category = (
            CategoryName.FOUR_OF_A_KIND
            if game.can_make(CategoryName.FOUR_OF_A_KIND)
            else CategoryName.THREE_OF_A_KIND
        )
    if category in RUNS:
        return _run_hand(ch, game, category, room)
    if category == CategoryName.FIVE_OF_A_KIND:
        # the reading may ask for four naturals and one wild card
        most = 1 if game.ev.rules.get("five_of_a_kind") == "four_naturals" else 2
        wilds = 1 + ch.index(min(wild_cap, left, most))
        ranks = (ACE,) if game.ev.ruleset.wild == "bug" else RANKS  # a bug: five aces only
        rank = pick(ch, [r for r in ranks if room(r) >= 5 - wilds] or ranks)
        return Hand(((rank, 5 - wilds),), (), False, wilds)
    if category == CategoryName.PAIR_OF_ACES:
        return Hand(((ACE, 2),), (), False)
    if category == CategoryName.FLUSH and deck is not None:
        suit = pick(ch, SUITS)
        # a suit the deal has used up (a royal and a straight flush in it, say) cannot
        # hold a flush: the next suit round that still can (the same deal otherwise)
        at = SUITS.index(suit)
        suit = next(
            (s for s in SUITS[at:] + SUITS[:at] if sum(room(r, s) for r in RANKS) >= n), suit
        )
        taken = [r for r in RANKS if not room(r, suit)]
        return Hand((), kicker_ranks(ch, game, n, taken, no_run=True), True)
    return _group_hand(ch, game, category, room)


def spare(game: Game, deck: Deck | None, rank: int, suit: str | None = None) -> int:
    """How many cards of ``rank`` (of ``suit`` when given) a hand may still take: none of
    the wild rank (never a natural), else what ``deck`` has left (a full deck without)."""
    if rank == game.wild_rank:
        return 0
    if deck is None:
        return 4 if suit is None else 1
    if suit is not None:
        return int(deck.free(Card(rank, suit)))
    return sum(deck.free(Card(rank, s)) for s in SUITS)


Room = Callable[..., int]


def _run_hand(ch: Choices, game: Game, category: str, room: Room) -> Hand:
    """A straight (or a straight or royal flush) with a top whose cards are still free."""
    n = game.size
    suited = category != CategoryName.STRAIGHT
    tops = game.tops()
    if category in ROYALS:
        tops = [ACE]
        if game.ev.ruleset.wild == "bug" and not room(ACE):  # five aces took them:
            tops = [t for t in game.tops() if t != ACE]  # the next: a straight flush
    elif category == CategoryName.STRAIGHT_FLUSH and any(c in ROYALS for c in game.ranking):
        tops = [t for t in tops if t != ACE]
    open_tops = [
        t
        for t in tops
        if (
            any(all(room(r, s) for r in run_ranks(t, n)) for s in SUITS)
            if suited
            else all(room(r) for r in run_ranks(t, n))
        )
    ]
    top = pick(ch, open_tops or tops)
    return Hand(
        (), tuple(run_ranks(top, n)), suited, distinct=not suited and game.distinct_straights
    )


def _group_hand(ch: Choices, game: Game, category: str, room: Room) -> Hand:
    """A hand of matched groups (or of single cards) with kickers that keep the
    category."""
    n = game.size
    sizes = group_sizes(category, n)
    avoid: list[int] = []
    if category == CategoryName.ONE_PAIR and CategoryName.PAIR_OF_ACES in game.ranking:
        avoid.append(ACE)
    group_ranks: list[int] = []
    for size in sizes:
        full = [r for r in RANKS if room(r) < size]
        group_ranks += distinct_ranks(
            ch,
            1,
            [*avoid, *group_ranks, *full]
            if len(set(full) | set(avoid) | set(group_ranks)) < len(RANKS)
            else [*avoid, *group_ranks],
        )
    empty = [r for r in RANKS if not room(r)]
    kick = kicker_ranks(
        ch, game, kicker_count(category, n), [*group_ranks, *empty], no_run=not sizes
    )
    return Hand(tuple(zip(group_ranks, sizes, strict=True)), kick, category == CategoryName.FLUSH)


def echo_hand(ch: Choices, game: Game, deck: Deck, cards: Sequence[Card], bump: bool) -> list[Card]:
    """A natural hand with the ranks (and suit plan) the reference plays ``cards`` as:
    equal to it, or one card a rank apart when ``bump``."""
    played = game.ev.value(tuple(cards)).played
    ranks = sorted((c.rank for c in played), reverse=True)
    if bump:
        i = ch.index(len(ranks))
        ranks[i] = ranks[i] + 1 if ranks[i] < ACE else ranks[i] - 1
    suited = len({c.suit for c in played}) == 1
    groups = tuple((r, 1) for r in ranks)
    return deal_hand(ch, deck, Hand(groups, (), suited))


# --------------------------------------------------------------------------- situations

KIND_OF_HAND = (Kind.COMPARE, Kind.COMPARE, Kind.CLASSIFY)


def hand_kind(ch: Choices, game: Game) -> str:
    """compare (order bugs) twice as often as classify (naming bugs), where claimed."""
    kinds = [k for k in (Kind.COMPARE, Kind.CLASSIFY) if k in game.kinds]
    if len(kinds) == 2:
        return str(pick(ch, KIND_OF_HAND))
    return kinds[0]


def hand_deal(
    ch: Choices, game: Game, hands: list[list[Card]], situation: str, kind: str | None = None
) -> Deal:
    """The request of ``hands``: a classify of the first, or a compare of them all."""
    kind = kind or hand_kind(ch, game)
    if kind == "classify" or len(hands) == 1:
        return Deal("classify", {"hand": cards_text(hands[0])}, situation)
    return Deal("compare", {"hands": [cards_text(h) for h in hands]}, situation)


def other_five(ch: Choices, game: Game, hand: Hand, jokers: int | None = None) -> Hand | None:
    """Five of a kind of another rank beside ``hand`` with the jokers left (``jokers``,
    default: the game's less ``hand``'s), or None when no joker is left."""
    left = (game.wilds - hand.wilds) if jokers is None else jokers
    if left < 1:
        return None
    rank = pick(ch, [r for r in RANKS if r != hand.groups[0][0]])
    wilds = min(hand.wilds, left)
    return Hand(((rank, 5 - wilds),), (), False, wilds)
