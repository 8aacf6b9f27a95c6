"""Adapters: how the harness talks to an evaluator (in-process Python or a subprocess).

``load_adapter("reference")``, ``load_adapter("py:mypkg.eval:MyEvaluator")`` or
``load_adapter("exec:node adapter.js")`` give an :class:`Adapter`; ``start()`` returns the
declared :class:`Identity`, ``configure()`` selects a ruleset, ``run_batch()`` answers
protocol requests with one :class:`Reply` each and never raises for a bad evaluator
(only :class:`AdapterAborted` when the harness gives up on it altogether).
"""

from pokercert.harness.adapters.base import (
    ANSWERED,
    CRASH,
    ERROR,
    REJECTED,
    STATUSES,
    TIMEOUT,
    Adapter,
    AdapterAborted,
    AdapterError,
    Identity,
    Reply,
)
from pokercert.harness.adapters.spec import (
    ENTRY_POINT_GROUP,
    AdapterOptions,
    AdapterSpec,
    SpecError,
    load_adapter,
    parse_spec,
    shipped_adapters,
)

__all__ = [
    "ANSWERED",
    "CRASH",
    "ENTRY_POINT_GROUP",
    "ERROR",
    "REJECTED",
    "STATUSES",
    "TIMEOUT",
    "Adapter",
    "AdapterAborted",
    "AdapterError",
    "AdapterOptions",
    "AdapterSpec",
    "Identity",
    "Reply",
    "SpecError",
    "load_adapter",
    "parse_spec",
    "shipped_adapters",
]
