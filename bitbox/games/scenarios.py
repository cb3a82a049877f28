"""The scenario-runner skeleton every game's scenario command stands on.

A scenario is a file (YAML) describing a position, some inputs and what must come out; the
game parses and plays it (``outspeed scenario`` for Outspeed). What is common is here:

* :class:`ScenarioError`: a file that is not a valid scenario, naming the ``field`` at fault
  (``turns[2].program.red``) and, once known, the file;
* field readers (:func:`whole_number`, :func:`mapping`, :func:`listing`) that raise it with
  the same wording for every game;
* :func:`run_files`: every file run in turn, **one JSON line per file** on stdout (the game's
  result, which has ``"ok"``; or ``{"file", "ok": false, "error"}`` for an invalid file, whose
  message also goes to stderr), and the exit status: **0** every file met its expectations,
  **1** some file did not, **2** some file could not be read or is not a valid scenario.
"""
from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import TextIO

from .protocol import JSON

#: Bounds on every number a scenario gives, so that a wrong file cannot hang a runner.
SANE = 10**9


class ScenarioError(ValueError):
    """Not a valid scenario; ``field`` names the offending field, ``file`` the file (if known)."""

    def __init__(self, field: str, message: str, file: str | None = None) -> None:
        self.field, self.message, self.file = field, message, file
        text = f"field {field}: {message}" if field else message
        super().__init__(f"{file}: {text}" if file else text)


def whole_number(value: object, where: str, low: int | None = None, high: int | None = None) -> int:
    """``value`` as a whole number between ``low`` and ``high`` (±:data:`SANE` by default)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise ScenarioError(where, f"expected a whole number, got {str(value)[:60]!r}")
    low = -SANE if low is None else low
    high = SANE if high is None else high
    if value < low or value > high:
        raise ScenarioError(where, f"{str(value)[:60]} is out of range (from {low} to {high})")
    return value


def mapping(value: object, where: str) -> Mapping[object, object]:
    """``value`` as a mapping (absent: empty)."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ScenarioError(where, f"expected a mapping, got {value!r}")
    return value


def listing(value: object, where: str) -> list[object]:
    """``value`` as a list (absent: empty)."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise ScenarioError(where, f"expected a list, got {value!r}")
    return value


def run_files(files: Sequence[str], run_file: Callable[[str], Mapping[str, JSON]], *, prog: str,
              invalid: tuple[type[Exception], ...] = (ScenarioError,),
              out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run each file with ``run_file`` (which returns the file's JSON result with ``"ok"``, or
    raises one of ``invalid`` for a file it cannot run) and print one JSON line per file.
    Returns the exit status (see the module docstring); ``prog`` prefixes the stderr lines."""
    out = out or sys.stdout
    err = err or sys.stderr
    status = 0
    for f in files:
        try:
            result = run_file(f)
        except invalid as exc:
            msg = str(exc)
            if not msg.startswith(str(f)):
                msg = f"{f}: {msg}"
            print(json.dumps({"file": str(f), "ok": False, "error": msg}), file=out)
            print(f"{prog}: {msg}", file=err)
            status = 2
            continue
        print(json.dumps(result, ensure_ascii=False), file=out)
        if not result.get("ok") and status == 0:
            status = 1
    return status


__all__ = ["SANE", "ScenarioError", "listing", "mapping", "run_files", "whole_number"]
