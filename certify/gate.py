"""The pytest plugin's gate: one certification per session, read vector by vector.

:class:`Gate` runs :func:`pokercert.certify.certify` once, the first time a test asks
(``pokercert run --in-process --no-challenge`` with the plugin's options), and answers
each vector's outcome from the sealed report's ``vectors`` (never scored again here),
the words around it from the result the run scored, and the verdict with the run's
exit code (``harness.run.outcome.exit_code``, the one mapping).  A certification that
could not run (a bad folder, an adapter that does not start, a report that could not
be built) is :class:`GateBroken` with the reason, for every test that asks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pokercert.certify.pipeline import Certification, certify
from pokercert.harness.adapters import AdapterError
from pokercert.harness.run.limits import Limits
from pokercert.harness.run.runner import RunError
from pokercert.reference.errors import PokercertError

if TYPE_CHECKING:
    from pokercert.harness.run.results import Result
    from pokercert.vectors.corpus import Corpus
    from pokercert.vectors.model import Vector

__all__ = ["Gate", "GateBroken", "GateOptions", "describe", "verdict_text"]


class GateBroken(PokercertError):
    """The certification did not run (or left no report): the reason, in words."""


@dataclass
class GateOptions:
    """What the plugin's options ask of the certification."""

    spec: str
    profile: str
    timeout: float
    out: Path
    rulesets: list[str] | None = None
    expect: Path | None = None
    corpus: Corpus | None = None
    command: list[str] = field(default_factory=lambda: ["pytest"])


class Gate:
    """One certification for a pytest session, run on first need."""

    def __init__(self, options: GateOptions) -> None:
        self.options = options
        self.done: Certification | None = None
        self._broken = ""
        self._outcomes: dict[str, str] = {}
        self._results: dict[str, Result] = {}

    def certification(self) -> Certification:
        """The session's certification, run the first time it is asked for."""
        if self._broken:
            raise GateBroken(self._broken)
        if self.done is None:
            try:
                self.done = self._run()
            except GateBroken as exc:
                self._broken = str(exc)
                raise
        return self.done

    def _run(self) -> Certification:
        o = self.options
        try:
            done = certify(
                o.spec,
                rulesets=o.rulesets,
                profile=o.profile,
                expect=o.expect,
                corpus=o.corpus,
                limits=Limits(timeout=o.timeout),
                out=o.out,
                in_process=True,
                challenge=False,
                command=o.command,
            )
        except AdapterError as exc:
            raise GateBroken(f"the adapter {o.spec!r} does not start: {exc}") from None
        except RunError as exc:
            raise GateBroken(f"the certification did not run: {exc}") from None
        if done.report is None:
            raise GateBroken("; ".join(done.problems) or "no sealed report")
        self._outcomes = {v["id"]: v["outcome"] for v in done.report["vectors"]}
        self._results = {r.vector_id: r for r in done.run.results}  # (the last line counts)
        return done

    def outcome(self, vector_id: str) -> tuple[str | None, Result | None]:
        """The sealed report's outcome of ``vector_id`` (None: the report has none) and
        the result the run scored for it (its message, answer, stderr)."""
        self.certification()
        return self._outcomes.get(vector_id), self._results.get(vector_id)

    def not_scored(self, vector_id: str) -> str:
        """Why the report holds no outcome for ``vector_id``."""
        header = self.certification().header
        why = f": {header.aborted}" if header.aborted else ""
        return f"NOT SCORED {vector_id}: the certification holds no result for it{why}"


def verdict_text(done: Certification) -> str:
    """The sealed report's verdict, each ruleset's verdict and reasons, the run's exit
    code and where the report is: the verdict test's failure."""
    report = done.report or {}
    lines = [f"{done.verdict} (pokercert run exit code {int(done.exit_code)})"]
    if done.header.aborted:
        lines.append(f"  the run did not finish: {done.header.aborted}")
    for row in report.get("rulesets", []):
        reasons = "; ".join(str(r) for r in row.get("reasons", []))
        lines.append(f"  {row['id']}: {row['verdict']}" + (f": {reasons}" if reasons else ""))
    lines.extend(f"  {problem}" for problem in done.problems)
    where = done.folder / "report.json" if done.written else done.folder
    lines.append(f"  sealed report: {where}")
    return "\n".join(lines)


# --------------------------------------------------------------------------- messages
def _cards(value: Any) -> str:
    """Cards as written, hands joined by ' | ' (other values as Python shows them)."""
    if isinstance(value, str):
        return value
    if isinstance(value, Sequence) and all(isinstance(v, str) for v in value):
        return " | ".join(value)
    return str(value)


def _fields(data: Any) -> str:
    if not isinstance(data, dict):
        return repr(data)
    return ", ".join(f"{k}={_cards(v)}" for k, v in data.items())


def describe(vector: Vector, outcome: str, result: Result) -> str:
    """The failure text: the report's outcome, what was asked, expected vs actual, the
    rules and why."""
    from pokercert.reference import RulesetError, get_ruleset

    rs = get_ruleset(vector.ruleset)
    where = f" ({vector.location})" if vector.location else ""
    lines = [f"{outcome} {vector.id}{where}"]
    if result.scored_as:
        lines.append(f"  listed as a known failure: {result.known_failure}")
        lines.append("  it passed: remove it from the expectations file")
    if result.message:
        lines.append(f"  {result.message}")
    lines.append(f"  kind:      {vector.kind}")
    for key, value in vector.inputs.items():
        lines.append(f"  {key + ':':10} {_cards(value)}")
    lines.append(f"  expected:  {_fields(result.expected)}")
    lines.append(f"  actual:    {_fields(result.actual) if result.actual is not None else '-'}")
    if result.readings:
        lines.append("  readings:  " + ", ".join(f"{k}={v}" for k, v in result.readings.items()))
    for label in vector.clauses:
        try:
            summary = rs.clause(label).summary
        except RulesetError:
            summary = "(not a clause of this ruleset)"
        lines.append(f"  clause:    {label}: {summary}")
    lines.append(f"  why:       {vector.why}")
    lines.append(f"  flags:     {', '.join(vector.flags)}")
    if result.stderr:
        excerpt = result.stderr.strip().splitlines()[-10:]
        lines.append("  stderr:    " + "\n             ".join(excerpt))
    return "\n".join(lines)
