"""The cards of ``evaluate``, ``compare`` and ``showdown`` checked before the reference
values them, so that a refusal names where the trouble is: the option a game does not
take (``--board`` where nothing is dealt to the table), what the game deals when the
board is missing, the player (``hand N``, numbered from 0 like the rest of the command
line) whose hand has the wrong count, and both places a duplicated card was typed, in
the order they were typed.  Reason codes are the parser's (:class:`CardError`)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from pokercert.cli.options import UsageError
from pokercert.reference.cards import DUPLICATE_CARD, CardError, parse_card
from pokercert.reference.engine import Evaluator

__all__ = ["BoardOption", "check_board", "check_deal"]


class BoardOption(argparse.Action):
    """``--board``: stores the cards and whether they were typed before the hands
    (``board_first``), so a duplicate is reported in typing order."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        setattr(namespace, self.dest, values)
        typed = [getattr(namespace, name, None) for name in ("cards", "hands")]
        namespace.board_first = not any(typed)


def check_board(ev: Evaluator, board: str | None, hand_cards: int) -> None:
    """Refuse ``--board`` for a game that deals no board, and a missing one (with what
    the game deals) when the hand is not a whole hand of the ruleset on its own."""
    rs = ev.ruleset
    sel = rs.selection
    if board is not None and (sel is None or (sel.board == 0 and board.split())):
        raise UsageError(
            f"--board: {rs.id} deals no community cards (a hand is "
            f"{rs.hand_size if sel is None else sel.hole} cards of its own); "
            "drop --board"
        )
    if board is None and sel is not None and sel.board and hand_cards != rs.hand_size:
        raise UsageError(
            f"{rs.id} deals {sel.hole} hole cards and a {sel.board}-card "
            f"board; got {hand_cards} cards and no board: give the hole "
            f"cards and add the board with --board (e.g. --board "
            f'"{" ".join([".."] * sel.board)}")'
        )


def check_deal(
    ev: Evaluator,
    hands: Sequence[str],
    board: str | None,
    *,
    dealt: bool,
    board_first: bool = False,
) -> None:
    """Parse the deal as the command will (``dealt``: as the game deals it, a pot or a
    best hand; else a showdown of hands); a refusal names the hand or the board."""
    parse = ev.parse_dealt if dealt else ev.parse_deal
    try:
        parse(hands, board)
    except CardError as exc:
        raise _located(parse, hands, board, board_first, exc) from None


def _located(
    parse: Any, hands: Sequence[str], board: str | None, board_first: bool, exc: CardError
) -> CardError:
    """``exc`` again, naming where: the board, a hand, or both places of a duplicate."""
    if board is not None:
        try:
            parse([], board)
        except CardError as own:
            return CardError(own.code, f"board: {own}")
    # one hand is the only player's (evaluate): its hole cards where a board is dealt,
    # never "hand 0" (a number only tells hands apart, as "player 0" in a showdown)
    alone = "hole cards" if board is not None else "hand"
    places = [(alone if len(hands) == 1 else f"hand {i}", h) for i, h in enumerate(hands)]
    for name, hand in places:
        try:
            parse([hand], board)  # this hand alone (the board is sound by now)
        except CardError as own:
            if own.code != DUPLICATE_CARD or "joker" in str(own):
                return CardError(own.code, f"{name}: {own}")
    if board is not None:
        places.insert(0 if board_first else len(places), ("board", board))
    seen: dict[Any, str] = {}
    for name, text in places:
        for pos, token in enumerate(text.replace(",", " ").split()):
            try:
                card = parse_card(token, pos)
            except CardError:
                continue
            where = f"{name.replace('hole cards', 'hole')} card {pos + 1} ({token})"
            if card in seen and not card.is_joker:
                return CardError(DUPLICATE_CARD, f"duplicate card: {seen[card]} and {where}")
            seen[card] = where
    return exc
