"""``compare_ties``: a batch of compares the harness expects answered ties (issue 28).

An ``exec:`` adapter's reply line is taken at once when it answers every request a tie
(:func:`all_tied`, a typed decode); any other line is read the general way.  The
shortcut must say yes exactly when the general reading finds every item its request's
id and a tie and nothing else: held here against an oracle written from PROTOCOL.md
(the batch reply, a compare's ``winners``: a list of integers) over lines crafted to
sit just beside the one shape it takes, and over a hostile adapter's replies.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pokercert.harness.adapters import process as process_module
from pokercert.harness.adapters.base import PairCompares, not_tied
from pokercert.harness.adapters.reply_shapes import all_tied
from tests.helpers.crafted_adapter import crafted_adapter, protocol_items, reply_line

IDS = range(40, 43)


def by_the_protocol(line: str, batch_id: int, ids: range) -> bool:
    """Every request answered a tie, read as PROTOCOL.md says, with the json module."""
    found = protocol_items(line, batch_id, ids, "winners")
    if found is None:
        return False
    return all(
        type(w) is list and all(type(i) is int for i in w) and w in ([0, 1], [1, 0]) for w in found
    )


TIES = ['{"id": 40, "winners": [0, 1]}', '{"id": 41, "winners": [1, 0]}']
LAST = '{"id": 42, "winners": [0, 1]}'
ALL = [*TIES, LAST]
# (line, every request answered a tie?) -- the answers worked out by hand
LINES = [
    (reply_line(*ALL), True),
    (reply_line(*ALL).replace(" ", ""), True),
    ('\t{ "replies" : [%s] , "id" : 7 , "type" : "batch" }\r' % ", ".join(ALL), True),  # noqa: UP031
    (reply_line(*ALL, head='"type": "b\\u0061tch", "id": 7'), True),
    (reply_line(*TIES, '{"id": 42, "winners": [0, 1], "winners": [0]}'), False),  # the last counts
    (reply_line(*TIES), False),  # an item missing
    (reply_line(*ALL, '{"id": 43, "winners": [0, 1]}'), False),  # one too many
    (reply_line(TIES[1], TIES[0], LAST), False),  # out of order
    (reply_line(TIES[0], TIES[0], LAST), False),  # an id twice
    (reply_line(*TIES, '{"id": 42, "winners": [0]}'), False),  # a lone winner
    (reply_line(*TIES, '{"id": 42, "winners": [1]}'), False),
    (reply_line(*TIES, '{"id": 42, "winners": [0, 0]}'), False),
    (reply_line(*TIES, '{"id": 42, "winners": [0, 1, 2]}'), False),
    (reply_line(*TIES, '{"id": 42, "winners": []}'), False),
    (reply_line(*TIES, '{"id": 42, "winners": [false, true]}'), False),  # booleans
    (reply_line(*TIES, '{"id": 42, "winners": [0, 1.0]}'), False),
    (reply_line(*TIES, '{"id": 42, "winners": [0, 1e0]}'), False),
    (reply_line(*TIES, '{"id": 42.0, "winners": [0, 1]}'), False),
    (reply_line(*TIES, '{"id": true, "winners": [0, 1]}'), False),
    (reply_line(*TIES, '{"id": "42", "winners": [0, 1]}'), False),
    (reply_line(*TIES, '{"id": 42, "winners": "01"}'), False),
    (reply_line(*TIES, '{"id": 42, "winners": {"0": 1}}'), False),
    (reply_line(*TIES, '{"id": 42, "winners": [0, 1], "extra": 1}'), False),
    (reply_line(*TIES, '{"id": 42, "winners": [0, 1], "error": "x"}'), False),
    (reply_line(*TIES, '{"id": 42, "rejected": "bad-card"}'), False),
    (reply_line(*TIES, '{"id": 42, "winners": [0, NaN]}'), False),
    (reply_line(*TIES, '{"id": 42, "winners": [0, 100000000000000000000000]}'), False),
    (reply_line(*TIES, '{"winners": [0, 1]}'), False),
    (reply_line(*TIES, "[42, [0, 1]]"), False),
    (reply_line(*ALL) + " x", False),  # trailing text
    (reply_line(*ALL)[:-1], False),  # cut short
    (reply_line(*ALL, head='"type": "batch", "id": 6'), False),  # an earlier batch's reply
    (reply_line(*ALL, head='"type": "batch", "id": 8'), False),
    (reply_line(*ALL, head='"type": "Batch", "id": 7'), False),
    (reply_line(*ALL, head='"type": "batch"'), False),
    (reply_line(*ALL, tail=', "more": 1'), False),
    ("[%s]" % ", ".join(ALL), False),  # noqa: UP031
    ("", False),
]


@pytest.mark.parametrize(("line", "tied"), LINES, ids=[str(k) for k in range(len(LINES))])
def test_the_shortcut_says_yes_exactly_when_the_protocol_reading_does(line, tied):
    assert by_the_protocol(line, 7, IDS) is tied  # the hand-worked answer, by the oracle
    assert all_tied(line.encode() + b"\n", 7, IDS) is tied


def test_what_the_shortcut_cannot_take_is_left_to_the_general_reading():
    # a key twice, its first value not a pair: json takes the last value (a tie), the
    # typed decoder stops at the first; no is always safe (the line is read again)
    line = reply_line(*TIES, '{"id": 42, "winners": [0], "winners": [0, 1]}')
    assert by_the_protocol(line, 7, IDS)
    assert not all_tied(line.encode(), 7, IDS)
    assert not all_tied(b"\xff" + reply_line(*ALL).encode(), 7, IDS)  # not UTF-8


HOSTILE = [
    '"winners": [0, 1]',
    '"winners": [1, 0]',
    '"winners": [0, true]',
    '"winners": [0, 1.0]',
    '"winners": [0, 1], "extra": 1',  # a field the protocol does not define: ignored
    '"winners": "01"',
    '"winners": [0]',
    '"winners": [0, 1, 2]',
    '"error": "boom"',
    '"rejected": "bad-card"',
]


def _adapter(tmp_path: Path, crafted: list[str]):
    return crafted_adapter(tmp_path, crafted)


def _pairs(n: int) -> PairCompares:
    return PairCompares(["As Ks Qs Js 9h"] * n, ["Ah Kh Qh Jh 9c"] * n)


def seen(reply):  # (the messages name each batch's own request ids)
    return reply.status, dict(reply.data).get("winners"), re.sub(r"\d+", "N", reply.message)


def test_a_hostile_adapters_non_ties_are_the_ones_run_batch_sets_apart(tmp_path):
    with _adapter(tmp_path, HOSTILE) as adapter:
        adapter.start()
        adapter.configure("nj-poker-high-5", {})
        got = adapter.compare_ties(_pairs(len(HOSTILE)))
        general = not_tied(adapter.run_batch(list(_pairs(len(HOSTILE)))))
    # the two ties and the tie with an undefined field (PROTOCOL.md section 6) pass
    assert sorted(got) == [2, 3, 5, 6, 7, 8, 9]
    assert {k: seen(r) for k, r in got.items()} == {k: seen(r) for k, r in general.items()}


def test_an_all_tie_reply_is_taken_without_the_general_reading(tmp_path, monkeypatch):
    with _adapter(tmp_path, HOSTILE[:2]) as adapter:
        adapter.start()
        adapter.configure("nj-poker-high-5", {})
        assert adapter.compare_ties(_pairs(1000)) == {}

        def general(*args):
            raise AssertionError("an all-tie line was read the general way")

        monkeypatch.setattr(process_module, "parse_batch_reply", general)
        assert adapter.compare_ties(_pairs(1000)) == {}
        with pytest.raises(AssertionError):  # (a plain batch still reads the general way)
            adapter.run_batch(_pairs(2))
