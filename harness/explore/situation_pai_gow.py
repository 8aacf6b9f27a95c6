"""Pai gow situations: two-card hands, settings (legal, foul and the equal edge) and
settlements (copies among them), dealt for the kinds ``compare_two_card``, ``setting``
and ``settle`` of a pai gow ruleset.

Which rulesets are pai gow games is data (``reference/pai_gow.toml`` through
:func:`~pokercert.reference.pai_gow.pai_gow_rules`); the deck is the ruleset's (the joker
``Xx`` where it has one).  A banker is always set legally (no text says how a banker's
foul settles: the reference refuses it), found with the reference's own setting rule
under the profile's reading.  Every decision goes through a
:class:`~pokercert.vectors.dealing.Choices`, so a seeded deal replays in Hypothesis and
shrinks like any other situation (:mod:`.situations`).

These labels are dealt by fuzz only (:func:`pai_gow_labels`): the challenge deals its own
fresh pai gow hands (``harness/run/pai_gow_fresh.py``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from pokercert.reference import JOKER, Card, Evaluator
from pokercert.reference.cards import parse_cards
from pokercert.reference.pai_gow import (
    PaiGow,
    PaiGowRules,
    low_hand_label,
    low_key,
    pai_gow_rules,
)
from pokercert.vectors.dealing import (
    ACE,
    RANKS,
    Choices,
    Deal,
    Deck,
    Game,
    Hand,
    cards_text,
    coin,
    deal_hand,
    distinct_ranks,
    is_run,
    pick,
    shuffled,
)
from pokercert.vectors.model import Kind

__all__ = [
    "PAI_GOW_SITUATIONS",
    "REJECT_FAMILY",
    "REJECT_OP",
    "deal_pai_gow",
    "pai_gow_labels",
    "pai_gow_tags",
]

FAMILY = "pai-gow"
PAI_GOW_SITUATIONS: dict[str, str] = {
    "pai-gow-two-card": "two or three two-card hands, the joker in half of them, rivals "
    "copying the first (the same ranks in other suits, the joker as an ace) or a rank apart",
    "pai-gow-setting": "seven cards of one deck split at random into five and two (legal "
    "settings and fouls)",
    "pai-gow-foul": "a high-card five-card hand behind a pair or higher cards (always foul)",
    "pai-gow-setting-equal": "the five-card hand equal to the two-card hand on every card "
    "the two-card hand holds (interpretation pai-gow-setting-equal: the profile decides)",
    "pai-gow-settle": "a player's seven cards split at random against a banker set legally",
    "pai-gow-copy": "a settlement where one of the player's hands copies the banker's "
    "(the same ranks in other suits)",
    # malformed requests through the pai gow operations (situation_pai_gow_faults.py)
    "pai-gow-reject-two-card": "two-card hands with one fault: a card too many or too "
    "few, a card dealt twice, a token that is no card, a joker more than the deck holds",
    "pai-gow-reject-setting": "a setting with one fault (the same faults)",
    "pai-gow-reject-settle": "a settlement with one fault (the same faults, a card or "
    "joker in both the player's and the banker's hands among them)",
}
# the kind each label deals
LABEL_KIND: dict[str, str] = {
    "pai-gow-two-card": Kind.COMPARE_TWO_CARD,
    "pai-gow-setting": Kind.SETTING,
    "pai-gow-foul": Kind.SETTING,
    "pai-gow-setting-equal": Kind.SETTING,
    "pai-gow-settle": Kind.SETTLE,
    "pai-gow-copy": Kind.SETTLE,
}
REJECT_FAMILY = "pai-gow-reject"
# the operation each malformed request goes through (dealt where the adapter claims
# reject and that operation)
REJECT_OP: dict[str, str] = {
    "pai-gow-reject-two-card": Kind.COMPARE_TWO_CARD,
    "pai-gow-reject-setting": Kind.SETTING,
    "pai-gow-reject-settle": Kind.SETTLE,
}
TWO_CARD_SHAPES = ("random", "copy", "bump")
FIVE, TWO = 5, 2
# the settings of seven cards: which two (by position) make the two-card hand
LOW_PICKS = tuple(combinations(range(FIVE + TWO), TWO))
COPY_TRIES = 8  # banker's five-card hands drawn beside a copied two-card hand


def pai_gow_labels(game: Game, kinds: Sequence[str]) -> list[str]:
    """The pai gow labels to deal for ``game`` and the claimed ``kinds`` (none for a
    ruleset that is not a pai gow game)."""
    if pai_gow_rules(game.ruleset.id) is None:
        return []
    rejects = [label for label, op in REJECT_OP.items() if Kind.REJECT in kinds and op in kinds]
    return [label for label, kind in LABEL_KIND.items() if kind in kinds] + rejects


def deal_pai_gow(ch: Choices, game: Game, want: str | None = None) -> Deal:
    """A deal of the pai gow situation ``want`` (a copy that cannot be set legally falls
    back to a plain settlement: :func:`.situations.build` draws again)."""
    label = want if want in LABEL_KIND else pick(ch, list(LABEL_KIND))
    deck = game.deck()
    if label == "pai-gow-two-card":
        return _two_cards(ch, deck)
    if label == "pai-gow-foul":
        return _setting(*_foul(ch, game, deck), label)
    if label == "pai-gow-setting-equal":
        return _setting(*_equal(ch, game, deck), label)
    if label == "pai-gow-setting":
        seven = _cards(ch, deck, FIVE + TWO)
        return _setting(seven[:FIVE], seven[FIVE:], label)
    return _settle(ch, game, copy=label == "pai-gow-copy")


# --------------------------------------------------------------------------- cards


def _card(ch: Choices, deck: Deck, rank: int | None = None) -> Card:
    """A natural card of ``rank`` (a drawn one when None) still in ``deck``."""
    return deck.take(ch, pick(ch, RANKS) if rank is None else rank)


def _joker(deck: Deck) -> Card | None:
    """The deck's joker, None when it has none left."""
    if deck.jokers < 1:
        return None
    deck.jokers -= 1
    return JOKER


def _cards(ch: Choices, deck: Deck, n: int) -> list[Card]:
    """``n`` cards of ``deck`` in a drawn order, the joker among them every other deal
    where the deck has it."""
    joker = _joker(deck) if coin(ch) else None
    cards = [_card(ch, deck) for _ in range(n - (joker is not None))]
    return shuffled(ch, [*cards, *([joker] if joker else [])])


def _other_suit(ch: Choices, deck: Deck, card: Card) -> Card:
    """A card of the same rank as ``card`` in another suit (the joker plays as an ace in
    a two-card hand: its copy is an ace)."""
    return _card(ch, deck, ACE if card.is_joker else card.rank)


# --------------------------------------------------------------------------- two-card


def _two_cards(ch: Choices, deck: Deck) -> Deal:
    """Two-card hands: the first drawn (the joker in half of them), the others random,
    copies of it or one card a rank apart."""
    first = _cards(ch, deck, TWO)
    hands = [first]
    for _ in range(1 + ch.index(2)):
        shape = pick(ch, TWO_CARD_SHAPES)
        if shape == "random":
            hands.append([_card(ch, deck) for _ in range(TWO)])
        else:
            copy = [_other_suit(ch, deck, c) for c in first]
            if shape == "bump":
                i = ch.index(TWO)
                rank = copy[i].rank
                deck.used.discard(copy[i])
                copy[i] = _card(ch, deck, rank + 1 if rank < ACE else rank - 1)
            hands.append(copy)
    order = shuffled(ch, hands)
    return Deal(
        Kind.COMPARE_TWO_CARD, {"hands": [cards_text(h) for h in order]}, "pai-gow-two-card"
    )


# --------------------------------------------------------------------------- settings


def _setting(five: Sequence[Card], two: Sequence[Card], label: str) -> Deal:
    return Deal(Kind.SETTING, {"high": cards_text(five), "low": cards_text(two)}, label)


def _high_card_ranks(ch: Choices, avoid: Sequence[int] = ()) -> list[int]:
    """Five distinct ranks, high to low, none in ``avoid``, that make no straight."""
    for _ in range(COPY_TRIES):
        ranks = sorted(distinct_ranks(ch, FIVE, avoid), reverse=True)
        if not is_run(ranks):
            return ranks
    return [12, 10, 8, 5, 3]  # (no draw made one: a queen-high hand without a run)


def _high_card_hand(ch: Choices, deck: Deck, ranks: Sequence[int]) -> list[Card]:
    """Natural cards of ``ranks``, not all of one suit (a high-card hand)."""
    return deal_hand(ch, deck, Hand(tuple((r, 1) for r in ranks), (), False))


def _ace_or_joker(ch: Choices, deck: Deck) -> Card:
    """An ace, or (one time in two, where the deck has it) the joker, an ace in the
    two-card hand."""
    joker = _joker(deck) if coin(ch) else None
    return joker or _card(ch, deck, ACE)


def _foul(ch: Choices, game: Game, deck: Deck) -> tuple[list[Card], list[Card]]:
    """A high-card five-card hand behind a pair (any pair beats a high-card hand) or
    behind two cards whose top card outranks every card of the five."""
    if coin(ch):
        rank = pick(ch, RANKS)
        first = _ace_or_joker(ch, deck) if rank == ACE else _card(ch, deck, rank)
        two = [first, _card(ch, deck, rank)]
        five = _high_card_hand(ch, deck, _high_card_ranks(ch))
    else:
        ranks = _high_card_ranks(ch, avoid=(ACE,))
        top = pick(ch, [r for r in RANKS if r > ranks[0]])
        first = _ace_or_joker(ch, deck) if top == ACE else _card(ch, deck, top)
        two = [first, _card(ch, deck)]
        five = _high_card_hand(ch, deck, ranks)
    return five, shuffled(ch, two)


def _equal(ch: Choices, game: Game, deck: Deck) -> tuple[list[Card], list[Card]]:
    """The five-card hand equal to the two-card hand on the two-card hand's cards: its
    pair the two-card hand's pair (all four cards of the rank, or three aces and the
    joker), or its top two cards the two-card hand's ranks (the joker playing the ace)."""
    if coin(ch):
        rank = pick(ch, RANKS)
        first = _ace_or_joker(ch, deck) if rank == ACE else _card(ch, deck, rank)
        two = [first, _card(ch, deck, rank)]
        kickers = [r for r in _high_card_ranks(ch, avoid=(rank,))][:3]
        five = deal_hand(ch, deck, Hand(((rank, 2),), tuple(kickers), False))
    else:
        ranks = _high_card_ranks(ch)
        first = _ace_or_joker(ch, deck) if ranks[0] == ACE else _card(ch, deck, ranks[0])
        two = [first, _card(ch, deck, ranks[1])]
        five = _high_card_hand(ch, deck, ranks)
    return five, shuffled(ch, two)


# --------------------------------------------------------------------------- settlements


def _settle(ch: Choices, game: Game, *, copy: bool) -> Deal:
    """A player's seven cards split at random against a banker's seven set legally; with
    ``copy`` one of the player's hands copies the banker's (ranks, not suits)."""
    paigow = PaiGow(game.ev, _rules_of(game.ruleset.id))
    if copy:
        found = _copied(ch, game, paigow)
        if found is not None:
            return _settlement(*found, "pai-gow-copy")
    deck = game.deck()
    player = _cards(ch, deck, FIVE + TWO)
    for _ in range(COPY_TRIES):
        banker = _set_legally(ch, paigow, _cards(ch, deck, FIVE + TWO))
        if banker is not None:
            return _settlement([player[:FIVE], player[FIVE:]], banker, "pai-gow-settle")
        deck = _deck_without(game, player)
    raise AssertionError(f"{game.ruleset.id}: no legal banker setting drawn")  # (never)


def _deck_without(game: Game, cards: Sequence[Card]) -> Deck:
    """A fresh deck of ``game`` with ``cards`` dealt."""
    deck = game.deck()
    deck.used.update(c for c in cards if not c.is_joker)
    deck.jokers -= sum(c.is_joker for c in cards)
    return deck


def _settlement(
    player: Sequence[Sequence[Card]], banker: Sequence[Sequence[Card]], label: str
) -> Deal:
    return Deal(
        Kind.SETTLE,
        {"player": [cards_text(h) for h in player], "banker": [cards_text(h) for h in banker]},
        label,
    )


def _copied(
    ch: Choices, game: Game, paigow: PaiGow
) -> tuple[list[list[Card]], list[list[Card]]] | None:
    """A banker set legally and a player one of whose hands copies the banker's: the
    two-card hand, or the five-card hand's ranks (a copy unless the banker's suits or
    joker made it more: the reference decides); None: none was drawn in
    :data:`COPY_TRIES` (no legal banker, or no card left to copy one of its ranks)."""
    low_copy = coin(ch)
    for _ in range(COPY_TRIES):
        deck = game.deck()
        banker = _set_legally(ch, paigow, _cards(ch, deck, FIVE + TWO))
        if banker is None:
            continue
        b_five, b_two = banker
        if low_copy:
            p_two = [_other_suit(ch, deck, c) for c in b_two]
            p_five = _cards(ch, deck, FIVE)
            copied = _ranks(p_two) == _ranks(b_two)
        else:
            p_five = [_other_suit(ch, deck, c) for c in b_five]
            p_two = _cards(ch, deck, TWO)
            copied = _ranks(p_five) == _ranks(b_five)
        if copied:  # (not when the banker holds every card of a rank but one)
            return [p_five, p_two], [b_five, b_two]
    return None


def _ranks(cards: Sequence[Card]) -> list[int]:
    """The ranks of ``cards``, the joker an ace, high to low."""
    return sorted((ACE if c.is_joker else c.rank for c in cards), reverse=True)


def _set_legally(ch: Choices, paigow: PaiGow, seven: Sequence[Card]) -> list[list[Card]] | None:
    """A legal setting of ``seven`` (the reference's rule, the profile's reading): the
    settings tried from a drawn one round; None when none is legal."""
    start = ch.index(len(LOW_PICKS))
    for k in range(len(LOW_PICKS)):
        pair = LOW_PICKS[(start + k) % len(LOW_PICKS)]
        two = [seven[i] for i in pair]
        five = [c for i, c in enumerate(seven) if i not in pair]
        if paigow.legal(cards_text(five), cards_text(two)):
            return [five, two]
    return None


# --------------------------------------------------------------------------- tags


def pai_gow_tags(
    ev: Evaluator, kind: str, inputs: Mapping[str, Any]
) -> tuple[list[str], list[str], str]:
    """The clauses, flags and one-line why of a valid pai gow input (a fuzz
    counterexample written up as a vector): the two-card hand's clause and, for a
    setting or a settlement, the five-card hands' categories' clauses."""
    rs = ev.ruleset
    rules = _rules_of(rs.id)
    clauses = [low_hand_label(rules)]
    flags: list[str] = []
    if kind == Kind.COMPARE_TWO_CARD:
        hands = list(inputs["hands"])
        flags.append("two-card-hand")
        why = (
            f"{' vs '.join(hands)}: a pair above no pair, then the cards from the top "
            "(the joker an ace)."
        )
    elif kind == Kind.SETTING:
        fives = [inputs["high"]]
        hands = [inputs["high"], inputs["low"]]
        flags.append("setting-rule")
        why = (
            f"{inputs['high']} set over {inputs['low']}: the five-card hand must outrank "
            "the two-card hand."
        )
    else:
        fives = [inputs["player"][0], inputs["banker"][0]]
        hands = [*inputs["player"], *inputs["banker"]]
        flags.append("settlement")
        if _copies(ev, inputs):
            flags.append("copy")
        why = (
            f"player {' / '.join(inputs['player'])} against banker "
            f"{' / '.join(inputs['banker'])}: both hands won, the player; one each, a push."
        )
    if kind != Kind.COMPARE_TWO_CARD:
        categories = [ev.value(parse_cards(h, jokers=rs.jokers)).category for h in fives]
        clauses += [rs.category(c).clause for c in categories]
    if any(c.is_joker for h in hands for c in parse_cards(h, jokers=rs.jokers)):
        flags.append("wild-card")
    return list(dict.fromkeys(clauses)), flags, why


def _rules_of(ruleset_id: str) -> PaiGowRules:
    rules = pai_gow_rules(ruleset_id)
    if rules is None:
        raise ValueError(f"{ruleset_id} is not a pai gow game")
    return rules


def _copies(ev: Evaluator, inputs: Mapping[str, Any]) -> bool:
    """Whether a hand of the player is exactly equal to the banker's (a copy)."""
    jokers = ev.ruleset.jokers
    (p_five, p_two), (b_five, b_two) = (
        [parse_cards(h, jokers=jokers) for h in inputs[side]] for side in ("player", "banker")
    )
    return low_key(p_two) == low_key(b_two) or ev.value(p_five).key == ev.value(b_five).key
