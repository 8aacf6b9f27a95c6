"""How ``pokercert run`` ends as a process (``cli/main.py``, ``exit_now``): without the
interpreter's teardown (it took 0.5-0.8 s of wall time after a default run), yet with
every ``atexit`` hook run, every open file flushed, stdout and stderr complete when piped
and the exit code of each outcome unchanged (0 no failure, 1 a failure, 2 the run did
not finish, 3 usage); the last line is the report's verdict and the path of report.html.
Each run is a real ``python -m pokercert.cli`` process; the in-process
faux evaluator (tests/helpers/faux/exit_watch.py) leaves traces of how it ended."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pokercert.cli.main import main
from tests import helpers

RULESET = "nj-poker-high-3"
WATCH = "py:tests.helpers.faux.exit_watch:ExitWatch"


def _run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "PYTHONPATH": helpers.child_pythonpath(),
        "POKERCERT_TEST_EXIT_WATCH": str(tmp_path),
    }
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pokercert.cli",
            "run",
            "--ruleset",
            RULESET,
            "--no-challenge",
            "--out",
            str(tmp_path / "run"),
            *args,
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=helpers.ROOT,
        timeout=300,
    )


def test_compliant_run_exits_0_with_its_whole_summary_and_reports(tmp_path: Path) -> None:
    done = _run(tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip().splitlines()[-1] == f"CERTIFIED: {tmp_path / 'run' / 'report.html'}"
    assert RULESET in done.stdout and "challenge: none" in done.stdout
    for name in ("report.json", "report.md", "report.html", "report.junit.xml"):
        assert (tmp_path / "run" / name).stat().st_size > 0


def test_hooks_run_files_flushed_teardown_skipped(tmp_path: Path) -> None:
    """The faux evaluator fails vectors (exit 1); its atexit hook ran (the collector on
    again: only the plan, the scoring and the reports pause it), the line it left in an
    unclosed file's buffer reached the file, and no object was finalized by a teardown
    (os._exit)."""
    done = _run(tmp_path, "--adapter", WATCH, "--in-process")
    assert done.returncode == 1, done.stderr
    assert (
        done.stdout.rstrip().splitlines()[-1]
        == f"NOT CERTIFIED: {tmp_path / 'run' / 'report.html'}"
    )
    assert (tmp_path / "atexit.txt").read_text() == "ran, collector on\n"
    assert (tmp_path / "unclosed.txt").read_text() == "written, never flushed nor closed\n"
    assert not (tmp_path / "teardown.txt").exists()


def test_a_run_that_does_not_finish_exits_2(tmp_path: Path) -> None:
    done = _run(tmp_path, "--run-timeout", "0.000001")
    assert done.returncode == 2, done.stderr
    assert "the run did not finish" in done.stdout
    assert (
        done.stdout.rstrip().splitlines()[-1] == f"INCOMPLETE: {tmp_path / 'run' / 'report.html'}"
    )


def test_usage_error_exits_3_with_its_message(tmp_path: Path) -> None:
    done = _run(tmp_path, "--ruleset", "no-such-ruleset")
    assert done.returncode == 3
    assert "no-such-ruleset" in done.stderr and "Traceback" not in done.stderr


def test_from_python_main_returns_the_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """main(argv) called from Python returns, the collector as it was; the process goes
    on."""
    code = main(
        [
            "run",
            "--ruleset",
            RULESET,
            "--no-challenge",
            "--no-report",
            "--out",
            str(tmp_path / "run"),
        ]
    )
    assert code == 0 and gc.isenabled()
    assert capsys.readouterr().out.rstrip().splitlines()[-1] == (
        f"CERTIFIED: results in {tmp_path / 'run'}/ (no report written; `pokercert report "
        f"{tmp_path / 'run'}` writes it)"
    )


def test_reports_are_written_with_the_collector_paused(tmp_path: Path, monkeypatch: Any) -> None:
    """The reports of a run are built from the whole run in memory: the cyclic collector
    is paused meanwhile (as while scoring) and on again after."""
    import pokercert.reports.model as model

    seen: list[bool] = []
    report_of = model.report_of

    def watched(*args: Any) -> Any:
        seen.append(gc.isenabled())
        return report_of(*args)

    monkeypatch.setattr(model, "report_of", watched)
    assert (
        main(["run", "--ruleset", RULESET, "--no-challenge", "--out", str(tmp_path / "run")]) == 0
    )
    assert seen == [False]
    assert gc.isenabled()
