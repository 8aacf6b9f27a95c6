"""A faux protocol adapter that is wrong early and later dies for good (Bowtie style).

    python tests/helpers/faux/dies_later.py COUNT_FILE N
    python tests/helpers/faux/dies_later.py --on-hand SWITCH_FILE "CARD CARD CARD"

It speaks the protocol by hand, claims classify and compare for nj-poker-high-3 with
the features classify_many and evaluate_many, and answers from the reference engine,
except:

* a hand holding the three aces As Ah Ad (the first hand of the enumeration) is called
  ``high_card`` (a wrong category, early in an exhaustive pass);
* it counts the batches it has read, over all its processes, in COUNT_FILE; from the
  N-th on it exits at once on reading a batch, in every process started after that too,
  as a library that has corrupted its own state on disk would: the harness restarts it
  until its restart budget is spent and gives up;
* or, with ``--on-hand``, while SWITCH_FILE exists it exits at once on reading a batch
  that holds the hand given (its cards in any order), in every process too, as a library
  that crashes on one input would: the harness gives up on the range of that hand.
  Without the file it answers every hand: the same evaluator, mended, for a resume.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from pokercert.reference import CardError, evaluator

ON_HAND = sys.argv[1] == "--on-hand"
if ON_HAND:
    SWITCH, TRIGGER = Path(sys.argv[2]), frozenset(sys.argv[3].split())
else:
    COUNT, LAST = Path(sys.argv[1]), int(sys.argv[2])
ACES = {"As", "Ah", "Ad"}
state: dict[str, str] = {}


def send(msg: dict) -> None:
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


def value(hand: str) -> tuple[object, object]:
    try:
        v = evaluator(state["ruleset"]).evaluate(hand.split(" "))
    except CardError as exc:
        return {"rejected": exc.code}, None
    return ("high_card" if set(hand.split(" ")) >= ACES else v.category), list(v.key)


def answer(req: dict) -> dict:
    if req["op"] in ("classify_many", "evaluate_many"):
        pairs = [value(h) for h in req["hands"]]
        out = {"id": req["id"], "categories": [c for c, _ in pairs]}
        if req["op"] == "evaluate_many":
            out["keys"] = [k for _, k in pairs]
        return out
    if req["op"] == "classify":
        return {"id": req["id"], "category": value(req["hand"])[0]}
    if req["op"] == "compare":
        ev = evaluator(state["ruleset"])
        return {"id": req["id"], "winners": ev.winners([h.split(" ") for h in req["hands"]])}
    return {"id": req["id"], "error": "unsupported"}


def dies_on(requests: list[dict]) -> bool:
    """Whether this batch ends the process (see the module's docstring)."""
    if ON_HAND:
        return SWITCH.exists() and any(
            frozenset(h.split()) == TRIGGER
            for r in requests
            for h in [*r.get("hands", []), *filter(None, [r.get("hand")])]
        )
    seen = int(COUNT.read_text()) if COUNT.exists() else 0
    COUNT.write_text(str(seen + 1))
    return seen + 1 >= LAST


def main() -> None:
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "hello":
            send(
                {
                    "type": "hello",
                    "protocol": 1,
                    "evaluator": {"vendor": "faux", "name": "faux-dies-later", "version": "0"},
                    "adapter": {"name": "faux", "version": "0"},
                    "capabilities": {"nj-poker-high-3": ["classify", "compare"]},
                    "features": {"classify_many": 1, "evaluate_many": 1},
                }
            )
        elif msg["type"] == "configure":
            state["ruleset"] = msg["ruleset"]
            send({"type": "configure", "ok": True})
        elif msg["type"] == "batch":
            if dies_on(msg["requests"]):
                os._exit(3)
            send(
                {"type": "batch", "id": msg["id"], "replies": [answer(r) for r in msg["requests"]]}
            )
        elif msg["type"] == "stop":
            return


if __name__ == "__main__":
    main()
