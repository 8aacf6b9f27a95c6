"""Exhaustive for evaluators that can only compare (no categories, no key).

Faux evaluators of tests/helpers/faux/compare_only.py, on three-card high (22,100 hands,
741 classes).  Expectations worked by hand:

* a correct compare-only evaluator agrees; 52 hands cannot be set against another member
  of their class in one deal (three of a kind: the 4 hands of each of 13 ranks all share
  two cards), and every pair of neighbouring classes can be dealt together;
* a flush ranked above a straight (13:69F-14.3(c) has the straight above) breaks the
  order at exactly one pair of neighbours, the best flush below the worst straight
  (A-K-J suited below A-2-3): inside each category and at the other boundaries (pairs
  below flushes, straights below trips) the order is still right;
* the compare-only path finds what the key path finds for the same evaluator given a key.
"""

from __future__ import annotations

import json
from math import ceil, log2

from pokercert.cli.main import main
from pokercert.harness.adapters import load_adapter
from pokercert.harness.adapters.inprocess import InProcessAdapter
from pokercert.harness.explore.exhaustive import run_exhaustive
from pokercert.reference import get_ruleset, load_profile
from tests.helpers.faux.compare_only import CompareOnly

HIGH_3 = "nj-poker-high-3"
FAUX = "py:tests.helpers.faux.compare_only:"


def exhaustive_high_3(adapter, spec, tmp_path, **kwargs):
    """An exhaustive pass of ``adapter`` over nj-poker-high-3 (practice, order seed 1)."""
    rs, prof = get_ruleset(HIGH_3), load_profile("practice")
    with adapter:
        identity = adapter.start()
        adapter.configure(HIGH_3, prof.readings_for(rs))
        return run_exhaustive(
            adapter, identity, rs, prof, tmp_path, adapter_spec=spec, order_seed=1, **kwargs
        )


def _run(name, tmp_path, **kwargs):
    return exhaustive_high_3(load_adapter(FAUX + name), FAUX + name, tmp_path, **kwargs)


def test_a_correct_compare_only_evaluator_agrees(tmp_path):
    state = _run("CompareOnly", tmp_path)
    assert state.mode == "compare-only" and state.finished
    assert state.checked == 22_100 and state.classes == 741
    assert state.disagreeing == 0
    assert state.unverifiable_hands == 52 and state.unverifiable_orders == 0


def test_a_planted_order_bug_disagrees_as_on_the_key_path(tmp_path):
    compare = _run("FlushOverStraight", tmp_path / "compare")
    keyed = _run("KeyedFlushOverStraight", tmp_path / "key")
    assert (compare.mode, keyed.mode) == ("compare-only", "key")
    assert compare.order_disagreements == 1
    counts = ("order_disagreements", "class_disagreements", "errors", "order_errors")
    assert [getattr(compare, c) for c in counts] == [getattr(keyed, c) for c in counts]
    assert [d.vector for d in compare.disagreements] == [d.vector for d in keyed.disagreements]
    (finding,) = compare.disagreements
    assert finding.check == "order" and "(flush < straight)" in finding.message
    assert finding.vector["expect"] == {"winners": [0]}


class Counting(CompareOnly):
    def __init__(self) -> None:
        super().__init__()
        self.calls = 0

    def winners(self, hands, board=None):
        self.calls += 1
        return super().winners(hands, board)


def test_ordering_the_classes_takes_n_log_n_compares(tmp_path):
    evaluator = Counting()
    adapter = InProcessAdapter(evaluator, "py:tests", "tests", "1")
    state = exhaustive_high_3(adapter, "py:tests", tmp_path, shard=(1, 22_100))  # one hand
    n = 741
    assert state.disagreeing == 0 and state.checked == 1
    # merge sort (at most n log2 n), the neighbours once more (n - 1), one hand (1)
    assert n < evaluator.calls <= n * ceil(log2(n)) + n


def test_cli_accepts_an_adapter_that_only_compares(tmp_path, capsys):
    code = main(
        [
            "exhaustive",
            "--adapter",
            FAUX + "FlushOverStraight",
            "--ruleset",
            HIGH_3,
            "--out",
            str(tmp_path),
            "--json",
        ]
    )
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and data["mode"] == "compare-only" and data["order_disagreements"] == 1
