"""While a run scores its vectors, Python's cyclic collector is paused (each of its
passes over the whole heap cost 0.15-0.37 s of CPU in a default run) and it is on again
when the run returns, as it was before.  The evaluator notes the collector's state at
every call (tests/helpers/faux/collector_watch.py)."""

from __future__ import annotations

import gc
from pathlib import Path

from pokercert.harness.run.runner import RunConfig, run
from tests.helpers.faux import collector_watch

SPEC = "py:tests.helpers.faux.collector_watch:CollectorWatch"


def test_collector_paused_while_scoring_and_on_again_after(tmp_path: Path) -> None:
    collector_watch.SEEN.clear()
    assert gc.isenabled()
    outcome = run(
        RunConfig(
            adapter=SPEC,
            out=tmp_path / "run",
            in_process=True,
            rulesets=["nj-poker-high-3"],
            challenge=False,
            command=["test"],
        )
    )
    assert outcome.new_results > 0
    assert collector_watch.SEEN and not any(collector_watch.SEEN)
    assert gc.isenabled()


def test_a_collector_already_off_stays_off(tmp_path: Path) -> None:
    gc.disable()
    try:
        run(
            RunConfig(
                adapter=SPEC,
                out=tmp_path / "run",
                in_process=True,
                rulesets=["nj-poker-high-3"],
                challenge=False,
                command=["test"],
            )
        )
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_attached_modes_call_the_evaluator_with_the_collector_on(tmp_path: Path) -> None:
    """An in-process evaluator that made cycles on every call would grow the heap for the
    whole length of an exhaustive run if the collector stayed off (reference/collector.py)."""
    collector_watch.SEEN.clear()
    outcome = run(
        RunConfig(
            adapter=SPEC,
            out=tmp_path / "run",
            in_process=True,
            rulesets=["nj-poker-high-3"],
            challenge=False,
            fuzz=20,
            fuzz_seed=1,
            command=["test"],
        )
    )
    assert outcome.new_results > 0 and "fuzz" in outcome.header.attached
    scored = outcome.new_results
    assert len(collector_watch.SEEN) > scored
    assert collector_watch.SEEN[0] is False and collector_watch.SEEN[-1] is True
