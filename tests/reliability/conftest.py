"""tests/reliability: the campaigns of tools/reliability.py (``python -m bitbox_tools.reliability``)
with counts small enough for every ``./dev test`` (or, where the issue gives a count that fits
the time budget, that count). Each test asserts the campaign's rows: what it injected and that
the outcome is the required one; a failure prints the row."""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


def assert_rows(rows) -> None:
    """Every row of a campaign is as required (the message is the row itself)."""
    assert rows
    for row in rows:
        print(f"{row.fault} | {row.how} | {row.count} | {row.outcome}")
        assert row.ok, f"{row.fault}: {row.outcome}"
