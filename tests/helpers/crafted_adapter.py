"""A hostile ``exec:`` adapter whose batch replies are crafted item by item.

Each request of a batch is answered ``{"id": <its id>, <crafted text>}``, the crafted
texts taken in turn (request ``k`` gets ``crafted[k % len(crafted)]``): the tests of a
reply's reading (the general one and the quick ones) set exactly what an adapter says.
"""

from __future__ import annotations

import sys
from pathlib import Path

from pokercert.harness.adapters import AdapterOptions, load_adapter
from pokercert.harness.adapters.base import Adapter

SCRIPT = r"""
import json, sys
CRAFTED, KINDS = %r, %r
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        out = {"type": "hello", "protocol": 1, "capabilities": {"nj-poker-high-5": KINDS},
               "evaluator": {"vendor": "t", "name": "crafted", "version": "0"},
               "adapter": {"name": "t", "version": "0"}, "features": {}}
        sys.stdout.write(json.dumps(out) + "\n")
    elif m["type"] == "configure":
        sys.stdout.write(json.dumps({"type": "configure", "ok": True}) + "\n")
    elif m["type"] == "batch":
        items = ",".join('{"id": %%d, %%s}' %% (r["id"], CRAFTED[k %% len(CRAFTED)])
                         for k, r in enumerate(m["requests"]))
        sys.stdout.write('{"type": "batch", "id": %%d, "replies": [%%s]}\n' %% (m["id"], items))
    else:
        break
    sys.stdout.flush()
"""


def crafted_adapter(
    folder: Path, crafted: list[str], kinds: tuple[str, ...] = ("compare",)
) -> Adapter:
    """The adapter (not started) of a script in ``folder`` answering ``crafted``,
    claiming ``kinds`` of nj-poker-high-5."""
    script = folder / "crafted.py"
    script.write_text(SCRIPT % (crafted, list(kinds)), encoding="utf-8")
    return load_adapter(f"exec:{sys.executable} {script}", AdapterOptions(timeout=20))


def reply_line(*texts: str, head: str = '"type": "batch", "id": 7', tail: str = "") -> str:
    """A batch reply line written by hand: ``head``, then the reply items ``texts``, then
    ``tail`` (what a crafted adapter writes for a test of how it is read)."""
    return '{%s, "replies": [%s]%s}' % (head, ", ".join(texts), tail)  # noqa: UP031
