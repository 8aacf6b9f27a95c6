"""The subprocess adapter: an evaluator in any language, speaking JSON Lines (PROTOCOL.md).

The child is untrusted.  Everything it does is bounded and recorded:

* every read has a deadline (the per-request timeout, and the per-run deadline);
* a reply line longer than ``max_line_bytes`` is refused (a stdout flood cannot eat memory);
* stderr is drained on a thread into ``attachments/stderr-N.txt`` (capped) so a chatty
  child never blocks, and the part written around a failure is quoted in the result;
* a batch whose process dies or times out is replayed one request at a time in a fresh
  process, so CRASH and TIMEOUT land on the one request that caused them and every
  other request of the batch still gets its own answer;
* restarts use exponential backoff and a budget; ``configure`` is replayed after each;
* memory and CPU-time limits are set with ``resource`` in the child before ``exec``
  (POSIX only);
* containment (POSIX): the child starts in a fresh temporary working directory (removed
  when it stops), under a tiny keeper process (:mod:`.supervise`) that puts it in a
  process group of its own with ``PR_SET_PDEATHSIG``, is a subreaper of everything it
  forks, reports the leader's exit (so a crash is a CRASH even while a grandchild holds
  stdout open) and, when the leader exits or the harness goes away (even ``kill -9``),
  kills the whole group and every descendant;
* sandbox (``sandbox=True``, the default of ``exec:`` specs; :mod:`.sandbox`): the
  command runs under bubblewrap, without network, with the corpus, the run folder (the
  folder holding ``attachments``) and the caches hidden and the file system read-only
  except its temporary folder; where that is impossible it runs without one, and
  :attr:`ProcessAdapter.sandbox` says which and why.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import chain
from operator import itemgetter
from pathlib import Path
from typing import Any, NamedTuple, NoReturn

try:
    import fcntl
except ImportError:  # (not on Windows)
    fcntl = None  # type: ignore[assignment]

from pokercert.harness import __version__
from pokercert.harness.adapters.base import (
    ANSWERED,
    CRASH,
    ERROR,
    REJECTED,
    TIMEOUT,
    Adapter,
    AdapterAborted,
    AdapterError,
    Classifies,
    Identity,
    PairCompares,
    Reply,
    categories_answered,
    many_reply,
    not_tied,
    one_hand,
)
from pokercert.harness.adapters.batch_line import batch_line
from pokercert.harness.adapters.reply_shapes import all_tied, categories
from pokercert.harness.adapters.sandbox import (
    BUBBLEWRAP,
    TURNED_OFF,
    SandboxRecord,
    SandboxRefused,
    hidden_paths,
    sandboxed,
    signal_of_status,
)
from pokercert.harness.adapters.trace import CodeWatch, Observed
from pokercert.harness.protocol import (
    HALF_FEATURE,
    MANY_OPS,
    PROTOCOL_VERSION,
    ProtocolError,
    check_capabilities,
    check_item,
    configure_request,
    hello_request,
    negotiated,
    parse_batch_reply,
    parse_configure_reply,
    parse_hello_reply,
    stop_request,
)

EXCERPT_CHARS = 2000
PIPELINE_DEPTH = 2  # batches in flight at once
_encode = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False).encode
STDERR_CAP_BYTES = 16 << 20
HANDSHAKE_TIMEOUT = 30.0
SUPERVISOR = Path(__file__).with_name("supervise.py")
CONTAINED = os.name == "posix"  # keeper, process group, temporary working directory


def absolute_words(argv: Sequence[str], base: Path | None = None) -> list[str]:
    """``argv`` with the words that name existing paths relative to ``base`` (default:
    the current directory) made absolute, so the command means the same thing when
    started in another working directory (the adapter's fresh one): a word with a ``/``
    naming a file or folder, or a file name with an extension (``adapter.js``)."""
    here = Path.cwd() if base is None else base
    out = []
    for word in argv:
        path = here / word if word else here
        if (
            word
            and not os.path.isabs(word)
            and not word.startswith("-")
            and ((os.sep in word and path.exists()) or ("." in word and path.is_file()))
        ):
            out.append(str((here / word).absolute()))
        else:
            out.append(word)
    return out


class _ChildFailed(Exception):
    """The child died (CRASH) or did not answer in time (TIMEOUT) during one exchange."""

    def __init__(self, status: str, message: str) -> None:
        super().__init__(message)
        self.status = status


# reads a batch's reply line (line, batch id, request ids) the quick way: what it makes of
# it, or None to read it the general way (harness/adapters/reply_shapes.py)
Shortcut = Callable[[bytes, int, range], Any]


class _Taken(NamedTuple):
    """What a batch's shortcut made of its reply line."""

    value: Any


def _no_ties(line: bytes, batch_id: int, ids: range) -> dict[int, Reply] | None:
    """:meth:`ProcessAdapter.compare_ties`'s shortcut: no reply apart, where every
    request is answered a tie (:func:`~.reply_shapes.all_tied`)."""
    return {} if all_tied(line, batch_id, ids) else None


class _Sent(NamedTuple):
    """A batch written to the child and not yet answered."""

    batch_id: int
    ids: range
    requests: Sequence[Mapping[str, Any]]
    mark: int  # stderr byte count when it was sent
    at: float  # time.monotonic() when it was sent
    fresh: bool = True  # sent to a process that had answered nothing before
    # the batch's reply read the quick way first (ProcessAdapter.compare_ties, classify_each)
    shortcut: Shortcut | None = None


class _StderrSink:
    """Drains a child's stderr on a thread: whole capture to a file, recent tail in memory."""

    def __init__(self, stream: Any, path: Path | None) -> None:
        self.total = 0
        self._tail = bytearray()
        self._lock = threading.Lock()
        self.path = path
        self._fh = path.open("wb") if path else None
        self._thread = threading.Thread(target=self._drain, args=(stream,), daemon=True)
        self._thread.start()

    def _drain(self, stream: Any) -> None:
        written = 0
        while True:
            try:
                chunk = stream.read(1 << 16)
            except (OSError, ValueError):
                break
            if not chunk:
                break
            with self._lock:
                self.total += len(chunk)
                self._tail += chunk
                if len(self._tail) > 4 * EXCERPT_CHARS:
                    del self._tail[: -2 * EXCERPT_CHARS]
            if self._fh and written < STDERR_CAP_BYTES:
                part = chunk[: STDERR_CAP_BYTES - written]
                self._fh.write(part)
                written += len(part)
                if written >= STDERR_CAP_BYTES:
                    self._fh.write(b"\n[pokercert: stderr capture truncated here]\n")
        if self._fh:
            self._fh.close()

    def since(self, mark: int) -> str:
        """What the child wrote to stderr after byte offset ``mark`` (the last part)."""
        with self._lock:
            new = min(self.total - mark, len(self._tail), EXCERPT_CHARS)
            data = bytes(self._tail[len(self._tail) - new :]) if new > 0 else b""
        return data.decode("utf-8", "replace")

    def finish(self, timeout: float = 1.0) -> None:
        self._thread.join(timeout)


def _limits(memory_mb: int | None, cpu_s: int | None) -> Callable[[], None] | None:
    """A preexec function setting the child's resource limits, or None where impossible."""
    if not (memory_mb or cpu_s) or os.name != "posix":
        return None
    import resource

    wanted: list[tuple[int, int]] = []
    if memory_mb:
        wanted.append((resource.RLIMIT_AS, memory_mb << 20))
    if cpu_s:
        wanted.append((resource.RLIMIT_CPU, cpu_s))
    settings = []
    for which, value in wanted:
        _soft, hard = resource.getrlimit(which)
        if hard != resource.RLIM_INFINITY:
            value = min(value, hard)
        # CPU: the soft limit sends SIGXCPU, the hard one a second later SIGKILL
        settings.append(
            (
                which,
                value,
                value + 1
                if which == resource.RLIMIT_CPU and hard == resource.RLIM_INFINITY
                else (hard if hard != resource.RLIM_INFINITY else value),
            )
        )

    def apply() -> None:
        for which, soft, hard in settings:
            resource.setrlimit(which, (soft, hard))

    return apply


def _one_hand_only(requests: Sequence[Mapping[str, Any]]) -> bool:
    """Whether a batch is one request about one hand (or deal): a failure of it is then
    its own, with nothing left to tell apart by replaying."""
    if len(requests) != 1:
        return False
    (req,) = requests
    return req["op"] not in MANY_OPS or len(req["hands"]) <= 1


def describe_exit(code: int | None, cpu_s: int | None = None) -> str:
    """A human description of a child's exit status."""
    if code is None:
        return "the adapter process stopped answering"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        extra = f" (CPU time limit of {cpu_s} s)" if name == "SIGXCPU" else ""
        return f"the adapter process was killed by {name}{extra}"
    return f"the adapter process exited with status {code}"


class ProcessAdapter(Adapter):
    """Runs ``argv`` as a child process and talks to it over the JSON Lines protocol."""

    def __init__(
        self,
        argv: Sequence[str],
        spec: str,
        *,
        timeout: float = 10.0,
        run_deadline: float | None = None,
        attachments: Path | None = None,
        max_restarts: int = 50,
        backoff: tuple[float, float] = (0.05, 2.0),
        max_memory_mb: int | None = None,
        max_cpu_s: int | None = None,
        max_line_bytes: int = 64 << 20,
        env: Mapping[str, str] | None = None,
        cwd: str | None = None,
        sandbox: bool = False,
        observe_code: bool = False,
    ) -> None:
        if not argv:
            raise AdapterError(f"{spec}: empty command line")
        self.argv = list(argv)
        self.spec = spec
        self.timeout = timeout
        self.run_deadline = run_deadline
        self.attachments = attachments
        self.max_restarts = max_restarts
        self.backoff = backoff
        self.max_memory_mb = max_memory_mb
        self.max_cpu_s = max_cpu_s
        self.max_line_bytes = max_line_bytes
        self.env = dict(env) if env is not None else None
        self.cwd = cwd
        self.use_sandbox = sandbox
        # what the last start ran in (run.json "sandbox"): off until a start says more
        self.sandbox: SandboxRecord = TURNED_OFF
        self.restarts = 0
        self.identity: Identity | None = None
        self.features: frozenset[str] = frozenset()  # negotiated in hello
        self._proc: subprocess.Popen[bytes] | None = None
        self._sel: selectors.BaseSelector | None = None
        self._buf = bytearray()
        self._stderr: _StderrSink | None = None
        self._starts = 0
        self._consecutive = 0
        self._config: tuple[str, dict[str, str]] | None = None
        self._next_batch = 0
        self._next_request = 0
        self._life: socket.socket | None = None  # lifeline to the keeper (supervise.py)
        self._group: int | None = None  # the adapter's process group
        self._workdir: str | None = None  # its temporary working directory
        self._leader_gone = False
        # what code the adapter's processes load, observed from outside (trace.py)
        own = (
            [attachments, attachments.parent / "results.jsonl", attachments.parent / "run.json"]
            if attachments
            else []
        )
        self._watch = CodeWatch(attachments, own) if observe_code else None

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> Identity:
        try:
            self._launch()
            return self._handshake()
        except (_ChildFailed, ProtocolError, OSError) as exc:
            detail = self._stderr_excerpt(0)
            self._kill()
            raise AdapterError(
                f"{self.spec}: the adapter failed to start: {exc}"
                + (f"\n--- adapter stderr ---\n{detail}" if detail else "")
            ) from None

    def configure(self, ruleset: str, readings: Mapping[str, str]) -> None:
        self._config = (ruleset, dict(readings))
        if self._alive():
            try:
                self._configure()
                return
            except _ChildFailed:
                self._kill()  # restarted below, within the budget, configure replayed
        self._ensure()

    def code_seen(self) -> Observed | None:
        """What the adapter's processes have opened, mapped and executed so far, over
        every launch (:meth:`~pokercert.harness.adapters.trace.CodeWatch.snapshot`);
        None unless made with ``observe_code``.  Call it before :meth:`close`."""
        if self._watch is None:
            return None
        alive = self._proc is not None and self._proc.poll() is None
        root = self._proc.pid if self._proc is not None and alive else None
        return self._watch.snapshot(root, root_is_ours=self._life is not None)

    def close(self) -> None:
        if self._watch is not None:
            self._watch.close()
        proc = self._proc
        if proc is None:
            return
        if proc.poll() is None:
            try:
                self._write(stop_request(), time.monotonic() + 1.0)
                proc.stdin.close()  # type: ignore[union-attr]
                proc.wait(timeout=2.0)
            except (OSError, _ChildFailed, subprocess.TimeoutExpired, ValueError):
                pass
        self._kill()

    @property
    def attachment(self) -> str:
        """File name of the current process's stderr capture (under attachments/)."""
        sink = self._stderr
        return sink.path.name if sink and sink.path else ""

    def _launch(self) -> None:
        self._starts += 1
        stderr_path = None
        if self.attachments is not None:
            self.attachments.mkdir(parents=True, exist_ok=True)
            stderr_path = self.attachments / f"stderr-{self._starts}.txt"
        argv, cwd = self.argv, self.cwd
        pass_fds: tuple[int, ...] = ()
        child_end = None
        if CONTAINED and cwd is None:  # a fresh working directory: the command as meant here
            argv = absolute_words(self.argv)
            cwd = self._workdir = tempfile.mkdtemp(prefix="pokercert-adapter-")
        if CONTAINED and self.use_sandbox:
            argv = self._sandboxed(argv, cwd)
        if self._watch is not None:  # the tracer outside the command and its sandbox
            argv = self._watch.wrap(
                argv, self._starts, cwd, ours=argv[:1] if self.sandbox.mode == BUBBLEWRAP else ()
            )
        if CONTAINED:
            self._life, child_end = socket.socketpair()
            pass_fds = (child_end.fileno(),)
            argv = [
                sys.executable,
                "-I",
                "-S",
                str(SUPERVISOR),
                str(child_end.fileno()),
                *(["--rmdir"] if self._workdir and self._workdir == cwd else []),
                *argv,
            ]
        try:
            self._proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
                start_new_session=os.name == "posix",
                env=self.env,
                cwd=cwd,
                pass_fds=pass_fds,
                preexec_fn=_limits(self.max_memory_mb, self.max_cpu_s),
            )
        finally:
            if child_end is not None:
                child_end.close()
        assert self._proc.stdout and self._proc.stdin and self._proc.stderr
        _open_pipes(self._proc.stdin.fileno(), self._proc.stdout.fileno())
        self._sel = selectors.DefaultSelector()
        self._sel.register(self._proc.stdout, selectors.EVENT_READ)
        self._buf = bytearray()
        self._answered = 0
        self._leader_gone = False
        self._stderr = _StderrSink(self._proc.stderr, stderr_path)
        self._group = self._proc.pid if os.name == "posix" else None
        if self._life is not None:
            self._group = self._keeper_pid()
            self._life.setblocking(False)
            self._sel.register(self._life, selectors.EVENT_READ)

    def _sandboxed(self, argv: list[str], cwd: str | None) -> list[str]:
        """The one wrapping step of the sandbox: ``argv`` as bubblewrap starts it (or
        unchanged, where it cannot), recorded in :attr:`sandbox`.  The adapter's
        temporary folder is its one writable place (made here if the caller chose its
        working directory)."""
        if self._workdir is None:
            self._workdir = tempfile.mkdtemp(prefix="pokercert-adapter-")
        run_folder = self.attachments.parent if self.attachments is not None else None
        try:
            wrapped, self.sandbox = sandboxed(argv, self._workdir, cwd, hidden_paths(run_folder))
        except SandboxRefused as exc:
            raise AdapterError(f"{self.spec}: {exc}") from None
        return wrapped

    def _keeper_pid(self) -> int | None:
        """The adapter's pid (its process group), as the keeper reports it first."""
        assert self._life is not None
        self._life.settimeout(HANDSHAKE_TIMEOUT)
        line = b""
        try:
            while not line.endswith(b"\n"):
                chunk = self._life.recv(64)
                if not chunk:
                    break
                line += chunk
        except OSError:
            pass
        parts = line.split()
        if len(parts) >= 2 and parts[0] == b"pid" and parts[1].isdigit():
            return int(parts[1])
        raise _ChildFailed(CRASH, "the adapter's keeper process did not start")

    def _handshake(self) -> Identity:
        self._write(hello_request(__version__), self._deadline(HANDSHAKE_TIMEOUT))
        line = self._readline(self._deadline(HANDSHAKE_TIMEOUT), "hello")
        msg = parse_hello_reply(line)
        self.features = negotiated(msg)
        ident = Identity(
            msg["evaluator"],
            msg["adapter"],
            check_capabilities(msg["capabilities"]),
            PROTOCOL_VERSION,
            tuple(msg.get("identity", ())),
            self.features,
        )
        if self.identity is not None and (ident.evaluator, ident.adapter) != (
            self.identity.evaluator,
            self.identity.adapter,
        ):
            raise AdapterAborted(
                f"{self.spec}: the adapter declared another identity after a "
                f"restart: {ident.evaluator} instead of "
                f"{self.identity.evaluator}"
            )
        self.identity = ident
        return ident

    def _configure(self) -> None:
        assert self._config
        ruleset, readings = self._config
        self._write(configure_request(ruleset, readings), self._deadline(self.timeout))
        try:
            parse_configure_reply(self._readline(self._deadline(self.timeout), "configure"))
        except ProtocolError as exc:
            raise AdapterError(f"configure {ruleset}: {exc}") from None

    def _alive(self) -> bool:
        return self._proc is not None and not self._leader_gone and self._proc.poll() is None

    def _ensure(self) -> None:
        """Make sure a configured child is running, restarting it within the budget."""
        while not self._alive():
            if self.restarts >= self.max_restarts:
                raise AdapterAborted(
                    f"{self.spec}: gave up after {self.restarts} restarts "
                    "(restart budget exhausted)"
                )
            self.restarts += 1
            delay = min(self.backoff[0] * 2**self._consecutive, self.backoff[1])
            self._consecutive += 1
            if self.run_deadline is not None and time.monotonic() + delay > self.run_deadline:
                raise AdapterAborted(f"{self.spec}: run timeout reached while restarting")
            self._kill()
            time.sleep(delay)
            try:
                self._launch()
                self._handshake()
            except ProtocolError as exc:
                self._kill()
                if "protocol version" in str(exc):
                    raise AdapterAborted(f"{self.spec}: {exc}") from None
                continue
            except (_ChildFailed, OSError):
                self._kill()
                continue
            if self._config:
                try:
                    self._configure()
                except AdapterError:
                    self._kill()
                    raise
                except _ChildFailed:
                    self._kill()

    def _kill(self) -> None:
        """Stop the adapter: its whole process group and (through the keeper) every
        process it started, whether or not the leader still lives; then clean up."""
        proc = self._proc
        if proc is None:
            return
        if self._life is not None:  # the keeper kills everything when its lifeline closes
            with contextlib.suppress(OSError):
                self._life.close()
        if self._group is not None:
            with contextlib.suppress(OSError):
                os.killpg(self._group, signal.SIGKILL)
        if proc.poll() is None and self._life is None:
            try:
                if os.name == "posix":
                    os.killpg(proc.pid, signal.SIGKILL)
                else:
                    proc.kill()
            except (ProcessLookupError, PermissionError):
                pass
        try:
            proc.wait(timeout=5.0)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(OSError):
                proc.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=5.0)
        self._life = None
        self._group = None
        if self._stderr:
            self._stderr.finish()
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            try:
                if stream:
                    stream.close()
            except OSError:
                pass
        if self._sel:
            self._sel.close()
            self._sel = None
        if self._workdir is not None:
            shutil.rmtree(self._workdir, ignore_errors=True)
            self._workdir = None

    # ------------------------------------------------------------------ I/O
    def _deadline(self, seconds: float) -> float:
        deadline = time.monotonic() + seconds
        return min(deadline, self.run_deadline) if self.run_deadline is not None else deadline

    def _run_expired(self) -> bool:
        return self.run_deadline is not None and time.monotonic() >= self.run_deadline

    def _write(self, message: Mapping[str, Any] | bytes, deadline: float) -> None:
        """Send one message (or its line, made by :func:`.batch_line.batch_line`); while
        the pipe is full, keep reading the child's stdout so a child blocked on writing
        its replies cannot deadlock us."""
        assert self._proc and self._proc.stdin and self._proc.stdout
        line = message if isinstance(message, bytes) else (_encode(message) + "\n").encode()
        data = memoryview(line)
        fd = self._proc.stdin.fileno()
        out_fd = self._proc.stdout.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_WRITE)
            sel.register(out_fd, selectors.EVENT_READ)
            if self._life is not None and not self._leader_gone:
                sel.register(self._life, selectors.EVENT_READ)
            while data:
                try:
                    n = os.write(fd, data)
                    data = data[n:]
                    continue
                except BlockingIOError:
                    pass
                except (BrokenPipeError, ConnectionResetError):
                    raise _ChildFailed(CRASH, self._exit_message()) from None
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise _ChildFailed(TIMEOUT, "the adapter stopped reading its input")
                for key, _ in sel.select(remaining):
                    if key.fileobj is self._life:  # the leader exited
                        raise _ChildFailed(CRASH, self._exit_message(wait=True))
                    if key.fd == out_fd and len(self._buf) <= self.max_line_bytes:
                        try:
                            chunk = os.read(out_fd, 1 << 20)
                        except BlockingIOError:
                            continue
                        if not chunk:
                            raise _ChildFailed(CRASH, self._exit_message(wait=True))
                        self._buf += chunk

    def _readline(self, deadline: float, waiting_for: str) -> bytes:
        if self._proc is None or self._sel is None or self._proc.stdout is None:
            raise _ChildFailed(CRASH, "the adapter process was stopped")
        fd = self._proc.stdout.fileno()
        scanned = 0
        while True:
            nl = self._buf.find(b"\n", scanned)
            if nl >= 0:
                line = bytes(self._buf[: nl + 1])
                del self._buf[: nl + 1]
                return line
            scanned = len(self._buf)
            if scanned > self.max_line_bytes:
                self._kill()
                raise ProtocolError(
                    f"reply line longer than {self.max_line_bytes} bytes "
                    f"while waiting for the {waiting_for} reply"
                )
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise _ChildFailed(TIMEOUT, f"no {waiting_for} reply within the time allowed")
            events = self._sel.select(remaining)
            if not events:
                continue
            if self._life is not None and any(key.fileobj is self._life for key, _ in events):
                # the leader exited: take what it wrote before, then it is a CRASH (even
                # if a grandchild still holds stdout open, so no EOF would ever come)
                self._leader_gone = True
                self._sel.unregister(self._life)
                self._drain_stdout(fd)
                if self._buf.find(b"\n", scanned) >= 0:
                    continue
                raise _ChildFailed(
                    CRASH,
                    self._exit_message(wait=True)
                    + f" while the harness waited for the {waiting_for} reply",
                )
            try:
                chunk = os.read(fd, 1 << 20)
            except BlockingIOError:
                continue
            if not chunk:
                raise _ChildFailed(
                    CRASH,
                    self._exit_message(wait=True)
                    + f" while the harness waited for the {waiting_for} reply",
                )
            self._buf += chunk

    def _drain_stdout(self, fd: int) -> None:
        """Read whatever the child's stdout holds now, without waiting."""
        while len(self._buf) <= self.max_line_bytes:
            try:
                chunk = os.read(fd, 1 << 20)
            except (BlockingIOError, OSError):
                return
            if not chunk:
                return
            self._buf += chunk

    def _exit_message(self, wait: bool = False) -> str:
        proc = self._proc
        code = None
        if proc is not None:
            try:
                code = proc.wait(timeout=2.0) if wait else proc.poll()
            except subprocess.TimeoutExpired:
                code = None
        if code is None:
            return "the adapter closed its output"
        if self.sandbox.mode == BUBBLEWRAP:
            code = signal_of_status(code)
        return describe_exit(code, self.max_cpu_s)

    def _stderr_excerpt(self, mark: int) -> str:
        if self._stderr is None:
            return ""
        if not self._alive():
            self._stderr.finish(0.5)  # let the drain thread read what the child left
        return self._stderr.since(mark)

    # ------------------------------------------------------------------ requests
    def supports(self, op: str) -> bool:
        if op in MANY_OPS or op == HALF_FEATURE:
            return op in self.features
        if op == "evaluate":
            return "evaluate_many" in self.features
        return super().supports(op)

    def run_batch(self, requests: Sequence[Mapping[str, Any]]) -> list[Reply]:
        return next(self.run_batches([requests]))

    def compare_ties(self, pairs: PairCompares) -> dict[int, Reply]:
        """:meth:`Adapter.compare_ties`: a reply line answering every request a tie is
        taken as it is decoded (:func:`~.reply_shapes.all_tied`), with no reply object a
        request; any other line is read as :meth:`run_batch` reads it."""
        got = next(self._pipeline([pairs], _no_ties))
        return got.value if isinstance(got, _Taken) else not_tied(got)

    def classify_each(self, batch: Classifies) -> list[Any]:
        """:meth:`Adapter.classify_each`: a reply line answering every request with a
        category is taken as it is decoded (:func:`~.reply_shapes.categories`); any
        other line is read as :meth:`run_batch` reads it."""
        got = next(self._pipeline([batch], categories))
        if isinstance(got, _Taken):
            return got.value  # type: ignore[no-any-return]
        return categories_answered(got)

    def run_batches(self, batches: Iterable[Sequence[Mapping[str, Any]]]) -> Iterator[list[Reply]]:
        """Up to PIPELINE_DEPTH batches in flight; replies are matched in order.

        If the child dies or times out, every batch still in flight is replayed one
        request at a time (in a fresh process), so the failure lands on its culprit.
        """
        for replies in self._pipeline(batches, None):
            assert not isinstance(replies, _Taken)  # (only a batch with a shortcut is)
            yield replies

    def _pipeline(
        self, batches: Iterable[Sequence[Mapping[str, Any]]], shortcut: Shortcut | None
    ) -> Iterator[list[Reply] | _Taken]:
        """:meth:`run_batches`; with a ``shortcut``, a batch whose reply line it takes
        (:meth:`_receive`) is answered what it made of the line."""
        pending: deque[_Sent] = deque()
        source = iter(batches)
        exhausted = False
        unsent: _ChildFailed | None = None
        while True:
            while not exhausted and len(pending) < PIPELINE_DEPTH:
                if pending and not self._alive():
                    break  # it died with batches in flight: those are collected first
                requests = next(source, None)
                if requests is None:
                    exhausted = True
                    break
                if not requests:
                    yield []
                    continue
                try:
                    pending.append(self._send(requests, not pending, shortcut))
                except _ChildFailed as failed:
                    unsent = failed
                    pending.append(
                        _Sent(
                            -1,
                            range(0),
                            requests,
                            self._mark,
                            time.monotonic(),
                            self._answered == 0,
                        )
                    )
                    break
            if not pending:
                return
            sent = pending.popleft()
            if sent.batch_id < 0:  # could not even be sent
                assert unsent is not None
                if not pending and _one_hand_only(sent.requests):
                    yield self._alone(unsent, sent)
                    continue
                pending.appendleft(sent)
                yield from self._replay(pending)
                continue
            try:
                yield self._receive(sent)
            except _ChildFailed as failed:
                pending.appendleft(sent)
                if len(pending) == 1 and _one_hand_only(sent.requests):
                    pending.clear()
                    yield self._alone(failed, sent)
                else:
                    yield from self._replay(pending)

    def _alone(self, failed: _ChildFailed, sent: _Sent) -> list[Reply]:
        """A single request failed.  It is the culprit only if it fails as the first
        request of a fresh process; otherwise it is tried once more in one."""
        if sent.fresh:
            return [self._failed_reply(failed, sent)]
        self._kill()
        return self.run_batch(sent.requests)

    def _replay(self, pending: deque[_Sent]) -> Iterator[list[Reply]]:
        self._kill()
        batches = [s.requests for s in pending]
        pending.clear()
        for requests in batches:
            out = []
            for req in requests:
                if req["op"] in MANY_OPS and len(req["hands"]) > 1:
                    out.append(self._replay_hands(req))
                else:
                    out.extend(self.run_batch([req]))
            yield out

    def _replay_hands(self, request: Mapping[str, Any]) -> Reply:
        """A many-hands request replayed hand by hand, each as a request of its own, so
        that a crash or a timeout lands on the one hand that caused it: the answers are
        put together again, the failure in the place of its hand."""
        op, hands = request["op"], request["hands"]
        categories: list[Any] = []
        keys: list[Any] = []
        for hand in hands:
            (reply,) = self.run_batch([{"op": op, "hands": [hand]}])
            category, key = one_hand(reply)
            categories.append(category)
            keys.append(key)
        data = (
            {"categories": categories, "keys": keys}
            if op == "evaluate_many"
            else {"categories": categories}
        )
        return Reply(ANSWERED, data)

    def _failed_reply(self, failed: _ChildFailed, sent: _Sent) -> Reply:
        return Reply(
            failed.status,
            message=str(failed),
            stderr=self._stderr_excerpt(sent.mark),
            attachment=self.attachment,
            duration_s=time.monotonic() - sent.at,
        )

    def _send(
        self,
        requests: Sequence[Mapping[str, Any]],
        restart: bool = True,
        shortcut: Shortcut | None = None,
    ) -> _Sent:
        """Write one batch.  With ``restart`` False (other batches are in flight to this
        process), a dead child is a failure, not a reason to start another: the batches
        in flight would otherwise be waited for from a process that never saw them.
        ``shortcut``: how its reply line is read first (:meth:`_receive`)."""
        if not restart and not self._alive():
            raise _ChildFailed(CRASH, self._exit_message())
        self._ensure()
        assert self._stderr
        bid = self._next_batch
        self._next_batch += 1
        first = self._next_request
        self._next_request += len(requests)
        ids = range(first, first + len(requests))
        sent = _Sent(
            bid,
            ids,
            requests,
            self._stderr.total,
            time.monotonic(),
            self._answered == 0,
            shortcut,
        )
        self._mark = sent.mark
        try:
            self._write(batch_line(bid, ids, requests), self._deadline(self.timeout))
        except _ChildFailed as failed:
            self._fail(failed)
        return sent

    def _receive(self, sent: _Sent) -> list[Reply] | _Taken:
        """The replies to a batch sent; or what the batch's shortcut made of its reply
        line, where it took the line (nothing else to read in it)."""
        self._mark = sent.mark
        waited = time.monotonic()
        deadline = self._deadline(self.timeout)
        try:
            while True:
                line = self._readline(deadline, f"batch {sent.batch_id}")
                shortcut, taken = sent.shortcut, None
                if shortcut is not None:
                    taken = shortcut(line, sent.batch_id, sent.ids)
                if taken is not None:
                    self._consecutive = 0
                    self._answered += 1
                    return _Taken(taken)
                replies = parse_batch_reply(line, sent.batch_id)
                if replies is not None:
                    break
        except ProtocolError as exc:
            return self._all(sent.requests, ERROR, str(exc))
        except _ChildFailed as failed:
            self._fail(failed)
        self._consecutive = 0
        self._answered += 1
        duration = (time.monotonic() - max(sent.at, waited)) / len(sent.requests)
        return self._match(sent.requests, sent.ids, replies, duration)

    def _fail(self, failed: _ChildFailed) -> NoReturn:
        if self._run_expired():
            self._kill()
            raise AdapterAborted(f"{self.spec}: run timeout reached") from None
        if failed.status == TIMEOUT:
            self._kill()
            raise _ChildFailed(
                TIMEOUT, f"no answer within {self.timeout} s (the adapter process was killed)"
            ) from None
        raise failed

    def _all(self, requests: Sequence[Any], status: str, message: str) -> list[Reply]:
        excerpt = self._stderr_excerpt(self._mark)
        return [
            Reply(status, message=message, stderr=excerpt, attachment=self.attachment)
            for _ in requests
        ]

    def _match(
        self, requests: Sequence[Mapping[str, Any]], ids: range, replies: list[Any], duration: float
    ) -> list[Reply]:
        if len(replies) == len(requests):
            if _plain_answers(requests, ids, replies):
                make = tuple.__new__
                return [make(Reply, (ANSWERED, item, "", "", "", duration)) for item in replies]
            fast = self._match_in_order(requests, ids, replies, duration)
            if fast is not None:
                return fast
        by_id: dict[int, Any] = {}
        twice: set[int] = set()
        stray: list[Any] = []
        for item in replies:
            rid = item.get("id") if isinstance(item, dict) else None
            if not isinstance(rid, int) or isinstance(rid, bool) or rid not in ids:
                stray.append(rid)
            elif rid in by_id:
                twice.add(rid)
            else:
                by_id[rid] = item
        note = f" (reply items with unexpected ids: {stray[:10]!r})" if stray else ""
        out: list[Reply] = []
        for rid, req in zip(ids, requests, strict=True):
            item = by_id.get(rid)
            if item is None:
                out.append(self._bad(f"the batch reply has no item for request {rid}{note}"))
            elif rid in twice:
                out.append(self._bad(f"the batch reply answers request {rid} more than once"))
            else:
                out.append(self._item(req, rid, item, duration))
        return out

    def _match_in_order(
        self, requests: Sequence[Mapping[str, Any]], ids: range, replies: list[Any], duration: float
    ) -> list[Reply] | None:
        """The common case, checked cheaply: every item present, in request order.

        A well-formed classify or compare answer (its id and the answer, nothing else) is
        taken on the spot (this loop runs once per hand on the exhaustive path: compare,
        without keys); anything else goes through the full check.
        """
        out: list[Reply] = []
        append = out.append
        make = tuple.__new__
        for rid, req, item in zip(ids, requests, replies, strict=True):
            if type(item) is not dict:
                return None
            iid = item.get("id")
            if iid != rid or type(iid) is not int:
                return None
            op = req["op"]
            if len(item) == 2 and (
                type(item.get("category")) is str
                if op == "classify"
                else op == "compare" and _winners_listed(item.get("winners"))
            ):
                append(make(Reply, (ANSWERED, item, "", "", "", duration)))
            else:
                append(self._item(req, rid, item, duration))
        return out

    def _item(
        self, req: Mapping[str, Any], rid: int, item: dict[str, Any], duration: float
    ) -> Reply:
        if req["op"] in MANY_OPS:
            return many_reply(
                req["op"],
                item,
                len(req["hands"]),
                duration,
                lambda problem: self._bad(f"request {rid}: {problem}"),
            )
        problem = check_item(req["op"], item)
        if problem:
            return self._bad(f"request {rid}: {problem}")
        if "error" in item:
            return self._bad(f"the adapter reported an error: {item['error']}"[:500])
        if "rejected" in item:
            return Reply(REJECTED, item, str(item.get("message", ""))[:500], duration_s=duration)
        return Reply(ANSWERED, item, duration_s=duration)

    def _bad(self, message: str) -> Reply:
        return Reply(
            ERROR,
            message=message,
            stderr=self._stderr_excerpt(self._mark),
            attachment=self.attachment,
        )

    _mark = 0
    _answered = 0


# a batch line of the exhaustive pass is a few hundred kilobytes: in a pipe of the default
# 64 KiB it is written in several turns, each a wait for the child to read (Linux lets an
# unprivileged process raise a pipe to /proc/sys/fs/pipe-max-size, 1 MiB by default)
_PIPE_BYTES = 1 << 20


def _open_pipes(*fds: int) -> None:
    """Make the child's pipes non-blocking and raise their capacity to
    :data:`_PIPE_BYTES` where the platform allows (Linux; elsewhere, or over the limit,
    they keep theirs)."""
    setting = getattr(fcntl, "F_SETPIPE_SZ", None) if fcntl is not None else None
    for fd in fds:
        os.set_blocking(fd, False)
        if setting is not None:
            with contextlib.suppress(OSError):
                fcntl.fcntl(fd, setting, _PIPE_BYTES)


_INT = {int}
_DICT, _LIST, _STR, _TWO = {dict}, {list}, {str}, {2}
_COMPARE, _CLASSIFY = {"compare"}, {"classify"}
_id, _op, _winners, _category = (itemgetter(k) for k in ("id", "op", "winners", "category"))


def _plain_answers(requests: Sequence[Mapping[str, Any]], ids: range, replies: list[Any]) -> bool:
    """Whether a batch of compares (or of classifies) is answered, item for item in
    request order, by items holding their id and the answer (a list of integers as
    ``winners``; a string as ``category``) and nothing else: what
    :meth:`ProcessAdapter._match_in_order` takes on the spot, checked for the whole batch
    at once (loops in C: the exhaustive pass's batches of one request a hand)."""
    try:
        if set(map(type, replies)) != _DICT or set(map(len, replies)) != _TWO:
            return False
        got = list(map(_id, replies))
        if set(map(type, got)) != _INT or got != list(ids):
            return False
        ops = _COMPARE if type(requests) is PairCompares else set(map(_op, requests))
        if ops == _COMPARE:
            winners = list(map(_winners, replies))
            return (
                set(map(type, winners)) == _LIST
                and set(map(type, chain.from_iterable(winners))) <= _INT
            )
        return ops == _CLASSIFY and set(map(type, map(_category, replies))) == _STR
    except (KeyError, TypeError):
        return False


def _winners_listed(winners: Any) -> bool:
    """Whether a compare answer's ``winners`` is a list of integers (as
    :func:`~pokercert.harness.protocol.check_item` requires; no bools)."""
    # (all() over a generator: 3x slower)
    return type(winners) is list and set(map(type, winners)) <= _INT
