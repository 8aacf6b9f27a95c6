"""``pokercert vectors check``: is every vector sound, and does the reference agree?

On top of what loading checks (schema, ids, tags, cards; :mod:`.corpus`) this module
checks what needs the reference engine or the manifest:

* every expectation agrees with :func:`pokercert.reference.evaluator` under EVERY
  combination of readings of the ruleset's interpretations: a vector without
  ``interpretations`` must come out the same under all of them, a vector with one
  interpretation must match its ``expect_by_reading`` entry for that reading whatever
  the other interpretations read;
* a reject vector names every fault its input has (``reason``, and ``also`` for the
  others of a several-fault input: any of them is a right answer, PROTOCOL.md 3.2), found
  token by token by :func:`reject_faults`, and the reference refuses it for ``reason``;
* the manifest is fresh and no released id changed meaning (:mod:`.manifest`).

Known disagreements of the reference engine with the regulation are listed, with the
clause, in ``vectors/reference-gaps.toml``; they are reported, not hidden, and an entry
the reference no longer needs is itself a problem (remove it).
"""

from __future__ import annotations

import itertools
import json
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from pokercert.reference import (
    CardError,
    Profile,
    RulesetError,
    evaluator,
    format_cards,
    get_ruleset,
    parse_card,
    parse_cards,
    sort_cards,
)
from pokercert.reference.cards import BAD_CARD, DUPLICATE_CARD, JOKER_NOT_ALLOWED, WRONG_COUNT
from pokercert.reference.engine import Evaluator
from pokercert.reference.interpretations import catalogue
from pokercert.reference.rulesets import Ruleset
from pokercert.vectors import pai_gow_inputs
from pokercert.vectors.canonical import digest
from pokercert.vectors.corpus import Corpus, Problem, display_path, read_corpus
from pokercert.vectors.locations import key_location
from pokercert.vectors.model import PAI_GOW_KINDS, Kind, Location, Vector, parse_share, share_text

GAPS_FILE = "reference-gaps.toml"


# --------------------------------------------------------------------------- variants


@dataclass(frozen=True)
class Variant:
    """One combination of readings for a ruleset's interpretations."""

    choices: tuple[tuple[str, str], ...]  # (interpretation id, reading), sorted

    @property
    def as_dict(self) -> dict[str, str]:
        return dict(self.choices)

    def describe(self) -> str:
        off = [f"{iid}={r}" for iid, r in self.choices if r != catalogue()[iid].default]
        return ", ".join(off) or "practice readings"

    def profile(self) -> Profile:
        return Profile(f"check[{self.describe()}]", dict(self.choices))


def variants(rs: Ruleset) -> list[Variant]:
    """Every combination of readings of every interpretation of ``rs`` (default first)."""
    ids = sorted(rs.interpretations)
    options = []
    for iid in ids:
        interp = catalogue()[iid]
        names = [interp.default, *(r for r in interp.readings if r != interp.default)]
        options.append(names)
    return [Variant(tuple(zip(ids, combo, strict=True))) for combo in itertools.product(*options)]


def _rules_key(rs: Ruleset, variant: Variant) -> str:
    """What decides the reference's answers under ``variant``: the ruleset's knobs, and
    the readings of interpretations that rank another half only (they leave the knobs
    alone: :class:`~pokercert.reference.rulesets.Half`)."""
    profile = variant.profile()
    halves = {iid: profile.reading(iid) for iid in sorted(rs.half_only_interpretations)}
    return json.dumps([profile.rules_for(rs), halves], sort_keys=True, default=list)


# --------------------------------------------------------------------------- gaps


@dataclass
class Gap:
    """A known disagreement of the reference engine with the regulation."""

    id: str
    ruleset: str
    clause: str
    summary: str
    interpretation: str | None
    reading: str | None
    vectors: tuple[str, ...] | None
    location: Location
    hits: int = 0

    def covers(self, ruleset: str, variant: Variant, vector_id: str | None) -> bool:
        if ruleset != self.ruleset:
            return False
        if (
            self.interpretation is not None
            and variant.as_dict.get(self.interpretation) != self.reading
        ):
            return False
        if self.vectors is None:
            return True
        return vector_id is not None and vector_id in self.vectors

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "ruleset": self.ruleset,
            "clause": self.clause,
            "summary": self.summary,
            "interpretation": self.interpretation,
            "reading": self.reading,
            "vectors": list(self.vectors) if self.vectors else None,
            "hits": self.hits,
            "where": str(self.location),
        }


def read_gaps(root: Path, problems: list[Problem]) -> list[Gap]:
    path = root / GAPS_FILE
    if not path.is_file():
        return []
    shown = display_path(path)
    text = path.read_text(encoding="utf-8")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        problems.append(Problem(Location(shown, 1), f"invalid TOML: {exc}"))
        return []
    starts = [
        n for n, line in enumerate(text.splitlines(), 1) if line.strip().startswith("[[gap]]")
    ]
    gaps = []
    for i, raw in enumerate(data.get("gap", [])):
        where = Location(shown, starts[i] if i < len(starts) else 1)
        missing = [k for k in ("id", "ruleset", "clause", "summary") if k not in raw]
        if missing:
            problems.append(Problem(where, f"gap entry lacks {missing}"))
            continue
        try:
            rs = get_ruleset(raw["ruleset"])
        except RulesetError as exc:
            problems.append(Problem(where, str(exc)))
            continue
        if not rs.has_clause(raw["clause"]):
            problems.append(Problem(where, f"unknown clause {raw['clause']!r} for {rs.id}"))
        interp, reading = raw.get("interpretation"), raw.get("reading")
        if (interp is None) != (reading is None):
            problems.append(Problem(where, "give both 'interpretation' and 'reading', or neither"))
            continue
        if interp is not None and (
            interp not in rs.interpretations or reading not in catalogue()[interp].readings
        ):
            problems.append(Problem(where, f"{interp}={reading} is not a reading of {rs.id}"))
            continue
        vectors = tuple(raw["vectors"]) if "vectors" in raw else None
        gaps.append(
            Gap(raw["id"], rs.id, raw["clause"], raw["summary"], interp, reading, vectors, where)
        )
    return gaps


# --------------------------------------------------------------------------- outcomes


def card_set(text: str) -> str:
    """A card set in canonical order (for comparing best-hand answers as sets)."""
    return format_cards(sort_cards(parse_cards(text, jokers=2)))


def normalise(kind: str, expect: Mapping[str, Any]) -> dict[str, Any]:
    """An expectation in the comparable form :func:`reference_outcome` returns."""
    out = dict(expect)
    # a reject vector with several faults: the reference names ``reason``; ``also`` lists
    # the input's other faults, checked against the input by :func:`reject_faults`
    out.pop("also", None)
    if kind in (Kind.COMPARE, Kind.COMPARE_TWO_CARD):
        out["winners"] = sorted(out["winners"])
    if kind == Kind.BEST_HAND:
        out["cards"] = sorted(card_set(c) for c in out["cards"])
    if kind == Kind.SHOWDOWN:
        out = pot_outcome(out["high"], out["low"], [parse_share(s) for s in out["shares"]])
    return out


def pot_outcome(
    high: Sequence[int], low: Sequence[int] | None, shares: Sequence[Fraction | None]
) -> dict[str, Any]:
    """A settled pot in the comparable form of a showdown expectation (winners sorted,
    no low half as an empty list, shares as exact fractions written canonically)."""
    return {
        "high": sorted(high),
        "low": sorted(low or ()),
        "shares": [share_text(s) if s is not None else "?" for s in shares],
    }


def reference_outcome(ev: Evaluator, vector: Vector) -> dict[str, Any]:
    """What the reference engine answers for this vector (comparable with expectations)."""
    inputs = vector.inputs
    if vector.kind == Kind.CLASSIFY:
        return {"category": ev.category(inputs["hand"])}
    if vector.kind == Kind.COMPARE:
        return {"winners": ev.winners(list(inputs["hands"]), inputs.get("board"))}
    if vector.kind == Kind.SHOWDOWN:
        pot = ev.pot(list(inputs["hands"]), inputs.get("board"))
        return pot_outcome(pot.high, pot.low, pot.shares)
    if vector.kind == Kind.BEST_HAND:
        best = ev.best_hand(inputs["hole"], inputs.get("board"), half=inputs.get("half"))
        if best is None:
            return {"category": None, "cards": []}
        return {
            "category": best.category,
            "cards": sorted(format_cards(sort_cards(c)) for c in best.alternatives),
        }
    if vector.kind == Kind.QUALIFIES:
        return {"qualifies": ev.qualifies(inputs["hand"])}
    if vector.kind in PAI_GOW_KINDS:
        return pai_gow_inputs.answer(vector.kind, inputs, ev)
    op = inputs["op"]
    try:
        if op in PAI_GOW_KINDS:  # a two-card hand, a setting or a settlement
            answer: Any = pai_gow_inputs.answer(op, inputs, ev)
        elif op == Kind.CLASSIFY:
            answer = ev.category(inputs["hand"])
        elif op == Kind.QUALIFIES:
            answer = ev.qualifies(inputs["hand"])
        elif op == Kind.COMPARE:
            answer = ev.winners(list(inputs["hands"]), inputs.get("board"))
        else:
            best = ev.best_hand(inputs["hole"], inputs["board"])
            answer = [best.category, format_cards(best.cards)]
    except CardError as exc:
        return {"reason": exc.code}
    except RulesetError as exc:
        return {"reason": None, "refused": str(exc)}
    return {"accepted": answer}


def show(outcome: Mapping[str, Any]) -> str:
    return json.dumps(dict(outcome), sort_keys=True)


# --------------------------------------------------------------------------- reject faults


def reject_faults(vector: Vector, rs: Ruleset) -> tuple[set[str], list[str]]:
    """The faults a reject vector's raw input has, found token by token.

    Returns (fault reason codes, non-canonical spellings of valid cards).
    """
    inputs = vector.inputs
    op = inputs["op"]
    sel = rs.selection
    faults: set[str] = set()
    spelling: list[str] = []
    groups: list[tuple[str, int]] = []
    if op in (Kind.CLASSIFY, Kind.QUALIFIES):
        groups.append((inputs.get("hand", ""), rs.hand_size))
    elif op == Kind.COMPARE:
        board = inputs.get("board")
        per_hand = sel.hole if (board is not None and sel) else rs.hand_size
        hands = list(inputs.get("hands", ()))
        if len(hands) < 2:
            faults.add(WRONG_COUNT)
        groups.extend((h, per_hand) for h in hands)
        if board is not None and sel:
            groups.append((board, sel.board))
        elif board is not None:  # a board where the game deals none: too many cards
            faults.add(WRONG_COUNT)
            groups.append((board, len(board.split())))
    elif op in PAI_GOW_KINDS:
        groups.extend(pai_gow_inputs.card_groups(op, inputs))
    elif sel is not None:
        groups.extend([(inputs.get("hole", ""), sel.hole), (inputs.get("board", ""), sel.board)])
    seen: set[Any] = set()
    jokers = 0
    for text, count in groups:
        tokens = text.split()
        if len(tokens) != count:
            faults.add(WRONG_COUNT)
        for pos, token in enumerate(tokens):
            try:
                card = parse_card(token, pos)
            except CardError:
                faults.add(BAD_CARD)
                continue
            if str(card) != token:
                spelling.append(f"{token!r} (write {str(card)!r})")
            if card.is_joker:
                jokers += 1
                if rs.jokers == 0:
                    faults.add(JOKER_NOT_ALLOWED)
                elif jokers > rs.jokers:
                    faults.add(DUPLICATE_CARD)
            elif card in seen:
                faults.add(DUPLICATE_CARD)
            seen.add(card)
    return faults, spelling


# --------------------------------------------------------------------------- the check


@dataclass
class CheckReport:
    """Everything ``pokercert vectors check`` found."""

    corpus: Corpus
    problems: list[Problem] = field(default_factory=list)
    gaps: list[Gap] = field(default_factory=list)
    known: list[tuple[Gap, str, str]] = field(default_factory=list)  # gap, vector, variant
    variants_checked: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems

    def as_dict(self) -> dict[str, Any]:
        counts: dict[str, int] = {}
        for v in self.corpus.vectors:
            counts[v.ruleset] = counts.get(v.ruleset, 0) + 1
        return {
            "ok": self.ok,
            "corpus_version": self.corpus.version,
            "sha256": self.corpus.sha256,
            "vectors": len(self.corpus.vectors),
            "vectors_by_ruleset": counts,
            "reading_combinations_checked": self.variants_checked,
            "problems": [p.as_dict() for p in self.problems],
            "known_reference_gaps": [g.as_dict() for g in self.gaps],
        }


class _Checker:
    def __init__(self, corpus: Corpus, report: CheckReport, gaps: list[Gap]) -> None:
        self.corpus = corpus
        self.report = report
        self.gaps = gaps
        self._evaluators: dict[str, Evaluator | Exception] = {}

    def problem(self, vector: Vector, message: str, *keys: str) -> None:
        where = vector.location or Location(vector.id, 0)
        if keys and vector.location is not None:
            where = key_location(where, *keys)
        self.report.problems.append(Problem(where, f"{vector.id}: {message}"))

    def evaluator_for(self, rs: Ruleset, variant: Variant) -> Evaluator | Exception:
        key = rs.id + _rules_key(rs, variant)
        if key not in self._evaluators:
            try:
                self._evaluators[key] = evaluator(rs.id, variant.profile())
            except RulesetError as exc:
                self._evaluators[key] = exc
        return self._evaluators[key]

    def gap_for(self, rs: Ruleset, variant: Variant, vector_id: str | None) -> Gap | None:
        for gap in self.gaps:
            if gap.covers(rs.id, variant, vector_id):
                return gap
        return None

    def run(self, vectors: Iterable[Vector]) -> None:
        by_ruleset: dict[str, list[Vector]] = {}
        for v in vectors:
            by_ruleset.setdefault(v.ruleset, []).append(v)
        for rid, group in by_ruleset.items():
            rs = get_ruleset(rid)
            all_variants = variants(rs)
            self.report.variants_checked += len(all_variants)
            broken_reported: set[str] = set()
            for vector in group:
                if vector.kind == Kind.REJECT:
                    self.check_reject_faults(vector, rs)
                self.check_vector(vector, rs, all_variants, broken_reported)

    def check_vector(
        self,
        vector: Vector,
        rs: Ruleset,
        all_variants: Sequence[Variant],
        broken_reported: set[str],
    ) -> None:
        cache: dict[str, dict[str, Any] | Exception] = {}
        mismatches: list[tuple[Variant, dict[str, Any], dict[str, Any]]] = []
        for variant in all_variants:
            ev = self.evaluator_for(rs, variant)
            if isinstance(ev, Exception):
                gap = self.gap_for(rs, variant, None)
                if gap is not None:
                    gap.hits += 1
                    self.report.known.append((gap, vector.id, variant.describe()))
                elif variant.describe() not in broken_reported:
                    broken_reported.add(variant.describe())
                    self.problem(
                        vector,
                        f"the reference engine cannot evaluate {rs.id} under "
                        f"{variant.describe()}: {ev} (record it in {GAPS_FILE} and "
                        "report it)",
                    )
                continue
            key = _rules_key(rs, variant)
            if key not in cache:
                try:
                    cache[key] = reference_outcome(ev, vector)
                except (CardError, RulesetError) as exc:
                    cache[key] = exc
            actual = cache[key]
            if isinstance(actual, Exception):
                self.problem(
                    vector, f"the reference refuses the input under {variant.describe()}: {actual}"
                )
                return
            expected = normalise(vector.kind, vector.expected(variant.profile()))
            if actual != expected:
                mismatches.append((variant, expected, actual))
        unexplained = []
        for variant, expected, actual in mismatches:
            gap = self.gap_for(rs, variant, vector.id)
            if gap is not None:
                gap.hits += 1
                self.report.known.append((gap, vector.id, variant.describe()))
            else:
                unexplained.append((variant, expected, actual))
        if unexplained:
            self.report_mismatch(vector, all_variants, unexplained)

    def report_mismatch(
        self,
        vector: Vector,
        all_variants: Sequence[Variant],
        mismatches: list[tuple[Variant, dict[str, Any], dict[str, Any]]],
    ) -> None:
        default = all_variants[0]
        first_variant, expected, actual = mismatches[0]
        if not vector.interpretations and first_variant is not default:

            def changed(variant: Variant) -> list[str]:
                return [iid for iid, r in variant.choices if r != catalogue()[iid].default]

            # an interpretation decides if flipping it alone changes the outcome
            deciding = sorted(
                {changed(v)[0] for v, _, _ in mismatches if len(changed(v)) == 1}
                or {iid for v, _, _ in mismatches for iid in changed(v)}
            )
            self.problem(
                vector,
                f"the outcome depends on an interpretation "
                f"({', '.join(deciding)}): expected {show(expected)} under every "
                f"reading, but under {first_variant.describe()} the reference gives "
                f"{show(actual)}; name the interpretation and give expect_by_reading",
                "expect",
                "expect_by_reading",
            )
            return
        reading = (
            f" (reading {vector.reading_used(first_variant.profile())})"
            if vector.interpretations
            else ""
        )
        self.problem(
            vector,
            f"expected {show(expected)}{reading} but the reference gives "
            f"{show(actual)} under {first_variant.describe()}"
            + (
                f" (and {len(mismatches) - 1} more reading combination(s))"
                if len(mismatches) > 1
                else ""
            ),
            "expect",
            "expect_by_reading",
        )

    def check_reject_faults(self, vector: Vector, rs: Ruleset) -> None:
        faults, spelling = reject_faults(vector, rs)
        reason = vector.expect["reason"] if vector.expect else None
        also = set(vector.expect.get("also", ())) if vector.expect else set()
        inputs = ("hand", "hands", "hole", "board", "high", "low", "player", "banker")
        if spelling:
            self.problem(
                vector,
                "write the valid cards of a reject vector canonically: " + ", ".join(spelling),
                *inputs,
            )
        if not faults:
            self.problem(vector, "the input has no fault: it is valid", *inputs)
        elif reason in also:
            self.problem(vector, f"'also' repeats the reason {reason!r}", "expect")
        elif faults != {reason} | also:
            named = ", ".join(sorted({str(reason)} | also))
            self.problem(
                vector,
                f"a reject vector expects exactly the faults its input has "
                f"(reason, and 'also' for the others): it names {named}; this input "
                f"has: {', '.join(sorted(faults))}",
                *inputs,
            )


def check_vectors(vectors: Sequence[Vector], root: Path | None = None) -> list[Problem]:
    """Reference-agreement and reject-fault problems of ``vectors`` (gaps under ``root``)."""
    from pokercert.vectors.corpus import Corpus, default_root

    base = Path(root) if root is not None else default_root()
    report = CheckReport(Corpus(vectors, "", "", base, {}))
    gaps = read_gaps(base, report.problems)
    _Checker(report.corpus, report, gaps).run(vectors)
    return report.problems


def duplicate_meanings(vectors: Iterable[Vector]) -> list[Problem]:
    """Two ids with the same inputs and expectation are one vector counted twice."""
    first: dict[str, Vector] = {}
    problems = []
    for v in vectors:
        d = digest(v)
        if d in first:
            problems.append(
                Problem(
                    v.location or Location(v.id, 0),
                    f"{v.id}: same inputs and expectation as {first[d].id} ({first[d].location})",
                )
            )
        else:
            first[d] = v
    return problems


def check_corpus(
    root: Path | None = None, with_reference: bool = True, with_manifest: bool = True
) -> CheckReport:
    """Run every check on the corpus under ``root`` (default: the shipped corpus)."""
    from pokercert.vectors import manifest  # manifest imports this module's helpers

    corpus, problems = read_corpus(root)
    report = CheckReport(corpus, list(problems))
    report.problems.extend(duplicate_meanings(corpus.vectors))
    gaps = read_gaps(corpus.root, report.problems)
    report.gaps = gaps
    if with_reference:
        _Checker(corpus, report, gaps).run(corpus.vectors)
        for gap in gaps:
            if gap.hits == 0:
                report.problems.append(
                    Problem(
                        gap.location,
                        f"gap {gap.id}: the reference "
                        "now agrees with every vector it covers; remove "
                        "the entry",
                    )
                )
    if with_manifest:
        report.problems.extend(manifest.check_manifest(corpus, loaded_cleanly=not problems))
    return report
