"""``pokercert exhaustive`` sends every hand in a seeded card order, and counts errors by hand.

The evaluator under test is the faux ``KickerOrder`` (tests/helpers/faux/kicker_order.py):
the textbook evaluator with one planted bug, kickers compared in the order the cards come.
Sorted input hides the bug, so ``--sorted`` (the old behaviour) must pass it and the
default must not.  The error counter is checked with the faux ``silent`` adapter, which
answers no request: three-card high has 22,100 hands and 741 reference classes (the
literature's count; tests/reference checks it), so 22,100 hands with errors and 740
neighbouring pairs (compare) or 741 class keys (evaluate_many) with errors, whatever
number of requests each hand needed.
"""

from __future__ import annotations

import json
import sys

import pytest

from pokercert.cli.main import main
from pokercert.harness.adapters import load_adapter
from pokercert.harness.explore.exhaustive import run_exhaustive
from pokercert.harness.explore.exhaustive_state import load_state
from pokercert.reference import get_ruleset, load_profile
from tests import helpers
from tests.helpers.faux.kicker_order import KickerOrder

HIGH_3 = "nj-poker-high-3"
KICKERS = "py:tests.helpers.faux.kicker_order:KickerOrder"
SILENT = helpers.FAUX / "silent.py"


def _check(spec: str, tmp_path, **kwargs):
    rs, prof = get_ruleset(HIGH_3), load_profile("practice")
    with load_adapter(spec) as adapter:
        identity = adapter.start()
        adapter.configure(HIGH_3, prof.readings_for(rs))
        return run_exhaustive(adapter, identity, rs, prof, tmp_path, adapter_spec=spec, **kwargs)


def test_sorted_cards_hide_the_kicker_order_bug(tmp_path):
    state = _check(KICKERS, tmp_path, sorted_cards=True)
    assert state.order_seed is None and state.finished
    assert state.disagreeing == 0


def test_a_seeded_card_order_finds_it_and_writes_vectors_that_catch_it(tmp_path):
    state = _check(KICKERS, tmp_path, order_seed=7)
    assert state.order_seed == 7 and load_state(tmp_path).order_seed == 7
    assert state.category_disagreements == 0 and state.errors == 0
    assert state.class_disagreements > 0
    vectors = [d.vector for d in state.disagreements if d.vector]
    assert vectors
    evaluator = KickerOrder()
    evaluator.configure(HIGH_3, {})
    for vector in vectors:  # each vector, as written, fails the buggy evaluator
        assert vector["kind"] == "compare"
        got = evaluator.winners([h.split() for h in vector["hands"]])
        assert got != vector["expect"]["winners"]


def test_a_fresh_seed_is_drawn_recorded_and_replays_exactly(tmp_path):
    first = _check(KICKERS, tmp_path / "a", report_limit=3)
    assert isinstance(first.order_seed, int)
    again = _check(KICKERS, tmp_path / "b", report_limit=3, order_seed=first.order_seed)

    def same(state):
        return {k: v for k, v in state.as_dict().items() if k != "elapsed_s"}

    assert same(again) == same(first)


def test_resume_keeps_the_saved_card_order(tmp_path):
    calls = []

    def stop_on_second_batch(done: int, total: int) -> None:
        calls.append(done)
        if len(calls) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        _check(KICKERS, tmp_path, order_seed=3, batch=4096, progress=stop_on_second_batch)
    resumed = _check(KICKERS, tmp_path, resume=True)
    whole = _check(KICKERS, tmp_path / "whole", order_seed=3)
    assert resumed.order_seed == 3 and resumed.finished
    assert resumed.class_disagreements == whole.class_disagreements
    with pytest.raises(ValueError, match="order_seed"):
        _check(KICKERS, tmp_path, resume=True, order_seed=4)


def test_cli_default_fails_it_and_sorted_passes_it(tmp_path, capsys):
    code = main(
        [
            "exhaustive",
            "--adapter",
            KICKERS,
            "--ruleset",
            HIGH_3,
            "--report",
            "2",
            "--out",
            str(tmp_path / "a"),
            "--json",
        ]
    )
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and data["class_disagreements"] > 0
    seed = data["order_seed"]
    assert data["rerun"][-4:] == ["--order-seed", str(seed), "--out", str(tmp_path / "a")]
    saved = json.loads((tmp_path / "a" / "exhaustive.json").read_text())
    assert saved["order_seed"] == seed
    draft = tmp_path / "a" / f"counterexamples-{HIGH_3}.toml"
    assert data["draft"] == str(draft) and draft.read_text().count("[[vector]]") == 2
    assert main(["vectors", "add", str(draft), "--topic", "exhaustive-found", "--dry-run"]) == 0
    capsys.readouterr()

    assert (
        main(
            [
                "exhaustive",
                "--adapter",
                KICKERS,
                "--ruleset",
                HIGH_3,
                "--sorted",
                "--out",
                str(tmp_path / "b"),
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "card order: sorted" in out and "AGREES" in out and "--sorted" in out
    assert not (tmp_path / "b" / f"counterexamples-{HIGH_3}.toml").exists()
    assert (
        main(
            [
                "exhaustive",
                "--ruleset",
                HIGH_3,
                "--sorted",
                "--order-seed",
                "1",
                "--out",
                str(tmp_path / "c"),
            ]
        )
        == 3
    )


@pytest.mark.parametrize(
    ("many", "mode", "class_errors"), [("", "compare", 740), ("many", "key", 741)]
)
def test_an_adapter_that_answers_nothing_is_one_error_per_hand(many, mode, class_errors, tmp_path):
    state = _check(f"exec:{sys.executable} {SILENT} {many}".rstrip(), tmp_path, report_limit=0)
    assert state.mode == mode and state.checked == 22_100
    assert state.errors == 22_100
    assert state.order_errors == class_errors
    assert state.category_disagreements == state.class_disagreements == 0
