"""Containment (issue 11, cases 4 and 5): evaluator code cannot escape scoring, end the
harness, outlive the run, or hang it; the run records how the evaluator was isolated.

The hostile evaluators are faux adapters: ``tests/helpers/faux/hostile_inprocess.py`` (Python
evaluators, run as ``py:`` specs) and ``tests/helpers/faux/hostile_process.py`` (``exec:``
children).  Survivors are looked for in ``/proc`` by a marker every process they start
carries on its command line.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import pytest

from pokercert.harness.adapters import CRASH, TIMEOUT, AdapterOptions, load_adapter
from pokercert.harness.adapters.base import ANSWERED, ERROR, Reply
from pokercert.harness.adapters.inprocess import InProcessAdapter
from pokercert.harness.adapters.serve import _answer
from pokercert.harness.protocol import check_item
from pokercert.harness.run.results import Outcome, read_header, read_results
from pokercert.harness.run.runner import _score_chunk
from pokercert.harness.scoring import passes
from pokercert.reference import get_ruleset, load_profile
from pokercert.vectors.corpus import load_corpus
from tests import helpers

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="containment is checked through Linux /proc"
)

HOSTILE_PROCESS = helpers.FAUX / "hostile_process.py"
HOSTILE_INPROCESS = "py:tests.helpers.faux.hostile_inprocess"  # + ":Evaluator"
RULESET = "nj-poker-low-3"  # 135 vectors: classify, compare and reject
PRACTICE = load_profile("practice")


# ----------------------------------------------------------------------------- helpers
def survivors(marker: str) -> list[tuple[int, str]]:
    """Live processes (not zombies: those have no command line) carrying ``marker`` on
    their command line or in their environment."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            cmdline = Path(f"/proc/{name}/cmdline").read_bytes()
            environ = Path(f"/proc/{name}/environ").read_bytes() if cmdline else b""
        except OSError:
            continue
        if marker.encode() in cmdline or marker.encode() in environ:
            found.append((int(name), cmdline.replace(b"\0", b" ").decode(errors="replace")))
    return found


def gone(marker: str, within: float = 5.0) -> list[tuple[int, str]]:
    """Wait up to ``within`` s for every process carrying ``marker`` to end; those left."""
    end = time.monotonic() + within
    while True:
        left = survivors(marker)
        if not left or time.monotonic() > end:
            return left
        time.sleep(0.05)


def wait_for(marker: str, count: int, within: float = 20.0) -> None:
    end = time.monotonic() + within
    while len(survivors(marker)) < count:
        assert time.monotonic() < end, f"fewer than {count} processes carry {marker}"
        time.sleep(0.05)


def hostile_exec(mode: str, marker: str) -> str:
    return f"exec:{sys.executable} {HOSTILE_PROCESS} {mode} {marker}"


def env() -> dict[str, str]:
    """The environment of a ``pokercert`` child: ``tests.helpers`` importable."""
    out = dict(os.environ)
    out["PYTHONPATH"] = helpers.child_pythonpath()
    return out


def cli(
    *args: str, cwd: Path, timeout: float = 120.0, marker: str = ""
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pokercert.cli", *args],
        cwd=cwd,
        env={**env(), "POKERCERT_TEST_MARKER": marker},
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def cli_run(
    adapter: str, out: Path, *extra: str, timeout: float = 120.0, marker: str = ""
) -> subprocess.CompletedProcess[str]:
    return cli(
        "run",
        "--adapter",
        adapter,
        "--ruleset",
        RULESET,
        "--out",
        str(out),
        *extra,
        cwd=out.parent,
        timeout=timeout,
        marker=marker,
    )


def outcomes(folder: Path) -> dict[str, Outcome]:
    return {r.vector_id: r.outcome for r in read_results(folder)}


# ===================================================================== case 4: in process
@pytest.mark.parametrize("isolation", [[], ["--in-process"]], ids=["process", "in-process"])
@pytest.mark.parametrize(
    "evaluator, raised",
    [("ExitInClassify", "SystemExit"), ("InterruptInClassify", "KeyboardInterrupt")],
)
def test_exit_and_interrupt_raised_by_evaluator_code_are_its_errors(
    tmp_path, evaluator, raised, isolation
):
    done = cli_run(f"{HOSTILE_INPROCESS}:{evaluator}", tmp_path / "run", *isolation)
    assert done.returncode == 1, done.stderr  # NOT COMPLIANT, not 0, not a crash
    got = list(read_results(tmp_path / "run"))
    assert len(got) == read_header(tmp_path / "run").selected  # everything ran:
    # the curated vectors (every one of the ruleset in the corpus) and a challenge
    assert sum(not r.origin for r in got) == sum(
        v.ruleset == RULESET for v in load_corpus().vectors
    )
    classify = [r for r in got if r.kind == "classify"]
    assert classify and all(r.outcome is Outcome.ERROR for r in classify)
    assert all(raised in r.message for r in classify)
    assert any(r.outcome is Outcome.PASS for r in got if r.kind == "compare")


def test_a_real_ctrl_c_still_interrupts_an_in_process_run(tmp_path):
    out = tmp_path / "run"
    child = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "pokercert.cli",
            "run",
            "--adapter",
            f"{HOSTILE_INPROCESS}:SlowButHonest",
            "--ruleset",
            RULESET,
            "--in-process",
            "--out",
            str(out),
        ],
        cwd=tmp_path,
        env=env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,  # SIGINT as at a terminal, even if CI ignores it
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    end = time.monotonic() + 60
    while not (out / "run.json").exists():  # started: the evaluator is being called
        assert time.monotonic() < end and child.poll() is None
        time.sleep(0.05)
    time.sleep(0.5)
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=30)
    assert child.returncode == 2
    assert "interrupted" in err and "--resume" in err


@pytest.mark.parametrize("isolation", [[], ["--in-process"]], ids=["process", "in-process"])
def test_a_category_that_equals_everything_is_never_a_pass(tmp_path, isolation):
    done = cli_run(f"{HOSTILE_INPROCESS}:LyingCategories", tmp_path / "run", *isolation)
    assert done.returncode == 1, done.stderr + done.stdout  # not CERTIFIED (exit 0)
    got = [r for r in read_results(tmp_path / "run") if r.kind == "classify"]
    assert got and not any(r.outcome is Outcome.PASS for r in got)
    if isolation:  # the object itself reached the harness: refused for its type
        assert all(r.outcome is Outcome.ERROR for r in got)
        assert "exactly a str" in got[0].message
    else:  # it crossed the pipe as its plain value: "high_card", scored as such
        assert {r.outcome for r in got} <= {Outcome.FAIL, Outcome.ERROR}


@pytest.mark.parametrize("isolation", [[], ["--in-process"]], ids=["process", "in-process"])
def test_a_winner_that_equals_every_index_is_never_a_pass(tmp_path, isolation):
    done = cli_run(f"{HOSTILE_INPROCESS}:LyingWinners", tmp_path / "run", *isolation)
    assert done.returncode == 1, done.stderr + done.stdout
    got = [r for r in read_results(tmp_path / "run") if r.kind == "compare"]
    passed = [r for r in got if r.outcome is Outcome.PASS]
    if isolation:
        assert got and all(r.outcome is Outcome.ERROR for r in got)
    else:  # [0] as a plain list: right only where hand 0 really wins alone
        assert all(r.expected["winners"] == [0] for r in passed)


def _liar() -> str:
    from tests.helpers.faux.hostile_inprocess import Liar

    return Liar("high_card")


def test_every_answer_path_wants_exact_built_in_types():
    from tests.helpers.faux.hostile_inprocess import LyingInt

    liar = _liar()
    assert liar == "royal_flush"  # the lie itself
    # the protocol's item check (the subprocess adapter and the in-process slow path)
    assert check_item("classify", {"category": liar})
    assert check_item("compare", {"winners": [LyingInt(0)]})
    assert check_item("best_hand", {"cards": "As Ks Qs", "category": liar})
    assert check_item("evaluate", {"category": "flush", "key": [True]})
    assert check_item("classify", {"rejected": liar})
    # the scorer, and the runner's inline scoring of a chunk
    corpus = load_corpus()
    vector = next(v for v in corpus.vectors if v.ruleset == RULESET and v.kind == "classify")
    reply = Reply(ANSWERED, {"category": liar})
    assert passes(vector, vector.expected(PRACTICE), reply) is None
    (scored,) = _score_chunk([vector], [reply], PRACTICE, get_ruleset(RULESET), {})
    assert scored.outcome is Outcome.ERROR
    # the in-process fast path
    from tests.helpers.faux.hostile_inprocess import LyingCategories

    adapter = InProcessAdapter(LyingCategories(), "py:x", "x", "0")
    adapter.configure(RULESET, {})
    (got,) = adapter.run_batch([{"op": "classify", "hand": vector.inputs["hand"]}])
    assert got.status == ERROR
    # the serve bridge: an error item, not the lying answer
    evaluator = LyingCategories()
    evaluator.configure(RULESET, {})
    item = _answer(evaluator, {"id": 3, "op": "classify", "hand": vector.inputs["hand"]})
    assert item["id"] == 3 and "error" in item and "category" not in item


def test_a_loop_swallowing_base_exception_cannot_hang_a_certification_run(tmp_path):
    marker = f"pokercert-hostile-{uuid.uuid4().hex}"
    start = time.monotonic()
    done = cli_run(
        "py:tests.helpers.faux.hostile_inprocess:SwallowsEverything",
        tmp_path / "run",
        "--timeout",
        "0.5",
        "--run-timeout",
        "8",
        "--max-restarts",
        "3",
        timeout=90,
        marker=marker,
    )
    assert time.monotonic() - start < 60
    assert done.returncode == 2, done.stderr  # the run did not finish: exit 2
    header = read_header(tmp_path / "run")
    assert header.isolation == "process"
    assert header.aborted and ("restarts" in header.aborted or "timeout" in header.aborted)
    assert gone(marker) == []  # the hung child was killed


def test_in_process_a_watchdog_ends_a_run_whose_evaluator_swallows_the_timeout(tmp_path):
    start = time.monotonic()
    done = cli_run(
        "py:tests.helpers.faux.hostile_inprocess:SwallowsEverything",
        tmp_path / "run",
        "--in-process",
        "--timeout",
        "0.5",
        timeout=90,
    )
    assert time.monotonic() - start < 60
    assert done.returncode == 2
    assert "did not stop" in done.stderr and "--in-process" in done.stderr
    assert "Traceback" not in done.stderr
    header = read_header(tmp_path / "run")
    assert header.isolation == "in-process"
    assert header.aborted and header.aborted.startswith("watchdog:")


def test_an_evaluator_that_patches_the_harness_is_contained_by_default(tmp_path):
    done = cli_run("py:tests.helpers.faux.hostile_inprocess:PatchesTheHarness", tmp_path / "run")
    assert done.returncode == 1, done.stdout  # its patch did not reach the scorer
    assert Outcome.FAIL in set(outcomes(tmp_path / "run").values())


def test_the_run_and_every_report_say_how_the_evaluator_was_isolated(tmp_path):
    spec = "py:tests.helpers.faux.hostile_inprocess:PatchesTheHarness"
    cli_run(spec, tmp_path / "iso")
    cli_run(spec, tmp_path / "fast", "--in-process")
    assert read_header(tmp_path / "iso").isolation == "process"
    assert read_header(tmp_path / "fast").isolation == "in-process"
    for name, word in (("iso", "process"), ("fast", "in-process")):
        folder = tmp_path / name
        report = json.loads((folder / "report.json").read_text())
        assert report["identification"]["isolation"] == word
        md = (folder / "report.md").read_text()
        html = (folder / "report.html").read_text()
        junit = (
            (folder / "report.junit.xml").read_text()
            if (folder / "report.junit.xml").exists()
            else next(folder.glob("*.xml")).read_text()
        )
        assert f'name="isolation" value="{word}"' in junit
        if word == "in-process":
            assert "in-process: not isolated" in md and "in-process: not isolated" in html
        else:
            assert "not isolated" not in md and "not isolated" not in html
            assert "| Isolation | process" in md


# ===================================================================== case 5: processes
def test_a_crash_is_a_crash_even_while_a_grandchild_holds_stdout(tmp_path):
    marker = f"pokercert-hostile-{uuid.uuid4().hex}"
    adapter = load_adapter(hostile_exec("crash-held", marker), AdapterOptions(timeout=5.0))
    with adapter:
        adapter.start()
        adapter.configure("nj-poker-high-5", {})
        wait_for(marker, 2)  # the leader and its grandchild
        started = time.monotonic()
        (reply,) = adapter.run_batch([{"op": "classify", "hand": "As Ks Qs Js Ts"}])
        waited = time.monotonic() - started
    assert reply.status == CRASH, reply
    assert "SIGSEGV" in reply.message
    assert waited < 4.0  # seen at once, not at the timeout
    assert gone(marker) == []


@pytest.mark.parametrize("mode, status", [("group-hang", TIMEOUT), ("daemon", ANSWERED)])
def test_no_process_an_adapter_started_outlives_it(tmp_path, mode, status):
    marker = f"pokercert-hostile-{uuid.uuid4().hex}"
    adapter = load_adapter(hostile_exec(mode, marker), AdapterOptions(timeout=1.0))
    with adapter:
        adapter.start()
        adapter.configure("nj-poker-high-5", {})
        wait_for(marker, 2)
        (reply,) = adapter.run_batch([{"op": "classify", "hand": "As Ks Qs Js Ts"}])
        assert reply.status == status
    assert gone(marker) == []


def test_an_adapter_starts_in_a_fresh_working_directory_removed_at_close(tmp_path):
    marker = f"pokercert-hostile-{uuid.uuid4().hex}"
    adapter = load_adapter(
        hostile_exec("pwd", marker), AdapterOptions(attachments=tmp_path / "attachments")
    )
    with adapter:
        adapter.start()
        adapter.configure("nj-poker-high-5", {})
        (reply,) = adapter.run_batch([{"op": "classify", "hand": "As Ks Qs Js Ts"}])
        assert reply.status == ANSWERED
    said = (tmp_path / "attachments" / "stderr-1.txt").read_text()
    cwd = Path(said.split("cwd=", 1)[1].split()[0])
    assert cwd != Path.cwd() and cwd != tmp_path
    assert cwd.parent == Path(tempfile.gettempdir())
    assert not cwd.exists()  # removed, with what it left there


def test_an_adapter_dies_with_its_keeper(tmp_path):
    marker = f"pokercert-hostile-{uuid.uuid4().hex}"
    adapter = load_adapter(hostile_exec("daemon", marker), AdapterOptions())
    adapter.start()
    try:
        keeper = adapter._proc.pid  # what the harness started
        leader = adapter._group  # the adapter itself (PDEATHSIG)
        assert leader and leader != keeper
        os.kill(keeper, signal.SIGKILL)
        end = time.monotonic() + 5
        while (
            Path(f"/proc/{leader}/cmdline").exists()
            and Path(f"/proc/{leader}/cmdline").read_bytes()
        ):
            assert time.monotonic() < end, "the adapter outlived its keeper"
            time.sleep(0.05)
    finally:
        adapter.close()
        for pid, _ in survivors(marker):  # the daemon: the keeper was gone
            os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize("kind", ["exec", "py"])
def test_kill_9_of_the_harness_orphans_nothing(tmp_path, kind):
    marker = f"pokercert-hostile-{uuid.uuid4().hex}"
    if kind == "exec":  # a hung adapter with a grandchild in its process group
        adapter, expect = hostile_exec("group-hang", marker), 3  # harness, leader, child
    else:  # a Python evaluator hung in the serve bridge
        adapter, expect = "py:tests.helpers.faux.hostile_inprocess:SwallowsEverything", 2
    harness = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "pokercert.cli",
            "run",
            "--adapter",
            adapter,
            "--ruleset",
            "nj-poker-high-5",
            "--timeout",
            "60",
            "--out",
            str(tmp_path / "run"),
            # (the adapter's processes are counted: no challenge child dealing ahead)
            "--no-report",
            "--no-challenge",
        ],
        cwd=tmp_path,
        env={**env(), "POKERCERT_TEST_MARKER": marker},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for(marker, expect)
        time.sleep(1.0)  # the first batches are in flight
        workdirs = set()
        for pid, _ in survivors(marker):
            with contextlib.suppress(OSError):
                workdirs.add(os.readlink(f"/proc/{pid}/cwd"))
        workdirs = {d for d in workdirs if Path(d).name.startswith("pokercert-adapter-")}
        assert workdirs  # the adapter's fresh directory
        harness.kill()
        harness.wait(timeout=10)
        assert gone(marker) == []
        assert not any(Path(d).exists() for d in workdirs)  # removed by the keeper
    finally:
        if harness.poll() is None:
            harness.kill()
        for pid, _ in survivors(marker):
            os.kill(pid, signal.SIGKILL)


def _dealing_child(harness: subprocess.Popen[bytes], marker: str) -> int:
    """The pid of the child the harness forked to deal the challenge's fresh deals
    (``prefetch_fresh``): a process carrying the marker whose parent is the harness and
    whose command line is the harness's (a fork, not an adapter: none has started yet)."""
    end = time.monotonic() + 20
    while time.monotonic() < end:
        for pid, _ in survivors(marker):
            with contextlib.suppress(OSError):
                # (read each time: just after Popen the harness may not have exec'd yet)
                own = Path(f"/proc/{harness.pid}/cmdline").read_bytes()
                stat = Path(f"/proc/{pid}/stat").read_text()
                parent = int(stat.rsplit(")", 1)[1].split()[1])
                if (
                    pid != harness.pid
                    and parent == harness.pid
                    and Path(f"/proc/{pid}/cmdline").read_bytes() == own
                ):
                    return pid
        assert harness.poll() is None, "the harness ended before its dealing child was seen"
        time.sleep(0.02)
    raise AssertionError("no challenge-dealing child seen")


def test_kill_9_of_the_harness_while_its_child_deals_the_challenge(tmp_path):
    """The challenge's fresh deals are dealt in a forked child while the corpus loads: a
    kill -9 of the harness then leaves no process behind (the child dies with it) and no
    certificate, and the folder is no run a report can be made from."""
    marker = f"pokercert-dealing-{uuid.uuid4().hex}"
    run = tmp_path / "run"
    harness = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "pokercert.cli",
            "run",
            "--ruleset",
            "nj-poker-high-5",
            "--challenge",
            "20000",
            "--challenge-seed",
            "7",
            "--out",
            str(run),
        ],
        cwd=tmp_path,
        env={**env(), "POKERCERT_TEST_MARKER": marker},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        child = _dealing_child(harness, marker)
        harness.kill()
        harness.wait(timeout=10)
        assert gone(marker) == [], f"the dealing child {child} outlived the harness"
        assert not any(run.glob("report.*")) if run.exists() else True
        done = cli("report", str(run), cwd=tmp_path)
        assert done.returncode in (2, 3), done  # incomplete, or no run at all
        assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) <= 1
    finally:
        if harness.poll() is None:
            harness.kill()
        for pid, _ in survivors(marker):
            os.kill(pid, signal.SIGKILL)


def test_kill_9_of_the_dealing_child_gives_the_same_certificate(tmp_path):
    """A dealing child killed mid-deal (or mid-send) costs time, not correctness: the
    harness deals the same fresh deals itself, and the run certifies with the challenge
    set (by its SHA-256) an undisturbed run of the same seed has; nothing is left."""
    marker = f"pokercert-dealing-{uuid.uuid4().hex}"
    args = [
        "run",
        "--ruleset",
        "nj-poker-high-3",
        "--challenge",
        "4000",
        "--challenge-seed",
        "11",
        "--no-report",
        "--json",
    ]
    harness = subprocess.Popen(
        [sys.executable, "-m", "pokercert.cli", *args, "--out", str(tmp_path / "killed")],
        cwd=tmp_path,
        env={**env(), "POKERCERT_TEST_MARKER": marker},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        os.kill(_dealing_child(harness, marker), signal.SIGKILL)
        out, err = harness.communicate(timeout=300)
        assert harness.returncode == 0, err
        assert gone(marker) == []
    finally:
        if harness.poll() is None:
            harness.kill()
        for pid, _ in survivors(marker):
            os.kill(pid, signal.SIGKILL)
    killed = json.loads(out)
    undisturbed = json.loads(cli(*args, "--out", str(tmp_path / "whole"), cwd=tmp_path).stdout)
    assert killed["challenge"] == undisturbed["challenge"]
    assert killed["challenge"]["vectors"] > 4000
    assert [r["verdict"] for r in killed["rulesets"]] == ["CERTIFIED"]
