"""Deliberately broken evaluators (mutants) for the self-check.  Never the reference.

Each mutant is the reference engine with one realistic implementer mistake put in,
run through the harness exactly as a vendor's evaluator is.  ``pokercert selfcheck``
proves that the corpus fails every one of them on every ruleset it affects.

    from pokercert.harness.mutants import MUTANTS, MutantEvaluator, get_mutant
    ev = MutantEvaluator(get_mutant("wheel-missing"))
    ev.configure("nj-poker-high-5", {})
    ev.classify(["Ah", "2d", "3c", "4s", "5h"])      # 'high_card' (the reference: 'straight')
"""

from pokercert.harness.mutants.catalogue import MUTANTS, get_mutant
from pokercert.harness.mutants.model import (
    Change,
    KnobProfile,
    Mutant,
    MutantError,
    MutantEvaluator,
)

__all__ = ["MUTANTS", "Change", "KnobProfile", "Mutant", "MutantError", "MutantEvaluator",
           "get_mutant"]
