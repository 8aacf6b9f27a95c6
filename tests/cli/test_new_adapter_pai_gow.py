"""``pokercert new-adapter`` for a pai gow ruleset: the Python, Node.js and C skeletons
claim and answer pai gow's kinds (a run of its ruleset leaves nothing NOT_APPLICABLE nor
broken, and the Python one refuses a card dealt twice across a settlement); a ruleset
that is no pai gow game gets none of them."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from pokercert.cli.main import main
from pokercert.cli.new_adapter import claimed_kinds
from pokercert.reference import get_ruleset
from pokercert.vectors.model import PAI_GOW_KINDS
from tests.cli.test_new_adapter import skeleton

RULESET = "wa-pai-gow-poker"
BROKEN = {"ERROR", "TIMEOUT", "CRASH"}


@pytest.mark.parametrize("lang", ["python", "node", "c"])
def test_the_skeleton_answers_every_pai_gow_vector(lang, tmp_path, capsys):
    spec = skeleton(lang, tmp_path, RULESET)
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


def test_only_a_pai_gow_ruleset_gets_the_kinds():
    for lang in ("python", "node", "c"):
        assert set(PAI_GOW_KINDS) <= set(claimed_kinds(get_ruleset(RULESET), lang))
        assert not set(PAI_GOW_KINDS) & set(claimed_kinds(get_ruleset("nj-poker-high-5"), lang))
