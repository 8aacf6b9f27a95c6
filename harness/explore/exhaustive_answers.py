"""An evaluator's answers for a batch of an exhaustive pass.

An in-process evaluator is called directly in its fastest form (``evaluate_many``, else
``evaluate``, else ``classify`` and ``key`` per hand); an ``exec:`` adapter gets one
``*_many`` request per batch where it has the operation, else one request per hand.  A
hand with no usable answer gets the exception (or the reply) saying why in its place.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pokercert.harness.adapters.base import ANSWERED, Classifies, Reply, categories_answered
from pokercert.harness.api import FastMethods, Hands
from pokercert.reference.classes import row_texts
from pokercert.reference.errors import PokercertError

NO_FAST = FastMethods(None, None, None, None)


class Failed(PokercertError):
    """A hand the adapter gave no usable answer for (in place of its category or key):
    held as the hand's answer, so the checker reports it, never raised out of a pass."""


def norm_key(key: Any) -> Any:
    """A comparable, JSON-friendly form of an adapter key (tuples of numbers or strings)."""
    if type(key) is int:
        return key
    if isinstance(key, bool) or key is None:
        raise TypeError(f"key {key!r} is not a number, string or sequence of them")
    if isinstance(key, (int, float, str)):
        return key
    if hasattr(key, "__index__"):
        return int(key)
    if isinstance(key, (list, tuple)):
        return tuple(norm_key(k) for k in key)
    if hasattr(key, "tolist"):
        return norm_key(key.tolist())
    raise TypeError(f"key {key!r} is not a number, string or sequence of them")


def evaluate_pair(answer: Any, source: str) -> tuple[Any, Any]:
    """(category, key) from what ``evaluate`` returned, or the problem in place of both."""
    if isinstance(answer, (tuple, list)) and len(answer) == 2:
        return answer[0], answer[1]
    problem = Failed(f"{source} returned {answer!r}, not a (category, key) pair")
    return problem, problem


def batch_texts(hands: Hands) -> list[str]:
    """Each hand of a batch as one string, the cards separated by single spaces."""
    if hands.rows is not None:
        return row_texts(hands.rows)
    cards = iter(hands.flat)
    return list(map(" ".join, zip(*[cards] * hands.size, strict=True)))


def batch_requests(many: str, hands: Hands) -> Sequence[Mapping[str, Any]]:
    """The requests of a batch for an ``exec:`` adapter: one ``*_many`` request for all
    its hands where the adapter has it, else one ``classify`` request per hand."""
    if many:
        return [{"op": many, "hands": batch_texts(hands)}]
    return hand_classifies(hands)


def hand_classifies(hands: Hands) -> Classifies:
    """One ``classify`` request per hand of a batch: of the hands' card codes where the
    reference made them (the ``exec:`` line is written from those), else of their texts."""
    if hands.rows is not None:
        return Classifies.of_codes(hands.rows)
    return Classifies(batch_texts(hands))


def batch_answers(many: str, replies: Sequence[Reply], n: int) -> tuple[list[Any], list[Any]]:
    """(categories, keys) of a batch from the replies to :func:`batch_requests`: the reply
    saying why in place of the category of a hand that has none (keys: None there)."""
    if not many:
        return categories_answered(replies), []
    (reply,) = replies
    if reply.status != ANSWERED:
        return [reply] * n, [None] * n
    return reply.data["categories"], reply.data.get("keys") or []


def each_answer(fn: Callable[[list[str]], Any] | None, hands: Sequence[list[str]]) -> list[Any]:
    """``fn`` of every hand, exceptions in place of answers."""
    if fn is None:
        return [Failed("the evaluator has no such method")] * len(hands)
    try:
        return [fn(h) for h in hands]
    except Exception:
        out: list[Any] = []
        for h in hands:
            try:
                out.append(fn(h))
            except Exception as exc:
                out.append(exc)
        return out


class InProcess:
    """The fast methods of an in-process evaluator (:meth:`Adapter.direct`), with a key
    of one hand made from whichever of ``key``, ``evaluate`` and ``evaluate_many`` it
    has; ``source`` names where the hot path's category comes from, for messages."""

    def __init__(self, fast: FastMethods) -> None:
        self.many = fast.evaluate_many
        self.one = fast.evaluate
        self.classify = fast.classify
        self.source = "evaluate_many()" if self.many else "evaluate()" if self.one else "classify()"
        key = fast.key
        self.key: Callable[[list[str]], Any] | None = key
        if key is None and self.one is not None:
            one = self.one
            self.key = lambda hand: evaluate_pair(one(hand), "evaluate()")[1]
        elif key is None and self.many is not None:
            many = self.many
            self.key = lambda hand: many([hand])[1][0]

    def many_answers(self, hands: Hands) -> tuple[list[Any], list[Any], str, bool]:
        """(categories, keys, "", False) of ``evaluate_many``; on a problem with its answer
        ([], [], the problem, whether it raised rather than answered wrong)."""
        assert self.many is not None
        n = len(hands)
        try:
            categories, keys = self.many(hands)
        except Exception as exc:
            return [], [], f"evaluate_many() raised {type(exc).__name__}: {exc}"[:300], True
        categories = categories if type(categories) is list else list(categories)
        keys = keys if type(keys) is list else list(keys)
        if len(categories) == len(keys) == n:
            return categories, keys, "", False
        return (
            [],
            [],
            f"evaluate_many() returned {len(categories)} categories and "
            f"{len(keys)} keys for {n} hands",
            False,
        )

    def one_by_one(self, hands: Hands, again: Hands) -> tuple[list[Any], list[Any]]:
        """(categories, keys) asked hand by hand: ``evaluate``, else ``classify`` and
        ``key`` (the keys of ``again``, fresh lists of the same hands)."""
        if self.one is not None:
            pairs = [
                (p, p) if isinstance(p, Exception) else evaluate_pair(p, "evaluate()")
                for p in each_answer(self.one, hands)
            ]
            return [c for c, _ in pairs], [k for _, k in pairs]
        return each_answer(self.classify, hands), each_answer(self.key, again)

    def keys(self, tokens: Sequence[list[str]]) -> list[Any]:
        """Keys as returned (of a copy of each token list: vendor code may sort it); a hand
        with no key gets the exception in its place."""
        if self.many is not None and tokens:
            try:
                keys = list(self.many(Hands([c for t in tokens for c in t], len(tokens[0])))[1])
                if len(keys) == len(tokens):
                    return keys
            except Exception:
                pass  # hand by hand below: every hand gets its key or its exception
        return each_answer(self.key, [t[:] for t in tokens])
