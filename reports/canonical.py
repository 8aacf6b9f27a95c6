"""The canonical JSON report: its exact bytes, its digest and its schema.

Canonical form: UTF-8 JSON, keys sorted, two-space indent, non-ASCII characters as
themselves, one final newline (Python's ``json.dumps(report, indent=2, sort_keys=True,
ensure_ascii=False) + "\\n"``).  The ``digest`` field is ``sha256:`` and the SHA-256 of
the canonical form of the report without its ``digest`` field.  A report file is
genuine only if its bytes are exactly the canonical form of what they parse to and its
digest matches, so changing any byte (even whitespace) is detected.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from importlib import resources
from typing import Any

import jsonschema

from pokercert.reference.errors import InputError

DIGEST_PREFIX = "sha256:"


class ReportError(InputError):
    """A report file that cannot be read or does not follow the report schema."""


def canonical_bytes(report: dict[str, Any]) -> bytes:
    """The one byte form of a report."""
    try:
        text = json.dumps(report, indent=2, sort_keys=True, ensure_ascii=False, allow_nan=False)
    except ValueError as exc:
        raise ReportError(f"report holds a value JSON cannot carry: {exc}") from None
    return (text + "\n").encode("utf-8")


def compute_digest(report: dict[str, Any]) -> str:
    """``sha256:<hex>`` over the canonical form of ``report`` less its ``digest`` field."""
    body = {k: v for k, v in report.items() if k != "digest"}
    return DIGEST_PREFIX + hashlib.sha256(canonical_bytes(body)).hexdigest()


def seal(report: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``report`` carrying its digest."""
    return {**report, "digest": compute_digest(report)}


@cache
def schema() -> dict[str, Any]:
    """The published JSON Schema of the report (``reports/schema/report.schema.json``)."""
    text = (resources.files("pokercert.reports") / "schema" / "report.schema.json") \
        .read_text(encoding="utf-8")
    document: dict[str, Any] = json.loads(text)   # a file of ours
    return document


@cache
def _validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(schema())


def schema_errors(report: Any) -> list[str]:
    """Every way ``report`` breaks the schema, as ``path: message`` lines (empty if none)."""
    errors = sorted(_validator().iter_errors(report), key=lambda e: [str(p) for p in
                                                                     e.absolute_path])
    return [f"{'/'.join(str(p) for p in e.absolute_path) or '(top)'}: {e.message}"
            for e in errors]


def validate(report: Any, where: str = "report") -> None:
    """Raise :class:`ReportError` naming the first schema violations."""
    errors = schema_errors(report)
    if errors:
        more = f" (and {len(errors) - 5} more)" if len(errors) > 5 else ""
        raise ReportError(f"{where} does not follow the report schema: "
                          + "; ".join(errors[:5]) + more)

