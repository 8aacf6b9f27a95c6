"""A faux protocol adapter that misbehaves on purpose (Bowtie-style harness tests).

    python tests/helpers/faux/adapter.py MODE [ARG]

It speaks the protocol by hand (no harness code) and answers from the reference engine,
except where MODE says otherwise:

ok                    behave
crash-on HAND         die (SIGSEGV) on a request whose hand is HAND
hang-on HAND          never answer a batch holding HAND
spin-on HAND          burn CPU forever on a batch holding HAND
alloc-on HAND         try to allocate 4 GiB on a batch holding HAND
garbage               answer every batch with a line that is not JSON
wrong-ids             answer with ids shifted by 1000
drop                  leave out every other reply item
exit-after N          exit with status 0 on reading batch N+1 (N batches per process)
exit-at-configure     exit with status 0 on reading configure
flood-stderr          write 3 MB to stderr at start and 100 kB per batch
flood-stdout          write a 2 MB line without a newline instead of a batch reply
version               say hello with protocol version 99
wrong-answers         classify everything high_card, winners always [0], accept all input
no-reason             refuse invalid input without a reason code
many-short            (with +many) answer classify_many with one category too few
many-garbage          (with +many) answer the second hand of classify_many with 42

A MODE ending in ``+many`` also declares the protocol features classify_many and
evaluate_many (PROTOCOL.md, section 6) and answers them (keys: the engine's key).
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time

from pokercert.reference import CardError, evaluator

MODE, _, EXTRA = (sys.argv[1] if len(sys.argv) > 1 else "ok").partition("+")
MANY = EXTRA == "many"
ARG = sys.argv[2] if len(sys.argv) > 2 else ""
state = {"ruleset": None, "batches": 0}


def send(msg: dict) -> None:
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


def hands_of(req: dict) -> list[str]:
    return [req["hand"]] if "hand" in req else list(req.get("hands", []))


def answer_many(req: dict) -> dict:
    ev = evaluator(state["ruleset"])
    categories, keys = [], []
    for hand in req["hands"]:
        try:
            value = ev.evaluate(hand.split(" "))
            categories.append(value.category)
            keys.append(list(value.key))
        except CardError as exc:
            categories.append({"rejected": exc.code, "message": str(exc)})
            keys.append(None)
    if MODE == "many-short":
        categories.pop()
    if MODE == "many-garbage" and len(categories) > 1:
        categories[1] = 42
    out = {"id": req["id"], "categories": categories}
    if req["op"] == "evaluate_many":
        out["keys"] = keys
    return out


def answer(req: dict) -> dict:
    rid = req["id"]
    if req["op"] in ("classify_many", "evaluate_many"):
        return answer_many(req)
    ev = evaluator(state["ruleset"])
    if MODE == "wrong-answers":
        return (
            {"id": rid, "category": "high_card"}
            if req["op"] == "classify"
            else {"id": rid, "winners": [0]}
        )
    try:
        if req["op"] == "classify":
            return {"id": rid, "category": ev.category(req["hand"].split(" "))}
        if req["op"] == "compare":
            return {"id": rid, "winners": ev.winners([h.split(" ") for h in req["hands"]])}
        return {"id": rid, "error": "unsupported"}
    except CardError as exc:
        return {"id": rid, "rejected": None if MODE == "no-reason" else exc.code}


def main() -> None:
    if MODE == "flood-stderr":
        sys.stderr.write("x" * 3_000_000 + "\n")
        sys.stderr.flush()
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg["type"]
        if kind == "hello":
            send(
                {
                    "type": "hello",
                    "protocol": 99 if MODE == "version" else 1,
                    "evaluator": {
                        "vendor": "faux",
                        "name": f"faux-{MODE}",
                        "version": "0",
                        "build": "test",
                    },
                    "adapter": {"name": "faux", "version": "0"},
                    "capabilities": {"nj-poker-high-5": ["classify", "compare", "reject"]},
                    **({"features": {"classify_many": 1, "evaluate_many": 1}} if MANY else {}),
                }
            )
        elif kind == "configure":
            if MODE == "exit-at-configure":
                sys.exit(0)
            state["ruleset"] = msg["ruleset"]
            send({"type": "configure", "ok": True})
        elif kind == "batch":
            state["batches"] += 1
            requests = msg["requests"]
            hands = [h for r in requests for h in hands_of(r)]
            if MODE == "crash-on" and ARG in hands:
                os.kill(os.getpid(), signal.SIGSEGV)
            if MODE == "hang-on" and ARG in hands:
                time.sleep(3600)
            if MODE == "spin-on" and ARG in hands:
                while True:
                    pass
            if MODE == "alloc-on" and ARG in hands:
                hog = bytearray(4 << 30)
                send({"type": "error", "message": f"allocated {len(hog)} bytes"})
            if MODE == "exit-after" and state["batches"] > int(ARG):
                sys.exit(0)
            if MODE == "flood-stderr":
                sys.stderr.write("y" * 100_000 + "\n")
                sys.stderr.flush()
            if MODE == "garbage":
                sys.stdout.write("Segmentation fault? no: just garbage {{{\n")
                sys.stdout.flush()
                continue
            if MODE == "flood-stdout":
                sys.stdout.write("z" * 2_000_000)
                sys.stdout.flush()
                time.sleep(3600)
            replies = [answer(r) for r in requests]
            if MODE == "wrong-ids":
                for r in replies:
                    r["id"] += 1000
            if MODE == "drop":
                replies = replies[::2]
            send({"type": "batch", "id": msg["id"], "replies": replies})
        elif kind == "stop":
            return


if __name__ == "__main__":
    main()
