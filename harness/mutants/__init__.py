"""Deliberately broken evaluators (mutants) for the self-check.  Never the reference.

Each mutant is the reference engine with one realistic implementer mistake put in,
run through the harness exactly as a vendor's evaluator is.  ``pokercert selfcheck``
proves that the corpus fails every one of them on every ruleset it affects.

    from pokercert.harness.mutants import MUTANTS, MutantEvaluator, get_mutant
    ev = MutantEvaluator(get_mutant("wheel-missing"))
    ev.configure("nj-poker-high-5", {})
    ev.classify(["Ah", "2d", "3c", "4s", "5h"])      # 'high_card' (the reference: 'straight')

Any one mutant is also an adapter spec, with ``_`` for ``-`` in its id::

    pokercert run --adapter py:pokercert.harness.mutants:mutant.wheel_missing
"""

from collections.abc import Callable

from pokercert.harness.mutants.catalogue import MUTANTS, get_mutant
from pokercert.harness.mutants.model import (
    Change,
    KnobProfile,
    Mutant,
    MutantError,
    MutantEvaluator,
)


class _Factories:
    """``mutant.<id>``: a factory of that mutant's evaluator, for ``py:`` adapter specs."""

    def __getattr__(self, name: str) -> Callable[[], MutantEvaluator]:
        try:
            found = get_mutant(name.replace("_", "-"))
        except KeyError:
            raise AttributeError(name) from None
        return lambda: MutantEvaluator(found)

    def __dir__(self) -> list[str]:
        return [m.id.replace("-", "_") for m in MUTANTS]


mutant = _Factories()

__all__ = [
    "MUTANTS",
    "Change",
    "KnobProfile",
    "Mutant",
    "MutantError",
    "MutantEvaluator",
    "get_mutant",
    "mutant",
]
