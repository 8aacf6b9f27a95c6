"""Fresh siblings: a curated vector's situation dealt again with new ranks and suits.

A twin is a symmetry of its curated vector (:mod:`.challenge`), so an evaluator that
memorised the corpus up to symmetry answers it from its table.  A *sibling* is not: it
keeps what decides the curated vector and changes what does not, so it tests what the
vector tests on an input nobody has published.  One attempt at a sibling:

* **ranks**: the ranks the vector uses fall into runs (blocks of consecutive ranks); the
  blocks that touch an end of the deck (the ace, the deuce: where the wheel, broadway
  and the lowest straight live) stay, the others slide to new places, in the same order
  and never touching one another, so every pair, kicker order and run is kept;
* **suits**: one card or two get another suit, or (hands of a compare or showdown without
  a board) each hand gets its own relabelling, so which cards share a suit *within* a
  hand is kept and across hands it is not;
* then the hands are reordered, as in a twin, and (one sibling in two) the cards of each
  hand shuffled.

An attempt counts only when the reference agrees that nothing deciding changed: its
outcome for the sibling (before the reordering) is its outcome for the curated vector,
and the clauses and bug-class flags the reference reads from the deal
(:func:`~pokercert.harness.explore.counterexample.describe`) are the same; and when the
deal is no symmetry of a published input, nor of a fresh deal already made
(:mod:`pokercert.harness.canonical_form`).  The sibling's expectation is then the
reference's, computed on the final deal: never the curated one, copied.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from pokercert.reference import Evaluator
from pokercert.reference.cards import RANK_CHARS, SUIT_CHARS, CardError
from pokercert.vectors.model import PAI_GOW_KINDS, Kind, Vector

__all__ = ["ATTEMPTS", "Sibling", "draw_sibling", "hand_categories", "rank_map"]

ATTEMPTS = 8  # attempts at one sibling before the cell goes without it
ACE, TWO = 14, 2
_RANK = {c: i + 2 for i, c in enumerate(RANK_CHARS)}
_SUITS = tuple(SUIT_CHARS)
_FIELDS = ("hand", "hole", "board")


class Sibling(NamedTuple):
    """A sibling deal of curated vector ``source`` (inputs in the corpus's form)."""

    kind: str
    inputs: dict[str, Any]
    source: str


def _natural(token: str) -> bool:
    return len(token) == 2 and token[0] in _RANK and token[1] in SUIT_CHARS


def _blocks(ranks: Sequence[int]) -> list[list[int]]:
    """The sorted ranks split into runs of consecutive ranks."""
    out: list[list[int]] = []
    for r in sorted(set(ranks)):
        if out and r == out[-1][-1] + 1:
            out[-1].append(r)
        else:
            out.append([r])
    return out


def rank_map(rng: random.Random, ranks: Sequence[int], fixed: int | None) -> dict[int, int]:
    """A new place for every rank: the blocks touching the ace or the deuce (or the wild
    rank ``fixed``) stay, the others slide within the room between them, in order, at
    least one rank apart (identity when there is no room)."""
    blocks = _blocks(ranks)
    low = [b for b in blocks if TWO in b or (fixed is not None and fixed in b)]
    high = [b for b in blocks if ACE in b]
    middle = [b for b in blocks if b not in low and b not in high]
    out = {r: r for r in ranks}
    if not middle:
        return out
    lo = max((b[-1] + 2 for b in low), default=3)
    hi = min((b[0] - 2 for b in high), default=ACE - 1)
    need = sum(len(b) for b in middle) + len(middle) - 1
    slack = hi - lo + 1 - need
    if slack <= 0:
        return out
    # slack spread over the len(middle) + 1 gaps: sorted cut points in [0, slack]
    cuts = sorted(rng.randint(0, slack) for _ in middle)
    start, used = lo, 0
    for block, cut in zip(middle, cuts, strict=True):
        start += cut - used
        used = cut
        for i, r in enumerate(block):
            out[r] = start + i
        start += len(block) + 1
    return out


def _fields(inputs: Mapping[str, Any]) -> list[tuple[str, int, list[str]]]:
    """Every card string of a request as (field, index in hands or -1, tokens)."""
    out = [(name, -1, str(inputs[name]).split()) for name in _FIELDS if name in inputs]
    out += [("hands", i, str(h).split()) for i, h in enumerate(inputs.get("hands", ()))]
    return out


def _rebuilt(inputs: Mapping[str, Any], fields: list[tuple[str, int, list[str]]]) -> dict[str, Any]:
    out = dict(inputs)
    hands = list(inputs.get("hands", ()))
    for name, i, tokens in fields:
        if name == "hands":
            hands[i] = " ".join(tokens)
        else:
            out[name] = " ".join(tokens)
    if "hands" in out:
        out["hands"] = hands
    return out


def _redrawn(rng: random.Random, vector: Vector, wild_rank: int | None) -> dict[str, Any] | None:
    """One attempt: ranks slid, suits redrawn (or both), unshuffled, hands in place;
    None when it dealt one card twice where the curated vector had no such fault."""
    fields = _fields(vector.inputs)
    ranks = [_RANK[t[0]] for _, _, ts in fields for t in ts if _natural(t)]
    mode = rng.randrange(3)  # 0 ranks, 1 suits, 2 both
    reject = vector.kind == Kind.REJECT
    if reject or (mode == 1 and not ranks):
        mode = 0
    if mode != 1:
        mapping = rank_map(rng, ranks, wild_rank)
        if all(k == v for k, v in mapping.items()):
            if reject or not ranks:
                return None  # nothing to slide: a symmetry at most
            mode = 1
        fields = [
            (
                n,
                i,
                [
                    RANK_CHARS[mapping[_RANK[t[0]]] - 2] + t[1]
                    if _natural(t) and _RANK[t[0]] != wild_rank
                    else t
                    for t in ts
                ],
            )
            for n, i, ts in fields
        ]
    if mode != 0:
        hands_only = "board" not in vector.inputs and "hands" in vector.inputs
        if hands_only and rng.randrange(2):
            fields = [(n, i, _relabel(ts, _permutation(rng))) for n, i, ts in fields]
        else:
            natural = [
                (k, j)
                for k, (_, _, ts) in enumerate(fields)
                for j, t in enumerate(ts)
                if _natural(t)
            ]
            held = {t for _, _, ts in fields for t in ts}
            for k, j in rng.sample(natural, min(len(natural), 1 + rng.randrange(2))):
                token = fields[k][2][j]
                free = [s for s in _SUITS if token[0] + s not in held]
                if free:
                    fields[k][2][j] = token[0] + rng.choice(free)
                    held.add(fields[k][2][j])
    relabel = _permutation(rng)
    fields = [(n, i, _relabel(ts, relabel)) for n, i, ts in fields]
    before = [t for _, _, ts in _fields(vector.inputs) for t in ts]
    after = [t for _, _, ts in fields for t in ts]
    if len(set(after)) - len(after) != len(set(before)) - len(before):
        return None
    return _rebuilt(vector.inputs, fields)


def _permutation(rng: random.Random) -> dict[str, str]:
    order = list(_SUITS)
    rng.shuffle(order)
    return dict(zip(_SUITS, order, strict=True))


def _relabel(tokens: list[str], suits: Mapping[str, str]) -> list[str]:
    return [t[0] + suits[t[1]] if _natural(t) else t for t in tokens]


def _shuffled(rng: random.Random, inputs: Mapping[str, Any]) -> dict[str, Any]:
    """Hands reordered, and (one time in two) the cards shuffled within each hand and
    the board: the other time they keep the curated vector's order, which a mistake
    may read (the suit of the last card dealt)."""
    fields = _fields(inputs)
    if rng.randrange(2):
        for _, _, tokens in fields:
            rng.shuffle(tokens)
    out = _rebuilt(inputs, fields)
    if "hands" in out:
        hands = list(out["hands"])
        rng.shuffle(hands)
        out["hands"] = hands
    return out


Outcome = Callable[[str, Mapping[str, Any]], Any]


def hand_categories(ev: Evaluator, kind: str, inputs: Mapping[str, Any]) -> tuple[str, ...]:
    """The categories the reference gives the hands of a valid request, sorted: the
    hand of a classify or qualifies, each hand of a compare of whole hands (empty for a
    reject, and where a best hand is chosen from the cards dealt: searching it on every
    attempt costs too much, and the outcome says enough there)."""
    if kind in (Kind.CLASSIFY, Kind.QUALIFIES):
        return (ev.evaluate(inputs["hand"]).category,)
    if (
        kind in (Kind.COMPARE, Kind.SHOWDOWN)
        and "board" not in inputs
        and ev.ruleset.selection is None
    ):  # (a best hand's search is too slow to repeat)
        values = ev.showdown(list(inputs["hands"]), inputs.get("board"))
        return tuple(sorted(v.category for v in values))
    return ()


def draw_sibling(
    rng: random.Random,
    vector: Vector,
    ev: Evaluator,
    outcome: Outcome,
    accept: Callable[[str, Mapping[str, Any]], bool],
    attempts: int = ATTEMPTS,
) -> Sibling | None:
    """A sibling of ``vector`` (see the module docstring), or None after ``attempts``.

    ``outcome(kind, inputs)`` is the reference's outcome with the deciding clauses and
    flags (what must not change); ``accept(op, inputs)`` says whether a deal is new (no
    symmetry of a published input or of a fresh deal already made)."""
    if vector.kind in PAI_GOW_KINDS:
        return None  # set hands are not redrawn yet: pai gow's kinds get no siblings
    try:
        wanted = outcome(vector.kind, vector.inputs)
    except CardError:
        return None
    op = str(vector.inputs["op"]) if vector.kind == Kind.REJECT else vector.kind
    for _ in range(attempts):
        inputs = _redrawn(rng, vector, ev.wild_rank)
        if inputs is None or inputs == dict(vector.inputs):
            continue
        try:
            same = outcome(vector.kind, inputs) == wanted
        except CardError:
            continue
        if same and accept(op, inputs):
            return Sibling(vector.kind, _shuffled(rng, inputs), vector.id)
    return None
