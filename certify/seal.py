"""Stage *seal*: the report of a finished run, sealed and written beside its results."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pokercert.harness.run.runner import RunOutcome
from pokercert.reference import collector
from pokercert.reports import model
from pokercert.reports.canonical import sealed
from pokercert.reports.output import DEFAULT_FORMATS, write_reports

__all__ = ["Sealed", "seal"]


@dataclass
class Sealed:
    """The sealed report (None: it could not be built), whether it was written into the
    run folder, and what went wrong on the way, in the words the CLI prints."""

    report: dict[str, Any] | None
    written: bool
    problems: list[str] = field(default_factory=list)


def seal(outcome: RunOutcome, write: bool = True) -> Sealed:
    """The report of ``outcome``, sealed with its digest, and with ``write`` the default
    report set written into the run folder.

    Built from the results the harness scored, kept in memory (``outcome.results``), not
    from ``results.jsonl``: an adapter that rewrites the file during the run cannot
    change what the reports say (and ``pokercert verify`` then finds the file changed).
    A report bug never hides the run's own outcome: it is a problem, not a raise.
    """
    problems: list[str] = []
    if write:
        try:  # (the collector paused: a report is plain data, the heap holds the whole run)
            with collector.paused():
                report, data = sealed(model.report_of(outcome.header, outcome.results))
                write_reports(report, outcome.folder, DEFAULT_FORMATS, None, data)
            return Sealed(report, True)
        except Exception as exc:
            problems.append(f"pokercert run: reports not written: {exc}")
    try:
        with collector.paused():
            return Sealed(
                sealed(model.report_of(outcome.header, outcome.results))[0], False, problems
            )
    except Exception as exc:
        problems.append(f"pokercert: no report verdict: {exc}")
        return Sealed(None, False, problems)
