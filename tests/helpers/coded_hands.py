"""Batches of hands as exhaustive gives them: cards as codes (positions in CODED_CARDS)."""

from __future__ import annotations

from pokercert.harness.api import CODED_CARDS, Hands


class CodesOnly(Hands):
    """A batch that may be read only by its codes: reading its card strings fails, so a
    test sees an adapter that converts the batch through card strings instead of its
    one table over :data:`CODED_CARDS`."""

    @property
    def flat(self) -> list[str]:
        raise AssertionError("the batch's card strings were read")


def coded(*hands: str, cls: type[Hands] = Hands) -> Hands:
    """The hands (each a space-separated string of canonical cards) as a batch of codes."""
    return cls(
        None, len(hands[0].split()), [CODED_CARDS.index(c) for h in hands for c in h.split()]
    )
