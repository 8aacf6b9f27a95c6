"""PROTOCOL.md section 3, rule by rule: an adapter that follows the text passes every
reject vector, one that does not is told which rule it broke.

The adapters are real processes (tests/helpers/faux/validating_adapter.py), each with its
own reading of section 3 written without harness code; the vectors are the corpus's.
"""

from __future__ import annotations

import json
import re
import sys
from functools import cache

import pytest

from pokercert.harness.adapters import AdapterOptions, load_adapter
from pokercert.harness.protocol import FEATURES, exact_key, hand_answer, needs_feature
from pokercert.harness.run.results import Outcome, Result
from pokercert.harness.run.runner import score_vectors
from pokercert.harness.scoring import request_for
from pokercert.reference import get_ruleset, load_profile
from pokercert.vectors.corpus import load_corpus
from pokercert.vectors.model import Kind
from tests import helpers

FAUX = helpers.FAUX / "validating_adapter.py"
RULESETS = ("nj-poker-high-5", "nj-mini-tex-3", "nj-mini-tex-pocket")
PRACTICE = load_profile("practice")
CARD_STRING = re.compile(r"^$|^\S+( \S+)*$")  # PROTOCOL.md 3.1, as the text writes it


@cache
def rejects() -> tuple:
    return tuple(v for v in load_corpus().select(rulesets=RULESETS, kinds=["reject"]))


@cache
def run_mode(mode: str) -> dict[str, Result]:
    adapter = load_adapter(f"exec:{sys.executable} {FAUX} {mode}", AdapterOptions(timeout=20))
    with adapter:
        identity = adapter.start()
        results = [
            r for batch in score_vectors(adapter, identity, rejects(), PRACTICE) for r in batch
        ]
    return {r.vector_id: r for r in results}


def flagged(flag: str) -> list[str]:
    return [v.id for v in rejects() if flag in v.flags]


def test_the_corpus_has_the_documented_edges():
    """Each rule of section 3 has reject vectors: the empty string, several faults (in
    every op), a field the ruleset does not use."""
    vectors = load_corpus().select(kinds=["reject"])
    empty = [v for v in vectors if "" in (v.inputs.get("hand"), v.inputs.get("hole"))]
    assert empty and all(
        v.expect["reason"] == "wrong-count" and "also" not in v.expect for v in empty
    )
    several = [v for v in vectors if "also" in v.expect]
    ops = {"classify", "compare", "best_hand", "compare_two_card", "setting"}
    assert {v.inputs["op"] for v in several} == ops  # pai gow's: vectors/README.md
    unused = [v for v in vectors if "unused-field" in v.flags]
    assert unused and all(
        "board" in v.inputs and v.expect == {"reason": "wrong-count"} for v in unused
    )
    assert all(needs_feature(v.flags) == "input_rules" for v in unused)


def test_every_card_string_a_run_sends_is_empty_or_single_spaced():
    """3.1: no leading, trailing or repeated spaces, no other whitespace, in any request
    built from the corpus (so splitting at spaces or at whitespace runs agree)."""
    bad = []
    for vector in load_corpus().vectors:
        request = request_for(vector)
        strings = [
            request.get("hand"),
            request.get("hole"),
            request.get("board"),
            *request.get("hands", ()),
        ]
        bad += [(vector.id, s) for s in strings if s is not None and not CARD_STRING.match(s)]
    assert not bad, bad[:5]


@pytest.mark.parametrize("mode", ["text", "count-first"])
def test_an_adapter_that_follows_the_text_passes_every_reject_vector(mode):
    """3.2: checks in either order pass, since any fault the input has is a right code."""
    results = run_mode(mode)
    assert len(results) == len(rejects())
    assert {r.outcome for r in results.values()} == {Outcome.PASS}, [
        (r.vector_id, r.outcome, r.message) for r in results.values() if r.outcome != Outcome.PASS
    ][:5]


def test_the_orders_really_differ_on_several_fault_vectors():
    """The two orders name different codes for some multi-fault input, and both pass: the
    test above would not show that any applicable code passes otherwise."""
    text, first = run_mode("text"), run_mode("count-first")
    differ = [
        v.id
        for v in rejects()
        if "also" in v.expect and text[v.id].actual["rejected"] != first[v.id].actual["rejected"]
    ]
    assert differ


def test_a_code_the_input_does_not_earn_is_wrong_reason_naming_every_fault():
    results = run_mode("invented")
    vid = next(
        v.id
        for v in rejects()
        if "also" in v.expect and "joker-not-allowed" not in (v.expect["reason"], *v.expect["also"])
    )
    got = results[vid]
    assert got.outcome == Outcome.WRONG_REASON
    vector = next(v for v in rejects() if v.id == vid)
    for code in (vector.expect["reason"], *vector.expect["also"]):
        assert repr(code) in got.message
    assert "any of them passes" in got.message and "3.2" in got.message


def test_splitting_the_empty_string_into_one_token_is_told_why():
    """3.1: "" is zero cards; the literal split (one empty token, bad-card) is the trap."""
    results = run_mode("literal-split")
    empty = [v.id for v in rejects() if v.inputs.get("hand") == "" or v.inputs.get("hole") == ""]
    assert empty
    for vid in empty:
        assert results[vid].outcome == Outcome.WRONG_REASON
        assert (
            "refused with reason 'bad-card'; expected reason 'wrong-count'" in results[vid].message
        )


def test_a_board_where_the_game_deals_none_is_wrong_count_with_the_feature():
    """3.3: an adapter naming input_rules is sent the vectors and must refuse."""
    unused = flagged("unused-field")
    assert unused
    assert all(run_mode("text")[i].outcome == Outcome.PASS for i in unused)
    ignoring = run_mode("ignore-board")
    assert all(ignoring[i].outcome == Outcome.FAIL for i in unused)


def test_an_adapter_without_the_feature_is_not_sent_the_new_rule():
    """Section 6: an adapter from before 3.3 (no input_rules) is scored as before; the
    result says which feature it would need."""
    old = run_mode("old")
    for vid in flagged("unused-field"):
        assert old[vid].outcome == Outcome.NOT_APPLICABLE
        assert "protocol feature 'input_rules'" in old[vid].message
    others = [r for i, r in old.items() if i not in flagged("unused-field")]
    assert others and {r.outcome for r in others} == {Outcome.PASS}


def test_the_harness_announces_input_rules():
    assert FEATURES["input_rules"] == 1


def test_keys_are_exact_integers_of_any_size():
    """3.4: keys are compared as exact integers, however large; a bool, a float (1.0) or
    an exponent is not an integer."""
    reply = json.loads(
        '{"categories": ["flush", "flush", "flush", "flush"], '
        '"keys": [18446744073709551617, 18446744073709551616, 1.0, true]}'
    )
    keys = reply["keys"]
    assert exact_key(keys[0]) and exact_key(keys[1]) and keys[0] > keys[1]
    assert not exact_key(keys[2]) and not exact_key(keys[3])
    assert hand_answer("flush", keys[0], keyed=True)[0] == "answered"
    assert hand_answer("flush", keys[2], keyed=True)[0] == "error"
    assert not exact_key(json.loads("1e3"))


def test_no_valid_request_carries_a_field_its_ruleset_does_not_use():
    """3.3: a board reaches a ruleset without community cards only in a reject vector."""
    for vector in load_corpus().vectors:
        if vector.kind != Kind.REJECT and "board" in vector.inputs:
            assert get_ruleset(vector.ruleset).selection is not None, vector.id
