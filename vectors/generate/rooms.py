"""The poker-room families: hold'em, Omaha, Omaha high-low, stud, stud high-low, razz.

Every family is a list of :class:`~.pots.Construction`: how a deal is built, the
property it promises, and the reason a reader can check.  The pots are settled by the
arithmetic of :mod:`.pots`, never by the reference engine.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any

from pokercert.reference import get_ruleset
from pokercert.vectors.generate.common import SUITS, A, J, K, Q
from pokercert.vectors.generate.pots import (
    Card,
    Construction,
    Dealer,
    Dealt,
    Pot,
    PotGame,
    best,
    differs,
    every_tie,
    family,
    low_card,
    no_low,
    players,
    pot_game,
    ranked,
    settle,
)
from pokercert.vectors.generate.room_deals import between, categories, deals, razz_hands
from pokercert.vectors.generate.room_ranking import ranking, rejects

HOLDEM = "nj-holdem"
OMAHA = "nj-omaha"
OMAHA_HL = "nj-omaha-hi-lo"
STUD = "nj-seven-card-stud"
STUD_HL = "nj-stud-hi-lo"
RAZZ = "nj-razz"
ROOM_GAMES = (HOLDEM, OMAHA, OMAHA_HL, STUD, STUD_HL, RAZZ)


# the section whose ranking the games take over (their ``ranks_by``), from the files
N = get_ruleset(get_ruleset(HOLDEM).ranks_by or HOLDEM).regulation.section
HOLDEM_TEXT = ("RRoP-5", "13:69F-14.10(a)", "13:69F-14.10(e)", "13:69F-14.10(g)")
LOW_TEXT = (N + "(e)", N + "(f)")


def games() -> dict[str, PotGame]:
    """The six games: their shape, and the clauses of each role (``select``: how a hand is
    made; ``split``: how the pot is split; ``low``: the low order; ``cards``: the card
    order, where suits are equal and the ace may play low)."""
    return {
        HOLDEM: pot_game(HOLDEM, 2, 5, None, ("high",),
                         {"select": HOLDEM_TEXT, "cards": (N + "(a)",), "speak": (N + "(g)",)}),
        OMAHA: pot_game(OMAHA, 4, 5, 2, ("high",),
                        {"select": ("RRoP-6", "RRoP-6.1"), "cards": (N + "(a)",),
                         "speak": (N + "(g)",)}),
        OMAHA_HL: pot_game(OMAHA_HL, 4, 5, 2, ("high", "low"),
                           {"select": ("RRoP-6", "RRoP-6.1"), "split": ("RRoP-7", "RRoP-10"),
                            "low": LOW_TEXT, "cards": (N + "(a)",), "speak": (N + "(g)",)}),
        STUD: pot_game(STUD, 7, 0, None, ("high",),
                       {"select": ("RRoP-8",), "cards": (N + "(a)",), "speak": (N + "(g)",)}),
        STUD_HL: pot_game(STUD_HL, 7, 0, None, ("high", "low"),
                          {"select": ("RRoP-8",), "split": ("RRoP-10",), "low": LOW_TEXT,
                           "cards": (N + "(a)",), "speak": (N + "(g)",)}),
        RAZZ: pot_game(RAZZ, 7, 0, None, ("razz",),
                       {"select": ("RRoP-8", "RRoP-9"), "low": LOW_TEXT,
                        "cards": (N + "(e)",), "speak": (N + "(g)",)}),
    }


# --------------------------------------------------------------------------- helpers

def _straight_board(top: int) -> Callable[[Dealer], list[Card]]:
    def deal(dealer: Dealer) -> list[Card]:
        ranks = [A if r == 1 else r for r in range(top, top - 5, -1)]
        return ranked(ranks, dealer)
    return deal


def _category(g: PotGame, seat: int, cat: int) -> Callable[[Dealt, Pot], bool]:
    """Seat ``seat``'s best high hand is of category ``cat`` (8 straight flush .. 0)."""
    def holds(deal: Dealt, pot: Pot) -> bool:
        v = best(g, "high", deal[0][seat], deal[1])
        return v is not None and v[0] == cat
    return holds


def _all_category(g: PotGame, cat: int, *more: int) -> Callable[[Dealt, Pot], bool]:
    """Every hand's best high hand starts with ``(cat, *more)`` (nobody improved)."""
    def holds(deal: Dealt, pot: Pot) -> bool:
        for h in deal[0]:
            v = best(g, "high", h, deal[1])
            if v is None or v[:1 + len(more)] != (cat, *more):
                return False
        return True
    return holds


def _winner_count(n: int) -> Callable[[Dealt, Pot], bool]:
    return lambda deal, pot: len(pot.high) == n


def _tagged(deal: tuple[list[list[Card]], list[Card]], first: list[Card]) -> Dealt:
    """Put a constructed hand among randomly dealt ones (seats are shuffled later)."""
    holes, board = deal
    return [first, *holes], board


# --------------------------------------------------------------------------- hold'em

def holdem(g: PotGame) -> dict[str, list[Construction]]:
    """Hold'em (any five of the seven cards): the board plays, board kickers, suits."""
    board_plays = []
    for top in range(6, A + 1):
        def straight_deal(dealer: Dealer, top: int = top) -> Dealt:
            board = _straight_board(top)(dealer)
            n = between(dealer, 2, 9)
            holes = players(dealer, n, 2, lambda c: c[0] != top + 1)
            return holes, board
        board_plays.append(Construction(
            "board-plays", ("select", "order", "split"), ("board-plays", "multiway-split"),
            f"The board is a {top if top < A else 'ace'}-high straight of mixed suits and no "
            "hole card is the next rank up or makes a flush: the board plays for everyone, "
            "every player splits the pot equally.",
            straight_deal, every_tie, 5))
        if top < A:
            def beat_deal(dealer: Dealer, top: int = top) -> Dealt:
                board = _straight_board(top)(dealer)
                one = dealer.take([(top + 1, dealer.rng.choice(
                    [s for s in SUITS if (top + 1, s) not in dealer.used]))])
                one += dealer.draw(1, lambda c: c[0] != top + 1)
                holes = players(dealer, between(dealer, 1, 5), 2, lambda c: c[0] != top + 1)
                return [one, *holes], board
            board_plays.append(Construction(
                "board-plays", ("select", "order"), ("board-plays", "straight-order"),
                f"The board is a straight to the {top}; one player holds the next rank up "
                "and plays a higher straight with one hole card: that player alone wins.",
                beat_deal, _winner_count(1), 3))

    def royal_deal(dealer: Dealer) -> Dealt:
        suit = dealer.rng.choice(SUITS)
        board = dealer.take([(r, suit) for r in range(10, A + 1)])
        return players(dealer, between(dealer, 2, 9), 2), board
    board_plays.append(Construction(
        "board-plays", ("select", "split"), ("board-plays", "multiway-split"),
        "A royal flush on the board: no hand can beat it, every player plays the board and "
        "splits the pot equally.", royal_deal, every_tie, 8))

    def boat_deal(dealer: Dealer) -> Dealt:
        t, p = dealer.rng.sample(range(3, A + 1), 2)
        board = ranked([t, t, t, p, p], dealer, spread=False)
        holes = players(dealer, between(dealer, 2, 6), 2, lambda c: c[0] not in (t, p))
        return holes, board
    board_plays.append(Construction(
        "board-plays", ("select", "order", "split"), ("board-plays", "full-house-order"),
        "A full house on the board and no hole card matches its ranks: only a pocket pair "
        "above the board's pair improves it (a better full house); otherwise the board "
        "plays and the pot is split.", boat_deal, lambda d, p: True, 12))

    kickers = []

    def quads_deal(dealer: Dealer) -> Dealt:
        q, k = dealer.rng.sample(range(2, A + 1), 2)
        board = dealer.take([(q, s) for s in SUITS]) + ranked([k], dealer)
        return players(dealer, between(dealer, 2, 6), 2), board

    def quads_kicker(deal: Dealt, pot: Pot) -> bool:
        holes, board = deal
        kick = board[4][0]
        tops = [max(kick, *(r for r, _ in h)) for h in holes]
        return pot.high == [i for i, t in enumerate(tops) if t == max(tops)]
    kickers.append(Construction(
        "board-kickers", ("select", "order", "split"), ("shared-board-kicker", "kicker-order"),
        "Four of a kind on the board: every player has those quads, and the fifth card is "
        "the highest of the board's kicker and the player's hole cards; the highest kicker "
        "wins, equal kickers split.", quads_deal, quads_kicker, 34))

    def trips_deal(dealer: Dealer) -> Dealt:
        t, x, y = dealer.rng.sample(range(2, A + 1), 3)
        board = ranked([t, t, t, x, y], dealer)
        holes = players(dealer, between(dealer, 2, 5), 2, lambda c: c[0] not in (t, x, y))
        return holes, board

    def trips_only(deal: Dealt, pot: Pot) -> bool:
        t = most_common_rank(deal[1])
        return _all_category(g, 3, t)(deal, pot) and not pair_in_hole(deal)
    kickers.append(Construction(
        "board-kickers", ("select", "order", "split"), ("shared-board-kicker", "kicker-order"),
        "Three of a kind on the board, no hole card pairs or matches the board and no one "
        "makes a straight or flush: everyone plays the board's trips and the two best "
        "kickers of the board's and the player's cards decide.", trips_deal, trips_only, 33))

    def two_pair_deal(dealer: Dealer) -> Dealt:
        p, q, x = dealer.rng.sample(range(3, A + 1), 3)
        board = ranked([p, p, q, q, x], dealer)
        low = min(p, q)
        pair_rank = dealer.rng.randint(2, low - 1) if low > 2 else 2
        suits = [s for s in SUITS if (pair_rank, s) not in dealer.used]
        counterfeit = dealer.take([(pair_rank, s) for s in dealer.rng.sample(suits, 2)])
        holes = players(dealer, between(dealer, 1, 4), 2, lambda c: c[0] not in (p, q, x))
        return [counterfeit, *holes], board

    def board_two_pair(deal: Dealt, pot: Pot) -> bool:
        ranks = sorted({r for r, _ in deal[1] if sum(1 for c in deal[1] if c[0] == r) == 2},
                       reverse=True)
        return _all_category(g, 2, *ranks)(deal, pot)
    kickers.append(Construction(
        "board-kickers", ("select", "order", "split"), ("counterfeit", "two-pair-order"),
        "Two pairs on the board and a player's pocket pair below both of them: the pocket "
        "pair is counterfeited (the board's two pairs play), so only the fifth card, the "
        "best of the board's odd card and the hole cards, decides.", two_pair_deal,
        board_two_pair, 33))

    suits = []

    def twins_deal(dealer: Dealer) -> Dealt:
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
        board = dealer.draw(5, lambda c: c[0] not in (r1, r2))
        return holes + players(dealer, between(dealer, 0, 2), 2), board

    def twins_tie(deal: Dealt, pot: Pot) -> bool:
        holes, board = deal
        twins = [i for i, h in enumerate(holes) if sorted(r for r, _ in h) ==
                 sorted(r for r, _ in holes[0])]
        flush = any(best(g, "high", holes[i], board)[0] in (5, 8) for i in twins)  # type: ignore[index]
        return len(twins) >= 2 and not flush and (set(twins) <= set(pot.high) or
                                                  not set(twins) & set(pot.high))
    suits.append(Construction(
        "suit-ties", ("select", "split", "cards"), ("suit-tiebreak", "multiway-split"),
        "Two or three players hold the same two ranks in different suits and no one makes a "
        "flush: their hands are equal, suits never break the tie, so they win or lose "
        "together and split equally.", twins_deal, twins_tie, 60, tag="suits-equal"))
    return {"board-plays": board_plays, "board-kickers": kickers, "suit-ties": suits}


def _rank_in(ranks: tuple[int, ...], c: Card) -> bool:
    return c[0] in ranks


def most_common_rank(cards: list[Card]) -> int:
    """The rank that appears most often among ``cards``."""
    counts: dict[int, int] = {}
    for r, _ in cards:
        counts[r] = counts.get(r, 0) + 1
    return max(counts, key=lambda r: counts[r])


def pair_in_hole(deal: Dealt) -> bool:
    return any(len({r for r, _ in h}) < len(h) for h in deal[0])


# --------------------------------------------------------------------------- Omaha

def omaha(g: PotGame) -> dict[str, list[Construction]]:
    """Omaha (exactly two hole and three board cards), high only or high-low (two to
    four players there: every reading of the split is settled for each deal)."""
    most = 5 if "low" not in g.halves else 3
    split = 1 if "low" not in g.halves else 2      # half as many deals where costly
    anyfive = replace(g, exact=None)
    two_hole = []

    def board_flush_deal(dealer: Dealer) -> Dealt:
        suit = dealer.rng.choice(SUITS)
        ranks = dealer.rng.sample(range(2, A), 4)
        board = dealer.take([(r, suit) for r in ranks])
        board += dealer.draw(1, lambda c: c[1] != suit)
        one = dealer.take([(A, suit)]) if (A, suit) not in dealer.used else dealer.draw(
            1, lambda c: c[1] == suit)
        one += dealer.draw(3, lambda c: c[1] != suit)
        return [one, *players(dealer, between(dealer, 1, most), 4)], board
    two_hole.append(Construction(
        "two-hole", ("select", "order"), ("exactly-two-hole", "four-flush-board"),
        "Four cards of one suit on the board and a player holding a single card of that "
        "suit: with exactly two hole cards and three board cards that player has no "
        "flush; counting any five of the nine cards would give one, and another pot.",
        board_flush_deal, differs(g, anyfive), 30 // split))

    def four_suited_deal(dealer: Dealer) -> Dealt:
        suit = dealer.rng.choice(SUITS)
        hole = dealer.take([(r, suit) for r in dealer.rng.sample(range(2, A + 1), 4)])
        board = dealer.draw(5)
        return [hole, *players(dealer, between(dealer, 1, most), 4)], board
    two_hole.append(Construction(
        "two-hole", ("select", "order"), ("exactly-two-hole",),
        "A player holds four cards of one suit: a flush must use exactly two of them with "
        "three board cards of the suit; with three or four hole cards counted the pot "
        "would go another way.", four_suited_deal, differs(g, anyfive), 25 // split))

    def trips_in_hand_deal(dealer: Dealer) -> Dealt:
        r = dealer.rng.randint(2, A)
        suits = dealer.rng.sample(SUITS, 3)
        hole = dealer.take([(r, s) for s in suits]) + dealer.draw(1, lambda c: c[0] != r)
        board = dealer.draw(5, lambda c: c[0] != r)
        return [hole, *players(dealer, between(dealer, 1, most), 4)], board
    two_hole.append(Construction(
        "two-hole", ("select", "order"), ("exactly-two-hole",),
        "A player holds three cards of one rank and the board none: with exactly two hole "
        "cards only a pair of them plays; three of a kind from the hand alone would change "
        "the pot.", trips_in_hand_deal, differs(g, anyfive), 25 // split))

    def board_plays_deal(dealer: Dealer) -> Dealt:
        top = dealer.rng.randint(6, A)
        board = _straight_board(top)(dealer)
        return players(dealer, between(dealer, 2, most + 1), 4), board
    two_hole.append(Construction(
        "two-hole", ("select", "order"), ("board-plays", "exactly-two-hole"),
        "A straight on the board: in Omaha the board cannot play alone, each player must use "
        "two hole cards, so the pot does not split as it would if the board played.",
        board_plays_deal, differs(g, anyfive), 20 // split))
    def twins_deal(dealer: Dealer) -> Dealt:
        # a board with at most two cards of a suit: no flush for anyone
        board = ranked(dealer.rng.sample(range(2, A + 1), 5), dealer)
        ranks = dealer.rng.sample(range(2, A + 1), 4)
        s = dealer.rng.sample(SUITS, 2)
        a = dealer.take([(r, SUITS[(SUITS.index(s[0]) + i) % 4]) for i, r in enumerate(ranks)])
        b = dealer.take([(r, SUITS[(SUITS.index(s[1]) + i) % 4]) for i, r in enumerate(ranks)])
        return [a, b, *players(dealer, between(dealer, 0, 2), 4)], board

    def no_flush_twins(deal: Dealt, pot: Pot) -> bool:
        board = deal[1]
        if max(sum(1 for c in board if c[1] == x) for x in SUITS) > 2:
            return False
        together = [set(pot.high) & {0, 1}, set(pot.low) & {0, 1}]
        return all(w in (set(), {0, 1}) for w in together) and bool(together[0] or
                                                                     together[1] or pot.high)
    out = {"two-hole": two_hole, "suit-ties": [Construction(
        "suit-ties", ("select", "split", "cards"), ("suit-tiebreak", "multiway-split"),
        "Two players hold the same four ranks in different suits and the board has no three "
        "cards of a suit (no flush): their hands are equal, suits never break the tie, so "
        "they win or lose together and share whatever they win.", twins_deal,
        no_flush_twins, 20, tag="suits-equal")]}
    if "low" not in g.halves:
        return out
    lows = []

    def wheel_deal(dealer: Dealer) -> Dealt:
        board = ranked([A, 2, 3], dealer) + dealer.draw(2, lambda c: c[0] in (K, Q, 9, 10, 5))
        hole = dealer.take([(4, dealer.rng.choice(SUITS)), (5, dealer.rng.choice(SUITS))])
        hole += dealer.draw(2, lambda c: c[0] > 8 and c[0] != A)
        return [hole, *players(dealer, between(dealer, 1, 3), 4, lambda c: not low_card(c))], board

    lows.append(Construction(
        "lows", ("select", "low", "split", "cards"), ("wheel", "ace-low", "low-qualifier"),
        "A-2-3 on the board and 4-5 in a player's hand: 5-4-3-2-A is the best possible low "
        "and also a five-high straight for high; the same five cards may win both halves.",
        wheel_deal, lambda d, p: 0 in p.low, 12))

    def nine_low_deal(dealer: Dealer) -> Dealt:
        lows_ = dealer.rng.sample([A, 2, 3, 4, 5, 6, 7], 2)
        board = ranked([9, *lows_], dealer) + dealer.draw(2, lambda c: c[0] in (10, 11, Q, K))
        holes = players(dealer, between(dealer, 2, 3), 4, lambda c: not low_card(c)) + \
            players(dealer, 1, 2, low_card)
        holes = [h + dealer.draw(2, lambda c: not low_card(c)) if len(h) == 2 else h
                 for h in holes]
        return holes, board
    lows.append(Construction(
        "lows", ("low", "split"), ("low-qualifier", "no-qualifying-low"),
        "Only two board cards are eight or lower (a nine is the third): every low must use "
        "the nine, a nine-low does not qualify for eight or better, so no low is awarded and "
        "the high hand takes the whole pot.", nine_low_deal, no_low, 15))

    def paired_board_deal(dealer: Dealer) -> Dealt:
        a, b = dealer.rng.sample([A, 2, 3, 4, 5, 6, 7, 8], 2)
        board = ranked([a, a, b, b], dealer, spread=False) + dealer.draw(
            1, lambda c: c[0] in (9, 10, 11, Q, K))
        return players(dealer, between(dealer, 2, 4), 4), board
    lows.append(Construction(
        "lows", ("low", "split"), ("no-qualifying-low", "counterfeit"),
        "The board's low cards are two pairs: any three board cards a low could use hold a "
        "pair, so no hand has five unpaired cards of eight or lower and no low is awarded.",
        paired_board_deal, no_low, 10))

    def quarter_deal(dealer: Dealer) -> Dealt:
        board = ranked([3, 4, 7], dealer) + ranked([K, K], dealer, spread=False)
        s = dealer.rng.sample(SUITS, 4)
        a = dealer.take([(A, s[0]), (2, s[1])])
        b = dealer.take([(A, s[2]), (2, s[3])])
        a += dealer.draw(2, lambda c: not low_card(c))
        b += dealer.draw(2, lambda c: not low_card(c))
        others = players(dealer, between(dealer, 0, 2), 4, lambda c: c[0] > 8 and c[0] != A)
        return [a, b, *others], board

    def quartered(deal: Dealt, pot: Pot) -> bool:
        return len(pot.low) == 2 and len(pot.high) == 1 and pot.high[0] in pot.low
    lows.append(Construction(
        "lows", ("low", "split"), ("quartered-pot", "split-pot"),
        "Two players hold ace-deuce for the same 7-4-3-2-A low and one of them also wins "
        "high: the low half is quartered, so the high winner gets 3/4 of the pot and the "
        "other 1/4.", quarter_deal, quartered, 12))

    out["lows"] = lows
    return out


# --------------------------------------------------------------------------- stud and razz

def stud(g: PotGame) -> dict[str, list[Construction]]:
    """Seven-card stud, high or high-low: the best five of each player's seven cards
    (two to four players in high-low: every reading of the split is settled)."""
    more = 5 if "low" not in g.halves else 2

    def firstfive(deal: Dealt, pot: Pot) -> bool:
        return settle(g, [h[:5] for h in deal[0]], deal[1]) != pot
    hands = []

    def flush_straight_deal(dealer: Dealer) -> Dealt:
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

    def four_flush_straight(deal: Dealt, pot: Pot) -> bool:
        cards = deal[0][0]
        most = max(sum(1 for c in cards if c[1] == s) for s in SUITS)
        return most == 4 and _category(g, 0, 4)(deal, pot)
    hands.append(Construction(
        "stud-hands", ("select", "order"), ("best-five-of-seven", "near-miss"),
        "A player's seven cards hold four of one suit and five in sequence: the best five "
        "is the straight; four cards of a suit are no flush.", flush_straight_deal,
        four_flush_straight, 30))

    def late_deal(dealer: Dealer) -> Dealt:
        return players(dealer, between(dealer, 2, more + 2), 7), []
    hands.append(Construction(
        "stud-hands", ("select", "order", "split"), ("best-five-of-seven",),
        "Seven cards each, dealt so that a player's best five includes the sixth or seventh "
        "card: choosing from the first five cards only would settle this pot otherwise.",
        late_deal, firstfive, 40))

    def twins_deal(dealer: Dealer) -> Dealt:
        ranks = dealer.rng.sample(range(2, A + 1), 7)
        s = dealer.rng.sample(SUITS, 2)
        a = dealer.take([(r, SUITS[(SUITS.index(s[0]) + i) % 4]) for i, r in enumerate(ranks)])
        b = dealer.take([(r, SUITS[(SUITS.index(s[1]) + i) % 4]) for i, r in enumerate(ranks)])
        return [a, b, *players(dealer, between(dealer, 0, 2), 7)], []

    def twins_tie(deal: Dealt, pot: Pot) -> bool:
        return set(pot.high) >= {0, 1} or not set(pot.high) & {0, 1}
    hands.append(Construction(
        "suit-ties", ("select", "split", "cards"), ("suit-tiebreak", "multiway-split"),
        "Two players hold the same seven ranks in different suits, no flush possible: their "
        "hands are equal and share whatever they win.", twins_deal,
        lambda d, p: {d[0][0][0][0]} == {d[0][1][0][0]} and twins_tie(d, p), 30,
        tag="suits-equal"))
    out = {"stud-hands": [c for c in hands if c.topic == "stud-hands"],
           "suit-ties": [c for c in hands if c.topic == "suit-ties"]}
    if "low" not in g.halves:
        return out
    lows = []

    def wheel_deal(dealer: Dealer) -> Dealt:
        cards = ranked([A, 2, 3, 4, 5], dealer) + dealer.draw(2, lambda c: c[0] in (K, Q, 5))
        return [cards, *players(dealer, between(dealer, 1, 2), 7, lambda c: not low_card(c))], []
    lows.append(Construction(
        "lows", ("select", "low", "split", "cards"), ("wheel", "ace-low", "scoop"),
        "A player holds A-2-3-4-5 and the others no low card: the best possible low and a "
        "five-high straight that beats everyone's high at once; the same five cards win "
        "both halves and the player scoops.", wheel_deal,
        lambda d, p: 0 in p.low and 0 in p.high, 0))

    def nine_deal(dealer: Dealer) -> Dealt:
        holes = []
        for _ in range(between(dealer, 2, 2)):
            lows_ = dealer.rng.sample([A, 2, 3, 4, 5, 6, 7, 8], 3)
            holes.append(ranked([9, *lows_], dealer) + dealer.draw(
                3, partial(_rank_in, (9, 10, 11, Q, K, *lows_))))
        return holes, []
    lows.append(Construction(
        "lows", ("low", "split"), ("low-qualifier", "no-qualifying-low"),
        "No player has five different cards of eight or lower (at most four, the fifth best "
        "a nine): a nine-low does not qualify, no low is awarded and high scoops.",
        nine_deal, no_low, 15))

    def quarter_deal(dealer: Dealer) -> Dealt:
        a = ranked([A, 2, 3, 4, 7], dealer) + dealer.draw(2, lambda c: c[0] in (K, Q))
        b = ranked([A, 2, 3, 4, 7], dealer) + dealer.draw(2, lambda c: c[0] in (9, 5))
        return [a, b, *players(dealer, between(dealer, 0, 2), 7)], []
    lows.append(Construction(
        "lows", ("low", "split"), ("quartered-pot", "split-pot"),
        "Two players have the same 7-4-3-2-A low; the low half is shared between them "
        "(each gets a quarter of the pot) whoever wins high.", quarter_deal,
        lambda d, p: len(p.low) == 2, 12))

    def both_halves_deal(dealer: Dealer) -> Dealt:
        wheel = ranked([A, 2, 3, 4, 5], dealer) + dealer.draw(2, partial(_rank_in, (K, Q)))
        eight = ranked([8, 4, 3, 2, A], dealer) + dealer.draw(2, partial(_rank_in, (J, 9)))
        return [wheel, eight], []
    lows.append(Construction(
        "lows", ("low", "split"), ("scoop", "split-pot"),
        "One player's A-2-3-4-5 is both the best high hand (a five-high straight) and the "
        "best low; the other holds an 8-4-3-2-A low and no straight.  When the same five "
        "cards may win both halves the wheel scoops; when they may not, each of the wheel's "
        "other fives holds a king or a queen and loses the low to 8-4-3-2-A (read from "
        "either end, with or without the qualifier), so the eight-low takes the low half.",
        both_halves_deal, lambda d, p: 0 in p.high, 6))
    out["lows"] = lows
    return out


def razz(g: PotGame) -> dict[str, list[Construction]]:
    """Razz: the best ace-to-five low of seven cards, pairs count, no qualifier."""
    out = []

    def paired_deal(dealer: Dealer) -> Dealt:
        holes = []
        for _ in range(between(dealer, 2, 6)):
            ranks = dealer.rng.sample([A, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, Q, K], 4)
            cards = ranked(ranks, dealer, spread=False)
            cards += dealer.draw(3, partial(_rank_in, tuple(ranks)))
            holes.append(cards)
        return holes, []
    out.append(Construction(
        "razz", ("order", "split"), ("razz-pairs", "ace-low"),
        "Every player's seven cards hold only four ranks: each must play a pair (or worse) "
        "in the low, pairs count against a hand, and the least paired, lowest hand wins.",
        paired_deal, lambda d, p: True, 40))

    def wheel_deal(dealer: Dealer) -> Dealt:
        cards = ranked([A, 2, 3, 4, 5], dealer, spread=False) + dealer.draw(2)
        return [cards, *players(dealer, between(dealer, 1, 6), 7)], []
    out.append(Construction(
        "razz", ("order", "cards"), ("wheel", "ace-low", "low-straights-flushes"),
        "A player holds A-2-3-4-5 (a straight, maybe a flush, in high games): in razz it is "
        "the best low, straights and flushes do not count.", wheel_deal,
        lambda d, p: 0 in p.low, 30))

    def twins_deal(dealer: Dealer) -> Dealt:
        ranks = dealer.rng.sample(range(2, A + 1), 7)
        s = dealer.rng.sample(SUITS, 2)
        a = dealer.take([(r, SUITS[(SUITS.index(s[0]) + i) % 4]) for i, r in enumerate(ranks)])
        b = dealer.take([(r, SUITS[(SUITS.index(s[1]) + i) % 4]) for i, r in enumerate(ranks)])
        return [a, b, *players(dealer, between(dealer, 0, 2), 7)], []
    out.append(Construction(
        "suit-ties", ("order", "split", "cards"), ("suit-tiebreak",),
        "Two players hold the same seven ranks in different suits: their lows are equal, "
        "suits never break the tie, so they share whatever they win.", twins_deal,
        lambda d, p: {0, 1} <= set(p.low) or not {0, 1} & set(p.low), 30,
        tag="suits-equal"))
    # the final five-card hands of corpus 1.11 (nj-razz/7170-7199, retired: razz deals
    # seven cards each) are compares of the family razz-hands (see families below)
    return {"razz": [c for c in out if c.topic == "razz"],
            "suit-ties": [c for c in out if c.topic == "suit-ties"]}


def families(rid: str) -> dict[str, Callable[[], list[dict[str, Any]]]]:
    """Topic -> builder of that ruleset's generated file."""
    g = games()[rid]
    if rid == HOLDEM:
        cons = holdem(g)
    elif rid in (OMAHA, OMAHA_HL):
        cons = omaha(g)
    elif rid in (STUD, STUD_HL):
        cons = stud(g)
    else:
        cons = razz(g)
    if "high" in g.halves:
        cons["categories"] = categories(g, 10 if len(g.halves) == 1 else 6)
    cons["deals"] = deals(g)
    seed = sum(map(ord, rid))
    out: dict[str, Callable[[], list[dict[str, Any]]]] = {
        topic: partial(family, g, c, seed + sum(map(ord, topic))) for topic, c in cons.items()}
    out["ranking"] = partial(ranking, g, seed + sum(map(ord, "ranking")))
    if rid == RAZZ:
        out["razz-hands"] = partial(razz_hands, g, seed)
    out["reject"] = partial(rejects, g)
    return out
