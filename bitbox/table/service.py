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

from bitbox.colours import LIGHT_RGB, SEAT_COLOURS
from bitbox.events import Connected
from bitbox.i18n import counted

from .lobby import short_id


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


def run_test_screen(hub: Any, screen: Any = None, *, seconds: float | None = None, snapshot: str | None = None,
                keys: Any = None, out: TextIO | None = None, on_event: Any = None, lang: str = "en") -> int:
    """The controller test screen until Esc (or ``seconds``); returns the number of frames.
    ``keys``: a test's key presses (names "lights", "identify", "escape"), called each frame;
    ``on_event``: called with every hub event polled (the lobby keeps up while it is open).
    ``lang``: the language of the screen (bitbox.i18n)."""
    import pygame

    from bitbox.display.lobby import TestScreen
    view = TestScreen((1920, 1080))
    clock = pygame.time.Clock()
    started = time.monotonic()
    lights, step, last_step, frames = False, 0, 0.0, 0
    surface = screen if screen is not None else pygame.Surface((1920, 1080))
    while True:
        for e in hub.poll(timeout=0.0 if screen is not None else 0.02):
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
                lights = not lights
                if not lights:
                    lights_step(hub, 1)
            elif k == "identify":
                for s in hub.seats():
                    if s.connected:
                        hub.identify(s.seat, ms=2000)
        now = time.monotonic()
        if lights and now - last_step > 0.5:
            lights_step(hub, step)
            step, last_step = step + 1, now
        if seconds is not None and now - started >= seconds:
            done = True
        if done:
            if lights:
                lights_step(hub, 1)
            if snapshot:
                view.draw(surface, hub.seats(), hub.links(), lights, lang=lang)
                pygame.image.save(surface, snapshot)
            if out is not None:
                for s in hub.seats():
                    print(f"{short_id(s.controller_id) if s.controller_id else '?'} {s.port}: wheels "
                          f"{s.wheels[0]} {s.wheels[1]} {s.wheels[2]}, {'locked' if s.locked else 'open'}, "
                          f"{counted(s.bad_frames, 'bad frame', 'bad frames')}{'' if s.connected else ', lost'}", file=out)
            return frames
        if screen is not None:
            surface = pygame.display.get_surface()
            assert surface is not None                  # the screen is set
            view.draw(surface, hub.seats(), hub.links(), lights, lang=lang)
            pygame.display.flip()
            clock.tick(30)
        frames += 1


def find_controller(hub: Any, target: str, seconds: float) -> tuple[int, Any] | None:
    """The hub seat and info of the controller ``target`` names (port or id), waiting up to
    ``seconds`` for it to say hello."""
    want = target.lower().removeprefix("0x").replace("…", "")
    deadline = time.monotonic() + seconds
    seen: dict[int, Any] = {}
    while time.monotonic() < deadline:
        for e in hub.poll(timeout=0.05):
            if isinstance(e, Connected):
                seen[e.seat] = e.info
        for seat, info in seen.items():
            h = f"{info.controller_id:016x}"
            if info.port == target or (len(want) >= 4 and all(c in "0123456789abcdef" for c in want)
                                        and (h == want.zfill(16) or h.startswith(want) or h.endswith(want))):
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
