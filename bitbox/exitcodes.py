"""The exit codes of every ``bitbox`` command (and the games' device commands): one code per
kind of failure, the same in every command. docs/devices.md has the table.

====  ==========================================================================================
code  meaning
====  ==========================================================================================
0     done
1     the command ran, and what it checked failed (``bitbox games --check``; ``bitbox flash``:
      not a MicroPython board, a copy failed, a missing or wrong Hello after it)
2     bad usage or bad input: an unknown option, a value out of range, a config file with errors,
      a journal that cannot be read, an optional tool not installed (mpremote)
3     no such device: a port that cannot be opened, a controller that does not answer, an id
      nobody has, no controller found at all
4     the device went away while the command was using it (unplugged during ``bitbox monitor``)
130   interrupted (Ctrl-C)
141   standard output closed early (``bitbox ports | head``)
====  ==========================================================================================
"""
from __future__ import annotations

OK = 0
CHECK_FAILED = 1
USAGE = 2
NO_DEVICE = 3
DEVICE_LOST = 4
INTERRUPTED = 130

__all__ = ["CHECK_FAILED", "DEVICE_LOST", "INTERRUPTED", "NO_DEVICE", "OK", "USAGE"]
