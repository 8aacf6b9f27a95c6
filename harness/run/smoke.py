"""``pokercert smoke``: a dozen trivial requests that tell a broken adapter from a
non-compliant evaluator before a long run.

For one ruleset the adapter claims, the smoke set holds unambiguous hands (a royal or
top straight flush, trips or a pair, a plain no-pair hand, two identical-rank hands that
must tie) and one refusal of each single fault (an unknown card, a repeated card, a
card short).  Their expectations come from the reference engine, and a hand is used only
if every interpretation profile agrees on it, so the set holds nothing debatable.

Verdicts: any ERROR, TIMEOUT or CRASH (or a failed start) means the *adapter* is broken
(exit 2: fix the plumbing first); only wrong answers means the *evaluator* does not comply
even on trivial hands (exit 1); all PASS means the adapter works (exit 0).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pokercert.harness.adapters.base import Identity
from pokercert.reference import Ruleset, evaluator, get_ruleset
from pokercert.reference.cards import BAD_CARD, DUPLICATE_CARD, WRONG_COUNT
from pokercert.vectors.model import Kind, Vector

# candidate hands by size: best-looking first; a tie pair last
HANDS = {
    5: ("As Ks Qs Js Ts", "9c 9d 9h 4s 4c", "Kd Jc 8h 5s 2c", "Kh Js 8d 5c 2d"),
    3: ("As Ks Qs", "9c 9d 4h", "Kd 8c 5h", "Kh 8d 5c"),
    2: ("As Ad", "Kd 8c", "Qd 7c", "Qh 7d"),
}
HOLDEM = {"hands": ("As Ks", "7c 2d"), "board": "Qs Js 3h"}
NOT_A_CARD = "Zz"
PREFERRED = "nj-poker-high-5"


def _agreed(rs: Ruleset, fn: str, *args: Any) -> Any:
    """The reference answer, if the practice and literal profiles agree on it."""
    answers = []
    for prof in ("practice", "literal"):
        ev = evaluator(rs.id, prof)
        found = getattr(ev, fn)(*args)
        answers.append(found.category if fn == Kind.BEST_HAND else found)
    return answers[0] if answers[0] == answers[1] else None


def _vector(rs: Ruleset, n: int, kind: str, inputs: dict[str, Any], expect: dict[str, Any],
            why: str) -> Vector:
    return Vector(id=f"smoke/{rs.id}/{n:02d}", ruleset=rs.id, kind=kind, inputs=inputs,
                  clauses=(), flags=("smoke",), why=why, expect=expect)


def smoke_vectors(ruleset_id: str, kinds: Sequence[str]) -> list[Vector]:
    """The smoke set for one ruleset, limited to the vector kinds the adapter claims."""
    rs = get_ruleset(ruleset_id)
    size = rs.hand_size
    hands = HANDS[size]
    out: list[Vector] = []

    def add(kind: str, inputs: dict[str, Any], expect: dict[str, Any], why: str) -> None:
        out.append(_vector(rs, len(out) + 1, kind, inputs, expect, why))

    if Kind.CLASSIFY in kinds:
        for hand in hands[:3]:
            cat = _agreed(rs, "category", hand)
            if cat:
                add("classify", {"hand": hand}, {"category": cat}, f"{hand} is a {cat}")
    if Kind.COMPARE in kinds:
        pairs = [list(hands[:2]), list(hands[2:4])]
        for pair in pairs:
            won = _agreed(rs, "winners", pair)
            if won is not None:
                add("compare", {"hands": pair}, {"winners": won}, "an unambiguous showdown")
        if rs.selection is not None and rs.selection.hole == 2 and rs.selection.board == 3:
            won = _agreed(rs, "winners", list(HOLDEM["hands"]), HOLDEM["board"])
            if won is not None:
                add("compare", {"hands": list(HOLDEM["hands"]), "board": HOLDEM["board"]},
                    {"winners": won}, "an unambiguous showdown on a board")
    if Kind.BEST_HAND in kinds and rs.selection is not None and rs.selection.hole == 2 \
            and rs.selection.board == 3:
        hole, board = HOLDEM["hands"][0], HOLDEM["board"]
        cat = _agreed(rs, "best_hand", hole, board)
        if cat:
            best = evaluator(rs.id).best_hand(hole, board)
            played = [" ".join(str(c) for c in alt) for alt in best.alternatives]
            add("best_hand", {"hole": hole, "board": board},
                {"category": cat, "cards": played}, "the best hand from hole and board")
    if Kind.REJECT in kinds and Kind.CLASSIFY in kinds:
        cards = hands[2].split()
        faults = {
            BAD_CARD: [*cards[:-1], NOT_A_CARD],
            DUPLICATE_CARD: [*cards[:-1], cards[0]],
            WRONG_COUNT: cards[:-1],
        }
        for reason, faulty in faults.items():
            add("reject", {"op": "classify", "hand": " ".join(faulty)}, {"reason": reason},
                f"one fault only: {reason}")
    return out


def claimed_rulesets(identity: Identity) -> list[str]:
    """Every known ruleset the adapter claims, :data:`PREFERRED` first."""
    from pokercert.reference import all_rulesets

    known = sorted((rs.id for rs in all_rulesets()), key=lambda r: r != PREFERRED)
    return [r for r in known if identity.capabilities.get(r)]


def pick_ruleset(identity: Identity, wanted: str | None) -> str | None:
    """The ruleset to smoke: the one asked for, else the first the adapter claims."""
    if wanted:
        return wanted
    claimed = claimed_rulesets(identity)
    return claimed[0] if claimed else None

