"""The one error of a merge: parts that are not the parts of one whole.

Two merges raise it: a sharded run's results folders
(:func:`pokercert.harness.run.merge.merge`: shards of other runs, a shard twice, ...)
and an exhaustive pass's states
(:func:`pokercert.harness.explore.exhaustive_state.merge_states`: other runs, ranges
that overlap or leave gaps).  It lives below both, so the two name one class.
"""

from __future__ import annotations

from pokercert.reference.errors import InputError

__all__ = ["MergeError"]


class MergeError(InputError, ValueError):
    """Parts (a run's shards, an exhaustive pass's states) that do not belong together:
    other runs, a part twice, ranges that overlap or leave gaps."""
