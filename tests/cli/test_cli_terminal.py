"""What the CLI prints on a terminal holds no raw vendor text (issue 11, case 8, beyond the
report files): the run summary and the smoke table of an adapter whose every declared
string is hostile (``tests/helpers/faux/hostile_identity.py``) show its control, bidirectional
and line-break characters as escapes, so it cannot add a line such as a fake
``# CERTIFIED`` heading, nor reorder one."""

from __future__ import annotations

import sys
import unicodedata
from pathlib import Path

import pytest

from pokercert.cli.main import main
from tests import helpers

HOSTILE_ADAPTER = helpers.FAUX / "hostile_identity.py"
SPEC = f"exec:{sys.executable} {HOSTILE_ADAPTER}"


def assert_no_raw_vendor_text(out: str) -> None:
    """No line that the adapter wrote, no invisible or bidirectional character."""
    lines = out.splitlines()
    assert not any(line.startswith("# CERTIFIED") for line in lines), out
    assert not any(line.startswith("| x | y |") for line in lines), out
    hidden = {
        ch for ch in out if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") and ch != "\n"
    }
    assert not hidden, f"raw control characters printed: {sorted(map(ascii, hidden))}"


def test_run_summary_escapes_the_declared_identity(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["run", "--adapter", SPEC, "--out", str(tmp_path / "run"), "--no-report"])
    out = capsys.readouterr().out
    assert code == 1  # its answers are wrong: a finding, not a crash
    assert "evaluator: " in out and "\\u202e" in out  # the override, shown as an escape
    assert_no_raw_vendor_text(out)


def test_smoke_table_escapes_answers_and_messages(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["smoke", "--adapter", SPEC])
    out = capsys.readouterr().out
    assert code in (1, 2)
    assert "\\n# CERTIFIED" in out  # the answer is there, its line break escaped
    assert_no_raw_vendor_text(out)
