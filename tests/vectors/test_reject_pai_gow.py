"""Reject vectors through pai gow's operations (issue 29): compare_two_card, setting and
settle, in new generated files of lc-pai-gow-poker and wa-pai-gow-poker.

The faults are counted here from the raw tokens (the game: one 53-card deck with one
joker, two cards in a two-card hand, five and two in a setting, fourteen cards in a
settlement), not taken from the generator; the reference must refuse each input for
one of them, the schema must take the files and still refuse misplaced fields, and the
scorer must fail an evaluator that answers instead of refusing."""

from __future__ import annotations

import copy
import re
from collections import Counter

import jsonschema
import pytest

from pokercert.harness.adapters import load_adapter
from pokercert.harness.adapters.base import Reply
from pokercert.harness.outcome import Outcome
from pokercert.harness.scoring import request_for, score
from pokercert.reference import get_ruleset, load_profile
from pokercert.vectors import registry
from pokercert.vectors.canonical import record
from pokercert.vectors.check import reject_faults
from pokercert.vectors.corpus import load_corpus

PAI_GOW = ["lc-pai-gow-poker", "wa-pai-gow-poker"]
OPS = ("compare_two_card", "setting", "settle")
CARD = re.compile(r"^([2-9TJQKA][shdc]|Xx)$")
# a lenient evaluator's answer to each operation (it never checks its input)
ANSWERS = {
    "compare_two_card": {"winners": [0]},
    "setting": {"legal": True},
    "settle": {"settlement": "push"},
}


def _vectors(ruleset: str):
    return [
        v
        for v in load_corpus().vectors
        if v.ruleset == ruleset and v.kind == "reject" and v.inputs["op"] in OPS
    ]


def _hands(v) -> list[tuple[str, int]]:
    """Each card text of the request and the cards it must hold (the game's shape)."""
    i = v.inputs
    if i["op"] == "compare_two_card":
        return [(h, 2) for h in i["hands"]]
    if i["op"] == "setting":
        return [(i["high"], 5), (i["low"], 2)]
    return [(h, n) for side in ("player", "banker") for h, n in zip(i[side], (5, 2), strict=True)]


def _faults(v) -> set[str]:
    """The faults of the raw tokens, counted by hand."""
    found = set()
    tokens = []
    for text, n in _hands(v):
        if len(text.split()) != n:
            found.add("wrong-count")
        tokens += text.split()
    if any(not CARD.match(t) for t in tokens):
        found.add("bad-card")
    good = [t for t in tokens if CARD.match(t)]
    if len(good) != len(set(good)):  # a card twice, or a second joker (one in the deck)
        found.add("duplicate-card")
    return found


@pytest.mark.parametrize("ruleset", PAI_GOW)
def test_every_pai_gow_operation_has_reject_vectors_of_the_issue(ruleset):
    """On main: none (the corpus had no reject vector through a pai gow operation)."""
    vectors = _vectors(ruleset)
    assert Counter(v.inputs["op"] for v in vectors).keys() == set(OPS)
    assert all(v.id.startswith(f"{ruleset}/62") for v in vectors)
    shapes = Counter()
    for v in vectors:
        i, sizes = v.inputs, [len(t.split()) for t, _ in _hands(v)]
        if i["op"] == "compare_two_card" and 3 in sizes:
            shapes["three-card two-card hand"] += 1
        if i["op"] == "setting" and sum(sizes) == 8:
            shapes["eight cards set"] += 1
        if i["op"] == "setting" and set(i["high"].split()) & set(i["low"].split()) - {"Xx"}:
            shapes["a card in the five and the two"] += 1
        if [t for h, _ in _hands(v) for t in h.split()].count("Xx") == 2:
            shapes["a second joker"] += 1
        if i["op"] == "settle" and set(" ".join(i["player"]).split()) & set(
            " ".join(i["banker"]).split()
        ):
            shapes["player and banker share a card"] += 1
        if any(not CARD.match(t) for h, _ in _hands(v) for t in h.split()):
            shapes["an unknown token"] += 1
    assert len(shapes) == 6 and all(shapes.values()), shapes


@pytest.mark.parametrize("ruleset", PAI_GOW)
def test_the_reference_refuses_each_for_a_fault_the_input_has(ruleset):
    vectors = _vectors(ruleset)
    assert vectors
    rs, prof = get_ruleset(ruleset), load_profile("practice")
    adapter = load_adapter("reference")
    with adapter:
        adapter.start()
        adapter.configure(ruleset, prof.readings_for(rs))
        replies = adapter.run_batch([request_for(v) for v in vectors])
    for v, reply in zip(vectors, replies, strict=True):
        wanted = {v.expect["reason"], *v.expect.get("also", ())}
        assert _faults(v) == wanted, (v.id, _faults(v), wanted)
        assert reject_faults(v, rs)[0] == wanted, v.id  # the corpus checker agrees
        assert reply.status == "rejected" and reply.data["rejected"] in wanted, (v.id, reply)
        assert score(v, v.expect, reply, rs).outcome is Outcome.PASS, v.id


@pytest.mark.parametrize("ruleset", PAI_GOW)
def test_an_evaluator_that_answers_or_names_another_fault_does_not_pass(ruleset):
    rs = get_ruleset(ruleset)
    vectors = _vectors(ruleset)
    assert vectors
    for v in vectors:
        answered = Reply("answered", ANSWERS[v.inputs["op"]])
        assert score(v, v.expect, answered, rs).outcome is Outcome.FAIL, v.id
        other = next(
            r
            for r in ("bad-card", "duplicate-card", "wrong-count", "joker-not-allowed")
            if r not in _faults(v)
        )
        refused = Reply("rejected", {"rejected": other})
        assert score(v, v.expect, refused, rs).outcome is Outcome.WRONG_REASON, v.id


def _file(rec):
    return {"format_version": 1, "ruleset": rec["id"].split("/")[0], "vector": [rec]}


def test_the_schema_takes_the_records_and_refuses_misplaced_set_hands():
    schema = registry.schema()
    records = {v.inputs["op"]: record(v) for v in _vectors("wa-pai-gow-poker")}
    for rec in records.values():
        jsonschema.validate(_file(rec), schema)
    bad = []
    setting = copy.deepcopy(records["setting"])
    setting["hands"] = ["As Kd", "Qc Jc"]  # a setting's reject carries no hands
    bad.append(setting)
    no_low = copy.deepcopy(records["setting"])
    del no_low["low"]
    bad.append(no_low)
    settle = copy.deepcopy(records["settle"])
    settle["high"] = "As Kd 9h 5c 3s"  # a settlement's reject carries no high
    bad.append(settle)
    classify = {**copy.deepcopy(records["compare_two_card"]), "op": "classify"}
    classify["hand"] = "As Kd 9h 5c 3s"
    del classify["hands"]
    classify["player"] = ["As Kd 9h 5c 3s", "Qc Jc"]  # no set hand in a classify
    bad.append(classify)
    valid_settle = {
        "id": "wa-pai-gow-poker/9999",
        "kind": "settle",
        "player": ["Ks Qd 9h 5c 3s", "Jc Td"],
        "banker": ["Ah Kh 8d 6d 4d", "9c 7e"],  # not a card: only a reject may hold it
        "expect": {"settlement": "banker"},
        "clauses": ["WSGC-PGP-2"],
        "flags": ["settlement"],
        "why": "A settlement vector whose banker holds a token that is no card.",
    }
    bad.append(valid_settle)
    for rec in bad:
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(_file(rec), schema)
