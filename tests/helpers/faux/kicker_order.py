"""An evaluator that compares kickers in the order the cards were given (in process).

    py:tests.helpers.faux.kicker_order:KickerOrder

Built on the textbook evaluator (``tests/helpers/textbook_eval.py``, independent of the
reference): categories are right, but the cards that are not part of a pair, trips or
quads are compared in input order instead of from the highest down.  Given hands sorted
high to low (what ``pokercert exhaustive --sorted`` sends) it agrees with the reference on
every hand; given the cards in any other order it values equal hands apart (``A-9-4`` read
as ``9-A-4`` loses to ``K-Q-J``).
"""

from __future__ import annotations

from collections import Counter

from pokercert.harness.api import EvaluatorInfo
from tests.helpers.textbook_eval import RANKS, TextbookHigh


class KickerOrder(TextbookHigh):
    """TextbookHigh whose kickers keep the input order (groups still by size)."""

    info = EvaluatorInfo(vendor="tests", name="kicker-order", version="1")

    def key(self, hand: list[str]) -> tuple[int, ...]:
        textbook = TextbookHigh.key(self, hand)
        ranks = [RANKS.index(c[0]) + 2 for c in hand]
        counts = Counter(ranks)
        if len(textbook) == 2:
            return textbook  # a straight: valued by its top card alone
        # the bug: ranks ordered by group size only, so equal-sized groups (the kickers)
        # stay in input order
        grouped = sorted(dict.fromkeys(ranks), key=lambda r: counts[r], reverse=True)
        return (textbook[0], *grouped)
