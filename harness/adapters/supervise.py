"""The keeper of one ``exec:`` adapter process: it dies with the harness, and takes the
adapter and everything the adapter started with it.

    python -I -S supervise.py LIFELINE_FD [--rmdir] COMMAND [ARG ...]

The harness starts this script (not the adapter) with the adapter's pipes as its
stdin/stdout/stderr and one end of a socket pair as ``LIFELINE_FD``.  It:

* becomes a child subreaper (Linux ``PR_SET_CHILD_SUBREAPER``): whatever the adapter
  forks, even a daemon that detached with ``setsid``, stays its descendant;
* forks the adapter into a process group of its own, with ``PR_SET_PDEATHSIG`` =
  SIGKILL (Linux), hands it the pipes and closes its own copies (so an adapter that dies
  gives the harness EOF unless a grandchild holds the pipe);
* writes the adapter's pid on the lifeline, then waits for one of two things:
  the adapter leader exits (then it reports ``exit STATUS`` on the lifeline), or the
  lifeline closes (the harness closed it, or died, even by ``kill -9``);
* either way kills the adapter's whole process group and every remaining descendant
  (SIGKILL, until none is left) and exits with the adapter's status (re-raising its
  signal), so the harness's ``wait()`` sees what the adapter did;
* with ``--rmdir``, removes its working directory (the adapter's temporary one) last,
  so it goes even when the harness was killed.

Standard library only and no ``site`` (``-I -S``): it starts in about 15 ms.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import sys
import time

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36


def _prctl(option: int, value: int) -> bool:
    """``prctl(option, value)`` on Linux; False where there is no such call."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        status: int = libc.prctl(option, value, 0, 0, 0)  # ctypes' default restype: C int
        return status == 0
    except (OSError, AttributeError):
        return False


def _children() -> list[int]:
    """Pids of this process's children (Linux /proc; empty elsewhere)."""
    me = os.getpid()
    found: list[int] = []
    try:
        names = os.listdir("/proc")
    except OSError:
        return found
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as fh:
                stat = fh.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2 :].split()
        if len(fields) > 1 and int(fields[1]) == me:
            found.append(int(name))
    return found


def _kill_all(group: int, leader: int, status: int | None) -> int | None:
    """SIGKILL the adapter's process group and every descendant, reaping them, until
    this process has no child left (orphans re-parent to us, the subreaper).  Returns
    the leader's wait status (``status`` if it was reaped before)."""
    while True:
        with contextlib.suppress(OSError):
            os.killpg(group, signal.SIGKILL)
        for pid in _children():
            with contextlib.suppress(OSError):
                os.killpg(os.getpgid(pid), signal.SIGKILL)
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        try:
            while True:
                done, code = os.waitpid(-1, os.WNOHANG)
                if done == 0:
                    break
                if done == leader:
                    status = code
        except ChildProcessError:
            return status
        time.sleep(0.002)


def _remove(workdir: str | None) -> None:
    """Remove the adapter's temporary working directory (the harness may be gone)."""
    if workdir:
        import shutil

        os.chdir("/")
        shutil.rmtree(workdir, ignore_errors=True)


def _exit_like(status: int) -> None:
    """Exit as the adapter did: with its code, or killed by its signal."""
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        with contextlib.suppress(OSError, ValueError):
            signal.signal(sig, signal.SIG_DFL)
        os.kill(os.getpid(), sig)
        os._exit(128 + sig)
    os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1)


def _become_adapter(command: list[str], keeper: int, keepers_fds: tuple[int, ...]) -> None:
    """In the forked child: a process group of its own, killed when the keeper dies,
    the keeper's descriptors closed, then exec the adapter (never returns)."""
    try:
        os.setpgid(0, 0)
        _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != keeper:  # the keeper died before prctl took effect
            os._exit(1)
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        for fd in keepers_fds:
            os.close(fd)
        os.execvp(command[0], command)
    except OSError as exc:
        os.write(2, f"pokercert: cannot run {command[0]!r}: {exc.strerror}\n".encode())
    os._exit(127)


def _watch(pid: int, life: int, wake_r: int, workdir: str | None) -> int:
    """Wait for the adapter (the leader ``pid``) to exit, reaping orphans that
    re-parent to us on the way; its wait status.  If the harness closes the lifeline
    (or dies) first, kill every process of the adapter and exit as it did."""
    poll = select.poll()  # (not selectors: every import counts at start-up)
    poll.register(life, select.POLLIN)
    poll.register(wake_r, select.POLLIN)
    status: int | None = None
    while status is None:
        for fd, _ in poll.poll():
            if fd == wake_r:
                with contextlib.suppress(BlockingIOError):
                    os.read(wake_r, 4096)
                status = _reap(pid, status)
            else:
                try:
                    data = os.read(life, 4096)
                except OSError:
                    data = b""
                if not data:  # the harness closed the lifeline, or died
                    final = _kill_all(pid, pid, status)
                    _remove(workdir)
                    _exit_like(int(signal.SIGKILL) if final is None else final)
    return status


def _reap(pid: int, status: int | None) -> int | None:
    """Reap every child that has exited: the leader ``pid`` (its wait status is
    returned), or orphans that re-parented to us (``status`` is returned unchanged)."""
    while True:
        try:
            done, code = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            break
        if done == 0:
            break
        if done == pid:
            status = code
    return status


def main(argv: list[str]) -> None:
    if len(argv) < 2:
        os.write(2, b"supervise: usage: supervise.py LIFELINE_FD [--rmdir] COMMAND [ARG ...]\n")
        os._exit(3)
    life = int(argv[0])
    command = argv[1:]
    workdir = None
    if command and command[0] == "--rmdir":  # the harness's temporary working directory
        workdir = os.getcwd()
        command = command[1:]
    subreaper = _prctl(PR_SET_CHILD_SUBREAPER, 1)
    me = os.getpid()
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    signal.set_wakeup_fd(wake_w, warn_on_full_buffer=False)
    pid = os.fork()
    if pid == 0:  # the adapter
        _become_adapter(command, me, (life, wake_r, wake_w))
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)
    os.write(life, f"pid {pid} {int(subreaper)}\n".encode())
    status = _kill_all(pid, pid, _watch(pid, life, wake_r, workdir))
    assert status is not None
    _remove(workdir)
    with contextlib.suppress(OSError):
        os.write(life, f"exit {status}\n".encode())
    _exit_like(status)


if __name__ == "__main__":
    main(sys.argv[1:])
