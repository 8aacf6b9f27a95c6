"""A showdown answered exactly as expected is scored PASS in a few steps
(``scoring.passes``), and every other answer still goes the full way: for each answer
below, the outcome through ``score`` (the quick path first) and through ``_score`` (the
full checks alone) agree, and is the one the protocol and PROTOCOL.md's scoring rules
give (written here by hand)."""

from __future__ import annotations

from typing import Any

import pytest

from pokercert.harness.adapters.base import ANSWERED, Reply
from pokercert.harness.run.results import Outcome
from pokercert.harness.run.runner import _score_chunk
from pokercert.harness.scoring import _score, passes, score
from pokercert.reference import get_ruleset, load_profile
from pokercert.vectors.corpus import load_corpus
from tests.helpers.faux.hostile_inprocess import Liar, LyingInt

PRACTICE = load_profile("practice")


def _split_pot_vector() -> Any:
    """A curated hi-lo showdown whose pot is split (shares such as "1/2")."""
    for v in load_corpus().vectors:
        if (
            v.kind == "showdown"
            and v.expected(PRACTICE)["low"]
            and "1/2" in v.expected(PRACTICE)["shares"]
        ):
            return v
    raise AssertionError("no split-pot showdown in the corpus")


def _answers(expected: dict[str, Any], n: int) -> list[tuple[str, dict[str, Any], Outcome]]:
    high, low, shares = list(expected["high"]), list(expected["low"]), list(expected["shares"])
    halves = [s.replace("1/2", "2/4") for s in shares]
    assert halves != shares
    other = [i for i in range(n) if i not in high][:1]
    return [
        ("as expected", {"high": high, "low": low, "shares": shares}, Outcome.PASS),
        (
            "winners in another order",
            {"high": high[::-1], "low": low[::-1], "shares": shares},
            Outcome.PASS,
        ),
        (
            "shares spelled otherwise (2/4)",
            {"high": high, "low": low, "shares": halves},
            Outcome.PASS,
        ),
        (
            "a winner index that is a bool",
            {"high": [True if i == 1 else i for i in high], "low": low, "shares": shares},
            Outcome.ERROR if 1 in high else Outcome.PASS,
        ),
        (
            "a lying int",
            {"high": [LyingInt(i) for i in high], "low": low, "shares": shares},
            Outcome.ERROR,
        ),
        (
            "a lying share string",
            {"high": high, "low": low, "shares": [Liar(s) for s in shares]},
            Outcome.ERROR,
        ),
        ("a winner twice", {"high": high + high[:1], "low": low, "shares": shares}, Outcome.ERROR),
        (
            "an index out of range",
            {"high": [*high, n], "low": low, "shares": shares},
            Outcome.ERROR,
        ),
        ("an extra key", {"high": high, "low": low, "shares": shares, "note": "x"}, Outcome.ERROR),
        ("a tuple of winners", {"high": tuple(high), "low": low, "shares": shares}, Outcome.ERROR),
        (
            "a malformed share",
            {"high": high, "low": low, "shares": ["01/2" if s == "1/2" else s for s in shares]},
            Outcome.ERROR,
        ),
        ("a share missing", {"high": high, "low": low, "shares": shares[:-1]}, Outcome.ERROR),
        (
            "another winner",
            {"high": other or high, "low": low, "shares": shares},
            Outcome.FAIL if other else Outcome.PASS,
        ),
        ("no low half", {"high": high, "low": [], "shares": shares}, Outcome.FAIL),
    ]


def test_quick_and_full_scoring_agree_on_every_kind_of_showdown_answer() -> None:
    vector = _split_pot_vector()
    expected = vector.expected(PRACTICE)
    ruleset = get_ruleset(vector.ruleset)
    for name, answer, outcome in _answers(expected, len(vector.inputs["hands"])):
        reply = Reply(ANSWERED, answer)
        quick, full = (
            score(vector, expected, reply, ruleset),
            _score(vector, expected, reply, ruleset),
        )
        assert quick.outcome is outcome, name
        assert full.outcome is outcome, name
        assert (quick.actual, quick.message) == (full.actual, full.message), name
        (result,) = _score_chunk([vector], [reply], PRACTICE, ruleset, {})
        assert result.outcome is outcome, name


@pytest.mark.parametrize("answer", ["as expected", "winners in another order"])
def test_the_quick_path_takes_an_exact_answer(answer: str) -> None:
    vector = _split_pot_vector()
    expected = vector.expected(PRACTICE)
    found = dict((n, a) for n, a, _ in _answers(expected, len(vector.inputs["hands"])))
    assert passes(vector, expected, Reply(ANSWERED, found[answer])) is not None
    respelled = found["shares spelled otherwise (2/4)"]
    assert passes(vector, expected, Reply(ANSWERED, respelled)) is None
