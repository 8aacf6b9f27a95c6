"""Whole runs: the run folder, resume, shards and merge, expectations, exit codes, CLI."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from pokercert.cli.main import main
from pokercert.harness.merging import MergeError
from pokercert.harness.run import runner
from pokercert.harness.run.challenge import DEFAULT_FRESH
from pokercert.harness.run.limits import Limits
from pokercert.harness.run.merge import merge
from pokercert.harness.run.results import Outcome, read_header, read_results, write_header
from pokercert.harness.run.runner import RunConfig, RunError, run
from pokercert.vectors import releases
from pokercert.vectors.corpus import Corpus, default_root
from tests import helpers
from tests.helpers.harness_vectors import VECTORS

FAUX = helpers.FAUX / "adapter.py"


@pytest.fixture
def corpus(monkeypatch) -> Corpus:
    """A small corpus of its own, registered as a release: these tests are about runs, not
    about the registry, and a corpus no registry holds is never certified (verdict rule 6,
    tests/cli/test_cli_modified_corpus.py)."""
    made = Corpus(VECTORS, "test-1", "c0ffee" * 10 + "abcd", default_root(), {})
    known = dict(releases.releases())
    monkeypatch.setattr(releases, "releases", lambda: {**known, made.version: made.sha256})
    return made


@pytest.fixture
def cli_corpus(corpus, monkeypatch):
    monkeypatch.setattr(runner, "_load_corpus", lambda given: given or corpus)
    return corpus


def ids(folder: Path) -> list[str]:
    return [r.vector_id for r in read_results(folder)]


def test_a_run_folder_identifies_everything(tmp_path, corpus):
    out = run(RunConfig(out=tmp_path, command=["pokercert", "run"]), corpus)
    h = read_header(tmp_path)
    assert out.exit_code == 0
    assert (h.corpus_version, h.corpus_sha256) == ("test-1", corpus.sha256)
    assert h.adapter_spec == "reference" and h.evaluator["name"] == "pokercert-reference"
    assert h.profile["name"] == "practice" and "suits-equal" in h.profile["readings"]
    # the curated vectors, then the challenge: a twin of each and the fresh deals (the
    # default situation deals and, on top, the ladder and the fresh siblings: issue 26)
    challenge = h.filters["challenge"]
    assert set(challenge["by_ruleset"]) == {"nj-poker-high-5"}
    assert challenge["by_ruleset"]["nj-poker-high-5"]["twin"] == len(VECTORS)
    assert challenge["by_ruleset"]["nj-poker-high-5"]["fresh"] > DEFAULT_FRESH
    assert h.selected == len(VECTORS) + challenge["vectors"] == len(ids(tmp_path))
    assert ids(tmp_path)[: len(VECTORS)] == [v.id for v in VECTORS]
    assert h.selected_by_ruleset == {"nj-poker-high-5": h.selected}
    assert h.finished_at and h.platform["python"] and h.command == ["pokercert", "run"]
    assert {r.outcome for r in read_results(tmp_path)} == {Outcome.PASS}


def test_resume_finishes_a_killed_run_without_repeating_it(tmp_path, corpus):
    run(RunConfig(out=tmp_path), corpus)
    path = tmp_path / "results.jsonl"
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:3]) + lines[3][:20])  # killed mid-line
    head = read_header(tmp_path)  # ... so run.json has no end and no results hash
    head.finished_at = head.results_sha256 = head.results_lines = None
    write_header(tmp_path, head)
    out = run(RunConfig(out=tmp_path, resume=True), corpus)
    assert out.new_results == head.selected - 3
    assert len(ids(tmp_path)) == head.selected and set(ids(tmp_path)) >= {v.id for v in VECTORS}
    assert len(read_header(tmp_path).resumed_at) == 1
    assert out.exit_code == 0


def test_resume_refuses_a_different_run(tmp_path, corpus):
    run(RunConfig(out=tmp_path), corpus)
    with pytest.raises(RunError, match="profile"):
        run(RunConfig(out=tmp_path, resume=True, profile="literal"), corpus)


def test_shards_partition_the_run_and_merge_back(tmp_path, corpus):
    whole = run(RunConfig(out=tmp_path / "whole", challenge_seed=3), corpus)
    shards = []
    for k in (1, 2, 3):
        folder = tmp_path / f"shard{k}"
        run(
            RunConfig(
                out=folder,
                shard=f"{k}/3",
                challenge_seed=3,
                command=["pokercert", "run", "--shard", f"{k}/3"],
            ),
            corpus,
        )
        shards.append(folder)
    assert sum(len(ids(s)) for s in shards) == whole.header.selected
    header, warnings = merge(tmp_path / "merged", shards)
    assert warnings == [] and header.shard is None
    assert header.selected_ids_sha256 == whole.header.selected_ids_sha256
    assert sorted(ids(tmp_path / "merged")) == sorted(ids(tmp_path / "whole"))
    assert header.command == ["pokercert", "run"]


def test_merge_reports_a_missing_shard_and_refuses_a_repeated_one(tmp_path, corpus):
    for k in (1, 2):
        run(RunConfig(out=tmp_path / f"s{k}", shard=f"{k}/2", challenge=False), corpus)
    assert main(["merge", str(tmp_path / "m"), str(tmp_path / "s1")]) == 2  # incomplete
    with pytest.raises(MergeError, match="twice"):
        merge(tmp_path / "m2", [tmp_path / "s1", tmp_path / "s1"])


def _lax_corpus_run(tmp_path, corpus, expect_text):
    expect = tmp_path / "expect.toml"
    expect.write_text(expect_text)
    spec = "py:tests.harness.test_harness_inprocess:Honest"  # monkeypatched below: in this process
    return run(
        RunConfig(adapter=spec, out=tmp_path / "run", expect=expect, in_process=True), corpus
    )


def test_known_failures_are_xfail_and_a_fixed_one_is_xpass(tmp_path, corpus, monkeypatch):
    from tests.harness import test_harness_inprocess as t

    monkeypatch.setattr(t.Honest, "winners", lambda self, hands, board=None: [1])
    out = _lax_corpus_run(
        tmp_path,
        corpus,
        '[known."nj-poker-high-5/0005"]\n'
        'reason = "BUG-1: pairs lose"\n'
        '[known."nj-poker-high-5/0006"]\nreason = "BUG-2"\n'
        'outcome = "ERROR"\n',
    )
    got = {r.vector_id: r for r in read_results(tmp_path / "run")}
    assert got["nj-poker-high-5/0005"].outcome is Outcome.XFAIL
    assert got["nj-poker-high-5/0005"].scored_as == "FAIL"
    assert got["nj-poker-high-5/0005"].known_failure == "BUG-1: pairs lose"
    # listed as an ERROR, but it FAILs: another bug than the one known, reported as itself
    assert got["nj-poker-high-5/0006"].outcome is Outcome.FAIL
    assert out.exit_code == 1

    monkeypatch.setattr(
        t.Honest,
        "winners",
        lambda self, hands, board=None: [0] if hands[0][0].startswith("2") else [0, 1],
    )
    out = _lax_corpus_run(tmp_path, corpus, '[known."nj-poker-high-5/0005"]\nreason = "x"\n')
    got = {r.vector_id: r.outcome for r in read_results(tmp_path / "run")}
    assert got["nj-poker-high-5/0005"] is Outcome.XPASS
    assert out.exit_code == 1  # the list is stale: the run fails


@pytest.mark.parametrize(
    "text, match",
    [
        ('[known."nj-poker-high-5/9999"]\nreason = "x"\n', "not in the corpus"),
        ('[known."nj-poker-high-5/0001"]\n', "reason"),
        ('[known."nj-poker-high-5/0001"]\nreason = "x"\noutcome = "PASS"\n', "outcome"),
        ("xfail = 1\n", "unknown top-level"),
    ],
)
def test_bad_expectations_files_are_usage_errors(tmp_path, corpus, text, match):
    with pytest.raises(RunError, match=match):
        _lax_corpus_run(tmp_path, corpus, text)


def test_a_run_timeout_stops_a_hanging_adapter(tmp_path, corpus):
    spec = f"exec:{sys.executable} {FAUX} hang-on '7c 7d 7h 7s 2c'"
    out = run(
        RunConfig(
            adapter=spec,
            out=tmp_path,
            limits=Limits(run_timeout=4.0, timeout=60.0, batch_size=2),
        ),
        corpus,
    )
    assert out.header.aborted and "run timeout" in out.header.aborted
    assert out.exit_code == 2
    assert Outcome.PASS in {r.outcome for r in read_results(tmp_path)}


def test_cli_defaults_certify_the_reference(tmp_path, cli_corpus, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main([]) == 0
    assert read_header(tmp_path / "pokercert-run").adapter_spec == "reference"
    # the last line is the report's verdict in the report's words, and names report.html
    last = capsys.readouterr().out.rstrip().splitlines()[-1]
    assert last == f"CERTIFIED: {Path('pokercert-run') / 'report.html'}"


def test_cli_json_summary_and_exit_code(tmp_path, cli_corpus, capsys):
    code = main(
        ["run", "--out", str(tmp_path), "--no-report", "--json", "--flags", "wheel", "wraparound"]
    )
    data = json.loads(capsys.readouterr().out)
    assert code == 0 == data["exit_code"]
    # the two flagged vectors and their twins (fresh deals cannot honour a flag filter)
    assert [r["PASS"] for r in data["rulesets"]] == [4]
    assert data["challenge"]["by_ruleset"] == {"nj-poker-high-5": {"twin": 2, "fresh": 0}}


def test_a_shard_needs_a_challenge_seed(tmp_path, corpus):
    with pytest.raises(RunError, match="--challenge-seed"):
        run(RunConfig(out=tmp_path, shard="1/2"), corpus)


@pytest.mark.parametrize(
    "args",
    [
        ["--adapter", "no-such-adapter"],
        ["--adapter", "py:nowhere.at_all:X"],
        ["--shard", "4/3"],
        ["--ruleset", "nj-no-such-game"],
        ["--flags", "no-such-flag"],
        ["--profile", "no-such-profile"],
        ["--batch-size", "0"],
    ],
)
def test_cli_usage_errors_exit_3(tmp_path, cli_corpus, args):
    assert main(["run", "--out", str(tmp_path), "--no-report", *args]) == 3


def test_cli_adapter_that_cannot_start_exits_2(tmp_path, cli_corpus):
    assert main(["run", "--out", str(tmp_path), "--no-report", "--adapter", "exec:false"]) == 2


class _Tty:
    """A terminal stand-in: collects what is written."""

    def __init__(self) -> None:
        self.text = ""

    def isatty(self) -> bool:
        return True

    def write(self, s: str) -> None:
        self.text += re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", s)  # rich's colours, cursor

    def flush(self) -> None:
        pass


def test_the_progress_bar_draws_on_the_stream_of_the_moment_in_its_unit(monkeypatch):
    from pokercert.cli.progress import Progress

    bar = Progress(min_interval=0.0, unit="hands/s")  # made before stderr is redirected
    first, second = _Tty(), _Tty()
    monkeypatch.setattr(sys, "stderr", first)
    bar(0, 10)
    monkeypatch.setattr(sys, "stderr", second)
    bar(10, 10)
    bar.close()
    assert "0/10" in first.text and "hands/s" in first.text
    assert "10/10 100%" in second.text and second.text.endswith("\n")
    third = _Tty()
    default = Progress(third, min_interval=0.0)  # an explicit stream, the default unit
    default(1, 2)
    assert "vectors/s" in third.text
    quiet, piped = Progress(min_interval=0.0), _NotTty()
    monkeypatch.setattr(sys, "stderr", piped)
    quiet(1, 2)
    quiet.close()
    assert piped.text == ""  # not a terminal: nothing drawn


class _NotTty(_Tty):
    def isatty(self) -> bool:
        return False


def test_results_built_on_the_fast_path_equal_the_constructors():
    """The runner builds PASS results by position (results.passed): every field must land
    where Result(...) by keyword puts it, and the scored run must hold the same results
    as the general path (_result) would make."""
    from pokercert.harness.adapters.base import Reply
    from pokercert.harness.run.results import EMPTY, Result, passed
    from pokercert.harness.run.runner import _result
    from pokercert.reference import load_profile

    profile = load_profile("practice")
    vector = VECTORS[0]
    expected = vector.expected(profile)
    actual = {"category": expected["category"]}
    fast = passed(
        vector.id,
        vector.ruleset,
        vector.kind,
        expected,
        actual,
        EMPTY,
        vector.clauses,
        vector.flags,
        vector.why,
        vector.inputs,
        0.000012,
    )
    by_keyword = Result(
        vector_id=vector.id,
        ruleset=vector.ruleset,
        kind=vector.kind,
        outcome=Outcome.PASS,
        expected=expected,
        actual=actual,
        clauses=vector.clauses,
        flags=vector.flags,
        why=vector.why,
        inputs=vector.inputs,
        duration_s=0.000012,
    )
    assert fast == by_keyword and fast._asdict() == by_keyword._asdict()
    assert type(fast) is Result and fast.outcome is Outcome.PASS
    reply = Reply("answered", actual, duration_s=0.0000124)
    general = _result(vector, profile, reply, None, expected, Outcome.PASS, actual, "")
    assert general == fast  # duration rounded to the us
    failed = _result(
        vector, profile, reply, None, expected, Outcome.FAIL, {"category": "x"}, "wrong"
    )
    assert failed.outcome is Outcome.FAIL and failed.message == "wrong"
    assert Result.from_json(json.loads(json.dumps(fast.to_json()))) == fast


def test_a_run_scores_through_the_fast_path_and_the_full_scorer_alike():
    """Every result of a reference run equals what the full scorer makes of the same
    reply (the fast path only skips work, never changes an outcome)."""
    from pokercert.harness.adapters import load_adapter
    from pokercert.harness.run.runner import score_vectors
    from pokercert.harness.scoring import score
    from pokercert.reference import get_ruleset, load_profile

    profile = load_profile("practice")
    vectors = VECTORS[:300]
    with load_adapter("reference") as adapter:
        results = [
            r for batch in score_vectors(adapter, adapter.start(), vectors, profile) for r in batch
        ]
    assert [r.vector_id for r in results] == [v.id for v in vectors]
    for v, r in zip(vectors, results, strict=True):
        assert r.outcome is Outcome.PASS, r
        rescored = score(v, v.expected(profile), _reply_of(r), get_ruleset(v.ruleset))
        assert rescored.outcome is Outcome.PASS and rescored.actual == r.actual


def _reply_of(result):
    from pokercert.harness.adapters.base import Reply

    if result.actual and "rejected" in result.actual:
        return Reply("rejected", result.actual)
    return Reply("answered", result.actual)


@pytest.mark.parametrize(
    "command",
    [
        ["run"],
        ["fuzz", "--ruleset", "nj-poker-high-5"],
        ["exhaustive", "--ruleset", "nj-poker-high-5"],
    ],
)
def test_an_adapter_that_cannot_start_is_exit_2_with_its_reason(command, tmp_path, capsys):
    dead = f"exec:{sys.executable} -c 'raise SystemExit(1)'"
    code = main([*command, "--adapter", dead, "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 2
    assert f"pokercert {command[0]}: adapter error: {dead}: the adapter failed to start" in err
