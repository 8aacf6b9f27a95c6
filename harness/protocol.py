"""The subprocess protocol: JSON Lines messages between the harness and an adapter.

``harness/PROTOCOL.md`` is the normative description and ``harness/schema/*.json`` holds
one JSON Schema per message.  This module builds the harness's messages and checks the
adapter's replies.  The handshake and ``configure`` replies are rare and are validated
against the published schemas; batch replies are frequent and are checked here by hand,
field by field, so that a run can push hundreds of thousands of hands a second
(``tests/harness/test_harness_protocol.py`` holds both checks to the same verdicts).

Nothing in a request ever carries the expected answer: requests are numbered, and the
vector ids stay on the harness side.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any

from pokercert.harness.api import CAPABILITY_KINDS
from pokercert.reference.errors import PokercertError
from pokercert.vectors.model import Kind, parse_share

PROTOCOL_VERSION = 1
# protocol features this harness speaks, each with its version (PROTOCOL.md, section 6):
# optional message forms negotiated in hello, used only with an adapter that names them
FEATURES = {"classify_many": 1, "evaluate_many": 1, "input_rules": 1, "best_hand_half": 1}
# features that change what an input means (section 3), not the form of a message: the
# vectors that test them carry one of these flags and go only to adapters that name the
# feature, so an adapter written before it was defined is scored as before
VALIDATION_FEATURES = {"input_rules": frozenset({"unused-field"})}
# the request op of each feature, and the single op whose requests it carries
MANY_OPS = {"classify_many": "classify", "evaluate_many": "evaluate"}
# the feature a request needs beyond its op (a best_hand request naming a ``half``)
HALF_FEATURE = "best_hand_half"

# message type -> schema file (harness/schema/<name>.json)
SCHEMAS = {
    "hello-request": "hello-request.json",
    "hello-reply": "hello-reply.json",
    "configure-request": "configure-request.json",
    "configure-reply": "configure-reply.json",
    "batch-request": "batch-request.json",
    "batch-reply": "batch-reply.json",
    "stop-request": "stop-request.json",
    "error-reply": "error-reply.json",
}

__all__ = [
    "FEATURES",
    "HALF_FEATURE",
    "MANY_OPS",
    "PROTOCOL_VERSION",
    "SCHEMAS",
    "VALIDATION_FEATURES",
    "ProtocolError",
    "batch_request",
    "check_capabilities",
    "check_item",
    "check_many",
    "configure_request",
    "exact_key",
    "hand_answer",
    "hello_request",
    "needs_feature",
    "negotiated",
    "parse_batch_reply",
    "parse_configure_reply",
    "parse_hello_reply",
    "schema",
    "stop_request",
    "validate",
]


class ProtocolError(PokercertError):
    """An adapter's message does not follow the protocol; the text says how."""


# ----------------------------------------------------------------------------- schemas
@cache
def schema(name: str) -> dict[str, Any]:
    """The JSON Schema of one message (``hello-reply``, ``batch-request``, ...)."""
    path = resources.files("pokercert.harness") / "schema" / SCHEMAS[name]
    document: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))  # a file of ours
    return document


@cache
def _validator(name: str) -> Any:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(schema(name))


def validate(name: str, message: Any) -> None:
    """Raise :class:`ProtocolError` if ``message`` does not match schema ``name``."""
    errors = sorted(_validator(name).iter_errors(message), key=lambda e: list(e.path))
    if errors:
        err = errors[0]
        where = "/".join(str(p) for p in err.path) or "(top level)"
        raise ProtocolError(f"{name} message invalid at {where}: {err.message}")


# ----------------------------------------------------------------------------- requests
def hello_request(harness_version: str) -> dict[str, Any]:
    return {
        "type": "hello",
        "protocol": PROTOCOL_VERSION,
        "harness": {"name": "pokercert", "version": harness_version},
        "features": dict(FEATURES),
    }


def configure_request(ruleset: str, readings: Mapping[str, str]) -> dict[str, Any]:
    return {"type": "configure", "ruleset": ruleset, "readings": dict(readings)}


def batch_request(batch_id: int, items: Sequence[tuple[int, Mapping[str, Any]]]) -> dict[str, Any]:
    """A batch: ``items`` are (request id, request) pairs; requests carry no answers."""
    return {"type": "batch", "id": batch_id, "requests": [{"id": rid, **req} for rid, req in items]}


def stop_request() -> dict[str, Any]:
    return {"type": "stop"}


# ----------------------------------------------------------------------------- replies
def _load(line: str | bytes) -> dict[str, Any]:
    try:
        msg = json.loads(line)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ProtocolError(f"reply is not JSON ({exc}): {_excerpt(line)}") from None
    if not isinstance(msg, dict):
        raise ProtocolError(f"reply is not a JSON object: {_excerpt(line)}")
    if msg.get("type") == "error":
        raise ProtocolError(f"adapter answered with an error: {msg.get('message', '')!s:.500}")
    return msg


def _excerpt(line: str | bytes, limit: int = 200) -> str:
    text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
    text = text.rstrip("\n")
    return repr(text[:limit] + ("..." if len(text) > limit else ""))


def parse_hello_reply(line: str | bytes) -> dict[str, Any]:
    """The adapter's ``hello``: identity and capabilities, checked against the schema."""
    msg = _load(line)
    if msg.get("type") != "hello":
        raise ProtocolError(f"expected a hello reply, got: {_excerpt(line)}")
    version = msg.get("protocol")
    if version != PROTOCOL_VERSION:
        raise ProtocolError(
            f"adapter speaks protocol version {version!r}; this harness speaks "
            f"version {PROTOCOL_VERSION}"
        )
    validate("hello-reply", msg)
    return msg


def negotiated(hello: Mapping[str, Any]) -> frozenset[str]:
    """The features both sides speak: named in the adapter's hello with the version this
    harness speaks (a feature at another version is not used)."""
    declared = hello.get("features")
    if not isinstance(declared, Mapping):
        return frozenset()
    return frozenset(name for name, version in FEATURES.items() if declared.get(name) == version)


def needs_feature(flags: Sequence[str]) -> str | None:
    """The protocol feature an adapter must name to be sent a vector with these flags
    (None: every adapter is)."""
    for feature, marked in VALIDATION_FEATURES.items():
        if not marked.isdisjoint(flags):
            return feature
    return None


def parse_configure_reply(line: str | bytes) -> None:
    """Accept the adapter's ``configure`` reply or raise with its refusal message."""
    msg = _load(line)
    validate("configure-reply", msg)
    if not msg["ok"]:
        raise ProtocolError(f"adapter refused the configuration: {msg.get('message', '')}")


def parse_batch_reply(line: str | bytes, batch_id: int) -> list[Any] | None:
    """The ``replies`` list of the reply to batch ``batch_id``.

    Returns ``None`` for a well-formed reply to an *earlier* batch (a late answer the
    harness already gave up on), so the caller can skip it and read on.
    """
    msg = _load(line)
    if msg.get("type") != "batch":
        raise ProtocolError(f"expected a batch reply, got: {_excerpt(line)}")
    got = msg.get("id")
    if not isinstance(got, int) or isinstance(got, bool):
        raise ProtocolError(f"batch reply without an integer id: {_excerpt(line)}")
    if got < batch_id:
        return None
    if got != batch_id:
        raise ProtocolError(f"reply to batch {got} while batch {batch_id} was outstanding")
    replies = msg.get("replies")
    if not isinstance(replies, list):
        raise ProtocolError(f"batch reply {got} has no 'replies' list")
    return replies


_OUTCOME_KEYS = (
    "error",
    "rejected",
    "category",
    "winners",
    "cards",
    "high",
    "low",
    "shares",
    "qualifies",
    "legal",
    "settlement",
)
_NOT_CLASSIFY = frozenset({"error", "rejected", "winners", "cards"})
_NOT_COMPARE = frozenset({"error", "rejected", "category", "cards"})
# who a pai gow settlement goes to (PROTOCOL.md, the pai gow section)
SETTLEMENTS = ("player", "banker", "push")


def check_item(op: str, item: Mapping[str, Any]) -> str | None:
    """What is wrong with one reply item for a request of operation ``op`` (None: fine).

    The item has exactly one of: the operation's answer fields, ``rejected`` (a reason
    code or null), or ``error`` (a message).  This mirrors ``batch-reply.json``.
    """
    if _common_shape(op, item):
        return None
    present = [k for k in _OUTCOME_KEYS if k in item]
    if "error" in present or "rejected" in present:
        return _refusal_problem(present, item)
    check = _ANSWER_CHECKS.get(op)
    return f"unknown operation {op!r}" if check is None else check(item, present)


def _common_shape(op: str, item: Mapping[str, Any]) -> bool:
    """Whether the item is the common answer of a classify or compare request, decided
    in the few steps the hot path can afford (anything else: the full check)."""
    keys = item.keys()
    if op == "classify":
        return type(item.get("category")) is str and not keys & _NOT_CLASSIFY
    if op == "compare":
        winners = item.get("winners")
        return (
            type(winners) is list
            and not keys & _NOT_COMPARE
            and all(type(i) is int for i in winners)
        )
    return False


def _refusal_problem(present: list[str], item: Mapping[str, Any]) -> str | None:
    """What is wrong with an ``error`` or ``rejected`` item (None: fine)."""
    if len(present) > 1:
        return f"a reply item carries exactly one outcome, got {present}"
    if "error" in item:
        return None if type(item["error"]) is str else "'error' must be a string"
    code = item["rejected"]
    return (
        None
        if code is None or type(code) is str
        else "'rejected' must be a reason code string or null"
    )


def _classify(item: Mapping[str, Any], present: list[str]) -> str | None:
    if "winners" in item:
        return "a classify reply carries only 'category'"
    return (
        None
        if type(item.get("category")) is str
        else "a classify reply needs a string 'category' (exactly a str)"
    )


def _evaluate(item: Mapping[str, Any], present: list[str]) -> str | None:
    if type(item.get("category")) is not str:
        return "an evaluate reply needs a string 'category' (exactly a str)"
    return (
        None
        if exact_key(item.get("key"))
        else "an evaluate reply needs a 'key', an int or a non-empty list of ints"
    )


def _winners_of(op: str) -> Callable[[Mapping[str, Any], list[str]], str | None]:
    """The check of a reply that names winners (``compare``, ``compare_two_card``)."""

    def check(item: Mapping[str, Any], present: list[str]) -> str | None:
        if "category" in item or "cards" in item:
            return f"a {op} reply carries only 'winners'"
        w = item.get("winners")
        ok = type(w) is list and all(type(i) is int for i in w)
        return None if ok else f"a {op} reply needs 'winners', a list of integers"

    return check


def _boolean(op: str, key: str) -> Callable[[Mapping[str, Any], list[str]], str | None]:
    """The check of a reply that is one bool (``qualifies``, ``setting``'s ``legal``)."""

    def check(item: Mapping[str, Any], present: list[str]) -> str | None:
        if present != [key]:
            return f"a {op} reply carries only '{key}'"
        return (
            None
            if type(item[key]) is bool
            else f"a {op} reply needs '{key}', true or false (exactly a bool)"
        )

    return check


def _settle(item: Mapping[str, Any], present: list[str]) -> str | None:
    if present != ["settlement"]:
        return "a settle reply carries only 'settlement'"
    got = item["settlement"]
    return (
        None
        if type(got) is str and got in SETTLEMENTS
        else f"a settle reply needs 'settlement', one of {', '.join(SETTLEMENTS)}"
    )


def _best_hand(item: Mapping[str, Any], present: list[str]) -> str | None:
    if "winners" in item:
        return "a best_hand reply carries 'cards' and 'category', not 'winners'"
    if type(item.get("cards")) is not str:
        return "a best_hand reply needs 'cards', a string of cards"
    return (
        None
        if type(item.get("category")) is str
        else "a best_hand reply needs a string 'category' (exactly a str)"
    )


def _showdown(item: Mapping[str, Any], present: list[str]) -> str | None:
    return _check_pot(item)


# each operation's answer check: (the item, its outcome keys present) -> problem or None
_ANSWER_CHECKS: dict[str, Callable[[Mapping[str, Any], list[str]], str | None]] = {
    Kind.CLASSIFY: _classify,
    "evaluate": _evaluate,
    Kind.COMPARE: _winners_of(Kind.COMPARE),
    Kind.QUALIFIES: _boolean(Kind.QUALIFIES, "qualifies"),
    Kind.BEST_HAND: _best_hand,
    Kind.SHOWDOWN: _showdown,
    Kind.COMPARE_TWO_CARD: _winners_of(Kind.COMPARE_TWO_CARD),
    Kind.SETTING: _boolean(Kind.SETTING, "legal"),
    Kind.SETTLE: _settle,
}


def valid_share(text: Any) -> bool:
    """Whether ``text`` is a pot share as the wire spells it (``"1/2"``, ``"1"``): what
    :func:`~pokercert.vectors.model.parse_share` accepts (it remembers the few texts a
    run meets, so checking an answer twice costs a dictionary look-up)."""
    return parse_share(text) is not None


def _check_pot(item: Mapping[str, Any]) -> str | None:
    """What is wrong with the shape of a showdown answer (None: fine)."""
    extra = sorted(set(item) - {"id", "high", "low", "shares"})
    if extra:
        return f"a showdown reply carries 'high', 'low' and 'shares', not {extra}"
    for half in ("high", "low"):
        got = item.get(half)
        if not (type(got) is list and all(type(i) is int for i in got)):
            return f"a showdown reply needs '{half}', a list of integers"
    shares = item.get("shares")
    if not (type(shares) is list and all(valid_share(s) for s in shares)):
        return 'a showdown reply needs \'shares\', a list of fractions written "n/d" or "n"'
    return None


def exact_key(key: Any) -> bool:
    """Whether ``key`` is a key as the protocol carries it, of exact built-in types: an
    ``int`` (not a bool, not a subclass) or a non-empty ``list`` of them."""
    return type(key) is int or (
        type(key) is list and bool(key) and all(type(k) is int for k in key)
    )


def check_many(op: str, item: Mapping[str, Any], count: int) -> str | None:
    """What is wrong with the reply item of a ``classify_many`` / ``evaluate_many`` request
    for ``count`` hands as a whole (None: its lists have the right shape; each entry is
    checked on its own, see :func:`hand_answer`).  An ``error`` item fails every hand."""
    if "error" in item:
        if len(item) != 2 or not isinstance(item["error"], str):
            return "a reply item carries exactly one outcome, 'error' a string"
        return None
    categories = item.get("categories")
    if not isinstance(categories, list):
        return f"a {op} reply needs 'categories', a list"
    if len(categories) != count:
        return f"{len(categories)} categories for {count} hands"
    if op == "evaluate_many":
        keys = item.get("keys")
        if not isinstance(keys, list):
            return "an evaluate_many reply needs 'keys', a list"
        if len(keys) != count:
            return f"{len(keys)} keys for {count} hands"
    extra = sorted(set(item) - {"id", "categories", "keys"})
    if extra:
        return f"a {op} reply carries only 'categories' (and 'keys'), not {extra}"
    return None


def hand_answer(
    entry: Any, key: Any = None, keyed: bool = False
) -> tuple[str, dict[str, Any] | None, str]:
    """One hand of a ``classify_many`` / ``evaluate_many`` reply: (status, data, message).

    status is ``answered`` (data: category, and key if ``keyed``), ``rejected`` (data:
    the reason code) or ``error`` (message: what is wrong or what the adapter said).
    """
    if type(entry) is str:
        if not keyed:
            return "answered", {"category": entry}, ""
        if exact_key(key):
            return "answered", {"category": entry, "key": key}, ""
        return "error", None, f"key {key!r} is not an integer or a list of integers"
    if type(entry) is dict:
        if set(entry) <= {"rejected", "message"} and "rejected" in entry:
            code = entry["rejected"]
            message = entry.get("message", "")
            if (code is None or type(code) is str) and isinstance(message, str):
                return "rejected", {"rejected": code}, message[:500]
        elif set(entry) == {"error"} and isinstance(entry["error"], str):
            return "error", None, f"the adapter reported an error: {entry['error']}"[:500]
    return "error", None, f"answer {entry!r:.200} is neither a category, a refusal nor an error"


def check_capabilities(caps: Any) -> dict[str, list[str]]:
    """Ruleset id -> claimed vector kinds, refusing kinds the protocol does not know."""
    if not isinstance(caps, Mapping):
        raise ProtocolError("capabilities must map ruleset ids to lists of vector kinds")
    out: dict[str, list[str]] = {}
    for ruleset, kinds in caps.items():
        if not isinstance(kinds, (list, tuple)) or not all(isinstance(k, str) for k in kinds):
            raise ProtocolError(f"capabilities[{ruleset!r}] must be a list of vector kinds")
        unknown = [k for k in kinds if k not in CAPABILITY_KINDS]
        if unknown:
            raise ProtocolError(
                f"capabilities[{ruleset!r}] names unknown kinds {unknown}; "
                f"known: {', '.join(CAPABILITY_KINDS)}"
            )
        out[str(ruleset)] = list(kinds)
    return out
