"""Challenge vectors: a fresh set for every certification run, drawn from a seed.

The curated corpus is public, so an evaluator could pass it by looking every request up.
``pokercert run`` therefore adds, after the curated vectors it selected, a *challenge*
set generated from a seed drawn when the run starts (``--challenge-seed`` replays one):

* a **metamorphic twin** of every curated vector: the cards shuffled within each hand
  (and on the board), the hands of a compare reordered with the expected winners
  remapped, and the suits relabelled by one random permutation of the four suits.
  Card order and suit names never change a hand's value under any ruleset (no ruleset
  ranks suits: both readings of the ``suits-equal`` interpretation say so), so the
  twin's expectation is the curated one, remapped (winner indices, the card sets of a
  ``best_hand``), never recomputed: it stays the corpus's hand-checked expectation.
  A ``reject`` twin keeps its expected reasons (``reason``, and ``also`` for an input
  with several faults, any of which passes: PROTOCOL.md 3.2): it is checked against the
  reference's refusal and skipped if the reference refuses it for a reason outside them
  (:data:`SKIP_REJECT_POSITION`);
* **fresh deals** per ruleset (:func:`fresh_deals`): the category ladder
  (:mod:`pokercert.harness.explore.ladder`), situation deals stratified over every
  situation the ruleset can deal (:func:`pokercert.harness.explore.situations.sample_deals`,
  a quota of each) and fresh siblings of every clause x flag cell of the curated corpus
  (:mod:`.siblings`), none a symmetry of a published input
  (:mod:`pokercert.harness.canonical_form`), with expectations from the reference under
  the run's profile and the clauses and bug-class flags that decide them.  They are what
  an evaluator that memorised the corpus up to symmetry has not seen (issue 26).

Everything here is a pure function of (seed, selection, profile): the same seed gives
the same challenge set, byte for byte (:meth:`ChallengeSet.to_jsonl`).  Ids are
``<ruleset>/challenge-<seed>-<index>`` (index from 1 within the ruleset: twins in corpus
order, then fresh deals), so a finding names the seed that reproduces it.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import random
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, NoReturn

from pokercert.harness.run.encoder import built_once
from pokercert.harness.run.pai_gow_fresh import IsNew, pai_gow_fresh
from pokercert.harness.run.results import COUNTEREXAMPLES, FAILING, Outcome, Result
from pokercert.reference import Profile, get_ruleset
from pokercert.reference.cards import SUIT_CHARS, CardError
from pokercert.vectors.model import KINDS, Kind, Vector

if TYPE_CHECKING:  # imported where it runs (only a run that writes drafts needs it)
    from pokercert.harness.explore.counterexample import Found

__all__ = [
    "DEFAULT_FRESH",
    "SEED_LIMIT",
    "ChallengeSet",
    "Dealing",
    "FreshDeal",
    "build_challenge",
    "challenge_id",
    "draw_seed",
    "fresh_deals",
    "fresh_vectors",
    "origin_kind",
    "prefetch_fresh",
    "twin",
    "write_drafts",
]

SEED_LIMIT = 2**32  # seeds are drawn in [0, 2**32): ten digits at most in an id
DEFAULT_FRESH = 48  # fresh deals per ruleset unless --challenge N says otherwise
TWIN, FRESH = "twin", "fresh"
SKIP_REJECT_POSITION = (
    "reject twin refused for another reason by the reference: the "
    "reason depends on where the fault sits"
)
_SUIT_SET = frozenset(SUIT_CHARS)
# a record's canonical JSON line: sorted keys, UTF-8 text; the C encoder built once for
# the thousands of records whose SHA-256 a run records
_encode = built_once(json.JSONEncoder(sort_keys=True, ensure_ascii=False))


def draw_seed() -> int:
    """A fresh challenge seed from the operating system's randomness."""
    return random.SystemRandom().randrange(SEED_LIMIT)


def challenge_id(ruleset: str, seed: int, index: int) -> str:
    """The id of the ``index``-th (from 1) challenge vector of ``ruleset`` under ``seed``."""
    return f"{ruleset}/challenge-{seed}-{index:05d}"


def origin_kind(origin: str) -> str:
    """``twin`` or ``fresh`` for a challenge result's origin (``""``: a curated vector)."""
    return origin.partition(":")[0]


def _stream(seed: int, *parts: str) -> random.Random:
    """An independent random stream for one part of the set (a ruleset, a kind), so
    selecting fewer rulesets or kinds never changes the others' vectors."""
    digest = hashlib.sha256("|".join((str(seed), *parts)).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def _sub_seed(seed: int, *parts: str) -> int:
    return _stream(seed, *parts).randrange(SEED_LIMIT)


# ----------------------------------------------------------------------------- twins
def _shuffle(items: list[Any], getrandbits: Callable[[int], int]) -> None:
    """Shuffle ``items`` in place as ``random.Random.shuffle`` does, draw for draw:
    from the last place down, each place swapped with one below a bound ``n`` taken by
    rejection (``getrandbits(n.bit_length())`` until it is below ``n``), as CPython's
    ``Random._randbelow`` takes it.  The same permutation and the same draws, without
    two Python calls per card (a run shuffles some 26,000 hands); tests/harness/run/
    test_twin_speed.py holds it equal to ``random.Random.shuffle`` on this Python."""
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


# a text of plain words (two characters each, the first no suit letter, one space
# between): relabelling each word's suit is translating the whole text's suit letters
_PLAIN_WORDS = re.compile(rf"[^\s{SUIT_CHARS}]\S(?: [^\s{SUIT_CHARS}]\S)*")
_TABLES: dict[str, dict[int, int]] = {}  # suit permutation -> its str.translate table


_SUIT_WORDS = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}


class _Relabel:
    """One shuffle-and-relabel: a permutation of the suits applied to canonical tokens."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self._bits = rng.getrandbits
        suits = list(SUIT_CHARS)
        _shuffle(suits, self._bits)
        self.suit = dict(zip(SUIT_CHARS, suits, strict=True))
        order = "".join(suits)
        table = _TABLES.get(order)
        if table is None:
            table = _TABLES[order] = str.maketrans(SUIT_CHARS, order)
        self._table = table

    def described(self) -> str:
        """The relabelling in words, for a twin's Why (which quotes its source's, suits
        and all): ", suits relabelled: clubs as spades, ...", or "" if none moved."""
        moved = [f"{_SUIT_WORDS[a]} as {_SUIT_WORDS[b]}" for a, b in self.suit.items() if a != b]
        return f", suits relabelled: {', '.join(moved)}" if moved else ""

    def card(self, token: str) -> str:
        """A token with its suit relabelled (a joker, or a malformed token of a reject
        vector, stays as it is)."""
        if len(token) == 2 and token[1] in _SUIT_SET:
            return token[0] + self.suit[token[1]]
        return token

    def cards(self, text: str, shuffle: bool = True) -> str:
        """``text``'s cards relabelled (:meth:`card`), shuffled unless ``shuffle`` is
        false, joined by single spaces."""
        if _PLAIN_WORDS.fullmatch(text):
            tokens = text.translate(self._table).split(" ")
        else:
            tokens = [self.card(t) for t in text.split()]
        if shuffle:
            _shuffle(tokens, self._bits)
        return " ".join(tokens)


def _remap_expect(
    kind: str, expect: Mapping[str, Any], relabel: _Relabel, new_index: Mapping[int, int]
) -> dict[str, Any]:
    out = dict(expect)
    if kind in (Kind.COMPARE, Kind.COMPARE_TWO_CARD) and "winners" in out:
        out["winners"] = sorted(new_index[w] for w in out["winners"])
    if kind == Kind.BEST_HAND and "cards" in out:
        out["cards"] = sorted(relabel.cards(c, shuffle=False) for c in out["cards"])
    if kind == Kind.SHOWDOWN:
        for half in ("high", "low"):
            if half in out:
                out[half] = sorted(new_index[w] for w in out[half])
        if "shares" in out:
            shares = list(out["shares"])
            out["shares"] = [shares[old] for old in sorted(new_index, key=new_index.__getitem__)]
    return out


def twin(vector: Vector, rng: random.Random, vector_id: str) -> Vector:
    """The metamorphic twin of ``vector`` under one draw of ``rng``: cards shuffled
    within each hand and the board, hands reordered, suits relabelled; its expectation
    (or each reading's) remapped, never recomputed."""
    relabel = _Relabel(rng)
    op = vector.inputs["op"] if vector.kind == Kind.REJECT else vector.kind
    inputs = dict(vector.inputs)
    new_index: dict[int, int] = {}
    for key in ("hand", "hole", "board", "high", "low"):
        if isinstance(inputs.get(key), str):
            inputs[key] = relabel.cards(inputs[key])
    for key in ("player", "banker"):  # a pai gow set hand: [high, low], kept in place
        if isinstance(inputs.get(key), (list, tuple)):
            inputs[key] = [relabel.cards(str(h)) for h in inputs[key]]
    if isinstance(inputs.get("hands"), (list, tuple)):
        hands = list(inputs["hands"])
        order = list(range(len(hands)))
        _shuffle(order, rng.getrandbits)
        new_index = {old: new for new, old in enumerate(order)}
        inputs["hands"] = [relabel.cards(str(hands[old])) for old in order]
    remap_kind = op if vector.kind != Kind.REJECT else Kind.REJECT
    expect = (
        _remap_expect(remap_kind, vector.expect, relabel, new_index)
        if vector.expect is not None
        else None
    )
    by_reading = (
        {
            r: _remap_expect(remap_kind, e, relabel, new_index)
            for r, e in vector.expect_by_reading.items()
        }
        if vector.expect_by_reading is not None
        else None
    )
    return Vector(
        id=vector_id,
        ruleset=vector.ruleset,
        kind=vector.kind,
        inputs=inputs,
        clauses=vector.clauses,
        flags=vector.flags,
        why=f"Twin of {vector.id} (shuffled, hands reordered{relabel.described()}): {vector.why}",
        expect=expect,
        interpretations=vector.interpretations,
        expect_by_reading=by_reading,
    )


def _reject_holds(twin_vector: Vector, profile: Profile) -> bool:
    """Whether the reference refuses a reject twin for one of the curated vector's
    reasons (a several-fault input lists them all and any passes: PROTOCOL.md 3.2, so
    the reference checking the faults in another order after the shuffle still holds)."""
    from pokercert.harness.scoring import reasons
    from pokercert.reference import evaluator
    from pokercert.vectors.check import reference_outcome

    ev = evaluator(twin_vector.ruleset, profile)
    return reference_outcome(ev, twin_vector).get("reason") in reasons(
        twin_vector.expected(profile)
    )


# ----------------------------------------------------------------------------- fresh
class FreshDeal(NamedTuple):
    """One fresh deal with the reference's expectation and tags, before it gets an id
    (plain data: a child process may deal it, see :func:`prefetch_fresh`)."""

    kind: str
    inputs: dict[str, Any]
    situation: str
    expect: dict[str, Any]
    clauses: tuple[str, ...]  # empty for a reject deal: it takes the curated ones'
    flags: tuple[str, ...]
    why: str


SITUATION_QUOTA = 2  # fresh deals of every situation the ruleset can deal, at least
SIBLINGS = 1  # fresh siblings of every clause x flag cell of the curated corpus,
SIBLING_SHARE = 16  # and one more per this many of the cell's vectors
SIBLING = "sibling"  # a sibling's situation: sibling:<curated id>
REDRAWS = 8  # draws of a situation before a deal no one published is given up


def situation_count(ruleset_id: str, profile: Profile, count: int) -> int:
    """How many situation deals ``count`` asks for: at least :data:`SITUATION_QUOTA` of
    every situation the ruleset can deal (0: none)."""
    if count <= 0:
        return 0
    from pokercert.harness.explore.situations import Game, applicable

    game = Game(get_ruleset(ruleset_id), profile, _kinds(ruleset_id))
    return max(count, SITUATION_QUOTA * len(applicable(game)))


def _kinds(ruleset_id: str) -> list[str]:
    ruleset = get_ruleset(ruleset_id)
    return [k for k in KINDS if k != Kind.BEST_HAND or ruleset.selection is not None]


def fresh_deals(
    ruleset_id: str, profile: Profile, seed: int, count: int, curated: Sequence[Vector] = ()
) -> list[FreshDeal]:
    """The fresh deals of ``ruleset_id``, each with the reference's expectation under
    ``profile``, the deciding clauses, flags and a why (``count`` <= 0: none):

    * **the ladder** (:func:`~pokercert.harness.explore.ladder.ladder_deals`): every
      pair of adjacent categories, every group of aces against another, every hand of
      a two-card game;
    * **situation deals**, round robin over every situation the ruleset can deal
      (:func:`~pokercert.harness.explore.situations.sample_deals`): ``count``, and at
      least :data:`SITUATION_QUOTA` of each (:func:`situation_count`);
    * **fresh siblings** (:mod:`.siblings`): :data:`SIBLINGS` per clause x flag cell of
      the ruleset's vectors in ``curated`` (the published corpus), each the situation of
      one of the cell's vectors with new ranks and suits, tagged as the cell.

    No deal is a symmetry of an input of ``curated`` or of another fresh deal
    (:mod:`pokercert.harness.canonical_form`): such a deal is drawn again."""
    if count <= 0:
        return []
    from pokercert.harness.canonical_form import FormSet, Request, published_forms
    from pokercert.harness.explore.situations import Game
    from pokercert.reference import evaluator

    ruleset = get_ruleset(ruleset_id)
    mine = [v for v in curated if v.ruleset == ruleset_id]
    published, seen = published_forms(mine), FormSet()

    def new(op: str, inputs: Mapping[str, Any]) -> bool:
        """Whether a deal is no symmetry of a published one or of a fresh one (it is
        then taken: a later symmetry of it is not new)."""
        request = Request(ruleset_id, op, inputs)
        if request in published or request in seen:
            return False
        seen.add(request)
        return True

    ev = evaluator(ruleset_id, profile)
    kinds = _kinds(ruleset_id)
    stream = _sub_seed(seed, ruleset_id, FRESH)
    out = _ladder_fresh(Game(ruleset, profile, kinds), ev, stream, new)
    out += _situation_fresh(ruleset_id, profile, kinds, seed, count, ev, new)
    out += _siblings(ruleset_id, seed, ev, mine, new)
    dealt = pai_gow_fresh(ev, _stream(seed, ruleset_id, FRESH, "pai-gow"), new)
    return out + [FreshDeal(*deal) for deal in dealt]


def _ladder_fresh(game: Any, ev: Any, stream: int, new: IsNew) -> list[FreshDeal]:
    """One new deal of every step of the game's ranking (redrawn while it is a symmetry
    of one already taken; a step of one deal only is given up when it repeats)."""
    from pokercert.harness.explore.ladder import ladder_steps

    out = []
    for i, step in enumerate(ladder_steps(game)):  # every step of the ranking, for sure
        last = None
        for redraw in range(REDRAWS):
            deal = step(f"{stream}:{i}:{redraw}")
            if deal is not None and new(deal.kind, deal.inputs):
                out.append(_fresh(ev, deal))
                break
            if deal is not None and deal == last:
                break  # (a step of one deal only: no other to draw)
            last = deal
    return out


def _situation_fresh(
    ruleset_id: str, profile: Profile, kinds: list[str], seed: int, count: int, ev: Any, new: IsNew
) -> list[FreshDeal]:
    """Round-robin deals of every situation the ruleset can deal
    (:func:`situation_count` of them), each redrawn in its situation while it is a
    symmetry of one already taken."""
    from pokercert.harness.canonical_form import operation_of
    from pokercert.harness.explore.situations import sample_deals

    ruleset = get_ruleset(ruleset_id)
    stream = _sub_seed(seed, ruleset_id, FRESH)
    dealt = sample_deals(
        ruleset, profile, kinds, seed=stream, count=situation_count(ruleset_id, profile, count)
    )
    out = []
    for i, deal in enumerate(dealt):
        for redraw in range(REDRAWS):
            if new(operation_of(deal.kind, deal.inputs), deal.inputs):
                out.append(_fresh(ev, deal))
                break
            deal = sample_deals(
                ruleset,
                profile,
                kinds,
                situations=[deal.situation],
                seed=_sub_seed(seed, ruleset_id, FRESH, str(i), str(redraw)),
                count=1,
            )[0]
    return out


def _fresh(ev: Any, deal: Any) -> FreshDeal:
    """A dealt situation with the reference's expectation, deciding clauses and flags."""
    from pokercert.harness.explore.counterexample import describe, expected_outcome

    inputs = dict(deal.inputs)
    expect = expected_outcome(ev, deal.kind, inputs)
    if deal.kind == Kind.REJECT:
        return FreshDeal(
            deal.kind,
            inputs,
            deal.situation,
            expect,
            (),
            ("input-validation",),
            f"Fresh deal ({deal.situation}): refused ({expect.get('reason')}).",
        )
    clauses, flags, why = describe(ev, deal.kind, inputs)
    return FreshDeal(
        deal.kind,
        inputs,
        deal.situation,
        expect,
        tuple(clauses),
        tuple(flags),
        f"Fresh deal ({deal.situation}): {why}",
    )


def _siblings(
    ruleset_id: str, seed: int, ev: Any, mine: Sequence[Vector], new: IsNew
) -> list[FreshDeal]:
    """:data:`SIBLINGS` fresh siblings of every clause x flag cell of ``mine``, and one
    more per :data:`SIBLING_SHARE` vectors of the cell (a cell is the vectors of one
    clause x flag pair, one kind and, where cheap to find, the same categories)."""
    from pokercert.harness.explore.counterexample import describe, expected_outcome
    from pokercert.harness.run.siblings import draw_sibling, hand_categories

    def outcome(kind: str, inputs: Mapping[str, Any]) -> Any:
        return expected_outcome(ev, kind, inputs), hand_categories(ev, kind, inputs)

    cells: dict[tuple[Any, ...], list[Vector]] = {}
    for v in mine:
        try:
            shape = hand_categories(ev, v.kind, v.inputs)
        except (CardError, ValueError):
            shape = ()
        cells.setdefault((v.clauses, v.flags, v.kind, shape), []).append(v)
    out = []
    for n, ((clauses, flags, *_), members) in enumerate(cells.items()):
        rng = _stream(seed, ruleset_id, SIBLING, str(n))
        order = list(members)
        rng.shuffle(order)
        made, wanted = 0, SIBLINGS + len(members) // SIBLING_SHARE
        for source in order[: 4 * wanted]:
            found = draw_sibling(rng, source, ev, outcome, new)
            if found is None:
                continue
            expect = expected_outcome(ev, found.kind, found.inputs)
            what = (
                f"refused ({expect.get('reason')})."
                if found.kind == Kind.REJECT
                else describe(ev, found.kind, found.inputs)[2]
            )
            out.append(
                FreshDeal(
                    found.kind,
                    found.inputs,
                    f"{SIBLING}:{source.id}",
                    expect,
                    clauses,
                    flags,
                    f"Fresh sibling of {source.id} (new ranks "
                    f"and suits, the same deciding structure): {what}",
                )
            )
            made += 1
            if made == wanted:
                break
    return out


def fresh_vectors(
    ruleset_id: str,
    seed: int,
    deals: Sequence[FreshDeal],
    curated: Sequence[Vector],
    first_index: int,
) -> list[tuple[Vector, str]]:
    """The fresh deals as vectors numbered from ``first_index``, each paired with the
    situation it was dealt for; a reject deal cites the clauses the curated reject
    vectors of its ruleset cite.  Deals of a kind the adapter does not claim are scored
    NOT_APPLICABLE, like curated vectors."""
    reject_clauses = _reject_clauses(ruleset_id, curated)
    return [
        (
            Vector(
                id=challenge_id(ruleset_id, seed, first_index + i),
                ruleset=ruleset_id,
                kind=d.kind,
                inputs=d.inputs,
                clauses=d.clauses or reject_clauses,
                flags=d.flags,
                why=d.why,
                expect=d.expect,
            ),
            d.situation,
        )
        for i, d in enumerate(deals)
    ]


def _fresh_for(
    ruleset_ids: Sequence[str], profile: Profile, seed: int, count: int
) -> dict[str, list[FreshDeal]]:
    """The fresh deals of these rulesets against the installed corpus."""
    from pokercert.vectors.corpus import load_corpus

    curated = load_corpus().vectors if count > 0 else []
    return {rid: fresh_deals(rid, profile, seed, count, curated) for rid in ruleset_ids}


PREFETCH_DEADLINE_S = 120.0  # how long a run waits for the child dealing ahead


class Dealing:
    """Fresh deals a child process is dealing (:func:`prefetch_fresh`): those of the
    rulesets in ``covers``, by ruleset, when called (``{}`` if the child failed)."""

    def __init__(
        self, covers: Iterable[str], result: Callable[[], dict[str, list[FreshDeal]]]
    ) -> None:
        self.covers = frozenset(covers)
        self._result = result

    def __call__(self) -> dict[str, list[FreshDeal]]:
        return self._result()


def prefetch_fresh(
    ruleset_ids: Sequence[str], profile: Profile, seed: int, count: int
) -> Callable[[], dict[str, list[FreshDeal]]]:
    """Start dealing the fresh deals of two thirds of these rulesets (all but every
    third, from the first) in a forked child (Linux; elsewhere nothing starts) while the
    caller loads the corpus, builds the twins and deals the others
    (:func:`build_challenge`: the twins are its third's worth); returns a
    :class:`Dealing` giving them, by ruleset, when they are needed (``{}`` if the child
    could not deal them in :data:`PREFETCH_DEADLINE_S`: :func:`build_challenge` then
    deals them itself, the same deals).  The child dies with its parent
    (``PR_SET_PDEATHSIG``), so a killed run leaves nothing behind, and it exits as soon
    as it has sent its deals."""
    import os
    import sys

    if not sys.platform.startswith("linux") or count <= 0:
        return dict
    ruleset_ids = [r for i, r in enumerate(ruleset_ids) if i % 3]
    parent = os.getpid()
    try:
        read_fd, write_fd = os.pipe()
        pid = os.fork()
    except OSError:
        return dict
    if pid == 0:  # the child: deal, send, exit
        _deal_in_child(read_fd, write_fd, parent, ruleset_ids, profile, seed, count)
    os.close(write_fd)
    return Dealing(ruleset_ids, functools.partial(_collect_deals, read_fd, pid))


def _deal_in_child(
    read_fd: int,
    write_fd: int,
    parent: int,
    ruleset_ids: Sequence[str],
    profile: Profile,
    seed: int,
    count: int,
) -> NoReturn:
    """The forked child of :func:`prefetch_fresh`: deal, send the deals down the pipe,
    exit (always by ``os._exit``: nothing of the parent's runs twice)."""
    import ctypes
    import os
    import pickle
    import signal

    try:
        os.close(read_fd)
        from pokercert.harness.adapters.supervise import PR_SET_PDEATHSIG

        # die with the harness, however it ends
        ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() == parent:
            # the few thousand classes the deals meet are valued faster than every
            # class a run met is read from the value cache (and a child that leaves
            # by os._exit writes none back): values are computed here
            from pokercert.reference.table_cache import VALUE_CACHE_ENV

            os.environ[VALUE_CACHE_ENV] = "0"
            data = pickle.dumps(_fresh_for(ruleset_ids, profile, seed, count))
            with os.fdopen(write_fd, "wb") as out:
                out.write(data)
    finally:
        os._exit(0)


def _collect_deals(read_fd: int, pid: int) -> dict[str, list[FreshDeal]]:
    """The prefetching child's deals, read from its pipe within
    :data:`PREFETCH_DEADLINE_S` (``{}``, the child killed, when it is late or failed:
    the caller then deals them itself)."""
    import os
    import pickle
    import select
    import signal
    import time

    chunks: list[bytes] = []
    deadline = time.monotonic() + PREFETCH_DEADLINE_S
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([read_fd], [], [], left)[0]:
                os.kill(pid, signal.SIGKILL)
                return {}
            chunk = os.read(read_fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
        dealt: dict[str, list[FreshDeal]] = pickle.loads(b"".join(chunks)) if chunks else {}
        return dealt
    except Exception:  # a child that failed: deal in this process instead
        return {}
    finally:
        os.close(read_fd)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)


def _reject_clauses(ruleset_id: str, curated: Iterable[Vector]) -> tuple[str, ...]:
    """The clauses the curated reject vectors of the ruleset cite most (its first clause
    if none was selected): what a fresh malformed request exercises."""
    cited = Counter(v.clauses for v in curated if v.ruleset == ruleset_id and v.kind == Kind.REJECT)
    if cited:
        return cited.most_common(1)[0][0]
    return (get_ruleset(ruleset_id).clauses[0].label,)


# ----------------------------------------------------------------------------- the set
def _plain_dict(mapping: Mapping[str, Any]) -> dict[str, Any]:
    """``mapping`` as a dict for the JSON encoder (itself when it is one: no copy)."""
    return mapping if type(mapping) is dict else dict(mapping)


@dataclass
class ChallengeSet:
    """The challenge vectors of one run, with where each came from."""

    seed: int
    fresh_per_ruleset: int
    vectors: list[Vector] = field(default_factory=list)
    # vector id -> "twin:<curated id>" or "fresh:<situation>"
    origins: dict[str, str] = field(default_factory=dict)
    # ruleset -> why a curated vector got no twin -> how many
    skipped: dict[str, dict[str, int]] = field(default_factory=dict)

    def to_jsonl(self) -> str:
        """The set as canonical JSON lines (id, ruleset, kind, origin, inputs,
        expectations): what :meth:`sha256` hashes and what a replay must reproduce."""
        encode, lines = _encode, []
        for v in self.vectors:
            rec = {
                "id": v.id,
                "ruleset": v.ruleset,
                "kind": v.kind,
                "origin": self.origins[v.id],
                "inputs": _plain_dict(v.inputs),
                "expect": _plain_dict(v.expect) if v.expect is not None else None,
                "interpretations": v.interpretations,
                "expect_by_reading": {r: _plain_dict(e) for r, e in v.expect_by_reading.items()}
                if v.expect_by_reading is not None
                else None,
                "clauses": v.clauses,
                "flags": v.flags,
            }
            lines.append(encode(rec))
        return "\n".join(lines) + "\n" if lines else ""

    def sha256(self) -> str:
        return hashlib.sha256(self.to_jsonl().encode("utf-8")).hexdigest()

    def summary(self) -> dict[str, Any]:
        """What ``run.json`` records (``filters.challenge``): the seed, the size asked
        for, how many twins and fresh deals per ruleset, what was skipped and why, and
        the SHA-256 of the set."""
        per: dict[str, dict[str, int]] = {}
        for v in self.vectors:
            row = per.setdefault(v.ruleset, {TWIN: 0, FRESH: 0})
            row[origin_kind(self.origins[v.id])] += 1
        return {
            "seed": self.seed,
            "fresh_per_ruleset": self.fresh_per_ruleset,
            "vectors": len(self.vectors),
            "by_ruleset": dict(sorted(per.items())),
            "twins_skipped": {k: dict(sorted(v.items())) for k, v in sorted(self.skipped.items())},
            "sha256": self.sha256(),
        }


def build_challenge(
    curated: Sequence[Vector],
    profile: Profile,
    seed: int,
    fresh_per_ruleset: int = DEFAULT_FRESH,
    *,
    fresh: bool = True,
    dealt: Mapping[str, Sequence[FreshDeal]]
    | Callable[[], Mapping[str, Sequence[FreshDeal]]]
    | None = None,
) -> ChallengeSet:
    """The challenge set of a run whose curated selection is ``curated``.

    Per ruleset (in the order the selection lists them): one twin of each curated
    vector, then the fresh deals of :func:`fresh_deals` (``fresh_per_ruleset`` situation
    deals asked; ``fresh=False``: twins only, as under a ``--flags`` filter, which fresh
    deals cannot honour).  ``dealt`` holds fresh deals already dealt for this seed,
    profile and size (:func:`prefetch_fresh`), by ruleset; given as a function, it is
    called once every twin is built (and, given as a :class:`Dealing`, once the rulesets
    it does not cover are dealt here), so a run builds the twins while a child deals.
    """
    out = ChallengeSet(seed, fresh_per_ruleset if fresh else 0)
    by_ruleset: dict[str, list[Vector]] = {}
    for v in curated:
        by_ruleset.setdefault(v.ruleset, []).append(v)
    twins: dict[str, list[Vector]] = {}
    for rid, group in by_ruleset.items():
        rng = _stream(seed, rid, TWIN)
        made = twins[rid] = []
        skipped: Counter[str] = Counter()
        for v in group:
            t = twin(v, rng, challenge_id(rid, seed, len(made) + 1))
            if t.kind == Kind.REJECT and not _reject_holds(t, profile):
                skipped[SKIP_REJECT_POSITION] += 1
                continue
            made.append(t)
            out.origins[t.id] = f"{TWIN}:{v.id}"
        if skipped:
            out.skipped[rid] = dict(skipped)
    mine: dict[str, Sequence[FreshDeal]] = {}
    if fresh and isinstance(dealt, Dealing):  # deal ours while the child deals its
        mine = {
            rid: fresh_deals(rid, profile, seed, fresh_per_ruleset, group)
            for rid, group in by_ruleset.items()
            if rid not in dealt.covers
        }
    ready = {**(dealt() if callable(dealt) else dealt or {}), **mine}
    for rid, group in by_ruleset.items():
        made = twins[rid]
        out.vectors.extend(made)
        if not fresh:
            continue
        deals = ready.get(rid)
        if deals is None:
            deals = fresh_deals(rid, profile, seed, fresh_per_ruleset, group)
        for f, situation in fresh_vectors(rid, seed, deals, group, len(made) + 1):
            out.vectors.append(f)
            out.origins[f.id] = f"{FRESH}:{situation}"
    out.origins = {v.id: out.origins[v.id] for v in out.vectors}  # in the set's order
    return out


# ----------------------------------------------------------------------------- drafts
DRAFT_LIMIT = 10  # drafts written per ruleset: wrong answers (FAIL) first, then by id


def write_drafts(
    folder: Path,
    results: Iterable[Result],
    profile: Profile,
    adapter: str = "",
    limit: int = DRAFT_LIMIT,
) -> list[Path]:
    """Write the challenge vectors that failed as ready-to-add corpus drafts, one file
    per ruleset (``counterexamples/challenge-<ruleset>.toml``, for ``pokercert vectors
    add FILE --topic challenge-found``), as ``fuzz`` writes its counterexample: the
    reference's expectation under every reading, deciding clauses, flags, a why.
    A reject vector keeps its own tags and reason (refusals do not depend on readings).
    Returns the files written."""
    from pokercert.harness.explore.counterexample import draft_of, drafts_text

    written = []
    for rid, failed in sorted(_failed_by_ruleset(results).items()):
        failed.sort(key=lambda r: (r.outcome is not Outcome.FAIL, r.vector_id))
        found = [_found_of(r, profile) for r in failed[:limit]]
        out = Path(folder) / COUNTEREXAMPLES / f"challenge-{rid}.toml"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(drafts_text(rid, [draft_of(f, adapter) for f in found]), encoding="utf-8")
        written.append(out)
    return written


def _failed_by_ruleset(results: Iterable[Result]) -> dict[str, list[Result]]:
    """The challenge vectors' failing results (those with an origin), by ruleset."""
    by_ruleset: dict[str, list[Result]] = {}
    for r in results:
        if r.origin and r.outcome in FAILING:
            by_ruleset.setdefault(r.ruleset, []).append(r)
    return by_ruleset


def _found_of(r: Result, profile: Profile) -> Found:
    """A failing challenge result as a counterexample: a reject vector as it was (its
    tags and reason), any other kind re-worked by the reference under every reading."""
    from pokercert.harness.explore.counterexample import Found, found_vector

    message = f"{r.outcome} on challenge vector {r.vector_id} ({r.origin})" + (
        f": {r.message}" if r.message else ""
    )
    if r.kind == Kind.REJECT:
        return Found(
            Vector(
                id=r.vector_id,
                ruleset=r.ruleset,
                kind=r.kind,
                inputs=dict(r.inputs),
                clauses=r.clauses,
                flags=r.flags,
                why=r.why,
                expect=dict(r.expected),
            ),
            r.actual,
            message,
        )
    return found_vector(
        r.ruleset,
        r.kind,
        r.inputs,
        profile,
        actual=r.actual,
        message=message,
        vector_id=f"{r.ruleset}/0000",
    )
