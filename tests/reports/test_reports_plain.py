"""The plain one-line reading of a finding, the confidence words, twin grouping and cards
drawn in HTML (issue 28 item 5): each expectation is worked by hand from the answers."""

from __future__ import annotations

import itertools
import json
import re

from pokercert.reports import plain
from pokercert.reports.cards_html import answer_html, hand_html


def finding(expected, actual, outcome="FAIL", **more):
    return {
        "id": "nj-poker-high-5/0001",
        "ruleset": "nj-poker-high-5",
        "outcome": outcome,
        "expected": expected,
        "actual": actual,
        "origin": "",
        **more,
    }


def test_a_royal_flush_called_a_straight_flush():
    f = finding({"category": "royal_flush"}, {"category": "straight_flush"})
    assert plain.plain_reading(f) == "a royal flush was called a straight flush"


def test_categories_read_as_a_sentence_says_them():
    f = finding({"category": "one_pair"}, {"category": "high_card"})
    assert plain.plain_reading(f) == "a pair was called a high card"
    f = finding({"category": "three_of_a_kind"}, {"category": "two_pair"})
    assert plain.plain_reading(f) == "three of a kind was called two pair"
    f = finding({"category": "straight"}, {"category": "eight_high"})
    assert plain.plain_reading(f) == "a straight was called an eight high"


def test_invalid_input_accepted_or_refused_for_another_reason():
    f = finding({"reason": "duplicate-card"}, {"category": "one_pair"})
    assert plain.plain_reading(f) == (
        "invalid input (duplicate card) was accepted and answered (category: one_pair)"
    )
    f = finding({"reason": "wrong-count"}, {"reason": "bad-card"}, "WRONG_REASON")
    assert plain.plain_reading(f) == (
        "invalid input (wrong count) was refused, but for the wrong reason (bad card)"
    )


def test_the_pot_to_the_wrong_hands():
    f = finding({"winners": [0]}, {"winners": [0, 1]})
    assert plain.plain_reading(f) == (
        "the pot should go to hand 1 alone; the evaluator gave a split between hands 1 and 2"
    )


def test_no_answer_and_known_failures():
    assert (
        plain.plain_reading(finding({"category": "flush"}, None, "TIMEOUT"))
        == "the evaluator gave no answer in time"
    )
    assert (
        plain.plain_reading(finding({"category": "flush"}, None, "CRASH"))
        == "the evaluator's process died on this input"
    )
    assert (
        plain.plain_reading(finding({"category": "flush"}, {"category": "straight"}, "XFAIL"))
        == "a known failure: a flush was called a straight"
    )


def test_vendor_text_stays_on_one_line():
    f = finding({"category": "flush"}, {"category": "x\ny\u202e"})
    assert plain.plain_reading(f) == "a flush was called a x\\ny\\u202e"


def test_every_confidence_word_of_the_regulation_files_is_explained():
    from pokercert.reference.rulesets import QUALIFIER_CONFIDENCE

    assert set(QUALIFIER_CONFIDENCE) | {"unconfirmed"} == set(plain.CONFIDENCE_WORDS)
    assert all(f"{w}: " in plain.CONFIDENCE_LEGEND for w in plain.CONFIDENCE_WORDS)


def test_twins_follow_the_vector_they_copy():
    a = {"id": "r/1", "origin": ""}
    b = {"id": "r/2", "origin": ""}
    twin_a = {"id": "r/challenge-7-1", "origin": "twin:r/1"}
    twin_gone = {"id": "r/challenge-7-2", "origin": "twin:r/9"}  # its source passed
    fresh = {"id": "r/challenge-7-3", "origin": "fresh:kicker"}
    order = plain.grouped_findings([twin_gone, twin_a, fresh, a, b])
    assert [f["id"] for f in order] == [
        "r/challenge-7-2",
        "r/challenge-7-3",
        "r/1",
        "r/challenge-7-1",
        "r/2",
    ]


def test_vector_name_does_not_repeat_the_ruleset():
    assert plain.vector_name({"id": "nj-holdem/0012", "ruleset": "nj-holdem"}) == "nj-holdem/0012"
    assert (
        plain.vector_name({"id": "h5-wheel-001", "ruleset": "nj-poker-high-5"})
        == "nj-poker-high-5 h5-wheel-001"
    )


def _without_colour(markup: str) -> str:
    return re.sub(r"<[^>]+>", "", markup)


def test_cards_drawn_with_rank_and_suit_symbol():
    drawn = hand_html("Ah Td 2c 9s")
    assert _without_colour(drawn) == "A♥10♦2♣9♠"
    assert drawn.count('class="card ') == 4 and drawn.startswith('<span class="hand">')
    # the same rank in the four suits reads four ways with every colour taken away
    suits = {_without_colour(hand_html(f"K{s}")) for s in "shdc"}
    assert len(suits) == 4


def test_anything_else_stays_escaped_text():
    hostile = "<script>alert(1)</script>"
    assert hand_html(hostile) == "&lt;script&gt;alert(1)&lt;/script&gt;"
    assert "<script>" not in answer_html({"message": hostile, "hand": "As <b>"})
    assert _without_colour(
        answer_html({"hands": ["As Kd", "2c 3c"], "op": "compare"})
    ) == "hands: A♠K♦ 2♣3♣<br>op: compare".replace("<br>", "")


# --------------------------------------------- hostile answers (hostile30): never a pass
def test_an_answer_without_a_category_is_said_so():
    f = finding({"category": "one_pair"}, {"winners": [0]})
    assert plain.plain_reading(f) == "a pair was answered with no category"


def test_answers_that_read_alike_are_told_apart_exactly():
    """A trailing space, a string that looks like a list, ``none`` the word and null:
    in words each pair read the same, so each is shown as its JSON."""
    pairs = [
        ({"category": "flush"}, {"category": "flush "}),
        ({"winners": [1]}, {"winners": "[1]"}),
        ({"cards": None}, {"cards": "none"}),
    ]
    for expected, actual in pairs:
        reading = plain.plain_reading(finding(expected, actual))
        assert (
            json.dumps(expected["category" if "category" in expected else next(iter(expected))])
            in reading
        ), reading


def test_the_expected_answer_scored_a_failure_does_not_read_as_a_pass():
    f = finding(
        {"category": "flush"}, {"category": "flush"}, message="the reply is not exactly a str"
    )
    reading = plain.plain_reading(f)
    assert "scored a failure" in reading and "not exactly a str" in reading


def test_an_expected_answer_that_is_no_object_does_not_crash():
    for expected in ([1, 2], "flush", 7):
        reading = plain.plain_reading(finding(expected, {"category": "x"}))
        assert reading.startswith("expected ") and "category: x" in reading, reading


def _clause(label):
    return {"label": label, "summary": ""}


def test_what_failed_says_each_reading_once_most_frequent_first():
    # a vendor's one bug (royal flush named straight flush) fails the three curated royal
    # vectors and their twins: six findings, one sentence; a wheel bug twice is the second
    royal = [
        finding(
            {"category": "royal_flush"},
            {"category": "straight_flush"},
            id=f"nj-poker-high-5/{vid}",
            origin=origin,
            clauses=[_clause("13:69F-14.3(b)1")],
        )
        for vid, origin in [
            ("challenge-1-00034", "twin:nj-poker-high-5/0034"),  # a twin met first
            ("0034", ""),
            ("5100", ""),
            ("challenge-1-00092", "twin:nj-poker-high-5/5100"),
            ("5101", ""),
            ("challenge-1-00093", "twin:nj-poker-high-5/5101"),
        ]
    ]
    wheel = [
        finding(
            {"category": "straight"},
            {"category": "high_card"},
            id=f"nj-poker-high-5/{vid}",
            clauses=[_clause("13:69F-14.3(b)6"), _clause("13:69F-14.3(a)")],
            why="A six-high straight beats the wheel (five-high). " + "x" * 200,
        )
        for vid in ("0100", "0101")
    ]
    lines = plain.what_failed_lines([wheel[0], *royal, wheel[1]])
    assert (
        lines
        == [
            # the example named is a curated vector (one `pokercert vectors show` can find),
            # not the twin met first
            "a royal flush was called a straight flush: 6 findings (nj-poker-high-5, clause "
            "13:69F-14.3(b)1); e.g. pokercert vectors show nj-poker-high-5/0034",
            "a straight was called a high card: 2 findings (nj-poker-high-5, clauses "
            "13:69F-14.3(b)6, 13:69F-14.3(a)); e.g. pokercert vectors show nj-poker-high-5/0100: "
            # its Why, cut to 160 characters with the last three "..."
            + ("A six-high straight beats the wheel (five-high). " + "x" * 200)[:157]
            + "...",
        ]
    )


def test_what_failed_keeps_to_a_few_lines():
    # 12 distinct readings (ten categories each called by the next one's name, and two
    # more), the first twice: 8 lines, then one counting the 4 readings left and their
    # 4 findings
    names = [
        "royal_flush",
        "straight_flush",
        "four_of_a_kind",
        "full_house",
        "flush",
        "straight",
        "three_of_a_kind",
        "two_pair",
        "one_pair",
        "high_card",
        "five_of_a_kind",
    ]
    pairs = [*itertools.pairwise(names), ("high_card", "royal_flush"), ("flush", "high_card")]
    failures = [
        finding({"category": a}, {"category": b}, id=f"r/{i}", clauses=[])
        for i, (a, b) in enumerate(pairs)
    ]
    failures.append(dict(failures[0], id="r/99"))
    lines = plain.what_failed_lines(failures)
    assert len(lines) == 9
    assert lines[0].startswith("a royal flush was called a straight flush: 2 findings")
    assert lines[-1] == "and 4 other readings (4 findings): see Findings"
