"""Crash safety: `outspeed play` killed with SIGKILL at 50 random points (random moments,
inside a journal transaction, just before COMMIT, between commit and effect, mid-resolution,
while finishing); each time the journal is consistent and `--resume` ends the game exactly like
the uninterrupted run. Corrupt and foreign journals get one clear line, never a traceback."""
from __future__ import annotations

import sqlite3
import sys

import pytest

if not sys.platform.startswith("linux"):
    pytest.skip("pseudo-terminals, SIGKILL and the emulator in its own process: Linux", allow_module_level=True)

from bitbox_tools import reliability as R  # noqa: E402
from bitbox.table.journal import Journal, JournalError  # noqa: E402

from .conftest import assert_rows  # noqa: E402

C = R.TEST_COUNTS


@pytest.mark.heavy
def test_fifty_sigkills_then_resume_end_like_the_uninterrupted_game(tmp_path):
    rows = R.campaign_crash(tmp_path, points=C["crash_points"], seed=2024)
    assert_rows(rows)
    kills = rows[0].details["kills"]
    assert len(kills) == C["crash_points"] >= 50
    hits = {k["hit"].split(" ")[0] for k in kills}
    assert {"time", "journal", "commit", "apply", "resolution", "finish"} <= hits
    assert any(k["hot_journal"] for k in kills)       # some died mid-transaction: SQLite rolled them back


@pytest.mark.heavy
def test_a_kill_inside_a_transaction_leaves_no_half_written_input(tmp_path):
    play = ["play", "--headless", "--players", "3", "--seed", "41", "--size", "320x180"]
    ref = R.crash_reference(tmp_path / "ref", play)
    for spec, expected in (("commit:4", 4), ("journal:6:3", 6), ("apply:5", 6)):
        r = R._kill_and_resume(tmp_path / spec.replace(":", "-"), spec, play, ref)
        assert r.inputs_at_kill == expected and r.journal_ok and r.same_end, r


@pytest.mark.heavy
def test_corrupt_and_foreign_journals_get_a_clear_message_not_a_traceback(tmp_path):
    assert_rows(R.campaign_journals(tmp_path, corruptions=C["journal_corruptions"]))


def test_the_journal_rejects_damaged_records_with_its_file_name(tmp_path):
    _, unfinished = R.base_journals(tmp_path)
    for statement in ("UPDATE games SET settings = '[1]'", "UPDATE games SET players = '\"red\"'",
                      "UPDATE games SET winners = '3'"):
        path = tmp_path / "j.sqlite"
        path.write_bytes(unfinished.read_bytes())
        db = sqlite3.connect(path)
        db.execute(statement)
        db.commit()
        db.close()
        with Journal(path) as j, pytest.raises(JournalError, match="its record cannot be read") as err:
            j.games()
        assert str(path) in str(err.value)
