"""Issue 26: a showdown or best_hand vector is a deal its game deals.

Razz, stud and stud high-low deal seven cards each; hold'em two hole cards and a
five-card board; Omaha four and five (Robert's Rules of Poker sections 5, 6 and 8, as
reference/regulations/room-rrop-house-rules.toml and room-nj-13-69F-14.10.toml record
them in each ruleset's ``selection``).  Final five-card hands belong to ``compare``.
"""

from __future__ import annotations

import shutil
from functools import cache
from pathlib import Path

import pytest

from pokercert.reference import get_ruleset
from pokercert.vectors import registry
from pokercert.vectors.check import check_corpus
from pokercert.vectors.corpus import Corpus, load_corpus
from pokercert.vectors.model import Kind

# what each poker-room game deals, from the house rules' text (not from the code):
# (cards per player, board cards)
DEALT = {
    "nj-holdem": (2, 5),
    "nj-omaha": (4, 5),
    "nj-omaha-hi-lo": (4, 5),
    "nj-seven-card-stud": (7, 0),
    "nj-stud-hi-lo": (7, 0),
    "nj-razz": (7, 0),
}


@cache
def corpus() -> Corpus:
    return load_corpus()


def test_the_rulesets_say_what_the_house_rules_deal() -> None:
    for rid, (hole, board) in DEALT.items():
        sel = get_ruleset(rid).selection
        assert sel is not None and (sel.hole, sel.board) == (hole, board), rid


def test_every_showdown_and_best_hand_vector_deals_what_the_game_deals() -> None:
    checked = 0
    for v in corpus().vectors:
        if v.kind not in (Kind.SHOWDOWN, Kind.BEST_HAND):
            continue
        sel = get_ruleset(v.ruleset).selection
        assert sel is not None, v.id
        hands = v.inputs["hands"] if v.kind == Kind.SHOWDOWN else [v.inputs["hole"]]
        counts = {len(h.split()) for h in hands}
        board = len(v.inputs.get("board", "").split())
        assert (counts, board) == ({sel.hole}, sel.board), (v.id, counts, board)
        cards = [c for h in hands for c in h.split()] + v.inputs.get("board", "").split()
        assert len(set(cards)) == len(cards) <= 52, v.id
        checked += 1
    assert checked > 1500  # the showdowns of the six games and their best hands


def test_razz_five_card_hands_are_compares_now() -> None:
    """What nj-razz/7170-7199 (retired) tested: final five-card razz hands of paired
    categories, the better low category winning, four of a kind among them."""
    by_id = corpus().by_id
    assert not any(f"nj-razz/{n}" in by_id for n in range(7170, 7200))
    compares = [by_id[f"nj-razz/{n}"] for n in range(8000, 8030)]
    assert all(
        v.kind == Kind.COMPARE and {len(h.split()) for h in v.inputs["hands"]} == {5}
        for v in compares
    )
    quads = [v for v in compares if "four of a kind" in v.why]
    assert len(quads) == 6 and all("razz-pairs" in v.flags for v in compares)
    # hand-worked: four threes against sevens full of fives (nj-razz/8000): razz ranks
    # by 14.3's low order, best first no pair, one pair, two pairs, three of a kind, full
    # house, four of a kind (13:69F-14.3(b), (f)), so the full house is the better low
    v = by_id["nj-razz/8000"]
    assert v.inputs["hands"] == ["3c 3s 3h 3d Qc", "7s 7c 7h 5d 5c"]
    assert v.expect == {"winners": [1]}


def _mini_corpus(tmp_path: Path, ruleset: str, text: str) -> Path:
    root = tmp_path / "corpus"
    (root / ruleset).mkdir(parents=True)
    shutil.copy(registry.PACKAGE_ROOT / "flags.toml", root / "flags.toml")
    (root / ruleset / "crafted.toml").write_text(text, encoding="utf-8")
    return root


FIVE_CARD_STUD = """format_version = 1
ruleset = "nj-seven-card-stud"

[[vector]]
id = "nj-seven-card-stud/0001"
kind = "showdown"
hands = ["As Ah Ad Ac Ks", "2c 3c 4c 5c 7d"]
expect = { high = [0], low = [], shares = ["1", "0"] }
clauses = ["RRoP-8"]
flags = ["category-order"]
why = "Crafted: five cards each, a deal seven-card stud never makes."
"""

HOLDEM_BAD_DEALS = """format_version = 1
ruleset = "nj-holdem"

[[vector]]
id = "nj-holdem/0001"
kind = "showdown"
hands = ["As Ah", "2c 3c 4c"]
board = "Ks Qs Js Ts 9s 8s"
expect = { high = [0], low = [], shares = ["1", "0"] }
clauses = ["RRoP-5"]
flags = ["category-order"]
why = "Crafted: three hole cards and a six-card board."

[[vector]]
id = "nj-holdem/0002"
kind = "best_hand"
hole = "As Ah"
board = "Ks Qs Js Ts As"
expect = { category = "royal_flush", cards = ["As Ks Qs Js Ts"] }
clauses = ["RRoP-5"]
flags = ["best-hand-selection"]
why = "Crafted: the ace of spades dealt twice."
"""


@pytest.mark.parametrize(
    ("ruleset", "text", "wanted"),
    [
        (
            "nj-seven-card-stud",
            FIVE_CARD_STUD,
            [
                (7, "nj-seven-card-stud/0001", "hand 0 holds 5 card(s)"),
                (7, "nj-seven-card-stud/0001", "hand 1 holds 5 card(s)"),
            ],
        ),
        (
            "nj-holdem",
            HOLDEM_BAD_DEALS,
            [
                (7, "nj-holdem/0001", "hand 1 holds 3 card(s)"),
                (7, "nj-holdem/0001", "a board of 6 card(s)"),
                (17, "nj-holdem/0002", "dealt twice across the deal: As"),
            ],
        ),
    ],
)
def test_the_check_names_file_line_and_id_of_a_deal_the_game_cannot_deal(
    tmp_path: Path, ruleset: str, text: str, wanted: list[tuple[int, str, str]]
) -> None:
    root = _mini_corpus(tmp_path, ruleset, text)
    report = check_corpus(root, with_reference=False, with_manifest=False)
    deals = [p for p in report.problems if "cannot deal" in p.message]
    assert len(deals) == len(wanted), [str(p) for p in report.problems]
    for problem, (line, vid, says) in zip(deals, wanted, strict=True):
        assert Path(problem.location.file).name == "crafted.toml"
        assert problem.location.line == line
        assert problem.message.startswith(f"{vid}: ") and says in problem.message


def test_more_cards_than_the_deck(tmp_path: Path) -> None:
    # nine stud players: 63 cards, more than the 52 of the deck (and so some twice)
    hands = ", ".join(f'"{" ".join(["As"] * 7)}"' for _ in range(9))
    text = FIVE_CARD_STUD.replace(
        'hands = ["As Ah Ad Ac Ks", "2c 3c 4c 5c 7d"]', f"hands = [{hands}]"
    ).replace('shares = ["1", "0"]', "shares = [" + ", ".join(['"1"'] + ['"0"'] * 8) + "]")
    root = _mini_corpus(tmp_path, "nj-seven-card-stud", text)
    report = check_corpus(root, with_reference=False, with_manifest=False)
    assert any(
        "63 cards dealt; the nj-seven-card-stud deck holds 52" in p.message for p in report.problems
    ), [str(p) for p in report.problems]


def test_pokerkit_an_independent_razz_evaluator_passes_every_razz_showdown() -> None:
    """PokerKit's razz hand type (``RegularLowHand.from_game``) settles seven-card deals;
    it is not the reference, so its agreement is evidence from outside the code."""
    pytest.importorskip("pokerkit", reason="pokerkit is not installed (the test extra)")
    from pokercert.harness.adapters import load_adapter
    from pokercert.harness.run.results import Outcome
    from pokercert.harness.run.runner import score_vectors
    from pokercert.reference import load_profile

    razz = corpus().select(rulesets=["nj-razz"], kinds=[Kind.SHOWDOWN])
    profile = load_profile("practice")
    with load_adapter("pokerkit") as adapter:
        identity = adapter.start()
        results = [r for batch in score_vectors(adapter, identity, razz, profile) for r in batch]
    assert len(results) == len(razz) > 150
    assert {r.vector_id for r in results if r.outcome != Outcome.PASS} == set()
