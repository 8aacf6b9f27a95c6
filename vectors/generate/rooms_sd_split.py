"""South Dakota five-card high-low split draw poker (ARSD 20:18:16:12(4)): its showdowns.

12(4): "the player with the best high hand and the player with the best low hand split
the pot"; "A player who wins high or low and ties a player for the other receives
three-quarters of the pot"; "A player may win both high and low at the same time".  No
qualifier is named: every hand takes part in the low half, which is 12(2)'s low game
(``sd-draw-low``) under its interpretation ``sd-low-order``: ace-to-five in practice,
03's list reversed read literally (a straight or a flush is a bad low, the wheel a
straight).  The constructions below pin what differs: the wheel scoops under one
reading and splits under the other, a flush that ties a low by its ranks takes
three-quarters, two equal lows quarter the pot.  The words of each construction are data
(``data/rooms.toml``, section ``sd-draw-high-low``); the pots are the arithmetic of
:mod:`.pots` (both readings settled per deal), never the reference engine.

A half tied by three or more players is never dealt: beside a lone winner of the other
half, the equal split gives that winner 1/2 + 1/6 where "three-quarters" read alone
would say 3/4, and the text ("ties a player") speaks of two; no vector pins that case.
The odd chip (12(4)'s last sentence) is out of scope: shares are exact fractions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction

from pokercert.reference.engine import Pot
from pokercert.vectors.generate import room_builds as rb
from pokercert.vectors.generate.common import SUITS, A, K
from pokercert.vectors.generate.pots import (
    PRACTICE,
    Card,
    Construction,
    Dealer,
    Dealt,
    PotGame,
    players,
    ranked,
    settle,
    some,
)
from pokercert.vectors.generate.room_deals import between
from pokercert.vectors.generate.rooms import Holds, made

HILO = "sd-draw-high-low"
LITERAL = replace(PRACTICE, a5_low=False)  # sd-low-order read literally


def _is_run(ranks: Sequence[int]) -> bool:
    """Five ranks in sequence with the ace low (the low game's sequences, 03)."""
    low = sorted(1 if r == A else r for r in ranks)
    return len(set(low)) == 5 and low[4] - low[0] == 4


def _unpaired_low(dealer: Dealer, top: int) -> list[int]:
    """Five different ranks from the ace (low) to ``top``, not in sequence."""
    ranks = dealer.rng.sample([A, *range(2, top + 1)], 5)
    if _is_run(ranks):
        raise AssertionError("five ranks in sequence: deal again")
    return ranks


def _high_card(c: Card) -> bool:
    """Tens to kings: such hands hold no low better than king-high."""
    return 10 <= c[0] <= K


def wheel(dealer: Dealer) -> Dealt:
    """Deals ``[sd-draw-high-low.wheel]``: A-2-3-4-5 and A-2-3-4-6, mixed suits."""
    five = ranked([A, 5, 4, 3, 2], dealer)
    six = ranked([A, 6, 4, 3, 2], dealer)
    return [five, six, *players(dealer, between(dealer, 0, 2), 5)], []


def ace_low(dealer: Dealer) -> Dealt:
    """Deals ``[sd-draw-high-low.ace-low]``: an ace with four of 2-6 (no wheel) against
    a seven with four of 2-6 (no run), mixed suits, and up to one hand of tens to kings."""
    small = dealer.rng.choice([[2, 3, 4, 6], [2, 3, 5, 6], [2, 4, 5, 6], [3, 4, 5, 6]])
    seven = dealer.rng.choice([[6, 5, 4, 2], [6, 5, 3, 2], [6, 4, 3, 2], [5, 4, 3, 2]])
    return [
        ranked([A, *small], dealer),
        ranked([7, *seven], dealer),
        *players(dealer, between(dealer, 0, 1), 5, _high_card),
    ], []


def three_quarters(dealer: Dealer) -> Dealt:
    """Deals ``[sd-draw-high-low.three-quarters]``: the same five ranks (nine or below,
    no run), one hand suited, the other mixed; one or two hands of tens to kings."""
    ranks = _unpaired_low(dealer, 9)
    suit = dealer.rng.choice(SUITS)
    flush = dealer.take([(r, suit) for r in ranks])
    return [
        flush,
        ranked(ranks, dealer),
        *players(dealer, between(dealer, 1, 2), 5, _high_card),
    ], []


def _paired_high(dealer: Dealer) -> list[Card]:
    """A pair of nines or higher (the ace high) with three other cards of nine or up."""
    pair = dealer.rng.randint(9, A)
    cards = dealer.take([(pair, s) for s in dealer.rng.sample(SUITS, 2)])
    return cards + dealer.draw(3, lambda c: c[0] >= 9 and c[0] != pair)


def quartered(dealer: Dealer) -> Dealt:
    """Deals ``[sd-draw-high-low.quartered]``: a high pair, and two hands of the same
    five low ranks (eight or below, no run) in mixed suits."""
    ranks = _unpaired_low(dealer, 8)
    return [_paired_high(dealer), ranked(ranks, dealer), ranked(ranks, dealer)], []


def high_and_low(dealer: Dealer) -> Dealt:
    """Deals ``[sd-draw-high-low.high-and-low]``: a high pair against a hand of no pair."""
    return [_paired_high(dealer), ranked(_unpaired_low(dealer, K), dealer)], []


def _pot_is(high: tuple[int, ...], low: tuple[int, ...], *shares: Fraction) -> Holds:
    """The constructed seats win these halves and take these shares (practice)."""

    def holds(deal: Dealt, pot: Pot) -> bool:
        return pot.high == high and pot.low == low and tuple(pot.shares[: len(shares)]) == shares

    return holds


def _twins_share(deal: Dealt, pot: Pot) -> bool:
    """The two equal hands win or lose each half together, and win at least one half."""
    both = {0, 1}
    halves = [set(pot.high), set(pot.low or ())]
    return all(not (h & both) or both <= h for h in halves) and any(both <= h for h in halves)


def _two_way_ties(g: PotGame) -> Holds:
    """No half is tied by three or more players, under either reading of sd-low-order."""

    def holds(deal: Dealt, pot: Pot) -> bool:
        literal = settle(g, deal[0], deal[1], LITERAL)
        return all(len(p.high) < 3 and len(p.low or ()) < 3 for p in (pot, literal))

    return holds


def split_draw(g: PotGame) -> dict[str, list[Construction]]:
    """The high-low split showdowns of 12(4), by construction."""
    half, quarter = Fraction(1, 2), Fraction(1, 4)
    scoops = _pot_is((0,), (0,), Fraction(1))
    return {
        "lows": [
            made("sd-draw-high-low", "wheel", wheel, scoops),
            made("sd-draw-high-low", "ace-low", ace_low, scoops),
            made(
                "sd-draw-high-low",
                "three-quarters",
                three_quarters,
                _pot_is((0,), (0, 1), 3 * quarter, quarter),
            ),
            made(
                "sd-draw-high-low",
                "quartered",
                quartered,
                _pot_is((0,), (1, 2), half, quarter, quarter),
            ),
            made("sd-draw-high-low", "high-and-low", high_and_low, _pot_is((0,), (1,), half, half)),
        ],
        "suit-ties": [
            made(
                "sd-draw-high-low",
                "twins",
                lambda d: rb.same_ranks_twins(d, size=5, more=2),
                _twins_share,
            )
        ],
    }


def two_way_only(g: PotGame, cons: list[Construction]) -> list[Construction]:
    """``cons`` with the guard that no half is tied three ways (see the module doc)."""
    guard = _two_way_ties(g)
    return [replace(c, holds=some(c.holds, guard)) for c in cons]


__all__ = ["HILO", "split_draw", "two_way_only"]
