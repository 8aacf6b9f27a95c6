"""The in-process evaluator interface: what a vendor implements in Python.

An evaluator is any object with the attributes and methods below; implement only the
operations you support and declare them in :meth:`PokerEvaluator.capabilities`.
Cards arrive as canonical strings (``"As"``, ``"Td"``, ``"Xx"`` for a joker); hands as
lists of such strings.  To refuse an invalid input, raise :class:`Rejected` with one of
:data:`REASON_CODES`.  Any other exception is recorded as an ERROR, never a pass.

Minimal example::

    class MyEvaluator:
        info = EvaluatorInfo(vendor="Acme", name="acme-eval", version="1.2", build="abc123")

        def capabilities(self):
            return {"nj-poker-high-5": ["classify", "compare", "reject"]}

        def configure(self, ruleset, readings):
            self.ruleset = ruleset

        def classify(self, hand):
            return "royal_flush"           # a category name of the ruleset

        def winners(self, hands, board=None):
            return [0]                     # indices of the winning hands

Optional, per operation claimed: ``best_hand(hole, board=None, half=None)`` (the best
hand's cards and category; ``half="low"`` in split-pot games asks for the low hand,
passed only when a vector asks for it; otherwise the game's own first half), and
``showdown(hands, board=None)`` (the whole pot settled: an object or mapping with
``high`` and ``low``, the winners' indices of each half, ``low`` None or empty when no
low half is awarded, and ``shares``, each hand's exact share of the pot as a
:class:`fractions.Fraction` or a string ``"1/2"``).  Odd chips are out of scope: shares
are exact fractions of the pot.

Optional, for ``pokercert exhaustive`` (every hand of a ruleset): the evaluator's own
order of hands, so that whole equivalence classes can be checked, and faster forms of the
same answers.  Implement any of them; exhaustive takes the fastest one present::

        def key(self, hand):                # comparable value: larger is better, equal ties
            return 7462 - self.lib.rank(hand)

        def evaluate(self, hand):           # (category, key) of one hand, in one call
            rank = self.lib.rank(hand)
            return CATEGORY[rank], 7462 - rank

        def evaluate_many(self, hands):     # a list of hands -> (categories, keys)
            ranks = [self.lib.rank(h) for h in hands]
            return [CATEGORY[r] for r in ranks], [7462 - r for r in ranks]

Each must give exactly what ``classify`` (and ``key``, if present) give for the same
hand: exhaustive holds them to it.  In a game whose hand is the best five of the seven
cards dealt to a player (``nj-seven-card-stud``; ``nj-holdem`` where the board may play),
exhaustive sends each player's whole deal, seven cards (hold 'em: the two hole cards,
then the five board cards), to these same methods and to ``classify``: the answer is
the category and value of the deal's best five.  ``evaluate_many`` gets a sequence of hands (token
lists).  On exhaustive runs it is a :class:`Hands`, which also holds the whole batch as
one flat list of card strings (``hands.flat``, ``hands.size`` cards per hand), so that an
evaluator can convert every card of the batch with one pass over its own table (and
``hands.codes``, each card's position in :data:`CODED_CARDS`, for a table that is a
list); elsewhere it may be a plain list, so test for it::

        def evaluate_many(self, hands):
            if isinstance(hands, Hands):    # the whole batch's cards, in one list
                cards = list(map(self.card_of.__getitem__, hands.flat))
                n = hands.size
                ranks = [self.lib.rank(cards[i:i + n]) for i in range(0, len(cards), n)]
            else:
                ranks = [self.lib.rank(list(map(self.card_of.__getitem__, h))) for h in hands]
            ...  A hand
that the evaluator refuses or fails on makes ``evaluate_many`` raise; the harness then
asks hand by hand to find it.  Keys are numbers, strings or tuples of them.

The same operations travel over the subprocess protocol (``harness/PROTOCOL.md``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from operator import itemgetter
from typing import Any, NamedTuple, Protocol, overload, runtime_checkable

from pokercert.reference.cards import REASON_CODES
from pokercert.reference.classes import CODED_CARDS
from pokercert.reference.errors import PokercertError
from pokercert.vectors.model import KINDS, OPERATIONS

# optional methods: the evaluator's own order of hands and faster forms of the answers
# (see the module docstring); exhaustive mode uses the first one an evaluator has
KEY_METHODS = ("evaluate_many", "evaluate", "key")
# what an evaluator may claim per ruleset: the vector kinds it can be tested on
CAPABILITY_KINDS = KINDS

__all__ = [
    "CAPABILITY_KINDS",
    "CODED_CARDS",
    "KEY_METHODS",
    "OPERATIONS",
    "REASON_CODES",
    "EvaluatorInfo",
    "FastMethods",
    "Hands",
    "KeyedEvaluator",
    "PaiGowEvaluator",
    "PokerEvaluator",
    "QualifyingEvaluator",
    "Rejected",
    "fast_methods",
    "has_key",
]


class Rejected(PokercertError):
    """Raised by an evaluator to refuse invalid input; ``code`` names the reason."""

    def __init__(self, code: str | None, message: str = "") -> None:
        super().__init__(message or str(code))
        self.code = code


@dataclass(frozen=True)
class EvaluatorInfo:
    """Identity of the evaluator under test, as the vendor declares it."""

    vendor: str
    name: str
    version: str
    build: str = ""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@runtime_checkable
class PokerEvaluator(Protocol):
    """The operations an in-process evaluator offers (implement those you support)."""

    info: EvaluatorInfo

    def capabilities(self) -> dict[str, list[str]]:
        """Ruleset id -> the vector kinds (:data:`CAPABILITY_KINDS`) claimed for it."""
        ...

    def configure(self, ruleset: str, readings: dict[str, str]) -> None:
        """Select the ruleset and interpretation readings for the requests that follow."""
        ...

    def classify(self, hand: list[str]) -> str:
        """The category name of one hand."""
        ...

    def winners(self, hands: list[list[str]], board: list[str] | None = None) -> list[int]:
        """Indices of the winning hands; with ``board``, hands are hole cards."""
        ...

    def best_hand(
        self, hole: list[str], board: list[str] | None = None, half: str | None = None
    ) -> tuple[list[str], str]:
        """The best hand's cards and its category name (``half``: which half of a split
        pot the hand is chosen for; ``board`` None in games without community cards)."""
        ...

    def showdown(self, hands: list[list[str]], board: list[str] | None = None) -> Any:
        """The pot settled: ``high``, ``low`` (None or empty: no low half awarded) and
        ``shares`` (one exact fraction per hand), as attributes or mapping keys."""
        ...


class Hands(Sequence[list[str]]):
    """A batch of hands of ``size`` cards each, held as one flat list of cards.

    As a sequence it gives each hand as a new list of its card strings (the evaluator's
    own, to keep or change).  For an evaluator that converts cards with a table, the
    whole batch is also there in one list (shared: read it, do not change it), hand
    ``i`` being items ``i * size`` to ``(i + 1) * size - 1``:

    * ``flat``: the card strings;
    * ``codes`` (may be None): each card as its position in :data:`CODED_CARDS` (the
      52 canonical spellings of ``pokercert.reference.DECK``, then ``"Xx"``), so that
      ``[table[c] for c in hands.codes]`` converts the batch with a table built once
      over :data:`CODED_CARDS`;
    * ``rows`` (may be None): the same codes as a numpy array of shape (hands, size),
      so that ``numpy_table[hands.rows]`` (a numpy array over :data:`CODED_CARDS`)
      converts the batch in one gather.

    Exhaustive runs give ``rows`` (with numpy) or ``codes``; ``codes`` and ``flat`` are
    then made from them the first time they are read.
    """

    __slots__ = ("_codes", "_flat", "rows", "size")

    def __init__(
        self, flat: list[str] | None, size: int, codes: list[int] | None = None, rows: Any = None
    ) -> None:
        if flat is not None:
            count = len(flat)
        elif codes is not None:
            count = len(codes)
        elif rows is not None:
            count = rows.size if rows.ndim == 2 and rows.shape[1] == size else -1
        else:
            raise ValueError("a Hands needs its cards: flat strings, codes or rows")
        if size < 1 or count % size:
            raise ValueError(f"{count} cards do not make hands of {size}")
        self._flat = flat
        self._codes = codes
        self.rows = rows
        self.size = size

    @property
    def codes(self) -> list[int] | None:
        if self._codes is None and self.rows is not None:
            self._codes = self.rows.ravel().tolist()
        return self._codes

    @property
    def flat(self) -> list[str]:
        if self._flat is None:
            codes = self.codes
            assert codes is not None
            # itemgetter: the loop in C (of one code it gives the card itself, not a tuple)
            self._flat = (
                list(itemgetter(*codes)(CODED_CARDS))
                if len(codes) > 1
                else [CODED_CARDS[c] for c in codes]
            )
        return self._flat

    def __len__(self) -> int:
        if self._flat is None and self._codes is None and self.rows is not None:
            return int(self.rows.shape[0])
        cards = self._flat if self._flat is not None else self.codes
        assert cards is not None
        return len(cards) // self.size

    @overload
    def __getitem__(self, i: int) -> list[str]: ...

    @overload
    def __getitem__(self, i: slice) -> list[list[str]]: ...

    def __getitem__(self, i: int | slice) -> list[str] | list[list[str]]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        n = len(self)
        if not -n <= i < n:
            raise IndexError("hand index out of range")
        i %= n
        return self.flat[i * self.size : (i + 1) * self.size]

    def __iter__(self) -> Iterator[list[str]]:
        # a new list a hand, made in C (zip of one iterator taken ``size`` at a time)
        return map(list, zip(*[iter(self.flat)] * self.size, strict=True))

    def __repr__(self) -> str:
        return f"Hands({len(self)} hands of {self.size})"


@runtime_checkable
class QualifyingEvaluator(Protocol):
    """The optional ``qualifies`` operation (kind ``qualifies``): claim it per ruleset in
    :meth:`PokerEvaluator.capabilities` only where the evaluator implements it."""

    def qualifies(self, hand: list[str]) -> bool:
        """Whether one dealer hand meets the configured ruleset's qualifier."""
        ...


@runtime_checkable
class PaiGowEvaluator(Protocol):
    """The optional pai gow operations (kinds ``compare_two_card``, ``setting`` and
    ``settle``): claim them per ruleset, for a pai gow ruleset, only where the evaluator
    implements them.  A set hand is ``[high, low]``: the five-card high hand's cards, then
    the two-card low hand's."""

    def compare_two_card(self, hands: list[list[str]]) -> list[int]:
        """Indices of the best two-card hands (several on a copy: exactly equal hands)."""
        ...

    def setting(self, high: list[str], low: list[str]) -> bool:
        """Whether the five-card ``high`` hand outranks the two-card ``low`` hand (the
        setting rule; False: the setting is foul)."""
        ...

    def settle(self, player: list[list[str]], banker: list[list[str]]) -> str:
        """``"player"``, ``"banker"`` or ``"push"``: the player's set hand against the
        banker's (copies and a foul as the configured ruleset says)."""
        ...


@runtime_checkable
class KeyedEvaluator(Protocol):
    """The optional methods that expose an evaluator's own order of hands (any subset).

    ``key(hand)``: a comparable value, larger is better, equal values tie.
    ``evaluate(hand)``: ``(category, key)`` of one hand.
    ``evaluate_many(hands)``: ``(categories, keys)``, one of each per hand, in order, for
    any sequence of token lists (a :class:`Hands` on exhaustive runs); raises if any hand
    is refused or fails (the harness then asks hand by hand).
    """

    def key(self, hand: list[str]) -> Any:
        """The evaluator's value of one hand: larger is better, equal values tie."""
        ...

    def evaluate(self, hand: list[str]) -> tuple[str, Any]:
        """``(category, key)`` of one hand: what ``classify`` and ``key`` give."""
        ...

    def evaluate_many(self, hands: Sequence[list[str]]) -> tuple[Sequence[str], Sequence[Any]]:
        """``(categories, keys)`` of many hands, in order: what ``evaluate`` gives each."""
        ...


class FastMethods(NamedTuple):
    """The evaluator's own methods behind the fast paths: ``classify`` and the optional
    :data:`KEY_METHODS`, each the bound method, or None where the evaluator has none."""

    classify: Callable[[list[str]], Any] | None
    evaluate_many: Callable[[Sequence[list[str]]], tuple[Sequence[Any], Sequence[Any]]] | None
    evaluate: Callable[[list[str]], Any] | None
    key: Callable[[list[str]], Any] | None

    @property
    def keyed(self) -> bool:
        """Whether the evaluator exposes its order of hands (any of :data:`KEY_METHODS`)."""
        return self.evaluate_many is not None or self.evaluate is not None or self.key is not None


def fast_methods(evaluator: Any) -> FastMethods:
    """Which fast methods an evaluator has: the one probe every fast path asks (a method
    counts if the attribute is callable)."""

    def method(name: str) -> Callable[..., Any] | None:
        found = getattr(evaluator, name, None)
        return found if callable(found) else None

    return FastMethods(*map(method, FastMethods._fields))


def has_key(evaluator: Any) -> bool:
    """Whether an evaluator exposes its order of hands (any of :data:`KEY_METHODS`)."""
    return fast_methods(evaluator).keyed
