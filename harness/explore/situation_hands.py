"""Hands of a situation: a category realised as ranks, rivals that echo a hand, and the
one-or-two-hand request a situation ends in."""

from __future__ import annotations

from collections.abc import Sequence

from pokercert.reference import Card
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

__all__ = ["KIND_OF_HAND", "category_hand", "echo_hand", "hand_deal", "hand_kind",
           "kicker_ranks", "other_five"]


def kicker_ranks(ch: Choices, game: Game, k: int, avoid: Sequence[int],
             no_run: bool) -> tuple[int, ...]:
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


def category_hand(ch: Choices, game: Game, category: str, *, wild_cap: int = 2,
                  jokers_left: int | None = None, deck: Deck | None = None) -> Hand:
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

    def spare(rank: int, suit: str | None = None) -> int:
        if rank == game.wild_rank:       # a card of the wild rank is never a natural
            return 0
        if deck is None:
            return 4 if suit is None else 1
        if suit is not None:
            return int(deck.free(Card(rank, suit)))
        return sum(deck.free(Card(rank, s)) for s in SUITS)

    if category == "five_of_a_kind" and min(wild_cap, left) < 1:
        category = "four_of_a_kind" if game.can_make("four_of_a_kind") else "three_of_a_kind"
    if category in RUNS:
        suited = category != "straight"
        tops = game.tops()
        if category in ROYALS:
            tops = [ACE]
        elif category == "straight_flush" and any(c in ROYALS for c in game.ranking):
            tops = [t for t in tops if t != ACE]
        open_tops = [t for t in tops if (
            any(all(spare(r, s) for r in run_ranks(t, n)) for s in SUITS) if suited
            else all(spare(r) for r in run_ranks(t, n)))]
        top = pick(ch, open_tops or tops)
        return Hand((), tuple(run_ranks(top, n)), suited,
                    distinct=not suited and game.distinct_straights)
    if category == "five_of_a_kind":
        # the reading may ask for four naturals and one wild card
        most = 1 if game.ev.rules.get("five_of_a_kind") == "four_naturals" else 2
        wilds = 1 + ch.index(min(wild_cap, left, most))
        rank = pick(ch, [r for r in RANKS if spare(r) >= 5 - wilds] or RANKS)
        return Hand(((rank, 5 - wilds),), (), False, wilds)
    if category == "pair_of_aces":
        return Hand(((ACE, 2),), (), False)
    if category == "flush" and deck is not None:
        suit = pick(ch, SUITS)
        # a suit the deal has used up (a royal and a straight flush in it, say) cannot
        # hold a flush: the next suit round that still can (the same deal otherwise)
        at = SUITS.index(suit)
        suit = next((s for s in SUITS[at:] + SUITS[:at]
                     if sum(spare(r, s) for r in RANKS) >= n), suit)
        taken = [r for r in RANKS if not spare(r, suit)]
        return Hand((), kicker_ranks(ch, game, n, taken, no_run=True), True)
    sizes = group_sizes(category, n)
    avoid: list[int] = []
    if category == "one_pair" and "pair_of_aces" in game.ranking:
        avoid.append(ACE)
    group_ranks: list[int] = []
    for size in sizes:
        full = [r for r in RANKS if spare(r) < size]
        group_ranks += distinct_ranks(ch, 1, [*avoid, *group_ranks, *full] if
                                 len(set(full) | set(avoid) | set(group_ranks)) < len(RANKS)
                                 else [*avoid, *group_ranks])
    empty = [r for r in RANKS if not spare(r)]
    kick = kicker_ranks(ch, game, kicker_count(category, n), [*group_ranks, *empty],
                    no_run=not sizes)
    return Hand(tuple(zip(group_ranks, sizes, strict=True)), kick, category == "flush")


def echo_hand(ch: Choices, game: Game, deck: Deck, cards: Sequence[Card],
          bump: bool) -> list[Card]:
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


def hand_deal(ch: Choices, game: Game, hands: list[list[Card]], situation: str,
          kind: str | None = None) -> Deal:
    kind = kind or hand_kind(ch, game)
    if kind == "classify" or len(hands) == 1:
        return Deal("classify", {"hand": cards_text(hands[0])}, situation)
    return Deal("compare", {"hands": [cards_text(h) for h in hands]}, situation)


def other_five(ch: Choices, game: Game, hand: Hand, jokers: int | None = None
                ) -> Hand | None:
    """Five of a kind of another rank beside ``hand`` with the jokers left (``jokers``,
    default: the game's less ``hand``'s), or None when no joker is left."""
    left = (game.wilds - hand.wilds) if jokers is None else jokers
    if left < 1:
        return None
    rank = pick(ch, [r for r in RANKS if r != hand.groups[0][0]])
    wilds = min(hand.wilds, left)
    return Hand(((rank, 5 - wilds),), (), False, wilds)


