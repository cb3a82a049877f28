"""The home screen (issue 20, "the table a group sits down to"): from a fresh state, on a
virtual display (SDL's dummy driver, the window's own code path) and an emulated controller
(the reference firmware on a pseudo-terminal), the wheels and the lock alone choose the game,
the players, the language and an option, name the player in the lobby, play the game to its
winner, and come back home, where the choices are remembered. Frames are checked by their
pixels; the journal by its record."""
from __future__ import annotations

import json
import threading
import time

import pytest

from bitbox.display.shell import ACCENT, BG

if not __import__("sys").platform.startswith(("linux", "darwin")):
    pytest.skip("pseudo-terminals need a POSIX system", allow_module_level=True)

import pygame

from bitbox.table.home import AfterGame, Home

LIMIT = 60.0                    # seconds any one step of the hand may wait (a bound, not a timing: each
                                # returns as soon as the table shows it; the first one includes the
                                # table's start, seconds on a machine busy with other work)


class Seen:
    """What the table shows, as the main thread draws it (the hand reads it from its thread)."""

    def __init__(self) -> None:
        self.menu = None
        self.menus: list = []
        self.lobby = None
        self.session = None
        self.frames: dict[str, tuple[pygame.Surface, object]] = {}
        self.want: str | None = None
        self.keys: list[str] = []

    def on_frame(self, surface, menu, view) -> None:
        if menu is not self.menu:
            self.menu = menu
            self.menus.append(menu)
        if self.want:
            self.frames[self.want] = (surface.copy(), view.cursor.copy() if view.cursor else None)
            self.want = None

    def take_keys(self) -> list[str]:
        out, self.keys = self.keys, []
        return out


class Hand(threading.Thread):
    """Controller 0's wheels and lock, turned one stop at a time, each step waiting until the
    table has seen it (bounded)."""

    def __init__(self, emu, seen: Seen) -> None:
        super().__init__(daemon=True)
        self.emu, self.seen = emu, seen
        self.pos = {"left": 0, "centre": 0, "right": 0}
        self.error: str | None = None
        self.done: list[str] = []

    def wait(self, what: str, cond) -> None:
        deadline = time.monotonic() + LIMIT
        while not cond():
            if time.monotonic() > deadline:
                raise AssertionError(f"waited in vain for: {what}")
            time.sleep(0.01)
        self.done.append(what)

    def turn(self, wheel: str, stops: int, then) -> None:
        for _ in range(abs(stops)):
            self.pos[wheel] = (self.pos[wheel] + (1 if stops > 0 else -1)) % 16
            self.emu.set(0, **{wheel: self.pos[wheel]})
        self.wait(f"{wheel} {stops:+d}", then)

    def lock(self, closed: bool) -> None:
        self.emu.set(0, locked=int(closed))

    def frame(self, name: str) -> None:
        self.seen.want = name
        self.wait(f"frame {name}", lambda: name in self.seen.frames)

    def run(self) -> None:
        try:
            self.script()
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            self.error = f"{exc} (after: {self.done[-3:]})"
            self.seen.keys.append("escape")

    def script(self) -> None:
        s = self.seen
        home = lambda: s.menu if isinstance(s.menu, Home) else None  # noqa: E731
        self.wait("the home screen", lambda: home() is not None)
        self.wait("the home screen hears the controller", lambda: home() is not None and home()._wheels.last)
        h = home()
        self.frame("home-first")
        self.turn("centre", 1, lambda: h.game_row.value == "goofspiel")
        self.turn("left", 1, lambda: h.row.key == "players")
        self.turn("centre", -2, lambda: h.players_row.value == 2)
        self.turn("left", 1, lambda: h.row.key == "lang")
        self.turn("centre", 1, lambda: h.lang_row.value == "es")
        self.turn("left", 1, lambda: h.row.key == "opt:cards")
        self.turn("centre", -3, lambda: h.row.value == 3)
        self.frame("home")
        self.lock(True)                                     # play
        self.wait("the lobby", lambda: s.lobby is not None and any(e.wheels for e in s.lobby.entries.values()))
        lobby = s.lobby
        entry = next(iter(lobby.entries.values()))
        assert entry.seat is None, "a lock closed on the home screen took a seat"
        self.lock(False)
        self.wait("lock open in the lobby", lambda: not entry.locked)
        for letter, stops in (("A", 1), ("D", 4), ("A", 1)):
            slot = len([c for c in entry.letters if c.strip()])
            self.turn("centre", 1, lambda slot=slot: lobby.spelling(entry) == slot)
            self.turn("right", stops, lambda slot=slot, letter=letter: entry.letters[slot:slot + 1] == [letter])
        self.wait("named Ada", lambda: lobby.name_of(entry) == "Ada")
        s.want_lobby = True
        self.wait("lobby frame", lambda: "lobby" in s.frames)
        self.lock(True)                                     # take a seat: ready, everyone is
        self.wait("the game", lambda: s.session is not None)
        session = s.session
        game = lambda: session.game  # noqa: E731 (the referee's current game)
        (me,) = [p.player for p in session.seats if p.kind == "controller"]     # the controller's player
        ctl = session.ctl[me]
        # Each step waits until the table has seen it (not for a time: on a busy machine the
        # emulator may not run for longer than any pause, and an unlock and the next lock
        # closer than its debounce are one lock never opened)
        def moved_on(card: int) -> bool:
            return game().round != card or game().finished
        for card in (1, 2, 3):                              # a bid a round: card k in round k
            self.wait(f"round {card}", lambda card=card: game().round >= card or game().finished)
            tries = 0
            while not moved_on(card):
                self.lock(False)
                self.wait("the lock seen open", lambda: not ctl.locked)
                self.pos["left"] = card
                self.emu.set(0, left=card)
                self.wait(f"the left wheel seen at {card}", lambda card=card: ctl.wheels[0] == card)
                self.wait(f"the bid of round {card} asked", lambda card=card: me in session.open or moved_on(card))
                self.lock(True)
                self.wait(f"the lock of round {card} seen", lambda card=card: ctl.locked or moved_on(card))
                # taken (held until the bot's bid, then the round ends), or refused: try again
                self.wait(f"the bid of {card} taken or refused",
                          lambda card=card: me in session.answers or me in session.refused or moved_on(card))
                if me in session.answers:
                    self.wait(f"round {card} over", lambda card=card: moved_on(card))
                tries += 1
                assert tries < 6, f"the bid of {card} was never taken"
        self.wait("the winner", lambda: game().finished)
        self.lock(False)                                    # a lock after the winner: go on
        self.wait("the lock seen open after the winner", lambda: not ctl.locked)
        self.lock(True)
        self.wait("the after-game menu", lambda: isinstance(s.menu, AfterGame) and s.menu._wheels.last)
        after = s.menu
        self.frame("after")
        self.lock(False)
        self.turn("centre", 1, lambda: after.row.value == "home")
        self.lock(True)
        self.wait("home again", lambda: isinstance(s.menu, Home) and s.menu is not h and s.menu._wheels.last)
        self.frame("home-again")
        s.keys.append("escape")


def test_wheels_and_locks_alone_go_from_the_home_screen_to_a_named_game_and_back_home(table, monkeypatch):
    import bitbox.table.lobby as lobby_module
    import bitbox.table.session as session_module
    from bitbox.cli import _play_one
    from bitbox.table.home import home_play, prefs_path, wanted
    from bitbox.table.journal import Journal
    from bitbox_tools.emulate import Emulator

    seen = Seen()
    seen.want_lobby = False
    real_run_lobby = lobby_module.run_lobby

    def run_lobby(hub, lobby, **kw):                        # the real lobby; the test watches it
        seen.lobby = lobby

        def keys() -> list[str]:
            if seen.want_lobby:
                seen.frames["lobby"] = (pygame.display.get_surface().copy(), None)
                seen.want_lobby = False
            return []
        return real_run_lobby(hub, lobby, keys=keys, **kw)
    monkeypatch.setattr(lobby_module, "run_lobby", run_lobby)
    real_init = session_module.Session.__init__

    def init(self, *a, **kw):
        real_init(self, *a, **kw)
        seen.session = self
    monkeypatch.setattr(session_module.Session, "__init__", init)
    from bitbox.table.app import TableLoop
    real_go_on = TableLoop._go_on

    def go_on(self, surface):                               # the game's window after the winner
        band = real_go_on(self, surface)
        seen.frames.setdefault("go on", (surface.copy(), band.copy()))
        return band
    monkeypatch.setattr(TableLoop, "_go_on", go_on)

    with Emulator(1) as emu:
        rest = ["--controller", emu.ports[0], "--speed", "0", "--seed", "5", "--journal", "j.sqlite",
                "--snapshots", "snaps", "--size", "1024x576", "--max-seconds", "90", "--mute"]
        assert wanted(rest) and not wanted([*rest, "--headless"])
        hand = Hand(emu, seen)
        hand.start()
        code = home_play(None, rest, _play_one, keys=seen.take_keys, on_frame=seen.on_frame)
        hand.join(timeout=LIMIT)
    assert hand.error is None, hand.error
    assert code == 0

    # the home screen: every installed game offered; the row under the cursor framed in the accent colour
    first = seen.menus[0]
    assert first.game_row.values == ["outspeed", "goofspiel", "lastonealive"]
    surface, cursor = seen.frames["home"]
    assert cursor is not None and cursor.y > seen.frames["home-first"][1].y       # the cursor went down
    assert tuple(surface.get_at((cursor.x + cursor.w // 2, cursor.y + 1)))[:3] == ACCENT
    inside = {tuple(surface.get_at((x, cursor.centery)))[:3] for x in range(cursor.x, cursor.right, 3)}
    assert len(inside) > 4                                  # label and value drawn in it
    assert tuple(surface.get_at((2, 2)))[:3] == BG
    # the game: goofspiel, 2 players (the controller and a bot), in Spanish, 3 cards, Ada at Red
    with Journal(table / "j.sqlite") as j:
        (info,) = j.games()
    assert info.status == "finished" and info.winners
    assert info.game == "goofspiel" and info.settings["lang"] == "es"
    assert info.settings["options"] == {"cards": 3}
    assert info.settings["names"] == {"red": "Ada"}
    assert [(s["player"], s["kind"]) for s in info.settings["seats"]] == [("red", "controller"), ("blue", "bot")]
    # a frame of the game, from the window: drawn, not blank
    pngs = sorted((table / "snaps").rglob("*.png"))
    assert pngs
    img = pygame.image.load(str(pngs[-1]))
    assert len({tuple(img.get_at((x, y)))[:3] for x in range(0, img.get_width(), 16)
                for y in range(0, img.get_height(), 16)}) > 5
    # after the winner, the game's window says how to go on (a band in the accent colour)
    end, band = seen.frames["go on"]
    assert tuple(end.get_at((band.x, band.centery)))[:3] == ACCENT and band.bottom <= end.get_height()
    # the name is the person's: the standings know Ada
    from bitbox.standings import standings
    with Journal(table / "j.sqlite") as j:
        (ranked,) = standings(j)
    assert [p.name for p in ranked.players] == ["Ada"]
    # the lobby showed the name being spelled; the after-game menu framed its choice
    lobby_frame, _ = seen.frames["lobby"]
    assert lobby_frame.get_size() == (1024, 576)
    after, after_cursor = seen.frames["after"]
    assert after_cursor is not None and tuple(after.get_at((after_cursor.centerx, after_cursor.y + 1)))[:3] == ACCENT
    # back home: the last choices are remembered, in Spanish
    again = seen.menus[-1]
    assert isinstance(again, Home) and again is not first
    assert (again.game_row.value, again.players_row.value, again.lang_row.value) == ("goofspiel", 2, "es")
    assert [r.value for r in again.option_rows] == [3]
    assert again.label(again.game_row) == "Juego"
    saved = json.loads(prefs_path().read_text())
    assert saved["game"] == "goofspiel" and saved["options"]["goofspiel"] == {"cards": 3}
    # the finished game, shared: a replay GIF of it (a frame per turn and the start)
    from PIL import Image

    from bitbox.cli import main as bitbox_main
    assert bitbox_main(["game", "goofspiel", "replay", str(info.id), "--journal", "j.sqlite",
                        "--gif", "game.gif", "--size", "320x180"]) == 0
    with Image.open(table / "game.gif") as gif:
        assert gif.size == (320, 180) and gif.n_frames == 4          # the start and three bids


def test_a_game_refused_in_one_line_comes_back_home_with_that_line(table):
    from bitbox.cli import _play_one
    from bitbox.table.home import home_play
    shown: list = []

    def on_frame(surface, menu, view) -> None:
        if not shown or shown[-1][0] is not menu or menu.problem != shown[-1][1]:
            shown.append((menu, menu.problem, surface.copy()))

    def keys() -> list[str]:
        if not shown:
            return []
        menu, problem, _ = shown[-1]
        return ["escape"] if problem else ["enter"]
    err = __import__("io").StringIO()
    code = home_play("goofspiel", ["--speed", "0", "--journal", "j.sqlite", "--speed", "-1", "--max-seconds", "30"],
                     _play_one, keys=keys, on_frame=on_frame, err=err)
    assert code == 0                                        # left from the home screen, with Esc
    menu, problem, surface = shown[-1]
    assert problem is not None and "--speed" in problem
    # the line is drawn in the colour of trouble
    from bitbox.display.shell import BAD
    assert BAD in {tuple(surface.get_at((x, y)))[:3] for x in range(0, surface.get_width(), 2)
                   for y in range(surface.get_height() * 3 // 4, surface.get_height() - 30, 2)}
