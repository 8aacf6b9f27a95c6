"""What every adapter gives the runner, whatever is behind it.

An adapter turns *requests* (plain dicts, exactly the request objects of the subprocess
protocol without their ids: ``{"op": "classify", "hand": ["As", ...]}``) into
:class:`Reply` objects.  The runner never sees how: a Python object in this process
(:mod:`.inprocess`) or a child process speaking JSON Lines (:mod:`.process`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from operator import attrgetter, itemgetter
from types import MappingProxyType
from typing import Any, NamedTuple, Self, overload

from pokercert.harness.adapters.trace import Observed
from pokercert.harness.api import OPERATIONS, FastMethods
from pokercert.harness.protocol import check_many, hand_answer
from pokercert.reference.classes import row_texts
from pokercert.reference.errors import PokercertError

_EMPTY: Mapping[str, Any] = MappingProxyType({})

# what happened to one request
ANSWERED = "answered"  # data holds the answer fields (category / winners / cards)
REJECTED = "rejected"  # data["rejected"] holds the reason code, or None
ERROR = "error"  # the adapter raised, or answered malformed
TIMEOUT = "timeout"  # no answer within the per-request timeout
CRASH = "crash"  # the evaluator process died while this request was outstanding
STATUSES = (ANSWERED, REJECTED, ERROR, TIMEOUT, CRASH)


class Reply(NamedTuple):
    """The adapter's reply to one request, or what the harness saw instead of one.

    (A named tuple rather than a dataclass: one is made per hand, hundreds of
    thousands a second on the exhaustive path.)
    """

    status: str
    data: Mapping[str, Any] = _EMPTY
    message: str = ""
    stderr: str = ""  # excerpt of the child's stderr around this request
    attachment: str = ""  # file name (under attachments/) of the whole stderr capture
    duration_s: float = 0.0


class HandRequests(Sequence[Mapping[str, Any]]):
    """A batch of requests of one operation, one a hand (or a pair of hands), held as
    columns of hands: lists of hand texts, or numpy arrays (hands, cards) of positions in
    :data:`~pokercert.reference.classes.CODED_CARDS`, each row in the order its cards are
    sent (:meth:`of_codes`; their texts are made only if read).

    The exhaustive pass sends one such request a hand; held this way the batch costs no
    dict a hand, and an adapter that knows the type reads the texts (the in-process
    loop) or the codes (the ``exec:`` line) directly.  Any other reader gets the
    requests as plain dicts, made when read.
    """

    __slots__ = ("_texts", "codes")

    def __init__(self, *columns: list[str]) -> None:
        if len({len(c) for c in columns}) > 1:
            raise ValueError(f"columns of hands of {[len(c) for c in columns]} hands")
        self._texts: list[list[str] | None] = list(columns)
        self.codes: tuple[Any, ...] | None = None

    @classmethod
    def of_codes(cls, *columns: Any) -> Self:
        """The batch of the hands ``columns[j][k]`` (arrays of card codes, as above)."""
        if len({c.shape for c in columns}) > 1:
            raise ValueError(f"columns of hands of shapes {[c.shape for c in columns]}")
        batch = cls.__new__(cls)
        batch._texts = [None] * len(columns)
        batch.codes = tuple(columns)
        return batch

    def column(self, j: int) -> list[str]:
        """Column ``j``'s hands, as text."""
        texts = self._texts[j]
        if texts is None:
            assert self.codes is not None
            texts = self._texts[j] = row_texts(self.codes[j])
        return texts

    def __len__(self) -> int:
        return len(self.codes[0]) if self.codes is not None else len(self.column(0))

    @overload
    def __getitem__(self, k: int) -> Mapping[str, Any]: ...

    @overload
    def __getitem__(self, k: slice) -> Sequence[Mapping[str, Any]]: ...

    def __getitem__(self, k: int | slice) -> Mapping[str, Any] | Sequence[Mapping[str, Any]]:
        if isinstance(k, slice):
            if self.codes is not None:
                return self.of_codes(*(c[k] for c in self.codes))
            part = self.__new__(type(self))
            part._texts, part.codes = [self.column(j)[k] for j in range(len(self._texts))], None
            return part
        return self.request(*(self.column(j)[k] for j in range(len(self._texts))))

    def __iter__(self) -> Iterator[Mapping[str, Any]]:
        request = self.request
        for hands in zip(*(self.column(j) for j in range(len(self._texts))), strict=True):
            yield request(*hands)

    @staticmethod
    def request(*hands: str) -> Mapping[str, Any]:
        """The request (a plain dict) of one hand's texts."""
        raise NotImplementedError


class PairCompares(HandRequests):
    """A batch of ``compare`` requests of two hands each, without a board: request ``k``
    is ``{"op": "compare", "hands": [first[k], second[k]]}``."""

    __slots__ = ()

    def __init__(self, first: list[str], second: list[str]) -> None:
        if len(first) != len(second):
            raise ValueError(f"{len(first)} first hands but {len(second)} second hands")
        super().__init__(first, second)

    @property
    def first(self) -> list[str]:
        """The first hand of each request, as text."""
        return self.column(0)

    @property
    def second(self) -> list[str]:
        """The second hand of each request, as text."""
        return self.column(1)

    @staticmethod
    def request(*hands: str) -> Mapping[str, Any]:
        return {"op": "compare", "hands": list(hands)}


class Classifies(HandRequests):
    """A batch of ``classify`` requests: request ``k`` is ``{"op": "classify", "hand":
    hands[k]}``."""

    __slots__ = ()

    def __init__(self, hands: list[str]) -> None:
        super().__init__(hands)

    @property
    def hands(self) -> list[str]:
        """Each request's hand, as text."""
        return self.column(0)

    @staticmethod
    def request(*hands: str) -> Mapping[str, Any]:
        (hand,) = hands
        return {"op": "classify", "hand": hand}


_STR, _INT = {str}, {int}
_ANSWERED, _LIST = {ANSWERED}, {list}
_TIE, _TIE_TUPLES = ([0, 1], [1, 0]), {(0, 1), (1, 0)}
_status, _data, _winners = attrgetter("status"), attrgetter("data"), itemgetter("winners")


def categories_answered(replies: Sequence[Reply]) -> list[Any]:
    """The category of each ``classify`` reply (as the adapter gave it), or the reply
    itself in its place where the request was not answered."""
    return [r.data.get("category") if r.status == ANSWERED else r for r in replies]


def not_tied(replies: Sequence[Reply]) -> dict[int, Reply]:
    """The replies, by position, that are not an answered tie of two hands (``winners``
    [0, 1] or [1, 0], of plain ints as the adapters' checks leave them).  The common case,
    every reply a tie, is told for the whole batch in a few loops in C."""
    try:
        if set(map(_status, replies)) == _ANSWERED:
            winners = list(map(_winners, map(_data, replies)))
            if set(map(type, winners)) == _LIST and set(map(tuple, winners)) <= _TIE_TUPLES:
                return {}
    except (KeyError, TypeError):
        pass
    return {
        k: reply
        for k, reply in enumerate(replies)
        if not (reply.status == ANSWERED and reply.data.get("winners") in _TIE)
    }


def many_reply(
    op: str, item: Mapping[str, Any], count: int, duration: float, bad: Callable[[str], Reply]
) -> Reply:
    """The :class:`Reply` to a ``classify_many`` / ``evaluate_many`` request for ``count``
    hands, from the adapter's reply item.

    Answered: ``data["categories"]`` holds one entry per hand, its category name or, for
    a hand without one, the :class:`Reply` saying why (refused, error); with
    ``evaluate_many``, ``data["keys"]`` one key per hand (None where there is no
    category).  An item of the wrong shape, or an ``error`` item, is ``bad(problem)``.
    """
    problem = check_many(op, item, count)
    if problem is None and "error" in item:
        problem = f"the adapter reported an error: {item['error']}"[:500]
    if problem:
        return bad(problem)
    categories = item["categories"]
    keyed = op == "evaluate_many"
    keys: Sequence[Any] = item["keys"] if keyed else ()  # read only when keyed
    if set(map(type, categories)) <= _STR and (
        not keyed or set(map(type, keys)) <= _INT
    ):  # the common case (the types checked in C: a generator per hand cost more)
        data = {"categories": categories, "keys": keys} if keyed else {"categories": categories}
        return Reply(ANSWERED, data, duration_s=duration)
    out_categories: list[Any] = []
    out_keys: list[Any] = []
    for i, entry in enumerate(categories):
        status, answer, message = hand_answer(entry, keys[i] if keyed else None, keyed)
        if status == ANSWERED:
            assert answer is not None
            out_categories.append(answer["category"])
            out_keys.append(answer.get("key"))
        else:
            out_categories.append(
                Reply(status, answer or _EMPTY, message, duration_s=duration)
                if status == REJECTED
                else bad(f"hand {i}: {message}")
            )
            out_keys.append(None)
    data = (
        {"categories": out_categories, "keys": out_keys}
        if keyed
        else {"categories": out_categories}
    )
    return Reply(ANSWERED, data, duration_s=duration)


def one_hand(reply: Reply) -> tuple[Any, Any]:
    """(category, key) of the one hand of a many-hands reply: a category name and key,
    or the :class:`Reply` saying why there is none in place of the category."""
    if reply.status != ANSWERED:
        return reply, None
    categories = reply.data["categories"]
    keys = reply.data.get("keys") or [None]
    return categories[0], keys[0]


@dataclass(frozen=True)
class Identity:
    """Who answered: declared by the adapter at the handshake."""

    evaluator: Mapping[str, Any]  # vendor / name / version / build
    adapter: Mapping[str, Any]  # name / version
    capabilities: Mapping[str, Sequence[str]]
    protocol: int | None = None  # subprocess adapters only
    manifest: tuple[str, ...] = ()  # files the hello's "identity" lists (absolute)
    # protocol features both sides speak (PROTOCOL.md section 6); in-process evaluators
    # name theirs in an optional ``protocol_features`` mapping, as a hello reply would
    features: frozenset[str] = frozenset()

    def claims(self, ruleset: str, kind: str) -> bool:
        return kind in self.capabilities.get(ruleset, ())


class AdapterError(PokercertError):
    """The adapter cannot be used at all (failed to start, failed the handshake, ...)."""


class AdapterAborted(AdapterError):
    """The harness gave up on the adapter mid-run (restart budget or run time exhausted)."""


class Adapter:
    """Base class of the two adapter kinds; use as a context manager."""

    spec: str = ""
    # how many hands a batch of an exhaustive pass holds unless asked otherwise: over
    # exec: one timeout covers a whole batch's reply, so a slow adapter must answer a
    # batch in it (4096 hands in 10 s: 410 hands a second)
    hands_per_batch: int = 4096

    def start(self) -> Identity:
        """Load or launch the evaluator and return its declared identity."""
        raise NotImplementedError

    def configure(self, ruleset: str, readings: Mapping[str, str]) -> None:
        """Select the ruleset and readings; raise :class:`AdapterError` if refused."""
        raise NotImplementedError

    def run_batch(self, requests: Sequence[Mapping[str, Any]]) -> list[Reply]:
        """One :class:`Reply` per request, in order; never raises for a bad evaluator."""
        raise NotImplementedError

    def supports(self, op: str) -> bool:
        """Whether :meth:`run_batch` takes requests of ``op``: the protocol's operations,
        and ``evaluate`` (``{"op": "evaluate", "hand": ...}`` -> ``category`` and ``key``:
        the evaluator's own value of a hand) where the evaluator exposes its order, and
        ``best_hand_half`` (best_hand requests that name a ``half``) where the adapter
        speaks it."""
        return op in OPERATIONS

    def direct(self) -> FastMethods | None:
        """The evaluator's own methods (:func:`~pokercert.harness.api.fast_methods`) for a
        bulk pass to call directly, unguarded, in this process; None when the evaluator
        runs elsewhere.  Whoever calls them asks again through :meth:`run_batch` (guarded,
        timed) about any answer that is not the one it expects."""
        return None

    def run_batches(self, batches: Iterable[Sequence[Mapping[str, Any]]]) -> Iterator[list[Reply]]:
        """:meth:`run_batch` over several batches, yielding in order (subprocess adapters
        keep more than one batch in flight so both processes work at once)."""
        for batch in batches:
            yield self.run_batch(batch)

    def classify_each(self, batch: Classifies) -> list[Any]:
        """The category each hand of ``batch`` is answered (a string as the adapter gave
        it), or in its place the :class:`Reply` of a request that was not answered.  An
        adapter may read such a batch's replies the quickest way it can; an answer here
        is the one :meth:`run_batch` gives."""
        return categories_answered(self.run_batch(batch))

    def compare_ties(self, pairs: PairCompares) -> dict[int, Reply]:
        """Run ``pairs``, compares the harness expects each answered a tie (a hand and a
        member of its class): the replies, by position in the batch, of those that were
        not answered a tie; ``{}`` when every one was.  Each reply is the one
        :meth:`run_batch` gives; an adapter may skip making the others."""
        return not_tied(self.run_batch(pairs))

    def code_seen(self) -> Observed | None:
        """What code the evaluator's processes have loaded so far, observed by the harness
        from outside (an ``exec:`` adapter made to observe it); None otherwise.  Call it
        before :meth:`close`: the processes are read while they live."""
        return None

    def close(self) -> None:
        """Stop the evaluator (idempotent)."""

    def __enter__(self) -> Adapter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
