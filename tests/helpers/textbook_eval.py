"""Small evaluators for the tests of the CI gate, the fuzzer and the exhaustive checker.

Written here from the textbook rules of poker, independently of the reference engine:
:class:`TextbookHigh` plays five-card high (nj-poker-high-5) and three-card high
(nj-poker-high-3) and refuses bad input; :class:`WheelBlind` is the same code with two
classic mistakes: the ace-low straight (A-2-3-4-5, A-2-3) is not recognised, and input is
not validated.  :class:`TextbookPocket` answers the Mini-tex pocket wager; its key is a
category number, so the exhaustive checker can use it.
"""

from __future__ import annotations

from collections import Counter

from pokercert.harness.api import EvaluatorInfo, Rejected

RANKS = "23456789TJQKA"
SUITS = "shdc"
HIGH_5 = (
    "high_card",
    "one_pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
    "royal_flush",
)
# 13:69F-14.3(c): in three cards a straight beats a flush and trips beat a straight
HIGH_3 = (
    "high_card",
    "one_pair",
    "flush",
    "straight",
    "three_of_a_kind",
    "straight_flush",
    "royal_flush",
)
SIZES = {"nj-poker-high-5": 5, "nj-poker-high-3": 3}


class TextbookHigh:
    """Five- and three-card high poker: category, then ranks by group size, then rank."""

    info = EvaluatorInfo(vendor="tests", name="textbook-high", version="1")
    ace_low = True
    validates = True

    def __init__(self) -> None:
        self.ruleset = "nj-poker-high-5"

    def capabilities(self) -> dict[str, list[str]]:
        return {rid: ["classify", "compare", "reject"] for rid in SIZES}

    def configure(self, ruleset: str, readings: dict[str, str]) -> None:
        if ruleset not in SIZES:
            raise ValueError(f"not my ruleset: {ruleset}")
        self.ruleset = ruleset

    def _check(self, hands: list[list[str]]) -> None:
        if not self.validates:
            return
        seen: set[str] = set()
        for hand in hands:
            if len(hand) != SIZES[self.ruleset]:
                raise Rejected("wrong-count")
            for card in hand:
                if len(card) != 2 or card[0] not in RANKS or card[1] not in SUITS:
                    raise Rejected("joker-not-allowed" if card == "Xx" else "bad-card")
                if card in seen:
                    raise Rejected("duplicate-card")
                seen.add(card)

    def key(self, hand: list[str]) -> tuple[int, ...]:
        n = len(hand)
        order = HIGH_5 if n == 5 else HIGH_3
        ranks = sorted((RANKS.index(c[0]) + 2 for c in hand), reverse=True)
        counts = Counter(ranks)
        shape = sorted(counts.values(), reverse=True)
        flush = len({c[1] for c in hand}) == 1
        straight = len(counts) == n and ranks[0] - ranks[-1] == n - 1
        top = ranks[0]
        if self.ace_low and ranks == [14, *range(n, 1, -1)]:
            straight, top = True, n
        if straight and flush:
            name = "royal_flush" if top == 14 else "straight_flush"
        elif shape[0] == 4:
            name = "four_of_a_kind"
        elif shape[0] == 3 and n == 5 and shape[1] == 2:
            name = "full_house"
        elif flush and n == 5:
            name = "flush"
        elif straight:
            name = "straight"
        elif flush:
            name = "flush"
        elif shape[0] == 3:
            name = "three_of_a_kind"
        elif shape[:2] == [2, 2]:
            name = "two_pair"
        elif shape[0] == 2:
            name = "one_pair"
        else:
            name = "high_card"
        if straight:
            return (order.index(name), top)
        grouped = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
        return (order.index(name), *grouped)

    def classify(self, hand: list[str]) -> str:
        self._check([hand])
        order = HIGH_5 if len(hand) == 5 else HIGH_3
        return order[self.key(hand)[0]]

    def winners(self, hands: list[list[str]], board: list[str] | None = None) -> list[int]:
        self._check(hands)
        values = [self.key(h) for h in hands]
        return [i for i, v in enumerate(values) if v == max(values)]


class WheelBlind(TextbookHigh):
    """The classic bugs: no ace-low straight, and whatever it is given, it answers."""

    info = EvaluatorInfo(vendor="tests", name="wheel-blind", version="1")
    ace_low = False
    validates = False


class KeylessHigh(TextbookHigh):
    """The textbook evaluator without a ``key``: checked by comparisons only."""

    info = EvaluatorInfo(vendor="tests", name="keyless-high", version="1")
    key = None  # type: ignore[assignment]

    def classify(self, hand: list[str]) -> str:
        order = HIGH_5 if len(hand) == 5 else HIGH_3
        return order[TextbookHigh.key(self, hand)[0]]

    def winners(self, hands: list[list[str]], board: list[str] | None = None) -> list[int]:
        values = [TextbookHigh.key(self, h) for h in hands]
        return [i for i, v in enumerate(values) if v == max(values)]


class TextbookPocket:
    """The Mini-tex pocket wager, 13:69F-37.5(d): categories only, no tie-break."""

    info = EvaluatorInfo(vendor="tests", name="textbook-pocket", version="1")
    order = (
        "high_card",
        "straight",
        "one_pair",
        "straight_flush",
        "pair_of_aces",
        "royal_straight_flush",
    )
    ace_two = True

    def capabilities(self) -> dict[str, list[str]]:
        return {"nj-mini-tex-pocket": ["classify", "compare"]}

    def configure(self, ruleset: str, readings: dict[str, str]) -> None:
        pass

    def classify(self, hand: list[str]) -> str:
        (r1, s1), (r2, s2) = sorted(((RANKS.index(c[0]) + 2, c[1]) for c in hand), reverse=True)
        consecutive = r1 - r2 == 1 or (self.ace_two and (r1, r2) == (14, 2))
        if r1 == r2:
            return "pair_of_aces" if r1 == 14 else "one_pair"
        if consecutive and s1 == s2:
            return "royal_straight_flush" if (r1, r2) == (14, 13) else "straight_flush"
        return "straight" if consecutive else "high_card"

    def key(self, hand: list[str]) -> int:
        return self.order.index(self.classify(hand))

    def winners(self, hands: list[list[str]], board: list[str] | None = None) -> list[int]:
        keys = [self.key(h) for h in hands]
        return [i for i, k in enumerate(keys) if k == max(keys)]


class PocketNoAceTwo(TextbookPocket):
    """Reads A-2 as not consecutive (the literal reading): wrong under the practice one."""

    info = EvaluatorInfo(vendor="tests", name="pocket-no-ace-two", version="1")
    ace_two = False
