"""The release record of the corpus: ``MANIFEST.json`` and ``CHANGELOG.md``.

The manifest holds the corpus version, the SHA-256 of every file and of the whole
corpus, the vector counts, and for every id the digest of its meaning (inputs +
expectation, :func:`pokercert.vectors.canonical.digest`) and of its metadata.
Ids that left the corpus are kept under ``retired`` so they are never reused.

Rules (enforced here, and by ``pokercert vectors check``):

* a released id never changes meaning: fix a wrong vector by deleting it (its id is
  retired) and adding the corrected one under a new id;
* a retired id never comes back;
* the manifest is never stale: ``check`` fails until ``pokercert vectors manifest``
  has recorded the change (and appended it to the changelog);
* a release records its digest once: for the corpus shipped in the package, the same
  command records the manifest's version and digest in the release registry
  (:mod:`pokercert.vectors.releases`, ``releases.json``), which the reports compare a
  run's corpus with; rerun it after a merge and it adds a version the registry lacks.

The version is bumped from what changed: a retirement is a major change (results
against the old corpus no longer compare), new vectors a minor one, metadata or
comment edits a patch.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pokercert.vectors import releases
from pokercert.vectors.canonical import digest, meta_digest
from pokercert.vectors.corpus import (
    MANIFEST_FILE,
    Corpus,
    CorpusError,
    Problem,
    display_path,
    read_corpus,
)
from pokercert.vectors.model import Location

CHANGELOG_FILE = "CHANGELOG.md"
MANIFEST_FORMAT = 1
FIRST_VERSION = "1.0.0"
CHANGELOG_HEAD = """# Corpus changelog

Written by `pokercert vectors manifest`; newest first.  An id is never reused and a
released id never changes meaning: a corrected vector gets a new id and the old one is
retired.
"""


def build(corpus: Corpus) -> dict[str, Any]:
    """The manifest content for ``corpus`` (without version and retired ids)."""
    per_file: dict[str, int] = {}
    by_ruleset: dict[str, int] = {}
    for v in corpus.vectors:
        if v.location is not None:
            rel = Path(v.location.file).resolve().relative_to(corpus.root.resolve()).as_posix()
            per_file[rel] = per_file.get(rel, 0) + 1
        by_ruleset[v.ruleset] = by_ruleset.get(v.ruleset, 0) + 1
    return {
        "format_version": MANIFEST_FORMAT,
        "sha256": corpus.sha256,
        "vector_count": len(corpus.vectors),
        "vectors_by_ruleset": dict(sorted(by_ruleset.items())),
        "files": {
            rel: {"sha256": sha, "vectors": per_file.get(rel, 0)}
            for rel, sha in sorted(corpus.files.items())
        },
        "vectors": {v.id: {"digest": digest(v), "meta": meta_digest(v)} for v in corpus.vectors},
    }


def read_manifest(root: Path) -> dict[str, Any] | None:
    """The committed manifest, or None when there is none yet."""
    path = root / MANIFEST_FILE
    if not path.is_file():
        return None
    manifest: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return manifest


def _where(root: Path) -> Location:
    return Location(display_path(root / MANIFEST_FILE), 1)


def check_manifest(corpus: Corpus, loaded_cleanly: bool = True) -> list[Problem]:
    """Problems with released ids and manifest freshness (empty when all is well)."""
    where = _where(corpus.root)
    try:
        old = read_manifest(corpus.root)
    except (OSError, ValueError) as exc:
        return [Problem(where, f"unreadable manifest: {exc}")]
    if old is None:
        return [Problem(where, "no manifest yet: run `pokercert vectors manifest`")]
    problems = _released_id_problems(corpus, old, where)
    if not loaded_cleanly:
        return problems
    new = build(corpus)
    stale = _staleness(new, old)
    if stale:
        problems.append(
            Problem(
                where,
                "manifest is stale: " + "; ".join(stale) + ". Run `pokercert vectors manifest`",
            )
        )
    elif _is_package(corpus.root):
        problems += _registry_problems(where, str(old.get("corpus_version")), new["sha256"])
    return problems


def _released_id_problems(corpus: Corpus, old: Mapping[str, Any], where: Location) -> list[Problem]:
    """A vector whose id the manifest ``old`` retired, or released with another meaning."""
    problems = []
    released: Mapping[str, Any] = old.get("vectors", {})
    retired: Mapping[str, str] = old.get("retired", {})
    for v in corpus.vectors:
        loc = v.location or where
        if v.id in retired:
            problems.append(
                Problem(
                    loc,
                    f"{v.id}: this id was retired and can never be reused; "
                    "use the next free id (`pokercert vectors add`)",
                )
            )
        elif v.id in released and released[v.id].get("digest") != digest(v):
            problems.append(
                Problem(
                    loc,
                    f"{v.id}: released id changed meaning (inputs or "
                    "expectation differ from the manifest). Restore it; to "
                    "correct it, delete it (the id is retired) and add the "
                    "corrected vector under a new id",
                )
            )
    return problems


def _staleness(new: Mapping[str, Any], old: Mapping[str, Any]) -> list[str]:
    """How the manifest ``old`` differs from ``new``, built from the corpus: changed files,
    new and removed ids, then (only if none of those) the first differing summary field,
    then the vectors' metadata.  Empty when it is fresh."""
    released: Mapping[str, Any] = old.get("vectors", {})
    stale = []
    changed_files = sorted(
        rel
        for rel in set(new["files"]) | set(old.get("files", {}))
        if new["files"].get(rel) != old.get("files", {}).get(rel)
    )
    if changed_files:
        shown = ", ".join(changed_files[:5]) + (" ..." if len(changed_files) > 5 else "")
        stale.append(f"{len(changed_files)} file(s) changed ({shown})")
    added = sorted(set(new["vectors"]) - set(released))
    removed = sorted(set(released) - set(new["vectors"]))
    if added:
        stale.append(f"{len(added)} new id(s) ({compress_ids(added)})")
    if removed:
        stale.append(f"{len(removed)} id(s) removed ({compress_ids(removed)})")
    for key in ("sha256", "vector_count", "vectors_by_ruleset", "format_version"):
        if not stale and new[key] != old.get(key):
            stale.append(f"{key} differs")
    if not stale and {k: v.get("meta") for k, v in new["vectors"].items()} != {
        k: v.get("meta") for k, v in released.items()
    }:
        stale.append("vector metadata differs")
    return stale


def _is_package(root: Path) -> bool:
    """Whether ``root`` is the corpus releases are made of: the one shipped in the package,
    beside the release registry."""
    return root.resolve() == releases.REGISTRY_PATH.parent


def _registry_clash(where: Location, version: str, sha256: str) -> list[Problem]:
    """A problem if the release registry records ``version`` with another digest."""
    known = releases.published_digest(version)
    if known is None or known == sha256:
        return []
    return [
        Problem(
            where,
            f"the release registry ({releases.REGISTRY_FILE}) records corpus "
            f"{version} with digest {known}, the corpus digests to {sha256}: a "
            "released version never changes; bump the version",
        )
    ]


def _registry_problems(where: Location, version: str, sha256: str) -> list[Problem]:
    """The release registry must hold the manifest's version with the manifest's digest."""
    try:
        if releases.published_digest(version) is None:
            return [
                Problem(
                    where,
                    f"corpus {version} is not in the release registry "
                    f"({releases.REGISTRY_FILE}): run `pokercert vectors manifest`",
                )
            ]
        return _registry_clash(where, version, sha256)
    except releases.RegistryError as exc:
        return [Problem(where, str(exc))]


# --------------------------------------------------------------------------- writing


@dataclass
class Release:
    """What ``pokercert vectors manifest`` recorded (or refused)."""

    version: str
    previous: str | None
    added: list[str] = field(default_factory=list)
    retired: list[str] = field(default_factory=list)
    metadata: list[str] = field(default_factory=list)
    files_changed: list[str] = field(default_factory=list)
    refused: list[Problem] = field(default_factory=list)
    registered: bool = False  # the version was added to the release registry now

    @property
    def changed(self) -> bool:
        return self.version != self.previous

    def as_dict(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "previous": self.previous,
            "added": self.added,
            "retired": self.retired,
            "metadata_changed": self.metadata,
            "files_changed": self.files_changed,
            "registered": self.registered,
            "refused": [p.as_dict() for p in self.refused],
        }


def bump(version: str, part: str) -> str:
    major, minor, patch = (int(x) for x in version.split("."))
    if part == "major":
        return f"{major + 1}.0.0"
    if part == "minor":
        return f"{major}.{minor + 1}.0"
    return f"{major}.{minor}.{patch + 1}"


def compress_ids(ids: Iterable[str]) -> str:
    """``a/0001, a/0002, a/0003, b/0007`` -> ``a/0001-0003, b/0007``."""
    runs: list[list[Any]] = []
    for vid in sorted(ids):
        prefix, _, num = vid.rpartition("/")
        n = int(num)
        if runs and runs[-1][0] == prefix and runs[-1][2] == n - 1:
            runs[-1][2] = n
        else:
            runs.append([prefix, n, n])
    return ", ".join(f"{p}/{a:04d}" + (f"-{b:04d}" if b != a else "") for p, a, b in runs)


def write_manifest(root: Path | None = None, dry_run: bool = False) -> Release:
    """Record the corpus in the manifest and changelog; refuse to change a released id.

    Raises :class:`CorpusError` when the corpus does not load cleanly.  A refusal
    (changed meaning, reused id, a released version's digest changed) is returned in
    ``Release.refused`` and nothing is written.  For the corpus shipped in the package
    the version and digest are recorded in the release registry too (also when the
    manifest was already up to date: a merge may bring a manifest whose version the
    registry lacks).
    """
    corpus, problems = read_corpus(root)
    if problems:
        raise CorpusError(problems)
    root = corpus.root
    old = read_manifest(root)
    new = build(corpus)
    if old is None:
        release = Release(FIRST_VERSION, None, added=sorted(new["vectors"]))
        retired: dict[str, str] = {}
    else:
        release, retired = _after(old, new, corpus, root)
        if release.refused:
            return release
    package = _is_package(root)
    if package:
        release.refused += _registry_clash(_where(root), release.version, new["sha256"])
        if release.refused:
            return release
    if dry_run:
        return release
    if old is None or release.changed:
        manifest = {
            "corpus_version": release.version,
            **new,
            "retired": dict(sorted(retired.items())),
        }
        (root / MANIFEST_FILE).write_text(dump_manifest(manifest), encoding="utf-8")
        _append_changelog(root, release, len(corpus.vectors))
    if package:
        release.registered = releases.record(release.version, new["sha256"])
    return release


def _after(
    old: Mapping[str, Any], new: Mapping[str, Any], corpus: Corpus, root: Path
) -> tuple[Release, dict[str, str]]:
    """The release the corpus makes after the manifest ``old`` (``new``: the corpus's
    manifest as built), and the retired ids with their digests.  A released id whose
    meaning changed, or a retired id reused, is refused (``Release.refused``; the rest
    of the release is then not worked out).  The version takes a major step for a
    retired id, a minor one for an added id, a patch for changed metadata or files."""
    released = old.get("vectors", {})
    retired = dict(old.get("retired", {}))
    release = Release(old["corpus_version"], old["corpus_version"])
    for v in corpus.vectors:
        loc = v.location or _where(root)
        if v.id in retired:
            release.refused.append(Problem(loc, f"{v.id}: retired id reused"))
        elif v.id in released and released[v.id]["digest"] != digest(v):
            release.refused.append(
                Problem(
                    loc,
                    f"{v.id}: released id changed meaning; "
                    "delete it and add the corrected vector under a "
                    "new id",
                )
            )
    if release.refused:
        return release, retired
    release.added = sorted(set(new["vectors"]) - set(released))
    release.retired = sorted(set(released) - set(new["vectors"]))
    release.metadata = sorted(
        vid
        for vid, rec in new["vectors"].items()
        if vid in released and released[vid].get("meta") != rec["meta"]
    )
    release.files_changed = sorted(
        rel
        for rel in set(new["files"]) | set(old.get("files", {}))
        if new["files"].get(rel) != old.get("files", {}).get(rel)
    )
    for vid in release.retired:
        retired[vid] = released[vid]["digest"]
    if release.retired:
        release.version = bump(release.version, "major")
    elif release.added:
        release.version = bump(release.version, "minor")
    elif release.metadata or release.files_changed:
        release.version = bump(release.version, "patch")
    return release, retired


def dump_manifest(manifest: Mapping[str, Any]) -> str:
    """JSON with one line per file and per id, so a release diff shows what changed."""
    lines = ["{"]
    items = list(manifest.items())
    for i, (key, value) in enumerate(items):
        comma = "," if i < len(items) - 1 else ""
        if isinstance(value, dict) and value and key in ("files", "vectors", "retired"):
            lines.append(f"  {json.dumps(key)}: {{")
            entries = list(value.items())
            for j, (k, v) in enumerate(entries):
                sep = "," if j < len(entries) - 1 else ""
                lines.append(f"    {json.dumps(k)}: {json.dumps(v, sort_keys=True)}{sep}")
            lines.append("  }" + comma)
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value, sort_keys=True)}{comma}")
    return "\n".join(lines) + "\n}\n"


def _append_changelog(root: Path, release: Release, total: int) -> None:
    path = root / CHANGELOG_FILE
    text = path.read_text(encoding="utf-8") if path.is_file() else CHANGELOG_HEAD
    lines = [f"## {release.version}", ""]
    if release.previous is None:
        lines.append(f"- first release: {total} vectors")
    if release.added:
        lines.append(f"- added ({len(release.added)}): {compress_ids(release.added)}")
    if release.retired:
        lines.append(
            f"- removed, ids retired ({len(release.retired)}): {compress_ids(release.retired)}"
        )
    if release.metadata:
        lines.append(
            f"- changed, metadata only: clauses/flags/why ({len(release.metadata)}): "
            f"{compress_ids(release.metadata)}"
        )
    if not (release.added or release.retired or release.metadata) and release.previous:
        lines.append(f"- files edited, no vector changed: {', '.join(release.files_changed)}")
    lines.append(f"- total: {total} vectors")
    entry = "\n".join(lines) + "\n"
    head, sep, rest = text.partition("\n## ")
    new_text = head.rstrip("\n") + "\n\n" + entry + (("\n## " + rest) if sep else "")
    path.write_text(new_text, encoding="utf-8")
