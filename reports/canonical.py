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
from collections.abc import Iterable
from functools import cache
from importlib import resources
from json.encoder import encode_basestring
from typing import TYPE_CHECKING, Any

from pokercert.reference.errors import InputError

if TYPE_CHECKING:
    import jsonschema

DIGEST_PREFIX = "sha256:"


class ReportError(InputError):
    """A report file that cannot be read or does not follow the report schema."""


def _dumps(value: Any) -> str:
    """``value`` in canonical form (no final newline), as the standard library writes it."""
    try:
        return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False, allow_nan=False)
    except ValueError as exc:
        raise ReportError(f"report holds a value JSON cannot carry: {exc}") from None


class _Unusual(Exception):
    """A value :func:`_text` leaves to the standard library (see there)."""


_str = encode_basestring  # the C function json.dumps uses with ensure_ascii=False
_int, _float = int.__repr__, float.__repr__
_INF = float("inf")
# (keys in insertion order, indent) -> keys sorted, each key's line head, the closing line,
# the inner indent
_Layout = tuple[list[str], list[str], str, str]


def _text(
    value: Any, indent: str, lists: dict[Any, str], layouts: dict[tuple[Any, str], _Layout]
) -> str:
    """``value`` in canonical form at ``indent`` (its lines after the first start with it):
    exactly ``_dumps(value).replace("\\n", "\\n" + indent)``, several times faster.

    The standard library writes indented JSON with its pure-Python encoder (one
    generator step per token: 0.2-0.35 s of CPU for a default run's report); this
    writes each string, int and float with the very functions that encoder calls
    (``encode_basestring``, ``int.__repr__``, ``float.__repr__``), and an object's keys
    sorted in the same order, so the text is the same.  Two memos make it cheap: the
    layout of an object per (key tuple, indent) (every vector record has the same keys)
    and the text of a list of strings per (strings, indent) (clause and flag lists
    repeat).  Anything else (a non-string key, a dict or list subclass, a tuple, NaN,
    an unknown type) raises :class:`_Unusual`, and the caller writes that member with
    the standard library."""
    kind = type(value)
    if kind is str:
        return _str(value)
    if kind is dict:
        return _object_text(value, indent, lists, layouts)
    if kind is list:
        return _list_text(value, indent, lists, layouts)
    if value is None:
        return "null"
    if kind is bool:
        return "true" if value else "false"
    if isinstance(value, str):  # an enum's value (a vector's kind) among them
        return _str(value)
    if isinstance(value, int):
        return _int(value)
    if isinstance(value, float) and value == value and value not in (_INF, -_INF):
        return _float(value)
    raise _Unusual


def _object_text(
    value: dict[Any, Any],
    indent: str,
    lists: dict[Any, str],
    layouts: dict[tuple[Any, str], _Layout],
) -> str:
    """A dict in canonical form (:func:`_text`), its layout per (keys, indent) memoised."""
    if not value:
        return "{}"
    keys = tuple(value)
    layout = layouts.get((keys, indent))
    if layout is None:
        if not all(type(k) is str for k in keys):
            raise _Unusual
        inner = indent + "  "
        order = sorted(keys)
        layout = layouts[keys, indent] = (
            order,
            [("{\n" if i == 0 else ",\n") + inner + _str(k) + ": " for i, k in enumerate(order)],
            "\n" + indent + "}",
            inner,
        )
    order, heads, tail, inner = layout
    out = []
    for head, name in zip(heads, order, strict=True):
        item = value[name]
        if type(item) is str:
            out.append(head + _str(item))
        elif type(item) is int:
            out.append(head + _int(item))
        else:
            out.append(head + _text(item, inner, lists, layouts))
    out.append(tail)
    return "".join(out)


def _list_text(
    value: list[Any], indent: str, lists: dict[Any, str], layouts: dict[tuple[Any, str], _Layout]
) -> str:
    """A list in canonical form (:func:`_text`), a list of strings memoised per
    (strings, indent)."""
    if not value:
        return "[]"
    inner = indent + "  "
    memo: tuple[Any, str] | None = (tuple(value), indent)
    try:
        known = lists.get(memo)
    except TypeError:  # holds a dict or list: not memoised
        memo = known = None
    if known is not None:
        return known
    if memo is not None and all(type(v) is str for v in value):
        known = lists[memo] = (
            "[\n" + inner + (",\n" + inner).join(map(_str, value)) + "\n" + indent + "]"
        )
        return known
    return (
        "[\n"
        + inner
        + (",\n" + inner).join([_text(v, inner, lists, layouts) for v in value])
        + "\n"
        + indent
        + "]"
    )


def _member(
    key: str, value: Any, lists: dict[Any, str], layouts: dict[tuple[Any, str], _Layout]
) -> str:
    """One top-level key's line of the canonical form (see :func:`_members`)."""
    try:
        text = _text(value, "  ", lists, layouts)
    except (_Unusual, RecursionError):  # the standard library's text, or its error
        text = _dumps(value).replace("\n", "\n  ")
    return f"  {_str(key)}: {text}"


def _members(report: dict[str, Any]) -> dict[str, str] | None:
    """Each top-level key's line of the canonical form (``  "key": value``, the value's
    own lines indented one level), in sorted key order; None if a key is not a string
    (or ``report`` is not an object).

    The canonical form of an object is ``{``, these lines joined by ``,`` and a newline,
    a newline and ``}``: a string inside JSON text never holds a raw newline (it is
    written ``\\n``), so indenting a value's text by one level is a plain replace.  So a
    report is encoded once, and its digest (over the report without ``digest``) and its
    bytes (with it) are both made from the same member lines."""
    if not isinstance(report, dict) or not all(isinstance(k, str) for k in report):
        return None
    lists: dict[Any, str] = {}
    layouts: dict[tuple[Any, str], _Layout] = {}
    return {k: _member(k, report[k], lists, layouts) for k in sorted(report)}


def _join(members: Iterable[str]) -> bytes:
    lines = ",\n".join(members)
    return (("{\n" + lines + "\n}\n") if lines else "{}\n").encode("utf-8")


def canonical_bytes(report: dict[str, Any]) -> bytes:
    """The one byte form of a report."""
    members = _members(report)
    if members is None:  # not a report (verify reads any JSON object): the plain way
        return (_dumps(report) + "\n").encode("utf-8")
    return _join(members.values())


def _digest_of(body: bytes) -> str:
    return DIGEST_PREFIX + hashlib.sha256(body).hexdigest()


def compute_digest(report: dict[str, Any]) -> str:
    """``sha256:<hex>`` over the canonical form of ``report`` less its ``digest`` field."""
    return canonical_and_digest(report)[1]


def canonical_and_digest(report: dict[str, Any]) -> tuple[bytes, str]:
    """:func:`canonical_bytes` of ``report`` and :func:`compute_digest` of it, from one
    encoding of its content (``verify`` checks both)."""
    members = _members(report)
    if members is None:
        body = {k: v for k, v in report.items() if k != "digest"}
        return canonical_bytes(report), _digest_of(canonical_bytes(body))
    digest = _digest_of(_join(v for k, v in members.items() if k != "digest"))
    return _join(members.values()), digest


def seal(report: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``report`` carrying its digest."""
    return sealed(report)[0]


def sealed(report: dict[str, Any]) -> tuple[dict[str, Any], bytes]:
    """A copy of ``report`` carrying its digest, and that copy's canonical bytes: the
    content is encoded once, and the digest's line is spliced in at its sorted place."""
    members = _members(report)
    if members is None:
        out = {**report, "digest": compute_digest(report)}
        return out, canonical_bytes(out)
    members.pop("digest", None)
    digest = _digest_of(_join(members.values()))
    members["digest"] = f"  {_str('digest')}: {_str(digest)}"
    return {**report, "digest": digest}, _join(members[k] for k in sorted(members))


@cache
def schema() -> dict[str, Any]:
    """The published JSON Schema of the report (``reports/schema/report.schema.json``)."""
    text = (resources.files("pokercert.reports") / "schema" / "report.schema.json").read_text(
        encoding="utf-8"
    )
    document: dict[str, Any] = json.loads(text)  # a file of ours
    return document


@cache
def _validator() -> jsonschema.Draft202012Validator:
    import jsonschema  # imported when a report is checked, not by every run that writes one

    return jsonschema.Draft202012Validator(schema())


def schema_errors(report: Any) -> list[str]:
    """Every way ``report`` breaks the schema, as ``path: message`` lines (empty if none)."""
    errors = sorted(
        _validator().iter_errors(report), key=lambda e: [str(p) for p in e.absolute_path]
    )
    return [f"{'/'.join(str(p) for p in e.absolute_path) or '(top)'}: {e.message}" for e in errors]


def validate(report: Any, where: str = "report") -> None:
    """Raise :class:`ReportError` naming the first schema violations."""
    errors = schema_errors(report)
    if errors:
        more = f" (and {len(errors) - 5} more)" if len(errors) > 5 else ""
        raise ReportError(
            f"{where} does not follow the report schema: " + "; ".join(errors[:5]) + more
        )
