"""``pokercert rulesets|rules|evaluate|compare|showdown``: the rules and the reference.

Every command takes ``--json`` for a stable machine-readable answer (keys sorted,
documented in the README) because labs script these.
"""

from __future__ import annotations

import argparse
import textwrap
from collections.abc import Mapping
from typing import Any

from tabulate import tabulate

from pokercert.cli.deal import BoardOption, check_board, check_deal
from pokercert.cli.options import Subparsers, UsageError, print_json, profile_arg
from pokercert.reference import (
    all_rulesets,
    evaluator,
    format_cards,
    get_interpretation,
    get_ruleset,
    sort_cards,
)
from pokercert.reference.engine import BestHand, Evaluator, HandValue, deciding_clauses
from pokercert.reference.errors import ExitCode
from pokercert.reference.jurisdictions import jurisdiction_code, rulesets_of
from pokercert.reference.rulesets import Half, Qualifier, Regulation, Ruleset, Selection
from pokercert.vectors.interpreting import interpretations_json, interpretations_markdown

# changed vectors a ``rules diff`` table lists per direction without ``--all``
DIFF_ROWS = 20


def register(sub: Subparsers) -> None:
    """Add the commands that read the rulesets and the reference evaluator."""
    _register_rulesets(sub)
    _register_rules(sub)
    _register_interpretations(sub)
    _register_evaluate(sub)
    _register_compare(sub)
    _register_showdown(sub)


def _register_rulesets(sub: Subparsers) -> None:
    """``rulesets``: every ruleset (or one jurisdiction's)."""
    p = sub.add_parser("rulesets")
    p.add_argument(
        "--jurisdiction",
        metavar="CODE",
        help="only the rulesets of one jurisdiction: its code (NJ, MT, ...) or name (New Jersey)",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_rulesets)


def _register_rules(sub: Subparsers) -> None:
    """``rules``: one ruleset in full, or ``rules diff A B``."""
    p = sub.add_parser(
        "rules",
        usage="%(prog)s [-h] [--json] ID\n"
        "       %(prog)s diff [-h] [--json] [--profile PROFILE] [--all] A B",
    )
    p.add_argument(
        "ruleset",
        metavar="ID",
        help="a ruleset id; or 'diff' and two ids: what differs between them, in "
        "their data and in which vectors decide differently",
    )
    p.add_argument("others", nargs="*", metavar="A B", help=argparse.SUPPRESS)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    profile_arg(p)
    p.add_argument(
        "--all",
        action="store_true",
        help=f"(diff) list every changed vector, not the first {DIFF_ROWS} of each direction",
    )
    p.set_defaults(func=cmd_rules)


def _register_interpretations(sub: Subparsers) -> None:
    """``interpretations``: the catalogue, one interpretation, or INTERPRETING.md."""
    p = sub.add_parser("interpretations")
    p.add_argument(
        "interpretation",
        nargs="?",
        metavar="ID",
        help="one interpretation in full: its question, readings, default, "
        "clauses, rulesets and vector count",
    )
    group = p.add_mutually_exclusive_group()
    group.add_argument("--json", action="store_true", help="machine-readable output")
    group.add_argument(
        "--markdown",
        action="store_true",
        help="the regulator's document (INTERPRETING.md is this output)",
    )
    p.set_defaults(func=cmd_interpretations)


def _register_evaluate(sub: Subparsers) -> None:
    """``evaluate``: one hand's value (with --board: the best hand)."""
    p = sub.add_parser("evaluate")
    _common(p)
    p.add_argument(
        "cards",
        nargs="+",
        metavar="CARDS",
        help="the hand (or, with --board, the hole cards), e.g. As Kd 9h 5c 3s",
    )
    p.add_argument("--board", action=BoardOption, help="community cards (hold'em style rulesets)")
    p.set_defaults(func=cmd_evaluate)


def _register_compare(sub: Subparsers) -> None:
    """``compare``: hands compared, the winners named."""
    p = sub.add_parser("compare")
    _common(p)
    p.add_argument(
        "hands",
        nargs="+",
        metavar="HAND",
        help="each hand quoted as one argument, e.g. 'As Ks Qs Js Ts' '2c 2d ...'",
    )
    p.add_argument(
        "--board",
        action=BoardOption,
        help="community cards; each HAND is then a player's hole cards",
    )
    p.set_defaults(func=cmd_compare)


def _register_showdown(sub: Subparsers) -> None:
    """``showdown``: a showdown, every pot half decided."""
    p = sub.add_parser("showdown")
    _common(p)
    p.add_argument(
        "hands",
        nargs="+",
        metavar="HAND",
        help="each player's cards quoted as one argument (hole cards with "
        "--board; all seven in stud)",
    )
    p.add_argument("--board", action=BoardOption, help="community cards (hold'em, Omaha)")
    p.set_defaults(func=cmd_showdown)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--ruleset", required=True, metavar="ID")
    p.set_defaults(board_first=False)
    profile_arg(p)
    p.add_argument("--json", action="store_true", help="machine-readable output")


def cmd_rulesets(args: argparse.Namespace) -> int:
    chosen = all_rulesets() if args.jurisdiction is None else rulesets_of(args.jurisdiction)
    rows = [
        {
            "id": r.id,
            "title": r.title,
            "citation": r.citation,
            "jurisdiction": jurisdiction_code(r),
            "confidence": r.regulation.confidence,
            "clauses": len(r.clauses),
            "hand_size": r.hand_size,
            "equal_outcome": r.equal_outcome,
        }
        for r in chosen
    ]
    if args.json:
        print_json({"rulesets": rows})
    else:
        print(
            tabulate(
                [
                    [
                        r["id"],
                        r["jurisdiction"],
                        r["citation"],
                        r["confidence"],
                        r["clauses"],
                        r["hand_size"],
                        r["equal_outcome"],
                    ]
                    for r in rows
                ],
                headers=["id", "where", "citation", "confidence", "clauses", "cards", "equal"],
            )
        )
    return ExitCode.OK


def _ruleset_json(rid: str) -> dict[str, Any]:
    rs = get_ruleset(rid)
    return {
        "id": rs.id,
        "title": rs.title,
        "hand_size": rs.hand_size,
        "equal_outcome": rs.equal_outcome,
        "regulation": _regulation_json(rs.regulation),
        "clauses": [{"label": c.label, "summary": c.summary} for c in rs.clauses],
        "categories": [
            {"name": c.name, "label": c.label, "clause": c.clause} for c in rs.categories
        ],
        "deck": {"jokers": rs.jokers, "wild": rs.wild},
        "selection": None if rs.selection is None else _selection_json(rs.selection),
        "halves": [_pot_half_rule_json(rs, h) for h in rs.pot_halves],
        "qualifier": None if rs.qualifier is None else _qualifier_json(rs.qualifier),
        "rules": dict(rs.rules),
        "interpretations": [
            {
                "id": i.id,
                "title": i.title,
                "clauses": list(i.clauses),
                "default": i.default,
                "readings": {name: r.summary for name, r in i.readings.items()},
            }
            for i in map(get_interpretation, rs.interpretations)
        ],
    }


def _regulation_json(reg: Regulation) -> dict[str, Any]:
    """The regulation a ruleset cites: citation, section, confidence, source."""
    return {
        "citation": reg.citation,
        "section": reg.section,
        "confidence": reg.confidence,
        "confidence_note": reg.confidence_note,
        "current_through": reg.current_through,
        "source": reg.source,
        "retrieved": reg.retrieved,
    }


def _selection_json(sel: Selection) -> dict[str, Any]:
    """How a best hand is made of own and board cards."""
    return {
        "hole": sel.hole,
        "board": sel.board,
        "min_hole": sel.min_hole,
        "max_hole": sel.hole_range[-1],
        "clause": sel.clause,
    }


def _pot_half_rule_json(rs: Ruleset, h: Half) -> dict[str, Any]:
    """One pot half: its name, the ruleset it ranks by, its clause and qualifier."""
    return {
        "name": h.name,
        "ranks_by": h.ranks_by or rs.ranks_by or rs.id,
        "clause": h.clause,
        "qualifier": None
        if h.qualifier is None
        else {
            "categories": list(h.qualifier.categories),
            "max_rank": h.qualifier.max_rank,
            "clause": h.qualifier.clause,
        },
    }


def _qualifier_json(q: Qualifier) -> dict[str, Any]:
    """The dealer's qualifier: the lowest qualifying hand, the posted words, the source."""
    return {
        "minimum": q.minimum,
        "words": q.words,
        "confidence": q.confidence,
        "source": q.source,
        "clause": q.clause,
    }


def cmd_rules(args: argparse.Namespace) -> int:
    if args.ruleset == "diff":
        from pokercert.cli.rules_diff import cmd_rules_diff

        return cmd_rules_diff(args, DIFF_ROWS)
    if args.others or args.all or args.profile != "practice":
        raise UsageError(
            "rules takes one ruleset ID (two, and --profile or --all, only "
            "after 'diff': pokercert rules diff A B)"
        )
    data = _ruleset_json(args.ruleset)
    if args.json:
        print_json(data)
        return ExitCode.OK
    _print_game(data)
    _print_tables(data)
    _print_qualifier_and_readings(data)
    return ExitCode.OK


def _print_game(data: Mapping[str, Any]) -> None:
    """A ruleset's title, regulation, hand size and equal outcome; how a best hand is made
    and the pot's halves (where own cards are chosen)."""
    reg = data["regulation"]
    print(f"{data['id']}: {data['title']}")
    print(
        f"{reg['citation']} (confidence: {reg['confidence']}); current through "
        f"{reg['current_through']}"
    )
    print(f"{data['hand_size']} cards; equal hands: {data['equal_outcome']}")
    sel = data["selection"]
    if sel is not None:
        uses = (
            f"{sel['min_hole']}"
            if sel["min_hole"] == sel["max_hole"]
            else f"{sel['min_hole']} to {sel['max_hole']}"
        )
        print(
            f"best hand: the best {data['hand_size']} of {sel['hole']} own cards [{sel['clause']}]"
            if not sel["board"]
            else f"best hand: {uses} of {sel['hole']} own cards with {sel['board']} board "
            f"cards [{sel['clause']}]"
        )
    for half in data["halves"] if sel is not None else []:
        q = half["qualifier"]
        gate = (
            ""
            if q is None
            else (f", only {'/'.join(q['categories'])} of {q['max_rank']} or lower [{q['clause']}]")
        )
        print(f"pot half {half['name']}: ranked by {half['ranks_by']}{gate}")
    print()


def _print_tables(data: Mapping[str, Any]) -> None:
    """A ruleset's clauses (with our summaries) and its categories, best first."""
    print(
        tabulate(
            [[c["label"], c["summary"]] for c in data["clauses"]],
            headers=["clause", "summary (ours)"],
            maxcolwidths=[None, 80],
        )
    )
    print()
    print(
        tabulate(
            [[i + 1, c["name"], c["label"], c["clause"]] for i, c in enumerate(data["categories"])],
            headers=["rank", "category", "regulation's words", "clause"],
        )
    )
    print()


def _print_qualifier_and_readings(data: Mapping[str, Any]) -> None:
    """A ruleset's dealer qualifier, if any, and each interpretation with its readings."""
    q = data["qualifier"]
    if q is not None:
        print(
            f"dealer qualifier: {q['words']} (lowest qualifying hand {q['minimum']}; "
            f"{q['confidence']}{', ' + q['clause'] if q['clause'] else ''}; source: "
            f"{q['source']})\n"
        )
    for i in data["interpretations"]:
        print(f"interpretation {i['id']} ({', '.join(i['clauses'])}): {i['title']}")
        for name, summary in i["readings"].items():
            mark = " (default)" if name == i["default"] else ""
            print(f"  {name}{mark}: {summary}")


def _hand_json(v: HandValue) -> dict[str, Any]:
    return {
        "cards": format_cards(v.cards),
        "played": format_cards(v.played),
        "category": v.category,
        "key": list(v.key),
    }


def _selects(ev: Evaluator, cards: str, board: str | None) -> bool:
    """Whether ``cards`` (+ ``board``) are chosen from (hold'em, Omaha, stud's seven)
    rather than valued as one hand of the ruleset's size."""
    sel = ev.ruleset.selection
    return sel is not None and (board is not None or len(cards.split()) != ev.ruleset.hand_size)


def _half_json(ev: Evaluator, half: str, best: BestHand | None) -> dict[str, Any] | None:
    """One half's best hand, its category in the words of the ranking it is ranked by and
    the clauses that chose and ranked it (None: nothing qualifies for this half)."""
    spec = ev.ruleset.half(half)
    ranking = get_ruleset(spec.ranks_by) if spec.ranks_by else ev.ruleset
    if best is None:
        return None
    sel = ev.ruleset.selection
    clauses = [
        c
        for c in (
            sel.clause if sel else None,
            spec.clause,
            spec.qualifier.clause if spec.qualifier else None,
            ranking.category(best.category).clause,
        )
        if c
    ]
    return {
        **_hand_json(best.value),
        "category_label": ranking.category(best.category).label,
        "alternatives": [format_cards(sort_cards(a)) for a in best.alternatives],
        "clauses": list(dict.fromkeys(clauses)),
    }


def _half_line(name: str, hand: dict[str, Any] | None, ev: Evaluator) -> str:
    if hand is None:
        qualifier = ev.ruleset.half(name).qualifier
        rule = f" [{qualifier.clause}]" if qualifier else ""
        return f"{name}: no qualifying {name}{rule}"
    played = f" (played as {hand['played']})" if hand["played"] != hand["cards"] else ""
    return (
        f"{name}: {hand['cards']}{played}: {hand['category']} - {hand['category_label']} "
        f"[{', '.join(hand['clauses'])}]"
    )


def _half_cell(ev: Evaluator, half: str, hand: dict[str, Any] | None) -> str:
    """A player's hand for one half in the showdown's table: in a half ranked low, the
    low in a player's words (``7-4-3-2-A low``; a paired low by its ranking's label),
    not the category's name, which is the high ranking's (``high_card``)."""
    if hand is None:
        return "-"
    spec = ev.ruleset.half(half)
    ranking = get_ruleset(spec.ranks_by) if spec.ranks_by else ev.ruleset
    if ranking.rules.get("direction") != "low":
        return f"{hand['category']} {hand['cards']}"
    order = "KQJT98765432A" if ranking.rules.get("ace") == "low" else "AKQJT98765432"
    ranks = sorted(
        (card[:-1] for card in hand["played"].split()),
        key=lambda r: order.index(r) if r in order else len(order),
    )
    low = f"{'-'.join(ranks)} low"
    if hand["category"] != ranking.categories[0].name:  # paired: the label says how
        low = f"{hand['category_label']} {low}"
    return f"{low} {hand['cards']}"


def cmd_evaluate(args: argparse.Namespace) -> int:
    ev = evaluator(args.ruleset, args.profile)
    cards = " ".join(args.cards)
    check_board(ev, args.board, len(cards.replace(",", " ").split()))
    if _selects(ev, cards, args.board):
        check_deal(ev, [cards], args.board, dealt=True, board_first=args.board_first)
    head = {"ruleset": ev.ruleset.id, "profile": ev.profile.name, "readings": ev.readings}
    if _selects(ev, cards, args.board):
        # each half of the pot on its own: high, and the low of split games and razz
        halves = {
            h.name: _half_json(ev, h.name, ev.best_hand(cards, args.board, half=h.name))
            for h in ev.ruleset.pot_halves
        }
        first = ev.ruleset.pot_halves[0].name
        data: dict[str, Any] = {**head, **(halves[first] or {}), "halves": halves}
        if args.json:
            print_json(data)
        else:
            for name, hand in halves.items():
                line = _half_line(name, hand, ev)
                print(line if len(halves) > 1 else line.split(": ", 1)[1])
        return ExitCode.OK
    value = ev.evaluate(cards)
    category = ev.ruleset.category(value.category)
    data = {
        **head,
        **_hand_json(value),
        "category_label": category.label,
        "clauses": [category.clause],
    }
    if args.json:
        print_json(data)
    else:
        played = f" (played as {data['played']})" if data["played"] != data["cards"] else ""
        print(
            f"{data['cards']}{played}: {value.category} - {category.label} "
            f"[{', '.join(data['clauses'])}]"
        )
    return ExitCode.OK


def cmd_showdown(args: argparse.Namespace) -> int:
    ev = evaluator(args.ruleset, args.profile)
    check_board(ev, args.board, min(len(h.replace(",", " ").split()) for h in args.hands))
    check_deal(ev, args.hands, args.board, dealt=True, board_first=args.board_first)
    pot = ev.pot(args.hands, args.board)
    names = [h.name for h in ev.ruleset.pot_halves]
    players: list[dict[str, Any]] = []
    for i, hand in enumerate(args.hands):
        best = {
            name: _half_json(ev, name, ev.best_hand(hand, args.board, half=name)) for name in names
        }
        players.append(
            {
                "player": i,
                "cards": format_cards(ev.parse_deal([hand], args.board)[0][0]),
                **best,
                "share": str(pot.shares[i]),
            }
        )
    data: dict[str, Any] = {
        "ruleset": ev.ruleset.id,
        "profile": ev.profile.name,
        "readings": ev.readings,
        "board": args.board,
        "halves": names,
        "players": players,
        "high": list(pot.high),
        "low": None if pot.low is None else list(pot.low),
        "shares": [str(s) for s in pot.shares],
    }
    if args.json:
        print_json(data)
        return ExitCode.OK
    rows = [
        [p["player"], p["cards"], *(_half_cell(ev, n, p[n]) for n in names), p["share"]]
        for p in players
    ]
    print(tabulate(rows, headers=["player", "cards", *names, "share"]))
    for name in names:
        won = data[name]
        who = ("no qualifying " + name) if won is None else ", ".join(f"player {i}" for i in won)
        print(f"{name}: {who}")
    print("odd chips: out of scope (shares are exact fractions)")
    return ExitCode.OK


def cmd_compare(args: argparse.Namespace) -> int:
    ev = evaluator(args.ruleset, args.profile)
    check_board(ev, args.board, min(len(h.replace(",", " ").split()) for h in args.hands))
    check_deal(ev, args.hands, args.board, dealt=False, board_first=args.board_first)
    values = ev.showdown(args.hands, args.board)
    best = max(v.key for v in values)
    winners = [i for i, v in enumerate(values) if v.key == best]
    outcome = "win" if len(winners) == 1 else ev.ruleset.equal_outcome
    clauses = deciding_clauses(ev, values)
    data: dict[str, Any] = {
        "ruleset": ev.ruleset.id,
        "profile": ev.profile.name,
        "readings": ev.readings,
        "hands": [_hand_json(v) for v in values],
        "winners": winners,
        "outcome": outcome,
        "clauses": clauses,
    }
    if args.json:
        print_json(data)
        return ExitCode.OK
    print(
        tabulate(
            [
                [i, h["cards"], h["category"], "winner" if i in winners else ""]
                for i, h in enumerate(data["hands"])
            ],
            headers=["hand", "cards", "category", ""],
        )
    )
    who = ", ".join(str(i) for i in winners)
    print(f"\n{outcome}: hand {who} (decided by {', '.join(clauses)})")
    return ExitCode.OK


def cmd_interpretations(args: argparse.Namespace) -> int:
    if args.interpretation is not None:
        return _one_interpretation(args)
    if args.json:
        print_json({"interpretations": interpretations_json()})
    elif args.markdown:
        print(interpretations_markdown(), end="")
    else:
        print(
            tabulate(
                [
                    [
                        i["id"],
                        i["question"],
                        ", ".join(i["clauses"]),
                        i["default"],
                        len(i["vectors"]),
                    ]
                    for i in interpretations_json()
                ],
                headers=["interpretation", "question", "clauses", "default", "vectors"],
                maxcolwidths=[None, 50, 30, None, None],
            )
        )
    return ExitCode.OK


def _one_interpretation(args: argparse.Namespace) -> int:
    """``interpretations ID``: one entry of the catalogue in full."""
    if args.markdown:
        raise UsageError("--markdown writes the whole catalogue: drop the ID, or use --json")
    iid = get_interpretation(args.interpretation).id  # an unknown id: did you mean
    (data,) = (i for i in interpretations_json() if i["id"] == iid)
    if args.json:
        print_json(data)
        return ExitCode.OK
    print(f"{data['id']}: {data['title']}")
    print(f"clauses: {', '.join(data['clauses'])}")
    print(f"rulesets: {', '.join(data['rulesets'])}")
    print("question:")
    print(textwrap.fill(data["question"], 88, initial_indent="  ", subsequent_indent="  "))
    print("readings:")
    for name, reading in data["readings"].items():
        mark = " (default)" if name == data["default"] else ""
        print(
            textwrap.fill(
                f"{name}{mark}: {reading['summary']}",
                88,
                initial_indent="  ",
                subsequent_indent="    ",
            )
        )
    print(f"vectors: {len(data['vectors'])} (--json lists them)")
    return ExitCode.OK
