"""Fuzz deals pai gow's kinds (issue 29): two-card hands, settings and settlements.

The facts checked here are the pai gow rules as the house descriptions state them
(reference/pai_gow.toml cites them): a pair beats any two different cards and the joker is
an ace in the two-card hand; a high-card five-card hand behind a pair, or behind two cards
whose top card is higher, is foul; a five-card hand equal to the two-card hand on the two
cards is legal under the practice reading of ``pai-gow-setting-equal`` and foul under the
literal one.  The test recomputes each fact from the cards, then asks fuzz's expectation
(the reference's, under the profile) to agree.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from pokercert.harness.adapters import load_adapter
from pokercert.harness.api import Rejected
from pokercert.harness.explore.counterexample import expected_outcome, placeholder_vector
from pokercert.harness.explore.fuzz import claimed_kinds, fuzz, fuzz_labels
from pokercert.harness.explore.situation_pai_gow import PAI_GOW_SITUATIONS
from pokercert.harness.explore.situations import Game, seeded_deals
from pokercert.harness.outcome import Outcome
from pokercert.harness.peers.reference import ReferenceEvaluator
from pokercert.reference import evaluator, get_ruleset, load_profile, parse_cards
from pokercert.reports.selfcheck import spec_for
from pokercert.vectors.check import reject_faults
from pokercert.vectors.model import KINDS, PAI_GOW_KINDS
from tests.helpers.found_corpus import check_found

PAI_GOW = ["lc-pai-gow-poker", "wa-pai-gow-poker"]
ACE = 14


def _fuzz(spec: str, ruleset: str, profile: str, examples: int, seed: int, database=None):
    adapter = load_adapter(spec)
    rs, prof = get_ruleset(ruleset), load_profile(profile)
    with adapter:
        identity = adapter.start()
        adapter.configure(ruleset, prof.readings_for(rs))
        kinds = claimed_kinds(identity.capabilities, rs)
        return fuzz(adapter, rs, prof, kinds=kinds, examples=examples, seed=seed, database=database)


def _deals(ruleset: str, profile: str, count: int, seed: int = 3):
    game = Game(get_ruleset(ruleset), profile, KINDS)
    labels = fuzz_labels(game, KINDS)
    return [d for d, _ in seeded_deals(game, labels, seed=seed, count=count)]


def _ranks(text: str) -> list[int]:
    """Ranks high to low, the joker an ace (as in the two-card hand)."""
    return sorted(
        (ACE if c.is_joker else c.rank for c in parse_cards(text, jokers=1)), reverse=True
    )


def _high_card_five(text: str) -> bool:
    """Five distinct natural ranks, not all of one suit, no run: a high-card hand."""
    cards = parse_cards(text, jokers=1)
    ranks = sorted({c.rank for c in cards})
    low_ace = sorted(1 if r == ACE else r for r in ranks)
    run = ranks[-1] - ranks[0] == 4 or low_ace[-1] - low_ace[0] == 4
    return (
        not any(c.is_joker for c in cards)
        and len(ranks) == 5
        and len({c.suit for c in cards}) > 1
        and not run
    )


@pytest.mark.parametrize("ruleset", PAI_GOW)
@pytest.mark.parametrize("profile", ["practice", "literal"])
def test_fuzz_deals_every_pai_gow_situation_and_the_reference_agrees(ruleset, profile):
    """On main fuzz dealt no pai gow kind: ``situations`` had no pai gow label at all."""
    report = _fuzz("reference", ruleset, profile, examples=400, seed=2)
    assert report.found is None and not report.flaky, report.found
    dealt = {k: v for k, v in report.situations.items() if k in PAI_GOW_SITUATIONS}
    assert set(dealt) == set(PAI_GOW_SITUATIONS) and all(dealt.values()), dealt
    assert set(PAI_GOW_KINDS) <= set(report.kinds)


@pytest.mark.parametrize("ruleset", PAI_GOW)
def test_pai_gow_deals_are_one_deck_with_the_joker_and_valid(ruleset):
    deals = [d for d in _deals(ruleset, "practice", 600) if d.situation in PAI_GOW_SITUATIONS]
    assert Counter(d.situation for d in deals).keys() == PAI_GOW_SITUATIONS.keys()
    deals = [d for d in deals if d.kind != "reject"]
    jokers = 0
    for d in deals:
        hands = {
            "compare_two_card": lambda i: list(i["hands"]),
            "setting": lambda i: [i["high"], i["low"]],
            "settle": lambda i: [*i["player"], *i["banker"]],
        }[d.kind](d.inputs)
        sizes = [len(h.split()) for h in hands]
        cards = [c for h in hands for c in parse_cards(h, jokers=1)]
        assert len(set(cards)) == len(cards), d  # one deck, at most one joker
        assert sizes == (
            [2] * len(hands) if d.kind == "compare_two_card" else [5, 2] * (len(hands) // 2)
        )
        jokers += any(c.is_joker for c in cards)
    assert jokers >= len(deals) // 5, "the joker is in many deals"


@pytest.mark.parametrize("ruleset", PAI_GOW)
def test_foul_deals_are_foul_under_every_reading(ruleset):
    for profile in ("practice", "literal"):
        ev = evaluator(ruleset, profile)
        fouls = [d for d in _deals(ruleset, profile, 600) if d.situation == "pai-gow-foul"]
        assert len(fouls) >= 10
        for d in fouls:
            five, two = d.inputs["high"], _ranks(d.inputs["low"])
            assert _high_card_five(five), d
            assert two[0] == two[1] or two[0] > max(_ranks(five)), d  # pair, or higher top
            assert expected_outcome(ev, "setting", d.inputs) == {"legal": False}, d


@pytest.mark.parametrize("ruleset", PAI_GOW)
def test_equal_settings_follow_the_profiles_reading(ruleset):
    """The equal edge: legal under practice, foul under literal (pai-gow-setting-equal)."""
    for profile, legal in (("practice", True), ("literal", False)):
        ev = evaluator(ruleset, profile)
        equal = [d for d in _deals(ruleset, profile, 600) if d.situation == "pai-gow-setting-equal"]
        assert len(equal) >= 10
        shapes = Counter()
        for d in equal:
            five, two = _ranks(d.inputs["high"]), _ranks(d.inputs["low"])
            if two[0] == two[1]:  # the same pair, three different kickers beside it
                assert five.count(two[0]) == 2 and len(set(five)) == 4, d
                shapes["pair"] += 1
            else:  # the same two top cards of a high-card hand
                assert _high_card_five(d.inputs["high"]) and five[:2] == two, d
                shapes["high"] += 1
            assert expected_outcome(ev, "setting", d.inputs) == {"legal": legal}, (profile, d)
        assert shapes["pair"] and shapes["high"], shapes


@pytest.mark.parametrize("ruleset", PAI_GOW)
def test_copies_and_two_card_hands(ruleset):
    deals = _deals(ruleset, "practice", 600)
    copies = [d for d in deals if d.situation == "pai-gow-copy"]
    assert len(copies) >= 10
    same = sum(
        _ranks(d.inputs["player"][1]) == _ranks(d.inputs["banker"][1])
        or _ranks(d.inputs["player"][0]) == _ranks(d.inputs["banker"][0])
        for d in copies
    )
    assert same == len(copies)
    two = [d for d in deals if d.situation == "pai-gow-two-card"]
    copied = [
        d
        for d in two
        if len({tuple(_ranks(h)) for h in d.inputs["hands"]}) < len(d.inputs["hands"])
    ]
    assert copied and any("Xx" in " ".join(d.inputs["hands"]) for d in copied)


def test_a_found_foul_shrinks_to_a_vector_the_corpus_accepts(tmp_path: Path):
    """The setting rule ignored: fuzz finds a foul, shrinks it in Hypothesis from the
    seeded deal's record, and writes a setting vector ``vectors check`` accepts."""
    ruleset = "lc-pai-gow-poker"
    report = _fuzz(spec_for("pai-gow-setting-ignored"), ruleset, "practice", 300, seed=1)
    assert report.found is not None and report.situation.startswith("pai-gow-")
    vector = report.found.vector
    assert vector.kind == "setting" and vector.expect == {"legal": False}, vector
    assert "setting-rule" in vector.flags
    checked = check_found(tmp_path / "corpus", ruleset, report.found, "setting-ignored")
    assert checked.ok, [str(p) for p in checked.problems]


def test_a_stored_pai_gow_counterexample_replays_first(tmp_path: Path):
    """A rerun with the same example database replays the shrunk counterexample (a
    settlement with a copy) before exploring, whatever its seed."""
    spec = spec_for("pai-gow-copies-to-player")
    first = _fuzz(spec, "wa-pai-gow-poker", "practice", 200, seed=4, database=tmp_path)
    again = _fuzz(spec, "wa-pai-gow-poker", "practice", 200, seed=5, database=tmp_path)
    assert first.found is not None and again.found is not None
    assert first.found.vector.kind == "settle" and "copy" in first.found.vector.flags
    assert again.found.vector.inputs == first.found.vector.inputs
    assert again.calls < first.calls


@pytest.mark.parametrize("ruleset", PAI_GOW)
def test_reject_deals_hold_one_fault_the_reference_names(ruleset):
    """Malformed requests through each pai gow operation (where reject is claimed): the
    corpus checker's token-by-token count finds exactly one fault, the one the
    reference refuses the request for."""
    ev = evaluator(ruleset)
    rs = get_ruleset(ruleset)
    rejects = [d for d in _deals(ruleset, "practice", 900) if d.situation.startswith("pai-gow-rej")]
    reasons = Counter()
    for d in rejects:
        assert d.kind == "reject" and d.inputs["op"] in PAI_GOW_KINDS, d
        faults, _ = reject_faults(placeholder_vector(ruleset, "reject", d.inputs, {}), rs)
        reason = expected_outcome(ev, "reject", d.inputs).get("reason")
        assert faults == {reason}, (d, faults, reason)
        reasons[d.inputs["op"], reason] += 1
    for op in PAI_GOW_KINDS:
        assert {r for o, r in reasons if o == op} == {
            "wrong-count",
            "duplicate-card",
            "bad-card",
        }, reasons


class Lenient(ReferenceEvaluator):
    """The reference, except that invalid pai gow input is answered, not refused."""

    def compare_two_card(self, hands):
        try:
            return super().compare_two_card(hands)
        except Rejected:
            return [0]

    def setting(self, high, low):
        try:
            return super().setting(high, low)
        except Rejected:
            return True

    def settle(self, player, banker):
        try:
            return super().settle(player, banker)
        except Rejected:
            return "push"


def test_an_evaluator_answering_invalid_pai_gow_input_is_found():
    """On main fuzz sent no malformed pai gow request: this evaluator survived."""
    spec = "py:tests.harness.explore.test_fuzz_pai_gow:Lenient"
    report = _fuzz(spec, "wa-pai-gow-poker", "practice", 300, seed=1)
    assert report.found is not None and report.situation.startswith("pai-gow-reject-")
    vector = report.found.vector
    assert vector.kind == "reject" and vector.inputs["op"] in PAI_GOW_KINDS
    assert report.outcome is Outcome.FAIL
    assert "answered invalid input" in report.found.message


def test_other_games_deal_as_before():
    """A game that is not pai gow gets no pai gow label, whatever kinds are claimed."""
    game = Game(get_ruleset("nj-poker-high-5"), "practice", KINDS)
    assert fuzz_labels(game, KINDS) == fuzz_labels(game)
    assert not set(fuzz_labels(game, KINDS)) & set(PAI_GOW_SITUATIONS)
