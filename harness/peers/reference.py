"""The reference engine as a :class:`~pokercert.harness.api.PokerEvaluator` (adapter ``reference``).

It claims every ruleset, validates every input with the one card parser and refuses bad
input with the parser's reason code, so a run of the corpus against it is the suite's
own consistency check: anything but PASS there is a bug in the corpus or the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import TYPE_CHECKING, ClassVar

from pokercert.harness import __version__
from pokercert.harness.api import EvaluatorInfo, Hands, Rejected
from pokercert.harness.peers._library import chunks, lookup_all
from pokercert.reference import (
    DECK,
    JOKER,
    Card,
    CardError,
    Evaluator,
    HandValue,
    Profile,
    all_rulesets,
    evaluator,
)
from pokercert.reference.pai_gow import PaiGow, pai_gow, pai_gow_rules
from pokercert.vectors.model import kinds_for

if TYPE_CHECKING:
    from pokercert.reference.engine import Pot

_CATEGORY, _KEY = itemgetter(0), itemgetter(1)  # of a HandValue


class ReferenceEvaluator:
    """Every ruleset of the suite, answered by :mod:`pokercert.reference.engine`."""

    info = EvaluatorInfo(
        vendor="pokercert", name="pokercert-reference", version=__version__, build=""
    )
    adapter_version = __version__
    # it follows PROTOCOL.md section 3 to the letter (a board where the game deals none is
    # wrong-count), so it is sent the vectors of that feature too
    protocol_features: ClassVar[dict[str, int]] = {"input_rules": 1}

    def __init__(self) -> None:
        self._ev: Evaluator | None = None
        self._pai_gow: PaiGow | None = None
        # the engine's card for each position in CODED_CARDS (Hands.codes): the 52 of
        # DECK, then the joker where the ruleset has jokers (else a joker's code is not in
        # the table, and the hands go through the parser, which refuses it)
        self._by_code: tuple[Card, ...] = DECK

    def capabilities(self) -> dict[str, list[str]]:
        return {rs.id: kinds_for(rs) for rs in all_rulesets()}

    def configure(self, ruleset: str, readings: dict[str, str]) -> None:
        profile = Profile("adapter", dict(readings))
        self._ev = evaluator(ruleset, profile)
        self._pai_gow = pai_gow(ruleset, profile) if pai_gow_rules(ruleset) else None
        self._by_code = (*DECK, JOKER) if self._ev.ruleset.jokers else DECK

    @property
    def engine(self) -> Evaluator:
        if self._ev is None:
            raise RuntimeError("configure() was not called")
        return self._ev

    def _dealt(self, n: int) -> bool:
        """Whether ``n`` cards are a whole deal of a best-of-the-dealt-cards game (the
        seven cards of stud, or hold 'em's two hole cards then five board cards):
        what an exhaustive pass sends there (:func:`pokercert.reference.classes.dealt_size`)."""
        engine = self.engine
        sel = engine.ruleset.selection
        return sel is not None and n != engine.ruleset.hand_size and n == sel.hole + sel.board

    def _value(self, hand: str | Sequence[Card]) -> HandValue:
        """The hand's value: its best five (``Evaluator.best_hand``, the pot's first half)
        when it is a whole deal, else the hand itself; raises CardError."""
        engine = self.engine
        cards = hand.split() if isinstance(hand, str) else hand
        if self._dealt(len(cards)):
            hole = engine.ruleset.selection.hole  # type: ignore[union-attr]
            board = cards[hole:] if len(cards) > hole else None
            return engine.best_hand(cards[:hole], board).value
        return engine.evaluate(hand)

    # The engine parses a card string faster than a token list (one tokenizing pass), and
    # tokens never hold spaces, so joining them changes nothing but the speed.
    def classify(self, hand: list[str]) -> str:
        try:
            return self._value(" ".join(hand)).category
        except CardError as exc:
            raise Rejected(exc.code, str(exc)) from None

    def key(self, hand: list[str]) -> tuple[int, ...]:
        """The engine's key of the hand (larger is better in the game's own direction)."""
        return self.evaluate(hand)[1]

    def evaluate(self, hand: list[str]) -> tuple[str, tuple[int, ...]]:
        """Category and key of one hand, from one parse and one valuation."""
        try:
            value = self._value(" ".join(hand))
        except CardError as exc:
            raise Rejected(exc.code, str(exc)) from None
        return value.category, value.key

    def evaluate_many(self, hands: Sequence[list[str]]) -> tuple[list[str], list[tuple[int, ...]]]:
        """:meth:`evaluate` of every hand: the scalar engine, hand by hand (so that an
        exhaustive run of the reference checks the engine against the batch path).

        A :class:`~pokercert.harness.api.Hands` of codes of the ruleset's hand size is
        read without card strings: each code becomes the engine's own card through one
        table, and a hand of distinct cards goes straight to ``Evaluator.value``.  Any
        other hand (a card twice, jokers repeated) goes through the card parser, exactly
        as a string would, so the same input is refused for the same reason.  A whole
        deal of a best-five-of-seven game is valued by ``Evaluator.best_hand``, hand by
        hand (the engine's own selection, independent of the seven-card class table the
        exhaustive pass checks it against).
        """
        engine = self.engine
        try:
            if (
                isinstance(hands, Hands)
                and hands.codes is not None
                and hands.size == engine.ruleset.hand_size
            ):
                values = self._values_of_codes(hands.codes, hands.size)
            else:
                value = self._value
                values = [value(" ".join(h)) for h in hands]
        except CardError as exc:
            raise Rejected(exc.code, str(exc)) from None
        return list(map(_CATEGORY, values)), list(map(_KEY, values))

    def _values_of_codes(self, codes: list[int], n: int) -> list[HandValue]:
        """The values of hands given as codes (``n`` per hand); raises CardError."""
        try:
            cards = lookup_all(self._by_code, codes)
        except IndexError:  # a joker the ruleset has not: the parser names the fault
            return [self.engine.evaluate(" ".join(h)) for h in Hands(None, n, codes)]
        value, parsed = self.engine.value, self.engine.evaluate
        return [value(h) if len(set(h)) == n else parsed(h) for h in chunks(cards, n)]

    def winners(self, hands: list[list[str]], board: list[str] | None = None) -> list[int]:
        try:
            return self.engine.winners(
                [" ".join(h) for h in hands], " ".join(board) if board is not None else None
            )
        except CardError as exc:
            raise Rejected(exc.code, str(exc)) from None

    def best_hand(
        self, hole: list[str], board: list[str] | None = None, half: str | None = None
    ) -> tuple[list[str], str]:
        try:
            found = self.engine.best_hand(
                " ".join(hole), " ".join(board) if board is not None else None, half=half
            )
        except CardError as exc:
            raise Rejected(exc.code, str(exc)) from None
        if found is None:
            raise ValueError(f"no hand qualifies for the {half} half")
        return [str(c) for c in found.cards], found.category

    def showdown(self, hands: list[list[str]], board: list[str] | None = None) -> Pot:
        """The engine's settled pot: winners of each half and every hand's exact share."""
        try:
            return self.engine.pot(
                [" ".join(h) for h in hands], " ".join(board) if board is not None else None
            )
        except CardError as exc:
            raise Rejected(exc.code, str(exc)) from None

    def qualifies(self, hand: list[str]) -> bool:
        """Whether the hand meets the configured ruleset's dealer qualifier."""
        try:
            return self.engine.qualifies(" ".join(hand))
        except CardError as exc:
            raise Rejected(exc.code, str(exc)) from None

    # ----------------------------------------------------------------- pai gow
    @property
    def game(self) -> PaiGow:
        """The configured pai gow game (:mod:`pokercert.reference.pai_gow`)."""
        if self._pai_gow is None:
            raise RuntimeError(f"{self.engine.ruleset.id} is not a pai gow game")
        return self._pai_gow

    def compare_two_card(self, hands: list[list[str]]) -> list[int]:
        """Indices of the best two-card hands (the joker an ace)."""
        try:
            return self.game.compare_two_card([" ".join(h) for h in hands])
        except CardError as exc:
            raise Rejected(exc.code, str(exc)) from None

    def setting(self, high: list[str], low: list[str]) -> bool:
        """Whether the five-card hand outranks the two-card hand (False: foul)."""
        try:
            return self.game.legal(" ".join(high), " ".join(low))
        except CardError as exc:
            raise Rejected(exc.code, str(exc)) from None

    def settle(self, player: list[list[str]], banker: list[list[str]]) -> str:
        """``player``, ``banker`` or ``push`` for the player's set hand against the banker's."""
        try:
            return self.game.settle([" ".join(h) for h in player], [" ".join(h) for h in banker])
        except CardError as exc:
            raise Rejected(exc.code, str(exc)) from None
