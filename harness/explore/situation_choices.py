"""The two backends of :class:`~pokercert.vectors.dealing.Choices` for the situation
strategies: Hypothesis draws (:class:`DrawChoices`) and a seeded ``random.Random``
(:class:`SeededChoices`)."""

from __future__ import annotations

import random
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # Hypothesis is imported where a strategy is built: the seeded
    # sampler (fuzz, the challenge's fresh deals) never needs it
    from hypothesis import strategies as st

__all__ = ["DrawChoices", "SeededChoices"]

# Every situation is built from one primitive, "an index below n" (:class:`Choices`), with
# two backends: Hypothesis draws (so a failing deal shrinks) and a seeded random.Random
# (byte-identical deals for a seed on any machine).  A seeded deal records its indices;
# replayed as Hypothesis choices they rebuild the same deal, which Hypothesis can then
# shrink (``fuzz`` does so with the first disagreement it finds).

_WIDE = 1 << 24


@cache
def _index(n: int) -> st.SearchStrategy[int]:
    """An index below n, spread evenly: Hypothesis draws small ranges unevenly (a few
    values most of the time), so the draw is wide and taken modulo n; it still shrinks
    to 0, the first (simplest) option, and a recorded seeded index i < n replays as i."""
    from hypothesis import strategies as st

    if n > _WIDE:
        return st.integers(0, n - 1)
    return st.integers(0, _WIDE - 1).map(lambda x: x % n)


class DrawChoices:
    """Choices drawn by Hypothesis (inside ``@st.composite`` or ``data().draw``)."""

    def __init__(self, draw: st.DrawFn) -> None:
        self.draw = draw

    def index(self, n: int) -> int:
        return 0 if n <= 1 else self.draw(_index(n))


class SeededChoices:
    """Choices from ``random.Random(seed)``: the same seed gives the same indices on any
    machine and Python run (string seeds are hashed with SHA-512 by ``random``, not by
    the process's salted ``hash``).  ``record`` keeps every index in order, the choice
    sequence that replays this deal in Hypothesis."""

    def __init__(self, seed: int | str) -> None:
        self.rng = random.Random(seed)
        self.record: list[int] = []

    def index(self, n: int) -> int:
        if n <= 1:
            return 0
        value = self.rng.randrange(n)
        self.record.append(value)
        return value
