"""The deterministic generator of the corpus's systematic families.

Where a behaviour is systematic (all ten straights, every quad rank, every pocket
pair), writing the vectors by hand invites typos; this package builds them instead.
Every expectation comes from the *construction*, stated in the vector's ``why``:
"two hands that differ only in the rank of their four of a kind: the higher one
wins".  Nothing here asks the reference engine; ``pokercert vectors check`` then
compares each generated expectation with the engine under every reading, so a
construction mistake and an engine mistake both surface.

Output: ``<ruleset>/generated-<family>.toml``.  Ids come from a fixed block per family
(:data:`pokercert.vectors.ids.FAMILY_BASE`, at or above 5000; hand-written ids stay
below), member ``i`` of a family getting ``base + i``, so regenerating never renumbers.
Grow a family only at its end; never change what an existing member means (its id is
released).

The modules, by job:

* :mod:`.games`       what each ruleset is (shape and category -> clause table read from
                      the ruleset files) and the roles its clauses play
* :mod:`.common`      cards, words, the record builder (the deck: :mod:`pokercert.vectors.dealing`)
* :mod:`.categories`, :mod:`.showdowns`, :mod:`.low`, :mod:`.holdem`, :mod:`.reject`
                      the family builders
* :mod:`.worked`      the hand-worked tables of ``data/*.toml`` (hands, reasons, the
                      poker-room constructions' words)
* :mod:`.plan`        which families each ruleset gets, in a fixed order
* :mod:`.writer`      file text, writing, and the byte-identical check

Run ``pokercert vectors generate`` (or ``python -m pokercert.vectors.generate``) to
rewrite the files, ``--check`` to verify the committed ones are byte-identical.
"""

from __future__ import annotations

from pokercert.vectors.generate.games import GAMES, TableGame
from pokercert.vectors.generate.plan import Family, plan
from pokercert.vectors.generate.writer import (
    HEADER,
    default_root,
    outputs,
    render,
    stale_files,
    write_all,
)

__all__ = [
    "GAMES",
    "HEADER",
    "Family",
    "TableGame",
    "default_root",
    "outputs",
    "plan",
    "render",
    "stale_files",
    "write_all",
]
