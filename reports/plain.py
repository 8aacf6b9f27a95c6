"""Plain words for readers who are not programmers: what a finding means in one line,
what a citation's confidence word says, and the order that puts each challenge twin
under the curated vector it copies.  The HTML report and the conformance site both say
these things through this module, so they say them the same way.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from pokercert.harness.run.results import Outcome
from pokercert.reference.categories import CategoryName
from pokercert.reports import text as T

# a citation's (or a qualifier's) confidence word, as the regulation files record it
CONFIDENCE_WORDS = {
    "confirmed": "the section number is printed in the source text",
    "likely": "the section number is not printed in the source; the one given is the most "
    "likely (pokercert rules ID says why)",
    "unconfirmed": "the section number is not printed in the source and could not be "
    "narrowed down (pokercert rules ID says why)",
    "house-rule": "no regulation text says it: a widely adopted card-room rule or a public "
    "game description does",
}
CONFIDENCE_LEGEND = (
    "Confidence in a citation: "
    + "; ".join(f"{word}: {meaning}" for word, meaning in CONFIDENCE_WORDS.items())
    + "."
)

_NO_ANSWER = {
    Outcome.TIMEOUT: "the evaluator gave no answer in time",
    Outcome.CRASH: "the evaluator's process died on this input",
    Outcome.ERROR: "the evaluator raised an error or answered something malformed",
}
TWIN_PREFIX = "twin:"


# categories said without the article a/an would give them
_CATEGORY_PHRASES = {
    CategoryName.ONE_PAIR: "a pair",
    CategoryName.TWO_PAIR: "two pair",
    CategoryName.THREE_OF_A_KIND: "three of a kind",
    CategoryName.FOUR_OF_A_KIND: "four of a kind",
    CategoryName.FIVE_OF_A_KIND: "five of a kind",
}


def category_words(name: object) -> str:
    """A category in words as a sentence uses it: ``straight_flush`` as ``a straight
    flush``, ``one_pair`` as ``a pair``, ``two_pair`` as ``two pair``; ``an`` before a
    vowel."""
    text = T.printable(str(name))
    if text in _CATEGORY_PHRASES:
        return _CATEGORY_PHRASES[CategoryName(text)]
    words = text.replace("_", " ")
    return ("an " if words[:1].lower() in "aeiou" and words else "a ") + words


def _hands_words(winners: object) -> str:
    if winners is None or winners == []:
        return "no hand"
    if not isinstance(winners, list):
        return f"{_exact({'winners': winners})} (not a list of hands)"
    numbers = [str(w + 1) if isinstance(w, int) else T.printable(str(w)) for w in winners]
    if len(numbers) == 1:
        return f"hand {numbers[0]} alone"
    return "a split between hands " + ", ".join(numbers[:-1]) + " and " + numbers[-1]


def _reason_words(reason: object) -> str:
    return T.printable(str(reason)).replace("-", " ")


def _refusal(expected: dict[str, Any], actual: dict[str, Any]) -> str:
    want = _reason_words(expected["reason"])
    if "reason" in actual:
        return (
            f"invalid input ({want}) was refused, but for the wrong reason "
            f"({_reason_words(actual['reason'])})"
        )
    if "rejected" in actual:
        return f"invalid input ({want}) was refused without saying why it is invalid"
    return f"invalid input ({want}) was accepted and answered ({T.describe(actual)})"


def plain_reading(finding: dict[str, Any]) -> str:
    """What a finding means, in one line of plain words: ``a royal flush was called a
    straight flush``, ``invalid input (duplicate card) was accepted and answered ...``,
    ``the pot should go to hand 1 alone; the evaluator gave a split between hands 1 and
    2``.  Every word that comes from the answers is shown printable (no line breaks), and
    the two sides never read alike: a failure must not read as a pass."""
    outcome = finding["outcome"]
    expected = finding.get("expected") or {}
    actual = finding.get("actual")
    if outcome in _NO_ANSWER or not isinstance(actual, dict):
        return _NO_ANSWER.get(outcome, "the evaluator gave no answer")
    if outcome == Outcome.XPASS:
        return "listed as a known failure, yet it passed"
    prefix = "a known failure: " if outcome == Outcome.XFAIL else ""
    if not isinstance(expected, dict):
        expected = {"expected": expected}
    if _exact(expected) == _exact(actual):
        message = T.printable(str(finding.get("message") or "")).strip()
        return T.one_line(
            f"{prefix}the answer ({_exact(actual)}) is the expected one, yet "
            "it was scored a failure" + (f": {message}" if message else "")
        )
    return T.one_line(prefix + _difference(expected, actual))


def _exact(data: dict[str, Any]) -> str:
    """An answer as its JSON (quotes, ``1`` and ``1.0``, ``true`` and ``1`` told apart)."""
    return T.printable(json.dumps(data, ensure_ascii=False, sort_keys=True, default=str))


def _told_apart(said: str, gave: str, words: str) -> str | None:
    """``words`` when the two sides read differently in it (spaces aside: a reader does
    not see them), else None (their exact JSON is shown instead)."""
    return words if said.split() != gave.split() else None


def _difference(expected: dict[str, Any], actual: dict[str, Any]) -> str:
    if "reason" in expected:
        return _refusal(expected, actual)
    if "reason" in actual or "rejected" in actual:
        return "a valid input was refused as invalid"
    found: str | None = None
    if "category" in expected and expected.get("category") != actual.get("category"):
        want = category_words(expected["category"])
        got = category_words(actual["category"]) if "category" in actual else ""
        found = _told_apart(
            want,
            got,
            f"{want} was called {got}" if got else f"{want} was answered with no category",
        )
    elif "cards" in expected and expected.get("cards") != actual.get("cards"):
        want, got = T.value(expected["cards"]), T.value(actual.get("cards"))
        found = _told_apart(want, got, f"the best five cards are {want}; the evaluator chose {got}")
    elif "winners" in expected and expected.get("winners") != actual.get("winners"):
        want, got = _hands_words(expected["winners"]), _hands_words(actual.get("winners"))
        found = _told_apart(want, got, f"the pot should go to {want}; the evaluator gave {got}")
    elif "qualifies" in expected and expected.get("qualifies") != actual.get("qualifies"):
        found = (
            "a qualifying dealer hand was said not to qualify"
            if expected["qualifies"]
            else "a dealer hand that does not qualify was said to qualify"
        )
    if found:
        return found
    said, gave = T.describe(expected), T.describe(actual)
    if said.split() == gave.split():
        said, gave = _exact(expected), _exact(actual)
    return f"expected {said}; the evaluator answered {gave}"


def vector_name(finding: dict[str, Any]) -> str:
    """A finding's vector id, with its ruleset before it only when the id does not already
    start with it (corpus ids do: ``nj-holdem/0012``)."""
    vid, rid = str(finding["id"]), str(finding["ruleset"])
    return vid if vid.startswith(rid + "/") else f"{rid} {vid}"


def twin_source(finding: dict[str, Any]) -> str:
    """The id of the curated vector a challenge twin copies, or ``""``."""
    origin = str(finding.get("origin") or "")
    return origin[len(TWIN_PREFIX) :] if origin.startswith(TWIN_PREFIX) else ""


def grouped_findings(failures: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The findings in their order, each challenge twin moved right after the curated
    vector it copies when that vector is a finding too (a twin whose source passed keeps
    its place)."""
    present = {f["id"] for f in failures}
    twins: dict[str, list[dict[str, Any]]] = {}
    for f in failures:
        source = twin_source(f)
        if source in present:
            twins.setdefault(source, []).append(f)
    out: list[dict[str, Any]] = []
    for f in failures:
        if twin_source(f) in present:
            continue
        out.append(f)
        out += twins.get(f["id"], [])
    return out


def what_failed(failures: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The findings told in plain words once per distinct reading, most frequent first
    (then in report order): ``reading`` (:func:`plain_reading`), ``count``, the
    ``rulesets`` and ``clauses`` its findings name (in order met) and the ``first``
    finding, a curated vector where one is among them (a reader can look it up with
    ``pokercert vectors show``).  Six findings that all read "a royal flush was called
    a straight flush" are one line, not six."""
    groups: dict[str, dict[str, Any]] = {}
    for f in failures:
        reading = plain_reading(f)
        group = groups.setdefault(
            reading, {"reading": reading, "count": 0, "rulesets": [], "clauses": [], "first": f}
        )
        group["count"] += 1
        if f["ruleset"] not in group["rulesets"]:
            group["rulesets"].append(f["ruleset"])
        for c in f["clauses"]:
            if c["label"] not in group["clauses"]:
                group["clauses"].append(c["label"])
        if group["first"].get("origin") and not f.get("origin"):
            group["first"] = f
    order = list(groups)
    return sorted(groups.values(), key=lambda g: (-g["count"], order.index(g["reading"])))


def what_failed_line(group: dict[str, Any]) -> str:
    """One group of :func:`what_failed` as a line: the reading, how many findings, where
    (rulesets, clauses), one finding to look at first and its *Why* (the rule it shows,
    in the corpus's words: what the reading alone does not say, for a pot given to the
    wrong hand above all)."""
    return "".join(text for text, _ in what_failed_parts(group))


def what_failed_parts(group: dict[str, Any]) -> list[tuple[str, bool]]:
    """:func:`what_failed_line` in pieces, each (printable text, whether it is a clause
    label), so a view can mark the labels up (the HTML keeps each on one line)."""
    count = group["count"]
    parts: list[tuple[str, bool]] = [
        (T.one_line(group["reading"]), False),
        (f": {count} {'finding' if count == 1 else 'findings'} (", False),
        (_first_few(group["rulesets"]), False),
    ]
    clauses = group["clauses"]
    if clauses:
        parts.append((f", clause{'s' if len(clauses) > 1 else ''} ", False))
        for i, label in enumerate(clauses[:3]):
            parts += [(", ", False)] if i else []
            parts.append((T.one_line(label), True))
        if len(clauses) > 3:
            parts.append((f" and {len(clauses) - 3} more", False))
    first = group["first"]
    look = (
        f"pokercert vectors show {T.one_line(first['id'])}"
        if not first.get("origin")
        else f"challenge vector {T.one_line(first['id'])}"
    )
    parts.append((f"); e.g. {look}", False))
    why = T.one_line(first.get("why") or "").strip()
    why = why if len(why) <= WHY_CHARS else why[: WHY_CHARS - 3].rstrip() + "..."
    if why:
        parts.append((f": {why}", False))
    return parts


WHY_CHARS = 160  # the most of an example's Why a summary line quotes


WHAT_FAILED_LINES = 8  # the groups a report's summary shows (the findings hold the rest)


def _first_few(items: Sequence[Any], few: int = 3) -> str:
    shown = ", ".join(T.printable(str(x)) for x in items[:few])
    return shown + (f" and {len(items) - few} more" if len(items) > few else "")


def what_failed_lines(failures: Sequence[dict[str, Any]]) -> list[str]:
    """The summary a report opens its findings with: a line per distinct plain reading
    (:func:`what_failed_line`), at most :data:`WHAT_FAILED_LINES` of them, then how many
    other readings the findings hold."""
    shown, rest = what_failed_shown(failures)
    return [what_failed_line(g) for g in shown] + ([rest] if rest else [])


def what_failed_shown(failures: Sequence[dict[str, Any]]) -> tuple[list[dict[str, Any]], str]:
    """The groups of :func:`what_failed` a summary shows (at most
    :data:`WHAT_FAILED_LINES`) and the line counting the others (``""``: none left)."""
    groups = what_failed(failures)
    rest = groups[WHAT_FAILED_LINES:]
    n = sum(g["count"] for g in rest)
    return groups[:WHAT_FAILED_LINES], (
        f"and {len(rest)} other reading{'s' if len(rest) > 1 else ''} "
        f"({n} finding{'s' if n > 1 else ''}): see Findings"
        if rest
        else ""
    )
