"""The pot's fast path (``Evaluator.best_key``) against the engine's own search.

``Evaluator.pot`` takes each hand's best key from :meth:`Evaluator.best_key`, which codes
every candidate hand the selection rule allows as its rank multiset and suit class and
values each class once.  The oracle is the engine's candidate-by-candidate search that
``best_hand`` runs (``pot(..., fast=False)``).  The two must agree on every deal: here on
seeded random deals of every ruleset with a selection rule or several pot halves, under
every reading of the interpretations that change how hands are chosen or pots shared;
``tests/harness/run/test_fast_pot_corpus.py`` checks the corpus's showdowns.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from pokercert.reference import DECK, JOKER, Card, Profile, all_rulesets, evaluator
from pokercert.reference.cards import SUIT_CHARS, parse_cards
from pokercert.reference.engine import Evaluator
from pokercert.reference.interpretations import get_interpretation

DEALS = 120  # random deals per ruleset and profile
PLAYERS = (2, 3, 4)

SPLIT_GAMES = sorted(
    rs.id for rs in all_rulesets() if rs.selection is not None or len(rs.pot_halves) > 1
)


def _profiles(rid: str) -> Iterator[Profile]:
    """The default profile, then each other reading of each interpretation of the
    ruleset alone."""
    yield Profile("practice", {})
    rs = evaluator(rid).ruleset
    for iid in rs.interpretations:
        interp = get_interpretation(iid)
        for reading in interp.readings:
            if reading != interp.default:
                yield Profile(f"{iid}={reading}", {iid: reading})


def _deal(
    ev: Evaluator, rng: random.Random, players: int
) -> tuple[list[tuple[object, ...]], tuple[object, ...]]:
    """``players`` hands (and the board) dealt from one shuffled deck."""
    deck = list(DECK)
    rng.shuffle(deck)
    sel = ev.ruleset.selection
    per = sel.hole if sel is not None else ev.ruleset.hand_size
    hands = [tuple(deck[i * per : (i + 1) * per]) for i in range(players)]
    board = tuple(deck[players * per : players * per + sel.board]) if sel is not None else ()
    return hands, board


def test_the_games_with_selection_or_halves_are_all_here() -> None:
    """The six poker-room games (and Mini-tex's three-card board game) are exercised:
    a ruleset that gains a selection rule is picked up by the data, not by a list."""
    assert {
        "nj-holdem",
        "nj-omaha",
        "nj-omaha-hi-lo",
        "nj-seven-card-stud",
        "nj-stud-hi-lo",
        "nj-razz",
    } <= set(SPLIT_GAMES)


@pytest.mark.parametrize("rid", SPLIT_GAMES)
def test_best_key_equals_the_search_on_random_deals(rid: str) -> None:
    for profile in _profiles(rid):
        ev = evaluator(rid, profile)
        rng = random.Random(f"{rid}|{profile.name}")
        for n in range(DEALS):
            hands, board = _deal(ev, rng, PLAYERS[n % len(PLAYERS)])
            for half in ev.ruleset.pot_halves:
                for hole in hands:
                    found = ev.best_hand(hole, board or None, half.name)
                    slow = None if found is None else found.value.key
                    assert ev.best_key(hole, board, half.name) == slow, (
                        rid,
                        profile.name,
                        half.name,
                        hole,
                        board,
                    )
            as_text = [" ".join(map(str, h)) for h in hands]
            table = " ".join(map(str, board)) if board else None
            assert ev.pot(as_text, table) == ev.pot(as_text, table, fast=False), (
                rid,
                profile.name,
                as_text,
                table,
            )


def test_the_fast_path_values_classes_not_candidates(monkeypatch: pytest.MonkeyPatch) -> None:
    """Natural cards never reach the candidate-by-candidate search (it is refused here),
    and an Omaha hand's 60 candidates are valued as the classes they fall in."""
    ev = evaluator("nj-omaha-hi-lo")
    hole, board = DECK[0:4], DECK[20:25]
    expected = {half.name: ev._best(hole, board, half.name) for half in ev.ruleset.pot_halves}

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("the candidate-by-candidate search ran")

    monkeypatch.setattr(Evaluator, "_best", refused)
    monkeypatch.setattr(Evaluator, "value", refused)
    for half, best in expected.items():
        assert ev.best_key(hole, board, half) == (None if best is None else best.value.key)


def test_wild_cards_and_distinct_halves_take_the_search() -> None:
    """Where the class of a hand does not fix its value (a joker may stand for any card;
    the distinct-halves reading needs the high hand's every five), best_key asks the
    search, and still agrees with it."""
    wild = [rs.id for rs in all_rulesets() if rs.jokers and rs.selection is None]
    assert wild, "a ruleset with jokers"
    ev = evaluator(wild[0])
    hand = (JOKER, *DECK[8 : 8 + ev.ruleset.hand_size - 1])
    assert ev.best_key(hand, ()) == ev._best(hand, (), ev.ruleset.pot_halves[0].name).value.key  # type: ignore[union-attr]
    distinct = evaluator("nj-stud-hi-lo", Profile("d", {"same-cards-both-halves": "literal"}))
    rng = random.Random(5)
    for _ in range(200):
        (hole,), _board = _deal(distinct, rng, 1)
        found = distinct.best_hand(hole, None, "low")
        assert distinct.best_key(hole, (), "low") == (None if found is None else found.value.key)


def test_a_deals_board_is_summed_once_for_all_its_hands(monkeypatch: pytest.MonkeyPatch) -> None:
    """The board's subset sums are the same for every hand and half of a deal: a pot of
    six hold'em hands sums the board's 5-, 4- and 3-card subsets once each (not once per
    hand), and still settles as the search does."""
    import pokercert.reference.engine as engine

    ev = Evaluator("nj-holdem")
    hands = [" ".join(map(str, DECK[2 * i : 2 * i + 2])) for i in range(6)]
    board = " ".join(map(str, DECK[30:35]))
    board_codes = sorted(engine._CODE[c] for c in DECK[30:35])
    summed: list[int] = []
    real = engine._subset_sums

    def counting(codes: list[int], k: int) -> list[int]:
        if sorted(codes) == board_codes:
            summed.append(k)
        return real(codes, k)

    monkeypatch.setattr(engine, "_subset_sums", counting)
    fast = ev.pot(hands, board)
    assert sorted(summed) == [3, 4, 5]
    assert fast == ev.pot(hands, board, fast=False)


def _relabelled(
    cards: tuple[Card, ...], rename: dict[str, str], rng: random.Random
) -> tuple[Card, ...]:
    """``cards`` with their suits renamed by ``rename``, in a shuffled order."""
    out = [Card(c.rank, rename[c.suit]) for c in cards]
    rng.shuffle(out)
    return tuple(out)


@pytest.mark.parametrize("rid", SPLIT_GAMES)
def test_a_twin_is_answered_from_the_deal_class(rid: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A challenge twin is the same hand and board with the suits renamed and the cards
    reordered: its best key is the original's, found without summing a subset again;
    and it is still the search's answer for the twin, for every half and renaming."""
    import pokercert.reference.engine as engine

    ev = Evaluator(rid)
    rng = random.Random(f"twin|{rid}")
    summed: list[int] = []
    real = engine._subset_sums

    def counting(codes: list[int], k: int) -> list[int]:
        summed.append(k)
        return real(codes, k)

    monkeypatch.setattr(engine, "_subset_sums", counting)
    for _ in range(40):
        (hole,), board = _deal(ev, rng, 1)
        suits = list(SUIT_CHARS)
        rng.shuffle(suits)
        rename = dict(zip(SUIT_CHARS, suits, strict=True))
        twin_hole, twin_board = _relabelled(hole, rename, rng), _relabelled(board, rename, rng)
        for half in ev.ruleset.pot_halves:
            first = ev.best_key(hole, board, half.name)
            summed.clear()
            again = ev.best_key(twin_hole, twin_board, half.name)
            assert not summed, "a twin's classes were summed again"
            found = ev._best(twin_hole, twin_board, half.name)
            assert again == first == (None if found is None else found.value.key), (
                rid,
                half.name,
                hole,
                board,
                twin_hole,
                twin_board,
            )


def test_a_card_moved_between_hand_and_board_is_another_deal() -> None:
    """The deal's class keeps the hand apart from the board: an Omaha hand must use two
    of its cards, so swapping a hole card for a board card (the same nine cards, the same
    suits) can change its best hand: two hole hearts beside three on the board make a
    flush, one hole heart beside four does not, nor do three beside two.  Each is the
    search's answer."""
    ev = Evaluator("nj-omaha")
    cards = parse_cards
    deals = [
        (cards("Ah Kh 2c 3d"), cards("Qh Jh 9h 4c 5s")),
        (cards("Ah 4c 2c 3d"), cards("Qh Jh 9h Kh 5s")),
        (cards("Ah Kh Qh 2c"), cards("Jh 9h 3d 4c 5s")),
    ]
    keys = []
    for hole, board in deals:
        found = ev._best(hole, board)
        assert found is not None
        keys.append(ev.best_key(hole, board))
        assert keys[-1] == found.value.key, (hole, board)
    flush = ev._rank_of["flush"]
    assert [k[0] == flush for k in keys] == [True, False, False]


ALL_RULESETS = sorted(rs.id for rs in all_rulesets())


@pytest.mark.parametrize("rid", ALL_RULESETS)
def test_winners_from_keys_equal_the_showdown_values(rid: str) -> None:
    """``winners`` takes each hand's key alone (``value`` for a hand taken as it is,
    ``best_key`` for a selection) where ``showdown`` builds every hand's whole value:
    the same winners on random deals of every ruleset, with a board where it deals one,
    under every reading."""
    for profile in _profiles(rid):
        ev = evaluator(rid, profile)
        rng = random.Random(f"winners|{rid}|{profile.name}")
        for n in range(30):
            hands, board = _deal(ev, rng, PLAYERS[n % len(PLAYERS)])
            as_text = [" ".join(map(str, h)) for h in hands]
            table = " ".join(map(str, board)) if board else None
            keys = [v.key for v in ev.showdown(as_text, table)]
            assert ev.winners(as_text, table) == [
                i for i, k in enumerate(keys) if k == max(keys)
            ], (rid, as_text, table)


@pytest.mark.parametrize("rid", ALL_RULESETS)
def test_natural_hands_are_valued_from_their_class(
    rid: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``value`` of distinct natural cards reads their class from the cards' codes: the
    per-card step (``_natural``: sorting ranks, collecting suits) never runs, and the
    category and key are what it gives, on random hands of every ruleset (the wild
    rank's cards left out where one is posted) and hands with a wild card still take
    the wild-card search."""
    ev = Evaluator(rid)
    size = ev.ruleset.hand_size
    naturals = [c for c in DECK if not ev.is_wild(c)]
    rng = random.Random(f"natural|{rid}")
    hands = [tuple(rng.sample(naturals, size)) for _ in range(300)]
    expected = [ev._natural(h) for h in hands]
    monkeypatch.setattr(
        Evaluator, "_natural", lambda self, hand: pytest.fail("the per-card step ran")
    )
    for hand, (category, key) in zip(hands, expected, strict=True):
        assert ev.value(hand) == (category, key, hand, hand), hand
    monkeypatch.undo()
    if ev.ruleset.jokers or ev.wild_rank is not None:
        wild = JOKER if ev.ruleset.jokers else Card(ev.wild_rank or 0, "s")
        hand = (wild, *hands[0][1:])
        assert ev.value(hand) == ev._wild_value(hand, 1)
