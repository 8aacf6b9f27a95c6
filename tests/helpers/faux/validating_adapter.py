"""A faux protocol adapter that validates input by PROTOCOL.md section 3, in its own code.

    python tests/helpers/faux/validating_adapter.py MODE

It speaks the protocol by hand and validates every card string with its own reading of
section 3 (no harness or reference parser code); valid inputs are answered by the
reference engine.  MODE says which reading:

text            section 3 to the letter, cards checked before the count; names input_rules
count-first     the same, but the count checked first (another order: any fault passes)
old             section 3 to the letter but names no feature (an adapter from before 3.3)
literal-split   splits "" into one empty token (bad-card: the trap 3.1 removes)
ignore-board    names input_rules but ignores a board the ruleset does not use
invented        names input_rules; refuses every invalid input as joker-not-allowed
bad-pocket      section 3 to the letter, but every pocket hand is high_card (an evaluator
                wrong on its last-claimed ruleset only)
hang-pocket     section 3 to the letter, but never answers a batch holding the pocket aces
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

from pokercert.reference import evaluator, get_ruleset

MODE = sys.argv[1] if len(sys.argv) > 1 else "text"
RANKS, SUITS = "23456789TJQKA", "shdc"
state: dict[str, Any] = {"ruleset": None}


def tokens(text: str) -> list[str]:
    if MODE == "literal-split":
        return text.split(" ")
    return text.split(" ") if text else []


def faults(groups: list[tuple[str, int]], too_few_hands: bool, unused_field: bool) -> list[str]:
    """Every fault of a deal, in this adapter's order of checks."""
    jokers = get_ruleset(state["ruleset"]).jokers
    count = too_few_hands or unused_field or any(len(tokens(t)) != n for t, n in groups)
    found: list[str] = ["wrong-count"] if count and MODE == "count-first" else []
    seen: list[str] = []
    for text, _ in groups:
        for tok in tokens(text):
            if tok == "Xx":
                if jokers == 0:
                    found.append("joker-not-allowed")
                elif seen.count("Xx") >= jokers:
                    found.append("duplicate-card")
            elif len(tok) != 2 or tok[0] not in RANKS or tok[1] not in SUITS:
                found.append("bad-card")
                continue
            elif tok in seen:
                found.append("duplicate-card")
            seen.append(tok)
    if count and MODE != "count-first":
        found.append("wrong-count")
    return found


def answer(req: dict[str, Any]) -> dict[str, Any]:
    rs = get_ruleset(state["ruleset"])
    sel = rs.selection
    op = req["op"]
    board = req.get("board")
    unused = board is not None and sel is None and MODE != "ignore-board"
    if op == "classify":
        found = faults([(req["hand"], rs.hand_size)], False, False)
    elif op == "compare":
        per = sel.hole if (board is not None and sel) else rs.hand_size
        groups = [(h, per) for h in req["hands"]]
        if board is not None and sel is not None:
            groups.append((board, sel.board))
        found = faults(groups, len(req["hands"]) < 2, unused)
    else:
        assert sel is not None
        found = faults([(req["hole"], sel.hole), (board, sel.board)], False, False)
    if found:
        code = "joker-not-allowed" if MODE == "invented" else found[0]
        return {"rejected": code, "message": f"faults: {', '.join(found)}"}
    ev = evaluator(state["ruleset"])
    if MODE == "bad-pocket" and state["ruleset"] == "nj-mini-tex-pocket" and op == "classify":
        return {"category": "high_card"}
    if op == "classify":
        return {"category": ev.category(req["hand"])}
    if op == "compare":
        return {"winners": ev.winners(req["hands"], board if sel is not None else None)}
    best = ev.best_hand(req["hole"], board)
    return {"cards": " ".join(str(c) for c in best.cards), "category": best.category}


def main() -> None:
    for line in sys.stdin:
        msg = json.loads(line)
        if MODE == "hang-pocket" and ("As Ah" in line or "Ah As" in line):  # either order
            time.sleep(3600)
        if msg["type"] == "hello":
            features = {} if MODE in ("old", "literal-split") else {"input_rules": 1}
            caps = {
                "nj-poker-high-5": ["classify", "compare", "reject"],
                "nj-mini-tex-3": ["classify", "compare", "best_hand", "reject"],
                "nj-mini-tex-pocket": ["classify", "reject"],
            }
            reply: dict[str, Any] = {
                "type": "hello",
                "protocol": 1,
                "evaluator": {
                    "vendor": "tests",
                    "name": f"validating-{MODE}",
                    "version": "1",
                    "build": "0",
                },
                "adapter": {"name": "validating-adapter", "version": "1"},
                "capabilities": caps,
                "features": features,
            }
        elif msg["type"] == "configure":
            state["ruleset"] = msg["ruleset"]
            reply = {"type": "configure", "ok": True}
        elif msg["type"] == "batch":
            reply = {
                "type": "batch",
                "id": msg["id"],
                "replies": [{"id": r["id"], **answer(r)} for r in msg["requests"]],
            }
        else:
            return
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
