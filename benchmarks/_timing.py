"""What the benchmark scripts share: one timer for wall and CPU time."""

from __future__ import annotations

import time


class Clock:
    """Wall and CPU seconds of one timed block (CPU: steadier on a shared machine)."""

    def __enter__(self) -> Clock:
        self.wall, self.cpu = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc: object) -> None:
        self.wall = time.perf_counter() - self.wall
        self.cpu = time.process_time() - self.cpu
