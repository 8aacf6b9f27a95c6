"""``classify_each``: a batch of classify requests, one a hand (issue 28).

The exhaustive pass in compare mode asks an ``exec:`` adapter without a batch operation
for one category a hand; a reply line answering every request with a category is taken
as it is decoded (:func:`categories`), any other line is read the general way.  The
shortcut must give the categories exactly when the general reading finds every item its
request's id and a category string and nothing else: held here against an oracle written
from PROTOCOL.md over lines crafted beside that shape, and over a hostile adapter's
replies (the answers must be the ones ``run_batch`` gives, the category or the reply).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pokercert.harness.adapters import process as process_module
from pokercert.harness.adapters.base import ANSWERED, Classifies, Reply
from pokercert.harness.adapters.reply_shapes import categories
from tests.helpers.crafted_adapter import crafted_adapter, protocol_items, reply_line

IDS = range(40, 43)


def by_the_protocol(line: str, batch_id: int, ids: range) -> list[str] | None:
    """Every request answered a category, read as PROTOCOL.md says, with json."""
    found = protocol_items(line, batch_id, ids, "category")
    if found is None or any(type(c) is not str for c in found):
        return None
    return found


GOOD = ['{"id": 40, "category": "flush"}', '{"id": 41, "category": "one_pair"}']
LAST = '{"id": 42, "category": "high_card"}'
ALL = [*GOOD, LAST]
# (line, the categories it answers, or None) -- worked out by hand
LINES = [
    (reply_line(*ALL), ["flush", "one_pair", "high_card"]),
    (reply_line(*ALL).replace(" ", ""), ["flush", "one_pair", "high_card"]),
    (reply_line(*GOOD, '{"id": 42, "category": "h\\u00e9"}'), ["flush", "one_pair", "h\u00e9"]),
    (reply_line(*GOOD, '{"id": 42, "category": ""}'), ["flush", "one_pair", ""]),
    (reply_line(*GOOD, '{"category": "x", "id": 42}'), ["flush", "one_pair", "x"]),
    (reply_line(*GOOD), None),  # an item missing
    (reply_line(*ALL, '{"id": 43, "category": "flush"}'), None),  # one too many
    (reply_line(GOOD[1], GOOD[0], LAST), None),  # out of order
    (reply_line(*GOOD, '{"id": 42, "category": null}'), None),
    (reply_line(*GOOD, '{"id": 42, "category": 3}'), None),
    (reply_line(*GOOD, '{"id": 42, "category": ["flush"]}'), None),
    (reply_line(*GOOD, '{"id": 42.0, "category": "flush"}'), None),
    (reply_line(*GOOD, '{"id": true, "category": "flush"}'), None),
    (reply_line(*GOOD, '{"id": 42, "category": "flush", "extra": 1}'), None),
    (reply_line(*GOOD, '{"id": 42, "rejected": "bad-card"}'), None),
    (reply_line(*GOOD, '{"id": 42, "error": "boom"}'), None),
    (reply_line(*GOOD, '{"id": 42, "winners": [0, 1]}'), None),
    (reply_line(*ALL, head='"type": "batch", "id": 6'), None),  # an earlier batch's reply
    (reply_line(*ALL, tail=', "more": 1'), None),
    (reply_line(*ALL) + " x", None),
    ("", None),
]


@pytest.mark.parametrize(("line", "said"), LINES, ids=[str(k) for k in range(len(LINES))])
def test_the_shortcut_reads_exactly_what_the_protocol_reading_does(line, said):
    assert by_the_protocol(line, 7, IDS) == said  # the hand-worked answer, by the oracle
    assert categories(line.encode() + b"\n", 7, IDS) == said


HOSTILE = [
    '"category": "flush"',
    '"category": "royal_flush"',
    '"category": 3',
    '"category": null',
    '"category": "flush", "extra": 1',  # a field the protocol does not define: ignored
    '"rejected": "bad-card"',
    '"error": "boom"',
    '"winners": [0, 1]',
]


def _adapter(tmp_path: Path, crafted: list[str]):
    return crafted_adapter(tmp_path, crafted, ("classify", "compare"))


def _hands(n: int) -> list[str]:
    return ["As Ks Qs Js 9h", "2c 3d 4h 5s 7c"] * (n // 2) + ["Ah Kh Qh Jh 9c"] * (n % 2)


def seen(answer):  # (the messages name each batch's own request ids)
    if isinstance(answer, Reply):
        return answer.status, re.sub(r"\d+", "N", answer.message)
    return answer


def test_a_hostile_adapters_answers_are_the_ones_run_batch_gives(tmp_path):
    with _adapter(tmp_path, HOSTILE) as adapter:
        adapter.start()
        adapter.configure("nj-poker-high-5", {})
        got = adapter.classify_each(Classifies(_hands(len(HOSTILE))))
        general = [
            r.data.get("category") if r.status == ANSWERED else r
            for r in adapter.run_batch(list(Classifies(_hands(len(HOSTILE)))))
        ]
    assert [seen(a) for a in got] == [seen(a) for a in general]
    # the three strings answered (an undefined field ignored: PROTOCOL.md section 6);
    # a number, a null, a refusal, an error and a compare's answer are not categories
    assert [type(a) for a in got] == [str, str, Reply, Reply, str, Reply, Reply, Reply]


def test_a_line_of_categories_is_taken_without_the_general_reading(tmp_path, monkeypatch):
    with _adapter(tmp_path, HOSTILE[:2]) as adapter:
        adapter.start()
        adapter.configure("nj-poker-high-5", {})
        want = ["flush", "royal_flush"] * 500
        assert adapter.classify_each(Classifies(_hands(1000))) == want

        def general(*args):
            raise AssertionError("a line of categories was read the general way")

        monkeypatch.setattr(process_module, "parse_batch_reply", general)
        assert adapter.classify_each(Classifies(_hands(1000))) == want
        with pytest.raises(AssertionError):  # (a plain batch still reads the general way)
            adapter.run_batch(Classifies(_hands(2)))
