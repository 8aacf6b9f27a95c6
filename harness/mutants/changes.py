"""The building blocks of mutants: each function returns one :class:`Change`.

They are small on purpose: a mutant is the reference plus exactly one mistake, so each
block perturbs one thing and leaves every other step of the engine as it is.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from pokercert.harness.mutants.model import (
    Change,
    KnobProfile,
    compose,
    replace_ruleset,
    with_categories,
)
from pokercert.reference.cards import (
    JOKER,
    JOKER_RANK,
    SUIT_CHARS,
    WRONG_COUNT,
    Card,
    CardError,
    parse_card,
    parse_cards,
)
from pokercert.reference.categories import CategoryName
from pokercert.reference.engine import BestHand, Evaluator, HandValue, Steps
from pokercert.reference.pai_gow import BANKER, PLAYER, LowKey, PaiGow
from pokercert.reference.rulesets import Ruleset

ACE, KING, QUEEN, JACK = 14, 13, 12, 11
STRAIGHTS = frozenset(
    {
        CategoryName.ROYAL_FLUSH,
        CategoryName.ROYAL_STRAIGHT_FLUSH,
        CategoryName.STRAIGHT_FLUSH,
        CategoryName.STRAIGHT,
    }
)

# the five-card high order, which implementers copy into games that have their own
FIVE_CARD_HIGH_ORDER = (
    CategoryName.FIVE_OF_A_KIND,
    CategoryName.ROYAL_FLUSH,
    CategoryName.ROYAL_STRAIGHT_FLUSH,
    CategoryName.STRAIGHT_FLUSH,
    CategoryName.PAIR_OF_ACES,
    CategoryName.FOUR_OF_A_KIND,
    CategoryName.FULL_HOUSE,
    CategoryName.FLUSH,
    CategoryName.STRAIGHT,
    CategoryName.THREE_OF_A_KIND,
    CategoryName.TWO_PAIR,
    CategoryName.ONE_PAIR,
    CategoryName.HIGH_CARD,
)


# --------------------------------------------------------------------- rules as data
def knobs(**overrides: Any) -> Change:
    """Override engine knobs (``straight_ace``, ``ace``, ``tiebreak``, ...)."""
    return Change(knobs=overrides)


def categories(edit: Callable[[list[str], Ruleset], Sequence[str]]) -> Change:
    """Rank the categories as ``edit(ranking, ruleset)`` says (best first).

    ``ranking`` is the order the reference uses under the chosen readings.  Names left
    out are categories the evaluator does not know (their hands fall to the next shape
    it tests); names added are categories the ruleset does not have.
    """
    return Change(categories=edit)


def swap(a: str, b: str) -> Change:
    """Categories ``a`` and ``b`` trade places."""

    def edit(names: list[str], rs: Ruleset) -> list[str]:
        i, j = names.index(a), names.index(b)
        names[i], names[j] = names[j], names[i]
        return names

    return categories(edit)


def without(*dropped: str) -> Change:
    """The evaluator does not know these categories (hands fall to the next shape)."""
    return categories(lambda names, rs: [n for n in names if n not in dropped])


def order_like(order: Sequence[str]) -> Change:
    """The ranked categories sorted as in ``order`` (a copy of another game's order)."""
    return categories(lambda names, rs: [n for n in order if n in names])


def per_ruleset_order(orders: Mapping[str, Sequence[str]]) -> Change:
    """An explicit (wrong) category list for each ruleset."""
    return categories(lambda names, rs: orders[rs.id])


def selection(*, min_hole: int) -> Change:
    """Change the hold'em selection's ``min_hole``."""

    def apply(rs: Ruleset) -> Ruleset:
        assert rs.selection is not None, f"{rs.id} has no selection"
        return replace_ruleset(rs, selection=dataclasses.replace(rs.selection, min_hole=min_hole))

    return Change(ruleset=apply)


def qualifier_minimum(minimums: Mapping[str, str]) -> Change:
    """The dealer qualifier's lowest qualifying hand replaced, per ruleset."""

    def apply(rs: Ruleset) -> Ruleset:
        assert rs.qualifier is not None, f"{rs.id} has no qualifier"
        return replace_ruleset(
            rs, qualifier=dataclasses.replace(rs.qualifier, minimum=minimums[rs.id])
        )

    return Change(ruleset=apply)


def qualifier_strict() -> Change:
    """The qualifier asks for a hand better than its minimum, not at least the minimum."""

    def wrap(orig: Callable[..., bool], ev: Evaluator) -> Callable[..., bool]:
        def qualifies(cards: Any) -> bool:
            hand = ev.parse_hand(cards)
            return ev.value(hand).key > ev.qualifying_key()

        return qualifies

    return patch(lambda s: replace(s, qualifies=wrapped(s.qualifies, wrap)))


def deck_jokers(count: int, **wild_knobs: str) -> Change:
    """The deck holds ``count`` jokers (0: jokers are refused)."""
    return Change(
        ruleset=lambda rs: replace_ruleset(rs, jokers=count, wild="joker" if count else None),
        knobs=wild_knobs,
    )


def reason_code(code: str) -> Change:
    """Every refusal carries ``code``, whatever the problem was."""
    return Change(reason=lambda _: code)


# --------------------------------------------------------------------- patched steps
# a step's binder (a field of Steps: the engine -> its step) and a step's wrapper
# (the step as composed so far, the engine -> the mutant's step)
Binder = Callable[[Evaluator], Callable[..., Any]]
Wrap = Callable[[Callable[..., Any], Evaluator], Callable[..., Any]]


def patch(edit: Callable[[Steps], Steps]) -> Change:
    """Change the engine's composition: ``edit(steps)`` names the steps it replaces as
    fields, ``lambda s: replace(s, value=wrapped(s.value, wrap))``, so a step the engine
    no longer has fails mypy and the mutant's construction."""
    return Change(steps=edit)


def wrapped(bind: Binder, wrap: Wrap) -> Binder:
    """The binder of a step wrapped: ``wrap(the step as bound before, engine)``."""
    return lambda ev: wrap(bind(ev), ev)


def sibling(ev: Evaluator, *changes: Change) -> Evaluator:
    """Another engine for the same ruleset and profile, with ``changes`` composed in."""
    assert all(change.steps is not None for change in changes)
    return Evaluator(ev.ruleset, ev.profile, steps=compose(changes))


def _face(rank: int, ev: Evaluator) -> int:
    """How a single card's rank enters the key: what every kicker mutant reorders."""
    if ev.rules["direction"] == "low":
        return -(1 if rank == ACE and ev.rules["ace"] == "low" else rank)
    return 1 if rank == ACE and ev.rules["ace"] == "low" else rank


def run_top(fn: Callable[[int | None, tuple[int, ...], Evaluator], int | None]) -> Change:
    """Patch straight detection: ``fn(reference_top, sorted_ranks, engine)``."""

    def wrap(orig: Callable[..., Any], ev: Evaluator) -> Callable[..., Any]:
        return lambda ranks: fn(orig(ranks), ranks, ev)

    return patch(lambda s: replace(s, run_top=wrapped(s.run_top, wrap)))


def tiebreak(fn: Callable[[tuple[int, ...], list[tuple[int, int]]], tuple[int, ...]]) -> Change:
    """Patch the grouped tie-break: ``fn(reference_tail, groups)`` (groups: rank, count)."""

    def wrap(orig: Callable[..., Any], ev: Evaluator) -> Callable[..., Any]:
        return lambda groups: fn(orig(groups), groups)

    return patch(lambda s: replace(s, tiebreak=wrapped(s.tiebreak, wrap)))


def classified(fn: Callable[[str, tuple[int, ...]], tuple[str, tuple[int, ...]]]) -> Change:
    """Post-process every natural hand's (category, key)."""

    def wrap(orig: Callable[..., Any], ev: Evaluator) -> Callable[..., Any]:
        return lambda ranks, sc: fn(*orig(ranks, sc))

    return patch(lambda s: replace(s, classify=wrapped(s.classify, wrap)))


def before_natural(fn: Callable[[tuple[Card, ...]], tuple[Card, ...]]) -> Change:
    """Transform the cards (wilds already substituted) before they are classified."""

    def wrap(orig: Callable[..., Any], ev: Evaluator) -> Callable[..., Any]:
        return lambda hand: orig(fn(tuple(hand)))

    return patch(lambda s: replace(s, natural=wrapped(s.natural, wrap)))


def remap_ranks(mapping: Mapping[int, int]) -> Change:
    """A rank table typo: cards of one rank are valued as another."""

    def wrap(orig: Callable[..., HandValue], ev: Evaluator) -> Callable[..., HandValue]:
        def value(hand: tuple[Card, ...]) -> HandValue:
            seen = tuple(
                c if c.is_joker else Card(mapping.get(c.rank, c.rank), c.suit) for c in hand
            )
            return orig(seen)._replace(cards=hand)

        return value

    return patch(lambda s: replace(s, value=wrapped(s.value, wrap)))


# --------------------------------------------------------------------- order-dependent
def _in_dealt_sequence(ranks: Sequence[int]) -> bool:
    """True if the ranks, as dealt, step by one up or down (ace at either end)."""
    for ace in (ACE, 1):
        seq = [ace if r == ACE else r for r in ranks]
        steps = {b - a for a, b in itertools.pairwise(seq)}
        if steps in ({1}, {-1}):
            return True
    return False


def straight_only_in_dealt_order() -> Change:
    """Straights are found only when the cards arrive in sequence order."""

    def wrap(orig: Callable[..., HandValue], ev: Evaluator) -> Callable[..., HandValue]:
        blind = sibling(ev, run_top(lambda top, ranks, e: None))

        def value(hand: tuple[Card, ...]) -> HandValue:
            v = orig(hand)
            if (
                v.category not in STRAIGHTS
                or any(c.is_joker for c in hand)
                or _in_dealt_sequence([c.rank for c in hand])
            ):
                return v
            return blind.value(hand)

        return value

    return patch(lambda s: replace(s, value=wrapped(s.value, wrap)))


def kickers_in_dealt_order() -> Change:
    """Unmatched cards are compared in the order dealt, not from the highest down."""

    def wrap(orig: Callable[..., HandValue], ev: Evaluator) -> Callable[..., HandValue]:
        def value(hand: tuple[Card, ...]) -> HandValue:
            v = orig(hand)
            if (
                v.category in STRAIGHTS
                or any(c.is_joker for c in hand)
                or ev.rules["tiebreak"] != "grouped"
            ):
                return v
            counts = Counter(c.rank for c in hand)
            singles = [c.rank for c in hand if counts[c.rank] == 1]
            matched = sum(1 for n in counts.values() if n > 1)
            if len(singles) < 2 or len(v.key) != 1 + matched + len(singles):
                return v
            tail = tuple(_face(r, ev) for r in singles)
            return v._replace(key=v.key[: 1 + matched] + tail)

        return value

    return patch(lambda s: replace(s, value=wrapped(s.value, wrap)))


def flush_ignores_last_card() -> Change:
    """The flush test loops over all cards but the last (an off-by-one)."""

    def fn(hand: tuple[Card, ...]) -> tuple[Card, ...]:
        if len(hand) > 1 and len({c.suit for c in hand[:-1]}) == 1:
            return (*hand[:-1], Card(hand[-1].rank, hand[0].suit))
        return hand

    return before_natural(fn)


# --------------------------------------------------------------------- wild cards
def wild_always_ace() -> Change:
    """A wild card is always an ace (the first one not held), never the best card."""

    def wrap(orig: Callable[..., HandValue], ev: Evaluator) -> Callable[..., HandValue]:
        def wild_value(hand: tuple[Card, ...], wilds: int) -> HandValue:
            naturals = tuple(c for c in hand if not (c.is_joker or ev.is_wild(c)))
            free = [Card(ACE, s) for s in SUIT_CHARS if Card(ACE, s) not in naturals]
            subs = tuple((free + [Card(ACE, SUIT_CHARS[0])] * wilds)[:wilds])
            category, key = ev.steps.natural(ev)(naturals + subs)
            return HandValue(category, key, hand, naturals + subs)

        return wild_value

    return patch(lambda s: replace(s, wild_value=wrapped(s.wild_value, wrap)))


def wild_designation(wild: str | None) -> Change:
    """The posting read as another designation (None: no card is wild)."""
    return Change(ruleset=lambda rs: replace_ruleset(rs, wild=wild))


def wild_resolved_by(ruleset_id: str) -> Change:
    """Wild cards are chosen to make the best hand of another game (e.g. high poker)."""

    def wrap(orig: Callable[..., HandValue], ev: Evaluator) -> Callable[..., HandValue]:
        from pokercert.reference.rulesets import get_ruleset

        other = Evaluator(get_ruleset(ruleset_id), ev.profile)

        def wild_value(hand: tuple[Card, ...], wilds: int) -> HandValue:
            played = other.value(hand).played
            category, key = ev.steps.natural(ev)(played)
            return HandValue(category, key, hand, played)

        return wild_value

    return patch(lambda s: replace(s, wild_value=wrapped(s.wild_value, wrap)))


# --------------------------------------------------------------------- hold'em selection
def best_from_single_hole_card() -> Change:
    """The best hand is searched with exactly one hole card, never both."""

    def wrap(orig: Callable[..., BestHand], ev: Evaluator) -> Callable[..., BestHand]:
        def best(hole: tuple[Card, ...], board: tuple[Card, ...], *half: str) -> BestHand:
            if not board:  # a hand dealt whole (no community cards): nothing to choose
                return orig(hole, board, *half)
            found = [b for card in hole if (b := orig((card,), board, *half)) is not None]
            return max(found, key=lambda b: b.value.key)

        return best

    return patch(lambda s: replace(s, best=wrapped(s.best, wrap)))


def best_by_category_only() -> Change:
    """The best hand is the first candidate of the best category (kickers not looked at)."""

    def wrap(orig: Callable[..., BestHand | None], ev: Evaluator) -> Callable[..., BestHand | None]:
        coarse = sibling(ev, classified(lambda cat, key: (cat, key[:1])))

        def best(hole: tuple[Card, ...], board: tuple[Card, ...], *half: str) -> BestHand | None:
            found = coarse.steps.best(coarse)(hole, board, *half)
            if found is None:
                return None
            chosen = ev.value(found.value.cards)
            return BestHand(chosen, (chosen.cards,))

        return best

    return patch(lambda s: replace(s, best=wrapped(s.best, wrap)))


# --------------------------------------------------------------------- showdowns
def first_winner_only() -> Change:
    """On a split only the first of the equal best hands is reported."""

    def wrap(orig: Callable[..., Any], ev: Evaluator) -> Callable[..., Any]:
        return lambda hands, board=None: orig(hands, board)[:1]

    return patch(lambda s: replace(s, winners=wrapped(s.winners, wrap)))


def winners_against_first_hand() -> Change:
    """Every hand is scored against the first hand (the dealer) instead of all others."""

    def wrap(orig: Callable[..., list[int]], ev: Evaluator) -> Callable[..., list[int]]:
        def winners(hands: Sequence[Any], board: Any = None) -> list[int]:
            values = ev.showdown(hands, board)
            beat = [i for i in range(1, len(values)) if values[i].key >= values[0].key]
            return beat or [0]

        return winners

    return patch(lambda s: replace(s, winners=wrapped(s.winners, wrap)))


# --------------------------------------------------------------------- input validation
def _items(cards: str | Iterable[str | Card]) -> list[str | Card]:
    items: list[str | Card] = list(cards.split()) if isinstance(cards, str) else list(cards)
    return items


def _each_alone(cards: str | Iterable[str | Card], jokers: int) -> tuple[Card, ...]:
    """Every card checked on its own: no duplicate test across cards."""
    return tuple(parse_cards([c], jokers=jokers)[0] for c in _items(cards))


def _counted(cards: tuple[Card, ...], count: int) -> tuple[Card, ...]:
    if len(cards) != count:
        raise CardError(WRONG_COUNT, f"expected {count} cards, got {len(cards)}")
    return cards


def _deal_sizes(ev: Evaluator, board: Any, per_hand: int | None) -> tuple[int, int]:
    sel = ev.ruleset.selection
    if per_hand is None:
        per_hand = sel.hole if (board is not None and sel) else ev.ruleset.hand_size
    return per_hand, (sel.board if sel else 0)


def _parsing(
    parse_one: Callable[[Evaluator, Any, int], tuple[Card, ...]], whole_deal: bool
) -> Change:
    """Replace hand and deal parsing by ``parse_one`` (+ an optional whole-deal check)."""

    def parse_hand(orig: Callable[..., Any], ev: Evaluator) -> Callable[..., Any]:
        return lambda cards: parse_one(ev, cards, ev.ruleset.hand_size)

    def parse_deal_of(orig: Callable[..., Any], ev: Evaluator) -> Callable[..., Any]:
        def parse_deal(
            hands: Sequence[Any], board: Any = None, per_hand: int | None = None
        ) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
            per, on_board = _deal_sizes(ev, board, per_hand)
            parsed = tuple(parse_one(ev, h, per) for h in hands)
            table = parse_one(ev, board, on_board) if board is not None else ()
            if whole_deal:
                parse_cards([c for h in parsed for c in h] + list(table), jokers=ev.ruleset.jokers)
            return parsed, table

        return parse_deal

    return patch(
        lambda s: replace(
            s,
            parse_hand=wrapped(s.parse_hand, parse_hand),
            parse_deal=wrapped(s.parse_deal, parse_deal_of),
        )
    )


def accept_duplicates() -> Change:
    """No duplicate-card test at all (within a hand or across the deal)."""
    return _parsing(
        lambda ev, cards, n: _counted(_each_alone(cards, ev.ruleset.jokers), n), whole_deal=False
    )


def accept_duplicates_across_hands() -> Change:
    """Each hand is checked on its own; the same card in two hands (or hole and board) passes."""
    return _parsing(
        lambda ev, cards, n: parse_cards(cards, jokers=ev.ruleset.jokers, count=n), whole_deal=False
    )


def accept_any_count() -> Change:
    """The number of cards is never checked (four cards can be 'four of a kind')."""
    return _parsing(
        lambda ev, cards, n: parse_cards(cards, jokers=ev.ruleset.jokers), whole_deal=True
    )


def accept_unknown_suits() -> Change:
    """Any letter is taken as a suit; only the rank is validated."""

    def lenient(item: str | Card, pos: int) -> Card:
        if isinstance(item, Card) or item.upper() in ("XX", "JK"):
            return item if isinstance(item, Card) else JOKER
        try:
            return parse_card(item, pos)
        except CardError:
            rank = parse_card(item[:-1] + SUIT_CHARS[0], pos).rank  # a bad rank still fails
            return Card(rank, item[-1].lower())

    def parse_one(ev: Evaluator, cards: Any, n: int) -> tuple[Card, ...]:
        loose = [lenient(c, i) for i, c in enumerate(_items(cards))]
        return parse_cards(loose, jokers=ev.ruleset.jokers, count=n)

    return _parsing(parse_one, whole_deal=True)


# --------------------------------------------------------------------- pots and halves
def hole_cards_used(lowest: int, highest: int) -> Change:
    """A hand may use ``lowest`` to ``highest`` hole cards (the rest from the board)."""

    def apply(rs: Ruleset) -> Ruleset:
        assert rs.selection is not None, f"{rs.id} has no selection"
        return replace_ruleset(
            rs, selection=dataclasses.replace(rs.selection, min_hole=lowest, max_hole=highest)
        )

    return Change(ruleset=apply)


def _halves(rs: Ruleset, edit: Callable[[Any], Any]) -> Ruleset:
    """``rs`` with ``edit`` applied to its low half (the other halves as they are)."""
    halves = tuple(edit(h) if h.name == "low" else h for h in rs.halves)
    assert halves != rs.halves, f"{rs.id} has no low half to change"
    return replace_ruleset(rs, halves=halves)


def qualifier_rank(max_rank: int | None) -> Change:
    """The low half's qualifier asks for cards of at most ``max_rank`` (None: no
    qualifier at all, any low wins the low half)."""

    def edit(half: Any) -> Any:
        if max_rank is None:
            return dataclasses.replace(half, qualifier=None)
        return dataclasses.replace(
            half, qualifier=dataclasses.replace(half.qualifier, max_rank=max_rank)
        )

    return Change(ruleset=lambda rs: _halves(rs, edit))


def low_ranking(change: Change) -> Change:
    """The low half ranked by an engine with ``change`` in (its own ranking ruleset's,
    or this ruleset's when the low half is the game's only one)."""

    def wrap(orig: Callable[..., Any], ev: Evaluator) -> Callable[..., Any]:
        def ranking(half: str) -> Any:
            found, qualifier = orig(half)
            if half != "low":
                return found, qualifier
            rs = found.ruleset
            if change.ruleset is not None:
                rs = change.ruleset(rs)
            knobs = dict(change.knobs)
            if change.categories is not None:
                names = change.ranking(found.rules["categories"], rs)
                rs = with_categories(rs, names)
                knobs["categories"] = names
            profile = found.profile
            other = Evaluator(
                rs, KnobProfile(profile.name, profile.choices, MappingProxyType(knobs))
            )
            return other, qualifier

        return ranking

    return patch(lambda s: replace(s, half_ranking=wrapped(s.half_ranking, wrap)))


def stud_first_five() -> Change:
    """A player's best hand is chosen from the first five of the seven cards dealt."""

    def wrap(orig: Callable[..., Any], ev: Evaluator) -> Callable[..., Any]:
        def candidates(hole: tuple[Card, ...], board: tuple[Card, ...], size: int) -> Any:
            return orig(hole[:size] if not board else hole, board, size)

        return candidates

    return patch(lambda s: replace(s, candidates=wrapped(s.candidates, wrap)))


def low_from_high_five() -> Change:
    """The low half is valued from the five cards of the player's high hand, not chosen
    separately from all the cards."""

    def wrap(orig: Callable[..., Any], ev: Evaluator) -> Callable[..., Any]:
        def best(hole: tuple[Card, ...], board: tuple[Card, ...], half: str = "high") -> Any:
            if half != "low":
                return orig(hole, board, half)
            high = orig(hole, board, "high")
            return orig(high.value.cards, (), "low")

        return best

    return patch(lambda s: replace(s, best=wrapped(s.best, wrap)))


def shares_by(settle: Callable[[dict[str, tuple[int, ...]], int], list[Fraction]]) -> Change:
    """The pot shared by ``settle(winners of each awarded half, hand count)`` instead of
    half by half in equal parts (the winners as the reference finds them)."""

    def wrap(orig: Callable[..., Any], ev: Evaluator) -> Callable[..., Any]:
        def pot(hands: Sequence[Any], board: Any = None) -> Any:
            found = orig(hands, board)
            won = {"high": found.high, "low": found.low or ()}
            won = {k: v for k, v in won.items() if v}
            return found._replace(shares=tuple(settle(won, len(found.shares))))

        return pot

    return patch(lambda s: replace(s, pot=wrapped(s.pot, wrap)))


def first_of_each_half() -> Change:
    """A tied half goes whole to the first of the tied hands (no split)."""

    def wrap(orig: Callable[..., Any], ev: Evaluator) -> Callable[..., Any]:
        def pot(hands: Sequence[Any], board: Any = None) -> Any:
            found = orig(hands, board)
            high, low = found.high[:1], (found.low[:1] if found.low else found.low)
            halves = [h for h in (high, low) if h]
            shares = [Fraction(0)] * len(found.shares)
            for h in halves:
                shares[h[0]] += Fraction(1, len(halves))
            return found._replace(high=high, low=low, shares=tuple(shares))

        return pot

    return patch(lambda s: replace(s, pot=wrapped(s.pot, wrap)))


def low_selection(lowest: int, highest: int) -> Change:
    """The low half's hand may use ``lowest`` to ``highest`` hole cards (the high half's
    selection as the ruleset says)."""

    def wrap(orig: Callable[..., Any], ev: Evaluator) -> Callable[..., Any]:
        sel = ev.ruleset.selection
        assert sel is not None
        other = Evaluator(
            replace_ruleset(
                ev.ruleset, selection=dataclasses.replace(sel, min_hole=lowest, max_hole=highest)
            ),
            ev.profile,
        )

        def best(hole: tuple[Card, ...], board: tuple[Card, ...], half: str = "high") -> Any:
            return (
                other.steps.best(other)(hole, board, half)
                if half == "low"
                else orig(hole, board, half)
            )

        return best

    return patch(lambda s: replace(s, best=wrapped(s.best, wrap)))


# --------------------------------------------------------------------------- pai gow


def pai_gow_game(edit: Callable[[PaiGow], PaiGow]) -> Change:
    """A change of a pai gow game's composition (its steps or its rules)."""
    return Change(pai_gow=edit)


def setting_ignored() -> Change:
    """Every setting is legal: the five-card hand is never held to outrank the two."""
    return pai_gow_game(
        lambda g: PaiGow(g.ev, g.rules, replace(g.steps, outranks=lambda five, two, eq: True))
    )


def copies_to(side: str) -> Change:
    """Copies (exactly equal hands) go to ``side`` instead of where the rules say."""
    return pai_gow_game(lambda g: PaiGow(g.ev, dataclasses.replace(g.rules, copies=side), g.steps))


def _joker_lowest(cards: Sequence[Card]) -> LowKey:
    """A two-card key with the joker as the lowest card of all (no ace)."""
    a, b = sorted((1 if c.rank == JOKER_RANK else c.rank for c in cards), reverse=True)
    return (1, a, b) if a == b else (0, a, b)


def two_card_joker_not_ace() -> Change:
    """In the two-card hand the joker counts below the deuce instead of as an ace."""
    return pai_gow_game(lambda g: PaiGow(g.ev, g.rules, replace(g.steps, low_key=_joker_lowest)))


def _high_hand_only(high: int, low: int) -> str:
    return PLAYER if high > 0 else BANKER


def settled_on_high_hand() -> Change:
    """The wager is settled on the five-card hands alone (the two-card hand ignored)."""
    return pai_gow_game(lambda g: PaiGow(g.ev, g.rules, replace(g.steps, verdict=_high_hand_only)))
