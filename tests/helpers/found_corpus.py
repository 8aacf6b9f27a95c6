"""A fuzz finding written as the only file of a scratch corpus and checked there: the
printed vector must pass the corpus checker exactly as a lab would paste it."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from pokercert.vectors import registry
from pokercert.vectors.canonical import file_header
from pokercert.vectors.check import check_corpus


def check_found(root: Path, ruleset: str, found: Any, name: str) -> Any:
    """Write ``found`` (a fuzz report's counterexample) as ``root/ruleset/fuzz.toml`` beside
    the corpus's flags file and return :func:`check_corpus`'s result (manifest aside)."""
    (root / ruleset).mkdir(parents=True)
    shutil.copy(registry.PACKAGE_ROOT / registry.FLAGS_FILE, root / registry.FLAGS_FILE)
    text = file_header(ruleset, "found by fuzzing") + "\n" + found.toml(name)
    (root / ruleset / "fuzz.toml").write_text(text, encoding="utf-8")
    return check_corpus(root, with_manifest=False)
