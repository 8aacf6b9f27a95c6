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
"""

from __future__ import annotations

import json
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from itertools import combinations, islice, permutations
from math import comb
from pathlib import Path
from typing import Any

from pokercert.harness.adapters.base import ANSWERED, Adapter, Identity, Reply
from pokercert.harness.api import CODED_CARDS, Hands
from pokercert.harness.explore.counterexample import Found, found_vector, placeholder_vector
from pokercert.harness.run.results import Outcome
from pokercert.harness.run.scoring import score
from pokercert.reference import DECK, JOKER, Card, Profile, Ruleset, evaluator
from pokercert.reference.cards import SUIT_CHARS
from pokercert.reference.errors import InputError

STATE_FILE = "exhaustive.json"
DEFAULT_BATCH = 4096
DEFAULT_REPORT = 10
CHECKPOINT_S = 2.0
_TEXT = {c: str(c) for c in (*DECK, JOKER)}
_CODE = {c: CODED_CARDS.index(str(c)) for c in (*DECK, JOKER)}   # Hands.codes
_BIT = {c: 1 << i for i, c in enumerate(DECK)}


# --------------------------------------------------------------------------- the hands
@dataclass(frozen=True)
class Space:
    """Every hand of a ruleset, in a fixed order: naturals, then 1, 2, ... jokers."""

    size: int
    jokers: int

    @property
    def segments(self) -> list[tuple[int, int]]:
        """(jokers in the hand, how many such hands), in enumeration order."""
        return [(j, comb(len(DECK), self.size - j)) for j in range(self.jokers + 1)
                if self.size - j >= 0]

    @property
    def total(self) -> int:
        return sum(n for _, n in self.segments)

    def hands(self, start: int, stop: int) -> Iterator[tuple[Card, ...]]:
        """Hands number ``start`` to ``stop - 1``."""
        offset = 0
        for j, n in self.segments:
            lo, hi = max(start - offset, 0), min(stop - offset, n)
            if lo < hi:
                tail = (JOKER,) * j
                for hand in islice(combinations(DECK, self.size - j), lo, hi):
                    yield hand + tail
            offset += n


def text(hand: Sequence[Card]) -> str:
    return " ".join(_TEXT[c] for c in hand)


def mask(hand: Sequence[Card]) -> int:
    """The natural cards of a hand as a bit set (jokers are not cards of the deck)."""
    m = 0
    for c in hand:
        m |= _BIT.get(c, 0)
    return m


_CARD = {name: card for card, name in _TEXT.items()}


def cards(tokens: Sequence[str]) -> tuple[Card, ...]:
    """The cards of a token list made by this module (canonical spellings only)."""
    return tuple(_CARD[t] for t in tokens)


def _jokers(hand: Sequence[Card]) -> int:
    return sum(c.is_joker for c in hand)


def _signature(hand: Sequence[Card]) -> tuple[Any, ...]:
    """The hand up to a renaming of suits: the multiset of its suits' rank sets, and the
    number of jokers.  Suits have no rank in any ruleset, so hands with equal signatures
    have equal reference values."""
    by_suit: dict[str, list[int]] = {}
    jokers = 0
    for c in hand:
        if c.is_joker:
            jokers += 1
        else:
            by_suit.setdefault(c.suit, []).append(c.rank)
    return tuple(sorted(tuple(sorted(r)) for r in by_suit.values())), jokers


# --------------------------------------------------------------------------- the reference
class ReferenceClasses:
    """The reference's value of every hand of a :class:`Space` as a class number.

    Class 0 is the worst value; ``keys[i]`` is the engine's key of class i, ``rep[i]`` a
    hand of that class (a natural one where the class has one).  Natural hands come from
    the vectorised batch path (:mod:`pokercert.reference.batch`) when numpy is there,
    joker hands from the engine, one hand per suit pattern.
    """

    def __init__(self, ruleset: Ruleset, profile: Profile, space: Space) -> None:
        self.ev = evaluator(ruleset.id, profile)
        self.space = space
        self._natural_count = comb(len(DECK), space.size)
        natural_keys = self._naturals()
        joker_keys = self._jokers()
        every = {k for k, _, _ in natural_keys} | {k for k, _, _ in joker_keys}
        self.keys: list[tuple[int, ...]] = sorted(every)
        self.index = {k: i for i, k in enumerate(self.keys)}
        self.category: list[str] = [""] * len(self.keys)
        # a few members per class, far apart in the enumeration: the first member is
        # often an edge case (A-2 suited opens the pocket straight flushes), so the
        # class's value for an adapter is taken by majority over these
        self.candidates: list[list[tuple[Card, ...]]] = [[] for _ in self.keys]
        for key, category, hands in [*natural_keys, *joker_keys]:
            i = self.index[key]
            self.category[i] = self.category[i] or category
            for hand in hands:
                if hand not in self.candidates[i] and len(self.candidates[i]) < 3:
                    self.candidates[i].append(hand)
        # the representative: the member in the middle of the enumeration
        self.rep: list[tuple[Card, ...]] = [c[len(c) // 2] for c in self.candidates]
        self._joker_class = {sig: self.index[k] for sig, k in self._joker_sig.items()}
        if self._np is not None:
            np = self._np
            to_global = np.array([self.index[k] for k, _, _ in natural_keys], dtype=np.int32)
            self._natural_class = to_global[self._dense]
            self._category_of = np.empty(len(self.keys), dtype=object)
            self._category_of[:] = self.category
        self._alternatives: dict[int, list[tuple[int, tuple[Card, ...]]]] = {}
        self._pools: tuple[Any, Any, Any] | None = None
        self._stream: Iterator[tuple[Card, ...]] = iter(())
        self._stream_at = -1

    @property
    def random_access(self) -> bool:
        """Whether :meth:`tokens` builds any range afresh at the same cost (numpy), so that
        a hand's tokens can be had again by position instead of being kept."""
        return self._np is not None

    def _naturals(self) -> list[tuple[tuple[int, ...], str, list[tuple[Card, ...]]]]:
        """(engine key, category, [first, middle, last member]) per natural class."""
        try:
            import numpy as np

            from pokercert.reference.batch import hands, table
        except ImportError:
            self._np = None
            return self._naturals_scalar()
        self._np = np
        tab = table(self.ev.ruleset.id, self.ev.profile)
        if tab.size != self.space.size:
            raise ValueError(f"{self.ev.ruleset.id}: batch table holds {tab.size}-card hands")
        classified = tab.classify_all()
        keys = self._dense = classified.keys          # dense: 0 .. distinct - 1
        n = int(keys.shape[0])
        distinct = int(keys.max()) + 1
        # every hand's position, grouped by class and in enumeration order within a class
        # (a stable sort; 16-bit keys sort by radix)
        order = np.argsort(keys.astype(np.uint16) if distinct <= 1 << 16 else keys,
                           kind="stable")
        counts = np.bincount(keys, minlength=distinct)
        starts = np.cumsum(counts) - counts
        # the middle member: the first one in the second half of the enumeration, if any
        before_middle = np.bincount(keys[:n // 2], minlength=distinct)
        middle = np.where(before_middle < counts, starts + before_middle, starts)
        picks = np.stack([order[starts], order[middle], order[starts + counts - 1]], axis=1)
        rows = self._rows = hands(self.space.size)
        deck = np.empty(len(DECK), dtype=object)
        deck[:] = DECK
        value = self.ev.value
        out = []
        for members in deck[rows[picks]].tolist():     # (class, member, card)
            members = [tuple(m) for m in members]
            v = value(members[0])
            out.append((v.key, v.category, members))
        return out

    def _naturals_scalar(self) -> list[tuple[tuple[int, ...], str, list[tuple[Card, ...]]]]:
        """Without numpy: every natural hand through the engine once (about 10 s for 5)."""
        value = self.ev.value
        seen: dict[tuple[int, ...], list[tuple[Card, ...]]] = {}
        keys = []
        half = self._natural_count // 2
        for n, hand in enumerate(combinations(DECK, self.space.size)):
            key = value(hand).key
            keys.append(key)
            members = seen.setdefault(key, [hand, hand, hand])
            if n >= half and members[1] is members[0]:
                members[1] = hand
            members[2] = hand
        self._scalar_keys = keys
        return [(k, value(m[0]).category, m) for k, m in sorted(seen.items())]

    def _jokers(self) -> list[tuple[tuple[int, ...], str, list[tuple[Card, ...]]]]:
        """(engine key, category, [first, last member]) per class of the joker hands."""
        self._joker_sig: dict[tuple[Any, ...], tuple[int, ...]] = {}
        seen: dict[tuple[int, ...], tuple[str, list[tuple[Card, ...]]]] = {}
        for hand in self.space.hands(self._natural_count, self.space.total):
            sig = _signature(hand)
            key = self._joker_sig.get(sig)
            if key is None:
                value = self.value(hand)
                key = self._joker_sig[sig] = value.key
                seen.setdefault(key, (value.category, [hand, hand]))
            seen[key][1][1] = hand
        return [(k, cat, members) for k, (cat, members) in seen.items()]

    def value(self, hand: tuple[Card, ...]) -> Any:
        """The engine's value of a hand (a seam for tests)."""
        return self.ev.value(hand)

    def tokens(self, start: int, stop: int) -> list[list[str]]:
        """Hands ``start`` to ``stop - 1`` as card-token lists (the in-process form)."""
        return list(self.hands(start, stop))

    def hands(self, start: int, stop: int) -> Hands:
        """Hands ``start`` to ``stop - 1`` as a :class:`~pokercert.harness.api.Hands`, made
        anew on every call.

        With numpy they come from the batch path's index rows, the hands with jokers
        too (their natural cards are the rows of the smaller hand size); without, from
        one :meth:`Space.hands` stream that successive batches continue (no re-skipping
        from the start of the enumeration per batch).
        """
        size = self.space.size
        if self._np is None:
            if self._stream_at != start:
                self._stream = self.space.hands(start, self.space.total)
            codes = [_CODE[c] for h in islice(self._stream, stop - start) for c in h]
            self._stream_at = stop
            return Hands(None, size, codes)
        from pokercert.reference.batch import hands

        np = self._np
        blocks = []
        offset = 0
        for jokers, count in self.space.segments:
            lo, hi = max(start - offset, 0), min(stop - offset, count)
            if lo < hi:
                naturals = size - jokers
                if jokers == 0:
                    blocks.append(self._rows[lo:hi])   # DECK positions are the codes
                else:
                    block = np.empty((hi - lo, size), dtype=np.uint8)
                    if naturals:
                        block[:, :naturals] = hands(naturals)[lo:hi]
                    block[:, naturals:] = _CODE[JOKER]
                    blocks.append(block)
            offset += count
        if not blocks:
            return Hands(None, size, [])
        both = blocks[0] if len(blocks) == 1 else np.concatenate(blocks)
        return Hands(None, size, both.ravel().tolist())

    def class_index(self, start: int, tokens: Sequence[list[str]]) -> Any:
        """The class of each hand of a batch that starts at position ``start``: a numpy
        array with numpy, else a list."""
        n = len(tokens)
        split = max(0, min(n, self._natural_count - start))
        if self._np is not None:
            out = self._natural_class[start:start + split]
            if split < n:
                rest = [self._joker_class[_signature(cards(t))] for t in tokens[split:]]
                out = self._np.concatenate([out, self._np.array(rest, dtype=out.dtype)])
            return out
        index = self.index
        got = [index[k] for k in self._scalar_keys[start:start + split]]
        got.extend(self._joker_class[_signature(cards(t))] for t in tokens[split:])
        return got

    def classes(self, start: int, tokens: Sequence[list[str]]) -> list[int]:
        """The class of each hand of a batch that starts at position ``start``."""
        found = self.class_index(start, tokens)
        return found if isinstance(found, list) else found.tolist()

    def categories_of(self, classes: Any) -> list[str]:
        """The reference category of each class of :meth:`class_index`."""
        if self._np is not None and not isinstance(classes, list):
            return self._category_of[classes].tolist()
        category = self.category
        return [category[c] for c in classes]

    def alternatives(self, i: int) -> list[tuple[int, tuple[Card, ...]]]:
        """Members of class i: its representative first, then it and the other candidate
        members under every renaming of the suits."""
        found = self._alternatives.get(i)
        if found is None:
            seen: dict[int, tuple[Card, ...]] = {mask(self.rep[i]): self.rep[i]}
            for member in [self.rep[i], *self.candidates[i]]:
                for perm in permutations(SUIT_CHARS):
                    rename = dict(zip(SUIT_CHARS, perm, strict=True))
                    hand = tuple(c if c.is_joker else Card(c.rank, rename[c.suit])
                                 for c in member)
                    seen.setdefault(mask(hand), hand)
            found = self._alternatives[i] = list(seen.items())
        return found

    def disjoint_member(self, i: int, hand_mask: int, hand_jokers: int = 0,
                        skip: int = -1) -> tuple[Card, ...] | None:
        """A member of class i that can be dealt beside the hand: no card in common, no
        more jokers between them than the deck holds (and not the hand itself).

        The representative's suit renamings are tried first; then (numpy) every natural
        member of the class, so that None means no natural member exists at all.
        """
        for m, member in self.alternatives(i):
            if not m & hand_mask and m != skip and self.fits(member, hand_jokers):
                return member
        pool = self._pool(i)
        if pool is None:
            return None
        np = self._np
        masks, rows = pool
        for idx in np.flatnonzero((masks & np.uint64(hand_mask)) == 0)[:2].tolist():
            if int(masks[idx]) != skip:
                return tuple(DECK[int(j)] for j in self._rows[rows[idx]])
        return None

    def disjoint_pair(self, lower: int, upper: int) \
            -> tuple[tuple[Card, ...], tuple[Card, ...]] | None:
        """A member of each class that can be dealt together (lower first), if one is found:
        the suit renamings of the representatives, then up to 64 natural members of the
        lower class spread over the enumeration against every natural member of the upper
        (exact when the lower class is that small)."""
        for m_lo, low in self.alternatives(lower):
            high = self.disjoint_member(upper, m_lo, _jokers(low)) \
                if self._np is None else self._alt_member(upper, m_lo, _jokers(low))
            if high is not None:
                return low, high
        lo_pool, hi_pool = self._pool(lower), self._pool(upper)
        if lo_pool is None or hi_pool is None:
            return None
        np = self._np
        picks = np.unique(np.linspace(0, len(lo_pool[0]) - 1, 64).astype(np.int64))
        for p in picks.tolist():
            m = lo_pool[0][p]
            ok = np.flatnonzero((hi_pool[0] & m) == 0)
            if ok.size:
                low = tuple(DECK[int(j)] for j in self._rows[lo_pool[1][p]])
                high = tuple(DECK[int(j)] for j in self._rows[hi_pool[1][int(ok[0])]])
                return low, high
        return None

    def _alt_member(self, i: int, hand_mask: int, hand_jokers: int) \
            -> tuple[Card, ...] | None:
        for m, member in self.alternatives(i):
            if not m & hand_mask and self.fits(member, hand_jokers):
                return member
        return None

    def _pool(self, i: int) -> tuple[Any, Any] | None:
        """(card masks, row numbers) of every natural hand of class i (numpy only)."""
        if self._np is None:
            return None
        if self._pools is None:
            np = self._np
            rows = self._rows.astype(np.uint64)
            masks = np.zeros(rows.shape[0], dtype=np.uint64)
            for j in range(rows.shape[1]):
                masks |= np.left_shift(np.uint64(1), rows[:, j])
            order = np.argsort(self._natural_class, kind="stable")
            starts = np.searchsorted(self._natural_class[order], np.arange(len(self.keys) + 1))
            self._pools = (masks[order], order, starts)
        masks, order, starts = self._pools
        lo, hi = int(starts[i]), int(starts[i + 1])
        return (masks[lo:hi], order[lo:hi]) if hi > lo else None

    def fits(self, member: Sequence[Card], hand_jokers: int) -> bool:
        return sum(c.is_joker for c in member) + hand_jokers <= self.ev.ruleset.jokers


# --------------------------------------------------------------------------- state
@dataclass
class Disagreement:
    """One hand (or pair of classes) where the adapter and the reference differ."""

    check: str                 # category | class | order | error
    hands: list[str]
    message: str
    vector: dict[str, Any] | None = None
    toml: str = ""


@dataclass
class State:
    """Progress and findings of one exhaustive run (or shard), saved as exhaustive.json."""

    ruleset: str
    profile: dict[str, Any]
    adapter: str
    evaluator: dict[str, Any]
    shard: str
    start: int
    stop: int
    total: int
    jokers: int
    mode: str                                # key | compare | categories-only
    classes: int
    next: int = -1
    checked: int = 0
    category_disagreements: int = 0
    class_disagreements: int = 0
    order_disagreements: int = 0
    errors: int = 0
    unverifiable_hands: int = 0              # compare mode: no disjoint class member
    unverifiable_orders: int = 0             # compare mode: no disjoint pair of classes
    order_checked: bool = False
    elapsed_s: float = 0.0
    finished: bool = False
    aborted: str = ""
    disagreements: list[Disagreement] = field(default_factory=list)

    @property
    def disagreeing(self) -> int:
        return (self.category_disagreements + self.class_disagreements
                + self.order_disagreements + self.errors)

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["agrees"] = self.finished and not self.disagreeing
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> State:
        known = {f for f in cls.__dataclass_fields__}
        kwargs = {k: v for k, v in data.items() if k in known}
        kwargs["disagreements"] = [Disagreement(**d) for d in data.get("disagreements", [])]
        return cls(**kwargs)

    def save(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / (STATE_FILE + ".tmp")
        tmp.write_text(json.dumps(self.as_dict(), indent=2, sort_keys=True,
                                  ensure_ascii=False) + "\n", encoding="utf-8")
        tmp.replace(folder / STATE_FILE)


def load_state(folder: Path) -> State | None:
    path = folder / STATE_FILE
    if not path.exists():
        return None
    return State.from_dict(json.loads(path.read_text(encoding="utf-8")))


def shard_range(total: int, k: int, n: int) -> tuple[int, int]:
    """Positions of shard k of n (1-based): contiguous, together exactly [0, total)."""
    return (k - 1) * total // n, k * total // n


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


class _Failed(Exception):
    """A hand the adapter gave no usable answer for (in place of its category or key)."""


def _method(obj: Any, name: str) -> Callable[..., Any] | None:
    found = getattr(obj, name, None)
    return found if callable(found) else None


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
        evaluator_obj = getattr(adapter, "evaluator", None)
        self.remote = evaluator_obj is None
        self.many = _method(evaluator_obj, "evaluate_many")
        self.one = _method(evaluator_obj, "evaluate")
        self.classify_fn = _method(evaluator_obj, "classify")
        # where the category of the hot path comes from, for messages
        self.source = ("evaluate_many()" if self.many else "evaluate()" if self.one
                       else "classify()")
        key = _method(evaluator_obj, "key")
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
        self._class_key_of: Any = None

    # ------------------------------------------------------------------ findings
    def _record(self, check: str, hands: list[str], message: str,
                vector: Found | None = None) -> None:
        attr = {"category": "category_disagreements", "class": "class_disagreements",
                "order": "order_disagreements", "error": "errors"}[check]
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
        taken = [d.vector["id"] for d in self.state.disagreements if d.vector]
        from pokercert.harness.explore.counterexample import next_ids

        vid = next_ids(self.ruleset.id, 1, taken)[0]
        return found_vector(self.ruleset.id, kind, inputs, self.profile, actual=actual,
                            message=message, vector_id=vid)

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
        for k in self._raw_keys([[_TEXT[c] for c in h] for h in hands]):
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
                if isinstance(k, Exception):
                    self._record("error", [text(self.ref.rep[i])], f"key() raised or returned "
                                 f"garbage on a class representative: {k}")
            if not self.state.order_checked:
                for i in range(1, n):
                    lo, hi = self.class_keys[i - 1], self.class_keys[i]
                    if isinstance(lo, Exception) or isinstance(hi, Exception):
                        continue
                    if not lo < hi:
                        self._order_finding(i - 1, i, lo, hi)
            np = self.ref._np
            if np is not None:     # class -> key, for whole batches at once
                self._class_key_of = np.empty(n, dtype=object)
                for i, k in enumerate(self.class_keys):
                    self._class_key_of[i] = k
        elif self.state.mode == "compare" and not self.state.order_checked:
            self._compare_order(n)
        self.state.order_checked = True

    def _order_finding(self, lower: int, upper: int, lo: Any, hi: Any) -> None:
        ref = self.ref
        what = "the same key" if lo == hi else "keys in the wrong order"
        message = (f"reference classes {lower} and {upper} ({ref.category[lower]} < "
                   f"{ref.category[upper]}) get {what}: {lo!r} vs {hi!r}")
        hands = [text(ref.rep[upper]), text(ref.rep[lower])]
        found = None
        pair = ref.disjoint_pair(lower, upper)
        if pair is not None:
            low, up = pair
            found = self._found("compare", {"hands": [text(up), text(low)]}, None, message)
        self._record("order", hands, message, found)

    def _compare_order(self, n: int) -> None:
        requests = []
        for i in range(1, n):
            pair = self.ref.disjoint_pair(i - 1, i)
            if pair is None:
                self.state.unverifiable_orders += 1
                continue
            low, high = pair
            requests.append({"op": "compare", "hands": [text(high), text(low)]})
        for start in range(0, len(requests), DEFAULT_BATCH):
            chunk = requests[start:start + DEFAULT_BATCH]
            for req, reply in zip(chunk, self.adapter.run_batch(chunk), strict=True):
                self._check_compare(req, reply, [0], "order")

    # ------------------------------------------------------------------ batches
    def run_range(self, stop: int, batch: int,
                  progress: Callable[[int], None] | None = None,
                  checkpoint: Callable[[], None] | None = None) -> None:
        st = self.state
        last_save = time.monotonic()
        t0 = time.monotonic() - st.elapsed_s
        for start, end, tokens, classes, answers in self._batches(stop, batch):
            categories, keys = answers
            self._categories(start, tokens, classes, categories)
            if st.mode == "key":
                self._classes_by_key(start, tokens, classes, keys)
            elif st.mode == "compare":
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
        if self.remote and self.state.mode != "compare":
            pending: deque[tuple[int, int, Hands, Any]] = deque()

            def requests() -> Iterator[list[dict[str, Any]]]:
                at = pos
                while at < stop:
                    end = min(at + size, stop)
                    tokens = self.ref.hands(at, end)
                    pending.append((at, end, tokens, self.ref.class_index(at, tokens)))
                    yield _requests(many, tokens)
                    at = end

            for replies in self.adapter.run_batches(requests()):
                at, end, tokens, classes = pending.popleft()
                yield at, end, tokens, classes, _answers(many, replies, end - at)
            return
        while pos < stop:
            end = min(pos + size, stop)
            tokens = self.ref.hands(pos, end)
            classes = self.ref.class_index(pos, tokens)
            if self.remote:
                answers = _answers(many, self.adapter.run_batch(_requests(many, tokens)),
                                   end - pos)
            else:
                answers = self._evaluations(pos, tokens)
            yield pos, end, tokens, classes, answers
            pos = end

    def _give(self, start: int, tokens: Hands, again: bool = False) \
            -> Hands:
        """Token lists to hand to an in-process evaluator, which may change them.

        With random access: the reference's own lists the first time (a finding makes its
        hand again by position, :meth:`_hand`), new ones ``again``; without: copies.
        """
        if self.ref.random_access:
            return self.ref.hands(start, start + len(tokens)) if again else tokens
        return Hands(tokens.flat[:], tokens.size,
                     tokens.codes[:] if tokens.codes is not None else None)

    def _hand(self, start: int, tokens: Hands, i: int) -> list[str]:
        """Hand ``i`` of the batch as the reference made it, whatever an evaluator did to
        the lists it was given."""
        if self.ref.random_access and not self.remote:
            return self.ref.hands(start + i, start + i + 1)[0]
        return tokens[i]

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
        if self._class_key_of is not None and not isinstance(classes, list):
            want = self._class_key_of[classes].tolist()
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
        message = (f"{text(hand)} and {text(ref.rep[c])} are equal for the reference "
                   f"({ref.category[c]}), but their keys differ: {k!r} vs "
                   f"{self.class_keys[c]!r}")
        found = None
        if len(self.state.disagreements) < self.report_limit:
            m = mask(hand)
            for m2, other in ref.alternatives(c):
                if m2 & m or not ref.fits(other, _jokers(hand)):
                    continue
                try:
                    if self._key(other) != k:
                        inputs = {"hands": [text(hand), text(other)]}
                        found = self._found("compare", inputs, None, message)
                        break
                except Exception:
                    continue
        self._record("class", [text(hand), text(ref.rep[c])], message, found)

    def _classes_by_compare(self, hands: Sequence[tuple[Card, ...]],
                            classes: Sequence[int]) -> None:
        requests = []
        for h, c in zip(hands, classes, strict=True):
            m = mask(h)
            other = self.ref.disjoint_member(c, m, _jokers(h), skip=m)
            if other is None:
                self.state.unverifiable_hands += 1
                continue
            requests.append({"op": "compare", "hands": [text(h), text(other)]})
        if not requests:
            return
        for req, reply in zip(requests, self.adapter.run_batch(requests), strict=True):
            self._check_compare(req, reply, [0, 1], "class")

    def _check_compare(self, request: dict[str, Any], reply: Reply, winners: list[int],
                       check: str) -> None:
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
                     f"{outcome}: {message}", found)


def _record_of(found: Found) -> dict[str, Any]:
    from pokercert.vectors.canonical import record

    return record(found.vector)


def choose_mode(adapter: Adapter, identity: Identity, ruleset: Ruleset) -> str:
    """key (the adapter gives its evaluator's order: an in-process ``key``, ``evaluate``
    or ``evaluate_many``, or the protocol's ``evaluate_many``), compare (claimed), or
    categories-only."""
    if adapter.supports("evaluate"):
        return "key"
    if identity.claims(ruleset.id, "compare"):
        return "compare"
    return "categories-only"


class ResumeError(InputError, ValueError):
    """``--resume`` on a folder whose run differs from the one asked for."""


def run_exhaustive(adapter: Adapter, identity: Identity, ruleset: Ruleset, profile: Profile,
                   out: Path, *, adapter_spec: str, shard: tuple[int, int] = (1, 1),
                   resume: bool = False, batch: int = DEFAULT_BATCH, jokers: bool = True,
                   report_limit: int = DEFAULT_REPORT,
                   progress: Callable[[int, int], None] | None = None) -> State:
    """Check every hand of shard ``shard`` of the ruleset; state is saved in ``out``.

    The adapter must be started and configured for ``ruleset`` and ``profile``.
    """
    space = Space(ruleset.hand_size, ruleset.jokers if jokers else 0)
    lo, hi = shard_range(space.total, *shard)
    ref = ReferenceClasses(ruleset, profile, space)
    mode = choose_mode(adapter, identity, ruleset)
    fresh = State(ruleset=ruleset.id, profile=profile.as_dict(), adapter=adapter_spec,
                  evaluator=dict(identity.evaluator), shard=f"{shard[0]}/{shard[1]}",
                  start=lo, stop=hi, total=space.total, jokers=space.jokers, mode=mode,
                  classes=len(ref.keys), next=lo)
    state = fresh
    if resume:
        old = load_state(out)
        if old is not None:
            for name in ("ruleset", "profile", "adapter", "evaluator", "shard", "start",
                         "stop", "jokers", "mode"):
                if getattr(old, name) != getattr(fresh, name):
                    raise ResumeError(f"cannot resume {out}: its {name} differs "
                                      f"({getattr(old, name)!r} vs {getattr(fresh, name)!r})")
            state = old
            state.finished = False
            state.aborted = ""
    checker = Checker(adapter, identity, ruleset, profile, state, ref, report_limit)
    state.save(out)
    try:
        checker.check_order()
        checker.run_range(hi, batch,
                          progress=(lambda n: progress(n - lo, hi - lo)) if progress else None,
                          checkpoint=lambda: state.save(out))
        state.finished = True
    finally:
        state.save(out)
    return state
