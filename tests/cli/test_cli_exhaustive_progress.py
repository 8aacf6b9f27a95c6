"""``pokercert exhaustive`` without a terminal: plain progress lines on stderr.

Issue 28: with its output going to a file, a 209 s exhaustive run printed nothing for
ten minutes.  Now every phase says when it starts and ends, and a long one says how far
it is every few seconds (:data:`pokercert.cli.progress.PLAIN_EVERY`); a terminal still
gets the bar.  ``run`` prints its attached modes' phases the same way (a run --exhaustive
was silent for its whole pass); its vectors, fuzz and selfcheck stay silent off a terminal.
"""

from __future__ import annotations

import io
import re

from pokercert.cli import progress as progress_module
from pokercert.cli.main import main
from pokercert.cli.progress import Progress


def test_exhaustive_prints_each_phase_on_stderr_without_a_terminal(tmp_path, capsys):
    code = main(
        [
            "exhaustive",
            "--ruleset",
            "nj-poker-high-3",
            "--range",
            "0..5000",
            "--batch-size",
            "1000",
            "--out",
            str(tmp_path),
        ]
    )
    captured = capsys.readouterr()
    err = captured.err.splitlines()
    assert code == 0
    # the summary's time and rate hold the set-up, the last progress line's the hands'
    # alone (a newcomer saw 134,000 hands/s there and 8,000 in the summary, unexplained)
    assert re.search(
        r"5,000 checked in \d+\.\d s, set-up included \([\d,]+ hands/s overall; the "
        r"progress line's rate is the hands' alone\)",
        captured.out,
    )
    # the one-step phase says what it does and then what it made (three-card high: 741
    # classes over its 22,100 hands), not "0/1" and "1/1"
    assert err[0] == "pokercert exhaustive: reference classes ..."
    assert re.fullmatch(
        r"pokercert exhaustive: 741 reference classes of 22,100 hands \(\d+\.\d s\)", err[1]
    )
    assert not [line for line in err if "0/1 " in line or "1/1 " in line]
    assert err[-1].startswith("pokercert exhaustive: hands: 5,000/5,000 (100%), ")
    assert err[-1].endswith(" hands/s")


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def monotonic(self) -> float:
        return self.now


def test_plain_lines_come_every_few_seconds_and_at_the_end(monkeypatch):
    clock = _Clock()
    monkeypatch.setattr(progress_module, "time", clock)
    out = io.StringIO()
    bar = Progress(out, unit="hands/s", plain_every=5.0)
    for done in range(0, 101, 10):  # one step a second
        bar.phase("hands", done, 100, "hands/s")
        clock.now += 1.0
    lines = out.getvalue().splitlines()
    # the first, one five seconds later, one five more, and the last
    assert lines == [
        "hands: 0/100 (0%)",
        "hands: 50/100 (50%), 10 hands/s",
        "hands: 100/100 (100%), 10 hands/s",
    ]


def test_other_commands_stay_silent_without_a_terminal():
    out = io.StringIO()
    bar = Progress(out)
    bar(1, 2)
    bar(2, 2)
    bar.close()
    assert out.getvalue() == ""


def test_run_prints_its_attached_exhaustive_phases_without_a_terminal(tmp_path, capsys):
    """newcomer28: `run --exhaustive` with stderr to a file printed nothing for 38 s."""
    code = main(
        [
            "run",
            "--ruleset",
            "nj-poker-high-3",
            "--no-challenge",
            "--exhaustive",
            "--out",
            str(tmp_path / "run"),
        ]
    )
    err = capsys.readouterr().err.splitlines()
    assert code == 0
    phases = [line for line in err if line.startswith("pokercert run: exhaustive ")]
    assert phases[0].startswith("pokercert run: exhaustive nj-poker-high-3: ")
    assert "pokercert run: exhaustive nj-poker-high-3: hands: 22,100/22,100 (100%)" in phases
    assert phases[0] == "pokercert run: exhaustive nj-poker-high-3: reference classes ..."
    assert phases[1].startswith(
        "pokercert run: exhaustive nj-poker-high-3: 741 reference classes of 22,100 hands ("
    )


def test_a_one_step_phase_on_a_terminal_is_two_lines_not_a_bar(monkeypatch):
    clock = _Clock()
    monkeypatch.setattr(progress_module, "time", clock)
    out = _Terminal()
    bar = Progress(out, unit="hands/s")
    bar.phase("reference classes", 0, 1)
    clock.now += 2.5
    bar.phase("741 reference classes of 22,100 hands", 1, 1)
    assert out.getvalue().splitlines() == [
        "reference classes ...",
        "741 reference classes of 22,100 hands (2.5 s)",
    ]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True
