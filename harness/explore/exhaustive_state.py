"""The persisted state of an exhaustive run: progress, findings and resume.

One :class:`State` per run (or shard) is saved as ``exhaustive.json`` in the run's folder
every few seconds and at the end; ``--resume`` reopens it only for the same run
(:func:`resume_state`).  Shards are contiguous ranges of the enumeration (:func:`shard_range`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from itertools import pairwise
from pathlib import Path
from typing import Any

from pokercert.harness.merging import MergeError
from pokercert.reference.errors import InputError

STATE_FILE = "exhaustive.json"


@dataclass
class Disagreement:
    """One hand (or pair of classes) where the adapter and the reference differ."""

    check: str  # category | class | order | error
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
    mode: str  # key | compare | categories-only
    classes: int
    # the seed of the card order each hand is sent in (reference.classes.card_order);
    # None: every hand in the enumeration's order (rank descending, --sorted)
    order_seed: int | None = None
    next: int = -1
    checked: int = 0
    category_disagreements: int = 0
    class_disagreements: int = 0
    order_disagreements: int = 0
    errors: int = 0  # hands with no usable answer (each once)
    order_errors: int = 0  # class keys or class pairs with no answer
    unverifiable_hands: int = 0  # compare mode: no disjoint class member
    unverifiable_orders: int = 0  # compare mode: no disjoint pair of classes
    order_checked: bool = False
    elapsed_s: float = 0.0
    finished: bool = False
    aborted: str = ""
    disagreements: list[Disagreement] = field(default_factory=list)

    @property
    def disagreeing(self) -> int:
        return (
            self.category_disagreements
            + self.class_disagreements
            + self.order_disagreements
            + self.errors
            + self.order_errors
        )

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
        tmp.write_text(
            json.dumps(self.as_dict(), indent=2, sort_keys=True, ensure_ascii=False) + "\n",
            encoding="utf-8",
        )
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


# what the parts of one run share
_SAME_RUN = (
    "ruleset",
    "profile",
    "adapter",
    "evaluator",
    "total",
    "jokers",
    "mode",
    "classes",
    "order_seed",
)
# counted per hand of the part's range: the merged count is the sum
_PER_HAND = (
    "checked",
    "category_disagreements",
    "class_disagreements",
    "errors",
    "unverifiable_hands",
)
# counted over the classes, which every part that checks the order checks whole: the
# merged count is the one part's (the largest: parts that skipped it count 0)
_PER_CLASS = ("order_disagreements", "order_errors", "unverifiable_orders")


def merge_states(parts: Sequence[State], report_limit: int, *, gaps: bool = False) -> State:
    """One state for the parts of one run, merged by range.

    Parts are ordered by their first hand; a range given twice (a task run again after
    its worker was lost) counts once if both answers are the same, and the ranges must
    then follow one another with no overlap, and no gap unless ``gaps`` (the caller then
    says which hands are missing): every hand is counted exactly once.
    Findings are kept in range order (duplicates of the class checks once), the first
    ``report_limit`` of them, their vectors renumbered as one run would number them.
    """
    if not parts:
        raise MergeError("nothing to merge")
    first = parts[0]
    for part in parts[1:]:
        for name in _SAME_RUN:
            if getattr(part, name) != getattr(first, name):
                raise MergeError(
                    f"not parts of one run: their {name} differs "
                    f"({getattr(first, name)!r} vs {getattr(part, name)!r})"
                )
    unique: dict[tuple[int, int], State] = {}
    for part in parts:
        seen = unique.setdefault((part.start, part.stop), part)
        if _result(seen) != _result(part):
            raise MergeError(
                f"hands {part.start}..{part.stop} were checked twice with different results"
            )
    ordered = [unique[r] for r in sorted(unique)]
    for a, b in pairwise(ordered):
        if a.stop != b.start and not (gaps and a.stop < b.start):
            what = "overlap" if b.start < a.stop else "leave a gap"
            raise MergeError(f"hands {a.start}..{a.stop} and {b.start}..{b.stop} {what}")
    merged = replace(
        ordered[0],
        shard="1/1"
        if (ordered[0].start, ordered[-1].stop) == (0, first.total)
        else f"{ordered[0].start}..{ordered[-1].stop}",
        stop=ordered[-1].stop,
        next=ordered[-1].next,
        finished=all(p.finished for p in ordered),
        aborted="; ".join(p.aborted for p in ordered if p.aborted),
        elapsed_s=max(p.elapsed_s for p in ordered),
        order_checked=any(p.order_checked for p in ordered),
    )
    for name in _PER_HAND:
        setattr(merged, name, sum(getattr(p, name) for p in ordered))
    for name in _PER_CLASS:
        setattr(merged, name, max(getattr(p, name) for p in ordered))
    findings: list[Disagreement] = []
    seen_findings: set[tuple[str, tuple[str, ...], str]] = set()
    for part in ordered:
        for d in part.disagreements:
            mark = (d.check, tuple(d.hands), d.message)
            if mark not in seen_findings:
                seen_findings.add(mark)
                findings.append(d)
    merged.disagreements = _renumbered(first.ruleset, findings[:report_limit])
    return merged


def _result(state: State) -> dict[str, Any]:
    return {k: v for k, v in state.as_dict().items() if k != "elapsed_s"}


def _renumbered(ruleset: str, findings: list[Disagreement]) -> list[Disagreement]:
    """The findings' vectors with the ids one run hands out: the next free ones, in order."""
    from pokercert.vectors.ids import next_ids

    with_vector = [d for d in findings if d.vector]
    ids = next_ids(ruleset, len(with_vector)) if with_vector else []
    out = []
    fresh = iter(ids)
    for d in findings:
        if d.vector:
            old, new = d.vector["id"], next(fresh)
            d = replace(
                d,
                vector={**d.vector, "id": new},
                toml=d.toml.replace(f'id = "{old}"', f'id = "{new}"', 1),
            )
        out.append(d)
    return out


class ResumeError(InputError, ValueError):
    """``--resume`` on a folder whose run differs from the one asked for."""


# what must be the same for a run to go on from a saved state
_RESUME_MUST_MATCH = (
    "ruleset",
    "profile",
    "adapter",
    "evaluator",
    "shard",
    "start",
    "stop",
    "jokers",
    "mode",
    "order_seed",
)


def resume_state(folder: Path, fresh: State) -> State:
    """The state saved in ``folder``, reopened to go on, if it is the run ``fresh``
    describes (:class:`ResumeError` if not); ``fresh`` where nothing is saved."""
    old = load_state(folder)
    if old is None:
        return fresh
    for name in _RESUME_MUST_MATCH:
        if getattr(old, name) != getattr(fresh, name):
            raise ResumeError(
                f"cannot resume {folder}: its {name} differs "
                f"({getattr(old, name)!r} vs {getattr(fresh, name)!r})"
            )
    old.finished = False
    old.aborted = ""
    return old
