"""``pokercert exhaustive``: every hand, against the reference, green and red.

The evaluators are the textbook ones of ``tests/helpers/textbook_eval.py``, written independently
of the reference.  The expected numbers of disagreements are counted by hand:

* three cards, no ace-low straight: A-3-2 in 4 x 4 x 4 = 64 suit combinations, of which 4
  are suited (a straight flush taken for a flush) and 60 not (a straight taken for a
  high card); as a class, A-3-2 is then valued below the flushes and the suited one
  below three of a kind: two neighbouring pairs of classes out of order;
* the Mini-tex pocket wager with A-2 not consecutive: 4 suited + 12 offsuit A-2 = 16
  hands in the wrong category, each valued apart from its class;
* three of a kind in three cards: a class of 4 hands that all share two cards, so 13 x 4
  = 52 hands that no single deal can compare with another member of their class.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from pokercert.cli.main import main
from pokercert.harness.adapters import load_adapter
from pokercert.harness.adapters.inprocess import InProcessAdapter
from pokercert.harness.explore.exhaustive import run_exhaustive
from pokercert.harness.explore.exhaustive_state import load_state
from pokercert.reference import get_ruleset, load_profile
from pokercert.reference.classes import Space
from tests.helpers.textbook_eval import TextbookHigh, WheelBlind

HIGH_3 = "nj-poker-high-3"
POCKET = "nj-mini-tex-pocket"


SEED = 2026  # one card order for the runs a test compares (the default draws one)


def _seeded(kwargs: dict) -> dict:
    if not kwargs.get("sorted_cards") and not kwargs.get("resume"):
        kwargs.setdefault("order_seed", SEED)
    return kwargs


def _same_cards(hand: str, expected: str) -> bool:
    """The hand holds the expected cards (sent in the run's card order)."""
    return sorted(hand.split()) == sorted(expected.split())


def _check(spec: str, ruleset: str, tmp_path: Path, **kwargs):
    kwargs = _seeded(kwargs)
    rs, prof = get_ruleset(ruleset), load_profile("practice")
    adapter = load_adapter(spec)
    with adapter:
        identity = adapter.start()
        adapter.configure(ruleset, prof.readings_for(rs))
        return run_exhaustive(
            adapter, identity, rs, prof, tmp_path / "run", adapter_spec=spec, **kwargs
        )


def _check_object(evaluator, ruleset: str, tmp_path: Path, **kwargs):
    kwargs = _seeded(kwargs)
    rs, prof = get_ruleset(ruleset), load_profile("practice")
    with InProcessAdapter(evaluator, "py:tests", "tests", "1") as adapter:
        identity = adapter.start()
        adapter.configure(ruleset, prof.readings_for(rs))
        return run_exhaustive(
            adapter, identity, rs, prof, tmp_path / "run", adapter_spec="py:tests", **kwargs
        )


class ManyWheelBlind(WheelBlind):
    """WheelBlind with the batch form only (no key), its answers from the same code."""

    def __init__(self, broken: str = "") -> None:
        super().__init__()
        self.broken = broken
        self.calls = 0

    key = None  # type: ignore[assignment]

    def classify(self, hand):
        return (
            "high_card",
            "one_pair",
            "flush",
            "straight",
            "three_of_a_kind",
            "straight_flush",
            "royal_flush",
        )[WheelBlind.key(self, hand)[0]]

    def evaluate_many(self, hands):
        self.calls += 1
        categories = [self.classify(h) for h in hands]
        keys = [WheelBlind.key(self, h) for h in hands]
        if self.broken == "short":
            categories.pop()
        elif self.broken == "raises":
            raise RuntimeError("batch form out of order")
        elif self.broken == "scribbles":  # vendor code that writes over its input
            hands.flat[:] = ["Zz"] * len(hands.flat)
        return categories, keys


def test_the_batch_form_finds_exactly_what_hand_by_hand_finds(tmp_path):
    one_by_one = _check("py:tests.helpers.textbook_eval:WheelBlind", HIGH_3, tmp_path / "a")
    evaluator = ManyWheelBlind()
    batched = _check_object(evaluator, HIGH_3, tmp_path / "b", batch=4096)
    assert evaluator.calls > 22_100 // 4096  # the batches, and the class keys
    assert batched.mode == "key" and batched.checked == 22_100
    counts = ("category_disagreements", "class_disagreements", "order_disagreements", "errors")
    assert (
        [getattr(batched, c) for c in counts]
        == [getattr(one_by_one, c) for c in counts]
        == [64, 0, 2, 0]
    )
    assert [d.vector for d in batched.disagreements] == [d.vector for d in one_by_one.disagreements]


@pytest.mark.parametrize(
    ("spec", "batch", "steps"),
    [
        # in process each call has its own timeout: batches of 16,384 by default
        ("reference", None, [16_384, 22_100]),
        # over exec: one timeout covers a batch's reply: 4,096
        (
            f"exec:{sys.executable} -m pokercert.harness.adapters.serve reference",
            None,
            [4_096 * k for k in range(1, 6)] + [22_100],
        ),
        ("reference", 10_000, [10_000, 20_000, 22_100]),  # as asked
    ],
)
def test_a_batch_holds_the_adapters_number_of_hands_unless_asked(spec, batch, steps, tmp_path):
    seen: list[int] = []
    _check(spec, HIGH_3, tmp_path, batch=batch, progress=lambda done, total: seen.append(done))
    assert seen == steps


def test_an_evaluator_that_writes_over_its_input_cannot_change_the_findings(tmp_path):
    state = _check_object(ManyWheelBlind("scribbles"), HIGH_3, tmp_path)
    assert state.category_disagreements == 64 and state.errors == 0
    category = next(d for d in state.disagreements if d.check == "category")
    assert _same_cards(category.vector["hand"], "As 3s 2s")


@pytest.mark.parametrize("broken", ["short", "raises"])
def test_a_broken_batch_form_is_an_error_and_every_hand_is_still_checked(broken, tmp_path):
    class Evaluator(ManyWheelBlind):
        def evaluate(self, hand):  # the single form stays sound
            return self.classify(hand), WheelBlind.key(self, hand)

    state = _check_object(Evaluator(broken), HIGH_3, tmp_path, batch=4096)
    batches = -(-22_100 // 4096)
    assert state.errors == batches  # one per batch (class keys aside)
    assert state.category_disagreements == 64 and state.order_disagreements == 2
    assert "evaluate_many()" in next(d.message for d in state.disagreements if d.check == "error")


def test_an_evaluate_that_disagrees_with_classify_is_an_error(tmp_path):
    class TwoMinds(TextbookHigh):
        def evaluate(self, hand):
            key = TextbookHigh.key(self, hand)
            category = TextbookHigh.classify(self, hand)
            return ("flush" if category == "straight_flush" else category), key

    state = _check_object(TwoMinds(), HIGH_3, tmp_path)
    # 44 straight flushes in three cards (4 more are royal): classify is right, evaluate not
    assert state.errors == 44 and state.category_disagreements == 0
    assert "asked again with classify it answers 'straight_flush'" in state.disagreements[0].message


def test_the_hand_spaces_have_the_textbook_sizes():
    assert Space(5, 0).total == 2_598_960
    assert Space(3, 0).total == 22_100
    assert Space(2, 0).total == 1_326
    # Montana: every hand with no, one or two (identical) jokers
    assert Space(5, 2).total == 2_598_960 + 270_725 + 22_100
    # the order is itertools.combinations over the deck, A-K-...-2 by suit s h d c
    assert [" ".join(map(str, h)) for h in Space(2, 0).hands(0, 3)] == ["As Ah", "As Ad", "As Ac"]


@pytest.mark.parametrize(
    ("spec", "ruleset", "classes", "mode"),
    [
        ("py:tests.helpers.textbook_eval:TextbookHigh", HIGH_3, 741, "key"),
        ("py:tests.helpers.textbook_eval:TextbookPocket", POCKET, 6, "key"),
        ("reference", POCKET, 6, "key"),
    ],
)
def test_a_correct_evaluator_agrees_on_every_hand(spec, ruleset, classes, mode, tmp_path):
    state = _check(spec, ruleset, tmp_path)
    assert state.finished and state.mode == mode
    assert state.checked == state.total == get_ruleset_space(ruleset)
    assert state.classes == classes
    assert state.disagreeing == 0 and not state.disagreements


def get_ruleset_space(ruleset: str) -> int:
    rs = get_ruleset(ruleset)
    return Space(rs.hand_size, rs.jokers).total


def test_compare_mode_proves_the_classes_and_counts_what_one_deal_cannot(tmp_path):
    state = _check("py:tests.helpers.textbook_eval:KeylessHigh", HIGH_3, tmp_path)
    assert state.mode == "compare" and state.disagreeing == 0
    assert state.unverifiable_hands == 52
    assert state.unverifiable_orders == 0


def test_the_missing_ace_low_straight_is_found_and_written_up(tmp_path):
    state = _check("py:tests.helpers.textbook_eval:WheelBlind", HIGH_3, tmp_path)
    assert state.category_disagreements == 64
    assert state.order_disagreements == 2
    assert state.class_disagreements == 0 and state.errors == 0
    checks = {d.check for d in state.disagreements}
    assert checks == {"category", "order"}
    order = next(d for d in state.disagreements if d.check == "order")
    assert order.vector is not None and order.vector["kind"] == "compare"
    assert order.vector["expect"] == {"winners": [0]}
    category = next(d for d in state.disagreements if d.check == "category")
    assert _same_cards(category.vector["hand"], "As 3s 2s")
    assert category.vector["expect"] == {"category": "straight_flush"}
    assert "[[vector]]" in category.toml


def test_a_pocket_evaluator_without_ace_two_is_red(tmp_path):
    state = _check("py:tests.helpers.textbook_eval:PocketNoAceTwo", POCKET, tmp_path)
    assert state.category_disagreements == 16
    assert state.class_disagreements == 16
    assert state.order_disagreements == 0
    first = state.disagreements[0].vector
    assert first["interpretations"] == ["pocket-ace-two"]
    assert first["expect_by_reading"]["literal"]["category"] == "high_card"


def test_shards_partition_the_hands_and_a_killed_run_resumes(tmp_path):
    states = [
        _check("py:tests.helpers.textbook_eval:WheelBlind", HIGH_3, tmp_path / str(k), shard=(k, 3))
        for k in (1, 2, 3)
    ]
    assert [s.start for s in states] == [0, states[0].stop, states[1].stop]
    assert states[-1].stop == 22_100 and sum(s.checked for s in states) == 22_100
    assert sum(s.category_disagreements for s in states) == 64

    # a run killed half-way continues from its checkpoint and ends with the same findings
    folder = tmp_path / "killed"
    calls = []

    def kill_on_third_batch(done: int, total: int) -> None:
        calls.append(done)
        if len(calls) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        _check(
            "py:tests.helpers.textbook_eval:WheelBlind",
            HIGH_3,
            folder,
            batch=4096,
            progress=kill_on_third_batch,
        )
    stopped = load_state(folder / "run")
    assert not stopped.finished and stopped.checked == 3 * 4096
    resumed = _check("py:tests.helpers.textbook_eval:WheelBlind", HIGH_3, folder, resume=True)
    assert resumed.finished and resumed.checked == 22_100
    assert resumed.category_disagreements == 64 and resumed.order_disagreements == 2


def test_resume_refuses_another_run(tmp_path):
    _check("py:tests.helpers.textbook_eval:TextbookHigh", HIGH_3, tmp_path)
    with pytest.raises(ValueError, match="cannot resume"):
        _check("py:tests.helpers.textbook_eval:WheelBlind", HIGH_3, tmp_path, resume=True)


def test_cli_green_and_red(tmp_path, capsys):
    assert main(["exhaustive", "--ruleset", POCKET, "--out", str(tmp_path / "a")]) == 0
    assert "AGREES with the reference on every hand checked" in capsys.readouterr().out
    code = main(
        [
            "exhaustive",
            "--ruleset",
            POCKET,
            "--adapter",
            "py:tests.helpers.textbook_eval:PocketNoAceTwo",
            "--out",
            str(tmp_path / "b"),
            "--json",
        ]
    )
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and data["category_disagreements"] == 16
    assert data["disagreements"][0]["toml"].count("[[vector]]") == 1


def test_cli_usage_errors(tmp_path, capsys):
    assert main(["exhaustive", "--ruleset", POCKET, "--shard", "3/2", "--out", str(tmp_path)]) == 3
    assert main(["exhaustive", "--ruleset", "nope", "--out", str(tmp_path)]) == 3
    assert "error" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.parametrize(
    ("spec", "wheels", "orders"),
    [
        ("py:tests.helpers.textbook_eval:TextbookHigh", 0, 0),
        ("py:tests.helpers.textbook_eval:WheelBlind", 256, 2),
    ],
)
def test_five_card_high_one_shard_and_the_whole_class_order(spec, wheels, orders, tmp_path):
    """A fortieth of the five-card hands, and the order of all 7,462 classes.

    (A whole five-card pass takes minutes through a Python evaluator: a command for a
    lab, not a unit test.)  Shard 4 of 40 holds positions 194,922 to 259,895.  Hands that
    start with the ace of spades fill positions 0 to 249,899 (C(51,4) of them), and those
    whose other four cards are all fives or lower come last among them (C(16,4) = 1,820,
    from 248,080): so the shard holds every wheel with the ace of spades, 4^4 = 256 (4 of
    them straight flushes), and no other wheel.  Without the wheel, A-2-3-4-5 is valued
    as ace-high: the wheel class falls below the best three of a kind and the five-high
    straight flush below four aces, two neighbouring pairs out of order.
    """
    state = _check(spec, "nj-poker-high-5", tmp_path, shard=(4, 40))
    assert state.classes == 7_462 and state.checked == 259_896 - 194_922
    assert state.category_disagreements == wheels
    assert state.order_disagreements == orders


def test_batches_follow_the_enumeration_across_the_joker_boundary():
    """Token batches of any size, natural and joker hands alike, come in the Space's order
    with the right classes.

    Two-card hands with up to two jokers keep this cheap (1,326 natural hands, 52 with
    one joker, one pair of jokers).  The pocket game has no wild cards, so the joker
    hands get a made-up value per joker count: this is about the plumbing.
    """
    from pokercert.reference import HandValue
    from pokercert.reference.classes import ReferenceClasses, cards

    class Plumbing(ReferenceClasses):
        def value(self, hand):
            jokers = sum(c.is_joker for c in hand)
            return HandValue("high_card", (0, jokers), hand, hand)

    space = Space(2, 2)
    ref = Plumbing(get_ruleset(POCKET), load_profile("practice"), space)
    assert space.total == 1_326 + 52 + 1
    every = [[str(c) for c in h] for h in space.hands(0, space.total)]
    assert every[1_326] == ["As", "Xx"] and every[-1] == ["Xx", "Xx"]
    assert len(ref.keys) == 6 + 2
    for size in (7, 500, 1_400):
        got, classes = [], []
        for start in range(0, space.total, size):
            batch = ref.tokens(start, min(start + size, space.total))
            got.extend(batch)
            classes.extend(ref.classes(start, batch))
        assert got == every
        assert classes == [
            ref.index[ref.value(cards(t)).key if "Xx" in t else ref.ev.value(cards(t)).key]
            for t in every
        ]


@pytest.mark.parametrize(
    "spec, ruleset",
    [
        (f"exec:{sys.executable} -m pokercert.harness.adapters.serve reference", POCKET),
        pytest.param(
            f"exec:node {Path(__file__).parents[3] / 'examples/js-evaluator/adapter.js'}",
            HIGH_3,
            marks=pytest.mark.skipif(
                shutil.which("node") is None, reason="Node.js is not installed"
            ),
        ),
    ],
)
def test_an_exec_adapter_with_evaluate_many_is_checked_by_key(spec, ruleset, tmp_path):
    """Over the protocol's evaluate_many feature: every hand's key against its class."""
    state = _check(spec, ruleset, tmp_path)
    assert state.mode == "key" and state.finished
    assert state.checked == get_ruleset_space(ruleset) and state.disagreeing == 0


def test_a_finding_of_an_exec_adapter_costs_no_other_hand(tmp_path, capsys):
    """An ``exec:`` adapter gets two batches in flight; a batch with a finding is looked
    at with more requests (the hand's category asked again).  Those must not be sent
    while the next batch is in flight: its reply would be taken for a late one and lost,
    and every later hand would count as an error (21,000 of them before the fix).  The
    faux is wrong on one hand only (the three aces), and never dies here."""
    faux = Path(__file__).resolve().parents[2] / "helpers" / "faux" / "dies_later.py"
    code = main(
        [
            "exhaustive",
            "--adapter",
            f"exec:{sys.executable} {faux} {tmp_path / 'batches'} 1000000",
            "--ruleset",
            "nj-poker-high-3",
            "--batch-size",
            "1000",
            "--order-seed",
            "3",
            "--out",
            str(tmp_path / "out"),
            "--json",
            "--no-sandbox",
        ]
    )  # (the faux writes its batch count in tmp_path)
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and data["finished"] and data["checked"] == 22_100
    assert data["category_disagreements"] == 1 and data["errors"] == 0
