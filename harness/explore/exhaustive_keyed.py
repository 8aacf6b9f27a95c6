"""Checking the classes of an exhaustive pass by the evaluator's own key.

With a key (an in-process ``key``, ``evaluate`` or ``evaluate_many``, or the protocol's
``evaluate_many``; larger is better, equal keys tie), every hand's key must equal its
reference class's key (the majority over a few members) and the classes' keys must
strictly increase from class to class.  A pass over whole deals (best five of seven) is
always checked this way; its findings are written up as deals of the game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any

from pokercert.harness.api import Hands
from pokercert.harness.explore.exhaustive_answers import (
    Failed,
    batch_answers,
    batch_requests,
    norm_key,
)
from pokercert.harness.explore.exhaustive_batches import Answers
from pokercert.harness.explore.exhaustive_checker import Checker
from pokercert.reference import DECK, Card
from pokercert.reference.classes import cards, joker_count, mask, shuffled, text

# the classes' members asked for their keys in one go (a batch of the pass's size): the
# progress of the class keys phase moves between them
CLASS_KEYS_AT_ONCE = 4096


class KeyedChecker(Checker):
    """The key strategy (``state.mode == "key"``)."""

    class_keys: list[Any]
    _class_keys_of: Callable[[Any], list[Any]] | None = None

    # ------------------------------------------------------------------ keys
    def _key(self, hand: Sequence[Card]) -> Any:
        (key,) = self.keys([hand])
        if isinstance(key, Exception):
            raise key
        return key

    def _raw_keys(self, tokens: Sequence[list[str]]) -> list[Any]:
        if self.inproc is not None:
            return self.inproc.keys(tokens)
        size = len(tokens[0]) if tokens else 0
        hands = Hands([c for t in tokens for c in t], size) if size else Hands([], 1)
        return batch_answers(
            "evaluate_many",
            self.adapter.run_batch(batch_requests("evaluate_many", hands)),
            len(tokens),
        )[1]

    def keys(self, hands: Sequence[Sequence[Card]]) -> list[Any]:
        """Normalised adapter keys of some hands (exceptions in place of bad ones)."""
        out: list[Any] = []
        for k in self._raw_keys([[str(c) for c in shuffled(h, self.seed)] for h in hands]):
            try:
                out.append(k if isinstance(k, Exception) else norm_key(k))
            except TypeError as exc:
                out.append(exc)
        return out

    def _class_keys(self, phase: Callable[[int, int], None] | None = None) -> list[Any]:
        """The adapter's key of every class: the majority over its candidate members
        (asked :data:`CLASS_KEYS_AT_ONCE` at a time; ``phase`` hears (members asked,
        members) before each and at the end)."""
        candidates = self.ref.candidates
        hands = [h for members in candidates for h in members]
        every: list[Any] = []
        for at in range(0, len(hands), CLASS_KEYS_AT_ONCE):
            if phase:
                phase(at, len(hands))
            every += self.keys(hands[at : at + CLASS_KEYS_AT_ONCE])
        if phase:
            phase(len(hands), len(hands))
        out, at = [], 0
        for i, members in enumerate(candidates):
            keys = every[at : at + len(members)]
            at += len(members)
            usable = [k for k in keys if not isinstance(k, Exception)]
            if not usable:
                out.append(keys[0])
                continue
            best = max(usable, key=lambda k: (usable.count(k), -usable.index(k)))
            self.ref.rep[i] = members[keys.index(best)]
            out.append(best)
        return out

    # ------------------------------------------------------------------ the order
    def check_order(
        self, phase: Callable[[int, int], None] | None = None, class_keys: list[Any] | None = None
    ) -> None:
        """The classes' keys, each strictly above the one below; ``phase`` hears how many
        of the classes' members the adapter has given keys for; ``class_keys``: the ones
        this adapter gave the classes before (a Dask worker's earlier range), not asked for
        again."""
        self.class_keys = self._class_keys(phase) if class_keys is None else class_keys
        if not self.state.order_checked:
            for i, k in enumerate(self.class_keys):
                if isinstance(k, Exception):
                    self.record(
                        "error",
                        [self.text(self.ref.rep[i])],
                        f"key() raised or returned garbage on a class representative: {k}",
                        of_classes=True,
                    )
            for i in range(1, len(self.class_keys)):
                lo, hi = self.class_keys[i - 1], self.class_keys[i]
                if isinstance(lo, Exception) or isinstance(hi, Exception):
                    continue
                if not lo < hi:
                    self._order_finding(i - 1, i, lo, hi)
        self._class_keys_of = self.ref.lookup(self.class_keys)  # whole batches at once
        self.state.order_checked = True

    def _order_finding(self, lower: int, upper: int, lo: Any, hi: Any) -> None:
        ref = self.ref
        what = "the same key" if lo == hi else "keys in the wrong order"
        message = (
            f"reference classes {lower} and {upper} ({ref.category[lower]} < "
            f"{ref.category[upper]}) get {what}: {lo!r} vs {hi!r}"
        )
        hands = [self.text(ref.rep[upper]), self.text(ref.rep[lower])]
        found = None
        pair = self._misordered_pair(lower, upper)
        if pair is None and self._one_board:
            # hold 'em: two players' deals share the board, so classes whose members all
            # share cards (four deuces with a three or a four) still meet in one pot
            pair = ref.rep[lower], ref.rep[upper]
        if pair is not None and self.reporting:
            low, up = pair
            found = self.found("compare", {"hands": [self.text(up), self.text(low)]}, None, message)
        self.record("order", hands, message, found)

    def _misordered_pair(
        self, lower: int, upper: int
    ) -> tuple[tuple[Card, ...], tuple[Card, ...]] | None:
        """A member of each class, dealt together, that the adapter's keys do not put in
        the reference's order (so the vector written from them fails it), if one of the
        suit renamings shows it; else any disjoint pair."""
        ref = self.ref
        if not self.reporting:
            return None
        for m_lo, low in ref.alternatives(lower)[:24]:
            for m_up, up in ref.alternatives(upper)[:24]:
                if m_lo & m_up or not ref.fits(up, joker_count(low)):
                    continue
                k_lo, k_up = self.keys([low, up])
                if (
                    not isinstance(k_lo, Exception)
                    and not isinstance(k_up, Exception)
                    and not k_lo < k_up
                ):
                    return low, up
        return ref.disjoint_pair(lower, upper)

    # ------------------------------------------------------------------ the hands
    def agrees(self, classes: Any, answers: Answers) -> bool:
        if not super().agrees(classes, answers):
            return False
        return bool(answers[1] == self._want(classes))

    def _want(self, classes: Any) -> list[Any]:
        if self._class_keys_of is not None:
            return self._class_keys_of(classes)
        return [self.class_keys[c] for c in classes]

    def check_classes(self, start: int, tokens: Hands, classes: Any, keys: list[Any]) -> None:
        want = self._want(classes)
        if keys == want:
            return
        for i, (k, w) in enumerate(zip(keys, want, strict=True)):
            if (k == w) is True:  # the common case, without normalising
                continue
            if not isinstance(k, Exception):
                try:
                    k = norm_key(k)
                except TypeError as exc:
                    k = exc
                if k == w:
                    continue
            hand = self.batches.hand(start, tokens, i)
            if k is None:
                k = Failed("no key: the hand got no answer")
            if isinstance(k, Exception):
                self.record("error", [" ".join(hand)], f"key() raised or returned garbage: {k}")
                continue
            if isinstance(w, Exception):
                continue  # reported once, on the representative
            self._split_finding(cards(hand), int(classes[i]), k)

    def _split_finding(self, hand: tuple[Card, ...], c: int, k: Any) -> None:
        ref = self.ref
        message = (
            f"{text(hand)} and {self.text(ref.rep[c])} are equal for the reference "
            f"({ref.category[c]}), but their keys differ: {k!r} vs "
            f"{self.class_keys[c]!r}"
        )
        found = None
        if self.reporting:
            found = self._other_member(hand, c, k, message)
            if found is None and self._one_board:
                found = self.found(
                    "compare", {"hands": [text(hand), self.text(ref.rep[c])]}, None, message
                )
        self.record("class", [text(hand), self.text(ref.rep[c])], message, found)

    def _other_member(self, hand: tuple[Card, ...], c: int, k: Any, message: str) -> Any:
        """A vector setting the hand against a member of its class, dealt beside it, whose
        key differs from the hand's (None if no renaming shows one)."""
        m = mask(hand)
        for m2, other in self.ref.alternatives(c):
            if m2 & m or not self.ref.fits(other, joker_count(hand)):
                continue
            try:
                if self._key(other) != k:
                    inputs = {"hands": [text(hand), self.text(other)]}
                    return self.found("compare", inputs, None, message)
            except Exception:
                continue
        return None

    # ------------------------------------------------------------------ whole deals
    def dealt_inputs(self, kind: str, inputs: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        """A finding on whole deals (best five of seven) as inputs of a corpus vector of
        the game: a deal misclassified becomes a ``best_hand`` request (the hole cards,
        and the board where the game deals one); two deals valued apart from the
        reference become a ``compare`` of the two players (stud: their seven cards; hold
        'em: their hole cards on one board, :meth:`_on_one_board`).  None where no such
        deal is found (the finding keeps its hands)."""
        sel = self.ruleset.selection
        assert sel is not None  # a pass over dealt hands has a selection rule
        if kind == "classify":
            deal = inputs["hand"].split()
            hole, board = deal[: sel.hole], deal[sel.hole :]
            return "best_hand", {
                "hole": " ".join(hole),
                **({"board": " ".join(board)} if sel.board else {}),
            }
        first, second = (cards(h.split()) for h in inputs["hands"])
        if not sel.board:
            return "compare", {"hands": [text(first), text(second)]}
        found = self._on_one_board(first, second)
        if found is None:
            return None
        hole_a, hole_b, board = found
        return "compare", {"hands": [text(hole_a), text(hole_b)], "board": text(board)}

    def _on_one_board(
        self, first: tuple[Card, ...], second: tuple[Card, ...]
    ) -> tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]] | None:
        """Two players' hole cards and one board such that each player's seven cards are
        in the reference class of ``first`` and of ``second`` (two deals that may share
        cards: only their classes matter), chosen where the evaluator's keys put them in
        another order than the reference's if such a pair is found: the board is five of
        one deal's cards, the other player's hole cards any two of the rest.  None if the
        classes cannot meet on one board."""
        import numpy as np

        ref, sel = self.ref, self.ruleset.selection
        assert sel is not None
        code = {c: i for i, c in enumerate(DECK)}
        want = [
            int(c)
            for c in ref.class_of_rows(
                np.array([sorted(code[c] for c in first), sorted(code[c] for c in second)])
            )
        ]
        ours = (want[0] > want[1]) - (want[0] < want[1])
        fallback = None
        for mine, other, swap in ((first, want[1], False), (second, want[0], True)):
            for board in combinations(sorted(mine, key=code.__getitem__), sel.board):
                hole = tuple(c for c in mine if c not in board)
                rest = [code[c] for c in DECK if c not in mine]
                holes = np.array(list(combinations(rest, sel.hole)), dtype=np.uint8)
                rows = np.sort(
                    np.hstack(
                        [
                            holes,
                            np.tile(
                                np.array([code[c] for c in board], dtype=np.uint8), (len(holes), 1)
                            ),
                        ]
                    ),
                    axis=1,
                )
                hits = np.flatnonzero(ref.class_of_rows(rows) == other)[:16]
                for h in hits.tolist():
                    theirs = tuple(DECK[int(i)] for i in holes[h])
                    pair = (theirs, hole, board) if swap else (hole, theirs, board)
                    fallback = fallback or pair
                    keys = self.keys([pair[0] + board, pair[1] + board])
                    if any(isinstance(k, Exception) for k in keys):
                        continue
                    if ours != (keys[0] > keys[1]) - (keys[0] < keys[1]):
                        return pair
        return fallback
