"""The progress display of long commands (``run``, ``fuzz``, ``exhaustive``,
``selfcheck``): a rich progress bar on a terminal.

A bar made early follows a later redirection of ``sys.stderr`` (pytest's capture, a
CLI wrapper): rich's console writes to whatever ``sys.stderr`` is when it draws.
Output that is not a terminal (CI logs, pipes) gets no bar and no stray newline; a
command whose run may be long (``exhaustive``, the attached modes of ``run``) asks for
plain lines there instead (``plain_every``, :data:`PLAIN_EVERY`): one when a phase starts,
then one every few seconds, and the last.  A one-step phase (its total is 1: the
exhaustive pass's reference classes) is a line as it starts and one saying what it made
and how long it took, never a bar or "0/1".
"""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from rich.progress import Progress as _RichProgress
    from rich.progress import ProgressColumn

# seconds between two plain progress lines (output that is not a terminal)
PLAIN_EVERY = 5.0


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

    def __init__(
        self,
        stream: TextIO | None = None,
        min_interval: float = 0.1,
        unit: str = "vectors/s",
        *,
        plain_every: float | None = None,
        label: str = "",
    ) -> None:
        self._stream = stream
        self.min_interval = min_interval
        self.unit = unit
        self.plain_every = plain_every
        self.label = label
        self._last = 0.0
        self._bar: _RichProgress | None = None
        self._phase = ""
        self._phase_at = (0.0, 0)  # when the phase started, and its count then
        self._plain_last = -1.0
        self._unit_now: str | None = unit
        self._step_at: float | None = None  # when the one-step phase under way started

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

    def phase(self, name: str, done: int, total: int, unit: str | None = None) -> None:
        """Progress of a named phase (the bar's description; a plain line's first word),
        counted in ``unit`` (a rate is shown only with one).  A phase whose total is 1 is
        one step (:meth:`_step`): a line as it starts and one when it is done, no bar."""
        self._unit_now = unit
        if name != self._phase:
            self._phase, self._phase_at, self._plain_last = name, (time.monotonic(), done), -1
            if self._bar is not None:  # a new phase: its own bar, from zero
                self._bar.stop()
                self._bar = None
        if total == 1:
            self._step(name, done)
            return
        if not self.enabled:
            self._plain(done, total)
            return
        self._draw(done, total)

    def _step(self, name: str, done: int) -> None:
        """A one-step phase: ``name ...`` as it starts, ``name (0.4 s)`` once done (its
        time from the last step's start; the name may say what the step made).  Shown
        on a terminal, and off one where plain lines are asked for."""
        if not self.enabled and self.plain_every is None:
            return
        now = time.monotonic()
        if not done:
            self._step_at = now
            line = f"{name} ..."
        elif self._step_at is None:
            line = name
        else:
            line, self._step_at = f"{name} ({now - self._step_at:.1f} s)", None
        print(f"{self.label}{line}", file=self.stream, flush=True)

    def _plain(self, done: int, total: int) -> None:
        """A plain line (not a terminal, ``plain_every`` set): a phase's first, one every
        ``plain_every`` seconds, its last."""
        now = time.monotonic()
        if self.plain_every is None or (
            self._plain_last >= 0 and done < total and now - self._plain_last < self.plain_every
        ):
            return
        self._plain_last = now
        since, first = self._phase_at
        rate = (done - first) / (now - since) if now > since and done > first else 0.0
        share = f" ({100 * done // total}%)" if total else ""
        speed = f", {rate:,.0f} {self._unit_now}" if self._unit_now and rate else ""
        print(
            f"{self.label}{self._phase}: {done:,}/{total:,}{share}{speed}",
            file=self.stream,
            flush=True,
        )

    def __call__(self, done: int, total: int) -> None:
        self.phase(self._phase, done, total, self.unit)

    def _draw(self, done: int, total: int) -> None:
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
                TextColumn,
                TimeRemainingColumn,
            )
            from rich.progress import Progress as _RichProgress

            console = Console(file=self._stream, stderr=self._stream is None, highlight=False)
            self._bar = _RichProgress(
                *([TextColumn(self._phase)] if self._phase else []),
                BarColumn(),
                MofNCompleteColumn(),
                TaskProgressColumn(),
                *([_rate_column(self._unit_now)] if self._unit_now else []),
                TimeRemainingColumn(),
                console=console,
                auto_refresh=False,
                redirect_stdout=False,
                redirect_stderr=False,
            )
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
