"""Hostile controllers at a real table (issue 13, items 3-7), in this process: the reference
firmware in the emulator on pseudo-terminals, pyserial, the hub, and the referee session on
top. Rows of the ``rogues`` campaign, beside the rogue devices of another process."""
from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from .core import Row, _content

CLONE_ID = 0x8B17_0000_0000_0777


class _HubLog(logging.Handler):
    """The hub's log lines, each with whether the hub's lock was held when it was written."""

    def __init__(self, hub: Any) -> None:
        super().__init__(logging.DEBUG)
        self.hub = hub
        self.records: list[tuple[str, bool]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append((record.getMessage(), self.hub._lock._is_owned()))


class _Listening:
    def __init__(self, hub: Any) -> None:
        from bitbox import hub as hub_module
        self.logger = hub_module.log
        self.handler = _HubLog(hub)

    def __enter__(self) -> _HubLog:
        self.old = self.logger.level
        self.logger.addHandler(self.handler)
        self.logger.setLevel(logging.DEBUG)
        return self.handler

    def __exit__(self, *exc: Any) -> None:
        self.logger.removeHandler(self.handler)
        self.logger.setLevel(self.old)


def _connected(hub: Any, n: int, timeout: float = 10.0) -> tuple[dict[int, int], list[Any]]:
    """(controller id -> seat, the events seen) once ``n`` controllers are connected."""
    from bitbox.events import Connected
    seats: dict[int, int] = {}
    seen: list[Any] = []
    deadline = time.monotonic() + timeout
    while len(seats) < n and time.monotonic() < deadline:
        for e in hub.poll(timeout=0.05):
            seen.append(e)
            if isinstance(e, Connected):
                seats[e.info.controller_id] = e.seat
    return seats, seen


def _until(predicate: Callable[[], bool], timeout: float = 8.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return predicate()


class _PtyTable:
    """``n`` emulated controllers on ptys, a hub, and a session seating them in order."""

    def __init__(self, emu: Any, game: Any) -> None:
        from bitbox.controllers import ControllersConfig
        from bitbox.hub import Hub
        from bitbox.table.referee import Pace
        from bitbox.table.seating import SeatPlan
        from .core import session_of
        _, wm = _content()
        self.hub = Hub(config=ControllersConfig())
        for port in emu.ports:
            self.hub.add_url(port)
        self.hub.start()
        seats, pending = _connected(self.hub, len(emu.ports))
        if len(seats) < len(emu.ports):
            self.hub.close()
            raise AssertionError(f"only {len(seats)} controllers connected: {self.hub.links()}")
        ids = [vc.controller_id for vc in emu.controllers]
        self.index = {p: i for i, p in enumerate(game.state.players)}
        plans = [SeatPlan(p, seats[ids[i]], "controller", ids[i]) for p, i in self.index.items()]
        self.session = session_of(game, plans, wm, pace=Pace.instant())
        for e in pending:
            self.session.handle(e)
        self.session.update()

    def pump_until(self, predicate: Callable[[], bool], timeout: float = 8.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for e in self.hub.poll(timeout=0.02):
                self.session.handle(e)
            self.session.update()
            if predicate():
                return True
        return predicate()


def _game(players: int, seed: int) -> Any:
    from outspeed.display.model import PLAYER_ORDER
    from outspeed.rules import Game
    content, _ = _content()
    return Game.new(list(PLAYER_ORDER[:players]), content.tiles, seed=seed, dice=content.dice,
                    token_counts=content.token_counts, markers=content.markers, token_mode="virtual")


def clone_while_silent() -> Row:
    """Item 3: a same-id clone plugged in while the real controller is silent for 0.7 s (longer
    than "moved", shorter than the loss timeout) is refused and reported; the real one keeps
    its seat; pulled out for good, its seat may go to the twin."""
    from bitbox.controllers import ControllersConfig
    from bitbox.events import Rejected, WheelsChanged
    from bitbox.hub import Hub
    from bitbox_tools.emulate import Emulator
    problems: list[str] = []
    said = ""
    with Emulator(2, ids=[CLONE_ID, CLONE_ID]) as emu:
        hub = Hub(config=ControllersConfig())
        with _Listening(hub) as log:
            try:
                real, clone = emu.ports
                assert real is not None and clone is not None    # Emulator() opened both ports
                hub.add_url(real)
                hub.start()
                seats, _ = _connected(hub, 1)
                seat = next(iter(seats.values()), None)
                emu.controllers[0].paused = True
                time.sleep(0.7)
                hub.add_url(clone)
                got = hub.poll_until(lambda e: isinstance(e, Rejected), 10)
                rejected = [e for e in got if isinstance(e, Rejected)]
                if not (rejected and rejected[0].port == clone and "two controllers with one id" in rejected[0].reason):
                    problems.append("the clone was not refused")
                if any(type(e).__name__ == "Back" and getattr(e, "port", None) == clone for e in got):
                    problems.append("the clone took the seat")
                named = [t for t, _ in log.records if clone in t and "two controllers with one id" in t]
                if not named:
                    problems.append("not reported in the log")
                said = (named or [""])[0]
                emu.controllers[0].paused = False
                emu.set(0, right=3)
                got = hub.poll_until(lambda e: isinstance(e, WheelsChanged) and e.right == 3, 10)
                if [e.seat for e in got if isinstance(e, WheelsChanged) and e.right == 3] != [seat]:
                    problems.append("the real controller was not heard on its seat again")
                emu.set(1, right=2)
                got = hub.poll_until(lambda e: False, 0.5)
                if any(isinstance(e, WheelsChanged) and e.right == 2 for e in got):
                    problems.append("the clone's wheels reached the game")
                emu.disconnect(0)
                got = hub.poll_until(lambda e: type(e).__name__ == "Back", 10)
                if not any(type(e).__name__ == "Back" and getattr(e, "port", None) == clone for e in got):
                    problems.append("the twin did not get the seat once the real one was unplugged")
            finally:
                hub.close()
    return Row("Clone plugged in while the real controller is only silent",
               "two emulated controllers with one id on pseudo-terminals; the real one silent 0.7 s (longer than "
               "\"moved\", shorter than the loss timeout) when the clone is plugged in; then the real one talks "
               "again; then it is unplugged", "1 clone",
               (f"refused and reported (\"{said[:140]}\"); the real controller kept its seat and was heard again; "
                f"the clone's wheels never reached the game; once the real one was unplugged, the twin took the seat")
               if not problems else "; ".join(problems), not problems, {"problems": problems})


def reflashed_seated() -> Row:
    """Item 4: a seated controller that says Hello with protocol 2.0 is lost, the game paused
    naming its player; flashed back, it is welcomed and the game goes on."""
    from bitbox_tools.emulate import Emulator
    problems: list[str] = []
    with Emulator(3) as emu:
        t = _PtyTable(emu, _game(3, 4))
        try:
            s = t.session
            victim = "blue"
            vc = emu.controllers[t.index[victim]]
            vc.protocol = (2, 0)
            emu.reset(t.index[victim])
            if not t.pump_until(lambda: s.paused):
                problems.append("the game did not pause")
            table = s.table()
            if table.banner != ("banner.paused", {"players": [victim]}):
                problems.append(f"banner {table.banner!r}")
            if [e.data for e in s.log if e.kind == "lost"] != [{"player": victim}]:
                problems.append("the loss was not logged naming the player")
            if not any(e.kind == "rejected" and "2.0" in e.data.get("reason", "") for e in s.log):
                problems.append("the refusal was not logged")
            if any(st.connected for st in t.hub.seats() if st.controller_id == vc.controller_id):
                problems.append("its seat stayed connected")
            vc.protocol = None
            emu.reset(t.index[victim])
            if not t.pump_until(lambda: not s.paused):
                problems.append("flashed back, it was not welcomed")
        finally:
            t.hub.close()
    return Row("A seated controller reflashed to protocol 2.0",
               "3-player game on emulated controllers (pseudo-terminals); one player's controller reboots saying "
               "Hello with protocol 2.0; then flashed back to 1.x", "1 controller",
               "refused; its seat declared lost, the game paused with the banner naming the player (\"blue\"), the "
               "loss and the refusal in the log; flashed back, it was welcomed and the game went on"
               if not problems else "; ".join(problems), not problems, {"problems": problems})


def error_flood_beside_a_player(reports: int = 2000) -> Row:
    """Items 5 and 6: about 2,000 ErrorReports as fast as a line takes them, one with a forged
    text: a few log lines, none written under the hub's lock, escaped; the other controller is
    heard meanwhile."""
    import firmware_protocol as fp
    from bitbox import hub as hub_module
    from bitbox.controllers import ControllersConfig
    from bitbox.events import WheelsChanged
    from bitbox.hub import Hub
    from bitbox_tools.emulate import Emulator
    from .rogues import FORGED_ERROR
    problems: list[str] = []
    counted = 0
    with Emulator(2) as emu:
        hub = Hub(config=ControllersConfig())
        with _Listening(hub) as log:
            try:
                for port in emu.ports:
                    assert port is not None                          # Emulator() opened every port
                    hub.add_url(port)
                hub.start()
                seats, _ = _connected(hub, 2)
                noisy = emu._ports[0]
                assert noisy is not None
                noisy.write(fp.encode(fp.ErrorReport(fp.ErrorCode.INTERNAL, FORGED_ERROR)))
                frame = fp.encode(fp.ErrorReport(fp.ErrorCode.WHEEL_FAULT, "left wheel stuck"))
                for _ in range(reports // 50):
                    noisy.write(frame * 50)
                    time.sleep(0.005)
                emu.set(1, centre=5)
                quiet = seats.get(emu.controllers[1].controller_id)
                got = hub.poll_until(lambda e: isinstance(e, WheelsChanged) and e.seat == quiet and e.centre == 5, 10)
                if not any(isinstance(e, WheelsChanged) and e.seat == quiet for e in got):
                    problems.append("the other controller was not heard")
                hub.poll_until(lambda e: False, 0.3)
                link = next(lk for lk in hub._links if lk.port == emu.ports[0])
                counted = link.error_reports
                lines = [t for t, _ in log.records if "reports error" in t]
                if not 1 <= len(lines) <= hub_module._ERRORS_LOGGED:
                    problems.append(f"{len(lines)} ErrorReport log lines")
                if any(held for _, held in log.records):
                    problems.append("logged while holding the hub's lock")
                if any(c in t for t, _ in log.records for c in "\n\r\x1b"):
                    problems.append("a device's text reached the log unescaped")
                if not any("Winner: Green" in t and "\\n" in t for t in lines):
                    problems.append("the forged text was not logged escaped")
            finally:
                hub.close()
    return Row("ErrorReport flood beside a player's controller",
               f"{reports:,} ErrorReports written as fast as a pseudo-terminal takes them, the first one's text "
               f"forging a line (a newline, 'Winner: Green', terminal escapes); another controller turns a wheel",
               f"{counted:,} ErrorReports counted by the hub",
               f"rate-limited: at most {hub_module._ERRORS_LOGGED} log lines, none written while holding the hub's "
               f"lock; control characters escaped (\\n, \\x1b); the other controller heard meanwhile"
               if not problems else "; ".join(problems), not problems, {"problems": problems, "counted": counted})


def bonus_unlisted_stop() -> Row:
    """Item 7: in the bonus phase a lock on a left-wheel stop wheels.yaml does not list is
    refused as unreadable (privately, to that controller), not taken as "no token"."""
    from bitbox_tools.emulate import Emulator
    from bitbox.table.referee import RefuseChoice
    _, wm = _content()
    game = _game(3, 5)
    game.state.held["red"] = ["nitro"]
    game.state.zone.update(red=6)
    unlisted = next(p for p in range(16) if wm.meaning("left", p) is None)
    none = wm.position_for("left", "none")
    problems: list[str] = []
    with Emulator(3) as emu:
        t = _PtyTable(emu, game)
        try:
            s = t.session
            asked = [p for p, prompt in s.open.items() if prompt.kind == "bonus" and s.awaiting(p) is not None]
            if asked != ["red"]:
                problems.append(f"not at red's bonus choice ({s.table().stage})")
            i = t.index["red"]
            emu.set(i, left=unlisted, locked=True)
            if not t.pump_until(lambda: "red" in s.refused):
                problems.append("not refused")
            if "red" in s.declared or any(e.kind.startswith("declared") for e in s.log):
                problems.append("taken as a declaration")
            refusals = [c for c in s.take_commands() if isinstance(c, RefuseChoice)]
            if [c.seat for c in refusals] != [s.by_player["red"].seat]:
                problems.append("the refusal was not told to red's controller alone")
            if any(e.kind == "must_redeclare" for e in s.log):
                problems.append("the refusal was announced publicly")
            emu.set(i, locked=False)
            if not t.pump_until(lambda: not s.controller("red").locked):     # a new try once the lock opened
                problems.append("the lock did not open")
            emu.set(i, left=none, locked=True)
            if not t.pump_until(lambda: any(e.kind == "declared_none" for e in s.log)):
                problems.append("the stop meaning \"none\" did not play no token")
            if game.state.held["red"] != ["nitro"]:
                problems.append("a token was spent")
        finally:
            t.hub.close()
    return Row("Bonus phase: a lock on a left stop wheels.yaml does not list",
               f"3-player game on emulated controllers; the player choosing a bonus token locks the left wheel on "
               f"stop {unlisted} (not in the map), then on the stop meaning \"none\"", "1 lock",
               "refused as unreadable, told to that controller alone (protocol 1.1), not in the log; then \"none\" "
               "played no token, the token kept" if not problems else "; ".join(problems), not problems,
               {"problems": problems})


def controller_rows() -> list[Row]:
    rows = []
    for case in (clone_while_silent, reflashed_seated, error_flood_beside_a_player, bonus_unlisted_stop):
        try:
            rows.append(case())
        except Exception as exc:  # noqa: BLE001 - a case that cannot run is a failed row
            rows.append(Row(case.__doc__.split(":")[0] if case.__doc__ else case.__name__, "-", "-",
                            f"the case failed: {exc!r}", False))
    return rows
