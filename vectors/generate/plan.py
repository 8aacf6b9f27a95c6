"""The plan: which families each ruleset gets, in a fixed order."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from pokercert.reference.categories import CategoryName
from pokercert.reference.pai_gow import pai_gow_rules
from pokercert.reference.rulesets import all_rulesets
from pokercert.vectors.generate.categories import (
    fam_flushes,
    fam_full_houses,
    fam_high_cards,
    fam_pairs,
    fam_quads,
    fam_straight_flushes,
    fam_straights,
    fam_trips,
    fam_two_pair,
)
from pokercert.vectors.generate.deuces import fam_carried, fam_deuces_high, fam_deuces_low
from pokercert.vectors.generate.games import GAMES, TableGame
from pokercert.vectors.generate.holdem import fam_best_hand, fam_pocket
from pokercert.vectors.generate.low import fam_aces, fam_low_straights_flushes
from pokercert.vectors.generate.pennsylvania import pa_families
from pokercert.vectors.generate.reject import fam_reject
from pokercert.vectors.generate.reject_pai_gow import fam_reject_pai_gow
from pokercert.vectors.generate.rooms import ROOM_GAMES, families
from pokercert.vectors.generate.rooms_sd import SD_ROOM_GAMES, sd_families
from pokercert.vectors.generate.showdowns import fam_cards_speak, fam_multiway, fam_suit_ties
from pokercert.vectors.generate.tables import fam_table_classify, fam_table_order
from pokercert.vectors.ids import FAMILY_BASE


@dataclass
class Family:
    """One generated file: a family of vectors of one ruleset and its id block."""

    ruleset: str
    topic: str
    build: Callable[[], list[dict[str, Any]]]
    title: str = ""
    base: int = field(init=False)

    def __post_init__(self) -> None:
        self.base = FAMILY_BASE[self.topic]


def plan() -> list[Family]:
    """Every generated family, per ruleset, in a fixed order."""
    return [
        *_high_games(),
        *_low_games(),
        *_table_games(),
        *_deuces_games(),
        *_room_games(),
        *(Family(rid, topic, build) for rid, topic, build in pa_families()),
        *_sd_draw_games(),
        *_pai_gow_games(),
    ]


def _high_games() -> list[Family]:
    """The five- and three-card high games (and Mini-tex's best hand)."""
    fams: list[Family] = []
    for rid in ("nj-poker-high-5", "nj-caribbean-stud", "nj-winners-pot", "mt-poker-high"):
        g = GAMES[rid]
        for topic, fn in (
            ("straights", fam_straights),
            ("straight-flushes", fam_straight_flushes),
            ("quads", fam_quads),
            ("full-houses", fam_full_houses),
            ("flushes", fam_flushes),
            ("trips", fam_trips),
            ("two-pair", fam_two_pair),
            ("pairs", fam_pairs),
            ("high-cards", fam_high_cards),
            ("suit-ties", fam_suit_ties),
            ("multiway", fam_multiway),
            ("cards-speak", fam_cards_speak),
            ("reject", None),
        ):
            fams.append(Family(rid, topic, _bind(fn, g, rid)))
    for rid in ("nj-poker-high-3", "nj-mini-tex-3", "nj-three-card-poker"):
        g = GAMES[rid]
        for topic, fn in (
            ("straights", fam_straights),
            ("straight-flushes", fam_straight_flushes),
            ("trips", fam_trips),
            ("flushes", fam_flushes),
            ("pairs", fam_pairs),
            ("high-cards", fam_high_cards),
            ("suit-ties", fam_suit_ties),
            ("multiway", fam_multiway),
            ("cards-speak", fam_cards_speak),
            ("reject", None),
        ):
            fams.append(Family(rid, topic, _bind(fn, g, rid)))
        if rid == "nj-mini-tex-3":
            fams.append(Family(rid, "best-hand", _bind(fam_best_hand, g, rid)))
    return fams


def _low_games() -> list[Family]:
    """The low games: ace-to-five (five and three cards) and deuce-to-seven."""
    fams: list[Family] = []
    for rid in ("nj-poker-low-5", "mt-poker-low", "nj-lowball-2-7"):
        g = GAMES[rid]
        topics: list[tuple[str, Any]] = [
            ("quads", fam_quads),
            ("full-houses", fam_full_houses),
            ("trips", fam_trips),
            ("two-pair", fam_two_pair),
            ("pairs", fam_pairs),
            ("high-cards", fam_high_cards),
            ("straights", fam_low_straights_flushes),
            ("suit-ties", fam_suit_ties),
            ("multiway", fam_multiway),
            ("cards-speak", fam_cards_speak),
            ("reject", None),
        ]
        if g.ace_pair_interp:
            topics.append(("aces", fam_aces))
        for topic, fn in topics:
            fams.append(Family(rid, topic, _bind(fn, g, rid)))
    g = GAMES["nj-poker-low-3"]
    for topic, fn in (
        ("trips", fam_trips),
        ("pairs", fam_pairs),
        ("high-cards", fam_high_cards),
        ("straights", fam_low_straights_flushes),
        ("suit-ties", fam_suit_ties),
        ("multiway", fam_multiway),
        ("cards-speak", fam_cards_speak),
        ("reject", None),
        ("aces", fam_aces),
    ):
        fams.append(Family(g.rid, topic, _bind(fn, g, g.rid)))
    return fams


def _sd_draw_games() -> list[Family]:
    """South Dakota five-card low draw (sdroom29, issue 29): the ace-to-five low families,
    the literal reading of sd-low-order (straights and flushes count) per vector."""
    g = GAMES["sd-draw-low"]
    topics: list[tuple[str, Any]] = [
        ("quads", fam_quads),
        ("full-houses", fam_full_houses),
        ("trips", fam_trips),
        ("two-pair", fam_two_pair),
        ("pairs", fam_pairs),
        ("high-cards", fam_high_cards),
        ("straights", fam_low_straights_flushes),
        # no suit-ties family: it tags the interpretation suits-equal, and 31(5) says in
        # words that suits do not count (hand-worked ties in sd-draw-low/worked.toml)
        ("multiway", fam_multiway),
        ("cards-speak", fam_cards_speak),
        ("reject", None),
    ]
    return [Family(g.rid, topic, _bind(fn, g, g.rid)) for topic, fn in topics]


def _table_games() -> list[Family]:
    """The table games whose texts order categories only."""
    fams: list[Family] = []
    # table games whose texts order categories only (see generate/tables.py); the
    # categories whose own clause names the best and the worst hand get those compared
    four_card = (
        CategoryName.FOUR_OF_A_KIND,
        CategoryName.STRAIGHT_FLUSH,
        CategoryName.THREE_OF_A_KIND,
        CategoryName.STRAIGHT,
        CategoryName.ONE_PAIR,
    )
    extremes: tuple[str, ...]
    for rid, extremes in (
        ("nj-double-down-stud", (CategoryName.ONE_PAIR,)),
        ("nj-double-cross-poker", ()),
        ("nj-four-card-poker", four_card),
    ):
        g = GAMES[rid]
        fams.append(Family(rid, "table-classify", _bind(fam_table_classify, g, rid)))
        fams.append(Family(rid, "table-order", partial(fam_table_order, g, extremes)))
        fams.append(Family(rid, "reject", _bind(None, g, rid)))
    return fams


def _deuces_games() -> list[Family]:
    """The deuces-wild postings and Mini-tex's pocket hands."""
    fams: list[Family] = []
    # the deuces-wild postings of Montana (generate/deuces.py)
    for rid, source, wild in (
        ("mt-poker-high-deuces", "mt-poker-high", fam_deuces_high),
        ("mt-poker-low-deuces", "mt-poker-low", fam_deuces_low),
    ):
        g = GAMES[rid]
        for part in range(3):
            if fam_carried(source, part):
                fams.append(
                    Family(rid, f"deuces-natural-{part + 1}", partial(fam_carried, source, part))
                )
        fams.append(Family(rid, "deuces-wild", _bind(wild, g, rid)))
        fams.append(Family(rid, "reject", _bind(None, g, rid)))
    fams.append(Family("nj-mini-tex-pocket", "pocket", lambda: fam_pocket(GAMES["nj-mini-tex-3"])))
    fams.append(
        Family("nj-mini-tex-pocket", "reject", lambda: fam_reject(None, "nj-mini-tex-pocket"))
    )
    return fams


def _room_games() -> list[Family]:
    """The poker-room games (generate/rooms.py)."""
    return [
        Family(rid, topic, build) for rid in ROOM_GAMES for topic, build in families(rid).items()
    ] + [
        # South Dakota's poker-room games (sdroom29, issue 29): generate/rooms_sd.py
        Family(rid, topic, build)
        for rid in SD_ROOM_GAMES
        for topic, build in sd_families(rid).items()
    ]


def _pai_gow_games() -> list[Family]:
    """The pai gow games (reference/pai_gow.toml, fuzz29, issue 29): reject vectors
    through compare_two_card, setting and settle (generate/reject_pai_gow.py)."""
    return [
        Family(rs.id, "reject", partial(fam_reject_pai_gow, rs.id))
        for rs in all_rulesets()
        if pai_gow_rules(rs.id) is not None
    ]


def _bind(
    fn: Callable[[TableGame], list[dict[str, Any]]] | None, g: TableGame, rid: str
) -> Callable[[], list[dict[str, Any]]]:
    if fn is None:
        return lambda: fam_reject(g, rid)
    return lambda: fn(g)
