"""What every peer adapter must do on five-card high, worked by hand from the rules.

Each hand's category and each showdown's winners are read off N.J.A.C. 13:69F-14.3(b)
and (d) (practice readings), not off any evaluator.  Every adapter runs the same cases;
an adapter whose library is not installed is skipped with the extra to install.
"""

import importlib

import pytest

from pokercert.harness.api import CODED_CARDS, Hands, Rejected
from tests.helpers.coded_hands import CodesOnly, coded

PEERS = {
    "treys": ("treys", "TreysEvaluator"),
    "phevaluator": ("phevaluator", "PhevaluatorEvaluator"),
    "eval7": ("eval7", "Eval7Evaluator"),
    "pokerkit": ("pokerkit", "PokerkitEvaluator"),
}
HIGH_FIVE = ("nj-poker-high-5", "nj-caribbean-stud", "nj-winners-pot")


@pytest.fixture(scope="module", params=sorted(PEERS))
def peer(request):
    library, cls = PEERS[request.param]
    pytest.importorskip(
        library, reason=f"{library} is not installed (pip install 'pokercert[{request.param}]')"
    )
    module = importlib.import_module(f"pokercert.harness.peers.{request.param}")
    return getattr(module, cls)()


CATEGORIES = [
    ("As Ks Qs Js Ts", "royal_flush"),  # (b)1
    ("Ks Qs Js Ts 9s", "straight_flush"),  # (b)2, the best one
    ("5h 4h 3h 2h Ah", "straight_flush"),  # (b)2, A-2-3-4-5 the worst one
    ("Ac Ad Ah As 2c", "four_of_a_kind"),  # (b)3
    ("3c 3d 3h Kc Kd", "full_house"),  # (b)4
    ("Ah Jh 8h 4h 2h", "flush"),  # (b)5
    ("Ac 2d 3h 4s 5c", "straight"),  # (b)6, the wheel
    ("Qc Kd Ah 2s 3c", "high_card"),  # (b)6, no wraparound
    ("7c 7d 7h Kc 2d", "three_of_a_kind"),  # (b)7
    ("9c 9d 4h 4s Kc", "two_pair"),  # (b)8
    ("Jc Jd 8h 4s 2c", "one_pair"),  # (b)9
    ("7h 5d 4c 3s 2h", "high_card"),  # (d), the worst hand
]

SHOWDOWNS = [
    (["4c 4d 4h 2s 2c", "3c 3d 3h As Ac"], [0]),  # trips decide a full house
    (["Ac 2d 3h 4s 5c", "2c 3d 4h 5s 6c"], [1]),  # the wheel is the lowest
    (["Ah Kh Qd Jc 9s", "Ad Kd Qs Jh 9c"], [0, 1]),  # suits never break a tie
    (["Ac Ad Kh Qs Jc", "Ah As Kc Qd Tc"], [0]),  # kickers after the pair
    (["Ah Jh 8h 4h 2h", "9c Td Jh Qs Kc", "Kd Ks Kh 3c 2d"], [0]),
]


def test_identity_comes_from_the_installed_distribution(peer):
    from importlib.metadata import version

    assert peer.info.version == version(peer.info.name)
    assert peer.info.build.startswith("sha256:") and len(peer.info.build) == 7 + 64
    assert peer.info.vendor


def test_claims_five_card_high(peer):
    caps = peer.capabilities()
    for ruleset in HIGH_FIVE:
        assert {"classify", "compare", "reject"} <= set(caps[ruleset])
    # wild cards are in no peer library
    assert "mt-poker-high" not in caps and "mt-poker-low" not in caps


@pytest.mark.parametrize("ruleset", HIGH_FIVE)
@pytest.mark.parametrize(("hand", "category"), CATEGORIES)
def test_categories(peer, ruleset, hand, category):
    peer.configure(ruleset, {})
    assert peer.classify(hand.split()) == category


@pytest.mark.parametrize(("hands", "winners"), SHOWDOWNS)
def test_showdowns(peer, hands, winners):
    peer.configure("nj-poker-high-5", {})
    assert sorted(peer.winners([h.split() for h in hands])) == winners


def test_a_duplicated_card_reaches_the_library(peer):
    # none of the four libraries looks for duplicates: each calls As As Kd Qc Jh a pair
    # (which pair differs: see each library's own test)
    peer.configure("nj-poker-high-5", {})
    assert peer.classify(["As", "As", "Kd", "Qc", "Jh"]) == "one_pair"


def test_an_unclaimed_ruleset_is_refused_at_configure(peer):
    with pytest.raises(ValueError, match="does not evaluate"):
        peer.configure("mt-poker-high", {})


def test_a_card_the_library_cannot_read_is_its_refusal(peer):
    peer.configure("nj-poker-high-5", {})
    with pytest.raises(Rejected) as caught:
        peer.classify(["Xx", "Ks", "Qs", "Js", "Ts"])
    assert caught.value.code is None  # no library names our reasons
    assert peer.library in str(caught.value)


ODD = [
    ["As", "As", "Kd", "Qc", "Jh"],  # a duplicate the library answers
    ["10s", "Ks", "Qs", "Js", "As"],
]  # a spelling only some libraries read


def _answer(call, *args):
    try:
        return call(*args)
    except Exception as exc:
        return type(exc), str(exc)


def test_evaluate_and_evaluate_many_answer_as_classify_and_key_do(peer):
    """The exhaustive fast path (evaluate_many) may not differ from the single calls in
    anything: answers, keys, or which hand is refused with which exception."""
    peer.configure("nj-poker-high-5", {})
    hands = [h.split() for h, _ in CATEGORIES] + ODD
    singles = [(_answer(peer.classify, h), _answer(peer.key, h)) for h in hands]
    assert [_answer(peer.evaluate, h) for h in hands] == [
        (c, k) if not isinstance(c, tuple) else c for c, k in singles
    ]
    good = [h for h, (c, _) in zip(hands, singles, strict=True) if not isinstance(c, tuple)]
    categories, keys = peer.evaluate_many([h[:] for h in good])
    assert list(zip(categories, keys, strict=True)) == [
        (c, k) for c, k in singles if not isinstance(c, tuple)
    ]
    # the exhaustive form: one flat list of cards (the 10s hand has five tokens too), and
    # for canonical spellings, their codes
    flat = Hands([c for h in good for c in h], 5)
    assert tuple(map(list, peer.evaluate_many(flat))) == (list(categories), list(keys))
    canonical = [i for i, h in enumerate(good) if all(c in CODED_CARDS for c in h)]
    coded = Hands(None, 5, [CODED_CARDS.index(c) for i in canonical for c in good[i]])
    assert tuple(map(list, peer.evaluate_many(coded))) == (
        [categories[i] for i in canonical],
        [keys[i] for i in canonical],
    )
    joker = Hands(None, 5, [CODED_CARDS.index(c) for c in ["As", "Ks", "Qs", "Js", "Xx"]])
    assert _answer(peer.evaluate_many, joker) == _answer(peer.evaluate, joker[0])
    # and as numpy rows (what an exhaustive pass sends): the same answers, a joker too
    np = pytest.importorskip("numpy")
    rows = Hands(None, 5, rows=np.array(coded.codes, dtype=np.uint8).reshape(-1, 5))
    assert tuple(map(list, peer.evaluate_many(rows))) == (
        [categories[i] for i in canonical],
        [keys[i] for i in canonical],
    )
    joker_rows = Hands(None, 5, rows=np.array([joker.codes], dtype=np.uint8))
    assert _answer(peer.evaluate_many, joker_rows) == _answer(peer.evaluate, joker[0])
    bad = ["As", "Ks", "Qs", "Js", "Zz"]
    assert _answer(peer.evaluate_many, [*good, bad]) == _answer(peer.evaluate, bad)
    assert _answer(peer.evaluate, bad) == _answer(peer.classify, bad)


def test_a_batch_of_codes_is_converted_by_one_table_not_card_strings(peer):
    """Exhaustive gives hands as codes: each adapter reads them through its own table
    (never making card strings), and answers exactly as hand by hand."""
    peer.configure("nj-poker-high-5", {})
    hands = [h for h, _ in CATEGORIES]
    categories, keys = peer.evaluate_many(coded(*hands, cls=CodesOnly))
    assert list(categories) == [c for _, c in CATEGORIES]
    assert [peer.evaluate(h.split()) for h in hands] == list(zip(categories, keys, strict=True))
