"""Rulesets as data: loading and checking ``reference/regulations/*.toml``.

One file per regulation holds its citation, every clause (exact label plus our own
one-line summary) and the rulesets (jurisdiction x game) it defines.  A ruleset's
``rules`` table holds the knobs the reference engine reads; interpretation readings
(see :mod:`pokercert.reference.interpretations`) override those knobs.

Bad data raises :class:`RulesetError` naming the file and the offending key.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache, cached_property
from importlib import resources
from types import MappingProxyType
from typing import Any

from pokercert.reference.categories import SHAPES, CategoryName
from pokercert.reference.errors import InputError
from pokercert.reference.names import unknown_name

# The engine knobs, each with its allowed values.  Defaults live in the ruleset files.
RULE_VALUES: dict[str, tuple[str, ...]] = {
    "direction": ("high", "low"),
    "ace": ("high", "low"),
    "straight_ace": ("both", "high", "low"),
    "straight_suits": ("any", "distinct"),
    "tiebreak": ("grouped", "card_by_card", "matched_first", "category_only"),
    "low_card_order": ("worst_first", "best_first"),
    "low_pair_ace": ("high", "low"),
    "five_of_a_kind": ("any", "four_naturals"),
    "wild_duplicates": ("five_of_a_kind_only", "allowed"),
    # poker-room games (optional; the first value is the default the engine assumes):
    # how many hole cards a hand may use: the Selection's own range, any, or at least one
    "hole_cards": ("as_dealt", "any", "at_least_one"),
    # whether a half's qualifier (eight or better) applies, or every hand qualifies
    "low_qualifier": ("as_posted", "none"),
    # whether the five cards that make a player's best high may also make the low
    "halves_cards": ("shared", "distinct"),
    # how hands rank: five-card poker's shapes, or the longest flush (High Card Flush,
    # reference/flush_length.py); the first value is the default
    "ranking": ("poker", "flush_length"),
    # the flush-length ranking: which cards break a tie between flushes of one length
    "flush_tiebreak": ("flush_cards", "all_cards"),
    # where A-2-3-4-5 ranks: the lowest straight (and straight flush), or the second
    # highest, just below the ace-high one (pai gow poker), in both or in the straight only
    "wheel_place": ("lowest", "second_highest", "second_highest_straight"),
    # pai gow's setting rule (reference/pai_gow.py): a five-card hand equal to the two-card
    # hand on the two-card hand's cards is a legal setting or a foul; the first the default
    "setting_equal": ("legal", "foul"),
}
EQUAL_OUTCOMES = ("split", "push", "tie")
# wild-card designations (a ruleset's ``deck.wild``): which cards are wild and how far.
# ``joker``: each joker may be any card; ``deuces``: the four twos may be any card (no
# jokers in the deck); ``bug``: a joker may be an ace, or any card that completes a
# straight, a flush or a straight flush, and nothing else.
WILD_DESIGNATIONS = ("joker", "deuces", "bug")
# what a restricted wild card ("bug") may complete besides standing for an ace
BUG_COMPLETES = frozenset(
    {
        CategoryName.STRAIGHT,
        CategoryName.FLUSH,
        CategoryName.STRAIGHT_FLUSH,
        CategoryName.ROYAL_FLUSH,
    }
)


class RulesetError(InputError, ValueError):
    """A ruleset or regulation file is malformed, or an unknown id was asked for."""


@dataclass(frozen=True)
class Clause:
    """One clause of a regulation: its exact ``label`` (section + id) and our summary."""

    label: str
    id: str
    summary: str


@dataclass(frozen=True)
class Regulation:
    """A regulation as published: citation, confidence in it, and its clauses."""

    id: str
    jurisdiction: str
    citation: str
    section: str
    confidence: str
    confidence_note: str
    current_through: str
    source: str
    clauses: tuple[Clause, ...]
    retrieved: str = ""  # when a public copy of ``source`` was read (ISO date)

    def clause(self, label_or_id: str) -> Clause:
        for c in self.clauses:
            if label_or_id in (c.label, c.id):
                return c
        raise RulesetError(f"{self.id}: no clause {label_or_id!r}")


@dataclass(frozen=True)
class Category:
    """A ranked hand category: stable snake_case ``name``, the regulation's ``label``."""

    name: str
    label: str
    clause: str


@dataclass(frozen=True)
class Selection:
    """Best-hand selection: each player holds ``hole`` cards and shares ``board`` cards.

    A hand of ``hand_size`` cards uses between ``min_hole`` and ``max_hole`` hole cards,
    the rest from the board: any (``0..hole``), exactly k (``k..k``) or at least k
    (``k..hole``).  ``board = 0`` is a game without community cards (stud: the best five
    of seven); ``max_hole`` defaults to ``hole`` in the data.
    """

    hole: int
    board: int
    min_hole: int
    clause: str
    max_hole: int | None = None

    @property
    def hole_range(self) -> range:
        """How many hole cards a hand may use (before the hand size caps it)."""
        return range(self.min_hole, (self.hole if self.max_hole is None else self.max_hole) + 1)


@dataclass(frozen=True)
class HalfQualifier:
    """What a hand must be to take part in a half: one of ``categories`` (names in the
    half's own ranking) with every card at most ``max_rank`` (the ace counts 1 where that
    ranking plays it low).  "Eight or better": ``("high_card",)`` and 8."""

    categories: tuple[str, ...]
    max_rank: int
    clause: str


@dataclass(frozen=True)
class Half:
    """One share of a pot: ``high`` or ``low``, ranked by the ruleset's own categories
    (``ranks_by`` None) or by another ruleset's, optionally behind a qualifier.

    A pot is split equally between the halves that some hand qualifies for; each half
    equally between the hands that tie for it.  ``interpretations``: those of the game
    that decide this half's ranking only (listed by the game, so an evaluator is told the
    reading, and by the ruleset it ranks by, whose knobs they set); their readings never
    touch the game's own ranking (South Dakota's ``sd-low-order`` sets the low order's
    categories, which the high half must not take).
    """

    name: str
    ranks_by: str | None = None
    qualifier: HalfQualifier | None = None
    clause: str | None = None
    interpretations: tuple[str, ...] = ()


HALF_NAMES = ("high", "low")


@dataclass(frozen=True)
class Qualifier:
    """The dealer's qualifying hand: a hand qualifies when it is at least ``minimum``.

    ``minimum`` is the lowest qualifying hand, in cards (e.g. ``Qh 3d 2c`` for "queen high
    or better" in three cards); ``words`` the qualifier as the source states it;
    ``confidence`` ``confirmed`` when a regulation's clause says it (then ``clause`` is its
    label) or ``house-rule`` when only a public game description does (``source``).
    """

    minimum: str
    words: str
    confidence: str
    source: str
    clause: str | None = None


QUALIFIER_CONFIDENCE = ("confirmed", "likely", "house-rule")


@dataclass(frozen=True)
class Ruleset:
    """One game under one regulation, as data.

    ``categories`` defines every category the game knows (best first under the default
    reading); ``rules["categories"]`` is the ranking in use, which a reading may change.
    """

    id: str
    title: str
    regulation: Regulation
    clauses: tuple[Clause, ...]
    hand_size: int
    equal_outcome: str
    interpretations: tuple[str, ...]
    rules: MappingProxyType[str, Any]
    categories: tuple[Category, ...]
    jokers: int = 0
    wild: str | None = None
    selection: Selection | None = None
    halves: tuple[Half, ...] = ()  # empty: one half, named by rules["direction"]
    ranks_by: str | None = None  # the ruleset whose ranking this one took over
    qualifier: Qualifier | None = None  # the dealer's qualifying hand, where posted
    order_clauses: tuple[str, ...] = ()  # labels of the clauses that order the categories
    tiebreak_clauses: tuple[str, ...] = ()  # labels of the clauses that break same-category ties
    _clause_index: dict[str, Clause] = field(default_factory=dict, repr=False, compare=False)

    @property
    def citation(self) -> str:
        return self.regulation.citation

    @cached_property
    def half_only_interpretations(self) -> frozenset[str]:
        """The interpretations that rank one of the pot's other halves only (see
        :class:`Half`): a reading of them leaves this ruleset's own knobs alone."""
        return frozenset(i for h in self.halves for i in h.interpretations)

    @cached_property
    def pot_halves(self) -> tuple[Half, ...]:
        """The halves a pot is split into (one unless the ruleset says otherwise; made
        once per ruleset, asked for by every showdown)."""
        return self.halves or (Half(str(self.rules["direction"])),)

    def half(self, name: str) -> Half:
        """The half called ``name``; :class:`RulesetError` if the game has none."""
        for h in self.pot_halves:
            if h.name == name:
                return h
        have = ", ".join(h.name for h in self.pot_halves)
        raise RulesetError(f"ruleset {self.id} has no {name!r} half (it has: {have})")

    @property
    def category_names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.categories)

    def clause(self, label: str) -> Clause:
        """The clause with this exact label (e.g. ``13:69F-33.5(b)6``)."""
        try:
            return self._clause_index[label]
        except KeyError:
            raise RulesetError(f"ruleset {self.id} has no clause {label!r}") from None

    def has_clause(self, label: str) -> bool:
        return label in self._clause_index

    def category(self, name: str) -> Category:
        for c in self.categories:
            if c.name == name:
                return c
        raise RulesetError(f"ruleset {self.id} has no category {name!r}")


def _need(table: dict[str, Any], key: str, where: str, kind: type = str) -> Any:
    if key not in table:
        raise RulesetError(f"{where}: missing key {key!r}")
    value = table[key]
    if not isinstance(value, kind):
        raise RulesetError(f"{where}: {key!r} must be {kind.__name__}, got {value!r}")
    return value


def check_rules(rules: dict[str, Any], where: str) -> None:
    """Reject unknown engine knobs and values, naming ``where`` they came from."""
    for key, value in rules.items():
        if key == "categories":
            bad = [c for c in value if c not in SHAPES]
            if bad:
                raise RulesetError(f"{where}: unknown categories {bad}")
            continue
        if key not in RULE_VALUES:
            raise RulesetError(f"{where}: unknown rule {key!r} (known: {sorted(RULE_VALUES)})")
        if value not in RULE_VALUES[key]:
            raise RulesetError(f"{where}: rule {key} = {value!r}; allowed {RULE_VALUES[key]}")


def _load_regulation(name: str, data: dict[str, Any]) -> Regulation:
    reg = _need(data, "regulation", name, dict)
    where = f"{name} [regulation]"
    section = _need(reg, "section", where)
    clauses = []
    for i, c in enumerate(data.get("clause", [])):
        cid = _need(c, "id", f"{name} clause #{i + 1}")
        clauses.append(
            Clause(label=section + cid, id=cid, summary=_need(c, "summary", f"{name} clause {cid}"))
        )
    return Regulation(
        id=_need(reg, "id", where),
        jurisdiction=_need(reg, "jurisdiction", where),
        citation=_need(reg, "citation", where),
        section=section,
        confidence=_need(reg, "confidence", where),
        confidence_note=_need(reg, "confidence_note", where),
        current_through=_need(reg, "current_through", where),
        source=_need(reg, "source", where),
        clauses=tuple(clauses),
        retrieved=str(reg.get("retrieved", "")),
    )


# keys a game ruleset takes from the ruleset it ``ranks_by`` when it does not set them
INHERITED = (
    "hand_size",
    "equal_outcome",
    "rules",
    "categories",
    "order_clauses",
    "tiebreak_clauses",
)


class _Loader:
    """Builds every ruleset once all regulations are known: a game may cite clauses of
    another regulation (by full label) and rank by another file's ruleset."""

    def __init__(
        self,
        regulations: dict[str, Regulation],
        raw: dict[str, tuple[str, Regulation, dict[str, Any]]],
    ) -> None:
        self.labels = {c.label: c for reg in regulations.values() for c in reg.clauses}
        self.raw = raw
        self.done: dict[str, Ruleset] = {}
        self.busy: set[str] = set()

    def get(self, rid: str, where: str) -> Ruleset:
        if rid in self.done:
            return self.done[rid]
        if rid not in self.raw:
            raise RulesetError(f"{where}: ranks by unknown ruleset {rid!r}")
        if rid in self.busy:
            raise RulesetError(f"{where}: ranks_by goes round in a circle through {rid!r}")
        self.busy.add(rid)
        name, regulation, table = self.raw[rid]
        self.done[rid] = self._build(name, regulation, table)
        return self.done[rid]

    def _build(self, name: str, regulation: Regulation, r: dict[str, Any]) -> Ruleset:
        rid = r["id"]
        where = f"{name} ruleset {rid}"
        clause_label = self._clause_labeller(regulation, where)
        base = self._base(r, where)
        cited = self._cited(r, base, where, clause_label)
        rules = _load_rules(r, where)
        categories = _load_categories(r, rules, where, clause_label)
        equal = _need(r, "equal_outcome", where)
        if equal not in EQUAL_OUTCOMES:
            raise RulesetError(f"{where}: equal_outcome {equal!r} not in {EQUAL_OUTCOMES}")
        hand_size = _need(r, "hand_size", where, int)
        deck = _load_deck(r, where)
        selection = _load_selection(r.get("selection"), hand_size, where, clause_label)
        if selection is not None:
            cited.setdefault(selection.clause, self.labels[selection.clause])
        halves = self._halves(r, where, clause_label, cited)
        qualifier = _load_qualifier(r.get("qualifier"), where, clause_label)
        if qualifier is not None and qualifier.clause is not None:
            cited.setdefault(qualifier.clause, self.labels[qualifier.clause])
        clauses = tuple(cited.values())
        return Ruleset(
            id=rid,
            title=_need(r, "title", where),
            regulation=regulation,
            clauses=clauses,
            hand_size=hand_size,
            equal_outcome=equal,
            interpretations=tuple(_need(r, "interpretations", where, list)),
            rules=MappingProxyType(rules),
            categories=tuple(categories),
            jokers=int(deck.get("jokers", 0)),
            wild=deck.get("wild"),
            selection=selection,
            halves=halves,
            ranks_by=None if base is None else base.id,
            qualifier=qualifier,
            order_clauses=tuple(
                clause_label(c, "order_clauses") for c in _need(r, "order_clauses", where, list)
            ),
            tiebreak_clauses=tuple(
                clause_label(c, "tiebreak_clauses")
                for c in _need(r, "tiebreak_clauses", where, list)
            ),
            _clause_index={c.label: c for c in clauses},
        )

    def _clause_labeller(self, regulation: Regulation, where: str) -> Callable[[str, str], str]:
        """The function giving the full label of a clause a ruleset of ``regulation``
        names, by its id in that regulation or by any regulation's full label."""
        own = {c.id: c for c in regulation.clauses}

        def clause_label(cid: str, ctx: str) -> str:
            """A clause id of this regulation, or the full label of any regulation's."""
            found = own.get(cid) or self.labels.get(cid)
            if found is None:
                raise RulesetError(
                    f"{where}: {ctx} names clause {cid!r}, not in the regulation "
                    "(nor a full label of another one)"
                )
            return found.label

        return clause_label

    def _cited(
        self,
        r: dict[str, Any],
        base: Ruleset | None,
        where: str,
        clause_label: Callable[[str, str], str],
    ) -> dict[str, Clause]:
        """Label -> clause of those the ruleset ``r`` lists, then those of the ruleset it
        ranks by (in that order, each once)."""
        cited: dict[str, Clause] = {}
        for c in _need(r, "clauses", where, list):
            label = clause_label(c, "clauses")
            cited.setdefault(label, self.labels[label])
        if base is not None:
            for c in base.clauses:
                cited.setdefault(c.label, c)
        return cited

    def _halves(
        self,
        r: dict[str, Any],
        where: str,
        clause_label: Callable[[str, str], str],
        cited: dict[str, Clause],
    ) -> tuple[Half, ...]:
        """The pot's halves ``r`` declares (none: one pot), each named once."""
        halves = tuple(
            self._half(h, i, where, clause_label, cited) for i, h in enumerate(r.get("half", []))
        )
        names = [h.name for h in halves]
        if len(set(names)) != len(names):
            raise RulesetError(f"{where}: a half is named twice in {names}")
        listed = set(r.get("interpretations", ()))
        unlisted = sorted({i for h in halves for i in h.interpretations} - listed)
        if unlisted:
            raise RulesetError(f"{where}: a half has interpretations {unlisted} it does not list")
        return halves

    def _base(self, r: dict[str, Any], where: str) -> Ruleset | None:
        """The ruleset ``r`` ranks by (None: it ranks by its own), whose fields ``r``
        takes over where it leaves them out; ``r`` must list its interpretations."""
        if "ranks_by" not in r:
            return None
        base = self.get(_need(r, "ranks_by", where), where)
        for key in INHERITED:
            r.setdefault(key, _inherited(base, key))
        unlisted = set(base.interpretations) - set(_need(r, "interpretations", where, list))
        if unlisted:
            raise RulesetError(
                f"{where}: ranks by {base.id} but does not list its "
                f"interpretations {sorted(unlisted)}"
            )
        return base

    def _half(
        self, h: dict[str, Any], i: int, where: str, clause_label: Any, cited: dict[str, Clause]
    ) -> Half:
        name = _need(h, "name", f"{where} half #{i + 1}")
        at = f"{where} half {name}"
        if name not in HALF_NAMES:
            raise RulesetError(f"{at}: a half is one of {HALF_NAMES}")
        ranks_by = h.get("ranks_by")
        if (ranks_by is None) != (i == 0):
            raise RulesetError(
                f"{at}: the first half ranks by the ruleset's own categories, "
                "every other half names the ruleset it ranks_by"
            )
        if ranks_by is not None:
            ranking = self.get(ranks_by, at)
            for c in ranking.clauses:
                cited.setdefault(c.label, c)
        qualifier = None
        q = h.get("qualifier")
        if q is not None:
            if i == 0:
                raise RulesetError(f"{at}: the first half takes no qualifier (someone must win)")
            qualifier = HalfQualifier(
                categories=tuple(_need(q, "categories", f"{at} qualifier", list)),
                max_rank=_need(q, "max_rank", f"{at} qualifier", int),
                clause=clause_label(_need(q, "clause", f"{at} qualifier"), "a qualifier"),
            )
            unknown = set(qualifier.categories) - set(ranking.rules["categories"])
            if unknown:
                raise RulesetError(
                    f"{at}: qualifier names categories {sorted(unknown)} that "
                    f"{ranking.id} does not rank"
                )
        half = Half(
            name=name,
            ranks_by=ranks_by,
            qualifier=qualifier,
            clause=clause_label(_need(h, "clause", at), "a half"),
            interpretations=self._half_interpretations(h, at, ranks_by),
        )
        for label in (half.clause, qualifier and qualifier.clause):
            if label:
                cited.setdefault(label, self.labels[label])
        return half

    def _half_interpretations(
        self, h: dict[str, Any], at: str, ranks_by: str | None
    ) -> tuple[str, ...]:
        """A half's own interpretations: only a half ranked by another ruleset has any,
        and that ruleset must list each one (its knobs are what the reading sets)."""
        own = tuple(h.get("interpretations", ()))
        if not own:
            return own
        if ranks_by is None:
            raise RulesetError(f"{at}: only a half that ranks_by another ruleset has its own")
        unlisted = sorted(set(own) - set(self.get(ranks_by, at).interpretations))
        if unlisted:
            raise RulesetError(f"{at}: {ranks_by} does not list interpretations {unlisted}")
        return own


def _load_rules(r: dict[str, Any], where: str) -> dict[str, Any]:
    """A ruleset's engine knobs (a copy), checked, with every knob a ruleset must set."""
    rules = dict(_need(r, "rules", where, dict))
    check_rules(rules, where)
    missing = [
        k
        for k in ("direction", "ace", "straight_ace", "straight_suits", "tiebreak")
        if k not in rules
    ]
    if missing:
        raise RulesetError(f"{where}: rules lacks {missing}")
    return rules


def _load_categories(
    r: dict[str, Any], rules: dict[str, Any], where: str, clause_label: Callable[[str, str], str]
) -> list[Category]:
    """The categories a ruleset defines (each one of :data:`SHAPES`, else the
    did-you-mean message); ``rules["categories"]``, the ranking in use, defaults to them
    all and may rank none other."""
    categories = []
    for c in _need(r, "categories", where, list):
        if isinstance(c, Category):  # taken over from the ruleset it ranks by
            categories.append(c)
            continue
        if c.get("name") not in SHAPES:
            raise RulesetError(f"{where}: " + unknown_name("category", str(c.get("name")), SHAPES))
        categories.append(
            Category(
                c["name"],
                _need(c, "label", where),
                clause_label(_need(c, "clause", where), "a category"),
            )
        )
    # rules.categories is the ranking in use (best first); by default every defined one
    rules.setdefault("categories", [c.name for c in categories])
    undefined = set(rules["categories"]) - {c.name for c in categories}
    if undefined:
        raise RulesetError(f"{where}: rules.categories ranks undefined {sorted(undefined)}")
    return categories


def _load_deck(r: dict[str, Any], where: str) -> dict[str, Any]:
    """A ruleset's ``deck`` table (empty: 52 natural cards), its wild designation
    checked against its jokers."""
    deck: dict[str, Any] = r.get("deck", {})
    wild = deck.get("wild")
    if wild is not None and wild not in WILD_DESIGNATIONS:
        raise RulesetError(f"{where}: deck.wild {wild!r} not in {WILD_DESIGNATIONS}")
    if wild in ("joker", "bug") and not deck.get("jokers"):
        raise RulesetError(f"{where}: deck.wild {wild!r} needs jokers in the deck")
    if wild == "deuces" and deck.get("jokers"):
        raise RulesetError(f"{where}: deck.wild 'deuces' is posted without jokers")
    return deck


def _load_selection(
    sel: dict[str, Any] | None, hand_size: int, where: str, clause_label: Callable[[str, str], str]
) -> Selection | None:
    """A ruleset's selection rule (None: a hand is dealt whole), checked."""
    if sel is None:
        return None
    selection = Selection(
        hole=_need(sel, "hole", where, int),
        board=_need(sel, "board", where, int),
        min_hole=_need(sel, "min_hole", where, int),
        max_hole=sel.get("max_hole"),
        clause=clause_label(_need(sel, "clause", where), "selection"),
    )
    _check_selection(selection, hand_size, where)
    return selection


def _inherited(base: Ruleset, key: str) -> Any:
    if key == "rules":
        return dict(base.rules)
    if key == "order_clauses":
        return list(base.order_clauses)
    if key == "tiebreak_clauses":
        return list(base.tiebreak_clauses)
    if key == "categories":
        return list(base.categories)
    return getattr(base, key)


def _check_selection(sel: Selection, hand_size: int, where: str) -> None:
    top = sel.hole if sel.max_hole is None else sel.max_hole
    if not 0 <= sel.min_hole <= top <= sel.hole:
        raise RulesetError(f"{where}: selection needs 0 <= min_hole <= max_hole <= hole")
    if not any(0 <= hand_size - used <= sel.board for used in sel.hole_range if used <= hand_size):
        raise RulesetError(f"{where}: selection can never make a hand of {hand_size} cards")


def _load_qualifier(q: Any, where: str, clause_label: Any) -> Qualifier | None:
    """The ``qualifier`` table of a ruleset (None when the ruleset has none)."""
    if q is None:
        return None
    if not isinstance(q, dict):
        raise RulesetError(f"{where}: qualifier must be a table")
    where = f"{where} qualifier"
    confidence = _need(q, "confidence", where)
    if confidence not in QUALIFIER_CONFIDENCE:
        raise RulesetError(f"{where}: confidence {confidence!r} not in {QUALIFIER_CONFIDENCE}")
    clause = q.get("clause")
    if clause is None and confidence == "confirmed":
        raise RulesetError(f"{where}: a confirmed qualifier names its clause")
    return Qualifier(
        minimum=_need(q, "minimum", where),
        words=_need(q, "words", where),
        confidence=confidence,
        source=_need(q, "source", where),
        clause=clause_label(clause, "qualifier") if clause else None,
    )


@cache
def _registry() -> tuple[dict[str, Regulation], dict[str, Ruleset]]:
    regulations: dict[str, Regulation] = {}
    raw: dict[str, tuple[str, Regulation, dict[str, Any]]] = {}
    folder = resources.files("pokercert.reference") / "regulations"
    for entry in sorted(folder.iterdir(), key=lambda p: p.name):
        if not entry.name.endswith(".toml"):
            continue
        try:
            data = tomllib.loads(entry.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise RulesetError(f"{entry.name}: {exc}") from None
        regulation = _load_regulation(entry.name, data)
        regulations[regulation.id] = regulation
        for r in data.get("ruleset", []):
            rid = _need(r, "id", f"{entry.name} ruleset")
            if rid in raw:
                raise RulesetError(f"{entry.name}: ruleset id {rid!r} defined twice")
            raw[rid] = (entry.name, regulation, r)
    loader = _Loader(regulations, raw)
    rulesets = {rid: loader.get(rid, raw[rid][0]) for rid in raw}
    return regulations, rulesets


def all_rulesets() -> tuple[Ruleset, ...]:
    """Every ruleset, in a stable order (by regulation file, then as written)."""
    return tuple(_registry()[1].values())


def all_regulations() -> tuple[Regulation, ...]:
    return tuple(_registry()[0].values())


def get_ruleset(ruleset_id: str) -> Ruleset:
    """The ruleset with this id; :class:`RulesetError` lists the known ids otherwise."""
    rulesets = _registry()[1]
    try:
        return rulesets[ruleset_id]
    except KeyError:
        raise RulesetError(unknown_name("ruleset", ruleset_id, rulesets)) from None
