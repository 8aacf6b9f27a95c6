"""How each poker-room construction deals, and the property its deal must have.

The constructions themselves (topic, clause roles, flags, count and the reason a reader
can check) are data, ``data/rooms.toml``; :mod:`.rooms` joins each with its dealing and
its property here.  A dealing function takes a seeded :class:`~.pots.Dealer` (after any
bound parameters) and returns the hands as built, the constructed one first; a property
takes that deal and the pot :mod:`.pots` settles.
"""

from __future__ import annotations

from functools import partial

from pokercert.reference.engine import Pot
from pokercert.vectors.generate.common import SUITS, A, J, K, Q
from pokercert.vectors.generate.pots import (
    Card,
    Dealer,
    Dealt,
    PotGame,
    best,
    low_card,
    players,
    ranked,
    settle,
)
from pokercert.vectors.generate.room_deals import between

# --------------------------------------------------------------------------- helpers


def straight_board(top: int, dealer: Dealer) -> list[Card]:
    """Five board cards in sequence to ``top`` (5: the wheel), mixed suits."""
    ranks = [A if r == 1 else r for r in range(top, top - 5, -1)]
    return ranked(ranks, dealer)


def seat_category(g: PotGame, seat: int, cat: int, deal: Dealt, pot: Pot) -> bool:
    """Seat ``seat``'s best high hand is of category ``cat`` (8 straight flush .. 0)."""
    v = best(g, "high", deal[0][seat], deal[1])
    return v is not None and v[0] == cat


def all_category(g: PotGame, deal: Dealt, cat: int, *more: int) -> bool:
    """Every hand's best high hand starts with ``(cat, *more)`` (nobody improved)."""
    for h in deal[0]:
        v = best(g, "high", h, deal[1])
        if v is None or v[: 1 + len(more)] != (cat, *more):
            return False
    return True


def winners(n: int, deal: Dealt, pot: Pot) -> bool:
    """``n`` players win the high half."""
    return len(pot.high) == n


def anything(deal: Dealt, pot: Pot) -> bool:
    """No property beyond the construction (the pot is whatever the arithmetic says)."""
    return True


def _rank_in(ranks: tuple[int, ...], c: Card) -> bool:
    return c[0] in ranks


def most_common_rank(cards: list[Card]) -> int:
    """The rank that appears most often among ``cards``."""
    counts: dict[int, int] = {}
    for r, _ in cards:
        counts[r] = counts.get(r, 0) + 1
    return max(counts, key=lambda r: counts[r])


def pair_in_hole(deal: Dealt) -> bool:
    """Some player holds a pair in the hole."""
    return any(len({r for r, _ in h}) < len(h) for h in deal[0])


def same_ranks_twins(dealer: Dealer, size: int, more: int) -> Dealt:
    """Two players with the same ``size`` ranks, each suit shifted, and up to ``more``
    others (stud and razz: no board)."""
    ranks = dealer.rng.sample(range(2, A + 1), size)
    s = dealer.rng.sample(SUITS, 2)
    a = dealer.take([(r, SUITS[(SUITS.index(s[0]) + i) % 4]) for i, r in enumerate(ranks)])
    b = dealer.take([(r, SUITS[(SUITS.index(s[1]) + i) % 4]) for i, r in enumerate(ranks)])
    return [a, b, *players(dealer, between(dealer, 0, more), size)], []


# --------------------------------------------------------------------------- hold'em


def holdem_straight_plays(top: int, dealer: Dealer) -> Dealt:
    """Deals ``[holdem.straight-plays]`` of ``data/rooms.toml``."""
    board = straight_board(top, dealer)
    n = between(dealer, 2, 9)
    holes = players(dealer, n, 2, lambda c: c[0] != top + 1)
    return holes, board


def holdem_straight_beaten(top: int, dealer: Dealer) -> Dealt:
    """Deals ``[holdem.straight-beaten]`` of ``data/rooms.toml``."""
    board = straight_board(top, dealer)
    one = dealer.take(
        [(top + 1, dealer.rng.choice([s for s in SUITS if (top + 1, s) not in dealer.used]))]
    )
    one += dealer.draw(1, lambda c: c[0] != top + 1)
    holes = players(dealer, between(dealer, 1, 5), 2, lambda c: c[0] != top + 1)
    return [one, *holes], board


def holdem_royal(dealer: Dealer) -> Dealt:
    """Deals ``[holdem.royal]`` of ``data/rooms.toml``."""
    suit = dealer.rng.choice(SUITS)
    board = dealer.take([(r, suit) for r in range(10, A + 1)])
    return players(dealer, between(dealer, 2, 9), 2), board


def holdem_boat(dealer: Dealer) -> Dealt:
    """Deals ``[holdem.boat]`` of ``data/rooms.toml``."""
    t, p = dealer.rng.sample(range(3, A + 1), 2)
    board = ranked([t, t, t, p, p], dealer, spread=False)
    holes = players(dealer, between(dealer, 2, 6), 2, lambda c: c[0] not in (t, p))
    return holes, board


def holdem_quads(dealer: Dealer) -> Dealt:
    """Deals ``[holdem.quads]`` of ``data/rooms.toml``."""
    q, k = dealer.rng.sample(range(2, A + 1), 2)
    board = dealer.take([(q, s) for s in SUITS]) + ranked([k], dealer)
    return players(dealer, between(dealer, 2, 6), 2), board


def quads_kicker(deal: Dealt, pot: Pot) -> bool:
    """The best kicker beside the board's quads wins; equal kickers split."""
    holes, board = deal
    kick = board[4][0]
    tops = [max(kick, *(r for r, _ in h)) for h in holes]
    return pot.high == tuple(i for i, t in enumerate(tops) if t == max(tops))


def holdem_trips(dealer: Dealer) -> Dealt:
    """Deals ``[holdem.trips]`` of ``data/rooms.toml``."""
    t, x, y = dealer.rng.sample(range(2, A + 1), 3)
    board = ranked([t, t, t, x, y], dealer)
    holes = players(dealer, between(dealer, 2, 5), 2, lambda c: c[0] not in (t, x, y))
    return holes, board


def trips_only(g: PotGame, deal: Dealt, pot: Pot) -> bool:
    """Everyone plays the board's trips (nobody improved) and no hole card pairs."""
    t = most_common_rank(deal[1])
    return all_category(g, deal, 3, t) and not pair_in_hole(deal)


def holdem_two_pair(dealer: Dealer) -> Dealt:
    """Deals ``[holdem.two-pair]`` of ``data/rooms.toml``."""
    p, q, x = dealer.rng.sample(range(3, A + 1), 3)
    board = ranked([p, p, q, q, x], dealer)
    low = min(p, q)
    pair_rank = dealer.rng.randint(2, low - 1) if low > 2 else 2
    suits = [s for s in SUITS if (pair_rank, s) not in dealer.used]
    counterfeit = dealer.take([(pair_rank, s) for s in dealer.rng.sample(suits, 2)])
    holes = players(dealer, between(dealer, 1, 4), 2, lambda c: c[0] not in (p, q, x))
    return [counterfeit, *holes], board


def board_two_pair(g: PotGame, deal: Dealt, pot: Pot) -> bool:
    """Everyone plays the board's two pairs (the pocket pair is counterfeited)."""
    ranks = sorted(
        {r for r, _ in deal[1] if sum(1 for c in deal[1] if c[0] == r) == 2}, reverse=True
    )
    return all_category(g, deal, 2, *ranks)


def holdem_twins(dealer: Dealer, board_cards: int = 5) -> Dealt:
    """Deals ``[holdem.twins]`` of ``data/rooms.toml`` (``board_cards`` on the board:
    four in hold 'em eighty-eight)."""
    r1, r2 = dealer.rng.sample(range(2, A + 1), 2)
    n = between(dealer, 2, 3)
    pairs = [(s1, s2) for s1 in SUITS for s2 in SUITS if s1 != s2]
    dealer.rng.shuffle(pairs)
    holes: list[list[Card]] = []
    used1: set[str] = set()
    used2: set[str] = set()
    for s1, s2 in pairs:
        if len(holes) == n:
            break
        if s1 in used1 or s2 in used2:
            continue
        holes.append(dealer.take([(r1, s1), (r2, s2)]))
        used1.add(s1)
        used2.add(s2)
    board = dealer.draw(board_cards, lambda c: c[0] not in (r1, r2))
    return holes + players(dealer, between(dealer, 0, 2), 2), board


def holdem_twins_tie(g: PotGame, deal: Dealt, pot: Pot) -> bool:
    """The hands of the same two ranks make no flush and win or lose together."""
    holes, board = deal
    twins = [
        i for i, h in enumerate(holes) if sorted(r for r, _ in h) == sorted(r for r, _ in holes[0])
    ]
    flush = any(best(g, "high", holes[i], board)[0] in (5, 8) for i in twins)  # type: ignore[index]
    return (
        len(twins) >= 2
        and not flush
        and (set(twins) <= set(pot.high) or not set(twins) & set(pot.high))
    )


# --------------------------------------------------------------------------- Omaha


def omaha_board_flush(most: int, dealer: Dealer) -> Dealt:
    """Deals ``[omaha.board-flush]`` of ``data/rooms.toml``."""
    suit = dealer.rng.choice(SUITS)
    ranks = dealer.rng.sample(range(2, A), 4)
    board = dealer.take([(r, suit) for r in ranks])
    board += dealer.draw(1, lambda c: c[1] != suit)
    one = (
        dealer.take([(A, suit)])
        if (A, suit) not in dealer.used
        else dealer.draw(1, lambda c: c[1] == suit)
    )
    one += dealer.draw(3, lambda c: c[1] != suit)
    return [one, *players(dealer, between(dealer, 1, most), 4)], board


def omaha_four_suited(most: int, dealer: Dealer) -> Dealt:
    """Deals ``[omaha.four-suited]`` of ``data/rooms.toml``."""
    suit = dealer.rng.choice(SUITS)
    hole = dealer.take([(r, suit) for r in dealer.rng.sample(range(2, A + 1), 4)])
    board = dealer.draw(5)
    return [hole, *players(dealer, between(dealer, 1, most), 4)], board


def omaha_trips_in_hand(most: int, dealer: Dealer) -> Dealt:
    """Deals ``[omaha.trips-in-hand]`` of ``data/rooms.toml``."""
    r = dealer.rng.randint(2, A)
    suits = dealer.rng.sample(SUITS, 3)
    hole = dealer.take([(r, s) for s in suits]) + dealer.draw(1, lambda c: c[0] != r)
    board = dealer.draw(5, lambda c: c[0] != r)
    return [hole, *players(dealer, between(dealer, 1, most), 4)], board


def omaha_board_plays(most: int, dealer: Dealer) -> Dealt:
    """Deals ``[omaha.board-plays]`` of ``data/rooms.toml``."""
    top = dealer.rng.randint(6, A)
    board = straight_board(top, dealer)
    return players(dealer, between(dealer, 2, most + 1), 4), board


def omaha_twins(dealer: Dealer) -> Dealt:
    """Deals ``[omaha.twins]`` of ``data/rooms.toml``."""
    # a board with at most two cards of a suit: no flush for anyone
    board = ranked(dealer.rng.sample(range(2, A + 1), 5), dealer)
    ranks = dealer.rng.sample(range(2, A + 1), 4)
    s = dealer.rng.sample(SUITS, 2)
    a = dealer.take([(r, SUITS[(SUITS.index(s[0]) + i) % 4]) for i, r in enumerate(ranks)])
    b = dealer.take([(r, SUITS[(SUITS.index(s[1]) + i) % 4]) for i, r in enumerate(ranks)])
    return [a, b, *players(dealer, between(dealer, 0, 2), 4)], board


def no_flush_twins(deal: Dealt, pot: Pot) -> bool:
    """The board allows no flush and the first two players win or lose together."""
    board = deal[1]
    if max(sum(1 for c in board if c[1] == x) for x in SUITS) > 2:
        return False
    together = [set(pot.high) & {0, 1}, set(pot.low or ()) & {0, 1}]
    return all(w in (set(), {0, 1}) for w in together) and bool(
        together[0] or together[1] or pot.high
    )


def omaha_wheel(dealer: Dealer) -> Dealt:
    """Deals ``[omaha.wheel]`` of ``data/rooms.toml``."""
    board = ranked([A, 2, 3], dealer) + dealer.draw(2, lambda c: c[0] in (K, Q, 9, 10, 5))
    hole = dealer.take([(4, dealer.rng.choice(SUITS)), (5, dealer.rng.choice(SUITS))])
    hole += dealer.draw(2, lambda c: c[0] > 8 and c[0] != A)
    return [hole, *players(dealer, between(dealer, 1, 3), 4, lambda c: not low_card(c))], board


def first_seat_low(deal: Dealt, pot: Pot) -> bool:
    """The constructed hand (seat 0) wins the low."""
    return 0 in (pot.low or ())


def omaha_nine_low(dealer: Dealer) -> Dealt:
    """Deals ``[omaha.nine-low]`` of ``data/rooms.toml``."""
    lows_ = dealer.rng.sample([A, 2, 3, 4, 5, 6, 7], 2)
    board = ranked([9, *lows_], dealer) + dealer.draw(2, lambda c: c[0] in (10, 11, Q, K))
    holes = players(dealer, between(dealer, 2, 3), 4, lambda c: not low_card(c)) + players(
        dealer, 1, 2, low_card
    )
    holes = [h + dealer.draw(2, lambda c: not low_card(c)) if len(h) == 2 else h for h in holes]
    return holes, board


def omaha_paired_board(dealer: Dealer) -> Dealt:
    """Deals ``[omaha.paired-board]`` of ``data/rooms.toml``."""
    a, b = dealer.rng.sample([A, 2, 3, 4, 5, 6, 7, 8], 2)
    board = ranked([a, a, b, b], dealer, spread=False) + dealer.draw(
        1, lambda c: c[0] in (9, 10, 11, Q, K)
    )
    return players(dealer, between(dealer, 2, 4), 4), board


def omaha_quarter(dealer: Dealer) -> Dealt:
    """Deals ``[omaha.quarter]`` of ``data/rooms.toml``."""
    board = ranked([3, 4, 7], dealer) + ranked([K, K], dealer, spread=False)
    s = dealer.rng.sample(SUITS, 4)
    a = dealer.take([(A, s[0]), (2, s[1])])
    b = dealer.take([(A, s[2]), (2, s[3])])
    a += dealer.draw(2, lambda c: not low_card(c))
    b += dealer.draw(2, lambda c: not low_card(c))
    others = players(dealer, between(dealer, 0, 2), 4, lambda c: c[0] > 8 and c[0] != A)
    return [a, b, *others], board


def quartered(deal: Dealt, pot: Pot) -> bool:
    """Two players share the low and one of them wins high: the low is quartered."""
    return len(pot.low or ()) == 2 and len(pot.high) == 1 and pot.high[0] in (pot.low or ())


# --------------------------------------------------------------------------- stud and razz


def first_five_differs(g: PotGame, deal: Dealt, pot: Pot) -> bool:
    """Settling on each player's first five cards only would give another pot."""
    return settle(g, [h[:5] for h in deal[0]], deal[1]) != pot


def stud_flush_straight(more: int, dealer: Dealer) -> Dealt:
    """Deals ``[stud.flush-straight]`` of ``data/rooms.toml``."""
    suit = dealer.rng.choice(SUITS)
    bottom = dealer.rng.randint(2, 10)
    run = [A if r == 1 else r for r in range(bottom, bottom + 5)]
    cards = ranked(run, dealer, spread=False)
    extra = [c for c in dealer.free(lambda c: c[1] == suit and c[0] not in run)]
    need = 4 - sum(1 for c in cards if c[1] == suit)
    picks = dealer.take(dealer.rng.sample(extra, min(max(need, 0), 2)))
    cards += picks
    cards += dealer.draw(7 - len(cards), lambda c: c[1] != suit and c[0] not in run)
    dealer.rng.shuffle(cards)
    return [cards, *players(dealer, between(dealer, 1, more), 7)], []


def four_flush_straight(g: PotGame, deal: Dealt, pot: Pot) -> bool:
    """Seat 0 holds four of a suit and plays a straight."""
    cards = deal[0][0]
    most = max(sum(1 for c in cards if c[1] == s) for s in SUITS)
    return most == 4 and seat_category(g, 0, 4, deal, pot)


def stud_late(more: int, dealer: Dealer) -> Dealt:
    """Deals ``[stud.late]`` of ``data/rooms.toml``."""
    return players(dealer, between(dealer, 2, more + 2), 7), []


def stud_twins_tie(deal: Dealt, pot: Pot) -> bool:
    """The two players of the same ranks win or lose together."""
    twins = set(pot.high) >= {0, 1} or not set(pot.high) & {0, 1}
    return {deal[0][0][0][0]} == {deal[0][1][0][0]} and twins


def stud_wheel(dealer: Dealer) -> Dealt:
    """Deals ``[stud.wheel]`` of ``data/rooms.toml``."""
    cards = ranked([A, 2, 3, 4, 5], dealer) + dealer.draw(2, lambda c: c[0] in (K, Q, 5))
    return [cards, *players(dealer, between(dealer, 1, 2), 7, lambda c: not low_card(c))], []


def first_seat_scoops(deal: Dealt, pot: Pot) -> bool:
    """The constructed hand (seat 0) wins both halves."""
    return 0 in (pot.low or ()) and 0 in pot.high


def stud_nine(dealer: Dealer) -> Dealt:
    """Deals ``[stud.nine]`` of ``data/rooms.toml``."""
    holes = []
    for _ in range(between(dealer, 2, 2)):
        lows_ = dealer.rng.sample([A, 2, 3, 4, 5, 6, 7, 8], 3)
        holes.append(
            ranked([9, *lows_], dealer)
            + dealer.draw(3, partial(_rank_in, (9, 10, 11, Q, K, *lows_)))
        )
    return holes, []


def stud_quarter(dealer: Dealer) -> Dealt:
    """Deals ``[stud.quarter]`` of ``data/rooms.toml``."""
    a = ranked([A, 2, 3, 4, 7], dealer) + dealer.draw(2, lambda c: c[0] in (K, Q))
    b = ranked([A, 2, 3, 4, 7], dealer) + dealer.draw(2, lambda c: c[0] in (9, 5))
    return [a, b, *players(dealer, between(dealer, 0, 2), 7)], []


def two_lows(deal: Dealt, pot: Pot) -> bool:
    """Two players share the low half."""
    return len(pot.low or ()) == 2


def stud_both_halves(dealer: Dealer) -> Dealt:
    """Deals ``[stud.both-halves]`` of ``data/rooms.toml``."""
    wheel = ranked([A, 2, 3, 4, 5], dealer) + dealer.draw(2, partial(_rank_in, (K, Q)))
    eight = ranked([8, 4, 3, 2, A], dealer) + dealer.draw(2, partial(_rank_in, (J, 9)))
    return [wheel, eight], []


def first_seat_high(deal: Dealt, pot: Pot) -> bool:
    """The constructed hand (seat 0) wins high."""
    return 0 in pot.high


def razz_paired(dealer: Dealer) -> Dealt:
    """Deals ``[razz.paired]`` of ``data/rooms.toml``."""
    holes = []
    for _ in range(between(dealer, 2, 6)):
        ranks = dealer.rng.sample([A, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, Q, K], 4)
        cards = ranked(ranks, dealer, spread=False)
        cards += dealer.draw(3, partial(_rank_in, tuple(ranks)))
        holes.append(cards)
    return holes, []


def razz_wheel(dealer: Dealer) -> Dealt:
    """Deals ``[razz.wheel]`` of ``data/rooms.toml``."""
    cards = ranked([A, 2, 3, 4, 5], dealer, spread=False) + dealer.draw(2)
    return [cards, *players(dealer, between(dealer, 1, 6), 7)], []


def low_twins_tie(deal: Dealt, pot: Pot) -> bool:
    """The two players of the same ranks share the low or both lose it."""
    return {0, 1} <= set(pot.low or ()) or not {0, 1} & set(pot.low or ())
