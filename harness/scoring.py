"""From a vector to a request, and from the adapter's reply to an :class:`Outcome`.

The request carries the vector's inputs only (never its expectation).  Scoring rules:

* TIMEOUT, CRASH and ERROR replies keep their status;
* reject vectors: a refusal with a reason code the input earns is PASS (``reason``, or one
  of ``also`` for an input with several faults: PROTOCOL.md 3.2), with another code or none
  WRONG_REASON, an answer (as if the input were valid) FAIL;
* an answer or reason code not of the exact built-in types (``type(x) is str``, a ``list``
  of ``int``) is ERROR, whatever its ``__eq__`` says;
* showdown vectors: the winners of each half compared as sets, each hand's share of the
  pot exactly as a fraction (odd chips are out of scope);
* other vectors: a refusal of valid input is FAIL; an answer outside the protocol's
  vocabulary (a category the ruleset does not have, a winner index out of range, cards
  that are not cards) is ERROR: the adapter, not the evaluator, is at fault; otherwise
  the answer is compared with the expectation: PASS or FAIL.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, NamedTuple

from pokercert.harness.adapters.base import ANSWERED, CRASH, REJECTED, TIMEOUT, Reply
from pokercert.harness.outcome import Outcome
from pokercert.harness.protocol import check_item, valid_share
from pokercert.reference import CardError, Ruleset, parse_cards
from pokercert.vectors.model import Kind, Vector, parse_share


class Scored(NamedTuple):
    outcome: Outcome
    actual: dict[str, Any] | None
    message: str


def request_for(vector: Vector) -> dict[str, Any]:
    """The protocol request for a vector: its op and inputs (cards as the corpus spells
    them, tokens separated by single spaces), nothing else."""
    inputs = vector.inputs
    op = inputs["op"] if vector.kind == Kind.REJECT else vector.kind
    if op == Kind.CLASSIFY:
        return {"op": op, "hand": inputs["hand"]}
    if op == Kind.COMPARE:
        req: dict[str, Any] = {"op": op, "hands": list(inputs["hands"])}
        if inputs.get("board") is not None:
            req["board"] = inputs["board"]
        return req
    if op == Kind.BEST_HAND:
        req = {"op": op, "hole": inputs["hole"]}
        for key in ("board", "half"):
            if key in inputs:
                req[key] = inputs[key]
        return req
    if op == Kind.SHOWDOWN:
        req = {"op": op, "hands": list(inputs["hands"])}
        if inputs.get("board") is not None:
            req["board"] = inputs["board"]
        return req
    if op == Kind.QUALIFIES:
        return {"op": op, "hand": inputs["hand"]}
    if op == Kind.COMPARE_TWO_CARD:
        return {"op": op, "hands": list(inputs["hands"])}
    if op == Kind.SETTING:
        return {"op": op, "high": inputs["high"], "low": inputs["low"]}
    if op == Kind.SETTLE:
        return {"op": op, "player": list(inputs["player"]), "banker": list(inputs["banker"])}
    raise ValueError(f"vector {vector.id}: unknown operation {op!r}")


def operation(vector: Vector) -> str:
    """The operation a vector exercises (a reject vector goes through its ``op``)."""
    return vector.inputs["op"] if vector.kind == Kind.REJECT else vector.kind


_PASSTHROUGH = {TIMEOUT: Outcome.TIMEOUT, CRASH: Outcome.CRASH}


def _answer(reply: Reply) -> dict[str, Any]:
    data = reply.data
    if type(data) is dict and "id" not in data:
        return data
    return {k: v for k, v in data.items() if k != "id"}


_CATEGORIES: dict[str, frozenset[str]] = {}


def _names(ruleset: Ruleset) -> frozenset[str]:
    names = _CATEGORIES.get(ruleset.id)
    if names is None:
        names = _CATEGORIES[ruleset.id] = frozenset(ruleset.category_names)
    return names


def passes(vector: Vector, expected: Mapping[str, Any], reply: Reply) -> dict[str, Any] | None:
    """The answer, if the reply is the expected one of a classify, compare or showdown
    vector (the common case, decided in a few steps); else None, and :func:`score` says
    what it is.

    Equal to the expectation, the answer needs no other check: the expected category is
    one of the ruleset's, and winners equal as sorted lists to the expected ones are
    distinct indices in range.
    """
    if reply.status != ANSWERED:
        return None
    data = reply.data
    actual = data if type(data) is dict and "id" not in data else _answer(reply)
    kind = vector.kind
    if kind == Kind.CLASSIFY:
        category = actual.get("category")
        return actual if type(category) is str and category == expected["category"] else None
    if kind == Kind.COMPARE:
        winners = actual.get("winners")
        if type(winners) is not list or any(type(i) is not int for i in winners):
            return None
        return actual if sorted(winners) == sorted(expected["winners"]) else None
    if kind == Kind.SHOWDOWN:
        return actual if _same_pot(vector, actual, expected) else None
    return None


def _same_pot(vector: Vector, actual: Mapping[str, Any], expected: Mapping[str, Any]) -> bool:
    """Whether a showdown answer is the expected pot spelled as the expectation spells
    it: exactly ``high``, ``low`` and ``shares``; the shares the very strings expected,
    each a well-formed share; each half's winners distinct ``int`` indices of the hands,
    the expected ones in any order.  Everything the full scoring (:func:`_inexact`, then
    :func:`_pot`) checks holds then, and it would say PASS; any other answer (shares
    spelled otherwise, such as ``"2/4"``) goes the full way."""
    if len(actual) != 3:
        return False
    high, low, shares = actual.get("high"), actual.get("low"), actual.get("shares")
    if type(high) is not list or type(low) is not list or type(shares) is not list:
        return False
    n = len(vector.inputs["hands"])
    if (
        len(shares) != n
        or shares != expected["shares"]
        or not all(type(s) is str and valid_share(s) for s in shares)
    ):
        return False
    for got, want in ((high, expected["high"]), (low, expected["low"])):
        if (
            any(type(i) is not int or not 0 <= i < n for i in got)
            or len(set(got)) != len(got)
            or sorted(got) != sorted(want)
        ):
            return False
    return True


def score(vector: Vector, expected: Mapping[str, Any], reply: Reply, ruleset: Ruleset) -> Scored:
    """Score one reply against the vector's expected outcome."""
    actual = passes(vector, expected, reply)
    if actual is not None:
        return Scored(Outcome.PASS, actual, "")
    return _score(vector, expected, reply, ruleset)


def _score(vector: Vector, expected: Mapping[str, Any], reply: Reply, ruleset: Ruleset) -> Scored:
    if reply.status in _PASSTHROUGH:
        return Scored(_PASSTHROUGH[reply.status], None, reply.message)
    if reply.status not in (ANSWERED, REJECTED):
        return Scored(Outcome.ERROR, None, reply.message)
    actual = _answer(reply)
    problem = _inexact(operation(vector), reply.status, actual)
    if problem:
        return Scored(Outcome.ERROR, None, problem)
    if vector.kind == Kind.REJECT:
        wanted = reasons(expected)
        if reply.status == REJECTED:
            code = actual.get("rejected")
            if code in wanted:
                return Scored(Outcome.PASS, actual, "")
            return Scored(Outcome.WRONG_REASON, actual, wrong_reason(code, wanted))
        return Scored(
            Outcome.FAIL,
            actual,
            f"answered invalid input instead of refusing it ({' or '.join(wanted)})",
        )
    if reply.status == REJECTED:
        code = actual.get("rejected")
        return Scored(Outcome.FAIL, actual, f"refused valid input (reason {code!r})")
    if vector.kind == Kind.CLASSIFY:
        return _category(actual, expected, ruleset) or _verdict(
            actual["category"] == expected["category"],
            actual,
            f"category {actual['category']!r}, expected {expected['category']!r}",
        )
    if vector.kind == Kind.COMPARE:
        return _winners(vector, actual, expected)
    if vector.kind == Kind.BEST_HAND:
        return _category(actual, expected, ruleset) or _best_hand(vector, actual, expected, ruleset)
    if vector.kind == Kind.SHOWDOWN:
        return _pot(vector, actual, expected)
    if vector.kind == Kind.QUALIFIES:
        got, want = actual["qualifies"], expected["qualifies"]
        return _verdict(got is want, actual, f"qualifies {got}, expected {want}")
    if vector.kind == Kind.COMPARE_TWO_CARD:
        return _winners(vector, actual, expected)
    if vector.kind == Kind.SETTING:
        got, want = actual["legal"], expected["legal"]
        return _verdict(got is want, actual, f"legal {got}, expected {want} (false: foul)")
    if vector.kind == Kind.SETTLE:
        got, want = actual["settlement"], expected["settlement"]
        return _verdict(got == want, actual, f"settlement {got!r}, expected {want!r}")
    return Scored(Outcome.ERROR, actual, f"unknown vector kind {vector.kind!r}")


def reasons(expected: Mapping[str, Any]) -> tuple[str, ...]:
    """Every reason code that passes a reject vector: each fault its input has
    (PROTOCOL.md 3.2: ``reason``, and ``also`` when the input has several)."""
    return (expected["reason"], *expected.get("also", ()))


def wrong_reason(code: Any, wanted: tuple[str, ...]) -> str:
    """Why a refusal's reason code does not pass: which faults the input has."""
    got = f"reason {code!r}" if code else "no reason code"
    if len(wanted) == 1:
        return f"refused with {got}; expected reason {wanted[0]!r}"
    named = ", ".join(repr(w) for w in wanted)
    return (
        f"refused with {got}; this input has several faults ({named}) and any of them "
        "passes (PROTOCOL.md 3.2)"
    )


def _inexact(op: str, status: str, actual: Mapping[str, Any]) -> str | None:
    """What is not of the exact built-in types in an answer or refusal (None: all is),
    however it reached the scorer: only a real ``str`` or ``list`` of ``int`` is compared,
    never an object whose ``__eq__`` could say yes to anything."""
    if status == REJECTED:
        code = actual.get("rejected")
        return (
            None
            if code is None or type(code) is str
            else f"refusal reason code {code!r:.100} is not a string (exactly a str)"
        )
    problem = check_item(op, actual)
    return f"answer of the wrong type: {problem}" if problem else None


def _verdict(ok: bool, actual: dict[str, Any], why_not: str) -> Scored:
    return Scored(Outcome.PASS, actual, "") if ok else Scored(Outcome.FAIL, actual, why_not)


def _category(
    actual: dict[str, Any], expected: Mapping[str, Any], ruleset: Ruleset
) -> Scored | None:
    name = actual["category"]
    if name not in _names(ruleset):
        return Scored(
            Outcome.ERROR,
            actual,
            f"category {name!r} is not a category of {ruleset.id} (its categories: "
            f"{', '.join(ruleset.category_names)})",
        )
    return None


def _winners(vector: Vector, actual: dict[str, Any], expected: Mapping[str, Any]) -> Scored:
    got = actual["winners"]
    n = len(vector.inputs["hands"])
    if not got or len(set(got)) != len(got) or any(not 0 <= i < n for i in got):
        return Scored(
            Outcome.ERROR, actual, f"winners {got!r} are not distinct indices of the {n} hands"
        )
    want = sorted(expected["winners"])
    return _verdict(sorted(got) == want, actual, f"winners {sorted(got)}, expected {want}")


def _pot(vector: Vector, actual: dict[str, Any], expected: Mapping[str, Any]) -> Scored:
    """A showdown answer against the expected pot: the winners of each half as sets, and
    every hand's share compared exactly as a fraction (``"2/4"`` is ``"1/2"``)."""
    n = len(vector.inputs["hands"])
    for half in ("high", "low"):
        got = actual[half]
        if len(set(got)) != len(got) or any(not 0 <= i < n for i in got):
            return Scored(
                Outcome.ERROR,
                actual,
                f"{half} winners {got!r} are not distinct indices of the {n} hands",
            )
    if len(actual["shares"]) != n:
        return Scored(Outcome.ERROR, actual, f"{len(actual['shares'])} shares for {n} hands")
    wrong = []
    for half in ("high", "low"):
        got, want = sorted(actual[half]), sorted(expected[half])
        if got != want:
            wrong.append(f"{half} winners {got or 'none'}, expected {want or 'none'}")
    shares = [parse_share(s) for s in actual["shares"]]
    want_shares = [parse_share(s) for s in expected["shares"]]
    bad = [
        f"hand {i}: {actual['shares'][i]}, expected {expected['shares'][i]}"
        for i, (got, want) in enumerate(zip(shares, want_shares, strict=True))
        if got != want
    ]
    if bad:
        wrong.append("shares " + "; ".join(bad))
    return _verdict(not wrong, actual, "; ".join(wrong))


def _best_hand(
    vector: Vector, actual: dict[str, Any], expected: Mapping[str, Any], ruleset: Ruleset
) -> Scored:
    try:
        got = parse_cards(actual["cards"].split(), jokers=ruleset.jokers, count=ruleset.hand_size)
    except CardError as exc:
        return Scored(
            Outcome.ERROR, actual, f"best hand cards are not a {ruleset.hand_size}-card hand: {exc}"
        )
    # the corpus spells cards canonically, so canonical tokens compare as multisets
    tokens = Counter(str(c) for c in got)
    dealt = Counter(vector.inputs["hole"].split()) + Counter(vector.inputs.get("board", "").split())
    if tokens - dealt:
        return Scored(Outcome.FAIL, actual, "the best hand uses cards that were not dealt")
    if actual["category"] != expected["category"]:
        return Scored(
            Outcome.FAIL,
            actual,
            f"category {actual['category']!r}, expected {expected['category']!r}",
        )
    acceptable = expected.get("cards")
    if acceptable and not any(Counter(c.split()) == tokens for c in acceptable):
        return Scored(
            Outcome.FAIL,
            actual,
            "right category, but not one of the best card sets the rules allow",
        )
    return Scored(Outcome.PASS, actual, "")
