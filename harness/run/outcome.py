"""The one place a certification's outcome becomes an exit code.

A certification ends one of three ways: it did not finish (the harness gave up on the
adapter, results are missing: INCOMPLETE), it finished and found the evaluator does not
comply (NOT CERTIFIED), or it finished and found nothing against it (CERTIFIED).
:func:`exit_code` numbers these (:class:`~pokercert.reference.errors.ExitCode`, the one
enum); every other pipeline module asks it: a run's own exit code (:func:`exit_code_for`),
a report's ``exit_code`` field (``reports.model.REPORT_EXIT_CODES``) and what
``pokercert.certify`` returns.  tests/contract/test_exit_codes.py holds the pipeline to it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from pokercert.harness.run.results import FAILING, Outcome, RunHeader
from pokercert.reference.errors import ExitCode
from pokercert.vectors.releases import corpus_status

__all__ = ["exit_code", "exit_code_for"]


def exit_code(*, finished: bool, complies: bool) -> ExitCode:
    """The exit code of a certification that ``finished`` (or did not) and whose
    evaluator ``complies`` (or not): 2 unfinished, else 1 non-compliant, else 0."""
    if not finished:
        return ExitCode.ERROR
    return ExitCode.OK if complies else ExitCode.NONCOMPLIANT


def exit_code_for(header: RunHeader, counts: Mapping[str, Counter[str]]) -> ExitCode:
    """A run's exit code, from its header and outcome counts per ruleset.

    0: every applicable vector passed (or failed as the expectations file predicts);
    1: any FAIL/WRONG_REASON/ERROR/TIMEOUT/CRASH/XPASS, nothing applicable at all, or a
    corpus that is not the published one of its version (the report's verdict rule 6: such
    a run is NOT CERTIFIED, and a CI gate must not read it as a pass);
    2: the run did not finish (the harness gave up on the adapter, or results are missing).
    """
    total = Counter[str]()
    for c in counts.values():
        total.update(c)
    finished = not header.aborted and sum(total.values()) >= header.selected
    applicable = sum(n for o, n in total.items() if o != str(Outcome.NOT_APPLICABLE))
    complies = (
        corpus_status(header.corpus_version, header.corpus_sha256).published
        and not any(total[str(o)] for o in FAILING)
        and not _attached_failed(header)
        and bool(applicable)
    )
    return exit_code(finished=finished, complies=complies)


def _attached_failed(header: RunHeader) -> bool:
    """Whether an attached mode found a disagreement (the report's rule, in one place:
    :func:`pokercert.harness.run.attached.item_status`)."""
    from pokercert.harness.run.attached import FAILED, item_status

    return any(
        item_status(mode, item) == FAILED
        for mode, items in header.attached.items()
        for item in items
    )
