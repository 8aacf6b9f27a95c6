"""``pokercert vectors add``: put new hand-written vectors into the corpus.

A draft is a TOML file like a corpus file whose vectors carry no ``id``::

    ruleset = "nj-poker-high-5"

    # comment lines right above a vector are kept
    [[vector]]
    kind = "compare"
    hands = ["5h 4h 3h 2h Ah", "Ks Kh Kd Kc As"]
    expect = { winners = [0] }
    clauses = ["(b)2", "(b)3"]          # short clause ids are expanded to full labels
    flags = ["category-order", "wheel"]
    why = "The lowest straight flush still beats the best four of a kind it can meet."

The tool validates every draft vector (schema, tags, cards), refuses duplicates of an
existing vector, assigns the next free ids of the ruleset (never a used or retired one,
never one of the generator's block), and appends the vectors in canonical form to
``<ruleset>/<topic>.toml``.  It never rewrites or renumbers what is already there.
Disagreements with the reference engine are reported, not fixed: the regulation decides.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pokercert.reference import Ruleset, RulesetError, get_ruleset
from pokercert.vectors.canonical import digest, file_header, record, to_toml
from pokercert.vectors.corpus import (
    Corpus,
    CorpusError,
    Problem,
    display_path,
    read_corpus,
    read_text,
)
from pokercert.vectors.ids import IdBlockFull, next_ids
from pokercert.vectors.locations import vector_starts
from pokercert.vectors.model import Location, Vector

_TOPIC = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


@dataclass
class Added:
    """The outcome of an ``add``: the new ids and where they went."""

    ids: list[str] = field(default_factory=list)
    file: str = ""
    warnings: list[Problem] = field(default_factory=list)


def _comments_above(lines: list[str], header_line: int) -> list[str]:
    out: list[str] = []
    n = header_line - 2
    while n >= 0 and lines[n].lstrip().startswith("#"):
        out.insert(0, lines[n].strip())
        n -= 1
    return out


def _expand_clauses(ruleset: Any, clauses: list[str]) -> list[str]:
    out = []
    for label in clauses:
        full = label if ruleset.has_clause(label) else ruleset.regulation.section + label
        out.append(full if ruleset.has_clause(full) else label)
    return out


def add_vectors(draft: Path, topic: str, root: Path | None = None, dry_run: bool = False) -> Added:
    """Append the draft's vectors to ``<root>/<ruleset>/<topic>.toml`` with new ids.

    Raises :class:`CorpusError` (every problem, with the draft's ``file:line``) and
    writes nothing when the draft or the corpus is not sound.  Disagreements with the
    reference engine come back as ``Added.warnings``.
    """
    from pokercert.vectors.check import check_vectors  # check imports corpus, not us

    shown, text, data, ruleset = _read_draft(draft, topic)
    lines = text.splitlines()
    starts = vector_starts(lines)
    drafts = data.get("vector", [])
    _refuse_drafted_ids(shown, drafts, starts)
    corpus, corpus_problems = read_corpus(root)
    if corpus_problems:
        raise CorpusError(corpus_problems)
    root = corpus.root
    try:
        ids = next_ids(ruleset.id, len(drafts), root=root)
    except IdBlockFull as exc:
        raise CorpusError([Problem(Location(shown, 1), str(exc))]) from None
    found = _validated(text, shown, ruleset, corpus, ids)
    warnings = check_vectors(found)
    chunks = []
    for i, vec in enumerate(found):
        comment = _comments_above(lines, starts[i]) if i < len(starts) else []
        chunks.append(to_toml(record(vec), comment))
    target = root / ruleset.id / f"{topic}.toml"
    result = Added(ids, display_path(target), warnings)
    if not dry_run:
        _append(target, chunks, ruleset.id, topic, root)
    return result


def _read_draft(draft: Path, topic: str) -> tuple[str, str, dict[str, Any], Ruleset]:
    """The draft as shown in messages, its text, its data and its ruleset; a draft that
    does not read, a topic that is no topic, an unknown ruleset are refused."""
    shown = display_path(draft)
    try:
        text = draft.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise CorpusError([Problem(Location(shown, 1), f"cannot read the draft: {exc}")]) from None
    if not _TOPIC.match(topic) or topic.startswith("generated"):
        raise CorpusError(
            [
                Problem(
                    Location(shown, 1),
                    f"topic {topic!r}: use lower-case words "
                    "joined by '-' (names starting 'generated' belong to the "
                    "generator)",
                )
            ]
        )
    try:
        ruleset = get_ruleset(str(data.get("ruleset")))
    except RulesetError as exc:
        raise CorpusError([Problem(Location(shown, 1), str(exc))]) from None
    return shown, text, data, ruleset


def _refuse_drafted_ids(shown: str, drafts: list[Any], starts: list[int]) -> None:
    """A draft holds vectors, none with an ``id`` (the tool assigns them)."""
    problems = [
        Problem(
            Location(shown, starts[i] if i < len(starts) else 1),
            "draft vectors carry no 'id': the tool assigns it",
        )
        for i, raw in enumerate(drafts)
        if isinstance(raw, dict) and "id" in raw
    ]
    if not drafts:
        problems.append(Problem(Location(shown, 1), "the draft holds no [[vector]] table"))
    if problems:
        raise CorpusError(problems)


def _validated(
    text: str, shown: str, ruleset: Ruleset, corpus: Corpus, ids: list[str]
) -> list[Vector]:
    """The draft's vectors under ``ids``, read as if the draft were a corpus file (with
    the draft's line numbers, its clauses expanded to full labels); a vector the corpus
    already holds (same inputs and expectation) is refused."""

    def prepare(parsed: dict[str, Any]) -> None:
        parsed.setdefault("format_version", 1)
        for vid, raw in zip(ids, parsed.get("vector", []), strict=False):
            if isinstance(raw, dict):
                raw["id"] = vid
                if isinstance(raw.get("clauses"), list):
                    raw["clauses"] = _expand_clauses(ruleset, raw["clauses"])

    found, problems = read_text(
        text, shown, ruleset.id, corpus.root, taken=corpus.vectors, prepare=prepare
    )
    existing = {digest(v): v.id for v in corpus.vectors}
    for v in found:
        if digest(v) in existing:
            problems.append(
                Problem(
                    v.location or Location(shown, 1),
                    f"same inputs and expectation as {existing[digest(v)]}",
                )
            )
    if problems:
        raise CorpusError(problems)
    return found


def _append(target: Path, chunks: list[str], ruleset_id: str, topic: str, root: Path) -> None:
    """Append the vectors' TOML to ``target`` (a new topic file gets its header), then
    read the corpus again: a corpus that no longer loads is put back as it was."""
    old = target.read_text(encoding="utf-8") if target.is_file() else None
    title = topic.replace("-", " ").capitalize()
    new_text = (
        old.rstrip("\n") + "\n"
        if old is not None
        else file_header(ruleset_id, f"{ruleset_id}: {title}")
    )
    new_text += "".join("\n" + chunk for chunk in chunks)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(new_text, encoding="utf-8")
    _, after = read_corpus(root)
    if after:  # cannot happen unless the writer is wrong: undo, and say so
        if old is None:
            target.unlink()
        else:
            target.write_text(old, encoding="utf-8")
        raise CorpusError(after)
