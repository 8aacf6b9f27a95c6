"""Python's cyclic garbage collector, paused over stretches that build plain data.

A certification run holds a large heap for its whole length (the corpus, the challenge,
the reference's value tables, every result so far).  Each pass of the cyclic collector
over the old generation walks all of it again, and a stretch that makes tens of thousands
of small objects (decoding a value memo, scoring vectors, building a report) starts such
passes over and over: 0.6-1.2 s of CPU in a default run before these pauses (measured
with ``gc.callbacks``).  What those stretches build is tuples, strings and dicts freed by
reference counts; a whole default run with the collector off leaves about 2,300 objects
in cycles, collected when it is back on.

:func:`paused` is the one way pokercert pauses it.  Pauses cover stretches whose size the
corpus bounds, never a stretch whose number of evaluator calls has no bound (exhaustive,
fuzz): an in-process evaluator that makes cycles on every call must not grow the heap for
the length of an exhaustive run.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["paused"]


@contextmanager
def paused(*, freeze: bool = False) -> Iterator[None]:
    """The collector off for the block, then as it was before (a collector already off
    stays off).

    ``freeze=True``: what exists when the block ends without an error is moved out of
    the collector's generations (``gc.freeze``) before the collector is back on, for a
    block that builds what lives as long as the process (the run's plan): no later pass
    walks those objects again, and the first pass after the block does not walk every
    object the block made (all of them still in the youngest generation).  Frozen objects
    are still freed by reference counts; only cycles among them stay."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
        if freeze:
            gc.freeze()
    finally:
        if was:
            gc.enable()
