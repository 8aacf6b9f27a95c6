"""The in-process adapter and the scoring rules, with small hand-made evaluators."""

from __future__ import annotations

import time

import pytest

from pokercert.harness.adapters import AdapterError, AdapterOptions, load_adapter
from pokercert.harness.adapters.inprocess import InProcessAdapter
from pokercert.harness.api import EvaluatorInfo, Rejected
from pokercert.harness.run.results import Outcome
from pokercert.harness.run.runner import score_vectors
from pokercert.reference import load_profile
from tests.helpers.harness_vectors import VECTORS, assert_no_false_pass

PRACTICE = load_profile("practice")
INFO = EvaluatorInfo("test", "test-eval", "1")
ANSWERS = {  # hand-worked, as in harness_vectors
    "As Ks Qs Js Ts": "royal_flush",
    "9h 9d 9c 4s 4d": "full_house",
    "5d 4c 3h 2s Ah": "straight",
    "Qh Kh Ah 2h 3c": "high_card",
    "7c 7d 7h 7s 2c": "four_of_a_kind",
}


class Honest:
    """Answers the hand-made vectors from a table; refuses what it does not know."""

    info = INFO

    def capabilities(self):
        return {"nj-poker-high-5": ["classify", "compare", "reject"]}

    def configure(self, ruleset, readings):
        self.readings = readings

    def classify(self, hand):
        text = " ".join(hand)
        if len(hand) != 5:
            raise Rejected("wrong-count")
        if "Zz" in hand:
            raise Rejected("bad-card")
        if len(set(hand)) != 5:
            raise Rejected("duplicate-card")
        return ANSWERS[text]

    def winners(self, hands, board=None):
        return [0] if hands[0][0].startswith("2") else [0, 1]


def run(evaluator, vectors=VECTORS, timeout=5.0):
    adapter = InProcessAdapter(evaluator, "py:test", "test", "1", timeout=timeout)
    identity = adapter.start()
    results = [r for batch in score_vectors(adapter, identity, vectors, PRACTICE) for r in batch]
    assert_no_false_pass(results)
    return {r.vector_id: r for r in results}


def test_an_honest_evaluator_passes_and_gets_the_rulesets_readings():
    ev = Honest()
    results = run(ev)
    assert {r.outcome for r in results.values()} == {Outcome.PASS}
    assert set(ev.readings) == {"identical-rank-tiebreak", "suits-equal"}


def test_exceptions_are_errors_with_the_traceback_kept():
    class Raises(Honest):
        def classify(self, hand):
            raise KeyError("boom")

    results = run(Raises())
    r = results["nj-poker-high-5/0001"]
    assert r.outcome is Outcome.ERROR
    assert "KeyError" in r.message and "Traceback" in r.stderr
    assert results["nj-poker-high-5/0005"].outcome is Outcome.PASS


def test_reject_scoring_pass_wrong_reason_and_fail():
    class Lax(Honest):
        def classify(self, hand):
            if "Zz" in hand:
                raise Rejected(None)  # refused, but no code
            if len(hand) != 5:
                raise Rejected("bad-card")  # refused for the wrong reason
            if len(set(hand)) != 5:
                return "one_pair"  # answered invalid input
            return ANSWERS[" ".join(hand)]

    results = run(Lax())
    assert results["nj-poker-high-5/0007"].outcome is Outcome.WRONG_REASON
    assert results["nj-poker-high-5/0009"].outcome is Outcome.WRONG_REASON
    assert results["nj-poker-high-5/0008"].outcome is Outcome.FAIL


def test_refusing_valid_input_fails():
    class Refuses(Honest):
        def classify(self, hand):
            raise Rejected("bad-card")

    results = run(Refuses(), VECTORS[:1])
    assert results["nj-poker-high-5/0001"].outcome is Outcome.FAIL


@pytest.mark.parametrize(
    "answer, outcome",
    [
        ("Royal Flush", Outcome.ERROR),  # not a category name of the ruleset
        (42, Outcome.ERROR),  # not a string
        ("straight_flush", Outcome.FAIL),  # a category, the wrong one
    ],
)
def test_answers_outside_the_vocabulary_are_errors(answer, outcome):
    class Odd(Honest):
        def classify(self, hand):
            return answer

    assert run(Odd(), VECTORS[:1])["nj-poker-high-5/0001"].outcome is outcome


@pytest.mark.parametrize("winners", [[], [2], [0, 0], "0", [-1]])
def test_malformed_winners_are_errors(winners):
    class Odd(Honest):
        def winners(self, hands, board=None):
            return winners

    assert run(Odd(), VECTORS[4:5])["nj-poker-high-5/0005"].outcome is Outcome.ERROR


def test_a_python_hang_is_a_timeout():
    class Slow(Honest):
        def classify(self, hand):
            if hand[0] == "9h":
                time.sleep(30)
            return super().classify(hand)

    started = time.monotonic()
    results = run(Slow(), VECTORS[:3], timeout=0.3)
    assert time.monotonic() - started < 10
    assert results["nj-poker-high-5/0002"].outcome is Outcome.TIMEOUT
    assert results["nj-poker-high-5/0001"].outcome is Outcome.PASS
    assert results["nj-poker-high-5/0003"].outcome is Outcome.PASS


def test_vectors_outside_the_capabilities_are_not_applicable():
    class ClassifyOnly(Honest):
        def capabilities(self):
            return {"nj-poker-high-5": ["classify"]}

    results = run(ClassifyOnly())
    kinds = {r.kind: r.outcome for r in results.values() if r.outcome is Outcome.NOT_APPLICABLE}
    assert set(kinds) == {"compare", "reject"}
    assert results["nj-poker-high-5/0001"].outcome is Outcome.PASS


def test_a_configure_failure_fails_that_rulesets_vectors():
    class Picky(Honest):
        def configure(self, ruleset, readings):
            raise ValueError("no such game here")

    results = run(Picky())
    assert {r.outcome for r in results.values()} == {Outcome.ERROR}
    assert "no such game here" in results["nj-poker-high-5/0001"].message


def test_bad_capabilities_or_identity_refuse_the_adapter():
    class NoInfo:
        def capabilities(self):
            return {}

    class BadKind(Honest):
        def capabilities(self):
            return {"nj-poker-high-5": ["classify", "telepathy"]}

    with pytest.raises(AdapterError, match="info"):
        InProcessAdapter(NoInfo(), "x", "x", "1").start()
    with pytest.raises(AdapterError, match="telepathy"):
        InProcessAdapter(BadKind(), "x", "x", "1").start()


def test_py_specs_take_classes_factories_and_instances():
    here = "tests.harness.test_harness_inprocess"
    for spec in (f"py:{here}:Honest", f"{here}:Honest", f"py:{here}:make", f"py:{here}:INSTANCE"):
        adapter = load_adapter(spec, AdapterOptions())
        assert adapter.start().evaluator["name"] == "test-eval"


def make():
    return Honest()


INSTANCE = Honest()


def test_pot_shares_are_spelt_from_each_object_again_and_again() -> None:
    """A showdown's shares become the protocol's texts; each share object's text is kept
    (the reference answers thousands of pots with a handful of fractions), and the same
    object, an equal new one and an int are each spelt as the corpus spells them."""
    from fractions import Fraction

    from pokercert.harness.adapters.inprocess import pot_item

    half, quarter = Fraction(1, 2), Fraction(3, 4)
    for shares in (
        [half, half, Fraction(0)],
        [quarter, Fraction(1, 4), 0],
        [Fraction(2, 4), Fraction(1, 2), 0],
        [1, 0, Fraction(0)],
    ):
        for _ in range(2):
            texts = pot_item({"high": [0], "low": None, "shares": shares})["shares"]
            assert texts == [str(Fraction(s)) for s in shares]
    assert pot_item({"high": [0], "low": None, "shares": [half, quarter]})["shares"] == [
        "1/2",
        "3/4",
    ]
