"""A hostile ``exec:`` adapter whose batch replies are crafted item by item.

Each request of a batch is answered ``{"id": <its id>, <crafted text>}``, the crafted
texts taken in turn (request ``k`` gets ``crafted[k % len(crafted)]``): the tests of a
reply's reading (the general one and the quick ones) set exactly what an adapter says.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

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


def protocol_items(line: str, batch_id: int, ids: range, field: str) -> list[Any] | None:
    """The ``field`` of each item of a batch reply line, read as PROTOCOL.md says with the
    json module (a test oracle, apart from the harness's reading): the envelope holds
    ``type`` "batch", the batch's integer id and ``replies`` and nothing else; each item,
    in the order of ``ids``, holds its integer id and ``field`` and nothing else.  None
    where the line is anything else."""
    try:
        msg = json.loads(line)
    except ValueError:
        return None
    if not isinstance(msg, dict) or set(msg) != {"type", "id", "replies"}:
        return None
    if msg["type"] != "batch" or type(msg["id"]) is not int or msg["id"] != batch_id:
        return None
    items = msg["replies"]
    if type(items) is not list or len(items) != len(ids):
        return None
    out = []
    for rid, item in zip(ids, items, strict=True):
        if type(item) is not dict or set(item) != {"id", field}:
            return None
        if type(item["id"]) is not int or item["id"] != rid:
            return None
        out.append(item[field])
    return out
