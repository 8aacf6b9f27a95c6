"""Faux ``exec:`` adapters that try to outlive the run (containment tests).

    python tests/helpers/faux/hostile_process.py MODE MARKER

Every process it starts carries MARKER on its command line, so a test can look for
survivors in ``/proc`` (or with ``ps``) after the run.  It speaks the protocol by hand
and answers from the reference engine, except where MODE says otherwise:

group-hang      at hello, fork a grandchild into its own process group (it sleeps); then
                hang on every batch (never answer)
crash-held      at hello, fork a grandchild that holds stdout open (it sleeps); then die
                (SIGSEGV) on the first batch: the harness must see a CRASH, not wait for
                an EOF that never comes
daemon          at hello, leave a daemon behind (double fork, ``setsid``, stdio closed);
                then answer correctly and stop when asked
pwd             answer correctly; report the working directory it started in on stderr
                (``cwd=PATH``) and leave a file there
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time

from pokercert.reference import CardError, evaluator

MODE = sys.argv[1] if len(sys.argv) > 1 else "daemon"
MARKER = sys.argv[2] if len(sys.argv) > 2 else "pokercert-hostile"
state: dict[str, object] = {"ruleset": None}


def send(msg: dict) -> None:
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


def sleeper(keep_stdout: bool) -> None:
    """In a forked child: become ``python -c 'sleep' MARKER`` (visible in /proc)."""
    if not keep_stdout:
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
    os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(600)", MARKER])


def start_helpers() -> None:
    if MODE == "group-hang":
        if os.fork() == 0:
            sleeper(keep_stdout=False)
    elif MODE == "crash-held":
        if os.fork() == 0:
            sleeper(keep_stdout=True)
    elif MODE == "daemon":
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                sleeper(keep_stdout=False)
            os._exit(0)
        os.wait()
    elif MODE == "pwd":
        here = os.getcwd()
        with open(os.path.join(here, "left-behind.txt"), "w") as fh:
            fh.write("x")
        sys.stderr.write(f"cwd={here}\n")
        sys.stderr.flush()


def answer(req: dict) -> dict:
    rid = req["id"]
    ev = evaluator(str(state["ruleset"]))
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
            start_helpers()
            send(
                {
                    "type": "hello",
                    "protocol": 1,
                    "evaluator": {
                        "vendor": "faux",
                        "name": f"hostile-{MODE}",
                        "version": "0",
                        "build": "test",
                    },
                    "adapter": {"name": "hostile", "version": "0"},
                    "capabilities": {"nj-poker-high-5": ["classify", "compare", "reject"]},
                }
            )
        elif kind == "configure":
            state["ruleset"] = msg["ruleset"]
            send({"type": "configure", "ok": True})
        elif kind == "batch":
            if MODE == "group-hang":
                time.sleep(3600)
            if MODE == "crash-held":
                os.kill(os.getpid(), signal.SIGSEGV)
            send(
                {"type": "batch", "id": msg["id"], "replies": [answer(r) for r in msg["requests"]]}
            )
        elif kind == "stop":
            return


if __name__ == "__main__":
    main()
