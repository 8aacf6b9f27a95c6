"""A hostile vendor (issue 26): the public corpus memorised up to symmetry, a bug elsewhere.

``SymmetricMemoriser`` keys every vector of the installed corpus by its canonical form
(:mod:`pokercert.harness.canonical_form`: each hand's cards sorted, the hands reordered,
the minimum over the 24 suit relabellings), so it answers every curated vector *and every
challenge twin* (a twin is a symmetry of its curated vector) exactly as the corpus says,
mapping the stored answer back onto the request (winner indices through the hand order,
best-hand cards through the suit relabelling).  Everything else it answers with one
self-check mutant (a reference with one realistic mistake put in): only the challenge's
fresh deals stand between it and a certificate.

    --adapter py:tests.helpers.faux.symmetric_memoriser:over.<mutant id, _ for ->
    --adapter py:tests.helpers.faux.symmetric_memoriser:SymmetricMemoriser   # no fallback
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from pokercert.harness.api import EvaluatorInfo
from pokercert.harness.canonical_form import Canonical, canonical, operation_of
from pokercert.harness.mutants import MutantEvaluator, get_mutant
from pokercert.harness.peers.reference import ReferenceEvaluator
from pokercert.vectors.corpus import load_corpus
from pokercert.vectors.model import Kind, Vector
from tests.helpers.faux.corpus_lookup import stored_answer


@cache
def table() -> dict[Any, tuple[Vector, Canonical]]:
    """Every vector of the installed corpus by the canonical form of its request."""
    out = {}
    for v in load_corpus().vectors:
        form = canonical(v.ruleset, operation_of(v.kind, v.inputs), v.inputs)
        out[form.key] = (v, form)
    return out


class NotMemorised(LookupError):
    """A request the corpus holds no symmetry of (and no fallback was named)."""


class SymmetricMemoriser:
    """The corpus's answer for any symmetry of a published request; ``fallback`` (a
    mutant's evaluator) for everything else."""

    info = EvaluatorInfo(vendor="faux", name="symmetric-memoriser", version="1", build="")
    protocol_features = ReferenceEvaluator.protocol_features

    def __init__(self, fallback: MutantEvaluator | None = None) -> None:
        self.fallback = fallback
        self.ruleset = ""
        self.readings: dict[str, str] = {}
        self.table = table()
        if fallback is not None:
            self.info = EvaluatorInfo(
                vendor="faux", name="symmetric-memoriser", version="1", build=fallback.mutant.id
            )
            self.protocol_features = dict(fallback.protocol_features)

    def capabilities(self) -> dict[str, list[str]]:
        if self.fallback is not None:
            return self.fallback.capabilities()
        return ReferenceEvaluator().capabilities()

    def configure(self, ruleset: str, readings: dict[str, str]) -> None:
        self.ruleset, self.readings = ruleset, dict(readings)
        if self.fallback is not None:
            self.fallback.configure(ruleset, readings)

    # ------------------------------------------------------------------ the lookup
    def _stored(
        self, op: str, inputs: Mapping[str, Any]
    ) -> tuple[Mapping[str, Any], Canonical, Canonical] | None:
        """The stored expectation of a symmetry of this request, the stored vector's
        form and the request's (None: not memorised)."""
        asked = {k: v for k, v in inputs.items() if v is not None}
        form = canonical(self.ruleset, op, asked)
        found = self.table.get(form.key)
        if found is None:
            return None
        v, stored = found
        return stored_answer(v, self.readings), stored, form

    def _answer(self, op: str, inputs: Mapping[str, Any], otherwise: Callable[[], Any]) -> Any:
        found = self._stored(op, inputs)
        if found is None:
            if self.fallback is None:
                raise NotMemorised(f"not memorised: {op} {dict(inputs)}")
            return otherwise()
        expect, stored, form = found
        single = {
            Kind.CLASSIFY: "category",
            Kind.QUALIFIES: "qualifies",
            Kind.SETTING: "legal",
            Kind.SETTLE: "settlement",
        }
        if op in single:
            return expect[single[op]]
        # the stored vector's hand at canonical place p is the request's hand there
        to_request = dict(zip(stored.order, form.order, strict=True))
        if op in (Kind.COMPARE, Kind.COMPARE_TWO_CARD):
            return sorted(to_request[w] for w in expect["winners"])
        if op == Kind.SHOWDOWN:
            shares = [""] * len(form.order)
            for old, new in to_request.items():
                shares[new] = expect["shares"][old]
            pot = {
                "high": sorted(to_request[w] for w in expect["high"]),
                "shares": shares,
                "low": [],
            }
            if expect.get("low") is not None:
                pot["low"] = sorted(to_request[w] for w in expect["low"])
            return pot
        back = {canonical_suit: suit for suit, canonical_suit in form.suits.items()}
        cards = [
            c[0] + back[stored.suits[c[1]]] if len(c) == 2 and c[1] in back else c
            for c in str(expect["cards"][0]).split()
        ]
        return cards, expect["category"]

    # ------------------------------------------------------------------ the API
    def classify(self, hand: list[str]) -> Any:
        return self._answer(Kind.CLASSIFY, {"hand": hand}, lambda: self._fallback().classify(hand))

    def qualifies(self, hand: list[str]) -> Any:
        return self._answer(
            Kind.QUALIFIES, {"hand": hand}, lambda: self._fallback().qualifies(hand)
        )

    def winners(self, hands: list[list[str]], board: list[str] | None = None) -> Any:
        return self._answer(
            Kind.COMPARE,
            {"hands": hands, "board": board},
            lambda: self._fallback().winners(hands, board),
        )

    def showdown(self, hands: list[list[str]], board: list[str] | None = None) -> Any:
        return self._answer(
            Kind.SHOWDOWN,
            {"hands": hands, "board": board},
            lambda: self._fallback().showdown(hands, board),
        )

    def best_hand(
        self, hole: list[str], board: list[str] | None = None, half: str | None = None
    ) -> Any:
        return self._answer(
            Kind.BEST_HAND,
            {"hole": hole, "board": board, "half": half},
            lambda: self._fallback().best_hand(hole, board, half),
        )

    def compare_two_card(self, hands: list[list[str]]) -> Any:
        return self._answer(
            Kind.COMPARE_TWO_CARD,
            {"hands": hands},
            lambda: self._fallback().compare_two_card(hands),
        )

    def setting(self, high: list[str], low: list[str]) -> Any:
        return self._answer(
            Kind.SETTING,
            {"high": high, "low": low},
            lambda: self._fallback().setting(high, low),
        )

    def settle(self, player: list[list[str]], banker: list[list[str]]) -> Any:
        return self._answer(
            Kind.SETTLE,
            {"player": player, "banker": banker},
            lambda: self._fallback().settle(player, banker),
        )

    def _fallback(self) -> MutantEvaluator:
        assert self.fallback is not None
        return self.fallback


class _Factories:
    """``over.<mutant id>``: the memoriser answering with that mutant off the corpus."""

    def __getattr__(self, name: str) -> Callable[[], SymmetricMemoriser]:
        try:
            found = get_mutant(name.replace("_", "-"))
        except KeyError:
            raise AttributeError(name) from None
        return lambda: SymmetricMemoriser(MutantEvaluator(found))


over = _Factories()


def spec_over(mutant_id: str) -> str:
    """The adapter spec of the memoriser over one mutant."""
    return f"py:tests.helpers.faux.symmetric_memoriser:over.{mutant_id.replace('-', '_')}"
