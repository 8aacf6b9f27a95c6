"""``pokercert rules diff A B``: what differs between two rulesets, and which vectors
decide differently because of it.

Two parts, each a table (``--json``: one object, ``cli/schema/rules-diff.schema.json``):
the structure (:func:`pokercert.reference.ruleset_diff.ruleset_diff`: categories and
their order, the wheel, wild cards, hand size and selection, halves, qualifier, the word
for equal hands, pai gow's two-card hand, setting and settlement, interpretations) and the
behaviour
(:func:`pokercert.vectors.behaviour_diff.behaviour_diff`: A's vectors whose expected
answer changes under B's reference, and back, grouped by clause; the vectors B cannot
be asked counted apart with the reason), under ``--profile``'s readings, which the
output lists for every interpretation of A or B.  The exit code is 0 whatever differs: a
diff is an answer, not a finding.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Mapping
from typing import Any

from tabulate import tabulate

from pokercert.cli.options import UsageError, print_json
from pokercert.cli.vectors import inputs_text
from pokercert.reference import get_ruleset
from pokercert.reference.errors import ExitCode
from pokercert.reference.ruleset_diff import KNOB_WORDS, Difference, Value, ruleset_diff
from pokercert.reference.rulesets import Ruleset
from pokercert.vectors.behaviour_diff import BehaviourDiff, OneWay, behaviour_diff
from pokercert.vectors.corpus import load_corpus

__all__ = ["cmd_rules_diff", "diff_json"]


def diff_json(a: Ruleset, b: Ruleset, behaviour: BehaviourDiff) -> dict[str, Any]:
    """The ``--json`` document of ``rules diff`` (schema ``urn:pokercert:cli:rules-diff``)."""
    return {
        "a": a.id,
        "b": b.id,
        "citations": {a.id: a.citation, b.id: b.citation},
        "structure": [d.as_dict() for d in ruleset_diff(a, b)],
        "behaviour": behaviour.as_dict(),
    }


def cmd_rules_diff(args: argparse.Namespace, rows: int) -> int:
    """``rules diff A B`` (``args.others`` holds A and B); ``rows``: the changed vectors
    listed per direction without ``--all``."""
    if len(args.others) != 2:
        raise UsageError(
            f"rules diff takes two ruleset ids, got {len(args.others)}: pokercert rules diff A B"
        )
    a, b = (get_ruleset(rid) for rid in args.others)
    behaviour = behaviour_diff(a, b, load_corpus().vectors, args.profile)
    if args.json:
        print_json(diff_json(a, b, behaviour))
        return ExitCode.OK
    print(f"A = {a.id}: {a.citation}")
    print(f"B = {b.id}: {b.citation}")
    if behaviour.readings:
        chosen = ", ".join(f"{iid}={r}" for iid, r in behaviour.readings.items())
        print(f"readings (profile {behaviour.profile}): {chosen}")
    print()
    _print_structure(a, b, ruleset_diff(a, b))
    for way in (behaviour.a_under_b, behaviour.b_under_a):
        print()
        _print_way(way, behaviour.profile, None if args.all else rows)
    return ExitCode.OK


def _cell(item: str, value: Value) -> str:
    if value is None:
        return "-"
    if isinstance(value, tuple):
        return " > ".join(value)
    words = KNOB_WORDS.get((item, str(value)))
    return f"{value}: {words}" if words else str(value)


def _print_structure(a: Ruleset, b: Ruleset, found: tuple[Difference, ...]) -> None:
    if not found:
        print("structure: no difference (A and B rank, deal and read the same)")
        return
    print(f"structure: {len(found)} difference(s)")
    rows = [
        [
            d.aspect,
            d.item,
            _cell(d.item, d.a),
            _cell(d.item, d.b),
            "; ".join(filter(None, (", ".join(d.clauses_a), ", ".join(d.clauses_b)))),
        ]
        for d in found
    ]
    print(
        tabulate(
            rows,
            headers=["aspect", "item", f"A {a.id}", f"B {b.id}", "clauses"],
            maxcolwidths=[None, 22, 34, 34, 30],
        )
    )


def _short(outcome: Mapping[str, Any]) -> str:
    return json.dumps(dict(outcome), sort_keys=True, separators=(",", ":"))


def _print_way(way: OneWay, profile: str, limit: int | None) -> None:
    """One direction: counts, changed vectors by clause, the changed vectors, the rest."""
    src = get_ruleset(way.source)
    print(
        f"behaviour: {way.source}'s {way.vectors} vectors under {way.target}'s reference "
        f"(profile {profile}): {way.same} same, {len(way.changed)} changed, "
        f"{len(way.not_comparable)} not comparable"
    )
    if way.changed:
        rows = [
            [label, src.clause(label).summary if src.has_clause(label) else "", len(ids)]
            for label, ids in way.by_clause().items()
        ]
        print(
            tabulate(
                rows, headers=["clause", "summary (ours)", "changed"], maxcolwidths=[None, 70, None]
            )
        )
        print()
        shown = way.changed if limit is None else way.changed[:limit]
        print(
            tabulate(
                [
                    [
                        c.vector,
                        c.kind,
                        " | ".join(inputs_text(c.inputs)),
                        _short(c.expected),
                        _short(c.other),
                    ]
                    for c in shown
                ],
                headers=[
                    "vector",
                    "kind",
                    "inputs",
                    f"{way.source} expects",
                    f"{way.target} answers",
                ],
                maxcolwidths=[None, None, 40, 30, 30],
            )
        )
        if len(shown) < len(way.changed):
            print(f"... and {len(way.changed) - len(shown)} more (--all or --json lists them)")
    if way.not_comparable:
        reasons = Counter(n.reason for n in way.not_comparable)
        print(
            tabulate(
                [[n, reason] for reason, n in reasons.most_common()],
                headers=["not comparable", "why"],
                maxcolwidths=[None, 90],
            )
        )
