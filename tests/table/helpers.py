"""A referee session on a fake hub with a fake clock, and small hands to turn the wheels."""
from __future__ import annotations

from typing import Any, Sequence

from bitbox.table.referee import AssignSeat, Hint, Identify, Pace, RefuseChoice, SetLights
from bitbox.table.seating import SeatPlan
from bitbox.table.session import BotDriver, KeyboardDriver, Session
from bitbox.wheels import load_wheel_map
from outspeed.content import load_content
from outspeed.display.model import PLAYER_ORDER
from outspeed.rules import Game
from bitbox.table.command import CartridgeTable, bot_of, session_of
from outspeed.cartridge import CARTRIDGE
from outspeed.controls import Controls

from bitbox.testing import FakeHub

WM = load_wheel_map(game="outspeed")
TableLoop = CartridgeTable(CARTRIDGE, "outspeed").loop()      # Outspeed's table loop, as `outspeed play` runs it
CONTENT = load_content()


def outspeed_session(game: Game, plans: Sequence[SeatPlan], **kwargs: Any) -> Session:
    """Outspeed at the console's session, as its table seats it (``outspeed play``)."""
    return session_of(CARTRIDGE, game, plans, Controls(WM), **kwargs)


def outspeed_bot(player: str, sim: Any, bot: str, seed: int, think: float = 0.0) -> BotDriver:
    """One of Outspeed's bots on a simulated controller, as its table seats it."""
    return bot_of(CARTRIDGE, player, sim, bot, Controls(WM), seed=seed, think=think)


def outspeed_keyboard(sims: Any, words: Any) -> KeyboardDriver:
    """The keyboard hot-seat of Outspeed's table."""
    return KeyboardDriver(sims, Controls(WM), words)


def stage_of(session: Session) -> str:
    """The table's stage, as the screen names it: waiting, bonus, programming, draw, showing,
    finished."""
    return session.table().stage


def pending_bonus(session: Session) -> list[str]:
    """The players asked for their bonus play now (their zone's turn, not yet declared)."""
    return [p for p, prompt in session.open.items() if prompt.kind == "bonus" and session.awaiting(p) is not None]


def new_game(players: int = 4, seed: int = 1, token_mode: str = "virtual", first_game: bool = False) -> Game:
    return Game.new(PLAYER_ORDER[:players], CONTENT.tiles, seed=seed, first_game=first_game, dice=CONTENT.dice,
                    token_counts=CONTENT.token_counts, markers=CONTENT.markers, token_mode=token_mode)


class Table:
    def __init__(self, game: Game | None = None, *, players: int = 4, seed: int = 1, token_mode: str = "virtual",
                 journal: Any = None, pace: Pace = Pace.instant(), bots: Sequence[str] = (), bot: str = "random",
                 inputs_applied: int = 0, first_game: bool = False) -> None:
        self.now = 0.0
        self.hub = FakeHub(clock=lambda: self.now)
        game = game or new_game(players, seed, token_mode, first_game)
        names = list(game.state.players)
        self.sims = dict(zip(names, self.hub.add_sim(len(names))))
        plans = [SeatPlan(p, i, "bot" if p in bots else "controller") for i, p in enumerate(names)]
        self.session = outspeed_session(game, plans, journal=journal, pace=pace, clock=lambda: self.now,
                                        inputs_applied=inputs_applied)
        self.drivers = [outspeed_bot(p, self.sims[p], bot, game.state.seed) for p in bots]
        self.commands: list[Any] = []

    @property
    def s(self) -> Session:
        return self.session

    @property
    def game(self) -> Game:
        """The rules engine's game (the session's is the cartridge's around it)."""
        return self.session.game.engine

    @property
    def stage(self) -> str:
        return stage_of(self.session)

    def pending_bonus(self) -> list[str]:
        return pending_bonus(self.session)

    def ready(self) -> list[str]:
        """The players whose programming is locked in (not yet revealed)."""
        s = self.session
        return [p for p in s.answers if s.open[p].kind == "program"]

    def pump(self, dt: float = 0.0, rounds: int = 3) -> None:
        self.now += dt
        for _ in range(rounds):
            for e in self.hub.poll():
                self.session.handle(e)
            self.session.update(self.now)
            for d in self.drivers:
                d.update(self.session, self.now)
            for c in self.session.take_commands():
                self.commands.append(c)
                if isinstance(c, AssignSeat):
                    self.hub.assign_seat(c.seat, c.colour)
                elif isinstance(c, SetLights):
                    self.hub.set_lights(c.seat, c.left, c.centre, c.right, c.colour)
                elif isinstance(c, Identify):
                    self.hub.identify(c.seat, c.ms)
                elif isinstance(c, RefuseChoice):
                    self.hub.refuse_choice(c.seat, c.ms, c.wheels)
                elif isinstance(c, Hint):
                    self.hub.hint(c.seat, c.left, c.centre, c.right)

    def run(self, limit: int = 20000, dt: float = 0.0) -> None:
        for _ in range(limit):
            if self.session.finished:
                return
            self.pump(dt, rounds=1)
        raise AssertionError(f"the game did not finish (stage {self.stage}, turn {self.game.state.turn})")

    # hands on the wheels
    def unlock(self, player: str) -> None:
        self.sims[player].set(locked=False)
        self.pump()

    def program(self, player: str, path: str | None, number: int | None = None, lock: bool = True) -> None:
        sim = self.sims[player]
        if sim.locked:
            sim.set(locked=False)
        right = WM.position_for("right", path) if path else 0
        centre = WM.position_for("centre", number) if number is not None else None
        sim.set(right=right, centre=centre, locked=lock)
        self.pump()

    def declare(self, player: str, token: str | None, lock: bool = True) -> None:
        sim = self.sims[player]
        if sim.locked:
            sim.set(locked=False)
        sim.set(left=WM.position_for("left", token or "none"), locked=lock)
        self.pump()

    def keep(self, player: str, token: str) -> None:
        self.declare(player, token)
