"""The in-process adapter: a :class:`~pokercert.harness.api.PokerEvaluator` in this process.

Every call is guarded: :class:`~pokercert.harness.api.Rejected` becomes a refusal with
its reason code, any other exception an ERROR carrying the traceback, a return value of
the wrong shape an ERROR.  A per-request timeout is enforced with ``SIGALRM`` where the
platform has it and the runner is on the main thread; it interrupts Python code only.
No call is timed by a clock of its own: each call has a number, stored in
:attr:`InProcessAdapter.calling` while it runs, and whoever watches from outside (the
alarm, a few times a timeout; the runner's watchdog thread) sees how long one number
has been in progress (:class:`CallWatch`); a call costs two stores.
A hang inside native code, or a crash that kills the process, cannot be contained in
process: run such evaluators through the subprocess protocol (``exec:``, or
``exec:python -m pokercert.harness.adapters.serve py:module:attr`` for Python ones;
``pokercert run`` does so by default).

Whatever evaluator code raises is the evaluator's: ``SystemExit`` and a
``KeyboardInterrupt`` it raises itself are its ERROR, not the harness's exit.  Only a real
Ctrl-C of the user (a SIGINT seen by the handler installed around each batch) interrupts
the run.  Answers must be of exact built-in types (``type(x) is str``, a ``list`` of
``int``): a ``str`` subclass with a lying ``__eq__`` is an ERROR, never a PASS.
"""

from __future__ import annotations

import operator
import signal
import threading
import traceback
from collections.abc import Callable, Iterator, Mapping, Sequence
from fractions import Fraction
from functools import cache
from itertools import chain, repeat
from operator import itemgetter
from time import perf_counter
from typing import Any, TypeVar

from pokercert.harness.adapters.base import (
    ANSWERED,
    ERROR,
    REJECTED,
    TIMEOUT,
    Adapter,
    AdapterError,
    Identity,
    PairCompares,
    Reply,
    many_reply,
    not_tied,
)
from pokercert.harness.api import EvaluatorInfo, FastMethods, Rejected, fast_methods
from pokercert.harness.protocol import (
    HALF_FEATURE,
    MANY_OPS,
    ProtocolError,
    check_capabilities,
    check_item,
    negotiated,
)
from pokercert.vectors.model import PAI_GOW_KINDS, Kind, share_text

TRACEBACK_LIMIT = 4000
IDLE = -1  # InProcessAdapter.calling between evaluator calls
# how many times a timeout the alarm looks at the call in progress: a call is stopped
# after its timeout, never before, and at most two looks after it (then at each look
# while it runs on); each look is a signal (it interrupts a system call in progress,
# which Python retries), so not too many
ALARM_TICKS = 10
_T = TypeVar("_T")


# Reply(status, data, "", "", "", duration) without the keyword handling: one per request
_new_tuple = tuple.__new__


_PLAIN_COMPARE = {("op", "hands")}
_hands = itemgetter("hands")
_COMPARE = {"compare"}


def _plain_compares(requests: Sequence[Mapping[str, Any]]) -> bool:
    """Whether every request of a batch is a compare without a board (checked for the
    whole batch at once: loops in C)."""
    if type(requests) is PairCompares:
        return bool(requests)
    try:
        return (
            bool(requests)
            and set(map(tuple, requests)) == _PLAIN_COMPARE
            and {r["op"] for r in requests} == _COMPARE
        )
    except (TypeError, KeyError):
        return False


class CallWatch:
    """How long the evaluator call in progress has been running, seen from outside it:
    the number in :attr:`InProcessAdapter.calling`, looked at now and then, and when
    that number was first seen.  A call first seen at a look began before it, so the
    time seen is never more than the call has run (and less by at most the time
    between two looks)."""

    def __init__(self) -> None:
        self.number = IDLE
        self.since = 0.0

    def running(self, calling: int, now: float) -> float:
        """Seconds the call numbered ``calling`` has been seen in progress, looked at
        ``now`` (0.0 at its first sight, and between calls)."""
        if calling != self.number:
            self.number, self.since = calling, now
        return 0.0 if calling == IDLE else now - self.since


class _Deadline(BaseException):
    """Raised into evaluator code by the alarm; a BaseException so ``except Exception``
    in vendor code does not swallow it."""


class _Interrupt:
    """Whether the user pressed Ctrl-C during evaluator code (set by the SIGINT handler
    :class:`InProcessAdapter` installs around each batch): only then is a
    ``KeyboardInterrupt`` the harness's; any other one was raised by evaluator code."""

    user = False


def _on_sigint(signum: int, frame: Any) -> None:
    _Interrupt.user = True
    raise KeyboardInterrupt


def evaluators_exception(exc: BaseException) -> bool:
    """Whether an exception out of an evaluator call is the evaluator's fault (an ERROR
    of that request): everything but the harness's own deadline and a real Ctrl-C."""
    if isinstance(exc, _Deadline):
        return False
    return not (isinstance(exc, KeyboardInterrupt) and _Interrupt.user)


def _cards(text: Any) -> list[str]:
    return text.split(" ") if text else []


def _pair_calls(pairs: PairCompares) -> Iterator[list[list[str]]]:
    """The argument of ``winners`` for each request of ``pairs``: new lists of the two
    hands' cards a request, made in C one request at a time as the loop takes them
    (from the card codes: one array of card names, grouped; from the texts: split)."""
    codes = pairs.codes
    if codes is not None and codes[0].ndim == 2 and codes[0].shape[1]:
        import numpy as np

        first, second = codes
        size = first.shape[1]
        names: list[str] = _code_names().take(np.stack((first, second), axis=1)).ravel().tolist()
        cards = iter(names)
        hands = map(list, zip(*[cards] * size, strict=False))
    else:
        texts = chain.from_iterable(zip(pairs.first, pairs.second, strict=True))
        if all(pairs.first) and all(pairs.second):
            hands = map(str.split, texts, repeat(" "))
        else:  # (an empty hand is no cards, not one empty card)
            hands = map(_cards, texts)
    return map(list, zip(hands, hands, strict=False))


@cache
def _code_names() -> Any:
    """:data:`~pokercert.reference.classes.CODED_CARDS` as a numpy array of str."""
    import numpy as np

    from pokercert.reference.classes import CODED_CARDS

    return np.array(CODED_CARDS, dtype=object)


def call_evaluator(evaluator: Any, request: Mapping[str, Any]) -> dict[str, Any]:
    """Run one protocol request against a PokerEvaluator and return the reply item.

    Card strings are split into the token lists of the Python API.  Raises whatever the
    evaluator raises (:class:`Rejected` included); shared by the in-process adapter and
    the ``serve`` bridge so both speak the same protocol.
    """
    op = request["op"]
    if op == "classify":
        return {"category": evaluator.classify(_cards(request["hand"]))}
    if op == "evaluate":
        answer = evaluate(evaluator, _cards(request["hand"]))
        return {"category": answer["category"], "key": wire_key(answer["key"])}
    if op in MANY_OPS:
        return answer_many(evaluator, op, request["hands"])
    if op == "compare":
        board = request.get("board")
        hands = [_cards(h) for h in request["hands"]]
        found = (
            evaluator.winners(hands, _cards(board))
            if board is not None
            else evaluator.winners(hands)
        )
        return {"winners": list(found) if isinstance(found, (list, tuple)) else found}
    if op == "showdown":
        board = request.get("board")
        hands = [_cards(h) for h in request["hands"]]
        found = (
            evaluator.showdown(hands, _cards(board))
            if board is not None
            else evaluator.showdown(hands)
        )
        return pot_item(found)
    if op == "qualifies":
        return {"qualifies": evaluator.qualifies(_cards(request["hand"]))}
    if op in PAI_GOW_KINDS:
        return pai_gow_item(evaluator, request)
    if op == "best_hand":
        board = request.get("board")
        args = [_cards(request["hole"])] + ([_cards(board)] if board is not None else [])
        found = (
            evaluator.best_hand(*args, half=request["half"])
            if "half" in request
            else evaluator.best_hand(*args)
        )
        if not (isinstance(found, (list, tuple)) and len(found) == 2):
            return {"cards": found, "category": None}
        cards, category = found
        if isinstance(cards, (list, tuple)):
            cards = " ".join(str(c) for c in cards)
        return {"cards": cards, "category": category}
    raise ValueError(f"unknown operation {op!r}")


def pai_gow_item(evaluator: Any, request: Mapping[str, Any]) -> dict[str, Any]:
    """The reply item of a pai gow request (:class:`~pokercert.harness.api.PaiGowEvaluator`)."""
    op = request["op"]
    if op == Kind.COMPARE_TWO_CARD:
        found = evaluator.compare_two_card([_cards(h) for h in request["hands"]])
        return {"winners": list(found) if isinstance(found, (list, tuple)) else found}
    if op == Kind.SETTING:
        return {"legal": evaluator.setting(_cards(request["high"]), _cards(request["low"]))}
    player = [_cards(h) for h in request["player"]]
    return {"settlement": evaluator.settle(player, [_cards(h) for h in request["banker"]])}


def pot_item(found: Any) -> dict[str, Any]:
    """The reply item of a showdown from what the evaluator returned: an object or a
    mapping with ``high``, ``low`` (None: no low half awarded) and ``shares`` (fractions
    or ``"n/d"`` strings).  Whatever is not of that shape is passed on as it came, for
    :func:`~pokercert.harness.protocol.check_item` to refuse."""
    if isinstance(found, Mapping):
        high, low, shares = found.get("high"), found.get("low"), found.get("shares")
    else:
        high, low, shares = (getattr(found, name, None) for name in ("high", "low", "shares"))
    if low is None:
        low = []
    return {
        "high": list(high) if isinstance(high, (list, tuple)) else high,
        "low": list(low) if isinstance(low, (list, tuple)) else low,
        "shares": [_share_text(s) if type(s) in (Fraction, int) else s for s in shares]
        if isinstance(shares, (list, tuple))
        else shares,
    }


# the text of each share object met before, by identity (an evaluator that keeps its
# fractions, as the reference does, answers thousands of pots with a handful): the
# object is held beside its text, so its id is not reused while it is kept
_SHARE_TEXTS: dict[int, tuple[Fraction | int, str]] = {}
_SHARE_TEXTS_KEPT = 4096


def _share_text(share: Fraction | int) -> str:
    """:func:`~pokercert.vectors.model.share_text` of an exact Fraction or int, kept."""
    found = _SHARE_TEXTS.get(id(share))
    if found is not None and found[0] is share:
        return found[1]
    text = share_text(share)  # type: ignore[arg-type]
    if len(_SHARE_TEXTS) < _SHARE_TEXTS_KEPT:
        _SHARE_TEXTS[id(share)] = (share, text)
    return text


def evaluate(evaluator: Any, hand: list[str]) -> dict[str, Any]:
    """Category and key of one hand from whichever of ``evaluate``, ``evaluate_many`` or
    ``classify`` and ``key`` the evaluator has (the reply item of an ``evaluate``)."""
    fast = fast_methods(evaluator)
    if fast.evaluate is not None:
        found = fast.evaluate(hand)
        if not (isinstance(found, (list, tuple)) and len(found) == 2):
            return {"category": found, "key": None}
        category, key = found
    elif fast.evaluate_many is not None:
        categories, keys = fast.evaluate_many([hand])
        category, key = categories[0], keys[0]
    else:
        category, key = evaluator.classify(hand), evaluator.key(hand)
    return {"category": category, "key": key}


def wire_key(key: Any) -> int | list[int]:
    """A key as the protocol carries it: an integer, or a list of integers."""
    if isinstance(key, bool) or key is None:
        raise TypeError(f"key {key!r} is not an integer or a sequence of integers")
    if hasattr(key, "__index__"):
        value = operator.index(key)
        if type(value) is int:
            return value
    elif isinstance(key, (list, tuple)) and key:
        return [wire_key(k) for k in key]  # type: ignore[misc]
    raise TypeError(f"key {key!r} is not an integer or a sequence of integers")


def _refusal(exc: BaseException) -> dict[str, Any]:
    if isinstance(exc, Rejected):
        return {"rejected": exc.code if type(exc.code) is str else None, "message": str(exc)}
    return {"error": f"{type(exc).__name__}: {exc}"[:500]}


def answer_many(evaluator: Any, op: str, hands: list[str]) -> dict[str, Any]:
    """The reply item of a ``classify_many`` / ``evaluate_many`` request: each hand valued
    on its own (``evaluate_many`` of the evaluator first, if it has one: should it raise,
    hand by hand), a refusal or an error in the place of a hand without an answer."""
    tokens = [_cards(h) for h in hands]
    if op == "classify_many":
        categories: list[Any] = []
        for hand in tokens:
            try:
                categories.append(evaluator.classify(hand))
            except BaseException as exc:
                if not evaluators_exception(exc):
                    raise
                categories.append(_refusal(exc))
        return {"categories": categories}
    many = fast_methods(evaluator).evaluate_many
    if many is not None:
        try:
            found, keys = many(tokens)
            if len(found) == len(keys) == len(hands):
                return {"categories": list(found), "keys": [wire_key(k) for k in keys]}
        except BaseException as exc:
            if not evaluators_exception(exc):
                raise
    categories = []
    wire: list[int | list[int] | None] = []
    for hand in tokens:
        try:
            answer = evaluate(evaluator, hand)
            wire.append(wire_key(answer["key"]))
            categories.append(answer["category"])
        except BaseException as exc:
            if not evaluators_exception(exc):
                raise
            categories.append(_refusal(exc))
            wire.append(None)
    return {"categories": categories, "keys": wire}


def identity_of(evaluator: Any, adapter_name: str, adapter_version: str) -> Identity:
    """The declared identity and capabilities of an in-process evaluator."""
    info = getattr(evaluator, "info", None)
    if isinstance(info, EvaluatorInfo):
        declared = info.as_dict()
    elif isinstance(info, Mapping):
        declared = dict(info)
    else:
        raise AdapterError(
            f"{adapter_name}: the evaluator has no 'info' (an EvaluatorInfo "
            "naming vendor, name, version and build)"
        )
    try:
        caps = check_capabilities(evaluator.capabilities())
    except ProtocolError as exc:
        raise AdapterError(f"{adapter_name}: {exc}") from None
    except BaseException as exc:
        if not evaluators_exception(exc):
            raise
        raise AdapterError(f"{adapter_name}: capabilities() raised {exc!r}") from exc
    features = negotiated({"features": getattr(evaluator, "protocol_features", None)})
    return Identity(
        declared, {"name": adapter_name, "version": adapter_version}, caps, features=features
    )


class InProcessAdapter(Adapter):
    """Wraps an evaluator object living in this process."""

    # each call has its own timeout here, so a batch may be long; the pass's fixed cost
    # a batch (numpy steps, about 0.3 ms) is then less a hand (benchmarks/README.md)
    hands_per_batch = 16384

    def __init__(
        self,
        evaluator: Any,
        spec: str,
        adapter_name: str,
        adapter_version: str,
        timeout: float | None = None,
    ) -> None:
        self.evaluator = evaluator
        self.spec = spec
        self.adapter_name = adapter_name
        self.adapter_version = adapter_version
        self.timeout = timeout
        # the number of the evaluator call in progress (or of the judging of its answer,
        # or the reading of its exception's text: evaluator code too), IDLE between
        # calls: the alarm and the runner's watchdog look at it (:class:`CallWatch`);
        # each number is used once in the adapter's life
        self.calling = IDLE
        self._next_number = 0
        self._alarm_watch = CallWatch()

    def start(self) -> Identity:
        return identity_of(self.evaluator, self.adapter_name, self.adapter_version)

    def supports(self, op: str) -> bool:
        if op in ("classify_many", HALF_FEATURE):
            return True
        if op in ("evaluate", "evaluate_many"):
            fast = fast_methods(self.evaluator)
            return fast.keyed and fast.classify is not None
        return super().supports(op)

    def direct(self) -> FastMethods:
        return fast_methods(self.evaluator)

    def configure(self, ruleset: str, readings: Mapping[str, str]) -> None:
        try:
            self.evaluator.configure(ruleset, dict(readings))
        except BaseException as exc:
            if not evaluators_exception(exc):
                raise
            raise AdapterError(
                f"configure({ruleset!r}) raised {type(exc).__name__}: {exc}"
            ) from exc

    # ------------------------------------------------------------------ requests
    def run_batch(self, requests: Sequence[Mapping[str, Any]]) -> list[Reply]:
        return self._guarded(self._answer, requests)

    def compare_ties(self, pairs: PairCompares) -> dict[int, Reply]:
        """:meth:`Adapter.compare_ties` in one loop (the exhaustive pass's compare-only
        batches): each call made and guarded as :meth:`_compare_all` makes it, the
        evaluator given new lists of the cards (made in C as the loop reaches each
        request); an answer that is a plain ``list`` holding the ints 0 and 1 (either
        order) is told a tie in a few steps, with no reply made; any other answer is
        judged by :meth:`_compared`, as :meth:`run_batch` judges it.  The calls are not
        timed one by one (:meth:`_ties`): a reply's duration is the batch's mean so far."""
        winners = getattr(self.evaluator, "winners", None)
        if winners is None or type(pairs) is not PairCompares or not len(pairs):
            return super().compare_ties(pairs)
        return self._guarded(self._ties, winners, _pair_calls(pairs), len(pairs))

    def _guarded(self, answer: Callable[..., _T], *args: Any) -> _T:
        """``answer(*args)`` with the per-request alarm armed and the SIGINT handler
        installed (both put back after); a Ctrl-C of the user that evaluator code
        swallowed is raised once the batch is done."""
        armed = self._arm()
        sigint = self._watch_sigint()
        try:
            result = answer(*args)
        finally:
            if armed:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, armed)
            if sigint:
                signal.signal(signal.SIGINT, sigint)
        if _Interrupt.user:  # the user's Ctrl-C, swallowed by evaluator code
            raise KeyboardInterrupt
        return result

    @staticmethod
    def _watch_sigint() -> Any:
        """Install the SIGINT handler that tells the user's Ctrl-C from a
        ``KeyboardInterrupt`` raised by evaluator code; returns the previous handler
        (None: not installed, because another handler than Python's default is set or
        this is not the main thread)."""
        _Interrupt.user = False
        if (
            threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler
        ):
            return None
        return signal.signal(signal.SIGINT, _on_sigint)

    def _answer(self, requests: Sequence[Mapping[str, Any]]) -> list[Reply]:
        """The replies to a batch, in order.

        The two common requests, classify and compare without a board (the hot path of
        corpus runs), are answered here and their answers checked in the few steps
        :func:`~pokercert.harness.protocol.check_item` would take; anything else goes
        through :meth:`_one`.  The clock runs from the call to its return (the cards are
        split before), for the reply's duration; the alarm watches the call's number.
        """
        out: list[Reply] = []
        append = out.append
        evaluator = self.evaluator
        classify = getattr(evaluator, "classify", None)
        winners = getattr(evaluator, "winners", None)
        if winners is not None and _plain_compares(requests):
            return self._compare_all(winners, requests)
        clock = perf_counter
        for number, request in enumerate(requests, self._numbers(len(requests))):
            op = request["op"]
            if op == "classify" and classify is not None:
                hand = request["hand"]
                args: Any = hand.split(" ") if hand else []
                method = classify
            elif op == "compare" and winners is not None and "board" not in request:
                args = [h.split(" ") if h else [] for h in request["hands"]]
                method = winners
            else:
                append(self._one(request, number))
                continue
            start = clock()
            try:
                self.calling = number
                found = method(args)
                duration = clock() - start
                self.calling = IDLE
            except BaseException as exc:
                self.calling = IDLE
                append(self._failed(exc, clock() - start))
                continue
            judge = self._classified if method is classify else self._compared
            append(self._judged(judge, found, duration))
        return out

    def _compare_all(self, winners: Any, requests: Sequence[Mapping[str, Any]]) -> list[Reply]:
        """The replies to a batch of compares without a board (the exhaustive pass's: one a
        hand), the call made as in :meth:`_answer`, its answer taken in one step when it
        is a plain ``list`` of plain ``int`` (the types :func:`check_item` requires; any
        other answer through :meth:`_compared`)."""
        out: list[Reply] = []
        append = out.append
        clock = perf_counter
        make = _new_tuple
        calls = (
            _pair_calls(requests)
            if type(requests) is PairCompares
            else ([_cards(h) for h in hands] for hands in map(_hands, requests))
        )
        for number, args in enumerate(calls, self._numbers(len(requests))):
            start = clock()
            try:
                self.calling = number
                found = winners(args)
                duration = clock() - start
                self.calling = IDLE
            except BaseException as exc:
                self.calling = IDLE
                append(self._failed(exc, clock() - start))
                continue
            ok = type(found) is list
            if ok:
                found = found[:]  # checked after the copy: nothing can change what was checked
                for i in found:  # (all() over a generator, or a set of the types: slower)
                    if type(i) is not int:
                        ok = False
                        break
            append(
                make(Reply, (ANSWERED, {"winners": found}, "", "", "", duration))
                if ok
                else self._judged(self._compared, found, duration)
            )
        return out

    def _ties(self, winners: Any, calls: Iterator[list[list[str]]], size: int) -> dict[int, Reply]:
        """The replies, by position, of the ``size`` calls ``winners(args)`` not answered
        a tie.

        Each call is guarded as in :meth:`_compare_all` (its number in :attr:`calling`
        while it runs, anything raised caught) but not timed: a reply made here carries
        the mean time of the batch's calls so far, as an ``exec:`` batch's replies carry
        their batch's mean.  A tie is read from the answer in one step: a plain ``list``
        unpacked into two items that are the ints 0 and 1 themselves (``is``: never
        ``True``, ``1.0`` or an ``int`` subclass; CPython keeps one object of each small
        int), and nothing more of the answer is read.  Any other answer gets
        :meth:`_compared`'s reply (the one :meth:`run_batch` gives: it checks a copy),
        kept if it is not a tie to :func:`~.base.not_tied` (a tuple ``(0, 1)`` is
        answered a tie there)."""
        out: dict[int, Reply] = {}
        first = self._numbers(size)
        began = perf_counter()
        zero, one = 0, 1
        for number, args in enumerate(calls, first):
            try:
                self.calling = number
                found = winners(args)
                self.calling = IDLE
            except BaseException as exc:
                self.calling = IDLE
                k = number - first
                out[k] = self._failed(exc, (perf_counter() - began) / (k + 1))
                continue
            if type(found) is list:
                try:
                    a, b = found
                    if (a is zero and b is one) or (a is one and b is zero):
                        continue
                except ValueError:  # not two items (a raise costs less than len() a hand)
                    pass
            k = number - first
            reply = self._judged(self._compared, found, (perf_counter() - began) / (k + 1))
            if not_tied((reply,)):
                out[k] = reply
        return out

    @classmethod
    def _classified(cls, found: Any, duration: float) -> Reply:
        """The reply to a classify answered on the hot path (checked as :func:`check_item`
        would, in one step when it is a plain ``str``)."""
        if type(found) is str:
            return _new_tuple(Reply, (ANSWERED, {"category": found}, "", "", "", duration))
        return cls._checked("classify", {"category": found}, duration)

    @classmethod
    def _compared(cls, found: Any, duration: float) -> Reply:
        """The reply to a compare answered on the hot path (a plain ``list`` of ``int``
        accepted in one pass, anything else through :func:`check_item`)."""
        ok = type(found) is list
        if ok:
            found = found[:]  # checked after the copy (an evaluator's thread cannot change it)
            for i in found:  # (all() over a generator: 3x slower)
                if type(i) is not int:
                    ok = False
                    break
        if ok:
            return _new_tuple(Reply, (ANSWERED, {"winners": found}, "", "", "", duration))
        winners = list(found) if isinstance(found, (list, tuple)) else found
        return cls._checked("compare", {"winners": winners}, duration)

    def _one(self, request: Mapping[str, Any], number: int | None = None) -> Reply:
        """One request through :func:`call_evaluator`, guarded, timed and checked (the
        call's ``number``: a new one unless given)."""
        if number is None:
            number = self._numbers(1)
        start = perf_counter()
        try:
            self.calling = number
            try:
                item = call_evaluator(self.evaluator, request)
            finally:
                self.calling = IDLE
        except BaseException as exc:
            return self._failed(exc, perf_counter() - start)
        op = request["op"]

        def judge(item: Any, duration: float) -> Reply:
            if op in MANY_OPS:
                return many_reply(
                    op,
                    item,
                    len(request["hands"]),
                    duration,
                    lambda problem: Reply(ERROR, message=problem[:500], duration_s=duration),
                )
            return self._checked(op, item, duration)

        return self._judged(judge, item, perf_counter() - start)

    def _judged(self, judge: Callable[[Any, float], Reply], found: Any, duration: float) -> Reply:
        """``judge(found, duration)``: an answer judged as a call is made (a number of
        its own, watched by the alarm and the watchdog, anything raised caught), since
        judging an answer that is not a plain builtin runs the evaluator's code (a
        subclass's ``__iter__``, an object's ``__repr__`` or ``__class__`` for the
        message), which may raise or hang."""
        try:
            self.calling = self._numbers(1)
            reply = judge(found, duration)
            self.calling = IDLE
        except BaseException as exc:
            self.calling = IDLE
            return self._failed(exc, duration)
        return reply

    @staticmethod
    def _checked(op: str, item: dict[str, Any], duration: float) -> Reply:
        problem = check_item(op, item)
        if problem:
            return Reply(ERROR, message=f"{problem}; returned {item!r}"[:500], duration_s=duration)
        return _new_tuple(Reply, (ANSWERED, item, "", "", "", duration))

    def _failed(self, exc: BaseException, duration: float) -> Reply:
        """The reply for an evaluator call that raised after ``duration`` seconds
        (re-raises only a real Ctrl-C of the user: ``SystemExit`` or a
        ``KeyboardInterrupt`` of evaluator code is ERROR)."""
        if isinstance(exc, Rejected):
            code = exc.code if type(exc.code) is str else None
            return Reply(REJECTED, {"rejected": code}, str(exc), duration_s=duration)
        if isinstance(exc, _Deadline):  # (it ran the timeout at least: its duration says so)
            duration = max(duration, self.timeout or 0.0)
            return Reply(TIMEOUT, message=f"no answer within {self.timeout} s", duration_s=duration)
        if not evaluators_exception(exc):
            raise exc
        what = (
            ""
            if isinstance(exc, Exception)
            else " (raised by evaluator code: an error of this request, not the harness's exit)"
        )
        # the exception's text and traceback run its own code (__str__), guarded as a call
        try:
            self.calling = self._numbers(1)
            tb = "".join(traceback.format_exception(exc))[-TRACEBACK_LIMIT:]
            message = f"{type(exc).__name__}: {exc}{what}"
            self.calling = IDLE
        except BaseException:  # (the alarm's deadline included)
            self.calling = IDLE
            tb, message = "", f"{type(exc).__name__} (its text could not be read){what}"
        return Reply(ERROR, message=message[:500], stderr=tb, duration_s=duration)

    # ------------------------------------------------------------------ timeout
    def _numbers(self, calls: int) -> int:
        """The number of the first of ``calls`` evaluator calls about to be made (the
        others follow it)."""
        first = self._next_number
        self._next_number = first + calls
        return first

    def _arm(self) -> Any:
        """Start the per-request alarm, which looks at the call in progress
        :data:`ALARM_TICKS` times a timeout; returns the previous handler (falsy: not
        armed)."""
        if (
            not self.timeout
            or not hasattr(signal, "setitimer")
            or threading.current_thread() is not threading.main_thread()
        ):
            return None
        previous = signal.signal(signal.SIGALRM, self._on_alarm)
        tick = self.timeout / ALARM_TICKS
        signal.setitimer(signal.ITIMER_REAL, tick, tick)
        return previous or signal.SIG_DFL

    def _on_alarm(self, signum: int, frame: Any) -> None:
        """Stop the call in progress once it has been seen running for the timeout (so
        past its timeout by at most two looks), and again at each look while it runs on:
        evaluator code that swallows the deadline (a loop catching ``BaseException``,
        or the bare ``except`` with which :mod:`traceback` reads an exception's text) is
        stopped again at the next look, and a call that never stops is the runner's
        watchdog's."""
        assert self.timeout
        if self._alarm_watch.running(self.calling, perf_counter()) >= self.timeout:
            raise _Deadline
