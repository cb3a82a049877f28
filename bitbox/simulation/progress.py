"""The progress of a long run, on a stream (stderr).

On a terminal: ``rich``'s live progress bar (games done, share, games per second, time left),
redrawn in place and left on screen, complete, when the run ends. Anywhere else (a pipe, a
log file, a CI log): one plain line per 10 % (``[ 40%] 8/20 games  120/s  eta 1s``), no
terminal codes, so a log stays readable. :meth:`Progress.close` ends the bar (and shows the
cursor again); it is safe to call twice, and a run that is interrupted calls it too.
"""
from __future__ import annotations

import sys
import time
from typing import Any, TextIO


def _rich_bar(stream: TextIO, total: int, label: str) -> tuple[Any, Any]:
    from rich.console import Console
    from rich.progress import (BarColumn, MofNCompleteColumn, ProgressColumn, TaskProgressColumn, TextColumn,
                               TimeRemainingColumn)
    from rich.progress import Progress as RichProgress
    from rich.text import Text

    class Speed(ProgressColumn):
        def render(self, task: Any) -> Text:
            return Text(f"{task.speed:,.0f}/s" if task.speed else "", style="progress.data.speed")

    bar = RichProgress(BarColumn(), TaskProgressColumn(), MofNCompleteColumn(), TextColumn(label), Speed(),
                       TextColumn("eta"), TimeRemainingColumn(),
                       console=Console(file=stream, stderr=stream is sys.stderr), transient=False,
                       refresh_per_second=10, speed_estimate_period=10)
    task = bar.add_task(label, total=total)
    bar.start()
    return bar, task


class Progress:
    """A progress bar of ``total`` items on ``stream`` (stderr by default)."""

    def __init__(self, total: int, stream: TextIO | None = None, label: str = "games") -> None:
        self.total = total
        self.stream = stream or sys.stderr
        self.label = label
        self.done = 0
        self.start = time.perf_counter()
        self._decile = -1
        self._closed = False
        tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self._bar: Any = None
        self._task: Any = None
        if tty:
            self._bar, self._task = _rich_bar(self.stream, total, label)

    def update(self, n: int) -> None:
        self.done += n
        if self._bar is not None:
            self._bar.update(self._task, completed=self.done)
            return
        decile = self.done * 10 // self.total if self.total else 10
        if decile > self._decile:
            self._decile = decile
            self.stream.write(self.line() + "\n")
            self.stream.flush()

    def line(self, now: float | None = None) -> str:
        """The plain progress line: ``[ 40%] 8/20 games  120/s  eta 1s``."""
        elapsed = (now or time.perf_counter()) - self.start
        frac = self.done / self.total if self.total else 1.0
        speed = self.done / elapsed if elapsed > 0 else 0.0
        eta = (self.total - self.done) / speed if speed > 0 else 0.0
        return f"[{frac:4.0%}] {self.done}/{self.total} {self.label}  {speed:,.0f}/s  eta {eta:.0f}s"

    def close(self) -> None:
        """End the bar (on a terminal: the last state stays on screen, the cursor is shown)."""
        if self._closed:
            return
        self._closed = True
        if self._bar is not None:
            self._bar.stop()


__all__ = ["Progress"]
