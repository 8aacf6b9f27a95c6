"""What the data of two rulesets says differently, point by point (``rules diff``).

:func:`ruleset_diff` is a pure function of two :class:`Ruleset` objects (and the
interpretation catalogue they name): a tuple of :class:`Difference`, each one fact of
one :data:`ASPECTS` (a category only one ranks, a pair of categories the two order the
other way round, an engine knob set differently, the hand size, the wild cards, the
qualifier, the word for equal hands, pai gow's questions beyond the five-card ranking,
an interpretation only one has...).  Nothing is rendered here: the command line makes a
table or JSON of the list.

The pai gow points come from ``reference/pai_gow.toml`` (:func:`pai_gow_rules`), so a
pai gow game added there is compared with no change here: whether a ruleset has the
two-card hand, setting and settlement questions, the setting rule and the interpretation
it is read under, what the joker is in the two-card hand, who takes a copy and what a
player's foul setting does.

The behavioural diff (which vectors decide differently) is
:mod:`pokercert.vectors.behaviour_diff`; this module says why they might.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any

from pokercert.reference.interpretations import get_interpretation
from pokercert.reference.pai_gow import GAMES_FILE, low_hand_label, pai_gow_rules
from pokercert.reference.rulesets import Half, Ruleset

__all__ = ["ASPECTS", "KNOB_WORDS", "Difference", "Value", "knob_aspect", "ruleset_diff"]

# what a difference is about, in the order a diff lists them
ASPECTS: tuple[str, ...] = (
    "categories",  # a category only one of the two ranks
    "order",  # the ranking, and each pair of categories ranked the other way round
    "labels",  # the regulations' words for a category both rank
    "direction",  # high or low poker
    "wheel",  # how the ace plays: in straights (the wheel A-2-3-4-5), as a card
    "wild",  # jokers in the deck, which cards are wild and how far
    "hand",  # hand size, and how a hand is chosen from hole and board cards
    "halves",  # the halves a pot is split into and their qualifiers
    "qualifier",  # the dealer's qualifying hand
    "equal_outcome",  # the word for hands still equal: split, push or tie
    "pai_gow",  # pai gow's two-card hand, setting rule and settlement (pai_gow.toml)
    "interpretations",  # an ambiguous clause only one of the two is read under
    "rules",  # any other engine knob
)

# the aspect an engine knob of ``rules`` belongs to (any other knob: "rules")
# (keywords, not string keys: the ``five_of_a_kind`` knob shares a category's name, and
# category names are written only through CategoryName)
KNOB_ASPECTS: dict[str, str] = dict(
    direction="direction",
    ace="wheel",
    straight_ace="wheel",
    straight_suits="wheel",
    five_of_a_kind="wild",
    wild_duplicates="wild",
)

# the aspect of a knob the table above does not name, by a word in its name (a knob added
# later for the wheel's place or wraparounds is "wheel", one for jokers "wild")
KNOB_WORDS_ASPECTS: tuple[tuple[str, str], ...] = (
    ("wheel", "wheel"),
    ("wrap", "wheel"),
    ("straight_", "wheel"),
    ("wild", "wild"),
    ("joker", "wild"),
)


def knob_aspect(knob: str) -> str:
    """The aspect a difference in engine knob ``knob`` belongs to."""
    if knob in KNOB_ASPECTS:
        return KNOB_ASPECTS[knob]
    return next((aspect for word, aspect in KNOB_WORDS_ASPECTS if word in knob), "rules")


# a knob's value in words, where one word is not self-explaining
KNOB_WORDS: dict[tuple[str, str], str] = {
    ("straight_ace", "both"): "the ace plays high or low in a straight: A-2-3-4-5 is the "
    "lowest straight",
    ("straight_ace", "high"): "the ace plays only high in a straight: A-2-3-4-5 is no straight",
    ("straight_ace", "low"): "the ace plays only low in a straight: A-K-Q-J-10 is no straight",
    ("direction", "high"): "the highest hand wins",
    ("direction", "low"): "the lowest hand wins",
    ("ace", "high"): "the ace is the highest card",
    ("ace", "low"): "the ace is the lowest card",
}

# a JSON-able value of one side of a difference (None: the ruleset has no such thing)
Value = str | int | tuple[str, ...] | None


@dataclass(frozen=True)
class Difference:
    """One fact on which ruleset ``a`` and ruleset ``b`` differ.

    ``aspect`` is one of :data:`ASPECTS`; ``item`` what within it (a category name, a
    knob, ``hand_size``...); ``a`` and ``b`` each side's value (None: that ruleset has
    none); ``note`` the difference in words; ``clauses_a``/``clauses_b`` the clause
    labels each ruleset states it in (empty where its data names none).
    """

    aspect: str
    item: str
    a: Value
    b: Value
    note: str
    clauses_a: tuple[str, ...] = ()
    clauses_b: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        """The stable JSON form (tuples as lists)."""

        def plain(v: Value) -> Any:
            return list(v) if isinstance(v, tuple) else v

        return {
            "aspect": self.aspect,
            "item": self.item,
            "a": plain(self.a),
            "b": plain(self.b),
            "note": self.note,
            "clauses_a": list(self.clauses_a),
            "clauses_b": list(self.clauses_b),
        }


def ruleset_diff(a: Ruleset, b: Ruleset) -> tuple[Difference, ...]:
    """Every difference between ``a`` and ``b``, in :data:`ASPECTS` order (empty: the two
    rulesets' data agree on everything a diff compares; their clauses are their own)."""
    found = [
        *_categories(a, b),
        *_order(a, b),
        *_labels(a, b),
        *_knobs(a, b),
        *_wild(a, b),
        *_hand(a, b),
        *_halves(a, b),
        *_qualifier(a, b),
        *_equal(a, b),
        *_pai_gow(a, b),
        *_interpretations(a, b),
    ]
    return tuple(sorted(found, key=lambda d: ASPECTS.index(d.aspect)))


def _ranking(rs: Ruleset) -> tuple[str, ...]:
    """The categories ``rs`` ranks, best first (the ranking in use, not every defined)."""
    return tuple(str(c) for c in rs.rules["categories"])


def _categories(a: Ruleset, b: Ruleset) -> list[Difference]:
    out = []
    for this, other, flip in ((a, b, False), (b, a, True)):
        for name in _ranking(this):
            if name in _ranking(other):
                continue
            cat = this.category(name)
            sides: tuple[Value, Value] = (None, cat.label) if flip else (cat.label, None)
            clauses = ((), (cat.clause,)) if flip else ((cat.clause,), ())
            out.append(
                Difference(
                    "categories",
                    name,
                    *sides,
                    f"only {this.id} ranks {name} ({cat.label!r})",
                    *clauses,
                )
            )
    return out


def _order(a: Ruleset, b: Ruleset) -> list[Difference]:
    """The two rankings (when they differ), then each pair of shared categories that
    ``b`` ranks the other way round (none listed when ``b`` reverses them all: the
    ranking's note says so)."""
    ra, rb = _ranking(a), _ranking(b)
    if ra == rb:
        return []
    shared = [n for n in ra if n in rb]
    flipped = [(x, y) for x, y in combinations(shared, 2) if rb.index(x) > rb.index(y)]
    reversed_all = len(shared) > 2 and len(flipped) == len(shared) * (len(shared) - 1) // 2
    words = "; ".join(
        f"{rs.id}: " + " > ".join(rs.category(n).label for n in ranking)
        for rs, ranking in ((a, ra), (b, rb))
    )
    note = f"the categories ranked, best first, in the regulations' words: {words}" + (
        f"; {b.id} ranks the {len(shared)} categories both rank in the reverse order of {a.id}"
        if reversed_all
        else ""
    )
    out = [Difference("order", "ranking", ra, rb, note, a.order_clauses, b.order_clauses)]
    if reversed_all:
        return out
    for x, y in flipped:
        out.append(
            Difference(
                "order",
                f"{x} / {y}",
                f"{x} above {y}",
                f"{y} above {x}",
                f"{a.id} ranks {a.category(x).label!r} above {a.category(y).label!r}; "
                f"{b.id} ranks {b.category(y).label!r} above {b.category(x).label!r}",
                _clauses(a, x, y),
                _clauses(b, x, y),
            )
        )
    return out


def _clauses(rs: Ruleset, *names: str) -> tuple[str, ...]:
    """The clauses that order ``rs``'s categories, then those that define ``names``."""
    return tuple(dict.fromkeys([*rs.order_clauses, *(rs.category(n).clause for n in names)]))


def _labels(a: Ruleset, b: Ruleset) -> list[Difference]:
    out = []
    for name in _ranking(a):
        if name not in _ranking(b):
            continue
        la, lb = a.category(name), b.category(name)
        if la.label != lb.label:
            out.append(
                Difference(
                    "labels",
                    name,
                    la.label,
                    lb.label,
                    f"the regulations call {name} {la.label!r} and {lb.label!r}",
                    (la.clause,),
                    (lb.clause,),
                )
            )
    return out


def _knobs(a: Ruleset, b: Ruleset) -> list[Difference]:
    """Every engine knob of ``rules`` (but the ranking) set differently or on one side."""
    out = []
    for knob in sorted((set(a.rules) | set(b.rules)) - {"categories"}):
        va, vb = a.rules.get(knob), b.rules.get(knob)
        if va == vb:
            continue
        words = [
            f"{rs.id}: "
            + (
                KNOB_WORDS.get((knob, str(v)), f"{knob} = {v}")
                if v is not None
                else f"{knob} not set"
            )
            for rs, v in ((a, va), (b, vb))
        ]
        out.append(
            Difference(
                knob_aspect(knob),
                knob,
                None if va is None else str(va),
                None if vb is None else str(vb),
                "; ".join(words),
            )
        )
    return out


def _wild(a: Ruleset, b: Ruleset) -> list[Difference]:
    out = []
    if a.jokers != b.jokers:
        out.append(
            Difference(
                "wild",
                "jokers",
                a.jokers,
                b.jokers,
                f"jokers in the deck: {a.jokers} in {a.id}, {b.jokers} in {b.id}",
            )
        )
    if a.wild != b.wild:
        out.append(
            Difference(
                "wild",
                "wild",
                a.wild,
                b.wild,
                f"wild cards: {a.wild or 'none'} in {a.id}, {b.wild or 'none'} in {b.id}",
            )
        )
    return out


def _selection(rs: Ruleset) -> dict[str, int] | None:
    sel = rs.selection
    if sel is None:
        return None
    return {
        "hole": sel.hole,
        "board": sel.board,
        "min_hole": sel.min_hole,
        "max_hole": sel.hole_range[-1],
    }


def _hand(a: Ruleset, b: Ruleset) -> list[Difference]:
    """Hand size, then how a hand is chosen (hole/board cards, how many hole cards)."""
    out = []
    if a.hand_size != b.hand_size:
        out.append(
            Difference(
                "hand",
                "hand_size",
                a.hand_size,
                b.hand_size,
                f"a hand is {a.hand_size} cards in {a.id}, {b.hand_size} in {b.id}",
            )
        )
    sa, sb = _selection(a), _selection(b)
    if (sa is None) != (sb is None):
        has, lacks = (a, b) if sa is not None else (b, a)
        assert has.selection is not None
        out.append(
            Difference(
                "hand",
                "selection",
                _selection_words(a),
                _selection_words(b),
                f"{has.id} picks the best hand from dealt cards; {lacks.id} "
                "values the hand as dealt",
                _selection_clause(a),
                _selection_clause(b),
            )
        )
        return out
    if sa is None or sb is None:
        return out
    for key in ("hole", "board", "min_hole", "max_hole"):
        if sa[key] != sb[key]:
            out.append(
                Difference(
                    "hand",
                    key,
                    sa[key],
                    sb[key],
                    f"{key}: {sa[key]} in {a.id}, {sb[key]} in {b.id}",
                    _selection_clause(a),
                    _selection_clause(b),
                )
            )
    return out


def _selection_words(rs: Ruleset) -> str | None:
    sel = rs.selection
    if sel is None:
        return None
    uses = sel.hole_range
    hole = str(uses[0]) if len(uses) == 1 else f"{uses[0]}-{uses[-1]}"
    return f"best {rs.hand_size} of {sel.hole} hole + {sel.board} board, {hole} hole"


def _selection_clause(rs: Ruleset) -> tuple[str, ...]:
    return () if rs.selection is None else (rs.selection.clause,)


def _half_words(rs: Ruleset, half: Half) -> str:
    words = f"{half.name} ranked by {half.ranks_by or rs.id}"
    q = half.qualifier
    if q is not None:
        words += f", only {'/'.join(q.categories)} of {q.max_rank} or lower"
    return words


def _halves(a: Ruleset, b: Ruleset) -> list[Difference]:
    """The halves of a pot, where either ruleset declares them (a one-half game's half is
    its direction, compared under "direction")."""
    if not a.halves and not b.halves:
        return []
    ha = {h.name: h for h in a.pot_halves}
    hb = {h.name: h for h in b.pot_halves}
    out = []
    for name in dict.fromkeys([*ha, *hb]):
        wa = _half_words(a, ha[name]) if name in ha else None
        wb = _half_words(b, hb[name]) if name in hb else None
        if wa is None or wb is None:
            note = f"only {a.id if wb is None else b.id} has a {name} half"
        elif wa.replace(a.id, "itself") != wb.replace(b.id, "itself"):
            note = f"the {name} half differs"
        else:
            continue
        out.append(
            Difference(
                "halves",
                name,
                wa,
                wb,
                note,
                _half_clauses(ha.get(name)),
                _half_clauses(hb.get(name)),
            )
        )
    return out


def _half_clauses(half: Half | None) -> tuple[str, ...]:
    if half is None:
        return ()
    return tuple(c for c in (half.clause, half.qualifier and half.qualifier.clause) if c)


def _qualifier(a: Ruleset, b: Ruleset) -> list[Difference]:
    qa, qb = a.qualifier, b.qualifier
    wa = None if qa is None else f"{qa.words} (lowest: {qa.minimum}; {qa.confidence})"
    wb = None if qb is None else f"{qb.words} (lowest: {qb.minimum}; {qb.confidence})"
    if wa == wb:
        return []
    only = "" if qa and qb else f": only {(a if qa else b).id} has one"
    return [
        Difference(
            "qualifier",
            "dealer",
            wa,
            wb,
            "the dealer's qualifying hand" + only,
            () if qa is None or qa.clause is None else (qa.clause,),
            () if qb is None or qb.clause is None else (qb.clause,),
        )
    ]


def _equal(a: Ruleset, b: Ruleset) -> list[Difference]:
    if a.equal_outcome == b.equal_outcome:
        return []
    return [
        Difference(
            "equal_outcome",
            "equal_outcome",
            a.equal_outcome,
            b.equal_outcome,
            f"hands still equal: {a.equal_outcome!r} in {a.id}, {b.equal_outcome!r} in {b.id}",
            a.tiebreak_clauses,
            b.tiebreak_clauses,
        )
    ]


# pai gow's points, in the order a diff lists them: (item, what it is, in words)
PAI_GOW_POINTS: tuple[tuple[str, str], ...] = (
    ("two_card_hand", "the two-card (low) hand question"),
    ("low_hand_joker", "the joker in the two-card hand"),
    ("setting", "the setting question and its rule"),
    ("settlement", "the settlement question (the player's set hand against the banker's)"),
    ("copies", "who takes a copy"),
    ("player_foul", "what a player's foul setting does"),
)


def _pai_gow_words(rs: Ruleset) -> dict[str, tuple[str, tuple[str, ...]]]:
    """Each pai gow point of ``rs`` in words, with the clauses it rests on (empty: ``rs``
    is not a pai gow game)."""
    rules = pai_gow_rules(rs.id)
    if rules is None:
        return {}
    low = (low_hand_label(rules),)
    interp = get_interpretation(rules.setting_interpretation)
    return {
        "two_card_hand": ("a pair above no pair, then the cards from the top", low),
        "low_hand_joker": (f"the joker counts as {_article(rules.low_hand_joker)}", low),
        "setting": (
            "the five-card hand must outrank the two-card hand; equal on the two-card "
            f"hand's cards: {interp.id} (default {interp.default})",
            tuple(c for c in interp.clauses if rs.has_clause(c)),
        ),
        "settlement": ("both hands won: player; one each: push; both lost: banker", ()),
        "copies": (f"a copy goes to the {rules.copies}", ()),
        "player_foul": (f"a player's foul setting: the {rules.player_foul} wins", ()),
    }


def _pai_gow(a: Ruleset, b: Ruleset) -> list[Difference]:
    """Each pai gow point (:data:`PAI_GOW_POINTS`) the two state differently, or only one
    states (the other is no pai gow game)."""
    wa, wb = _pai_gow_words(a), _pai_gow_words(b)
    out = []
    for item, what in PAI_GOW_POINTS:
        va, ca = wa.get(item, (None, ()))
        vb, cb = wb.get(item, (None, ()))
        if va == vb:
            continue
        if va is None or vb is None:
            has = a if vb is None else b
            note = f"only {has.id} is a pai gow game ({GAMES_FILE}): {what}"
        else:
            note = f"{what} differs ({GAMES_FILE})"
        out.append(Difference("pai_gow", item, va, vb, note, ca, cb))
    return out


def _interpretations(a: Ruleset, b: Ruleset) -> list[Difference]:
    """Each interpretation only one ruleset is read under, with its default reading."""
    out = []
    for this, other in ((a, b), (b, a)):
        for iid in this.interpretations:
            if iid in other.interpretations:
                continue
            interp = get_interpretation(iid)
            value = f"default: {interp.default}"
            clauses = tuple(c for c in interp.clauses if this.has_clause(c))
            sides: tuple[Value, Value] = (value, None) if this is a else (None, value)
            out.append(
                Difference(
                    "interpretations",
                    iid,
                    *sides,
                    f"only {this.id} is read under {iid} ({interp.title}; readings: "
                    f"{', '.join(interp.readings)})",
                    *((clauses, ()) if this is a else ((), clauses)),
                )
            )
    return out


def _article(noun: str) -> str:
    return f"{'an' if noun[:1] in 'aeiou' else 'a'} {noun}"
