"""The sandbox of exec: adapters (issue 26, item 7): a sandboxed adapter cannot list the
installed corpus, read the run folder or the caches, reach a socket on 127.0.0.1, see
the harness's processes or write outside its temporary folder; ``--no-sandbox`` gives
all of it back and the run says so; the new-adapter skeletons still pass smoke in it.

The adapter is ``tests/helpers/faux/prober.py``: it tries each thing and reports on
stderr, which the harness captures under ``attachments/``.  Where bubblewrap is missing
or refused these tests skip, except in CI (``CI=true``), which installs it (.ci/run).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from pokercert.cli.main import main
from pokercert.harness.adapters import AdapterOptions, load_adapter
from pokercert.harness.adapters.sandbox import adapter_pid, available
from pokercert.harness.run.runner import RunConfig, run
from pokercert.reference.cache_dir import cache_root
from pokercert.vectors.registry import PACKAGE_ROOT
from tests import helpers
from tests.cli.test_new_adapter import BROKEN, skeleton
from tests.harness.test_trust_containment import gone, hostile_exec, survivors, wait_for

PROBER = helpers.FAUX / "prober.py"
RULESET = "nj-poker-high-5"
VECTOR_FILES = sorted((PACKAGE_ROOT / RULESET).glob("*.toml"))


def require_bwrap() -> None:
    """Skip where bubblewrap cannot make a sandbox, except in CI: there it is an error."""
    why = available()
    if isinstance(why, str):
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must run the sandbox tests (.ci/run installs bubblewrap): {why}")
        pytest.skip(why)


@pytest.fixture
def listener() -> Iterator[int]:
    """A socket listening on 127.0.0.1 (its port): what an adapter must not reach."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(8)
        yield server.getsockname()[1]


@pytest.fixture
def service_socket() -> Iterator[str]:
    """A Unix socket listening in /run, where the host's services keep theirs (a
    database's, D-Bus's): a read-only mount would not stop a connect() to it."""
    path = f"/run/pokercert-test-{uuid.uuid4().hex[:12]}.sock"
    with socket.socket(socket.AF_UNIX) as server:
        try:
            server.bind(path)
        except OSError as exc:
            pytest.skip(f"cannot make a socket in /run here ({exc.strerror})")
        server.listen(8)
        try:
            yield path
        finally:
            os.unlink(path)


def probe(tmp_path: Path, probes: list[str], sandbox: bool) -> tuple[dict[str, dict], str]:
    """Start the prober with ``probes`` (a run folder ``tmp_path/out`` holding a
    results.jsonl already), configure it; its reports by probe, and its sandbox mode."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "results.jsonl").write_text('{"vector_id": "secret"}\n')
    spec = f"exec:{sys.executable} {PROBER} " + " ".join(probes)
    options = AdapterOptions(attachments=out / "attachments")  # the default: sandboxed
    if not sandbox:
        options.sandbox = False
    adapter = load_adapter(spec, options)
    with adapter:
        adapter.start()
        adapter.configure(RULESET, {})
        record = getattr(adapter, "sandbox", None)
    mode = record.mode if record is not None else "none recorded"
    said = (out / "attachments" / "stderr-1.txt").read_text()
    reports = [json.loads(line) for line in said.splitlines() if line.startswith("{")]
    return {r["probe"]: r for r in reports}, mode


def secrets(tmp_path: Path, port: int) -> list[str]:
    cache_root().mkdir(parents=True, exist_ok=True)
    (cache_root() / "probe-secret").write_text("the harness's cache\n")
    return [
        f"list:{PACKAGE_ROOT / RULESET}",
        f"read:{VECTOR_FILES[0]}",
        f"read:{tmp_path / 'out' / 'results.jsonl'}",
        f"read:{cache_root() / 'probe-secret'}",
        f"connect:{port}",
        f"read:/proc/{os.getpid()}/cmdline",
        f"write:{tmp_path / 'escaped'}",
        "write:tmp",
        "write:here",
    ]


def test_a_sandboxed_adapter_reaches_none_of_the_harness_secrets(tmp_path, listener):
    require_bwrap()
    assert VECTOR_FILES, "the installed corpus has vectors to hide"
    got, mode = probe(tmp_path, secrets(tmp_path, listener), sandbox=True)
    listed = got[f"list:{PACKAGE_ROOT / RULESET}"]
    assert listed["ok"] is False or listed["found"] == 0, listed  # the corpus: empty
    for name, report in got.items():
        if name.startswith(("read:", "connect:")) or name == f"write:{tmp_path / 'escaped'}":
            assert report["ok"] is False, report
    assert not (tmp_path / "escaped").exists()
    # its own temporary folder and fresh working directory: writable
    assert got["write:tmp"]["ok"] and got["write:here"]["ok"], got
    assert mode == "bubblewrap"


@pytest.mark.parametrize("sandbox", [True, False])
def test_a_service_socket_in_run_is_out_of_reach(tmp_path, service_socket, sandbox):
    if sandbox:
        require_bwrap()
    got, _ = probe(tmp_path, [f"unix:{service_socket}"], sandbox=sandbox)
    assert got[f"unix:{service_socket}"]["ok"] is not sandbox, got


def test_no_sandbox_gives_the_adapter_everything_back(tmp_path, listener):
    got, mode = probe(tmp_path, secrets(tmp_path, listener), sandbox=False)
    assert mode == "off"
    assert got[f"list:{PACKAGE_ROOT / RULESET}"]["found"] == len(
        list((PACKAGE_ROOT / RULESET).iterdir())
    )
    assert all(r["ok"] for r in got.values()), [r for r in got.values() if not r["ok"]]
    assert (tmp_path / "escaped").read_text() == "written by the adapter\n"


@pytest.mark.parametrize("sandbox", [True, False])
def test_the_run_records_its_sandbox_and_the_adapter_cannot_read_run_json(tmp_path, sandbox):
    """run.json exists when the adapter is configured: it can read it only unsandboxed;
    run.json says which (through the CLI: --no-sandbox is the opt-out)."""
    if sandbox:
        require_bwrap()
    out = tmp_path / "run"
    spec = f"exec:{sys.executable} {PROBER} read:{out / 'run.json'} list:{out}"
    args = [
        "run",
        "--adapter",
        spec,
        "--ruleset",
        RULESET,
        "--flags",
        "wheel",
        "--no-challenge",
        "--out",
        str(out),
        *([] if sandbox else ["--no-sandbox"]),
    ]
    assert main(args) == 1  # player 0 always wins: not compliant
    header = json.loads((out / "run.json").read_text())
    assert set(header["sandbox"]) == {"mode", "reason"}
    assert header["sandbox"]["mode"] == ("bubblewrap" if sandbox else "off")
    assert ("--no-sandbox" in header["sandbox"]["reason"]) is not sandbox
    said = [
        json.loads(line)
        for line in (out / "attachments" / "stderr-1.txt").read_text().splitlines()
        if line.startswith("{")
    ]
    read, listed = said
    assert read["ok"] is not sandbox, read
    assert (listed["ok"] and listed["found"] > 0) is not sandbox, listed


def test_an_in_process_run_says_there_is_no_sandbox(tmp_path):
    outcome = run(
        RunConfig(
            adapter="reference",
            out=tmp_path / "run",
            rulesets=[RULESET],
            flags=["wheel"],
            challenge=False,
            command=["pokercert", "run"],
        )
    )
    assert outcome.header.sandbox is not None
    assert outcome.header.sandbox["mode"] == "in-process"


@pytest.mark.parametrize("lang", ["c", "node", "python"])
def test_the_skeletons_pass_smoke_inside_the_sandbox(lang, tmp_path, capsys):
    require_bwrap()
    spec = skeleton(lang, tmp_path / lang)
    with load_adapter(spec, AdapterOptions()) as adapter:  # the default: sandboxed
        adapter.start()
        assert adapter.sandbox.mode == "bubblewrap"  # type: ignore[attr-defined]
    capsys.readouterr()
    code = main(["smoke", "--adapter", spec, "--json"])
    said = json.loads(capsys.readouterr().out)
    assert (code, said["verdict"]) == (1, "EVALUATOR NON-COMPLIANT"), said
    assert not BROKEN & {c["outcome"] for c in said["checks"]}


def test_an_adapter_kept_in_a_hidden_folder_is_a_clear_error(tmp_path):
    require_bwrap()
    out = tmp_path / "out"
    (out / "vendor").mkdir(parents=True)
    script = out / "vendor" / "adapter.py"
    script.write_text(PROBER.read_text())
    adapter = load_adapter(
        f"exec:{sys.executable} {script}", AdapterOptions(attachments=out / "attachments")
    )
    with pytest.raises(Exception, match=r"adapter\.py lies in .*out.*--no-sandbox"):
        adapter.start()
    adapter.close()


def test_a_sandboxed_daemon_dies_even_when_its_keeper_is_killed(tmp_path):
    """The keeper's group kill still reaches a sandboxed adapter (test_trust_containment
    runs sandboxed by default); and in the sandbox's process namespace even a daemon
    that left the group (double fork, setsid) dies when the keeper is killed with
    SIGKILL and cannot clean up: unsandboxed, it outlives the keeper."""
    require_bwrap()
    marker = f"pokercert-hostile-{uuid.uuid4().hex}"
    adapter = load_adapter(hostile_exec("daemon", marker), AdapterOptions())
    adapter.start()
    try:
        wait_for(marker, 2)  # the adapter and its daemon (and bwrap)
        os.kill(adapter._proc.pid, signal.SIGKILL)  # type: ignore[attr-defined]
        assert gone(marker) == []
        assert adapter.sandbox.mode == "bubblewrap"  # type: ignore[attr-defined]
    finally:
        adapter.close()
        for pid, _ in survivors(marker):
            os.kill(pid, signal.SIGKILL)


def test_the_adapter_below_bwrap_is_found_for_whoever_measures_it(tmp_path):
    """The keeper reports bwrap's pid (it leads the group); what the adapter maps is
    read from the adapter's own pid, two levels below."""
    require_bwrap()
    with load_adapter(f"exec:{sys.executable} {PROBER}", AdapterOptions()) as adapter:
        adapter.start()
        leader = adapter._group  # type: ignore[attr-defined]
        found = adapter_pid(leader)
        assert found is not None and found != leader
        assert os.readlink(f"/proc/{found}/exe") == os.path.realpath(sys.executable)
        assert str(PROBER).encode() in Path(f"/proc/{found}/cmdline").read_bytes()
    assert adapter_pid(os.getpid()) == os.getpid()  # not bwrap: itself


def test_a_merged_run_never_claims_a_sandbox_one_shard_lacked(tmp_path):
    require_bwrap()
    spec = f"exec:{sys.executable} {PROBER}"
    for k, extra in ((1, []), (2, ["--no-sandbox"])):
        main(
            [
                "run",
                "--adapter",
                spec,
                "--ruleset",
                RULESET,
                "--flags",
                "wheel",
                "--no-challenge",
                "--shard",
                f"{k}/2",
                "--out",
                str(tmp_path / f"s{k}"),
                *extra,
            ]
        )
    main(["merge", str(tmp_path / "merged"), str(tmp_path / "s1"), str(tmp_path / "s2")])
    merged = json.loads((tmp_path / "merged" / "run.json").read_text())["sandbox"]
    assert merged["mode"] == "off"
    assert "1 of 2" in merged["reason"] and "--no-sandbox" in merged["reason"]
