"""The catalogue: every deliberately broken evaluator the self-check runs.

Each entry is one realistic implementer mistake.  ``flag`` is the bug class of the
corpus's flag registry (``vectors/flags.toml``) whose vectors are meant to catch it;
``rulesets`` lists exactly the games where the mistake changes an answer (the mutant
claims only those).  When the corpus lets a mutant through, the fix is new vectors,
never a milder mutant.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from typing import Any

from pokercert.harness.mutants.changes import (
    ACE,
    FIVE_CARD_HIGH_ORDER,
    JACK,
    QUEEN,
    STRAIGHTS,
    accept_any_count,
    accept_duplicates,
    accept_duplicates_across_hands,
    accept_unknown_suits,
    best_by_category_only,
    best_from_single_hole_card,
    categories,
    classified,
    copies_to,
    deck_jokers,
    first_of_each_half,
    first_winner_only,
    flush_ignores_last_card,
    hole_cards_used,
    kickers_in_dealt_order,
    knobs,
    low_from_high_five,
    low_ranking,
    low_selection,
    order_like,
    patch,
    per_ruleset_order,
    qualifier_minimum,
    qualifier_rank,
    qualifier_strict,
    reason_code,
    remap_ranks,
    run_top,
    selection,
    setting_ignored,
    settled_on_high_hand,
    shares_by,
    straight_only_in_dealt_order,
    stud_first_five,
    swap,
    tiebreak,
    two_card_joker_not_ace,
    wild_always_ace,
    wild_designation,
    wild_resolved_by,
    winners_against_first_hand,
    without,
    wrapped,
)
from pokercert.harness.mutants.flush_length import FLUSH_LENGTH_MUTANTS
from pokercert.harness.mutants.model import Change, Mutant
from pokercert.reference.cards import BAD_CARD, Card
from pokercert.reference.categories import CategoryName
from pokercert.reference.engine import Evaluator, HandValue

Tiebreak = Callable[[tuple[int, ...], list[tuple[int, int]]], tuple[int, ...]]

# ----------------------------------------------------------------- ruleset groups
HIGH5_NJ = ("nj-poker-high-5", "nj-caribbean-stud", "nj-winners-pot")
HIGH5 = (*HIGH5_NJ, "mt-poker-high")
TABLE3 = ("nj-three-card-poker",)  # 13:69F-20.3, three-card kickers
HIGH3 = ("nj-poker-high-3", "nj-mini-tex-3", *TABLE3)
# table games whose retrieved texts order categories only (no same-category rule):
# five-card payout games and one four-card hand
TABLE5 = (
    "nj-double-down-stud",
    "nj-double-cross-poker",
    "pa-mississippi-stud",
    "pa-raise-it-up-stud",
    "pa-ultimate-texas-holdem",
)
TABLE4 = ("nj-four-card-poker", "pa-crazy-4-poker", "pa-four-card-frenzy")
QUALIFIED = (
    "nj-caribbean-stud",
    "nj-three-card-poker",  # rulesets with a dealer qualifier
    "nj-mini-tex-3",
)
HIGH = (*HIGH5, *HIGH3)  # every high game with kickers
WITH_STRAIGHTS = (*HIGH, "nj-lowball-2-7")  # every game with 3+ card straights
A5_LOW = ("nj-poker-low-5", "nj-poker-low-3", "mt-poker-low")
LOW = (*A5_LOW, "nj-lowball-2-7")
POCKET = ("nj-mini-tex-pocket",)
MINITEX = ("nj-mini-tex-3",)
MONTANA = ("mt-poker-high", "mt-poker-low")
DEUCES = ("mt-poker-high-deuces", "mt-poker-low-deuces")  # the posting 'deuces wild'
ALL = (*HIGH, *LOW, *POCKET, *TABLE5, *TABLE4, *DEUCES)
WITH_KICKERS = (*HIGH, *LOW)  # all but the pocket wager
# games with a showdown: the pocket wager is settled on a paytable (37.5(d)), never
# hand against hand, so mistakes that only show between hands do not affect it
SHOWDOWN = (*WITH_KICKERS, *DEUCES)
NJ = tuple(r for r in ALL if r.startswith("nj-"))
FIVE_CARD_GROUPS = (*HIGH5, "nj-poker-low-5", "nj-lowball-2-7", "mt-poker-low")
# the poker-room games (showdown vectors: whole pots, high and low halves)
HOLDEM = ("nj-holdem",)
OMAHAS = ("nj-omaha", "nj-omaha-hi-lo")
HI_LO = ("nj-omaha-hi-lo", "nj-stud-hi-lo")
RAZZ = ("nj-razz",)
STUDS = ("nj-seven-card-stud", "nj-stud-hi-lo", "nj-razz")
ROOM = (*HOLDEM, *OMAHAS, *STUDS)
# the games that rank their high hands as 14.3 does (a ranking mistake shows in their pots)
HIGH_ROOM = tuple(r for r in ROOM if r not in RAZZ)
# ... and of those the high-only games: a changed category list is a knob every ranking
# of the mutant reads, the low half's too, so in a split game it is no one mistake
HIGH_ONLY_ROOM = tuple(r for r in HIGH_ROOM if r not in HI_LO)


# ----------------------------------------------------------------- small mistakes
def _wheel_tops_at_ace(top: int | None, ranks: tuple[int, ...], ev: object) -> int | None:
    return ACE if top is not None and ACE in ranks else top


def _lowest_straight_missed(top: int | None, ranks: tuple[int, ...], ev: object) -> int | None:
    return None if top == len(ranks) + 1 and ACE not in ranks else top


def _wraps_around(top: int | None, ranks: tuple[int, ...], ev: object) -> int | None:
    """Sequence test modulo 13: K-A-2 and Q-K-A-2-3 count, topped by their last card."""
    n = len(ranks)
    if top is not None or n < 3 or len(set(ranks)) != n:
        return top
    ring = {(r - 1) % 13 for r in ranks}  # ace 0, deuce 1, ..., king 12
    for start in ring:
        if all((start + i) % 13 in ring for i in range(n)):
            end = (start + n - 1) % 13
            return ACE if end == 0 else end + 1
    return None


def _span_only(top: int | None, ranks: tuple[int, ...], ev: object) -> int | None:
    """Straight test 'highest minus lowest is n-1', without checking for pairs."""
    if top is None and len(ranks) > 2 and ranks[0] - ranks[-1] == len(ranks) - 1:
        return ranks[0]
    return top


def _matched(groups: list[tuple[int, int]]) -> int:
    return sum(1 for _, n in groups if n > 1)


def _kickers_dropped(tail: tuple[int, ...], groups: list[tuple[int, int]]) -> tuple[int, ...]:
    return tail[: max(_matched(groups), 1)]


def _kickers_reversed(tail: tuple[int, ...], groups: list[tuple[int, int]]) -> tuple[int, ...]:
    m = _matched(groups)
    return tail[:m] + tail[m:][::-1]


def _swap_first_two_if(counts: list[int]) -> Tiebreak:
    def fn(tail: tuple[int, ...], groups: list[tuple[int, int]]) -> tuple[int, ...]:
        if [n for _, n in groups][:2] == counts and len(tail) >= 2:
            return (tail[1], tail[0], *tail[2:])
        return tail

    return fn


def _pair_kickers_dropped(tail: tuple[int, ...], groups: list[tuple[int, int]]) -> tuple[int, ...]:
    """One pair is compared by the pair alone (its kickers never decide)."""
    return tail[:1] if [n for _, n in groups][:2] == [2, 1] else tail


def _two_pair_kicker_dropped(
    tail: tuple[int, ...], groups: list[tuple[int, int]]
) -> tuple[int, ...]:
    """Two pair is compared by its two pairs alone (the odd card never decides)."""
    return tail[:2] if [n for _, n in groups][:2] == [2, 2] else tail


def _aces_low_when_matched(tail: tuple[int, ...], groups: list[tuple[int, int]]) -> tuple[int, ...]:
    m = _matched(groups)
    return tuple(1 if v == ACE else v for v in tail[:m]) + tail[m:]


def _low_pairs_inverted(tail: tuple[int, ...], groups: list[tuple[int, int]]) -> tuple[int, ...]:
    m = _matched(groups)
    return tuple(-v for v in tail[:m]) + tail[m:]


SUIT_ORDER = {"s": 4, "h": 3, "d": 2, "c": 1}  # bridge order, as many paytables print it


def _suits_break_ties() -> Change:
    def wrap(orig: Callable[..., HandValue], ev: Evaluator) -> Callable[..., HandValue]:
        def value(hand: tuple[Card, ...]) -> HandValue:
            v = orig(hand)
            ordered = sorted(
                v.played, key=lambda c: (c.rank, SUIT_ORDER.get(c.suit, 0)), reverse=True
            )
            return v._replace(key=v.key + tuple(SUIT_ORDER.get(c.suit, 0) for c in ordered))

        return value

    return patch(lambda s: replace(s, value=wrapped(s.value, wrap)))


def _board_dropped(orig: Callable[..., Any], ev: Evaluator) -> Callable[..., Any]:
    """A showdown that drops the board in a game without community cards."""
    return lambda hands, board=None: orig(
        hands, board if ev.ruleset.selection is not None else None
    )


def _naturals_first() -> Change:
    def wrap(orig: Callable[..., HandValue], ev: Evaluator) -> Callable[..., HandValue]:
        def value(hand: tuple[Card, ...]) -> HandValue:
            v = orig(hand)
            return v._replace(key=(*v.key, 0 if any(c.is_joker for c in hand) else 1))

        return value

    return patch(lambda s: replace(s, value=wrapped(s.value, wrap)))


def _quads_kicker_dropped(tail: tuple[int, ...], groups: list[tuple[int, int]]) -> tuple[int, ...]:
    """Four of a kind is compared by the quads alone (the kicker never decides)."""
    return tail[:1] if [n for _, n in groups][:1] == [4] else tail


# ----------------------------------------------------------------- the mutants
MUTANTS: tuple[Mutant, ...] = (
    # --- straights: the wheel, its rank, wraparounds, near misses
    Mutant(
        "wheel-missing",
        "wheel",
        (*HIGH, *HIGH_ROOM),
        "The ace never plays low: A-2-3-4-5 (A-2-3) is an ace-high hand, not a straight.",
        (knobs(straight_ace="high"),),
        same_as_reading=(("mt-wheel", "literal"),),
    ),
    Mutant(
        "wheel-ranked-ace-high",
        "straight-order",
        (*HIGH, *POCKET),
        "A straight's top card is its highest rank, so A-2-3-4-5 ranks as an ace-high "
        "straight (a suited one as a royal).",
        (run_top(_wheel_tops_at_ace),),
    ),
    Mutant(
        "straights-all-equal",
        "straight-order",
        WITH_STRAIGHTS,
        "Two straights (or straight flushes) are never compared by their top card: "
        "every straight ties every other.",
        (classified(lambda cat, key: (cat, key[:1] if cat in STRAIGHTS else key)),),
    ),
    Mutant(
        "lowest-straight-missed",
        "straight-order",
        (*WITH_STRAIGHTS, *POCKET),
        "The table of straights starts one rank too high: 6-5-4-3-2 (4-3-2, pocket 3-2) "
        "is not found.",
        (run_top(_lowest_straight_missed),),
    ),
    Mutant(
        "wraparound-straights",
        "wraparound",
        WITH_STRAIGHTS,
        "Sequences are tested modulo 13, so Q-K-A-2-3, K-A-2-3-4 and K-A-2 are straights.",
        (run_top(_wraps_around),),
    ),
    Mutant(
        "straight-ignores-pairs",
        "near-miss",
        WITH_STRAIGHTS,
        "Straight test is 'highest minus lowest = n-1' without a pair check: 5-5-6-7-9 "
        "is called a straight.",
        (run_top(_span_only),),
    ),
    # --- category order and naming
    Mutant(
        "flush-below-straight",
        "category-order",
        (*HIGH5, "nj-lowball-2-7", *HIGH_ONLY_ROOM),
        "Five-card flush and straight trade places in the ranking.",
        (swap(CategoryName.FLUSH, CategoryName.STRAIGHT),),
    ),
    Mutant(
        "full-house-below-flush",
        "category-order",
        (*HIGH5, "nj-lowball-2-7"),
        "Full house and flush trade places in the ranking.",
        (swap(CategoryName.FULL_HOUSE, CategoryName.FLUSH),),
    ),
    Mutant(
        "straight-flush-as-flush",
        "category-order",
        (*WITH_STRAIGHTS, *HIGH_ONLY_ROOM),
        "The flush test runs before the straight-flush test: a (non-royal) straight flush "
        "is called a flush.",
        (without(CategoryName.STRAIGHT_FLUSH),),
    ),
    Mutant(
        "three-card-five-card-order",
        "three-card-order",
        HIGH3,
        "The five-card order is copied into three-card poker: flush > straight > three of a kind.",
        (order_like(FIVE_CARD_HIGH_ORDER),),
    ),
    Mutant(
        "three-card-flush-over-straight",
        "three-card-order",
        HIGH3,
        "Three-card flush ranked above the three-card straight, as in five cards.",
        (swap(CategoryName.FLUSH, CategoryName.STRAIGHT),),
    ),
    Mutant(
        "royal-not-named",
        "royal-naming",
        (*HIGH5, "nj-poker-high-3", "nj-lowball-2-7"),
        "The royal flush is reported as a straight flush (it still ranks as the best one).",
        (without(CategoryName.ROYAL_FLUSH),),
    ),
    Mutant(
        "minitex-royal-named",
        "royal-naming",
        MINITEX,
        "Mini-tex A-K-Q suited is reported as a 'royal_flush', a category Mini-tex does not have.",
        (categories(lambda names, rs: [CategoryName.ROYAL_FLUSH, *names]),),
    ),
    Mutant(
        "pocket-royal-as-straight-flush",
        "royal-naming",
        POCKET,
        "Pocket A-K suited is paid as a straight flush, not as the royal straight flush.",
        (without(CategoryName.ROYAL_STRAIGHT_FLUSH),),
    ),
    # --- ties within a category
    Mutant(
        "suit-tiebreak",
        "suit-tiebreak",
        (*SHOWDOWN, *ROOM),
        "Suits break ties (spades > hearts > diamonds > clubs) instead of splitting.",
        (_suits_break_ties(),),
    ),
    Mutant(
        "kickers-ignored",
        "kicker-order",
        (*WITH_KICKERS, *ROOM),
        "Only the category and the paired ranks are compared (the top card for no pair): "
        "kickers never decide.",
        (tiebreak(_kickers_dropped),),
    ),
    Mutant(
        "pair-kickers-ignored",
        "kicker-order",
        WITH_KICKERS,
        "Two hands of one pair with the same pair are equal: the pair's kickers never "
        "decide (other categories keep theirs).",
        (tiebreak(_pair_kickers_dropped),),
    ),
    Mutant(
        "two-pair-kicker-ignored",
        "two-pair-order",
        (*FIVE_CARD_GROUPS, *HOLDEM),
        "Two hands with the same two pairs are equal: the fifth card never decides.",
        (tiebreak(_two_pair_kicker_dropped),),
    ),
    Mutant(
        "kickers-lowest-first",
        "kicker-order",
        HIGH,
        "Unpaired cards are compared from the lowest up.",
        (tiebreak(_kickers_reversed),),
    ),
    Mutant(
        "flush-by-top-card",
        "kicker-order",
        WITH_STRAIGHTS,
        "Two flushes are compared by their top card only.",
        (classified(lambda cat, key: (cat, key[:2] if cat == CategoryName.FLUSH else key)),),
    ),
    Mutant(
        "queen-valued-as-jack",
        "rank-order",
        ALL,
        "A rank-table typo values the queen as a jack (Q-J is a pair, Q-high loses to "
        "nothing a J-high does not).",
        (remap_ranks({QUEEN: JACK}),),
    ),
    Mutant(
        "all-cards-sorted",
        "rank-order",
        HIGH,
        "Same-category hands are compared card by card, all five sorted high to low: "
        "3-3-3-A-A beats 4-4-4-2-2.",
        (knobs(tiebreak="card_by_card"),),
        same_as_reading=(("identical-rank-tiebreak", "literal"),),
    ),
    Mutant(
        "aces-low-when-paired",
        "named-extreme",
        (*HIGH, *HIGH_ROOM),
        "The ace counts high only as a single card: four (three, two) aces rank below four twos.",
        (tiebreak(_aces_low_when_matched),),
    ),
    Mutant(
        "two-pair-by-low-pair",
        "two-pair-order",
        FIVE_CARD_GROUPS,
        "Two pairs are compared by the lower pair first.",
        (tiebreak(_swap_first_two_if([2, 2])),),
    ),
    Mutant(
        "full-house-by-pair",
        "full-house-order",
        FIVE_CARD_GROUPS,
        "Full houses are compared by the pair first.",
        (tiebreak(_swap_first_two_if([3, 2])),),
    ),
    # --- cards speak: bugs that show for one card order only
    Mutant(
        "straight-only-in-dealt-order",
        "cards-speak",
        WITH_STRAIGHTS,
        "Straights are found only when the cards arrive in sequence (the input is assumed sorted).",
        (straight_only_in_dealt_order(),),
    ),
    Mutant(
        "kickers-in-dealt-order",
        "cards-speak",
        WITH_KICKERS,
        "Unpaired cards are compared in the order they were dealt, not from the top down.",
        (kickers_in_dealt_order(),),
    ),
    Mutant(
        "flush-ignores-last-card",
        "cards-speak",
        (*WITH_STRAIGHTS, *POCKET),
        "The suit loop stops one card early: four suited cards and an off-suit last card "
        "make a flush.",
        (flush_ignores_last_card(),),
    ),
    # --- showdowns
    Mutant(
        "first-winner-only",
        "multiway-split",
        SHOWDOWN,
        "On a split (push, tie) only the first of the equal best hands is returned.",
        (first_winner_only(),),
    ),
    Mutant(
        "winners-against-first-hand",
        "multiway-split",
        SHOWDOWN,
        "Every hand is scored against the first hand only (the dealer), not against each other.",
        (winners_against_first_hand(),),
    ),
    # --- low games
    Mutant(
        "lowball-ace-low",
        "ace-high-lowball",
        ("nj-lowball-2-7",),
        "Deuce-to-seven plays the ace low, as in ace-to-five.",
        (knobs(ace="low", low_pair_ace="low"),),
    ),
    Mutant(
        "lowball-wheel-straight",
        "ace-high-lowball",
        ("nj-lowball-2-7",),
        "Deuce-to-seven counts A-2-3-4-5 as a straight (the high-poker straight test).",
        (knobs(straight_ace="both"),),
        same_as_reading=(("lowball-wheel", "literal"),),
    ),
    Mutant(
        "ace-high-in-a5-low",
        "ace-low",
        A5_LOW,
        "Ace-to-five low plays the ace high (the worst card).",
        (knobs(ace="high", low_pair_ace="high"),),
    ),
    Mutant(
        "aces-worst-low-pair",
        "ace-low",
        (*A5_LOW, *RAZZ),
        "In ace-to-five low a pair of aces is the worst pair, not the best.",
        (knobs(low_pair_ace="high"),),
        same_as_reading=(("low-pair-inverse", "literal"),),
    ),
    Mutant(
        "a5-straights-flushes-count",
        "low-straights-flushes",
        A5_LOW,
        "Ace-to-five low counts straights and flushes against the hand, as deuce-to-seven does.",
        (
            per_ruleset_order(
                {
                    "nj-poker-low-5": [
                        CategoryName.HIGH_CARD,
                        CategoryName.ONE_PAIR,
                        CategoryName.TWO_PAIR,
                        CategoryName.THREE_OF_A_KIND,
                        CategoryName.STRAIGHT,
                        CategoryName.FLUSH,
                        CategoryName.FULL_HOUSE,
                        CategoryName.FOUR_OF_A_KIND,
                        CategoryName.STRAIGHT_FLUSH,
                    ],
                    "nj-poker-low-3": [
                        CategoryName.HIGH_CARD,
                        CategoryName.ONE_PAIR,
                        CategoryName.FLUSH,
                        CategoryName.STRAIGHT,
                        CategoryName.THREE_OF_A_KIND,
                        CategoryName.STRAIGHT_FLUSH,
                    ],
                    "mt-poker-low": [
                        CategoryName.HIGH_CARD,
                        CategoryName.ONE_PAIR,
                        CategoryName.TWO_PAIR,
                        CategoryName.THREE_OF_A_KIND,
                        CategoryName.STRAIGHT,
                        CategoryName.FLUSH,
                        CategoryName.FULL_HOUSE,
                        CategoryName.FOUR_OF_A_KIND,
                        CategoryName.STRAIGHT_FLUSH,
                        CategoryName.FIVE_OF_A_KIND,
                    ],
                }
            ),
        ),
        same_as_reading=(("mt-low-order", "literal"),),
    ),
    Mutant(
        "lowball-straights-flushes-ignored",
        "low-straights-flushes",
        ("nj-lowball-2-7",),
        "Deuce-to-seven ignores straights and flushes, as ace-to-five does.",
        (
            without(
                CategoryName.STRAIGHT,
                CategoryName.FLUSH,
                CategoryName.STRAIGHT_FLUSH,
                CategoryName.ROYAL_FLUSH,
            ),
        ),
    ),
    Mutant(
        "low-best-card-first",
        "low-order",
        (*LOW, *RAZZ),
        "Low hands are compared from their best (lowest) card up instead of from the top "
        "card down.",
        (knobs(low_card_order="best_first"),),
        same_as_reading=(("low-card-order", "literal"),),
    ),
    Mutant(
        "low-higher-pair-wins",
        "low-order",
        (*LOW, *RAZZ),
        "Low games invert the category order but not the ranks: the higher pair wins.",
        (tiebreak(_low_pairs_inverted),),
    ),
    # --- Mini-tex best-hand selection and the pocket wager
    Mutant(
        "minitex-board-plays",
        "best-hand-selection",
        MINITEX,
        "The three community cards alone may be the hand (no hole card required).",
        (selection(min_hole=0),),
    ),
    Mutant(
        "minitex-two-hole-cards",
        "best-hand-selection",
        MINITEX,
        "Both hole cards must be used (one community card).",
        (selection(min_hole=2),),
    ),
    Mutant(
        "minitex-one-hole-card-only",
        "best-hand-selection",
        MINITEX,
        "Exactly one hole card is used with two community cards, never both hole cards.",
        (best_from_single_hole_card(),),
    ),
    Mutant(
        "minitex-best-by-category-only",
        "best-hand-selection",
        MINITEX,
        "The best hand is the first candidate of the best category found; kickers never "
        "choose between candidates.",
        (best_by_category_only(),),
    ),
    Mutant(
        "pocket-aces-as-pair",
        "pocket-wager",
        POCKET,
        "The pair test runs before the pair-of-aces test: A-A is paid as a plain pair.",
        (without(CategoryName.PAIR_OF_ACES),),
    ),
    Mutant(
        "pocket-straight-flush-missed",
        "pocket-wager",
        POCKET,
        "Suited consecutive pocket cards are paid as a straight.",
        (without(CategoryName.STRAIGHT_FLUSH),),
    ),
    Mutant(
        "pocket-ace-two-not-consecutive",
        "pocket-wager",
        POCKET,
        "Pocket A-2 is not consecutive (the ace plays low only with a three).",
        (knobs(straight_ace="high"),),
        same_as_reading=(("pocket-ace-two", "literal"),),
    ),
    # --- Montana wild cards and five of a kind
    Mutant(
        "wild-duplicates-allowed",
        "wild-card",
        ("mt-poker-high",),
        "A wild card may duplicate a held card: A-J-8-4 of spades + joker is a flush with "
        "two aces.",
        (knobs(wild_duplicates="allowed"),),
        same_as_reading=(("wild-duplicates", "literal"),),
    ),
    Mutant(
        "wild-always-ace",
        "wild-card",
        MONTANA,
        "A wild card is always an ace (the 'bug'), never the card that makes the best hand.",
        (wild_always_ace(),),
    ),
    Mutant(
        "wild-resolved-for-high",
        "wild-card",
        ("mt-poker-low",),
        "Low poker chooses the wild card that makes the best high hand.",
        (wild_resolved_by("mt-poker-high"),),
    ),
    Mutant(
        "jokers-refused",
        "wild-card",
        MONTANA,
        "The Montana deck is read as a plain 52-card deck: a joker is refused.",
        (deck_jokers(0),),
    ),
    Mutant(
        "five-of-a-kind-below-straight-flush",
        "five-of-a-kind",
        ("mt-poker-high",),
        "Five of a kind is placed below the straight flushes, as some wild games do.",
        (
            order_like(
                (
                    CategoryName.ROYAL_FLUSH,
                    CategoryName.STRAIGHT_FLUSH,
                    CategoryName.FIVE_OF_A_KIND,
                    *FIVE_CARD_HIGH_ORDER[4:],
                )
            ),
        ),
    ),
    Mutant(
        "five-of-a-kind-as-quads",
        "five-of-a-kind",
        ("mt-poker-high",),
        "Five of a kind is not a category: it is read as four of a kind.",
        (without(CategoryName.FIVE_OF_A_KIND),),
    ),
    Mutant(
        "five-of-a-kind-all-equal",
        "five-of-a-kind",
        ("mt-poker-high",),
        "Every five of a kind ties every other: their rank is never compared.",
        (
            classified(
                lambda cat, key: (cat, key[:1] if cat == CategoryName.FIVE_OF_A_KIND else key)
            ),
        ),
    ),
    # not in low poker: five of a kind is the worst low hand, and a wild card is never
    # forced to make it, so the rule cannot change a low answer
    Mutant(
        "five-of-a-kind-needs-four-naturals",
        "five-of-a-kind",
        ("mt-poker-high",),
        "Five of a kind needs four natural cards and one wild: three kings and two "
        "jokers are only four of a kind.",
        (knobs(five_of_a_kind="four_naturals"),),
        same_as_reading=(("mt-five-of-a-kind", "literal"),),
    ),
    Mutant(
        "natural-beats-wild",
        "natural-vs-wild",
        MONTANA,
        "A natural hand beats a wild-card hand of the same value (a house rule the "
        "regulation does not have).",
        (_naturals_first(),),
    ),
    # --- table games: the category orders that differ from five-card poker
    Mutant(
        "three-card-straight-flush-below-trips",
        "three-card-order",
        TABLE3,
        "Three of a kind ranked above the three-card straight flush, as if trips were "
        "rarer (they are not: 52 against 48).",
        (swap(CategoryName.STRAIGHT_FLUSH, CategoryName.THREE_OF_A_KIND),),
    ),
    Mutant(
        "three-card-trips-below-straight",
        "three-card-order",
        TABLE3,
        "The three-card straight ranked above three of a kind.",
        (swap(CategoryName.THREE_OF_A_KIND, CategoryName.STRAIGHT),),
    ),
    Mutant(
        "four-card-straight-flush-above-quads",
        "category-order",
        TABLE4,
        "Four-card poker ranks the straight flush above four of a kind, as five-card poker does.",
        (swap(CategoryName.FOUR_OF_A_KIND, CategoryName.STRAIGHT_FLUSH),),
    ),
    Mutant(
        "four-card-flush-above-trips",
        "category-order",
        TABLE4,
        "Four-card poker ranks the flush above three of a kind, as five-card poker does.",
        (swap(CategoryName.THREE_OF_A_KIND, CategoryName.FLUSH),),
    ),
    Mutant(
        "four-card-straight-above-flush",
        "category-order",
        TABLE4,
        "Four-card straight and flush trade places.",
        (swap(CategoryName.FLUSH, CategoryName.STRAIGHT),),
    ),
    Mutant(
        "four-card-five-card-order",
        "category-order",
        TABLE4,
        "The five-card order is copied into four-card poker: straight flush > four of a "
        "kind > flush > straight > three of a kind.",
        (order_like(FIVE_CARD_HIGH_ORDER),),
    ),
    Mutant(
        "four-card-two-pair-as-pair",
        "category-order",
        TABLE4,
        "Four-card poker has no two pair: two pairs are read as one pair.",
        (without(CategoryName.TWO_PAIR),),
    ),
    Mutant(
        "four-card-ace-low-missed",
        "wheel",
        TABLE4,
        "The ace never plays low in four cards: 4-3-2-A is an ace-high hand.",
        (knobs(straight_ace="high"),),
    ),
    Mutant(
        "table-royal-not-named",
        "royal-naming",
        TABLE5,
        "The royal flush of the payout table is reported as a straight flush.",
        (without(CategoryName.ROYAL_FLUSH),),
    ),
    Mutant(
        "table-straight-needs-distinct-suits",
        "category-order",
        TABLE5,
        "'Not all of the same suit' is read as 'all of different suits': no five-card "
        "straight exists.",
        (knobs(straight_suits="distinct"),),
    ),
    Mutant(
        "table-quads-below-full-house",
        "category-order",
        TABLE5,
        "Four of a kind and full house trade places on the payout table.",
        (swap(CategoryName.FOUR_OF_A_KIND, CategoryName.FULL_HOUSE),),
    ),
    Mutant(
        "table-two-pair-above-trips",
        "category-order",
        TABLE5,
        "Two pairs ranked above three of a kind on the payout table.",
        (swap(CategoryName.THREE_OF_A_KIND, CategoryName.TWO_PAIR),),
    ),
    # --- the dealer qualifier (kind 'qualifies')
    Mutant(
        "qualifier-one-rank-low",
        "dealer-qualifier",
        QUALIFIED,
        "The qualifier is set one rank too low: ace-queen (jack high in three cards; "
        "the best hand with no pair where a pair is needed) qualifies.",
        (
            qualifier_minimum(
                {
                    "nj-caribbean-stud": "Ah Qd 4c 3s 2h",
                    "nj-three-card-poker": "Jh 3d 2c",
                    "nj-mini-tex-3": "Ah Kd Jc",
                }
            ),
        ),
    ),
    Mutant(
        "qualifier-one-rank-high",
        "dealer-qualifier",
        QUALIFIED,
        "The qualifier is set one rank too high: ace-king-queen (king high in three "
        "cards; a pair of threes where a pair is needed) is needed.",
        (
            qualifier_minimum(
                {
                    "nj-caribbean-stud": "Ah Kd Qc 3s 2h",
                    "nj-three-card-poker": "Kh 3d 2c",
                    "nj-mini-tex-3": "3h 3d 2c",
                }
            ),
        ),
    ),
    Mutant(
        "qualifier-strict",
        "dealer-qualifier",
        QUALIFIED,
        "'Or better' read as 'better than': the lowest qualifying hand itself does not qualify.",
        (qualifier_strict(),),
    ),
    # --- the posting 'deuces wild' (ARM 23.16.1205(5))
    Mutant(
        "deuces-not-wild",
        "wild-card",
        DEUCES,
        "The posting is ignored: deuces play as twos.",
        (wild_designation(None),),
    ),
    Mutant(
        "deuces-always-aces",
        "wild-card",
        DEUCES,
        "A wild deuce is always an ace, never the card that makes the best hand.",
        (wild_always_ace(),),
    ),
    Mutant(
        "deuces-resolved-for-high",
        "wild-card",
        ("mt-poker-low-deuces",),
        "Low poker chooses the deuces that make the best high hand.",
        (wild_resolved_by("mt-poker-high-deuces"),),
    ),
    Mutant(
        "deuces-five-of-a-kind-below-straight-flush",
        "five-of-a-kind",
        ("mt-poker-high-deuces",),
        "Five of a kind is placed below the straight flushes, as deuces-wild pay "
        "tables order some wild hands.",
        (
            order_like(
                (
                    CategoryName.ROYAL_FLUSH,
                    CategoryName.STRAIGHT_FLUSH,
                    CategoryName.FIVE_OF_A_KIND,
                    *FIVE_CARD_HIGH_ORDER[4:],
                )
            ),
        ),
    ),
    # --- input validation
    Mutant(
        "duplicates-accepted",
        "input-validation",
        ALL,
        "No duplicate-card check: 'As As Kd Qc Jh' is ranked as a pair of aces.",
        (accept_duplicates(),),
    ),
    Mutant(
        "wrong-count-accepted",
        "input-validation",
        ALL,
        "The number of cards is never checked: four aces alone are four of a kind.",
        (accept_any_count(),),
    ),
    Mutant(
        "unknown-suit-accepted",
        "input-validation",
        ALL,
        "Only the rank is validated: any letter is taken as a suit.",
        (accept_unknown_suits(),),
    ),
    Mutant(
        "one-reason-code",
        "input-validation",
        ALL,
        "Every refusal is reported as 'bad-card', whatever was wrong.",
        (reason_code(BAD_CARD),),
    ),
    Mutant(
        "jokers-accepted",
        "input-validation",
        NJ,
        "Jokers are accepted (as wild cards) in games whose deck has none.",
        (deck_jokers(2, five_of_a_kind="any", wild_duplicates="five_of_a_kind_only"),),
    ),
    Mutant(
        "board-ignored",
        "unused-field",
        tuple(r for r in SHOWDOWN if r not in MINITEX),
        "A board sent with a showdown of a game without community cards is ignored "
        "instead of refused (PROTOCOL.md 3.3).",
        (patch(lambda s: replace(s, showdown=wrapped(s.showdown, _board_dropped))),),
    ),
    Mutant(
        "duplicates-across-hands-accepted",
        "one-deck",
        SHOWDOWN,
        "Each hand is checked for duplicates on its own: one card in two hands, or in the "
        "hole and on the board, passes.",
        (accept_duplicates_across_hands(),),
    ),
)


def _winners_share_equally(won: dict[str, tuple[int, ...]], n: int) -> list[Fraction]:
    """Every hand that wins anything gets the same part of the pot."""
    everyone = sorted({i for w in won.values() for i in w})
    return [Fraction(1, len(everyone)) if i in everyone else Fraction(0) for i in range(n)]


def _high_keeps_half(won: dict[str, tuple[int, ...]], n: int) -> list[Fraction]:
    """Each half is half the pot even when no low qualifies (that half goes to no one)."""
    shares = [Fraction(0)] * n
    for w in won.values():
        for i in w:
            shares[i] += Fraction(1, 2 * len(w))
    return shares


_LOW_WITH_STRAIGHTS = (
    CategoryName.HIGH_CARD,
    CategoryName.ONE_PAIR,
    CategoryName.TWO_PAIR,
    CategoryName.THREE_OF_A_KIND,
    CategoryName.STRAIGHT,
    CategoryName.FLUSH,
    CategoryName.FULL_HOUSE,
    CategoryName.FOUR_OF_A_KIND,
    CategoryName.STRAIGHT_FLUSH,
)

POT_MUTANTS: tuple[Mutant, ...] = (
    # --- which five cards: the board, the hole cards
    Mutant(
        "board-cannot-play",
        "board-plays",
        HOLDEM,
        "Hold'em hands must use at least one hole card: the board never plays alone.",
        (hole_cards_used(1, 2),),
    ),
    Mutant(
        "holdem-two-hole-cards",
        "counterfeit",
        HOLDEM,
        "Hold'em hands use exactly two hole cards (the Omaha rule copied into hold'em).",
        (hole_cards_used(2, 2),),
    ),
    Mutant(
        "omaha-any-five",
        "four-flush-board",
        OMAHAS,
        "Omaha hands are the best five of all nine cards (hold'em's rule): a four-card "
        "flush on the board plays with one hole card.",
        (hole_cards_used(0, 4),),
    ),
    Mutant(
        "omaha-three-hole-cards",
        "exactly-two-hole",
        OMAHAS,
        "Omaha hands may use two or three hole cards.",
        (hole_cards_used(2, 3),),
    ),
    Mutant(
        "omaha-one-hole-card",
        "four-flush-board",
        OMAHAS,
        "Omaha hands may use one or two hole cards (a hold'em evaluator capped at two): "
        "a lone ace of a suit plays with four of that suit on the board.",
        (hole_cards_used(1, 2),),
    ),
    Mutant(
        "omaha-low-one-hole-card",
        "exactly-two-hole",
        ("nj-omaha-hi-lo",),
        "The Omaha low is made with one or two hole cards (the high with exactly two).",
        (low_selection(1, 2),),
    ),
    Mutant(
        "stud-first-five-cards",
        "best-five-of-seven",
        STUDS,
        "A stud hand is valued from the first five of its seven cards.",
        (stud_first_five(),),
    ),
    # --- the low half: qualifier and ranking
    Mutant(
        "qualifier-nine-or-better",
        "low-qualifier",
        HI_LO,
        "The low qualifier is off by one: a nine-low qualifies.",
        (qualifier_rank(9),),
    ),
    Mutant(
        "qualifier-seven-or-better",
        "low-qualifier",
        HI_LO,
        "The low qualifier is off by one the other way: an eight-low does not qualify.",
        (qualifier_rank(7),),
    ),
    Mutant(
        "low-without-qualifier",
        "no-qualifying-low",
        HI_LO,
        "The low half is awarded to the best low even when none is eight or better.",
        (qualifier_rank(None),),
    ),
    Mutant(
        "wheel-not-a-low",
        "scoop",
        (*HI_LO, *RAZZ),
        "The ace counts high in the low ranking: A-2-3-4-5 is an ace-high hand, no low.",
        (low_ranking(knobs(ace="high", straight_ace="high")),),
    ),
    Mutant(
        "straights-count-against-low",
        "low-straights-flushes",
        (*HI_LO, *RAZZ),
        "Straights and flushes count in the low ranking (as bad hands): the wheel is a "
        "straight, not the best low.",
        (low_ranking(categories(lambda names, rs: list(_LOW_WITH_STRAIGHTS))),),
    ),
    Mutant(
        "low-never-from-high-cards",
        "scoop",
        HI_LO,
        "The low half may not be won with the five cards that win high: a wheel that wins "
        "high cannot also win low, so it never scoops.",
        (knobs(halves_cards="distinct"),),
        same_as_reading=(("same-cards-both-halves", "literal"),),
    ),
    Mutant(
        "low-from-high-hand",
        "split-pot",
        HI_LO,
        "The low half is valued from the five cards of the high hand instead of being "
        "chosen separately.",
        (low_from_high_five(),),
    ),
    Mutant(
        "razz-pairs-ignored",
        "razz-pairs",
        RAZZ,
        "Razz hands are ranked by their cards alone: a pair does not count against a low.",
        (
            without(
                CategoryName.ONE_PAIR,
                CategoryName.TWO_PAIR,
                CategoryName.THREE_OF_A_KIND,
                CategoryName.FULL_HOUSE,
                CategoryName.FOUR_OF_A_KIND,
            ),
        ),
    ),
    # --- kickers on a shared board
    Mutant(
        "quads-kicker-ignored",
        "shared-board-kicker",
        HOLDEM,
        "Four of a kind is compared by its rank alone: the kicker beside quads on the "
        "board never decides.",
        (tiebreak(_quads_kicker_dropped),),
    ),
    # --- sharing the pot
    Mutant(
        "quarter-shares-wrong",
        "quartered-pot",
        HI_LO,
        "Every hand that wins a half gets an equal part of the whole pot: a quartered "
        "low pays 1/2 and 1/2 instead of 3/4 and 1/4.",
        (shares_by(_winners_share_equally),),
    ),
    Mutant(
        "no-low-half-kept",
        "no-qualifying-low",
        HI_LO,
        "When no low qualifies the high hand still gets only half the pot.",
        (shares_by(_high_keeps_half),),
    ),
    Mutant(
        "tied-half-not-split",
        "dealt-showdown",
        ROOM,
        "A half several hands tie for goes whole to the first of them.",
        (first_of_each_half(),),
    ),
)
MUTANTS = (*MUTANTS, *POT_MUTANTS, *FLUSH_LENGTH_MUTANTS)

# --- the joker games (issue 29): the bug, five aces and the wheel's place
JOKER = ("sd-poker-high-joker", "lc-pai-gow-poker", "wa-pai-gow-poker")
_FIVE_ACES_BELOW = (
    CategoryName.ROYAL_FLUSH,
    CategoryName.STRAIGHT_FLUSH,
    CategoryName.FIVE_OF_A_KIND,
    *FIVE_CARD_HIGH_ORDER[5:],
)
JOKER_MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        "bug-as-any-card",
        "wild-card",
        JOKER,
        "The joker is fully wild: K-K-K-Q with the joker is four kings, two pair and "
        "the joker a full house.",
        (wild_designation("joker"),),
    ),
    Mutant(
        "bug-always-ace",
        "wild-card",
        JOKER,
        "The joker is always an ace, never the card that completes a straight or flush.",
        (wild_always_ace(),),
    ),
    Mutant(
        "bug-duplicates-a-held-card",
        "wild-card",
        JOKER,
        "The joker completing a flush is an ace even beside the flush's own ace: "
        "A-K-9-5 of hearts and the joker is a flush with two aces of hearts.",
        (knobs(wild_duplicates="allowed"),),
    ),
    Mutant(
        "five-aces-below-straight-flush",
        "five-of-a-kind",
        JOKER,
        "Five aces are ranked below the straight flushes (above four of a kind).",
        (order_like(_FIVE_ACES_BELOW),),
        same_as_reading=(("lc-five-aces", "literal"),),
    ),
    Mutant(
        "five-aces-as-quads",
        "five-of-a-kind",
        JOKER,
        "Five aces are not a category: four aces and the joker are four of a kind.",
        (without(CategoryName.FIVE_OF_A_KIND),),
    ),
    Mutant(
        "wheel-second-highest",
        "wheel",
        ("sd-poker-high-joker", "wa-pai-gow-poker"),
        "A-2-3-4-5 is ranked just below the ace-high straight and straight flush, as pai "
        "gow houses rank it, where the text makes it the lowest.",
        (knobs(wheel_place="second_highest"),),
    ),
    Mutant(
        "wheel-lowest-in-pai-gow",
        "wheel",
        ("lc-pai-gow-poker",),
        "A-2-3-4-5 is ranked the lowest straight, as in standard poker, where the text "
        "makes it the second highest.",
        (knobs(wheel_place="lowest"),),
    ),
    Mutant(
        "joker-games-wraparound",
        "wraparound",
        JOKER,
        "Sequences are tested modulo 13: K-A-2-3 and the joker make a straight.",
        (run_top(_wraps_around),),
    ),
    Mutant(
        "joker-games-flush-below-straight",
        "category-order",
        JOKER,
        "The flush and the straight trade places, the joker's flushes included.",
        (swap(CategoryName.FLUSH, CategoryName.STRAIGHT),),
    ),
)
MUTANTS = (*MUTANTS, *JOKER_MUTANTS)

# pai gow's two-card hand, setting rule and settlement (kinds compare_two_card, setting
# and settle; reference/pai_gow.py)
PAI_GOW = ("lc-pai-gow-poker", "wa-pai-gow-poker")
PAI_GOW_MUTANTS = (
    Mutant(
        "pai-gow-setting-ignored",
        "setting-rule",
        PAI_GOW,
        "Every setting is legal: a two-card hand that outranks the five-card hand is never "
        "foul, and such a player is settled on the hands as set.",
        (setting_ignored(),),
    ),
    Mutant(
        "pai-gow-copies-to-player",
        "copy",
        PAI_GOW,
        "A copy (a hand exactly equal to the banker's) counts as the player's, not the banker's.",
        (copies_to("player"),),
    ),
    Mutant(
        "pai-gow-two-card-joker-not-ace",
        "two-card-hand",
        PAI_GOW,
        "In the two-card hand the joker counts below the deuce instead of as an ace: "
        "ace-joker is no pair, joker-king loses to queen-jack.",
        (two_card_joker_not_ace(),),
    ),
    Mutant(
        "pai-gow-high-hand-only",
        "settlement",
        PAI_GOW,
        "The wager is settled on the five-card hands alone: the two-card hand never turns "
        "a win into a push or a loss into one.",
        (settled_on_high_hand(),),
    ),
)
MUTANTS = (*MUTANTS, *PAI_GOW_MUTANTS)

# --- South Dakota's poker-room games (sdroom29, issue 29): ARSD 20:18:16:13 five-card stud
# and 15.01 hold 'em eighty-eight (one or both hole cards with four community cards)
SD_88 = ("sd-holdem-88",)
SD_ROOM = (*SD_88, "sd-five-card-stud")
SD_ROOM_MUTANTS = (
    Mutant(
        "sd-opener-suits-at-showdown",
        "suit-tiebreak",
        SD_ROOM,
        "The suit order of 20:18:16:13 (spades, hearts, diamonds, clubs), which decides "
        "only who opens, breaks showdown ties, where 31(5) says suits do not count.",
        (_suits_break_ties(),),
    ),
    Mutant(
        "sd-88-two-hole-cards",
        "one-hole-card",
        SD_88,
        "Hold 'em eighty-eight hands use exactly two hole cards (Omaha's rule): one hole "
        "card with the four community cards never plays.",
        (hole_cards_used(2, 2),),
    ),
    Mutant(
        "sd-88-one-hole-card",
        "both-hole-cards",
        SD_88,
        "Hold 'em eighty-eight hands are one hole card with the four community cards only: "
        "both hole cards with three community cards never play.",
        (hole_cards_used(1, 1),),
    ),
    Mutant(
        "sd-wheel-ace-high",
        "wheel",
        SD_ROOM,
        "A-2-3-4-5 is ranked as an ace-high straight, where 03(6) makes it the lowest.",
        (run_top(_wheel_tops_at_ace),),
    ),
    Mutant(
        "sd-flush-below-straight",
        "category-order",
        SD_ROOM,
        "The flush and the straight trade places in 03's list.",
        (swap(CategoryName.FLUSH, CategoryName.STRAIGHT),),
    ),
    Mutant(
        "sd-full-house-below-flush",
        "category-order",
        SD_ROOM,
        "The full house and the flush trade places in 03's list.",
        (swap(CategoryName.FULL_HOUSE, CategoryName.FLUSH),),
    ),
    Mutant(
        "sd-trips-below-two-pair",
        "category-order",
        SD_ROOM,
        "Three of a kind and two pair trade places in 03's list.",
        (swap(CategoryName.THREE_OF_A_KIND, CategoryName.TWO_PAIR),),
    ),
    Mutant(
        "sd-pair-below-high-card",
        "category-order",
        SD_ROOM,
        "One pair and high card trade places in 03's list.",
        (swap(CategoryName.ONE_PAIR, CategoryName.HIGH_CARD),),
    ),
    Mutant(
        "sd-kickers-ignored",
        "kicker-order",
        SD_ROOM,
        "Only the category and the paired ranks are compared: kickers never decide.",
        (tiebreak(_kickers_dropped),),
    ),
    Mutant(
        "sd-tie-not-split",
        "multiway-split",
        SD_ROOM,
        "Tying hands do not split the pot (15.01(7) says they do): it goes whole to the "
        "first of them.",
        (first_of_each_half(),),
    ),
)
MUTANTS = (*MUTANTS, *SD_ROOM_MUTANTS)

# South Dakota five-card low draw (ARSD 20:18:16:12(2)): the ace below the deuce (03)
SD_LOW = ("sd-draw-low",)
SD_LOW_MUTANTS = (
    Mutant(
        "sd-low-ace-high",
        "ace-low",
        SD_LOW,
        "Low draw plays the ace high (the worst card), where 03 ranks it below the deuce.",
        (knobs(ace="high", low_pair_ace="high"),),
    ),
    Mutant(
        "sd-low-aces-worst-pair",
        "ace-low",
        SD_LOW,
        "A pair of aces is the worst low pair, where 03 ranks the ace below the deuce.",
        (knobs(low_pair_ace="high"),),
    ),
    Mutant(
        "sd-low-straights-flushes-count",
        "low-straights-flushes",
        SD_LOW,
        "Straights and flushes count against a low hand (A-2-3-4-5 a straight): the "
        "literal reading of sd-low-order, a mistake under the practice one.",
        (
            per_ruleset_order(
                {
                    "sd-draw-low": [
                        CategoryName.HIGH_CARD,
                        CategoryName.ONE_PAIR,
                        CategoryName.TWO_PAIR,
                        CategoryName.THREE_OF_A_KIND,
                        CategoryName.STRAIGHT,
                        CategoryName.FLUSH,
                        CategoryName.FULL_HOUSE,
                        CategoryName.FOUR_OF_A_KIND,
                        CategoryName.STRAIGHT_FLUSH,
                    ]
                }
            ),
        ),
        same_as_reading=(("sd-low-order", "literal"),),
    ),
    Mutant(
        "sd-low-best-card-first",
        "low-order",
        SD_LOW,
        "Low hands are compared from their lowest card up instead of from the top down.",
        (knobs(low_card_order="best_first"),),
    ),
    Mutant(
        "sd-low-higher-pair-wins",
        "low-order",
        SD_LOW,
        "The category order is inverted but not the ranks: the higher pair wins the low.",
        (tiebreak(_low_pairs_inverted),),
    ),
    Mutant(
        "sd-low-suit-tiebreak",
        "suit-tiebreak",
        SD_LOW,
        "Suits break ties between equal low hands, where 31(5) says suits do not count.",
        (_suits_break_ties(),),
    ),
    Mutant(
        "sd-low-kickers-ignored",
        "kicker-order",
        SD_LOW,
        "Only the category and the top card (or the paired ranks) are compared.",
        (tiebreak(_kickers_dropped),),
    ),
    Mutant(
        "sd-low-first-winner-only",
        "multiway-split",
        SD_LOW,
        "Of equal lowest hands only the first is returned as the winner.",
        (first_winner_only(),),
    ),
)
MUTANTS = (*MUTANTS, *SD_LOW_MUTANTS)

# South Dakota five-card high-low split draw (ARSD 20:18:16:12(4), sdlow29): the best high
# and the best low split the pot, three-quarters to one who wins a half and ties the other,
# one player may win both; the low half is 12(2)'s (sd-draw-low, sd-low-order)
SD_HILO = ("sd-draw-high-low",)
SD_HILO_MUTANTS = (
    Mutant(
        "sd-hilo-three-quarters-ignored",
        "quartered-pot",
        SD_HILO,
        "Every hand that wins or ties a half gets an equal part of the pot: one who wins "
        "high and ties low gets 1/2, not the three-quarters of 12(4).",
        (shares_by(_winners_share_equally),),
    ),
    Mutant(
        "sd-hilo-low-ace-high",
        "ace-low",
        SD_HILO,
        "The low half plays the ace high (the worst card), where 03 ranks it below the deuce "
        "in low poker.",
        (low_ranking(knobs(ace="high", low_pair_ace="high")),),
    ),
    Mutant(
        "sd-hilo-no-scoop",
        "scoop",
        SD_HILO,
        "The hand that wins high may not also win low (its five cards are spent), where "
        "12(4) says a player may win both.",
        (knobs(halves_cards="distinct"),),
    ),
    Mutant(
        "sd-hilo-straights-count-in-low",
        "low-straights-flushes",
        SD_HILO,
        "Straights and flushes count against a low hand: the wheel is a straight, not the "
        "best low (the literal reading of sd-low-order).",
        (low_ranking(categories(lambda names, rs: list(_LOW_WITH_STRAIGHTS))),),
        same_as_reading=(("sd-low-order", "literal"),),
    ),
    Mutant(
        "sd-hilo-tied-half-not-split",
        "multiway-split",
        SD_HILO,
        "A half tied by several hands goes whole to the first of them.",
        (first_of_each_half(),),
    ),
    Mutant(
        "sd-hilo-suits-break-ties",
        "suit-tiebreak",
        SD_HILO,
        "Suits break ties between equal hands, where 31(5) says suits do not count.",
        (_suits_break_ties(),),
    ),
    Mutant(
        "sd-hilo-wheel-ace-high",
        "wheel",
        SD_HILO,
        "A-2-3-4-5 is ranked as an ace-high straight in the high half, where 03(6) makes "
        "it the lowest.",
        (run_top(_wheel_tops_at_ace),),
    ),
    Mutant(
        "sd-hilo-low-best-card-first",
        "low-order",
        SD_HILO,
        "Low hands are compared from their lowest card up instead of from the top down.",
        (low_ranking(knobs(low_card_order="best_first")),),
    ),
    Mutant(
        "sd-hilo-kickers-ignored",
        "kicker-order",
        SD_HILO,
        "Only the category and the paired ranks are compared: kickers never decide.",
        (tiebreak(_kickers_dropped),),
    ),
)
MUTANTS = (*MUTANTS, *SD_HILO_MUTANTS)

_BY_ID = {m.id: m for m in MUTANTS}
assert len(_BY_ID) == len(MUTANTS), "mutant ids must be unique"


def get_mutant(mutant_id: str) -> Mutant:
    """The mutant with this id; ``KeyError`` lists the known ids otherwise."""
    try:
        return _BY_ID[mutant_id]
    except KeyError:
        raise KeyError(f"unknown mutant {mutant_id!r}; known: {', '.join(_BY_ID)}") from None
