"""Shared fixtures and Hypothesis settings for the pokercert test suite."""

import os
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    max_examples=200,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "dev", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(scope="module")
def corpus_once() -> Iterator[Any]:
    """The installed corpus, loaded once for the runs of a module (loading it is slow) and
    handed to every ``run`` of that module in place of a new load."""
    from pokercert.harness.run import runner
    from pokercert.vectors.corpus import load_corpus

    corpus = load_corpus()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(runner, "_load_corpus", lambda given: given or corpus)
        yield corpus
