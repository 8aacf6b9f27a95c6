"""Members of two reference classes that can be dealt together, for many pairs at once.

Ordering the classes by an evaluator's ``compare`` (:mod:`.exhaustive_compare`) sends
one request per pair of classes, each naming a member of both that share no card.  The
member pair is the first one, lower class first, among the two classes' suit renamings
(:meth:`ReferenceClasses.alternatives`, the first 24 of each), so that the compare path
and the key path write up the same hands.  Looked up hand by hand in Python that search
cost seconds for the 7,462 five-card classes; here it is one table of every class's
renamings (card codes, card masks, jokers) built once with numpy and searched for a
whole batch of pairs in a few array operations.  The answers are the ones the
hand-by-hand search gives (a test holds the two together).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations
from typing import Any

from pokercert.reference import Card
from pokercert.reference.cards import SUIT_CHARS
from pokercert.reference.classes import (
    CODED_CARDS,
    ReferenceClasses,
    card_order,
    joker_count,
    row_masks,
    row_texts,
)

# the suit renamings a class's candidate members are tried under (the reference's)
_FIRST = 24
_JOKER = len(CODED_CARDS) - 1
# the first positions of a class's search order tried for a hand past its renamings (a
# table made once; then four times as many, and so on), and how many members are looked
# at in one array
_NATURALS = 64
_BLOCK_MEMBERS = 1 << 22

Pair = tuple[str, str]


def _rename_table(np: Any) -> Any:
    """(24, codes): each card code under each renaming of the suits, in
    ``permutations(SUIT_CHARS)`` order (the joker stays itself)."""
    out = np.empty((24, len(CODED_CARDS)), dtype=np.intp)
    index = {name: i for i, name in enumerate(CODED_CARDS)}
    for p, perm in enumerate(permutations(SUIT_CHARS)):
        rename = dict(zip(SUIT_CHARS, perm, strict=True))
        for i, name in enumerate(CODED_CARDS):
            out[p, i] = i if i == _JOKER else index[name[0] + rename[name[1]]]
    return out


class ClassPairs:
    """The member pairs of classes of ``ref``, sent in card order ``seed``.

    Build it after the classes' representatives are final (it reads ``ref.rep`` and
    ``ref.candidates`` once)."""

    def __init__(self, ref: ReferenceClasses, seed: int | None, jokers: int) -> None:
        import numpy as np

        self._np, self._seed, self._jokers, self._ref = np, seed, jokers, ref
        index = _CardCodes()
        members = [[ref.rep[i], *ref.candidates[i]] for i in range(len(ref.rep))]
        width = max(len(m) for m in members)
        codes = np.array(
            [[[index[c] for c in m[min(k, len(m) - 1)]] for k in range(width)] for m in members],
            dtype=np.intp,
        )
        n, _, size = codes.shape
        # every candidate under every renaming, the representative itself first
        renamed = _rename_table(np).take(codes, axis=1).transpose(1, 2, 0, 3).reshape(n, -1, size)
        self._codes = np.concatenate([codes[:, :1], renamed], axis=1)
        bits = np.left_shift(np.uint64(1), np.arange(len(CODED_CARDS), dtype=np.uint64))
        bits[_JOKER] = 0
        self._card_bits = bits
        masks = self._hand_masks(self._codes.reshape(-1, size)).reshape(self._codes.shape[:2])
        rank = self._first_seen_rank(masks)
        # each class's distinct renamings, in the order first seen, padded (valid: False)
        order = np.argsort(np.where(rank > 0, rank, rank.shape[1] + 1), axis=1, kind="stable")[
            :, : int((rank > 0).sum(axis=1).max())
        ]
        self._codes = np.take_along_axis(self._codes, order[:, :, None], axis=1)
        self._masks = np.take_along_axis(masks, order, axis=1)
        self._joker_counts = (self._codes == _JOKER).sum(axis=2)
        self._valid = np.take_along_axis(rank > 0, order, axis=1)
        self._renamings = _Holders(np, self._codes, self._valid)
        if jokers:
            # (classes x the hand's jokers, words): the renamings that fit beside them
            fits = self._valid[:, None, :] & (
                self._joker_counts[:, None, :] + np.arange(jokers + 1)[None, :, None] <= jokers
            )
            self._fits = _packed(np, fits.reshape(-1, fits.shape[2]))
            self._jokers_only = _packed(np, self._valid & (self._masks == 0))
        # the same hands in the run's card order, as sent (drawn once, not a batch at a time)
        self._sent = self._in_card_order(self._codes.reshape(-1, size)).reshape(self._codes.shape)
        self._naturals: tuple[_Holders, Any, Any] | None = None

    def _first_seen_rank(self, masks: Any) -> Any:
        """Per row, 1, 2, ... at each mask's first occurrence (in order), 0 at repeats."""
        np = self._np
        order = np.argsort(masks, axis=1, kind="stable")
        ranked = np.take_along_axis(masks, order, axis=1)
        first = np.ones_like(ranked, dtype=bool)
        first[:, 1:] = ranked[:, 1:] != ranked[:, :-1]
        keep = np.zeros_like(first)
        np.put_along_axis(keep, order, first, axis=1)
        return np.where(keep, np.cumsum(keep, axis=1), 0)

    def _search(self, lower: Any, upper: Any, limit: int) -> tuple[Any, Any, Any]:
        """(found, i, j) per pair: whether two renamings, among the first ``limit`` of
        each class, can be dealt together, and the first such (row-major).  The lower
        class's first renaming is tried against the upper's first ``limit`` for every
        pair at once, the whole square only for the pairs it leaves (most are dealt
        together by it: a row's first hit is the row-major first)."""
        np = self._np
        found, i, j = self._block(lower, upper, 1, limit)
        rest = np.flatnonzero(~found)
        if len(rest):
            found[rest], i[rest], j[rest] = self._block(lower[rest], upper[rest], limit, limit)
        return found, i, j

    def _block(self, lower: Any, upper: Any, rows: int, limit: int) -> tuple[Any, Any, Any]:
        """:meth:`_search` over the lower class's first ``rows`` renamings."""
        lo_m, up_m = self._masks[lower, :rows], self._masks[upper, :limit]
        ok = (lo_m[:, :, None] & up_m[:, None, :]) == 0
        ok &= (
            self._joker_counts[lower, :rows][:, :, None]
            + self._joker_counts[upper, :limit][:, None, :]
        ) <= self._jokers
        ok &= self._valid[lower, :rows][:, :, None] & self._valid[upper, :limit][:, None, :]
        flat = ok.reshape(len(lower), -1)
        first = flat.argmax(axis=1)
        width = ok.shape[2]
        return flat.any(axis=1), first // width, first % width

    def first_pairs(self, pairs: Sequence[tuple[int, int]]) -> list[Pair | None]:
        """For each (lower, upper) of classes, the texts of the first member pair of their
        renamings (the first 24 of each) that can be dealt together, or None."""
        np = self._np
        if not pairs:
            return []
        lower, upper = (np.array(side, dtype=np.intp) for side in zip(*pairs, strict=True))
        found, i, j = self._search(lower, upper, _FIRST)
        rows = np.flatnonzero(found)
        texts = row_texts(
            np.concatenate([self._sent[lower[rows], i[rows]], self._sent[upper[rows], j[rows]]])
        )
        out: list[Pair | None] = [None] * len(pairs)
        for k, r in enumerate(rows.tolist()):
            out[r] = texts[k], texts[k + len(rows)]
        return out

    def apart_by_renaming(self, pairs: Sequence[tuple[int, int]]) -> list[bool]:
        """Whether any renamings of the two classes (all of them) can be dealt together:
        the first test of :meth:`ReferenceClasses.disjoint_pair`."""
        if not pairs:
            return []
        np = self._np
        lower, upper = (np.array(side, dtype=np.intp) for side in zip(*pairs, strict=True))
        out: list[bool] = []
        for at in range(0, len(pairs), 256):  # (256, 97, 97) at a time
            found, _, _ = self._search(
                lower[at : at + 256], upper[at : at + 256], self._codes.shape[1]
            )
            out.extend(found.tolist())
        return out

    def members_beside(self, classes: Any, rows: Any) -> tuple[Any, Any]:
        """(members, found): for each hand (a row of card codes) of class ``classes[k]``,
        whether its class has a member dealt beside it (not the hand itself), and if so
        ``members[k]``, the card codes (in the run's card order, as sent) of the one
        :meth:`ReferenceClasses.disjoint_member` gives: the first of its renamings (all
        of them, the representative first), else the first of every natural member in
        the class's search order (the first :data:`_NATURALS` from a table made once,
        then :meth:`_from_pools`), each step for the whole batch at once."""
        np = self._np
        classes = np.asarray(classes, dtype=np.intp)
        rows = np.asarray(rows, dtype=np.intp)
        if self._jokers:  # the renamings that fit in one deck beside each hand's jokers
            jokers = (rows == _JOKER).sum(axis=1)
            usable = self._fits.take(classes * (self._jokers + 1) + jokers, axis=0)
            bare = np.flatnonzero((rows == _JOKER).all(axis=1))
            if len(bare):  # a hand of jokers alone is apart from all but itself
                usable[bare] &= ~self._jokers_only.take(classes[bare], axis=0)
            found, first = self._renamings.first_free(classes, rows, usable)
        else:
            found, first = self._renamings.first_free(classes, rows)
        width = self._sent.shape[1]
        members = self._sent.reshape(-1, self._sent.shape[2]).take(classes * width + first, axis=0)
        rest = np.flatnonzero(~found)
        naturals = self.natural_table() if len(rest) else None
        if naturals is not None:
            table, at, natural = naturals
            hit, k = table.first_free(classes[rest], rows[rest])
            members[rest[hit]] = self._in_card_order(natural[at[classes[rest[hit]], k[hit]]])
            found[rest[hit]] = True
            rest = rest[~hit]
            if len(rest):
                found[rest], members[rest] = self._from_pools(
                    classes[rest], self._hand_masks(rows[rest])
                )
        return members, found

    def natural_table(self) -> tuple[_Holders, Any, Any] | None:
        """(holders, at, rows): the first :data:`_NATURALS` natural members of each class
        in its search order (:func:`~pokercert.reference.classes.member_step`), as
        :class:`_Holders`, their places (classes, positions) in the rows of every natural
        hand (:meth:`ReferenceClasses.natural_members`), and those rows.  None without
        natural members.  Made once, on the first call."""
        np = self._np
        if self._naturals is None:
            every = self._ref.natural_members()
            if every is None:
                return None
            _, members, starts = every
            sizes = np.diff(starts)[:, None]
            k = np.arange(_NATURALS, dtype=np.int64)
            valid = k < sizes
            at = starts[:-1, None] + (k * self._ref.member_steps()[:, None]) % np.maximum(sizes, 1)
            at = np.where(valid, at, 0)
            if not len(members):  # (no natural hand at all: every entry invalid)
                members = np.zeros((1, self._codes.shape[2]), dtype=np.intp)
            self._naturals = (_Holders(np, members.take(at, axis=0), valid), at, members)
        return self._naturals

    def _hand_masks(self, rows: Any) -> Any:
        """Each hand's natural cards as one bit mask (uint64; jokers count for nothing),
        the columns or-ed one at a time (a reduction along rows of five is slower)."""
        return row_masks(self._card_bits, rows)

    def _from_pools(self, classes: Any, hands: Any) -> tuple[Any, Any]:
        """(found, members): for each hand (its card mask) of class ``classes[k]``,
        whether its class has a natural member (:meth:`ReferenceClasses.natural_members`)
        that shares no card with it and is not the hand itself, and the first such in
        the class's search order (:func:`~pokercert.reference.classes.member_step`; its
        card codes in deck order).  The first positions of the order are searched for
        every hand at once, then four times as many for the hands left, and so on (most
        hands are settled in the first block), a few million members at a time.  The
        first :data:`_NATURALS` positions are :meth:`natural_table`'s, searched before."""
        np = self._np
        found = np.zeros(len(classes), dtype=bool)
        out = self._sent[classes, 0]  # (the representative, where none is found)
        every = self._ref.natural_members()
        if every is None:
            return found, out
        masks, members, starts = every
        steps = self._ref.member_steps()[classes]
        lo, sizes = starts[classes], starts[classes + 1] - starts[classes]
        todo = np.flatnonzero(sizes > _NATURALS)
        begin, width = _NATURALS, 4 * _NATURALS
        while len(todo):
            for part in np.array_split(todo, -(-len(todo) * width // _BLOCK_MEMBERS)):
                k = np.arange(begin, begin + width, dtype=np.int64)
                size = sizes[part][:, None]
                at = (k * steps[part][:, None]) % size
                seen = masks[lo[part][:, None] + at]
                hand = hands[part][:, None]
                ok = ((seen & hand) == 0) & (seen != hand) & (k < size)
                hit = np.flatnonzero(ok.any(axis=1))
                found[part[hit]] = True
                picked = members[lo[part[hit]] + at[hit, ok[hit].argmax(axis=1)]]
                out[part[hit]] = self._in_card_order(picked)
            # the hands whose class holds members beyond this block, none found yet
            begin, width = begin + width, width * 4
            todo = todo[~found[todo] & (sizes[todo] > begin)]
        return found, out

    def _in_card_order(self, hands: Any) -> Any:
        """Hands (rows of card codes) in the run's card order, as sent."""
        if self._seed is not None and len(hands):
            return card_order(self._seed, hands)
        return hands


class _Holders:
    """For each class, a row of its hands (its renamings, or its first natural members):
    which of them hold each card, as bits of 64-bit words ``holds[class, card]``.  The
    first hand of a class's row that shares no card with a given hand is then a few
    ors (one a card of the hand) and one lowest-bit step, for a whole batch at once."""

    def __init__(self, np: Any, codes: Any, usable: Any) -> None:
        classes, width, size = codes.shape
        self._np, self._cards = np, len(CODED_CARDS)
        self.words = -(-width // 64)
        holds = np.zeros((classes, self._cards, self.words), dtype=np.uint64)
        every = np.arange(classes)
        for r in range(width):  # (one class a row in each step: no index twice)
            bit = np.uint64(1 << (r % 64))
            for j in range(size):
                holds[every, codes[:, r, j], r // 64] |= bit
        holds[:, _JOKER, :] = 0  # (a joker is no card two hands share)
        self._holds = holds.reshape(classes * self._cards, self.words)
        self.usable = _packed(np, usable)

    def first_free(self, classes: Any, rows: Any, usable: Any = None) -> tuple[Any, Any]:
        """(found, first) per hand (a row of card codes) of class ``classes[k]``: whether
        a hand of its class's row that is ``usable`` (default: every real one; else
        (hands, words) bits) shares no card with it, and the first such."""
        np = self._np
        base = classes * self._cards
        held = self._holds.take(base + rows[:, 0], axis=0)
        for j in range(1, rows.shape[1]):
            held |= self._holds.take(base + rows[:, j], axis=0)
        free = ~held & (self.usable.take(classes, axis=0) if usable is None else usable)
        found = np.zeros(len(classes), dtype=bool)
        first = np.zeros(len(classes), dtype=np.intp)
        for w in reversed(range(self.words)):  # the lowest word with a free hand wins
            bits = free[:, w]
            lowest = bits & (~bits + np.uint64(1))
            # a power of two below 2**64 is exact as a float: its exponent is its bit
            at = np.frexp(lowest.astype(np.float64))[1] - 1 + 64 * w
            first = np.where(bits != 0, at, first)
            found |= bits != 0
        return found, first


def _packed(np: Any, flags: Any) -> Any:
    """(rows, words) uint64: each row of bools (up to 64 a word) as bits, little end
    first."""
    rows, width = flags.shape
    words = -(-width // 64)
    padded = np.zeros((rows, 64 * words), dtype=bool)
    padded[:, :width] = flags
    return np.packbits(padded, axis=1, bitorder="little").view("<u8").reshape(rows, words)


class _CardCodes(dict[Card, int]):
    """Each card's position in :data:`CODED_CARDS`, looked up by the card itself (a
    tenth of spelling it first: the pair table codes every class's members)."""

    def __missing__(self, card: Card) -> int:
        code = CODED_CARDS.index(str(card))
        self[card] = code
        return code


def python_first_pair(
    ref: ReferenceClasses, lower: int, upper: int
) -> tuple[tuple[Card, ...], tuple[Card, ...]] | None:
    """The pair :meth:`ClassPairs.first_pairs` gives, hand by hand (without numpy)."""
    for m_lo, low in ref.alternatives(lower)[:_FIRST]:
        for m_up, up in ref.alternatives(upper)[:_FIRST]:
            if not m_lo & m_up and ref.fits(up, joker_count(low)):
                return low, up
    return None
