"""What tests expect of a command given bad input: exit 2 and one line naming what was wrong."""
from __future__ import annotations

import subprocess


def one_line_error(proc: subprocess.CompletedProcess, *words: str) -> str:
    """``proc`` exited 2 with one line on stderr, no traceback, holding each of ``words``;
    returns that line."""
    err = proc.stderr.strip()
    assert proc.returncode == 2, (proc.returncode, proc.stdout[-500:], err[-2000:])
    assert "Traceback" not in err and len(err.splitlines()) == 1, err
    for w in words:
        assert w in err, (w, err)
    return err


__all__ = ["one_line_error"]
