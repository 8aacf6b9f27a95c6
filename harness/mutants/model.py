"""What a mutant is, and the evaluator that runs one through the real harness path.

A :class:`Mutant` is the reference engine with one realistic implementer mistake put in.
It is described as data: an id, the bug-class flag it belongs to (a name of the corpus's
flag registry), the rulesets it affects, a one-line description, and the
:class:`Change` objects that make the mistake.  A change may

* edit the ruleset (drop, add or reorder categories, alter the hold'em selection, the
  number of jokers in the deck),
* override engine knobs after the interpretation readings are applied (``ace = "high"``
  in a low game, ``straight_ace = "high"``, ...),
* replace named steps of the engine's composition (:class:`~pokercert.reference.engine.Steps`:
  wrap ``run_top``, ``tiebreak``, ``value``, ``parse_hand``, ``winners``, ...; see
  :func:`~pokercert.harness.mutants.changes.patch`), given to the engine at construction,
* rewrite the reason code the evaluator gives when it refuses an input.

:class:`MutantEvaluator` is a plain :class:`~pokercert.harness.api.PokerEvaluator`: the
runner loads it like any vendor's evaluator and cannot tell it from one.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from pokercert.harness import __version__
from pokercert.harness.api import CAPABILITY_KINDS, EvaluatorInfo, Rejected
from pokercert.reference.cards import CardError
from pokercert.reference.engine import DEFAULT_STEPS, Evaluator, Steps, ranking_steps
from pokercert.reference.errors import PokercertError
from pokercert.reference.interpretations import Profile, get_interpretation
from pokercert.reference.pai_gow import PaiGow, pai_gow_rules
from pokercert.reference.rulesets import Category, Ruleset, get_ruleset
from pokercert.vectors.model import kinds_for

if TYPE_CHECKING:
    from pokercert.reference.engine import Pot

VENDOR = "pokercert self-check (deliberately broken)"


class MutantError(PokercertError, RuntimeError):
    """A mutant cannot be built: a ruleset it does not affect, a bad reading, ..."""


@dataclass(frozen=True)
class KnobProfile(Profile):
    """A profile whose engine knobs are overridden *after* the readings are applied.

    The override is the mutant's mistake, so no reading may undo it.
    """

    overrides: Mapping[str, Any] = field(default_factory=dict)

    def rules_for(self, ruleset: Ruleset) -> dict[str, Any]:
        rules = super().rules_for(ruleset)
        rules.update(self.overrides)
        return rules


@dataclass(frozen=True)
class Change:
    """One perturbation of the reference (any combination of the four kinds)."""

    ruleset: Callable[[Ruleset], Ruleset] | None = None
    # (ranking as read, ruleset) -> the mutant's ranking, best first
    categories: Callable[[list[str], Ruleset], Sequence[str]] | None = None
    knobs: Mapping[str, Any] = field(default_factory=dict)
    # the engine's steps as composed so far -> the mutant's composition
    steps: Callable[[Steps], Steps] | None = None
    reason: Callable[[str], str | None] | None = None
    # a pai gow game's composition (its steps, its rules) -> the mutant's
    pai_gow: Callable[[PaiGow], PaiGow] | None = None

    def ranking(self, ranked: Sequence[str], ruleset: Ruleset) -> list[str]:
        """The mutant's ranking (best first) of ``ruleset`` ranked ``ranked`` as read:
        plain strings, since a category the mutant answers must be exactly a ``str``
        (a :class:`~pokercert.reference.categories.CategoryName` member is not)."""
        assert self.categories is not None, "this change ranks no categories"
        return [str(name) for name in self.categories(list(ranked), ruleset)]


@dataclass(frozen=True)
class Mutant:
    """A deliberately broken evaluator: one realistic mistake, where it shows, and how."""

    id: str
    flag: str
    rulesets: tuple[str, ...]
    summary: str
    changes: tuple[Change, ...]
    # (interpretation id, reading) under which this "mistake" is the reading itself: with
    # that reading chosen it is no mistake, so it is not held against the corpus
    same_as_reading: tuple[tuple[str, str], ...] = ()

    def excused(self, ruleset: str, profile: Profile) -> str | None:
        """Why the mutant is no mistake on ``ruleset`` under ``profile`` (None: it is)."""
        applies = get_ruleset(ruleset).interpretations
        for iid, reading in self.same_as_reading:
            if iid in applies and profile.reading(iid) == reading:
                return f"it is the {reading} reading of {iid}"
        return None

    def build(self, ruleset: str, readings: Mapping[str, str] | None = None) -> Evaluator:
        """A fresh engine for ``ruleset`` under ``readings`` with this mutant's mistake in."""
        if ruleset not in self.rulesets:
            raise MutantError(
                f"mutant {self.id} does not affect {ruleset!r}; "
                f"it affects {', '.join(self.rulesets)}"
            )
        edited = get_ruleset(ruleset)
        choices = {
            iid: reading
            for iid, reading in (readings or {}).items()
            if iid in edited.interpretations
        }
        for iid, reading in choices.items():
            if reading not in get_interpretation(iid).readings:
                raise MutantError(f"{iid} has no reading {reading!r}")
        as_read = Profile(f"mutant:{self.id}", MappingProxyType(choices))
        knobs: dict[str, Any] = {}
        for change in self.changes:
            if change.ruleset is not None:
                edited = change.ruleset(edited)
            if change.categories is not None:
                ranked = knobs.get("categories") or as_read.rules_for(edited)["categories"]
                names = change.ranking(ranked, edited)
                edited = with_categories(edited, names)
                knobs["categories"] = names  # the ranking order the engine reads
            knobs.update(change.knobs)
        profile = KnobProfile(as_read.name, as_read.choices, MappingProxyType(knobs))
        return Evaluator(edited, profile, steps=compose(self.changes, ranking_steps(edited.rules)))

    def game(self, ev: Evaluator) -> PaiGow | None:
        """The pai gow game of the mutant's engine ``ev`` with every pai gow change in
        (None: the ruleset is no pai gow game)."""
        rules = pai_gow_rules(ev.ruleset.id)
        if rules is None:
            return None
        game = PaiGow(ev, rules)
        for change in self.changes:
            if change.pai_gow is not None:
                game = change.pai_gow(game)
        return game

    def reason(self, code: str) -> str | None:
        """The reason code this mutant gives when the reference would refuse with ``code``."""
        out: str | None = code
        for change in self.changes:
            if change.reason is not None and out is not None:
                out = change.reason(out)
        return out


def compose(changes: Sequence[Change], base: Steps = DEFAULT_STEPS) -> Steps:
    """The engine's steps (``base``: the ruleset's ranking's) with every step change of
    ``changes`` applied, in order."""
    steps = base
    for change in changes:
        if change.steps is not None:
            steps = change.steps(steps)
    return steps


def replace_ruleset(rs: Ruleset, **changes: Any) -> Ruleset:
    """A copy of ``rs`` with some fields changed (the registry's copy is never touched)."""
    return dataclasses.replace(rs, **changes)


def with_categories(rs: Ruleset, names: Sequence[str]) -> Ruleset:
    """A copy of ``rs`` ranking exactly ``names`` (best first).

    A name the ruleset lacks becomes a category of its own: the mutant then reports a
    category the regulation does not have (a Mini-tex "royal flush").
    """
    known = {c.name: c for c in rs.categories}
    fallback = rs.categories[-1].clause
    return replace_ruleset(
        rs,
        categories=tuple(
            known.get(n) or Category(n, n.replace("_", " ").capitalize(), fallback) for n in names
        ),
    )


class MutantEvaluator:
    """A :class:`~pokercert.harness.api.PokerEvaluator` that runs one mutant.

    It claims every vector kind the reference answers, on the rulesets the mutant affects
    (and only those: elsewhere it is the reference, and says nothing).
    """

    # the reference with one mistake in: it follows PROTOCOL.md section 3 as the reference
    # does, so it is sent the vectors of that feature too (and board-ignored fails them)
    protocol_features: ClassVar[dict[str, int]] = {"input_rules": 1}

    def __init__(self, mutant: Mutant) -> None:
        self.mutant = mutant
        self.info = EvaluatorInfo(
            vendor=VENDOR, name=f"mutant:{mutant.id}", version=__version__, build=mutant.id
        )
        self._ev: Evaluator | None = None
        self._game: PaiGow | None = None

    def capabilities(self) -> dict[str, list[str]]:
        return {rid: kinds_for(get_ruleset(rid), CAPABILITY_KINDS) for rid in self.mutant.rulesets}

    def configure(self, ruleset: str, readings: dict[str, str]) -> None:
        self._ev = self.mutant.build(ruleset, readings)
        self._game = self.mutant.game(self._ev)

    @property
    def engine(self) -> Evaluator:
        if self._ev is None:
            raise MutantError("configure() was not called")
        return self._ev

    def _refuse(self, exc: CardError) -> Rejected:
        return Rejected(self.mutant.reason(exc.code), str(exc))

    def classify(self, hand: list[str]) -> str:
        try:
            return self.engine.category(hand)
        except CardError as exc:
            raise self._refuse(exc) from None

    def winners(self, hands: list[list[str]], board: list[str] | None = None) -> list[int]:
        try:
            return list(self.engine.winners(hands, board))
        except CardError as exc:
            raise self._refuse(exc) from None

    def best_hand(
        self, hole: list[str], board: list[str] | None = None, half: str | None = None
    ) -> tuple[list[str], str]:
        try:
            found = self.engine.best_hand(hole, board, half=half)
        except CardError as exc:
            raise self._refuse(exc) from None
        if found is None:
            raise ValueError(f"no hand qualifies for the {half} half")
        return [str(c) for c in found.cards], found.category

    def showdown(self, hands: list[list[str]], board: list[str] | None = None) -> Pot:
        try:
            return self.engine.pot(hands, board)
        except CardError as exc:
            raise self._refuse(exc) from None

    def qualifies(self, hand: list[str]) -> bool:
        try:
            return self.engine.qualifies(hand)
        except CardError as exc:
            raise self._refuse(exc) from None

    @property
    def game(self) -> PaiGow:
        if self._game is None:
            raise MutantError(f"{self.engine.ruleset.id} is not a pai gow game")
        return self._game

    def compare_two_card(self, hands: list[list[str]]) -> list[int]:
        try:
            return self.game.compare_two_card([" ".join(h) for h in hands])
        except CardError as exc:
            raise self._refuse(exc) from None

    def setting(self, high: list[str], low: list[str]) -> bool:
        try:
            return self.game.legal(" ".join(high), " ".join(low))
        except CardError as exc:
            raise self._refuse(exc) from None

    def settle(self, player: list[list[str]], banker: list[list[str]]) -> str:
        try:
            return self.game.settle([" ".join(h) for h in player], [" ".join(h) for h in banker])
        except CardError as exc:
            raise self._refuse(exc) from None
