"""The console runs a game that brings only its rules, its cartridge and a bot (the tutorial
game, Goofspiel): the table's session over the game protocol (secrecy, private refusals and
hints, frames after their events), and the table command built for it (play headless with
snapshots and a journal, resume, history, replay, export, import, simulate), in real
subprocesses with real SQLite journals and real PNG frames."""
from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bitbox.events import Connected, WheelsChanged
from bitbox.table.referee import Hint, Pace, RefuseChoice
from bitbox.table.seating import SeatPlan

PY = sys.executable
GAME = [PY, "-m", "bitbox.cli", "game", "goofspiel"]


def env(tmp_path: Path) -> dict[str, str]:
    e = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    e.update(XDG_DATA_HOME=str(tmp_path / "data"), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    return e


def run(args: list[str], tmp_path: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(GAME + args, cwd=tmp_path, env=env(tmp_path), capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)


def cartridge():
    from bitbox.games import find
    return find("goofspiel")


class Info:
    def __init__(self, cid: int) -> None:
        self.controller_id = cid


def session_of(players=("red", "blue", "green"), seed=5, cards=5, journal=None):
    from bitbox.table.session import Session
    c = cartridge()
    game = c.new(list(players), seed, {"cards": cards})
    seats = [SeatPlan(p, i) for i, p in enumerate(players)]
    s = Session(c, game, seats, journal=journal, pace=Pace.instant(), clock=lambda: 0.0)
    for i, _p in enumerate(players):
        s.handle(Connected(i, Info(100 + i), 0.0))
        s.handle(WheelsChanged(i, 100 + i, 0, 0, 0, False, 0.0))
    s.update(0.0)
    return s


def lock(s, seat: int, left: int) -> None:
    s.handle(WheelsChanged(seat, 100 + seat, left, 0, 0, True, 0.0))


def unlock(s, seat: int) -> None:
    s.handle(WheelsChanged(seat, 100 + seat, 0, 0, 0, False, 0.0))


def shown(table):
    """What the screen draws, minus the statuses (compared between secret choices)."""
    return (json.dumps(table.view, sort_keys=True, default=str), table.prompt, table.banner,
            tuple((e.kind, json.dumps(e.data, sort_keys=True)) for e in table.log))


# ---------------------------------------------------------------- the session

def test_a_locked_bid_shows_nothing_but_that_the_player_is_ready():
    a, b = session_of(), session_of()
    before = shown(a.table())
    lock(a, 0, 1)
    lock(b, 0, 5)
    assert shown(a.table()) == shown(b.table())               # two different bids: the same screen
    assert shown(a.table())[0] == before[0] and shown(a.table())[3] == before[3]   # view and log unchanged
    assert a.table().status_of("red").status == b.table().status_of("red").status == "ready"
    assert [c for c in a.take_commands() if isinstance(c, RefuseChoice)] == []


def test_a_refused_lock_is_told_to_that_controller_only():
    s = session_of()
    s.take_commands()
    lock(s, 1, 9)                                     # no 9 in a 5-card hand
    commands = s.take_commands()
    assert [c for c in commands if isinstance(c, RefuseChoice)] == [RefuseChoice(1, 1500, 1)]
    assert s.log == []                                # nothing public: no line counts the tries
    assert s.table().status_of("blue").status == "refused"
    lock(s, 1, 2)                                     # still locked: must open first
    assert s.awaiting("blue") is not None
    unlock(s, 1)
    lock(s, 1, 2)
    assert s.awaiting("blue") is None


def test_every_hinted_stop_is_accepted_and_no_other():
    rng = random.Random(4)
    s = session_of(cards=8)
    hints = 0
    while not s.finished:
        sent = {c.seat: c for c in s.take_commands() if isinstance(c, Hint)}
        for seat, p in enumerate(("red", "blue", "green")):
            prompt = s.awaiting(p)
            hint = s._hint(p)
            assert sent[seat] == Hint(seat, *hint)       # each controller gets its own, when it changes
            hints += 1
            hinted = {i for i in range(16) if hint[0] >> i & 1}
            assert hinted == set(prompt.options)
            for stop in range(16):
                action = s.controls.read(prompt, (stop, 0, 0))
                assert (s.game.refusal(p, action) is None) == (stop in hinted)
        for seat, p in enumerate(("red", "blue", "green")):
            lock(s, seat, rng.choice(s.awaiting(p).options))
        for seat in range(3):
            unlock(s, seat)
        s.update(0.0)
    assert hints == 3 * 8
    assert {c.seat: c for c in s.take_commands() if isinstance(c, Hint)} == {i: Hint(i, 0, 0, 0) for i in range(3)}


def test_every_frame_is_the_table_after_the_events_it_shows():
    s = session_of(cards=6)
    rng = random.Random(1)
    frames = 0
    tables = []
    while not s.finished:
        for seat, p in enumerate(("red", "blue", "green")):
            lock(s, seat, rng.choice(s.awaiting(p).options))
        for kind, n, table in s.take_milestones():
            if kind != "turn_end":
                continue
            frames += 1
            tables.append(table)
            view = table.view["game"]
            prizes = [e.data["card"] for e in table.log if e.kind == "prize"]
            scores = {p["player"]: p["score"] for p in view["players"]}
            won = {}
            for e in table.log:
                if e.kind == "won":
                    won[e.data["player"]] = e.data["score"]
            if prizes and not s.finished:
                assert view["prize"] == prizes[-1]
            for p, score in won.items():
                assert scores[p] == score
        for seat in range(3):
            unlock(s, seat)
        s.update(0.0)
    assert tables[-1].stage == "finished"                        # the last frame names the winners
    assert tables[-1].view["winners"] == list(s.game.winners)
    assert frames >= 5
    assert s.table().view["winners"] == list(s.game.winners)
    assert s.table().stage == "finished"


# ---------------------------------------------------------------- the table command

def test_a_bots_game_plays_headless_with_snapshots_journal_and_history(tmp_path):
    r = run(["play", "--headless", "--players", "3", "--seed", "11", "--journal", "j.sqlite",
             "--snapshots", "shots", "--cards", "4"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1].startswith("Winner") or "No winner" in r.stdout
    pngs = sorted((tmp_path / "shots").glob("goofspiel-1-*/turn-*.png"))
    assert [p.name for p in pngs] == ["turn-01.png", "turn-02.png", "turn-03.png", "turn-04.png"]
    import pygame
    last = pygame.image.load(str(pngs[-1]))
    first = pygame.image.load(str(pngs[0]))
    assert last.get_size() == (1920, 1080)
    assert pygame.image.tobytes(last, "RGB") != pygame.image.tobytes(first, "RGB")
    db = sqlite3.connect(tmp_path / "j.sqlite")
    status, settings = db.execute("SELECT status, settings FROM games").fetchone()
    kinds = {k for (k,) in db.execute("SELECT kind FROM inputs")}
    db.close()
    assert status == "finished" and kinds == {"answers"}
    assert json.loads(settings)["game"] == "goofspiel"
    h = run(["history", "--journal", "j.sqlite"], tmp_path)
    assert h.returncode == 0 and "blue" in h.stdout
    hj = run(["history", "--journal", "j.sqlite", "--json"], tmp_path)
    assert json.loads(hj.stdout)["games"][0]["game"] == "goofspiel"


def stopped_after_two_rounds(tmp_path: Path, c) -> None:
    """A game of ``c`` (red and blue, seed 3, 4 cards) stopped after two rounds, as a kill
    leaves it: its settings and two inputs in ``tmp_path/j.sqlite``."""
    from bitbox.table.journal import GameRecord, Journal
    from bitbox.table.protocol_rules import ProtocolJournalRules
    j = Journal(tmp_path / "j.sqlite", ProtocolJournalRules(c))
    record = j.new_game(c.new(["red", "blue"], 3, {"cards": 4}),
                        {"seats": [{"player": "red", "kind": "bot", "controller_id": None},
                                   {"player": "blue", "kind": "bot", "controller_id": None}],
                         "lang": "en", "bot": "random,high", "options": {"cards": 4}, "seed": "given"})
    s = session_of(("red", "blue"), seed=3, cards=4, journal=GameRecord(j, record.id, 0))
    s.game = c.new(["red", "blue"], 3, {"cards": 4})
    s._begin_phase()
    for _ in range(2):
        lock(s, 0, s.awaiting("red").options[0])
        lock(s, 1, s.awaiting("blue").options[-1])
        unlock(s, 0)
        unlock(s, 1)
        s.update(0.0)
    j.close()


@pytest.mark.heavy
def test_resume_export_import_replay_and_simulate(tmp_path):
    stopped_after_two_rounds(tmp_path, cartridge())
    r = run(["play", "--resume", "--headless", "--journal", "j.sqlite"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert "Resuming game 1 (seed 3) at turn 3, 2 inputs replayed" in r.stderr
    assert r.stdout.strip().splitlines()[-1].startswith(("Winner", "No winner"))
    again = run(["play", "--resume", "--headless", "--journal", "j.sqlite"], tmp_path)
    assert again.returncode == 2 and again.stderr.count("\n") == 1 and "no unfinished Goofspiel game" in again.stderr
    assert run(["export", "1", "g.json", "--journal", "j.sqlite"], tmp_path).returncode == 0
    imp = run(["import", "g.json", "--journal", "k.sqlite"], tmp_path)
    assert imp.returncode == 0 and "imported as game 1" in imp.stdout, imp.stderr
    rep = run(["replay", "1", "--journal", "k.sqlite", "--headless", "--snapshots", "rs"], tmp_path)
    assert rep.returncode == 0, rep.stderr
    assert "Game over" in rep.stdout
    assert len(list((tmp_path / "rs").glob("replay-goofspiel-1-*/turn-*.png"))) == 5     # the start, then 4 rounds
    sim = subprocess.run(GAME + ["simulate", "--games", "40", "--players", "3", "--bots", "random,high", "-q"],
                         cwd=tmp_path, env=env(tmp_path), capture_output=True, text=True, timeout=120)
    assert sim.returncode == 0, sim.stderr
    assert "Win rate by bot" in sim.stdout and "high" in sim.stdout


def test_a_game_of_another_cartridge_is_named_in_one_line(tmp_path):
    r = subprocess.run([PY, "-m", "outspeed.cli", "play", "--headless", "--speed", "0", "--size", "320x180",
                        "--bots", "3", "--journal", "j.sqlite", "--seed", "1"], cwd=tmp_path, env=env(tmp_path),
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    rep = run(["replay", "1", "--journal", "j.sqlite", "--headless"], tmp_path)
    assert rep.returncode == 2
    assert rep.stderr.strip() == ("bitbox game goofspiel replay: game 1 is an Outspeed game: "
                                  "use `outspeed replay 1 --journal j.sqlite`")


def test_bad_options_are_one_line(tmp_path):
    r = run(["play", "--headless", "--cards", "12"], tmp_path)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "--cards" in r.stderr
    r = run(["play", "--headless", "--journal", ""], tmp_path)
    assert r.returncode == 2 and "--journal" in r.stderr and r.stderr.count("\n") == 1


def test_the_tutorial_game_passes_the_conformance_checks():
    from bitbox.games.conformance import check_all
    problems = [(what, p) for what, p in check_all(cartridge()) if p is not None]
    assert problems == []


def test_words_fall_back_to_english_then_to_the_console():
    from bitbox.table.words import GameWords
    de = GameWords(cartridge(), "de")
    assert de.event("prize", {"card": 3, "round": 1}) == "Round 1: the prize is the 3"     # no German: English
    assert de.t("status.ready") == "gesperrt"                                                # the console's German
    fr = GameWords(cartridge(), "fr")
    assert fr.event("won", {"player": "red", "card": 4, "score": 4}) == "Rouge gagne le 4 (4 points)"
    assert fr.event("unknown_kind", {"x": 1}) == "unknown kind: x 1"


def test_the_banner_asks_the_whole_table_without_a_players_context():
    """A prompt's context is private to the player asked (docs/games.md): the banner, which the
    whole table reads, says the game's ``ask.KIND`` and fills in nothing of it; a game without
    ``ask.KIND`` whose ``prompt.KIND`` needs its context gets the console's neutral wording."""
    from types import SimpleNamespace

    from bitbox.display.generic import GenericDisplay
    from bitbox.display.model import ShellView
    from bitbox.table.words import GameWords

    words = GameWords(cartridge(), "fr")
    d = GenericDisplay((1280, 720), words=words, title="Goofspiel")
    t = ShellView(view={"turn": 1}, stage="prompt", prompt=("ui.asking", {"players": ["red", "blue"], "kind": "bid"}))
    top, line = d.banner_lines(t)
    assert line == "Rouge et Bleu : misez une carte pour le prix", line
    assert words.prompt("bid", {"prize": 5}) == "misez une carte pour le 5"     # the pad of the player asked
    bare = GameWords(SimpleNamespace(name="goofspiel", title="G", locale=None), "en")
    assert "{" not in bare.question("bid") and "bid" in bare.question("bid")
    no_ask = GameWords(cartridge(), "en")
    no_ask._messages = {k: v for k, v in no_ask._messages.items() if k != "ask.bid"}
    assert no_ask.question("bid") == no_ask.t("ui.prompt", kind="bid")          # prompt.bid needs {prize}
