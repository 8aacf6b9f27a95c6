"""Faux adapters that crash, hang, lie and babble: each run completes, every vector gets
the outcome it deserves, and nothing is PASS that was not answered correctly."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from pokercert.harness.adapters import AdapterAborted, AdapterError, AdapterOptions, load_adapter
from pokercert.harness.run.results import Outcome
from pokercert.harness.run.runner import score_vectors
from pokercert.reference import load_profile
from tests import helpers
from tests.helpers.harness_vectors import VECTORS, assert_no_false_pass

FAUX = helpers.FAUX / "adapter.py"
PRACTICE = load_profile("practice")


def spec(mode: str, arg: str = "") -> str:
    return f"exec:{sys.executable} {FAUX} {mode} {arg!r}".rstrip()


def run_faux(
    mode: str,
    arg: str = "",
    tmp_path: Path | None = None,
    batch_size: int = 4,
    timeout: float = 10.0,
    max_restarts: int = 10,
    **adapter_kw,
):
    opts = AdapterOptions(
        timeout=timeout,
        max_restarts=max_restarts,
        attachments=tmp_path / "attachments" if tmp_path else None,
    )
    adapter = load_adapter(spec(mode, arg), opts)
    for key, value in adapter_kw.items():
        setattr(adapter, key, value)
    results, aborted = [], None
    with adapter:
        identity = adapter.start()
        try:
            for batch in score_vectors(adapter, identity, VECTORS, PRACTICE, batch_size=batch_size):
                results.extend(batch)
        except AdapterAborted as exc:
            aborted = exc
    assert_no_false_pass(results)
    return results, aborted, adapter


def outcomes(results) -> dict[str, Outcome]:
    return {r.vector_id: r.outcome for r in results}


def test_a_sound_faux_adapter_passes_everything():
    results, aborted, _ = run_faux("ok")
    assert aborted is None
    assert set(outcomes(results).values()) == {Outcome.PASS}
    assert len(results) == len(VECTORS)


def test_a_crash_lands_on_the_vector_that_caused_it(tmp_path):
    culprit = VECTORS[2]  # third vector, second batch of 4
    results, aborted, adapter = run_faux("crash-on", culprit.inputs["hand"], tmp_path)
    got = outcomes(results)
    assert aborted is None and len(results) == len(VECTORS)
    assert got[culprit.id] is Outcome.CRASH, [r.message for r in results]
    del got[culprit.id]
    assert set(got.values()) == {Outcome.PASS}
    crash = next(r for r in results if r.vector_id == culprit.id)
    assert "SIGSEGV" in crash.message
    assert crash.attachment and (tmp_path / "attachments" / crash.attachment).is_file()
    assert adapter.restarts >= 1


def test_batches_in_flight_when_the_child_dies_are_not_asked_of_its_successor():
    """The child dies on batch 0 before the harness writes batch 1 (two batches in
    flight).  Batch 1 must not go to a fresh child while batch 0 is still outstanding:
    the harness would then wait for batch 0's reply from a process that never saw it and
    score every vector ERROR (it did, under load).  The crash must land on its culprit."""
    import time

    culprit = VECTORS[2].inputs["hand"]
    others = [
        v.inputs["hand"]
        for v in VECTORS[:12]
        if v.kind == "classify" and v.inputs["hand"] != culprit
    ][:2]
    adapter = load_adapter(spec("crash-on", culprit), AdapterOptions(timeout=10.0))

    def batches():
        yield [{"op": "classify", "hand": culprit}, {"op": "classify", "hand": others[0]}]
        # let the first child die before batch 1 is written (if it has not already: then
        # the harness has collected batch 0 and may be on a fresh child by now)
        deadline = time.monotonic() + 10.0
        while first.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert first.poll() is not None, "the faux adapter did not crash"
        yield [{"op": "classify", "hand": others[1]}]

    with adapter:
        adapter.start()
        adapter.configure(VECTORS[2].ruleset, {})
        first = adapter._proc
        replies = list(adapter.run_batches(batches()))
    assert [[r.status for r in batch] for batch in replies] == [
        ["crash", "answered"],
        ["answered"],
    ], [[r.message for r in b] for b in replies]
    assert "SIGSEGV" in replies[0][0].message


def test_a_hang_is_a_timeout_of_that_vector_only():
    culprit = VECTORS[4]
    hang_hand = culprit.inputs["hands"][0]
    results, aborted, _ = run_faux("hang-on", hang_hand, timeout=1.0)
    got = outcomes(results)
    assert aborted is None
    assert got.pop(culprit.id) is Outcome.TIMEOUT
    assert set(got.values()) == {Outcome.PASS}


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX resource limits")
def test_the_cpu_time_limit_kills_a_spinning_adapter():
    culprit = VECTORS[1]
    results, aborted, _ = run_faux("spin-on", culprit.inputs["hand"], timeout=30.0, max_cpu_s=1)
    got = outcomes(results)
    assert aborted is None
    assert got.pop(culprit.id) is Outcome.CRASH
    assert set(got.values()) == {Outcome.PASS}
    assert "CPU time limit of 1 s" in next(r.message for r in results if r.vector_id == culprit.id)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX resource limits")
def test_the_memory_limit_stops_a_memory_hog():
    culprit = VECTORS[1]
    results, aborted, _ = run_faux("alloc-on", culprit.inputs["hand"], max_memory_mb=512)
    got = outcomes(results)
    assert aborted is None
    assert got.pop(culprit.id) is Outcome.CRASH
    assert set(got.values()) == {Outcome.PASS}
    crash = next(r for r in results if r.vector_id == culprit.id)
    assert "MemoryError" in crash.stderr


def test_garbage_replies_are_errors():
    results, aborted, _ = run_faux("garbage")
    assert aborted is None
    assert set(outcomes(results).values()) == {Outcome.ERROR}
    assert "not JSON" in results[0].message


def test_replies_with_wrong_ids_are_errors():
    results, _, _ = run_faux("wrong-ids")
    assert set(outcomes(results).values()) == {Outcome.ERROR}
    assert "no item for request" in results[0].message


def test_a_dropped_reply_is_an_error_and_the_rest_still_count():
    results, _, _ = run_faux("drop", batch_size=4)
    by_outcome = {o: [r for r in results if r.outcome is o] for o in Outcome}
    # every other item of each batch is left out
    assert len(by_outcome[Outcome.ERROR]) == len(VECTORS) // 2
    assert len(by_outcome[Outcome.PASS]) == len(VECTORS) - len(VECTORS) // 2


def test_an_adapter_that_exits_between_batches_is_restarted_and_finishes():
    results, aborted, adapter = run_faux("exit-after", "1", batch_size=2)
    assert aborted is None
    assert set(outcomes(results).values()) == {Outcome.PASS}
    assert adapter.restarts >= 1


def test_an_adapter_that_always_dies_is_given_up_after_the_restart_budget():
    results, aborted, adapter = run_faux("exit-at-configure", max_restarts=2)
    assert isinstance(aborted, AdapterAborted)
    assert "restart budget" in str(aborted)
    assert not [r for r in results if r.outcome is Outcome.PASS]
    assert adapter.restarts == 2


def test_a_stderr_flood_neither_blocks_nor_fails_the_run(tmp_path):
    results, aborted, _ = run_faux("flood-stderr", tmp_path=tmp_path)
    assert aborted is None
    assert set(outcomes(results).values()) == {Outcome.PASS}
    capture = tmp_path / "attachments" / "stderr-1.txt"
    assert capture.stat().st_size > 3_000_000


def test_a_stdout_flood_is_cut_off_at_the_line_limit():
    results, aborted, _ = run_faux("flood-stdout", max_line_bytes=100_000, max_restarts=5)
    assert not [r for r in results if r.outcome is Outcome.PASS]
    assert any("longer than 100000 bytes" in r.message for r in results) or aborted


def test_another_protocol_version_is_refused_at_the_handshake():
    adapter = load_adapter(spec("version"))
    with pytest.raises(AdapterError, match="protocol version 99"), adapter:
        adapter.start()


def test_wrong_answers_fail_and_never_pass():
    results, _, _ = run_faux("wrong-answers")
    got = outcomes(results)
    # its fixed answers happen to be right for vector 4 (high card) and 5 (seat 0 wins)
    passed = {v for v, o in got.items() if o is Outcome.PASS}
    assert passed == {"nj-poker-high-5/0004", "nj-poker-high-5/0005"}
    assert got["nj-poker-high-5/0001"] is Outcome.FAIL
    assert got["nj-poker-high-5/0007"] is Outcome.FAIL  # answered invalid input


def test_a_refusal_without_a_reason_code_is_wrong_reason():
    results, _, _ = run_faux("no-reason")
    got = outcomes(results)
    assert {got[v.id] for v in VECTORS if v.kind == "reject"} == {Outcome.WRONG_REASON}
    assert {got[v.id] for v in VECTORS if v.kind != "reject"} == {Outcome.PASS}


# ------------------------------------------------------------------ many hands per request
HANDS = [
    "As Ks Qs Js Ts",
    "2c 2d 7h 8s 9c",
    "Ah Kd Qs Jc 9h",
    "5d 4c 3h 2s Ah",
    "Kd Kc 5h 5s 2c",
    "As As Qs Js Ts",
    "7h 7d 7c 7s 2d",
    "9c 8c 7c 6c 5c",
]
# the reference's answers, worked by hand (13:69F-14.3(b)); the sixth repeats a card
CATEGORIES = [
    "royal_flush",
    "one_pair",
    "high_card",
    "straight",
    "two_pair",
    None,
    "four_of_a_kind",
    "straight_flush",
]


def _many(mode: str, arg: str = "", op: str = "classify_many", timeout: float = 10.0):
    adapter = load_adapter(spec(f"{mode}+many", arg), AdapterOptions(timeout=timeout))
    with adapter:
        adapter.start()
        adapter.configure("nj-poker-high-5", {})
        assert adapter.supports(op)
        (reply,) = adapter.run_batch([{"op": op, "hands": HANDS}])
    return reply, adapter


def test_many_hands_in_one_request_are_answered_hand_by_hand():
    reply, _ = _many("ok")
    assert reply.status == "answered"
    got = reply.data["categories"]
    assert [c if isinstance(c, str) else None for c in got] == CATEGORIES
    assert got[5].status == "rejected" and got[5].data["rejected"] == "duplicate-card"
    reply, _ = _many("ok", op="evaluate_many")
    keys = reply.data["keys"]
    assert keys[5] is None and keys[0] > keys[7] > keys[6] > keys[4]


def test_a_crash_inside_a_many_hands_request_lands_on_its_one_hand():
    culprit = HANDS[3]
    reply, adapter = _many("crash-on", culprit)
    got = reply.data["categories"]
    assert got[3].status == "crash" and "SIGSEGV" in got[3].message
    assert [c for i, c in enumerate(got) if i not in (3, 5)] == [
        c for i, c in enumerate(CATEGORIES) if i not in (3, 5)
    ]
    assert adapter.restarts >= 1


def test_a_hang_inside_a_many_hands_request_is_a_timeout_of_its_one_hand():
    reply, _ = _many("hang-on", HANDS[6], op="evaluate_many", timeout=1.0)
    got = reply.data["categories"]
    assert got[6].status == "timeout" and reply.data["keys"][6] is None
    assert got[7] == "straight_flush" and isinstance(reply.data["keys"][7], list)


def test_a_many_hands_reply_of_the_wrong_length_fails_every_hand():
    reply, _ = _many("many-short")
    assert reply.status == "error" and "7 categories for 8 hands" in reply.message


def test_a_garbage_answer_fails_its_hand_only():
    reply, _ = _many("many-garbage")
    got = reply.data["categories"]
    assert got[1].status == "error" and "42" in got[1].message
    assert got[0] == "royal_flush" and got[2] == "high_card"


def test_features_are_used_only_when_both_sides_name_them():
    plain = load_adapter(spec("ok"))
    with plain:
        plain.start()
        assert not plain.supports("classify_many") and not plain.supports("evaluate")
