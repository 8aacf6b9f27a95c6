"""The shared report fixtures (``tests/helpers/reports_fixtures.py``) are what they claim:
every outcome kind, real clauses, and expectations the reference engine agrees with."""

from __future__ import annotations

from pokercert.harness.run.results import Outcome
from tests.helpers.reports_fixtures import FAILING, PASSING


def test_fixtures_cover_every_outcome_kind():
    assert {x.outcome for x in FAILING} == set(Outcome)


def test_fixture_clauses_exist_in_their_rulesets():
    from pokercert.reference import get_ruleset

    for x in PASSING + FAILING:
        rs = get_ruleset(x.ruleset)
        assert all(rs.has_clause(c) for c in x.clauses), x.vector_id


def test_fixture_expectations_agree_with_the_reference():
    """The hand-worked expectations are also what the reference engine answers."""
    from pokercert.reference import evaluator

    for x in PASSING + FAILING:
        ev = evaluator(x.ruleset)
        if x.kind == "classify":
            assert ev.category(x.inputs["hand"]) == x.expected["category"], x.vector_id
        elif x.kind == "compare":
            assert ev.winners(x.inputs["hands"]) == x.expected["winners"], x.vector_id
