"""Service mode: the controller test screen and ``bitbox identify`` (any game).

    bitbox test-controllers [--controller URL ...] [--seconds S] [--snapshot FILE.png]
    bitbox identify PORT|ID [--ms 3000]

:func:`run_test_screen` shows every controller the hub holds, live (wheel positions, lock,
frames and bad frames); **L** runs the lights test (every light of every controller, cycling
through the seat colours), **I** blinks them all, **Esc** goes back. The lobby opens it with
**T**. Headless (no display), it prints one line per controller instead.

:func:`identify` blinks one controller, found by its port (as given, or as discovered) or
by its id (the 16 hex digits `bitbox ports` prints, or their first or last digits).
"""
from __future__ import annotations

import sys
import time
from typing import Any, TextIO

from collections import deque
from dataclasses import dataclass, field

from bitbox.colours import LIGHT_RGB, SEAT_COLOURS
from bitbox.events import Connected, WheelsChanged
from bitbox.i18n import counted

from .labels import short_id


def lights_step(hub: Any, step: int) -> None:
    """One step of the lights test: every path light of every controller on, the colour LED
    in the ``step``-th seat colour (then all off on odd steps)."""
    on = step % 2 == 0
    colour = LIGHT_RGB[SEAT_COLOURS[(step // 2) % len(SEAT_COLOURS)]] if on else (0, 0, 0)
    for s in hub.seats():
        if s.connected:
            try:
                hub.set_lights(s.seat, on, on, on, colour=colour)
            except KeyError:
                pass


#: The lights of a controller, one at a time, in the per-light test (then all off).
LIGHTS = ("left", "centre", "right", "led")
#: Seconds of bad-frame history the rate is computed over.
RATE_WINDOW = 10.0


def light_step(hub: Any, step: int) -> str | None:
    """One step of the per-light test: only the ``step``-th light of :data:`LIGHTS` of every
    controller on (the colour LED in a seat colour that changes each round), then a step with
    every light off. Returns the light lit (None: all off)."""
    k = step % (len(LIGHTS) + 1)
    light = LIGHTS[k] if k < len(LIGHTS) else None
    colour = LIGHT_RGB[SEAT_COLOURS[(step // (len(LIGHTS) + 1)) % len(SEAT_COLOURS)]] if light == "led" else (0, 0, 0)
    for s in hub.seats():
        if s.connected:
            try:
                hub.set_lights(s.seat, light == "left", light == "centre", light == "right", colour=colour)
            except KeyError:
                pass
    return light


@dataclass
class Bench:
    """What the service screen knows of one controller (by id), kept while it is lost."""

    controller_id: int
    port: str | None = None
    firmware: str | None = None
    protocol: tuple[int, int] | None = None
    positions: tuple[int, int, int] = (16, 16, 16)
    seen: list[int] = field(default_factory=lambda: [0, 0, 0])        # bit p: stop p reached
    bad: deque = field(default_factory=deque)                          # (t, bad frames) samples

    def seen_all(self) -> bool:
        return all(self.seen[i] == (1 << self.positions[i]) - 1 for i in range(3))


class ServiceBench:
    """The service screen's bookkeeping over the hub's events and counters: per controller,
    firmware and protocol, the stops each wheel has reached ("seen"), the age of its last
    frame, its bad frames and their rate over the last :data:`RATE_WINDOW` seconds, kept
    visible when it is lost; what each wheel means for a game (``wheel_map``); and the lights
    it lit, put back when the screen closes (:meth:`restore`)."""

    def __init__(self, hub: Any, wheel_map: Any = None, clock: Any = time.monotonic) -> None:
        self.hub, self.wheel_map, self.clock = hub, wheel_map, clock
        self.benches: dict[int, Bench] = {}
        self._saved: dict[int, tuple[Any, Any]] = {}

    def _bench(self, cid: int) -> Bench:
        if cid not in self.benches:
            self.benches[cid] = Bench(cid)
        return self.benches[cid]

    def _save(self, seat: int) -> None:
        if seat not in self._saved and hasattr(self.hub, "lights_of"):
            try:
                self._saved[seat] = self.hub.lights_of(seat)
            except KeyError:
                pass

    def handle(self, event: Any) -> None:
        if isinstance(event, Connected):
            b = self._bench(event.info.controller_id)
            i = event.info
            b.port, b.firmware, b.protocol, b.positions = i.port, i.firmware, i.protocol, i.positions
            self._save(event.seat)
        elif isinstance(event, WheelsChanged):
            b = self._bench(event.controller_id)
            for k, p in enumerate((event.left, event.centre, event.right)):
                b.seen[k] |= 1 << int(p)

    def rows(self) -> list[dict[str, Any]]:
        """One row per controller seen: id, port, connected, locked, wheels, meanings, seen
        grid, firmware, protocol, age of the last frame (s), bad frames and their rate."""
        now = self.clock()
        link_of: dict[int, Any] = {}
        for l in self.hub.links():
            if l.controller_id is not None and (l.seat is not None or l.controller_id not in link_of):
                link_of[l.controller_id] = l        # the seat's own device, not a refused twin of its id
        out = []
        for s in self.hub.seats():
            if s.controller_id is None:
                continue
            b = self._bench(s.controller_id)
            self._save(s.seat)
            if b.protocol is None and hasattr(self.hub, "info"):
                info = self.hub.info(s.seat)
                if info is not None:
                    b.firmware, b.protocol, b.positions = info.firmware, info.protocol, info.positions
            for k, p in enumerate(s.wheels):
                if s.connected and getattr(s, "reported", True):     # (not a position it never reported)
                    b.seen[k] |= 1 << int(p)
            b.port = s.port or b.port
            link = link_of.get(s.controller_id)
            b.bad.append((now, s.bad_frames))
            while len(b.bad) > 2 and now - b.bad[1][0] >= RATE_WINDOW:
                b.bad.popleft()
            t0, n0 = b.bad[0]
            rate = (s.bad_frames - n0) / (now - t0) if now - t0 >= 1.0 else 0.0
            meanings = None
            if self.wheel_map is not None:
                meanings = [self._meaning(w, p) for w, p in zip(("left", "centre", "right"), s.wheels)]
            out.append({"controller": s.controller_id, "seat": s.seat, "port": b.port, "connected": s.connected,
                        "locked": s.locked, "wheels": list(s.wheels), "reported": getattr(s, "reported", True),
                        "meanings": meanings,
                        "seen": list(b.seen), "positions": list(b.positions), "firmware": b.firmware,
                        "protocol": b.protocol, "age": link.last_frame_age if link is not None else None,
                        "frames": link.frames if link is not None else None, "bad_frames": s.bad_frames,
                        "bad_rate": rate})
        return out

    def _meaning(self, wheel: str, position: int) -> str:
        try:
            m = self.wheel_map.meaning(wheel, position)
        except (KeyError, ValueError, IndexError):
            return "—"
        return "—" if m is None else str(m)

    def restore(self) -> None:
        """Leaving: every path light off, the colour LED back to the colour the controller had
        when the screen opened (its seat colour), any blinking stopped: a controller never
        keeps the test screen's colours."""
        for s in self.hub.seats():
            if not s.connected:
                continue
            _lights, colour = self._saved.get(s.seat, (None, None))
            try:
                self.hub.identify(s.seat, ms=0)
                self.hub.set_lights(s.seat, False, False, False, colour=colour)
            except KeyError:
                pass


def unanswered_lines(hub: Any) -> list[str]:
    """One line per device the hub holds that has no controller row (it never said Hello, or
    was refused): a maker testing a controller that does not answer is told so, and how."""
    out = []
    for link in hub.links():
        if link.kind == "sim" or link.state == "active":
            continue
        if link.rejected:
            why = f"refused: {link.rejected}"
        elif link.state == "handshake" and link.frames:
            why = (f"{counted(link.frames, 'frame', 'frames')} but no Hello, not even in answer to the "
                   f"host's HostHello (SPEC.md 7.4): not seated")
        elif link.state == "handshake":
            why = "no answer: no Hello, not even in answer to the host's HostHello"
        else:
            why = f"not open: {link.last_error}" if link.last_error else "not open"
        out.append(f"{link.port}: {why}")
    return out


def line_of(row: dict[str, Any]) -> str:
    """A row of :meth:`ServiceBench.rows` as one line (headless)."""
    from .labels import short_id
    cid = short_id(row["controller"])
    if row.get("reported", True):
        wheels = " ".join(str(w) for w in row["wheels"])
        meaning = f" ({' / '.join(row['meanings'])})" if row["meanings"] else ""
        lock = "locked" if row["locked"] else "open"
    else:                                   # connected, no State yet: never a made-up position
        wheels, meaning, lock = "? ? ?", "", "lock ?"
    seen = " ".join(f"{bin(m).count('1')}/{n}" for m, n in zip(row["seen"], row["positions"]))
    version = (f"firmware {row['firmware']}, protocol {row['protocol'][0]}.{row['protocol'][1]}"
               if row["protocol"] else "firmware ?")
    age = f"last frame {row['age'] * 1000:.0f} ms ago" if row["age"] is not None else "no frame"
    return (f"{cid} {row['port']}: wheels {wheels}{meaning}, {lock}, "
            f"{counted(row['bad_frames'], 'bad frame', 'bad frames')} ({row['bad_rate']:.1f}/s), "
            f"seen {seen}, {version}, {age}{'' if row['connected'] else ', lost'}")


def run_test_screen(hub: Any, screen: Any = None, *, seconds: float | None = None, snapshot: str | None = None,
                    keys: Any = None, out: TextIO | None = None, on_event: Any = None, lang: str = "en",
                    wheel_map: Any = None) -> int:
    """The controller test screen until Esc (or ``seconds``); returns the number of frames.
    ``keys``: a test's key presses (names "lights", "identify", "escape"), called each frame;
    ``on_event``: called with every hub event polled (the lobby keeps up while it is open).
    ``lang``: the language of the screen (bitbox.i18n); ``wheel_map``: a game's wheel map, to
    show what each wheel's position means. **L** runs the per-light test (each light of every
    controller in turn); leaving switches the path lights off and puts back each controller's
    colour LED as it was (:meth:`ServiceBench.restore`)."""
    import pygame

    from bitbox.display.lobby import TestScreen
    view = TestScreen((1920, 1080))
    bench = ServiceBench(hub, wheel_map)
    clock = pygame.time.Clock()
    started = time.monotonic()
    lights, step, last_step, frames = False, 0, 0.0, 0
    light: str | None = None
    surface = screen if screen is not None else pygame.Surface((1920, 1080))
    while True:
        for e in hub.poll(timeout=0.0 if screen is not None else 0.02):
            bench.handle(e)
            if on_event is not None:
                on_event(e)
        pressed = list(keys()) if keys is not None else []
        if screen is not None:
            for ev in pygame.event.get():
                if ev.type == pygame.QUIT:
                    pressed.append("escape")
                elif ev.type == pygame.KEYDOWN:
                    pressed.append({pygame.K_l: "lights", pygame.K_i: "identify", pygame.K_ESCAPE: "escape",
                                    pygame.K_t: "escape"}.get(ev.key, ""))
        done = False
        for k in pressed:
            if k == "escape":
                done = True
            elif k == "lights":
                lights, step, last_step = not lights, 0, 0.0
                if not lights:
                    light = None
                    bench.restore()
            elif k == "identify":
                for s in hub.seats():
                    if s.connected:
                        hub.identify(s.seat, ms=2000)
        now = time.monotonic()
        if lights and now - last_step > 0.6:
            light = light_step(hub, step)
            step, last_step = step + 1, now
        if seconds is not None and now - started >= seconds:
            done = True
        rows = bench.rows()
        if done:
            bench.restore()
            if snapshot:
                view.draw(surface, hub.seats(), hub.links(), lights, lang=lang, rows=rows, light=light)
                pygame.image.save(surface, snapshot)
            if out is not None:
                for row in rows:
                    print(line_of(row), file=out)
            return frames
        if screen is not None:
            surface = pygame.display.get_surface()
            assert surface is not None                  # the screen is set
            view.draw(surface, hub.seats(), hub.links(), lights, lang=lang, rows=rows, light=light)
            pygame.display.flip()
            clock.tick(30)
        frames += 1


def find_controller(hub: Any, target: str, seconds: float) -> tuple[int, Any] | None:
    """The hub seat and info of the controller ``target`` names (port or id), waiting up to
    ``seconds`` for it to say hello."""
    from bitbox.discovery import id_matches
    deadline = time.monotonic() + seconds
    seen: dict[int, Any] = {}
    while time.monotonic() < deadline:
        for e in hub.poll(timeout=0.05):
            if isinstance(e, Connected):
                seen[e.seat] = e.info
        for seat, info in seen.items():
            if info.port == target or id_matches(info.controller_id, target):
                return seat, info
    return None


def open_controllers(hub: Any, targets: Any, command: str) -> int | None:
    """``--controller`` values for ``command``: each a port, or a controller id found among the
    discovered ports (bitbox.discovery.resolve_port). None when all are open, else the exit
    code after one line saying which could not be."""
    from bitbox import exitcodes
    from bitbox.discovery import resolve_port
    from bitbox.transports import OpenError
    for target in targets:
        try:
            url = resolve_port(target)
            hub.add_url(url)
        except LookupError as exc:
            print(f"{command}: --controller {target}: {exc}", file=sys.stderr)
            return exitcodes.NO_DEVICE
        except (OpenError, OSError, ValueError) as exc:
            print(f"{command}: cannot open {target}: {exc}", file=sys.stderr)
            return exitcodes.NO_DEVICE
    return None


def identify(target: str, ms: int = 3000, wait: float = 4.0, out: TextIO | None = None,
             urls: Any = ()) -> int:
    """`bitbox identify PORT|ID`: blink that controller for ``ms``. Exit code 0, or 3 (no such
    device, bitbox.exitcodes) with one line when it cannot be opened or found. ``urls``: more
    ports (or controller ids) to look on for an id."""
    out = out or sys.stdout
    from bitbox import exitcodes
    from bitbox.discovery import looks_like_id
    from bitbox.hub import Hub
    from bitbox.transports import OpenError
    hub = Hub()
    try:
        looks_like_port = not looks_like_id(target)
        if looks_like_port:
            try:
                hub.add_url(target)
            except (OpenError, OSError, ValueError) as exc:
                print(f"bitbox identify: cannot open {target}: {exc}", file=sys.stderr)
                return exitcodes.NO_DEVICE
        else:
            problem = open_controllers(hub, urls, "bitbox identify")
            if problem is not None:
                return problem
            try:
                hub.scan()
            except Exception as exc:  # noqa: BLE001 - discovery problems are one line
                print(f"bitbox identify: controller discovery failed: {exc}", file=sys.stderr)
                return exitcodes.NO_DEVICE
        hub.start()
        found = find_controller(hub, target, wait)
        if found is None:
            what = "on that port" if looks_like_port else "with that id"
            print(f"bitbox identify: no controller answered {what} ({target}) within {wait:g} s "
                  f"(`bitbox ports` lists what is connected)", file=sys.stderr)
            return exitcodes.NO_DEVICE
        seat, info = found
        hub.identify(seat, ms=ms)
        print(f"controller {short_id(info.controller_id)} ({info.controller_id:016x}) on {info.port}: "
              f"blinking for {ms / 1000:g} s", file=out, flush=True)
        time.sleep(0.2)                       # let the command go out before the port closes
        return 0
    finally:
        hub.close()
