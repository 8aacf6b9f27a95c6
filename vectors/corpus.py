"""Loading the corpus: TOML files -> checked :class:`~pokercert.vectors.model.Vector` list.

The harness, reports and plugin call :func:`load_corpus`::

    from pokercert.vectors.corpus import load_corpus
    corpus = load_corpus()                       # the corpus shipped with the package
    corpus.version, corpus.sha256, len(corpus.vectors)
    corpus.by_id["nj-poker-high-5/0001"]
    corpus.select(rulesets=["nj-caribbean-stud"], flags=["wheel"])

Loading validates structure (JSON Schema, unique ids, known rulesets, clauses, flags,
interpretations and categories, valid and distinct cards in the right counts).  Every
problem in every file is collected with its ``file:line`` and raised together as one
:class:`CorpusError`, never a traceback.  Agreement with the reference engine and the
manifest is checked by :mod:`pokercert.vectors.check` (``pokercert vectors check``).

A corpus that loads without problems is kept in a cache file (:mod:`.corpus_cache`),
keyed by everything its loading depends on: the corpus digest (the one ``MANIFEST.json``
records, computed afresh from the files on every load), the manifest itself, the schema,
the rulesets, the interpretations and the code that reads and validates them.  Any change
to one of those is another key, so the corpus is read and validated again; a cache file
that cannot be read, or was written for another key, is ignored and replaced.  Cached or
not, ``Corpus.sha256`` is the digest of the files as this load hashed them (15 ms)."""

from __future__ import annotations

import hashlib
import json
import os
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pokercert.reference import CardError, RulesetError, evaluator, get_ruleset
from pokercert.reference.errors import InputError
from pokercert.reference.interpretations import catalogue
from pokercert.reference.names import did_you_mean
from pokercert.reference.rulesets import Ruleset
from pokercert.vectors import corpus_cache, pai_gow_inputs, registry
from pokercert.vectors.canonical import INPUT_KEYS
from pokercert.vectors.deals import best_cards_problems, has_half, impossible_deal, pot_problems
from pokercert.vectors.locations import FileText, toml_line, vector_starts
from pokercert.vectors.model import FORMAT_VERSION, PAI_GOW_KINDS, Kind, Location, Vector
from pokercert.vectors.schema_messages import schema_message

if TYPE_CHECKING:  # imported when the files are read (a miss), not from the cache
    pass

MANIFEST_FILE = "MANIFEST.json"
NOT_RULESET_DIRS = frozenset({"schema", "generate", "__pycache__"})  # code, not rulesets
UNRELEASED = "unreleased"
CORPUS_ENV = "POKERCERT_CORPUS_DIR"  # another corpus folder to load (default_root)


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the corpus, where it is, and what to do about it."""

    location: Location
    message: str

    def __str__(self) -> str:
        return f"{self.location}: {self.message}"

    def as_dict(self) -> dict[str, Any]:
        return {"file": self.location.file, "line": self.location.line, "message": self.message}


class CorpusError(InputError):
    """The corpus has problems; ``problems`` lists every one of them."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        shown = "\n".join(str(p) for p in self.problems[:50])
        more = f"\n... and {len(self.problems) - 50} more" if len(self.problems) > 50 else ""
        super().__init__(f"{len(self.problems)} corpus problem(s):\n{shown}{more}")


class Corpus:
    """The loaded corpus: vectors in a stable order (by id), its version and hash."""

    def __init__(
        self,
        vectors: Iterable[Vector],
        version: str,
        sha256: str,
        root: Path,
        files: Mapping[str, str],
    ) -> None:
        self.vectors: list[Vector] = sorted(vectors, key=lambda v: v.id)
        self.version = version
        self.sha256 = sha256
        self.root = root
        self.files = dict(files)  # path relative to root -> SHA-256 of its bytes

    @cached_property
    def by_id(self) -> dict[str, Vector]:
        return {v.id: v for v in self.vectors}

    @property
    def rulesets(self) -> list[str]:
        """The ruleset ids the corpus has vectors for, sorted."""
        return sorted({v.ruleset for v in self.vectors})

    def select(
        self,
        rulesets: Iterable[str] | None = None,
        flags: Iterable[str] | None = None,
        kinds: Iterable[str] | None = None,
        ids: Iterable[str] | None = None,
        clauses: Iterable[str] | None = None,
    ) -> list[Vector]:
        """Vectors matching every given filter (each filter: any of its values).

        Unknown ruleset ids, flags, kinds or vector ids raise :class:`ValueError` naming
        them, so a typo never selects nothing silently.
        """
        out = self.vectors
        if rulesets is not None:
            wanted = set(rulesets)
            _known("ruleset", wanted, {v.ruleset for v in self.vectors})
            out = [v for v in out if v.ruleset in wanted]
        if flags is not None:
            wanted = set(flags)
            _known("flag", wanted, set(registry.flags(self.root)))
            out = [v for v in out if wanted.intersection(v.flags)]
        if kinds is not None:
            wanted = set(kinds)
            _known("kind", wanted, set(Kind))
            out = [v for v in out if v.kind in wanted]
        if ids is not None:
            wanted = set(ids)
            _known("vector id", wanted, set(self.by_id))
            out = [v for v in out if v.id in wanted]
        if clauses is not None:
            wanted = set(clauses)
            out = [v for v in out if wanted.intersection(v.clauses)]
        return list(out)

    def __len__(self) -> int:
        return len(self.vectors)


def _known(what: str, wanted: set[str], known: set[str]) -> None:
    if unknown := sorted(wanted - known):
        raise ValueError(
            f"unknown {what}(s): {', '.join(u + did_you_mean(u, known) for u in unknown)}"
        )


# --------------------------------------------------------------------------- paths


def default_root() -> Path:
    """The corpus shipped in the package, or ``$POKERCERT_CORPUS_DIR`` if set (a corpus
    not published is reported as modified and never certified: :mod:`.releases`)."""
    given = os.environ.get(CORPUS_ENV, "").strip()
    return Path(given) if given else registry.PACKAGE_ROOT


def display_path(path: Path) -> str:
    """``path`` relative to the working directory when it is below it, else absolute."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return str(path)
    return str(path) if rel.startswith("..") else rel


def vector_files(root: Path) -> list[Path]:
    """Every vector file: ``<root>/<ruleset>/*.toml``, sorted."""
    out = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        if folder.name in NOT_RULESET_DIRS or folder.name.startswith("."):
            continue
        out.extend(sorted(folder.glob("*.toml")))
    return out


def file_sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def total_sha256(files: Mapping[str, str]) -> str:
    """SHA-256 of the ``sha256sum``-style listing of the files (sorted by path)."""
    listing = "".join(f"{sha}  {rel}\n" for rel, sha in sorted(files.items()))
    return hashlib.sha256(listing.encode("utf-8")).hexdigest()


def hashed_files(root: Path) -> dict[str, str]:
    """The files the corpus hash covers: every vector file and the flag registry."""
    paths = [*vector_files(root), root / registry.FLAGS_FILE]
    return {p.relative_to(root).as_posix(): file_sha256(p) for p in paths if p.is_file()}


def manifest_version(root: Path) -> str:
    path = root / MANIFEST_FILE
    try:
        return str(json.loads(path.read_text(encoding="utf-8"))["corpus_version"])
    except (OSError, ValueError, KeyError, TypeError):
        return UNRELEASED


# --------------------------------------------------------------------------- reading


@cache
def _fast_validator() -> tuple[Callable[[Any], Any], type[Exception]]:
    """The compiled schema validator and the exception it raises for invalid data, both
    from one import of ``fastjsonschema``: kept for the process, the validator must not
    be matched against a later import's exception class (pytester, for one, drops the
    modules an in-process run imported; a module imported again has new classes, and a
    file's schema errors then escaped as a traceback)."""
    import fastjsonschema

    return fastjsonschema.compile(registry.schema()), fastjsonschema.JsonSchemaException


class _Reader:
    """Collects vectors and problems from every file of one corpus root.

    ``taken`` are vectors read before (their ids count as used, so a repeat is reported
    with the place it was first used).
    """

    def __init__(self, root: Path, taken: Iterable[Vector] = ()) -> None:
        self.root = root
        self.problems: list[Problem] = []
        self.vectors: list[Vector] = []
        self.seen: dict[str, Location] = {v.id: v.location or Location("?", 0) for v in taken}
        self.flags: Mapping[str, str] = {}

    def problem(self, where: Location, message: str) -> None:
        self.problems.append(Problem(where, message))

    def read_flags(self) -> None:
        path = self.root / registry.FLAGS_FILE
        try:
            self.flags = registry.flags(self.root)
        except OSError as exc:
            self.problem(Location(display_path(path), 1), f"cannot read the flag registry: {exc}")
        except (tomllib.TOMLDecodeError, KeyError, TypeError) as exc:
            self.problem(Location(display_path(path), toml_line(exc)), f"bad flag registry: {exc}")

    def read_file(self, path: Path) -> None:
        shown = display_path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            self.problem(Location(shown, 1), f"cannot read: {exc}")
            return
        self.read_text(text, shown, path.parent.name)

    def read_text(
        self, text: str, shown: str, folder: str, prepare: Callable[[Any], None] | None = None
    ) -> list[Vector]:
        """Read one file's text; ``prepare`` may adjust the parsed data (drafts)."""
        ft = FileText(shown, text.splitlines())
        ft.starts = vector_starts(ft.lines)
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            self.problem(Location(shown, toml_line(exc)), f"invalid TOML: {exc}")
            return []
        if prepare is not None:
            prepare(data)
        bad_vectors = self.validate_schema(ft, data)
        ruleset = self.file_ruleset(ft, data, folder)
        found = []
        for index, raw in enumerate(data.get("vector", []) if isinstance(data, dict) else []):
            if index in bad_vectors or not isinstance(raw, dict):
                continue
            vec = self.read_vector(ft, index, raw, ruleset)
            if vec is not None:
                found.append(vec)
        self.vectors.extend(found)
        return found

    def validate_schema(self, ft: FileText, data: Any) -> set[int]:
        """Report every schema error; return the indices of vectors that failed.

        A compiled validator answers "valid" in a fraction of the time; only a file it
        rejects goes through the full validator, which lists every error.
        """
        validate, invalid = _fast_validator()
        try:
            validate(data)
            return set()
        except invalid:
            pass
        import jsonschema
        from jsonschema.exceptions import best_match

        bad: set[int] = set()
        full = jsonschema.Draft202012Validator(registry.schema())
        for error in sorted(full.iter_errors(data), key=lambda e: list(e.path)):
            path = list(error.absolute_path)
            index = path[1] if len(path) >= 2 and path[0] == "vector" else None
            key = (
                path[2]
                if index is not None and len(path) >= 3
                else (path[0] if path and index is None else None)
            )
            if index is not None:
                bad.add(int(index))
            detail = best_match(error.context) if error.context else error
            where = "/".join(str(p) for p in path[2:] if index is not None) or (
                "/".join(str(p) for p in path) or "file"
            )
            self.problem(
                ft.at(index, key if isinstance(key, str) else None),
                f"schema: {where}: {schema_message(detail)}",
            )
        return bad

    def file_ruleset(self, ft: FileText, data: Any, folder: str) -> Ruleset | None:
        rid = data.get("ruleset") if isinstance(data, dict) else None
        if not isinstance(rid, str):
            return None
        if rid != folder:
            self.problem(
                ft.at(None, "ruleset"), f"file says ruleset {rid!r} but lives in folder {folder!r}"
            )
        try:
            return get_ruleset(rid)
        except RulesetError as exc:
            self.problem(ft.at(None, "ruleset"), str(exc))
            return None

    def read_vector(
        self, ft: FileText, index: int, raw: dict[str, Any], ruleset: Ruleset | None
    ) -> Vector | None:
        vid = raw["id"]
        where = ft.at(index)
        before = len(self.problems)
        if vid in self.seen:
            self.problem(ft.at(index, "id"), f"duplicate id {vid} (first used at {self.seen[vid]})")
        else:
            self.seen[vid] = where
        if ruleset is None:
            return None
        rid = ruleset.id
        if vid.split("/")[0] != rid:
            self.problem(ft.at(index, "id"), f"id {vid} does not start with the ruleset {rid}/")
        kind = raw["kind"]
        inputs: dict[str, Any] = {k: raw[k] for k in INPUT_KEYS if k in raw}
        expect = raw.get("expect")
        by_reading = raw.get("expect_by_reading")
        interps = tuple(raw.get("interpretations", ()))
        vec = Vector(
            id=vid,
            ruleset=rid,
            kind=kind,
            inputs=inputs,
            clauses=tuple(raw["clauses"]),
            flags=tuple(raw["flags"]),
            why=raw["why"],
            expect=expect,
            interpretations=interps,
            expect_by_reading=by_reading,
            location=where,
        )
        self.check_tags(ft, index, vec, ruleset)
        self.check_inputs(ft, index, vec, ruleset)
        self.check_expectations(ft, index, vec, ruleset)
        return vec if len(self.problems) == before else None

    def check_tags(self, ft: FileText, index: int, vec: Vector, rs: Ruleset) -> None:
        for label in vec.clauses:
            if not rs.has_clause(label):
                self.problem(
                    ft.at(index, "clauses"),
                    f"unknown clause {label!r} for {rs.id} (its clauses: "
                    f"{', '.join(c.label for c in rs.clauses)})",
                )
        for flag in vec.flags:
            if self.flags and flag not in self.flags:
                self.problem(
                    ft.at(index, "flags"),
                    f"unknown flag {flag!r} (add it to {registry.FLAGS_FILE} first)",
                )
        for iid in vec.interpretations:
            if iid not in catalogue():
                self.problem(
                    ft.at(index, "interpretations"),
                    f"unknown interpretation {iid!r} (known: {', '.join(catalogue())})",
                )
            elif iid not in rs.interpretations:
                self.problem(
                    ft.at(index, "interpretations"),
                    f"interpretation {iid!r} does not apply to {rs.id} (its "
                    f"interpretations: {', '.join(rs.interpretations)})",
                )

    def check_inputs(self, ft: FileText, index: int, vec: Vector, rs: Ruleset) -> None:
        inputs = vec.inputs
        op = inputs.get("op", vec.kind)
        if op == Kind.BEST_HAND and rs.selection is None:
            self.problem(
                ft.at(index, "kind" if vec.kind == Kind.BEST_HAND else "op"),
                f"{rs.id} has no hole and community cards: best_hand does not apply",
            )
            return
        if op == Kind.QUALIFIES and rs.qualifier is None:
            self.problem(
                ft.at(index, "kind" if vec.kind == Kind.QUALIFIES else "op"),
                f"{rs.id} has no dealer qualifier: qualifies does not apply",
            )
            return
        if vec.kind == Kind.COMPARE and "board" in inputs and rs.selection is None:
            # (a reject vector may carry one on purpose: a field the game does not use)
            self.problem(ft.at(index, "board"), f"{rs.id} has no community cards")
            return
        if vec.kind == Kind.REJECT:
            return  # invalid on purpose; pokercert vectors check verifies the fault
        if vec.kind in PAI_GOW_KINDS:
            found = pai_gow_inputs.input_problem(vec.kind, inputs, rs)
            if found is not None:
                self.problem(ft.at(index, found[0]), found[1])
            return
        cannot = impossible_deal(vec, rs)  # a deal the game never deals (ruleset data)
        for why in cannot:
            self.problem(ft.at(index, "hands" if "hands" in inputs else "hole"), why)
        if cannot:
            return
        if "half" in inputs and not has_half(rs, inputs["half"]):
            self.problem(ft.at(index, "half"), f"{rs.id} has no {inputs['half']} half")
            return
        ev = evaluator(rs.id)
        try:
            if vec.kind in (Kind.CLASSIFY, Kind.QUALIFIES):
                ev.parse_hand(inputs["hand"])
            elif vec.kind == Kind.COMPARE:
                ev.parse_deal(inputs["hands"], inputs.get("board"))
            elif vec.kind == Kind.SHOWDOWN:
                ev.pot(list(inputs["hands"]), inputs.get("board"))
            else:
                ev.best_hand(inputs["hole"], inputs.get("board"), half=inputs.get("half"))
        except CardError as exc:
            cards_field: dict[str, str] = {
                Kind.CLASSIFY: "hand",
                Kind.COMPARE: "hands",
                Kind.BEST_HAND: "hole",
                Kind.SHOWDOWN: "hands",
                Kind.QUALIFIES: "hand",
            }
            key = cards_field[vec.kind]
            self.problem(ft.at(index, key), f"invalid cards ({exc.code}): {exc}")

    def check_expectations(self, ft: FileText, index: int, vec: Vector, rs: Ruleset) -> None:
        expectations: list[Mapping[str, Any]] = []
        if vec.expect_by_reading is not None:
            if len(vec.interpretations) == 1 and vec.interpretations[0] in catalogue():
                interp = catalogue()[vec.interpretations[0]]
                have, want = set(vec.expect_by_reading), set(interp.readings)
                if have != want:
                    self.problem(
                        ft.at(index, "expect_by_reading"),
                        f"expect_by_reading must give one expectation per reading of "
                        f"{interp.id} ({', '.join(sorted(want))}); missing: "
                        f"{sorted(want - have) or 'none'}, unknown: "
                        f"{sorted(have - want) or 'none'}",
                    )
            expectations = list(vec.expect_by_reading.values())
        elif vec.expect is not None:
            expectations = [vec.expect]
        categories = known_categories(rs)
        for expect in expectations:
            cat = expect.get("category")
            if cat is not None and cat not in categories:
                self.problem(
                    ft.at(index, "expect"),
                    f"unknown category {cat!r} for {rs.id} (known: {', '.join(categories)})",
                )
            winners = expect.get("winners")
            if winners is not None:
                n = len(vec.inputs.get("hands", ()))
                if any(w >= n for w in winners):
                    self.problem(
                        ft.at(index, "expect"),
                        f"winner index out of range for {n} hands: {winners}",
                    )
                elif list(winners) != sorted(winners):
                    self.problem(
                        ft.at(index, "expect"),
                        f"list winners in ascending order: {sorted(winners)}",
                    )
            found: list[str] = []
            if vec.kind == Kind.SHOWDOWN:
                found = pot_problems(vec, expect)
            if vec.kind == Kind.BEST_HAND and "cards" in expect:
                found = best_cards_problems(vec, rs, expect["cards"])
            for message in found:
                self.problem(ft.at(index, "expect"), message)


def known_categories(rs: Ruleset) -> list[str]:
    """The ruleset's categories plus any a reading of its interpretations adds."""
    names = list(rs.category_names)
    for iid in rs.interpretations:
        interp = catalogue().get(iid)
        for reading in interp.readings.values() if interp else ():
            for name in reading.set.get("categories", ()):
                if name not in names:
                    names.append(name)
    return names


def read_text(
    text: str,
    shown: str,
    ruleset: str,
    root: Path,
    *,
    taken: Iterable[Vector] = (),
    prepare: Callable[[Any], None] | None = None,
) -> tuple[list[Vector], list[Problem]]:
    """Read one vector file's ``text`` as if it lived in ``<root>/<ruleset>/``.

    Every check :func:`read_corpus` makes applies (schema, flags of ``root``'s registry,
    tags, cards, expectations), with problems located in ``shown`` (the name to print).
    An id already used by one of ``taken`` is a problem.  ``prepare`` may adjust the
    parsed TOML before it is checked (the authoring tool fills in ids).  Returns the sound
    vectors and every problem.
    """
    reader = _Reader(Path(root), taken)
    reader.read_flags()
    found = reader.read_text(text, shown, ruleset, prepare)
    return found, reader.problems


def read_corpus(root: Path | None = None) -> tuple[Corpus, list[Problem]]:
    """Read every file under ``root``; return the vectors that are sound and all problems."""
    root = Path(root) if root is not None else default_root()
    reader = _Reader(root)
    if not root.is_dir():
        reader.problem(Location(display_path(root), 0), "corpus folder not found")
        return Corpus([], UNRELEASED, "", root, {}), reader.problems
    reader.read_flags()
    for path in vector_files(root):
        reader.read_file(path)
    files = hashed_files(root)
    corpus = Corpus(reader.vectors, manifest_version(root), total_sha256(files), root, files)
    return corpus, reader.problems


def load_corpus(root: Path | str | None = None) -> Corpus:
    """Load and validate the corpus (default: the one shipped with the package).

    Raises :class:`CorpusError` listing every problem (``file:line: message``).  A corpus
    loaded before from the same files, by the same code, comes from the cache (see the
    module docstring); a corpus with problems is never cached.
    """
    where = Path(root) if root is not None else default_root()
    if not where.is_dir():
        raise CorpusError(read_corpus(where)[1])
    files = hashed_files(where)
    cached = corpus_cache.read(key := _cache_key(where, files))
    if isinstance(cached, Corpus) and cached.sha256 == total_sha256(files):
        return cached
    corpus, problems = read_corpus(where)
    if problems:
        raise CorpusError(problems)
    corpus_cache.write(key, corpus)
    return corpus


def _cache_key(root: Path, files: Mapping[str, str]) -> str:
    """The corpus digest of ``files`` (as :func:`hashed_files` gives them) and what else
    a load of the corpus under ``root`` depends on (:func:`corpus_cache.cache_key`)."""
    return corpus_cache.cache_key(root, total_sha256(files), display_path(root))


def cache_file_of(root: Path) -> Path:
    """The cache file a load of the corpus under ``root`` would read or write now."""
    return corpus_cache.cache_file(_cache_key(root, hashed_files(root)))


__all__ = [
    "CORPUS_ENV",
    "FORMAT_VERSION",
    "Corpus",
    "CorpusError",
    "Problem",
    "cache_file_of",
    "load_corpus",
    "read_corpus",
    "read_text",
    "vector_starts",
]
