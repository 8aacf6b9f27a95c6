"""An in-process evaluator may change the card lists it is given (sort them, empty
them): hand by hand each call gets a new list, so the key of a hand, and the texts of the
compare requests after its classify, are of the hand the reference dealt (issue 28: the
batch is no longer made again for the key calls and the compare texts)."""

from __future__ import annotations

from typing import Any

import pytest

from pokercert.harness.adapters.inprocess import InProcessAdapter
from tests.harness.explore.test_exhaustive_compare_only import exhaustive_high_3
from tests.helpers.faux.compare_only import CompareOnly


class Spoils(CompareOnly):
    """The reference's answers; each list it is given is emptied after use."""

    def __init__(self, keyed: bool) -> None:
        super().__init__()
        self.keyed = keyed

    def capabilities(self) -> dict[str, list[str]]:
        return {rid: ["classify", "compare"] for rid in super().capabilities()}

    def classify(self, hand: list[str]) -> str:
        category = self.ev.category(hand)
        hand.clear()
        return category

    def __getattr__(self, name: str) -> Any:
        if name == "key" and self.keyed:
            return self._spoiled_key
        raise AttributeError(name)

    def _spoiled_key(self, hand: list[str]) -> Any:
        key = self._key(hand)
        hand.reverse()
        return key

    def winners(self, hands: list[list[str]], board: list[str] | None = None) -> list[int]:
        found = super().winners(hands, board)
        for hand in hands:
            hand.clear()
        return found


@pytest.mark.parametrize("keyed, mode", [(True, "key"), (False, "compare")])
def test_an_evaluator_emptying_its_lists_still_agrees(keyed, mode, tmp_path):
    adapter = InProcessAdapter(Spoils(keyed), "py:tests", "tests", "1")
    state = exhaustive_high_3(adapter, "py:tests", tmp_path, hands=(0, 6000))
    assert state.mode == mode and state.finished
    assert state.checked == 6000
    assert state.disagreeing == 0 and state.errors == 0
