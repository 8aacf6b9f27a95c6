"""Which vectors decide differently under another ruleset (the behavioural ``rules diff``).

For two rulesets A and B, :func:`behaviour_diff` asks B's reference evaluator every
vector of A (and A's every vector of B) and keeps those whose expected answer changes:
what a lab certifying one evaluator for both jurisdictions must see.  A vector is asked
only where its kind and inputs make sense under the other ruleset (the same number of
cards per hand and on the board, a dealer qualifier to ask about, a half of the pot of
that name, jokers the other deck holds...); every other vector is counted as *not
comparable* with the reason, never dropped silently.

Pai gow's questions (``compare_two_card``, ``setting``, ``settle``, and reject vectors
through them) are asked of a ruleset that has them (``reference/pai_gow.toml`` names the
pai gow games) when its hand is as many cards as the vector's high hands and its deck holds
the vector's jokers; of any other ruleset they are not comparable ("nj-holdem has no
setting question").  So Saint Lucia's wheel (s.67: A-2-3-4-5 the second highest
straight) against Washington's (the lowest, by default) shows as the settlements it turns.

Expected answers are the vector's own under the profile's readings; the other ruleset's
answer is :func:`pokercert.vectors.check.reference_outcome` under the same profile, both
in the comparable form of :func:`pokercert.vectors.check.normalise`.  The readings of
both rulesets' interpretations under the profile are part of the diff
(:attr:`BehaviourDiff.readings`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pokercert.reference import CardError, Profile, RulesetError, evaluator, load_profile
from pokercert.reference.engine import Evaluator
from pokercert.reference.pai_gow import GAMES_FILE, LOW_CARDS, PaiGowError, pai_gow_rules
from pokercert.reference.rulesets import Ruleset
from pokercert.vectors.check import normalise, reference_outcome
from pokercert.vectors.model import PAI_GOW_KINDS, Kind, Vector

__all__ = [
    "BehaviourDiff",
    "Changed",
    "NotComparable",
    "OneWay",
    "behaviour_diff",
    "not_comparable",
    "one_way",
]

JOKER = "Xx"
# the questions (a vector's kind, or a reject vector's operation) whose cards this module
# knows how to count: a kind added later is counted "not comparable" until it is taught
COMPARABLE_KINDS = frozenset(
    {Kind.CLASSIFY, Kind.COMPARE, Kind.BEST_HAND, Kind.SHOWDOWN, Kind.QUALIFIES, *PAI_GOW_KINDS}
)
# the inputs of a vector that hold no cards (every other input is cards: a text, or lists)
NOT_CARDS = frozenset({"op", "half"})


@dataclass(frozen=True)
class Changed:
    """A vector of ``source`` whose answer under ``target``'s reference is not its own."""

    vector: str
    kind: str
    clauses: tuple[str, ...]
    inputs: Mapping[str, Any]
    expected: Mapping[str, Any]  # the vector's expectation (its own ruleset)
    other: Mapping[str, Any]  # the other ruleset's reference answer
    why: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "vector": self.vector,
            "kind": self.kind,
            "clauses": list(self.clauses),
            "inputs": dict(self.inputs),
            "expected": dict(self.expected),
            "other": dict(self.other),
            "why": self.why,
        }


@dataclass(frozen=True)
class NotComparable:
    """A vector the other ruleset cannot be asked, and why."""

    vector: str
    kind: str
    reason: str

    def as_dict(self) -> dict[str, Any]:
        return {"vector": self.vector, "kind": self.kind, "reason": self.reason}


@dataclass(frozen=True)
class OneWay:
    """The vectors of ``source`` asked of ``target``'s reference."""

    source: str
    target: str
    vectors: int  # every vector of ``source``
    same: int  # compared, and the answer is the same
    changed: tuple[Changed, ...]
    not_comparable: tuple[NotComparable, ...]

    def by_clause(self) -> dict[str, list[str]]:
        """Clause label -> the changed vectors that exercise it (a vector is listed under
        every clause it carries), clauses in order of first appearance."""
        out: dict[str, list[str]] = {}
        for c in self.changed:
            for label in c.clauses:
                out.setdefault(label, []).append(c.vector)
        return out

    def as_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "target": self.target,
            "vectors": self.vectors,
            "compared": self.same + len(self.changed),
            "same": self.same,
            "changed": [c.as_dict() for c in self.changed],
            "by_clause": self.by_clause(),
            "not_comparable": [n.as_dict() for n in self.not_comparable],
        }


@dataclass(frozen=True)
class BehaviourDiff:
    """Both directions: A's vectors under B's reference, and B's under A's."""

    a: str
    b: str
    profile: str
    a_under_b: OneWay
    b_under_a: OneWay
    # the profile's reading of every interpretation of A or B (what the answers rest on)
    readings: Mapping[str, str] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "profile": self.profile,
            "readings": dict(self.readings),
            "a_under_b": self.a_under_b.as_dict(),
            "b_under_a": self.b_under_a.as_dict(),
        }


def behaviour_diff(
    a: Ruleset, b: Ruleset, vectors: Sequence[Vector], profile: Profile | str | None = None
) -> BehaviourDiff:
    """``vectors`` (a corpus's, any rulesets) of ``a`` asked of ``b`` and back, under
    ``profile``'s readings (default: practice)."""
    prof = load_profile(profile)
    readings = dict(sorted({**prof.readings_for(a), **prof.readings_for(b)}.items()))
    return BehaviourDiff(
        a.id,
        b.id,
        prof.name,
        one_way(a, b, vectors, prof),
        one_way(b, a, vectors, prof),
        readings,
    )


def one_way(
    source: Ruleset, target: Ruleset, vectors: Sequence[Vector], profile: Profile
) -> OneWay:
    """The vectors of ``source`` among ``vectors``, asked of ``target``'s reference."""
    ev = evaluator(target.id, profile)
    mine = [v for v in vectors if v.ruleset == source.id]
    changed: list[Changed] = []
    apart: list[NotComparable] = []
    same = 0
    for v in mine:
        reason = not_comparable(v, source, target)
        answer = _answer(ev, v) if reason is None else reason
        if isinstance(answer, str):
            apart.append(NotComparable(v.id, v.kind, answer))
            continue
        expected = normalise(v.kind, v.expected(profile))
        if answer == expected:
            same += 1
        else:
            changed.append(Changed(v.id, v.kind, v.clauses, v.inputs, expected, answer, v.why))
    return OneWay(source.id, target.id, len(mine), same, tuple(changed), tuple(apart))


def _answer(ev: Evaluator, vector: Vector) -> dict[str, Any] | str:
    """The reference's comparable answer, or why it refuses the (valid) input."""
    try:
        return reference_outcome(ev, vector)
    except (CardError, RulesetError, PaiGowError) as exc:
        return f"{ev.ruleset.id}'s reference refuses the input: {exc}"


def _deal(rs: Ruleset, op: str, with_board: bool) -> tuple[int, int] | None:
    """(cards per hand, board cards) ``rs`` deals for ``op`` (None: ``rs`` has no such
    question): a hand of its size, or with a board or a best hand its selection's; a pai
    gow question's high hands are of its size (its two-card hands are two cards)."""
    if op in PAI_GOW_KINDS:
        return (rs.hand_size, 0) if pai_gow_rules(rs.id) is not None else None
    if op == Kind.QUALIFIES and rs.qualifier is None:
        return None
    if op == Kind.BEST_HAND and rs.selection is None:
        return None
    if rs.selection is not None and (with_board or op in (Kind.BEST_HAND, Kind.SHOWDOWN)):
        return rs.selection.hole, rs.selection.board
    return rs.hand_size, 0


def _shape(vector: Vector) -> tuple[list[int], int]:
    """(cards in each hand, board cards) the vector deals."""
    i = vector.inputs
    hands = [i["hand"]] if "hand" in i else [i["hole"]] if "hole" in i else list(i["hands"])
    return [len(h.split()) for h in hands], len(i.get("board", "").split())


def _pai_gow_shape(vector: Vector) -> list[int]:
    """The cards in each high (five-card) hand a pai gow vector deals; a two-card hand is
    :data:`LOW_CARDS` cards wherever pai gow is dealt."""
    i = vector.inputs
    if vector.kind == Kind.COMPARE_TWO_CARD:
        return []
    sets = [i["player"], i["banker"]] if vector.kind == Kind.SETTLE else [[i["high"], i["low"]]]
    return [len(high.split()) for high, _low in sets]


def _jokers(value: Any) -> int:
    """The jokers among the cards of a vector's inputs (a text of cards, or lists of them)."""
    if isinstance(value, str):
        return value.split().count(JOKER)
    if isinstance(value, Mapping):
        return sum(_jokers(v) for k, v in value.items() if k not in NOT_CARDS)
    if isinstance(value, Sequence):
        return sum(_jokers(v) for v in value)
    return 0


def not_comparable(vector: Vector, source: Ruleset, target: Ruleset) -> str | None:
    """Why ``target`` cannot be asked ``vector`` (of ``source``), or None when it can
    (a ruleset can be asked every vector of its own)."""
    if source.id == target.id:
        return None
    op = vector.inputs["op"] if vector.kind == Kind.REJECT else vector.kind
    if op not in COMPARABLE_KINDS:
        return (
            f"{op} questions are not compared across rulesets (no rule here says when "
            f"one makes sense under another ruleset)"
        )
    with_board = "board" in vector.inputs
    want = _deal(target, op, with_board)
    if want is None:
        return _no_question(op, target)
    if vector.kind == Kind.REJECT:
        # the input is faulty on purpose: ask only where both deal the same hands for op
        have = _deal(source, op, with_board)
        if have != want:
            return (
                f"a refused {op} input, and {target.id} deals {_cards(want)} where "
                f"{source.id} deals {_cards(have)}"
            )
        return None
    reason = (
        _pai_gow_deal(vector, target) if op in PAI_GOW_KINDS else _deal_fits(vector, target, want)
    )
    if reason is not None:
        return reason
    jokers = _jokers(vector.inputs)
    if jokers > target.jokers:
        return f"the vector deals {jokers} joker(s); {target.id}'s deck holds {target.jokers}"
    return None


def _no_question(op: str, target: Ruleset) -> str:
    """Why ``target`` has no ``op`` question to ask."""
    if op in PAI_GOW_KINDS:
        return f"{target.id} has no {op} question (not a pai gow game: no [[game]] in {GAMES_FILE})"
    what = "dealer qualifier" if op == Kind.QUALIFIES else "best hand from hole and board"
    return f"{target.id} has no {what} to ask about"


def _deal_fits(vector: Vector, target: Ruleset, want: tuple[int, int]) -> str | None:
    """Why a (valid) vector's hands, board and half are no deal of ``target``, or None."""
    hands, board = _shape(vector)
    if any(n != want[0] for n in hands) or board != want[1]:
        odd = next((n for n in hands if n != want[0]), hands[0])
        return f"the vector deals {_cards((odd, board))}; {target.id} deals {_cards(want)}"
    half = vector.inputs.get("half")
    if half is not None and half not in {h.name for h in target.pot_halves}:
        return f"{target.id} has no {half} half"
    return None


def _pai_gow_deal(vector: Vector, target: Ruleset) -> str | None:
    """Why a (valid) pai gow vector's high hands are no hand of the pai gow game
    ``target``, or None (its two-card hands are two cards in every pai gow game)."""
    odd = next((n for n in _pai_gow_shape(vector) if n != target.hand_size), None)
    if odd is None:
        return None
    return (
        f"the vector sets a {odd}-card high hand beside a {LOW_CARDS}-card one; "
        f"{target.id}'s hand is {target.hand_size} cards"
    )


def _cards(deal: tuple[int, int] | None) -> str:
    if deal is None:
        return "nothing"
    hand, board = deal
    return f"{hand} cards a hand" + (f" and {board} on the board" if board else "")
