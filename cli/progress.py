"""The progress display of long commands (``run``, ``fuzz``, ``exhaustive``,
``selfcheck``): a rich progress bar on a terminal, nothing at all otherwise.

A bar made early follows a later redirection of ``sys.stderr`` (pytest's capture, a
CLI wrapper): rich's console writes to whatever ``sys.stderr`` is when it draws.
Output that is not a terminal (CI logs, pipes) gets no bar and no stray newline.
"""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from rich.progress import Progress as _RichProgress
    from rich.progress import ProgressColumn


def _rate_column(unit: str) -> ProgressColumn:
    """A rich column: items per second, in the caller's unit.  (rich is imported here,
    when a bar is first drawn on a terminal: a run whose output is not a terminal, such
    as every CI log, never imports it.)"""
    from rich.progress import ProgressColumn, Task
    from rich.text import Text

    class _Rate(ProgressColumn):
        def render(self, task: Task) -> Text:
            return Text(f"{task.speed or 0:,.0f} {unit}")

    return _Rate()


class Progress:
    """``progress(done, total)`` draws the bar; ``close()`` ends it.

    ``stream`` defaults to whatever ``sys.stderr`` is at each draw.  ``unit`` names what
    is counted per second (``"vectors/s"``, ``"hands/s"``); redraws are at most every
    ``min_interval`` seconds, but the last one (``done == total``) is always drawn.
    """

    def __init__(self, stream: TextIO | None = None, min_interval: float = 0.1,
                 unit: str = "vectors/s") -> None:
        self._stream = stream
        self.min_interval = min_interval
        self.unit = unit
        self._last = 0.0
        self._bar: _RichProgress | None = None

    @property
    def stream(self) -> TextIO:
        """Where the bar goes now."""
        return self._stream if self._stream is not None else sys.stderr

    @property
    def enabled(self) -> bool:
        """Whether the bar is drawn: only on a terminal."""
        try:
            return self.stream.isatty()
        except (AttributeError, ValueError):  # no isatty, or closed
            return False

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if self._bar is not None and done < total and now - self._last < self.min_interval:
            return
        self._last = now
        if self._bar is None:
            if not self.enabled:
                return
            # made on the first draw, when the stream is known to be a terminal (rich
            # decides once, when the console is made, whether it may redraw in place)
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                TaskProgressColumn,
                TimeRemainingColumn,
            )
            from rich.progress import Progress as _RichProgress

            console = Console(file=self._stream, stderr=self._stream is None,
                              highlight=False)
            self._bar = _RichProgress(
                BarColumn(), MofNCompleteColumn(), TaskProgressColumn(),
                _rate_column(self.unit),
                TimeRemainingColumn(), console=console, auto_refresh=False,
                redirect_stdout=False, redirect_stderr=False)
            self._bar.add_task("", total=total, completed=done)
            self._bar.start()
        task = self._bar.task_ids[0]
        self._bar.update(task, total=total, completed=done)
        self._bar.refresh()

    def close(self) -> None:
        """End the bar's line (nothing if no bar was drawn)."""
        if self._bar is not None:
            self._bar.stop()
            self._bar = None
