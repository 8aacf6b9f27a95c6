"""Showdown families of the poker-room games: whole pots, high and low halves, shares.

Each deal is *constructed* to show one behaviour (the board plays, the kicker of quads
on the board, a four-card flush on an Omaha board, a nine-low that cannot qualify, a
quartered low, ...), and its ``why`` names the construction.  The expected pot is then
worked out by this module's own arithmetic, written here from the rules and nothing
else (:func:`high_value`, :func:`low_value`, :func:`settle`): a plain search over every
five-card hand the game allows, the textbook order of hands, the eight-or-better
qualifier, the pot halved and each half split equally.  It never asks the reference
engine; ``pokercert vectors check`` then compares every expectation with the engine, so
a construction mistake and an engine mistake both surface.  Each family also asserts
the property its construction promises (a *construction guard*: the board plays means
every player ties; a nine-low means no low), so the arithmetic and the construction
check each other.

Odd chips are out of scope: a share is an exact fraction of the pot.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from itertools import combinations, product
from typing import Any

from pokercert.reference import get_ruleset
from pokercert.reference.categories import CategoryName
from pokercert.reference.engine import Pot
from pokercert.reference.errors import PokercertError
from pokercert.vectors.generate.common import RANK_CHARS, SUITS, A, hand_of, make_record

# LOW_NAMES re-exported: the room families read it from here
from pokercert.vectors.generate.pot_lows import LOW_NAMES as LOW_NAMES
from pokercert.vectors.generate.pot_lows import low_key
from pokercert.vectors.model import share_text

Card = tuple[int, str]  # (rank 2..14, suit letter)


# --------------------------------------------------------------------------- the games


@dataclass(frozen=True)
class PotGame:
    """A poker-room game as the generator's arithmetic sees it, and its clause labels.

    ``hole``/``board``: cards per player and on the table; ``exact``: hands use exactly
    that many hole cards (Omaha: 2), else any five of all the cards; ``halves``: the
    halves of the pot (``high``, ``low`` qualified eight or better, ``razz``: the low
    half without a qualifier, pairs counting against a hand); ``low_qualifier``: False
    where the text names no qualifier for the ``low`` half (South Dakota's 12(4)).
    """

    rid: str
    hole: int
    board: int
    exact: int | None
    halves: tuple[str, ...]
    clauses: dict[str, tuple[str, ...]]  # role -> clause labels (see :func:`roles`)
    # the ruleset's interpretations and the Rules field each one's literal reading turns
    # off (:data:`READINGS`)
    interpretations: tuple[tuple[str, str | None], ...] = ()
    low_qualifier: bool = True

    def L(self, *roles: str) -> list[str]:
        """The clause labels of the named roles, in order, without repeats."""
        out: list[str] = []
        for role in roles:
            for label in self.clauses.get(role, ()):
                if label not in out:
                    out.append(label)
        return out


def pot_game(
    rid: str,
    hole: int,
    board: int,
    exact: int | None,
    halves: tuple[str, ...],
    roles: dict[str, tuple[str, ...]],
    low_qualifier: bool = True,
) -> PotGame:
    """The game of ruleset ``rid``; ``roles`` names the clauses of each role (``select``:
    how a hand is made; ``split``: how a pot is split; ``low``: the low ranking; ``cards``:
    the card order), each checked against the ruleset file, which also gives the
    interpretations."""
    rs = get_ruleset(rid)
    for labels in roles.values():
        for label in labels:
            if not rs.has_clause(label):
                raise AssertionError(f"{rid} has no clause {label!r}")
    unknown = [i for i in rs.interpretations if i not in READINGS]
    if unknown:
        raise AssertionError(f"{rid}: the pot arithmetic does not model {unknown}")
    return PotGame(
        rid,
        hole,
        board,
        exact,
        halves,
        roles,
        tuple((i, READINGS[i]) for i in rs.interpretations),
        low_qualifier,
    )


HIGH_NAMES = {
    8: CategoryName.STRAIGHT_FLUSH,
    7: CategoryName.FOUR_OF_A_KIND,
    6: CategoryName.FULL_HOUSE,
    5: CategoryName.FLUSH,
    4: CategoryName.STRAIGHT,
    3: CategoryName.THREE_OF_A_KIND,
    2: CategoryName.TWO_PAIR,
    1: CategoryName.ONE_PAIR,
    0: CategoryName.HIGH_CARD,
}


def high_name(value: tuple[int, ...]) -> str:
    """The category name of a high value (a straight flush to the ace is royal)."""
    return CategoryName.ROYAL_FLUSH if value[:2] == (8, A) else HIGH_NAMES[value[0]]


def deciding(g: PotGame, holes: Sequence[Sequence[Card]], board: Sequence[Card]) -> list[str]:
    """The clauses that decide this deal's pot (practice readings): for each half, the
    winning category's clause, the category order when a rival has another category,
    the tie rule when a rival has the same one (or the half is split)."""
    rs = get_ruleset(g.rid)
    out: list[str] = []
    for half in g.halves:
        values = [best(g, half, h, board) for h in holes]
        present = [v for v in values if v is not None]
        if not present:
            continue
        top = max(present)
        if half == "high":
            names = [high_name(v) for v in present]
            won = high_name(top)
        else:
            names = [LOW_NAMES[-v[0]] for v in present]
            won = LOW_NAMES[-top[0]]
        if half != "low":  # the low half of a split game ranks by its own rules
            out.append(rs.category(won).clause)
        rivals = [n for v, n in zip(present, names, strict=True) if v != top]
        if any(n != won for n in rivals):
            out.extend(rs.order_clauses if half != "low" else g.clauses.get("low", ()))
            if half == "razz":  # the order of the low categories: each one it passes
                out.extend(rs.category(n).clause for n in dict.fromkeys(rivals))
        if any(n == won for n in rivals) or present.count(top) > 1:
            out.extend(rs.tiebreak_clauses if half != "low" else g.clauses.get("low", ()))
    return out


# --------------------------------------------------------------------------- arithmetic


def parse(text: str) -> list[Card]:
    return [(RANK_CHARS.index(t[0]) + 2, t[1]) for t in text.split()]


def text_of(cards: Sequence[Card]) -> str:
    return hand_of([RANK_CHARS[r - 2] + s for r, s in cards])


@dataclass(frozen=True)
class Rules:
    """One choice of readings, as the arithmetic applies them (every field True: the
    practice reading of each interpretation; :data:`READINGS` maps the catalogue's
    interpretations to the field their literal reading turns off)."""

    grouped: bool = True  # identical-rank-tiebreak: groups first, else card by card
    worst_first: bool = True  # low-card-order: compare lows from the highest card down
    aces_best_pair: bool = True  # low-pair-inverse: A-A is the best low pair
    board_plays: bool = True  # board-plays: the board alone may be a hold'em hand
    exact_two: bool = True  # omaha-two-hole-cards: exactly two hole cards
    qualifier: bool = True  # low-qualifier: eight or better, else no low
    shared_cards: bool = True  # same-cards-both-halves: one five may win both halves
    a5_low: bool = True  # sd-low-order: straights and flushes do not count in a low


PRACTICE = Rules()
# interpretation id -> the Rules field its literal reading sets to False (None: no
# reading changes a pot; suits never break a tie under either reading)
READINGS: dict[str, str | None] = {
    "identical-rank-tiebreak": "grouped",
    "low-card-order": "worst_first",
    "low-pair-inverse": "aces_best_pair",
    "board-plays": "board_plays",
    "omaha-two-hole-cards": "exact_two",
    "low-qualifier": "qualifier",
    "same-cards-both-halves": "shared_cards",
    "suits-equal": None,
    "sd-low-order": "a5_low",
}


@cache
def _high(ranks: tuple[int, ...], flush: bool, grouped: bool) -> tuple[int, ...]:
    groups = sorted(Counter(ranks).items(), key=lambda rc: (-rc[1], -rc[0]))
    shape = [n for _, n in groups]
    top = None
    if len(set(ranks)) == 5:
        if ranks[0] - ranks[4] == 4:
            top = ranks[0]
        elif ranks == (A, 5, 4, 3, 2):
            top = 5
    if top and flush:
        return (8, top)
    if top and not flush:
        return (4, top)
    if shape[0] == 4:
        cat = 7
    elif shape[:2] == [3, 2]:
        cat = 6
    elif flush:
        return (5, *ranks)
    else:
        cat = {3: 3, 2: 2 if shape[:2] == [2, 2] else 1, 1: 0}[shape[0]]
    return (cat, *(r for r, _ in groups)) if grouped else (cat, *ranks)


def high_value(five: Sequence[Card], rules: Rules = PRACTICE) -> tuple[int, ...]:
    """The textbook value of five cards, high: category 8 (straight flush) .. 0 (no
    pair), then the ranks that break ties: the groups first (quads, trips, pairs) and
    then the kickers from the top down; card by card under the literal reading of
    identical-rank-tiebreak (straights always by their top card, A-2-3-4-5 five-high).
    Larger is better."""
    ranks = tuple(sorted((r for r, _ in five), reverse=True))
    return _high(ranks, len({s for _, s in five}) == 1, rules.grouped)


def low_value(
    five: Sequence[Card], qualify: bool, rules: Rules = PRACTICE
) -> tuple[int, ...] | None:
    """The value of five cards for ace-to-five low (larger is better; straights and
    flushes do not count; the ace is one; under the literal sd-low-order, ``a5_low``
    False, they count as 20:18:16:03 lists them, reversed: :data:`.pot_lows.LOW_NAMES_ALL`).  With
    ``qualify``: None unless five unpaired cards of eight or lower (eight or better).
    Pairs count against a hand: fewer matched cards first, then the matched ranks (A-A
    the best pair; the worst under the literal low-pair-inverse), then the other cards
    from the highest down, the lower better (from the lowest up under the literal
    low-card-order)."""
    ranks = tuple(sorted(1 if r == A else r for r, _ in five))
    flush = len({s for _, s in five}) == 1
    return low_key(
        ranks,
        qualify and rules.qualifier,
        rules.worst_first,
        rules.aces_best_pair,
        flush,
        rules.a5_low,
    )


def fives(
    g: PotGame, hole: Sequence[Card], board: Sequence[Card], rules: Rules = PRACTICE
) -> list[tuple[Card, ...]]:
    """Every five-card hand the game lets a player make: any five of the cards (at
    least one hole card under the literal board-plays), or exactly ``g.exact`` hole
    cards (any five under the literal omaha-two-hole-cards)."""
    if g.exact is None or not rules.exact_two:
        least = 0 if rules.board_plays or not board else 1
        return [
            f for f in combinations([*hole, *board], 5) if sum(1 for c in f if c in hole) >= least
        ]
    k = g.exact
    return [h + b for h in combinations(hole, k) for b in combinations(board, 5 - k)]


class Player:
    """One player's cards and every five-card hand of them, valued once per reading."""

    def __init__(self, g: PotGame, hole: Sequence[Card], board: Sequence[Card]) -> None:
        self.g, self.hole, self.board = g, hole, board
        self._fives: dict[
            tuple[bool, bool], list[tuple[tuple[int, ...], bool, tuple[int, ...]]]
        ] = {}
        self._best: dict[tuple[Any, ...], tuple[int, ...] | None] = {}

    def hands(self, rules: Rules) -> list[tuple[tuple[int, ...], bool, tuple[int, ...]]]:
        """(high ranks, flush, low ranks) of every five the selection rule allows."""
        mode = (rules.exact_two, rules.board_plays)
        found = self._fives.get(mode)
        if found is None:
            found = self._fives[mode] = [
                (
                    tuple(sorted((r for r, _ in f), reverse=True)),
                    len({s for _, s in f}) == 1,
                    tuple(sorted(1 if r == A else r for r, _ in f)),
                )
                for f in fives(self.g, self.hole, self.board, rules)
            ]
        return found

    def best(self, half: str, rules: Rules) -> tuple[int, ...] | None:
        """The best value for ``half`` (None: no hand qualifies for it).  Under the
        literal same-cards-both-halves, a low may not be any five that make the best
        high hand."""
        sel = (rules.exact_two, rules.board_plays)
        key: tuple[Any, ...] = (
            (half, *sel, rules.grouped)
            if half == "high"
            else (
                half,
                *sel,
                rules.qualifier,
                rules.worst_first,
                rules.aces_best_pair,
                rules.shared_cards,
                rules.shared_cards or rules.grouped,
                rules.a5_low,
            )
        )
        if key in self._best:
            return self._best[key]
        hands = self.hands(rules)
        if half == "high":
            found: tuple[int, ...] | None = max(_high(r, f, rules.grouped) for r, f, _ in hands)
        else:
            if half == "low" and not rules.shared_cards and "high" in self.g.halves:
                top = self.best("high", rules)
                hands = [h for h in hands if _high(h[0], h[1], rules.grouped) != top]
            qualify = half == "low" and rules.qualifier and self.g.low_qualifier
            values = [
                v
                for _, flush, low in hands
                if (
                    v := low_key(
                        low, qualify, rules.worst_first, rules.aces_best_pair, flush, rules.a5_low
                    )
                )
                is not None
            ]
            found = max(values, default=None)
        self._best[key] = found
        return found


def best(
    g: PotGame, half: str, hole: Sequence[Card], board: Sequence[Card], rules: Rules = PRACTICE
) -> tuple[int, ...] | None:
    """The best value of one player's cards for ``half`` (None: none qualifies)."""
    return Player(g, hole, board).best(half, rules)


def pot_expect(pot: Pot) -> dict[str, Any]:
    """A settled pot as a showdown vector's expectation: the winners of each half (an
    empty low when none is awarded) and each hand's share as text."""
    return {
        "high": list(pot.high),
        "low": list(pot.low or ()),
        "shares": [share_text(s) for s in pot.shares],
    }


def settle(
    g: PotGame,
    holes: Sequence[Sequence[Card]],
    board: Sequence[Card],
    rules: Rules = PRACTICE,
    players: Sequence[Player] | None = None,
) -> Pot:
    """The pot split as the rules say: each half that some hand qualifies for gets an
    equal part of the pot, shared equally by the hands that tie for it.  The generator's
    own arithmetic, never the reference's; only the data class is the engine's
    (:class:`~pokercert.reference.engine.Pot`: ``low`` None when none is awarded)."""
    if players is None:
        players = [Player(g, h, board) for h in holes]
    winners: dict[str, list[int]] = {}
    for half in g.halves:
        values = [p.best(half, rules) for p in players]
        top = max((v for v in values if v is not None), default=None)
        winners[half] = [] if top is None else [i for i, v in enumerate(values) if v == top]
    awarded = [h for h in g.halves if winners[h]]
    shares = [Fraction(0)] * len(holes)
    for half in awarded:
        for i in winners[half]:
            shares[i] += Fraction(1, len(awarded) * len(winners[half]))
    low = winners.get("low", winners.get("razz", []))
    return Pot(tuple(winners.get("high", [])), tuple(low) or None, tuple(shares))


def by_reading(
    g: PotGame, holes: Sequence[Sequence[Card]], board: Sequence[Card]
) -> tuple[Pot, str | None, Pot | None]:
    """The pot under the practice readings and, when exactly one interpretation of the
    game changes it, that interpretation and its literal pot.  Every combination of the
    game's readings is settled; raises :class:`Ambiguous` when the pot depends on more
    than one interpretation (such a deal makes no single vector)."""
    players = [Player(g, h, board) for h in holes]
    practice = settle(g, holes, board, players=players)
    fields = [(iid, f) for iid, f in g.interpretations if f is not None]
    outcomes = {}
    for combo in product((True, False), repeat=len(fields)):
        rules = replace(PRACTICE, **{f: on for (_, f), on in zip(fields, combo, strict=True)})
        outcomes[combo] = settle(g, holes, board, rules, players)
    deciding = [
        i
        for i in range(len(fields))
        if any(outcomes[c] != outcomes[(*c[:i], not c[i], *c[i + 1 :])] for c in outcomes)
    ]
    if not deciding:
        return practice, None, None
    if len(deciding) > 1:
        raise Ambiguous([fields[i][0] for i in deciding])
    (i,) = deciding
    literal = tuple(j != i for j in range(len(fields)))
    # the pot is a function of that one reading alone
    if any(outcomes[c] != (practice if c[i] else outcomes[literal]) for c in outcomes):
        raise Ambiguous([fields[i][0]])
    return practice, fields[i][0], outcomes[literal]


class Ambiguous(PokercertError):
    """The pot of a deal depends on more than one interpretation's reading."""


# --------------------------------------------------------------------------- dealing


class Dealer:
    """Cards from one deck: named cards first, then seeded random ones avoiding a rule."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.used: set[Card] = set()

    def take(self, cards: Sequence[Card]) -> list[Card]:
        for c in cards:
            if c in self.used:
                raise AssertionError(f"card {text_of([c])} dealt twice")
            self.used.add(c)
        return list(cards)

    def free(self, ok: Callable[[Card], bool] = lambda c: True) -> list[Card]:
        return [
            (r, s) for r in range(2, 15) for s in SUITS if (r, s) not in self.used and ok((r, s))
        ]

    def draw(self, n: int, ok: Callable[[Card], bool] = lambda c: True) -> list[Card]:
        pool = self.free(ok)
        if len(pool) < n:
            raise AssertionError("the deck ran out of cards that fit the construction")
        return self.take(self.rng.sample(pool, n))


def record(
    g: PotGame,
    holes: Sequence[Sequence[Card]],
    board: Sequence[Card],
    roles_: Sequence[str],
    flags: list[str],
    why: str,
    tag: str | None = None,
) -> dict[str, Any]:
    """A showdown vector with the pot this module's arithmetic settles (one expectation
    per reading when one interpretation changes it; :class:`Ambiguous` for more).
    ``tag``: an interpretation the deal is about although its readings agree on it
    (suits-equal: both readings say suits never break a tie), written per reading."""
    practice, interp, literal = by_reading(g, holes, board)
    if interp is None and tag is not None:
        interp, literal = tag, practice
    clauses = list(dict.fromkeys([*g.L("select", *roles_), *deciding(g, holes, board)]))
    inputs: dict[str, Any] = {"hands": [text_of(h) for h in holes]}
    if g.board:
        inputs["board"] = text_of(board)
    if interp is None or literal is None:
        return make_record("showdown", inputs, clauses, flags, why, expect=pot_expect(practice))
    return make_record(
        "showdown",
        inputs,
        clauses,
        flags,
        why,
        interp=interp,
        by_reading={"practice": pot_expect(practice), "literal": pot_expect(literal)},
    )


def seats(holes: list[list[Card]], rng: random.Random) -> list[list[Card]]:
    """The hands in a seeded order, so no evaluator passes by favouring a seat."""
    out = list(holes)
    rng.shuffle(out)
    return out


# --------------------------------------------------------------------------- constructions

Dealt = tuple[list[list[Card]], list[Card]]


@dataclass(frozen=True)
class Construction:
    """One kind of deal: ``build`` deals it from a seeded :class:`Dealer`, ``holds`` is
    the property the construction promises (checked on the settled pot and the deal;
    a draw without it is dealt again), ``why`` the reason a reader can check by hand."""

    topic: str
    roles: tuple[str, ...]
    flags: tuple[str, ...]
    why: str
    build: Callable[[Dealer], Dealt]
    holds: Callable[[Dealt, Pot], bool]
    count: int
    tag: str | None = None  # an interpretation to name per reading (see :func:`record`)


def family(g: PotGame, constructions: Sequence[Construction], seed: int) -> list[dict[str, Any]]:
    """The vectors of ``constructions``, ``count`` deals each, from a fixed seed."""
    out = []
    for ci, con in enumerate(constructions):
        made = 0
        for attempt in range(400 * con.count):
            if made == con.count:
                break
            dealer = Dealer(seed * 100_003 + ci * 10_007 + attempt)
            try:
                holes, board = con.build(dealer)
            except AssertionError:  # the deck ran short for this draw: deal again
                continue
            # the property speaks of the hands as built (the constructed one first)
            if not con.holds((holes, board), settle(g, holes, board)):
                continue
            holes = seats(holes, dealer.rng)
            try:
                out.append(record(g, holes, board, con.roles, list(con.flags), con.why, con.tag))
            except Ambiguous:  # the pot hangs on two readings: deal again
                continue
            made += 1
        if made < con.count:
            raise AssertionError(
                f"{g.rid} {con.topic}: only {made} of {con.count} deals of "
                f"'{con.why}' could be built"
            )
    return out


def low_card(c: Card) -> bool:
    return c[0] <= 8 or c[0] == A


def ranked(ranks: Sequence[int], dealer: Dealer, spread: bool = True) -> list[Card]:
    """One card of each rank, suits chosen so that no three share a suit (with
    ``spread``): such cards make no flush with two more."""
    out: list[Card] = []
    for r in ranks:
        counts = Counter(s for _, s in out)
        suits = [s for s in SUITS if (r, s) not in dealer.used and (not spread or counts[s] < 2)]
        if not suits:
            raise AssertionError(f"no card of rank {r} fits")
        dealer.rng.shuffle(suits)
        out.extend(dealer.take([(r, suits[0])]))
    return out


def players(
    dealer: Dealer, n: int, size: int, ok: Callable[[Card], bool] = lambda c: True
) -> list[list[Card]]:
    return [dealer.draw(size, ok) for _ in range(n)]


def differs(g: PotGame, other: PotGame) -> Callable[[Dealt, Pot], bool]:
    """The deal settles differently under ``other`` (a plausible mistake of the rule)."""

    def holds(deal: Dealt, pot: Pot) -> bool:
        return settle(other, deal[0], deal[1]) != pot

    return holds


def every_tie(deal: Dealt, pot: Pot) -> bool:
    return pot.high == tuple(range(len(deal[0])))


def no_low(deal: Dealt, pot: Pot) -> bool:
    return not pot.low


def some(*checks: Callable[[Dealt, Pot], bool]) -> Callable[[Dealt, Pot], bool]:
    return lambda deal, pot: all(c(deal, pot) for c in checks)
