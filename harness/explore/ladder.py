"""The category ladder: deals that walk a game's whole ranking, every step of it once.

The situation sampler (:mod:`.situations`) draws each situation at random: two adjacent
categories are *some* pair of neighbours, a group of aces turns up when it turns up.  A
mistake that shows on one step only (a straight flush ranked above four of a kind in
four-card poker, five aces tied with five kings) is then met by chance.  The ladder
deals every step for certain, for games that rank whole hands (no board, no selection):

* **adjacent**: for every pair of categories adjacent in the game's ranking (best first,
  as :attr:`Game.makeable` has it), and every pair one apart, two hands of the pair
  compared;
* **aces**: for every category made of a group (a pair, three or four of a kind, a full
  house, two pair, five of a kind), a hand whose top group is aces against the same
  category with another top group: where the ace counts high and where it does not;
* **runs**: the wheel against the next straight up and broadway against the next one
  down, plain and suited, where the game has runs;
* **last card**: for every category with kickers (or five ranks of their own: a flush,
  a high card), two hands alike but for the last card;
* **crossed**: for every such category, a hand with the lower defining group and the
  higher rest (kickers, the full house's pair, two pair's second pair) against one with
  the higher group and the lower rest (2-2-A against 3-3-K, QQQAA against KKK22): where
  the defining group must be compared first;
* **wild tops**: in a game with wild cards, the ace-high run of each run category with a
  wild card in it, as a classify;
* **the bug's flush**: in a game whose joker is a bug (an ace, or the card that completes
  a straight or flush), a flush of the joker and a natural ace against a natural flush
  that beats it only if the joker fills the highest rank the flush lacks (not a second
  ace);
* **best hands**: in a game that chooses a best hand from hole cards and a board, one
  deal whose best hand is of each category, and of the ace-high and ace-low runs of
  each run category (broadway, the three-card royal, the wheel);
* **the wheel in a low pot**: in a low or split game, a whole pot where one player makes
  the wheel (the best low, and a straight) and the other an eight-low;
* **every hand** of a game of two-card hands (the Mini-tex pocket wager): one hand of
  every rank-and-suit pattern (a pair, two ranks suited, two ranks off-suit: 169), so
  that nothing of so small a space is left to chance.

Each step of the ladder (:func:`ladder_steps`) deals from a seed of its own, as the
sampler's deals do, so one step can be dealt again (another seed) without the others;
each deal is labelled with the situation it belongs to (``categories``,
``defining-ranks``, ``edge-wheel``, ``edge-broadway``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from itertools import combinations, pairwise

from pokercert.harness.explore.situations import (
    ACE,
    KING,
    QUEEN,
    RANKS,
    RUNS,
    TWO,
    Deal,
    Game,
    Hand,
    SeededChoices,
    category_hand,
    deal_hand,
)
from pokercert.reference import Card, format_cards
from pokercert.reference.categories import CategoryName
from pokercert.vectors.model import Kind

__all__ = ["Step", "ladder_deals", "ladder_steps"]

SMALL_HANDS = 2  # games of hands this size (or smaller) get every hand pattern


# one step of the ladder: a deal from a seed (None: none this time)
Step = Callable[[str], Deal | None]


def ladder_steps(game: Game) -> list[Step]:
    """The steps of ``game``'s ladder (see the module docstring): compares of whole hands
    where the game claims compare, best hands where it deals a board, every hand where
    it is a classify of two cards."""
    out: list[Step] = []
    if Kind.COMPARE in game.kinds:
        ranking = game.makeable
        out += [partial(_adjacent, game, a, b) for a, b in pairwise(ranking)]
        out += [partial(_adjacent, game, a, b) for a, b in zip(ranking, ranking[2:], strict=False)]
        if game.wild_rank != ACE:
            out += [partial(_aces, game, c) for c in ranking]
        out += [partial(_crossed, game, c) for c in ranking]
        out += [partial(_last_card, game, c) for c in ranking]
        out += [
            partial(_runs, game, first, second, suited)
            for first, second in _run_pairs(game)
            for suited in sorted({False, CategoryName.STRAIGHT_FLUSH in ranking})
        ]
    if Kind.CLASSIFY in game.kinds and game.wilds and game.ace_high_runs:
        out += [partial(_wild_top, game, c) for c in game.makeable if c in RUNS]
    if (
        Kind.COMPARE in game.kinds
        and game.ruleset.wild == "bug"
        and CategoryName.FLUSH in game.makeable
        and game.size == BUG_FLUSH_SIZE
    ):
        out.append(partial(_bug_flush, game))
    if Kind.BEST_HAND in game.kinds and game.selection is not None:
        out += [partial(_best_hand, game, c, shape) for c, shape in _best_targets(game)]
    if (
        Kind.SHOWDOWN in game.kinds
        and game.selection is not None
        and any(h.name == "low" for h in game.ruleset.pot_halves)
    ):
        out.append(partial(_low_wheel, game))
    if Kind.CLASSIFY in game.kinds and game.size <= SMALL_HANDS:
        out += [partial(_fixed, deal) for deal in _every_hand(game)]
    return out


def ladder_deals(game: Game, seed: int | str) -> list[Deal]:
    """Every step of ``game``'s ladder dealt once from ``seed`` (step i from
    ``f"{seed}:{i}"``)."""
    return [
        deal
        for i, step in enumerate(ladder_steps(game))
        if (deal := step(f"{seed}:{i}")) is not None
    ]


def _fixed(deal: Deal, seed: str) -> Deal:
    return deal


def _compare(a: list[Card], b: list[Card], flip: bool, situation: str) -> Deal:
    hands = [format_cards(a), format_cards(b)]
    return Deal(Kind.COMPARE, {"hands": hands[::-1] if flip else hands}, situation)


def _choices(seed: str) -> SeededChoices:
    return SeededChoices(f"pokercert-ladder:{seed}")


def _adjacent(game: Game, first: str, second: str, seed: str) -> Deal:
    ch = _choices(seed)
    deck = game.deck()
    a = deal_hand(ch, deck, category_hand(ch, game, first, wild_cap=1, deck=deck))
    b = deal_hand(ch, deck, category_hand(ch, game, second, wild_cap=1, deck=deck))
    return _compare(a, b, ch.index(2) == 1, "categories")


def _aces(game: Game, category: str, seed: str) -> Deal | None:
    ch = _choices(seed)
    deck = game.deck()
    hand = category_hand(ch, game, category, wild_cap=1)
    if not hand.groups:
        return None
    top, size = hand.groups[0]
    # the top group made aces; an ace elsewhere in the hand takes the old top rank
    groups = ((ACE, size), *((top if r == ACE else r, n) for r, n in hand.groups[1:]))
    kickers = tuple(top if r == ACE else r for r in hand.kickers)
    a = deal_hand(ch, deck, Hand(groups, kickers, hand.suited, hand.wilds))
    b = deal_hand(ch, deck, category_hand(ch, game, category, wild_cap=1, deck=deck))
    return _compare(a, b, ch.index(2) == 1, "defining-ranks")


def _run_pairs(game: Game) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The wheel and the next straight up, broadway and the next one down."""
    n = game.size
    if n < 2 or not game.has_runs:
        return []

    def run(top: int) -> tuple[int, ...]:
        return (ACE, *range(n, 1, -1)) if top == n else tuple(range(top, top - n, -1))

    pairs = []
    if game.ace_low_runs:
        pairs.append((run(n), run(n + 1)))
    if game.ace_high_runs:
        pairs.append((run(ACE), run(ACE - 1)))
    return pairs


def _runs(
    game: Game, first: tuple[int, ...], second: tuple[int, ...], suited: bool, seed: str
) -> Deal:
    ch = _choices(seed)
    deck = game.deck()
    distinct = game.distinct_straights and not suited
    a = deal_hand(ch, deck, Hand((), first, suited, distinct=distinct))
    b = deal_hand(ch, deck, Hand((), second, suited, distinct=distinct))
    wheel = first[0] == ACE and first[1] == game.size
    return _compare(a, b, ch.index(2) == 1, "edge-wheel" if wheel else "edge-broadway")


def _crossed(game: Game, category: str, seed: str) -> Deal | None:
    ch = _choices(seed)
    ranks = [r for r in sorted(RANKS) if r != game.wild_rank]
    shape = category_hand(ch, game, category, wild_cap=0)
    sizes = [size for _, size in shape.groups]
    k = len(shape.kickers)
    if not sizes or shape.wilds or (len(sizes) == 1 and not k):
        return None
    # the decided part at t (lower) and t + 1; the rest around it, crossed
    low_rest = ranks[: k + len(sizes) - 1]
    high_rest = ranks[len(ranks) - k - len(sizes) + 1 :]
    middle = [r for r in ranks if r not in low_rest and r not in high_rest]
    if len(middle) < 2:
        return None
    t = middle[ch.index(len(middle) - 1)]
    a_groups: tuple[tuple[int, int], ...]
    b_groups: tuple[tuple[int, int], ...]
    if category == CategoryName.TWO_PAIR:  # the second pair below t
        lower = [r for r in ranks if r < t]
        a_groups = ((t, 2), (lower[-1], 2))
        b_groups = ((t + 1, 2), (ranks[0], 2))
        a_kick = tuple(r for r in reversed(ranks) if r not in (t, t + 1, lower[-1]))[:k]
        b_kick = tuple(r for r in ranks if r not in (t, t + 1, ranks[0], lower[-1]))[:k]
    elif len(sizes) == 2:  # full house: the pair crossed
        a_groups = ((t, sizes[0]), (high_rest[-1], sizes[1]))
        b_groups = ((t + 1, sizes[0]), (low_rest[0], sizes[1]))
        a_kick = b_kick = ()
    else:
        a_groups, b_groups = ((t, sizes[0]),), ((t + 1, sizes[0]),)
        a_kick = tuple(sorted(high_rest[len(high_rest) - k :], reverse=True))
        b_kick = tuple(sorted(low_rest[:k], reverse=True))
    if t + 1 not in ranks or len(a_kick) != k or len(b_kick) != k:
        return None
    deck = game.deck()
    a = deal_hand(ch, deck, Hand(a_groups, a_kick, False))
    b = deal_hand(ch, deck, Hand(b_groups, b_kick, False))
    return _compare(a, b, ch.index(2) == 1, "defining-ranks")


def _last_card(game: Game, category: str, seed: str) -> Deal | None:
    """Two hands of ``category`` alike but for their last card (the lowest kicker, or a
    flush's or high card's fifth card): where every card must be compared."""
    ch = _choices(seed)
    hand = category_hand(ch, game, category, wild_cap=0)
    if not hand.kickers or hand.wilds:
        return None
    used = set(hand.ranks)
    floor = hand.kickers[-2] if len(hand.kickers) > 1 else ACE + 1
    options = [r for r in RANKS if r not in used and r < floor and r != game.wild_rank]
    if not options:
        return None
    other = Hand(hand.groups, (*hand.kickers[:-1], options[ch.index(len(options))]), hand.suited)
    deck = game.deck()
    a = deal_hand(ch, deck, hand)
    b = deal_hand(ch, deck, other)
    return _compare(a, b, ch.index(2) == 1, f"kicker-{len(hand.kickers)}")


def _wild_top(game: Game, category: str, seed: str) -> Deal:
    """The ace-high run of a run category (broadway, a royal flush) with a wild card in
    place of one of its cards (which one drawn), as a classify: the named top hands in
    forms no public vector can have taken all of."""
    ch = _choices(seed)
    n = game.size
    ranks = list(range(ACE, ACE - n, -1))
    del ranks[ch.index(n)]
    hand = Hand((), tuple(ranks), category != CategoryName.STRAIGHT, wilds=1)
    return _classify(deal_hand(ch, game.deck(), hand))


BUG_FLUSH_SIZE = 5  # the bug's flush step deals five-card hands


def _bug_flush(game: Game, seed: str) -> Deal | None:
    """A flush of a natural ace, three other ranks and the bug, against a natural flush of
    the ranks the bug truly makes (the highest rank the flush lacks) with its lowest card
    one higher: the natural flush wins, unless the bug is read as a second ace (or as
    nothing).  None when the draw makes a straight or leaves no such rival."""
    ch = _choices(seed)
    lows = sorted((r for r in RANKS if TWO <= r < QUEEN), reverse=True)
    ranks = [ACE]
    for _ in range(3):
        ranks.append(lows.pop(ch.index(len(lows))))
    filled = max(r for r in RANKS if r not in ranks)
    made = sorted([*ranks, filled], reverse=True)
    raised = made[-1] + 1
    if raised in made:
        return None
    deck = game.deck()
    a = deal_hand(ch, deck, Hand((), tuple(sorted(ranks, reverse=True)), True, wilds=1))
    b = deal_hand(ch, deck, Hand((), (*made[:-1], raised), True))
    if {game.ev.category(format_cards(h)) for h in (a, b)} != {CategoryName.FLUSH}:
        return None
    return _compare(a, b, ch.index(2) == 1, "wild-duplicate")


def _low_wheel(game: Game, seed: str) -> Deal:
    """A whole pot of a low or split game where one player makes the wheel (the best low,
    and a straight: the high too in a split game) and the other an eight-low with a pair
    of kings or tens: the wheel scoops a split pot and wins a low one, where straights
    must not spoil a low and the same five cards may win both halves."""
    sel = game.selection
    assert sel is not None
    ch = _choices(seed)
    deck = game.deck()
    if sel.board:
        board = [3, 4, 5, KING, 9][: sel.board]
        wheel = [ACE, TWO, QUEEN, 11][: sel.hole]
        eight = [8, 6, 10, 10][: sel.hole]
    else:
        board = []
        wheel = [ACE, TWO, 3, 4, 5, KING, QUEEN][: sel.hole]
        eight = [8, 7, 6, 4, 3, KING, 11][: sel.hole]
    hands = [[deck.take(ch, r) for r in wheel], [deck.take(ch, r) for r in eight]]
    cards = [deck.take(ch, r) for r in board]
    for hand in (*hands, cards):
        for j in range(len(hand) - 1, 0, -1):
            k = ch.index(j + 1)
            hand[j], hand[k] = hand[k], hand[j]
    if ch.index(2):
        hands.reverse()
    inputs: dict[str, object] = {"hands": [format_cards(h) for h in hands]}
    if sel.board:
        inputs["board"] = format_cards(cards)
    return Deal(Kind.SHOWDOWN, inputs, "showdown-low")


TRIES = 6  # deals of a best hand before its category is given up


def _best_targets(game: Game) -> list[tuple[str, Hand | None]]:
    """Every category, and the ace-high and ace-low runs of each run category (broadway,
    a royal, the wheel)."""
    n = game.size
    targets: list[tuple[str, Hand | None]] = [(c, None) for c in game.makeable]
    runs = [c for c in game.makeable if c in (CategoryName.STRAIGHT, CategoryName.STRAIGHT_FLUSH)]
    if game.ace_high_runs:
        targets += [
            (c, Hand((), tuple(range(ACE, ACE - n, -1)), c != CategoryName.STRAIGHT)) for c in runs
        ]
    if game.ace_low_runs:
        targets += [
            (c, Hand((), (ACE, *range(n, 1, -1)), c != CategoryName.STRAIGHT)) for c in runs
        ]
    return targets


def _best_hand(game: Game, category: str, shape: Hand | None, seed: str) -> Deal | None:
    """Hole cards and a board whose best hand is of ``category`` (``shape``'s cards, or
    a hand of the category, spread at random over both, the rest drawn)."""
    sel = game.selection
    assert sel is not None
    for attempt in range(TRIES):
        ch = _choices(f"{seed}:{attempt}")
        deck = game.deck()
        cards = deal_hand(
            ch, deck, shape or category_hand(ch, game, category, wild_cap=0, deck=deck)
        )
        cards += [
            deck.take(ch, RANKS[ch.index(len(RANKS))])
            for _ in range(sel.hole + sel.board - len(cards))
        ]
        cards = cards[: sel.hole + sel.board]
        for j in range(len(cards) - 1, 0, -1):  # spread over hole and board
            k = ch.index(j + 1)
            cards[j], cards[k] = cards[k], cards[j]
        inputs = {"hole": format_cards(cards[: sel.hole])}
        if sel.board:
            inputs["board"] = format_cards(cards[sel.hole :])
        best = game.ev.best_hand(inputs["hole"], inputs.get("board"))
        if best is not None and best.category == category:
            return Deal(Kind.BEST_HAND, inputs, "categories")
    return None


def _every_hand(game: Game) -> Iterator[Deal]:
    """One two-card hand of every pattern: a pair, two ranks suited, two off-suit."""
    ranks = [r for r in RANKS if r != game.wild_rank]
    for r in ranks:
        yield _classify([Card(r, "s"), Card(r, "h")])
    for r1, r2 in combinations(ranks, 2):
        yield _classify([Card(r1, "s"), Card(r2, "s")])
        yield _classify([Card(r1, "s"), Card(r2, "h")])


def _classify(cards: list[Card]) -> Deal:
    return Deal(Kind.CLASSIFY, {"hand": format_cards(cards)}, "categories")
