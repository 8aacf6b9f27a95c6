"""An independent canonical form for tests (issue 26): the 24 suit relabellings by brute
force, card by card, with nothing of :mod:`pokercert.harness.canonical_form` in it."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import permutations
from typing import Any

SUITS = "shdc"


def brute_form(ruleset: str, op: str, inputs: Mapping[str, Any]) -> tuple[Any, ...]:
    """The smallest, over every relabelling of the suits, of: each hand's (hole cards',
    board's) tokens sorted, the hands sorted (a token that is no card stays)."""
    out = []
    extra = tuple(
        sorted(
            (k, str(v))
            for k, v in inputs.items()
            if k not in ("hand", "hole", "board", "hands", "op")
        )
    )
    for order in permutations(SUITS):
        relabel = dict(zip(SUITS, order, strict=True))
        out.append(
            (
                tuple(sorted(_cards(h, relabel) for h in inputs.get("hands", ()))),
                tuple(
                    (k, _cards(inputs[k], relabel))
                    for k in ("hand", "hole", "board")
                    if k in inputs
                ),
                extra,
            )
        )
    return (ruleset, op, min(out))


def _cards(text: Any, relabel: Mapping[str, str]) -> str:
    tokens = text.split() if isinstance(text, str) else list(text)
    return " ".join(
        sorted(t[0] + relabel[t[1]] if len(t) == 2 and t[1] in relabel else t for t in tokens)
    )
