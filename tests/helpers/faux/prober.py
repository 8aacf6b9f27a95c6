"""A faux protocol adapter that tries to reach what a sandbox must keep from it.

    python tests/helpers/faux/prober.py PROBE [PROBE ...]

It speaks the protocol by hand (standard library only: no pokercert code, which the
sandbox may hide), claims compare for nj-poker-high-5 and answers every request with
player 0 winning.  On ``configure`` (in a run: after run.json and the stderr capture
exist) it tries every PROBE and writes one JSON line per probe to stderr,
``{"probe": PROBE, "ok": true|false, "found": ..., "error": "..."}``:

list:PATH        list a folder (found: how many entries it shows)
read:PATH        read a file (found: how many bytes)
write:PATH       create a file (``tmp`` as PATH: a file in $TMPDIR; a relative PATH: in
                 the working directory)
connect:PORT     connect to 127.0.0.1:PORT
unix:PATH        connect to the Unix socket PATH
"""

from __future__ import annotations

import json
import os
import socket
import sys
import tempfile


def send(msg: dict) -> None:
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


def attempt(probe: str) -> dict:
    kind, _, arg = probe.partition(":")
    out: dict = {"probe": probe, "ok": False, "found": None, "error": ""}
    try:
        if kind == "list":
            out["found"] = len(os.listdir(arg))
        elif kind == "read":
            with open(arg, "rb") as fh:
                out["found"] = len(fh.read())
        elif kind == "write":
            path = os.path.join(tempfile.gettempdir(), "probe") if arg == "tmp" else arg
            with open(path, "w") as fh:
                fh.write("written by the adapter\n")
            out["found"] = os.path.abspath(path)
        elif kind == "connect":
            with socket.create_connection(("127.0.0.1", int(arg)), timeout=5):
                out["found"] = int(arg)
        elif kind == "unix":
            with socket.socket(socket.AF_UNIX) as sock:
                sock.settimeout(5)
                sock.connect(arg)
                out["found"] = arg
        else:
            raise ValueError(f"unknown probe {probe!r}")
        out["ok"] = True
    except (OSError, ValueError) as exc:
        out["error"] = f"{type(exc).__name__}: {exc}"
    return out


def main() -> None:
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "hello":
            send(
                {
                    "type": "hello",
                    "protocol": 1,
                    "evaluator": {"vendor": "faux", "name": "faux-prober", "version": "0"},
                    "adapter": {"name": "faux", "version": "0"},
                    "capabilities": {"nj-poker-high-5": ["compare"]},
                }
            )
        elif msg["type"] == "configure":
            for probe in sys.argv[1:]:
                sys.stderr.write(json.dumps(attempt(probe)) + "\n")
            sys.stderr.flush()
            send({"type": "configure", "ok": True})
        elif msg["type"] == "batch":
            send(
                {
                    "type": "batch",
                    "id": msg["id"],
                    "replies": [{"id": r["id"], "winners": [0]} for r in msg["requests"]],
                }
            )
        elif msg["type"] == "stop":
            return


if __name__ == "__main__":
    main()
