"""The reference's disk caches do not grow with every engine version.

A table or values file records the engine version it was written for; a writer removes
the files of another version that nobody rewrote for a week, and keeps everything else
(this version's files however old, another version's recent ones).  Expectations are the
files' own ages and versions, set here, not read from the code under test.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import numpy as np
import pytest

from pokercert.reference import evaluator
from pokercert.reference.batch import Table
from pokercert.reference.table_cache import (
    CACHE_ENV,
    STALE_AFTER_S,
    engine_version,
    load_or_build,
    values_path,
)

OLD = time.time() - STALE_AFTER_S - 3600  # a week and an hour ago
RECENT = time.time() - 3600


def _table_file(path, engine, when):
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(
        path,
        __meta__=np.array(json.dumps({"digest": "x", "checksum": "y", "engine": engine})),
        a=np.arange(3),
    )
    os.utime(path, (when, when))


def _values_file(path, engine, when):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(
        json.dumps({"digest": "x", "checksum": "y", "engine": engine}).encode() + b"\n[]"
    )
    os.utime(path, (when, when))


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_building_a_table_removes_only_other_versions_stale_tables(cache):
    tables = cache / "tables"
    stale = tables / "nj-poker-high-5-5-old.npz"
    recent = tables / "nj-poker-high-5-5-recent.npz"
    ours_old = tables / "nj-poker-high-5-5-ours.npz"
    garbage = tables / "nj-poker-high-5-5-garbage.npz"
    _table_file(stale, "0.0.1+0000000000000000", OLD)
    _table_file(recent, "0.0.1+0000000000000000", RECENT)
    _table_file(ours_old, engine_version(), OLD)
    garbage.write_bytes(b"not a zip")
    os.utime(garbage, (OLD, OLD))

    ev = evaluator("nj-poker-high-3", "practice")
    load_or_build(ev, 3, lambda built: Table(ev, 3, built))  # builds, writes, prunes

    left = {p.name for p in tables.glob("*.npz")}
    assert stale.name not in left and garbage.name not in left
    assert {recent.name, ours_old.name} <= left
    assert len(left) == 3  # + the table just written


def test_a_process_writing_values_removes_only_other_versions_stale_files(cache):
    folder = values_path("class", "k").parent
    stale, recent = folder / "class-old.json", folder / "class-recent.json"
    ours_old = folder / "class-ours.json"
    _values_file(stale, "0.0.1+0000000000000000", OLD)
    _values_file(recent, "0.0.1+0000000000000000", RECENT)
    _values_file(ours_old, engine_version(), OLD)
    # a fresh process values hands (its memos grow) and writes them back at exit
    subprocess.run(
        [
            sys.executable,
            "-c",
            "from pokercert.reference import evaluator\n"
            "evaluator('nj-poker-high-5', 'practice').evaluate('As Ks Qs Js Ts')",
        ],
        check=True,
        env={**os.environ, CACHE_ENV: str(cache)},
    )
    left = {p.name for p in folder.glob("*.json")}
    assert stale.name not in left
    assert {recent.name, ours_old.name} <= left
    assert len(left) > 2  # the process wrote its own
