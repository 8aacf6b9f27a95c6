"""The sandbox of an ``exec:`` adapter: bubblewrap (``bwrap``) around its command line.

One wrapping step, :func:`sandboxed`: it takes the adapter's command line and returns
the command line to start instead (``bwrap ... -- COMMAND``) with a
:class:`SandboxRecord` saying what the sandbox is, or the command line unchanged with
the record of why there is none.  The caller (:mod:`.process`) starts the result under
its keeper, so the chain is keeper -> bwrap -> adapter (another wrapper, such as a
tracer, goes between the keeper and bwrap).

Inside the sandbox the adapter has:

* no network (``--unshare-net``: only a loopback interface of its own, so nothing
  listening on the host's 127.0.0.1 is reachable), and its own process, IPC and host
  name namespaces where the kernel allows them (it sees none of the harness's
  processes, so not their open files or working directories either);
* the whole file system read-only (``--ro-bind / /``), a fresh ``/dev`` and ``/proc``;
* hidden under empty read-only folders: the installed corpus's ruleset folders, the
  example run folders shipped in the package, the harness's caches
  (``$POKERCERT_CACHE_DIR`` or ``~/.cache/pokercert``), ``/run`` (the Unix sockets of
  the host's services: a read-only mount does not stop a ``connect()``) and the run
  folder;
* one writable folder, its private temporary folder: ``TMPDIR``, and its working
  directory when the harness gave it a fresh one;
* ``--die-with-parent``, and no new session: it stays in the process group the keeper
  made for it, so the keeper's group kill reaches it (and, with a process namespace of
  its own, everything it started dies with bwrap's init process).

Where ``bwrap`` is missing or cannot make a sandbox (no user namespaces, not Linux) the
adapter runs without one and the record says why (the run goes on: a lab reads it).
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import subprocess
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pokercert.harness.adapters.base import AdapterError
from pokercert.reference.cache_dir import cache_root
from pokercert.vectors.corpus import NOT_RULESET_DIRS
from pokercert.vectors.registry import PACKAGE_ROOT

BUBBLEWRAP, OFF, UNAVAILABLE, IN_PROCESS = "bubblewrap", "off", "unavailable", "in-process"
PROBE_TIMEOUT = 10.0
# namespaces besides the network's: asked for, and dropped if the kernel refuses them
_ISOLATING = ("--unshare-pid", "--unshare-ipc", "--unshare-uts")
# shipped example run folders: each results.jsonl holds every vector with its expectation
_EXAMPLE_RUNS = PACKAGE_ROOT.parent / "reports" / "examples"
# the host's runtime folder: the Unix sockets of its services (a read-only mount does not
# stop a connect(), and the network namespace does not cover sockets in the file system)
_RUNTIME = Path("/run")


@dataclass(frozen=True)
class SandboxRecord:
    """What run.json records as ``sandbox``: the mode and one plain sentence why."""

    mode: str  # BUBBLEWRAP, OFF, UNAVAILABLE or IN_PROCESS
    reason: str

    def as_dict(self) -> dict[str, str]:
        return {"mode": self.mode, "reason": self.reason}


TURNED_OFF = SandboxRecord(
    OFF,
    "The sandbox was turned off (--no-sandbox): the adapter "
    "could use the network and read the installed corpus, the run "
    "folder and the harness's caches.",
)
BRIDGED = SandboxRecord(
    OFF,
    "A py: or named evaluator runs in a child process through the "
    "serve bridge, which is not sandboxed (only exec: adapters are).",
)
IN_PROCESS_RECORD = SandboxRecord(
    IN_PROCESS,
    "The evaluator ran inside the harness's own "
    "process, which no sandbox separates from the harness.",
)


class SandboxRefused(AdapterError):
    """The adapter's own files lie in a folder the sandbox hides: it could not start."""


def hidden_paths(run_folder: Path | None = None) -> list[Path]:
    """The existing folders an adapter must not see: the installed corpus's ruleset
    folders, the example runs shipped in the package, the caches' root (made first if
    it is missing, so a cache written later is hidden too), ``/run`` (the host's
    service sockets) and ``run_folder``."""
    found: list[Path] = []
    with contextlib.suppress(OSError):
        found += [
            p
            for p in PACKAGE_ROOT.iterdir()
            if p.is_dir() and p.name not in NOT_RULESET_DIRS and not p.name.startswith(".")
        ]
    caches = cache_root()
    with contextlib.suppress(OSError):  # (else the harness cannot write one there either)
        caches.mkdir(parents=True, exist_ok=True)
    found += [_EXAMPLE_RUNS, caches, _RUNTIME, *([run_folder] if run_folder is not None else [])]
    out: dict[Path, None] = {}
    for path in found:
        try:
            real = path.resolve()
        except OSError:
            continue
        if real.is_dir() and real != Path(real.anchor):
            out[real] = None
    return list(out)


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def check_visible(argv: Sequence[str], hidden: Iterable[Path]) -> None:
    """Refuse a command line naming a file inside a hidden folder (the adapter could
    not start there): :class:`SandboxRefused` says which and what to do."""
    folders = list(hidden)
    for word in argv:
        if not os.path.isabs(word) or not os.path.exists(word):
            continue
        real = Path(word).resolve()
        for folder in folders:
            if _inside(real, folder):
                raise SandboxRefused(
                    f"{word} lies in {folder}, which the sandbox hides from "
                    "the adapter; move the adapter elsewhere or run with "
                    "--no-sandbox"
                )


def _bwrap() -> str | None:
    return shutil.which("bwrap") if sys.platform.startswith("linux") else None


@functools.cache
def _probe(bwrap: str, namespaces: tuple[str, ...]) -> str:
    """'' if ``bwrap`` makes a sandbox with ``namespaces`` here, else what it said."""
    proc_mount = ["--proc", "/proc"] if "--unshare-pid" in namespaces else []
    try:
        done = subprocess.run(
            [
                bwrap,
                "--unshare-net",
                *namespaces,
                "--die-with-parent",
                "--ro-bind",
                "/",
                "/",
                "--dev",
                "/dev",
                *proc_mount,
                "--",
                "true",
            ],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=PROBE_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return str(exc)
    if done.returncode == 0:
        return ""
    said = done.stderr.decode("utf-8", "replace").strip().splitlines()
    return said[-1] if said else f"exit status {done.returncode}"


def available() -> tuple[str, tuple[str, ...]] | str:
    """``(bwrap, namespaces)`` when a sandbox can be made here (with as many of the
    isolating namespaces as the kernel allows), else why not (one sentence)."""
    bwrap = _bwrap()
    if bwrap is None:
        if not sys.platform.startswith("linux"):
            return f"Not sandboxed: the sandbox needs Linux and this is {sys.platform}."
        return "Not sandboxed: bwrap (the Debian package bubblewrap) is not installed."
    problem = _probe(bwrap, _ISOLATING)
    if not problem:
        return bwrap, _ISOLATING
    if not _probe(bwrap, ()):
        return bwrap, ()
    return (
        f"Not sandboxed: bubblewrap cannot make a sandbox here ({problem}), for instance "
        "because the kernel does not allow unprivileged user namespaces."
    )


def _reason(namespaces: tuple[str, ...], hidden: Sequence[Path]) -> str:
    spaces = (
        "its own process, IPC and host-name namespaces"
        if namespaces
        else "the harness's processes still visible (the kernel refused a process namespace)"
    )
    corpus = sum(p.parent == PACKAGE_ROOT for p in hidden)
    named = {
        _EXAMPLE_RUNS.resolve(): "the example runs",
        cache_root().resolve(): "the harness's caches",
        _RUNTIME: "the host's service sockets (/run)",
    }
    what = [f"the installed corpus ({corpus} ruleset folders)"] if corpus else []
    what += [named.get(p, "the run folder") for p in hidden if p.parent != PACKAGE_ROOT]
    shown = ", ".join(what[:-1]) + f" and {what[-1]}" if len(what) > 1 else "".join(what)
    return (
        f"Sandboxed by bubblewrap: no network, {spaces}, the file system read-only "
        "except a private temporary folder" + (f", and hidden: {shown}." if what else ".")
    )


def sandboxed(
    argv: Sequence[str], workdir: str, cwd: str | None = None, hidden: Sequence[Path] = ()
) -> tuple[list[str], SandboxRecord]:
    """``argv`` wrapped in bubblewrap with ``workdir`` its one writable folder (and
    ``TMPDIR``), started in ``cwd`` (default ``workdir``), ``hidden`` folders made
    empty and read-only; or ``argv`` unchanged and the record of why there is no
    sandbox.  :class:`SandboxRefused` if ``argv`` names a file in a hidden folder."""
    found = available()
    if isinstance(found, str):
        return list(argv), SandboxRecord(UNAVAILABLE, found)
    check_visible(argv, hidden)
    bwrap, namespaces = found
    wrap = [
        bwrap,
        "--unshare-net",
        *namespaces,
        "--die-with-parent",
        "--ro-bind",
        "/",
        "/",
        "--dev",
        "/dev",
        *(["--proc", "/proc"] if "--unshare-pid" in namespaces else []),
    ]
    for folder in hidden:
        wrap += ["--tmpfs", str(folder)]
    wrap += ["--bind", workdir, workdir]
    for folder in hidden:  # read-only last: the binds above may need a mount point
        wrap += ["--remount-ro", str(folder)]
    wrap += ["--setenv", "TMPDIR", workdir, "--chdir", cwd or workdir, "--", *argv]
    return wrap, SandboxRecord(BUBBLEWRAP, _reason(namespaces, hidden))


def signal_of_status(code: int) -> int:
    """bwrap reports a child killed by signal N as exit status 128 + N (as a shell
    does): the negative status ``subprocess`` uses for it; other statuses unchanged."""
    return -(code - 128) if 128 < code < 128 + 65 else code


def merged_sandbox(records: Sequence[dict[str, str] | None]) -> dict[str, str] | None:
    """The sandbox record of a run merged from shards: theirs if they all agree, else
    the first that is not ``bubblewrap`` (a shard from before the record counts as
    ``off``), saying how many shards ran that way: a merged certificate never claims a
    sandbox one of its shards did not have."""
    if all(r == records[0] for r in records):
        return records[0]
    unsandboxed = [r for r in records if r is None or r.get("mode") != BUBBLEWRAP]
    if not unsandboxed:  # all sandboxed, with other namespaces: say the first
        return records[0]
    weakest = unsandboxed[0]
    many = sum(r == weakest for r in records)
    if weakest is None:
        mode, why = OFF, "it ran before the harness recorded a sandbox"
    else:
        mode, why = weakest["mode"], weakest["reason"].rstrip(".")
        why = why[:1].lower() + why[1:]
    return {
        "mode": mode,
        "reason": f"Not every shard was sandboxed: {many} of "
        f"{len(records)} ran without one ({why}).",
    }


def _children_of(pid: int) -> list[int]:
    """Pids whose parent is ``pid`` (Linux ``/proc``)."""
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            with contextlib.suppress(OSError):
                stat = Path(f"/proc/{name}/stat").read_bytes()
                if int(stat[stat.rfind(b")") + 2 :].split()[1]) == pid:
                    found.append(int(name))
    return sorted(found)


def adapter_pid(leader: int, within: float = 2.0) -> int | None:
    """The pid (in the harness's view) of the adapter that ``leader`` runs: ``leader``
    itself when it is not bwrap, else the first process below it that is not bwrap
    (bwrap -> its init in the new process namespace -> the adapter); None if it does
    not appear within ``within`` s.  For measuring what the adapter maps (its
    ``/proc/PID/maps``): the keeper reports bwrap's pid, which leads the group."""
    import time

    end = time.monotonic() + within
    pid = leader
    while True:
        try:
            exe = os.path.basename(os.readlink(f"/proc/{pid}/exe"))
        except OSError:
            return None
        if exe != "bwrap":
            return pid
        below = _children_of(pid)
        if below:
            pid = below[0]
        elif time.monotonic() > end:
            return None
        else:
            time.sleep(0.005)
