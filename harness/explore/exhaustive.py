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

The reference's side (the hands and their classes) is :mod:`pokercert.reference.classes`;
the state saved for ``--resume`` is :mod:`.exhaustive_state`; the checks are
:mod:`.exhaustive_checker` (categories, findings, the batch loop over
:mod:`.exhaustive_batches`) with one strategy for the classes: :mod:`.exhaustive_keyed` or
:mod:`.exhaustive_compare`.  This module plans a run and runs it.
"""

from __future__ import annotations

import gc
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pokercert.harness.adapters.base import Adapter, AdapterAborted, Identity
from pokercert.harness.explore.exhaustive_batches import COMPARE_MODES
from pokercert.harness.explore.exhaustive_checker import Checker
from pokercert.harness.explore.exhaustive_compare import CompareChecker
from pokercert.harness.explore.exhaustive_keyed import KeyedChecker
from pokercert.harness.explore.exhaustive_state import (
    State,
    load_state,
    resume_state,
    shard_range,
)
from pokercert.reference import Profile, Ruleset
from pokercert.reference.classes import ReferenceClasses, Space, space_of
from pokercert.reference.errors import InputError

__all__ = [
    "CLASS_KEYS_PHASE",
    "COMPARE_MODES",
    "DEFAULT_REPORT",
    "REFERENCE_PHASE",
    "ExhaustiveAborted",
    "Phase",
    "card_order_seed",
    "checker_for",
    "choose_mode",
    "draw_order_seed",
    "new_state",
    "plan_run",
    "run_exhaustive",
]

DEFAULT_REPORT = 10
# a phase of a run and how far it is: (REFERENCE_PHASE, 0, 1) as the reference's classes
# are being made and ("741 reference classes of 22,100 hands", 1, 1) once they are (a
# one-step phase: its total is 1); ("order", level, levels) while the classes' order is
# checked (by compare), (CLASS_KEYS_PHASE, members asked, members) while the adapter is
# asked for the keys of the classes' members (key mode); ("hands", done, total) as the
# hands begin (then ``progress`` after each batch)
Phase = Callable[[str, int, int], None]
REFERENCE_PHASE = "reference classes"
CLASS_KEYS_PHASE = "class keys"


class ExhaustiveAborted(AdapterAborted):
    """The harness gave up on the adapter mid-pass (restarts or run time exhausted).

    ``state`` is the pass as far as it got, saved: the hands checked (``checked``; the
    next one to check ``next``), every finding made before, ``aborted`` saying why.
    ``--resume`` goes on from there."""

    def __init__(self, message: str, state: State) -> None:
        super().__init__(message)
        self.state = state
        # what a caller made of the state (``run --exhaustive``: the ruleset's record)
        self.record: dict[str, Any] | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        # (raised inside a Dask task, it travels pickled: with its state)
        return type(self), (str(self), self.state)


def checker_for(
    adapter: Adapter,
    identity: Identity,
    ruleset: Ruleset,
    profile: Profile,
    state: State,
    ref: ReferenceClasses,
    report_limit: int = DEFAULT_REPORT,
) -> Checker:
    """The checker of the run's mode: by key, by compare, or categories only."""
    kind = (
        KeyedChecker
        if state.mode == "key"
        else CompareChecker
        if state.mode in COMPARE_MODES
        else Checker
    )
    return kind(adapter, identity, ruleset, profile, state, ref, report_limit)


def choose_mode(adapter: Adapter, identity: Identity, ruleset: Ruleset) -> str:
    """key (the adapter gives its evaluator's order: an in-process ``key``, ``evaluate``
    or ``evaluate_many``, or the protocol's ``evaluate_many``), compare (claims classify
    and compare), compare-only (claims compare, not classify: no categories to check), or
    categories-only."""
    classify = identity.claims(ruleset.id, "classify")
    if classify and adapter.supports("evaluate"):
        return "key"
    if identity.claims(ruleset.id, "compare"):
        return "compare" if classify else "compare-only"
    return "categories-only"


def draw_order_seed() -> int:
    """A fresh card-order seed (as ``fuzz`` draws its seeds): recorded, so a run replays."""
    return random.SystemRandom().randrange(2**32)


def card_order_seed(order_seed: int | None, sorted_cards: bool) -> int | None:
    """The run's card-order seed: the one given, a fresh one, or None for sorted cards."""
    if sorted_cards and order_seed is not None:
        raise ValueError("an order seed and sorted cards exclude each other")
    return None if sorted_cards else draw_order_seed() if order_seed is None else order_seed


def new_state(
    adapter: Adapter,
    identity: Identity,
    ruleset: Ruleset,
    profile: Profile,
    ref: ReferenceClasses,
    *,
    adapter_spec: str,
    shard: str,
    start: int,
    stop: int,
    order_seed: int | None,
) -> State:
    """The state of a run of hands ``start`` to ``stop - 1`` that has not begun."""
    space = ref.space
    return State(
        ruleset=ruleset.id,
        profile=profile.as_dict(),
        adapter=adapter_spec,
        evaluator=dict(identity.evaluator),
        shard=shard,
        start=start,
        stop=stop,
        total=space.total,
        jokers=space.jokers,
        mode=choose_mode(adapter, identity, ruleset),
        classes=len(ref.keys),
        order_seed=order_seed,
        next=start,
    )


def plan_run(
    adapter: Adapter,
    identity: Identity,
    ruleset: Ruleset,
    profile: Profile,
    out: Path,
    *,
    adapter_spec: str,
    shard: tuple[int, int],
    resume: bool,
    jokers: bool,
    order_seed: int | None,
    sorted_cards: bool,
    hands: tuple[int, int] | None = None,
    phase: Phase | None = None,
) -> tuple[State, ReferenceClasses]:
    """The state of the run (or shard) before its first hand, and the reference's classes.

    The hands are shard ``shard`` (k of n), or the positions ``hands`` (start, stop) of
    the enumeration when given.  The card order is ``order_seed``, a fresh seed, or
    sorted (``sorted_cards``); on ``resume`` with neither given, the one saved in ``out``.
    ``phase`` hears when the reference's classes are being made and what was made
    (:data:`REFERENCE_PHASE`).
    """
    if resume and order_seed is None and not sorted_cards:
        saved = load_state(out)
        if saved is not None:
            order_seed, sorted_cards = saved.order_seed, saved.order_seed is None
    seed = card_order_seed(order_seed, sorted_cards)
    space = space_of(ruleset, profile, jokers)
    lo, hi = shard_range(space.total, *shard) if hands is None else hands
    if not 0 <= lo <= hi <= space.total:
        raise InputError(
            f"hands {lo}..{hi} are not inside the {space.total:,} hands of {ruleset.id}"
        )
    if space.size != ruleset.hand_size and choose_mode(adapter, identity, ruleset) != "key":
        raise InputError(
            f"{ruleset.id}: the pass over every {space.size}-card deal checks "
            "each hand's best five by the evaluator's own value (key, "
            "evaluate or evaluate_many; the protocol's evaluate_many), which "
            "this adapter does not give"
        )
    ref = _reference_classes(ruleset, profile, space, phase)
    label = f"{shard[0]}/{shard[1]}" if hands is None else f"{lo}..{hi}"
    fresh = new_state(
        adapter,
        identity,
        ruleset,
        profile,
        ref,
        adapter_spec=adapter_spec,
        shard=label,
        start=lo,
        stop=hi,
        order_seed=seed,
    )
    return fresh, ref


def _reference_classes(
    ruleset: Ruleset, profile: Profile, space: Space, phase: Phase | None
) -> ReferenceClasses:
    """The reference's classes of ``space``, made with the one-step phase
    :data:`REFERENCE_PHASE` said before and, with what was made, after."""
    if phase:
        phase(REFERENCE_PHASE, 0, 1)
    ref = ReferenceClasses(ruleset, profile, space)
    if phase:
        made = f"{len(ref.keys):,} reference classes of {space.total:,} hands"
        phase(made, 1, 1)
    return ref


@contextmanager
def _long_lived_frozen() -> Iterator[None]:
    """The objects alive now (the reference's classes, the class tables: hundreds of
    thousands) left out of the garbage collector's passes while the hands run: the
    collections the hands' short-lived requests and replies set off then look at those
    alone (a quarter of the harness's CPU per hand in a compare pass went to rescanning
    the tables).  Nothing is frozen if something else froze objects already."""
    if gc.get_freeze_count():
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def run_exhaustive(
    adapter: Adapter,
    identity: Identity,
    ruleset: Ruleset,
    profile: Profile,
    out: Path,
    *,
    adapter_spec: str,
    shard: tuple[int, int] = (1, 1),
    resume: bool = False,
    batch: int | None = None,
    jokers: bool = True,
    report_limit: int = DEFAULT_REPORT,
    progress: Callable[[int, int], None] | None = None,
    order_seed: int | None = None,
    sorted_cards: bool = False,
    hands: tuple[int, int] | None = None,
    phase: Phase | None = None,
    started: float | None = None,
) -> State:
    """Check every hand of shard ``shard`` of the ruleset (or of the positions ``hands``,
    start and stop, when given); state is saved in ``out``.

    The adapter must be started and configured for ``ruleset`` and ``profile``.  Each
    hand is sent in the card order of ``order_seed`` (:func:`~pokercert.reference.classes.
    card_order`; drawn with :func:`draw_order_seed` when None, taken from the saved state
    on ``resume``) or, with ``sorted_cards``, as enumerated (rank descending).  The seed
    is ``State.order_seed`` (None when sorted).

    ``progress`` gets (hands done, hands in the range) after each batch (of ``batch``
    hands; default: the adapter's :attr:`~.Adapter.hands_per_batch`), ``phase`` the
    phases before them (:data:`Phase`).  ``State.elapsed_s`` is the wall time of every
    phase, from ``started`` (a :func:`time.monotonic` time; default: now), added to the
    saved run's on ``resume``.

    If the harness gives up on the adapter, :class:`ExhaustiveAborted` is raised with the
    state as far as it got (saved, its findings kept, ``aborted`` saying why).
    """
    started = time.monotonic() if started is None else started
    fresh, ref = plan_run(
        adapter,
        identity,
        ruleset,
        profile,
        out,
        adapter_spec=adapter_spec,
        shard=shard,
        resume=resume,
        jokers=jokers,
        order_seed=order_seed,
        sorted_cards=sorted_cards,
        hands=hands,
        phase=phase,
    )
    state = resume_state(out, fresh) if resume else fresh
    checker = checker_for(adapter, identity, ruleset, profile, state, ref, report_limit)
    _check(checker, out, batch, started, progress, phase)
    return state


def _check(
    checker: Checker,
    out: Path,
    batch: int | None,
    started: float,
    progress: Callable[[int, int], None] | None,
    phase: Phase | None,
) -> None:
    """The pass of :func:`run_exhaustive` once planned: the classes' order, then the
    hands from the state's next one, the state saved every few seconds and at the end."""
    state = checker.state
    before = state.elapsed_s
    lo, hi = state.start, state.stop

    def save() -> None:
        state.elapsed_s = before + time.monotonic() - started
        state.save(out)

    save()
    try:
        name = CLASS_KEYS_PHASE if state.mode == "key" else "order"
        checker.check_order((lambda done, total: phase(name, done, total)) if phase else None)
        if phase:
            phase("hands", state.next - lo, hi - lo)
        with _long_lived_frozen():
            checker.run_range(
                hi,
                batch,
                progress=(lambda n: progress(n - lo, hi - lo)) if progress else None,
                checkpoint=save,
            )
        state.finished = True
    except AdapterAborted as exc:
        # the findings made so far are final: kept with how far the pass got
        state.aborted = str(exc)
        raise ExhaustiveAborted(str(exc), state) from exc
    finally:
        save()
