"""For the tests that send signals to subprocesses: what they need, whatever the suite was
started by. A background job (`./dev test &` from a script) inherits SIGINT ignored, and an
ignored signal stays ignored across exec: a child started as is would never see the Ctrl-C a
test sends it. So each such child is started with SIGINT and SIGTERM at their defaults
(:func:`default_signals`), its output is read with a bound (:class:`Lines`), and it is killed
with its process group if the test fails half-way (:func:`end_group`)."""
from __future__ import annotations

import os
import queue
import signal
import subprocess
import threading
import time
from typing import IO


def default_signals() -> None:
    """``preexec_fn``: SIGINT and SIGTERM at their defaults in the child (Python then installs
    its own Ctrl-C handler), however the test process has them."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


class Lines:
    """A stream read line by line on a thread, each wait bounded."""

    def __init__(self, stream: IO[str]) -> None:
        self.q: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream: IO[str]) -> None:
        try:
            for line in stream:
                self.q.put(line)
        finally:
            self.q.put(None)

    def next(self, timeout: float) -> str | None:
        """The next line (None at the end); ``queue.Empty`` after ``timeout`` seconds."""
        return self.q.get(timeout=timeout)

    def rest(self, timeout: float) -> list[str]:
        """Every line up to the end of the stream, within ``timeout`` seconds in all
        (AssertionError when the stream is still open then)."""
        deadline = time.monotonic() + timeout
        out: list[str] = []
        while True:
            try:
                line = self.q.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"the stream was still open after {timeout} s: {''.join(out)[-500:]!r}") from None
            if line is None:
                return out
            out.append(line)


def end_group(proc: subprocess.Popen) -> None:
    """Kill ``proc``'s process group (it was started with ``start_new_session``) if anything of
    it is still running, and reap ``proc``: a failed test leaves no busy process behind."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        pass
