"""South Dakota's poker-room games (ARSD 20:18:16): five-card stud (13), hold 'em
eighty-eight (15.01) and five-card high-low split draw (12(4), :mod:`.rooms_sd_split`).

The families every poker-room game gets (categories, deals, ranking, reject) come from
:mod:`.room_deals` and :mod:`.room_ranking`; the constructions here are what South
Dakota's text says differently: in hold 'em eighty-eight a hand is one hole card with
the four community cards or both with three (15.01(7)), so quads on the board take the
best hole card as their kicker and a four-card flush or straight on the board is made
with one hole card; in five-card stud the suit order of 13 decides only who opens,
never a showdown (31(5)).  The words of each construction are data
(``data/rooms.toml``, sections ``sd-holdem-88`` and ``sd-five-card-stud``); the pots are
the arithmetic of :mod:`.pots`, never the reference engine.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any

from pokercert.reference import get_ruleset
from pokercert.reference.engine import Pot
from pokercert.vectors.generate import room_builds as rb
from pokercert.vectors.generate.common import SUITS, A
from pokercert.vectors.generate.pots import (
    Construction,
    Dealer,
    Dealt,
    PotGame,
    differs,
    family,
    players,
    pot_game,
    ranked,
)
from pokercert.vectors.generate.room_deals import between, categories, deals
from pokercert.vectors.generate.room_ranking import ranking, rejects
from pokercert.vectors.generate.rooms import made
from pokercert.vectors.generate.rooms_sd_split import HILO, split_draw, two_way_only
from pokercert.vectors.model import Kind

HOLDEM_88 = "sd-holdem-88"
STUD_5 = "sd-five-card-stud"
SD_ROOM_GAMES = (HOLDEM_88, STUD_5, HILO)

RANKING = ("20:18:16:03",)  # the card order and the list of hands
SUITS_EQUAL = ("20:18:16:31(5)",)  # suits do not count at the showdown


def sd_games() -> dict[str, PotGame]:
    """The games: their shape and the clauses of each role (see :func:`.rooms.roles`);
    high-low split draw's low half names no qualifier (12(4))."""
    return {
        HOLDEM_88: pot_game(
            HOLDEM_88,
            2,
            4,
            None,  # any five of the six cards: one or both hole cards (four on the board)
            ("high",),
            {
                "select": (
                    "20:18:16:01(18)",
                    "20:18:16:15.01(3)",
                    "20:18:16:15.01(4)",
                    "20:18:16:15.01(7)",
                ),
                "split": ("20:18:16:15.01(7)",),
                "cards": ("20:18:16:15.01(1)", *RANKING, *SUITS_EQUAL),
            },
        ),
        STUD_5: pot_game(
            STUD_5,
            5,
            0,
            None,
            ("high",),
            {
                "select": ("20:18:16:01(18)", "20:18:16:13"),
                "cards": ("20:18:16:06", *RANKING, *SUITS_EQUAL),
            },
        ),
        HILO: pot_game(
            HILO,
            5,
            0,
            None,
            ("high", "low"),
            {
                "select": ("20:18:16:01(18)", "20:18:16:12", "20:18:16:12(1)"),
                "split": ("20:18:16:12(4)",),
                "low": ("20:18:16:12(2)", "20:18:16:03"),
                "cards": ("20:18:16:06", *RANKING, *SUITS_EQUAL),
            },
            low_qualifier=False,
        ),
    }


# --------------------------------------------------------------------------- dealing


def board_quads(dealer: Dealer) -> Dealt:
    """Deals ``[sd-holdem-88.quads]``: the four cards of one rank are the board."""
    q = dealer.rng.randint(2, A)
    board = dealer.take([(q, s) for s in SUITS])
    return players(dealer, between(dealer, 2, 6), 2), board


def hole_kicker(deal: Dealt, pot: Pot) -> bool:
    """The highest hole card beside the board's quads wins; equal ones split."""
    tops = [max(r for r, _ in h) for h in deal[0]]
    return pot.high == tuple(i for i, t in enumerate(tops) if t == max(tops))


def four_flush_board(dealer: Dealer) -> Dealt:
    """Deals ``[sd-holdem-88.one-card-flush]``: four board cards of one suit, a player
    holding exactly one card of it."""
    suit = dealer.rng.choice(SUITS)
    board = dealer.draw(4, lambda c: c[1] == suit)
    one = dealer.draw(1, lambda c: c[1] == suit) + dealer.draw(1, lambda c: c[1] != suit)
    return [one, *players(dealer, between(dealer, 1, 5), 2)], board


def open_straight_board(dealer: Dealer) -> Dealt:
    """Deals ``[sd-holdem-88.one-card-straight]``: four board ranks in sequence (mixed
    suits), a player holding one card that completes the straight."""
    low = dealer.rng.randint(2, 10)
    board = ranked(list(range(low + 3, low - 1, -1)), dealer)
    ends = [r for r in (low - 1 if low > 2 else A, low + 4) if r <= A]
    end = dealer.rng.choice(ends)
    one = dealer.draw(1, lambda c: c[0] == end) + dealer.draw(1)
    return [one, *players(dealer, between(dealer, 1, 5), 2)], board


def pocket_pair(dealer: Dealer) -> Dealt:
    """Deals ``[sd-holdem-88.both-hole]``: a player holding a pair whose best hand needs
    both hole cards with three of the board."""
    pair = dealer.rng.randint(2, A)
    one = dealer.take([(pair, s) for s in dealer.rng.sample(SUITS, 2)])
    board = dealer.draw(4, lambda c: c[0] != pair)
    return [one, *players(dealer, between(dealer, 1, 5), 2)], board


def five_card_twins(dealer: Dealer) -> Dealt:
    """Deals ``[sd-five-card-stud.twins]``: two players of the same five ranks, suits
    shifted, one of them holding the spade of the highest rank, up to two others."""
    return rb.same_ranks_twins(dealer, size=5, more=2)


def wheel_against_straight(dealer: Dealer) -> Dealt:
    """Deals ``[sd-five-card-stud.wheel]``: A-2-3-4-5 against a six-high or higher
    straight, mixed suits."""
    wheel = ranked([A, 5, 4, 3, 2], dealer)
    top = dealer.rng.randint(6, A)
    other = ranked(list(range(top, top - 5, -1)), dealer)
    return [wheel, other, *players(dealer, between(dealer, 0, 2), 5)], []


def second_wins(deal: Dealt, pot: Pot) -> bool:
    """The second hand as built wins the pot alone."""
    return pot.high == (1,)


# --------------------------------------------------------------------------- families


def holdem_88(g: PotGame) -> dict[str, list[Construction]]:
    """Hold 'em eighty-eight: one or both hole cards with the four community cards."""
    exactly_two = differs(g, replace(g, exact=2))  # an Omaha-like reading: two hole cards
    exactly_one = differs(g, replace(g, exact=1))  # one hole card with all four only
    # each made() names its game literally: tests/vectors/test_worked_tables.py reads them
    return {
        "board-kickers": [made("sd-holdem-88", "quads", board_quads, hole_kicker)],
        "two-hole": [
            made("sd-holdem-88", "one-card-flush", four_flush_board, exactly_two),
            made("sd-holdem-88", "one-card-straight", open_straight_board, exactly_two),
            made("sd-holdem-88", "both-hole", pocket_pair, exactly_one),
        ],
        "suit-ties": [
            made(
                "sd-holdem-88",
                "twins",
                partial(rb.holdem_twins, board_cards=4),
                partial(rb.holdem_twins_tie, g),
            )
        ],
    }


def stud_5(g: PotGame) -> dict[str, list[Construction]]:
    """Five-card stud: the five cards dealt are the hand."""
    return {
        "stud-hands": [made("sd-five-card-stud", "wheel", wheel_against_straight, second_wins)],
        "suit-ties": [made("sd-five-card-stud", "twins", five_card_twins, rb.stud_twins_tie)],
    }


def sd_families(rid: str) -> dict[str, Callable[[], list[dict[str, Any]]]]:
    """Topic -> builder of that South Dakota ruleset's generated file."""
    g = sd_games()[rid]
    if rid == HILO:
        cons = split_draw(g)
        cons["categories"] = categories(g, 6)
        cons["deals"] = deals(g)
        cons = {topic: two_way_only(g, c) for topic, c in cons.items()}
    else:
        cons = holdem_88(g) if rid == HOLDEM_88 else stud_5(g)
        cons["categories"] = categories(g, 10)
        cons["deals"] = deals(g)
    seed = sum(map(ord, rid))
    out: dict[str, Callable[[], list[dict[str, Any]]]] = {
        topic: partial(family, g, c, seed + sum(map(ord, topic))) for topic, c in cons.items()
    }
    out["ranking"] = partial(ranking, g, seed + sum(map(ord, "ranking")))
    out["reject"] = partial(sd_rejects, g)
    return out


def sd_rejects(g: PotGame) -> list[dict[str, Any]]:
    """The reject family (:func:`.room_ranking.rejects`), except that a hand of as many
    cards as one player is dealt is no count fault: hold 'em eighty-eight's six cards (two
    hole, four community) are a whole deal, which an evaluator may value as its best
    five, so its one-card-too-many hand holds seven."""
    out = rejects(g)
    whole = g.hole + g.board
    if whole == get_ruleset(g.rid).hand_size:  # five-card stud: the deal is the hand
        return out
    for v in out:
        hand = v.get("hand")
        if v.get("op") == Kind.CLASSIFY and isinstance(hand, str) and len(hand.split()) == whole:
            v["hand"] = hand + " Jc"
            v["why"] = (
                f"{whole + 1} cards where the game needs 5 ({whole} would be a whole deal: two "
                "hole cards and four community cards, valued by their best five)."
            )
    return out


__all__ = ["SD_ROOM_GAMES", "sd_families", "sd_games"]
