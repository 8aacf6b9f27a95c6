"""What the shipped peer adapters share (not an adapter itself).

* :func:`distribution_info`: the evaluator's identity read from the installed
  distribution: its version, and as build the hash of the wheel's ``RECORD`` (the
  hashes of every installed file), so two runs name the same code only if it is the same.
* :func:`refused`: the one rule for a library's own exceptions (see below).
* :class:`PeerEvaluator`: capabilities from a table, ``configure``, and ``winners`` by
  the library's own order.
* :data:`FIVE_CARD_HIGH`: the claims of a library that values five-card high hands and
  nothing else (treys, phevaluator, eval7); :data:`SEVEN_CARD_HIGH`: the games where such
  a library also values a player's seven cards by their best five (eval7, treys);
  :func:`by_code`: a library's own cards in the order of
  :data:`~pokercert.harness.api.CODED_CARDS`.

The rule for exceptions, the same in every peer: an exception of a type the library is
known to raise from its own card parser or evaluator, raised while it reads or values
the hand, means the library gave no answer: it refused the input.  The adapter passes it
on as :class:`~pokercert.harness.api.Rejected` with no reason code (none of these
libraries names a reason our corpus knows) and the library's exception in the message.
On a reject vector that scores WRONG_REASON (refused, but without the reason); on a valid
hand it is a refusal of a valid hand.  Anything the adapter's own code raises is not
caught and is recorded as an ERROR.  The adapters never check input for the library:
a duplicated card, a wrong card count or an odd spelling goes to the library as given,
and whatever it answers is reported.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping, Sequence
from email.utils import parseaddr
from fractions import Fraction
from importlib.metadata import PackageMetadata, PackageNotFoundError, distribution
from operator import itemgetter
from types import MappingProxyType
from typing import Any

from pokercert.harness.api import CODED_CARDS, EvaluatorInfo, Hands, Rejected
from pokercert.reference.cards import DECK
from pokercert.reference.errors import PokercertError
from pokercert.reference.rulesets import get_ruleset
from pokercert.vectors.model import BASIC_KINDS, Kind

# RECORD lines that the installer writes, not the wheel: left out of the build hash
INSTALLER_FILES = ("INSTALLER", "REQUESTED", "RECORD", "direct_url.json")


# the rulesets whose hands are plain five-card high poker, and the kinds a library that
# values such hands (and nothing else) can answer for them
FIVE_CARD_HIGH: Mapping[str, Sequence[str]] = MappingProxyType(
    {
        ruleset: tuple(k for k in BASIC_KINDS if k != Kind.BEST_HAND)
        for ruleset in (
            "nj-poker-high-5",
            "nj-caribbean-stud",
            "nj-winners-pot",
            "nj-double-down-stud",
            "nj-double-cross-poker",
            # 58 Pa. Code 655a.6, 669a.6, 653a.6: five-card high, the wheel
            "pa-mississippi-stud",
            "pa-raise-it-up-stud",
            "pa-ultimate-texas-holdem",
        )
    }
)


# the best-five-of-seven high games (stud, and hold 'em where the board may play): a
# library that values seven cards by their best five answers ``classify`` (and key) of a
# player's seven cards, which is what ``pokercert exhaustive`` sends there, and settles
# their pots (:meth:`PeerEvaluator.showdown`: each player's seven cards, high only)
SEVEN_CARD_HIGH: Mapping[str, Sequence[str]] = MappingProxyType(
    {
        ruleset: (Kind.CLASSIFY.value, Kind.SHOWDOWN.value)
        for ruleset in ("nj-holdem", "nj-seven-card-stud")
    }
)


def by_code(cards: Mapping[str, Any]) -> list[Any]:
    """A library's own cards (``cards``: canonical spelling -> the library's card) in the
    order of :data:`~pokercert.harness.api.CODED_CARDS`, for
    :attr:`~pokercert.harness.api.Hands.codes` (no joker: none of these libraries has
    one)."""
    return [cards[name] for name in CODED_CARDS[: len(DECK)]]


def code_array(table: Sequence[Any]) -> Any:
    """:func:`by_code`'s table as a numpy array (any objects), for
    :attr:`~pokercert.harness.api.Hands.rows`: ``array[rows]`` converts a whole batch in
    one gather (a joker's code is outside it: IndexError, as the list gives).  None
    without numpy."""
    try:
        import numpy as np
    except ImportError:  # pragma: no cover - numpy is in the fast extra
        return None
    array = np.empty(len(table), dtype=object)
    for i, card in enumerate(table):  # one by one: a library card stays one object
        array[i] = card
    return array


def batch_cards(
    hands: Hands, table: Sequence[Any], array: Any, names: Mapping[str, Any]
) -> list[Any]:
    """The library's card for every card of a batch, in order (``size`` per hand): from
    its numpy rows through ``array`` (:func:`code_array`), else its codes through
    ``table`` (:func:`by_code`), else its spellings through ``names``.  Raises what the
    lookup raises for a card the library has not."""
    if hands.rows is not None and array is not None:
        return array[hands.rows.ravel()].tolist()  # type: ignore[no-any-return]
    codes = hands.codes
    return lookup_all(table, codes) if codes is not None else lookup_all(names, hands.flat)


class LibraryAnswerError(PokercertError, RuntimeError):
    """The library answered something that is no answer (e.g. a rank outside its range)."""


def record_hash(dist_name: str) -> str:
    """``sha256:`` of the installed distribution's RECORD, installer lines left out.

    RECORD lists every file of the wheel with its own sha256, so this names the exact
    code installed; it is the same for every install of the same wheel.
    """
    dist = distribution(dist_name)
    text = dist.read_text("RECORD") or ""
    lines = []
    for line in text.splitlines():
        path, _, rest = line.partition(",")
        digest = rest.partition(",")[0]
        if not digest or path.rsplit("/", 1)[-1] in INSTALLER_FILES:
            continue
        lines.append(f"{path},{digest}")
    if not lines:
        return ""
    return "sha256:" + hashlib.sha256("\n".join(sorted(lines)).encode()).hexdigest()


def _field(meta: PackageMetadata, name: str) -> str:
    """The first value of a metadata field, "" when absent (``get_all``: the lookup that
    ``PackageMetadata`` promises on every Python; ``get`` is the email Message's)."""
    values = meta.get_all(name) or []
    return str(values[0]) if values else ""


def distribution_info(dist_name: str, fallback_vendor: str) -> EvaluatorInfo:
    """Identity of an installed evaluator package: vendor, name, version, build."""
    try:
        dist = distribution(dist_name)
    except PackageNotFoundError:
        raise ImportError(
            f"{dist_name} is not installed: pip install 'pokercert[{dist_name}]'"
        ) from None
    meta = dist.metadata
    vendor = (
        _field(meta, "Author")
        or parseaddr(_field(meta, "Author-email"))[0]
        or _field(meta, "Maintainer")
        or fallback_vendor
    )
    return EvaluatorInfo(
        vendor=vendor, name=dist_name, version=dist.version, build=record_hash(dist_name)
    )


def refused(library: str, exc: BaseException) -> Rejected:
    """The library's own exception, passed on as a refusal without a reason code."""
    return Rejected(None, f"{library} raised {type(exc).__name__}: {exc}")


class PeerEvaluator:
    """Common ground of the peer adapters (see the module docstring for the rules).

    Subclasses set ``library`` (the import name, used in messages), ``RULESETS`` (ruleset
    id -> the vector kinds claimed) and implement :meth:`key` (the library's own value
    of a hand: larger is better, equal values tie) and :meth:`classify`; where the
    library values a hand once for both, :meth:`evaluate` too, and where a list
    comprehension over the library's own call is faster, :meth:`evaluate_many`.
    """

    library: str = ""
    RULESETS: Mapping[str, Sequence[str]] = MappingProxyType({})

    def __init__(self) -> None:
        self.ruleset: str | None = None
        self.readings: dict[str, str] = {}

    def capabilities(self) -> dict[str, list[str]]:
        return {ruleset: list(kinds) for ruleset, kinds in self.RULESETS.items()}

    def configure(self, ruleset: str, readings: Mapping[str, str]) -> None:
        """Select a claimed ruleset.  Readings are recorded, not applied: each library
        implements one fixed reading (see the adapter's docstring), and vectors of other
        readings show that as failures rather than being hidden."""
        if ruleset not in self.RULESETS:
            raise ValueError(
                f"the {self.library} adapter does not evaluate {ruleset!r}; "
                f"it claims {', '.join(self.RULESETS)}"
            )
        self.ruleset = ruleset
        self.readings = dict(readings)
        self._configured(ruleset)

    def _configured(self, ruleset: str) -> None:
        """Hook: prepare per-ruleset state."""

    def _ruleset(self) -> str:
        if self.ruleset is None:
            raise RuntimeError(f"the {self.library} adapter was used before configure()")
        return self.ruleset

    def key(self, hand: list[str]) -> Any:
        raise NotImplementedError

    def classify(self, hand: list[str]) -> str:
        raise NotImplementedError

    def evaluate(self, hand: list[str]) -> tuple[str, Any]:
        """``(category, key)`` of one hand (here: :meth:`classify` and :meth:`key`)."""
        return self.classify(hand), self.key(hand)

    def evaluate_many(self, hands: Sequence[list[str]]) -> tuple[list[str], list[Any]]:
        """``(categories, keys)`` of many hands: :meth:`evaluate` on each, in order."""
        evaluate = self.evaluate
        pairs = [evaluate(h) for h in hands]
        return [c for c, _ in pairs], [k for _, k in pairs]

    def winners(self, hands: list[list[str]], board: list[str] | None = None) -> list[int]:
        """Indices of the hands the library values highest (several on a tie)."""
        if board is not None:
            raise ValueError(f"the {self.library} adapter takes no board in {self._ruleset()}")
        return best_of([self.key(h) for h in hands])

    def showdown(self, hands: list[list[str]], board: list[str] | None = None) -> dict[str, Any]:
        """The pot of a seven-card high game (:data:`SEVEN_CARD_HIGH`): each player's
        seven cards (hole and board) valued by the library's own :meth:`key`, which takes
        the best five of them; the pot split by :func:`split_pot`."""
        if self._ruleset() not in SEVEN_CARD_HIGH:
            raise ValueError(f"the {self.library} adapter settles no pots in {self.ruleset}")
        table = list(board) if board is not None else []
        return split_pot([[self.key([*h, *table]) for h in hands]])


def best_of(values: Sequence[Any]) -> list[int]:
    """Indices of the largest values, by the values' own comparison operators."""
    best = values[0]
    for v in values[1:]:
        if v > best:
            best = v
    return [i for i, v in enumerate(values) if v == best]


def split_pot(halves: Sequence[Sequence[Any | None]]) -> dict[str, Any]:
    """The pot a showdown answer names, from each hand's value in each half of the game
    (``halves[0]`` high, ``halves[1]`` low; a value None: the hand does not qualify; a
    game's only low half, razz, is given as ``[[], values]``), values compared by their
    own operators, larger better.  Each half some hand qualifies for is an equal part of
    the pot, shared equally by the hands that tie for it (the rule of every game here:
    the arithmetic is the adapter's, the hand values are the library's)."""
    won = [_best_present(values) for values in halves]
    n = max(len(v) for v in halves)
    awarded = [w for w in won if w]
    shares = [Fraction(0)] * n
    for winners in awarded:
        for i in winners:
            shares[i] += Fraction(1, len(awarded) * len(winners))
    return {"high": won[0], "low": won[1] if len(won) > 1 else [], "shares": shares}


def _best_present(values: Sequence[Any | None]) -> list[int]:
    """:func:`best_of` over the values that are present (none: an empty list)."""
    present = [(i, v) for i, v in enumerate(values) if v is not None]
    if not present:
        return []
    top = best_of([v for _, v in present])
    return [present[j][0] for j in top]


def lookup_all(table: Mapping[Any, Any] | Sequence[Any], keys: Sequence[Any]) -> list[Any]:
    """``[table[k] for k in keys]``, the loop in C (``operator.itemgetter``): the card and
    category conversions of the exhaustive path.  Raises what ``table[k]`` raises."""
    if len(keys) < 2:  # itemgetter of one key returns the value itself, not a tuple
        return [table[k] for k in keys]
    return list(itemgetter(*keys)(table))


def chunks(items: Sequence[Any], n: int) -> Iterator[tuple[Any, ...]]:
    """The hands of a batch's flat list of cards, as ``n``-tuples (one iterator zipped
    with itself: chunked in C, no slice per hand).  ``len(items)`` must divide by ``n``."""
    return zip(*[iter(items)] * n, strict=True)


def category_names(ruleset: str) -> frozenset[str]:
    return frozenset(get_ruleset(ruleset).category_names)
