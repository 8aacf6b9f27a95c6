"""The outcomes of one vector: the vocabulary scoring speaks and results files store.

It sits at the harness's top, below both :mod:`pokercert.harness.run` (which stores and
counts outcomes) and :mod:`pokercert.harness.explore` (whose fuzz and exhaustive passes
score each deal through :mod:`pokercert.harness.scoring`), so neither imports the other
for it.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["FAILING", "Outcome"]


class Outcome(StrEnum):
    """What happened to one vector."""

    PASS = "PASS"
    FAIL = "FAIL"  # answered, and the answer is wrong
    WRONG_REASON = "WRONG_REASON"  # refused invalid input with another or no reason code
    ERROR = "ERROR"  # raised, or answered malformed
    TIMEOUT = "TIMEOUT"
    CRASH = "CRASH"  # the evaluator process died
    NOT_APPLICABLE = "NOT_APPLICABLE"  # outside the adapter's declared capabilities
    XFAIL = "XFAIL"  # failed, as the expectations file says it will
    XPASS = "XPASS"  # passed although listed as a known failure

    @property
    def is_failure(self) -> bool:
        """Outcomes that make a ruleset NOT CERTIFIED."""
        return self in FAILING


FAILING = frozenset(
    {
        Outcome.FAIL,
        Outcome.WRONG_REASON,
        Outcome.ERROR,
        Outcome.TIMEOUT,
        Outcome.CRASH,
        Outcome.XPASS,
    }
)
