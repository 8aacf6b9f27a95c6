"""Issue 13: the "before" identity measurement runs in a thread that overlaps the corpus
load and the plan, and is complete before any vendor code is imported or run; the "after"
one overlaps the adapter's closing.  Same bytes as measuring in line."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

from pokercert.harness.adapters import parse_spec
from pokercert.harness.identity import IdentityError, MeasureAhead, measure_spec
from pokercert.harness.run.results import read_header
from pokercert.harness.run.runner import RunConfig, RunError, run

FAUX = "tests.helpers.faux.measured_first"
RULESET = "nj-poker-high-5"


@pytest.fixture(scope="module")
def corpus_once():
    """The corpus, loaded once for the runs of this module (each run is given it)."""
    from pokercert.vectors.corpus import load_corpus

    return load_corpus()


@pytest.fixture
def fresh_faux(monkeypatch):
    """The faux vendor module, imported anew by the run (its import-time code runs)."""
    monkeypatch.delitem(sys.modules, FAUX, raising=False)
    yield lambda: sys.modules[FAUX]
    sys.modules.pop(FAUX, None)


def _run(tmp_path: Path, corpus, identity_files: list[str]):
    return run(
        RunConfig(
            adapter=f"py:{FAUX}:WatchesTheMeasure",
            out=tmp_path / "run",
            rulesets=[RULESET],
            flags=["wheel"],
            in_process=True,
            identity_files=identity_files,
            command=["pokercert", "run"],
        ),
        corpus=corpus,
    )


def test_measured_before_the_vendor_module_is_imported(
    tmp_path, corpus_once, fresh_faux, monkeypatch
):
    lib = tmp_path / "vendor.so"
    lib.write_text("tables v1\n", encoding="utf-8")
    monkeypatch.setenv("POKERCERT_FAUX_REWRITE", str(lib))
    outcome = _run(tmp_path, corpus_once, [str(lib)])
    seen = fresh_faux().SEEN
    assert [when for when, _ in seen] == ["import", "init", "configure"]
    assert all(alive == [] for _, alive in seen), seen  # no measurement still running
    # the module rewrote the identity file as it was imported: the "before" measurement
    # holds the bytes from before the import, so the run says the software changed
    assert outcome.exit_code == 2
    assert "changed during the run" in outcome.header.aborted
    assert str(lib) in outcome.header.aborted
    files = {f["name"]: f for f in outcome.header.measured_identity["files"]}
    assert files[str(lib)]["sha256"] == hashlib.sha256(b"tables v1\n").hexdigest()


def test_measured_identity_is_the_one_measured_in_line(
    tmp_path, corpus_once, fresh_faux, monkeypatch
):
    monkeypatch.delenv("POKERCERT_FAUX_REWRITE", raising=False)
    lib = tmp_path / "vendor.so"
    lib.write_text("tables v1\n", encoding="utf-8")
    outcome = _run(tmp_path, corpus_once, [str(lib)])
    assert outcome.exit_code == 0, outcome.header.aborted
    in_line = measure_spec(
        parse_spec(f"py:{FAUX}:WatchesTheMeasure"), [str(lib)], in_process=True
    )  # as the run's --in-process says
    on_disk = read_header(tmp_path / "run").measured_identity

    def comparable(measured):
        return json.dumps({k: v for k, v in measured.items() if k != "cost"}, sort_keys=True)

    assert comparable(on_disk) == comparable(in_line)
    assert on_disk["cost"]["files"] == in_line["cost"]["files"]
    assert on_disk["cost"]["bytes"] == in_line["cost"]["bytes"]


def test_measure_ahead_gives_the_result_or_raises_in_the_callers_thread(tmp_path):
    spec = parse_spec("reference")
    ahead = MeasureAhead(lambda: measure_spec(spec))
    assert {k: v for k, v in ahead.join().items() if k != "cost"} == {
        k: v for k, v in measure_spec(spec).items() if k != "cost"
    }
    gone = MeasureAhead(lambda: measure_spec(spec, [str(tmp_path / "nope")]))
    with pytest.raises(IdentityError, match="nope"):
        gone.join()


def test_an_identity_file_gone_is_still_the_usage_error_it_was(tmp_path, corpus_once):
    with pytest.raises(RunError, match=r"--identity .*nope: no such file or folder"):
        run(
            RunConfig(
                adapter="reference",
                out=tmp_path / "run",
                rulesets=[RULESET],
                identity_files=[str(tmp_path / "nope")],
            ),
            corpus=corpus_once,
        )
