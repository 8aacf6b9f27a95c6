"""Serve a Python evaluator over the subprocess protocol (the Python side of PROTOCOL.md).

    python -m pokercert.harness.adapters.serve SPEC

where SPEC is an in-process spec (``reference``, ``py:mypkg.eval:MyEvaluator``).  Run it as
``--adapter "exec:python -m pokercert.harness.adapters.serve py:mypkg.eval:MyEvaluator"``
to isolate an untrusted Python evaluator in a child process: its crashes, hangs and
memory use are then contained and limited like any other language's.
"""

from __future__ import annotations

import json
import sys
from typing import Any, BinaryIO

from pokercert.harness import __version__
from pokercert.harness.adapters.base import AdapterError
from pokercert.harness.adapters.inprocess import call_evaluator, identity_of
from pokercert.harness.adapters.spec import SpecError, parse_spec, resolve
from pokercert.harness.api import Rejected, has_key
from pokercert.harness.protocol import (
    FEATURES,
    MANY_OPS,
    PROTOCOL_VERSION,
    VALIDATION_FEATURES,
    check_item,
)


def _answer(evaluator: Any, request: dict[str, Any]) -> dict[str, Any]:
    """The reply item to one request.  Whatever evaluator code raises (``SystemExit`` and
    ``KeyboardInterrupt`` included) is an ``error`` item of that request, and so is an
    answer not of the exact built-in types (a ``str`` subclass, a list of bools)."""
    rid = request.get("id")
    try:
        item = call_evaluator(evaluator, request)
    except Rejected as exc:
        code = exc.code if type(exc.code) is str else None
        return {"id": rid, "rejected": code, "message": str(exc)}
    except BaseException as exc:
        return {"id": rid, "error": f"{type(exc).__name__}: {exc}"[:500]}
    op = request.get("op")
    if op not in MANY_OPS:
        problem = check_item(str(op), item)
        if problem:
            return {"id": rid, "error": f"{problem}; returned {item!r}"[:500]}
    return {"id": rid, **item}


def serve(evaluator: Any, name: str, version: str, stdin: BinaryIO, stdout: BinaryIO) -> int:
    """Answer protocol messages from ``stdin`` until ``stop`` or end of input."""
    ident = identity_of(evaluator, name, version)

    def send(msg: dict[str, Any]) -> None:
        stdout.write(json.dumps(msg, separators=(",", ":")).encode() + b"\n")
        stdout.flush()

    for raw in stdin:
        try:
            msg = json.loads(raw)
            kind = msg["type"]
        except (ValueError, KeyError, TypeError):
            send({"type": "error", "message": f"not a protocol message: {raw[:200]!r}"})
            continue
        if kind == "hello":
            asked = msg.get("features") if isinstance(msg.get("features"), dict) else {}
            send(
                {
                    "type": "hello",
                    "protocol": PROTOCOL_VERSION,
                    "evaluator": dict(ident.evaluator),
                    "adapter": dict(ident.adapter),
                    "capabilities": {k: list(v) for k, v in ident.capabilities.items()},
                    "features": {
                        name: version
                        for name, version in FEATURES.items()
                        if asked.get(name) == version
                        and (name != "evaluate_many" or has_key(evaluator))
                        and (name not in VALIDATION_FEATURES or name in ident.features)
                    },
                }
            )
        elif kind == "configure":
            try:
                evaluator.configure(msg["ruleset"], msg.get("readings", {}))
                send({"type": "configure", "ok": True})
            except BaseException as exc:
                send({"type": "configure", "ok": False, "message": f"{exc}"})
        elif kind == "batch":
            send(
                {
                    "type": "batch",
                    "id": msg.get("id"),
                    "replies": [_answer(evaluator, r) for r in msg.get("requests", [])],
                }
            )
        elif kind == "stop":
            return 0
        else:
            send({"type": "error", "message": f"unknown message type {kind!r}"})
    return 0


def main(argv: list[str] | None = None) -> int:
    """``serve [--bridge] SPEC``: exit 0 at ``stop``, 3 for a spec that names nothing
    usable, 2 if the evaluator cannot be created.  ``--bridge`` (the harness's own
    isolation of ``py:`` adapters) declares the adapter under its plain name."""
    args = sys.argv[1:] if argv is None else list(argv)
    bridge = bool(args) and args[0] == "--bridge"
    if bridge:
        args = args[1:]
    if len(args) != 1:
        print("usage: python -m pokercert.harness.adapters.serve [--bridge] SPEC", file=sys.stderr)
        return 3
    try:
        spec = parse_spec(args[0])
        if spec.kind == "exec":
            raise SpecError("serve takes an in-process spec (a name or py:module:attr)")
        evaluator, name, version = resolve(spec)
        if bridge:  # declared as the in-process adapter would declare it
            return serve(evaluator, name, version, sys.stdin.buffer, sys.stdout.buffer)
        return serve(
            evaluator, f"serve:{name}", version or __version__, sys.stdin.buffer, sys.stdout.buffer
        )
    except SpecError as exc:
        print(f"serve: {exc}", file=sys.stderr)
        return 3
    except AdapterError as exc:
        print(f"serve: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
