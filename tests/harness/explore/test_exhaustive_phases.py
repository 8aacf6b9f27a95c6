"""Every phase of a key-mode exhaustive pass shows progress (issue 28): asking the
adapter for the keys of every class's members (thousands of hands: over ``exec:`` a
request of its own) had no progress step, so the bar sat still between the reference's
classes and the first hand."""

from __future__ import annotations

import re

from pokercert.cli.main import main
from pokercert.harness.adapters import load_adapter
from pokercert.harness.explore import exhaustive_keyed
from tests.harness.explore.test_exhaustive_compare_only import FAUX, exhaustive_high_3

KEYED = FAUX + "KeyedFlushOverStraight"


def test_asking_the_class_keys_is_a_phase_of_its_own(tmp_path, monkeypatch):
    monkeypatch.setattr(exhaustive_keyed, "CLASS_KEYS_AT_ONCE", 500)
    phases = []
    state = exhaustive_high_3(
        load_adapter(KEYED),
        KEYED,
        tmp_path,
        hands=(0, 1),
        phase=lambda name, done, total: phases.append((name, done, total)),
    )
    assert state.mode == "key"
    keys = [p for p in phases if p[0] == "class keys"]
    # after the reference's classes (two steps), before the hands (the last)
    assert phases[2:-1] == keys and phases[-1] == ("hands", 0, 1)
    members = keys[0][2]
    # three-card high: 741 classes, up to three candidate members each
    assert 741 < members <= 3 * 741
    assert [done for _, done, _ in keys] == [*range(0, members, 500), members]


def test_the_class_keys_phase_prints_on_stderr_without_a_terminal(tmp_path, capsys):
    code = main(
        [
            "exhaustive",
            "--adapter",
            KEYED,
            "--ruleset",
            "nj-poker-high-3",
            "--range",
            "0..100",
            "--out",
            str(tmp_path),
        ]
    )
    err = capsys.readouterr().err.splitlines()
    assert code == 1  # the planted bug is found
    lines = [line for line in err if "class keys" in line]
    assert re.fullmatch(r"pokercert exhaustive: class keys \(.+\): 0/\d,?\d+ \(0%\)", lines[0])
    assert lines[-1].endswith("(100%)")
    assert err.index(lines[0]) < err.index(next(x for x in err if ": hands: " in x))
