"""Seven-card evaluators for the best-five-of-seven exhaustive pass (in process).

    py:tests.helpers.faux.quads_kicker:TextbookSeven
    py:tests.helpers.faux.quads_kicker:QuadsKickerIgnored
    py:tests.helpers.faux.quads_kicker:KeylessSeven
    py:tests.helpers.faux.quads_kicker:StraightFlushFromAnyFive
    py:tests.helpers.faux.quads_kicker:ClassifyOnlySeven

:class:`TextbookSeven` values a player's seven cards (stud, or hold 'em's two hole cards
and five board cards) by their best five, written here from the textbook rules (the
best straight flush, quads with the best kicker, the best full house, flush, straight,
trips, two pair with the best odd card, ...), independently of the reference engine and
of its seven-card class table.  :class:`QuadsKickerIgnored` is the same code with one
classic mistake: four of a kind is valued by the rank of the four alone, so A-A-A-A-K and
A-A-A-A-2 tie.  In hold 'em that decides real pots (four of a kind on the board: the best
kicker wins); an exhaustive pass sees it as the quads classes merged.
:class:`StraightFlushFromAnyFive` makes the classic seven-card mistake of testing the flush
and the straight on all seven cards apart when it names the category: a flush plus a
straight made of other cards (As Ks Qs Js 9s with Th) is called a royal flush, though
its value is the flush's.
"""

from __future__ import annotations

from collections import Counter

from pokercert.harness.api import EvaluatorInfo
from tests.helpers.textbook_eval import HIGH_5, RANKS

GAMES = ("nj-holdem", "nj-seven-card-stud")
WHEEL = (5, 4, 3, 2, 14)


def _straight_top(ranks: set[int]) -> int | None:
    """The top card of the best five-card run in ``ranks`` (the wheel tops at 5)."""
    for top in range(14, 5, -1):
        if all(top - i in ranks for i in range(5)):
            return top
    return 5 if all(r in ranks for r in WHEEL) else None


class TextbookSeven:
    """The best five of five to seven cards, high poker (see the module docstring)."""

    info = EvaluatorInfo(vendor="tests", name="textbook-seven", version="1")
    quads_kicker = True

    def __init__(self) -> None:
        self.ruleset = GAMES[0]

    def capabilities(self) -> dict[str, list[str]]:
        return {game: ["classify"] for game in GAMES}

    def configure(self, ruleset: str, readings: dict[str, str]) -> None:
        if ruleset not in GAMES:
            raise ValueError(f"not my ruleset: {ruleset}")
        self.ruleset = ruleset

    def key(self, hand: list[str]) -> tuple[int, ...]:
        ranks = [RANKS.index(c[0]) + 2 for c in hand]
        suits = Counter(c[1] for c in hand)
        suit, most = suits.most_common(1)[0]
        if most >= 5:
            flush = sorted(
                (r for r, c in zip(ranks, hand, strict=True) if c[1] == suit), reverse=True
            )
            top = _straight_top(set(flush))
            if top == 14:
                return (HIGH_5.index("royal_flush"), 14)
            if top is not None:
                return (HIGH_5.index("straight_flush"), top)
        counts = Counter(ranks)
        # ranks by how many of them, then by rank: the groups first, best first
        groups = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
        first = groups[0]
        if counts[first] == 4:
            kicker = max(r for r in ranks if r != first)
            return (
                (HIGH_5.index("four_of_a_kind"), first, kicker)
                if self.quads_kicker
                else (HIGH_5.index("four_of_a_kind"), first)
            )
        if counts[first] == 3 and len(groups) > 1 and counts[groups[1]] >= 2:
            return (HIGH_5.index("full_house"), first, groups[1])
        if most >= 5:
            return (HIGH_5.index("flush"), *flush[:5])
        top = _straight_top(set(ranks))
        if top is not None:
            return (HIGH_5.index("straight"), top)
        if counts[first] == 3:
            kickers = sorted((r for r in ranks if r != first), reverse=True)[:2]
            return (HIGH_5.index("three_of_a_kind"), first, *kickers)
        if counts[first] == 2 and counts[groups[1]] == 2:
            low = groups[1]
            kicker = max(r for r in ranks if r not in (first, low))
            return (HIGH_5.index("two_pair"), first, low, kicker)
        if counts[first] == 2:
            kickers = sorted((r for r in ranks if r != first), reverse=True)[:3]
            return (HIGH_5.index("one_pair"), first, *kickers)
        return (HIGH_5.index("high_card"), *sorted(ranks, reverse=True)[:5])

    def evaluate(self, hand: list[str]) -> tuple[str, tuple[int, ...]]:
        key = self.key(hand)
        return HIGH_5[key[0]], key

    def classify(self, hand: list[str]) -> str:
        return HIGH_5[self.key(hand)[0]]

    def winners(self, hands: list[list[str]], board: list[str] | None = None) -> list[int]:
        values = [self.key(h + (board or [])) for h in hands]
        return [i for i, v in enumerate(values) if v == max(values)]


class QuadsKickerIgnored(TextbookSeven):
    """TextbookSeven whose four of a kind ignores its kicker (the bug)."""

    info = EvaluatorInfo(vendor="tests", name="quads-kicker-ignored", version="1")
    quads_kicker = False


class KeylessSeven(TextbookSeven):
    """TextbookSeven without its value (no key, no evaluate): only classify and compare,
    which a pass over every seven-card deal cannot check by (it is refused)."""

    info = EvaluatorInfo(vendor="tests", name="keyless-seven", version="1")
    key = None  # type: ignore[assignment]
    evaluate = None  # type: ignore[assignment]

    def capabilities(self) -> dict[str, list[str]]:
        return {game: ["classify", "compare"] for game in GAMES}

    def classify(self, hand: list[str]) -> str:
        return HIGH_5[TextbookSeven.key(self, hand)[0]]

    def winners(self, hands: list[list[str]], board: list[str] | None = None) -> list[int]:
        values = [TextbookSeven.key(self, h + (board or [])) for h in hands]
        return [i for i, v in enumerate(values) if v == max(values)]


class StraightFlushFromAnyFive(TextbookSeven):
    """TextbookSeven whose category (not its value) calls a flush and a straight a
    straight flush even when they are not the same five cards (the bug)."""

    info = EvaluatorInfo(vendor="tests", name="straight-flush-from-any-five", version="1")

    def classify(self, hand: list[str]) -> str:
        ranks = {RANKS.index(c[0]) + 2 for c in hand}
        top = _straight_top(ranks)
        if top is not None and Counter(c[1] for c in hand).most_common(1)[0][1] >= 5:
            return "royal_flush" if top == 14 else "straight_flush"
        return TextbookSeven.classify(self, hand)

    def evaluate(self, hand: list[str]) -> tuple[str, tuple[int, ...]]:
        return self.classify(hand), self.key(hand)


class ClassifyOnlySeven(KeylessSeven):
    """KeylessSeven claiming classify alone: a categories-only evaluator, which a pass
    over every seven-card deal cannot check either (it is refused)."""

    info = EvaluatorInfo(vendor="tests", name="classify-only-seven", version="1")

    def capabilities(self) -> dict[str, list[str]]:
        return {game: ["classify"] for game in GAMES}
