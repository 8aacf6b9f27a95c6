"""``pokercert site``: usage errors name what is wrong and write nothing; --peers runs the
reference first."""

from __future__ import annotations

import subprocess
import sys

from pokercert.cli.site import PEERS, installed_peers


def pokercert(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pokercert.cli", *args],
                          capture_output=True, text=True, check=False)


def test_a_missing_run_folder_is_a_usage_error_naming_it(tmp_path):
    done = pokercert("site", str(tmp_path / "out"), str(tmp_path / "no-such-run"))
    assert done.returncode == 3
    assert "no-such-run" in done.stderr and "no such folder" in done.stderr
    assert not (tmp_path / "out").exists()


def test_a_folder_that_is_no_run_is_refused(tmp_path):
    (tmp_path / "notarun").mkdir()
    done = pokercert("site", str(tmp_path / "out"), str(tmp_path / "notarun"))
    assert done.returncode in (1, 3) and "notarun" in done.stderr
    assert not (tmp_path / "out" / "index.html").exists()


def test_the_peers_are_the_bundled_adapters_reference_first():
    entry_points = {"reference", "pokerkit", "treys", "phevaluator", "eval7"}  # pyproject
    assert set(PEERS) == entry_points and PEERS[0] == "reference"
    # the test extra installs every peer (pyproject: pinned)
    assert installed_peers() == list(PEERS)


def test_help_lists_the_command():
    done = pokercert("--help")
    assert any(line.split()[:1] == ["site"] for line in done.stdout.splitlines())
