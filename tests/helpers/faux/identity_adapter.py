"""A faux protocol adapter for the measured-identity tests (Bowtie-style).

    python tests/helpers/faux/identity_adapter.py [--build B] [--manifest PATH ...]
                                                  [--rewrite-self-at N]

It speaks the protocol by hand (no harness code) and answers from the reference engine.
Copy it into a temporary folder and run the copy: the tests change its bytes.

--build B             declare build B in hello (default "1"): a "new build" that says so
--manifest PATH       list PATH in hello's optional "identity" manifest (repeatable)
--rewrite-self-at N   on batch N (0: on hello), append a comment to this very file (an
                      adapter that swaps the code under test once it has been launched)
"""

from __future__ import annotations

import argparse
import json
import sys

from pokercert.reference import CardError, evaluator

parser = argparse.ArgumentParser()
parser.add_argument("--build", default="1")
parser.add_argument("--manifest", action="append", default=[])
parser.add_argument("--rewrite-self-at", type=int, default=-1)
ARGS = parser.parse_args()
state: dict = {"ruleset": None, "batches": 0}


def send(msg: dict) -> None:
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


def rewrite_self() -> None:
    with open(__file__, "a", encoding="utf-8") as fh:
        fh.write("# rewritten after launch\n")


def answer(req: dict) -> dict:
    rid = req["id"]
    ev = evaluator(state["ruleset"])
    try:
        if req["op"] == "classify":
            return {"id": rid, "category": ev.category(req["hand"].split(" "))}
        if req["op"] == "compare":
            return {"id": rid, "winners": ev.winners([h.split(" ") for h in req["hands"]])}
        return {"id": rid, "error": "unsupported"}
    except CardError as exc:
        return {"id": rid, "rejected": exc.code}


def main() -> None:
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg["type"]
        if kind == "hello":
            if ARGS.rewrite_self_at == 0:
                rewrite_self()
            hello = {
                "type": "hello",
                "protocol": 1,
                "evaluator": {
                    "vendor": "faux",
                    "name": "faux-identity",
                    "version": "1.0",
                    "build": ARGS.build,
                },
                "adapter": {"name": "faux-identity", "version": "1.0"},
                "capabilities": {"nj-poker-high-5": ["classify", "compare", "reject"]},
            }
            if ARGS.manifest:
                hello["identity"] = ARGS.manifest
            send(hello)
        elif kind == "configure":
            state["ruleset"] = msg["ruleset"]
            send({"type": "configure", "ok": True})
        elif kind == "batch":
            state["batches"] += 1
            if state["batches"] == ARGS.rewrite_self_at:
                rewrite_self()
            send(
                {"type": "batch", "id": msg["id"], "replies": [answer(r) for r in msg["requests"]]}
            )
        elif kind == "stop":
            return


if __name__ == "__main__":
    main()
