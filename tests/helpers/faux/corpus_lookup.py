"""Faux evaluators that game the public corpus (issue 13): the attack the challenge closes.

``CorpusLookup`` ranks no hand at all: it looks every request up in the installed corpus
and answers the expectation stored there (under the configured readings); an input the
corpus does not hold is an error.  Against the curated corpus alone it passes every
vector.  ``LookupWithFallback`` answers from the same table and asks a correct evaluator
(the reference) for everything else: a correct evaluator, however it is built, which the
challenge must not punish.

    --adapter py:tests.helpers.faux.corpus_lookup:CorpusLookup
    --adapter py:tests.helpers.faux.corpus_lookup:LookupWithFallback
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from pokercert.harness.api import EvaluatorInfo, Rejected
from pokercert.harness.peers.reference import ReferenceEvaluator
from pokercert.vectors.corpus import load_corpus
from pokercert.vectors.model import Kind, Vector

Key = tuple[Any, ...]


def _cards(text: str | list[str] | None) -> str | None:
    """Cards as one string of tokens, however they were given."""
    if text is None:
        return None
    return " ".join(text.split() if isinstance(text, str) else text)


def key_of(ruleset: str, op: str, inputs: Mapping[str, Any]) -> Key:
    """What a request is looked up by: ruleset, operation and its cards exactly."""
    if op in (Kind.CLASSIFY, Kind.QUALIFIES):
        return (ruleset, op, _cards(inputs["hand"]))
    if op in (Kind.COMPARE, Kind.SHOWDOWN):
        return (ruleset, op, tuple(_cards(h) for h in inputs["hands"]), _cards(inputs.get("board")))
    if op == Kind.BEST_HAND:
        return (ruleset, op, _cards(inputs["hole"]), _cards(inputs["board"]))
    # pai gow's kinds (compare_two_card, setting, settle): every field's cards, by name
    return (ruleset, op, *((k, _field(inputs[k])) for k in sorted(inputs) if k != "op"))


def _field(value: Any) -> Any:
    """One input field's cards exactly (a hand, or hands nested in lists)."""
    if isinstance(value, list):
        return tuple(_field(v) for v in value)
    return _cards(value) if isinstance(value, str) else value


def stored_answer(v: Vector, readings: Mapping[str, str]) -> Mapping[str, Any]:
    """What the corpus stores as ``v``'s answer under the configured ``readings``; a
    ``reject`` vector's answer is the refusal, raised with its reason."""
    if v.expect_by_reading is not None:
        (iid,) = v.interpretations
        expect = v.expect_by_reading[readings[iid]]
    else:
        assert v.expect is not None
        expect = v.expect
    if v.kind == Kind.REJECT:
        raise Rejected(str(expect["reason"]))
    return expect


@cache
def table() -> dict[Key, Vector]:
    """Every vector of the installed corpus by the request it sends."""
    out = {}
    for v in load_corpus().vectors:
        op = v.inputs["op"] if v.kind == Kind.REJECT else v.kind
        out[key_of(v.ruleset, op, v.inputs)] = v
    return out


class CorpusLookup:
    """Answers what the corpus stores for exactly this request; anything else raises."""

    info = EvaluatorInfo(vendor="faux", name="corpus-lookup", version="1", build="")
    # names every protocol feature the reference does, so it is sent every vector the
    # reference is (the unused-field ones of PROTOCOL.md 3.3 too) and answers them all
    protocol_features = ReferenceEvaluator.protocol_features

    def __init__(self) -> None:
        self.ruleset = ""
        self.readings: dict[str, str] = {}
        self.table = table()

    def capabilities(self) -> dict[str, list[str]]:
        return ReferenceEvaluator().capabilities()

    def configure(self, ruleset: str, readings: dict[str, str]) -> None:
        self.ruleset, self.readings = ruleset, dict(readings)

    def unknown(self, op: str, inputs: dict[str, Any]) -> Any:
        raise LookupError(f"not in the corpus: {op} {inputs}")

    def _lookup(self, op: str, inputs: dict[str, Any]) -> Mapping[str, Any] | None:
        v = self.table.get(key_of(self.ruleset, op, inputs))
        return None if v is None else stored_answer(v, self.readings)

    def classify(self, hand: list[str]) -> Any:
        inputs = {"hand": hand}
        expect = self._lookup(Kind.CLASSIFY, inputs)
        return expect["category"] if expect is not None else self.unknown(Kind.CLASSIFY, inputs)

    def winners(self, hands: list[list[str]], board: list[str] | None = None) -> Any:
        inputs = {"hands": hands, "board": board}
        expect = self._lookup(Kind.COMPARE, inputs)
        return list(expect["winners"]) if expect is not None else self.unknown(Kind.COMPARE, inputs)

    def best_hand(self, hole: list[str], board: list[str]) -> Any:
        inputs = {"hole": hole, "board": board}
        expect = self._lookup(Kind.BEST_HAND, inputs)
        if expect is None:
            return self.unknown(Kind.BEST_HAND, inputs)
        return expect["cards"][0].split(), expect["category"]

    def showdown(self, hands: list[list[str]], board: list[str] | None = None) -> Any:
        inputs = {"hands": hands, "board": board}
        expect = self._lookup(Kind.SHOWDOWN, inputs)
        return dict(expect) if expect is not None else self.unknown(Kind.SHOWDOWN, inputs)

    def qualifies(self, hand: list[str]) -> Any:
        inputs = {"hand": hand}
        expect = self._lookup(Kind.QUALIFIES, inputs)
        return expect["qualifies"] if expect is not None else self.unknown(Kind.QUALIFIES, inputs)


class LookupWithFallback(CorpusLookup):
    """The corpus's answer where it has one, the reference's everywhere else."""

    info = EvaluatorInfo(vendor="faux", name="corpus-lookup-fallback", version="1", build="")

    def __init__(self) -> None:
        super().__init__()
        self.fallback = ReferenceEvaluator()

    def configure(self, ruleset: str, readings: dict[str, str]) -> None:
        super().configure(ruleset, readings)
        self.fallback.configure(ruleset, readings)

    def unknown(self, op: str, inputs: dict[str, Any]) -> Any:
        if op == Kind.CLASSIFY:
            return self.fallback.classify(inputs["hand"])
        if op == Kind.COMPARE:
            return self.fallback.winners(inputs["hands"], inputs["board"])
        if op == Kind.SHOWDOWN:
            return self.fallback.showdown(inputs["hands"], inputs["board"])
        if op == Kind.QUALIFIES:
            return self.fallback.qualifies(inputs["hand"])
        return self.fallback.best_hand(inputs["hole"], inputs["board"])


class LookupOverKickerOrder(LookupWithFallback):
    """Teaching to the test: the corpus's answer where it has one (every failing vector
    "fixed"), a buggy evaluator everywhere else (kickers compared in the order the cards
    come: ``tests/helpers/faux/kicker_order.py``).  Five- and three-card high only.  The
    curated corpus certifies it; fresh inputs (fuzz, the challenge) do not.

        --adapter py:tests.helpers.faux.corpus_lookup:LookupOverKickerOrder
    """

    info = EvaluatorInfo(vendor="faux", name="corpus-lookup-kicker-order", version="1", build="")

    def __init__(self) -> None:
        from tests.helpers.faux.kicker_order import KickerOrder

        super().__init__()
        self.fallback = KickerOrder()  # (its rulesets, classify and compare)

    def capabilities(self) -> dict[str, list[str]]:
        return self.fallback.capabilities()
