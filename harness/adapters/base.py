"""What every adapter gives the runner, whatever is behind it.

An adapter turns *requests* (plain dicts, exactly the request objects of the subprocess
protocol without their ids: ``{"op": "classify", "hand": ["As", ...]}``) into
:class:`Reply` objects.  The runner never sees how: a Python object in this process
(:mod:`.inprocess`) or a child process speaking JSON Lines (:mod:`.process`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, NamedTuple

from pokercert.harness.api import OPERATIONS

_EMPTY: Mapping[str, Any] = MappingProxyType({})

# what happened to one request
ANSWERED = "answered"     # data holds the answer fields (category / winners / cards)
REJECTED = "rejected"     # data["rejected"] holds the reason code, or None
ERROR = "error"           # the adapter raised, or answered malformed
TIMEOUT = "timeout"       # no answer within the per-request timeout
CRASH = "crash"           # the evaluator process died while this request was outstanding
STATUSES = (ANSWERED, REJECTED, ERROR, TIMEOUT, CRASH)


class Reply(NamedTuple):
    """The adapter's reply to one request, or what the harness saw instead of one.

    (A named tuple rather than a dataclass: one is made per hand, hundreds of
    thousands a second on the exhaustive path.)
    """

    status: str
    data: Mapping[str, Any] = _EMPTY
    message: str = ""
    stderr: str = ""        # excerpt of the child's stderr around this request
    attachment: str = ""    # file name (under attachments/) of the whole stderr capture
    duration_s: float = 0.0


@dataclass(frozen=True)
class Identity:
    """Who answered: declared by the adapter at the handshake."""

    evaluator: Mapping[str, Any]           # vendor / name / version / build
    adapter: Mapping[str, Any]             # name / version
    capabilities: Mapping[str, Sequence[str]]
    protocol: int | None = None            # subprocess adapters only

    def claims(self, ruleset: str, kind: str) -> bool:
        return kind in self.capabilities.get(ruleset, ())


class AdapterError(Exception):
    """The adapter cannot be used at all (failed to start, failed the handshake, ...)."""


class AdapterAborted(AdapterError):
    """The harness gave up on the adapter mid-run (restart budget or run time exhausted)."""


class Adapter:
    """Base class of the two adapter kinds; use as a context manager."""

    spec: str = ""

    def start(self) -> Identity:
        """Load or launch the evaluator and return its declared identity."""
        raise NotImplementedError

    def configure(self, ruleset: str, readings: Mapping[str, str]) -> None:
        """Select the ruleset and readings; raise :class:`AdapterError` if refused."""
        raise NotImplementedError

    def run_batch(self, requests: Sequence[Mapping[str, Any]]) -> list[Reply]:
        """One :class:`Reply` per request, in order; never raises for a bad evaluator."""
        raise NotImplementedError

    def supports(self, op: str) -> bool:
        """Whether :meth:`run_batch` takes requests of ``op``: the protocol's operations,
        and ``evaluate`` (``{"op": "evaluate", "hand": ...}`` -> ``category`` and ``key``:
        the evaluator's own value of a hand) where the evaluator exposes its order."""
        return op in OPERATIONS

    def run_batches(self, batches: Iterable[Sequence[Mapping[str, Any]]]) \
            -> Iterator[list[Reply]]:
        """:meth:`run_batch` over several batches, yielding in order (subprocess adapters
        keep more than one batch in flight so both processes work at once)."""
        for batch in batches:
            yield self.run_batch(batch)

    def close(self) -> None:
        """Stop the evaluator (idempotent)."""

    def __enter__(self) -> Adapter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
