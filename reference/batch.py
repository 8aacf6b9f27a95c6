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

Hands hold natural cards only: wild cards (the Montana jokers) are not enumerated.
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
    raise ImportError("pokercert.reference.batch needs numpy: "
                      "pip install 'pokercert[fast]'") from exc

from pokercert.reference.cards import DECK, SUIT_CHARS, Card
from pokercert.reference.engine import DISTINCT, MIXED, SAME, Evaluator, evaluator, suit_class
from pokercert.reference.interpretations import Profile, load_profile

__all__ = ["Classified", "Table", "cards_of", "classify_all", "hands", "table"]

RANKS = 13
# suit classes as small integers, in the engine's own terms
SUIT_CLASSES = (SAME, DISTINCT, MIXED)
SUIT_DIGIT_BITS = 3               # bits per suit count: hands of up to 7 cards
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


def cards_of(row: Sequence[int] | np.ndarray) -> tuple[Card, ...]:
    """The cards of one row of :func:`hands` (indices into ``DECK``)."""
    return tuple(DECK[int(i)] for i in row)


@cache
def _code_tables(size: int) -> tuple[tuple[np.ndarray, ...], np.ndarray]:
    """Per-position card values whose sum over a hand packs ranks and suit counts.

    A hand's sum holds its ranks as base-13 digits (rows are rank-descending, so the
    digits are the sorted ranks) above SUIT_BITS bits of per-suit card counts.
    """
    if size > (1 << SUIT_DIGIT_BITS) - 1:
        raise ValueError(f"hands of more than {(1 << SUIT_DIGIT_BITS) - 1} cards are not supported")
    rank = np.array([c.rank - 2 for c in DECK], dtype=np.int64)
    suit = np.array([1 << (SUIT_DIGIT_BITS * SUIT_CHARS.index(c.suit)) for c in DECK],
                    dtype=np.int64)
    dtype = np.int32 if RANKS ** size << SUIT_BITS < 2 ** 31 else np.int64
    per_position = tuple(((rank * RANKS ** (size - 1 - j) << SUIT_BITS) + suit).astype(dtype)
                         for j in range(size))
    digit = (1 << SUIT_DIGIT_BITS) - 1
    suits_used = np.array([sum(1 for d in range(len(SUIT_CHARS))
                               if (m >> (SUIT_DIGIT_BITS * d)) & digit)
                           for m in range(1 << SUIT_BITS)])
    klass = np.where(suits_used == 1, SUIT_CLASSES.index(SAME),
                     np.where(suits_used == size, SUIT_CLASSES.index(DISTINCT),
                              SUIT_CLASSES.index(MIXED))).astype(dtype)
    return per_position, klass


def _codes(rows: np.ndarray) -> np.ndarray:
    """(sorted ranks, suit class) of each row (ascending DECK indices) as one integer."""
    per_position, klass = _code_tables(rows.shape[1])
    total = per_position[0][rows[:, 0]]
    for j in range(1, rows.shape[1]):
        total += per_position[j][rows[:, j]]
    codes: np.ndarray = (total >> SUIT_BITS) * len(SUIT_CLASSES) \
        + klass[total & ((1 << SUIT_BITS) - 1)]
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


class Table:
    """Lookup tables for one evaluator and hand size, built from the scalar engine.

    Built once from every hand of ``size`` cards; :meth:`classify` then values any array
    of such hands (rows of indices into ``DECK``) with two table lookups.
    """

    def __init__(self, ev: Evaluator, size: int) -> None:
        self.evaluator = ev
        self.size = size
        self.category_names: tuple[str, ...] = ev.categories
        every = hands(size)
        codes = _codes(every)
        space = RANKS ** size * len(SUIT_CLASSES)
        # one real hand per distinct code: whichever write lands, its code is the index
        example = np.empty(space, dtype=np.int64)
        example[codes] = np.arange(codes.shape[0])
        found = np.flatnonzero(np.bincount(codes, minlength=space))
        values = []
        for code in found:
            hand = cards_of(every[example[code]])
            if SUIT_CLASSES[code % len(SUIT_CLASSES)] != suit_class(hand):
                raise AssertionError(f"batch suit class disagrees with the engine on {hand}")
            values.append(ev.value(hand))
        order = {key: i for i, key in enumerate(sorted({v.key for v in values}))}
        index = {name: i for i, name in enumerate(self.category_names)}
        self._category = np.full(space, -1, dtype=np.int8)
        self._key = np.full(space, -1, dtype=np.int32)
        self._category[found] = [index[v.category] for v in values]
        self._key[found] = [order[v.key] for v in values]
        self.distinct = len(order)
        # the full enumeration is what the table was built from: keep its answer
        self._all = (self._category[codes], self._key[codes])
        for array in self._all:
            array.setflags(write=False)

    def classify(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Category indices and dense keys of ``rows``: an (m, size) array of DECK indices.

        The cards of a row may come in any order; a row that is no hand (a repeated
        card, an index outside the deck) raises ``ValueError`` naming it.
        """
        rows = np.asarray(rows)
        if rows.ndim != 2 or rows.shape[1] != self.size:
            raise ValueError(f"expected an (m, {self.size}) array of card indices, "
                             f"got shape {rows.shape}")
        if rows.size and (rows.min() < 0 or rows.max() >= len(DECK)):
            bad = np.flatnonzero(((rows < 0) | (rows >= len(DECK))).any(axis=1))
            raise ValueError(f"row {int(bad[0])} holds a card index outside DECK: "
                             f"{rows[bad[0]].tolist()}")
        if not (rows[:, 1:] > rows[:, :-1]).all():
            rows = np.sort(rows, axis=1)
            bad = np.flatnonzero((rows[:, 1:] == rows[:, :-1]).any(axis=1))
            if bad.size:
                raise ValueError(f"row {int(bad[0])} repeats a card: {rows[bad[0]].tolist()}")
        codes = _codes(rows)
        return self._category[codes], self._key[codes]

    def classify_all(self) -> Classified:
        """Every hand of this size, in :func:`hands` order."""
        categories, keys = self._all
        return Classified(self.evaluator.ruleset.id, self.evaluator.profile.name, self.size,
                          self.category_names, categories, keys)


def _profile_key(profile: Profile | str | None) -> tuple[str, tuple[tuple[str, str], ...]]:
    prof = load_profile(profile)
    return prof.name, tuple(sorted(prof.choices.items()))


@cache
def _table(ruleset: str, profile_key: tuple[str, tuple[tuple[str, str], ...]]) -> Table:
    name, choices = profile_key
    ev = evaluator(ruleset, Profile(name, dict(choices)))
    return Table(ev, ev.ruleset.hand_size)


def table(ruleset: str, profile: Profile | str | None = None) -> Table:
    """The (cached) :class:`Table` of a ruleset's hand size under a profile."""
    return _table(ruleset, _profile_key(profile))


def classify_all(ruleset: str, profile: Profile | str | None = None) -> Classified:
    """Category and key of every natural hand of the ruleset's size (52-card deck)."""
    return table(ruleset, profile).classify_all()
