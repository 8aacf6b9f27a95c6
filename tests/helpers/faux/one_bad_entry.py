"""A table-driven evaluator with one corrupted entry (in process).

    py:tests.helpers.faux.one_bad_entry:OneBadEntry

Built on the textbook evaluator (``tests/helpers/textbook_eval.py``, independent of the
reference), three-card high only: every hand is right but one, the card set
{7c, 5d, 2h} (any order), which it calls a pair, as a lookup table with one bad cell
would.  No curated vector holds that card set, so the corpus certifies it; the
exhaustive check, which sends every one of the 22,100 hands, cannot miss it.
"""

from __future__ import annotations

from pokercert.harness.api import EvaluatorInfo, Rejected
from tests.helpers.textbook_eval import HIGH_3, TextbookHigh

BAD = frozenset({"7c", "5d", "2h"})
RULESET = "nj-poker-high-3"


class OneBadEntry(TextbookHigh):
    """TextbookHigh on three-card high, with one corrupted table entry."""

    info = EvaluatorInfo(vendor="tests", name="one-bad-entry", version="1")

    def __init__(self) -> None:
        super().__init__()
        self.ruleset = RULESET

    def capabilities(self) -> dict[str, list[str]]:
        return {RULESET: ["classify", "compare", "reject"]}

    def key(self, hand: list[str]) -> tuple[int, ...]:
        if frozenset(hand) == BAD:
            return (HIGH_3.index("one_pair"), 7, 5)  # the corrupted cell
        return TextbookHigh.key(self, hand)

    def winners(self, hands: list[list[str]], board: list[str] | None = None) -> list[int]:
        if len(hands) < 2:  # a compare of one hand is no compare
            raise Rejected("wrong-count")
        return TextbookHigh.winners(self, hands, board)
