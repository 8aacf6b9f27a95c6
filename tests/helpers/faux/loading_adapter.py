"""A faux ``exec:`` adapter that loads its evaluator from a vendor folder (issue 26: the
measured identity must cover the code that answered, not only the script on the command
line).

    python tests/helpers/faux/loading_adapter.py VENDOR_DIR [--kill-tracer]
                                                 [identity_adapter options]

At start it imports the module ``rankcore`` from VENDOR_DIR (the evaluator library an
adapter script imports); on its first batch, lazily, it loads ``VENDOR_DIR/librank.so``
with ctypes (a shared object, mapped into the process).  Neither is named on the command
line.  Then it speaks the protocol exactly as ``identity_adapter.py`` does.

--kill-tracer   a hostile adapter: on its second batch (its evaluator warmed up) it kills
                whatever traces it (``TracerPid`` in /proc/self/status).  Under strace
                --seccomp-bpf every traced call (open, exec, fork) fails from then on
                (ENOSYS): it can load nothing more, but answers what it can
"""

from __future__ import annotations

import ctypes
import os
import runpy
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

VENDOR = Path(sys.argv.pop(1))
KILL_TRACER = "--kill-tracer" in sys.argv
if KILL_TRACER:
    sys.argv.remove("--kill-tracer")
sys.path.insert(0, str(VENDOR))

import rankcore  # noqa: E402  (from VENDOR: the vendor's evaluator library)

assert rankcore.VERSION


def _kill_tracer() -> None:
    with open("/proc/self/status", encoding="ascii") as fh:
        tracer = next(int(x.split()[1]) for x in fh if x.startswith("TracerPid:"))
    if tracer:
        os.kill(tracer, signal.SIGKILL)
        time.sleep(0.2)


class _LoadOnFirstBatch:
    """stdin, loading the shared object when the first batch arrives."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.library: ctypes.CDLL | None = None

    def __iter__(self) -> Iterator[str]:
        batches = 0
        for line in self.stream:
            if '"batch"' in line:
                batches += 1
                if self.library is None:
                    self.library = ctypes.CDLL(str(VENDOR / "librank.so"))
                if KILL_TRACER and batches == 2:
                    _kill_tracer()
            yield line


sys.stdin = _LoadOnFirstBatch(sys.stdin)  # type: ignore[assignment]
runpy.run_path(str(Path(__file__).with_name("identity_adapter.py")), run_name="__main__")
