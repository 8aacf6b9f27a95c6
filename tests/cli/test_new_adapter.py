"""``pokercert new-adapter``: each skeleton passes smoke at the protocol level (its
answers are a stub's: EVALUATOR NON-COMPLIANT, never ADAPTER BROKEN) and its validation
passes every reject vector of the corpus for the ruleset it claims."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from pokercert.cli.main import main
from pokercert.harness.adapters import AdapterOptions, load_adapter
from pokercert.harness.run.results import Outcome
from pokercert.harness.run.runner import score_vectors
from pokercert.reference import load_profile
from pokercert.vectors.corpus import load_corpus

BROKEN = {"ERROR", "TIMEOUT", "CRASH"}
NEEDS = {"python": None, "node": "node", "c": "cc"}


def skeleton(lang: str, folder: Path, ruleset: str = "nj-poker-high-5") -> str:
    """Write the skeleton (and build it); return its adapter spec."""
    if NEEDS[lang] and shutil.which(NEEDS[lang]) is None:
        pytest.skip(f"{NEEDS[lang]} is not installed (.ci/run installs it in CI)")
    assert main(["new-adapter", "--lang", lang, "--ruleset", ruleset, str(folder)]) == 0
    if lang == "python":
        return f"exec:python3 {folder / 'adapter.py'}"
    if lang == "node":
        return f"exec:node {folder / 'adapter.js'}"
    subprocess.run(["cc", "-O2", "-std=c99", "-Wall", "-Werror", "-o", str(folder / "adapter"),
                    str(folder / "adapter.c")], check=True)
    return f"exec:{folder / 'adapter'}"


@pytest.mark.parametrize("lang", sorted(NEEDS))
def test_the_skeleton_passes_smoke_at_the_protocol_level(lang, tmp_path, capsys):
    spec = skeleton(lang, tmp_path / lang)
    capsys.readouterr()
    code = main(["smoke", "--adapter", spec, "--json"])
    out = json.loads(capsys.readouterr().out)
    assert (code, out["verdict"]) == (1, "EVALUATOR NON-COMPLIANT"), out
    outcomes = {c["kind"]: set() for c in out["checks"]}
    for check in out["checks"]:
        outcomes[check["kind"]].add(check["outcome"])
    assert not BROKEN & set().union(*outcomes.values())
    assert outcomes["reject"] == {"PASS"}                  # the validation layer is done
    assert "FAIL" in outcomes["classify"] | outcomes["compare"]   # the stub is a stub


@pytest.mark.parametrize("lang", sorted(NEEDS))
@pytest.mark.parametrize("ruleset", ["nj-poker-high-5", "nj-mini-tex-3", "mt-poker-high",
                                     "nj-mini-tex-pocket"])
def test_the_skeleton_passes_every_reject_vector(lang, ruleset, tmp_path):
    """Section 3 in full: single and several faults, the empty string, a board where the
    game deals none (the skeleton names input_rules), jokers where the deck has some."""
    spec = skeleton(lang, tmp_path / lang, ruleset)
    vectors = load_corpus().select(rulesets=[ruleset], kinds=["reject"])
    with load_adapter(spec, AdapterOptions(timeout=20)) as adapter:
        identity = adapter.start()
        assert "input_rules" in identity.features
        results = [r for batch in score_vectors(adapter, identity, vectors,
                                                 load_profile("practice")) for r in batch]
    assert len(results) == len(vectors)
    wrong = [(r.vector_id, r.outcome, r.message) for r in results if r.outcome != Outcome.PASS]
    assert not wrong, wrong[:5]


def test_an_existing_adapter_is_never_overwritten(tmp_path, capsys):
    assert main(["new-adapter", "--lang", "python", str(tmp_path)]) == 0
    before = (tmp_path / "adapter.py").read_text()
    assert main(["new-adapter", "--lang", "python", str(tmp_path)]) == 3
    assert "exists already" in capsys.readouterr().err
    assert (tmp_path / "adapter.py").read_text() == before


def test_an_unknown_ruleset_is_a_usage_error(tmp_path):
    assert main(["new-adapter", "--lang", "c", "--ruleset", "nope", str(tmp_path / "x")]) == 3
    assert not (tmp_path / "x").exists()
