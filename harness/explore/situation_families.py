"""The situation families where evaluators go wrong: categories side by side, defining
ranks, kickers, suits only, straights' edges, multiway pots, boards, wild cards and the
dealer qualifier.  Each builder takes the choices, the game and the label wanted (or
None) and returns one :class:`~pokercert.vectors.dealing.Deal`; a builder that cannot
deal its situation in this game falls back to :func:`deal_categories`."""

from __future__ import annotations

from functools import cache
from itertools import combinations

from pokercert.harness.explore.situation_hands import (
    KIND_OF_HAND,
    category_hand,
    echo_hand,
    hand_deal,
    hand_kind,
    kicker_ranks,
    other_five,
)
from pokercert.reference import Card, Evaluator
from pokercert.reference.categories import CategoryName
from pokercert.vectors.dealing import (
    ACE,
    KING,
    QUEEN,
    RANKS,
    ROYALS,
    RUNS,
    SUITS,
    TWO,
    Choices,
    Deal,
    Game,
    Hand,
    cards_text,
    coin,
    deal_hand,
    distinct_from,
    distinct_ranks,
    group_sizes,
    is_run,
    kicker_count,
    max_group,
    pick,
    run_ranks,
    shuffled,
    wrap_runs,
)
from pokercert.vectors.model import Kind

ADJACENT = (True, True, True, False)


def deal_categories(ch: Choices, game: Game, want: str | None = None) -> Deal:
    """Two hands of two categories (adjacent ones weighted up), or one to classify."""
    ranking = game.makeable
    deck = game.deck()
    kind = hand_kind(ch, game)
    first = pick(ch, ranking)
    a = deal_hand(ch, deck, category_hand(ch, game, first, wild_cap=1))
    if kind == "classify":
        return hand_deal(ch, game, [a], "categories", kind)
    if len(ranking) > 1 and pick(ch, ADJACENT):
        # neighbours in the ranking in use, every adjacent pair alike
        i = ch.index(len(ranking) - 1)
        first, second = ranking[i], ranking[i + 1]
        deck = game.deck()
        a = deal_hand(ch, deck, category_hand(ch, game, first, wild_cap=1))
    else:
        second = pick(ch, ranking)
    b = deal_hand(ch, deck, category_hand(ch, game, second, wild_cap=1, deck=deck))
    if coin(ch):
        a, b = b, a
    return hand_deal(ch, game, [a, b], "categories", kind)


def deal_defining_ranks(ch: Choices, game: Game, want: str | None = None) -> Deal:
    """Same category, different defining ranks (crossed where there are two groups)."""
    options = [c for c in game.makeable if c != CategoryName.PAIR_OF_ACES]
    category = pick(ch, options)
    deck = game.deck()
    n = game.size
    if category in RUNS:
        tops = [ACE] if category in ROYALS else game.tops()
        if category == CategoryName.STRAIGHT_FLUSH and any(c in ROYALS for c in game.ranking):
            tops = [t for t in tops if t != ACE]
        if len(tops) < 2:
            return deal_categories(ch, game)
        t1, t2 = distinct_from(ch, tops, 2)
        suited = category != CategoryName.STRAIGHT
        hands = [Hand((), tuple(run_ranks(t, n)), suited) for t in (t1, t2)]
    elif category == CategoryName.FIVE_OF_A_KIND:
        a = category_hand(ch, game, category, wild_cap=1)
        b = other_five(ch, game, a)
        if b is None:
            return deal_categories(ch, game)
        hands = [a, b]
    else:
        sizes = group_sizes(category, n)
        if sizes:
            hands = _crossed_groups(ch, game, category, sizes)
        else:  # flush, high card: every card differs
            a = category_hand(ch, game, category)
            b = category_hand(ch, game, category)
            if b.kickers == a.kickers:  # the same ranks: another top card for b
                b = a._replace(
                    kickers=kicker_ranks(ch, game, len(a.kickers), a.kickers[:1], no_run=True)
                )
            hands = [a, b]
    if coin(ch):
        hands.reverse()
    dealt = []
    for h in hands:
        dealt.append(deal_hand(ch, deck, h._replace(wilds=min(h.wilds, deck.jokers))))
    return hand_deal(ch, game, dealt, "defining-ranks")


def _crossed_groups(ch: Choices, game: Game, category: str, sizes: tuple[int, ...]) -> list[Hand]:
    """Two hands of ``category`` with different defining ranks: crossed where there are
    two groups (A wins on its first group only), the weaker one with stronger kickers."""
    k = kicker_count(category, game.size)
    # aces in one deal of two: an ace counted low once it is paired is a mistake
    # only groups of aces show
    ranks = sorted(
        [*distinct_ranks(ch, 2 * len(sizes) - 1, [ACE]), ACE]
        if coin(ch)
        else distinct_ranks(ch, 2 * len(sizes)),
        reverse=True,
    )
    ga: tuple[int, ...]
    gb: tuple[int, ...]
    if len(sizes) == 2:  # crossed: A wins on its first group only
        ga, gb = (ranks[0], ranks[3]), (ranks[1], ranks[2])
    else:
        ga, gb = (ranks[0],), (ranks[1],)
    # the weaker group gets the stronger kickers, above the stronger group when
    # there is room (3-3-A against 4-4-2: card-by-card comparisons get it wrong)
    ka = kicker_ranks(ch, game, k, [*ga, *gb], no_run=False)
    above = [r for r in RANKS if r > ga[0] and r not in (*gb, *ka)]
    if k and len(above) >= k and coin(ch):
        kb = tuple(
            sorted(distinct_ranks(ch, k, [r for r in RANKS if r not in above]), reverse=True)
        )
    else:
        kb = kicker_ranks(ch, game, k, [*ga, *gb, *ka], no_run=False)
    if ka > kb:
        ka, kb = kb, ka
    return [
        Hand(tuple(zip(ga, sizes, strict=True)), ka, False),
        Hand(tuple(zip(gb, sizes, strict=True)), kb, False),
    ]


def deal_kicker(ch: Choices, game: Game, want: str | None = None) -> Deal:
    """Same category and defining ranks, one kicker differs (``want``: which one)."""
    if not game.with_kickers:
        return deal_categories(ch, game)
    # ``want`` "kicker-n": a category with an n-th kicker, that kicker differs
    wanted = int(want.rsplit("-", 1)[1]) - 1 if want else None
    options = (
        game.with_kickers
        if wanted is None
        else tuple(c for c in game.with_kickers if kicker_count(c, game.size) > wanted)
        or game.with_kickers
    )
    category = pick(ch, options)
    a = category_hand(ch, game, category)
    k = len(a.kickers)
    pos = wanted if wanted is not None and wanted < k else ch.index(k)
    defining = [r for r, _ in a.groups]
    used = set(defining) | set(a.kickers)
    hi = a.kickers[pos - 1] if pos > 0 else ACE + 1
    lo = a.kickers[pos + 1] if pos + 1 < k else TWO - 1
    between = [r for r in RANKS if lo < r < hi and r not in used]
    others = [r for r in RANKS if r not in used]

    def keeps_category(kick: tuple[int, ...]) -> bool:
        return not (game.has_runs and not a.groups and is_run(kick))

    candidates = []
    for r in between + others:
        kick = tuple(sorted((*a.kickers[:pos], r, *a.kickers[pos + 1 :]), reverse=True))
        if keeps_category(kick):
            candidates.append(kick)
    if pos + 1 < k and coin(ch):
        # crossed: a lower kicker differs the other way too, so that comparing from
        # the wrong end (or in dealt order) gives the other answer
        crossed = []
        for kick in candidates[: len(between)] or candidates[:3]:
            for j in range(pos + 1, k):
                for r in others:
                    if r in kick:
                        continue
                    trial = tuple(sorted((*kick[:j], r, *kick[j + 1 :]), reverse=True))
                    first_diff = (trial > a.kickers) - (trial < a.kickers)
                    last_diff = (trial[::-1] > a.kickers[::-1]) - (trial[::-1] < a.kickers[::-1])
                    if first_diff and first_diff != last_diff and keeps_category(trial):
                        crossed.append(trial)
        candidates = crossed or candidates
    if not candidates:
        return deal_categories(ch, game)
    b = a._replace(kickers=pick(ch, candidates))
    pos = next(i for i, (x, y) in enumerate(zip(a.kickers, b.kickers, strict=True)) if x != y)
    deck = game.deck()
    first = deal_hand(ch, deck, a)
    second = deal_hand(ch, deck, b, avoid_suit=first[0].suit if a.suited else None)
    hands = [first, second]
    if coin(ch):
        hands.reverse()
    return hand_deal(
        ch, game, hands, f"kicker-{pos + 1}", "compare" if "compare" in game.kinds else "classify"
    )


def twins(ch: Choices, game: Game, count: int) -> list[list[Card]]:
    """``count`` hands of equal value that differ only in suit."""
    options = (
        game.twinnable
        if count == 2
        else tuple(c for c in game.twinnable if max_group(c) == 1) or game.twinnable
    )
    category = pick(ch, options)
    hand = category_hand(ch, game, category)
    deck = game.deck()
    out: list[list[Card]] = []
    for _ in range(count):
        out.append(deal_hand(ch, deck, hand, avoid_suit=out[-1][0].suit if out else None))
    return out


def deal_suits_only(ch: Choices, game: Game, want: str | None = None) -> Deal:
    """Two equal hands that differ only in suit."""
    if not game.twinnable or "compare" not in game.kinds:
        return deal_categories(ch, game)
    return hand_deal(ch, game, twins(ch, game, 2), "suits-only", "compare")


def _edge_ranks(game: Game, which: str) -> list[list[int]]:
    n = game.size
    if which == "wheel":
        return [run_ranks(n, n)]
    if which == "broadway":
        return [run_ranks(ACE, n)]
    if which == "lowest":
        return [run_ranks(n + 1, n)]
    if which == "wrap":
        return wrap_runs(n) or [run_ranks(ACE, n)]
    if which == "near":
        low = [ACE, *range(TWO, TWO + n - 2), n + 1] if n >= 3 else [ACE, 3]
        high = [*range(ACE, ACE - n + 1, -1), ACE - n] if n >= 3 else [ACE, QUEEN]
        return [low, high]
    if which == "paired-span":  # n cards over n-1 ranks, one paired
        if n < 3:
            return [[ACE, ACE]]
        out = []
        for t in (ACE, 9, n + 1):
            values = list(range(t, t - n, -1))
            out.append([values[0], *values[2:], values[-1]])
        return out
    return []


EDGES = ("wheel", "broadway", "lowest", "wrap", "near", "paired-span", "near-flush")


def deal_edge(ch: Choices, game: Game, want: str | None = None) -> Deal:
    """A straight's edge (wheel, broadway, lowest, wrap, near, paired span, near flush)."""
    which = want.removeprefix("edge-") if want else pick(ch, EDGES)
    deck = game.deck()
    n = game.size
    if which == "near-flush":
        if n < 2:
            return deal_categories(ch, game)
        ranks = (
            list(category_hand(ch, game, CategoryName.FLUSH).kickers)
            if game.has_flush
            else distinct_ranks(ch, n)
        )
        cards = deal_hand(ch, deck, Hand(tuple((r, 1) for r in ranks[:-1]), (), True), shuffle=True)
        odd = [s for s in SUITS if s != cards[0].suit and deck.free(Card(ranks[-1], s))]
        cards.append(deck.take(ch, ranks[-1], odd[0] if odd else None))  # dealt last
        hands = [cards]
    else:
        shape = pick(ch, _edge_ranks(game, which))
        suited = pick(ch, (False, False, True)) and len(set(shape)) == n
        hands = [deal_hand(ch, deck, Hand(tuple((r, 1) for r in shape), (), suited))]
    if "compare" in game.kinds and (
        Kind.CLASSIFY not in game.kinds or pick(ch, KIND_OF_HAND) != "classify"
    ):
        rival_edge = pick(ch, EDGES)
        if rival_edge == "near-flush" or rival_edge == which:
            rival = category_hand(ch, game, pick(ch, game.makeable), wild_cap=0, deck=deck)
            hands.append(deal_hand(ch, deck, rival))
        else:
            shape = pick(ch, _edge_ranks(game, rival_edge))
            hands.append(deal_hand(ch, deck, Hand(tuple((r, 1) for r in shape), (), coin(ch))))
        if coin(ch):
            hands.reverse()
        return hand_deal(ch, game, hands, f"edge-{which}", "compare")
    return hand_deal(ch, game, hands[:1], f"edge-{which}", "classify")


# categories by how few ways there are to deal them: the scarcest are dealt first
_CONSTRAINT: dict[str, int] = {
    name: i
    for i, name in enumerate(
        (
            CategoryName.ROYAL_FLUSH,
            CategoryName.ROYAL_STRAIGHT_FLUSH,
            CategoryName.STRAIGHT_FLUSH,
            CategoryName.FIVE_OF_A_KIND,
            CategoryName.FOUR_OF_A_KIND,
            CategoryName.PAIR_OF_ACES,
            CategoryName.FULL_HOUSE,
            CategoryName.FLUSH,
            CategoryName.STRAIGHT,
        )
    )
}


def deal_multiway(ch: Choices, game: Game, want: str | None = None) -> Deal:
    """Three or more hands: some equal (tie), or of rising value (chain)."""
    if "compare" not in game.kinds:
        return deal_categories(ch, game)
    deck = game.deck()
    tie = want == "multiway-tie" if want else coin(ch)
    if tie and game.twinnable:
        tied = twins(ch, game, 2 + ch.index(2))
        for hand in tied:
            deck.used.update(hand)
        extra = [
            deal_hand(
                ch, deck, category_hand(ch, game, pick(ch, game.makeable), wild_cap=0, deck=deck)
            )
            for _ in range(ch.index(2) + (1 if len(tied) == 2 else 0))
        ]
        hands = shuffled(ch, tied + extra)
        return hand_deal(ch, game, hands, "multiway-tie", "compare")
    count = 3 + ch.index(2)
    natural = [c for c in game.makeable if c != CategoryName.FIVE_OF_A_KIND]
    picks = sorted(distinct_from(ch, list(range(len(natural))), min(count, len(natural))))
    # weakest first: the rising chain a dealer-only comparison gets wrong
    cats = [natural[i] for i in reversed(picks)]
    while len(cats) < count:
        cats.append(cats[-1])
    # the most constrained hand is dealt first (a royal flush needs its very cards);
    # shown weakest first
    dealt: dict[int, list[Card]] = {}
    for i in sorted(range(len(cats)), key=lambda i: _CONSTRAINT.get(cats[i], len(_CONSTRAINT))):
        dealt[i] = deal_hand(ch, deck, category_hand(ch, game, cats[i], wild_cap=0, deck=deck))
    hands = [dealt[i] for i in range(len(cats))]
    return hand_deal(ch, game, hands, "multiway-chain", "compare")


def board_label(game: Game, uses: int) -> str:
    """The label of a board deal whose best hand is to take ``uses`` hole cards."""
    sel = game.selection
    assert sel is not None
    if uses == 0 and sel.board >= game.size:
        return "board-uses-0"
    return f"board-uses-{max(uses, sel.min_hole, game.size - sel.board, 1)}"


def deal_board(ch: Choices, game: Game, want: str | None = None) -> Deal:
    """A board whose best hand takes a given number of hole cards."""
    sel = game.selection
    assert sel is not None
    n = game.size
    deck = game.deck()
    strong = game.makeable[: max(1, len(game.makeable) // 2)]
    lowest = max(sel.min_hole, 0)
    choices = list(range(min(sel.hole, n) + 1))
    if want:  # the hole cards a "board-uses-k" label can mean
        choices = [u for u in choices if board_label(game, u) == want] or choices
    uses = pick(ch, choices)
    made = deal_hand(ch, deck, category_hand(ch, game, pick(ch, strong), wild_cap=0), shuffle=False)
    if uses == 0 and sel.board >= n:
        board = made + [deck.take(ch, pick(ch, RANKS)) for _ in range(sel.board - n)]
        hole = [deck.take(ch, pick(ch, RANKS[6:])) for _ in range(sel.hole)]
    else:
        uses = max(uses, lowest, n - sel.board, 1)
        hole = made[:uses] + [deck.take(ch, pick(ch, RANKS)) for _ in range(sel.hole - uses)]
        board = made[uses:] + [
            deck.take(ch, pick(ch, RANKS)) for _ in range(sel.board - (n - uses))
        ]
    board = shuffled(ch, board)
    kinds = [k for k in (Kind.BEST_HAND, Kind.COMPARE) if k in game.kinds]
    kind = pick(ch, kinds)
    label = f"board-uses-{uses}"
    if kind == "best_hand":
        return Deal("best_hand", {"hole": cards_text(hole), "board": cards_text(board)}, label)
    rival = [deck.take(ch, pick(ch, RANKS)) for _ in range(sel.hole)]
    holes = [hole, rival] if coin(ch) else [rival, hole]
    return Deal(
        "compare", {"hands": [cards_text(h) for h in holes], "board": cards_text(board)}, label
    )


WILDS = ("duplicate", "five", "placed", "placed")
PLACES = ("top", "kicker", "group", "any")


def deal_wild(ch: Choices, game: Game, want: str | None = None) -> Deal:
    """Wild cards: one that must not duplicate a held card, five of a kind, or placed."""
    deck = game.deck()
    n = game.size
    which = want.removeprefix("wild-") if want else pick(ch, WILDS)
    if which == "duplicate" and n >= 3:
        # suited cards holding the suit's top rank: only a duplicate would make it better
        top = pick(ch, (ACE, KING)) if game.ev.rules["direction"] != "low" else pick(ch, (TWO, 3))
        rest = distinct_ranks(ch, n - 2, [top])
        wilds = 1
        naturals = [top, *rest]
        hand = Hand(tuple((r, 1) for r in naturals), (), True, wilds)
    elif which == "five" and game.can_make(CategoryName.FIVE_OF_A_KIND):
        hand = category_hand(ch, game, CategoryName.FIVE_OF_A_KIND)
    else:
        which = "placed"
        base = category_hand(ch, game, pick(ch, game.makeable), wild_cap=0)
        ranks = base.ranks
        count = 1 + ch.index(min(game.wilds, 2, n))
        place = pick(ch, PLACES)
        order = list(range(len(ranks)))
        if place == "kicker":
            order.reverse()
        elif place == "any":
            order = shuffled(ch, order)
        elif place == "group":
            grouped = sum(k for _, k in base.groups)
            order = order[:grouped][::-1] + order[grouped:]
        drop = set(order[:count])
        kept = [r for i, r in enumerate(ranks) if i not in drop]
        hand = Hand(tuple((r, kept.count(r)) for r in dict.fromkeys(kept)), (), base.suited, count)
    cards = deal_hand(ch, deck, hand)
    hands = [cards]
    if "compare" in game.kinds and (
        Kind.CLASSIFY not in game.kinds or pick(ch, KIND_OF_HAND) != "classify"
    ):
        rival = other_five(ch, game, hand, deck.jokers) if which == "five" and coin(ch) else None
        hands.append(
            deal_hand(ch, deck, rival)
            if rival is not None
            else echo_hand(ch, game, deck, cards, bump=ch.index(3) == 0)
        )
        if coin(ch):
            hands.reverse()
        return hand_deal(ch, game, hands, f"wild-{which}", "compare")
    return hand_deal(ch, game, hands, f"wild-{which}", "classify")


# --------------------------------------------------------------------------- qualifier

QUALIFIER_STEPS = ("at", "below", "above")


def deal_qualifier(ch: Choices, game: Game, want: str | None = None) -> Deal:
    """One dealer hand at the ruleset's lowest qualifying hand (its ``minimum``) or one
    card a rank off it, where a qualifier slips by one (kind ``qualifies``): the
    reference decides whether it qualifies."""
    qualifier = game.ruleset.qualifier
    assert qualifier is not None
    step = want.removeprefix("qualifier-") if want else pick(ch, QUALIFIER_STEPS)
    minimum = game.ev.parse_hand(qualifier.minimum)
    ranks = sorted((c.rank for c in minimum), reverse=True)
    if step == "below" and len(set(ranks)) < len(ranks):
        # a qualifier that is a made hand ("a pair or better"): no card a rank lower
        # stays below it (2-2-3 would become three twos), so the hand just below is
        # the best of the category under it, where "one step too low" slips
        hand = deal_hand(ch, game.deck(), Hand((), _best_unpaired_below(game), False))
        return Deal(Kind.QUALIFIES, {"hand": cards_text(hand)}, f"qualifier-{step}")
    if step != "at":
        # one card a rank up or down, onto a rank the hand lacks where one can (a new
        # pair would jump past the boundary): A-K-4-3-2 below is A-Q-4-3-2
        by = 1 if step == "above" else -1
        movable = (
            [i for i, r in enumerate(ranks) if TWO <= r + by <= ACE and r + by not in ranks]
            or [i for i, r in enumerate(ranks) if TWO <= r + by <= ACE]
            or [0]
        )
        i = pick(ch, movable)
        ranks[i] = min(max(ranks[i] + by, TWO), ACE)
    suited = len({c.suit for c in minimum}) == 1
    hand = deal_hand(ch, game.deck(), Hand(tuple((r, 1) for r in ranks), (), suited))
    return Deal(Kind.QUALIFIES, {"hand": cards_text(hand)}, f"qualifier-{step}")


@cache
def _unpaired_below(ev: Evaluator, size: int, minimum: str) -> tuple[int, ...]:
    """The ranks of the best hand of ``size`` distinct ranks in mixed suits (no pair, no
    flush) that ranks below ``minimum`` under ``ev``."""
    floor = ev.value(ev.parse_hand(minimum)).key
    best: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    for ranks in combinations(range(ACE, TWO - 1, -1), size):
        key = ev.value(tuple(Card(r, SUITS[i % len(SUITS)]) for i, r in enumerate(ranks))).key
        if key < floor and (best is None or key > best[0]):
            best = (key, ranks)
    assert best is not None, f"no unpaired hand below {minimum}"
    return best[1]


def _best_unpaired_below(game: Game) -> tuple[int, ...]:
    qualifier = game.ruleset.qualifier
    assert qualifier is not None
    return _unpaired_below(game.ev, game.size, qualifier.minimum)
