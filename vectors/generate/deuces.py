"""Families for the Montana 'deuces wild' postings (mt-poker-high-deuces, -low-deuces).

ARM 23.16.1205(5) says only "Wild cards may be used"; which cards are wild is the card
room's posting.  Two families cover the posting "the four twos are wild":

* ``deuces-natural-*``: every classify and compare vector of the joker posting (the
  ``mt-poker-high`` / ``mt-poker-low`` corpus) in which no deuce and no joker is dealt.
  Nothing in such a deal is wild under either posting, so the hands rank exactly as that
  vector says; the vector is carried over with its expectations, clauses and readings,
  and its ``why`` names the vector it comes from.
* ``deuces-wild``: hands with deuces, each worked out by hand below: five of a kind
  (four deuces and any card is five of that card's rank: the 'four deuces' row of the
  pay tables folds in here), wild royal and straight flushes, two deuces completing a
  straight flush against natural four of a kind, natural against wild hands of equal
  value, and, in low, deuces playing as the ace and the missing low card.
"""

from __future__ import annotations

import tomllib
from itertools import pairwise
from typing import Any

from pokercert.reference import get_ruleset
from pokercert.vectors import registry
from pokercert.vectors.generate.common import classify, compare
from pokercert.vectors.generate.games import TableGame
from pokercert.vectors.generate.worked import rows, section
from pokercert.vectors.model import Kind

CARRIED_KINDS = (Kind.CLASSIFY, Kind.COMPARE)
PART = 100  # vectors per carried-over family file (one generated id block)


def _dealt(rec: dict[str, Any]) -> list[str]:
    return [t for h in [rec.get("hand", ""), *rec.get("hands", ())] for t in h.split()]


def carried_over(source: str) -> list[dict[str, Any]]:
    """The classify and compare vectors of ``source`` with no deuce and no joker dealt,
    by id, as records for the deuces posting of the same game."""
    out = []
    folder = registry.PACKAGE_ROOT / source
    records = []
    for path in sorted(folder.glob("*.toml")):
        records += tomllib.loads(path.read_text(encoding="utf-8")).get("vector", [])
    for rec in sorted(records, key=lambda r: r["id"]):
        if rec["kind"] not in CARRIED_KINDS or any(t[0] == "2" or t == "Xx" for t in _dealt(rec)):
            continue
        new = {k: v for k, v in rec.items() if k != "id"}
        new["why"] = f"No deuce dealt, nothing wild: as {rec['id']}. {rec['why']}"
        out.append(new)
    return out


def fam_carried(source: str, part: int) -> list[dict[str, Any]]:
    """Part ``part`` (0-based) of :func:`carried_over`, :data:`PART` vectors each."""
    return carried_over(source)[part * PART : (part + 1) * PART]


def fam_deuces_high(g: TableGame) -> list[dict[str, Any]]:
    """Deuces wild in high poker, every vector worked out by hand (``data/deuces.toml``)."""
    return _worked(g, "high")


def _worked(g: TableGame, posting: str) -> list[dict[str, Any]]:
    """The classify groups, the comparisons in both seats, then the category order, of
    ``posting``'s section of the hand-worked table."""
    out = [_classify_row(g, row) for row in rows(section("deuces", posting, "classify"))]
    return (
        out
        + _both_seats(g, section("deuces", posting, "compare"))
        + _adjacent(g, section("deuces", posting, "examples"))
    )


def _classify_row(g: TableGame, row: dict[str, Any]) -> dict[str, Any]:
    literal = row.get("literal")
    words = literal.replace("_", " ") if literal else ""
    why = row["why"].format(**row, literal_words=words)
    return classify(
        row["hand"].split(),
        row["category"],
        g.L(*row["clauses"]),
        row["flags"],
        why,
        literal,
        row.get("interp"),
    )


def _adjacent(g: TableGame, examples: dict[str, str]) -> list[dict[str, Any]]:
    """Neighbouring categories of the ranking in use, natural hands, both seats."""
    ranking = [c for c in get_ruleset(g.rid).rules["categories"] if c in examples]
    out = []
    for upper, lower in pairwise(ranking):
        a, b = examples[upper].split(), examples[lower].split()
        for seat in range(2):
            hands = [a, b] if seat == 0 else [b, a]
            out.append(
                compare(
                    hands,
                    [seat],
                    g.L("(2)", g.cat(upper), g.cat(lower)),
                    ["category-order"],
                    f"No deuce dealt: {' '.join(a)} ({upper.replace('_', ' ')}) "
                    f"beats {' '.join(b)} ({lower.replace('_', ' ')}) by the "
                    "order of (2).",
                )
            )
    return out


def _both_seats(g: TableGame, compares: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each comparison in both seat orders; ``interp`` set: the literal reading reverses
    a decided outcome (the only way these comparisons depend on a reading)."""
    out = []
    for row in compares:
        a, b = (h.split() for h in row["hands"])
        win, interp = row["winners"], row.get("interp")
        for seat in range(2):
            hands = [a, b] if seat == 0 else [b, a]
            winners = win if seat == 0 or len(win) == 2 else [1 - win[0]]
            literal = None
            if interp == "mt-low-order":
                literal = [0, 1]
            elif interp is not None:
                literal = [1 - winners[0]]
            out.append(
                compare(
                    hands, winners, g.L(*row["clauses"]), row["flags"], row["why"], literal, interp
                )
            )
    return out


def fam_deuces_low(g: TableGame) -> list[dict[str, Any]]:
    """Deuces wild in ace-to-five low, every vector worked out by hand (``data/deuces.toml``)."""
    return _worked(g, "low")
