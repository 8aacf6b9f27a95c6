"""Checking the classes of an exhaustive pass by the evaluator's ``compare`` alone.

Without a key, each hand is set against a member of its own class that shares no card
with it (a tie), and the classes are put in the evaluator's own order by its compare
(the class's place in that order is its key): each class must sit strictly above the
one below it in the reference's order.  Hands whose class has no member disjoint from
them (all four aces with a king) and neighbouring classes with no disjoint pair cannot
be told apart in one deal; they are counted as unverifiable, never passed.

The order is a bottom-up merge sort from single classes, as a step-by-step merge would
make it (the same comparisons, so the same order even where the evaluator's answers and
the reference's order assumed for undecidable pairs do not make one consistent order),
asked in few batches: each merge asks the comparisons it is about to need ahead, the
merges of a level in one batch, and no pair of classes is asked twice.  The member pairs
sent, and each hand's partner, come from :mod:`.class_pairs`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import pairwise
from typing import Any

from pokercert.harness.adapters.base import ANSWERED, PairCompares
from pokercert.harness.api import Hands
from pokercert.harness.explore.class_pairs import ClassPairs, python_first_pair
from pokercert.harness.explore.exhaustive_answers import Failed, batch_texts
from pokercert.harness.explore.exhaustive_checker import Checker
from pokercert.reference import Card
from pokercert.reference.classes import cards, joker_count, mask

_PLACE = {(1,): -1, (0, 1): 0, (0,): 1}
# how far the order check is: (steps done, steps): the member pair table, each merge
# level, the neighbouring classes checked
Levels = Callable[[int, int], None]


class CompareChecker(Checker):
    """The compare strategy (``state.mode`` compare or compare-only)."""

    _pairs: ClassPairs | None = None

    def check_order(self, phase: Levels | None = None) -> None:
        """The classes in the evaluator's own order, by its ``compare`` alone."""
        # each class stands for itself by its first candidate member, as in the key path
        # when the candidates agree, so both paths write up the same hands
        for i, members in enumerate(self.ref.candidates):
            self.ref.rep[i] = members[0]
        if not self.state.order_checked:
            self._compare_order(len(self.ref.keys), phase)
        self.state.order_checked = True

    def _compare_order(self, n: int, phase: Levels | None) -> None:
        """Order the classes and check each neighbouring pair; ``phase`` hears (steps
        done, steps): the member pair table and the classes' members, each merge level,
        the neighbours."""
        levels = max(1, (n - 1).bit_length())
        steps = levels + 2

        def say(done: int) -> None:
            if phase:
                phase(done, steps)

        say(0)
        table = self._pair_table()
        # every natural hand grouped by class (the hands without a renamed member beside
        # them, and neighbours without a renamed pair, are searched there): made in the
        # first step rather than on a later step's or the first batch's clock
        self.ref.natural_members()
        self.ref.member_steps()
        if table is not None:
            table.natural_table()
        answers: dict[tuple[int, int], Any] = {}
        order = self._sorted_classes(n, answers, lambda level, _: say(1 + level))
        ranks = self._ranks(order, answers)
        for i, apart in enumerate(self._neighbours_apart(n), start=1):
            if not apart:
                self.state.unverifiable_orders += 1
                continue
            lo, hi = ranks[i - 1], ranks[i]
            if isinstance(lo, Exception) or isinstance(hi, Exception):
                continue
            if not lo < hi:
                self._order_finding(i - 1, i, lo, hi)
        say(steps)

    def _neighbours_apart(self, n: int) -> list[bool]:
        """Whether each pair of neighbouring classes (i - 1, i) can be dealt together
        (:meth:`ReferenceClasses.disjoint_pair`, the renamings tested for all at once)."""
        pairs = [(i - 1, i) for i in range(1, n)]
        if self._pairs is None:
            return [self.ref.disjoint_pair(a, b) is not None for a, b in pairs]
        apart = self._pairs.apart_by_renaming(pairs)
        return [
            ok or self.ref.natural_pair(a, b) is not None
            for (a, b), ok in zip(pairs, apart, strict=True)
        ]

    # ------------------------------------------------------------------ asking
    def _member_pairs(self, asks: Sequence[tuple[int, int]]) -> list[tuple[str, str] | None]:
        """The texts of the member pair sent for each (lower, upper) of classes."""
        if self._pairs is not None:
            return self._pairs.first_pairs(asks)
        out: list[tuple[str, str] | None] = []
        for a, b in asks:
            pair = python_first_pair(self.ref, a, b)
            out.append(None if pair is None else (self.text(pair[0]), self.text(pair[1])))
        return out

    def _compare_classes(
        self, asks: Sequence[tuple[int, int]], answers: dict[tuple[int, int], Any]
    ) -> list[Any]:
        """For each (a, b) of classes with a < b in the reference's order: -1 if the
        evaluator puts a below b, 0 a tie, 1 above; an exception for no usable answer; the
        reference's -1 where no members can be dealt together.  Pairs not in ``answers``
        are asked in one batch (and kept there)."""
        todo = list(dict.fromkeys(p for p in asks if p not in answers))
        lower: list[str] = []
        upper: list[str] = []
        where = []
        for ask, pair in zip(todo, self._member_pairs(todo), strict=True):
            answers[ask] = -1
            if pair is not None:
                lower.append(pair[0])
                upper.append(pair[1])
                where.append(ask)
        replies = self.adapter.run_batch(PairCompares(lower, upper)) if where else []
        for ask, reply in zip(where, replies, strict=True):
            winners = sorted(reply.data.get("winners") or ()) if reply.status == ANSWERED else None
            answers[ask] = _PLACE.get(
                tuple(winners or ()), Failed(f"{reply.status}: {reply.message}")
            )
        return [answers[p] for p in asks]

    def _sorted_classes(
        self, n: int, answers: dict[tuple[int, int], Any], phase: Levels | None
    ) -> list[int]:
        """Every class, ordered by the evaluator's compare (stable: ties keep the
        reference's order): a bottom-up merge sort from single classes."""
        runs = [[i] for i in range(n)]
        levels, level = max(1, (n - 1).bit_length()), 0
        while len(runs) > 1:
            if phase:
                phase(level, levels)
            merges = [_Merge(runs[k], runs[k + 1]) for k in range(0, len(runs) - 1, 2)]
            self._merge_all(merges, answers)
            odd = [runs[-1]] if len(runs) % 2 else []
            runs = [m.merged() for m in merges] + odd
            level += 1
        if phase:
            phase(levels, levels)
        return runs[0] if runs else []

    def _merge_all(self, merges: list[_Merge], answers: dict[tuple[int, int], Any]) -> None:
        """The merges of a level, in lockstep.  Each merge takes the steps of a plain
        merge, one comparison a step; the comparisons it is about to need are asked ahead
        (:meth:`_Merge.ahead`), all merges' in one batch, so that a merge whose steps go
        one way for long (the evaluator agreeing with the reference) takes about log2 of
        its length batches instead of one batch a step.  The answers are the same a step
        at a time would get: only the pairs a step needs are used."""
        active = merges
        while active:
            asks = [ask for m in active for ask in m.ahead()]
            self._compare_classes(asks, answers)
            for m in active:
                m.advance(answers)
            active = [m for m in active if not m.done]

    def _ranks(self, order: list[int], answers: dict[tuple[int, int], Any]) -> list[Any]:
        """Each class's place in the evaluator's order (ties share one); neighbours that
        got no usable answer are recorded, and the class above takes the exception."""
        asks = [(min(a, b), max(a, b)) for a, b in pairwise(order)]
        ranks: list[Any] = [0] * len(order)
        rank = 0
        for k, ((a, b), answer) in enumerate(
            zip(asks, self._compare_classes(asks, answers), strict=True)
        ):
            cls = order[k + 1]
            if isinstance(answer, Exception):
                self.record(
                    "error",
                    [self.text(self.ref.rep[a]), self.text(self.ref.rep[b])],
                    f"compare gave no usable answer for two class members: {answer}",
                    of_classes=True,
                )
                ranks[cls] = answer
                continue
            # the evaluator says order[k] < order[k + 1] unless it is a tie
            rank += answer != 0
            ranks[cls] = rank
        return ranks

    # ------------------------------------------------------------------ findings
    def _pairs_of(
        self, lower: int, upper: int
    ) -> Iterator[tuple[tuple[Card, ...], tuple[Card, ...]]]:
        """Members of two classes that can be dealt together, from their suit renamings
        (the key path's search order, so both paths write up the same pair)."""
        ref = self.ref
        for m_lo, low in ref.alternatives(lower)[:24]:
            for m_up, up in ref.alternatives(upper)[:24]:
                if not m_lo & m_up and ref.fits(up, joker_count(low)):
                    yield low, up

    def _order_finding(self, lower: int, upper: int, lo: Any, hi: Any) -> None:
        """Two neighbouring classes out of order, written up with the first member pair
        the evaluator's compare misorders."""
        ref = self.ref
        what = "the same place" if lo == hi else "places in the wrong order"
        message = (
            f"reference classes {lower} and {upper} ({ref.category[lower]} < "
            f"{ref.category[upper]}) get {what} in the evaluator's order: {lo!r} vs "
            f"{hi!r}"
        )
        hands = [self.text(ref.rep[upper]), self.text(ref.rep[lower])]
        found = None
        if self.reporting:
            pair = None
            for low, up in self._pairs_of(lower, upper):
                (reply,) = self.adapter.run_batch(
                    [{"op": "compare", "hands": [self.text(up), self.text(low)]}]
                )
                if not (reply.status == ANSWERED and reply.data.get("winners") == [0]):
                    pair = low, up
                    break
            pair = pair or ref.disjoint_pair(lower, upper)
            if pair is not None:
                low, up = pair
                found = self.found(
                    "compare", {"hands": [self.text(up), self.text(low)]}, None, message
                )
        self.record("order", hands, message, found)

    # ------------------------------------------------------------------ the hands
    def check_classes(self, start: int, tokens: Hands, classes: Any, keys: list[Any]) -> None:
        """Each hand against a member of its own class dealt beside it: a tie."""
        # the reference's own hands: in a compare mode an in-process evaluator is only
        # ever given new lists of their cards (classify), never the batch itself
        table = self._pair_table()
        if table is not None and tokens.rows is not None:
            members, found = table.members_beside(classes, tokens.rows)
            hands = tokens.rows
            apart = int(found.sum())
            if apart < len(found):  # hands with no member of their class apart
                hands, members = hands[found], members[found]
            requests = PairCompares.of_codes(hands, members)
        else:
            texts = batch_texts(tokens)
            listed = classes if isinstance(classes, list) else classes.tolist()
            others = [self._member_beside(t, c) for t, c in zip(texts, listed, strict=True)]
            partners = [o for o in others if o is not None]
            apart = len(partners)
            if apart < len(others):
                texts = [t for t, o in zip(texts, others, strict=True) if o is not None]
            requests = PairCompares(texts, partners)
        self.state.unverifiable_hands += len(classes) - apart
        if not apart:
            return
        # the ties are decided by the adapter (check_compare decides the same)
        for k, reply in self.adapter.compare_ties(requests).items():
            self.check_compare(dict(requests[k]), reply, [0, 1], "class")

    def _member_beside(self, hand: str, c: int) -> str | None:
        """A member of class ``c`` dealt beside the hand (its text as sent), hand by hand
        (:meth:`ReferenceClasses.disjoint_member`; without numpy)."""
        h = cards(hand.split(" "))
        m = mask(h)
        member = self.ref.disjoint_member(c, m, joker_count(h), skip=m)
        return None if member is None else self.text(member)

    def _pair_table(self) -> ClassPairs | None:
        """The renamings of every class (numpy), made once the representatives are set."""
        if self._pairs is None and self.ref.random_access:
            self._pairs = ClassPairs(self.ref, self.seed, self.ruleset.jokers)
        return self._pairs


class _Merge:
    """One merge of two runs of classes, stepped as answers arrive (stable: on a tie the
    left run's class first; no usable answer: the reference's order)."""

    def __init__(self, left: list[int], right: list[int]) -> None:
        self.left, self.right = left, right
        self.out: list[int] = []
        self.i = self.j = 0
        self.width = 2  # how far ahead the current direction is asked
        self.took_left = True

    @property
    def done(self) -> bool:
        return self.i >= len(self.left) or self.j >= len(self.right)

    def ahead(self) -> list[tuple[int, int]]:
        """The pairs (lower, upper class) the next steps need if the merge goes on taking
        from the side it took last (``width`` steps), or switches (two steps)."""
        i, j, left, right = self.i, self.j, self.left, self.right
        far_l = self.width if self.took_left else 2
        far_r = 2 if self.took_left else self.width
        pairs = [(left[a], right[j]) for a in range(i, min(i + far_l, len(left)))]
        pairs += [(left[i], right[b]) for b in range(j + 1, min(j + far_r, len(right)))]
        return [(min(a, b), max(a, b)) for a, b in pairs]

    def advance(self, answers: dict[tuple[int, int], Any]) -> None:
        """Take every step whose comparison is answered."""
        steps, took_left = 0, self.took_left
        while not self.done:
            x, y = self.left[self.i], self.right[self.j]
            answer = answers.get((min(x, y), max(x, y)))
            if answer is None:
                break
            below = -1 if isinstance(answer, Exception) else answer
            if x > y:  # the left one is the reference's upper
                below = -below
            took_left = below <= 0
            self.out.append(x if took_left else y)
            if took_left:
                self.i += 1
            else:
                self.j += 1
            steps += 1
        self.width = (
            min(self.width * 2, 4096) if took_left == self.took_left and steps >= self.width else 2
        )
        self.took_left = took_left

    def merged(self) -> list[int]:
        return self.out + self.left[self.i :] + self.right[self.j :]
