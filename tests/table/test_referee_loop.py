"""The console's referee loop runs a game that is not Outspeed: two players lock a number on
the left wheel; when both have, the input is journaled, then applied. Lock to submit (a lock
from before the prompt must be opened first), pause on a lost controller, refusals told to
one controller only, journal before apply. On the public fake hub (bitbox.testing)."""
from __future__ import annotations

from typing import Any, Mapping

from bitbox.table.referee import Pace, Referee, RefuseChoice, SetLights
from bitbox.table.seating import SeatPlan
from bitbox.testing import FakeHub


class Game:
    def __init__(self) -> None:
        self.turn, self.total, self.applied = 1, 0, []

    def copy(self) -> "Game":
        g = Game()
        g.turn, g.total, g.applied = self.turn, self.total, list(self.applied)
        return g

    def public_view(self) -> dict[str, Any]:
        return {"turn": self.turn, "total": self.total}


class Journal:
    def __init__(self, referee_of: list) -> None:
        self.rows: list[tuple] = []
        self.referee_of = referee_of

    def record(self, kind: str, data: dict[str, Any], *, turn: int, phase: str, state: str) -> None:
        assert self.referee_of[0].game.turn == turn            # journaled before it is applied
        self.rows.append((kind, data, turn, phase, state))

    def finish(self, winners: list[str], state: str | None = None) -> None:
        pass


class PickReferee(Referee):
    input_errors = (ValueError,)

    def colour_of(self, player: str) -> tuple[int, int, int]:
        return (1, 2, 3)

    def _is_active(self, player: str) -> bool:
        return self.game.turn <= 2

    def _begin_phase(self) -> None:
        self.stage = "finished" if self.game.turn > 2 else "pick"
        self.ready: dict[str, int] = {}
        self._new_prompt()
        for p in self.by_player:
            self._evaluate(p)

    def _evaluate(self, player: str) -> None:
        c = self.ctl[player]
        if self.stage != "pick":
            return
        if not c.locked or c.stale:
            self.ready.pop(player, None)
            return
        if c.wheels[0] > 5:
            if player not in self.refused:
                self._refuse(player, "too_big")
            return
        self.ready[player] = c.wheels[0]

    def _progress(self, now: float | None = None) -> None:
        if self.paused or self.stage != "pick" or len(self.ready) < len(self.by_player):
            return
        self._submit("pick", {"numbers": dict(self.ready)})

    def _show(self, before: Any, events: list[Any]) -> None:
        self._begin_phase()

    def _apply_input(self, game: Game, kind: str, data: Mapping[str, Any]) -> list[Any]:
        game.total += sum(data["numbers"].values())
        game.applied.append(dict(data["numbers"]))
        game.turn += 1
        return [("picked", dict(data["numbers"]))]

    def _state_hash(self, game: Game) -> str:
        return f"{game.turn}/{game.total}"

    def _position(self) -> tuple[int, str]:
        return self.game.turn, "pick"

    def _lights_for(self, player: str) -> tuple[bool, bool, bool]:
        return (self.stage == "pick" and player not in self.ready, False, False)


def pump(hub: FakeHub, r: Referee) -> list:
    for e in hub.poll():
        r.handle(e)
    r.update(0.0)
    return r.take_commands()


def test_a_game_of_its_own_on_the_console_referee_loop():
    hub = FakeHub()
    a, b = hub.add_sim(2)
    a.set(left=3, locked=True)                    # locked before the game began: stale
    holder: list = []
    journal = Journal(holder)
    r = PickReferee(Game(), [SeatPlan("ann", 0), SeatPlan("bob", 1)], journal=journal, pace=Pace.instant())
    holder.append(r)
    commands = pump(hub, r)
    assert r.stage == "pick" and r.ctl["ann"].stale and not r.ready
    assert SetLights(0, True, False, False, colour=(1, 2, 3)) in commands
    b.set(left=9, locked=True)                    # illegal: told to bob's controller only
    commands = pump(hub, r)
    assert [c for c in commands if isinstance(c, RefuseChoice)] == [RefuseChoice(1, 1500, 0b001)]
    assert "bob" in r.refused and not journal.rows and not any(e.kind == "too_big" for e in r.log)
    b.set(locked=False)
    b.set(left=4, locked=True)
    a.set(locked=False)
    a.unplug()                                    # lost: the game pauses, nothing is applied
    a.set(left=2, locked=True)                    # (nothing arrives while unplugged)
    pump(hub, r)
    assert r.paused and not journal.rows and r.game.turn == 1
    a.replug()
    pump(hub, r)
    assert not r.paused and journal.rows == [("pick", {"numbers": {"ann": 2, "bob": 4}}, 1, "pick", "1/0")]
    assert r.game.turn == 2 and r.game.total == 6 and r.inputs_applied == 1
    assert r.ctl["ann"].stale and r.ctl["bob"].stale     # a new prompt: open the locks first
    for hand, n in ((a, 1), (b, 1)):
        hand.set(locked=False)
        hand.set(left=n, locked=True)
    pump(hub, r)
    assert r.finished and r.game.applied == [{"ann": 2, "bob": 4}, {"ann": 1, "bob": 1}]
    assert [row[2] for row in journal.rows] == [1, 2]
