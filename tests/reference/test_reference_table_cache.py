"""Streamed enumeration (combinatorial unranking) and the on-disk class tables.

Expectations come from outside the code under test: ``itertools.combinations`` is the
enumeration order, C(52, k) its size; a table loaded from disk must answer exactly as one
built afresh; a cache file that is damaged, truncated or written for another table must
be rebuilt, never read.
"""

from __future__ import annotations

import threading
from itertools import combinations, islice
from math import comb

import numpy as np
import pytest

from pokercert.reference import DECK, evaluator
from pokercert.reference import batch as batch_mod
from pokercert.reference.batch import Table, rows
from pokercert.reference.table_cache import CACHE_ENV, load_or_build, table_digest, table_path

POCKET = "nj-mini-tex-pocket"
HIGH_3 = "nj-poker-high-3"


@pytest.mark.parametrize("size", [1, 2, 3, 5, 7])
def test_any_range_unranks_to_the_combinations_order(size):
    total = comb(52, size)
    index = {c: i for i, c in enumerate(DECK)}
    for start in (0, 1, total // 3, total - 5):
        stop = min(start + 5, total)
        want = [[index[c] for c in h] for h in islice(combinations(DECK, size), start, stop)]
        assert rows(size, start, stop).tolist() == want
    assert rows(size, total - 1, total).tolist() == [list(range(52 - size, 52))]


def test_a_range_outside_the_space_is_refused():
    with pytest.raises(ValueError, match="not inside"):
        rows(3, 0, comb(52, 3) + 1)


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """The tables' folder under a fresh $POKERCERT_CACHE_DIR."""
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    return tmp_path / "cache" / "tables"


def _load(ruleset: str, profile: str = "practice") -> tuple[Table, int]:
    """The table through the disk cache, and how many times it had to be built."""
    ev = evaluator(ruleset, profile)
    builds = []

    def make(built):
        builds.append(built is None)
        return Table(ev, ev.ruleset.hand_size, built)

    table = load_or_build(ev, ev.ruleset.hand_size, make)
    return table, sum(builds)


def _same(a: Table, b: Table) -> bool:
    return all(np.array_equal(a.arrays[k], b.arrays[k]) for k in a.arrays)


def test_a_table_is_built_once_then_loaded(cache):
    first, built = _load(HIGH_3)
    assert built == 1 and len(list(cache.iterdir())) == 1
    again, built = _load(HIGH_3)
    assert built == 0 and _same(first, again)
    assert again.distinct == 741  # three-card high: 741 distinct values
    assert again.classify_all().counts() == first.classify_all().counts()


def test_the_address_covers_ruleset_profile_and_size(cache):
    practice = evaluator("nj-mini-tex-pocket", "practice")
    literal = evaluator("nj-mini-tex-pocket", "literal")
    assert table_digest(practice, 2) != table_digest(literal, 2)
    assert table_digest(practice, 2) != table_digest(evaluator(HIGH_3), 2)
    assert table_digest(practice, 2) != table_digest(practice, 3)
    assert table_digest(practice, 2) == table_digest(evaluator(POCKET, "practice"), 2)


@pytest.mark.parametrize("damage", ["truncate", "flip", "garbage", "other-digest"])
def test_a_bad_cache_file_is_rebuilt_never_trusted(damage, cache):
    good, _ = _load(POCKET)
    path = table_path(evaluator(POCKET), 2)
    data = path.read_bytes()
    if damage == "truncate":
        path.write_bytes(data[: len(data) // 2])
    elif damage == "flip":  # arrays that do not match the checksum beside them
        arrays = dict(good.arrays)
        key = arrays["key"].copy()
        key[np.flatnonzero(key >= 0)[0]] += 1
        arrays["key"] = key
        with np.load(path) as saved:
            meta = saved["__meta__"]
        with path.open("wb") as f:
            np.savez(f, __meta__=meta, **arrays)
    elif damage == "garbage":
        path.write_bytes(b"not a table")
    else:  # a sound file, written for another table
        from pokercert.reference import table_cache

        table_cache._write(path, "0" * 64, good.arrays)
    again, built = _load(POCKET)
    assert built == 1 and _same(again, good)
    _, built = _load(POCKET)  # and the rebuilt file is sound
    assert built == 0


def test_concurrent_writers_leave_one_sound_file(cache):
    errors = []

    def build():
        try:
            ev = evaluator(HIGH_3)
            load_or_build(ev, 3, lambda built: Table(ev, 3, built))
        except Exception as exc:  # pragma: no cover - the failure being tested
            errors.append(exc)

    threads = [threading.Thread(target=build) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert [p.suffix for p in cache.iterdir()] == [".npz"]  # no temporary file left
    _, built = _load(HIGH_3)
    assert built == 0


def test_an_unwritable_cache_folder_does_not_stop_a_run(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("a file where the cache folder should be")
    monkeypatch.setenv(CACHE_ENV, str(blocker / "cache"))
    table, built = _load(POCKET)
    assert built == 1 and table.distinct == 6


def test_the_in_memory_table_goes_through_the_disk_cache(cache):
    batch_mod._table.cache_clear()
    try:
        assert batch_mod.table(POCKET).distinct == 6
        assert any(cache.iterdir())
    finally:
        batch_mod._table.cache_clear()


def test_tables_and_corpora_share_one_cache_root(tmp_path, monkeypatch):
    """One helper resolves $POKERCERT_CACHE_DIR for both (reference.cache_dir): each kind
    of file in its own folder under the same root, also without the variable."""
    from pokercert.reference.table_cache import cache_dir
    from pokercert.vectors.corpus_cache import cache_folder

    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "mine"))
    assert (cache_dir(), cache_folder()) == (
        tmp_path / "mine" / "tables",
        tmp_path / "mine" / "corpus",
    )
    monkeypatch.delenv(CACHE_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir().parent == cache_folder().parent
