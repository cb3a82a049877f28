"""The journal: inputs committed before they take effect; crash and resume; bad files."""
from __future__ import annotations

import sqlite3

import pytest

from bitbox.table.journal import GameRecord, Journal, JournalError, rebuild, replay
from outspeed.journaling import RULES
from outspeed.rules import EventKind
from outspeed.session import state_hash
from bitbox.table.history import replay_frames as console_replay_frames
from outspeed.cartridge import CARTRIDGE as _OUTSPEED

from .helpers import Table, new_game



def replay_frames(journal, game_id):
    return console_replay_frames(journal, game_id, _OUTSPEED.journal)

BOTS = ("red", "blue", "green", "yellow")


class Spy(GameRecord):
    """Checks, at each record, that the session has not applied the input yet and that the
    row is committed (visible from another connection) before it returns."""

    table: Table | None = None

    def record(self, kind, data, *, turn, phase, state):
        assert self.table is not None
        assert state_hash(self.table.s.game) == state          # not applied yet
        super().record(kind, data, turn=turn, phase=phase, state=state)
        other = sqlite3.connect(str(self.journal.path))
        n = other.execute("SELECT COUNT(*) FROM inputs WHERE game = ?", (self.id,)).fetchone()[0]
        other.close()
        assert n == self.next_seq                                 # committed


def test_every_input_is_committed_before_it_takes_effect(tmp_path):
    j = Journal(tmp_path / "j.sqlite", RULES)
    game = new_game(seed=8)
    rec = j.new_game(game, {"seats": []})
    spy = Spy(j, rec.id, 0)
    t = Table(game, journal=spy, bots=BOTS)
    spy.table = t
    t.run()
    info = j.game(rec.id)
    assert info.status == "finished" and info.winners == t.game.state.winners
    assert info.inputs == t.s.inputs_applied
    rebuilt, n = rebuild(j, rec.id)
    assert rebuilt.to_data() == t.game.to_data()


def _play_until_mid_turn(t: Table, inputs: int) -> None:
    """Play until the programming of a turn after ``inputs`` inputs is under way: some
    players locked in, not all (the hub's events are handed over one by one)."""
    for _ in range(20000):
        if t.s.inputs_applied >= inputs and t.stage == "programming":
            break
        t.pump(rounds=1)
    for _ in range(100):
        for d in t.drivers:
            d.update(t.s, t.now)
        for e in t.hub.poll():
            t.s.handle(e)
            if 0 < len(t.ready()) < len(t.game.state.active):
                return
    raise AssertionError("never got there")


def test_crash_mid_turn_and_resume_ends_like_an_uninterrupted_game(tmp_path):
    # the uninterrupted game
    j1 = Journal(tmp_path / "a.sqlite", RULES)
    g1 = new_game(seed=13)
    t1 = Table(g1, journal=j1.new_game(g1, {}), bots=BOTS, bot="lookahead")
    t1.run()
    # the same game, "killed" mid-turn: some players locked, nothing revealed yet
    path = tmp_path / "b.sqlite"
    j2 = Journal(path, RULES)
    g2 = new_game(seed=13)
    t2 = Table(g2, journal=j2.new_game(g2, {}), bots=BOTS, bot="lookahead")
    _play_until_mid_turn(t2, 12)
    turn_at_crash = t2.game.state.turn
    del t2                                       # no goodbye: the process is gone
    j2.db.close()
    # a new process: open the journal, rebuild, continue with the same players
    j3 = Journal(path, RULES)
    info = j3.last_unfinished()
    assert info is not None
    game, n = rebuild(j3, info.id)
    assert game.state.turn == turn_at_crash and n >= 12
    t3 = Table(game, journal=GameRecord(j3, info.id, n), bots=BOTS, bot="lookahead", inputs_applied=n)
    t3.run()
    assert t3.game.to_data() == t1.game.to_data()
    assert [(r.kind, r.data) for r in j3.inputs(info.id)] == [(r.kind, r.data) for r in j1.inputs(1)]
    assert j3.game(info.id).status == "finished"
    assert j3.last_unfinished() is None


def test_a_journal_that_does_not_match_the_rules_is_refused(tmp_path):
    j = Journal(tmp_path / "j.sqlite", RULES)
    game = new_game(seed=8)
    rec = j.new_game(game, {})
    t = Table(game, journal=rec, bots=BOTS)
    t.run()
    j.db.execute("UPDATE inputs SET state = 'tampered' WHERE seq = 3")
    with pytest.raises(JournalError, match="does not replay"):
        rebuild(j, rec.id)
    j.db.execute("UPDATE inputs SET state = ?, data = '{\"choices\": {\"red\": [\"nowhere\", null]}}' WHERE seq = 3",
                 (next(r.state for r in j.inputs(rec.id) if r.seq == 3),))
    with pytest.raises(JournalError):
        list(replay(j, rec.id, verify=False))


@pytest.mark.parametrize("content,message", [
    (b"this is not a database at all, just a note\n" * 40, "not an 8Bitbox journal"),
    (b"SQLite format 3\x00" + b"\x13" * 200, "not an 8Bitbox journal"),
])
def test_a_corrupt_file_gets_a_clear_message(tmp_path, content, message):
    p = tmp_path / "j.sqlite"
    p.write_bytes(content)
    with pytest.raises(JournalError, match=message) as err:
        Journal(p)
    assert str(p) in str(err.value)
    assert p.read_bytes() == content                # left untouched


def test_another_programs_database_is_left_alone(tmp_path):
    p = tmp_path / "other.sqlite"
    db = sqlite3.connect(p)
    db.execute("CREATE TABLE recipes (name TEXT)")
    db.commit()
    db.close()
    with pytest.raises(JournalError, match="another program"):
        Journal(p)


def test_replay_frames_turn_by_turn(tmp_path):
    j = Journal(tmp_path / "j.sqlite", RULES)
    game = new_game(seed=8)
    rec = j.new_game(game, {})
    t = Table(game, journal=rec, bots=BOTS)
    t.run()
    frames = replay_frames(j, rec.id)
    assert frames[0].turn == 0
    assert [f.turn for f in frames[1:]] == list(range(1, t.game.state.turn + 1))
    assert frames[-1].view["winners"] == t.game.state.winners
    assert all(any(e.kind == EventKind.TURN for e in f.log) for f in frames[1:])
