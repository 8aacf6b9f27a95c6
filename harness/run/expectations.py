"""The expectations file: an evaluator's known failures, each with a reason.

A TOML file, one table per vector id::

    # acme-eval 1.2: known failures, tracked in our bug tracker
    [known."nj-poker-high-5/straight-wheel-001"]
    reason = "ACME-123: the wheel is ranked above the six-high straight"

    [known."nj-poker-high-5/reject-duplicate-002"]
    reason = "ACME-140: duplicate cards are not validated"
    outcome = "FAIL"      # optional: only this outcome counts as the known failure

A listed vector that fails is scored XFAIL; one that passes is XPASS, which fails the run
so the list is pruned as bugs get fixed.  With ``outcome``, a failure of another kind is
reported as itself (the bug changed).  Every listed id must exist in the corpus.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from pokercert.harness.run.results import FAILING, Outcome
from pokercert.reference.errors import InputError


class ExpectationsError(InputError, ValueError):
    """A malformed expectations file; the message names the file and the entry."""


@dataclass(frozen=True)
class Known:
    """One known failure."""

    vector_id: str
    reason: str
    outcome: Outcome | None = None


def load_expectations(path: str | Path) -> dict[str, Known]:
    """Vector id -> :class:`Known`, checked for shape (not yet against a corpus)."""
    file = Path(path)
    try:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ExpectationsError(f"{file}: no such expectations file") from None
    except tomllib.TOMLDecodeError as exc:
        raise ExpectationsError(f"{file}: {exc}") from None
    extra = sorted(set(data) - {"known"})
    if extra:
        raise ExpectationsError(
            f'{file}: unknown top-level keys {extra}; entries go in [known."VECTOR-ID"] tables'
        )
    known = data.get("known", {})
    if not isinstance(known, dict):
        raise ExpectationsError(f"{file}: 'known' must be a table of vector ids")
    out: dict[str, Known] = {}
    for vid, entry in known.items():
        where = f"{file}: [known.{vid!r}]"
        if not isinstance(entry, dict):
            raise ExpectationsError(f"{where} must be a table with a 'reason'")
        unknown = sorted(set(entry) - {"reason", "outcome"})
        if unknown:
            raise ExpectationsError(f"{where}: unknown keys {unknown}")
        reason = entry.get("reason")
        if not isinstance(reason, str) or not reason.strip():
            raise ExpectationsError(f"{where}: every known failure needs a non-empty 'reason'")
        outcome = entry.get("outcome")
        if outcome is not None:
            try:
                outcome = Outcome(outcome)
            except ValueError:
                outcome = None
            if outcome not in FAILING - {Outcome.XPASS}:
                raise ExpectationsError(
                    f"{where}: outcome must be one of "
                    f"{', '.join(sorted(str(o) for o in FAILING - {Outcome.XPASS}))}"
                )
        out[vid] = Known(vid, reason.strip(), outcome)
    return out


def check_against(known: Mapping[str, Known], corpus_ids: Iterable[str], path: str) -> None:
    """Refuse ids the corpus does not have (a stale or mistyped entry)."""
    ids = set(corpus_ids)
    stale = sorted(k for k in known if k not in ids)
    if stale:
        more = f" and {len(stale) - 10} more" if len(stale) > 10 else ""
        raise ExpectationsError(f"{path}: ids not in the corpus: {', '.join(stale[:10])}{more}")


def apply(outcome: Outcome, known: Known | None) -> Outcome:
    """The outcome after the expectations file: XFAIL, XPASS or unchanged."""
    if known is None:
        return outcome
    if outcome is Outcome.PASS:
        return Outcome.XPASS
    if outcome in FAILING and (known.outcome is None or known.outcome is outcome):
        return Outcome.XFAIL
    return outcome
