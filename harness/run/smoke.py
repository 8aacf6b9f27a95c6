"""``pokercert smoke``: a dozen trivial requests that tell a broken adapter from a
non-compliant evaluator before a long run.

For one ruleset the adapter claims, the smoke set holds unambiguous hands (a royal or
top straight flush, trips or a pair, a plain no-pair hand, two identical-rank hands that
must tie), one refusal of each single fault (an unknown card, a repeated card, a card
short) and, where the adapter claims them, a best hand from a deal and a whole showdown
(in a split-pot game, one whose low half goes to another hand than the high).  Their
expectations come from the reference engine, and a hand or deal is used only if every
interpretation profile agrees on it, so the set holds nothing debatable.

:func:`feature_checks` adds what only an adapter speaking a protocol feature is sent:
one ``classify_many`` and one ``evaluate_many`` request (the smoke hands), each a row of
its own scored hand by hand through the one PASS rule (:mod:`pokercert.harness.scoring`;
an ``evaluate_many`` key order is scored as the compares it implies), and a
``best_hand`` of the low half (``best_hand_half``).

Verdicts: any ERROR, TIMEOUT or CRASH (or a failed start) means the *adapter* is broken
(exit 2: fix the plumbing first); only wrong answers means the *evaluator* does not comply
even on trivial hands (exit 1); all PASS means the adapter works (exit 0).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from pokercert.harness.adapters.base import (
    ANSWERED,
    ERROR,
    REJECTED,
    Adapter,
    AdapterAborted,
    AdapterError,
    Identity,
    Reply,
)
from pokercert.harness.outcome import Outcome
from pokercert.harness.protocol import HALF_FEATURE, MANY_OPS
from pokercert.harness.run.results import Result
from pokercert.harness.run.runner import score_vectors
from pokercert.harness.scoring import score
from pokercert.reference import Ruleset, evaluator, get_ruleset, load_profile
from pokercert.reference.cards import BAD_CARD, DUPLICATE_CARD, WRONG_COUNT
from pokercert.reference.pai_gow import pai_gow_rules
from pokercert.vectors import pai_gow_inputs
from pokercert.vectors.check import pot_outcome
from pokercert.vectors.model import Kind, Vector

# candidate hands by size: best-looking first; a tie pair last
HANDS = {
    5: ("As Ks Qs Js Ts", "9c 9d 9h 4s 4c", "Kd Jc 8h 5s 2c", "Kh Js 8d 5c 2d"),
    4: ("As Ks Qs Js", "9c 9d 9h 4s", "Kd Jc 8h 5s", "Kh Js 8d 5c"),
    3: ("As Ks Qs", "9c 9d 4h", "Kd 8c 5h", "Kh 8d 5c"),
    2: ("As Ad", "Kd 8c", "Qd 7c", "Qh 7d"),
}
HOLDEM_HANDS, HOLDEM_BOARD = ("As Ks", "7c 2d"), "Qs Js 3h"
NOT_A_CARD = "Zz"
PREFERRED = "nj-poker-high-5"
PROFILES = ("practice", "literal")
PLAYERS = 3  # players in a smoke showdown (fewer if the deck runs out)
# every card once, each 23 places on from the last in rank-then-suit order: deals for the
# showdown and best-hand checks are cut from its rotations (the first one every profile
# agrees on and that shows what the check is for)
_CARDS = [r + s for r in "23456789TJQKA" for s in "shdc"]
DECK = tuple(_CARDS[(i * 23) % 52] for i in range(52))
HoleAndBoard = tuple[list[str], str | None]


def _hands(size: int) -> tuple[str, ...]:
    """The candidate hands of ``size`` cards (for a size :data:`HANDS` lacks, four hands
    cut from :data:`DECK`: plain hands, no tie)."""
    return HANDS.get(size) or tuple(" ".join(DECK[i * size : (i + 1) * size]) for i in range(4))


def _agreed(rs: Ruleset, fn: str, *args: Any, **kwargs: Any) -> Any:
    """The reference answer, if the practice and literal profiles agree on it (a
    best_hand: its category; a pot: its comparable outcome)."""
    answers = []
    for prof in PROFILES:
        found = getattr(evaluator(rs.id, prof), fn)(*args, **kwargs)
        if fn == Kind.BEST_HAND:
            found = found.category if found is not None else None
        elif fn == "pot":
            found = pot_outcome(found.high, found.low, found.shares)
        answers.append(found)
    return answers[0] if answers[0] == answers[1] else None


def _vector(
    rs: Ruleset, n: int | str, kind: str, inputs: dict[str, Any], expect: dict[str, Any], why: str
) -> Vector:
    label = f"{n:02d}" if isinstance(n, int) else n
    return Vector(
        id=f"smoke/{rs.id}/{label}",
        ruleset=rs.id,
        kind=kind,
        inputs=inputs,
        clauses=(),
        flags=("smoke",),
        why=why,
        expect=expect,
    )


def smoke_vectors(ruleset_id: str, kinds: Sequence[str]) -> list[Vector]:
    """The smoke set for one ruleset, limited to the vector kinds the adapter claims."""
    rs = get_ruleset(ruleset_id)
    hands = _hands(rs.hand_size)
    out: list[Vector] = []

    def add(kind: str, inputs: dict[str, Any], expect: dict[str, Any], why: str) -> None:
        out.append(_vector(rs, len(out) + 1, kind, inputs, expect, why))

    if Kind.CLASSIFY in kinds:
        for hand in hands[:3]:
            cat = _agreed(rs, "category", hand)
            if cat:
                add("classify", {"hand": hand}, {"category": cat}, f"{hand} is a {cat}")
    if Kind.COMPARE in kinds:
        _compares(rs, hands, add)
    if Kind.BEST_HAND in kinds and rs.selection is not None:
        fixed = _holdem_deal(rs)
        found = _best_hand_check(rs, fixed, None) if fixed else _first_best_hand(rs, None)
        if found:
            add(Kind.BEST_HAND, *found)
    if Kind.SHOWDOWN in kinds and rs.halves and rs.selection is not None:
        for inputs, expect, why in _showdowns(rs):
            add(Kind.SHOWDOWN, inputs, expect, why)
    if pai_gow_rules(rs.id) is not None:
        _pai_gow_checks(rs, kinds, add)
    if Kind.REJECT in kinds and Kind.CLASSIFY in kinds:
        cards = hands[2].split()
        faults = {
            BAD_CARD: [*cards[:-1], NOT_A_CARD],
            DUPLICATE_CARD: [*cards[:-1], cards[0]],
            WRONG_COUNT: cards[:-1],
        }
        for reason, faulty in faults.items():
            add(
                "reject",
                {"op": "classify", "hand": " ".join(faulty)},
                {"reason": reason},
                f"one fault only: {reason}",
            )
    return out


Add = Callable[[str, dict[str, Any], dict[str, Any], str], None]

# pai gow (reference/pai_gow.py): a pair against no pair in two cards; a royal flush
# behind king-eight and a king-high hand behind aces; trips-full behind queen-seven against
# king high behind queen-six (the player wins both hands)
PAI_GOW_SMOKE: tuple[tuple[str, dict[str, Any]], ...] = (
    (Kind.COMPARE_TWO_CARD, {"hands": ["As Ad", "Kd 8c"]}),
    (Kind.SETTING, {"high": "As Ks Qs Js Ts", "low": "Kd 8c"}),
    (Kind.SETTING, {"high": "Kd Jc 8h 5s 2c", "low": "As Ad"}),
    (
        Kind.SETTLE,
        {"player": ["9c 9d 9h 4s 4c", "Qd 7c"], "banker": ["Kd Jc 8h 5s 2c", "Qh 6d"]},
    ),
)


def _pai_gow_checks(rs: Ruleset, kinds: Sequence[str], add: Add) -> None:
    """The pai gow smoke checks the adapter claims, where every profile agrees."""
    for kind, inputs in PAI_GOW_SMOKE:
        if kind not in kinds:
            continue
        answers = [pai_gow_inputs.answer(kind, inputs, evaluator(rs.id, prof)) for prof in PROFILES]
        if answers[0] == answers[1]:
            add(kind, dict(inputs), answers[0], f"pai gow: {answers[0]}")


def _compares(rs: Ruleset, hands: Sequence[str], add: Add) -> None:
    for pair in ([*hands[:2]], [*hands[2:4]]):
        won = _agreed(rs, "winners", pair)
        if won is not None:
            add("compare", {"hands": pair}, {"winners": won}, "an unambiguous showdown")
    deal = _holdem_deal(rs)
    if deal is not None:
        won = _agreed(rs, "winners", *deal)
        if won is not None:
            add(
                "compare",
                {"hands": deal[0], "board": deal[1]},
                {"winners": won},
                "an unambiguous showdown on a board",
            )


def _holdem_deal(rs: Ruleset) -> HoleAndBoard | None:
    """The fixed two-player deal of a two-hole, three-board game (Mini-tex)."""
    sel = rs.selection
    if sel is None or (sel.hole, sel.board) != (2, 3):
        return None
    return [*HOLDEM_HANDS], HOLDEM_BOARD


def _deals(rs: Ruleset, players: int) -> Iterator[HoleAndBoard]:
    """Deals the game deals (each player's hole cards, the board or None), cut from the
    rotations of :data:`DECK`."""
    assert rs.selection is not None
    hole, board = rs.selection.hole, rs.selection.board
    players = max(1, min(players, (len(DECK) - board) // hole))
    for shift in range(len(DECK)):
        cards = DECK[shift:] + DECK[:shift]
        hands = [" ".join(cards[i * hole : (i + 1) * hole]) for i in range(players)]
        yield hands, " ".join(cards[players * hole : players * hole + board]) or None


Check = tuple[dict[str, Any], dict[str, Any], str]  # inputs, expectation, why


def _first_best_hand(rs: Ruleset, half: str | None) -> Check | None:
    """The best_hand check of the first one-player deal it can be made of."""
    return next((c for d in _deals(rs, 1) if (c := _best_hand_check(rs, d, half))), None)


def _best_hand_check(rs: Ruleset, deal: HoleAndBoard, half: str | None) -> Check | None:
    """(inputs, expectation, why) of a best_hand of the first player of ``deal``, if
    every profile agrees on its category (None: no hand qualifies for the half, or the
    profiles differ)."""
    hole, board = deal[0][0], deal[1]
    extra = {"half": half} if half else {}
    cat = _agreed(rs, "best_hand", hole, board, **extra)
    if not cat:
        return None
    best = evaluator(rs.id).best_hand(hole, board, **extra)
    assert best is not None
    played = [" ".join(str(c) for c in alt) for alt in best.alternatives]
    inputs = {"hole": hole, **({"board": board} if board else {}), **extra}
    return (
        inputs,
        {"category": cat, "cards": played},
        f"the best {half or rs.pot_halves[0].name} hand from the cards dealt",
    )


def _showdowns(rs: Ruleset) -> list[Check]:
    """A whole pot every profile agrees on; in a split-pot game one whose low half goes
    to another hand than the high.  (A pot no hand qualifies for the low half of is no
    smoke check: the readings of ``low-qualifier`` settle it differently.)"""
    split = len(rs.halves) > 1
    for hands, board in _deals(rs, PLAYERS):
        pot = _agreed(rs, "pot", hands, board)
        if pot is not None and (not split or (pot["low"] and pot["low"] != pot["high"])):
            inputs = {"hands": hands, **({"board": board} if board else {})}
            return [
                (
                    inputs,
                    pot,
                    "a split pot: the low half to another hand than the high"
                    if split
                    else "an unambiguous pot",
                )
            ]
    return []


def claimed_rulesets(identity: Identity) -> list[str]:
    """Every known ruleset the adapter claims, :data:`PREFERRED` first."""
    from pokercert.reference import all_rulesets

    known = sorted((rs.id for rs in all_rulesets()), key=lambda r: r != PREFERRED)
    return [r for r in known if identity.capabilities.get(r)]


def pick_ruleset(identity: Identity, wanted: str | None) -> str | None:
    """The ruleset to smoke: the one asked for, else the first the adapter claims."""
    if wanted:
        return wanted
    claimed = claimed_rulesets(identity)
    return claimed[0] if claimed else None


# ----------------------------------------------------------------- protocol features
def feature_checks(adapter: Adapter, identity: Identity, rulesets: Sequence[str]) -> list[Result]:
    """The rows only an adapter that speaks a protocol feature gets, for each ruleset of
    ``rulesets`` it claims: a ``best_hand`` of the low half of a split pot
    (``best_hand_half``), one ``classify_many`` and one ``evaluate_many`` request (each a
    row of its own).  Raises :class:`AdapterAborted` as the runner does."""
    profile = load_profile(PROFILES[0])
    out: list[Result] = []
    for rs_id in rulesets:
        rs = get_ruleset(rs_id)
        kinds = identity.capabilities.get(rs_id, [])
        if (
            adapter.supports(HALF_FEATURE)
            and Kind.BEST_HAND in kinds
            and len(rs.halves) > 1
            and rs.selection is not None
        ):
            found = _first_best_hand(rs, "low")
            low = [_vector(rs, "best_hand-low", Kind.BEST_HAND, *found)] if found else []
            for batch in score_vectors(adapter, identity, low, profile):
                out.extend(batch)
        ops = [op for op in MANY_OPS if adapter.supports(op)]
        if ops and Kind.CLASSIFY in kinds:
            hands = _many_hands(rs)
            try:
                adapter.configure(rs_id, profile.readings_for(rs))
                replies = [_ask(adapter, op, hands) for op in ops]
            except AdapterAborted:
                raise
            except AdapterError as exc:
                replies = [Reply(ERROR, message=str(exc)[:1000]) for _ in ops]
            out.extend(
                _many_result(rs, op, hands, reply) for op, reply in zip(ops, replies, strict=True)
            )
    return out


def _many_hands(rs: Ruleset) -> list[tuple[str, str]]:
    """(hand, its category) of the smoke hands every profile agrees on.  (No refused
    hand: the bulk checks of a run send valid hands only, and an in-process evaluator's
    bulk method is not asked to validate.)"""
    hands = [(h, _agreed(rs, "category", h)) for h in _hands(rs.hand_size)]
    return [(h, c) for h, c in hands if c]


def _ask(adapter: Adapter, op: str, hands: Sequence[tuple[str, str]]) -> Reply:
    (reply,) = adapter.run_batch([{"op": op, "hands": [h for h, _ in hands]}])
    return reply


def _many_result(rs: Ruleset, op: str, hands: Sequence[tuple[str, str]], reply: Reply) -> Result:
    """One row: a ``classify_many`` / ``evaluate_many`` reply scored hand by hand as the
    classify (or reject) vector each hand would be, and, with keys, the order they give
    the smoke pairs scored as those compares."""
    expected: dict[str, Any] = {"categories": [c for _, c in hands]}
    if op == "evaluate_many":
        expected["keys"] = "larger for the better hand"
    inputs = {"op": op, "hands": [h for h, _ in hands]}
    if reply.status != ANSWERED:
        outcome, _, message = score(
            _vector(rs, op, Kind.CLASSIFY, {"hand": ""}, {}, ""), {}, reply, rs
        )
        return Result(
            vector_id=f"smoke/{rs.id}/{op}",
            ruleset=rs.id,
            kind=op,
            outcome=outcome,
            expected=expected,
            message=f"{op} reply: {message}",
            inputs=inputs,
            why=f"the protocol feature {op}",
        )
    scored = [*_each_hand(rs, hands, reply.data["categories"])]
    if op == "evaluate_many":
        scored += _key_order(rs, hands, reply.data["categories"], reply.data["keys"])
    worst = min((o for o, _ in scored), key=_SEVERITY.index, default=Outcome.PASS)
    message = "; ".join(m for o, m in scored if o is not Outcome.PASS)
    actual = {
        "categories": [_shown(c) for c in reply.data["categories"]],
        **({"keys": list(reply.data["keys"])} if op == "evaluate_many" else {}),
    }
    return Result(
        vector_id=f"smoke/{rs.id}/{op}",
        ruleset=rs.id,
        kind=op,
        outcome=worst,
        expected=expected,
        actual=None if worst in _BROKEN else actual,
        message=f"{op} reply: {message}" if message else "",
        inputs=inputs,
        why=f"the protocol feature {op}",
    )


_BROKEN = (Outcome.CRASH, Outcome.TIMEOUT, Outcome.ERROR)  # the reply is no answer: say why
_SEVERITY = (
    Outcome.CRASH,
    Outcome.TIMEOUT,
    Outcome.ERROR,
    Outcome.FAIL,
    Outcome.WRONG_REASON,
    Outcome.PASS,
)


def _shown(entry: Any) -> Any:
    """A category entry as the reply spelled it (a refusal or error as an object)."""
    if not isinstance(entry, Reply):
        return entry
    if entry.status == REJECTED:
        return {"rejected": entry.data.get("rejected")}
    return {"error": entry.message}


def _each_hand(
    rs: Ruleset, hands: Sequence[tuple[str, str]], categories: Sequence[Any]
) -> Iterator[tuple[Outcome, str]]:
    for i, ((hand, category), entry) in enumerate(zip(hands, categories, strict=True)):
        reply = entry if isinstance(entry, Reply) else Reply(ANSWERED, {"category": entry})
        vector = _vector(rs, i, Kind.CLASSIFY, {"hand": hand}, {"category": category}, "")
        outcome, _, message = score(vector, {"category": category}, reply, rs)
        # (an entry of the wrong shape: the message names the request and the hand)
        yield outcome, message if outcome is Outcome.ERROR else f"hand {i} ({hand}): {message}"


def _key_order(
    rs: Ruleset, hands: Sequence[tuple[str, str]], categories: Sequence[Any], keys: Sequence[Any]
) -> Iterator[tuple[Outcome, str]]:
    """The winners the keys make of each smoke pair (0 and 1, 2 and 3), scored as that
    compare: a larger key is the better hand, equal keys tie (PROTOCOL.md 4.6)."""
    for a, b in ((0, 1), (2, 3)):
        if b >= len(hands) or isinstance(categories[a], Reply) or isinstance(categories[b], Reply):
            continue  # a hand without a category: scored above
        pair = [hands[a][0], hands[b][0]]
        won = _agreed(rs, "winners", pair)
        if won is None:
            continue
        ka, kb = ([k] if type(k) is int else list(k) for k in (keys[a], keys[b]))
        got = [0] if ka > kb else [1] if kb > ka else [0, 1]
        vector = _vector(rs, a, Kind.COMPARE, {"hands": pair}, {"winners": won}, "")
        outcome, _, message = score(vector, {"winners": won}, Reply(ANSWERED, {"winners": got}), rs)
        yield outcome, f"keys of hands {a} and {b} ({keys[a]}, {keys[b]}): {message}"
