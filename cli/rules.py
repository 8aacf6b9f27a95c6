"""``pokercert rulesets|rules|evaluate|compare``: look at the rules and the reference.

Every command takes ``--json`` for a stable machine-readable answer (keys sorted,
documented in the README) because labs script these.
"""

from __future__ import annotations

import argparse
from typing import Any

from tabulate import tabulate

from pokercert.cli.options import Subparsers, print_json, profile_arg
from pokercert.reference import (
    all_rulesets,
    evaluator,
    format_cards,
    get_interpretation,
    get_ruleset,
    sort_cards,
)
from pokercert.reference.engine import HandValue, deciding_clauses
from pokercert.reference.errors import ExitCode
from pokercert.vectors.interpreting import interpretations_json, interpretations_markdown


def register(sub: Subparsers) -> None:
    p = sub.add_parser("rulesets")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_rulesets)

    p = sub.add_parser("rules")
    p.add_argument("ruleset", metavar="ID")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser("interpretations")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--json", action="store_true", help="machine-readable output")
    group.add_argument("--markdown", action="store_true",
                       help="the regulator's document (INTERPRETING.md is this output)")
    p.set_defaults(func=cmd_interpretations)

    p = sub.add_parser("evaluate")
    _common(p)
    p.add_argument("cards", nargs="+", metavar="CARDS",
                   help="the hand (or, with --board, the hole cards), e.g. As Kd 9h 5c 3s")
    p.add_argument("--board", help="community cards (hold'em style rulesets)")
    p.set_defaults(func=cmd_evaluate)

    p = sub.add_parser("compare")
    _common(p)
    p.add_argument("hands", nargs="+", metavar="HAND",
                   help="each hand quoted as one argument, e.g. 'As Ks Qs Js Ts' '2c 2d ...'")
    p.add_argument("--board", help="community cards; each HAND is then a player's hole cards")
    p.set_defaults(func=cmd_compare)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--ruleset", required=True, metavar="ID")
    profile_arg(p)
    p.add_argument("--json", action="store_true", help="machine-readable output")


def cmd_rulesets(args: argparse.Namespace) -> int:
    rows = [{"id": r.id, "title": r.title, "citation": r.citation,
             "confidence": r.regulation.confidence, "clauses": len(r.clauses),
             "hand_size": r.hand_size, "equal_outcome": r.equal_outcome}
            for r in all_rulesets()]
    if args.json:
        print_json({"rulesets": rows})
    else:
        print(tabulate([[r["id"], r["citation"], r["confidence"], r["clauses"], r["hand_size"],
                         r["equal_outcome"]] for r in rows],
                       headers=["id", "citation", "confidence", "clauses", "cards", "equal"]))
    return ExitCode.OK


def _ruleset_json(rid: str) -> dict[str, Any]:
    rs = get_ruleset(rid)
    reg = rs.regulation
    return {
        "id": rs.id, "title": rs.title, "hand_size": rs.hand_size,
        "equal_outcome": rs.equal_outcome,
        "regulation": {"citation": reg.citation, "section": reg.section,
                       "confidence": reg.confidence, "confidence_note": reg.confidence_note,
                       "current_through": reg.current_through, "source": reg.source},
        "clauses": [{"label": c.label, "summary": c.summary} for c in rs.clauses],
        "categories": [{"name": c.name, "label": c.label, "clause": c.clause}
                       for c in rs.categories],
        "deck": {"jokers": rs.jokers, "wild": rs.wild},
        "selection": None if rs.selection is None else {
            "hole": rs.selection.hole, "board": rs.selection.board,
            "min_hole": rs.selection.min_hole, "clause": rs.selection.clause},
        "rules": dict(rs.rules),
        "interpretations": [
            {"id": i.id, "title": i.title, "clauses": list(i.clauses), "default": i.default,
             "readings": {name: r.summary for name, r in i.readings.items()}}
            for i in map(get_interpretation, rs.interpretations)],
    }


def cmd_rules(args: argparse.Namespace) -> int:
    data = _ruleset_json(args.ruleset)
    if args.json:
        print_json(data)
        return ExitCode.OK
    reg = data["regulation"]
    print(f"{data['id']}: {data['title']}")
    print(f"{reg['citation']} (confidence: {reg['confidence']}); current through "
          f"{reg['current_through']}")
    print(f"{data['hand_size']} cards; equal hands: {data['equal_outcome']}\n")
    print(tabulate([[c["label"], c["summary"]] for c in data["clauses"]],
                   headers=["clause", "summary (ours)"], maxcolwidths=[None, 80]))
    print()
    print(tabulate([[i + 1, c["name"], c["label"], c["clause"]]
                    for i, c in enumerate(data["categories"])],
                   headers=["rank", "category", "regulation's words", "clause"]))
    print()
    for i in data["interpretations"]:
        print(f"interpretation {i['id']} ({', '.join(i['clauses'])}): {i['title']}")
        for name, summary in i["readings"].items():
            mark = " (default)" if name == i["default"] else ""
            print(f"  {name}{mark}: {summary}")
    return ExitCode.OK


def _hand_json(v: HandValue) -> dict[str, Any]:
    return {"cards": format_cards(v.cards), "played": format_cards(v.played),
            "category": v.category, "key": list(v.key)}


def cmd_evaluate(args: argparse.Namespace) -> int:
    ev = evaluator(args.ruleset, args.profile)
    cards = " ".join(args.cards)
    if args.board is not None:
        best = ev.best_hand(cards, args.board)
        value = best.value
        extra = {"alternatives": [format_cards(sort_cards(a)) for a in best.alternatives]}
        clauses = [ev.ruleset.selection.clause] if ev.ruleset.selection else []
    else:
        value = ev.evaluate(cards)
        extra = {}
        clauses = []
    category = ev.ruleset.category(value.category)
    data: dict[str, Any] = {
        "ruleset": ev.ruleset.id, "profile": ev.profile.name, "readings": ev.readings,
        **_hand_json(value), "category_label": category.label,
        "clauses": [*clauses, category.clause], **extra}
    if args.json:
        print_json(data)
    else:
        played = f" (played as {data['played']})" if data["played"] != data["cards"] else ""
        print(f"{data['cards']}{played}: {value.category} - {category.label} "
              f"[{', '.join(data['clauses'])}]")
    return ExitCode.OK


def cmd_compare(args: argparse.Namespace) -> int:
    ev = evaluator(args.ruleset, args.profile)
    values = ev.showdown(args.hands, args.board)
    best = max(v.key for v in values)
    winners = [i for i, v in enumerate(values) if v.key == best]
    outcome = "win" if len(winners) == 1 else ev.ruleset.equal_outcome
    clauses = deciding_clauses(ev, values)
    data: dict[str, Any] = {
        "ruleset": ev.ruleset.id, "profile": ev.profile.name, "readings": ev.readings,
        "hands": [_hand_json(v) for v in values], "winners": winners, "outcome": outcome,
        "clauses": clauses}
    if args.json:
        print_json(data)
        return ExitCode.OK
    print(tabulate([[i, h["cards"], h["category"], "winner" if i in winners else ""]
                    for i, h in enumerate(data["hands"])],
                   headers=["hand", "cards", "category", ""]))
    who = ", ".join(str(i) for i in winners)
    print(f"\n{outcome}: hand {who} (decided by {', '.join(clauses)})")
    return ExitCode.OK


def cmd_interpretations(args: argparse.Namespace) -> int:
    if args.json:
        print_json({"interpretations": interpretations_json()})
    elif args.markdown:
        print(interpretations_markdown(), end="")
    else:
        print(tabulate([[i["id"], ", ".join(i["clauses"]), i["default"], len(i["vectors"])]
                        for i in interpretations_json()],
                       headers=["interpretation", "clauses", "default", "vectors"],
                       maxcolwidths=[None, 50, None, None]))
    return ExitCode.OK
