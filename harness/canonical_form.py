"""The canonical form of a request: what stays the same under every symmetry of the game.

No ruleset ranks suits, orders the cards within a hand, or cares in which order the hands
of a compare or showdown come: a request relabelled by any of the 24 permutations of the
four suits, with its cards shuffled and its hands reordered, has the same answer (remapped).
The challenge's twins are exactly such symmetries of the published vectors, so an
evaluator that memorised the public corpus *up to symmetry* answers every twin from its
table.  The canonical form is the key such a table would use:

* each hand's (hole cards', board's) tokens sorted;
* the hands of a compare or showdown sorted;
* the minimum of all that over the 24 suit relabellings.

A token is relabelled when it is a two-character card whose second character is a suit
(as the twins relabel: a joker or a malformed token of a reject vector stays as it is).

Two users, one function: the challenge redraws a fresh deal whose form is that of a
published input (:func:`published_forms`), and the test suite's symmetric memoriser
(tests/helpers/faux/symmetric_memoriser.py) looks requests up by it, mapping the stored
answer back through :class:`Canonical`'s suit relabelling and hand order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import permutations
from typing import Any, NamedTuple

from pokercert.reference.cards import SUIT_CHARS
from pokercert.vectors.model import Kind, Vector

__all__ = [
    "Canonical",
    "FormSet",
    "Request",
    "canonical",
    "canonical_key",
    "operation_of",
    "published_forms",
]

Key = tuple[Any, ...]
# every relabelling of the suits, as a table suit -> suit
_RELABELLINGS: tuple[dict[str, str], ...] = tuple(
    dict(zip(SUIT_CHARS, order, strict=True)) for order in permutations(SUIT_CHARS)
)
_TABLES = tuple(str.maketrans(SUIT_CHARS, "".join(s[c] for c in SUIT_CHARS)) for s in _RELABELLINGS)
_SUIT_SET = frozenset(SUIT_CHARS)
_CARD_FIELDS = ("hand", "hole", "board", "high", "low")
# pai gow's set hands: each a list [high, low] of card strings, kept in place
_SET_FIELDS = ("player", "banker")


def _fields(inputs: Mapping[str, Any]) -> list[tuple[str, list[str]]]:
    """The card strings of a request other than ``hands``, each named: the card fields,
    then each hand of a pai gow set hand (``player:0`` its high hand, ``player:1`` its low)."""
    out = [(name, _tokens(inputs.get(name))) for name in _CARD_FIELDS if name in inputs]
    for name in _SET_FIELDS:
        for i, cards in enumerate(inputs.get(name, ())):
            out.append((f"{name}:{i}", _tokens(cards)))
    return out


class Canonical(NamedTuple):
    """A request's canonical form, and how the request maps onto it.

    ``suits`` is the relabelling (suit -> suit) that takes the request to the form;
    ``order[k]`` is the index in the request of the form's ``k``-th hand (empty for a
    request without ``hands``)."""

    key: Key
    suits: Mapping[str, str]
    order: tuple[int, ...]


def operation_of(kind: str, inputs: Mapping[str, Any]) -> str:
    """The operation a request of this vector kind sends (a reject vector's ``op``)."""
    return str(inputs["op"]) if kind == Kind.REJECT else kind


def _tokens(text: Any) -> list[str]:
    if text is None:
        return []
    return str(text).split() if not isinstance(text, (list, tuple)) else [str(t) for t in text]


def _relabelled(tokens: Sequence[str], suits: Mapping[str, str]) -> str:
    return " ".join(
        sorted(t[0] + suits[t[1]] if len(t) == 2 and t[1] in suits else t for t in tokens)
    )


def _plain(tokens: Sequence[str]) -> bool:
    """Whether relabelling the tokens' text as a whole (``str.translate``) relabels each
    card as :func:`_relabelled` does: every token two characters, the first no suit."""
    return all(len(t) == 2 and t[0] not in _SUIT_SET for t in tokens)


def canonical(ruleset: str, op: str, inputs: Mapping[str, Any]) -> Canonical:
    """The canonical form of the request ``op`` of ``ruleset`` with these inputs (cards as
    one string of tokens or a list of them, as the corpus or the protocol gives them)."""
    fields = _fields(inputs)
    hands = [_tokens(h) for h in inputs.get("hands", ())]
    extra = tuple(
        sorted(
            (k, str(v))
            for k, v in inputs.items()
            if k not in _CARD_FIELDS and k not in ("hands", "op", *_SET_FIELDS)
        )
    )
    everything = [t for h in hands for t in h] + [t for _, ts in fields for t in ts]
    if _plain(everything):
        # one translation per relabelling of each card string (the common case)
        hand_texts = [" ".join(h) for h in hands]
        field_texts = [(name, " ".join(ts)) for name, ts in fields]
        candidates = []
        for n, table in enumerate(_TABLES):
            each = [" ".join(sorted(h.translate(table).split())) for h in hand_texts]
            order = tuple(sorted(range(len(each)), key=each.__getitem__))
            candidates.append(
                (
                    (
                        ruleset,
                        op,
                        tuple(each[i] for i in order),
                        tuple(
                            (name, " ".join(sorted(text.translate(table).split())))
                            for name, text in field_texts
                        ),
                        extra,
                    ),
                    n,
                    order,
                )
            )
    else:
        candidates = []
        for n, suits in enumerate(_RELABELLINGS):
            each = [_relabelled(h, suits) for h in hands]
            order = tuple(sorted(range(len(each)), key=each.__getitem__))
            candidates.append(
                (
                    (
                        ruleset,
                        op,
                        tuple(each[i] for i in order),
                        tuple((name, _relabelled(tokens, suits)) for name, tokens in fields),
                        extra,
                    ),
                    n,
                    order,
                )
            )
    key, n, order = min(candidates, key=lambda c: c[0])
    return Canonical(key, _RELABELLINGS[n], order)


def canonical_key(ruleset: str, op: str, inputs: Mapping[str, Any]) -> Key:
    """:func:`canonical`'s key alone."""
    return canonical(ruleset, op, inputs).key


def _ranks(ruleset: str, op: str, inputs: Mapping[str, Any]) -> Key:
    """What no suit relabelling changes, cheaply: each card string as the sorted pairs
    (rank, how many cards of the request share its suit), hands sorted (a filter: two
    requests of one canonical form have the same shape; most others differ)."""
    hands = [_tokens(h) for h in inputs.get("hands", ())]
    fields = _fields(inputs)
    suits = Counter(t[1] for ts in (*hands, *(ts for _, ts in fields)) for t in ts if len(t) == 2)

    def text(tokens: list[str]) -> str:
        return " ".join(sorted(f"{t[0]}{suits[t[1]]}" if len(t) == 2 else t for t in tokens))

    return (
        ruleset,
        op,
        tuple(sorted(text(h) for h in hands)),
        tuple((name, text(ts)) for name, ts in fields),
    )


class Request:
    """One request, its suit-blind shape and (computed once, when first asked) its
    canonical form: what a :class:`FormSet` is asked about."""

    __slots__ = ("_key", "inputs", "op", "ruleset", "shape")

    def __init__(self, ruleset: str, op: str, inputs: Mapping[str, Any]) -> None:
        self.ruleset, self.op, self.inputs = ruleset, op, inputs
        self.shape = _ranks(ruleset, op, inputs)
        self._key: Key | None = None

    @property
    def key(self) -> Key:
        if self._key is None:
            self._key = canonical_key(self.ruleset, self.op, self.inputs)
        return self._key


class FormSet:
    """A set of requests up to symmetry: ``request in forms`` says whether a
    :class:`Request` is a symmetry of one added (:func:`published_forms`, :meth:`add`).

    The forms are computed lazily: only a request whose suit-blind shape (ranks only) is
    that of a request in the set costs the 24 relabellings, of it and of those."""

    def __init__(self) -> None:
        self._by_shape: dict[Key, list[Request]] = {}
        self._forms: dict[Key, set[Key]] = {}

    def add(self, request: Request) -> None:
        """Add one request (and so every symmetry of it)."""
        self._by_shape.setdefault(request.shape, []).append(request)
        forms = self._forms.get(request.shape)
        if forms is not None:
            forms.add(request.key)

    def __contains__(self, request: Request) -> bool:
        members = self._by_shape.get(request.shape)
        if not members:
            return False
        forms = self._forms.get(request.shape)
        if forms is None:
            forms = self._forms[request.shape] = {m.key for m in members}
        return request.key in forms


def published_forms(vectors: Iterable[Vector]) -> FormSet:
    """The inputs of ``vectors`` up to symmetry: ``Request(ruleset, op, inputs) in
    published_forms(vs)`` says whether a request is a symmetry of one of them."""
    out = FormSet()
    for v in vectors:
        out.add(Request(v.ruleset, operation_of(v.kind, v.inputs), v.inputs))
    return out
