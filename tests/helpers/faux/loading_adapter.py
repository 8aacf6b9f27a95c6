"""A faux ``exec:`` adapter that loads its evaluator from a vendor folder (issue 26: the
measured identity must cover the code that answered, not only the script on the command
line).

    python tests/helpers/faux/loading_adapter.py VENDOR_DIR [identity_adapter options]

At start it imports the module ``rankcore`` from VENDOR_DIR (the evaluator library an
adapter script imports); on its first batch, lazily, it loads ``VENDOR_DIR/librank.so``
with ctypes (a shared object, mapped into the process).  Neither is named on the command
line.  Then it speaks the protocol exactly as ``identity_adapter.py`` does.
"""

from __future__ import annotations

import ctypes
import runpy
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

VENDOR = Path(sys.argv.pop(1))
sys.path.insert(0, str(VENDOR))

import rankcore  # noqa: E402  (from VENDOR: the vendor's evaluator library)

assert rankcore.VERSION


class _LoadOnFirstBatch:
    """stdin, loading the shared object when the first batch arrives."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.library: ctypes.CDLL | None = None

    def __iter__(self) -> Iterator[str]:
        for line in self.stream:
            if self.library is None and '"batch"' in line:
                self.library = ctypes.CDLL(str(VENDOR / "librank.so"))
            yield line


sys.stdin = _LoadOnFirstBatch(sys.stdin)  # type: ignore[assignment]
runpy.run_path(str(Path(__file__).with_name("identity_adapter.py")), run_name="__main__")
