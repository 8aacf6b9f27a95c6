"""Interpretations: the documented readings of ambiguous clauses, and profiles.

The catalogue lives in ``reference/interpretations.toml``.  A :class:`Profile` chooses
one reading per interpretation (unnamed ones take their default, the practice
reading); :meth:`Profile.rules_for` overlays the chosen readings' knobs on a
ruleset's own rules, which is all the reference engine needs to know.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

from pokercert.reference.names import did_you_mean, unknown_name
from pokercert.reference.rulesets import (
    Ruleset,
    RulesetError,
    all_regulations,
    all_rulesets,
    check_rules,
)

BUILTIN_PROFILES = ("practice", "literal")


@dataclass(frozen=True)
class Reading:
    """One way to read a clause; ``set`` holds the engine knobs it implies."""

    name: str
    summary: str
    set: Mapping[str, Any]


@dataclass(frozen=True)
class Interpretation:
    """An ambiguous clause: what it hinges on, where it applies, and its readings."""

    id: str
    title: str
    clauses: tuple[str, ...]
    rulesets: tuple[str, ...]
    question: str
    default: str
    readings: Mapping[str, Reading]


@cache
def catalogue() -> Mapping[str, Interpretation]:
    """Every interpretation by id, checked against the regulations and rulesets."""
    path = resources.files("pokercert.reference") / "interpretations.toml"
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    labels = {c.label for reg in all_regulations() for c in reg.clauses}
    ruleset_ids = {r.id for r in all_rulesets()}
    out: dict[str, Interpretation] = {}
    for raw in data.get("interpretation", []):
        iid = raw.get("id", "?")
        where = f"interpretations.toml [{iid}]"
        unknown = [c for c in raw["clauses"] if c not in labels]
        if unknown:
            raise RulesetError(f"{where}: unknown clause labels {unknown}")
        unknown = [r for r in raw["rulesets"] if r not in ruleset_ids]
        if unknown:
            raise RulesetError(f"{where}: unknown rulesets {unknown}")
        readings = {}
        for name, r in raw["readings"].items():
            check_rules(r.get("set", {}), f"{where} reading {name}")
            readings[name] = Reading(name, r["summary"], MappingProxyType(dict(r.get("set", {}))))
        if raw["default"] not in readings or not {"practice", "literal"} <= readings.keys():
            raise RulesetError(f"{where}: needs 'practice' and 'literal' readings and a default")
        out[iid] = Interpretation(
            iid,
            raw["title"],
            tuple(raw["clauses"]),
            tuple(raw["rulesets"]),
            raw["question"],
            raw["default"],
            MappingProxyType(readings),
        )
    for rs in all_rulesets():
        for iid in rs.interpretations:
            if iid not in out or rs.id not in out[iid].rulesets:
                raise RulesetError(
                    f"ruleset {rs.id} lists interpretation {iid!r} that does "
                    "not name it back in interpretations.toml"
                )
    return MappingProxyType(out)


def get_interpretation(iid: str) -> Interpretation:
    try:
        return catalogue()[iid]
    except KeyError:
        raise RulesetError(unknown_name("interpretation", iid, catalogue())) from None


@dataclass(frozen=True)
class Profile:
    """A choice of reading per interpretation; anything not chosen takes its default."""

    name: str = "practice"
    choices: Mapping[str, str] = field(default_factory=dict)

    def reading(self, iid: str) -> str:
        return self.choices.get(iid, get_interpretation(iid).default)

    def readings_for(self, ruleset: Ruleset) -> dict[str, str]:
        """The reading used for every interpretation that applies to ``ruleset``."""
        return {iid: self.reading(iid) for iid in ruleset.interpretations}

    def rules_for(self, ruleset: Ruleset) -> dict[str, Any]:
        """The ruleset's engine knobs with this profile's readings applied (not those of
        an interpretation that ranks another half of its pot only, :class:`Half`)."""
        rules = dict(ruleset.rules)
        for iid, reading in self.readings_for(ruleset).items():
            if iid in ruleset.half_only_interpretations:
                continue
            rules.update(get_interpretation(iid).readings[reading].set)
        return rules

    def as_dict(self) -> dict[str, Any]:
        """Stable JSON form: the name and every reading of every interpretation."""
        return {
            "name": self.name,
            "readings": {iid: self.reading(iid) for iid in sorted(catalogue())},
        }


def _checked(name: str, choices: Mapping[str, str], where: str) -> Profile:
    for iid, reading in choices.items():
        interp = catalogue().get(iid)
        if interp is None:
            raise RulesetError(f"{where}: unknown interpretation {iid!r}")
        if reading not in interp.readings:
            raise RulesetError(
                f"{where}: {iid} has no reading {reading!r} "
                f"(readings: {', '.join(interp.readings)})"
            )
    return Profile(name, MappingProxyType(dict(choices)))


PROFILE_KEYS = ("name", "readings")


def _profile_file(data: Mapping[str, Any], path: Path) -> Profile:
    """A profile file's contents, checked: only ``name`` (a string) and ``readings`` (a
    table of interpretation id -> reading name); anything else names the file and key,
    so that a misplaced reading is never silently scored as the default."""
    where = str(path)
    for key, value in data.items():
        if key in PROFILE_KEYS:
            continue
        hint = ""
        if key in catalogue():
            hint = f"; put it under [readings] ({key} = {json.dumps(value)})"
        raise RulesetError(
            f"{where}: unknown key {key!r} (a profile file holds name and a [readings] table){hint}"
        )
    name = data.get("name", path.stem)
    if not isinstance(name, str) or not name.strip():
        raise RulesetError(f"{where}: name must be a non-empty string, not {name!r}")
    readings = data.get("readings", {})
    if not isinstance(readings, dict):
        raise RulesetError(
            f"{where}: readings must be a table ([readings] with "
            f'interpretation = "reading" lines), not {readings!r}'
        )
    for iid, reading in readings.items():
        if not isinstance(reading, str):
            raise RulesetError(
                f"{where}: readings.{iid} must be a reading name (a string), not {reading!r}"
            )
    return _checked(name, readings, where)


def load_profile(spec: str | Profile | None = None) -> Profile:
    """``practice`` (default), ``literal``, or a TOML file with a ``[readings]`` table.

    A profile file::

        name = "my-lab"
        [readings]
        identical-rank-tiebreak = "literal"

    Any other key, a ``readings`` that is not a table or a reading that is not a string
    is a :class:`RulesetError` naming the file and the key.
    """
    if isinstance(spec, Profile):
        return spec
    if spec is None or spec == "practice":
        return Profile("practice")
    if spec == "literal":
        return Profile("literal", MappingProxyType({i: "literal" for i in catalogue()}))
    path = Path(spec)
    if not path.is_file():
        raise RulesetError(
            f"profile {spec!r} is neither {' nor '.join(BUILTIN_PROFILES)} "
            f"nor a readable file{did_you_mean(spec, BUILTIN_PROFILES)}"
        )
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError(f"{path}: {exc}") from None
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
        raise RulesetError(f"{path}: cannot read the profile ({why})") from None
    return _profile_file(data, path)
