"""Rulesets as data: loading and checking ``reference/regulations/*.toml``.

One file per regulation holds its citation, every clause (exact label plus our own
one-line summary) and the rulesets (jurisdiction x game) it defines.  A ruleset's
``rules`` table holds the knobs the reference engine reads; interpretation readings
(see :mod:`pokercert.reference.interpretations`) override those knobs.

Bad data raises :class:`RulesetError` naming the file and the offending key.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Any

from pokercert.reference.errors import InputError

# Every category name the engine can detect, strongest shape first.  Detection takes
# the first shape (in this order) that the hand has and the ruleset lists.
SHAPES: tuple[str, ...] = (
    "five_of_a_kind",
    "royal_flush",
    "royal_straight_flush",
    "straight_flush",
    "pair_of_aces",
    "four_of_a_kind",
    "full_house",
    "flush",
    "straight",
    "three_of_a_kind",
    "two_pair",
    "one_pair",
    "high_card",
)

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
}
EQUAL_OUTCOMES = ("split", "push", "tie")


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
    """Hold'em style best-hand selection: ``hole`` + ``board`` cards, >= ``min_hole`` used."""

    hole: int
    board: int
    min_hole: int
    clause: str


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
    order_clauses: tuple[str, ...] = ()     # labels of the clauses that order the categories
    tiebreak_clauses: tuple[str, ...] = ()  # labels of the clauses that break same-category ties
    _clause_index: dict[str, Clause] = field(default_factory=dict, repr=False, compare=False)

    @property
    def citation(self) -> str:
        return self.regulation.citation

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


def _load_regulation(name: str, data: dict[str, Any]) -> tuple[Regulation, list[Ruleset]]:
    reg = _need(data, "regulation", name, dict)
    where = f"{name} [regulation]"
    section = _need(reg, "section", where)
    clauses = []
    for i, c in enumerate(data.get("clause", [])):
        cid = _need(c, "id", f"{name} clause #{i + 1}")
        clauses.append(Clause(label=section + cid, id=cid,
                              summary=_need(c, "summary", f"{name} clause {cid}")))
    regulation = Regulation(
        id=_need(reg, "id", where), jurisdiction=_need(reg, "jurisdiction", where),
        citation=_need(reg, "citation", where), section=section,
        confidence=_need(reg, "confidence", where),
        confidence_note=_need(reg, "confidence_note", where),
        current_through=_need(reg, "current_through", where),
        source=_need(reg, "source", where), clauses=tuple(clauses))
    rulesets = [_load_ruleset(name, regulation, r) for r in data.get("ruleset", [])]
    return regulation, rulesets


def _load_ruleset(name: str, regulation: Regulation, r: dict[str, Any]) -> Ruleset:
    rid = _need(r, "id", f"{name} ruleset")
    where = f"{name} ruleset {rid}"
    known = {c.id: c for c in regulation.clauses}

    def clause_label(cid: str, ctx: str) -> str:
        if cid not in known:
            raise RulesetError(f"{where}: {ctx} names clause {cid!r}, not in the regulation")
        return known[cid].label

    listed = _need(r, "clauses", where, list)
    clauses = tuple(known[c] for c in listed if clause_label(c, "clauses"))
    rules = dict(_need(r, "rules", where, dict))
    check_rules(rules, where)
    missing = [k for k in ("direction", "ace", "straight_ace", "straight_suits", "tiebreak")
               if k not in rules]
    if missing:
        raise RulesetError(f"{where}: rules lacks {missing}")
    categories = []
    for c in _need(r, "categories", where, list):
        if c.get("name") not in SHAPES:
            raise RulesetError(f"{where}: unknown category {c.get('name')!r}")
        categories.append(Category(c["name"], _need(c, "label", where),
                                   clause_label(_need(c, "clause", where), "a category")))
    # rules.categories is the ranking in use (best first); by default every defined one
    rules.setdefault("categories", [c.name for c in categories])
    undefined = set(rules["categories"]) - {c.name for c in categories}
    if undefined:
        raise RulesetError(f"{where}: rules.categories ranks undefined {sorted(undefined)}")
    equal = _need(r, "equal_outcome", where)
    if equal not in EQUAL_OUTCOMES:
        raise RulesetError(f"{where}: equal_outcome {equal!r} not in {EQUAL_OUTCOMES}")
    deck = r.get("deck", {})
    sel = r.get("selection")
    selection = None
    if sel is not None:
        selection = Selection(hole=_need(sel, "hole", where, int), board=_need(sel, "board", where,
                              int), min_hole=_need(sel, "min_hole", where, int),
                              clause=clause_label(_need(sel, "clause", where), "selection"))
    return Ruleset(
        id=rid, title=_need(r, "title", where), regulation=regulation, clauses=clauses,
        hand_size=_need(r, "hand_size", where, int), equal_outcome=equal,
        interpretations=tuple(_need(r, "interpretations", where, list)),
        rules=MappingProxyType(rules), categories=tuple(categories),
        jokers=int(deck.get("jokers", 0)), wild=deck.get("wild"), selection=selection,
        order_clauses=tuple(clause_label(c, "order_clauses")
                            for c in _need(r, "order_clauses", where, list)),
        tiebreak_clauses=tuple(clause_label(c, "tiebreak_clauses")
                               for c in _need(r, "tiebreak_clauses", where, list)),
        _clause_index={c.label: c for c in clauses},
    )


@cache
def _registry() -> tuple[dict[str, Regulation], dict[str, Ruleset]]:
    regulations: dict[str, Regulation] = {}
    rulesets: dict[str, Ruleset] = {}
    folder = resources.files("pokercert.reference") / "regulations"
    for entry in sorted(folder.iterdir(), key=lambda p: p.name):
        if not entry.name.endswith(".toml"):
            continue
        try:
            data = tomllib.loads(entry.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise RulesetError(f"{entry.name}: {exc}") from None
        regulation, found = _load_regulation(entry.name, data)
        regulations[regulation.id] = regulation
        for rs in found:
            if rs.id in rulesets:
                raise RulesetError(f"{entry.name}: ruleset id {rs.id!r} defined twice")
            rulesets[rs.id] = rs
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
        raise RulesetError(f"unknown ruleset {ruleset_id!r}; known: {', '.join(rulesets)}") \
            from None
