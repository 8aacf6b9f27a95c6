"""Hand-written vectors for the harness's own tests (the corpus is not needed for them).

Every expectation is worked by hand from N.J.A.C. 13:69F-14.3 (five-card high), not
taken from the reference engine.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from pokercert.harness.run.results import Outcome, Result
from pokercert.vectors.model import Vector

RULESET = "nj-poker-high-5"
S = "13:69F-14.3"


def _v(
    n: int,
    kind: str,
    inputs: dict[str, Any],
    expect: dict[str, Any],
    clause: str,
    why: str,
    flags: tuple[str, ...] = ("category-order",),
) -> Vector:
    return Vector(
        id=f"{RULESET}/{n:04d}",
        ruleset=RULESET,
        kind=kind,
        inputs=inputs,
        clauses=(S + clause,),
        flags=flags,
        why=why,
        expect=expect,
    )


VECTORS = [
    _v(
        1,
        "classify",
        {"hand": "As Ks Qs Js Ts"},
        {"category": "royal_flush"},
        "(b)1",
        "A K Q J 10 of one suit is a royal flush",
    ),
    _v(
        2,
        "classify",
        {"hand": "9h 9d 9c 4s 4d"},
        {"category": "full_house"},
        "(b)4",
        "three nines and a pair of fours make a full house",
    ),
    _v(
        3,
        "classify",
        {"hand": "5d 4c 3h 2s Ah"},
        {"category": "straight"},
        "(b)6",
        "A-2-3-4-5 is a straight, the ace playing low",
        ("wheel",),
    ),
    _v(
        4,
        "classify",
        {"hand": "Qh Kh Ah 2h 3c"},
        {"category": "high_card"},
        "(b)6",
        "Q-K-A-2-3 does not wrap around; four hearts are no flush",
        ("wraparound",),
    ),
    _v(
        5,
        "compare",
        {"hands": ["2c 2d 7h 8s 9c", "Ah Kd Qs Jc 9h"]},
        {"winners": [0]},
        "(b)",
        "the lowest pair beats the best no-pair hand",
    ),
    _v(
        6,
        "compare",
        {"hands": ["Ah Kh Qd Jc 9s", "Ad Kd Qs Jh 9c"]},
        {"winners": [0, 1]},
        "(d)",
        "hands differing only in suits split the pot",
        ("rank-order",),
    ),
    _v(
        7,
        "reject",
        {"op": "classify", "hand": "As Ks Qs Js Zz"},
        {"reason": "bad-card"},
        "(a)",
        "Zz is no card",
    ),
    _v(
        8,
        "reject",
        {"op": "classify", "hand": "As As Qs Js Ts"},
        {"reason": "duplicate-card"},
        "(a)",
        "one deck holds one ace of spades",
    ),
    _v(
        9,
        "reject",
        {"op": "classify", "hand": "As Ks Qs Js"},
        {"reason": "wrong-count"},
        "(b)",
        "a five-card hand has five cards",
    ),
    _v(
        10,
        "classify",
        {"hand": "7c 7d 7h 7s 2c"},
        {"category": "four_of_a_kind"},
        "(b)3",
        "four sevens are four of a kind",
    ),
]


# Whole pots of five-card high hands, worked by hand (13:69F-14.3(b) order, (d): hands
# differing only in suits split): (hands) -> (high winners, each hand's share)
SHOWDOWN_POTS: dict[tuple[str, ...], tuple[tuple[int, ...], tuple[str, ...]]] = {
    ("2c 3d 4h 5s 7c", "As Ks Qs Js Ts"): ((1,), ("0", "1")),
    ("Ah Kh Qd Jc 9s", "Ad Kd Qs Jh 9c"): ((0, 1), ("1/2", "1/2")),
    ("Ah Kh Qd Jc 9s", "2c 2d 7h 8s 9c", "Ad Kd Qs Jh 9h"): ((1,), ("0", "1", "0")),
    ("Ah Kh Qd Jc 9s", "Ad Kd Qs Jh 9c", "Ac Kc Qh Js 9d"): ((0, 1, 2), ("1/3", "1/3", "1/3")),
    ("3c 3d 7h 8s 9c", "Ad Kd Qs Jh 9h", "3h 3s 7c 8d 9d"): ((0, 2), ("1/2", "0", "1/2")),
}
SHOWDOWNS = [
    Vector(
        id=f"{RULESET}/{20 + i:04d}",
        ruleset=RULESET,
        kind="showdown",
        inputs={"hands": list(hands)},
        clauses=(S + "(d)",),
        flags=("multiway-split",),
        why="hand-worked pot of five-card high hands",
        expect={"high": list(high), "low": [], "shares": list(shares)},
    )
    for i, (hands, (high, shares)) in enumerate(SHOWDOWN_POTS.items())
]


def answered_correctly(result: Result) -> bool:
    """Whether the recorded actual answer really is the expected one."""
    a, e = result.actual or {}, result.expected
    if result.kind == "reject":
        return a.get("rejected") == e["reason"]
    if result.kind == "classify":
        return a.get("category") == e["category"]
    if result.kind == "compare":
        return sorted(a.get("winners", [])) == sorted(e["winners"])
    if result.kind == "best_hand":
        return a.get("category") == e["category"] and sorted(str(a.get("cards", "")).split()) in [
            sorted(c.split()) for c in e["cards"]
        ]
    if result.kind == "showdown":
        return (
            sorted(a.get("high", [])) == sorted(e["high"])
            and sorted(a.get("low", [])) == sorted(e["low"])
            and [Fraction(s) for s in a.get("shares", [])] == [Fraction(s) for s in e["shares"]]
        )
    return False


def assert_no_false_pass(results: list[Result]) -> None:
    """The one property every harness test checks: PASS only for a correct answer."""
    for r in results:
        if r.outcome in (Outcome.PASS, Outcome.XPASS):
            assert answered_correctly(r), f"{r.vector_id} reported {r.outcome}: {r}"
