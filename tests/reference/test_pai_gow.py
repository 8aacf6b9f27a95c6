"""The pai gow two-card hand, setting rule and settlement, from the house texts quoted in
reference/pai_gow.toml (hand-worked examples; none copied from the code's output)."""

from __future__ import annotations

import pytest

from pokercert.reference.cards import CardError
from pokercert.reference.interpretations import Profile
from pokercert.reference.pai_gow import PaiGowError, pai_gow, pai_gow_rules
from pokercert.reference.rulesets import RulesetError

GAMES = ("lc-pai-gow-poker", "wa-pai-gow-poker")
LITERAL = Profile("literal-setting", {"pai-gow-setting-equal": "literal"})


@pytest.mark.parametrize("rid", GAMES)
def test_two_card_hand_pair_then_cards_joker_an_ace(rid: str) -> None:
    g = pai_gow(rid)
    # "A-A the highest, 2-2 the lowest pair; A-K the highest no-pair, 3-2 the lowest"
    assert g.compare_two_card(["2c 2d", "Ah Kh"]) == [0]
    assert g.compare_two_card(["3c 2d", "4h 2h"]) == [1]
    # "the hand A-joker is a pair of aces": it beats K-K
    assert g.compare_two_card(["As Xx", "Kd Kc"]) == [0]
    # "joker-4 is the same as any other A-4 combination": a copy
    assert g.compare_two_card(["Xx 4c", "Ad 4d"]) == [0, 1]
    assert g.compare_two_card(["Xx 4c", "Ad 5d"]) == [1]


@pytest.mark.parametrize("rid", GAMES)
def test_setting_rule(rid: str) -> None:
    g, literal = pai_gow(rid), pai_gow(rid, LITERAL)
    assert g.legal("Kd Kc 9h 5s 3d", "Qs Jh")  # a pair behind no pair
    assert not g.legal("Kd Qc 9h 5s 3d", "As 2h")  # K-high behind A-2: foul by one rank
    assert g.legal("Ad Qc 9h 5s 3d", "Ks 2h")
    assert not g.legal("Ad Kc 9h 5s 3d", "Qs Qh")  # no pair behind a pair
    assert g.legal("2d 2c 3h 3s 4d", "As Ah")  # two pair outranks any two-card hand
    # equal on every card the two-card hand holds: the interpretation decides
    assert g.legal("7d 7c Kh Qs 3d", "7s 7h") and not literal.legal("7d 7c Kh Qs 3d", "7s 7h")
    assert g.legal("Ah Kd 9c 5s 3h", "As Kc") and not literal.legal("Ah Kd 9c 5s 3h", "As Kc")
    # the joker in the two-card hand is an ace: Xx-A is a pair of aces, above a pair of kings
    assert not g.legal("Kd Kc 9h 5s 3d", "As Xx")
    assert g.legal("As Xx 9h 5s 3d", "Kd Kc")  # (five-card: a pair of aces)


@pytest.mark.parametrize("rid", GAMES)
def test_settlement(rid: str) -> None:
    g = pai_gow(rid)
    banker = ["Kh Kd 9d 5c 3s", "Qs Jc"]
    assert g.settle(["Ah Ad 9c 5s 3h", "Ks Qc"], banker) == "player"  # both won
    assert g.settle(["Ah Ad 9c 5s 3h", "Ts 8c"], banker) == "push"  # one each
    assert g.settle(["Qh Qc 9c 5s 3h", "Ts 8c"], banker) == "banker"  # both lost
    # a copy goes to the banker: two-card Q-J against Q-J and a high hand won is a push
    assert g.settle(["Ah Ad 9c 5s 3h", "Qd Jh"], banker) == "push"
    # a foul player's setting loses whatever it holds
    assert g.settle(["Ah Kc 9c 5s 3h", "As Ad"], banker) == "banker"
    with pytest.raises(PaiGowError):
        g.settle(["Ah Ad 9c 5s 3h", "Ks Qc"], ["Kh Qd 9d 5c 3s", "Ac 2c"])
    with pytest.raises(CardError):
        g.settle(["Ah Ad 9c 5s 3h", "Ks Qc"], ["Kh Kd 9d 5c 3s", "Ah Jc"])


def test_only_pai_gow_rulesets_have_the_rules() -> None:
    assert pai_gow_rules("nj-poker-high-5") is None
    assert {r for r in GAMES if pai_gow_rules(r)} == set(GAMES)
    with pytest.raises(RulesetError, match="not a pai gow game"):
        pai_gow("nj-poker-high-5")
