"""What code an ``exec:`` adapter's processes ran, observed from outside (Linux), with no
cooperation from the adapter.

Two sources, both read by the harness, never reported by the adapter:

* **strace**, where it is installed and may trace (probed once per harness process,
  :func:`observation_method`): every launch is wrapped by :meth:`CodeWatch.wrap` as
  ``strace -D -f --seccomp-bpf -y -xx ... -o LOG -- COMMAND``.  ``-D`` makes the tracer a
  detached grandchild, so COMMAND stays the process the keeper started (its exit is the
  adapter's exit, its group the one killed; the tracer is a wrapper of ours, killed with
  the rest); ``-f`` follows every process and thread; ``--seccomp-bpf`` stops the tracee
  only at the traced calls (``open``, ``openat``, ``openat2``, ``execve``, ``execveat``,
  the forks and ``io_uring_setup``, successful ones), so the request/answer exchange
  runs at full speed (and an adapter that kills its tracer can open, execute and fork
  nothing more: under ``--seccomp-bpf`` a traced call without a tracer fails, ENOSYS);
  ``-y`` prints the path the kernel resolved for each opened descriptor (symlinks and
  relative names resolved), ``-xx`` every string in hexadecimal (nothing to unquote).
  The tracer stays outside any sandbox: wrap the sandboxed command, not the other way.
* **/proc**: at each :meth:`CodeWatch.snapshot`, the keeper's descendants (found by the
  parent pid in ``/proc/*/stat``), each one's executable (``/proc/PID/exe``) and the files
  mapped into it (``/proc/PID/maps``: shared objects, the executable, mapped data).

What is kept (:class:`Seen`): regular files opened read-only, executed or mapped by the
adapter's processes, not those of our own wrappers (the keeper is the root and is never
listed; strace, and any wrapper named to :class:`CodeWatch` such as a sandbox launcher, is
ours while its whole ancestry up to the keeper is ours: a wrapper the adapter starts is
the adapter's).  Left out: ``/proc``, ``/sys``, ``/dev``, pipes and sockets, folders,
files under the adapter's temporary working directory unless mapped, executed or named
like code (:data:`CODE_SUFFIXES`), and the harness's own state (the trace logs, the run
folder's results and header, pokercert's caches: ephemeral, and not the adapter's code;
the sandbox is what keeps an adapter from reading them).  A ``.pyc`` read from
``__pycache__`` stands for its source ``.py`` when there is one (the bytecode is
rewritten from the source, the source is what the vendor ships).  Executable mappings
of deleted or memory-only files (``memfd``) cannot be hashed: each is noted as a problem.

Where there is no strace (or tracing is refused) the snapshot reads /proc only; where
there is no /proc (not Linux) nothing is observed: :class:`Observed` says which and why.
Set ``POKERCERT_TRACE=0`` to do without strace.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pokercert.reference.cache_dir import cache_root

STRACE, PROC_MAPS, NONE = "strace", "proc-maps", "none"  # how the code is observed
OPENED, MAPPED, EXECUTED, SOURCE = "opened", "mapped", "executed", "bytecode-source"
TRACED_CALLS = "open,openat,openat2,execve,execveat,clone,clone3,fork,vfork,io_uring_setup"
STRACE_OPTIONS = (
    "-D",
    "-f",
    "-qq",
    "--seccomp-bpf",
    "-y",
    "-xx",
    "-e",
    "signal=none",
    "-e",
    f"trace={TRACED_CALLS}",
    "-e",
    "status=successful",
)
CODE_SUFFIXES = (
    ".py",
    ".pyc",
    ".so",
    ".js",
    ".mjs",
    ".cjs",
    ".node",
    ".wasm",
    ".jar",
    ".class",
    ".dll",
    ".dylib",
)
SKIPPED_ROOTS = ("/proc", "/sys", "/dev")
MAX_LOG_BYTES = 256 << 20  # read of one trace log, at most (a flood is noted)
MAX_FILES = 20000  # files kept, at most (more is noted)

_HEX = r"(?:\\x[0-9a-f]{2})*"
_LINE = re.compile(rf"(\d+) +([a-z0-9_]+)\((.*)\) += (-?\d+)(?:<({_HEX})>)?$")
_STRING = re.compile(rf'"({_HEX})"')
_FD_PATH = re.compile(rf"^(?:AT_FDCWD|-?\d+)<({_HEX})>")
_CWD = re.compile(rf"AT_FDCWD<({_HEX})>")
_PYC = re.compile(r"^(.*)/__pycache__/([^/]+?)\.[^./]+(?:\.opt-\d+)?\.pyc$")


def _unhex(text: str) -> str:
    """A ``-xx`` string (``\\x2f\\x74...``) as the path it spells."""
    return os.fsdecode(bytes.fromhex(text.replace("\\x", "")))


@dataclass(frozen=True)
class Seen:
    """One file a process of the adapter opened, mapped or executed."""

    path: str  # as the process named it (the kernel's resolution, with strace -y)
    how: str  # OPENED, MAPPED, EXECUTED or SOURCE (the .py of a .pyc it read)
    read_as: str  # where the harness reads it: ``path``, or /proc/PID/root/``path``
    # for a process in another mount namespace (readable while it lives)


@dataclass(frozen=True)
class Observed:
    """What :meth:`CodeWatch.snapshot` saw, accumulated over every launch so far."""

    method: str  # STRACE, PROC_MAPS or NONE
    why: str  # why not strace ("" with strace)
    files: tuple[Seen, ...]  # sorted by path
    processes: int  # the adapter's processes seen
    wrappers: int  # processes of our own left out (strace, a sandbox)
    problems: tuple[str, ...]
    through_proc: bool  # some file is read through /proc/PID/root: hash it
    # before the adapter stops
    tracer_lost: bool = False  # strace was gone while the adapter still ran


_PROBING = threading.Lock()  # held while the probe runs: asked twice, it runs once


def probe_ahead() -> None:
    """Start :func:`observation_method` in a thread (the probe takes some 25 ms): a
    :class:`CodeWatch` made later waits for its answer instead of probing again."""

    def probe() -> None:
        with _PROBING:
            observation_method()

    threading.Thread(target=probe, name="pokercert-trace-probe", daemon=True).start()


@functools.cache
def observation_method() -> tuple[str, str]:
    """How this machine lets the harness observe an adapter's code, and why not better:
    ``(STRACE, "")``, ``(PROC_MAPS, why)`` or ``(NONE, why)``.  Probed once: strace is
    run on a trivial command (ptrace may be refused in a container)."""
    if not sys.platform.startswith("linux"):
        return NONE, f"not Linux ({sys.platform}): no /proc to read and no strace"
    try:
        with open("/proc/self/maps", "rb") as fh:
            fh.read(1)
    except OSError as exc:
        return NONE, f"/proc cannot be read ({exc.strerror or exc})"
    if os.environ.get("POKERCERT_TRACE", "1") == "0":
        return PROC_MAPS, "tracing is turned off (POKERCERT_TRACE=0)"
    strace = shutil.which("strace")
    if strace is None:
        return PROC_MAPS, "strace is not installed"
    target = shutil.which("true") or sys.executable
    with tempfile.TemporaryDirectory(prefix="pokercert-trace-probe-") as folder:
        log = Path(folder) / "probe.txt"
        try:
            done = subprocess.run(
                [
                    strace,
                    *STRACE_OPTIONS,
                    "-o",
                    str(log),
                    "--",
                    target,
                    *(["-I", "-S", "-c", ""] if target == sys.executable else []),
                ],
                stdin=subprocess.DEVNULL,
                capture_output=True,
                timeout=20,
            )
            traced = log.is_file() and "execve(" in log.read_text("ascii", "replace")
        except (OSError, subprocess.SubprocessError) as exc:
            return PROC_MAPS, f"strace cannot run here ({exc})"
    if done.returncode != 0 or not traced:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        return PROC_MAPS, "strace cannot trace here" + (f" ({said[-1]})" if said else "")
    return STRACE, ""


def _stat_fields(pid: str) -> tuple[int, str] | None:
    """(parent pid, state) of a process, from /proc/PID/stat."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            data = fh.read()
    except OSError:
        return None
    fields = data[data.rfind(b")") + 2 :].split()
    return (int(fields[1]), fields[0].decode()) if len(fields) > 1 else None


def descendants(root: int) -> list[tuple[int, int]]:
    """``(pid, parent pid)`` of every live descendant of ``root``, parents first."""
    children: dict[int, list[int]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    for name in names:
        if name.isdigit():
            fields = _stat_fields(name)
            if fields is not None and fields[1] != "Z":
                children.setdefault(fields[0], []).append(int(name))
    out: list[tuple[int, int]] = []
    todo = [root]
    while todo:
        parent = todo.pop(0)
        for pid in sorted(children.get(parent, [])):
            out.append((pid, parent))
            todo.append(pid)
    return out


def _root_prefix(pid: int) -> str:
    """``/proc/PID/root`` if the process sees another root than ours (a sandbox), else ""."""
    try:
        theirs, ours = os.stat(f"/proc/{pid}/root"), os.stat("/")
    except OSError:
        return ""
    return (
        "" if (theirs.st_dev, theirs.st_ino) == (ours.st_dev, ours.st_ino) else f"/proc/{pid}/root"
    )


def _real(path: str) -> str:
    with contextlib.suppress(OSError):
        return os.path.realpath(path)
    return path


class _LogReader:
    """Reads one strace log as it grows: which pid is ours, what each of the others
    opened and executed."""

    def __init__(self, path: Path, cwd: str, wrappers: frozenset[str]) -> None:
        self.path = path
        self.offset = 0
        self.cwd: dict[int, str] = {}
        self.ours: dict[int, bool] = {}
        self.first_cwd = cwd
        self.wrappers = wrappers
        self.process_of: dict[int, int] = {}  # a thread's id -> its process's
        self.flooded = False

    def feed(self, keep: _Keeper) -> None:
        """Parse the complete lines written since the last call."""
        try:
            with self.path.open("rb") as fh:
                fh.seek(self.offset)
                data = fh.read(max(0, MAX_LOG_BYTES - self.offset))
        except OSError:
            return
        end = data.rfind(b"\n") + 1
        if self.offset + len(data) >= MAX_LOG_BYTES and not self.flooded:
            self.flooded = True
            keep.problem(
                f"the trace log {self.path.name} passed {MAX_LOG_BYTES >> 20} MB: "
                "files opened after that are not identified"
            )
        self.offset += end
        for raw in data[:end].decode("ascii", "replace").splitlines():
            match = _LINE.match(raw)
            if match is not None:
                self._line(keep, int(match[1]), match[2], match[3], int(match[4]), match[5])

    def _line(
        self, keep: _Keeper, pid: int, call: str, args: str, result: int, fd_path: str | None
    ) -> None:
        if pid not in self.ours:  # the first pid: strace's own child,
            self.ours[pid] = not self.ours  # ours until it executes the command
            self.cwd.setdefault(pid, self.first_cwd)
        if (cwd := _CWD.search(args)) is not None:
            self.cwd[pid] = _unhex(cwd[1])
        if call in ("clone", "clone3", "fork", "vfork"):
            if result > 0:
                self.ours[result] = self.ours[pid]
                self.cwd[result] = self.cwd.get(pid, self.first_cwd)
                if "CLONE_THREAD" in args:  # a thread: counted with its process
                    self.process_of[result] = self.process_of.get(pid, pid)
            return
        if call in ("execve", "execveat"):
            path = self._exec_path(pid, call, args)
            if path is not None:
                self.ours[pid] = self.ours[pid] and _real(path) in self.wrappers
                if not self.ours[pid]:
                    keep.process(self.process_of.get(pid, pid))
                    keep.seen(path if keep.root_prefix else _real(path), EXECUTED, keep.root_prefix)
                    keep.interpreter_of(path)
            else:
                self.ours[pid] = False
            return
        if self.ours[pid]:
            keep.wrapper(self.process_of.get(pid, pid))
            return
        keep.process(self.process_of.get(pid, pid))
        if call == "io_uring_setup":
            keep.problem(
                f"process {self.process_of.get(pid, pid)} set up io_uring: files it "
                "opens through it are not seen (only those it maps are)"
            )
            return
        if fd_path is None or "O_WRONLY" in args or "O_RDWR" in args or "O_DIRECTORY" in args:
            return
        keep.seen(_unhex(fd_path), OPENED, keep.root_prefix)

    def _exec_path(self, pid: int, call: str, args: str) -> str | None:
        string = _STRING.search(args)
        if string is None:
            return None
        path = _unhex(string[1])
        if call == "execveat" and (base := _FD_PATH.match(args)) is not None:
            return os.path.join(_unhex(base[1]), path) if path else _unhex(base[1])
        return path if os.path.isabs(path) else os.path.join(self.cwd.get(pid, "/"), path)


class _Keeper:
    """The filter between what was seen and what is kept (shared by log and /proc)."""

    def __init__(self, workdirs: Sequence[str], private: Sequence[str]) -> None:
        self.files: dict[str, Seen] = {}
        self.processes: set[int] = set()
        self.wrappers: set[int] = set()
        self.problems: dict[str, None] = {}
        self.workdirs = list(workdirs)
        self.private = list(private)
        # /proc/PID/root of a live process of the adapter in another mount namespace (a
        # sandbox): where the paths its trace names are read; "" when it sees our root
        self.root_prefix = ""

    def problem(self, text: str) -> None:
        self.problems[text] = None

    def process(self, pid: int) -> None:
        self.processes.add(pid)

    def wrapper(self, pid: int) -> None:
        self.wrappers.add(pid)

    def seen(self, path: str, how: str, prefix: str) -> None:
        if not os.path.isabs(path):
            return
        path = os.path.normpath(path)
        if any(path == r or path.startswith(r + "/") for r in SKIPPED_ROOTS):
            return
        if any(path == p or path.startswith(p + "/") for p in self.private):
            return  # the harness's own state, not the adapter's code
        if (
            any(path.startswith(w + "/") for w in self.workdirs)
            and how == OPENED
            and not path.endswith(CODE_SUFFIXES)
        ):
            return
        source = _PYC.match(path)
        if source is not None and os.path.isfile(prefix + f"{source[1]}/{source[2]}.py"):
            path, how = f"{source[1]}/{source[2]}.py", SOURCE
        if path in self.files:
            return
        if len(self.files) >= MAX_FILES:
            self.problem(f"more than {MAX_FILES} files were loaded: the rest is not identified")
            return
        self.files[path] = Seen(path, how, prefix + path)

    def interpreter_of(self, path: str) -> None:
        """The interpreter of an executed script (``#!``): the kernel loads it unseen."""
        try:
            with open(self.root_prefix + path, "rb") as fh:
                head = fh.read(256)
        except OSError:
            return
        if head.startswith(b"#!"):
            words = head[2:].split(b"\n", 1)[0].split()
            if words:
                self.seen(os.fsdecode(words[0]), EXECUTED, self.root_prefix)


class CodeWatch:
    """Observes the code one ``exec:`` adapter's processes run, over all its launches.

    ``logs``: the folder for the trace logs (``trace-N.txt``, N the launch number, beside
    the stderr captures); a private temporary folder when None.  ``private``: folders of
    the harness (the run folder) whose files are never the adapter's code.  ``wrappers``:
    executables of ours besides strace that wrap the command (a sandbox launcher).
    """

    def __init__(
        self, logs: Path | None = None, private: Iterable[Path] = (), wrappers: Iterable[str] = ()
    ) -> None:
        with _PROBING:
            self.method, self.why = observation_method()
        self._own: str | None = None
        if logs is None and self.method == STRACE:
            self._own = tempfile.mkdtemp(prefix="pokercert-trace-")
        self._folder = Path(self._own) if self._own else (logs.absolute() if logs else None)
        self._strace = shutil.which("strace") or "strace"
        self._wrappers = frozenset({_real(self._strace), *(_real(w) for w in wrappers)})
        self._logs: list[_LogReader] = []
        private_folders = [str(Path(p).resolve()) for p in (*private, cache_root())]
        if self._folder is not None:
            private_folders.append(str(self._folder.resolve()))
        self._keep = _Keeper([], private_folders)
        self.tracer_lost = False

    def wrap(
        self, argv: Sequence[str], number: int, cwd: str | None, ours: Sequence[str] = ()
    ) -> list[str]:
        """The command that runs ``argv`` observed (strace outside, ``argv`` inside;
        unchanged where there is no strace).  ``number``: the launch, ``cwd``: where it
        starts (the adapter's temporary working directory, whose files are its own),
        ``ours``: executables of ours that ``argv`` starts with (a sandbox launcher)."""
        here = cwd or os.getcwd()
        if cwd:
            self._keep.workdirs.append(str(Path(cwd).resolve()))
        self._wrappers |= {_real(w) for w in ours}
        if self.method != STRACE or self._folder is None:
            return list(argv)
        self._folder.mkdir(parents=True, exist_ok=True)
        log = self._folder / f"trace-{number}.txt"
        self._logs.append(_LogReader(log, here, self._wrappers))
        return [self._strace, *STRACE_OPTIONS, "-o", str(log), "--", *argv]

    def snapshot(self, root: int | None, root_is_ours: bool = True) -> Observed:
        """What the adapter's processes have opened, mapped and executed so far: the
        trace logs read to their end, and the live process tree under ``root`` (the
        keeper, ours; ``root_is_ours`` False: ``root`` is the adapter itself)."""
        keep = self._keep
        keep.root_prefix, through = "", False
        if self.method != NONE and root is not None:  # first: where a sandbox's files are
            through = self._read_tree(root, root_is_ours)
        for reader in self._logs:
            reader.feed(keep)
        files = tuple(keep.files[p] for p in sorted(keep.files))
        return Observed(
            self.method,
            self.why,
            files,
            len(keep.processes),
            len(keep.wrappers - keep.processes),
            tuple(keep.problems),
            through,
            self.tracer_lost,
        )

    def _read_tree(self, root: int, root_is_ours: bool) -> bool:
        keep = self._keep
        ours = {root} if root_is_ours else set()
        through = False
        tree = ([] if root_is_ours else [(root, 0)]) + descendants(root)
        tracers = adapters = 0
        for pid, parent in tree:
            try:
                exe = os.readlink(f"/proc/{pid}/exe")
            except OSError:
                continue  # gone, or not ours to read
            if parent in ours and _real(exe) in self._wrappers:
                ours.add(pid)
                keep.wrapper(pid)
                tracers += _real(exe) == _real(self._strace)
                continue
            adapters += 1
            keep.process(pid)
            prefix = _root_prefix(pid)
            through = through or bool(prefix)
            keep.root_prefix = keep.root_prefix or prefix
            if not exe.endswith(" (deleted)"):  # (the maps below note a deleted one)
                keep.seen(exe, EXECUTED, prefix)
            self._read_maps(pid, prefix)
        if self._logs and root_is_ours and adapters and not tracers:
            # strace -f runs as long as a process it traces does: it was killed
            self.tracer_lost = True
            keep.problem(
                "the tracer (strace) was gone while the adapter still ran: files "
                "opened after that were not seen (only mapped ones were)"
            )
        return through

    def _read_maps(self, pid: int, prefix: str) -> None:
        keep = self._keep
        try:
            with open(f"/proc/{pid}/maps", encoding="utf-8", errors="surrogateescape") as fh:
                lines = fh.read().splitlines()
        except OSError:
            return
        for line in lines:
            parts = line.split(maxsplit=5)
            if len(parts) < 6 or parts[4] == "0" or not parts[5].startswith("/"):
                continue
            path = parts[5]
            if path.endswith(" (deleted)") or path.startswith("/memfd:"):
                if "x" in parts[1]:
                    keep.problem(
                        f"process {pid} runs code mapped from {path}, which is "
                        "not a file on disk: it cannot be hashed"
                    )
                continue
            keep.seen(path, MAPPED, prefix)

    def close(self) -> None:
        """Remove the private folder of the trace logs, if one was made."""
        if self._own:
            shutil.rmtree(self._own, ignore_errors=True)
            self._own = None
