"""The mutant catalogue: every mutant is a real, distinct mistake, never a no-op.

Each mutant has at least one hand-worked example below whose expected answer is read off
the regulation text (clause in the comment) or, where a clause is ambiguous, off the
practice reading of ``interpretations.toml``.  The reference must give that answer and the
mutant must not: that proves the mutant differs from the reference for a reason a
regulator would accept, independently of the corpus.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from pokercert.harness.api import PokerEvaluator, Rejected
from pokercert.harness.mutants import MUTANTS, MutantError, MutantEvaluator, get_mutant
from pokercert.harness.mutants.changes import patch, wrapped
from pokercert.harness.mutants.model import Mutant
from pokercert.harness.peers.reference import ReferenceEvaluator
from pokercert.reference import CardError, all_rulesets, evaluator, get_ruleset
from pokercert.vectors import registry
from pokercert.vectors.registry import in_corpus

H5, H3, LO5, DS = "nj-poker-high-5", "nj-poker-high-3", "nj-poker-low-5", "nj-lowball-2-7"
MT, MTL, MX, PK = "mt-poker-high", "mt-poker-low", "nj-mini-tex-3", "nj-mini-tex-pocket"
HOLDEM, OMAHA, OMAHA_HL = "nj-holdem", "nj-omaha", "nj-omaha-hi-lo"
STUD, STUD_HL, RAZZ = "nj-seven-card-stud", "nj-stud-hi-lo", "nj-razz"
TC, FC, DD, DX = (
    "nj-three-card-poker",
    "nj-four-card-poker",
    "nj-double-down-stud",
    "nj-double-cross-poker",
)
CS = "nj-caribbean-stud"
SDJ, LCP = "sd-poker-high-joker", "lc-pai-gow-poker"
MD, MDL = "mt-poker-high-deuces", "mt-poker-low-deuces"


def reject(code: str) -> tuple[str, str]:
    return ("reject", code)


# mutant id -> (ruleset, op, args, expected); op classify: hand -> category; winners:
# hands (, board) -> indices; best_hand: hole, board -> ({acceptable card sets}, category);
# qualifies: hand -> bool
EXAMPLES: dict[str, list[tuple]] = {
    # 14.3(b)6: "A, 2, 3, 4, 5 ... the lowest ranking straight"
    "wheel-missing": [
        (H5, "classify", ("Ah 2d 3c 4s 5h",), "straight"),
        (H3, "classify", ("Ac 2d 3h",), "straight"),
    ],  # (c)4 A-2-3
    # (b)6: the wheel is the lowest straight, so 6-high beats it
    "wheel-ranked-ace-high": [
        (H5, "winners", (["Ah 2d 3c 4s 5h", "6c 5d 4h 3s 2c"],), [1]),
        (PK, "classify", ("Ah 2h",), "straight_flush"),
    ],  # (d)3 not (d)1
    # (b)6: an ace-high straight is the highest straight
    "straights-all-equal": [(H5, "winners", (["Ah Ks Qd Jc Th", "Kh Qs Jd Tc 9h"],), [0])],
    # (b)6 sequence of five cards; 6-5-4-3-2 is one
    "lowest-straight-missed": [(H5, "classify", ("6c 5d 4h 3s 2c",), "straight")],
    # (b)6 "queen, king, ace, two, three" is no straight
    "wraparound-straights": [
        (H5, "classify", ("Qs Kh Ad 2c 3h",), "high_card"),
        (H3, "classify", ("Kd Ac 2h",), "high_card"),
    ],  # (c)4 K-A-2
    # (b)9 a pair; five cards not in sequence
    "straight-ignores-pairs": [(H5, "classify", ("5s 5h 6d 7c 9s",), "one_pair")],
    # (b): flush is listed above straight
    "flush-below-straight": [(H5, "winners", (["7c 5c 4c 3c 2c", "Ah Ks Qd Jc Th"],), [0])],
    # (b): full house is listed above flush
    "full-house-below-flush": [(H5, "winners", (["2s 2h 2d 3c 3s", "As Ks Qs Js 9s"],), [0])],
    # (b)2 K-Q-J-10-9 suited is the highest straight flush
    "straight-flush-as-flush": [(H5, "classify", ("Kh Qh Jh Th 9h",), "straight_flush")],
    # (c): three of a kind is listed above straight
    "three-card-five-card-order": [(H3, "winners", (["2s 2h 2d", "As Kd Qc"],), [0])],
    # (c): straight is listed above flush
    "three-card-flush-over-straight": [(H3, "winners", (["Ac 2d 3h", "Ks 9s 2s"],), [0])],
    # (b)1 royal flush: A K Q J 10 of the same suit
    "royal-not-named": [(H5, "classify", ("As Ks Qs Js Ts",), "royal_flush")],
    # 37.5(b)1: A-K-Q suited is the highest straight flush; Mini-tex has no royal
    "minitex-royal-named": [(MX, "classify", ("As Ks Qs",), "straight_flush")],
    # 37.5(d)1: ace and king of the same suit
    "pocket-royal-as-straight-flush": [(PK, "classify", ("As Ks",), "royal_straight_flush")],
    # 14.3(a) suits are equal; (d) identical hands split
    "suit-tiebreak": [(H5, "winners", (["Ah Kh Qd Jc 9s", "Ad Kd Qs Jh 9c"],), [0, 1])],
    # (d): the highest card one hand holds and the other lacks decides: K over Q
    "kickers-ignored": [(H5, "winners", (["As Ah Kd 7c 2s", "Ac Ad Qd 7h 2h"],), [0])],
    # (d): same pair of aces, the king kicker beats the queen
    "pair-kickers-ignored": [
        (H5, "winners", (["As Ah Kd 7c 2s", "Ac Ad Qd 7h 2h"],), [0]),
        (LO5, "winners", (["5s 5h 2d 3c 4s", "5c 5d 2h 3h 6s"],), [0]),
    ],
    # (d): same two pairs, the odd card decides: 7 over 6
    "two-pair-kicker-ignored": [(H5, "winners", (["As Ah Kd Kc 7s", "Ac Ad Ks Kh 6h"],), [0])],
    # (d): the ace is the highest card either holds
    "kickers-lowest-first": [(H5, "winners", (["Ah 9d 5c 3s 2h", "Kh Qd Jc Ts 8h"],), [0])],
    # (d): A-K-Q-J equal, 9 beats 8
    "flush-by-top-card": [(H5, "winners", (["As Ks Qs Js 9s", "Ah Kh Qh Jh 8h"],), [0])],
    # (a) a queen ranks above a jack; (b)9 a pair is two cards of the same rank
    "queen-valued-as-jack": [
        (H5, "classify", ("Qs Jh 9d 7c 2s",), "high_card"),
        (PK, "classify", ("Qh Jc",), "straight"),
    ],  # (d)5
    # (b)4 practice reading: three of a kind first, 4-4-4 over 3-3-3
    "all-cards-sorted": [(H5, "winners", (["4s 4h 4d 2c 2s", "3s 3h 3d Ac Ah"],), [0])],
    # (b)3 "four aces being the highest ranking four-of-a-kind"
    "aces-low-when-paired": [(H5, "winners", (["As Ah Ad Ac 3s", "2s 2h 2d 2c 3h"],), [0])],
    # (b)8 two pairs: the higher pair decides first
    "two-pair-by-low-pair": [(H5, "winners", (["Ks Kh 2d 2c 5s", "Qs Qh Jd Jc 5h"],), [0])],
    # (b)4 full house: ranked by its three of a kind
    "full-house-by-pair": [(H5, "winners", (["4s 4h 4d 2c 2s", "3s 3h 3d Kc Kh"],), [0])],
    # (g) cards speak: the order a hand is given in does not matter
    "straight-only-in-dealt-order": [(H5, "classify", ("9h Kd Jc Ts Qh",), "straight")],
    # (d): K is the highest card one pair of aces holds and the other lacks
    "kickers-in-dealt-order": [(H5, "winners", (["As Ah 2d 3c Kh", "Ac Ad Qd Jc Th"],), [0])],
    # (b)5 flush: five cards of the same suit; here only four
    "flush-ignores-last-card": [(H5, "classify", ("As Ks 9s 5s 2h",), "high_card")],
    # (d): identical hands split the pot
    "first-winner-only": [(H5, "winners", (["Ah Kh Qd Jc 9s", "Ad Kd Qs Jh 9c"],), [0, 1])],
    # (b): the ace-high hands both beat the 7-high hand; A-K-Q-J-9 beats A-K-Q-J-8
    "winners-against-first-hand": [
        (H5, "winners", (["2s 3h 4d 5c 7s", "Ah Kh Qd Jc 9s", "Ad Kd Qs Jh 8c"],), [1])
    ],
    # (e): in deuce-to-seven the ace is the worst card, so 8-6-5-4-3 beats A-7-5-4-3
    "lowball-ace-low": [(DS, "winners", (["Ah 7d 5c 4s 3h", "8h 6d 5d 4c 3d"],), [1])],
    # practice reading lowball-wheel: A-2-3-4-5 is ace-high no pair, which beats a pair
    "lowball-wheel-straight": [(DS, "winners", (["Ah 2d 3c 4s 5h", "2h 2c 3d 4h 5c"],), [0])],
    # (e): in ace-to-five the ace is the best card: 6-4-3-2-A beats 7-5-4-3-2
    "ace-high-in-a5-low": [(LO5, "winners", (["Ah 2d 3c 4s 6h", "7h 5d 4c 3d 2c"],), [0])],
    # practice reading low-pair-inverse: A-A is the best low pair
    "aces-worst-low-pair": [(LO5, "winners", (["As Ah 2d 3c 4s", "2h 2c 3d 4h 5c"],), [0])],
    # (f): straights and flushes do not count in low poker
    "a5-straights-flushes-count": [(LO5, "classify", ("As 2s 3s 4s 5s",), "high_card")],
    # (f): straights count in deuce-to-seven
    "lowball-straights-flushes-ignored": [(DS, "classify", ("8h 7d 6c 5s 4h",), "straight")],
    # practice reading low-card-order: 7-5-4-3-2 beats 8-4-3-2-A
    "low-best-card-first": [(LO5, "winners", (["7h 5d 4c 3s 2h", "8h 4d 3c 2s Ad"],), [0])],
    # (f) low rankings are the inverse: the lower pair is the better low hand
    "low-higher-pair-wins": [(LO5, "winners", (["2s 2h 5d 6c 7s", "Ks Kh 3d 4c 5h"],), [0])],
    # 37.5(a): at least one hole card; the board's A-K-Q suited cannot play alone
    "minitex-board-plays": [(MX, "best_hand", ("2c 7d", "As Ks Qs"), ({"As Ks 7d"}, "high_card"))],
    # 37.5(a): one hole card is enough: 7 with the board's two kings
    "minitex-two-hole-cards": [
        (MX, "best_hand", ("2c 7d", "Ks Kh Kd"), ({"Ks Kh 7d", "Ks Kd 7d", "Kh Kd 7d"}, "one_pair"))
    ],
    # 37.5(a): both hole cards may play: A-K of hearts with the queen of hearts
    "minitex-one-hole-card-only": [
        (MX, "best_hand", ("Ah Kh", "Qh 2c 7d"), ({"Ah Kh Qh"}, "straight_flush"))
    ],
    # 37.5(c): A-A-K beats A-A-2 and A-A-4, so the king is the kicker chosen
    "minitex-best-by-category-only": [
        (MX, "best_hand", ("4c Ah", "As 2h Kd"), ({"Ah As Kd"}, "one_pair"))
    ],
    # 37.5(d)2 pair of aces
    "pocket-aces-as-pair": [(PK, "classify", ("As Ah",), "pair_of_aces")],
    # 37.5(d)3 two suited cards of consecutive rank
    "pocket-straight-flush-missed": [(PK, "classify", ("9h 8h",), "straight_flush")],
    # practice reading pocket-ace-two: A-2 is consecutive
    "pocket-ace-two-not-consecutive": [(PK, "classify", ("Ah 2c",), "straight")],
    # practice reading wild-duplicates: the joker is the king of spades, A-K-J-8-4 < A-K-Q-8-4
    "wild-duplicates-allowed": [(MT, "winners", (["As Js 8s 4s Xx", "Ah Kh Qh 8h 4h"],), [1])],
    # 23.16.1205(2)(b) + (5): the joker as the king of hearts makes a straight flush
    "wild-always-ace": [(MT, "classify", ("9h Th Jh Qh Xx",), "straight_flush")],
    # (1): the ace is the lowest card in low poker, the joker plays as one: K-Q-3-2-A
    "wild-resolved-for-high": [(MTL, "classify", ("Kh Qd 2c 3s Xx",), "high_card")],
    # (2)(a) + (5): four kings and a wild card are five of a kind
    "jokers-refused": [(MT, "classify", ("Ks Kh Kd Kc Xx",), "five_of_a_kind")],
    # (2): five of a kind is listed above the straight flush
    "five-of-a-kind-below-straight-flush": [
        (MT, "winners", (["2s 2h 2d 2c Xx", "As Ks Qs Js Ts"],), [0])
    ],
    # (2) five of a kind ranks by its rank like any other group: kings over queens
    "five-of-a-kind-all-equal": [(MT, "winners", (["Ks Kh Kd Kc Xx", "Qs Qh Qd Qc Xx"],), [0])],
    "five-of-a-kind-as-quads": [(MT, "classify", ("Ks Kh Kd Kc Xx",), "five_of_a_kind")],
    # practice reading mt-five-of-a-kind: three kings and two wild cards count
    "five-of-a-kind-needs-four-naturals": [(MT, "classify", ("Ks Kh Kd Xx Xx",), "five_of_a_kind")],
    # (4): hands of equal value split; nothing favours natural cards
    "natural-beats-wild": [(MT, "winners", (["Ah Kd Qc Js Xx", "As Kh Qd Jc Ts"],), [0, 1])],
    # a deck has one ace of spades
    "duplicates-accepted": [(H5, "classify", ("As As Kd Qc Jh",), reject("duplicate-card"))],
    # (b): a hand is five cards
    "wrong-count-accepted": [(H5, "classify", ("As Ah Ad Ac",), reject("wrong-count"))],
    # (a): suits are spades, hearts, diamonds and clubs
    "unknown-suit-accepted": [(H5, "classify", ("As Kx Qd Jc 9h",), reject("bad-card"))],
    "one-reason-code": [(H5, "classify", ("As As Kd Qc Jh",), reject("duplicate-card"))],
    # 14.3 has no wild cards
    # 20.3(b): straight flush (1) above three of a kind (2) above straight (3)
    "three-card-straight-flush-below-trips": [(TC, "winners", (["Ac Ah Ad", "3s 2s As"],), [1])],
    "three-card-trips-below-straight": [(TC, "winners", (["Qs Kh Ad", "2h 2d 2c"],), [1])],
    # 27.3(b): four of a kind (1) above straight flush (2), three of a kind (3) above
    # flush (4) above straight (5) above two pair (6); (a) 4-3-2-A is a straight
    "four-card-straight-flush-above-quads": [
        (FC, "winners", (["As Ks Qs Js", "2s 2h 2d 2c"],), [1])
    ],
    "four-card-flush-above-trips": [(FC, "winners", (["Ks 9s 7s 2s", "3h 3d 3c 4s"],), [1])],
    "four-card-straight-above-flush": [(FC, "winners", (["Ah Kd Qc Js", "7s 5s 3s 2s"],), [1])],
    "four-card-five-card-order": [(FC, "winners", (["Ah Kd Qc Js", "2h 2d 2c 3s"],), [1])],
    "four-card-two-pair-as-pair": [(FC, "classify", ("9s 9h 4d 4c",), "two_pair")],
    "four-card-ace-low-missed": [(FC, "classify", ("4s 3h 2d Ac",), "straight")],
    # 17.5(b)1 and 25.5(b)1: A K Q J 10 of one suit is the royal flush
    "table-royal-not-named": [(DD, "classify", ("As Ks Qs Js Ts",), "royal_flush")],
    # 25.5(b)6: five cards in sequence, not all of one suit
    "table-straight-needs-distinct-suits": [(DX, "classify", ("9s 8s 7h 6d 5c",), "straight")],
    # 17.5(b): four of a kind (3) above full house (4); three of a kind (7) above two pairs
    "table-quads-below-full-house": [(DD, "winners", (["2s 2h 2d 2c 3s", "As Ah Ad Kc Ks"],), [0])],
    "table-two-pair-above-trips": [(DX, "winners", (["As Ah Kd Kc Qs", "2h 2d 2c 4s 5h"],), [1])],
    # the qualifiers as published (house rules): ace-king or better, queen high or better,
    # a pair or better (Mini-tex)
    "qualifier-one-rank-low": [
        (CS, "qualifies", ("As Qd Jc Th 9s",), False),
        (TC, "qualifies", ("Js Td 8c",), False),
        (MX, "qualifies", ("Ah Kd Jc",), False),
    ],
    "qualifier-one-rank-high": [
        (CS, "qualifies", ("Ah Kc 5d 3s 2h",), True),
        (TC, "qualifies", ("Qh 4d 2s",), True),
        (MX, "qualifies", ("2c 2s 4h",), True),
    ],
    "qualifier-strict": [
        (CS, "qualifies", ("As Kd 4c 3h 2s",), True),
        (TC, "qualifies", ("Qs 3d 2c",), True),
        (MX, "qualifies", ("2h 2d 3c",), True),
    ],
    # 23.16.1205(5) as posted 'deuces wild': a deuce may be any card; (2)(a) five of a
    # kind heads (2), above the straight flush
    "deuces-not-wild": [
        (MD, "classify", ("2s 2h Ac Ad Ah",), "five_of_a_kind"),
        (MDL, "winners", (["2s 3h 4d 5c 7s", "Ah 3c 4h 5d 7d"],), [0, 1]),
    ],
    "deuces-always-aces": [(MD, "classify", ("2c 9h 8h 7h 6h",), "straight_flush")],
    # low: the deuce is the ace (7-5-4-3-A), not the six of a high straight
    "deuces-resolved-for-high": [(MDL, "winners", (["2s 3h 4d 5c 7s", "Ah 3c 4h 6d 7d"],), [0])],
    "deuces-five-of-a-kind-below-straight-flush": [
        (MD, "winners", (["2s 2h Ac Ad Ah", "Ts Js Qs Ks As"],), [0])
    ],
    "jokers-accepted": [(H5, "classify", ("As Ks Qs Js Xx",), reject("joker-not-allowed"))],
    # one deck: two players cannot both hold the ace of spades
    "duplicates-across-hands-accepted": [
        (H5, "winners", (["As Kd Qc Jh 9s", "As Kh Qd Jc 8s"],), reject("duplicate-card"))
    ],
    # PROTOCOL.md 3.3: five-card stud deals no community cards, so a board is too many cards
    "board-ignored": [
        (H5, "winners", (["As Kd Qc Jh 9s", "2c 4d 6h 8s Tc"], "2h 3h 4h"), reject("wrong-count"))
    ],
    # --- the poker-room games: (hands, board) -> (high winners, low winners, shares)
    # RRoP-5: a broadway board plays for both: split
    "board-cannot-play": [
        (HOLDEM, "pot", (["2c 3d", "4h 2h"], "Ts Jh Qd Kc As"), ((0, 1), (), ("1/2", "1/2")))
    ],
    "holdem-two-hole-cards": [
        (HOLDEM, "pot", (["2c 3d", "4h 2h"], "Ts Jh Qd Kc As"), ((0, 1), (), ("1/2", "1/2")))
    ],
    "tied-half-not-split": [
        (HOLDEM, "pot", (["2c 3d", "4h 2h"], "Ts Jh Qd Kc As"), ((0, 1), (), ("1/2", "1/2")))
    ],
    # quads on the board: the ace kicker in the hole beats the king
    "quads-kicker-ignored": [
        (HOLDEM, "pot", (["Ah 2c", "Kh 3c"], "Qs Qh Qd Qc 5d"), ((0,), (), ("1", "0")))
    ],
    # RRoP-6: the lone ace of spades makes no flush; 3s 2s with three board spades does
    "omaha-any-five": [
        (OMAHA, "pot", (["As Kd Qh Jc", "3s 2s 7d 7h"], "Ks 9s 8s 4s 2c"), ((1,), (), ("0", "1")))
    ],
    # two pairs (9s and 7s) beat a pair of kings from two of three kings in hand
    "omaha-three-hole-cards": [
        (OMAHA, "pot", (["Kh Kd Kc 2d", "9h 7c 8c 8d"], "As 9d 7h 4s 3c"), ((1,), (), ("0", "1")))
    ],
    # RRoP-6: with one hole card the lone ace of spades would make the nut flush
    "omaha-one-hole-card": [
        (OMAHA, "pot", (["As Kd Qh Jc", "3s 2s 7d 7h"], "Ks 9s 8s 4s 2c"), ((1,), (), ("0", "1")))
    ],
    # RRoP-7: A-2-3-4-5 wins high (a straight) and low with the same five cards: a scoop
    "low-never-from-high-cards": [
        (
            STUD_HL,
            "pot",
            (["Ac 2d 3h 4s 5c Kd Qh", "8c 4d 3s 2c Ah 9d Jh"],),
            ((0,), (0,), ("1", "0")),
        )
    ],
    # one low card in hand makes no Omaha low: kings win the whole pot
    "omaha-low-one-hole-card": [
        (
            OMAHA_HL,
            "pot",
            (["5s Qh Qc Jd", "Kh Kc 9d 9s"], "As 2d 3h 4c Kd"),
            ((1,), (), ("0", "1")),
        )
    ],
    "no-low-half-kept": [
        (
            OMAHA_HL,
            "pot",
            (["5s Qh Qc Jd", "Kh Kc 9d 9s"], "As 2d 3h 4c Kd"),
            ((1,), (), ("0", "1")),
        )
    ],
    # two 7-4-3-2-A lows share the low half: a quarter each (PROTOCOL.md 4.7)
    "quarter-shares-wrong": [
        (
            OMAHA_HL,
            "pot",
            (["Ah 2h Kc Qd", "As 2s 9c 9d", "Kh Ks 8c 7c"], "3c 4d 7h Ts Tc"),
            ((2,), (0, 1), ("1/4", "1/4", "1/2")),
        )
    ],
    # RRoP-8: the pair of aces came sixth and seventh
    "stud-first-five-cards": [
        (STUD, "pot", (["2c 3d 7h 8s 9c Ah Ad", "Kc Kd 4h 5s 6c Jd Qh"],), ((0,), (), ("1", "0")))
    ],
    # RRoP-10: a nine-low does not qualify; trips take the whole pot
    "qualifier-nine-or-better": [
        (
            STUD_HL,
            "pot",
            (["9c 6d 4h 3s 2c Kd Kh", "Ac Ad As Qh Jd Tc 8d"],),
            ((1,), (), ("0", "1")),
        )
    ],
    "low-without-qualifier": [
        (
            STUD_HL,
            "pot",
            (["9c 6d 4h 3s 2c Kd Kh", "Ac Ad As Qh Jd Tc 8d"],),
            ((1,), (), ("0", "1")),
        )
    ],
    # an eight-low qualifies
    "qualifier-seven-or-better": [
        (
            STUD_HL,
            "pot",
            (["8c 6d 4h 3s 2c Kd Kh", "Ac Ad As Qh Jd Tc 9d"],),
            ((1,), (0,), ("1/2", "1/2")),
        )
    ],
    # the wheel is the best low and a straight: it scoops
    "wheel-not-a-low": [
        (
            STUD_HL,
            "pot",
            (["Ac 2d 3h 4s 5c Kd Qh", "6c 7d 8h 2s 3c Jd Jh"],),
            ((0,), (0,), ("1", "0")),
        )
    ],
    "straights-count-against-low": [
        (
            STUD_HL,
            "pot",
            (["Ac 2d 3h 4s 5c Kd Qh", "6c 7d 8h 2s 3c Jd Jh"],),
            ((0,), (0,), ("1", "0")),
        )
    ],
    # the low (7-6-4-3-2) is chosen apart from the high hand (kings)
    "low-from-high-hand": [
        (
            STUD_HL,
            "pot",
            (["Kc Kd 2h 3s 4c 6d 7h", "Qc Qd Qh Js Tc 9d 8h"],),
            ((1,), (0,), ("1/2", "1/2")),
        )
    ],
    # RRoP-9: razz pairs count: J-high without a pair beats a pair of aces
    "razz-pairs-ignored": [
        (RAZZ, "pot", (["Ac Ad 2h 2s 3c 3d 4h", "Kc Qd Jh Ts 9c 8d 7h"],), ((), (1,), ("0", "1")))
    ],
    # --- the joker games (issue 29), worked from ARSD 20:18:16:03 / :12(3), s.67(1), WSGC
    # 12(3): the joker is an ace unless it completes a straight or flush: three kings
    "bug-as-any-card": [(SDJ, "classify", ("Kh Kd Kc Qs Xx",), "three_of_a_kind")],
    # 12(3): the joker completes 9-8-6-5 into a straight (as the seven)
    "bug-always-ace": [(SDJ, "classify", ("9h 8d 6c 5s Xx",), "straight")],
    # a joker is a card the hand lacks: with the ace of hearts held it is the queen
    "bug-duplicates-a-held-card": [(SDJ, "winners", (["Ah Kh 9h 5h Xx", "As Ks Qs Js 2s"],), [1])],
    # 03(1): five aces are the highest hand
    "five-aces-below-straight-flush": [
        (SDJ, "winners", (["As Ah Ad Ac Xx", "Kd Qd Jd Td 9d"],), [0])
    ],
    "five-aces-as-quads": [(SDJ, "classify", ("As Ah Ad Ac Xx",), "five_of_a_kind")],
    # 03(6): the ace is low only in the five-high straight, the lowest
    "wheel-second-highest": [(SDJ, "winners", (["Ah 2d 3c 4s 5h", "Kh Qd Jc Ts 9s"],), [1])],
    # s.67(1) "straight": A-2-3-4-5 the second highest straight
    "wheel-lowest-in-pai-gow": [(LCP, "winners", (["Ah 2d 3c 4s 5h", "Kh Qd Jc Ts 9s"],), [0])],
    # 03(6): the ace is low only in the five-high straight: K-A-2-3 + joker is aces
    "joker-games-wraparound": [(SDJ, "classify", ("Kh Ad 2c 3s Xx",), "one_pair")],
    # 03(5) above 03(6)
    "joker-games-flush-below-straight": [
        (SDJ, "winners", (["8h 6h 4h 2h Xx", "Ks Qd Jc Th 9c"],), [0])
    ],
}


def _split(cards: str) -> list[str]:
    return cards.split()


PAI_GOW_OPS = ("two_card", "setting", "settle")


def pai_gow_answer(ev: object, ruleset: str, op: str, args: tuple) -> object:
    """A pai gow answer of the reference peer or a mutant evaluator (cards as tokens)."""
    ev.configure(ruleset, {})  # type: ignore[attr-defined]
    if op == "two_card":
        return ev.compare_two_card([_split(h) for h in args[0]])  # type: ignore[attr-defined]
    if op == "setting":
        return ev.setting(_split(args[0]), _split(args[1]))  # type: ignore[attr-defined]
    player, banker = ([_split(h) for h in side] for side in args)
    return ev.settle(player, banker)  # type: ignore[attr-defined]


def reference_answer(ruleset: str, op: str, args: tuple) -> object:
    ev = evaluator(ruleset)
    try:
        if op == "classify":
            return ev.category(args[0])
        if op == "winners":
            return ev.winners(*args)
        if op == "pot":
            pot = ev.pot(*args)
            return (pot.high, pot.low or (), tuple(str(f) for f in pot.shares))
        if op == "qualifies":
            return ev.qualifies(args[0])
        if op in PAI_GOW_OPS:
            return pai_gow_answer(ReferenceEvaluator(), ruleset, op, args)
        found = ev.best_hand(*args)
        return (" ".join(str(c) for c in found.cards), found.category)
    except CardError as exc:
        return reject(exc.code)


def mutant_answer(mutant_id: str, ruleset: str, op: str, args: tuple) -> object:
    m = MutantEvaluator(get_mutant(mutant_id))
    m.configure(ruleset, {})
    try:
        if op == "classify":
            return m.classify(_split(args[0]))
        if op == "winners":
            hands = [_split(h) for h in args[0]]
            return m.winners(hands, *[_split(b) for b in args[1:]])
        if op == "pot":
            pot = m.showdown([_split(h) for h in args[0]], *[_split(b) for b in args[1:]])
            return (tuple(pot.high), tuple(pot.low or ()), tuple(str(f) for f in pot.shares))
        if op == "qualifies":
            return m.qualifies(_split(args[0]))
        if op in PAI_GOW_OPS:
            return pai_gow_answer(m, ruleset, op, args)
        cards, category = m.best_hand(_split(args[0]), _split(args[1]))
        return (" ".join(cards), category)
    except Rejected as exc:
        return reject(exc.code)


def matches(answer: object, expected: object) -> bool:
    if isinstance(expected, tuple) and isinstance(expected[0], set):
        sets, category = expected
        cards, got_category = answer  # type: ignore[misc]
        return got_category == category and any(
            sorted(cards.split()) == sorted(s.split()) for s in sets
        )
    return answer == expected


# High Card Flush (58 Pa. Code 678a.6): (b) ranks by the longest flush, (c) breaks a tie
# by the highest card one flush holds and the other lacks; (a) the ace is high
HCF = "pa-high-card-flush"
EXAMPLES.update(
    {
        # (b): a three-card flush (2-3-4 of hearts) beats a two-card flush (three aces, kings)
        "hcf-flush-length-ignored": [
            (HCF, "winners", (["2h 3h 4h 7c 8d 9s Tc", "Ad Ac Ah Kd Kc Ks 5h"],), [0])
        ],
        # (b)2: six cards of one suit are a six-card flush
        "hcf-flush-capped-at-five": [
            (HCF, "classify", ("2s 3s 4s 5s 6s 8s 9d",), "six_card_flush")
        ],
        # (b)5: the longest suit is spades (2-3-4), not the ace's suit
        "hcf-suit-of-highest-card": [
            (HCF, "classify", ("Ah 2s 3s 4s 5d 6d 7c",), "three_card_flush")
        ],
        # (c), practice reading of hcf-tie-cards: hearts A-5-2 beat clubs K-Q-J
        "hcf-tie-on-all-seven-cards": [
            (HCF, "winners", (["Ah 5h 2h Kd Qd 3s 4c", "Kc Qc Jc As 9d 8s 7h"],), [0])
        ],
        # (c): the highest card decides first: A-5-2 beats K-Q-J
        "hcf-tie-from-lowest-card": [
            (HCF, "winners", (["Ah 5h 2h 3c 7c 4d 6s", "Ks Qs Js 3d 4c 6h 7h"],), [0])
        ],
        # (a): the ace is the highest card, so the two-card flush A-2 beats K-Q
        "hcf-ace-low": [(HCF, "winners", (["Ah 2h 3d 4d 5c 6c 7s", "Ks Qs 3c 4c 5d 6d 8h"],), [0])],
        # (c): A-K-Q beats K-Q-J, three-card flushes
        "hcf-ties-never-broken": [
            (HCF, "winners", (["As Ks Qs 2d 3d 4c 5h", "Kh Qh Jh 2c 3c 4s 5d"],), [0])
        ],
        # (b)6: two cards of one suit are a two-card flush
        "hcf-two-cards-no-flush": [(HCF, "classify", ("Ah 2h 3d 4d 5c 6c 7s",), "two_card_flush")],
    }
)

# pai gow (house rules, reference/pai_gow.toml): the joker is an ace in the two-card hand,
# the five-card hand must outrank the two-card hand, copies go to the banker, one hand won
# and one lost is a push
WAP = "wa-pai-gow-poker"
EXAMPLES.update(
    {
        # kings behind aces is foul, and a foul loses though both hands would have won
        "pai-gow-setting-ignored": [
            (LCP, "setting", ("Kd Kc 9h 5s 3d", "As Ah"), False),
            (WAP, "settle", (["Kc Ks 7h 6h 4d", "As Ah"], ["Qh Qd 9d 5c 3s", "Jc Tc"]), "banker"),
        ],
        # the two-card copy (queen-jack both) is the banker's: high won, low lost: a push
        "pai-gow-copies-to-player": [
            (LCP, "settle", (["Ah Ad 9c 5s 3h", "Qd Jh"], ["Kh Kd 9d 5c 3s", "Qs Jc"]), "push")
        ],
        # ace-joker is a pair of aces, above a pair of kings
        "pai-gow-two-card-joker-not-ace": [
            (WAP, "two_card", (["As Xx", "Kd Kc"],), [0]),
            (LCP, "two_card", (["Xx 2c", "Kd Qd"],), [0]),
        ],
        # aces beat kings behind, ten-eight loses to queen-jack in front: a push
        "pai-gow-high-hand-only": [
            (LCP, "settle", (["Ah Ad 9c 5s 3h", "Ts 8c"], ["Kh Kd 9d 5c 3s", "Qs Jc"]), "push")
        ],
    }
)

# South Dakota, worked from ARSD 20:18:16: 15.01(7) one or both hole cards with the four
# community cards, tying hands split; 13 the five cards are the hand; 03's list;
# 03(6) the ace low only in the five-high straight; 31(5) suits do not count
SD88, SD5 = "sd-holdem-88", "sd-five-card-stud"
ONE_WINS, TWO_WINS, SPLIT = (
    ((0,), (), ("1", "0")),
    ((1,), (), ("0", "1")),
    ((0, 1), (), ("1/2", "1/2")),
)
EXAMPLES.update(
    {
        # the same ranks in spades and hearts: suits do not count, the pot is split
        "sd-opener-suits-at-showdown": [
            (SD5, "pot", (["Ks Qs 9d 7c 4s", "Kh Qh 9c 7s 4h"],), SPLIT),
            (SD88, "pot", (["As Qd", "Ac Qh"], "Kc 9d 5s 3h"), SPLIT),
        ],
        # Ah with four hearts on the board is a flush (one hole card); K-K only a pair
        "sd-88-two-hole-cards": [(SD88, "pot", (["Ah 3c", "Ks Kc"], "2h 7h 9h Jh"), ONE_WINS)],
        # K-K-9-9-4 (both hole cards) beats A-9-9-4-2; one hole card: K-9-9 loses to A-9-9
        "sd-88-one-hole-card": [(SD88, "pot", (["Ks Kh", "Ac Qc"], "9c 9d 4s 2h"), ONE_WINS)],
        # the wheel is the lowest straight: the six-high straight wins
        "sd-wheel-ace-high": [(SD5, "pot", (["Ah 2c 3d 4s 5h", "2d 3c 4h 5c 6s"],), TWO_WINS)],
        # 03(5) flush above 03(6) straight
        "sd-flush-below-straight": [
            (SD5, "pot", (["2h 5h 7h 9h Jh", "5c 6d 7s 8c 9d"],), ONE_WINS)
        ],
        # 03(4) full house above 03(5) flush
        "sd-full-house-below-flush": [
            (SD5, "pot", (["3c 3d 3h 2s 2c", "2h 5h 7h 9h Jh"],), ONE_WINS)
        ],
        # 03(7) three of a kind above 03(8) two pair
        "sd-trips-below-two-pair": [
            (SD5, "pot", (["5s 5h 5d 9c 2s", "Ks Kh Qd Qc 2h"],), ONE_WINS)
        ],
        # 03(9) one pair above 03(10) high card
        "sd-pair-below-high-card": [
            (SD5, "pot", (["2s 2h 5d 8c Jh", "Ac Kd Qs 9h 7d"],), ONE_WINS)
        ],
        # the same pair of aces: the king kicker beats the queen
        "sd-kickers-ignored": [(SD5, "pot", (["As Ah Kd 7c 2s", "Ac Ad Qd 7h 2h"],), ONE_WINS)],
        # equal hands split the pot (15.01(7)); in stud the same five ranks
        "sd-tie-not-split": [
            (SD88, "pot", (["As Qd", "Ac Qh"], "Kc 9d 5s 3h"), SPLIT),
            (SD5, "pot", (["Ks Qs 9d 7c 4s", "Kh Qh 9c 7s 4h"],), SPLIT),
        ],
    }
)

# South Dakota low draw, worked from 20:18:16:12(2) (the lowest hand wins), 03 (the ace
# below the deuce; the list of hands), 31(5) (suits do not count)
SDL = "sd-draw-low"
EXAMPLES.update(
    {
        # 6-4-3-2-A beats 7-5-4-3-2; with the ace high it would be the worse hand
        "sd-low-ace-high": [(SDL, "winners", (["As 2h 3d 4c 6s", "2s 3h 4d 5c 7s"],), [0])],
        # A-A is a lower pair than 2-2 (the ace below the deuce)
        "sd-low-aces-worst-pair": [(SDL, "winners", (["As Ah 3d 5c 7s", "2s 2h 3c 5d 7h"],), [0])],
        # practice: 5-4-3-2-A is the best low, above 6-4-3-2-A
        "sd-low-straights-flushes-count": [
            (SDL, "winners", (["Ah 2h 3d 4c 5s", "Ac 2d 3c 4s 6h"],), [0])
        ],
        # from the top: 7 is lower than 8, so 7-6-5-4-3 beats 8-5-4-3-2
        "sd-low-best-card-first": [(SDL, "winners", (["8s 5h 4d 3c 2s", "7s 6h 5d 4c 3s"],), [1])],
        # a pair of threes is lower than a pair of fours, the rest alike
        "sd-low-higher-pair-wins": [(SDL, "winners", (["3s 3h 5d 7c 9s", "4s 4h 5c 7d 9h"],), [0])],
        # the same ranks in other suits: equal (31(5))
        "sd-low-suit-tiebreak": [(SDL, "winners", (["As 2h 3d 4c 6s", "Ah 2s 3c 4d 6h"],), [0, 1])],
        # 8-6-4-3-2 beats 8-6-5-3-2 at the third card
        "sd-low-kickers-ignored": [(SDL, "winners", (["8s 6h 4d 3c 2s", "8d 6c 5s 3h 2d"],), [0])],
        # equal hands both win
        "sd-low-first-winner-only": [
            (SDL, "winners", (["As 2h 3d 4c 6s", "Ah 2s 3c 4d 6h"],), [0, 1])
        ],
    }
)

# South Dakota high-low split draw, worked from 20:18:16:12(4) (the best high and the best
# low split the pot; three-quarters to one who wins a half and ties the other; a player may
# win both), 12(2) and 03 (the ace below the deuce in low poker), 03(6), 31(5)
SDHL = "sd-draw-high-low"
EXAMPLES.update(
    {
        # the flush wins high and ties 8-6-4-3-2 for low (ace-to-five ignores the flush):
        # 1/2 + 1/4
        "sd-hilo-three-quarters-ignored": [
            (
                SDHL,
                "pot",
                (["8h 6h 4h 3h 2h", "8c 6d 4c 3s 2d", "Ks Kc 9h 7d 3d"],),
                ((0,), (0, 1), ("3/4", "1/4", "0")),
            )
        ],
        # ace high wins high; 6-4-3-2-A (the ace below the deuce) beats 7-5-4-3-2 for low
        "sd-hilo-low-ace-high": [
            (SDHL, "pot", (["As 2h 3d 4c 6s", "2s 3h 4d 5c 7s"],), ((0,), (0,), ("1", "0")))
        ],
        # the wheel wins high (a straight) and low (the best ace-to-five low): both halves
        "sd-hilo-no-scoop": [
            (SDHL, "pot", (["Ah 2c 3d 4s 5h", "Ac 2d 3c 4h 6s"],), ((0,), (0,), ("1", "0")))
        ],
        # practice: 9-7-5-3-2 suited is a no-pair low and beats the queens for low too
        "sd-hilo-straights-count-in-low": [
            (SDHL, "pot", (["9s 7s 5s 3s 2s", "Qd Qc 8h 6d 4c"],), ((0,), (0,), ("1", "0")))
        ],
        # the two 7-5-4-3-2 lows tie and share the low half: a quarter each
        "sd-hilo-tied-half-not-split": [
            (
                SDHL,
                "pot",
                (["Ks Kd 9c Jh Qd", "7s 5h 4d 3c 2s", "7h 5d 4c 3s 2h"],),
                ((0,), (1, 2), ("1/2", "1/4", "1/4")),
            )
        ],
        # the same five ranks in other suits tie for both halves (31(5))
        "sd-hilo-suits-break-ties": [
            (
                SDHL,
                "pot",
                (["Ks Qs 9d 7c 4s", "Kh Qh 9c 7s 4h"],),
                ((0, 1), (0, 1), ("1/2", "1/2")),
            )
        ],
        # the wheel is the lowest straight (03(6)): ten-high wins high, the wheel low
        "sd-hilo-wheel-ace-high": [
            (
                SDHL,
                "pot",
                (["Ah 2c 3d 4s 5h", "6c 7d 8h 9s Tc"],),
                ((1,), (0,), ("1/2", "1/2")),
            )
        ],
        # from the top: 7-6-5-4-3 (a straight, high) beats 8-5-4-3-2 for low too
        "sd-hilo-low-best-card-first": [
            (SDHL, "pot", (["8s 5h 4d 3c 2s", "7s 6h 5d 4c 3s"],), ((1,), (1,), ("0", "1")))
        ],
        # Q-Q-9-7 beats Q-Q-9-6 at the fourth card; K-8-5-4-2 is the only low without a pair
        "sd-hilo-kickers-ignored": [
            (
                SDHL,
                "pot",
                (["Qs Qh 9d 7c 3s", "Qd Qc 9h 6s 3h", "Kc 8s 5d 4h 2c"],),
                ((0,), (2,), ("1/2", "0", "1/2")),
            )
        ],
    }
)

CASES = [
    pytest.param(mid, *ex, id=f"{mid}-{i}")
    for mid, exs in EXAMPLES.items()
    for i, ex in enumerate(exs)
]


@pytest.mark.parametrize(("mutant_id", "ruleset", "op", "args", "expected"), CASES)
def test_mutant_differs_from_reference(mutant_id, ruleset, op, args, expected):
    assert ruleset in get_mutant(mutant_id).rulesets
    assert matches(reference_answer(ruleset, op, args), expected), "the example is wrong"
    got = mutant_answer(mutant_id, ruleset, op, args)
    assert not matches(got, expected), f"{mutant_id} answered like the reference: {got}"


def test_every_mutant_has_a_worked_example():
    assert set(EXAMPLES) == {m.id for m in MUTANTS}


def test_catalogue_size_and_shape():
    assert len(MUTANTS) >= 40
    known = {r.id for r in all_rulesets()}
    for m in MUTANTS:
        assert m.rulesets and set(m.rulesets) <= known, m.id
        assert len(set(m.rulesets)) == len(m.rulesets), m.id
        assert m.summary and "\n" not in m.summary, m.id
        assert m.changes, m.id


def test_every_ruleset_has_mutants():
    # the poker-room games' mutants come with their vectors (vectors/awaiting.toml)
    counts = {rid: 0 for rid in in_corpus(r.id for r in all_rulesets())}
    for m in MUTANTS:
        for r in m.rulesets:
            if r in counts:
                counts[r] += 1
    assert min(counts.values()) >= 8, counts


def _flag_registry() -> set[str]:
    return set(registry.flags())


def test_flags_come_from_the_registry_and_cover_it():
    flags = _flag_registry()
    used = {m.flag for m in MUTANTS}
    assert used <= flags, f"unknown flags {used - flags}"
    assert flags <= used, f"flags without a mutant: {flags - used}"


def test_mutant_evaluator_is_a_poker_evaluator():
    m = MutantEvaluator(get_mutant("wheel-missing"))
    assert isinstance(m, PokerEvaluator)
    assert set(m.capabilities()) == set(get_mutant("wheel-missing").rulesets)
    assert "best_hand" in m.capabilities()["nj-mini-tex-3"]
    assert "best_hand" not in m.capabilities()["nj-poker-high-5"]
    assert m.info.build == "wheel-missing"


def test_a_mutant_refuses_rulesets_it_does_not_affect():
    with pytest.raises(MutantError, match="does not affect"):
        get_mutant("wheel-missing").build("nj-poker-low-5")


def test_building_mutants_leaves_the_reference_alone():
    for m in MUTANTS:
        for r in m.rulesets:
            m.build(r)
    assert get_ruleset("nj-mini-tex-3").category_names[0] == "straight_flush"
    assert get_ruleset("nj-mini-tex-3").selection.min_hole == 1
    assert get_ruleset("mt-poker-high").jokers == 2
    assert evaluator("nj-poker-high-5").category("Ah 2d 3c 4s 5h") == "straight"
    assert evaluator("nj-poker-high-5").winners(["Ah Kh Qd Jc 9s", "Ad Kd Qs Jh 9c"]) == [0, 1]


def test_a_missing_engine_step_fails_the_mutants_construction():
    """A mutant names the steps it replaces as fields of the engine's composition: a step
    the engine does not have (a renamed one) fails the build, never turns the mutant into
    the reference (mypy --strict refuses the same name: ``replace`` is checked against
    the fields of ``Steps``)."""
    renamed = Mutant(
        "renamed-step",
        "wheel",
        (H5,),
        "A step the engine does not have.",
        (
            patch(
                lambda s: replace(
                    s,
                    no_such_step=wrapped(  # type: ignore[call-arg]
                        s.value, lambda orig, ev: orig
                    ),
                )
            ),
        ),
    )
    with pytest.raises(TypeError, match="no_such_step"):
        renamed.build(H5)


def test_a_mutant_is_a_composition_and_the_reference_is_untouched():
    """The mutant's engine carries its own composition; the shared reference engine
    keeps the default one (no step of it replaced, its fast paths on)."""
    from pokercert.reference.engine import DEFAULT_STEPS

    ev = get_mutant("wraparound-straights").build(H5)
    assert ev.steps.run_top is not DEFAULT_STEPS.run_top
    assert ev.steps.value is DEFAULT_STEPS.value
    assert ev.category("Qs Kh Ad 2c 3h") == "straight"  # 14.3(b)6: no straight
    assert evaluator(H5).steps is DEFAULT_STEPS
    assert evaluator(H5).category("Qs Kh Ad 2c 3h") == "high_card"


def test_readings_reach_the_mutant():
    # under the literal mt-full-house reading 2-2-2-A-A beats 3-3-3-K-K; the mutant
    # suit-tiebreak keeps the reading and only adds its own mistake
    m = MutantEvaluator(get_mutant("suit-tiebreak"))
    m.configure(MT, {"mt-full-house": "literal"})
    assert m.winners([_split("2s 2h 2d As Ah"), _split("3s 3h 3d Ks Kh")]) == [0]
    m.configure(MT, {})
    assert m.winners([_split("2s 2h 2d As Ah"), _split("3s 3h 3d Ks Kh")]) == [1]


def test_the_reference_never_imports_the_mutants():
    import pokercert.reference as ref

    folder = Path(ref.__file__).parent
    for source in folder.rglob("*.py"):
        assert "mutants" not in source.read_text(encoding="utf-8"), source


def test_the_readme_lists_every_mutant():
    readme = (Path(__file__).parents[2] / "harness" / "mutants" / "README.md").read_text()
    missing = [m.id for m in MUTANTS if f"`{m.id}`" not in readme]
    assert not missing, f"harness/mutants/README.md does not list {missing}"


def test_mypy_refuses_a_step_the_engine_does_not_have(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
):
    """A mutant names a step as a keyword of ``replace`` on ``Steps``: ``mypy --strict``
    (the typing contract) refuses a name that is not a field, and accepts the real one."""
    pytest.importorskip("mypy", reason="mypy is not installed (pip install -e '.[test]')")
    from tests.contract.test_typing import run_mypy

    cache = getattr(request.config, "cache", None)
    base = cache.mkdir("mypy") if cache is not None else tmp_path_factory.mktemp("mypy")
    snippet = (
        "from dataclasses import replace\n"
        "from pokercert.reference.engine import DEFAULT_STEPS, Steps\n"
        "steps: Steps = replace(DEFAULT_STEPS, {}=DEFAULT_STEPS.run_top)\n"
    )
    renamed = run_mypy(base, ["-c", snippet.format("straight_top")])
    assert renamed.returncode != 0
    assert 'Unexpected keyword argument "straight_top"' in renamed.stdout, renamed.stdout
    real = run_mypy(base, ["-c", snippet.format("run_top")])
    assert real.returncode == 0, real.stdout + real.stderr
