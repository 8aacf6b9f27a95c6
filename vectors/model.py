"""The parsed vector: what every later stage (harness, reports, plugin) consumes.

Data flows one way: vector file -> :class:`Vector` -> adapter call -> result -> report.
A vector is one behaviour of one ruleset: the inputs, the expected outcome (per
interpretation reading when it depends on one), the clause labels it exercises, the
bug-class flags it targets, and a one-line ``why`` a regulator understands.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any

from pokercert.reference.interpretations import Profile, load_profile
from pokercert.reference.pai_gow import pai_gow_rules
from pokercert.reference.rulesets import Ruleset

FORMAT_VERSION = 1


class Kind(StrEnum):
    """The one vocabulary of vector kinds (the ``kind`` key of a vector file).

    The same words name the operations an evaluator answers (``classify``, ``compare``,
    ``best_hand``, ``showdown``, ``qualifies``, and pai gow's ``compare_two_card``,
    ``setting`` and ``settle``); ``reject`` sends invalid input through one of them.
    ``showdown``, ``qualifies`` and the pai gow kinds came later: an adapter claims them
    per ruleset, and adapters written before them never do (see :data:`BASIC_KINDS`).  Members are
    ``str``: they compare equal to, hash like and print as their value, so files and
    outputs read exactly as before.
    """

    CLASSIFY = "classify"
    COMPARE = "compare"
    BEST_HAND = "best_hand"
    REJECT = "reject"
    SHOWDOWN = "showdown"
    QUALIFIES = "qualifies"
    COMPARE_TWO_CARD = "compare_two_card"
    SETTING = "setting"
    SETTLE = "settle"


# the halves of a split pot a best_hand request may ask for (``half``; absent: high)
HALVES: tuple[str, ...] = ("high", "low")


# the kinds and the operations as plain strings, for data that is written out (capability
# lists, choices, table headers): a plain ``str`` serialises the same in every format
KINDS: tuple[str, ...] = tuple(k.value for k in Kind)
# the operations an evaluator answers; a reject vector sends its invalid input through one
OPERATIONS: tuple[str, ...] = tuple(k.value for k in Kind if k is not Kind.REJECT)
# the kinds every ruleset has (the first protocol's): an adapter that predates a later kind
# claims these, and a later kind only where it implements it
# the kinds of a pai gow game (reference/pai_gow.toml lists the rulesets that are one)
PAI_GOW_KINDS: tuple[str, ...] = (Kind.COMPARE_TWO_CARD, Kind.SETTING, Kind.SETTLE)
BASIC_KINDS: tuple[str, ...] = tuple(
    k for k in KINDS if k not in (Kind.SHOWDOWN, Kind.QUALIFIES, *PAI_GOW_KINDS)
)


def kinds_for(ruleset: Ruleset, kinds: tuple[str, ...] = KINDS) -> list[str]:
    """The ``kinds`` that apply to ``ruleset``: ``best_hand`` only where it selects a hand
    from hole and community cards, ``qualifies`` only where it has a dealer qualifier,
    the pai gow kinds only in a pai gow game."""
    pai_gow = pai_gow_rules(ruleset.id) is not None
    return [
        k
        for k in kinds
        if (k != Kind.BEST_HAND or ruleset.selection is not None)
        and (k != Kind.QUALIFIES or ruleset.qualifier is not None)
        and (pai_gow or k not in PAI_GOW_KINDS)
    ]


_SHARE = re.compile(r"(0|[1-9][0-9]*)(/[1-9][0-9]*)?")


def parse_share(text: Any) -> Fraction | None:
    """An exact pot share written as ``"n"`` or ``"n/d"`` (``"1/2"``, ``"3/4"``), or None
    when ``text`` is not exactly such a string (the wire and the corpus spell shares so)."""
    if type(text) is not str:
        return None
    found = _SHARES.get(text)
    if found is None:
        if len(text) > 40 or not _SHARE.fullmatch(text):
            return None
        found = Fraction(text)
        if len(_SHARES) < _SHARES_KEPT:
            _SHARES[text] = found
    return found


# the share of every text parsed before (a run meets a handful: "1", "1/2", "1/4" ...),
# up to _SHARES_KEPT texts (an adapter's answers cannot grow it without bound)
_SHARES: dict[str, Fraction] = {}
_SHARES_KEPT = 4096


def share_text(share: Fraction) -> str:
    """A share as the corpus and the protocol spell it: ``"1/2"``, ``"1"``, ``"0"``."""
    return str(Fraction(share))


@dataclass(frozen=True)
class Location:
    """Where a vector was read from (for error messages and reports)."""

    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass(frozen=True)
class Vector:
    """One clause-tagged test vector.

    ``inputs`` by kind (cards are canonical strings, one string per hand):

    * classify: ``{"hand": "As Ks Qs Js Ts"}``
    * compare: ``{"hands": ["...", "..."]}`` plus ``"board"`` for hold'em rulesets
      (then each hand is a player's hole cards)
    * best_hand: ``{"hole": "...", "board": "..."}`` plus ``"half": "high"|"low"`` in
      split-pot games (absent: high); a game without community cards (stud) has no board
      and ``hole`` holds all of the player's cards
    * showdown: ``{"hands": [...]}`` plus ``"board"`` in games with community cards (each
      hand is then a player's hole cards); the whole pot is settled
    * qualifies: ``{"hand": "..."}`` (one dealer hand)
    * compare_two_card: ``{"hands": ["As Xx", "Kd Kc"]}`` (pai gow two-card hands)
    * setting: ``{"high": "<5 cards>", "low": "<2 cards>"}`` (one player's seven cards set)
    * settle: ``{"player": [high, low], "banker": [high, low]}`` (two set hands)
    * reject: ``{"op": "classify"|"compare"|"best_hand", ...that op's inputs...}``;
      reject inputs are raw strings and may be invalid on purpose.

    ``expect`` by kind: classify ``{"category"}``, compare ``{"winners": [indices]}``,
    best_hand ``{"category", "cards": [acceptable card sets]}``, reject ``{"reason"}``
    (and ``"also"``: the other faults of an input that has several; any of them passes),
    showdown ``{"high": [indices], "low": [indices], "shares": ["1/2", ...]}`` (``low``
    empty when no low half is awarded: the game has none or no hand qualifies; one exact
    fraction of the pot per hand; odd chips are out of scope),
    qualifies ``{"qualifies": true|false}`` (the ruleset's dealer qualifier),
    compare_two_card ``{"winners": [indices]}``, setting ``{"legal": true|false}``,
    settle ``{"settlement": "player"|"banker"|"push"}``.
    When the vector depends on an interpretation, ``expect_by_reading`` maps each
    reading name of that (single) interpretation to such a dict instead.
    """

    id: str
    ruleset: str
    kind: str
    inputs: Mapping[str, Any]
    clauses: tuple[str, ...]
    flags: tuple[str, ...]
    why: str
    expect: Mapping[str, Any] | None = None
    interpretations: tuple[str, ...] = ()
    expect_by_reading: Mapping[str, Mapping[str, Any]] | None = None
    location: Location | None = field(default=None, compare=False)

    def expected(self, profile: Profile | str | None = None) -> Mapping[str, Any]:
        """The one definite expected outcome under ``profile`` (default: practice)."""
        if self.expect_by_reading is None:
            assert self.expect is not None
            return self.expect
        prof = load_profile(profile)
        (iid,) = self.interpretations
        return self.expect_by_reading[prof.reading(iid)]

    def reading_used(self, profile: Profile | str | None = None) -> dict[str, str]:
        """The interpretation readings this vector was scored under (empty if none apply)."""
        prof = load_profile(profile)
        return {iid: prof.reading(iid) for iid in self.interpretations}
