"""``Hands.rows``: a batch as a numpy array of codes (what an exhaustive pass sends), read
the same as its codes and strings, and never the reference's own rows."""

from __future__ import annotations

import pytest

from pokercert.harness.api import CODED_CARDS, Hands
from pokercert.reference import get_ruleset, load_profile
from pokercert.reference.classes import ReferenceClasses, space_of

np = pytest.importorskip("numpy")


def test_rows_read_as_codes_and_cards():
    hands = [["As", "Kd", "2c"], ["Xx", "Th", "9s"]]
    rows = np.array([[CODED_CARDS.index(c) for c in h] for h in hands], dtype=np.uint8)
    batch = Hands(None, 3, rows=rows)
    assert len(batch) == 2 and batch.rows is rows
    assert batch.codes == rows.ravel().tolist()
    assert batch.flat == [c for h in hands for c in h]
    assert list(batch) == hands and batch[1] == hands[1]
    with pytest.raises(ValueError, match="do not make hands of 4"):
        Hands(None, 4, rows=rows)


@pytest.mark.parametrize("seed", [None, 7])
def test_rows_handed_out_are_new_arrays(seed):
    rs, prof = get_ruleset("nj-poker-high-3"), load_profile("practice")
    ref = ReferenceClasses(rs, prof, space_of(rs, prof))
    first = ref.code_rows(100, 110, seed)
    expected = first.copy()
    first[:] = 0  # an evaluator writing to the batch it was given
    assert (ref.code_rows(100, 110, seed) == expected).all()
    assert ref.codes(100, 110, seed) == expected.ravel().tolist()
