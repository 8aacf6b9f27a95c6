"""A faux protocol adapter that answers nothing (Bowtie style).

    python tests/helpers/faux/silent.py [many]

It speaks the protocol by hand, claims classify and compare for nj-poker-high-3 (and,
with ``many``, the features classify_many and evaluate_many), and replies to every
request with its id alone: no category, no winners, no keys.  Every hand of an
exhaustive pass is then one error, however many requests the harness sent for it.
"""

from __future__ import annotations

import json
import sys

MANY = sys.argv[1:] == ["many"]


def send(msg: dict) -> None:
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


def main() -> None:
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "hello":
            send(
                {
                    "type": "hello",
                    "protocol": 1,
                    "evaluator": {"vendor": "faux", "name": "faux-silent", "version": "0"},
                    "adapter": {"name": "faux", "version": "0"},
                    "capabilities": {"nj-poker-high-3": ["classify", "compare"]},
                    **({"features": {"classify_many": 1, "evaluate_many": 1}} if MANY else {}),
                }
            )
        elif msg["type"] == "configure":
            send({"type": "configure", "ok": True})
        elif msg["type"] == "batch":
            send(
                {
                    "type": "batch",
                    "id": msg["id"],
                    "replies": [{"id": r["id"]} for r in msg["requests"]],
                }
            )
        elif msg["type"] == "stop":
            return


if __name__ == "__main__":
    main()
