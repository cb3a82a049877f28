"""The shared core of the campaigns: the counts, report rows, process and journal helpers."""
from __future__ import annotations

import contextlib
import io
import logging
import os
import sqlite3
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


REPO = Path(__file__).resolve().parent.parent.parent      # the repository (tools/reliability/core.py)

PY = sys.executable

#: The documented counts (``python -m bitbox_tools.reliability``).
FULL: dict[str, Any] = {
    "fault_disconnects": 120, "fault_resets": 6, "fault_seed": 7, "fault_games": 2,
    "rogue_seed": 11,
    "crash_points": 50, "crash_seed": 2024, "crash_loa_points": 27,
    "journal_corruptions": 40,
    "fuzz_inputs": 1_000_000, "fuzz_seed": 1,
    "bounds_garbage_mb": 100, "bounds_firmware_mb": 8, "bounds_flood_s": 5.0,
    "secrecy_games": 60, "secrecy_seed": 3,
    "refusal_games": 3, "refusal_seed": 31,
}

#: Small but meaningful counts (``--quick``; tests/reliability uses these or its own).
QUICK: dict[str, Any] = {
    "fault_disconnects": 100, "fault_resets": 2, "fault_seed": 7, "fault_games": 1,
    "rogue_seed": 11,
    "crash_points": 12, "crash_seed": 2024, "crash_loa_points": 9,
    "journal_corruptions": 10,
    "fuzz_inputs": 100_000, "fuzz_seed": 1,
    "bounds_garbage_mb": 8, "bounds_firmware_mb": 1, "bounds_flood_s": 2.0,
    "secrecy_games": 10, "secrecy_seed": 3,
    "refusal_games": 1, "refusal_seed": 31,
}

#: What tests/reliability runs on every `./dev test` (the tests read their counts from here).
TEST_COUNTS: dict[str, Any] = {
    "fault_disconnects": 110, "fault_resets": 2, "fault_games": 1, "rogue_speed": 16, "crash_points": 50,
    "journal_corruptions": 10, "fuzz_inputs": 1_000_000, "bounds_garbage_mb": 16, "bounds_firmware_mb": 1,
    "bounds_flood_s": 2.0, "secrecy_games": 12, "secrecy_hypothesis_examples": 30, "crash_loa_points": 3,
    "refusal_games": 1,
}


@dataclass
class Row:
    """One line of the report: a fault, how it was injected, how often, what happened."""

    fault: str
    how: str
    count: str
    outcome: str
    ok: bool
    details: dict[str, Any] = field(default_factory=dict)


class CampaignError(AssertionError):
    """A campaign whose outcome is not the expected one (the message says what differed)."""


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise CampaignError(message)


class _LogCapture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(f"{record.levelname} {record.name}: {record.getMessage()}")


@contextlib.contextmanager
def capture_logs(name: str = "bitbox"):
    handler = _LogCapture()
    logger = logging.getLogger(name)
    old_level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old_level)


def _content() -> tuple[Any, Any]:
    from bitbox.wheels import load_wheel_map
    from outspeed.content import load_content
    return load_content(), load_wheel_map(game="outspeed")


def session_of(game: Any, plans: Any, wm: Any, **kwargs: Any) -> Any:
    """Outspeed at the console's session, on the wheel map ``wm`` (as `outspeed play` seats it)."""
    from bitbox.table.command import session_of as console_session
    from outspeed.cartridge import CARTRIDGE
    from outspeed.controls import Controls
    return console_session(CARTRIDGE, game, plans, Controls(wm), **kwargs)


def bot_of(player: str, sim: Any, bot: str, wm: Any, *, seed: int, think: float = 0.0) -> Any:
    """One of Outspeed's bots on the simulated controller ``sim`` (as `outspeed play` seats it)."""
    from bitbox.table.command import bot_of as console_bot
    from outspeed.cartridge import CARTRIDGE
    from outspeed.controls import Controls
    return console_bot(CARTRIDGE, player, sim, bot, Controls(wm), seed=seed, think=think)


def outspeed_loop() -> Any:
    """Outspeed's table loop, as `outspeed play` runs it."""
    from bitbox.table.command import CartridgeTable
    from outspeed.cartridge import CARTRIDGE
    return CartridgeTable(CARTRIDGE, "outspeed").loop()


def _play_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", XDG_DATA_HOME=str(home / "data"),
               PYGAME_HIDE_SUPPORT_PROMPT="1")
    return env


def _game_status(path: Path) -> str | None:
    try:
        db = sqlite3.connect(path)
        try:
            row = db.execute("SELECT status FROM games WHERE id = 1").fetchone()
        finally:
            db.close()
    except sqlite3.Error:
        return None
    return row[0] if row else None


def _journal_inputs(path: Path) -> list[tuple]:
    db = sqlite3.connect(path)          # read-write: a kill mid-transaction leaves a hot journal to roll back
    try:
        return db.execute("SELECT seq, kind, data FROM inputs WHERE game = 1 ORDER BY seq").fetchall()
    finally:
        db.close()


#: The games the campaigns play: their command-line module and journal rules (module, name).
GAME_MODULES = {"outspeed": ("outspeed.cli", "outspeed.journaling"),
                "lastonealive": ("lastonealive.cli", "lastonealive.journaling")}


def _journal_check(path: Path, game: str = "outspeed") -> tuple[str, list[tuple], str, Any]:
    """(integrity, inputs, status, state rebuilt from the journal) of game 1, read-only."""
    import importlib
    from bitbox.table.journal import Journal, rebuild
    rules: Any = importlib.import_module(GAME_MODULES[game][1]).RULES
    db = sqlite3.connect(path)
    try:
        integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
        status = db.execute("SELECT status FROM games WHERE id = 1").fetchone()[0]
    finally:
        db.close()
    with Journal(path, rules) as j:
        engine, _ = rebuild(j, 1)
        state = engine.to_data()
    return integrity, _journal_inputs(path), status, state


def _sql(path: Path, *statements: str) -> None:
    db = sqlite3.connect(path)
    for st in statements:
        db.execute(st)
    db.commit()
    db.close()


@contextlib.contextmanager
def _cwd(path: Path):
    old = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(old)


@contextlib.contextmanager
def _env(**values: str):
    old = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _run_main(main_fn: Callable[[list[str]], int], args: list[str]) -> tuple[int | None, str, str]:
    """A command in this process, as its console script would run it: (exit code or None
    when an exception escaped, stdout, stderr + the traceback if any)."""
    import traceback
    out, err = io.StringIO(), io.StringIO()
    code: int | None
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main_fn(args)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 2
        except BaseException:  # noqa: BLE001 - what a user would see as a traceback
            code = None
            err.write(traceback.format_exc())
    return code, out.getvalue(), err.getvalue()
