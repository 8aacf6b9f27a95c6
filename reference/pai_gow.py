"""Pai gow poker beyond the five-card ranking: the two-card hand, the setting rule and the
settlement of a player's set hand against the banker's.

The rules are data (``reference/pai_gow.toml``, one ``[[game]]`` per pai gow ruleset,
with the texts they come from); the five-card hand is valued by the ruleset's own engine
(:func:`~pokercert.reference.engine.evaluator`: its joker, its wheel reading).  A
:class:`PaiGow` answers the three operations a pai gow evaluator is certified on:

* :meth:`PaiGow.compare_two_card`: the winners of two-card hands (a pair beats no pair,
  then the cards from the top; the joker is an ace there);
* :meth:`PaiGow.legal`: whether seven cards set as a five-card high hand and a two-card
  low hand obey the setting rule (the five-card hand outranks the two-card hand; equal on
  every card the two-card hand holds: interpretation ``pai-gow-setting-equal``);
* :meth:`PaiGow.settle`: ``player``, ``banker`` or ``push`` for the player's set hand
  against the banker's (both hands won: the player; one each: a push; copies to whom the
  data says; a player's foul setting settles as the data says).

A mutant of the self-check replaces one of :class:`PaiGowSteps` or the data (the copies'
winner); nothing else changes.
"""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from pokercert.reference.cards import JOKER_RANK, Card, parse_cards
from pokercert.reference.categories import CategoryName
from pokercert.reference.engine import Evaluator, HandValue, evaluator
from pokercert.reference.errors import InputError
from pokercert.reference.interpretations import Profile, load_profile
from pokercert.reference.rulesets import RulesetError, get_ruleset

GAMES_FILE = "pai_gow.toml"
ACE = 14
PLAYER, BANKER, PUSH = "player", "banker", "push"
SETTLEMENTS = (PLAYER, BANKER, PUSH)
LOW_HAND_JOKERS = ("ace",)  # what the joker is in the two-card hand
SIDES = (PLAYER, BANKER)  # who takes a copy, who wins on a player's foul
LOW_CARDS, HIGH_CARDS = 2, 5

# a two-card hand's key: (1, r, r) for a pair of rank r, else (0, top, other); larger wins
LowKey = tuple[int, int, int]


class PaiGowError(InputError, ValueError):
    """A pai gow request the texts give no answer for (a banker's foul setting)."""


@dataclass(frozen=True)
class PaiGowRules:
    """One pai gow ruleset's rules beyond the five-card ranking (``pai_gow.toml``)."""

    ruleset: str
    low_hand_joker: str  # what the joker is in the two-card hand ("ace")
    copies: str  # who takes a copy (an exactly equal hand): "banker"
    player_foul: str  # who wins when the player's setting is foul: "banker"
    setting_interpretation: str  # the interpretation of a five-card hand equal to the two
    low_hand_clause: str  # the clause of the ruleset the two-card hand is tagged with
    confidence: str
    sources: tuple[str, ...]


@cache
def _games() -> Mapping[str, PaiGowRules]:
    path = resources.files("pokercert.reference") / GAMES_FILE
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    out: dict[str, PaiGowRules] = {}
    for raw in data.get("game", []):
        rules = _game(raw, f"{GAMES_FILE} [[game]] {raw.get('ruleset', '?')}")
        out[rules.ruleset] = rules
    return out


def _game(raw: Mapping[str, Any], where: str) -> PaiGowRules:
    fields = {f.name for f in dataclasses.fields(PaiGowRules)}
    if set(raw) != fields:
        raise RulesetError(f"{where}: needs exactly the keys {sorted(fields)}, got {sorted(raw)}")
    rules = PaiGowRules(**{**raw, "sources": tuple(raw["sources"])})
    rs = get_ruleset(rules.ruleset)  # an unknown id names the known ones
    for value, allowed, name in (
        (rules.low_hand_joker, LOW_HAND_JOKERS, "low_hand_joker"),
        (rules.copies, SIDES, "copies"),
        (rules.player_foul, SIDES, "player_foul"),
    ):
        if value not in allowed:
            raise RulesetError(f"{where}: {name} {value!r} not in {allowed}")
    if rules.setting_interpretation not in rs.interpretations:
        raise RulesetError(
            f"{where}: {rs.id} does not list interpretation {rules.setting_interpretation!r}"
        )
    if not rs.has_clause(rs.regulation.section + rules.low_hand_clause):
        raise RulesetError(f"{where}: {rs.id} has no clause {rules.low_hand_clause!r}")
    return rules


def pai_gow_rules(ruleset_id: str) -> PaiGowRules | None:
    """The pai gow rules of a ruleset, None for a ruleset that is not a pai gow game."""
    return _games().get(ruleset_id)


def low_hand_label(rules: PaiGowRules) -> str:
    """The full clause label the two-card hand's vectors cite."""
    rs = get_ruleset(rules.ruleset)
    return rs.regulation.section + rules.low_hand_clause


def low_key(cards: Sequence[Card]) -> LowKey:
    """The two-card hand's key: a pair above any two different cards, then the cards from
    the top; the joker counts as an ace (so the joker with an ace is a pair of aces)."""
    a, b = sorted((ACE if c.rank == JOKER_RANK else c.rank for c in cards), reverse=True)
    return (1, a, b) if a == b else (0, a, b)


def five_as_low(value: HandValue) -> LowKey | None:
    """A five-card hand's standing against a two-card hand: its pair or its two top cards
    as a two-card key when it is one pair or high card; None when it is two pair or
    better, which outranks every two-card hand."""
    ranks = sorted((c.rank for c in value.played), reverse=True)
    if value.category == CategoryName.HIGH_CARD:
        return (0, ranks[0], ranks[1])
    if value.category == CategoryName.ONE_PAIR:
        pair = next(r for r in ranks if ranks.count(r) == 2)
        return (1, pair, pair)
    return None


def outranks(five: HandValue, two: Sequence[Card], equal_is_legal: bool) -> bool:
    """The setting rule: whether the five-card hand outranks the two-card hand (equal on
    every card the two-card hand holds: ``equal_is_legal``)."""
    standing = five_as_low(five)
    if standing is None:
        return True
    low = low_key(two)
    return standing > low or (standing == low and equal_is_legal)


def verdict(high: int, low: int) -> str:
    """The settlement of a player whose high and low hands won (1) or lost (-1; a copy is
    already counted for whom the rules give it): both won, the player; both lost, the
    banker; one each, a push."""
    if high > 0 and low > 0:
        return PLAYER
    return BANKER if high < 0 and low < 0 else PUSH


@dataclass(frozen=True)
class PaiGowSteps:
    """The steps a :class:`PaiGow` is composed of (a mutant replaces one)."""

    low_key: Callable[[Sequence[Card]], LowKey] = low_key
    outranks: Callable[[HandValue, Sequence[Card], bool], bool] = outranks
    verdict: Callable[[int, int], str] = verdict


DEFAULT_PAI_GOW_STEPS = PaiGowSteps()


class PaiGow:
    """The pai gow operations of one ruleset under one profile."""

    def __init__(
        self,
        ev: Evaluator,
        rules: PaiGowRules,
        steps: PaiGowSteps = DEFAULT_PAI_GOW_STEPS,
    ) -> None:
        self.ev = ev
        self.rules = rules
        self.steps = steps
        # the reading of the setting interpretation, as the engine knob it sets
        self.equal_is_legal = ev.rules.get("setting_equal", "legal") == "legal"
        self._jokers = ev.ruleset.jokers

    def _cards(self, text: str, count: int) -> tuple[Card, ...]:
        return parse_cards(text, jokers=self._jokers, count=count)

    def _deal(self, hands: Sequence[str], sizes: Sequence[int]) -> list[tuple[Card, ...]]:
        """Parse hands dealt from one deck (no card twice among them)."""
        parsed = [self._cards(h, n) for h, n in zip(hands, sizes, strict=True)]
        parse_cards([c for h in parsed for c in h], jokers=self._jokers)
        return parsed

    def compare_two_card(self, hands: Sequence[str]) -> list[int]:
        """Indices of the best two-card hands (several on a copy)."""
        parsed = self._deal(hands, [LOW_CARDS] * len(hands))
        keys = [self.steps.low_key(h) for h in parsed]
        best = max(keys)
        return [i for i, k in enumerate(keys) if k == best]

    def legal(self, high: str, low: str) -> bool:
        """Whether the five-card ``high`` hand and the two-card ``low`` hand, set from one
        player's seven cards, obey the setting rule."""
        five, two = self._deal([high, low], [HIGH_CARDS, LOW_CARDS])
        return self._legal(five, two)

    def _legal(self, five: tuple[Card, ...], two: tuple[Card, ...]) -> bool:
        return self.steps.outranks(self.ev.value(five), two, self.equal_is_legal)

    def settle(self, player: Sequence[str], banker: Sequence[str]) -> str:
        """``player``, ``banker`` or ``push``: the player's set hand (high, low) against the
        banker's, all fourteen cards from one deck."""
        p_high, p_low, b_high, b_low = self._deal(
            [*player, *banker], [HIGH_CARDS, LOW_CARDS, HIGH_CARDS, LOW_CARDS]
        )
        if not self._legal(b_high, b_low):
            raise PaiGowError("the banker's setting is foul: no text read says how that settles")
        if not self._legal(p_high, p_low):
            return self.rules.player_foul
        high = _sign(self.ev.value(p_high).key, self.ev.value(b_high).key)
        low = _sign(self.steps.low_key(p_low), self.steps.low_key(b_low))
        copy = 1 if self.rules.copies == PLAYER else -1
        return self.steps.verdict(high or copy, low or copy)


def _sign(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    return (a > b) - (a < b)


@cache
def _shared(ruleset_id: str, choices: tuple[tuple[str, str], ...]) -> PaiGow:
    profile = Profile("pai-gow", dict(choices))
    return PaiGow(evaluator(ruleset_id, profile), _need(ruleset_id))


def _need(ruleset_id: str) -> PaiGowRules:
    rules = pai_gow_rules(ruleset_id)
    if rules is None:
        raise RulesetError(
            f"ruleset {ruleset_id} is not a pai gow game (no [[game]] in {GAMES_FILE})"
        )
    return rules


def pai_gow(ruleset_id: str, profile: Profile | str | None = None) -> PaiGow:
    """The shared :class:`PaiGow` of a pai gow ruleset under ``profile`` (default:
    practice); :class:`RulesetError` for a ruleset that is not a pai gow game."""
    prof = load_profile(profile)
    _need(ruleset_id)
    return _shared(ruleset_id, tuple(sorted(prof.choices.items())))
