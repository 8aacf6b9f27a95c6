"""The release registry (vectors/releases.json): every published corpus version and its
digest, written by ``pokercert vectors manifest`` with the manifest, never changed after.

The digests are facts from outside the code: the ``sha256`` that ``vectors/MANIFEST.json``
recorded in each release commit (1.11.0: commit 86193ac).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pokercert.vectors import releases
from pokercert.vectors.check import check_corpus
from pokercert.vectors.manifest import read_manifest, write_manifest
from pokercert.vectors.registry import PACKAGE_ROOT

RS = "nj-poker-high-5"
FIXTURE = Path(__file__).parent / "data" / "mini-corpus" / "edge-cases.toml"
RELEASED = {
    "1.0.0": "883fdd387d999fb82a825ed7bf5e00a5310e5615887d611b1869b940c513bfbf",
    "1.8.0": "d252f66caaec8503c5f056b65f655ff93db95cfdff9cb2c2b43fa5a6c050d8a4",
    "1.11.0": "f5307c856701da85187d5626f6b9516734ed330696d4e4983c0c7365e3f106b7",
}


def test_the_registry_holds_the_releases_as_their_manifests_recorded_them():
    known = releases.releases()
    assert {v: known.get(v) for v in RELEASED} == RELEASED
    assert len(known) >= 15  # 1.0.0 ... 1.11.0, each version once


def test_the_installed_manifest_is_in_the_registry():
    manifest = read_manifest(PACKAGE_ROOT)
    assert manifest is not None
    assert releases.published_digest(manifest["corpus_version"]) == manifest["sha256"]


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A small corpus standing for the package's: the release registry beside it."""
    root = tmp_path / "vectors"
    (root / RS).mkdir(parents=True)
    shutil.copy(PACKAGE_ROOT / "flags.toml", root)
    shutil.copy(FIXTURE, root / RS / "edge-cases.toml")
    monkeypatch.setattr(releases, "REGISTRY_PATH", root / releases.REGISTRY_FILE)
    releases.releases.cache_clear()
    yield root
    releases.releases.cache_clear()


def registry(root: Path) -> dict[str, str]:
    data = json.loads((root / releases.REGISTRY_FILE).read_text(encoding="utf-8"))
    return dict(data["releases"])


def test_the_manifest_command_records_each_release_once(package: Path) -> None:
    first = write_manifest(package)
    assert (first.version, first.registered) == ("1.0.0", True)
    digest = read_manifest(package)["sha256"]
    assert registry(package) == {"1.0.0": digest}
    assert not write_manifest(package).registered  # nothing new: nothing written
    edge = package / RS / "edge-cases.toml"
    edge.write_text(
        edge.read_text().replace('flags = ["wraparound"]', 'flags = ["wraparound", "near-miss"]', 1)
    )
    patch = write_manifest(package)
    assert (patch.version, patch.registered) == ("1.0.1", True)
    assert registry(package) == {"1.0.0": digest, "1.0.1": read_manifest(package)["sha256"]}


def test_a_merge_that_brings_a_manifest_the_registry_lacks_is_healed_by_rerunning(
    package: Path,
) -> None:
    """After merging a branch that bumped the corpus, the manifest is up to date and the
    registry lacks its version: `vectors check` says so, and `vectors manifest` adds it."""
    write_manifest(package)
    (package / releases.REGISTRY_FILE).write_text(releases.dump({}), encoding="utf-8")
    releases.releases.cache_clear()
    found = [p.message for p in check_corpus(package, with_reference=False).problems]
    assert found == [
        "corpus 1.0.0 is not in the release registry (releases.json): run "
        "`pokercert vectors manifest`"
    ]
    again = write_manifest(package)
    assert not again.changed and again.registered
    assert registry(package) == {"1.0.0": read_manifest(package)["sha256"]}
    assert check_corpus(package, with_reference=False).problems == []


def test_a_released_version_never_changes_its_digest(package: Path) -> None:
    write_manifest(package)
    (package / releases.REGISTRY_FILE).write_text(
        releases.dump({"1.0.0": "0" * 64}), encoding="utf-8"
    )
    releases.releases.cache_clear()
    problems = [p.message for p in check_corpus(package, with_reference=False).problems]
    assert len(problems) == 1 and "records corpus 1.0.0 with digest 000" in problems[0]
    assert "a released version never changes" in problems[0]
    refused = write_manifest(package)
    assert refused.refused and "never changes" in refused.refused[0].message
    assert registry(package) == {"1.0.0": "0" * 64}  # nothing written


def test_a_corpus_elsewhere_never_touches_the_registry(tmp_path: Path) -> None:
    root = tmp_path / "vectors"
    (root / RS).mkdir(parents=True)
    shutil.copy(PACKAGE_ROOT / "flags.toml", root)
    shutil.copy(FIXTURE, root / RS / "edge-cases.toml")
    before = releases.REGISTRY_PATH.read_bytes()
    assert not write_manifest(root).registered
    assert releases.REGISTRY_PATH.read_bytes() == before
    assert not (root / releases.REGISTRY_FILE).exists()


def test_the_status_of_a_corpus_in_words():
    digest = RELEASED["1.11.0"]
    assert releases.corpus_status("1.11.0", digest).published
    assert (
        releases.corpus_status("1.11.0", "ab" * 32).words
        == "modified corpus (digest abababababababab; 1.11.0 is f5307c856701da85)"
    )
    assert releases.corpus_status("unreleased", digest).status == releases.UNPUBLISHED
