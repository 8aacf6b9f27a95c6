"""``pokercert new-adapter`` for a pai gow ruleset: the Python and Node.js skeletons claim
and answer pai gow's kinds (a run of its ruleset leaves nothing NOT_APPLICABLE nor
broken, and the Python one refuses a card dealt twice across a settlement); the C
skeleton does not claim them yet, and says so."""

from __future__ import annotations

import json
import shutil
from collections import Counter

import pytest

from pokercert.cli.main import main
from pokercert.cli.new_adapter import claimed_kinds
from pokercert.reference import get_ruleset
from pokercert.vectors.model import PAI_GOW_KINDS

RULESET = "wa-pai-gow-poker"
BROKEN = {"ERROR", "TIMEOUT", "CRASH"}


@pytest.mark.parametrize("lang", ["python", "node"])
def test_the_skeleton_answers_every_pai_gow_vector(lang, tmp_path, capsys):
    if lang == "node" and shutil.which("node") is None:
        pytest.skip("node is not installed (.ci/run installs it in CI)")
    assert main(["new-adapter", "--lang", lang, "--ruleset", RULESET, str(tmp_path)]) == 0
    spec = (
        f"exec:python3 {tmp_path / 'adapter.py'}"
        if lang == "python"
        else f"exec:node {tmp_path / 'adapter.js'}"
    )
    folder = tmp_path / "run"
    args = ["run", "--adapter", spec, "--ruleset", RULESET, "--out", str(folder)]
    main([*args, "--no-challenge", "--no-report"])
    results = [json.loads(line) for line in (folder / "results.jsonl").read_text().splitlines()]
    by_kind = Counter((r["kind"], r["outcome"]) for r in results if r["kind"] in PAI_GOW_KINDS)
    assert {k for k, _ in by_kind} == set(PAI_GOW_KINDS)
    assert not {"NOT_APPLICABLE", *BROKEN} & {o for _, o in by_kind}, by_kind
    # the stub answers: legal (a foul is FAIL), push and the first hand
    assert ("setting", "FAIL") in by_kind and ("setting", "PASS") in by_kind


def test_the_python_skeleton_refuses_a_card_dealt_twice_in_a_settlement(tmp_path):
    assert main(["new-adapter", "--lang", "python", "--ruleset", RULESET, str(tmp_path)]) == 0
    import importlib.util

    spec = importlib.util.spec_from_file_location("skeleton", tmp_path / "adapter.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    twice = {
        "op": "settle",
        "player": ["Ah Ad 9c 5s 3h", "Ks Qc"],
        "banker": ["Kh Kd 9d 5c 3s", "Qs Ks"],
    }
    assert module.answer(twice)["rejected"] == "duplicate-card"
    short = {"op": "setting", "high": "Ah Ad 9c 5s", "low": "Ks Qc"}
    assert module.answer(short)["rejected"] == "wrong-count"
    ok = {"op": "compare_two_card", "hands": ["As Xx", "Kd Kc"]}
    assert module.answer(ok) == {"winners": [0]}


def test_the_c_skeleton_does_not_claim_the_pai_gow_kinds(tmp_path, capsys):
    rs = get_ruleset(RULESET)
    for lang in ("python", "node"):
        assert set(PAI_GOW_KINDS) <= set(claimed_kinds(rs, lang))
    assert not set(PAI_GOW_KINDS) & set(claimed_kinds(rs, "c"))
    capsys.readouterr()
    assert main(["new-adapter", "--lang", "c", "--ruleset", RULESET, str(tmp_path)]) == 0
    assert "does not answer them yet" in capsys.readouterr().out
    assert not set(PAI_GOW_KINDS) & set(claimed_kinds(get_ruleset("nj-poker-high-5"), "python"))
