"""The reference's equivalence classes of every hand of a ruleset.

A :class:`Space` is every hand of a ruleset's size in one fixed order (``combinations(DECK,
n)``, then the hands holding 1, 2, ... jokers); :class:`ReferenceClasses` numbers the
reference's value of each of them as a class (0 the worst), with a few members per class,
the class of any batch of positions, and members that can be dealt beside a given hand.
This is what an exhaustive pass (:mod:`pokercert.harness.explore.exhaustive`) checks an
evaluator against; nothing here knows about adapters.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations, islice, permutations
from math import comb, gcd
from typing import Any

from pokercert.reference.cards import DECK, JOKER, SUIT_CHARS, Card
from pokercert.reference.engine import Evaluator, evaluator
from pokercert.reference.interpretations import Profile
from pokercert.reference.rulesets import Ruleset

__all__ = [
    "CODED_CARDS",
    "ReferenceClasses",
    "Space",
    "card_order",
    "cards",
    "dealt_size",
    "joker_count",
    "mask",
    "member_step",
    "shuffled",
    "signature",
    "space_of",
    "text",
]

# the cards a batch of hands is coded with: DECK's canonical spellings in DECK's order,
# then the joker (the evaluator API's ``Hands.codes`` index into this tuple)
CODED_CARDS: tuple[str, ...] = (*(str(c) for c in DECK), str(JOKER))

_TEXT = {c: str(c) for c in (*DECK, JOKER)}
_CODE = {c: CODED_CARDS.index(str(c)) for c in (*DECK, JOKER)}
_BIT = {c: 1 << i for i, c in enumerate(DECK)}
_JOKER_CODE = len(DECK)
_U64 = (1 << 64) - 1


# --------------------------------------------------------------------------- card order
# Exhaustive passes send each hand in a seeded random card order, so that an evaluator
# that reads cards in the order given (kickers compared in input order) is caught.  The
# order of a hand is a pure function of (seed, the hand's cards): the same hand gets the
# same order in every batch, shard, resume and request of one run, on any machine, with or
# without numpy.  One SplitMix64 draw (Steele, Lea and Flood, 2014) over the seed and the
# hand's card set picks one of the size! orders of its cards (taken in deck order, their
# CODED_CARDS positions ascending; the orders numbered as itertools.permutations lists
# them); the bias of the modulo is below 2**-50.
def _splitmix(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & _U64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _U64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _U64
    return x ^ (x >> 31)


def _identity(codes: Sequence[int]) -> int:
    """The hand's card set as one integer: its natural cards as bits, jokers counted above
    them (a hand's cards in any order give the same number)."""
    m = jokers = 0
    for c in codes:
        if c == _JOKER_CODE:
            jokers += 1
        else:
            m |= 1 << c
    return m | jokers << len(DECK)


@cache
def _orders(size: int) -> tuple[tuple[int, ...], ...]:
    return tuple(permutations(range(size)))


@cache
def _order_table(size: int) -> Any:
    import numpy as np

    return np.array(_orders(size), dtype=np.intp).reshape(-1, size)


def _ordered(seed: int, codes: Sequence[int]) -> list[int]:
    """The codes of one hand in the card order of ``seed``."""
    ranked = sorted(codes)
    orders = _orders(len(ranked))
    pick = _splitmix((_splitmix(seed & _U64) + _identity(ranked)) & _U64) % len(orders)
    return [ranked[i] for i in orders[pick]]


def shuffled(hand: Sequence[Card], seed: int | None) -> tuple[Card, ...]:
    """The hand in the card order of ``seed`` (:func:`card_order`; the same whatever order
    it is given in); as given if None."""
    if seed is None:
        return tuple(hand)
    return tuple(_CARD_OF_CODE[c] for c in _ordered(seed, [_CODE[c] for c in hand]))


def card_order(seed: int, codes: Any, presorted: bool = False) -> Any:
    """Each row of ``codes`` (an (m, size) numpy array of :data:`CODED_CARDS` positions)
    in the card order of ``seed``: the same order :func:`shuffled` gives each hand.
    ``presorted``: the rows are in deck order already (as the enumeration makes them)."""
    import numpy as np

    if not presorted:
        codes = np.sort(codes, axis=1)
    rows, size = codes.shape
    if size > 8:
        raise ValueError("card orders are drawn for hands of up to 8 cards")
    # _identity: the natural cards' bits, jokers counted from bit 52 up; as the cards of
    # a hand differ and the joker's code is 52, that is the sum of 1 << code (looked up:
    # an exhaustive pass draws an order for every hand, so the steps work in place)
    bits = _code_bits().take(codes)
    x = bits[:, 0].copy() if size else np.zeros(rows, dtype=np.uint64)
    for j in range(1, size):  # (column by column: a sum along rows of five is slower)
        x += bits[:, j]
    with np.errstate(over="ignore"):
        x += np.uint64((_splitmix(seed & _U64) + 0x9E3779B97F4A7C15) & _U64)
        x ^= x >> np.uint64(30)
        x *= np.uint64(0xBF58476D1CE4E5B9)
        x ^= x >> np.uint64(27)
        x *= np.uint64(0x94D049BB133111EB)
        x ^= x >> np.uint64(31)
    orders = _order_table(size)
    pick = orders.take((x % np.uint64(orders.shape[0])).astype(np.intp), axis=0)
    # each row's picked order as positions in the flat array: one gather for the batch
    pick += np.arange(0, rows * size, size, dtype=np.intp)[:, None]
    return np.ascontiguousarray(codes).ravel().take(pick)


def row_texts(rows: Any) -> list[str]:
    """Each row of card codes (an (m, size) numpy array over :data:`CODED_CARDS`) as one
    string, the cards separated by single spaces: made by numpy as one array of fixed-width
    strings (every card code is two characters), a fifth of the time of joining each."""
    import numpy as np

    n, size = rows.shape
    if not n or not size:
        return [""] * n
    out = np.full((n, 3 * size - 1), ord(" "), dtype=np.uint32)
    for j in range(size):
        out[:, 3 * j : 3 * j + 2] = _code_chars()[rows[:, j]]
    texts: list[str] = out.view(f"<U{3 * size - 1}").ravel().tolist()
    return texts


def row_masks(bits: Any, rows: Any) -> Any:
    """Each row of card codes (numpy, (hands, cards)) as the or of ``bits[code]`` over its
    cards (uint64): its card mask.  A column at a time: a reduction along rows of a few
    cards is slower."""
    masks = bits.take(rows[:, 0])
    for j in range(1, rows.shape[1]):
        masks |= bits.take(rows[:, j])
    return masks


@cache
def _code_chars() -> Any:
    """(codes, 2): the two characters of each card code, as numbers (made on first use)."""
    import numpy as np

    assert all(len(c) == 2 for c in CODED_CARDS)
    return np.array([[ord(ch) for ch in c] for c in CODED_CARDS], dtype=np.uint32)


@cache
def _code_bits() -> Any:
    """``1 << code`` of every code a hand may hold (uint64)."""
    import numpy as np

    return np.left_shift(np.uint64(1), np.arange(64, dtype=np.uint64))


# the most cards dealt to one player that an exhaustive pass enumerates: C(52, 7) hands
MOST_DEALT = 7


def dealt_size(ev: Evaluator) -> int:
    """The size of the hands an exhaustive pass of ``ev``'s ruleset enumerates.

    The ruleset's hand size, except in a game whose hand is the best ``hand_size`` of
    the cards dealt to a player when *any* of them may play under ``ev``'s profile, and
    one half of the pot decides (stud: the best five of seven; hold 'em under a reading
    where the board may play): then the cards dealt (hole + board, at most
    :data:`MOST_DEALT`), each hand valued by its best five.  Whether any of them may
    play is asked of the engine's own candidates for one deal, not read from a name.
    """
    rs = ev.ruleset
    sel = rs.selection
    if sel is None or len(rs.pot_halves) != 1 or rs.pot_halves[0].qualifier is not None:
        return rs.hand_size
    dealt = sel.hole + sel.board
    if dealt == rs.hand_size or dealt > MOST_DEALT or rs.jokers:
        return rs.hand_size
    hole, board = DECK[: sel.hole], DECK[sel.hole : dealt]
    candidates = {frozenset(c) for c in ev.candidates(hole, board, rs.hand_size)}
    every = {frozenset(c) for c in combinations(DECK[:dealt], rs.hand_size)}
    return dealt if candidates == every else rs.hand_size


# the largest natural space made at once for the members table (five-card hands: 2.6
# million rows, 13 MB, kept by batch.hands); a larger one (seven cards: 133 million) is
# unranked chunk by chunk, never kept
WHOLE_AT_ONCE = 1 << 22


@dataclass(frozen=True)
class Space:
    """Every hand of a ruleset, in a fixed order: naturals, then 1, 2, ... jokers."""

    size: int
    jokers: int

    @property
    def segments(self) -> list[tuple[int, int]]:
        """(jokers in the hand, how many such hands), in enumeration order."""
        return [
            (j, comb(len(DECK), self.size - j))
            for j in range(self.jokers + 1)
            if self.size - j >= 0
        ]

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


def space_of(ruleset: Ruleset, profile: Profile, jokers: bool = True) -> Space:
    """The hands an exhaustive pass of ``ruleset`` under ``profile`` enumerates: hands of
    :func:`dealt_size` cards, with the deck's jokers unless ``jokers`` is False."""
    return Space(dealt_size(evaluator(ruleset.id, profile)), ruleset.jokers if jokers else 0)


def text(hand: Sequence[Card]) -> str:
    """A hand as the protocol spells it: canonical cards separated by single spaces."""
    return " ".join(_TEXT[c] for c in hand)


def mask(hand: Sequence[Card]) -> int:
    """The natural cards of a hand as a bit set (jokers are not cards of the deck)."""
    m = 0
    for c in hand:
        m |= _BIT.get(c, 0)
    return m


_CARD = {name: card for card, name in _TEXT.items()}
_CARD_OF_CODE = {code: card for card, code in _CODE.items()}


def cards(tokens: Sequence[str]) -> tuple[Card, ...]:
    """The cards of a token list made by this module (canonical spellings only)."""
    return tuple(_CARD[t] for t in tokens)


def joker_count(hand: Sequence[Card]) -> int:
    return sum(c.is_joker for c in hand)


def signature(hand: Sequence[Card]) -> tuple[Any, ...]:
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


# A class's natural members are searched for one dealt beside a hand in a fixed order:
# position k * step (mod the class's size) for k = 0, 1, ...  In enumeration order the
# neighbouring members share most of their cards (they differ in the last ones), so the
# first member apart from a hand lay a hundred or more members in (a one-pair class);
# striding by about 0.618 of the class (the golden ratio's spacing: every stretch of the
# order is spread over the whole class) finds one within a few dozen, and a search of the
# first few dozen positions settles most hands.  The step is coprime with the size, so the
# order visits every member once: "none found" still means none exists.
_GOLDEN = 0.6180339887498949


def member_step(size: int) -> int:
    """The step of the search order over a class of ``size`` natural members: the
    integer nearest ``0.618 * size`` (at least 1), raised to the first coprime with
    ``size``."""
    step = max(1, round(size * _GOLDEN))
    while gcd(step, size) != 1:
        step += 1
    return step


# --------------------------------------------------------------------------- the reference
class ReferenceClasses:
    """The reference's value of every hand of a :class:`Space` as a class number.

    Class 0 is the worst value; ``keys[i]`` is the engine's key of class i, ``rep[i]`` a
    hand of that class (a natural one where the class has one).  Natural hands come from
    the vectorised batch path (:mod:`pokercert.reference.batch`) when numpy is there,
    joker hands from the engine, one hand per suit pattern.
    """

    _np: Any  # the numpy module, or None: set by _naturals, which takes either path
    _table: Any  # the batch path's Table (numpy only)

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
            # dense key of the batch table -> class number here
            self._to_global = np.array([self.index[k] for k, _, _ in natural_keys], dtype=np.int32)
        self._categories_of = self.lookup(self.category)
        self._alternatives: dict[int, list[tuple[int, tuple[Card, ...]]]] = {}
        self._members: tuple[Any, Any, Any] | None = None
        self._steps: Any = None
        self._last_rows: tuple[int, int, Any] = (-1, -1, None)
        self._stream: Iterator[tuple[Card, ...]] = iter(())
        self._stream_at = -1

    @property
    def random_access(self) -> bool:
        """Whether :meth:`tokens` builds any range afresh at the same cost (numpy), so that
        a hand's tokens can be had again by position instead of being kept."""
        return self._np is not None

    def _naturals(self) -> list[tuple[tuple[int, ...], str, list[tuple[Card, ...]]]]:
        """(engine key, category, [first, middle, last member]) per natural class, from
        the batch path's table (built once, then loaded from disk: nothing here holds the
        whole space)."""
        try:
            import numpy as np

            from pokercert.reference.batch import table, unrank
        except ImportError:
            if self.space.size != self.ev.ruleset.hand_size:
                raise ImportError(
                    "a best-five-of-seven pass needs numpy: pip install 'pokercert[fast]'"
                ) from None
            self._np = None
            return self._naturals_scalar()
        self._np = np
        tab: Any
        if self.space.size != self.ev.ruleset.hand_size:
            from pokercert.reference.seven import seven_table

            tab = seven_table(self.ev.ruleset.id, self.ev.profile)
        else:
            tab = table(self.ev.ruleset.id, self.ev.profile)
        self._table = tab
        if tab.size != self.space.size:
            raise ValueError(f"{self.ev.ruleset.id}: batch table holds {tab.size}-card hands")
        size = self.space.size
        names = tab.category_names
        deck = np.empty(len(DECK), dtype=object)
        deck[:] = DECK
        every = deck[unrank(size, tab.members.ravel())].reshape(-1, 3, size).tolist()
        return [
            (
                tab.engine_key(dense),
                names[int(tab.class_categories[dense])],
                [tuple(m) for m in members],
            )
            for dense, members in enumerate(every)
        ]

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
            sig = signature(hand)
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

    @property
    def best_of_dealt(self) -> bool:
        """Whether hands are the cards dealt, each valued by its best ``hand_size``
        (:func:`dealt_size`), rather than hands of the ruleset's own size."""
        return self.space.size != self.ev.ruleset.hand_size

    def tokens(self, start: int, stop: int, order_seed: int | None = None) -> list[list[str]]:
        """Hands ``start`` to ``stop - 1`` as card-token lists (the in-process form)."""
        flat = [CODED_CARDS[c] for c in self.codes(start, stop, order_seed)]
        n = self.space.size
        return [flat[i : i + n] for i in range(0, len(flat), n)]

    def codes(self, start: int, stop: int, order_seed: int | None = None) -> list[int]:
        """The cards of hands ``start`` to ``stop - 1``, one flat list of their positions in
        :data:`CODED_CARDS` (``space.size`` per hand), made anew on every call; each hand's
        cards in the order of ``order_seed`` (:func:`card_order`), or as enumerated (rank
        descending) if None.

        With numpy they come from the batch path's index rows, the hands with jokers
        too (their natural cards are the rows of the smaller hand size); without, from
        one :meth:`Space.hands` stream that successive batches continue (no re-skipping
        from the start of the enumeration per batch).
        """
        if self._np is not None:
            return self.code_rows(start, stop, order_seed).ravel().tolist()  # type: ignore[no-any-return]
        size = self.space.size
        if self._stream_at != start:
            self._stream = self.space.hands(start, self.space.total)
        codes = [_CODE[c] for h in islice(self._stream, stop - start) for c in h]
        self._stream_at = stop
        if order_seed is not None:
            codes = [
                c
                for j in range(0, len(codes), size)
                for c in _ordered(order_seed, codes[j : j + size])
            ]
        return codes

    def code_rows(self, start: int, stop: int, order_seed: int | None = None) -> Any:
        """:meth:`codes` as a numpy array of shape (hands, size) (numpy only): the batch
        path's index rows, each in the card order of ``order_seed``."""
        from pokercert.reference.batch import rows

        size = self.space.size
        np = self._np
        blocks = []
        offset = 0
        for jokers, count in self.space.segments:
            lo, hi = max(start - offset, 0), min(stop - offset, count)
            if lo < hi:
                naturals = size - jokers
                if jokers == 0:
                    blocks.append(self._rows(lo, hi))  # DECK positions are the codes
                else:
                    block = np.empty((hi - lo, size), dtype=np.uint8)
                    if naturals:
                        block[:, :naturals] = rows(naturals, lo, hi)
                    block[:, naturals:] = _CODE[JOKER]
                    blocks.append(block)
            offset += count
        if not blocks:
            return np.empty((0, size), dtype=np.uint8)
        both = blocks[0] if len(blocks) == 1 else np.concatenate(blocks)
        # a new array every call (never the kept rows): an evaluator may write to it
        return (
            card_order(order_seed, both, presorted=True) if order_seed is not None else both.copy()
        )

    def _rows(self, start: int, stop: int) -> Any:
        """Natural hands ``start`` to ``stop - 1`` as batch rows, the last range kept: a
        batch's codes and its classes are made from one unranking."""
        if self._last_rows[:2] != (start, stop):
            from pokercert.reference.batch import rows

            self._last_rows = (start, stop, rows(self.space.size, start, stop))
        return self._last_rows[2]

    def class_index(self, start: int, tokens: Sequence[list[str]]) -> Any:
        """The class of each hand of a batch that starts at position ``start``: a numpy
        array with numpy, else a list."""
        n = len(tokens)
        split = max(0, min(n, self._natural_count - start))
        if self._np is not None:
            stop = min(start + split, self._natural_count)
            natural = (
                self._rows(start, stop)
                if split
                else self._np.empty((0, self.space.size), dtype=self._np.uint8)
            )
            out = self._to_global[self._table.keys_of(natural)]
            if split < n:
                rest = [self._joker_class[signature(cards(t))] for t in tokens[split:]]
                out = self._np.concatenate([out, self._np.array(rest, dtype=out.dtype)])
            return out
        index = self.index
        got = [index[k] for k in self._scalar_keys[start : start + split]]
        got.extend(self._joker_class[signature(cards(t))] for t in tokens[split:])
        return got

    def class_of_rows(self, rows: Any) -> Any:
        """The class of each row of an (m, size) numpy array of natural hands, each card
        its position in DECK, ascending (numpy only): for hands made up away from the
        enumeration (a finding's deals rebuilt on one board)."""
        if self._np is None:
            raise ImportError(
                "classes of arbitrary hands need numpy: pip install 'pokercert[fast]'"
            )
        return self._to_global[self._table.keys_of(rows)]

    def classes(self, start: int, tokens: Sequence[list[str]]) -> list[int]:
        """The class of each hand of a batch that starts at position ``start``."""
        found = self.class_index(start, tokens)
        return found if isinstance(found, list) else found.tolist()

    def categories_of(self, classes: Any) -> list[str]:
        """The reference category of each class of :meth:`class_index`."""
        return self._categories_of(classes)

    def lookup(self, values: Sequence[Any]) -> Callable[[Any], list[Any]]:
        """A function from a batch's classes (:meth:`class_index`) to ``values[class]`` of
        each: one value per class, looked up for a whole batch at once with numpy."""
        np = self._np
        if np is None:
            return lambda classes: [values[c] for c in classes]
        table = np.empty(len(values), dtype=object)
        for i, v in enumerate(values):  # one by one: a tuple value stays one object
            table[i] = v

        def of(classes: Any) -> list[Any]:
            if isinstance(classes, list):
                return [values[c] for c in classes]
            return table[classes].tolist()  # type: ignore[no-any-return]

        return of

    def alternatives(self, i: int) -> list[tuple[int, tuple[Card, ...]]]:
        """Members of class i: its representative first, then it and the other candidate
        members under every renaming of the suits."""
        found = self._alternatives.get(i)
        if found is None:
            seen: dict[int, tuple[Card, ...]] = {mask(self.rep[i]): self.rep[i]}
            for member in [self.rep[i], *self.candidates[i]]:
                for perm in permutations(SUIT_CHARS):
                    rename = dict(zip(SUIT_CHARS, perm, strict=True))
                    hand = tuple(c if c.is_joker else Card(c.rank, rename[c.suit]) for c in member)
                    seen.setdefault(mask(hand), hand)
            found = self._alternatives[i] = list(seen.items())
        return found

    def disjoint_member(
        self, i: int, hand_mask: int, hand_jokers: int = 0, skip: int = -1
    ) -> tuple[Card, ...] | None:
        """A member of class i that can be dealt beside the hand: no card in common, no
        more jokers between them than the deck holds (and not the hand itself).

        The representative's suit renamings are tried first; then (numpy) every natural
        member of the class, so that None means no natural member exists at all, in the
        class's search order (:func:`member_step`).
        """
        for m, member in self.alternatives(i):
            if not m & hand_mask and m != skip and self.fits(member, hand_jokers):
                return member
        pool = self._pool(i)
        if pool is None:
            return None
        np = self._np
        masks, rows = pool
        order = (np.arange(len(masks), dtype=np.int64) * member_step(len(masks))) % len(masks)
        for idx in np.flatnonzero((masks[order] & np.uint64(hand_mask)) == 0)[:2].tolist():
            at = int(order[idx])
            if int(masks[at]) != skip:
                return tuple(DECK[int(j)] for j in rows[at])
        return None

    def disjoint_pair(
        self, lower: int, upper: int
    ) -> tuple[tuple[Card, ...], tuple[Card, ...]] | None:
        """A member of each class that can be dealt together (lower first), if one is found:
        the suit renamings of the representatives, then up to 64 natural members of the
        lower class spread over the enumeration against every natural member of the upper
        (exact when the lower class is that small)."""
        for m_lo, low in self.alternatives(lower):
            high = (
                self.disjoint_member(upper, m_lo, joker_count(low))
                if self._np is None
                else self._alt_member(upper, m_lo, joker_count(low))
            )
            if high is not None:
                return low, high
        return self.natural_pair(lower, upper)

    def natural_pair(
        self, lower: int, upper: int
    ) -> tuple[tuple[Card, ...], tuple[Card, ...]] | None:
        """:meth:`disjoint_pair` past the suit renamings: up to 64 natural members of the
        lower class spread over the enumeration against every natural member of the upper
        (numpy only; None without)."""
        lo_pool, hi_pool = self._pool(lower), self._pool(upper)
        if lo_pool is None or hi_pool is None:
            return None
        np = self._np
        picks = np.unique(np.linspace(0, len(lo_pool[0]) - 1, 64).astype(np.int64))
        # every pick against every upper member at once; the first pick that has one
        apart = (lo_pool[0][picks][:, None] & hi_pool[0][None, :]) == 0
        hits = np.flatnonzero(apart.any(axis=1))
        if not hits.size:
            return None
        p, first = int(picks[hits[0]]), int(apart[hits[0]].argmax())
        return (
            tuple(DECK[int(j)] for j in lo_pool[1][p]),
            tuple(DECK[int(j)] for j in hi_pool[1][first]),
        )

    def _alt_member(self, i: int, hand_mask: int, hand_jokers: int) -> tuple[Card, ...] | None:
        for m, member in self.alternatives(i):
            if not m & hand_mask and self.fits(member, hand_jokers):
                return member
        return None

    def natural_members(self) -> tuple[Any, Any, Any] | None:
        """(card masks, rows, starts): every natural hand of the space ordered by class
        (class i's are ``starts[i]:starts[i + 1]``, in enumeration order; :meth:`disjoint_member`
        searches them in :func:`member_step` order); None without numpy or over whole
        deals.  Made once, on the first call."""
        if self._np is None or self.best_of_dealt:
            return None
        if self._members is None:
            self._members = self._members_by_class()
        return self._members

    def _pool(self, i: int) -> tuple[Any, Any] | None:
        """(card masks, rows) of every natural hand of class i (numpy only), or None.

        The first call groups every natural hand of the space by class in one streamed
        pass (a few tenths of a second for five cards; a pass per class made a compare-mode
        run spend minutes on the classes whose members' suit renamings all share cards)."""
        every = self.natural_members()  # (no whole-space pass over C(52, 7) hands)
        if every is None:
            return None
        masks, members, starts = every
        lo, hi = int(starts[i]), int(starts[i + 1])
        return (masks[lo:hi], members[lo:hi]) if hi > lo else None

    def _members_by_class(self) -> tuple[Any, Any, Any]:
        """(masks, rows, starts): every natural hand, ordered by class (stable: in the
        enumeration's order within a class); class i's are ``starts[i]:starts[i + 1]``.
        A space of up to :data:`WHOLE_AT_ONCE` hands is made at once
        (:func:`~pokercert.reference.batch.hands`, kept for the process: a fifth of the
        CPU of unranking it chunk by chunk), a larger one unranked chunk by chunk; either
        is classified chunk by chunk."""
        from pokercert.reference.batch import CHUNK, hands, rows

        np = self._np
        size, total = self.space.size, self._natural_count
        space = (
            hands(size)
            if total <= WHOLE_AT_ONCE
            else np.concatenate(
                [rows(size, lo, min(lo + CHUNK, total)) for lo in range(0, total, CHUNK)]
            )
        )
        every = np.concatenate(
            [
                self._to_global[self._table.classify(space[lo : lo + CHUNK])[1]]
                for lo in range(0, total, CHUNK)
            ]
        )
        # (stable on 16-bit class numbers is numpy's radix sort: a third of the time)
        narrow = every.astype(np.uint16) if len(self.keys) <= 1 << 16 else every
        order = np.argsort(narrow, kind="stable")
        members = space.take(order, axis=0)
        bits = np.left_shift(np.uint64(1), np.arange(len(DECK), dtype=np.uint64))
        masks = row_masks(bits, members)
        starts = np.searchsorted(every[order], np.arange(len(self.keys) + 1))
        return masks, members, starts

    def member_steps(self) -> Any:
        """Each class's :func:`member_step` over its natural members (numpy array; None
        where :meth:`natural_members` is None)."""
        every = self.natural_members()
        if every is None:
            return None
        if self._steps is None:
            np = self._np
            sizes = (every[2][1:] - every[2][:-1]).astype(np.int64)
            # member_step for every class at once (held to it by a test)
            steps = np.maximum(1, np.rint(sizes * _GOLDEN)).astype(np.int64)
            while (apart := np.gcd(steps, sizes) != 1).any():
                steps += apart
            self._steps = steps
        return self._steps

    def fits(self, member: Sequence[Card], hand_jokers: int) -> bool:
        return sum(c.is_joker for c in member) + hand_jokers <= self.ev.ruleset.jokers
