"""``pokercert vectors coverage``: what the corpus exercises, clause by clause.

Per ruleset, a clause x vector-count matrix (by kind); a rollup by flag and by
interpretation; and the clauses exercised by fewer than ``minimum`` vectors.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from tabulate import tabulate

from pokercert.reference import all_rulesets
from pokercert.reference.interpretations import catalogue
from pokercert.vectors import registry
from pokercert.vectors.corpus import Corpus
from pokercert.vectors.model import KINDS, Vector

DEFAULT_MINIMUM = 5


@dataclass(frozen=True)
class Coverage:
    """Vector counts per clause, flag and interpretation."""

    minimum: int
    rulesets: dict[str, dict[str, Any]]
    flags: dict[str, dict[str, int]]
    interpretations: dict[str, dict[str, int]]
    under_minimum: list[dict[str, Any]]
    awaiting: list[str] = field(default_factory=list)  # rulesets with no vectors yet

    @property
    def lowest(self) -> int:
        """The fewest vectors any clause of any ruleset has."""
        counts = [row["total"] for rs in self.rulesets.values() for row in rs["clauses"].values()]
        return min(counts, default=0)

    def as_dict(self) -> dict[str, Any]:
        return {
            "minimum": self.minimum,
            "lowest_clause_count": self.lowest,
            "rulesets": self.rulesets,
            "flags": self.flags,
            "interpretations": self.interpretations,
            "under_minimum": self.under_minimum,
            "awaiting_vectors": self.awaiting,
        }


def coverage(
    corpus: Corpus, minimum: int = DEFAULT_MINIMUM, rulesets: Sequence[str] | None = None
) -> Coverage:
    """Count the corpus's vectors by clause (every clause of every ruleset), flag, reading."""
    by_ruleset: dict[str, list[Vector]] = defaultdict(list)
    for v in corpus.vectors:
        by_ruleset[v.ruleset].append(v)
    # a ruleset awaiting its first vectors is left out, unless asked for or it has some
    waiting = [
        rs.id
        for rs in all_rulesets()
        if rulesets is None and rs.id in registry.awaiting() and not by_ruleset.get(rs.id)
    ]
    chosen = [
        rs
        for rs in all_rulesets()
        if (rulesets is None or rs.id in rulesets) and rs.id not in waiting
    ]
    out: dict[str, dict[str, Any]] = {}
    under: list[dict[str, Any]] = []
    for rs in chosen:
        vectors = by_ruleset.get(rs.id, [])
        clauses: dict[str, dict[str, int]] = {}
        for clause in rs.clauses:
            tagged = [v for v in vectors if clause.label in v.clauses]
            row = {kind: sum(1 for v in tagged if v.kind == kind) for kind in KINDS}
            row["total"] = len(tagged)
            clauses[clause.label] = row
            if len(tagged) < minimum:
                under.append({"ruleset": rs.id, "clause": clause.label, "vectors": len(tagged)})
        out[rs.id] = {
            "vectors": len(vectors),
            "kinds": {k: sum(1 for v in vectors if v.kind == k) for k in KINDS},
            "clauses": clauses,
        }
    ids = {rs.id for rs in chosen}
    flags: dict[str, dict[str, int]] = {}
    for flag in registry.flags(corpus.root):
        per = Counter(v.ruleset for v in corpus.vectors if flag in v.flags and v.ruleset in ids)
        flags[flag] = {"total": sum(per.values()), **dict(sorted(per.items()))}
    interps: dict[str, dict[str, int]] = {}
    for iid, interp in catalogue().items():
        per = Counter(
            v.ruleset for v in corpus.vectors if iid in v.interpretations and v.ruleset in ids
        )
        row = {rid: per.get(rid, 0) for rid in interp.rulesets if rid in ids}
        interps[iid] = {"total": sum(row.values()), **row}
    return Coverage(minimum, out, flags, interps, under, waiting)


def render(cov: Coverage) -> str:
    """The human-readable report (tables)."""
    parts = []
    for rid, data in cov.rulesets.items():
        rows = [
            [
                label,
                *(row[k] for k in KINDS),
                row["total"],
                "" if row["total"] >= cov.minimum else f"< {cov.minimum}",
            ]
            for label, row in data["clauses"].items()
        ]
        parts.append(
            f"{rid}: {data['vectors']} vectors\n"
            + tabulate(rows, headers=["clause", *KINDS, "total", ""], tablefmt="simple")
        )
    flag_rows = [
        [flag, row["total"], ", ".join(f"{k} {n}" for k, n in row.items() if k != "total")]
        for flag, row in cov.flags.items()
    ]
    parts.append(
        "flags\n"
        + tabulate(flag_rows, headers=["flag", "vectors", "by ruleset"], tablefmt="simple")
    )
    interp_rows = [
        [iid, row["total"], ", ".join(f"{k} {n}" for k, n in row.items() if k != "total")]
        for iid, row in cov.interpretations.items()
    ]
    parts.append(
        "interpretations (vectors with per-reading expectations)\n"
        + tabulate(
            interp_rows, headers=["interpretation", "vectors", "by ruleset"], tablefmt="simple"
        )
    )
    if cov.awaiting:
        parts.append(
            "awaiting their first vectors (vectors/awaiting.toml, not counted): "
            + ", ".join(cov.awaiting)
        )
    if cov.under_minimum:
        rows = [[u["ruleset"], u["clause"], u["vectors"]] for u in cov.under_minimum]
        parts.append(
            f"clauses with fewer than {cov.minimum} vectors\n"
            + tabulate(rows, headers=["ruleset", "clause", "vectors"], tablefmt="simple")
        )
    else:
        parts.append(f"every clause has at least {cov.minimum} vectors (fewest: {cov.lowest})")
    return "\n\n".join(parts)
