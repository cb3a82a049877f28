"""Snapshot folders do not pile up unnoticed.

A headless game (or ``play --snapshots DIR``) writes one PNG per turn into a folder of its
own under the snapshots folder (:func:`bitbox.table.options.game_folder`:
``NAME-YYYYMMDD-HHMMSS``). An 89-turn game at 1920x1080 is about 90 PNGs and tens of MB, so:

* at the end of play a status line says how much this game's folder holds and how much the
  whole snapshots folder now holds (:func:`report`);
* when a game's folder is made, the oldest game folders beyond the last :data:`KEEP_SNAPSHOTS`
  are removed (``--keep-snapshots N``; 0 keeps them all), each removal said in a status
  line (:func:`prune`). Only folders the table made are touched: a name of that pattern
  holding nothing but ``turn-NN.png`` files; anything else under the folder is left alone.
"""
from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: Game folders kept under the snapshots folder when nothing else is said (0: all).
KEEP_SNAPSHOTS = 20

#: A game's (or a replay's) snapshot folder, as :func:`bitbox.table.options.game_folder` names it.
FOLDER = re.compile(r"^(?P<name>.+)-(?P<stamp>\d{8}-\d{6})(?:-(?P<n>\d+))?$")
PNG = re.compile(r"^turn-\d+\.png$")


@dataclass(frozen=True)
class Usage:
    """What a folder holds: ``files`` PNGs, ``bytes`` in all, over ``folders`` game folders."""

    files: int
    bytes: int
    folders: int = 1


def usage(folder: Path) -> Usage:
    """The PNGs of one game's folder (none when it is gone)."""
    files = total = 0
    try:
        for f in folder.iterdir():
            if f.is_file() and PNG.match(f.name):
                files += 1
                total += f.stat().st_size
    except OSError:
        pass
    return Usage(files, total)


def game_folders(base: Path) -> list[Path]:
    """The table's game folders under ``base``, oldest first (by the time in their name)."""
    found = []
    try:
        entries = list(Path(base).iterdir())
    except OSError:
        return []
    for p in entries:
        m = FOLDER.match(p.name)
        if m and p.is_dir() and not p.is_symlink() and _only_snapshots(p):
            found.append((m.group("stamp"), int(m.group("n") or 1), p.name, p))
    return [p for *_, p in sorted(found)]


def _only_snapshots(folder: Path) -> bool:
    try:
        return all(f.is_file() and not f.is_symlink() and PNG.match(f.name) for f in folder.iterdir())
    except OSError:
        return False


def prune(base: Path, keep: int, current: Path | None = None) -> list[Path]:
    """Remove the oldest game folders under ``base`` so that at most ``keep`` remain
    (``current``, the game's own, is never removed; ``keep`` 0 removes nothing). Returns
    the folders removed; one that cannot be removed is left (and not returned)."""
    if keep <= 0:
        return []
    folders = [p for p in game_folders(base) if current is None or p.resolve() != current.resolve()]
    room = keep - (1 if current is not None else 0)
    removed = []
    for p in folders[:max(0, len(folders) - room)]:
        try:
            shutil.rmtree(p)
            removed.append(p)
        except OSError:
            continue
    return removed


def total(base: Path) -> Usage:
    """Every game folder under ``base``, added up."""
    folders = game_folders(base)
    parts = [usage(p) for p in folders]
    return Usage(sum(u.files for u in parts), sum(u.bytes for u in parts), len(folders))


def report(folder: Path, words: Any = None) -> str:
    """The end-of-play line: this game's PNGs and size, and the whole snapshots folder's."""
    from .replay import human_size
    mine, everything = usage(folder), total(folder.parent)
    return _say(words, "status.snapshots_size",
                "snapshots of this game: {size} in {folder} (PNG files: {files}); all of {base}: {total} "
                "(game folders: {games})",
                files=mine.files, size=human_size(mine.bytes), folder=folder, base=folder.parent,
                total=human_size(everything.bytes), games=everything.folders)


def removed_line(removed: list[Path], keep: int, words: Any = None) -> str:
    return _say(words, "status.snapshots_pruned",
                "removed the oldest snapshot folders to keep the last {keep} (--keep-snapshots): {folders}", keep=keep, folders=", ".join(p.name for p in removed))


def _say(words: Any, key: str, english: str, **data: object) -> str:
    has = getattr(words, "has", None)
    if callable(has) and has(key):
        return str(words.t(key, **data))
    return english.format(**data)


def keep_arg(text: str) -> int:
    """``--keep-snapshots N``: a whole number, 0 (keep all) or more."""
    import argparse
    if not text.isascii() or not text.strip().isdigit():
        raise argparse.ArgumentTypeError(f"expected how many games' snapshots to keep (0: all), not {text!r}")
    return int(text)


__all__ = ["FOLDER", "KEEP_SNAPSHOTS", "Usage", "game_folders", "keep_arg", "prune", "removed_line", "report",
           "total", "usage"]
