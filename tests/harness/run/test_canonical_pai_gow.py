"""Canonical forms of pai gow requests: a suit relabelling of a setting or a settlement
(and the cards' order within each hand) is the same request; moving a card from one
hand of a set hand to the other, or swapping the player's and the banker's hands, is
not (the answer may change)."""

from __future__ import annotations

from pokercert.harness.canonical_form import canonical_key

RS = "wa-pai-gow-poker"


def key(op, **inputs):
    return canonical_key(RS, op, inputs)


def test_a_relabelled_setting_is_the_same_request():
    assert key("setting", high="Kd Kc 9h 5s 3d", low="As Ah") == key(
        "setting", high="3h Ks 9d 5c Kh", low="Ad Ac"
    )


def test_a_setting_with_its_hands_swapped_is_another_request():
    assert key("setting", high="Kd Kc 9h 5s 3d", low="As Ah") != key(
        "setting", high="As Ah 9h 5s 3d", low="Kd Kc"
    )


def test_a_relabelled_settlement_is_the_same_request_and_the_seats_matter():
    a = key("settle", player=["Ah Ad 9c 5s 3h", "Ks Qc"], banker=["Kh Kd 9d 5c 3s", "Qs Jc"])
    b = key("settle", player=["As Ah 9c 5d 3h", "Qc Kd"], banker=["Ks Kh 9s 5c 3d", "Qd Jc"])
    swapped = key("settle", player=["Kh Kd 9d 5c 3s", "Qs Jc"], banker=["Ah Ad 9c 5s 3h", "Ks Qc"])
    assert a == b
    assert a != swapped
