"""The poker-room families: hold'em, Omaha, Omaha high-low, stud, stud high-low, razz.

Every family is a list of :class:`~.pots.Construction`: how a deal is built, the
property it promises, and the reason a reader can check.  The constructions' words (topic,
clause roles, flags, count, reason) are data, ``data/rooms.toml``; their dealing and
property are code, :mod:`.room_builds`.  The pots are settled by the
arithmetic of :mod:`.pots`, never by the reference engine.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any

from pokercert.reference import get_ruleset
from pokercert.reference.engine import Pot
from pokercert.vectors.generate import room_builds as rb
from pokercert.vectors.generate.common import A
from pokercert.vectors.generate.pots import (
    Construction,
    Dealer,
    Dealt,
    PotGame,
    differs,
    every_tie,
    family,
    no_low,
    pot_game,
)
from pokercert.vectors.generate.room_deals import categories, deals, razz_hands
from pokercert.vectors.generate.room_ranking import ranking, rejects
from pokercert.vectors.generate.worked import section

HOLDEM = "nj-holdem"
OMAHA = "nj-omaha"
OMAHA_HL = "nj-omaha-hi-lo"
STUD = "nj-seven-card-stud"
STUD_HL = "nj-stud-hi-lo"
RAZZ = "nj-razz"
ROOM_GAMES = (HOLDEM, OMAHA, OMAHA_HL, STUD, STUD_HL, RAZZ)


# the section whose ranking the games take over (their ``ranks_by``), from the files
N = get_ruleset(get_ruleset(HOLDEM).ranks_by or HOLDEM).regulation.section
HOLDEM_TEXT = ("RRoP-5", "13:69F-14.10(a)", "13:69F-14.10(e)", "13:69F-14.10(g)")
LOW_TEXT = (N + "(e)", N + "(f)")


# each game's shape: hole cards, board cards, exactly that many hole cards (None: any
# five of all the cards), and the halves of the pot
SHAPES: dict[str, tuple[int, int, int | None, tuple[str, ...]]] = {
    HOLDEM: (2, 5, None, ("high",)),
    OMAHA: (4, 5, 2, ("high",)),
    OMAHA_HL: (4, 5, 2, ("high", "low")),
    STUD: (7, 0, None, ("high",)),
    STUD_HL: (7, 0, None, ("high", "low")),
    RAZZ: (7, 0, None, ("razz",)),
}


def roles() -> dict[str, dict[str, tuple[str, ...]]]:
    """The clauses of each role in each game (``select``: how a hand is made; ``split``:
    how the pot is split; ``low``: the low order; ``cards``: the card order, where suits
    are equal and the ace may play low; ``speak``: the hand as dealt)."""
    cards, speak = (N + "(a)",), (N + "(g)",)
    omaha = ("RRoP-6", "RRoP-6.1")
    return {
        HOLDEM: {"select": HOLDEM_TEXT, "cards": cards, "speak": speak},
        OMAHA: {"select": omaha, "cards": cards, "speak": speak},
        OMAHA_HL: {
            "select": omaha,
            "split": ("RRoP-7", "RRoP-10"),
            "low": LOW_TEXT,
            "cards": cards,
            "speak": speak,
        },
        STUD: {"select": ("RRoP-8",), "cards": cards, "speak": speak},
        STUD_HL: {
            "select": ("RRoP-8",),
            "split": ("RRoP-10",),
            "low": LOW_TEXT,
            "cards": cards,
            "speak": speak,
        },
        RAZZ: {
            "select": ("RRoP-8", "RRoP-9"),
            "low": LOW_TEXT,
            "cards": (N + "(e)",),
            "speak": speak,
        },
    }


def games() -> dict[str, PotGame]:
    """The six games: their shape (:data:`SHAPES`) and the clauses of each role
    (:func:`roles`)."""
    by_role = roles()
    return {rid: pot_game(rid, *shape, by_role[rid]) for rid, shape in SHAPES.items()}


# --------------------------------------------------------------------------- constructions

Build = Callable[[Dealer], Dealt]
Holds = Callable[[Dealt, Pot], bool]


def made(
    game: str, name: str, build: Build, holds: Holds, split: int = 1, **words: object
) -> Construction:
    """The construction ``[game.name]`` of ``data/rooms.toml`` (its topic, roles, flags,
    count and reason, ``words`` filled into the reason) dealt by ``build`` with the
    property ``holds``; ``split`` divides the count where the data says so."""
    spec = section("rooms", game, name)
    count = spec["count"] // split if spec.get("split_divides") else spec["count"]
    why = spec["why"].format(**words) if words else spec["why"]
    return Construction(
        spec["topic"],
        tuple(spec["roles"]),
        tuple(spec["flags"]),
        why,
        build,
        holds,
        count,
        spec.get("tag"),
    )


def holdem(g: PotGame) -> dict[str, list[Construction]]:
    """Hold'em (any five of the seven cards): the board plays, board kickers, suits."""
    board_plays = []
    for top in range(6, A + 1):
        board_plays.append(
            made(
                "holdem",
                "straight-plays",
                partial(rb.holdem_straight_plays, top),
                every_tie,
                top=top if top < A else "ace",
            )
        )
        if top < A:
            board_plays.append(
                made(
                    "holdem",
                    "straight-beaten",
                    partial(rb.holdem_straight_beaten, top),
                    partial(rb.winners, 1),
                    top=top,
                )
            )
    board_plays += [
        made("holdem", "royal", rb.holdem_royal, every_tie),
        made("holdem", "boat", rb.holdem_boat, rb.anything),
    ]
    kickers = [
        made("holdem", "quads", rb.holdem_quads, rb.quads_kicker),
        made("holdem", "trips", rb.holdem_trips, partial(rb.trips_only, g)),
        made("holdem", "two-pair", rb.holdem_two_pair, partial(rb.board_two_pair, g)),
    ]
    suits = [made("holdem", "twins", rb.holdem_twins, partial(rb.holdem_twins_tie, g))]
    return {"board-plays": board_plays, "board-kickers": kickers, "suit-ties": suits}


def omaha(g: PotGame) -> dict[str, list[Construction]]:
    """Omaha (exactly two hole and three board cards), high only or high-low (two to
    four players there: every reading of the split is settled for each deal)."""
    most = 5 if "low" not in g.halves else 3
    split = 1 if "low" not in g.halves else 2  # half as many deals where costly
    other_pot = differs(g, replace(g, exact=None))
    two_hole = [
        made("omaha", name, partial(build, most), other_pot, split)
        for name, build in (
            ("board-flush", rb.omaha_board_flush),
            ("four-suited", rb.omaha_four_suited),
            ("trips-in-hand", rb.omaha_trips_in_hand),
            ("board-plays", rb.omaha_board_plays),
        )
    ]
    out = {
        "two-hole": two_hole,
        "suit-ties": [made("omaha", "twins", rb.omaha_twins, rb.no_flush_twins)],
    }
    if "low" not in g.halves:
        return out
    out["lows"] = [
        made("omaha", "wheel", rb.omaha_wheel, rb.first_seat_low),
        made("omaha", "nine-low", rb.omaha_nine_low, no_low),
        made("omaha", "paired-board", rb.omaha_paired_board, no_low),
        made("omaha", "quarter", rb.omaha_quarter, rb.quartered),
    ]
    return out


def stud(g: PotGame) -> dict[str, list[Construction]]:
    """Seven-card stud, high or high-low: the best five of each player's seven cards
    (two to four players in high-low: every reading of the split is settled)."""
    more = 5 if "low" not in g.halves else 2
    out = {
        "stud-hands": [
            made(
                "stud",
                "flush-straight",
                partial(rb.stud_flush_straight, more),
                partial(rb.four_flush_straight, g),
            ),
            made("stud", "late", partial(rb.stud_late, more), partial(rb.first_five_differs, g)),
        ],
        "suit-ties": [
            made("stud", "twins", partial(rb.same_ranks_twins, size=7, more=2), rb.stud_twins_tie)
        ],
    }
    if "low" not in g.halves:
        return out
    out["lows"] = [
        made("stud", "wheel", rb.stud_wheel, rb.first_seat_scoops),
        made("stud", "nine", rb.stud_nine, no_low),
        made("stud", "quarter", rb.stud_quarter, rb.two_lows),
        made("stud", "both-halves", rb.stud_both_halves, rb.first_seat_high),
    ]
    return out


def razz(g: PotGame) -> dict[str, list[Construction]]:
    """Razz: the best ace-to-five low of seven cards, pairs count, no qualifier."""
    # the final five-card hands of corpus 1.11 (nj-razz/7170-7199, retired: razz deals
    # seven cards each) are compares of the family razz-hands (see families below)
    return {
        "razz": [
            made("razz", "paired", rb.razz_paired, rb.anything),
            made("razz", "wheel", rb.razz_wheel, rb.first_seat_low),
        ],
        "suit-ties": [
            made("razz", "twins", partial(rb.same_ranks_twins, size=7, more=2), rb.low_twins_tie)
        ],
    }


def families(rid: str) -> dict[str, Callable[[], list[dict[str, Any]]]]:
    """Topic -> builder of that ruleset's generated file."""
    g = games()[rid]
    if rid == HOLDEM:
        cons = holdem(g)
    elif rid in (OMAHA, OMAHA_HL):
        cons = omaha(g)
    elif rid in (STUD, STUD_HL):
        cons = stud(g)
    else:
        cons = razz(g)
    if "high" in g.halves:
        cons["categories"] = categories(g, 10 if len(g.halves) == 1 else 6)
    cons["deals"] = deals(g)
    seed = sum(map(ord, rid))
    out: dict[str, Callable[[], list[dict[str, Any]]]] = {
        topic: partial(family, g, c, seed + sum(map(ord, topic))) for topic, c in cons.items()
    }
    out["ranking"] = partial(ranking, g, seed + sum(map(ord, "ranking")))
    if rid == RAZZ:
        out["razz-hands"] = partial(razz_hands, g, seed)
    out["reject"] = partial(rejects, g)
    return out
