"""Issue 26, item 3: the measured identity covers the code that answered.

An ``exec:`` adapter's measured identity used to hash the launcher and the argv files
only; the library that ranks the hands went unnamed.  Here a faux adapter
(tests/helpers/faux/loading_adapter.py) imports a module from a vendor folder made in
tmp_path and, lazily, loads a shared object from it: neither is on its command line.
The identity must list both with the SHA-256 the test computes itself (hashlib over the
file), and one changed byte must change the digest.  ``--identity FOLDER`` hashes the
folder as a tree (the formula of harness/README.md, computed here by hand); every scope
of the coverage object is produced by a run that has it; the new-adapter skeleton names
an absolute interpreter and warns about pokercert's own environment.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from pokercert.cli.main import main
from pokercert.harness.run.limits import Limits
from pokercert.harness.run.results import read_header
from pokercert.harness.run.runner import RunConfig, run
from pokercert.reports import write_default_reports
from pokercert.reports.verify import FAILED, OK, verify
from tests import helpers

LOADING = helpers.FAUX / "loading_adapter.py"
RULESET = "nj-poker-high-5"
ONLY_LAUNCHER = (
    "only the launcher and the adapter script were hashed; the evaluator "
    "library it loads is not identified; name it with --identity"
)
linux_only = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the process tree is observed on Linux only"
)


def sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _extension_module() -> Path:
    """A shared object this machine surely can load: one of Python's own extension
    modules (its bytes are copied into the vendor folder, with a vendor tag appended)."""
    for name in ("_json", "math", "_struct", "_ctypes", "select"):
        path = getattr(importlib.import_module(name), "__file__", None)
        if path and path.endswith(".so"):
            return Path(path)
    pytest.skip("this Python has no extension module in a shared object to copy")


@pytest.fixture
def vendor(tmp_path: Path) -> Path:
    """The vendor's evaluator: a module ``rankcore`` and a shared object ``librank.so``."""
    folder = (tmp_path / "acme-evaluator").resolve()
    folder.mkdir()
    (folder / "rankcore.py").write_text('"""Acme rank core."""\nVERSION = "4.2"\n')
    data = _extension_module().read_bytes() + b"\nacme librank 4.2\n"  # ignored by dlopen
    (folder / "librank.so").write_bytes(data)
    return folder


def loading_spec(vendor: Path) -> str:
    return f"exec:{sys.executable} {LOADING} {vendor}"


def certify(spec: str, out: Path, corpus, **kwargs) -> dict:
    outcome = run(
        RunConfig(
            adapter=spec,
            out=out,
            rulesets=[RULESET],
            flags=["wheel"],
            command=["pokercert", "run"],
            **kwargs,
        ),
        corpus=corpus,
    )
    assert outcome.exit_code == 0, outcome.header.aborted
    write_default_reports(out)
    return read_header(out).measured_identity


def loaded(measured: dict) -> dict[str, dict]:
    return {f["path"]: f for f in measured["files"] if f["role"] == "loaded"}


# ----------------------------------------------------------------------------- the tree
@linux_only
def test_the_module_and_the_shared_object_the_adapter_loads_are_hashed(
    tmp_path, vendor, corpus_once
):
    if shutil.which("strace") is None:
        pytest.skip("strace is not installed here; .ci/run installs it")
    spec = loading_spec(vendor)
    measured = certify(spec, tmp_path / "run", corpus_once)
    files = loaded(measured)
    module, library = vendor / "rankcore.py", vendor / "librank.so"
    assert files[str(module)]["sha256"] == sha256(module)
    assert files[str(library)]["sha256"] == sha256(library)  # loaded after hello
    assert files[str(Path(sys.executable).resolve())]["sha256"] == sha256(sys.executable)
    assert measured["coverage"]["scope"] == "process-tree"
    assert measured["coverage"]["warning"] == ""
    assert measured["observed"]["method"] == "strace"
    assert measured["observed"]["wrappers_left_out"] >= 1  # the tracer itself
    assert str(shutil.which("strace") and os.path.realpath(shutil.which("strace"))) not in files
    # hello came before the first batch: the shared object is only in the end measurement
    assert measured["at_start"]["files"] < len(measured["files"])
    # the same software again: the same digest, and verify --rerun agrees
    assert certify(spec, tmp_path / "again", corpus_once)["digest"] == measured["digest"]
    assert (
        next(
            c
            for c in verify(tmp_path / "run" / "report.json", rerun_spec=spec)
            if c.name == "rerun"
        ).status
        == OK
    )
    # one byte of the module changed: another digest, and the rerun names the module
    source = module.read_bytes()
    module.write_bytes(source.replace(b"Acme", b"acme"))
    changed = certify(spec, tmp_path / "changed", corpus_once)
    assert loaded(changed)[str(module)]["sha256"] == sha256(module)
    assert changed["digest"] != measured["digest"]
    check = next(
        c for c in verify(tmp_path / "run" / "report.json", rerun_spec=spec) if c.name == "rerun"
    )
    assert check.status == FAILED and str(module) in check.detail, check.detail


@linux_only
def test_an_adapter_that_kills_its_tracer_is_named_for_it(tmp_path, vendor, corpus_once):
    """A hostile adapter kills strace (found as its TracerPid) on its second batch: out of
    the sandbox it can, and the coverage warns that later opens went unseen; in the
    sandbox the tracer, outside it, is in no process namespace the adapter sees."""
    if shutil.which("strace") is None:
        pytest.skip("strace is not installed here; .ci/run installs it")

    def hostile(out: Path, sandbox: bool) -> dict:
        return run(
            RunConfig(
                adapter=loading_spec(vendor) + " --kill-tracer",
                out=out,
                rulesets=[RULESET],
                flags=["wheel"],
                limits=Limits(batch_size=4),
                sandbox=sandbox,
                command=["pokercert", "run"],
            ),
            corpus=corpus_once,
        ).header

    header = hostile(tmp_path / "bare", sandbox=False)
    measured = header.measured_identity
    assert measured["observed"].get("tracer_lost") is True
    assert "tracer" in measured["coverage"]["warning"]
    assert any("tracer" in p for p in measured["problems"])
    header = hostile(tmp_path / "boxed", sandbox=True)
    if header.sandbox["mode"] == "bubblewrap":
        assert "tracer_lost" not in header.measured_identity["observed"]
        assert header.measured_identity["coverage"]["warning"] == ""


@linux_only
def test_without_strace_the_mapped_shared_object_is_still_hashed(
    tmp_path, vendor, corpus_once, monkeypatch
):
    from pokercert.harness.adapters import trace

    monkeypatch.setattr(
        trace, "observation_method", lambda: (trace.PROC_MAPS, "strace is not installed")
    )
    measured = certify(loading_spec(vendor), tmp_path / "run", corpus_once)
    files = loaded(measured)
    assert files[str(vendor / "librank.so")]["sha256"] == sha256(vendor / "librank.so")
    assert str(vendor / "rankcore.py") not in files  # a source read, not mapped
    cover = measured["coverage"]
    assert cover["scope"] == "process-tree"
    assert "strace is not installed" in cover["warning"] and "Python modules" in cover["warning"]


def test_where_nothing_can_be_observed_only_the_launcher_and_script_are_hashed(
    tmp_path, vendor, corpus_once, monkeypatch
):
    from pokercert.harness.adapters import trace

    monkeypatch.setattr(trace, "observation_method", lambda: (trace.NONE, "not Linux (test)"))
    measured = certify(loading_spec(vendor), tmp_path / "run", corpus_once)
    assert loaded(measured) == {}
    assert measured["coverage"]["scope"] == "launcher-and-script"
    assert measured["coverage"]["warning"] == ONLY_LAUNCHER
    assert "not Linux (test)" in measured["coverage"]["hashed"]
    # a file named with --identity is hashed: the warning says what still is not
    named = certify(
        loading_spec(vendor),
        tmp_path / "named",
        corpus_once,
        identity_files=[str(vendor / "librank.so")],
    )
    assert named["coverage"]["scope"] == "launcher-and-script"
    assert named["coverage"]["warning"] != ONLY_LAUNCHER
    assert "--identity" in named["coverage"]["warning"]


def test_python_distributions_and_in_process_scopes(tmp_path, corpus_once):
    pytest.importorskip("treys")
    child = certify("treys", tmp_path / "child", corpus_once)
    assert child["coverage"]["scope"] == "python-distributions"
    assert "treys" in child["coverage"]["hashed"]
    inside = certify("treys", tmp_path / "inside", corpus_once, in_process=True)
    assert inside["coverage"]["scope"] == "in-process"


def test_a_measurement_of_nothing_is_not_measured():
    """(A report of a run.json without the field says "not recorded": reports/covers.py.)"""
    from pokercert.harness.identity import not_measured
    from pokercert.harness.identity_coverage import coverage_of

    cover = coverage_of(not_measured("older run"))
    assert cover["scope"] == "not-measured" and cover["warning"]


# ----------------------------------------------------------------------------- --identity
def test_identity_with_a_folder_hashes_the_tree(tmp_path, capsys):
    tables = tmp_path / "tables"
    (tables / "sub").mkdir(parents=True)
    (tables / "ranks.bin").write_bytes(b"\x00\x01 ranks")
    (tables / "sub" / "flushes.bin").write_bytes(b"flushes")
    # the tree formula of harness/README.md, by hand: one "REL\0SHA256\n" line per file,
    # sorted by the relative path
    lines = sorted((rel, sha256(tables / rel)) for rel in ("ranks.bin", "sub/flushes.bin"))
    tree = hashlib.sha256("".join(f"{r}\0{h}\n" for r, h in lines).encode()).hexdigest()
    out = tmp_path / "run"
    code = main(
        [
            "run",
            "--adapter",
            "reference",
            "--ruleset",
            RULESET,
            "--flags",
            "wheel",
            "--no-challenge",
            "--no-report",
            "--out",
            str(out),
            "--identity",
            str(tables),
        ]
    )
    assert code == 0
    measured = read_header(out).measured_identity
    files = {f["name"]: f for f in measured["files"]}
    assert files[f"tree:{tables}"]["sha256"] == tree
    assert files[f"tree:{tables}"]["role"] == "identity-tree"
    assert files[f"{tables}/sub/flushes.bin"]["sha256"] == sha256(tables / "sub" / "flushes.bin")
    assert "folder" in measured["coverage"]["hashed"]
    # the same files under another folder name: the same tree hash
    copy = tmp_path / "copy"
    shutil.copytree(tables, copy)
    assert (
        main(
            [
                "run",
                "--adapter",
                "reference",
                "--ruleset",
                RULESET,
                "--flags",
                "wheel",
                "--no-challenge",
                "--no-report",
                "--out",
                str(tmp_path / "run2"),
                "--identity-file",
                str(copy),
            ]
        )
        == 0
    )  # the old name still works
    again = {f["name"]: f for f in read_header(tmp_path / "run2").measured_identity["files"]}
    assert again[f"tree:{copy}"]["sha256"] == tree


# ----------------------------------------------------------------------------- comparing
def _loaded(path: str, sha: str) -> dict:
    return {"name": f"loaded:{path}", "role": "loaded", "path": path, "sha256": sha}


def _m(*files: dict) -> dict:
    return {
        "kind": "exec",
        "digest": "d" + str(len(files)),
        "files": list(files),
        "distributions": [],
    }


def test_loaded_files_compare_by_bytes_not_by_where_they_lie():
    from pokercert.harness.identity import ALL_LOADED, COMMON_LOADED, NO_LOADED, differences

    a = _m(_loaded("/opt/acme/librank.so", "aa" * 32), _loaded("/usr/lib/libc.so.6", "cc" * 32))
    moved = _m(_loaded("/srv/acme/librank.so", "aa" * 32), _loaded("/usr/lib/libc.so.6", "cc" * 32))
    assert [d for d in differences(a, moved) if not d.startswith("digest")] == []
    other = _m(_loaded("/opt/acme/librank.so", "bb" * 32), _loaded("/usr/lib/libc.so.6", "cc" * 32))
    assert differences(a, other) == [
        "loaded /opt/acme/librank.so: sha256 aaaaaaaaaaaaaaaa -> bbbbbbbbbbbbbbbb"
    ]
    later = _m(*a["files"], _loaded("/opt/acme/lazy.so", "ee" * 32))
    assert differences(a, later, COMMON_LOADED) == []  # loaded later in the run
    assert differences(a, later, ALL_LOADED)[0].startswith("loaded /opt/acme/lazy.so: added")
    assert differences(_m(), later, NO_LOADED) == []


# ----------------------------------------------------------------------------- the log
def _hex(text: str) -> str:
    return "".join(f"\\x{b:02x}" for b in text.encode())


def test_a_trace_log_keeps_the_adapters_files_and_leaves_our_wrappers_out(tmp_path):
    """A log as ``strace -f -y -xx`` writes it, by hand: a wrapper of ours (a sandbox
    launcher) starts the adapter; the wrapper's own libraries are not the adapter's."""
    from pokercert.harness.adapters import trace

    wrapper = tmp_path / "bin" / "sandbox"
    wrapper.parent.mkdir()
    wrapper.write_text("#!/bin/sh\n")
    python = tmp_path / "bin" / "acme-python"
    python.write_bytes(b"\x7fELF")
    code = tmp_path / "acme"
    (code / "__pycache__").mkdir(parents=True)
    (code / "rankcore.py").write_text("VERSION = 1\n")
    pyc = code / "__pycache__" / "rankcore.cpython-311.pyc"
    pyc.write_bytes(b"bytecode")
    cwd = f"AT_FDCWD<{_hex(str(tmp_path))}>"
    log = tmp_path / "trace-1.txt"
    log.write_text(
        "\n".join(
            [
                f'100 execve("{_hex(str(wrapper))}", ["{_hex("sandbox")}"], '
                "0x7ffd /* 3 vars */) = 0",
                f'100 openat({cwd}, "{_hex("/lib/libcap.so.2")}", O_RDONLY|O_CLOEXEC) = '
                f"3<{_hex('/usr/lib/libcap.so.2')}>",
                "100 clone(child_stack=NULL, flags=CLONE_NEWPID|SIGCHLD) = 101",
                f'101 execve("{_hex(str(python))}", ["{_hex("python")}"], 0x1 /* 3 vars */) = 0',
                f'101 openat({cwd}, "{_hex(str(pyc))}", O_RDONLY|O_CLOEXEC) = 3<{_hex(str(pyc))}>',
                f'101 openat({cwd}, "{_hex("out.txt")}", '
                "O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC, 0666) = "
                f"4<{_hex(str(tmp_path / 'out.txt'))}>",
                f'101 openat({cwd}, "{_hex(".")}", O_RDONLY|O_NONBLOCK|O_CLOEXEC|O_DIRECTORY) = '
                f"5<{_hex(str(tmp_path))}>",
                f'101 openat({cwd}, "{_hex("/proc/self/status")}", O_RDONLY) = '
                f"6<{_hex('/proc/101/status')}>",
                "101 --- SIGCHLD {si_signo=SIGCHLD} ---",
                f'101 openat({cwd}, "{_hex("/opt/half")}", O_RDONLY',
                "",
            ]
        )
    )  # being written
    watch = trace.CodeWatch(tmp_path / "logs", wrappers=[str(wrapper)])
    watch.method = trace.STRACE
    watch.wrap(["sandbox", "python3"], 1, str(tmp_path / "work"))
    shutil.copyfile(log, tmp_path / "logs" / "trace-1.txt")
    seen = watch.snapshot(None)
    assert [(s.path, s.how) for s in seen.files] == [
        (str(code / "rankcore.py"), trace.SOURCE),
        (str(python), trace.EXECUTED),
    ]
    assert (seen.processes, seen.wrappers) == (1, 1)


# ----------------------------------------------------------------------------- skeleton
def _command(out: str) -> list[str]:
    line = next(x for x in out.splitlines() if x.startswith("check it:"))
    return line.split('"exec:', 1)[1].rstrip('"').split()


def test_the_python_skeleton_names_an_absolute_interpreter(tmp_path, capsys, monkeypatch):
    """A python3 first on PATH that is not pokercert's environment (a stand-in that says
    where it lives, as a real one does): named by what it says it is, no warning."""
    fake = tmp_path / "bin" / "python3"
    fake.parent.mkdir()
    fake.write_text("#!/bin/sh\necho /opt/acme-venv/bin/python3\necho /opt/acme-venv\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake.parent}{os.pathsep}{os.environ['PATH']}")
    assert main(["new-adapter", "--lang", "python", str(tmp_path / "sk")]) == 0
    out, err = capsys.readouterr()
    assert _command(out) == [
        "/opt/acme-venv/bin/python3",
        str((tmp_path / "sk" / "adapter.py").resolve()),
    ]
    assert "exec:/opt/acme-venv/bin/python3 " in (tmp_path / "sk" / "adapter.py").read_text()
    assert "warning" not in err


def test_the_skeleton_warns_when_the_interpreter_is_pokercerts_own(tmp_path, capsys, monkeypatch):
    here = Path(sys.executable).parent
    if shutil.which("python3", path=str(here)) is None:
        pytest.skip(f"no python3 beside {sys.executable}")
    monkeypatch.setenv("PATH", f"{here}{os.pathsep}{os.environ['PATH']}")
    assert main(["new-adapter", "--lang", "python", str(tmp_path / "sk")]) == 0
    out, err = capsys.readouterr()
    assert os.path.isabs(_command(out)[0])
    assert "pokercert's own environment" in err and sys.prefix in err


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_node_skeleton_names_node_by_absolute_path(tmp_path, capsys):
    assert main(["new-adapter", "--lang", "node", str(tmp_path / "sk")]) == 0
    assert _command(capsys.readouterr().out)[0] == str(Path(shutil.which("node")).absolute())


def test_the_coverage_is_in_the_json_report(tmp_path, vendor, corpus_once, monkeypatch):
    from pokercert.harness.adapters import trace

    monkeypatch.setattr(trace, "observation_method", lambda: (trace.NONE, "test"))
    certify(loading_spec(vendor), tmp_path / "run", corpus_once)
    report = json.loads((tmp_path / "run" / "report.json").read_bytes())
    cover = report["identification"]["measured_identity"]["coverage"]
    assert cover == {
        "scope": "launcher-and-script",
        "hashed": cover["hashed"],
        "warning": ONLY_LAUNCHER,
    }
    assert (
        next(c for c in verify(tmp_path / "run" / "report.json") if c.name == "schema").status == OK
    )


@linux_only
def test_without_strace_on_path_or_with_tracing_off_proc_is_read_and_why_is_said(
    tmp_path, monkeypatch
):
    from pokercert.harness.adapters import trace

    try:
        trace.observation_method.cache_clear()
        monkeypatch.setenv("PATH", str(tmp_path))  # a PATH without strace
        assert trace.observation_method() == (trace.PROC_MAPS, "strace is not installed")
        trace.observation_method.cache_clear()
        monkeypatch.setenv("POKERCERT_TRACE", "0")
        assert trace.observation_method()[0] == trace.PROC_MAPS
        assert "POKERCERT_TRACE=0" in trace.observation_method()[1]
    finally:
        trace.observation_method.cache_clear()
