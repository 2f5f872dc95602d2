"""A small progress bar on standard error (no dependencies; silent when not a terminal).

>>> p = Progress(3, "games", stream=None)
>>> p.update(); p.update(2); p.close(); p.done
3
"""

from __future__ import annotations

import sys
import time
from typing import IO


class Progress:
    def __init__(self, total: int, unit: str = "items", stream: IO[str] | None = sys.stderr, force: bool = False):
        self.total = max(total, 1)
        self.unit = unit
        self.stream = stream if stream is not None and (force or stream.isatty()) else None
        self.done = 0
        self.start = time.perf_counter()
        self._last = 0.0

    def update(self, n: int = 1) -> None:
        self.done += n
        now = time.perf_counter()
        if self.stream and (now - self._last > 0.1 or self.done >= self.total):
            self._last = now
            frac = self.done / self.total
            rate = self.done / max(now - self.start, 1e-9)
            eta = (self.total - self.done) / rate if rate else 0
            bar = "#" * int(frac * 30)
            self.stream.write(f"\r[{bar:<30}] {self.done}/{self.total} {self.unit} "
                              f"{rate:,.1f}/s eta {eta:,.0f}s")
            self.stream.flush()

    def close(self) -> None:
        if self.stream:
            self.stream.write("\n")
            self.stream.flush()
