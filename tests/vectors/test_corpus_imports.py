"""A corpus taken from its cache imports no JSON Schema validator (issue 13's 3 s run):
``jsonschema`` (with ``referencing``, ``attrs``) and ``fastjsonschema`` cost a run about
0.07 s of CPU before its first request, and only a load that reads the files (a cache
miss) validates anything (``jsonschema`` itself only for a file the compiled validator
rejects, to name every problem).  Checked by the modules a fresh interpreter holds, never by a
time; that a miss still validates and names schema problems is
``test_vectors_errors.py``'s and ``test_vectors_cache.py``'s."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from pokercert.vectors.corpus_cache import CACHE_ENV

VALIDATORS = {"jsonschema", "fastjsonschema"}


def _modules_after_load(cache: Path) -> tuple[int, set[str]]:
    code = (
        "import json, sys\n"
        "from pokercert.vectors.corpus import load_corpus\n"
        "corpus = load_corpus()\n"
        "print(json.dumps([len(corpus), sorted(sys.modules)]))\n"
    )
    env = {**os.environ, CACHE_ENV: str(cache)}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    size, modules = json.loads(done.stdout.splitlines()[-1])
    return size, {m.partition(".")[0] for m in modules}


def test_a_cached_corpus_loads_without_a_schema_validator(tmp_path: Path) -> None:
    size, first = _modules_after_load(tmp_path)  # a miss: read and validated
    assert "fastjsonschema" in first
    again, second = _modules_after_load(tmp_path)  # from the cache
    assert again == size > 6000
    assert not VALIDATORS & second
