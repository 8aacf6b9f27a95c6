"""Verdict rules: from outcome counts to CERTIFIED / NOT CERTIFIED / INCOMPLETE.

The rules, in the order they are applied to one ruleset:

1. NOT CERTIFIED if any applicable vector ended FAIL, WRONG_REASON, ERROR, TIMEOUT,
   CRASH or XPASS (:data:`pokercert.harness.run.results.FAILING`), or XFAIL: a failure the
   expectations file predicts keeps a CI gate green, but no certificate is issued over
   a known breach of the rules.  A found failure is final, even in an incomplete run.
2. INCOMPLETE if vectors selected for the run have no result (a killed run, a missing
   shard, a results set that is one shard only) or no vector of the ruleset was run.
3. NOT APPLICABLE if every vector of the ruleset is outside what the adapter claims:
   the ruleset is not certified and does not count towards the overall verdict.
4. CERTIFIED otherwise: every applicable vector passed.
5. Then the attached modes (:func:`with_attached`): a fuzz or exhaustive run attached to
   the run that found a disagreement on the ruleset makes it NOT CERTIFIED; one that did
   not finish makes it INCOMPLETE.
6. Then the corpus (:func:`with_corpus`): a run whose corpus is not the published
   release of its version (its digest differs from the one the release registry records,
   or the version is no release) is NOT CERTIFIED on every ruleset it applies to, the
   first reason saying so ("modified corpus (digest X; 1.11.0 is Y)").  Passing a
   corpus somebody edited proves nothing about the published one.

Overall: NOT CERTIFIED if any ruleset is; else INCOMPLETE if any ruleset is, or if no
ruleset was applicable at all; else CERTIFIED.  (The number a report records for its
verdict is :data:`pokercert.reports.model.REPORT_EXIT_CODES`.)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from pokercert.harness.run.results import FAILING, Outcome

CERTIFIED = "CERTIFIED"
NOT_CERTIFIED = "NOT CERTIFIED"
INCOMPLETE = "INCOMPLETE"
NOT_APPLICABLE = "NOT APPLICABLE"
OVERALL_VERDICTS = (CERTIFIED, NOT_CERTIFIED, INCOMPLETE)

# outcomes that deny a certificate (FAILING plus known failures)
DENYING = frozenset(FAILING | {Outcome.XFAIL})

# the order findings are listed in: rule breaches first, lesser findings last
SEVERITY: tuple[Outcome, ...] = (
    Outcome.FAIL,
    Outcome.XPASS,
    Outcome.CRASH,
    Outcome.TIMEOUT,
    Outcome.ERROR,
    Outcome.WRONG_REASON,
    Outcome.XFAIL,
)
OUTCOME_ORDER: tuple[Outcome, ...] = (Outcome.PASS, *SEVERITY, Outcome.NOT_APPLICABLE)


def ruleset_verdict(
    counts: Mapping[str, int], incomplete: Iterable[str] = ()
) -> tuple[str, list[str]]:
    """The verdict of one ruleset and the reasons for it, in words.

    ``counts`` maps outcome names to how many vectors ended so; ``incomplete`` holds
    reasons the run as a whole is incomplete (empty when it is whole).
    """
    findings = [f"{counts[str(o)]} {o}" for o in SEVERITY if counts.get(str(o))]
    if findings:
        reasons = findings[:]
        if counts.get(str(Outcome.XFAIL)) and len(findings) == 1:
            reasons = [
                f"{counts[str(Outcome.XFAIL)]} known failures (XFAIL): no certificate "
                "is issued over a known breach"
            ]
        return NOT_CERTIFIED, reasons
    incomplete = list(incomplete)
    if incomplete:
        return INCOMPLETE, incomplete
    applicable = sum(n for o, n in counts.items() if o != str(Outcome.NOT_APPLICABLE))
    if applicable == 0:
        if counts.get(str(Outcome.NOT_APPLICABLE)):
            return NOT_APPLICABLE, ["the adapter claims none of this ruleset's vectors"]
        return INCOMPLETE, ["no vector of this ruleset was run"]
    return CERTIFIED, [f"all {applicable} applicable vectors passed"]


def with_attached(
    verdict: str, reasons: list[str], failed: Iterable[str], incomplete: Iterable[str]
) -> tuple[str, list[str]]:
    """Rule 5, after the vectors: the modes attached to the run (``run --fuzz N``,
    ``run --exhaustive``) must pass too.  A mode that found a disagreement on the ruleset
    makes it NOT CERTIFIED (``failed``: why, in words); one that did not finish it makes
    a ruleset that would be CERTIFIED (or not applicable) INCOMPLETE."""
    failed, incomplete = list(failed), list(incomplete)
    if failed:
        return NOT_CERTIFIED, (reasons if verdict == NOT_CERTIFIED else []) + failed
    if incomplete and verdict in (CERTIFIED, NOT_APPLICABLE, INCOMPLETE):
        return INCOMPLETE, (reasons if verdict == INCOMPLETE else []) + incomplete
    return verdict, reasons


def with_corpus(verdict: str, reasons: list[str], denial: str) -> tuple[str, list[str]]:
    """Rule 6, last: ``denial`` (why the corpus is not the published release, ``""`` if it
    is) makes every ruleset but a not-applicable one NOT CERTIFIED, ``denial`` first
    among its reasons (the others kept: what the vectors themselves gave)."""
    if not denial or verdict == NOT_APPLICABLE:
        return verdict, reasons
    return NOT_CERTIFIED, [denial, *reasons]


def overall_verdict(verdicts: Iterable[str]) -> str:
    """The verdict of the whole report from the verdicts of its rulesets."""
    verdicts = list(verdicts)
    if NOT_CERTIFIED in verdicts:
        return NOT_CERTIFIED
    if INCOMPLETE in verdicts or CERTIFIED not in verdicts:
        return INCOMPLETE
    return CERTIFIED
