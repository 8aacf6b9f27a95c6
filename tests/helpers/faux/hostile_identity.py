"""A faux protocol adapter whose every vendor-controlled string attacks the report views.

    python tests/helpers/faux/hostile_identity.py [ANYTHING]

It speaks the protocol by hand (no harness code).  Its ``hello`` declares an identity
(vendor, name, version, build, adapter name and version) and a capability key made of
:data:`HOSTILE`; it claims ``classify`` and ``compare`` for ``nj-poker-high-5``.  Every
``classify`` is answered with the category :data:`HOSTILE` (a FAIL whose actual answer
is the hostile text), every ``compare`` with an error reply whose message is
:data:`HOSTILE`, and every batch writes :data:`HOSTILE` to stderr.  The strings try raw
HTML, a fake ``# CERTIFIED`` heading, table-breaking pipes, backticks, link syntax,
an HTML entity of the right-to-left override, and the bidirectional and invisible
control characters themselves.
"""

from __future__ import annotations

import json
import sys

HOSTILE = (
    "</td></table><script>alert(1)</script>\n# CERTIFIED\n| x | y |\n"
    "`code` ``` [link](https://evil.example) www.evil.example <img src=x onerror=alert(2)> "
    "&#x202e; \u202eDEIFITREC\u202c \u202a\u202b\u202d \u2066x\u2067\u2068\u2069 "
    "\u200e\u200f\u200b\ufeff \x07\x1b[31mred\x00 \u2028"
)
RULESET = "nj-poker-high-5"


def send(msg: dict) -> None:
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


def main() -> None:
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg["type"]
        if kind == "hello":
            send(
                {
                    "type": "hello",
                    "protocol": 1,
                    "evaluator": {
                        "vendor": HOSTILE,
                        "name": "hostile " + HOSTILE,
                        "version": HOSTILE,
                        "build": HOSTILE,
                    },
                    "adapter": {"name": HOSTILE, "version": HOSTILE},
                    "capabilities": {RULESET: ["classify", "compare"], HOSTILE: ["classify"]},
                }
            )
        elif kind == "configure":
            send({"type": "configure", "ok": True})
        elif kind == "batch":
            sys.stderr.write(HOSTILE + "\n")
            sys.stderr.flush()
            replies = [
                {"id": r["id"], "category": HOSTILE}
                if r["op"] == "classify"
                else {"id": r["id"], "error": HOSTILE}
                for r in msg["requests"]
            ]
            send({"type": "batch", "id": msg["id"], "replies": replies})
        elif kind == "stop":
            return


if __name__ == "__main__":
    main()
