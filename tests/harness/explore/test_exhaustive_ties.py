"""A compare-mode batch whose replies are all ties is passed at once (issue 28); that
decision, and the replies it sets apart, must be the ones made reply by reply (an
answered ``winners`` of [0, 1] or [1, 0]), whatever an adapter's replies hold."""

from __future__ import annotations

import pytest

from pokercert.harness.adapters.base import ANSWERED, ERROR, REJECTED, Reply, not_tied

TIE = Reply(ANSWERED, {"winners": [0, 1]})
ODD = [
    Reply(ANSWERED, {"winners": [1, 0]}),
    Reply(ANSWERED, {"id": 4, "winners": [0, 1]}),
    Reply(ANSWERED, {"winners": [0]}),
    Reply(ANSWERED, {"winners": [1]}),
    Reply(ANSWERED, {"winners": []}),
    Reply(ANSWERED, {"winners": [0, 1, 2]}),
    Reply(ANSWERED, {"winners": [0, 0]}),
    Reply(ANSWERED, {"winners": (0, 1)}),
    Reply(ANSWERED, {"winners": "01"}),
    Reply(ANSWERED, {"winners": None}),
    Reply(ANSWERED, {"winners": {0: 1, 1: 0}}),
    Reply(ANSWERED, {}),
    Reply(ERROR, {"winners": [0, 1]}, "reply is not JSON"),
    Reply(REJECTED, {"rejected": "bad-card"}),
]


def one_by_one(replies):
    return all(r.status == ANSWERED and r.data.get("winners") in ([0, 1], [1, 0]) for r in replies)


@pytest.mark.parametrize("odd", ODD)
@pytest.mark.parametrize("at", [0, 2, 4])
def test_the_batch_decision_is_the_reply_by_reply_one(odd, at):
    replies = [TIE] * 5
    replies[at] = odd
    apart = {k: r for k, r in enumerate(replies) if not one_by_one([r])}
    assert not_tied(replies) == apart


def test_all_ties_pass_and_one_lone_winner_does_not():
    assert not_tied([TIE, Reply(ANSWERED, {"winners": [1, 0]})] * 100) == {}
    lone = Reply(ANSWERED, {"winners": [0]})
    assert not_tied([TIE] * 99 + [lone]) == {99: lone}
