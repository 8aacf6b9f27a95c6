"""The release registry: every published corpus version and its digest, inside the package.

``releases.json`` (beside this module) maps each corpus version ever released to the
corpus digest it was released with (``MANIFEST.json``'s ``sha256``, the SHA-256 of the
``sha256sum`` listing of the vector files and the flag registry).  It is appended by
``pokercert vectors manifest`` (:func:`pokercert.vectors.manifest.write_manifest`), the
same command that writes the manifest, so a release records its digest once; a
version's digest never changes afterwards and versions are never removed.

Why a second record: ``MANIFEST.json`` lives in the corpus folder, beside the files it
describes, so whoever edits a vector can edit the manifest too.  The registry ships with
the code of the pokercert that checks a run (``pokercert verify`` compares a report's
corpus digest with the registry of the pokercert doing the verifying), and it keeps the
digests of every older release, so a report made with an older corpus is still checked.

:func:`corpus_status` answers the one question the reports ask: is the corpus a run
loaded (its version and the digest computed from its files) the published release of
that version?
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from pokercert.reference.errors import InputError

REGISTRY_FILE = "releases.json"
REGISTRY_PATH = Path(__file__).resolve().parent / REGISTRY_FILE
REGISTRY_FORMAT = 1
SHOWN = 16  # hex digits of a digest shown in words (the JSON holds the whole digest)

PUBLISHED, MODIFIED, UNPUBLISHED = "published", "modified", "unpublished"


class RegistryError(InputError):
    """``releases.json`` cannot be read, or a release would change a recorded digest."""


def _read(path: Path) -> dict[str, str]:
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise RegistryError(f"{path}: cannot read the release registry ({exc})") from None
    except ValueError as exc:
        raise RegistryError(f"{path}: the release registry is not valid JSON ({exc})") from None
    releases = data.get("releases") if isinstance(data, dict) else None
    if not isinstance(releases, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in releases.items()
    ):
        raise RegistryError(f'{path}: expected {{"releases": {{VERSION: SHA256, ...}}}}')
    return dict(releases)


@cache
def releases() -> Mapping[str, str]:
    """Every published corpus version -> its corpus digest (hex SHA-256); no file: none."""
    return MappingProxyType(_read(REGISTRY_PATH) if REGISTRY_PATH.exists() else {})


def published_digest(version: str) -> str | None:
    """The digest ``version`` was released with; None if it is no release we know."""
    return releases().get(version)


def dump(entries: Mapping[str, str]) -> str:
    """The registry file's text: one line per release, oldest first (by version)."""
    ordered = sorted(entries.items(), key=lambda kv: _version_key(kv[0]))
    lines = [f"    {json.dumps(v)}: {json.dumps(d)}" for v, d in ordered]
    return (
        f'{{\n  "format_version": {REGISTRY_FORMAT},\n  "releases": {{\n'
        + ",\n".join(lines)
        + "\n  }\n}\n"
    )


def record(version: str, digest: str) -> bool:
    """Record in the registry that ``version`` is released with ``digest``; True if the
    file changed.

    Raises :class:`RegistryError` when ``version`` is recorded with another digest (a
    released version never changes: bump the version) or the file is unreadable."""
    path = REGISTRY_PATH
    entries = _read(path) if path.exists() else {}
    known = entries.get(version)
    if known == digest:
        return False
    if known is not None:
        raise RegistryError(
            f"{path}: corpus {version} was released with digest {known}; "
            f"the corpus now digests to {digest}. A released version never "
            "changes: bump the version (pokercert vectors manifest does it "
            "when vectors change)"
        )
    entries[version] = digest
    path.write_text(dump(entries), encoding="utf-8")
    releases.cache_clear()
    return True


def _version_key(version: str) -> tuple[Any, ...]:
    parts = version.split(".")
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in parts)


@dataclass(frozen=True)
class CorpusStatus:
    """Whether a corpus (a version name and the digest of its files) is a published
    release: ``status`` is published, modified (a known version, other files) or
    unpublished (a version no release of this pokercert has); ``words`` says it."""

    version: str
    sha256: str
    status: str
    published_sha256: str | None

    @property
    def published(self) -> bool:
        return self.status == PUBLISHED

    @property
    def words(self) -> str:
        """``corpus 1.11.0 (published, sha256 ...)``, ``modified corpus (digest X;
        1.11.0 is Y)`` or ``unpublished corpus (digest X; 1.12.0 is not a release ...)``."""
        mine = self.sha256[:SHOWN] or "none"
        if self.status == PUBLISHED:
            return f"corpus {self.version} (published release, sha256 {mine})"
        if self.status == MODIFIED:
            return (
                f"modified corpus (digest {mine}; {self.version} is "
                f"{(self.published_sha256 or '')[:SHOWN]})"
            )
        return (
            f"unpublished corpus (digest {mine}; {self.version} is not a release this "
            "pokercert knows)"
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "sha256": self.sha256,
            "status": self.status,
            "published_sha256": self.published_sha256,
            "words": self.words,
        }


def corpus_status(version: str, sha256: str) -> CorpusStatus:
    """Is the corpus named ``version`` whose files digest to ``sha256`` the published
    release of that version (by this pokercert's registry)?"""
    known = published_digest(version)
    status = UNPUBLISHED if known is None else PUBLISHED if known == sha256 else MODIFIED
    return CorpusStatus(version, sha256, status, known)


__all__ = [
    "MODIFIED",
    "PUBLISHED",
    "REGISTRY_FILE",
    "UNPUBLISHED",
    "CorpusStatus",
    "RegistryError",
    "corpus_status",
    "published_digest",
    "record",
    "releases",
]
