"""A text progress bar for long runs."""
from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """A text progress bar on a stream (stderr): redrawn in place on a terminal, a line per
    10 % otherwise."""

    def __init__(self, total: int, stream: TextIO | None = None, width: int = 30, label: str = "games") -> None:
        self.total = total
        self.stream = stream or sys.stderr
        self.width = width
        self.label = label
        self.done = 0
        self.start = time.perf_counter()
        self._last = 0.0
        self._tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self._decile = -1

    def update(self, n: int) -> None:
        self.done += n
        now = time.perf_counter()
        if self._tty:
            if now - self._last >= 0.1 or self.done >= self.total:
                self._last = now
                self.stream.write("\r" + self.line(now))
                self.stream.flush()
        else:
            decile = self.done * 10 // self.total
            if decile > self._decile:
                self._decile = decile
                self.stream.write(self.line(now) + "\n")
                self.stream.flush()

    def line(self, now: float | None = None) -> str:
        elapsed = (now or time.perf_counter()) - self.start
        frac = self.done / self.total if self.total else 1.0
        filled = int(frac * self.width)
        rate = self.done / elapsed if elapsed > 0 else 0.0
        eta = (self.total - self.done) / rate if rate > 0 else 0.0
        bar = "#" * filled + "-" * (self.width - filled)
        return f"[{bar}] {frac:4.0%} {self.done}/{self.total} {self.label}  {rate:,.0f}/s  eta {eta:.0f}s "

    def close(self) -> None:
        if self._tty:
            self.stream.write("\n")
            self.stream.flush()


__all__ = ["Progress"]
