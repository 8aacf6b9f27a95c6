"""``pokercert site``: usage errors name what is wrong and write nothing; --peers runs the
reference first."""

from __future__ import annotations

import subprocess
import sys

from pokercert.cli.site import PEERS, installed_peers


def pokercert(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pokercert.cli", *args], capture_output=True, text=True, check=False
    )


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


def _faux_run(tmp_path):
    """A small run folder of a vendor (not the reference), on the installed corpus."""
    from pokercert.harness.run.results import Outcome
    from pokercert.vectors.corpus import load_corpus
    from tests.helpers.reports_fixtures import H5, r, write_run

    corpus = load_corpus()
    failed = r(
        "h5-wheel-001",
        H5,
        "classify",
        Outcome.FAIL,
        {"hand": "5d 4c 3h 2s Ad"},
        {"category": "straight"},
        {"category": "high_card"},
        ("13:69F-14.3(b)6",),
        ("wheel",),
        "A-2-3-4-5 is the lowest straight.",
    )
    return write_run(tmp_path / "vendor", [failed], corpus=(corpus.version, corpus.sha256))


def test_the_reference_is_a_column_without_peers(tmp_path):
    """Issue 30: the matrix's columns are the reference and every run folder given; the
    reference is run first (--no-reference leaves it out)."""
    vendor = _faux_run(tmp_path)
    done = pokercert("site", str(tmp_path / "with"), str(vendor))
    assert done.returncode == 0, done.stderr[-1500:]
    assert (tmp_path / "with" / "runs" / "reference" / "run.json").is_file()
    home = (tmp_path / "with" / "index.html").read_text(encoding="utf-8")
    assert "pokercert-reference" in home
    done = pokercert("site", "--no-reference", str(tmp_path / "without"), str(vendor))
    assert done.returncode == 0, done.stderr[-1500:]
    assert not (tmp_path / "without" / "runs").exists()
    assert "pokercert-reference" not in (tmp_path / "without" / "index.html").read_text(
        encoding="utf-8"
    )


def test_a_bad_run_folder_is_refused_before_the_reference_runs(tmp_path):
    (tmp_path / "notarun").mkdir()
    done = pokercert("site", str(tmp_path / "out"), str(tmp_path / "notarun"))
    assert done.returncode in (1, 3) and "notarun" in done.stderr
    assert not (tmp_path / "out" / "runs").exists()


def test_a_folder_claiming_to_be_the_reference_does_not_replace_its_run(tmp_path):
    """A vendor's folder whose run.json says adapter_spec "reference" (the vendor's word)
    is a column of its own; the reference column is still the reference's own run."""
    import json

    vendor = _faux_run(tmp_path)
    header = json.loads((vendor / "run.json").read_text(encoding="utf-8"))
    header["adapter_spec"] = "reference"
    (vendor / "run.json").write_text(json.dumps(header), encoding="utf-8")
    done = pokercert("site", str(tmp_path / "out"), str(vendor))
    assert done.returncode == 0, done.stderr[-1500:]
    assert (tmp_path / "out" / "runs" / "reference" / "run.json").is_file()


def test_each_given_folder_is_read_once(tmp_path, monkeypatch):
    """A RUN_FOLDER is read (and its seal checked) once, before any run: the site shows
    what was checked, not the folder read again after the reference's run (issue 27; it
    was read twice)."""
    from pokercert.cli.main import main
    from pokercert.reports.site import data

    vendor = _faux_run(tmp_path)
    reads: list[str] = []
    real = data.load

    def counted(source, *args, **kwargs):
        reads.append(str(source))
        return real(source, *args, **kwargs)

    monkeypatch.setattr(data, "load", counted)
    assert main(["site", "--no-reference", str(tmp_path / "out"), str(vendor)]) == 0
    assert reads == [str(vendor)]
    assert (tmp_path / "out" / "index.html").is_file()
