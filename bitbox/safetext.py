"""Text that came from a device, made safe to print, log and show.

A controller (or anything plugged in pretending to be one) chooses the bytes of its
ErrorReport texts and its USB descriptors. Written raw into a log or a terminal, a newline
forges a whole line ("Winner: Green") and an escape sequence rewrites the screen. Every
such text goes through :func:`printable` first.
"""
from __future__ import annotations

import unicodedata

__all__ = ["printable"]


def printable(text: object, limit: int = 200) -> str:
    """``text`` with every control, format, separator or unassigned character (newlines,
    escapes, bidi overrides, zero-width characters...) and the backslash written as a
    Python-style escape (``\\n``, ``\\x1b``, ``\\u202e``, ``\\\\``), so it stays on one line
    and shows exactly what was sent; cut to about ``limit`` characters (``...``)."""
    text = str(text)
    out: list[str] = []
    size = 0
    for ch in text:
        if ch == "\\":
            piece = "\\\\"
        elif ch.isprintable() and unicodedata.category(ch)[0] != "C":
            piece = ch
        else:
            piece = repr(ch)[1:-1]
            if not piece.startswith("\\"):                 # repr kept it as is: escape it anyway
                piece = f"\\u{ord(ch):04x}" if ord(ch) <= 0xFFFF else f"\\U{ord(ch):08x}"
        out.append(piece)
        size += len(piece)
        if size > limit:
            out.append("...")
            break
    return "".join(out)
