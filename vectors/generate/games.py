"""What the generator knows of each ruleset it builds families for.

The shape of a game (regulation section, hand size, high or low, jokers, the word for an
equal outcome) and its category -> clause table are read from the ruleset files through
:func:`pokercert.reference.get_ruleset`, never typed again here.  What the files do not
say is the role a clause plays in the generator's constructions (which clause orders the
cards, which breaks ties, which says suits are equal, cards speak) and which
interpretation can change a family's expectation: those are the arguments of
:func:`game`.
"""

from __future__ import annotations

from dataclasses import dataclass

from pokercert.reference import get_ruleset
from pokercert.reference.categories import CategoryName


@dataclass(frozen=True)
class TableGame:
    """What the generator must know of a ruleset: its clause labels and shape.

    Named apart from :class:`pokercert.vectors.dealing.Game` (what a dealer reads of a
    ruleset under a profile, for drawn deals) and :class:`.pots.PotGame` (a poker-room
    game's pot arithmetic): a table game is a ruleset whose vectors are hand-built.
    """

    rid: str
    sec: str
    size: int
    direction: str  # high | low
    ranks: str  # card-order clause
    order: str  # category-order clause
    tie: str  # same-category clause
    suits: str  # clause saying suits are equal (or the tie clause)
    cats: dict[str, str]  # category -> clause
    speak: str | None = None  # cards-speak clause
    low_ace: str = ""  # "one" (A-5: ace is the best card) | "high" (2-7)
    royal: str | None = (
        CategoryName.ROYAL_FLUSH
    )  # category of A-K-Q(-J-T) suited, None: no separate one
    straight_interp: str | None = None  # interpretation that can unmake every straight
    wheel_interp: str | None = None  # interpretation deciding whether A-2-3-4-5 is a straight
    ace_pair_interp: str | None = None  # interpretation deciding where A-A stands (low)
    jokers: int = 0
    word: str = "split"

    def L(self, *short: str) -> list[str]:
        """Full clause labels for short clause ids (labels pass through), without repeats."""
        out = []
        for s in short:
            label = s if s.startswith(self.sec) else self.sec + s
            if label not in out:
                out.append(label)
        return out

    def cat(self, category: str) -> str:
        """The short id of the clause that defines ``category``."""
        return self.cats[category]


def game(
    rid: str,
    ranks: str,
    order: str,
    tie: str,
    suits: str,
    *,
    speak: str | None = None,
    low_ace: str = "",
    royal: str | None = CategoryName.ROYAL_FLUSH,
    straight_interp: str | None = None,
    wheel_interp: str | None = None,
    ace_pair_interp: str | None = None,
) -> TableGame:
    """The :class:`TableGame` of ruleset ``rid``: its shape and categories from the ruleset file.

    The clause arguments are short clause ids of the ruleset's regulation: the card order
    (``ranks``), the category order, the same-category tiebreak, the clause saying suits
    are equal, and cards speak.
    """
    rs = get_ruleset(rid)
    sec = rs.regulation.section
    return TableGame(
        rid,
        sec,
        rs.hand_size,
        rs.rules["direction"],
        ranks,
        order,
        tie,
        suits,
        {c.name: c.clause.removeprefix(sec) for c in rs.categories},
        speak=speak,
        low_ace=low_ace,
        royal=royal,
        straight_interp=straight_interp,
        wheel_interp=wheel_interp,
        ace_pair_interp=ace_pair_interp,
        jokers=rs.jokers,
        word=rs.equal_outcome,
    )


GAMES = {
    g.rid: g
    for g in (
        game("nj-poker-high-5", "(a)", "(b)", "(d)", "(a)", speak="(g)"),
        game("nj-caribbean-stud", "(a)", "(b)", "(c)", "(c)"),
        game("nj-winners-pot", "(a)", "(b)", "(c)", "(c)", straight_interp="unsuited"),
        game("mt-poker-high", "(1)", "(2)", "(3)", "(4)", wheel_interp="mt-wheel"),
        game("nj-poker-high-3", "(a)", "(c)", "(d)", "(a)", speak="(g)"),
        game("nj-mini-tex-3", "(a)", "(b)", "(c)", "(c)", royal=None),
        # three-card poker (13:69F-20.3): a straight above a flush, no royal flush named
        game("nj-three-card-poker", "(a)", "(b)", "(c)", "(a)", royal=None),
        # payout-category games: only the card order, the category order and the categories
        # are in the retrieved texts (the tie argument names the category-order clause)
        game("nj-double-down-stud", "(a)", "(b)", "(b)", "(a)"),
        game("nj-double-cross-poker", "(a)", "(b)", "(b)", "(a)"),
        game("nj-four-card-poker", "(a)", "(b)", "(c)", "(a)", royal=None),
        # the Montana deuces-wild postings (generate/deuces.py)
        game("mt-poker-high-deuces", "(1)", "(2)", "(3)", "(4)", wheel_interp="mt-wheel"),
        game(
            "mt-poker-low-deuces",
            "(1)",
            "(2)",
            "(3)",
            "(4)",
            low_ace="one",
            straight_interp="mt-low-order",
        ),
        game(
            "nj-poker-low-5",
            "(e)",
            "(f)",
            "(d)",
            "(e)",
            speak="(g)",
            low_ace="one",
            ace_pair_interp="low-pair-inverse",
        ),
        # mt-poker-low's file defines straight, flush and straight flush: they are ranked
        # only under the literal reading of mt-low-order
        game(
            "mt-poker-low",
            "(1)",
            "(2)",
            "(3)",
            "(4)",
            low_ace="one",
            straight_interp="mt-low-order",
        ),
        game(
            "nj-poker-low-3",
            "(e)",
            "(f)",
            "(d)",
            "(e)",
            speak="(g)",
            low_ace="one",
            ace_pair_interp="low-pair-inverse",
        ),
        game(
            "nj-lowball-2-7",
            "(e)",
            "(f)",
            "(d)",
            "(e)",
            speak="(g)",
            low_ace="high",
            wheel_interp="lowball-wheel",
        ),
        # South Dakota five-card low draw (ARSD 20:18:16:12(2)); its clauses share the
        # section prefix 20:18:16: with the ranking it cites (03, 31(5))
        game(
            "sd-draw-low",
            "03",
            "12(2)",
            "03",
            "31(5)",
            low_ace="one",
            straight_interp="sd-low-order",
        ),
    )
}
