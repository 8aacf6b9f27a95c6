"""What every strategy of an exhaustive pass shares: findings, categories, the batch loop.

:class:`Checker` runs the checks for one started, configured adapter over a range of
hands.  The hot path asks for the answers of a whole batch at once
(:mod:`.exhaustive_batches`) and compares them with the reference's as two lists; only a
batch that differs is looked at hand by hand.  Anything but the reference's category is
asked again through the adapter, which guards and scores it like any run.  How the
classes are checked is the strategy's: by the evaluator's key
(:mod:`.exhaustive_keyed`), by its compare (:mod:`.exhaustive_compare`), or not at all
(categories only: this class as it is).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from pokercert.harness.adapters.base import ANSWERED, ERROR, Adapter, Identity, Reply
from pokercert.harness.api import Hands
from pokercert.harness.explore.counterexample import (
    Found,
    found_vector,
    next_ids,
    placeholder_vector,
)
from pokercert.harness.explore.exhaustive_answers import InProcess
from pokercert.harness.explore.exhaustive_batches import Answers, BatchSource
from pokercert.harness.explore.exhaustive_state import Disagreement, State
from pokercert.harness.outcome import Outcome
from pokercert.harness.scoring import score
from pokercert.reference import Card, Profile, Ruleset
from pokercert.reference.classes import ReferenceClasses, shuffled, text

CHECKPOINT_S = 2.0
_COUNTERS = {
    "category": "category_disagreements",
    "class": "class_disagreements",
    "order": "order_disagreements",
    "error": "errors",
}


def _record_of(found: Found) -> dict[str, Any]:
    from pokercert.vectors.canonical import record

    return record(found.vector)


class Checker:
    """The checks of one pass: categories (unless compare-only), then the strategy's."""

    def __init__(
        self,
        adapter: Adapter,
        identity: Identity,
        ruleset: Ruleset,
        profile: Profile,
        state: State,
        ref: ReferenceClasses,
        report_limit: int,
    ) -> None:
        self.adapter = adapter
        self.identity = identity
        self.ruleset = ruleset
        self.profile = profile
        self.state = state
        self.ref = ref
        self.report_limit = report_limit
        direct = adapter.direct()
        self.inproc = InProcess(direct) if direct is not None else None
        self.remote = direct is None
        self.source = (
            self.inproc.source
            if self.inproc
            else "evaluate_many"
            if state.mode == "key"
            else "classify_many"
            if adapter.supports("classify_many")
            else "classify"
        )
        self.batches = BatchSource(adapter, state, ref, self.inproc)
        # the card order every hand is sent in (None: as enumerated, rank descending)
        self.seed = state.order_seed
        # whole deals of a game with a board (hold 'em): a finding's two deals are
        # written up as two players on one board
        self._one_board = (
            ref.best_of_dealt and ruleset.selection is not None and ruleset.selection.board > 0
        )
        # hands of the current batch already counted as errors: a hand is one error
        # however many of its requests (classify, key, compare) got no answer
        self._erred: set[str] = set()

    # ------------------------------------------------------------------ the strategy
    def check_order(self, phase: Callable[[int, int], None] | None = None) -> None:
        """Check the classes' order (nothing without a key or compare); ``phase``
        reports progress (done, total) of a long one."""
        self.state.order_checked = True

    def check_classes(self, start: int, tokens: Hands, classes: Any, keys: list[Any]) -> None:
        """Check each hand of a batch against its class (nothing without a key or
        compare)."""

    def agrees(self, classes: Any, answers: Answers) -> bool:
        """Whether a batch's answers are the reference's as they stand (no hand of it to
        look at again)."""
        return self.state.mode == "compare-only" or answers[0] == self.ref.categories_of(classes)

    # ------------------------------------------------------------------ findings
    def text(self, hand: Sequence[Card]) -> str:
        """A hand of the reference's (a class member) as it is sent: in the run's order."""
        return text(shuffled(hand, self.seed))

    def record(
        self,
        check: str,
        hands: list[str],
        message: str,
        vector: Found | None = None,
        *,
        of_classes: bool = False,
    ) -> None:
        """Count and (up to the report limit) keep a finding.  An error on a hand of the
        enumeration counts once per hand; ``of_classes``: an error on a class key or a
        pair of classes (``order_errors``)."""
        if check == "error" and not of_classes:
            if hands[0] in self._erred:
                return
            self._erred.add(hands[0])
        attr = "order_errors" if check == "error" and of_classes else _COUNTERS[check]
        setattr(self.state, attr, getattr(self.state, attr) + 1)
        if len(self.state.disagreements) >= self.report_limit:
            return
        self.state.disagreements.append(
            Disagreement(
                check,
                hands,
                message,
                vector=_record_of(vector) if vector else None,
                toml=vector.toml(self.state.adapter) if vector else "",
            )
        )

    @property
    def reporting(self) -> bool:
        """Whether findings are still written up (the report limit not reached)."""
        return len(self.state.disagreements) < self.report_limit

    def found(self, kind: str, inputs: dict[str, Any], actual: Any, message: str) -> Found | None:
        """A finding written up as a corpus vector (None past the report limit, or where
        no vector of the game shows it)."""
        if not self.reporting:
            return None
        if self.ref.best_of_dealt:
            dealt = self.dealt_inputs(kind, inputs)
            if dealt is None:
                return None
            kind, inputs = dealt
        taken = [d.vector["id"] for d in self.state.disagreements if d.vector]
        vid = next_ids(self.ruleset.id, 1, taken)[0]
        return found_vector(
            self.ruleset.id,
            kind,
            inputs,
            self.profile,
            actual=actual,
            message=message,
            vector_id=vid,
        )

    def dealt_inputs(self, kind: str, inputs: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        """A finding on whole deals as inputs of a vector of the game (key mode only)."""
        raise NotImplementedError("a pass over whole deals checks by key")

    def check_compare(
        self,
        request: dict[str, Any],
        reply: Reply,
        winners: list[int],
        check: str,
        *,
        of_classes: bool = False,
    ) -> None:
        """Score a compare reply against the winners the reference gives."""
        if reply.status == ANSWERED and sorted(reply.data.get("winners", ())) == winners:
            return
        expect = {"winners": winners}
        inputs = {"hands": request["hands"]}
        vector = placeholder_vector(self.ruleset.id, "compare", inputs, expect)
        outcome, actual, message = score(vector, expect, reply, self.ruleset)
        if outcome is Outcome.PASS:  # pragma: no cover
            return
        found = self.found("compare", inputs, actual, message)
        self.record(
            check if outcome is Outcome.FAIL else "error",
            list(request["hands"]),
            f"{outcome}: {message}",
            found,
            of_classes=of_classes,
        )

    # ------------------------------------------------------------------ categories
    def _categories(self, start: int, tokens: Hands, classes: Any, got: list[Any]) -> None:
        want = self.ref.categories_of(classes)
        if got == want:
            return
        todo = [i for i, (g, w) in enumerate(zip(got, want, strict=True)) if g != w]
        texts = [" ".join(self.batches.hand(start, tokens, i)) for i in todo]
        if self.batches.gone:  # no adapter to ask again: the answers given are scored
            replies = [
                Reply(ANSWERED, {"category": got[i]})
                if isinstance(got[i], str)
                else got[i]
                if isinstance(got[i], Reply)
                else Reply(ERROR, message=str(got[i]))
                for i in todo
            ]
        else:
            replies = self.adapter.run_batch([{"op": "classify", "hand": t} for t in texts])
        for i, t, reply in zip(todo, texts, replies, strict=True):
            self._category(t, got[i], want[i], reply)

    def _category(self, hand: str, fast: Any, want: str, reply: Reply) -> None:
        """One hand whose hot-path category was not the reference's, asked again."""
        if reply.status == ANSWERED and reply.data.get("category") == want:
            # asked again, guarded, the adapter classifies the hand right
            said = (
                f"raised {fast}"
                if isinstance(fast, Exception)
                else f"gave no answer ({fast.status}: {fast.message})"
                if isinstance(fast, Reply)
                else f"answered {fast!r}"
            )
            self.record(
                "error",
                [hand],
                f"{self.source} {said} for this hand; asked again "
                f"with classify it answers {want!r}",
            )
            return
        expect = {"category": want}
        vector = placeholder_vector(self.ruleset.id, "classify", {"hand": hand}, expect)
        outcome, actual, message = score(vector, expect, reply, self.ruleset)
        check = "category" if outcome is Outcome.FAIL else "error"
        found = self.found("classify", {"hand": hand}, actual, message)
        self.record(check, [hand], f"{outcome}: {message}", found)

    # ------------------------------------------------------------------ the loop
    def run_range(
        self,
        stop: int,
        batch: int | None = None,
        progress: Callable[[int], None] | None = None,
        checkpoint: Callable[[], None] | None = None,
    ) -> None:
        """Check hands ``state.next`` to ``stop - 1`` in batches of ``batch`` hands
        (default: the adapter's :attr:`~.Adapter.hands_per_batch`); ``progress`` gets
        the next hand's position after each batch, ``checkpoint`` is called every few
        seconds."""
        st = self.state
        batch = batch or self.adapter.hands_per_batch
        last_save = time.monotonic()

        def broken(hand: str, message: str) -> None:
            self.record("error", [hand], message)

        for start, end, tokens, classes, (categories, keys) in self.batches.batches(
            stop, batch, self.agrees, broken
        ):
            self._erred.clear()
            if st.mode != "compare-only":
                self._categories(start, tokens, classes, categories)
            self.check_classes(start, tokens, classes, keys)
            st.checked += end - start
            st.next = end
            if progress:
                progress(st.next)
            if checkpoint and time.monotonic() - last_save >= CHECKPOINT_S:
                checkpoint()
                last_save = time.monotonic()
