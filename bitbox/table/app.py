"""The table application's loop, shared by every game (the pygame-ce examples/aliens.py way:
events, update, dirty-rect draw, tick).

:class:`TableLoop` runs a referee (anything with the :class:`TableReferee` shape, e.g. a
:class:`~bitbox.table.referee.Referee`) between a hub and a display: hub events → referee →
drivers (bots, keyboard) → commands to the controllers → draw → tick, until the game ends
(headless) or the window is closed. A game gives it its display
(:meth:`TableLoop.make_display`) and its window caption.
"""
from __future__ import annotations

import os
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, Mapping, Protocol, Sequence, TextIO

from bitbox.display.model import Words
from bitbox.sound import Sounds

from .referee import AssignSeat, Command, CommandHub, Hint, Identify, RefuseChoice, SetLights, Show
from .seating import TableError


class TableReferee(Protocol):
    """What the loop needs of a game's referee session."""

    @property
    def finished(self) -> bool: ...
    @property
    def busy(self) -> bool: ...                   # showing steps with no pause: do not wait for the hub

    def handle(self, event: Any) -> None: ...
    def update(self, now: float | None = None) -> None: ...
    def take_commands(self) -> Sequence[Command]: ...
    def take_milestones(self) -> list[tuple[str, int, Any]]: ...
    def table(self, now: float | None = None) -> Any: ...
    def where(self) -> str: ...                   # "turn 3, stage bonus": for a one-line message


class Driver(Protocol):
    """A bot, the keyboard, or a test's hand: acts on the referee's state each frame."""

    def update(self, session: Any, now: float) -> None: ...


class Keyboard(Driver, Protocol):
    def key(self, session: Any, name: str) -> None: ...
    def pad(self, session: Any, lang: Any) -> Mapping[str, Any] | None: ...


class Display(Protocol):
    surface: Any

    def render(self, table: Any, surface: Any = None, full: bool = False) -> list[Any]: ...


def display_available() -> bool:
    """Whether a window can be opened (False: run headless). ``BITBOX_ASSUME_DISPLAY=1`` says
    yes on any SDL video driver, SDL's ``dummy`` included: the tests' way to run the window's
    code (home screen, lobby, table) on a virtual display."""
    driver = os.environ.get("SDL_VIDEODRIVER", "")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")    # pygame's own English banner: not on stdout
    if os.environ.get("BITBOX_ASSUME_DISPLAY") == "1":
        return True
    if driver in ("dummy", "offscreen"):
        return False
    if sys.platform.startswith("linux") and not driver and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return False
    try:
        import pygame
        pygame.display.init()
        ok = pygame.display.get_init()
        pygame.display.quit()
        return bool(ok)
    except Exception:  # noqa: BLE001 - any failure means: no display
        return False


def init_pygame(headless: bool) -> Any:
    if headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame
    pygame.display.init()
    pygame.font.init()
    return pygame


def apply_command(hub: CommandHub, c: Command) -> None:
    """One referee command as a hub call (a controller that is not here yet is skipped)."""
    try:
        if isinstance(c, AssignSeat):
            hub.assign_seat(c.seat, colour=c.colour)
        elif isinstance(c, SetLights):
            hub.set_lights(c.seat, c.left, c.centre, c.right, colour=c.colour)
        elif isinstance(c, Identify):
            hub.identify(c.seat, ms=c.ms)
        elif isinstance(c, RefuseChoice):              # private: that controller only
            hub.refuse_choice(c.seat, ms=c.ms, wheels=c.wheels)
        elif isinstance(c, Hint):                      # private: that controller only
            hub.hint(c.seat, c.left, c.centre, c.right)
        elif isinstance(c, Show):                      # private: that controller only (1.2)
            hub.show(c.seat, c.left, c.centre, c.right)
    except KeyError:
        pass                                # that controller is not here (yet)


KEYS = {"K_LEFT": "left", "K_RIGHT": "right", "K_UP": "up", "K_DOWN": "down", "K_RETURN": "enter",
        "K_KP_ENTER": "enter", "K_SPACE": "enter", "K_BACKSPACE": "backspace", "K_TAB": "tab"}


from .options import MAX_FRAME, MIN_FRAME, MIN_WINDOW, check_size, check_speed, size_arg, speed_arg  # noqa: E402, F401 (re-exported, below the names it follows)


class Terminated(KeyboardInterrupt):
    """SIGTERM during a table: stop as on Ctrl-C (SDL would otherwise turn it into a quit event
    that a headless table never reads)."""


class StopRequest:
    """Ctrl-C (SIGINT) and SIGTERM during a game at the table. While the table loop runs, a
    signal is a request the loop reads at its next frame: never an exception in the middle of
    the hub's or the journal's work (a lock held, a thread half-joined); a second one, or one
    outside the loop (setting up), raises as Ctrl-C always does (:class:`Terminated` for
    SIGTERM). Every accepted input is already in the journal: ``--resume`` continues."""

    #: After a request, the loop has this long to reach its next frame; a loop still running
    #: then (stuck in a game's code that never returns) is interrupted as by a second signal.
    GRACE_S = 5.0

    def __init__(self, grace: float | None = None) -> None:
        self.signum: int | None = None
        self.in_loop = False
        self.grace = self.GRACE_S if grace is None else grace

    def __call__(self, signum: int, frame: Any) -> None:
        import signal
        if self.in_loop and self.signum is None:
            self.signum = signum
            self._watch(signum)
            return
        raise Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()

    def _watch(self, signum: int) -> None:
        """The second signal, sent to ourselves after :attr:`grace` seconds if the loop has not
        ended by then (a single SIGTERM, from ``timeout`` or a service manager, must stop a
        table whose game hangs)."""
        import _thread
        import signal
        import threading

        def escalate() -> None:
            if self.in_loop:
                _thread.interrupt_main(signal.Signals(signum))
        timer = threading.Timer(self.grace, escalate)
        timer.daemon = True
        timer.start()

    def exit_code(self) -> int | None:
        import signal
        if self.signum is None:
            return None
        return 143 if self.signum == signal.SIGTERM else 130

    def catch(self) -> dict[int, Any]:
        """Route SIGINT and SIGTERM here (main thread only) and keep SDL's own signal handlers
        off; returns the previous handlers (:meth:`restore` puts them back)."""
        import signal
        os.environ["SDL_NO_SIGNAL_HANDLERS"] = "1"
        self.signum, self.in_loop = None, False
        previous: dict[int, Any] = {}
        try:
            for sig in (signal.SIGINT, signal.SIGTERM):
                previous[sig] = signal.signal(sig, self)
        except ValueError:                              # not the main thread
            pass
        return previous

    @staticmethod
    def restore(previous: Mapping[int, Any]) -> None:
        import signal
        for sig, handler in previous.items():
            signal.signal(sig, handler)


class TableLoop:
    """events → referee → drivers → controllers → draw → tick, until the game ends (headless)
    or the window is closed. A game's table subclasses it for :meth:`make_display`.

    Window keys (every game): **F11** (or **F** when nobody types on the keyboard) toggles
    full screen and redraws every panel; **Esc** leaves (the journal keeps the game, also in
    keyboard hot-seat). A window made smaller than :data:`MIN_WINDOW` is enlarged to it.

    Sound: ``sound`` (:class:`bitbox.sound.Sounds`, silent by default) plays ``lock`` when a
    controller's lock closes, and the sound :attr:`SOUNDS` gives to each new log entry's kind
    (at most one of each name a frame)."""

    caption = "8Bitbox"
    command = "bitbox play"                 # names the program in the one-line messages
    stop: StopRequest | None = None         # Ctrl-C and SIGTERM, read at the top of every frame
    ending: Any = None                      # () -> the end screen (bitbox.display.ending.Ending), once finished
    SOUNDS: Mapping[str, str] = {}          # a log entry's kind -> a sound name (bitbox.sound.NAMES)
    #: Started from the home screen (bitbox.table.home): after the winner, a lock closed on one of
    #: these hub seats (the people's controllers), or Enter, ends the loop (None: the window stays)
    then_home: set[int] | None = None

    def __init__(self, session: TableReferee, hub: CommandHub, drivers: Sequence[Driver], keyboard: Keyboard | None,
                 lang: Words, *, headless: bool, out: TextIO, snapshots: Path | None, size: tuple[int, int],
                 fullscreen: bool = False, max_seconds: float | None = None, fps: int = 30,
                 sound: Sounds | None = None) -> None:
        self.session, self.hub, self.drivers, self.keyboard = session, hub, list(drivers), keyboard
        self.sound = sound if sound is not None else Sounds.silent()
        self._locks: dict[int, bool] = {}
        self._last_log: Any = None
        self.redraws = 0                    # full redraws after a window change (F11, resize, exposed)
        self.lang, self.headless, self.out = lang, headless, out
        self.snapshots, self.size, self.fullscreen = snapshots, size, fullscreen
        self.max_seconds, self.fps = max_seconds, fps
        self.frames = 0

    def make_display(self, size: tuple[int, int], surface: Any = None) -> Display:
        raise NotImplementedError("a game's table loop gives its display")

    def stop_requested(self) -> int | None:
        """The exit code to stop with now (a signal was received: :attr:`stop`), or None to go
        on; read at the top of every frame."""
        return self.stop.exit_code() if self.stop is not None else None

    def _apply_commands(self) -> None:
        for c in self.session.take_commands():
            apply_command(self.hub, c)

    def _snapshot(self, display: Display, name: str, table: Any = None) -> None:
        if self.snapshots is None:
            return
        import pygame
        display.render(table if table is not None else self._table(), full=True)
        try:
            self.snapshots.mkdir(parents=True, exist_ok=True)
            pygame.image.save(display.surface, str(self.snapshots / name))
        except (OSError, pygame.error) as exc:          # e.g. a full disk: the journal has the game
            raise TableError(f"cannot write the snapshot {self.snapshots / name} ({exc}); "
                             f"the game continues with --resume") from None

    def _final(self, display: Display, ending: Any, name: str, table: Any) -> None:
        """The last turn's snapshot again, with the end screen over the table (as the replay's
        last frame shows it)."""
        if self.snapshots is None:
            return
        import pygame

        from bitbox.display.ending import draw_ending
        display.render(table, full=True)
        draw_ending(display, ending)
        try:
            self.snapshots.mkdir(parents=True, exist_ok=True)
            pygame.image.save(display.surface, str(self.snapshots / name))
        except (OSError, pygame.error) as exc:
            raise TableError(f"cannot write the snapshot {self.snapshots / name} ({exc})") from None

    def _sounds(self, events: Sequence[Any]) -> None:
        """Play this frame's sounds: a lock that closed, and the new log entries' kinds."""
        names: list[str] = []
        for e in events:
            locked = getattr(e, "locked", None)
            if locked is None or not hasattr(e, "seat"):
                continue
            if locked and not self._locks.get(e.seat, False):
                names.append("lock")
            self._locks[e.seat] = bool(locked)
        log = getattr(self.session, "log", None)
        if log:
            new: list[Any] = []
            for entry in reversed(log):
                if entry is self._last_log:
                    break
                new.append(entry)
            self._last_log = log[-1]
            for entry in reversed(new):
                name = self.SOUNDS.get(str(getattr(entry, "kind", "")))
                if name:
                    names.append(name)
        for name in dict.fromkeys(names):
            self.sound.play(name)

    def _table(self) -> Any:
        t = self.session.table()
        if self.keyboard is not None:
            pad = self.keyboard.pad(self.session, self.lang)
            if pad is not None:
                t = replace(t, pad=pad)
        return t

    @staticmethod
    def _minimum_size(pygame: Any) -> None:
        """Keep the window at least :data:`MIN_WINDOW` (SDL enforces it while dragging)."""
        import warnings
        try:
            with warnings.catch_warnings():             # pygame-ce 2.5 marks it as deprecated, still the way
                warnings.simplefilter("ignore", DeprecationWarning)
                window = pygame.Window.from_display_module()
            window.minimum_size = MIN_WINDOW
            w, h = window.size
            if w < MIN_WINDOW[0] or h < MIN_WINDOW[1]:
                window.size = (max(w, MIN_WINDOW[0]), max(h, MIN_WINDOW[1]))
        except (AttributeError, pygame.error):     # an older pygame, or a driver without windows
            pass

    def _go_on(self, surface: Any) -> Any:
        """After the winner, when started from the home screen: "lock or Enter to go on", in
        a band at the bottom of the window (drawn again every frame)."""
        import pygame

        from bitbox.display.shell import ACCENT, BG, Fonts
        from bitbox.i18n import Words
        if getattr(self, "_go_on_font", None) is None:
            self._go_on_font = Fonts().get(max(22, surface.get_height() * 30 // 1080), True)
        img = self._go_on_font.render(Words(getattr(self.lang, "code", "en")).t("home.after"), True, ACCENT)
        w, h = surface.get_size()
        band = pygame.Rect(0, 0, min(w, img.get_width() + 40), img.get_height() + 16)
        band.midbottom = (w // 2, h - 8)
        pygame.draw.rect(surface, BG, band)
        pygame.draw.rect(surface, ACCENT, band, width=2)
        surface.blit(img, img.get_rect(center=band.center))
        return band

    def run(self) -> int:
        if self.stop is None:
            return self._run()
        self.stop.in_loop = True
        try:
            return self._run()
        finally:
            self.stop.in_loop = False

    def _run(self) -> int:
        pygame = init_pygame(self.headless)
        s = self.session
        started = time.monotonic()
        if self.headless:
            display = self.make_display(self.size)
            screen = None
        else:
            flags = pygame.RESIZABLE | (pygame.FULLSCREEN if self.fullscreen else 0)
            size = (0, 0) if self.fullscreen else (max(self.size[0], MIN_WINDOW[0]), max(self.size[1], MIN_WINDOW[1]))
            screen = pygame.display.set_mode(size, flags)
            pygame.display.set_caption(self.caption)
            display = self.make_display(screen.get_size(), screen)
            ticker = pygame.time.Clock()
        keys = {getattr(pygame, k): name for k, name in KEYS.items()}
        running = True
        end_seen = False
        final: Any = None                   # the end screen, once the game is over
        final_drawn = False
        redraw = False
        window_events = {getattr(pygame, n) for n in ("VIDEORESIZE", "VIDEOEXPOSE", "WINDOWSIZECHANGED",
                                                       "WINDOWEXPOSED", "WINDOWRESTORED", "WINDOWMAXIMIZED")
                         if hasattr(pygame, n)}
        if screen is not None:
            self._minimum_size(pygame)
        while running:
            stop = self.stop_requested()
            if stop is not None:
                return stop
            now = time.monotonic()
            if screen is not None:
                for ev in pygame.event.get():
                    if ev.type == pygame.QUIT:
                        running = False
                    elif ev.type in window_events:
                        redraw = True
                        if ev.type == getattr(pygame, "VIDEORESIZE", None):
                            self._minimum_size(pygame)
                    elif ev.type == pygame.KEYDOWN:
                        if end_seen and self.then_home is not None and ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER,
                                                                                   pygame.K_SPACE):
                            running = False
                        elif ev.key == pygame.K_ESCAPE:       # also in keyboard hot-seat: the journal keeps it
                            running = False
                        elif ev.key in (pygame.K_F11,) or (ev.key == pygame.K_f and self.keyboard is None):
                            try:
                                pygame.display.toggle_fullscreen()
                            except pygame.error:            # a driver that cannot: stay windowed
                                pass
                            redraw = True
                        elif self.keyboard is not None:
                            name = keys.get(ev.key)
                            if name:
                                self.keyboard.key(s, name)
                if not running:
                    break
            events = self.hub.poll(timeout=0.0 if (screen is not None or s.busy) else 0.004)
            if end_seen and self.then_home is not None and any(
                    getattr(e, "locked", False) and getattr(e, "seat", None) in self.then_home
                    and not self._locks.get(e.seat, False) for e in events):
                running = False                     # the home screen's after-game menu comes next
            for e in events:
                s.handle(e)
            self._sounds(events)
            s.update(now)
            for d in self.drivers:
                d.update(s, now)
            self._apply_commands()
            self._sounds(())
            last_turn = None
            for kind, n, table in s.take_milestones():
                if kind == "turn_end":
                    self._snapshot(display, f"turn-{n:02d}.png", table)
                elif kind == "finished":
                    last_turn = (n, table)
            if s.finished and not end_seen:
                end_seen = True
                final = self.ending() if self.ending is not None else None
                if final is not None and last_turn is not None:
                    self._final(display, final, f"turn-{last_turn[0]:02d}.png", last_turn[1])
                if screen is None:
                    running = False
            if screen is not None:
                current = pygame.display.get_surface()
                dirty = display.render(self._table(), surface=current, full=redraw)
                ending_now = final is not None and (bool(dirty) or redraw or not final_drawn)
                if ending_now:                      # the end screen over the table, the whole screen updated
                    from bitbox.display.ending import draw_ending
                    draw_ending(display, final, current)
                    final_drawn = True
                if redraw:                          # after F11 or a resize every panel is drawn again
                    redraw = False
                    self.redraws += 1
                    pygame.display.flip()
                elif dirty or ending_now:
                    if len(dirty) >= 6 or ending_now:
                        pygame.display.flip()
                    else:
                        pygame.display.update(dirty)
                if end_seen and self.then_home is not None:
                    pygame.display.update(self._go_on(current))
                ticker.tick(self.fps)
            self.frames += 1
            if self.max_seconds is not None and time.monotonic() - started > self.max_seconds:
                print(f"{self.command}: gave up after {self.max_seconds:g} s ({s.where()})", file=sys.stderr)
                return 3
        return 0
