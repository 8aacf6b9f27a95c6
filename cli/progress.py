"""The progress display of long commands (``run``, ``fuzz``, ``exhaustive``,
``selfcheck``)."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """A one-line progress bar on a terminal; silent when the stream is not a tty.

    ``stream`` defaults to whatever ``sys.stderr`` is when the bar is drawn (not when it
    is made), so a bar made early follows a later redirection (pytest's capture, a CLI
    wrapper).  ``unit`` names what is counted per second: ``"vectors/s"``, ``"hands/s"``.
    """

    def __init__(self, stream: TextIO | None = None, min_interval: float = 0.1,
                 unit: str = "vectors/s") -> None:
        self._stream = stream
        self.min_interval = min_interval
        self.unit = unit
        self._last = 0.0
        self._t0 = time.monotonic()
        self._start_done: int | None = None
        self._shown: TextIO | None = None

    @property
    def stream(self) -> TextIO:
        """Where the bar goes now."""
        return self._stream if self._stream is not None else sys.stderr

    @property
    def enabled(self) -> bool:
        try:
            return self.stream.isatty()
        except (AttributeError, ValueError):  # no isatty, or closed
            return False

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if self._start_done is None:  # rate counts from the first report, not from start-up
            self._start_done = done
            self._t0 = now
        if done < total and now - self._last < self.min_interval:
            return
        self._last = now
        stream = self.stream
        if not self.enabled:
            return
        width = 30
        frac = done / total if total else 1.0
        bar = "#" * int(width * frac) + "." * (width - int(width * frac))
        rate = (done - self._start_done) / max(now - self._t0, 1e-9)
        eta = f" ETA {int((total - done) / rate)}s" if rate > 0 and done < total else ""
        stream.write(f"\r[{bar}] {done}/{total} {frac:4.0%} {rate:,.0f} {self.unit}{eta} ")
        stream.flush()
        self._shown = stream

    def close(self) -> None:
        """End the bar's line, on the stream it was drawn on."""
        if self._shown is not None:
            self._shown.write("\n")
            self._shown.flush()
            self._shown = None
