"""Issue 16, fast start: the corpus loads from a cache keyed by what it was read from.

The cache is keyed by the corpus digest (the one MANIFEST.json records, recomputed from
the files), the manifest, and the schema, rulesets and code loading depends on; a
changed file is read and validated again, a damaged cache file is ignored and replaced,
and the folder is the user's cache folder unless ``POKERCERT_CACHE_DIR`` says otherwise.
Each test loads a small corpus of its own (one ruleset folder of the shipped one).
"""

from __future__ import annotations

import json
import pickle
import shutil
from pathlib import Path

import pytest

from pokercert.vectors import corpus as corpus_module
from pokercert.vectors import registry
from pokercert.vectors.corpus import CorpusError, cache_file_of, load_corpus
from pokercert.vectors.corpus_cache import CACHE_ENV, cache_folder

RULESET = "nj-poker-low-3"  # the smallest folder of the shipped corpus


@pytest.fixture
def mini(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A corpus of one ruleset (and the flag registry), its cache in tmp_path/cache."""
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    root = tmp_path / "corpus"
    shutil.copytree(registry.PACKAGE_ROOT / RULESET, root / RULESET)
    shutil.copy(registry.PACKAGE_ROOT / registry.FLAGS_FILE, root / registry.FLAGS_FILE)
    return root


def _unread(monkeypatch: pytest.MonkeyPatch) -> None:
    """From here on, reading a corpus from its files fails the test."""

    def fail(*args: object, **kwargs: object) -> None:
        raise AssertionError("the corpus was read from its files")

    monkeypatch.setattr(corpus_module, "read_corpus", fail)


def test_a_loaded_corpus_is_cached_and_loaded_from_the_cache(mini, monkeypatch):
    first = load_corpus(mini)
    assert cache_file_of(mini).is_file()
    _unread(monkeypatch)
    again = load_corpus(mini)
    assert [v.id for v in again.vectors] == [v.id for v in first.vectors]
    assert again.vectors == first.vectors and again.sha256 == first.sha256
    assert [v.location for v in again.vectors] == [v.location for v in first.vectors]


def test_a_changed_vector_file_is_read_and_validated_again(mini):
    load_corpus(mini)
    path = sorted((mini / RULESET).glob("*.toml"))[0]
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace('clauses = ["', 'clauses = ["no-such-clause", "', 1), encoding="utf-8"
    )
    with pytest.raises(CorpusError, match="unknown clause 'no-such-clause'"):
        load_corpus(mini)


def test_a_new_manifest_is_a_new_key(mini):
    assert load_corpus(mini).version == "unreleased"
    (mini / "MANIFEST.json").write_text(json.dumps({"corpus_version": "9.9.9"}), encoding="utf-8")
    assert load_corpus(mini).version == "9.9.9"


@pytest.mark.parametrize(
    "damage",
    [
        b"",  # truncated to nothing
        b"not a pickle at all",
        pickle.dumps(("another key", "not a corpus")),
        pickle.dumps({"a": 1}),  # not even a pair
    ],
)
def test_a_damaged_cache_file_is_ignored_and_replaced(mini, monkeypatch, damage):
    want = load_corpus(mini)
    cache_file_of(mini).write_bytes(damage)
    got = load_corpus(mini)  # read from the files again...
    assert got.vectors == want.vectors
    _unread(monkeypatch)
    assert load_corpus(mini).vectors == want.vectors  # ...and cached again


def test_a_corpus_with_problems_is_not_cached(mini):
    (mini / RULESET / "broken.toml").write_text("this is not TOML [", encoding="utf-8")
    with pytest.raises(CorpusError, match="invalid TOML"):
        load_corpus(mini)
    assert not cache_file_of(mini).exists()


def test_the_cache_folder_is_the_users_unless_overridden(monkeypatch, tmp_path):
    monkeypatch.setattr("sys.platform", "linux")
    monkeypatch.delenv(CACHE_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_folder() == tmp_path / "xdg" / "pokercert" / "corpus"
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "mine"))
    assert cache_folder() == tmp_path / "mine" / "corpus"


def test_an_unwritable_cache_folder_only_means_no_cache(mini, monkeypatch, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv(CACHE_ENV, str(blocker))  # a file where the folder should be
    assert len(load_corpus(mini).vectors) > 0
    assert len(load_corpus(mini).vectors) > 0


def test_a_cached_corpus_whose_digest_is_not_the_files_is_not_used(mini):
    """Issue 26: a run reports the corpus it loaded, so a cache file (one more file a
    same-user process can write) whose corpus claims another digest than the files now
    hash to is read again from the files.  The digest is checked against the files by
    their documented definition, the SHA-256 of their ``sha256sum`` listing."""
    import hashlib

    loaded = load_corpus(mini)
    path = cache_file_of(mini)
    key, cached = pickle.loads(path.read_bytes())
    cached.sha256 = "f5307c856701da85187d5626f6b9516734ed330696d4e4983c0c7365e3f106b7"
    path.write_bytes(pickle.dumps((key, cached)))
    files = sorted(
        [*mini.glob("*/*.toml"), mini / registry.FLAGS_FILE],
        key=lambda p: p.relative_to(mini).as_posix(),
    )
    listing = "".join(
        f"{hashlib.sha256(p.read_bytes()).hexdigest()}  {p.relative_to(mini).as_posix()}\n"
        for p in files
    )
    again = load_corpus(mini)
    assert again.sha256 == loaded.sha256 == hashlib.sha256(listing.encode()).hexdigest()
