"""The dealer qualifier as ruleset data: its boundaries, read off the qualifier's words.

Caribbean stud: "Ace-King or better"; three-card poker: "Queen-high or better"; Mini-tex:
"a pair or better" (all house rules from published game rules, see the ruleset files).
The lowest qualifying hand itself qualifies ('or better'); the best hand below it does not.
"""

import pytest

from pokercert.reference import evaluator, get_ruleset
from pokercert.reference.rulesets import RulesetError, _load_qualifier


@pytest.mark.parametrize(
    ("ruleset", "hand", "expected"),
    [
        ("nj-caribbean-stud", "As Kd 4c 3h 2s", True),  # the lowest ace-king hand
        ("nj-caribbean-stud", "As Qd Jc Th 9s", False),  # the best hand below it
        ("nj-caribbean-stud", "2s 2d 3c 4h 6s", True),  # any pair
        ("nj-caribbean-stud", "Ah 2d 3c 4s 5h", True),  # the wheel is a straight
        ("nj-caribbean-stud", "Qh Kd Ac 2s 3h", True),  # no straight, but ace-king high
        ("nj-three-card-poker", "Qs 3d 2c", True),  # the lowest queen-high hand
        ("nj-three-card-poker", "Js Td 8c", False),  # the best jack-high hand
        ("nj-three-card-poker", "Js Td 9c", True),  # a straight, whatever its top card
        ("nj-three-card-poker", "5h 3h 2h", True),  # the lowest flush
        ("nj-mini-tex-3", "2h 2d 3c", True),  # the lowest pair
        ("nj-mini-tex-3", "Ah Kd Jc", False),  # the best hand with no pair
        ("nj-mini-tex-3", "Ah 2d 3c", True),  # A-2-3 is a straight (37.5(b)3)
        ("nj-mini-tex-3", "Kh Ad 2c", False),  # K-A-2 is not: ace high
        ("nj-mini-tex-3", "Qs Jd 9c", False),  # queen high is three-card poker's
    ],
)
def test_qualifier_boundaries(ruleset: str, hand: str, expected: bool) -> None:
    assert evaluator(ruleset).qualifies(hand) is expected


def test_the_qualifier_is_data_with_its_source() -> None:
    q = get_ruleset("nj-three-card-poker").qualifier
    assert q is not None and q.minimum == "Qh 3d 2c" and q.confidence == "house-rule"
    assert q.source.startswith("http")
    assert get_ruleset("nj-poker-high-5").qualifier is None
    mx = get_ruleset("nj-mini-tex-3").qualifier
    assert mx is not None and mx.minimum == "2h 2d 3c" and mx.words == "a pair or better"
    assert mx.confidence == "house-rule" and mx.clause is None and "nilapub.com" in mx.source
    assert get_ruleset("nj-mini-tex-pocket").qualifier is None  # a paytable wager


def test_a_ruleset_without_a_qualifier_refuses_the_question() -> None:
    with pytest.raises(RulesetError, match="no dealer qualifier"):
        evaluator("nj-poker-high-5").qualifies("As Kd 4c 3h 2s")


def test_bad_qualifier_data_is_refused_with_its_place() -> None:
    def label(cid: str, ctx: str) -> str:
        return "13:69F-20.3" + cid

    good = {
        "minimum": "Qh 3d 2c",
        "words": "Queen-high or better",
        "confidence": "house-rule",
        "source": "x",
    }
    assert _load_qualifier(good, "f.toml ruleset r", label).clause is None
    with pytest.raises(RulesetError, match="r qualifier: a confirmed qualifier names"):
        _load_qualifier({**good, "confidence": "confirmed"}, "f.toml ruleset r", label)
    with pytest.raises(RulesetError, match="confidence 'sure'"):
        _load_qualifier({**good, "confidence": "sure"}, "f.toml ruleset r", label)
    with pytest.raises(RulesetError, match="missing key 'minimum'"):
        _load_qualifier({k: v for k, v in good.items() if k != "minimum"}, "w", label)
