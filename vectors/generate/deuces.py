"""Families for the Montana 'deuces wild' postings (mt-poker-high-deuces, -low-deuces).

ARM 23.16.1205(5) says only "Wild cards may be used"; which cards are wild is the card
room's posting.  Two families cover the posting "the four twos are wild":

* ``deuces-natural-*``: every classify and compare vector of the joker posting (the
  ``mt-poker-high`` / ``mt-poker-low`` corpus) in which no deuce and no joker is dealt.
  Nothing in such a deal is wild under either posting, so the hands rank exactly as that
  vector says; the vector is carried over with its expectations, clauses and readings,
  and its ``why`` names the vector it comes from.
* ``deuces-wild``: hands with deuces, each worked out by hand below: five of a kind
  (four deuces and any card is five of that card's rank: the 'four deuces' row of the
  pay tables folds in here), wild royal and straight flushes, two deuces completing a
  straight flush against natural four of a kind, natural against wild hands of equal
  value, and, in low, deuces playing as the ace and the missing low card.
"""

from __future__ import annotations

import tomllib
from itertools import pairwise
from typing import Any

from pokercert.reference import get_ruleset
from pokercert.vectors import registry
from pokercert.vectors.generate.common import classify, compare
from pokercert.vectors.generate.games import Game
from pokercert.vectors.model import Kind

CARRIED_KINDS = (Kind.CLASSIFY, Kind.COMPARE)
PART = 100      # vectors per carried-over family file (one generated id block)


def _dealt(rec: dict[str, Any]) -> list[str]:
    return [t for h in [rec.get("hand", ""), *rec.get("hands", ())] for t in h.split()]


def carried_over(source: str) -> list[dict[str, Any]]:
    """The classify and compare vectors of ``source`` with no deuce and no joker dealt,
    by id, as records for the deuces posting of the same game."""
    out = []
    folder = registry.PACKAGE_ROOT / source
    records = []
    for path in sorted(folder.glob("*.toml")):
        records += tomllib.loads(path.read_text(encoding="utf-8")).get("vector", [])
    for rec in sorted(records, key=lambda r: r["id"]):
        if rec["kind"] not in CARRIED_KINDS or any(
                t[0] == "2" or t == "Xx" for t in _dealt(rec)):
            continue
        new = {k: v for k, v in rec.items() if k != "id"}
        new["why"] = f"No deuce dealt, nothing wild: as {rec['id']}. {rec['why']}"
        out.append(new)
    return out


def fam_carried(source: str, part: int) -> list[dict[str, Any]]:
    """Part ``part`` (0-based) of :func:`carried_over`, :data:`PART` vectors each."""
    return carried_over(source)[part * PART:(part + 1) * PART]


def fam_deuces_high(g: Game) -> list[dict[str, Any]]:
    """Deuces wild in high poker, every vector worked out by hand."""
    L = g.L
    out = []
    five = L("(2)(a)", "(5)")
    # read literally, (2)(a) makes five of a kind only of four naturals and one wild card
    # (interpretation mt-five-of-a-kind): then the wilds make the best other hand
    for hand, rank, lit in (("2s 2h 2d 2c Ah", "aces", "royal_flush"),
                                ("2s 2h 2d 2c Kd", "kings", "royal_flush"),
                                ("2s 2h 2d 2c 7c", "sevens", "straight_flush")):
        out.append(classify(hand.split(), "five_of_a_kind", five, ["five-of-a-kind",
                                                                    "wild-card"],
                            f"{hand}: four wild deuces join the last card, five {rank} (the "
                            "'four deuces' hand is five of a kind here); read literally, "
                            f"the deuces complete {lit.replace('_', ' ')} instead.",
                            lit, "mt-five-of-a-kind"))
    for hand, rank in (("2s 2h Ac Ad Ah", "aces"), ("2d 2c Ks Kh Kc", "kings"),
                       ("2s 2c 9h 9d 9c", "nines"), ("2h 2d 5s 5h 5c", "fives")):
        out.append(classify(hand.split(), "five_of_a_kind", five, ["five-of-a-kind",
                                                                    "wild-card"],
                            f"{hand}: two wild deuces and three {rank} are five {rank}; "
                            "read literally (four naturals needed) only four of a kind.",
                            "four_of_a_kind", "mt-five-of-a-kind"))
    for hand, rank in (("2s Ah Ad Ac As", "aces"), ("2h Qs Qh Qd Qc", "queens"),
                       ("2d 3s 3h 3c 3d", "threes")):
        out.append(classify(hand.split(), "five_of_a_kind", five, ["five-of-a-kind",
                                                                    "wild-card"],
                            f"{hand}: four {rank} and a wild deuce are five {rank}, the "
                            "very hand (2)(a) describes."))
    sf = L("(2)(b)", "(5)")
    for hand, cat, why in (
            ("2s As Ks Qs Js", "royal_flush", "the deuce is the ten of spades: a royal flush"),
            ("2s 2h Ah Kh Qh", "royal_flush", "the deuces are the jack and ten of hearts"),
            ("2d Td Jd Qd Kd", "royal_flush", "the deuce is the ace of diamonds"),
            ("2c 9h 8h 7h 6h", "straight_flush", "the deuce is the ten of hearts, ten high"),
            ("2c 2d 9h 8h 7h", "straight_flush", "the deuces are the jack and ten of hearts"),
            ("2h Kh Qh Jh 9h", "straight_flush", "the deuce is the ten of hearts: K-Q-J-10-9 "
                                                 "suited beats an ace-high flush"),
            ("2s 5d 4d 3d Ad", "straight_flush", "the deuce is the two of diamonds: "
                                                 "5-4-3-2-A suited, the ace low")):
        literal = "flush" if "ace low" in why else None
        out.append(classify(hand.split(), cat, sf + (L("(1)") if literal else []),
                            ["wild-card"] + (["wheel"] if literal else []),
                            f"{hand}: {why}.", literal, "mt-wheel" if literal else None))
    for hand, cat, clause, why in (
            ("2s 9h 9d 9c Kd", "four_of_a_kind", "(2)(c)", "three nines and a deuce"),
            ("2s 2h 9d 9c Kd", "four_of_a_kind", "(2)(c)", "two nines and two deuces"),
            ("2s 2h 2d 9c Kd", "four_of_a_kind", "(2)(c)", "three deuces join the king, "
                                                            "four kings with a nine"),
            ("2s 9h 9d Kc Kd", "full_house", "(2)(d)", "two pairs and a deuce: kings full "
                                                        "of nines, never two pair"),
            ("2s Ah Jh 8h 4h", "flush", "(2)(e)", "four hearts and a deuce: the deuce is the "
                                                   "king of hearts, an ace-king flush"),
            ("2c Kd 9d 6d 3d", "flush", "(2)(e)", "four diamonds and a deuce"),
            ("2s 9h 8d 6c 5h", "straight", "(2)(f)", "the deuce fills the seven"),
            ("2s 3h 4d 5c 7s", "straight", "(2)(f)", "the deuce is the six, seven high"),
            ("2s Ah Kd Qc Jh", "straight", "(2)(f)", "the deuce is the ten, ace high"),
            ("2s Kh Kd 9c 4h", "three_of_a_kind", "(2)(g)", "two kings and a deuce; no "
                                                             "sequence or suit to complete"),
            ("2s 7h 7d Qc 3h", "three_of_a_kind", "(2)(g)", "two sevens and a deuce"),
            ("2s Kh 9d 6c 3h", "one_pair", "(2)(i)", "one deuce and four spread ranks: a "
                                                      "pair of kings"),
            ("2s Ah Jd 7c 4h", "one_pair", "(2)(i)", "one deuce pairs the ace")):
        out.append(classify(hand.split(), cat, L(clause, "(5)"), ["wild-card"],
                            f"{hand}: {why}."))
    # A-3-4-5 and a deuce: the wheel, unless the ace is only high (mt-wheel literal)
    out.append(classify(["2s", "3h", "4d", "5c", "Ah"], "straight", L("(2)(f)", "(1)", "(5)"),
                        ["wild-card", "wheel"], "2s 3h 4d 5c Ah: the deuce is a two, "
                        "A-2-3-4-5.", "one_pair", "mt-wheel"))
    Cmp = tuple[str, str, list[int], tuple[str, ...], list[str], str, str | None]
    compares: list[Cmp] = [
        ("2s 2h 9c 8c 7c", "Ks Kh Kd Kc 3s", [0], ("(2)", "(2)(b)", "(2)(c)", "(5)"),
         ["wild-card", "category-order"], "Two deuces complete J-10-9-8-7 of clubs: a "
         "straight flush beats natural four kings.", None),
        ("2s 2h Ac Ad Ah", "Ts Js Qs Ks As", [0], ("(2)", "(2)(a)", "(2)(b)", "(5)"),
         ["five-of-a-kind", "category-order"], "Five aces (three and two deuces) beat the "
         "natural royal flush: five of a kind heads (2); read literally (four naturals "
         "needed) they are four aces and lose.", "mt-five-of-a-kind"),
        ("9s 9h 9d 9c 3h", "2s 2h Kd Kc 4h", [1], ("(2)(c)", "(3)", "(5)"),
         ["wild-card", "rank-order"], "Four kings made with two deuces beat natural four "
         "nines: the higher four of a kind wins, wild or not.", None),
        ("2s Ah Kd 9c 6s", "2h Ad Kc 9h 6d", [0, 1], ("(3)", "(4)", "(5)"),
         ["suit-tiebreak", "wild-card"], "Each deuce pairs the ace (A-A-K-9-6): the hands "
         "differ only in suits and split.", None),
        ("2s Kh 9d 6c 3h", "Ks Kc 9h 6d 3c", [0, 1], ("(3)", "(4)", "(5)"),
         ["natural-vs-wild", "wild-card"], "A pair of kings made with a deuce equals the "
         "natural pair of kings with the same kickers: they split.", None),
        ("3s 3h 3d As Ah", "4s 4h 4d Kc Kd", [1], ("(2)(d)", "(3)"),
         ["full-house-order"], "No deuce dealt: fours full beat threes full (the three of a "
         "kind decides); read literally (3) lets the highest matched card, the ace, "
         "decide.", "mt-full-house"),
        ("2c Ad Jd 8d 4d", "Ah Kh Jh 8h 5h", [1], ("(2)(e)", "(5)"),
         ["wild-card"], "The deuce may not repeat the held ace of diamonds: A-K-J-8-4 loses "
         "to A-K-J-8-5; read literally it may, and A-A-J-8-4 wins.", "wild-duplicates"),
    ]
    return out + _both_seats(g, compares) + _adjacent(g, HIGH_EXAMPLES)


# natural hands (no deuce) of each category, for the category order of (2)
HIGH_EXAMPLES = {
    "four_of_a_kind": "Ks Kh Kd Kc 3s", "full_house": "Qs Qh Qd Jc Jd",
    "flush": "Ah Th 8h 6h 4h", "straight": "9c 8d 7c 6d 5c",
    "three_of_a_kind": "7s 7h 7d Kc 4s", "two_pair": "9s 9h 5d 5c Ks",
    "one_pair": "Ts Th 8d 6c 4h", "high_card": "Ks Jd 8c 6h 3s",
}
LOW_EXAMPLES = {**HIGH_EXAMPLES, "high_card": "7s 5h 4d 3c Ah"}


def _adjacent(g: Game, examples: dict[str, str]) -> list[dict[str, Any]]:
    """Neighbouring categories of the ranking in use, natural hands, both seats."""
    ranking = [c for c in get_ruleset(g.rid).rules["categories"] if c in examples]
    out = []
    for upper, lower in pairwise(ranking):
        a, b = examples[upper].split(), examples[lower].split()
        for seat in range(2):
            hands = [a, b] if seat == 0 else [b, a]
            out.append(compare(hands, [seat], g.L("(2)", g.cat(upper), g.cat(lower)),
                               ["category-order"],
                               f"No deuce dealt: {' '.join(a)} ({upper.replace('_', ' ')}) "
                               f"beats {' '.join(b)} ({lower.replace('_', ' ')}) by the "
                               "order of (2)."))
    return out


def _both_seats(g: Game, compares: list[Any]) -> list[dict[str, Any]]:
    """Each comparison in both seat orders; ``interp`` set: the literal reading reverses
    a decided outcome (the only way these comparisons depend on a reading)."""
    out = []
    for a, b, win, clauses, flags, why, interp in compares:
        for seat in range(2):
            hands = [a.split(), b.split()] if seat == 0 else [b.split(), a.split()]
            winners = win if seat == 0 or len(win) == 2 else [1 - win[0]]
            literal = None
            if interp == "mt-low-order":
                literal = [0, 1]
            elif interp is not None:
                literal = [1 - winners[0]]
            out.append(compare(hands, winners, g.L(*clauses), flags, why, literal, interp))
    return out


def fam_deuces_low(g: Game) -> list[dict[str, Any]]:
    """Deuces wild in ace-to-five low, every vector worked out by hand."""
    L = g.L
    out = []
    for hand, cat, clauses, why in (
            ("2s 3h 4d 5c 7s", "high_card", ("(2)(j)", "(1)"), "the deuce is an ace: "
             "7-5-4-3-A"),
            ("2s 2h 3d 4c 5s", "high_card", ("(2)(j)", "(1)"), "the deuces are an ace and a "
             "two: 5-4-3-2-A, the best low"),
            ("2s 2h 2d 2c Kh", "high_card", ("(2)(j)", "(1)"), "four deuces are A-2-3-4: "
             "K-4-3-2-A"),
            ("2s Kh Kd Qc Jh", "one_pair", ("(2)(i)",), "the deuce is an ace; the kings "
             "stay a pair"),
            ("2s Qh Qd Jc Jh", "two_pair", ("(2)(h)",), "the deuce is an ace: two pair, "
             "never the full house it could make"),
            ("2s Kh Kd Kc Jh", "three_of_a_kind", ("(2)(g)",), "the deuce is an ace: three "
             "kings, jack, ace"),
            ("2s Kh Kd Kc Ks", "four_of_a_kind", ("(2)(c)", "(2)(a)"), "the deuce is an ace: "
             "four kings, never five"),
            ("2s 3s 4s 5s 7s", "high_card", ("(2)(e)", "(2)(j)"), "the deuce is an ace of "
             "another suit: 7-5-4-3-A, no flush under any reading"),
            ("2s 3s 4s 5s 6s", "high_card", ("(2)(b)", "(2)(e)"), "the deuce is an ace of "
             "another suit: 6-5-4-3-A, no straight flush under any reading"),
            ("2s 3h 4d 5c 6s", "high_card", ("(2)(f)", "(2)(j)"), "the deuce is an ace: "
             "6-5-4-3-A, no straight under any reading"),
            ("2s 2h 3s 4s 5s", "high_card", ("(2)(e)", "(2)(f)"), "the deuces are an ace "
             "and a two of other suits: 5-4-3-2-A, or 6-5-4-3-A where straights count; "
             "never a flush"),
            ("2s Ks Qs Js 9s", "high_card", ("(2)(e)", "(2)(j)"), "the deuce is an ace of "
             "another suit: K-Q-J-9-A, no flush"),
            ("2s 2h Kd Kc Kh", "three_of_a_kind", ("(2)(a)", "(2)(g)"), "the deuces are an "
             "ace and a two: three kings, never the five kings of (2)(a)"),
            ("2s 2h 2d Kc Kh", "one_pair", ("(2)(a)", "(2)(i)"), "the deuces are A-2-3: a "
             "pair of kings, never five kings"),
            ("2d Qh Qd Qc Qs", "four_of_a_kind", ("(2)(a)", "(2)(c)"), "the deuce is an "
             "ace: four queens, never five"),
            ("2s 2h 2d 2c 9h", "high_card", ("(2)(a)", "(2)(j)"), "four deuces are A-2-3-4 "
             "below the nine, never five nines")):
        out.append(classify(hand.split(), cat, L(*clauses, "(5)"), ["wild-card"],
                            f"{hand}: {why}."))
    compares = [
        ("2s 3h 4d 5c 6s", "Ah 3c 4h 5d 7s", [0], ("(1)", "(3)", "(5)"),
         ["wild-card", "low-order"], "The deuce is an ace: 6-5-4-3-A beats the natural "
         "7-5-4-3-A.", None),
        ("2s 2h 3d 4c 5s", "As 3c 4h 5d 6c", [0], ("(1)", "(3)", "(5)"),
         ["wild-card", "low-order"], "Two deuces make 5-4-3-2-A, which beats 6-5-4-3-A; "
         "read literally A-2-3-4-5 is a straight, so the deuces make 6-5-4-3-A and the "
         "hands split.", "mt-low-order"),
        ("2s 3h 4d 5c 7s", "2h 3d 4c 5s 7h", [0, 1], ("(4)", "(5)"),
         ["suit-tiebreak", "wild-card"], "Both deuces are aces: 7-5-4-3-A twice, "
         "differing only in suits: a split.", None),
        ("2s 3h 4d 5c 7s", "Ah 3c 4h 5d 7d", [0, 1], ("(3)", "(4)", "(5)"),
         ["natural-vs-wild", "wild-card"], "7-5-4-3-A made with a deuce equals the "
         "natural 7-5-4-3-A: a split.", None),
        ("2s Kh Kd Kc Jh", "Qs Qh Qd Qc 3h", [0], ("(2)", "(2)(c)", "(2)(g)", "(5)"),
         ["wild-card", "category-order"], "Three kings (the deuce an ace) beat four "
         "queens in low: the smaller hand of (2) wins.", None),
    ]
    return out + _both_seats(g, compares) + _adjacent(g, LOW_EXAMPLES)
