"""Vectorised exhaustive passes of the reference evaluator (needs numpy: extra ``fast``).

Every hand of a ruleset's size, from the 52-card deck, classified and keyed at once::

    from pokercert.reference.batch import classify_all
    result = classify_all("nj-poker-high-5")     # all 2,598,960 hands, well under a second
    result.counts()["royal_flush"]               # 4
    result.distinct                              # 7462
    result.categories[i], result.keys[i]         # hand i of combinations(DECK, 5)

There is no second copy of the ranking rules here.  The scalar engine values a hand
from two facts only, its sorted ranks and its suit class (all one suit, all different
suits, or mixed; see :func:`pokercert.reference.engine.suit_class`).  This module
computes those two facts for every hand with numpy, asks the engine
(:meth:`~pokercert.reference.engine.Evaluator.value`) about one real hand per distinct
pair (a few thousand), and spreads the answers over all hands with one table lookup.
Agreement with the scalar engine is tested on random samples and by the exhaustive
censuses in ``tests/reference/test_reference_batch.py``.

Hands hold the 52 cards only: jokers (the Montana joker postings) are not enumerated.
Where the ruleset posts the deuces wild (``deck.wild = "deuces"``), a hand's value
depends on its sorted ranks (the deuces among them) and the suit class of its *natural*
cards only (a flush needs the naturals in one suit; the wild deuces take any suit), so
the suit count a deuce adds is left out of the code and the same two facts still
determine the value.

Nothing here needs the whole space in memory: :func:`rows` makes any range of the
enumeration by combinatorial unranking, and a :class:`Table` is built by streaming the
enumeration in chunks.  :func:`table` keeps a built table on disk
(:mod:`pokercert.reference.table_cache`), so a table is built once per ruleset, profile
and engine version, and every later process (a shard, a Dask worker, the next run) loads
it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from math import comb

try:
    import numpy as np
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(
        "pokercert.reference.batch needs numpy: pip install 'pokercert[fast]'"
    ) from exc

from pokercert.reference.cards import DECK, SUIT_CHARS, Card
from pokercert.reference.engine import (
    DISTINCT,
    MIXED,
    SAME,
    Evaluator,
    HandValue,
    evaluator,
    suit_class,
)
from pokercert.reference.interpretations import Profile, load_profile
from pokercert.reference.rulesets import get_ruleset

__all__ = [
    "CHUNK",
    "ClassTable",
    "Classified",
    "Table",
    "cards_of",
    "classify_all",
    "hands",
    "profile_key",
    "rank_rows",
    "rows",
    "table",
    "unrank",
]

RANKS = 13
# suit classes as small integers, in the engine's own terms
SUIT_CLASSES = (SAME, DISTINCT, MIXED)
SUIT_DIGIT_BITS = 3  # bits per suit count: hands of up to 7 cards
SUIT_BITS = SUIT_DIGIT_BITS * len(SUIT_CHARS)

if any(a.rank < b.rank for a, b in pairwise(DECK)):  # pragma: no cover
    raise ImportError("pokercert.reference.batch relies on DECK running rank-descending")


@cache
def hands(size: int) -> np.ndarray:
    """Every hand of ``size`` cards as indices into ``DECK``, one row per hand.

    Rows come in the order of ``itertools.combinations(DECK, size)``.  The array is
    shared between callers and read-only.
    """
    n = len(DECK)
    if not 1 <= size <= n:
        raise ValueError(f"hand size must be 1..{n}, got {size}")
    rows = np.arange(n - size + 1, dtype=np.uint8)[:, None]
    for j in range(1, size):
        # extend each row with every larger card that still leaves room for the rest
        last = rows[:, -1].astype(np.int64)
        reps = (n - size + j) - last
        total = int(reps.sum())
        starts = np.cumsum(reps) - reps
        out = np.empty((total, j + 1), dtype=np.uint8)
        out[:, :j] = np.repeat(rows, reps, axis=0)
        out[:, j] = np.arange(total) - np.repeat(starts - last - 1, reps)
        rows = out
    assert rows.shape[0] == comb(n, size)
    rows.setflags(write=False)
    return rows


# hands per chunk when a whole space is streamed (about 5 MB of rows for five cards)
CHUNK = 1 << 20


@cache
def _unrank_tables(size: int) -> tuple[np.ndarray, ...]:
    """Per card slot j, G[c] = how many hands of the enumeration put a card before c in
    slot j (for a fixed prefix): prefix sums of C(n - 1 - c, size - 1 - j)."""
    n = len(DECK)
    out = []
    for j in range(size):
        counts = [comb(n - 1 - c, size - 1 - j) for c in range(n)]
        out.append(np.concatenate([[0], np.cumsum(counts)]).astype(np.int64))
    return tuple(out)


def rows(size: int, start: int, stop: int) -> np.ndarray:
    """Hands ``start`` to ``stop - 1`` of :func:`hands` (the same rows), made by
    combinatorial unranking: memory in proportion to the range, never to the space.

    In lexicographic order, the hands whose slot j holds card c (after a fixed prefix
    ending in card p) number C(n - 1 - c, size - 1 - j); the card of slot j is the last c
    whose prefix sum over p < c' < c still fits the rank (one ``searchsorted`` per slot).
    """
    total = comb(len(DECK), size)
    if not 0 <= start <= stop <= total:
        raise ValueError(f"range {start}..{stop} is not inside 0..{total}")
    return unrank(size, np.arange(start, stop, dtype=np.int64))


def unrank(size: int, positions: np.ndarray) -> np.ndarray:
    """The hands at any ``positions`` of :func:`hands` (an int64 array), one row each."""
    rank = np.array(positions, dtype=np.int64)
    out = np.empty((rank.shape[0], size), dtype=np.uint8)
    after = np.zeros(rank.shape[0], dtype=np.int64)  # the first card slot j may hold
    for j, g in enumerate(_unrank_tables(size)):
        base = g[after]
        card = np.searchsorted(g, rank + base, side="right") - 1
        rank -= g[card] - base
        out[:, j] = card
        after = card + 1
    return out


def rank_rows(size: int, hands: np.ndarray) -> np.ndarray:
    """The position in the enumeration (:func:`rows`) of each
    row of ascending DECK indices: the inverse of :func:`unrank`."""
    hands = np.asarray(hands, dtype=np.int64)
    position = np.zeros(hands.shape[0], dtype=np.int64)
    after = np.zeros(hands.shape[0], dtype=np.int64)
    for j, g in enumerate(_unrank_tables(size)):
        position += g[hands[:, j]] - g[after]
        after = hands[:, j] + 1
    return position


def cards_of(row: Sequence[int] | np.ndarray) -> tuple[Card, ...]:
    """The cards of one row of :func:`hands` (indices into ``DECK``)."""
    return tuple(DECK[int(i)] for i in row)


@cache
def _code_tables(
    size: int, wild_rank: int | None = None
) -> tuple[tuple[np.ndarray, ...], np.ndarray]:
    """Per-position card values whose sum over a hand packs ranks and suit counts.

    A hand's sum holds its ranks as base-13 digits (rows are rank-descending, so the
    digits are the sorted ranks) above SUIT_BITS bits of per-suit card counts; a card of
    ``wild_rank`` (the posted wild deuces) adds its rank but no suit count.  The suit
    class of the counts is :func:`~pokercert.reference.engine.suit_class` of the cards
    counted (one suit, all different, or mixed).
    """
    if size > (1 << SUIT_DIGIT_BITS) - 1:
        raise ValueError(f"hands of more than {(1 << SUIT_DIGIT_BITS) - 1} cards are not supported")
    rank = np.array([c.rank - 2 for c in DECK], dtype=np.int64)
    suit = np.array(
        [
            0 if c.rank == wild_rank else 1 << (SUIT_DIGIT_BITS * SUIT_CHARS.index(c.suit))
            for c in DECK
        ],
        dtype=np.int64,
    )
    dtype = np.int32 if RANKS**size << SUIT_BITS < 2**31 else np.int64
    per_position = tuple(
        ((rank * RANKS ** (size - 1 - j) << SUIT_BITS) + suit).astype(dtype) for j in range(size)
    )
    digit = (1 << SUIT_DIGIT_BITS) - 1
    suits_used = np.array(
        [
            sum(1 for d in range(len(SUIT_CHARS)) if (m >> (SUIT_DIGIT_BITS * d)) & digit)
            for m in range(1 << SUIT_BITS)
        ]
    )
    counted = np.array(
        [
            sum((m >> (SUIT_DIGIT_BITS * d)) & digit for d in range(len(SUIT_CHARS)))
            for m in range(1 << SUIT_BITS)
        ]
    )
    klass = np.where(
        suits_used == 1,
        SUIT_CLASSES.index(SAME),
        np.where(suits_used == counted, SUIT_CLASSES.index(DISTINCT), SUIT_CLASSES.index(MIXED)),
    ).astype(dtype)
    return per_position, klass


def _codes(rows: np.ndarray, wild_rank: int | None = None) -> np.ndarray:
    """(sorted ranks, suit class of the natural cards) of each row (ascending DECK
    indices) as one integer; cards of ``wild_rank`` are wild, not natural."""
    per_position, klass = _code_tables(rows.shape[1], wild_rank)
    total = per_position[0][rows[:, 0]]
    for j in range(1, rows.shape[1]):
        total += per_position[j][rows[:, j]]
    codes: np.ndarray = (total >> SUIT_BITS) * len(SUIT_CLASSES) + klass[
        total & ((1 << SUIT_BITS) - 1)
    ]
    return codes


@dataclass(frozen=True)
class Classified:
    """Category and comparable key of every hand of one size, for one ruleset and profile.

    ``categories[i]`` indexes ``category_names`` (the evaluator's ranking, best first);
    ``keys[i]`` is a dense rank (0 = the worst value any hand of this size has): hand i
    beats hand j exactly when ``keys[i] > keys[j]``, and they tie when the keys are equal.
    Row i is hand i of ``itertools.combinations(DECK, size)`` (see :func:`hands`).
    """

    ruleset: str
    profile: str
    size: int
    category_names: tuple[str, ...]
    categories: np.ndarray
    keys: np.ndarray

    def __len__(self) -> int:
        return int(self.categories.shape[0])

    @property
    def distinct(self) -> int:
        """Number of distinct hand values (equivalence classes of the ranking)."""
        return int(np.count_nonzero(np.bincount(self.keys)))

    def counts(self) -> dict[str, int]:
        """Hands per category, every category of the ranking listed (zero if none)."""
        tally = np.bincount(self.categories, minlength=len(self.category_names))
        return {name: int(tally[i]) for i, name in enumerate(self.category_names)}

    def category(self, i: int) -> str:
        return self.category_names[int(self.categories[i])]


class ClassTable:
    """What every class table holds per class (dense key, 0 the worst value): the
    positions in the enumeration of three members (``members``), the engine's key
    (``class_keys`` padded with -1, cut by ``class_key_len``) and its category index;
    and ``arrays``, what the disk cache stores.  Subclasses look hands up."""

    size: int

    def __init__(self, built: dict[str, np.ndarray]) -> None:
        self.members: np.ndarray = built["members"]  # (classes, 3) positions
        self.class_keys: np.ndarray = built["class_keys"]  # (classes, width) engine keys
        self.class_key_len: np.ndarray = built["class_key_len"]  # each key's own length
        self.class_categories: np.ndarray = built["class_categories"]
        self.distinct = int(self.members.shape[0])
        self._built = built
        for array in built.values():
            array.setflags(write=False)

    @property
    def arrays(self) -> dict[str, np.ndarray]:
        """What the table is made of (what the disk cache stores)."""
        return dict(self._built)

    def engine_key(self, dense: int) -> tuple[int, ...]:
        """The engine's key of class ``dense`` (as :meth:`Evaluator.value` gives it; the
        row's padding cut by the key's own length: -1 is also a key digit, the ace of
        an ace-to-five low)."""
        return tuple(self.class_keys[dense, : self.class_key_len[dense]].tolist())

    def keys_of(self, rows: np.ndarray) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError


def _one_hand_per_code(size: int, wild: int | None, total: int, space: int) -> np.ndarray:
    """Pass 1 over every hand of ``size`` cards: per code, the position of its first hand
    in the enumeration (-1 for a code no hand has)."""
    example = np.full(space, -1, dtype=np.int64)
    for lo in range(0, total, CHUNK):
        codes = _codes(rows(size, lo, min(lo + CHUNK, total)), wild)
        first, at = np.unique(codes, return_index=True)
        new = example[first] < 0
        example[first[new]] = at[new] + lo
    return example


def _class_values(
    ev: Evaluator, size: int, example: np.ndarray
) -> tuple[np.ndarray, list[HandValue]]:
    """The codes some hand has and the engine's value of each code's first hand (its suit
    class checked against the engine's own)."""
    found = np.flatnonzero(example >= 0)
    wild = ev.wild_rank
    values = []
    for code in found:
        pos = int(example[code])
        hand = cards_of(rows(size, pos, pos + 1)[0])
        if SUIT_CLASSES[code % len(SUIT_CLASSES)] != suit_class(
            [c for c in hand if c.rank != wild]
        ):
            raise AssertionError(f"batch suit class disagrees with the engine on {hand}")
        values.append(ev.value(hand))
    return found, values


def _class_members(key: np.ndarray, n: int, size: int, wild: int | None, total: int) -> np.ndarray:
    """Pass 2: the positions of the first, middle (first in the second half, else the
    first) and last member of each of the ``n`` classes, as an (n, 3) array."""
    first = np.full(n, -1, dtype=np.int64)
    middle = np.full(n, -1, dtype=np.int64)
    last = np.full(n, -1, dtype=np.int64)
    half = total // 2
    for lo in range(0, total, CHUNK):
        hi = min(lo + CHUNK, total)
        dense = key[_codes(rows(size, lo, hi), wild)]
        seen, at = np.unique(dense, return_index=True)
        new = first[seen] < 0
        first[seen[new]] = at[new] + lo
        seen, at = np.unique(dense[::-1], return_index=True)
        last[seen] = hi - 1 - at
        if hi > half:
            cut = max(half - lo, 0)
            seen, at = np.unique(dense[cut:], return_index=True)
            new = middle[seen] < 0
            middle[seen[new]] = at[new] + lo + cut
    middle = np.where(middle < 0, first, middle)
    return np.stack([first, middle, last], axis=1)


class Table(ClassTable):
    """Lookup tables for one evaluator and hand size, built from the scalar engine.

    Built once by streaming every hand of ``size`` cards (:func:`rows`, chunk by chunk);
    :meth:`classify` then values any array of such hands (rows of indices into ``DECK``)
    with two table lookups.  Besides the lookups it knows, per class (dense key), the
    engine's key and category and the positions of three members of the enumeration:
    the first, the first in its second half (or the first) and the last
    (``members``), all an exhaustive pass needs from the whole space.
    """

    def __init__(
        self, ev: Evaluator, size: int, built: dict[str, np.ndarray] | None = None
    ) -> None:
        self.evaluator = ev
        self.size = size
        self.category_names: tuple[str, ...] = ev.categories
        self._all: tuple[np.ndarray, np.ndarray] | None = None
        if built is None:
            built = self._build(ev, size)
        super().__init__(built)
        self._wild_rank = ev.wild_rank
        self._category = built["category"]
        self._key = built["key"]

    @staticmethod
    def _build(ev: Evaluator, size: int) -> dict[str, np.ndarray]:
        total = comb(len(DECK), size)
        space = RANKS**size * len(SUIT_CLASSES)
        wild = ev.wild_rank
        found, values = _class_values(ev, size, _one_hand_per_code(size, wild, total, space))
        keys = sorted({v.key for v in values})
        order = {key: i for i, key in enumerate(keys)}
        index = {name: i for i, name in enumerate(ev.categories)}
        category = np.full(space, -1, dtype=np.int8)
        key = np.full(space, -1, dtype=np.int32)
        category[found] = [index[v.category] for v in values]
        key[found] = [order[v.key] for v in values]
        class_categories = np.empty(len(keys), dtype=np.int8)
        class_categories[[order[v.key] for v in values]] = [index[v.category] for v in values]
        width = max(len(k) for k in keys)
        class_keys = np.full((len(keys), width), -1, dtype=np.int64)
        for i, k in enumerate(keys):
            class_keys[i, : len(k)] = k
        return {
            "category": category,
            "key": key,
            "members": _class_members(key, len(keys), size, wild, total),
            "class_keys": class_keys,
            "class_key_len": np.array([len(k) for k in keys], dtype=np.int8),
            "class_categories": class_categories,
        }

    def classify(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Category indices and dense keys of ``rows``: an (m, size) array of DECK indices.

        The cards of a row may come in any order; a row that is no hand (a repeated
        card, an index outside the deck) raises ``ValueError`` naming it.
        """
        rows = np.asarray(rows)
        if rows.ndim != 2 or rows.shape[1] != self.size:
            raise ValueError(
                f"expected an (m, {self.size}) array of card indices, got shape {rows.shape}"
            )
        if rows.size and (rows.min() < 0 or rows.max() >= len(DECK)):
            bad = np.flatnonzero(((rows < 0) | (rows >= len(DECK))).any(axis=1))
            raise ValueError(
                f"row {int(bad[0])} holds a card index outside DECK: {rows[bad[0]].tolist()}"
            )
        if not (rows[:, 1:] > rows[:, :-1]).all():
            rows = np.sort(rows, axis=1)
            bad = np.flatnonzero((rows[:, 1:] == rows[:, :-1]).any(axis=1))
            if bad.size:
                raise ValueError(f"row {int(bad[0])} repeats a card: {rows[bad[0]].tolist()}")
        codes = _codes(rows, self._wild_rank)
        return self._category[codes], self._key[codes]

    def keys_of(self, rows: np.ndarray) -> np.ndarray:
        """Dense keys of rows made by :func:`rows` (ascending card indices, unchecked:
        :meth:`classify` is the checked form)."""
        return self._key[_codes(rows, self._wild_rank)]  # type: ignore[no-any-return]

    def classify_all(self) -> Classified:
        """Every hand of this size, in :func:`hands` order (the whole space in memory)."""
        if self._all is None:
            every = hands(self.size)
            codes = _codes(every, self._wild_rank)
            self._all = (self._category[codes], self._key[codes])
            for array in self._all:
                array.setflags(write=False)
        categories, keys = self._all
        return Classified(
            self.evaluator.ruleset.id,
            self.evaluator.profile.name,
            self.size,
            self.category_names,
            categories,
            keys,
        )


def profile_key(profile: Profile | str | None) -> tuple[str, tuple[tuple[str, str], ...]]:
    """A profile as a hashable key (name and choices), for tables kept per profile."""
    prof = load_profile(profile)
    return prof.name, tuple(sorted(prof.choices.items()))


@cache
def _table(ruleset: str, profile_key: tuple[str, tuple[tuple[str, str], ...]]) -> Table:
    from pokercert.reference.table_cache import load_or_build

    name, choices = profile_key
    ev = evaluator(ruleset, Profile(name, dict(choices)))
    size = ev.ruleset.hand_size
    return load_or_build(ev, size, lambda built: Table(ev, size, built))


def table(ruleset: str, profile: Profile | str | None = None) -> Table:
    """The :class:`Table` of a ruleset's hand size under a profile: kept in memory, and on
    disk (:mod:`pokercert.reference.table_cache`) for every later process.

    Only a poker ranking is valued by sorted ranks and suit class; a ruleset that declares
    another (``rules.ranking``, e.g. High Card Flush's flush length) is refused
    (``ValueError`` naming it) rather than tabled wrongly."""
    ranking = get_ruleset(ruleset).rules.get("ranking", "poker")
    if ranking != "poker":
        raise ValueError(
            f"ruleset {ruleset} ranks by {ranking!r}: the batch tables value "
            "poker rankings only (a hand's sorted ranks and suit class)"
        )
    return _table(ruleset, profile_key(profile))


def classify_all(ruleset: str, profile: Profile | str | None = None) -> Classified:
    """Category and key of every natural hand of the ruleset's size (52-card deck)."""
    return table(ruleset, profile).classify_all()
