"""The in-process evaluator interface: what a vendor implements in Python.

An evaluator is any object with the attributes and methods below; implement only the
operations you support and declare them in :meth:`PokerEvaluator.capabilities`.
Cards arrive as canonical strings (``"As"``, ``"Td"``, ``"Xx"`` for a joker); hands as
lists of such strings.  To refuse an invalid input, raise :class:`Rejected` with one of
:data:`REASON_CODES`.  Any other exception is recorded as an ERROR, never a pass.

Minimal example::

    class MyEvaluator:
        info = EvaluatorInfo(vendor="Acme", name="acme-eval", version="1.2", build="abc123")

        def capabilities(self):
            return {"nj-poker-high-5": ["classify", "compare", "reject"]}

        def configure(self, ruleset, readings):
            self.ruleset = ruleset

        def classify(self, hand):
            return "royal_flush"           # a category name of the ruleset

        def winners(self, hands, board=None):
            return [0]                     # indices of the winning hands

The same operations travel over the subprocess protocol (``harness/PROTOCOL.md``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Protocol, runtime_checkable

from pokercert.reference.cards import REASON_CODES

OPERATIONS = ("classify", "compare", "best_hand")
# what an evaluator may claim per ruleset: the vector kinds it can be tested on
CAPABILITY_KINDS = ("classify", "compare", "best_hand", "reject")

__all__ = ["CAPABILITY_KINDS", "OPERATIONS", "REASON_CODES", "EvaluatorInfo", "PokerEvaluator",
           "Rejected"]


class Rejected(Exception):
    """Raised by an evaluator to refuse invalid input; ``code`` names the reason."""

    def __init__(self, code: str | None, message: str = "") -> None:
        super().__init__(message or str(code))
        self.code = code


@dataclass(frozen=True)
class EvaluatorInfo:
    """Identity of the evaluator under test, as the vendor declares it."""

    vendor: str
    name: str
    version: str
    build: str = ""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@runtime_checkable
class PokerEvaluator(Protocol):
    """The operations an in-process evaluator offers (implement those you support)."""

    info: EvaluatorInfo

    def capabilities(self) -> dict[str, list[str]]:
        """Ruleset id -> the vector kinds (:data:`CAPABILITY_KINDS`) claimed for it."""
        ...

    def configure(self, ruleset: str, readings: dict[str, str]) -> None:
        """Select the ruleset and interpretation readings for the requests that follow."""
        ...

    def classify(self, hand: list[str]) -> str:
        """The category name of one hand."""
        ...

    def winners(self, hands: list[list[str]], board: list[str] | None = None) -> list[int]:
        """Indices of the winning hands; with ``board``, hands are hole cards."""
        ...

    def best_hand(self, hole: list[str], board: list[str]) -> tuple[list[str], str]:
        """The best hand's cards and its category name."""
        ...
