"""Journals written before the console (no game name in them) still read, replay and resume.

``data/journal-v1.sqlite`` was written by the table as it was before the journal moved into
the console (bitbox.table.journal): game 1 (seed 101, three random bots, French) finished;
game 2 (seed 202, four greedy bots) stopped after 20 inputs, in turn 9. The fingerprints
below are the states those versions rebuilt.
"""
from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

from bitbox.table.journal import LEGACY_GAME, Journal, rebuild
from outspeed.journaling import RULES
from outspeed.session import state_hash
from bitbox.table.history import replay_frames as console_replay_frames
from outspeed.cartridge import CARTRIDGE as _OUTSPEED

from .helpers import Table, new_game
from .test_cli import env_without_display



def replay_frames(journal, game_id):
    return console_replay_frames(journal, game_id, _OUTSPEED.journal)

DATA = Path(__file__).with_name("data") / "journal-v1.sqlite"
FINGERPRINTS = {1: (31, 13, "21b71f2f095c4e0bd9579b7ab6106faa"), 2: (20, 9, "cafd42fc5cb112df96c9e7a07cb40cd7")}


def _copy(tmp_path: Path) -> Path:
    path = tmp_path / "old.sqlite"
    shutil.copyfile(DATA, path)
    path.chmod(0o600)
    return path


def test_an_old_journal_lists_and_rebuilds_its_games_as_outspeed(tmp_path):
    path = _copy(tmp_path)
    raw = sqlite3.connect(str(path))
    assert all('"game"' not in s for (s,) in raw.execute("SELECT settings FROM games"))   # written before
    raw.close()
    with Journal(path) as j:                          # no rules given: found by the game's name
        games = j.games()
        assert [(g.id, g.status, g.game) for g in games] == [(1, "finished", LEGACY_GAME), (2, "playing", LEGACY_GAME)]
        for gid, (inputs, turn, fingerprint) in FINGERPRINTS.items():
            game, n = rebuild(j, gid)
            assert (n, game.state.turn, state_hash(game)) == (inputs, turn, fingerprint)
        assert j.game(1).winners == rebuild(j, 1)[0].state.winners == ["red"]
        frames = replay_frames(j, 1)
        assert frames[0].turn == 0 and frames[-1].view["finished"] and len(frames) == 14


def test_an_old_unfinished_game_resumes_and_ends_as_if_never_interrupted(tmp_path):
    path = _copy(tmp_path)
    r = subprocess.run([sys.executable, "-m", "outspeed.cli", "play", "--headless", "--resume", "--journal", str(path),
                        "--snapshots", str(tmp_path / "s"), "--max-seconds", "60"], cwd=tmp_path,
                       env=env_without_display(tmp_path), capture_output=True, text=True, timeout=90)
    assert r.returncode == 0, r.stderr
    assert "Resuming game 2 at turn 9, 20 inputs replayed" in r.stderr          # its seed: secret until the end
    reference = Table(new_game(players=4, seed=202), bots=("red", "blue", "green", "yellow"), bot="greedy")
    reference.run()
    with Journal(path, RULES) as j:
        game, n = rebuild(j, 2)
        assert j.game(2).status == "finished"
        assert j.game(2).game == LEGACY_GAME              # the old record keeps its settings
    assert game.to_data() == reference.game.to_data()


def test_new_games_record_their_game_and_a_foreign_name_is_one_clear_error(tmp_path):
    import pytest

    from bitbox.table.journal import JournalError
    path = tmp_path / "j.sqlite"
    with Journal(path, RULES) as j:
        rec = j.new_game(new_game(seed=3), {"seats": []})
        assert j.game(rec.id).game == "outspeed" and j.game(rec.id).settings["game"] == "outspeed"
        for name, message in (("nosuchgame", "which is not installed here"), ("../../etc", "unknown game")):
            j.db.execute("UPDATE games SET settings = ? WHERE id = ?", ('{"game": "%s", "seats": []}' % name, rec.id))
            with pytest.raises(JournalError, match=message) as err:
                rebuild(j, rec.id)
            assert "\n" not in str(err.value)
