"""An in-process evaluator that leaves traces of how its process ends.

    py:tests.helpers.faux.exit_watch:ExitWatch       (run with --in-process)

The textbook evaluator (``tests/helpers/textbook_eval.py``) answering as it does.  When
``POKERCERT_TEST_EXIT_WATCH`` names a folder, importing this module there

* registers an ``atexit`` hook that writes ``atexit.txt`` (as the reference's value cache
  writes its memo at exit), saying whether the cyclic garbage collector is on,
* opens ``unclosed.txt`` and writes a line it never flushes or closes (it stays in the
  file object's buffer until someone flushes it),
* keeps an object whose finalizer writes ``teardown.txt`` when the interpreter tears the
  module down (and only then).

A test reads the folder to see which of these happened.
"""

from __future__ import annotations

import atexit
import gc
import os
from pathlib import Path

from pokercert.harness.api import EvaluatorInfo
from tests.helpers.textbook_eval import TextbookHigh

WATCH = os.environ.get("POKERCERT_TEST_EXIT_WATCH", "")


class _Teardown:
    """Writes ``teardown.txt`` when it is finalized (the interpreter's teardown)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def __del__(self) -> None:
        (self.folder / "teardown.txt").write_text("finalized\n", encoding="utf-8")


if WATCH:
    _folder = Path(WATCH)
    atexit.register(
        lambda: (_folder / "atexit.txt").write_text(
            f"ran, collector {'on' if gc.isenabled() else 'off'}\n", encoding="utf-8"
        )
    )
    _UNCLOSED = (_folder / "unclosed.txt").open("w", encoding="utf-8")
    _UNCLOSED.write("written, never flushed nor closed\n")
    _TORN = _Teardown(_folder)


class ExitWatch(TextbookHigh):
    """TextbookHigh under another name."""

    info = EvaluatorInfo(vendor="tests", name="exit-watch", version="1")
