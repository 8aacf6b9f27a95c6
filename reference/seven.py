"""The reference's value of every seven-card hand, as a compact class table (needs numpy).

In a game where a player's hand is the best five of the seven cards dealt to them (stud;
hold 'em when the board may play), the value of a seven-card hand is fixed by its
**class**: the multiset of its ranks, and the ranks of the suit holding five or more of
its cards (at most one suit can).  The engine values a five-card hand from its sorted
ranks and its suit class alone (:func:`pokercert.reference.engine.suit_class`), and among
seven cards a five-card subset is all one suit exactly when it lies inside that suit's
cards, never of five different suits (there are four); so every hand of a class has the
same 21 candidate (ranks, suit class) pairs and the same best five.

There are 190,346 classes (49,205 rank multisets, with or without a five-or-more flush).
A class is coded as one integer, ``multiset * 8192 + flush ranks`` (the multiset as the
sum over the cards of ``5 ** (rank - 2)``, the flush ranks as a 13-bit set, 0 without a
flush); the table holds the sorted codes and each code's value class, a few MB in all,
where the five-card layout of :mod:`pokercert.reference.batch` would need about 940 MB at
seven cards.  A batch of hands is valued with a handful of numpy operations and one
``searchsorted``.

The table is built from the five-card ranking's own table
(:func:`pokercert.reference.batch.table` of the half's ranking ruleset): each class's
representative hand, its 21 five-card subsets, the best of their values.  That it equals
the engine's ``best_hand`` is proved in ``tests/reference/test_games_census.py``, on a
representative of every one of the 190,346 classes (enumerated there independently) and
on random hands; and that the selection rule really lets any five of the seven play is
asked of the engine's own candidates before anything is built (:func:`dealt_size`).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from itertools import combinations

import numpy as np

from pokercert.reference.batch import RANKS, ClassTable, profile_key, rank_rows, table
from pokercert.reference.cards import DECK, SUIT_CHARS
from pokercert.reference.engine import Evaluator, evaluator
from pokercert.reference.interpretations import Profile

__all__ = ["SEVEN", "SevenTable", "class_codes", "seven_table"]

SEVEN = 7
FLUSH = 5  # cards of one suit that make a flush
_FLUSH_BITS = RANKS  # bits of the flush-ranks set in a class code
_LOWEST = 2

_RANK = np.array([c.rank - _LOWEST for c in DECK], dtype=np.int64)
_SUIT = np.array([SUIT_CHARS.index(c.suit) for c in DECK], dtype=np.int64)
_POW5 = np.array([5 ** int(r) for r in _RANK], dtype=np.int64)
_RANK_BIT = np.left_shift(np.int64(1), _RANK)
_SUIT_DIGIT = np.left_shift(np.int64(1), 3 * _SUIT)  # 3 bits per suit count (<= 7)
_INDEX = {(c.rank - _LOWEST, SUIT_CHARS.index(c.suit)): i for i, c in enumerate(DECK)}


def class_codes(hands: np.ndarray) -> np.ndarray:
    """The class code (see the module docstring) of each row: seven DECK indices."""
    hands = np.asarray(hands)
    multiset = _POW5[hands].sum(axis=1)
    suits = _SUIT_DIGIT[hands].sum(axis=1)
    counts = np.stack([(suits >> (3 * s)) & 7 for s in range(len(SUIT_CHARS))], axis=1)
    flushed = np.flatnonzero(counts.max(axis=1) >= FLUSH)
    flush_ranks = np.zeros(hands.shape[0], dtype=np.int64)
    if flushed.size:
        sub = hands[flushed]
        suit = counts[flushed].argmax(axis=1)
        flush_ranks[flushed] = np.where(_SUIT[sub] == suit[:, None], _RANK_BIT[sub], 0).sum(axis=1)
    out: np.ndarray = (multiset << _FLUSH_BITS) + flush_ranks
    return out


# ----------------------------------------------------------------- the classes
def _multisets(cards: int = SEVEN) -> Iterator[tuple[int, ...]]:
    """Every multiset of ``cards`` ranks (0 = deuce .. 12 = ace) with at most four of a
    rank, as 13 counts."""

    def grow(rank: int, left: int, acc: list[int]) -> Iterator[tuple[int, ...]]:
        if rank == RANKS:
            if left == 0:
                yield tuple(acc)
            return
        for n in range(min(4, left), -1, -1):
            acc.append(n)
            yield from grow(rank + 1, left - n, acc)
            acc.pop()

    yield from grow(0, cards, [])


def _representative(counts: tuple[int, ...], flush: tuple[int, ...]) -> list[int] | None:
    """DECK indices (ascending) of one hand with these rank counts whose suit 0 holds
    exactly the ranks ``flush`` (five or more), or no suit five cards (``flush`` empty);
    None if there is no such hand."""
    index = _INDEX
    used = [0] * len(SUIT_CHARS)
    hand: list[int] = []
    for rank, n in enumerate(counts):
        if not n:
            continue
        suits = list(range(1, len(SUIT_CHARS))) if flush else list(range(len(SUIT_CHARS)))
        if rank in flush:
            hand.append(index[(rank, 0)])
            used[0] += 1
            n -= 1
        if n > len(suits):
            return None
        suits.sort(key=lambda s: used[s])
        for s in suits[:n]:
            hand.append(index[(rank, s)])
            used[s] += 1
    if max(used[1:]) >= FLUSH or (used[0] >= FLUSH and used[0] != len(flush)):
        return None
    return sorted(hand)


def _classes() -> tuple[np.ndarray, np.ndarray]:
    """(class codes, representative rows) of every class of seven-card hands."""
    reps: list[list[int]] = []
    for counts in _multisets():
        present = [r for r, n in enumerate(counts) if n]
        found = _representative(counts, ())
        if found is not None:
            reps.append(found)
        for size in range(FLUSH, min(SEVEN, len(present)) + 1):
            for flush in combinations(present, size):
                found = _representative(counts, flush)
                if found is not None:
                    reps.append(found)
    rows_ = np.array(reps, dtype=np.uint8)
    return class_codes(rows_), rows_


# ----------------------------------------------------------------- the table
class SevenTable(ClassTable):
    """The reference's value of every seven-card hand of a best-five-of-seven game.

    A :class:`~pokercert.reference.batch.ClassTable` like the five-card
    :class:`~pokercert.reference.batch.Table` (``keys_of``, ``classify``, ``members``,
    ``engine_key``, ``class_categories``, ``arrays``), over hands of seven cards: dense keys are the
    distinct best-five values (4,824 in five-card high), 0 the worst.
    """

    size = SEVEN

    def __init__(self, ev: Evaluator, built: dict[str, np.ndarray] | None = None) -> None:
        self.evaluator = ev
        ranking, _ = ev.half_ranking(ev.ruleset.pot_halves[0].name)
        self.category_names: tuple[str, ...] = ranking.categories
        if built is None:
            built = self._build(ev, ranking)
        super().__init__(built)
        self._codes = built["codes"]
        self._class = built["class_of"]

    @staticmethod
    def _build(ev: Evaluator, ranking: Evaluator) -> dict[str, np.ndarray]:
        five = table(ranking.ruleset.id, ranking.profile)
        codes, reps = _classes()
        subsets = np.array(list(combinations(range(SEVEN), FLUSH)), dtype=np.intp)
        best = np.zeros(len(reps), dtype=np.int64)
        for lo in range(0, len(reps), 1 << 14):
            block = reps[lo : lo + (1 << 14)]
            sub = block[:, subsets].reshape(-1, FLUSH)  # ascending: combinations
            best[lo : lo + len(block)] = five.keys_of(sub).reshape(len(block), -1).max(axis=1)
        values, dense = np.unique(best, return_inverse=True)
        order = np.argsort(codes)
        # up to three members per class, far apart in the class's list of census classes
        members = np.zeros((len(values), 3), dtype=np.int64)
        positions = rank_rows(SEVEN, reps)
        by_class = np.argsort(dense, kind="stable")
        starts = np.searchsorted(dense[by_class], np.arange(len(values) + 1))
        for d in range(len(values)):
            mine = by_class[starts[d] : starts[d + 1]]
            pick = mine[[0, len(mine) // 2, len(mine) - 1]]
            members[d] = positions[pick]
        width = five.class_keys.shape[1]
        return {
            "codes": codes[order].astype(np.int64),
            "class_of": dense[order].astype(np.int32),
            "members": members,
            "class_keys": five.class_keys[values].reshape(-1, width).astype(np.int64),
            "class_key_len": five.class_key_len[values].astype(np.int8),
            "class_categories": five.class_categories[values].astype(np.int8),
        }

    def keys_of(self, hands: np.ndarray) -> np.ndarray:
        """Dense keys of rows of seven DECK indices (any order, unchecked)."""
        codes = class_codes(hands)
        at = np.searchsorted(self._codes, codes)
        return self._class[at]

    def classify(self, hands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Category indices and dense keys of rows of seven distinct DECK indices; a row
        that is no seven-card hand raises ``ValueError``."""
        hands = np.asarray(hands)
        if hands.ndim != 2 or hands.shape[1] != SEVEN:
            raise ValueError(f"expected an (m, 7) array of card indices, got {hands.shape}")
        ordered = np.sort(hands, axis=1)
        if hands.size and (
            ordered[:, 0].min() < 0
            or ordered[:, -1].max() >= len(DECK)
            or (ordered[:, 1:] == ordered[:, :-1]).any()
        ):
            raise ValueError("a row holds a card twice or an index outside DECK")
        codes = class_codes(hands)
        at = np.minimum(np.searchsorted(self._codes, codes), len(self._codes) - 1)
        if not (self._codes[at] == codes).all():  # pragma: no cover - a table bug
            raise AssertionError("a seven-card hand of no known class")
        keys = self._class[at]
        return self.class_categories[keys], keys


@cache
def _seven(ruleset: str, profile_key: tuple[str, tuple[tuple[str, str], ...]]) -> SevenTable:
    from pokercert.reference.table_cache import load_or_build

    name, choices = profile_key
    ev = evaluator(ruleset, Profile(name, dict(choices)))
    return load_or_build(ev, SEVEN, lambda built: SevenTable(ev, built))


def seven_table(ruleset: str, profile: Profile | str | None = None) -> SevenTable:
    """The :class:`SevenTable` of a best-five-of-seven ruleset under a profile: kept in
    memory, and on disk (:mod:`pokercert.reference.table_cache`)."""
    return _seven(ruleset, profile_key(profile))
