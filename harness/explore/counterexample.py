"""Turn a disagreement with the reference into a ready-to-add corpus vector.

``pokercert fuzz`` and ``pokercert exhaustive`` find inputs on which an evaluator and the
reference disagree.  This module writes such an input up as a corpus record: the
expectation the reference gives under every combination of interpretation readings
(``expect``, or ``expect_by_reading`` when exactly one interpretation decides it), the
deciding clauses, bug-class flags from the registry, a one-line ``why`` and the next
free id of the ruleset, printed with :func:`pokercert.vectors.canonical.to_toml`, the one
TOML writer of the corpus tools.  ``pokercert vectors check`` accepts what it prints.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, NamedTuple

from pokercert.harness.explore.situation_pai_gow import pai_gow_tags
from pokercert.reference import (
    Card,
    Evaluator,
    HandValue,
    Profile,
    evaluator,
    format_cards,
    get_ruleset,
    parse_cards,
    sort_cards,
)
from pokercert.reference.categories import CategoryName
from pokercert.reference.engine import deciding_clauses
from pokercert.reference.interpretations import catalogue, load_profile
from pokercert.vectors import registry
from pokercert.vectors.canonical import record, to_toml
from pokercert.vectors.check import reference_outcome, reject_faults, variants
from pokercert.vectors.ids import next_ids
from pokercert.vectors.model import PAI_GOW_KINDS, Kind, Vector

ACE, KING, TWO = 14, 13, 2

__all__ = [
    "Draft",
    "Found",
    "describe",
    "draft_of",
    "drafts_text",
    "finding_comment",
    "found_vector",
    "next_ids",
    "placeholder_vector",
    "to_record_text",
]


@dataclass(frozen=True)
class Found:
    """A corpus vector for a disagreement, and what the evaluator answered instead."""

    vector: Vector
    actual: Mapping[str, Any] | None  # the evaluator's answer (None: no answer)
    message: str  # the scorer's account of the difference
    note: str = ""  # why the record needs a human before it is added

    def toml(self, adapter: str = "") -> str:
        """The record in the corpus's TOML layout, with comments saying what was found."""
        return to_record_text(self, adapter)

    def draft(self, adapter: str = "") -> str:
        """The same record as a draft for ``pokercert vectors add`` (no id)."""
        return drafts_text(self.vector.ruleset, [draft_of(self, adapter)])


def placeholder_vector(
    ruleset: str, kind: str, inputs: Mapping[str, Any], expect: Mapping[str, Any]
) -> Vector:
    """A throw-away vector for scoring one generated input (no clauses, flags or why yet)."""
    return Vector(
        id=f"{ruleset}/0000",
        ruleset=ruleset,
        kind=kind,
        inputs=dict(inputs),
        clauses=(),
        flags=(),
        why="",
        expect=dict(expect),
    )


def expected_outcome(ev: Evaluator, kind: str, inputs: Mapping[str, Any]) -> dict[str, Any]:
    """The reference's expectation for these inputs (the corpus checker's own function).

    A reject input with several faults expects the reference's ``reason`` and, in
    ``also``, every other fault the input has (:func:`reject_faults`, as the corpus's own
    several-fault vectors are written): an adapter may name any of them (PROTOCOL.md 3.2),
    so a fresh deal or a fuzz case with two faults accepts either."""
    vector = placeholder_vector(ev.ruleset.id, kind, inputs, {})
    expect = reference_outcome(ev, vector)
    if kind == Kind.REJECT and "reason" in expect:
        faults, _ = reject_faults(vector, ev.ruleset)
        also = sorted(faults - {expect["reason"]})
        if also:
            expect = {**expect, "also": also}
    return expect


# --------------------------------------------------------------------------- expectations


def _by_variant(
    ruleset: str, kind: str, inputs: Mapping[str, Any]
) -> list[tuple[dict[str, str], dict[str, Any]]]:
    """The reference outcome under every combination of the ruleset's readings."""
    out = []
    for variant in variants(get_ruleset(ruleset)):
        ev = evaluator(ruleset, variant.profile())
        out.append((variant.as_dict, expected_outcome(ev, kind, inputs)))
    return out


def _expectations(
    ruleset: str, kind: str, inputs: Mapping[str, Any], profile: Profile
) -> tuple[dict[str, Any] | None, str | None, dict[str, dict[str, Any]] | None, str]:
    """(expect, interpretation, expect_by_reading, note) as the corpus format wants them."""
    outcomes = _by_variant(ruleset, kind, inputs)
    distinct = {_freeze(o) for _, o in outcomes}
    if len(distinct) == 1:
        return outcomes[0][1], None, None, ""
    # the outcome must be a function of one interpretation's reading alone
    for iid in sorted(get_ruleset(ruleset).interpretations):
        by_reading: dict[str, dict[str, Any]] = {}
        consistent = True
        for choices, outcome in outcomes:
            seen = by_reading.setdefault(choices[iid], outcome)
            if _freeze(seen) != _freeze(outcome):
                consistent = False
                break
        if consistent:
            interp = catalogue()[iid]
            ordered = {r: by_reading[r] for r in interp.readings if r in by_reading}
            return None, iid, ordered, ""
    deciding = [
        iid for iid in sorted(get_ruleset(ruleset).interpretations) if _matters(iid, outcomes)
    ]
    ev = evaluator(ruleset, profile)
    note = (
        f"the outcome depends on several interpretations ({', '.join(deciding)}); the "
        "corpus takes vectors that depend on one at most: find a simpler input"
    )
    return expected_outcome(ev, kind, inputs), None, None, note


def _matters(iid: str, outcomes: Sequence[tuple[dict[str, str], dict[str, Any]]]) -> bool:
    """Whether changing ``iid``'s reading alone changes the outcome somewhere."""
    groups: dict[Any, set[Any]] = {}
    for choices, outcome in outcomes:
        rest = tuple(sorted((k, v) for k, v in choices.items() if k != iid))
        groups.setdefault(rest, set()).add(_freeze(outcome))
    return any(len(g) > 1 for g in groups.values())


def _freeze(value: Any) -> Any:
    if isinstance(value, Mapping):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    return value


# --------------------------------------------------------------------------- tags


def _cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text, jokers=2)


def _ranks(cards: Iterable[Card]) -> set[int]:
    return {c.rank for c in cards if not c.is_joker}


def _runs_through_ace(ranks: set[int], size: int) -> tuple[bool, bool]:
    """(holds the ace-low run, holds a run that wraps K-A-2) among these ranks."""
    low = {ACE, *range(TWO, TWO + size - 1)}
    wheel = low <= ranks
    wrap = {KING, ACE, TWO} <= ranks
    return wheel, wrap


def _flags(
    ev: Evaluator, kind: str, inputs: Mapping[str, Any], values: Sequence[HandValue]
) -> list[str]:
    rs = ev.ruleset
    flags: list[str] = []
    every = [c for key in ("hand", "hole", "board") if key in inputs for c in _cards(inputs[key])]
    every += [c for h in inputs.get("hands", ()) for c in _cards(h)]
    if rs.selection is not None and (kind == Kind.BEST_HAND or "board" in inputs):
        flags.append("best-hand-selection")
    if rs.id == "nj-mini-tex-pocket":
        flags.append("pocket-wager")
    if any(c.is_joker or c.rank == ev.wild_rank for c in every):
        flags.append("wild-card")
    if kind == Kind.QUALIFIES:
        flags.append("dealer-qualifier")
    if any(v.category == CategoryName.FIVE_OF_A_KIND for v in values):
        flags.append("five-of-a-kind")
    hands = [v.cards for v in values]
    for cards in hands:
        wheel, wrap = _runs_through_ace(_ranks(cards), rs.hand_size)
        if wheel:
            if ev.rules["direction"] == "low":
                flags.append("ace-low" if ev.rules["ace"] == "low" else "ace-high-lowball")
            else:
                flags.append("wheel")
        if wrap:
            flags.append("wraparound")
    if ev.rules["direction"] == "low":
        flags.append("low-order")
    if kind == Kind.SHOWDOWN:
        flags.append("dealt-showdown")
    if kind in (Kind.COMPARE, Kind.SHOWDOWN) and values:
        categories = {v.category for v in values}
        best = max(v.key for v in values)
        winners = [v for v in values if v.key == best]
        if len(categories) > 1:
            flags.append("category-order")
        else:
            flags.append(_same_category_flag(next(iter(categories))))
        if len(winners) >= 3:
            flags.append("multiway-split")
        if (
            len(winners) >= 2
            and len({tuple(sorted(c.rank for c in v.played)) for v in winners}) == 1
        ):
            flags.append("suit-tiebreak")
    if not flags:
        flags.append("category-order" if kind == Kind.CLASSIFY else "rank-order")
    known = _registered_flags()
    kept = [f for f in dict.fromkeys(flags) if f in known]
    return kept or [next(iter(known))]


@cache
def _registered_flags() -> Mapping[str, str]:
    """The shipped flag registry, read once (a challenge tags hundreds of deals)."""
    return registry.flags()


# the flag of a showdown whose hands share a category (another category: rank-order)
_SAME_CATEGORY_FLAG: dict[str, str] = {
    CategoryName.STRAIGHT: "straight-order",
    CategoryName.STRAIGHT_FLUSH: "straight-order",
    CategoryName.ROYAL_FLUSH: "suit-tiebreak",
    CategoryName.FULL_HOUSE: "full-house-order",
    CategoryName.TWO_PAIR: "two-pair-order",
    CategoryName.HIGH_CARD: "kicker-order",
    CategoryName.FLUSH: "kicker-order",
    CategoryName.ONE_PAIR: "kicker-order",
}


def _same_category_flag(category: str) -> str:
    return _SAME_CATEGORY_FLAG.get(category, "rank-order")


def _values(ev: Evaluator, kind: str, inputs: Mapping[str, Any]) -> list[HandValue]:
    if kind in (Kind.CLASSIFY, Kind.QUALIFIES):
        return [ev.evaluate(inputs["hand"])]
    if kind == Kind.COMPARE:
        return ev.showdown(list(inputs["hands"]), inputs.get("board"))
    if kind == Kind.BEST_HAND:
        return [ev.best_hand(inputs["hole"], inputs.get("board")).value]
    if kind == Kind.SHOWDOWN:  # each hand's best for the game's first half
        return ev.showdown(list(inputs["hands"]), inputs.get("board"))
    return []


def _clauses(ev: Evaluator, kind: str, values: Sequence[HandValue]) -> list[str]:
    rs = ev.ruleset
    if kind in (Kind.COMPARE, Kind.SHOWDOWN):
        labels = deciding_clauses(ev, values)
    elif kind == Kind.QUALIFIES and rs.qualifier is not None:
        # the qualifier's own clause where a regulation states it, then the clauses that
        # compare the hand with the qualifying minimum
        minimum = ev.value(ev.parse_hand(rs.qualifier.minimum))
        labels = [rs.qualifier.clause or "", *deciding_clauses(ev, [values[0], minimum])]
    else:
        labels = [rs.category(values[0].category).clause]
    if kind == Kind.SHOWDOWN:  # how hands are made, how the pot is split
        labels[:0] = [h.clause for h in rs.pot_halves if h.clause]
    if rs.selection is not None and kind in (Kind.BEST_HAND, Kind.SHOWDOWN):
        labels.insert(0, rs.selection.clause)
    return [c for c in dict.fromkeys(labels) if rs.has_clause(c)] or [rs.clauses[0].label]


def _why(ev: Evaluator, kind: str, inputs: Mapping[str, Any], values: Sequence[HandValue]) -> str:
    rs = ev.ruleset

    def label(v: HandValue) -> str:
        return rs.category(v.category).label

    if kind == Kind.CLASSIFY:
        cat = rs.category(values[0].category)
        return f"{inputs['hand']} ranks as {cat.label} under {cat.clause}."
    if kind == Kind.QUALIFIES and rs.qualifier is not None:
        meets = ev.qualifies(inputs["hand"])
        return (
            f"{inputs['hand']} ({label(values[0])}) {'meets' if meets else 'falls short of'}"
            f" the dealer qualifier '{rs.qualifier.words}' (lowest qualifying hand "
            f"{rs.qualifier.minimum})."
        )
    if kind == Kind.BEST_HAND:
        dealt = (
            f"hole {inputs['hole']} and board {inputs['board']}"
            if "board" in inputs
            else f"the cards dealt {inputs['hole']}"
        )
        return (
            f"From {dealt} the best hand is "
            f"{format_cards(sort_cards(values[0].cards))}, {label(values[0])}."
        )
    hands = list(inputs["hands"])
    if kind == Kind.SHOWDOWN:
        pot = ev.pot(hands, inputs.get("board"))
        board = f" on board {inputs['board']}" if inputs.get("board") else ""
        halves = [
            f"{h.name} to hand(s) {', '.join(map(str, won))}"
            if won
            else f"no {h.name} hand qualifies"
            for h in rs.pot_halves
            for won in [pot.high if h.name == "high" else pot.low or ()]
        ]
        return (
            f"{' | '.join(hands)}{board}: {'; '.join(halves)}; shares "
            f"{', '.join(str(x) for x in pot.shares)}."
        )
    best = max(v.key for v in values)
    winners = [i for i, v in enumerate(values) if v.key == best]
    if len(winners) == len(hands):
        return f"{' vs '.join(hands)}: equal hands, a {rs.equal_outcome}."
    if len(winners) > 1:
        return (
            f"Hands {', '.join(str(i) for i in winners)} are equal and share the pot "
            f"({rs.equal_outcome}) over the others."
        )
    w = winners[0]
    beaten = ", ".join(f"{hands[i]} ({label(v)})" for i, v in enumerate(values) if i != w)
    return f"{hands[w]} ({label(values[w])}) beats {beaten}."


def describe(
    ev: Evaluator, kind: str, inputs: Mapping[str, Any]
) -> tuple[list[str], list[str], str]:
    """The clauses that decide a (valid) generated input, its bug-class flags and a
    one-line why: the tags a counterexample gets, for a challenge vector too."""
    if kind in PAI_GOW_KINDS:  # two-card hands, settings, settlements: their own tags
        return pai_gow_tags(ev, kind, inputs)
    values = _values(ev, kind, inputs)
    return (
        _clauses(ev, kind, values),
        _flags(ev, kind, inputs, values),
        _why(ev, kind, inputs, values),
    )


# --------------------------------------------------------------------------- ids

# next_ids (pokercert.vectors.ids, re-exported here): a counterexample's draft gets the
# next free hand-written id of the shipped corpus, numbered as `pokercert vectors add` does


# --------------------------------------------------------------------------- the record


def found_vector(
    ruleset: str,
    kind: str,
    inputs: Mapping[str, Any],
    profile: Profile | str | None = None,
    *,
    actual: Mapping[str, Any] | None = None,
    message: str = "",
    vector_id: str | None = None,
) -> Found:
    """A complete corpus vector for ``inputs`` with the reference's expectation(s).

    ``inputs`` use the corpus form (canonical card strings, one string per hand).
    """
    prof = load_profile(profile)
    ev = evaluator(ruleset, prof)
    if kind == "reject":
        return _found_reject(ev, inputs, actual, message, vector_id)
    expect, iid, by_reading, note = _expectations(ruleset, kind, inputs, prof)
    clauses, flags, why = describe(ev, kind, inputs)
    vid = vector_id or next_ids(ruleset, 1)[0]
    vector = Vector(
        id=vid,
        ruleset=ruleset,
        kind=kind,
        inputs=dict(inputs),
        clauses=tuple(clauses),
        flags=tuple(flags),
        why=why,
        expect=expect,
        interpretations=(iid,) if iid else (),
        expect_by_reading=by_reading,
    )
    return Found(vector, actual, message, note)


def _found_reject(
    ev: Evaluator,
    inputs: Mapping[str, Any],
    actual: Mapping[str, Any] | None,
    message: str,
    vector_id: str | None,
) -> Found:
    """A reject vector: the reason the reference refuses with, the clause the corpus's own
    reject vectors of this ruleset cite (the ruleset's first clause if it has none)."""
    from collections import Counter

    from pokercert.reference.cards import DUPLICATE_CARD
    from pokercert.vectors.corpus import load_corpus

    rs = ev.ruleset
    expect = expected_outcome(ev, "reject", inputs)
    cited = Counter(
        v.clauses for v in load_corpus().vectors if v.ruleset == rs.id and v.kind == "reject"
    )
    clauses = cited.most_common(1)[0][0] if cited else (rs.clauses[0].label,)
    hands = [inputs[k] for k in ("hand", "hole", "board", "high", "low") if k in inputs]
    hands += [*inputs.get("hands", ()), *inputs.get("player", ()), *inputs.get("banker", ())]
    tokens = [t for h in hands for t in h.split()]
    across = (
        len(hands) > 1
        and expect.get("reason") == DUPLICATE_CARD
        and all(len(set(h.split())) == len(h.split()) for h in hands)
    )
    flags: tuple[str, ...] = ("one-deck",) if across else ("input-validation",)
    if "board" in inputs and rs.selection is None:  # a field the game does not use
        flags += ("unused-field",)
    why = (
        f"{' | '.join(hands)}: refused ({expect.get('reason')}); "
        f"{len(tokens)} card token(s) where a valid {inputs['op']} request has none of "
        "this fault."
    )
    vector = Vector(
        id=vector_id or next_ids(rs.id, 1)[0],
        ruleset=rs.id,
        kind="reject",
        inputs=dict(inputs),
        clauses=tuple(clauses),
        flags=flags,
        why=why,
        expect=expect,
    )
    return Found(vector, actual, message)


class Draft(NamedTuple):
    """One entry of a draft file: a corpus record (as
    :func:`pokercert.vectors.canonical.record` gives it; its id is dropped) and the
    comment lines saying what was found."""

    record: Mapping[str, Any]
    comment: Sequence[str]


def finding_comment(
    adapter: str = "", message: str = "", actual: Mapping[str, Any] | None = None, note: str = ""
) -> list[str]:
    """The comment over a found record: who disagreed, and how (the scorer's message,
    else the answer), and a note when the record needs a human before it is added."""
    who = f"adapter {adapter}" if adapter else "the evaluator"
    comment = [f"found by pokercert: {who} disagrees with the reference"]
    if message:
        comment.append(f"{who}: {message}")
    elif actual is not None:
        comment.append(f"{who} answered {dict(actual)}")
    if note:
        comment.append(f"NOTE: {note}")
    return comment


def draft_of(found: Found, adapter: str = "") -> Draft:
    """A :class:`Found` as a draft entry."""
    return Draft(record(found.vector), _comment(found, adapter))


def drafts_text(ruleset: str, drafts: Sequence[Draft]) -> str:
    """The one writer of ready-to-add drafts (fuzz, exhaustive and challenge findings
    alike): one file of ``ruleset`` for ``pokercert vectors add FILE --topic TOPIC``,
    ids dropped (the tool assigns them), each record under its comment."""
    tables = [
        to_toml({k: v for k, v in d.record.items() if k != "id"}, comment=d.comment) for d in drafts
    ]
    return f'ruleset = "{ruleset}"\n\n' + "\n".join(tables)


def _comment(found: Found, adapter: str) -> list[str]:
    return finding_comment(adapter, found.message, found.actual, found.note)


def to_record_text(found: Found, adapter: str = "") -> str:
    """The ``[[vector]]`` table, preceded by comments on what the evaluator did."""
    return to_toml(record(found.vector), comment=_comment(found, adapter))
