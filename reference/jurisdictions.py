"""Where a ruleset's game is played: the jurisdiction code its id starts with.

A ruleset id starts with the code of the jurisdiction whose casinos deal the game
(``nj-holdem``, ``mt-poker-high``, ``pa-crazy-4-poker``): that prefix is the one
spelling of "where" that every ruleset has, including games whose ranking rests on a
card room's house rules (``nj-omaha`` is dealt in New Jersey; its regulation file says
"House rules").  A code's name is the jurisdiction its rulesets' regulations name most.
"""

from __future__ import annotations

from collections import Counter

from pokercert.reference.names import did_you_mean
from pokercert.reference.rulesets import Ruleset, RulesetError, all_rulesets

__all__ = ["jurisdiction_code", "jurisdictions", "rulesets_of"]


def jurisdiction_code(rs: Ruleset) -> str:
    """The jurisdiction code of ``rs``, upper case (``NJ`` for ``nj-poker-high-5``)."""
    return rs.id.split("-", 1)[0].upper()


def jurisdictions() -> dict[str, str]:
    """Every jurisdiction code -> its name, in code order (``{"MT": "Montana", ...}``)."""
    names: dict[str, Counter[str]] = {}
    for rs in all_rulesets():
        names.setdefault(jurisdiction_code(rs), Counter())[rs.regulation.jurisdiction] += 1
    return {code: count.most_common(1)[0][0] for code, count in sorted(names.items())}


def rulesets_of(jurisdiction: str) -> tuple[Ruleset, ...]:
    """The rulesets of one jurisdiction, named by code or by name in any case
    (``PA``, ``pa``, ``Pennsylvania``); :class:`RulesetError` lists the known ones."""
    known = jurisdictions()
    wanted = jurisdiction.strip().casefold()
    for code, name in known.items():
        if wanted in (code.casefold(), name.casefold()):
            return tuple(rs for rs in all_rulesets() if jurisdiction_code(rs) == code)
    hint = did_you_mean(jurisdiction, [*known, *known.values()])
    listed = ", ".join(f"{code} ({name})" for code, name in known.items())
    raise RulesetError(f"unknown jurisdiction {jurisdiction!r}{hint} (known: {listed})")
