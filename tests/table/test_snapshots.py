"""Snapshot folders do not pile up unnoticed (bitbox.table.snapshots): the oldest game folders
beyond the last N are removed, only folders the table made, and their size is said."""
from __future__ import annotations

from pathlib import Path

import pytest

from bitbox.table import snapshots as snap


def make(base: Path, name: str, pngs: int = 2, size: int = 1000, extra: str | None = None) -> Path:
    folder = base / name
    folder.mkdir(parents=True)
    for k in range(pngs):
        (folder / f"turn-{k + 1:02d}.png").write_bytes(b"\x89PNG" + b"x" * (size - 4))
    if extra:
        (folder / extra).write_text("mine")
    return folder


def test_the_oldest_game_folders_go_and_nothing_else(tmp_path):
    old = [make(tmp_path, f"outspeed-{k}-20260101-10000{k}") for k in range(1, 5)]
    twin = make(tmp_path, "goofspiel-9-20260101-100001-2")                # same second, second folder
    replay = make(tmp_path, "replay-lastonealive-3-20250101-090000")       # a replay's: the oldest of all
    notes = make(tmp_path, "outspeed-7-20240101-000000", extra="notes.txt")  # holds a file of someone's
    other = tmp_path / "holiday-photos"
    other.mkdir()
    (other / "turn-01.png").write_bytes(b"x")
    current = make(tmp_path, "outspeed-8-20270101-000000")
    assert [p.name for p in snap.game_folders(tmp_path)] == [
        replay.name, old[0].name, twin.name, old[1].name, old[2].name, old[3].name, current.name]
    removed = snap.prune(tmp_path, 3, current)
    assert removed == [replay, old[0], twin, old[1]]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [old[2].name, old[3].name, current.name, notes.name, "holiday-photos"])
    assert snap.prune(tmp_path, 0, current) == []                          # 0 keeps everything
    assert snap.prune(tmp_path, 1, current) == [old[2], old[3]]
    assert current.is_dir() and (notes / "notes.txt").is_file()


def test_the_size_is_said_for_the_game_and_the_whole_folder(tmp_path):
    make(tmp_path, "outspeed-1-20260101-100000", pngs=3, size=1500)
    mine = make(tmp_path, "outspeed-2-20260101-110000", pngs=2, size=2000)
    assert snap.usage(mine) == snap.Usage(2, 4000)
    assert snap.total(tmp_path) == snap.Usage(5, 8500, 2)
    line = snap.report(mine)
    assert line == (f"snapshots of this game: 4.0 KB in {mine} (PNG files: 2); all of {tmp_path}: 8.5 KB "
                    "(game folders: 2)")
    from bitbox.i18n import Words
    assert "Bilder dieser Partie: 4.0 KB" in snap.report(mine, Words("de"))


@pytest.mark.parametrize("text", ["-1", "x", "1.5", ""])
def test_keep_snapshots_takes_a_whole_number(text):
    import argparse
    with pytest.raises(argparse.ArgumentTypeError, match="how many games' snapshots to keep"):
        snap.keep_arg(text)
    assert snap.keep_arg("0") == 0 and snap.keep_arg("12") == 12
