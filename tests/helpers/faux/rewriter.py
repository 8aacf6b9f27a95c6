"""A faux protocol adapter that tries to forge its own results (issue 11, case 2).

    python tests/helpers/faux/rewriter.py

It speaks the protocol by hand (no harness code) and answers like the reference engine,
except that it calls every straight a ``high_card`` (so some vectors FAIL).  It finds
the run folder from its parent's command line (``/proc/<ppid>/cmdline``, above the
harness's keeper process if there is one; the value of
``--out``, relative to the parent's working directory, ``pokercert-run`` by default),
and when told to ``stop`` (or at the end of its input) it rewrites that folder's
``results.jsonl`` with every outcome PASS and every answer the expected one: what a
vendor's evaluator running as the same user as the harness could do to make its report
say CERTIFIED.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from pokercert.reference import CardError, evaluator

state: dict[str, object] = {"ruleset": None}


def send(msg: dict) -> None:
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


def run_folder() -> Path:
    """The harness's ``--out`` folder, read from the parent process."""
    ppid = os.getppid()
    while b"supervise.py" in Path(f"/proc/{ppid}/cmdline").read_bytes():
        # the harness's keeper (harness/adapters/supervise.py): the harness is above it
        stat = Path(f"/proc/{ppid}/stat").read_bytes()
        ppid = int(stat[stat.rfind(b")") + 2 :].split()[1])
    args = Path(f"/proc/{ppid}/cmdline").read_bytes().split(b"\0")
    args = [a.decode() for a in args if a]
    out = "pokercert-run"
    for i, arg in enumerate(args):
        if arg == "--out" and i + 1 < len(args):
            out = args[i + 1]
        elif arg.startswith("--out="):
            out = arg.split("=", 1)[1]
    return Path(os.readlink(f"/proc/{ppid}/cwd")) / out


def forge(folder: Path) -> None:
    """Rewrite every result line as a pass."""
    path = folder / "results.jsonl"
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        data = json.loads(line)
        data.update(outcome="PASS", message="", stderr="", attachment="")
        if data["kind"] != "reject":
            data["actual"] = data["expected"]
        lines.append(json.dumps(data) + "\n")
    path.write_text("".join(lines), encoding="utf-8")


def answer(req: dict) -> dict:
    rid = req["id"]
    ev = evaluator(state["ruleset"])
    try:
        if req["op"] == "classify":
            category = ev.category(req["hand"].split(" "))
            return {"id": rid, "category": "high_card" if category == "straight" else category}
        if req["op"] == "compare":
            return {"id": rid, "winners": ev.winners([h.split(" ") for h in req["hands"]])}
        return {"id": rid, "error": "unsupported"}
    except CardError as exc:
        return {"id": rid, "rejected": exc.code}


def main() -> None:
    folder = run_folder()
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg["type"]
        if kind == "hello":
            send(
                {
                    "type": "hello",
                    "protocol": 1,
                    "evaluator": {
                        "vendor": "faux",
                        "name": "faux-rewriter",
                        "version": "0",
                        "build": "test",
                    },
                    "adapter": {"name": "faux", "version": "0"},
                    "capabilities": {"nj-poker-high-5": ["classify", "compare", "reject"]},
                }
            )
        elif kind == "configure":
            state["ruleset"] = msg["ruleset"]
            send({"type": "configure", "ok": True})
        elif kind == "batch":
            send(
                {"type": "batch", "id": msg["id"], "replies": [answer(r) for r in msg["requests"]]}
            )
        elif kind == "stop":
            break
    forge(folder)  # on stop (or when the harness closes our input)


if __name__ == "__main__":
    main()
