"""``pokercert exhaustive`` over seven-card deals (issue 16): every one of the 133,784,560
seven-card hands of a best-five-of-seven game, by index ranges.

The full pass is far too long for a test; these run ranges of the enumeration (positions
of ``combinations(DECK, 7)``, the deck ace first) and check what a range proves:

* the first 17,296 hands all hold the four aces (As Ah Ad Ac and any three of the other
  48 cards: C(48, 3)), so a range of 20,000 from 0 is full of four of a kind with every
  kicker: the faux evaluator that ignores the kicker of four of a kind DISAGREES there,
  its textbook twin (tests/helpers/faux/quads_kicker.py, written apart from the
  reference) AGREES on the same hands;
* the reference adapter (the engine's ``best_hand`` hand by hand) AGREES with the
  reference's seven-card class table the pass checks against;
* eval7 and treys AGREE (their libraries value seven cards by their best five);
* two ranges merged give exactly the state of the one range they make up.

The 4,824 distinct best-five values are proved over the census classes in
tests/reference/test_games_census.py, with the class table itself.
"""

from __future__ import annotations

import json

import pytest

from pokercert.cli.main import main
from pokercert.harness.adapters import load_adapter
from pokercert.harness.explore.exhaustive import run_exhaustive
from pokercert.harness.explore.exhaustive_state import merge_states
from pokercert.reference import get_ruleset, load_profile
from pokercert.reference.errors import InputError

pytest.importorskip("numpy")

HOLDEM, STUD = "nj-holdem", "nj-seven-card-stud"
FAUX = "py:tests.helpers.faux.quads_kicker:"
SEVEN_CARD_HANDS = 133_784_560
SEED = 11


def _run(spec: str, ruleset: str, out, hands: tuple[int, int], profile: str = "practice", **kwargs):
    rs, prof = get_ruleset(ruleset), load_profile(profile)
    with load_adapter(spec) as adapter:
        identity = adapter.start()
        adapter.configure(ruleset, prof.readings_for(rs))
        return run_exhaustive(
            adapter,
            identity,
            rs,
            prof,
            out,
            adapter_spec=spec,
            order_seed=SEED,
            hands=hands,
            **kwargs,
        )


def _result(state) -> dict:
    return {k: v for k, v in state.as_dict().items() if k != "elapsed_s"}


@pytest.fixture(scope="module")
def quads(tmp_path_factory):
    return _run(FAUX + "QuadsKickerIgnored", HOLDEM, tmp_path_factory.mktemp("q"), (0, 20_000))


def test_ignoring_the_kicker_of_four_of_a_kind_disagrees(quads):
    assert quads.total == SEVEN_CARD_HANDS and quads.classes == 4_824
    assert quads.finished and quads.checked == 20_000 and quads.disagreeing
    # four of a kind: 13 ranks x 12 possible kickers, 156 values; ignoring the kicker
    # merges each rank's 12 into one: 13 x 11 neighbouring pairs of classes
    assert quads.order_disagreements == 143
    assert quads.category_disagreements == quads.class_disagreements == quads.errors == 0
    finding = quads.disagreements[0]
    assert finding.check == "order" and "four_of_a_kind < four_of_a_kind" in finding.message
    # written up as two hold 'em players on one board (test_exhaustive_seven_drafts.py)
    assert finding.vector["kind"] == "compare" and len(finding.vector["board"].split()) == 5


def test_the_same_code_with_the_kicker_agrees_on_the_same_hands(tmp_path):
    state = _run(FAUX + "TextbookSeven", HOLDEM, tmp_path, (0, 20_000))
    assert state.finished and state.checked == 20_000 and not state.disagreeing


def test_the_reference_engine_agrees_with_the_class_table(tmp_path):
    # the engine's best_hand per hand (hold 'em: two hole cards, five board cards, in
    # the run's shuffled order): about 2,000 hands a second, so a short range in the
    # middle of the enumeration besides the class representatives
    state = _run("reference", HOLDEM, tmp_path, (66_000_000, 66_003_000))
    assert state.finished and state.checked == 3_000 and not state.disagreeing
    assert state.order_checked


@pytest.mark.parametrize(
    ("library", "ruleset", "hands"),
    [
        ("eval7", HOLDEM, (0, 300_000)),
        ("eval7", STUD, (100_000_000, 100_300_000)),
        ("treys", HOLDEM, (133_684_560, 133_784_560)),  # the last 100,000 hands
    ],
)
def test_peer_libraries_agree(tmp_path, library, ruleset, hands):
    pytest.importorskip(library)
    state = _run(library, ruleset, tmp_path, hands)
    assert state.finished and state.checked == hands[1] - hands[0]
    assert not state.disagreeing, [d.message for d in state.disagreements]


def test_ranges_merge_into_the_state_of_the_range_they_make_up(tmp_path, quads):
    spec = FAUX + "QuadsKickerIgnored"
    parts = [
        _run(spec, HOLDEM, tmp_path / "a", (0, 8_000)),
        _run(spec, HOLDEM, tmp_path / "b", (8_000, 20_000)),
    ]
    merged = merge_states(parts, report_limit=10)
    assert merged.checked == 20_000
    assert _result(merged) == {**_result(quads), "shard": merged.shard}
    assert merged.shard == "0..20000"


def test_a_range_resumes_where_it_stopped(tmp_path):
    spec = FAUX + "TextbookSeven"
    stopped = []

    def progress(done: int, total: int) -> None:
        if done >= 8_192 and not stopped:
            stopped.append(done)
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        _run(spec, STUD, tmp_path, (0, 20_000), progress=progress, batch=4096)
    saved = json.loads((tmp_path / "exhaustive.json").read_text())
    assert 0 < saved["checked"] < 20_000 and not saved["finished"]
    state = _run(spec, STUD, tmp_path, (0, 20_000), resume=True)
    assert state.finished and state.checked == 20_000 and not state.disagreeing


@pytest.mark.parametrize("faux", ["KeylessSeven", "ClassifyOnlySeven"])
def test_an_evaluator_without_its_own_value_is_refused(tmp_path, faux):
    # compare-only and categories-only alike: every deal's class needs the key
    with pytest.raises(InputError, match="best five by the evaluator's own value"):
        _run(FAUX + faux, HOLDEM, tmp_path, (0, 100))


def test_a_certification_run_skips_the_seven_card_pass_it_cannot_take(tmp_path):
    from pokercert.harness.run.attached import EXHAUSTIVE, SKIPPED, item_status, run_attached

    spec = FAUX + "KeylessSeven"
    with load_adapter(spec) as adapter:
        identity = adapter.start()
        records, aborted = run_attached(
            adapter,
            identity,
            [HOLDEM, STUD],
            load_profile("practice"),
            {EXHAUSTIVE: {"order_seed": 1}},
            tmp_path,
            spec,
        )
    assert not aborted
    for record in records[EXHAUSTIVE]:
        assert item_status(EXHAUSTIVE, record) == SKIPPED
        assert "evaluator's own value" in record["skipped"]


def test_hold_em_under_the_literal_reading_is_the_five_card_ranking(tmp_path):
    """At least one hole card must play: a hand is then not a function of the seven
    cards alone, and the pass checks the five-card ranking (2,598,960 hands)."""
    state = _run("reference", HOLDEM, tmp_path, (0, 1_000), profile="literal")
    assert state.total == 2_598_960 and state.classes == 7_462 and not state.disagreeing


def test_the_command_runs_a_range_of_seven_card_deals(tmp_path, capsys):
    code = main(
        [
            "exhaustive",
            "--adapter",
            "eval7",
            "--ruleset",
            STUD,
            "--range",
            "1000..51000",
            "--order-seed",
            "3",
            "--out",
            str(tmp_path),
            "--json",
        ]
    )
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["agrees"] and data["checked"] == 50_000
    assert (data["start"], data["stop"], data["total"]) == (1_000, 51_000, SEVEN_CARD_HANDS)
    assert data["rerun"][data["rerun"].index("--range") + 1] == "1000..51000"
    code = main(
        [
            "exhaustive",
            "--adapter",
            "eval7",
            "--ruleset",
            STUD,
            "--range",
            "1000..51000",
            "--order-seed",
            "3",
            "--out",
            str(tmp_path),
        ]
    )
    out = capsys.readouterr().out
    assert code == 0 and "every 7-card deal, each valued by its best 5 cards" in out


def test_a_range_outside_the_deals_is_a_usage_error(tmp_path, capsys):
    code = main(
        [
            "exhaustive",
            "--adapter",
            "eval7",
            "--ruleset",
            STUD,
            "--range",
            f"0..{SEVEN_CARD_HANDS + 1}",
            "--out",
            str(tmp_path),
        ]
    )
    assert code == 3
    assert "not inside the 133,784,560 hands" in capsys.readouterr().err
