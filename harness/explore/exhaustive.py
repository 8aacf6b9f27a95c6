"""Exhaustive certification: every hand of a ruleset through the adapter.

For every hand of the ruleset's size (2,598,960 five-card, 22,100 three-card and 1,326
two-card hands; with the Montana jokers also every hand holding one or two of them) this
checks that

1. the adapter's category is the reference's, and
2. the adapter's order induces exactly the reference's equivalence classes (7,462 for
   five-card high): with an in-process evaluator's ``key(hand)`` (larger is better, equal
   keys tie), every hand's key equals its reference class representative's key and the
   representatives' keys strictly increase from class to class; without a key, by
   ``compare`` requests: each hand against a member of its own class that shares no card
   with it (a tie), and each class against the next one up (the upper one wins).  Hands
   whose class has no member disjoint from them (all four aces with a king: every such
   hand holds the four aces) and adjacent classes with no disjoint pair cannot be told
   apart in one deal; they are counted and reported as unverifiable, never passed.

Hands stream through the adapter in batches in a fixed order (``combinations(DECK, n)``,
then the joker hands), so a run is resumable from its checkpoint and shardable by
position.  Each disagreement found first is written up as a ready-to-add corpus vector.

The reference's side (the hands and their classes) is :mod:`pokercert.reference.classes`;
the state saved for ``--resume`` is :mod:`.exhaustive_state`; this module is the checker.
"""

from __future__ import annotations

import random
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from itertools import combinations, pairwise
from pathlib import Path
from typing import Any

from pokercert.harness.adapters.base import (
    ANSWERED,
    ERROR,
    Adapter,
    AdapterAborted,
    Identity,
    Reply,
)
from pokercert.harness.api import FastMethods, Hands
from pokercert.harness.explore.counterexample import (
    Found,
    found_vector,
    next_ids,
    placeholder_vector,
)
from pokercert.harness.explore.exhaustive_state import (
    Disagreement,
    State,
    load_state,
    resume_state,
    shard_range,
)
from pokercert.harness.outcome import Outcome
from pokercert.harness.scoring import score
from pokercert.reference import DECK, Card, Profile, Ruleset
from pokercert.reference.classes import (
    ReferenceClasses,
    cards,
    joker_count,
    mask,
    shuffled,
    space_of,
    text,
)
from pokercert.reference.errors import InputError

DEFAULT_BATCH = 4096
DEFAULT_REPORT = 10
CHECKPOINT_S = 2.0
_NONE = FastMethods(None, None, None, None)


# --------------------------------------------------------------------------- the check
def _norm(key: Any) -> Any:
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
        return tuple(_norm(k) for k in key)
    if hasattr(key, "tolist"):
        return _norm(key.tolist())
    raise TypeError(f"key {key!r} is not a number, string or sequence of them")


class ExhaustiveAborted(AdapterAborted):
    """The harness gave up on the adapter mid-pass (restarts or run time exhausted).

    ``state`` is the pass as far as it got, saved: the hands checked (``checked``; the
    next one to check ``next``), every finding made before, ``aborted`` saying why.
    ``--resume`` goes on from there."""

    def __init__(self, message: str, state: State) -> None:
        super().__init__(message)
        self.state = state
        # what a caller made of the state (``run --exhaustive``: the ruleset's record)
        self.record: dict[str, Any] | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        # (raised inside a Dask task, it travels pickled: with its state)
        return type(self), (str(self), self.state)


class _Failed(Exception):
    """A hand the adapter gave no usable answer for (in place of its category or key)."""


def _pair(answer: Any, source: str) -> tuple[Any, Any]:
    """(category, key) from what ``evaluate`` returned, or the problem in place of both."""
    if isinstance(answer, (tuple, list)) and len(answer) == 2:
        return answer[0], answer[1]
    problem = _Failed(f"{source} returned {answer!r}, not a (category, key) pair")
    return problem, problem


def _texts(hands: Hands) -> list[str]:
    """Each hand of a batch as one string, the cards separated by single spaces."""
    cards = iter(hands.flat)
    return list(map(" ".join, zip(*[cards] * hands.size, strict=True)))


def _requests(many: str, hands: Hands) -> list[dict[str, Any]]:
    """The requests of a batch for an ``exec:`` adapter: one ``*_many`` request for all
    its hands where the adapter has it, else one ``classify`` request per hand."""
    if many:
        return [{"op": many, "hands": _texts(hands)}]
    return [{"op": "classify", "hand": t} for t in _texts(hands)]


def _answers(many: str, replies: Sequence[Reply], n: int) -> tuple[list[Any], list[Any]]:
    """(categories, keys) of a batch from the replies to :func:`_requests`: the reply
    saying why in place of the category of a hand that has none (keys: None there)."""
    if not many:
        return [r.data.get("category") if r.status == ANSWERED else r for r in replies], []
    (reply,) = replies
    if reply.status != ANSWERED:
        return [reply] * n, [None] * n
    return reply.data["categories"], reply.data.get("keys") or []


class Checker:
    """Runs the checks for one started, configured adapter over a range of hands.

    The hot path asks for the answers of a whole batch at once and compares them with
    the reference's as two lists; only a batch that differs is looked at hand by hand.
    An in-process evaluator is called directly, in its fastest form (``evaluate_many``,
    else ``evaluate``, else ``classify`` and ``key`` per hand), and anything but the
    reference's category is asked again through the adapter, which guards and scores it
    like any run.  ``exec:`` adapters always go through the adapter, two batches in
    flight; with the protocol's ``evaluate_many`` they are checked by key too.
    """

    def __init__(self, adapter: Adapter, identity: Identity, ruleset: Ruleset,
                 profile: Profile, state: State, ref: ReferenceClasses,
                 report_limit: int = DEFAULT_REPORT) -> None:
        self.adapter = adapter
        self.identity = identity
        self.ruleset = ruleset
        self.profile = profile
        self.state = state
        self.ref = ref
        self.report_limit = report_limit
        direct = adapter.direct()
        self.remote = direct is None
        fast = direct or _NONE
        self.many = fast.evaluate_many
        self.one = fast.evaluate
        self.classify_fn = fast.classify
        # where the category of the hot path comes from, for messages
        self.source = ("evaluate_many()" if self.many else "evaluate()" if self.one
                       else "classify()")
        key = fast.key
        self.key_fn: Callable[[list[str]], Any] | None = key
        if key is None and self.one is not None:
            one = self.one
            self.key_fn = lambda hand: _pair(one(hand), "evaluate()")[1]
        elif key is None and self.many is not None:
            many = self.many
            self.key_fn = lambda hand: many([hand])[1][0]
        if self.remote:
            self.source = "evaluate_many" if state.mode == "key" else \
                "classify_many" if adapter.supports("classify_many") else "classify"
        self.class_keys: list[Any] = []
        self._class_keys_of: Callable[[Any], list[Any]] | None = None
        # the harness gave up on the adapter while batches were held (see _batches)
        self._gone = False
        # the card order every hand is sent in (None: as enumerated, rank descending)
        self.seed = state.order_seed
        # whole deals of a game with a board (hold 'em): a finding's two deals are
        # written up as two players on one board (:meth:`_on_one_board`)
        self._one_board = ref.best_of_dealt and ruleset.selection is not None and \
            ruleset.selection.board > 0
        # hands of the current batch already counted as errors: a hand is one error
        # however many of its requests (classify, key, compare) got no answer
        self._erred: set[str] = set()

    # ------------------------------------------------------------------ findings
    def _text(self, hand: Sequence[Card]) -> str:
        """A hand of the reference's (a class member) as it is sent: in the run's order."""
        return text(shuffled(hand, self.seed))

    def _record(self, check: str, hands: list[str], message: str,
                vector: Found | None = None, *, of_classes: bool = False) -> None:
        """Count and (up to the report limit) keep a finding.  An error on a hand of the
        enumeration counts once per hand; ``of_classes``: an error on a class key or a
        pair of classes (``order_errors``)."""
        if check == "error" and not of_classes:
            if hands[0] in self._erred:
                return
            self._erred.add(hands[0])
        attr = {"category": "category_disagreements", "class": "class_disagreements",
                "order": "order_disagreements",
                "error": "order_errors" if of_classes else "errors"}[check]
        setattr(self.state, attr, getattr(self.state, attr) + 1)
        if len(self.state.disagreements) >= self.report_limit:
            return
        found = vector
        self.state.disagreements.append(Disagreement(
            check, hands, message,
            vector=_record_of(found) if found else None,
            toml=found.toml(self.state.adapter) if found else ""))

    def _found(self, kind: str, inputs: dict[str, Any], actual: Any, message: str) \
            -> Found | None:
        if len(self.state.disagreements) >= self.report_limit:
            return None
        if self.ref.best_of_dealt:
            dealt = self._dealt_inputs(kind, inputs)
            if dealt is None:
                return None
            kind, inputs = dealt
        taken = [d.vector["id"] for d in self.state.disagreements if d.vector]
        vid = next_ids(self.ruleset.id, 1, taken)[0]
        return found_vector(self.ruleset.id, kind, inputs, self.profile, actual=actual,
                            message=message, vector_id=vid)

    # ------------------------------------------------------------------ dealt hands
    def _dealt_inputs(self, kind: str, inputs: dict[str, Any]) \
            -> tuple[str, dict[str, Any]] | None:
        """A finding on whole deals (best five of seven) as inputs of a corpus vector of
        the game: a deal misclassified becomes a ``best_hand`` request (the hole cards,
        and the board where the game deals one); two deals valued apart from the
        reference become a ``compare`` of the two players (stud: their seven cards; hold
        'em: their hole cards on one board, :meth:`_on_one_board`).  None where no such
        deal is found (the finding keeps its hands)."""
        sel = self.ruleset.selection
        assert sel is not None          # a pass over dealt hands has a selection rule
        if kind == "classify":
            deal = inputs["hand"].split()
            hole, board = deal[:sel.hole], deal[sel.hole:]
            return "best_hand", {"hole": " ".join(hole), **(
                {"board": " ".join(board)} if sel.board else {})}
        first, second = (cards(h.split()) for h in inputs["hands"])
        if not sel.board:
            return "compare", {"hands": [text(first), text(second)]}
        found = self._on_one_board(first, second)
        if found is None:
            return None
        hole_a, hole_b, board = found
        return "compare", {"hands": [text(hole_a), text(hole_b)], "board": text(board)}

    def _on_one_board(self, first: tuple[Card, ...], second: tuple[Card, ...]) \
            -> tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]] | None:
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
        want = [int(c) for c in ref.class_of_rows(np.array(
            [sorted(code[c] for c in first), sorted(code[c] for c in second)]))]
        fallback = None
        for mine, other, swap in ((first, want[1], False), (second, want[0], True)):
            for board in combinations(sorted(mine, key=code.__getitem__), sel.board):
                hole = tuple(c for c in mine if c not in board)
                rest = [code[c] for c in DECK if c not in mine]
                holes = np.array(list(combinations(rest, sel.hole)), dtype=np.uint8)
                rows = np.sort(np.hstack([holes, np.tile(np.array(
                    [code[c] for c in board], dtype=np.uint8), (len(holes), 1))]), axis=1)
                hits = np.flatnonzero(ref.class_of_rows(rows) == other)[:16]
                for h in hits.tolist():
                    theirs = tuple(DECK[int(i)] for i in holes[h])
                    pair = (theirs, hole, board) if swap else (hole, theirs, board)
                    fallback = fallback or pair
                    keys = self._keys([pair[0] + board, pair[1] + board])
                    if any(isinstance(k, Exception) for k in keys):
                        continue
                    ours = (want[0] > want[1]) - (want[0] < want[1])
                    theirs_order = (keys[0] > keys[1]) - (keys[0] < keys[1])
                    if ours != theirs_order:
                        return pair
        return fallback

    # ------------------------------------------------------------------ keys
    def _key(self, hand: Sequence[Card]) -> Any:
        (key,) = self._keys([hand])
        if isinstance(key, Exception):
            raise key
        return key

    def _raw_keys(self, tokens: Sequence[list[str]]) -> list[Any]:
        """Adapter keys as returned (in process: a copy of each token list, vendor code may
        sort it); a hand with no key gets the exception in its place."""
        if self.remote:
            size = len(tokens[0]) if tokens else 0
            hands = Hands([c for t in tokens for c in t], size) if size else Hands([], 1)
            return _answers("evaluate_many", self.adapter.run_batch(
                _requests("evaluate_many", hands)), len(tokens))[1]
        if self.many is not None and tokens:
            try:
                keys = list(self.many(Hands([c for t in tokens for c in t], len(tokens[0])))[1])
                if len(keys) == len(tokens):
                    return keys
            except Exception:
                pass     # hand by hand below: every hand gets its key or its exception
        assert self.key_fn is not None
        fn = self.key_fn
        try:
            return [fn(t[:]) for t in tokens]
        except Exception:
            out: list[Any] = []
            for t in tokens:
                try:
                    out.append(fn(t[:]))
                except Exception as exc:
                    out.append(exc)
            return out

    def _keys(self, hands: Sequence[Sequence[Card]]) -> list[Any]:
        """Normalised adapter keys of some hands (exceptions in place of bad ones)."""
        out: list[Any] = []
        seed = self.seed
        for k in self._raw_keys([[str(c) for c in shuffled(h, seed)] for h in hands]):
            try:
                out.append(k if isinstance(k, Exception) else _norm(k))
            except TypeError as exc:
                out.append(exc)
        return out

    def _class_keys(self) -> list[Any]:
        """The adapter's key of every class: the majority over its candidate members (all
        candidates asked at once)."""
        candidates = self.ref.candidates
        every = self._keys([h for members in candidates for h in members])
        out, at = [], 0
        for i, members in enumerate(candidates):
            keys = every[at:at + len(members)]
            at += len(members)
            usable = [k for k in keys if not isinstance(k, Exception)]
            if not usable:
                out.append(keys[0])
                continue
            best = max(usable, key=lambda k: (usable.count(k), -usable.index(k)))
            self.ref.rep[i] = members[keys.index(best)]
            out.append(best)
        return out

    def check_order(self) -> None:
        """Classes in order: by their keys, or by comparing neighbours."""
        n = len(self.ref.keys)
        if self.state.mode == "key":
            self.class_keys = self._class_keys()
            for i, k in enumerate(self.class_keys):
                if isinstance(k, Exception) and not self.state.order_checked:
                    self._record("error", [self._text(self.ref.rep[i])], f"key() raised or "
                                 f"returned garbage on a class representative: {k}",
                                 of_classes=True)
            if not self.state.order_checked:
                for i in range(1, n):
                    lo, hi = self.class_keys[i - 1], self.class_keys[i]
                    if isinstance(lo, Exception) or isinstance(hi, Exception):
                        continue
                    if not lo < hi:
                        self._order_finding(i - 1, i, lo, hi)
            self._class_keys_of = self.ref.lookup(self.class_keys)   # whole batches at once
        elif self.state.mode in COMPARE_MODES:
            # each class stands for itself by its first candidate member, as in the key
            # path when the candidates agree, so both paths write up the same hands
            for i, members in enumerate(self.ref.candidates):
                self.ref.rep[i] = members[0]
            if not self.state.order_checked:
                self._compare_order(n)
        self.state.order_checked = True

    def _order_finding(self, lower: int, upper: int, lo: Any, hi: Any) -> None:
        ref = self.ref
        what = "the same key" if lo == hi else "keys in the wrong order"
        message = (f"reference classes {lower} and {upper} ({ref.category[lower]} < "
                   f"{ref.category[upper]}) get {what}: {lo!r} vs {hi!r}")
        hands = [self._text(ref.rep[upper]), self._text(ref.rep[lower])]
        found = None
        pair = self._misordered_pair(lower, upper)
        if pair is None and self._one_board:
            # hold 'em: two players' deals share the board, so classes whose members all
            # share cards (four deuces with a three or a four) still meet in one pot
            pair = ref.rep[lower], ref.rep[upper]
        if pair is not None and len(self.state.disagreements) < self.report_limit:
            low, up = pair
            found = self._found("compare", {"hands": [self._text(up), self._text(low)]},
                                None, message)
        self._record("order", hands, message, found)

    def _misordered_pair(self, lower: int, upper: int) \
            -> tuple[tuple[Card, ...], tuple[Card, ...]] | None:
        """A member of each class, dealt together, that the adapter's keys do not put in
        the reference's order (so the vector written from them fails it), if one of the
        suit renamings shows it; else any disjoint pair."""
        ref = self.ref
        if len(self.state.disagreements) >= self.report_limit:
            return None
        for m_lo, low in ref.alternatives(lower)[:24]:
            for m_up, up in ref.alternatives(upper)[:24]:
                if m_lo & m_up or not ref.fits(up, joker_count(low)):
                    continue
                k_lo, k_up = self._keys([low, up])
                if not isinstance(k_lo, Exception) and not isinstance(k_up, Exception) \
                        and not k_lo < k_up:
                    return low, up
        return ref.disjoint_pair(lower, upper)

    def _compare_order(self, n: int) -> None:
        """The classes in the evaluator's own order, by its ``compare`` alone.

        The class representatives are sorted with the evaluator's comparisons (a bottom-up
        merge sort from the reference's order, every step of every merge of a level sent
        as one batch: O(n log n) requests in O(n) batches), then each neighbour in that
        order is asked once more to tell ties from wins; the class's place in the order is
        its key, and the classes are checked as the key path checks keys: each class must
        sit strictly above the one below it in the reference's order.  Two classes with
        no members that can be dealt together are taken in the reference's order; among
        neighbours they are counted as not decidable in one deal.
        """
        ranks = self._ranks(self._sorted_classes(n))
        for i in range(1, n):
            if self.ref.disjoint_pair(i - 1, i) is None:
                self.state.unverifiable_orders += 1
                continue
            lo, hi = ranks[i - 1], ranks[i]
            if isinstance(lo, Exception) or isinstance(hi, Exception):
                continue
            if not lo < hi:
                self._compare_order_finding(i - 1, i, lo, hi)

    def _pairs(self, lower: int, upper: int) -> Iterator[tuple[tuple[Card, ...],
                                                              tuple[Card, ...]]]:
        """Members of two classes that can be dealt together, from their suit renamings
        (the key path's search order, so both paths write up the same pair)."""
        ref = self.ref
        for m_lo, low in ref.alternatives(lower)[:24]:
            for m_up, up in ref.alternatives(upper)[:24]:
                if not m_lo & m_up and ref.fits(up, joker_count(low)):
                    yield low, up

    def _compare_classes(self, pairs: Sequence[tuple[int, int]]) -> list[Any]:
        """For each (a, b) of classes with a < b in the reference's order: -1 if the
        evaluator puts a below b, 0 a tie, 1 above; an exception for no usable answer; the
        reference's -1 where no members can be dealt together.  One batch."""
        requests, where = [], []
        out: list[Any] = [-1] * len(pairs)
        for i, (a, b) in enumerate(pairs):
            pair = next(self._pairs(a, b), None)
            if pair is None:
                continue
            low, up = pair
            requests.append({"op": "compare", "hands": [self._text(low), self._text(up)]})
            where.append(i)
        replies = self.adapter.run_batch(requests) if requests else []
        for i, reply in zip(where, replies, strict=True):
            winners = sorted(reply.data.get("winners") or ()) if reply.status == ANSWERED \
                else None
            out[i] = {(1,): -1, (0, 1): 0, (0,): 1}.get(tuple(winners or ()),
                                                        _Failed(f"{reply.status}: "
                                                                f"{reply.message}"))
        return out

    def _sorted_classes(self, n: int) -> list[int]:
        """Every class, ordered by the evaluator's compare (stable: ties keep the
        reference's order): merges of a level advance in lockstep, one batch per step."""
        runs = [[i] for i in range(n)]
        while len(runs) > 1:
            merges = [(runs[k], runs[k + 1]) for k in range(0, len(runs) - 1, 2)]
            merged: list[list[int]] = [[] for _ in merges]
            at = [[0, 0] for _ in merges]
            while True:
                active = [m for m, (left, right) in enumerate(merges)
                          if at[m][0] < len(left) and at[m][1] < len(right)]
                if not active:
                    break
                asks = []
                for m in active:
                    a, b = merges[m][0][at[m][0]], merges[m][1][at[m][1]]
                    asks.append((min(a, b), max(a, b)))
                for m, (a, _b), answer in zip(active, asks, self._compare_classes(asks),
                                             strict=True):
                    left, right = merges[m]
                    x = left[at[m][0]]
                    below = -1 if isinstance(answer, Exception) else answer
                    if x != a:               # the left one is the reference's upper
                        below = -below
                    take_left = below <= 0
                    merged[m].append(x if take_left else right[at[m][1]])
                    at[m][0 if take_left else 1] += 1
            for m, (left, right) in enumerate(merges):
                merged[m].extend(left[at[m][0]:])
                merged[m].extend(right[at[m][1]:])
            if len(runs) % 2:
                merged.append(runs[-1])
            runs = merged
        return runs[0] if runs else []

    def _ranks(self, order: list[int]) -> list[Any]:
        """Each class's place in the evaluator's order (ties share one); neighbours that
        got no usable answer are recorded, and the class above takes the exception."""
        asks = [(min(a, b), max(a, b)) for a, b in pairwise(order)]
        answers = self._compare_classes(asks)
        ranks: list[Any] = [0] * len(order)
        rank = 0
        for k, ((a, b), answer) in enumerate(zip(asks, answers, strict=True)):
            cls = order[k + 1]
            if isinstance(answer, Exception):
                self._record("error", [self._text(self.ref.rep[a]), self._text(self.ref.rep[b])],
                             f"compare gave no usable answer for two class members: {answer}",
                             of_classes=True)
                ranks[cls] = answer
                continue
            # the evaluator says order[k] < order[k + 1] unless it is a tie
            rank += answer != 0
            ranks[cls] = rank
        return ranks

    def _compare_order_finding(self, lower: int, upper: int, lo: Any, hi: Any) -> None:
        """As :meth:`_order_finding`, the pair written up being the first the evaluator's
        compare misorders."""
        ref = self.ref
        what = "the same place" if lo == hi else "places in the wrong order"
        message = (f"reference classes {lower} and {upper} ({ref.category[lower]} < "
                   f"{ref.category[upper]}) get {what} in the evaluator's order: {lo!r} vs "
                   f"{hi!r}")
        hands = [self._text(ref.rep[upper]), self._text(ref.rep[lower])]
        found = None
        if len(self.state.disagreements) < self.report_limit:
            pair = None
            for low, up in self._pairs(lower, upper):
                reply, = self.adapter.run_batch([{"op": "compare", "hands": [
                    self._text(up), self._text(low)]}])
                if not (reply.status == ANSWERED and reply.data.get("winners") == [0]):
                    pair = low, up
                    break
            pair = pair or ref.disjoint_pair(lower, upper)
            if pair is not None:
                low, up = pair
                found = self._found("compare", {"hands": [self._text(up), self._text(low)]},
                                    None, message)
        self._record("order", hands, message, found)

    # ------------------------------------------------------------------ batches
    def run_range(self, stop: int, batch: int,
                  progress: Callable[[int], None] | None = None,
                  checkpoint: Callable[[], None] | None = None) -> None:
        st = self.state
        last_save = time.monotonic()
        t0 = time.monotonic() - st.elapsed_s
        for start, end, tokens, classes, answers in self._batches(stop, batch):
            self._erred.clear()
            categories, keys = answers
            if st.mode != "compare-only":
                self._categories(start, tokens, classes, categories)
            if st.mode == "key":
                self._classes_by_key(start, tokens, classes, keys)
            elif st.mode in COMPARE_MODES:
                hands = tokens if self.remote else self._give(start, tokens, again=True)
                self._classes_by_compare([cards(t) for t in hands], classes if isinstance(
                    classes, list) else classes.tolist())
            st.checked += end - start
            st.next = end
            st.elapsed_s = time.monotonic() - t0
            if progress:
                progress(st.next)
            if checkpoint and time.monotonic() - last_save >= CHECKPOINT_S:
                checkpoint()
                last_save = time.monotonic()

    def _batches(self, stop: int, size: int) -> Iterator[tuple[int, int, Hands, Any,
                                                                tuple[list[Any], list[Any]]]]:
        """(start, stop, tokens, classes, (categories, keys)) batch by batch from state.next.

        ``tokens`` are as the reference made them (in process, the evaluator gets them
        only where they can be made again: :meth:`_pristine`); ``keys`` is None outside
        key mode.  An ``exec:`` adapter gets its requests two batches ahead (except in
        compare mode, whose own requests must not overtake them).
        """
        pos = self.state.next
        many = "evaluate_many" if self.state.mode == "key" else "classify_many"
        if self.remote and not self.adapter.supports(many):
            many = ""
        if self.remote and self.state.mode not in COMPARE_MODES:
            # A batch whose answers differ from the reference's is looked at with more
            # requests (classify, keys of other class members), which must not be sent
            # while later batches are in flight (their replies would be taken for late
            # ones and lost): such a batch stops the sending, waits for the batches in
            # flight, and is handed on with them once nothing is outstanding.
            at = pos
            pending: deque[tuple[int, int, Hands, Any]] = deque()
            held: list[tuple[int, int, Hands, Any, tuple[list[Any], list[Any]]]] = []

            def requests() -> Iterator[list[dict[str, Any]]]:
                nonlocal at
                while at < stop and not held:
                    end = min(at + size, stop)
                    tokens = self._hands(at, end)
                    pending.append((at, end, tokens, self.ref.class_index(at, tokens)))
                    at = end
                    yield _requests(many, tokens)

            while at < stop:
                try:
                    for replies in self.adapter.run_batches(requests()):
                        start, end, tokens, classes = pending.popleft()
                        item = (start, end, tokens, classes,
                                _answers(many, replies, end - start))
                        if held or not self._agrees(classes, item[4]):
                            held.append(item)
                        else:
                            yield item
                except AdapterAborted:
                    # the adapter died for good on a batch in flight: the held batches
                    # still count, looked at with the answers they have
                    self._gone = True
                    yield from held
                    raise
                yield from held
                held.clear()
            return
        while pos < stop:
            end = min(pos + size, stop)
            tokens = self._hands(pos, end)
            classes = self.ref.class_index(pos, tokens)
            if self.state.mode == "compare-only":
                answers: tuple[list[Any], list[Any]] = ([], [])   # no categories to ask for
            elif self.remote:
                answers = _answers(many, self.adapter.run_batch(_requests(many, tokens)),
                                   end - pos)
            else:
                answers = self._evaluations(pos, tokens)
            yield pos, end, tokens, classes, answers
            pos = end

    def _agrees(self, classes: Any, answers: tuple[list[Any], list[Any]]) -> bool:
        """Whether a batch's answers are the reference's as they stand (no hand of it to
        look at again)."""
        categories, keys = answers
        if self.state.mode != "compare-only" and categories != self.ref.categories_of(classes):
            return False
        if self.state.mode != "key":
            return True
        want = self._class_keys_of(classes) if self._class_keys_of is not None else \
            [self.class_keys[c] for c in classes]
        return bool(keys == want)

    def _hands(self, start: int, stop: int) -> Hands:
        """Hands ``start`` to ``stop - 1`` as the reference makes them, a new batch on every
        call (cards coded: :meth:`ReferenceClasses.code_rows` with numpy, else
        :meth:`ReferenceClasses.codes`)."""
        if self.ref.random_access:
            return Hands(None, self.ref.space.size,
                         rows=self.ref.code_rows(start, stop, self.seed))
        return Hands(None, self.ref.space.size, self.ref.codes(start, stop, self.seed))

    def _give(self, start: int, tokens: Hands, again: bool = False) \
            -> Hands:
        """Token lists to hand to an in-process evaluator, which may change them.

        With random access: the reference's own lists the first time (a finding makes its
        hand again by position, :meth:`_hand`), new ones ``again``; without: copies.
        """
        if self.ref.random_access:
            return self._hands(start, start + len(tokens)) if again else tokens
        return Hands(tokens.flat[:], tokens.size,
                     tokens.codes[:] if tokens.codes is not None else None)

    def _hand(self, start: int, tokens: Hands, i: int) -> list[str]:
        """Hand ``i`` of the batch as the reference made it, whatever an evaluator did to
        the lists it was given."""
        hand: list[str] = self._hands(start + i, start + i + 1)[0] \
            if self.ref.random_access and not self.remote else tokens[i]
        return hand

    def _evaluations(self, start: int, tokens: Hands) -> tuple[list[Any], list[Any]]:
        """(categories, keys) of a batch from the in-process evaluator; a hand with no
        answer gets the exception in its place (keys: empty outside key mode)."""
        if self.state.mode != "key":
            return self._each(self.classify_fn, self._give(start, tokens)), []
        if self.many is None:
            return self._one_by_one(start, tokens)
        n = len(tokens)
        try:
            categories, keys = self.many(self._give(start, tokens))
            categories = categories if type(categories) is list else list(categories)
            keys = keys if type(keys) is list else list(keys)
            if len(categories) == len(keys) == n:
                return categories, keys
            problem = f"evaluate_many() returned {len(categories)} categories and " \
                f"{len(keys)} keys for {n} hands"
            broken = True
        except Exception as exc:
            problem = f"evaluate_many() raised {type(exc).__name__}: {exc}"[:300]
            broken = False
        found = self._one_by_one(start, tokens, again=True)
        if not broken:   # it may raise for a hand that has no answer, and for nothing else
            broken = not any(isinstance(x, Exception) for column in found for x in column)
        if broken:
            self._record("error", [" ".join(self._hand(start, tokens, 0))],
                         f"{problem} (the batch of {n} hands from position {start}, "
                         "which hand by hand all have answers)")
        return found

    def _one_by_one(self, start: int, tokens: Hands, again: bool = False) \
            -> tuple[list[Any], list[Any]]:
        """(categories, keys) asked hand by hand: ``evaluate``, else ``classify`` and
        ``key``."""
        if self.one is not None:
            pairs = [(p, p) if isinstance(p, Exception) else _pair(p, "evaluate()")
                     for p in self._each(self.one, self._give(start, tokens, again))]
            return [c for c, _ in pairs], [k for _, k in pairs]
        categories = self._each(self.classify_fn, self._give(start, tokens, again))
        return categories, self._each(self.key_fn, self._give(start, tokens, True))

    @staticmethod
    def _each(fn: Callable[[list[str]], Any] | None, hands: Sequence[list[str]]) -> list[Any]:
        """``fn`` of every hand, exceptions in place of answers."""
        if fn is None:
            return [_Failed("the evaluator has no such method")] * len(hands)
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

    def _categories(self, start: int, tokens: Hands, classes: Any,
                    got: list[Any]) -> None:
        want = self.ref.categories_of(classes)
        if got == want:
            return
        todo = [i for i, (g, w) in enumerate(zip(got, want, strict=True)) if g != w]
        texts = [" ".join(self._hand(start, tokens, i)) for i in todo]
        if self._gone:     # no adapter to ask again: the answers given are scored
            replies = [Reply(ANSWERED, {"category": got[i]}) if isinstance(got[i], str)
                       else got[i] if isinstance(got[i], Reply)
                       else Reply(ERROR, message=str(got[i])) for i in todo]
        else:
            replies = self.adapter.run_batch([{"op": "classify", "hand": t} for t in texts])
        for i, t, reply in zip(todo, texts, replies, strict=True):
            expect = {"category": want[i]}
            if reply.status == ANSWERED and reply.data.get("category") == want[i]:
                # asked again, guarded, the adapter classifies the hand right
                fast = got[i]
                said = f"raised {fast}" if isinstance(fast, Exception) else \
                    f"gave no answer ({fast.status}: {fast.message})" \
                    if isinstance(fast, Reply) else f"answered {fast!r}"
                self._record("error", [t], f"{self.source} {said} for this hand; asked again "
                             f"with classify it answers {want[i]!r}")
                continue
            vector = placeholder_vector(self.ruleset.id, "classify", {"hand": t}, expect)
            outcome, actual, message = score(vector, expect, reply, self.ruleset)
            check = "category" if outcome is Outcome.FAIL else "error"
            found = self._found("classify", {"hand": t}, actual, message)
            self._record(check, [t], f"{outcome}: {message}", found)

    def _classes_by_key(self, start: int, tokens: Hands, classes: Any,
                        keys: list[Any]) -> None:
        if self._class_keys_of is not None:
            want = self._class_keys_of(classes)
        else:
            want = [self.class_keys[c] for c in classes]
        if keys == want:
            return
        for i, (k, w) in enumerate(zip(keys, want, strict=True)):
            if (k == w) is True:      # the common case, without normalising
                continue
            if not isinstance(k, Exception):
                try:
                    k = _norm(k)
                except TypeError as exc:
                    k = exc
                if k == w:
                    continue
            hand = self._hand(start, tokens, i)
            if k is None:
                k = _Failed("no key: the hand got no answer")
            if isinstance(k, Exception):
                self._record("error", [" ".join(hand)], f"key() raised or returned garbage: {k}")
                continue
            if isinstance(w, Exception):
                continue   # reported once, on the representative
            self._split_finding(cards(hand), int(classes[i]), k)

    def _split_finding(self, hand: tuple[Card, ...], c: int, k: Any) -> None:
        ref = self.ref
        message = (f"{text(hand)} and {self._text(ref.rep[c])} are equal for the reference "
                   f"({ref.category[c]}), but their keys differ: {k!r} vs "
                   f"{self.class_keys[c]!r}")
        found = None
        if len(self.state.disagreements) < self.report_limit:
            m = mask(hand)
            for m2, other in ref.alternatives(c):
                if m2 & m or not ref.fits(other, joker_count(hand)):
                    continue
                try:
                    if self._key(other) != k:
                        inputs = {"hands": [text(hand), self._text(other)]}
                        found = self._found("compare", inputs, None, message)
                        break
                except Exception:
                    continue
            if found is None and self._one_board:
                found = self._found("compare", {"hands": [text(hand), self._text(ref.rep[c])]},
                                    None, message)
        self._record("class", [text(hand), self._text(ref.rep[c])], message, found)

    def _classes_by_compare(self, hands: Sequence[tuple[Card, ...]],
                            classes: Sequence[int]) -> None:
        requests = []
        for h, c in zip(hands, classes, strict=True):
            m = mask(h)
            other = self.ref.disjoint_member(c, m, joker_count(h), skip=m)
            if other is None:
                self.state.unverifiable_hands += 1
                continue
            requests.append({"op": "compare", "hands": [text(h), self._text(other)]})
        if not requests:
            return
        for req, reply in zip(requests, self.adapter.run_batch(requests), strict=True):
            self._check_compare(req, reply, [0, 1], "class")

    def _check_compare(self, request: dict[str, Any], reply: Reply, winners: list[int],
                       check: str, *, of_classes: bool = False) -> None:
        if reply.status == ANSWERED and sorted(reply.data.get("winners", ())) == winners:
            return
        expect = {"winners": winners}
        inputs = {"hands": request["hands"]}
        vector = placeholder_vector(self.ruleset.id, "compare", inputs, expect)
        outcome, actual, message = score(vector, expect, reply, self.ruleset)
        if outcome is Outcome.PASS:   # pragma: no cover
            return
        found = self._found("compare", inputs, actual, message)
        self._record(check if outcome is Outcome.FAIL else "error", list(request["hands"]),
                     f"{outcome}: {message}", found, of_classes=of_classes)


def _record_of(found: Found) -> dict[str, Any]:
    from pokercert.vectors.canonical import record

    return record(found.vector)


def choose_mode(adapter: Adapter, identity: Identity, ruleset: Ruleset) -> str:
    """key (the adapter gives its evaluator's order: an in-process ``key``, ``evaluate``
    or ``evaluate_many``, or the protocol's ``evaluate_many``), compare (claims classify
    and compare), compare-only (claims compare, not classify: no categories to check), or
    categories-only."""
    classify = identity.claims(ruleset.id, "classify")
    if classify and adapter.supports("evaluate"):
        return "key"
    if identity.claims(ruleset.id, "compare"):
        return "compare" if classify else "compare-only"
    return "categories-only"


COMPARE_MODES = ("compare", "compare-only")


def draw_order_seed() -> int:
    """A fresh card-order seed (as ``fuzz`` draws its seeds): recorded, so a run replays."""
    return random.SystemRandom().randrange(2 ** 32)


def card_order_seed(order_seed: int | None, sorted_cards: bool) -> int | None:
    """The run's card-order seed: the one given, a fresh one, or None for sorted cards."""
    if sorted_cards and order_seed is not None:
        raise ValueError("an order seed and sorted cards exclude each other")
    return None if sorted_cards else draw_order_seed() if order_seed is None else order_seed


def new_state(adapter: Adapter, identity: Identity, ruleset: Ruleset, profile: Profile,
              ref: ReferenceClasses, *, adapter_spec: str, shard: str, start: int, stop: int,
              order_seed: int | None) -> State:
    """The state of a run of hands ``start`` to ``stop - 1`` that has not begun."""
    space = ref.space
    return State(ruleset=ruleset.id, profile=profile.as_dict(), adapter=adapter_spec,
                 evaluator=dict(identity.evaluator), shard=shard, start=start, stop=stop,
                 total=space.total, jokers=space.jokers,
                 mode=choose_mode(adapter, identity, ruleset), classes=len(ref.keys),
                 order_seed=order_seed, next=start)


def plan_run(adapter: Adapter, identity: Identity, ruleset: Ruleset, profile: Profile,
             out: Path, *, adapter_spec: str, shard: tuple[int, int], resume: bool,
             jokers: bool, order_seed: int | None, sorted_cards: bool,
             hands: tuple[int, int] | None = None) -> tuple[State, ReferenceClasses]:
    """The state of the run (or shard) before its first hand, and the reference's classes.

    The hands are shard ``shard`` (k of n), or the positions ``hands`` (start, stop) of
    the enumeration when given.  The card order is ``order_seed``, a fresh seed, or
    sorted (``sorted_cards``); on ``resume`` with neither given, the one saved in ``out``.
    """
    if resume and order_seed is None and not sorted_cards:
        saved = load_state(out)
        if saved is not None:
            order_seed, sorted_cards = saved.order_seed, saved.order_seed is None
    seed = card_order_seed(order_seed, sorted_cards)
    space = space_of(ruleset, profile, jokers)
    lo, hi = shard_range(space.total, *shard) if hands is None else hands
    if not 0 <= lo <= hi <= space.total:
        raise InputError(f"hands {lo}..{hi} are not inside the {space.total:,} hands of "
                         f"{ruleset.id}")
    if space.size != ruleset.hand_size and choose_mode(adapter, identity, ruleset) != "key":
        raise InputError(f"{ruleset.id}: the pass over every {space.size}-card deal checks "
                         "each hand's best five by the evaluator's own value (key, "
                         "evaluate or evaluate_many; the protocol's evaluate_many), which "
                         "this adapter does not give")
    ref = ReferenceClasses(ruleset, profile, space)
    label = f"{shard[0]}/{shard[1]}" if hands is None else f"{lo}..{hi}"
    fresh = new_state(adapter, identity, ruleset, profile, ref, adapter_spec=adapter_spec,
                      shard=label, start=lo, stop=hi, order_seed=seed)
    return fresh, ref


def run_exhaustive(adapter: Adapter, identity: Identity, ruleset: Ruleset, profile: Profile,
                   out: Path, *, adapter_spec: str, shard: tuple[int, int] = (1, 1),
                   resume: bool = False, batch: int = DEFAULT_BATCH, jokers: bool = True,
                   report_limit: int = DEFAULT_REPORT,
                   progress: Callable[[int, int], None] | None = None,
                   order_seed: int | None = None, sorted_cards: bool = False,
                   hands: tuple[int, int] | None = None) -> State:
    """Check every hand of shard ``shard`` of the ruleset (or of the positions ``hands``,
    start and stop, when given); state is saved in ``out``.

    The adapter must be started and configured for ``ruleset`` and ``profile``.  Each
    hand is sent in the card order of ``order_seed`` (:func:`~pokercert.reference.classes.
    card_order`; drawn with :func:`draw_order_seed` when None, taken from the saved state
    on ``resume``) or, with ``sorted_cards``, as enumerated (rank descending).  The seed
    is ``State.order_seed`` (None when sorted).

    If the harness gives up on the adapter, :class:`ExhaustiveAborted` is raised with the
    state as far as it got (saved, its findings kept, ``aborted`` saying why).
    """
    fresh, ref = plan_run(adapter, identity, ruleset, profile, out, adapter_spec=adapter_spec,
                          shard=shard, resume=resume, jokers=jokers, order_seed=order_seed,
                          sorted_cards=sorted_cards, hands=hands)
    state = resume_state(out, fresh) if resume else fresh
    lo, hi = fresh.start, fresh.stop
    checker = Checker(adapter, identity, ruleset, profile, state, ref, report_limit)
    state.save(out)
    try:
        checker.check_order()
        checker.run_range(hi, batch,
                          progress=(lambda n: progress(n - lo, hi - lo)) if progress else None,
                          checkpoint=lambda: state.save(out))
        state.finished = True
    except AdapterAborted as exc:
        # the findings made so far are final: kept with how far the pass got
        state.aborted = str(exc)
        raise ExhaustiveAborted(str(exc), state) from exc
    finally:
        state.save(out)
    return state
