"""The engine's value memos kept on disk (``table_cache.shared_values``).

A shared evaluator (``evaluator()``) keeps the values it computes (a class's category and
key, a class's best key per half, a wild-card search) in memos shared by every evaluator
with the same valuation rules; the memos are written at the end of the process and read
back by the next one.  What must hold: the next process starts with the values, the
values read are exactly what the engine computes (checked here against an engine built
directly, which never reads the cache), and a file that is not sound for its name (bad
checksum, written for another digest, not JSON, wrong shapes) is ignored, never trusted.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pokercert.reference.cache_dir import CACHE_ENV
from pokercert.reference.engine import Evaluator
from pokercert.reference.table_cache import VALUE_CACHE_ENV, values_digest

# deal a few showdowns (pot: classes and best keys), classify hands with jokers (a wild
# search), then print how many values each memo held before and after
SCRIPT = """
import json, sys
import pokercert.reference.engine as e
from pokercert.reference import evaluator
holdem, wild = evaluator("nj-holdem"), evaluator("mt-poker-high")
before = [len(holdem._cache), len(wild._wild_cache),
          len(holdem._fast_plan("high")[2])]
holdem.pot(["As Kd", "7c 7h", "Qs Jh"], "2c 9d Td Ks 4h")
holdem.pot(["Ac 2d", "8c 8h"], "3c 4d 5s Kh Qh")
wild.evaluate("Xx Xx As Kd 9c")
print(json.dumps(before))
"""


def _run(cache: Path, **env: str) -> list[int]:
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, CACHE_ENV: str(cache), **env},
    )
    return list(json.loads(out.stdout))


def test_the_next_process_starts_with_the_values(tmp_path: Path) -> None:
    assert _run(tmp_path) == [0, 0, 0]
    files = sorted(p.name.split("-")[0] for p in (tmp_path / "values").iterdir())
    assert {"classified", "best", "wild"} <= set(files)
    classes, wild, best = _run(tmp_path)
    assert classes > 0 and wild == 1 and best > 0


def test_turned_off_nothing_is_written(tmp_path: Path) -> None:
    assert _run(tmp_path, **{VALUE_CACHE_ENV: "0"}) == [0, 0, 0]
    assert not (tmp_path / "values").exists()


def _cached(tmp_path: Path) -> list[Path]:
    _run(tmp_path)
    return sorted((tmp_path / "values").iterdir())


def test_values_read_back_are_the_engines_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every class value in the files equals what an engine built directly (which neither
    reads nor writes the cache) computes for it."""
    _cached(tmp_path)
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    from pokercert.reference import table_cache
    from pokercert.reference.engine import _BEST, _CLASSIFIED, _PERSIST

    fresh = Evaluator("nj-holdem")
    kind, text, decode, _ = _PERSIST[id(_CLASSIFIED)](fresh._rules_key)
    path = table_cache.values_path(kind, text)
    memo = decode(json.loads(path.read_bytes().partition(b"\n")[2]))
    assert len(memo) > 20
    for (ranks, sc), value in memo.items():
        assert fresh._classify(ranks, sc) == value
    ranking, qualifier, *_ = fresh._fast_plan("high")
    kind, text, decode, _ = _PERSIST[id(_BEST)]((ranking._rules_key, qualifier))
    best = decode(json.loads(table_cache.values_path(kind, text).read_bytes().partition(b"\n")[2]))
    assert best and all(Evaluator._code_key(fresh, qualifier, c) == k for c, k in best.items())


@pytest.mark.parametrize("spoil", ["checksum", "digest", "garbage", "shape"])
def test_an_unsound_file_is_ignored_and_replaced(tmp_path: Path, spoil: str) -> None:
    for path in _cached(tmp_path):
        head, _, body = path.read_bytes().partition(b"\n")
        meta = json.loads(head)
        if spoil == "checksum":  # entries changed after they were summed
            body = body.replace(b"[", b"[ ", 1)
        elif spoil == "digest":  # a file written for other sources or rules
            meta["digest"] = values_digest("classified", "another key")
        elif spoil == "garbage":
            head, body = b"not json", b""
        else:  # sound checksum, entries of the wrong shape
            body = b'[["x"]]'
            meta["checksum"] = hashlib.sha256(body).hexdigest()
        if spoil != "garbage":
            head = json.dumps(meta).encode()
        path.write_bytes(head + b"\n" + body)
    assert _run(tmp_path) == [0, 0, 0]  # nothing read: every memo starts empty
    assert _run(tmp_path) != [0, 0, 0]  # and the files were written anew


def test_the_name_changes_with_the_engine_and_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    from pokercert.reference import table_cache

    one = values_digest("classified", "rules A")
    assert one != values_digest("classified", "rules B") != values_digest("best", "rules A")
    monkeypatch.setattr(table_cache, "engine_version", lambda: "0+other-sources")
    assert values_digest("classified", "rules A") != one


def _write_memo(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    key: str,
    entries: object,
    checksum: str | None = None,
) -> None:
    from pokercert.reference import table_cache

    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    body = json.dumps(entries).encode()
    head = json.dumps(
        {
            "digest": values_digest("classified", key),
            "checksum": checksum or hashlib.sha256(body).hexdigest(),
        }
    ).encode()
    path = table_cache.values_path("classified", key)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(head + b"\n" + body)


@pytest.mark.parametrize("enabled_before", [True, False])
def test_memos_decode_with_the_collector_paused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, enabled_before: bool
) -> None:
    """Issue 13: the cyclic collector is off while a sound file decodes (its passes over
    the heap cost more than the decoding) and as it was afterwards, even when the
    entries fail to decode; a file whose checksum fails is never decoded at all."""
    import gc

    from pokercert.reference.table_cache import shared_values

    seen: list[bool] = []

    def decode(entries: object) -> dict[object, object]:
        seen.append(gc.isenabled())
        if entries == "bad":
            raise ValueError("wrong shape")
        return {"k": entries}

    def never(memo: dict[object, object]) -> object:
        raise AssertionError("not grown: not written")

    _write_memo(tmp_path, monkeypatch, "gc test", [1, 2])
    _write_memo(tmp_path, monkeypatch, "gc test bad", "bad")
    _write_memo(tmp_path, monkeypatch, "gc test spoilt", [1], checksum="0" * 64)
    was = gc.isenabled()
    try:
        if not enabled_before:
            gc.disable()
        assert shared_values("classified", "gc test", decode, never) == {"k": [1, 2]}
        assert gc.isenabled() is enabled_before
        assert shared_values("classified", "gc test bad", decode, never) == {}
        assert gc.isenabled() is enabled_before
        assert shared_values("classified", "gc test spoilt", decode, never) == {}
    finally:
        if was:
            gc.enable()
    assert seen == [False, False]  # the spoilt file was not decoded


# one showdown of hold 'em per argument pair (hands separated by '|', then the board);
# prints how many classes the hold 'em memo held before
DEALS = """
import json, sys
from pokercert.reference import evaluator
holdem = evaluator("nj-holdem")
before = len(holdem._cache)
for hands, board in zip(sys.argv[1::2], sys.argv[2::2]):
    holdem.pot(hands.split("|"), board)
print(json.dumps(before))
"""
FIRST = ("As Kd|7c 7h", "2c 9d Td Ks 4h")
SECOND = ("Ac 2d|8c 8h", "3c 4d 5s Kh Qh")
THIRD = ("Jc Jd|6c 5h", "6s 6d 2s Ah 3h")


def _deal(cache: Path, *deals: tuple[str, str]) -> int:
    args = [text for deal in deals for text in deal]
    out = subprocess.run(
        [sys.executable, "-c", DEALS, *args],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, CACHE_ENV: str(cache)},
    )
    return int(json.loads(out.stdout))


def _classified(cache: Path) -> Path:
    from pokercert.reference import table_cache
    from pokercert.reference.engine import _CLASSIFIED, _PERSIST

    kind, text, _, _ = _PERSIST[id(_CLASSIFIED)](Evaluator("nj-holdem")._rules_key)
    return cache / "values" / table_cache.values_path(kind, text).name


def _entries(line: bytes) -> set[tuple[object, ...]]:
    from pokercert.reference.engine import _decode_classified

    return set(_decode_classified(json.loads(line)))


def test_a_process_appends_only_what_it_added(tmp_path: Path) -> None:
    """The exit write costs what the process added, not what the file holds: a second
    process appends one record of its new classes and leaves the first record's bytes
    as they were; a third reads both."""
    assert _deal(tmp_path, FIRST) == 0
    path = _classified(tmp_path)
    first = path.read_bytes()
    assert first.count(b"\n") == 1  # one record: head, entries
    known = _deal(tmp_path, FIRST, SECOND)
    assert known == len(_entries(first.split(b"\n")[1])) > 0
    grown = path.read_bytes()
    assert grown.startswith(first + b"\n") and grown.count(b"\n") == 3
    added = _entries(grown.split(b"\n")[3])
    assert added and not added & _entries(first.split(b"\n")[1])
    assert _deal(tmp_path, THIRD) == known + len(added)


def test_a_torn_record_is_skipped_then_the_file_is_rewritten(tmp_path: Path) -> None:
    """A record cut short (a crash in the middle of a write) is skipped, the records
    before it are read, and the next writer rewrites the file whole: one sound record."""
    _deal(tmp_path, FIRST)
    path = _classified(tmp_path)
    first = _entries(path.read_bytes().split(b"\n")[1])
    _deal(tmp_path, SECOND)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) - 40])  # the last record's entries torn
    assert _deal(tmp_path, THIRD) == len(first)
    lines = path.read_bytes().split(b"\n")
    assert len(lines) == 2 and _entries(lines[1]) > first


def test_a_file_of_many_records_is_rewritten_whole(tmp_path: Path) -> None:
    """A file holding _RECORDS_KEPT records is rewritten as one by its next writer (a
    file read record by record does not grow without end)."""
    from pokercert.reference import table_cache

    _deal(tmp_path, FIRST)
    path = _classified(tmp_path)
    head, body = path.read_bytes().split(b"\n")
    path.write_bytes(b"\n".join([head, body] * table_cache._RECORDS_KEPT))
    assert _deal(tmp_path, SECOND) == len(_entries(body))
    lines = path.read_bytes().split(b"\n")
    assert len(lines) == 2 and _entries(lines[1]) > _entries(body)


# the pots of hold 'em and Omaha hi-lo deals; prints how many subsets were summed (each
# deal class met for the first time in this process sums its hand's subsets)
SUMMED = """
import json
import pokercert.reference.engine as e
from pokercert.reference import evaluator
summed = []
real = e._subset_sums
e._subset_sums = lambda codes, k: summed.append(k) or real(codes, k)
evaluator("nj-holdem").pot(["As Kd", "7c 7h", "Qs Jh"], "2c 9d Td Ks 4h")
evaluator("nj-omaha-hi-lo").pot(["As Kd 2h 3h", "7c 7h 8c 9s"], "4c 5d Td Qs 6h")
print(json.dumps(len(summed)))
"""


def test_the_next_process_finds_the_deals(tmp_path: Path) -> None:
    """A showdown's deal classes are kept like the class values: the next process
    answers the same deals (a run's curated showdowns and their twins) without summing
    a subset."""

    def summed() -> int:
        out = subprocess.run(
            [sys.executable, "-c", SUMMED],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, CACHE_ENV: str(tmp_path)},
        )
        return int(json.loads(out.stdout))

    assert summed() > 0
    assert summed() == 0


def test_deals_read_back_are_the_engines_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every deal class in the files, dealt again as cards (each suit field's hand and
    board ranks in a suit of its own), has the best key an engine built directly (which
    neither reads nor writes the cache) gives it, for each half."""
    from pokercert.reference import table_cache
    from pokercert.reference.cards import DECK, SUIT_CHARS
    from pokercert.reference.engine import _DEAL_WIDTH, _RANK_BITS, _decode_keyed

    subprocess.run(
        [sys.executable, "-c", SUMMED],
        check=True,
        capture_output=True,
        env={**os.environ, CACHE_ENV: str(tmp_path)},
    )
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    files = sorted((tmp_path / "values").glob("deals-*.json"))
    assert files
    checked = 0
    for rid in ("nj-holdem", "nj-omaha-hi-lo"):
        fresh = Evaluator(rid)
        for half in fresh.ruleset.pot_halves:
            ranking, qualifier, *_ = fresh._fast_plan(half.name)
            text = repr(
                (
                    ranking._rules_key,
                    qualifier,
                    ranking.ruleset.hand_size,
                    fresh.ruleset.selection,
                    fresh.rules.get("hole_cards"),
                )
            )
            path = table_cache.values_path("deals", text)
            assert path in files, (rid, half.name)
            deals = _decode_keyed(json.loads(path.read_bytes().split(b"\n")[1]), _DEAL_WIDTH)
            assert deals
            for fields, key in deals.items():
                hole, board = [], []
                for suit, field in zip(SUIT_CHARS, fields, strict=True):
                    for r in range(_RANK_BITS):
                        card = next(c for c in DECK if c.rank == r + 2 and c.suit == suit)
                        if field >> (_RANK_BITS + r) & 1:
                            hole.append(card)
                        if field >> r & 1:
                            board.append(card)
                found = fresh._best(tuple(hole), tuple(board), half.name)
                assert key == (None if found is None else found.value.key), (rid, fields)
                checked += 1
    assert checked >= 5
