"""The plan's speed work (everything a run does before its first request), held to the
same bytes.

The seeds of the challenge are pinned byte for byte elsewhere (``test_challenge.py``,
``tests/harness/peers/test_peers_regressions``: the reference's challenge set of seed
20261201).  Here, each faster path is checked against the definition it replaces, over
every input the corpus gives it and the awkward ones a reject vector may hold.
"""

from __future__ import annotations

import gc
import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest

from pokercert.harness.run import runner
from pokercert.harness.run.challenge import ChallengeSet, _Relabel, _shuffle, build_challenge
from pokercert.reference import load_profile
from pokercert.vectors.corpus import load_corpus

SMALL = ["nj-poker-high-3", "nj-mini-tex-3"]  # one plain game, one with a board


@pytest.mark.parametrize("length", range(0, 41))
def test_the_shuffle_draws_as_random_shuffle_does(length: int) -> None:
    """Same permutation and same draws (the generator's state after it) as the
    standard library's ``Random.shuffle``, for every hand size and beyond (a bound
    just above a power of two is where the rejection draws again)."""
    for seed in range(60):
        ours, theirs = random.Random(seed), random.Random(seed)
        mine, std = list(range(length)), list(range(length))
        _shuffle(mine, ours.getrandbits)
        theirs.shuffle(std)
        assert mine == std
        assert ours.getstate() == theirs.getstate()


def _texts() -> list[str]:
    """Every card text of the corpus's inputs (hands, holes, boards, a reject's raw
    strings) and texts a reject vector could hold that are not plain words."""
    found: set[str] = set()
    for v in load_corpus().vectors:
        for key in ("hand", "hole", "board"):
            if isinstance(v.inputs.get(key), str):
                found.add(v.inputs[key])
        for hand in v.inputs.get("hands", ()) or ():
            found.add(str(hand))
    return [
        *sorted(found),
        "",
        " ",
        "As",
        "10s Kd",
        "As  Kd",
        " As Kd",
        "As Kd ",
        "As\tKd",
        "Ahs Kd",
        "s",
        "sA Kd",
        "hh",
        "Xx As",
        "🂡 As",
        "As Kd\n",
        "ss dd",
        "A♠ Kd",
        "as kd",
        "AS KD",
    ]


def test_relabelling_a_text_is_relabelling_each_word() -> None:
    """The whole-text relabelling (one translation of the suit letters) gives what
    relabelling word by word gives, and shuffles with the same draws."""
    texts = _texts()
    assert len(texts) > 1000
    for seed in range(8):
        rng = random.Random(seed)
        relabel = _Relabel(rng)
        twin_rng = random.Random()
        twin_rng.setstate(rng.getstate())  # draws in step with rng from here
        for text in texts:
            words = [relabel.card(t) for t in text.split()]
            assert relabel.cards(text, shuffle=False) == " ".join(words), text
            twin_rng.shuffle(words)
            assert relabel.cards(text) == " ".join(words), text
        assert rng.getstate() == twin_rng.getstate()


def test_a_run_plans_with_the_collector_off_and_freezes_what_it_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The plan's objects live as long as the run: built with the cyclic collector off
    and frozen (``gc.freeze``) before it is back on, so no later collection walks them
    (without this, a default run spent 0.5 to 0.9 s of CPU in collections)."""
    enabled_while_planning: list[bool] = []
    planned: list[runner.Plan] = []
    real_plan = runner.plan

    def plan(*args: Any, **kwargs: Any) -> runner.Plan:
        enabled_while_planning.append(gc.isenabled())
        planned.append(real_plan(*args, **kwargs))
        return planned[-1]

    monkeypatch.setattr(runner, "plan", plan)
    assert gc.isenabled()
    runner.run(
        runner.RunConfig(
            out=tmp_path / "run",
            rulesets=SMALL,
            challenge_seed=3,
            in_process=True,
            command=["test"],
        )
    )
    assert enabled_while_planning == [False]
    assert gc.isenabled()  # on again after the plan
    vectors = planned[0].vectors
    assert len(vectors) > 500 and all(gc.is_tracked(v) for v in vectors)
    walked = {id(o) for o in gc.get_objects()}  # every generation but the frozen
    assert not [v.id for v in vectors if id(v) in walked]


def test_the_set_as_json_lines_is_each_record_as_json() -> None:
    """``to_jsonl`` (what the challenge's SHA-256 hashes) is each record encoded by
    ``json.dumps`` (keys sorted, no ASCII escapes), one a line: the set's bytes."""
    curated = [v for v in load_corpus().vectors if v.ruleset in SMALL]
    challenge = build_challenge(curated, load_profile("practice"), 11)
    lines = []
    for v in challenge.vectors:
        record = {
            "id": v.id,
            "ruleset": v.ruleset,
            "kind": v.kind,
            "origin": challenge.origins[v.id],
            "inputs": dict(v.inputs),
            "expect": dict(v.expect) if v.expect is not None else None,
            "interpretations": list(v.interpretations),
            "expect_by_reading": None
            if v.expect_by_reading is None
            else {r: dict(e) for r, e in v.expect_by_reading.items()},
            "clauses": list(v.clauses),
            "flags": list(v.flags),
        }
        lines.append(json.dumps(record, sort_keys=True, ensure_ascii=False) + "\n")
    assert challenge.to_jsonl() == "".join(lines)
    assert challenge.sha256() == hashlib.sha256("".join(lines).encode()).hexdigest()
    assert ChallengeSet(1, 0).to_jsonl() == ""
