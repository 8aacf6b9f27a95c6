"""Situation-driven deals: first a situation where evaluators go wrong, then cards for it.

A deal drawn card by card rarely pits two hands of adjacent categories, or of the same
category with the same defining ranks and different kickers: exactly where implementers
slip.  This module draws a *situation* first (two categories side by side, a kicker that
differs at one position, equal hands in other suits, the wheel and broadway, a board that
plays, a wild card that must not duplicate a held card, a multiway split, a malformed
input ...) and then the cards that realise it.

Every decision goes through one primitive, :class:`Choices` (``index(n)``: a number
below n), with two backends:

* :class:`DrawChoices`: Hypothesis draws, so a deal that exposes a bug shrinks to a
  minimal counterexample (:func:`deal_strategy`, :func:`hand_strategy` for properties);
* :class:`SeededChoices`: ``random.Random`` seeded per deal, so the same seed gives
  byte-identical deals on any machine and Python run (no Hypothesis database, no clock,
  no salted ``hash``).  It records its indices; replayed as Hypothesis choices through
  :func:`game_strategy` they rebuild the same deal, which Hypothesis can then shrink
  (``fuzz`` explores with the seeded backend and shrinks what it finds that way).

The seeded sampler, for fuzz and for the challenge vectors::

    sample_deals(ruleset, profile, kinds, *, seed: int, count: int,
                 situations: Sequence[str] | None = None) -> list[Deal]

``count`` deals, round-robin over the situations :func:`applicable` to the ruleset,
profile and kinds (or only those of ``situations`` that apply; an unknown name is a
ValueError): deal i is of situation ``i mod len(applicable)`` and depends on ``seed`` and
i only, so every applicable situation appears at least ``count // len(applicable)``
times and a longer list starts with the shorter one.  Each :class:`Deal` is
``(kind, inputs, situation)`` with ``inputs`` in the corpus's form; reject deals (kind
``reject``, where ``kinds`` has it) carry exactly one fault.

    from pokercert.harness.explore.situations import sample_deals
    deals = sample_deals(get_ruleset("mt-poker-high"), "practice",
                         (Kind.CLASSIFY, Kind.COMPARE), seed=1, count=200)

Nothing here knows a jurisdiction.  What can be dealt is read from the ruleset and the
reference's public API: the category ranking in use (:attr:`Evaluator.categories`, best
first, so "adjacent" means adjacent in *this* game), the hand size, the deck's wild cards
(jokers, or the deuces where the ruleset posts them wild: then never dealt as naturals), the
hold'em selection and the engine knobs (which aces make a straight); each category is
realised from its shape.  The reference also answers what a wild hand plays as, so a
rival can echo it exactly.

Pai gow's kinds (two-card hands, settings, settlements) have situations of their own
(:mod:`.situation_pai_gow`), dealt by fuzz only (``fuzz_labels(game, kinds)``).

:data:`SITUATIONS` names and explains every situation label a deal can carry (``fuzz``
prints how many deals of each it sent; challenge vectors may reuse the same labels).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from pokercert.harness.explore.situation_choices import DrawChoices, SeededChoices
from pokercert.harness.explore.situation_families import (
    EDGES,
    QUALIFIER_STEPS,
    board_label,
    deal_board,
    deal_categories,
    deal_defining_ranks,
    deal_edge,
    deal_kicker,
    deal_multiway,
    deal_qualifier,
    deal_suits_only,
    deal_wild,
)
from pokercert.harness.explore.situation_faults import board_deals, deal_reject
from pokercert.harness.explore.situation_free import (
    SHOWDOWNS,
    deal_free,
    deal_showdown,
    free_options,
    has_low,
    related_hands,
)
from pokercert.harness.explore.situation_hands import category_hand
from pokercert.harness.explore.situation_pai_gow import FAMILY as PAI_GOW
from pokercert.harness.explore.situation_pai_gow import (
    PAI_GOW_SITUATIONS,
    REJECT_FAMILY,
    deal_pai_gow,
)
from pokercert.harness.explore.situation_pai_gow_faults import deal_pai_gow_reject
from pokercert.reference import Card, Profile, Ruleset
from pokercert.reference.categories import CategoryName
from pokercert.vectors.dealing import (
    ACE,
    DEAL_KINDS,
    KING,
    QUEEN,
    RANKS,
    RUNS,
    TWO,
    Choices,
    Deal,
    Game,
    Hand,
    deal_hand,
    kicker_count,
    pick,
)
from pokercert.vectors.model import Kind

if TYPE_CHECKING:  # Hypothesis is imported where a strategy is built: the seeded
    # sampler (fuzz, the challenge's fresh deals) never needs it
    from hypothesis import strategies as st

# the card primitives (the deal toolkit, pokercert.vectors.dealing) are re-exported: the
# explorers name them from here
__all__ = [
    "ACE",
    "DEAL_KINDS",
    "KING",
    "QUEEN",
    "RANKS",
    "RUNS",
    "SITUATIONS",
    "TWO",
    "Choices",
    "Deal",
    "DrawChoices",
    "Game",
    "Hand",
    "SeededChoices",
    "applicable",
    "build",
    "category_hand",
    "deal_hand",
    "deal_strategy",
    "game_strategy",
    "hand_strategy",
    "sample_deals",
    "seeded_deals",
    "situation_labels",
    "situations_for",
]

# every label a deal can carry, in the order coverage tables list them
SITUATIONS: dict[str, str] = {
    "categories": "two hands of two categories (adjacent ones weighted up); one hand "
    "of any category for classify",
    "defining-ranks": "same category, different defining ranks, crossed where there are "
    "two groups (KKK22 vs QQQAA, KK33 vs QQJJ, a high pair with low kickers)",
    "kicker-1": "same category, same defining ranks, the 1st kicker differs",
    "kicker-2": "... the 2nd kicker differs",
    "kicker-3": "... the 3rd kicker differs",
    "kicker-4": "... the 4th kicker differs",
    "kicker-5": "... the 5th card differs (flush, high card)",
    "suits-only": "equal hands that differ only in suit (a split)",
    "edge-wheel": "the ace-low straight (A-2-3-4-5, A-2-3, A-2) against a neighbour",
    "edge-broadway": "the ace-high straight against a neighbour",
    "edge-lowest": "the lowest straight without the ace (6-5-4-3-2, 4-3-2, 3-2)",
    "edge-wrap": "runs round the corner (Q-K-A-2-3, K-A-2): no straight",
    "edge-near": "one rank off a straight at either end (A-2-3-4-6, A-K-Q-J-9)",
    "edge-paired-span": "a pair inside a straight's span (5-5-6-7-9)",
    "edge-near-flush": "all cards but the last one of one suit",
    "multiway-tie": "3+ hands, two or more of them equal",
    "multiway-chain": "3+ hands of rising value, the weakest dealt first",
    "board-uses-0": "a board that plays on its own against weak hole cards",
    "board-uses-1": "the best hand needs exactly one hole card",
    "board-uses-2": "the best hand needs two hole cards",
    "board-uses-3": "the best hand needs three hole cards (a rule may forbid it: Omaha)",
    "board-uses-4": "the best hand needs four hole cards (a rule may forbid it: Omaha)",
    "board-uses-5": "all five from the player's own cards (games without a board: stud)",
    "wild-duplicate": "suited cards with their top card held plus a wild card: a wild "
    "card that duplicates a held card would make a better hand",
    "wild-five": "five of a kind (four naturals and a wild card, or three and two)",
    "wild-placed": "a hand of any category with 1 or 2 cards replaced by wild cards",
    "qualifier-at": "the dealer qualifier's lowest qualifying hand, suits redrawn (kind qualifies)",
    "qualifier-below": "the qualifier's lowest hand with one card a rank lower",
    "qualifier-above": "the qualifier's lowest hand with one card a rank higher",
    "reject-duplicate": "the same card twice in one hand",
    "reject-across": "the same card in two hands, or in the hole and on the board",
    "reject-count": "one card too many or too few",
    "reject-suit": "a card with an unknown suit",
    "reject-joker": "a joker in a game whose deck has none",
    "reject-board": "a board with a compare in a game that deals none (PROTOCOL.md 3.3: "
    "wrong-count; only to adapters naming the feature input_rules)",
    "showdown-dealt": "a whole pot (showdown): 2 to 9 players (7 in stud) dealt at random, "
    "every half settled",
    "showdown-tie": "a whole pot that splits: a made hand on the board that plays for "
    "everyone, or two players holding the same ranks in other suits",
    "showdown-low": "a whole pot of a low or split game dealt from the low cards (A-8, a "
    "few nines and kings), players often sharing low ranks: qualifying, "
    "tied and quartered lows, and no qualifying low",
    # pai gow's kinds (fuzz deals them: harness/explore/situation_pai_gow.py)
    **PAI_GOW_SITUATIONS,
    "free": "deals drawn card by card with the older biases (related hands, connected "
    "boards): the rest of the space",
}


# --------------------------------------------------------------------------- assembly

Builder = Callable[[Choices, Game, str | None], Deal]

# situation families: each builds a deal of its family, of the label ``want`` if given
FAMILIES: dict[str, Builder] = {
    "categories": deal_categories,
    "defining-ranks": deal_defining_ranks,
    "kicker": deal_kicker,
    "suits-only": deal_suits_only,
    "edge": deal_edge,
    "multiway": deal_multiway,
    "board": deal_board,
    "wild": deal_wild,
    "qualifier": deal_qualifier,
    "reject": deal_reject,
    "showdown": deal_showdown,
    PAI_GOW: deal_pai_gow,
    REJECT_FAMILY: deal_pai_gow_reject,
    "free": deal_free,
}
# a builder that falls back (e.g. no room for the kicker asked for) is asked again
ATTEMPTS = 8


def family_of(label: str) -> str:
    """The family of a situation label (``kicker-2`` -> ``kicker``)."""
    if label in FAMILIES:
        return label
    if label.startswith("board-"):
        return "board"
    if label.startswith(REJECT_FAMILY + "-"):
        return REJECT_FAMILY
    if label.startswith(PAI_GOW + "-"):
        return PAI_GOW
    return label.split("-", 1)[0]


def situations_for(game: Game) -> list[str]:
    """The situation families this game can deal, given the kinds asked for."""
    out = ["categories", "defining-ranks", "kicker", "edge"]
    if "compare" in game.kinds:
        out += ["suits-only", "multiway"]
    if game.selection is not None and {Kind.BEST_HAND, Kind.COMPARE} & set(game.kinds):
        out.append("board")  # a board deal is a best_hand or a compare on it
    if game.wilds:
        out.append("wild")
    if Kind.QUALIFIES in game.kinds:
        out.append("qualifier")
    if game.size >= 2 and "reject" in game.kinds:
        out.append("reject")
    if not {Kind.CLASSIFY, Kind.COMPARE} & set(game.kinds):
        # the board family deals best_hand (or compares, not claimed here)
        out = ["board"] if game.selection is not None and Kind.BEST_HAND in game.kinds else []
        if Kind.QUALIFIES in game.kinds:
            out.append("qualifier")
        if game.size >= 2 and "reject" in game.kinds:
            out.append("reject")
    if Kind.SHOWDOWN in game.kinds and game.selection is not None and game.ruleset.halves:
        # whole pots of the games whose file says how their pot is split (the poker-room
        # games' [[ruleset.half]]): Mini-tex is one hand against the dealer's
        out.append("showdown")
    return out


def situation_labels(game: Game, *, rejects: bool = True) -> list[str]:
    """Every situation label this game's deals can carry, in :data:`SITUATIONS` order
    (``free`` not included: it is the rest of the space, not a situation)."""
    n = game.size
    labels: set[str] = set()
    for family in situations_for(game):
        if family == "kicker":
            most = max((kicker_count(c, n) for c in game.with_kickers), default=0)
            labels.update(f"kicker-{i}" for i in range(1, most + 1))
            if not most:
                labels.add("categories")
        elif family == "edge":
            labels.update(f"edge-{e}" for e in EDGES if e != "near-flush" or n >= 2)
        elif family == "multiway":
            labels.add("multiway-chain")
            if game.twinnable:
                labels.add("multiway-tie")
        elif family == "board":
            sel = game.selection
            assert sel is not None
            labels.update(board_label(game, u) for u in range(min(sel.hole, n) + 1))
        elif family == "wild":
            labels.add("wild-placed")
            if n >= 3:
                labels.add("wild-duplicate")
            if game.can_make(CategoryName.FIVE_OF_A_KIND):
                labels.add("wild-five")
        elif family == "showdown":
            labels.update(x for x in SHOWDOWNS if x != "showdown-low" or has_low(game))
        elif family == "qualifier":
            labels.update(f"qualifier-{step}" for step in QUALIFIER_STEPS)
        elif family == "reject":
            if rejects:
                labels.update(("reject-duplicate", "reject-count", "reject-suit"))
                if {Kind.COMPARE, Kind.BEST_HAND} & set(game.kinds):
                    labels.add("reject-across")
                if not game.jokers:
                    labels.add("reject-joker")
                if board_deals(game):
                    labels.add("reject-board")
        else:
            labels.add(family)
    return [name for name in SITUATIONS if name in labels]


def applicable(
    game: Game, situations: Sequence[str] | None = None, *, rejects: bool = True, free: bool = False
) -> list[str]:
    """The labels to deal for ``game``: :func:`situation_labels` (and ``free``), or those
    of ``situations`` the game can deal.  An unknown label is a ValueError, and so is
    nothing left to deal."""
    labels = situation_labels(game, rejects=rejects)
    if free and _free_kinds(game):
        labels.append("free")
    if situations is not None:
        unknown = [s for s in situations if s not in SITUATIONS]
        if unknown:
            raise ValueError(f"unknown situation {unknown[0]!r} (known: {', '.join(SITUATIONS)})")
        wanted = set(situations)
        labels = [
            s
            for s in [*situation_labels(game, rejects=rejects), "free"]
            if s in wanted and (s != "free" or _free_kinds(game))
        ]
    if not labels:
        raise ValueError(
            f"{game.ruleset.id}: nothing to deal for kinds "
            f"{list(game.kinds)}"
            + (f" in situations {list(situations)}" if situations is not None else "")
        )
    return labels


def _free_kinds(game: Game) -> bool:
    return bool(free_options(game))


def build(ch: Choices, game: Game, label: str) -> Deal:
    """A deal of situation ``label`` from the choices ``ch`` (either backend)."""
    make = FAMILIES[family_of(label)]
    deal = make(ch, game, label)
    for _ in range(ATTEMPTS - 1):
        if deal.situation == label:
            break
        deal = make(ch, game, label)
    return deal


def labelled(ch: Choices, game: Game, labels: Sequence[str], label: str | None = None) -> Deal:
    """A label (one choice among ``labels``, or ``label`` recorded as that choice by a
    seeded backend), then a deal of it: the one shape both backends share."""
    if label is None:
        label = labels[ch.index(len(labels))]
    return build(ch, game, label)


def deal_strategy(
    ruleset: Ruleset,
    profile: Profile | str | None = None,
    kinds: Sequence[str] = DEAL_KINDS,
    *,
    rejects: bool = True,
    free: bool = False,
    situations: Sequence[str] | None = None,
) -> st.SearchStrategy[Deal]:
    """Hypothesis strategy of deals for ``ruleset`` of the given vector kinds: a label
    evenly among the applicable ones (:func:`applicable`), then its cards; failing deals
    shrink.  ``rejects=False`` leaves out the malformed requests, ``free=True`` adds the
    card-by-card deals, ``situations`` keeps only these labels."""
    game = Game(ruleset, profile, kinds)
    return game_strategy(game, applicable(game, situations, rejects=rejects, free=free))


def game_strategy(game: Game, labels: Sequence[str]) -> st.SearchStrategy[Deal]:
    """:func:`deal_strategy` for a :class:`Game` and its labels (fuzz's shrinking path:
    a seeded deal's record, its label's index first, replays here as the same deal)."""
    from hypothesis import strategies as st

    chosen = tuple(labels)

    @st.composite
    def deals(draw: st.DrawFn) -> Deal:
        return labelled(DrawChoices(draw), game, chosen)

    return deals()


def hand_strategy(
    ruleset: Ruleset, profile: Profile | str | None = None, *, count: int = 1
) -> st.SearchStrategy[list[tuple[Card, ...]]]:
    """``count`` hands from one deck of ``ruleset``, through the same generator: each of
    a category of the game (any of them evenly), or (one draw in four) hands drawn card
    by card where the later ones echo the first (same ranks, a rank apart, the same
    shape); for properties that want hands, not requests."""
    from hypothesis import strategies as st

    game = Game(ruleset, profile, (Kind.CLASSIFY,))

    @st.composite
    def hands(draw: st.DrawFn) -> list[tuple[Card, ...]]:
        ch = DrawChoices(draw)
        deck = game.deck()
        if ch.index(4) == 0:
            return [tuple(h) for h in related_hands(ch, count, game.size, deck)]
        return [
            tuple(deal_hand(ch, deck, category_hand(ch, game, pick(ch, game.makeable), deck=deck)))
            for _ in range(count)
        ]

    return hands()


def seeded_deals(
    game: Game, labels: Sequence[str], *, seed: int, count: int
) -> Iterator[tuple[Deal, list[int]]]:
    """``count`` deals round-robin over ``labels``, each with its choice record.

    Deal i is of ``labels[i % len(labels)]`` and drawn from its own
    ``random.Random(f"pokercert-deal:{seed}:{i}")``, so it depends on the seed and its
    place only.  The record starts with the label's index: replayed through
    :func:`game_strategy` with the same labels it rebuilds the same deal.
    """
    for i in range(count):
        which = i % len(labels)
        ch = SeededChoices(f"pokercert-deal:{seed}:{i}")
        deal = labelled(ch, game, labels, labels[which])
        yield deal, [which, *ch.record]


def sample_deals(
    ruleset: Ruleset,
    profile: Profile | str | None,
    kinds: Sequence[str],
    *,
    seed: int,
    count: int,
    situations: Sequence[str] | None = None,
    features: Iterable[str] = (),
) -> list[Deal]:
    """``count`` deals for ``ruleset``, stratified and deterministic for ``seed``.

    Round-robin over the situations :func:`applicable` to the ruleset, profile and
    kinds (or those of ``situations``), so each appears at least
    ``count // len(applicable)`` times; the same seed gives the same list on any
    machine and Python run (no Hypothesis, no clock, no database).  ``features``: the
    protocol features of the adapter the deals are for (see :class:`Game`).
    """
    game = Game(ruleset, profile, kinds, features)
    labels = applicable(game, situations)
    return [deal for deal, _ in seeded_deals(game, labels, seed=seed, count=count)]
