"""The batches of an exhaustive pass: the reference's hands with the adapter's answers.

Hands stream in a fixed order from the checkpoint (``State.next``), one batch at a time:
the hands (card codes, as the reference makes them), their reference classes, and the
adapter's (categories, keys).  An ``exec:`` adapter gets its requests two batches ahead
(except in the compare modes, whose own requests must not overtake them); an in-process
evaluator is called directly (:class:`~.exhaustive_answers.InProcess`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from pokercert.harness.adapters.base import Adapter, AdapterAborted
from pokercert.harness.api import Hands
from pokercert.harness.explore.exhaustive_answers import (
    InProcess,
    batch_answers,
    batch_requests,
    each_answer,
    hand_classifies,
)
from pokercert.harness.explore.exhaustive_state import State
from pokercert.reference.classes import ReferenceClasses

COMPARE_MODES = ("compare", "compare-only")

Answers = tuple[list[Any], list[Any]]
Batch = tuple[int, int, Hands, Any, Answers]
# a hand with no answer from evaluate_many, hand by hand: (hand's text, message)
BrokenMany = Callable[[str, str], None]


class BatchSource:
    """The batches of one pass for one started, configured adapter.

    ``gone``: the harness gave up on the adapter while batches were held (their answers
    are scored as given: there is no adapter left to ask again)."""

    def __init__(
        self, adapter: Adapter, state: State, ref: ReferenceClasses, inproc: InProcess | None
    ) -> None:
        self.adapter, self.state, self.ref, self.inproc = adapter, state, ref, inproc
        self.remote = inproc is None
        self.seed = state.order_seed
        self.gone = False

    # ------------------------------------------------------------------ hands
    def hands(self, start: int, stop: int) -> Hands:
        """Hands ``start`` to ``stop - 1`` as the reference makes them, a new batch on every
        call (cards coded: :meth:`ReferenceClasses.code_rows` with numpy, else
        :meth:`ReferenceClasses.codes`)."""
        if self.ref.random_access:
            return Hands(None, self.ref.space.size, rows=self.ref.code_rows(start, stop, self.seed))
        return Hands(None, self.ref.space.size, self.ref.codes(start, stop, self.seed))

    def give(self, start: int, tokens: Hands, again: bool = False) -> Hands:
        """Token lists to hand to an in-process evaluator, which may change them.

        With random access: the reference's own lists the first time (a finding makes its
        hand again by position, :meth:`hand`), new ones ``again``; without: copies.
        """
        if self.ref.random_access:
            return self.hands(start, start + len(tokens)) if again else tokens
        return Hands(
            tokens.flat[:], tokens.size, tokens.codes[:] if tokens.codes is not None else None
        )

    def hand(self, start: int, tokens: Hands, i: int) -> list[str]:
        """Hand ``i`` of the batch as the reference made it, whatever an evaluator did to
        the lists it was given."""
        hand: list[str] = (
            self.hands(start + i, start + i + 1)[0]
            if self.ref.random_access and not self.remote
            else tokens[i]
        )
        return hand

    # ------------------------------------------------------------------ batches
    def batches(
        self, stop: int, size: int, agrees: Callable[[Any, Answers], bool], broken: BrokenMany
    ) -> Iterator[Batch]:
        """(start, stop, tokens, classes, (categories, keys)) batch by batch from
        ``state.next``; ``keys`` is empty outside key mode.  ``agrees`` says whether a
        batch's answers need no second look (a pipelined batch that does stops the
        sending); ``broken`` records an ``evaluate_many`` that failed a batch whose hands
        all have answers one by one."""
        mode = self.state.mode
        many = "evaluate_many" if mode == "key" else "classify_many"
        if self.remote and not self.adapter.supports(many):
            many = ""
        if self.remote and mode not in COMPARE_MODES:
            yield from self._pipelined(stop, size, many, agrees)
            return
        pos = self.state.next
        while pos < stop:
            end = min(pos + size, stop)
            tokens = self.hands(pos, end)
            classes = self.ref.class_index(pos, tokens)
            if mode == "compare-only":
                answers: Answers = ([], [])  # no categories to ask for
            elif self.remote and not many:  # a classify a hand, read the quick way
                answers = self.adapter.classify_each(hand_classifies(tokens)), []
            elif self.remote:
                answers = batch_answers(
                    many, self.adapter.run_batch(batch_requests(many, tokens)), end - pos
                )
            else:
                answers = self.evaluations(pos, tokens, broken)
            yield pos, end, tokens, classes, answers
            pos = end

    def _pipelined(
        self, stop: int, size: int, many: str, agrees: Callable[[Any, Answers], bool]
    ) -> Iterator[Batch]:
        """The batches of an ``exec:`` adapter, two in flight.

        A batch whose answers differ from the reference's is looked at with more requests
        (classify, keys of other class members), which must not be sent while later
        batches are in flight (their replies would be taken for late ones and lost): such
        a batch stops the sending, waits for the batches in flight, and is handed on with
        them once nothing is outstanding."""
        at = self.state.next
        pending: deque[tuple[int, int, Hands, Any]] = deque()
        held: list[Batch] = []

        def requests() -> Iterator[Sequence[Mapping[str, Any]]]:
            nonlocal at
            while at < stop and not held:
                end = min(at + size, stop)
                tokens = self.hands(at, end)
                pending.append((at, end, tokens, self.ref.class_index(at, tokens)))
                at = end
                yield batch_requests(many, tokens)

        while at < stop:
            try:
                for replies in self.adapter.run_batches(requests()):
                    start, end, tokens, classes = pending.popleft()
                    item = (start, end, tokens, classes, batch_answers(many, replies, end - start))
                    if held or not agrees(classes, item[4]):
                        held.append(item)
                    else:
                        yield item
            except AdapterAborted:
                # the adapter died for good on a batch in flight: the held batches still
                # count, looked at with the answers they have
                self.gone = True
                yield from held
                raise
            yield from held
            held.clear()

    def evaluations(self, start: int, tokens: Hands, broken: BrokenMany) -> Answers:
        """(categories, keys) of a batch from the in-process evaluator; a hand with no
        answer gets the exception in its place (keys: empty outside key mode)."""
        inproc = self.inproc
        assert inproc is not None
        if self.state.mode != "key":
            return each_answer(inproc.classify, self.give(start, tokens)), []
        if inproc.many is None:
            # hand by hand, each call gets a new list of the hand's cards (iterating a
            # Hands makes them), so the classify and the key calls can share one batch
            given = self.give(start, tokens)
            return inproc.one_by_one(given, given)
        categories, keys, problem, raised = inproc.many_answers(self.give(start, tokens))
        if not problem:
            return categories, keys
        found = inproc.one_by_one(self.give(start, tokens, True), self.give(start, tokens, True))
        # it may raise for a hand that has no answer, and for nothing else
        if not raised or not any(isinstance(x, Exception) for column in found for x in column):
            broken(
                " ".join(self.hand(start, tokens, 0)),
                f"{problem} (the batch of {len(tokens)} hands from position {start}, "
                "which hand by hand all have answers)",
            )
        return found
