"""The persisted state of an exhaustive run: progress, findings and resume.

One :class:`State` per run (or shard) is saved as ``exhaustive.json`` in the run's folder
every few seconds and at the end; ``--resume`` reopens it only for the same run
(:func:`resume_state`).  Shards are contiguous ranges of the enumeration (:func:`shard_range`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pokercert.reference.errors import InputError

STATE_FILE = "exhaustive.json"

@dataclass
class Disagreement:
    """One hand (or pair of classes) where the adapter and the reference differ."""

    check: str                 # category | class | order | error
    hands: list[str]
    message: str
    vector: dict[str, Any] | None = None
    toml: str = ""


@dataclass
class State:
    """Progress and findings of one exhaustive run (or shard), saved as exhaustive.json."""

    ruleset: str
    profile: dict[str, Any]
    adapter: str
    evaluator: dict[str, Any]
    shard: str
    start: int
    stop: int
    total: int
    jokers: int
    mode: str                                # key | compare | categories-only
    classes: int
    # the seed of the card order each hand is sent in (reference.classes.card_order);
    # None: every hand in the enumeration's order (rank descending, --sorted)
    order_seed: int | None = None
    next: int = -1
    checked: int = 0
    category_disagreements: int = 0
    class_disagreements: int = 0
    order_disagreements: int = 0
    errors: int = 0                          # hands with no usable answer (each once)
    order_errors: int = 0                    # class keys or class pairs with no answer
    unverifiable_hands: int = 0              # compare mode: no disjoint class member
    unverifiable_orders: int = 0             # compare mode: no disjoint pair of classes
    order_checked: bool = False
    elapsed_s: float = 0.0
    finished: bool = False
    aborted: str = ""
    disagreements: list[Disagreement] = field(default_factory=list)

    @property
    def disagreeing(self) -> int:
        return (self.category_disagreements + self.class_disagreements
                + self.order_disagreements + self.errors + self.order_errors)

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["agrees"] = self.finished and not self.disagreeing
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> State:
        known = {f for f in cls.__dataclass_fields__}
        kwargs = {k: v for k, v in data.items() if k in known}
        kwargs["disagreements"] = [Disagreement(**d) for d in data.get("disagreements", [])]
        return cls(**kwargs)

    def save(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / (STATE_FILE + ".tmp")
        tmp.write_text(json.dumps(self.as_dict(), indent=2, sort_keys=True,
                                  ensure_ascii=False) + "\n", encoding="utf-8")
        tmp.replace(folder / STATE_FILE)


def load_state(folder: Path) -> State | None:
    """The state saved in ``folder``, or None if there is none."""
    path = folder / STATE_FILE
    if not path.exists():
        return None
    return State.from_dict(json.loads(path.read_text(encoding="utf-8")))


def shard_range(total: int, k: int, n: int) -> tuple[int, int]:
    """Positions of shard k of n (1-based): contiguous, together exactly [0, total)."""
    return (k - 1) * total // n, k * total // n



class ResumeError(InputError, ValueError):
    """``--resume`` on a folder whose run differs from the one asked for."""


# what must be the same for a run to go on from a saved state
_RESUME_MUST_MATCH = ("ruleset", "profile", "adapter", "evaluator", "shard", "start", "stop",
                      "jokers", "mode", "order_seed")


def resume_state(folder: Path, fresh: State) -> State:
    """The state saved in ``folder``, reopened to go on, if it is the run ``fresh``
    describes (:class:`ResumeError` if not); ``fresh`` where nothing is saved."""
    old = load_state(folder)
    if old is None:
        return fresh
    for name in _RESUME_MUST_MATCH:
        if getattr(old, name) != getattr(fresh, name):
            raise ResumeError(f"cannot resume {folder}: its {name} differs "
                              f"({getattr(old, name)!r} vs {getattr(fresh, name)!r})")
    old.finished = False
    old.aborted = ""
    return old
