"""The optional members of a game's controls and its presentation (docs/games.md, "At the
table"), on the tutorial game: what Last One Alive needs of the console's session, given to
any game. An answer of two locks (each player's own marks, never on the screen), events shown
step by step with the frame after all of them, lights, a private Show, the wheels a refusal
points at, the game's own view, and the hot-seat keyboard turning the wheels."""
from __future__ import annotations

import dataclasses
from typing import Any

from bitbox.events import Connected, WheelsChanged
from bitbox.display.model import LogEntry
from bitbox.table.controls import Marked, Unreadable
from bitbox.table.referee import Pace, RefuseChoice, SetLights, Show
from bitbox.table.seating import SeatPlan
from bitbox.table.session import BotDriver, KeyboardDriver, Presentation, Session, Step

from .goofspiel import Controls
from .test_console_table import Info, cartridge, lock, shown, unlock

PLAYERS = ("red", "blue")


class TwoLocks(Controls):
    """A bid in two locks: the card, then the same card again to confirm (a changed card is
    refused); the rest of the optional members too."""

    def read_marked(self, game: Any, prompt: Any, wheels: tuple[int, int, int], marks: Any) -> Any:
        card = wheels[0]
        if marks is None:
            return Marked(card) if card in prompt.options else Unreadable("refuse.no_card", {"card": card})
        return card if card == marks else Unreadable("refuse.changed")

    def wheels_marked(self, game: Any, prompt: Any, action: Any, marks: Any) -> tuple[int, int, int]:
        return (int(action), 0, 0)

    def lights(self, game: Any, prompt: Any) -> tuple[bool, bool, bool]:
        return (True, False, False)

    def show(self, prompt: Any) -> tuple[int, int, int]:
        return (1 << max(prompt.options), 0, 0)                 # the player's highest card, theirs only

    def refused_wheels(self, prompt: Any) -> int:
        return 0b010



class StepByStep(Presentation):
    """Each event a step of its own (the frame: the table after all of them), and the game's
    own view of the session."""

    def steps(self, before: Any, events: Any, after: Any, game: Any, pace: Any, hold: float) -> list[Step]:
        return [Step((LogEntry(e.kind, dict(e.data)),), pace.step, after, facts={"n": i}) for i, e in enumerate(events)]

    def view(self, session: Any, base: Any, now: float) -> Any:
        return dataclasses.replace(base, banner=("own", {"steps": len(session.steps_shown)}))


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def session(controls: Any = None, clock: Any = None, pace: Pace = Pace.instant()) -> Session:
    c = cartridge()
    s = Session(c, c.new(list(PLAYERS), 5, {"cards": 5}), [SeatPlan(p, i) for i, p in enumerate(PLAYERS)],
                controls=controls or TwoLocks(), pace=pace, clock=clock or (lambda: 0.0))
    for i in range(len(PLAYERS)):
        s.handle(Connected(i, Info(100 + i), 0.0))
        s.handle(WheelsChanged(i, 100 + i, 0, 0, 0, False, 0.0))
    s.update(0.0)
    return s


def test_an_answer_of_two_locks_keeps_each_players_marks_secret_until_it_is_whole():
    a, b = session(), session()
    a.take_commands(), b.take_commands()
    lock(a, 0, 1)
    lock(b, 0, 4)                                   # two different first locks: the same screen
    assert a.marked == {"red": 1} and b.marked == {"red": 4}
    assert shown(a.table()) == shown(b.table())
    assert a.marks is None                          # two players asked: no one's marks are "the" marks
    assert a.awaiting("red") is not None and a.table().status_of("red").status == "unlock"
    lock(a, 0, 2)                                   # still locked: no new lock
    assert a.marked == {"red": 1}
    unlock(a, 0)
    lock(a, 0, 2)                                   # a changed card: refused privately, marks kept
    assert "red" in a.refused and a.marked == {"red": 1} and a.refusal == ("refuse.changed", {})
    assert [c for c in a.take_commands() if isinstance(c, RefuseChoice)] == [RefuseChoice(0, 1500, 0b010)]
    unlock(a, 0)
    assert a.refusal is None
    lock(a, 0, 1)                                   # the same card: the bid is whole
    assert a.awaiting("red") is None and a.marked == {}
    lock(a, 1, 9)                                   # not a card of blue's: refused with its words
    assert a.refusal == ("refuse.no_card", {"card": 9}) and "refusal" not in repr(a.table().view)


def test_bots_enter_an_answer_of_two_locks_lock_by_lock():
    s = session()

    class Wired:
        def __init__(self, seat: int) -> None:
            self.seat = seat
            self.state = {"left": 0, "centre": 0, "right": 0, "locked": False}

        def set(self, settle: bool = False, **kw: Any) -> None:
            self.state.update(kw)
            st = self.state
            s.handle(WheelsChanged(self.seat, 100 + self.seat, st["left"], st["centre"], st["right"], st["locked"], 0.0))

    from bitbox.bots import make_bot
    drivers = [BotDriver(p, Wired(i), make_bot(s.cartridge, "random", i), s.controls, seed=3)
               for i, p in enumerate(PLAYERS)]
    for _ in range(500):
        s.update(0.0)
        for d in drivers:
            d.update(s, 0.0)
        if s.finished:
            break
    assert s.finished and s.game.winners
    assert sum(s.ctl[p].locks for p in PLAYERS) >= 2 * 2 * 5         # two locks a bid, five bids each
    assert sum(s.ctl[p].refusals for p in PLAYERS) == 0


def test_events_are_shown_step_by_step_with_the_frame_after_all_of_them():
    clock = Clock()
    s = session(clock=clock, pace=Pace())
    s.presentation = StepByStep()                   # as a cartridge's presentation() gives it
    for seat, p in enumerate(PLAYERS):
        for _ in range(2):                          # two locks: mark, confirm
            lock(s, seat, s.awaiting(p).options[0])
            unlock(s, seat) if s.awaiting(p) is not None else None
    assert s.stage == "showing"
    events = len(s._steps) + 1                      # the steps still to show, and the first
    assert events >= 2 and len(s.log) == 1          # the first step at once, the others in their time
    assert s.table().view["game"] == s.game.public_view()       # the frame: after every event
    d = Pace().step
    for k in range(1, events):
        clock.now += d / 2
        s.update(clock.now)
        assert len(s.log) == k                      # the step before is held for its duration
        clock.now += d / 2
        s.update(clock.now)
        assert len(s.log) == k + 1 and s.step is not None and s.step.facts == {"n": k}
        assert s.table().banner == ("own", {"steps": k + 1})    # the game's own view
        assert s.table().view["game"] == s.game.public_view()
    clock.now += d
    s.update(clock.now)
    assert s.stage == "prompt" and s.step is None
    assert [m[0] for m in s.take_milestones()] == ["turn_end"]


def test_lights_and_show_go_to_the_controller_asked_only():
    s = session()
    commands = s.take_commands()
    lights = {c.seat: (c.left, c.centre, c.right) for c in commands if isinstance(c, SetLights)}
    assert lights == {0: (True, False, False), 1: (True, False, False)}
    shows = {c.seat: (c.left, c.centre, c.right) for c in commands if isinstance(c, Show)}
    assert shows == {0: (1 << 5, 0, 0), 1: (1 << 5, 0, 0)}
    lock(s, 0, 3)
    unlock(s, 0)
    lock(s, 0, 3)                                   # red's bid is whole: red's lights, Show, cleared
    commands = s.take_commands()
    assert [(c.seat, c.left) for c in commands if isinstance(c, SetLights)] == [(0, False)]
    assert [(c.seat, c.left) for c in commands if isinstance(c, Show)] == [(0, 0)]


def test_the_keyboard_turns_the_wheels_when_the_controls_say_so():
    class Sim:
        def __init__(self, seat: int) -> None:
            self.seat = seat
            self.state = {"left": 0, "centre": 0, "right": 0, "locked": False}

        def set(self, left: Any = None, centre: Any = None, right: Any = None, locked: Any = None) -> None:
            for k, v in (("left", left), ("centre", centre), ("right", right), ("locked", locked)):
                if v is not None:
                    self.state[k] = v
            st = self.state
            s.handle(WheelsChanged(self.seat, 100 + self.seat, st["left"], st["centre"], st["right"], st["locked"], 0.0))

    class Wheels(TwoLocks):
        keyboard = "wheels"

        def private_line(self, prompt: Any, words: Any) -> str:
            return f"best {max(prompt.options)}"

    class Words:
        @staticmethod
        def t(key: str) -> str:
            return key

    s = session(Wheels())
    kb = KeyboardDriver({p: Sim(i) for i, p in enumerate(PLAYERS)}, s.controls, Words())
    pad = kb.pad(s, Words())
    assert pad is not None and pad["player"] == "red" and pad["lines"][:1] == ["▶ wheel.left: 0"]
    assert pad["lines"][-1] == "pad.hidden"         # the private line only on Tab
    kb.key(s, "tab")
    assert kb.pad(s, Words())["lines"][-1] == "best 5 (Tab)"
    kb.key(s, "tab")
    for _ in range(3):
        kb.key(s, "up")                             # the left wheel to 3
    kb.key(s, "enter")                              # lock: the card marked
    assert s.marked == {"red": 3}
    kb.key(s, "enter")                              # open
    kb.key(s, "enter")                              # and lock again: the bid is whole
    assert s.awaiting("red") is None and kb.current(s) == "blue"


def test_a_lost_controller_stops_the_showing_and_an_automatic_answer_until_it_is_back():
    """A lost controller of a player asked pauses the table: nothing more is revealed or
    applied, also while an answer is being shown and for an answer the table would give by
    itself (every open prompt automatic); the table goes on once the controller is back."""
    from bitbox.events import Back, Lost

    clock = Clock()
    s = session(clock=clock, pace=Pace())
    s.presentation = StepByStep()
    for seat, p in enumerate(PLAYERS):
        for _ in range(2):
            lock(s, seat, s.awaiting(p).options[0])
            unlock(s, seat) if s.awaiting(p) is not None else None
    assert s.stage == "showing" and len(s.log) == 1
    s.handle(Lost(1, 101, "unplugged", clock.now))
    assert s.paused
    logged = len(s.log)
    for _ in range(20):
        clock.now += 5 * Pace().step
        s.update(clock.now)
    assert s.stage == "showing" and len(s.log) == logged          # nothing more revealed
    s.handle(Back(1, 101, "pty", clock.now))
    for _ in range(20):
        clock.now += Pace().step
        s.update(clock.now)
    assert s.stage == "prompt" and len(s.log) > logged             # the rest shown, the next round asked

    # every open prompt automatic: answered by the table at once, unless a controller is lost
    auto = session()
    game = auto.game
    real = type(game).prompts

    def prompts_auto(self: Any) -> Any:
        return [dataclasses.replace(p, context={**p.context, "auto": True}) for p in real(self)]
    type(game).prompts = prompts_auto                              # (undone below)
    try:
        auto.handle(Lost(0, 100, "unplugged", 0.0))
        auto._begin_phase()
        assert auto.stage == "prompt" and auto.inputs_applied == 0 and auto.awaiting("red") is None
        auto.update(1.0)
        assert auto.inputs_applied == 0                            # paused: not applied
        auto.handle(Back(0, 100, "pty", 1.0))
        auto.update(2.0)
        assert auto.inputs_applied >= 1                            # back: the table answers it
    finally:
        type(game).prompts = real
