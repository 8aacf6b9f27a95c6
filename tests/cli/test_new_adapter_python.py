"""new-adapter never names pokercert's own python as the adapter's interpreter (a vendor
who runs that command imports the harness environment's libraries, and smoke then warns
about the very command new-adapter printed)."""

from __future__ import annotations

import shutil
import sys

from pokercert.cli import new_adapter
from pokercert.cli.main import main


def test_pokercert_own_python_is_replaced_by_a_placeholder(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(shutil, "which", lambda name: sys.executable)  # this venv's python
    assert main(["new-adapter", "--lang", "python", str(tmp_path / "a")]) == 0
    out, err = capsys.readouterr()
    check = next(line for line in out.splitlines() if line.startswith("check it:"))
    assert new_adapter.YOUR_PYTHON in check and sys.executable not in check
    assert "pokercert's own environment" in err
    assert new_adapter.YOUR_PYTHON in (tmp_path / "a" / "adapter.py").read_text()


def test_another_python_is_named_by_its_absolute_path(tmp_path, monkeypatch, capsys):
    other = shutil.which("python3", path="/usr/bin")
    if other is None:
        import pytest

        pytest.skip("no /usr/bin/python3 to stand for a vendor's python")
    monkeypatch.setattr(shutil, "which", lambda name: other)
    assert main(["new-adapter", "--lang", "python", str(tmp_path / "a")]) == 0
    out, err = capsys.readouterr()
    assert new_adapter.YOUR_PYTHON not in out and "own environment" not in err
