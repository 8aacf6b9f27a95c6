"""How long and how much a run gives the evaluator: the one definition of the limits.

:class:`Limits` is held by :class:`~pokercert.harness.run.runner.RunConfig` (its
``limits``) and taken by :func:`pokercert.certify.certify`; run.json records all but the
watchdog's grace (:meth:`Limits.as_record`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["DEFAULT_BATCH", "DEFAULT_LIMITS", "Limits"]

DEFAULT_BATCH = 256


@dataclass(frozen=True)
class Limits:
    """How long and how much the harness gives the evaluator (``pokercert run``'s
    ``--timeout``, ``--run-timeout``, ``--batch-size``, ``--max-restarts``,
    ``--max-memory``, ``--max-cpu``); ``watchdog_grace_s``: how long past a timeout an
    in-process call that will not stop may run before the run ends (None: the timeout,
    at least 1 s)."""

    timeout: float = 10.0
    run_timeout: float | None = None
    batch_size: int = DEFAULT_BATCH
    max_restarts: int = 50
    max_memory_mb: int | None = None
    max_cpu_s: int | None = None
    watchdog_grace_s: float | None = None

    def as_record(self) -> dict[str, Any]:
        """The limits as run.json's ``limits`` records them."""
        return {
            "timeout_s": self.timeout,
            "run_timeout_s": self.run_timeout,
            "batch_size": self.batch_size,
            "max_restarts": self.max_restarts,
            "max_memory_mb": self.max_memory_mb,
            "max_cpu_s": self.max_cpu_s,
        }

    def grace(self) -> float:
        """How long past its timeout an in-process call may run before the watchdog ends
        the run: ``watchdog_grace_s``, or the timeout (at least 1 s)."""
        if self.watchdog_grace_s is not None:
            return self.watchdog_grace_s
        return max(1.0, self.timeout or 0.0)


#: ``pokercert run``'s limits when none is given
DEFAULT_LIMITS = Limits()
