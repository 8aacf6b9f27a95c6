"""The measured identity finds a module's distributions without listing every installed
distribution's metadata (a run measures twice: before the vendor's code and after), and
finds exactly what the standard library's ``packages_distributions()`` gives."""

from __future__ import annotations

import importlib.metadata as md

from pokercert.harness.identity import _distributions_of, measure


def test_the_lookup_equals_packages_distributions_for_every_top_name() -> None:
    every = md.packages_distributions()
    assert _distributions_of(every) == {top: list(names) for top, names in every.items()}


def test_a_few_names_and_an_unknown_one() -> None:
    every = md.packages_distributions()
    wanted = {"pokercert", "tabulate", "hypothesis", "no_such_top_level_name"}
    assert _distributions_of(wanted) == {t: list(every[t]) for t in wanted if t in every}
    assert "pokercert" in _distributions_of(wanted)


def test_measuring_the_reference_names_its_distribution() -> None:
    measured = measure("python", "pokercert.harness.peers.reference")
    assert [d["name"] for d in measured["distributions"]] == ["pokercert"]
    assert measured["problems"] == []
