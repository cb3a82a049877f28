"""The replay window, for every game: the game's own display of the frame shown, the move
list, the win-chance graph and "what would the bot play here" beside it, the scrubber under it.

Keys: **← →** (or Space/Backspace) a turn, **PgUp PgDn** ten, **Home End** the start and the
end, **digits then Enter** a turn by its number, **B** what the bot would play here (on/off),
**A** estimate the chances to win now (when no analysis.json was found), **Tab** the panel
on/off, **F11** full screen, **Esc**/**Q** leave. A click on the scrubber or on a move goes
there. A controller, when one is plugged in: its **left wheel** steps a turn per detent, its
**centre wheel** ten, closing its **lock** toggles the bot (:class:`~bitbox.table.replay.WheelSteps`).

Every frame is drawn from the public view after every event of the turn it shows
(:func:`bitbox.table.history.replay_frames`).
"""
from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from bitbox.display.replay import BotLine, PanelView, ReplayPanel

from .journal import JournalError
from .replay import (QUICK_ROLLOUTS, SUGGEST_ROLLOUTS, SUGGEST_THINK_MS, Chances, Cursor, ReplayError, ReplayGame, Suggestion, WheelSteps, _t,
                     estimate_analysis, load_analysis, move_text, suggestions)

#: The panel's share of the window's width.
PANEL_SHARE = 0.3

KEY_NAMES = {"K_RIGHT": "next", "K_SPACE": "next", "K_PAGEDOWN": "page+", "K_LEFT": "prev", "K_BACKSPACE": "backspace",
             "K_PAGEUP": "page-", "K_HOME": "first", "K_END": "last", "K_RETURN": "enter", "K_KP_ENTER": "enter",
             "K_b": "bot", "K_a": "chances", "K_TAB": "panel", "K_F11": "fullscreen", "K_ESCAPE": "quit", "K_q": "quit",
             "K_DOWN": "next", "K_UP": "prev"}


class ReplayWindow:
    """The replay on ``screen`` (a pygame surface): :meth:`press` a key by name,
    :meth:`wheels` a hub event, :meth:`click` a point, :meth:`draw` the whole window."""

    def __init__(self, kit: Any, rg: ReplayGame, words: Any, table: Callable[[int], Any], screen: Any,
                 chances: Chances | None = None, chances_note: str = "", controllers: bool = False,
                 rollouts: int = SUGGEST_ROLLOUTS, think_ms: int = SUGGEST_THINK_MS, ending: Any = None) -> None:
        self.kit, self.rg, self.words, self.table, self.screen = kit, rg, words, table, screen
        self.ending = ending                    # the end screen, over a finished game's last frame
        n = len(rg.frames)
        self.cursor = Cursor(n, index=n - 1 if n == 1 else 1, turn_of=rg.index_of_turn)
        self.panel_shown = True
        self.bot_on = False
        self.busy: str | None = None
        self.chances = chances
        self.chances_note = chances_note
        self.controllers = controllers
        self._suggested: dict[int, list[Suggestion] | str] = {}
        self._job: tuple[str, threading.Thread, dict[str, Any], Callable[[Any], None]] | None = None
        self.rollouts, self.think_ms = rollouts, think_ms
        self.panel = ReplayPanel()
        self.rows = [(rg.label(i, words) if i == 0 else str(f.turn), move_text(f, words))   # the scrubber says "turn N"
                     for i, f in enumerate(rg.frames)]
        self.labels = [rg.label(i, words) for i in range(n)]
        self._sub: Any = None
        self._sub_rect: Any = None
        self.display: Any = None
        self.bar: Any = None

    # ---- layout
    def rects(self) -> tuple[Any, Any, Any]:
        """(the table, the scrubber, the panel) in the window; the panel is None when hidden."""
        import pygame
        w, h = self.screen.get_size()
        if not self.panel_shown:
            scrub_h = max(70, round(h * 0.1))
            return pygame.Rect(0, 0, w, h - scrub_h), pygame.Rect(0, h - scrub_h, w, scrub_h), None
        pw = max(300, round(w * PANEL_SHARE))
        gw = w - pw
        gh = h - max(90, round(h * 0.12))
        return pygame.Rect(0, 0, gw, gh), pygame.Rect(0, gh, gw, h - gh), pygame.Rect(gw, 0, pw, h)

    @property
    def u(self) -> float:
        w, h = self.screen.get_size()
        return min(w / 1920, h / 1080)

    # ---- input
    def press(self, name: str) -> bool:
        """A key by name (see :data:`KEY_NAMES`; "quit" returns False: leave)."""
        if name == "quit":
            return False
        if name == "panel":
            self.panel_shown = not self.panel_shown
        elif name == "bot":
            self.bot_on = not self.bot_on
            if self.bot_on:
                self._suggest()
        elif name == "chances":
            self._estimate()
        else:
            self.cursor.key(name)
            if self.bot_on:
                self._suggest()
        return True

    def step(self, n: int) -> None:
        self.cursor.step(n)
        if self.bot_on:
            self._suggest()

    def click(self, pos: tuple[int, int]) -> None:
        """A click: on the scrubber (that frame) or on a move (that turn)."""
        if self.bar is not None and self.bar.collidepoint(pos):
            self.cursor.go(self.panel.frame_at(self.bar, pos[0], self.cursor.count))
        else:
            for rect, i in self.panel.rows:
                if self.panel_shown and rect.collidepoint(pos):
                    self.cursor.go(i)
        if self.bot_on:
            self._suggest()

    # ---- the bot and the estimate think in a thread of their own (the window stays alive)
    def _start(self, what: str, work: Callable[[], Any], done: Callable[[Any], None]) -> None:
        result: dict[str, Any] = {}

        def run() -> None:
            try:
                result["value"] = work()
            except (ReplayError, JournalError) as exc:
                result["error"] = exc
        thread = threading.Thread(target=run, name=f"bitbox-replay-{what}", daemon=True)
        self._job = (what, thread, result, done)
        self.busy = what
        thread.start()

    def poll(self) -> bool:
        """Whether a thinking job has just ended (its result is in); starts the bot's search
        for the frame shown when it has none yet."""
        ended = False
        if self._job is not None and not self._job[1].is_alive():
            what, _thread, result, done = self._job
            self._job = None
            self.busy = None
            done(result.get("value", result.get("error")))
            ended = True
        if self._job is None and self.bot_on and self.cursor.index not in self._suggested:
            self._suggest()
        return ended

    def wait(self, timeout: float = 120.0) -> None:
        """Until every job asked for has ended (tests, and the GIF's frames)."""
        while self._job is not None or (self.bot_on and self.cursor.index not in self._suggested):
            if self._job is not None:
                self._job[1].join(timeout)
                if self._job[1].is_alive():
                    raise TimeoutError("the replay's search did not end")
            self.poll()

    def _suggest(self) -> None:
        i = self.cursor.index
        if i in self._suggested or self._job is not None:
            return
        if not self.rg.finished:
            self._suggested[i] = _t(self.words, "replay.bot_secret", "shown once the game is over: the bot uses "
                                    "the player's hidden information")
            return

        def done(value: Any) -> None:
            if isinstance(value, Exception):
                self._suggested[i] = str(value)
            else:
                self._suggested[i] = value or _t(self.words, "replay.bot_none", "nobody has a choice to make here")
        self._start("bot", lambda: suggestions(self.rg, i, self.words, self.rollouts, think_ms=self.think_ms), done)

    def _estimate(self) -> None:
        if self.chances is not None or self._job is not None:
            return

        def done(value: Any) -> None:
            if isinstance(value, Chances):
                self.chances = value
            else:
                self.chances_note = str(value)
        self._start("chances", lambda: estimate_analysis(self.rg, QUICK_ROLLOUTS), done)

    # ---- drawing
    def view(self) -> PanelView:
        w = self.words
        i = self.cursor.index
        bot, note = "off", ""
        lines: tuple[BotLine, ...] = ()
        if self.bot_on and i not in self._suggested:
            bot = "busy"                        # searching (or about to: one search at a time)
        elif self.bot_on:
            got = self._suggested.get(i)
            if isinstance(got, list):
                bot = "shown"
                lines = tuple(BotLine(s.player, s.prompt, s.chosen, tuple((o, m) for o, _n, m in s.options))
                              for s in got)
            else:
                bot, note = "note", str(got or "")
        if self.busy == "chances":
            chances_note = _t(w, "replay.chance_busy", "estimating each player's chance ({rollouts} rollouts a turn)…",
                              rollouts=QUICK_ROLLOUTS)
        else:
            chances_note = self.chances_note
        return PanelView(
            title=f"{self.kit.title} — " + _t(w, "replay.game", "game {game}", game=self.rg.info.id),
            rows=self.rows, index=i, players=list(self.rg.info.players),
            player_names={p: str(w.player(p)) for p in self.rg.info.players}, colour_of=self._colour,
            words={"moves": _t(w, "replay.moves", "moves"), "chance": _t(w, "replay.chance", "chance to win"),
                   "bot": _t(w, "replay.bot", "what would the bot play here"),
                   "bot_off": _t(w, "replay.bot_off", "B: the search bot's choice here, from the acting player's "
                                 "information only"),
                   "bot_busy": _t(w, "replay.bot_busy", "the bot is thinking…")},
            chances=None if self.chances is None else self.chances.by_frame, chances_note=chances_note,
            bot=bot, bot_lines=lines, bot_note=note, typed=self.cursor.typed)

    def _colour(self, player: str) -> tuple[int, int, int]:
        colour_of = getattr(self.display, "colour_of", None)
        if callable(colour_of):
            r, g, b = colour_of(player)[:3]
            return int(r), int(g), int(b)
        from bitbox.colours import SCREEN_RGB
        return SCREEN_RGB.get(player, (200, 200, 200))

    def help_line(self) -> str:
        keys = _t(self.words, "replay.keys", "← → turn · PgUp PgDn 10 · digits Enter: go to turn · B bot · "
                  "A chances · Tab panel · Esc")
        if self.controllers:
            keys += " · " + _t(self.words, "replay.wheels", "left wheel: turn · centre wheel: 10 · lock: bot")
        return keys

    def draw(self) -> None:
        """The whole window: the game's table for the frame shown, the scrubber, the panel."""
        game, scrub, side = self.rects()
        if self._sub is None or self._sub_rect != game or self._sub.get_parent() is not self.screen:
            self._sub = self.screen.subsurface(game)
            self._sub_rect = game
            if self.display is None:
                self.display = self.kit.display(game.size, self.words, self._sub)
        self.display.render(self.table(self.cursor.index), surface=self._sub, full=True)
        if self.ending is not None and self.cursor.index == len(self.rg.frames) - 1:
            from bitbox.display.ending import draw_ending
            draw_ending(self.display, self.ending, self._sub)
        self.panel.placed = []
        self.bar = self.panel.scrubber(self.screen, scrub, self.cursor.index, self.labels, self.cursor.typed,
                                       self.help_line(), self.u)
        if side is not None:
            self.panel.draw(self.screen, side, self.view(), self.u)


def find_analysis(rg: ReplayGame, given: str | None, log: logging.Logger) -> tuple[Chances | None, str]:
    """The chances for the graph: ``--analysis PATH`` (an error is the command's), else
    ``analysis-ID/analysis.json`` in the working folder when it is this game's (said in a
    status line), else none and how to get them."""
    if given is not None:
        found = load_analysis(rg, given)
        return found, found.source
    default = Path(f"analysis-{rg.info.id}") / "analysis.json"
    if default.is_file():
        try:
            found = load_analysis(rg, default)
            log.info("%s", f"win-chance graph from {default}")
            return found, found.source
        except ReplayError as exc:
            log.info("%s", f"{default} not used: {exc}")
    return None, ""


def run_window(kit: Any, rg: ReplayGame, words: Any, table: Callable[[int], Any], *, size: tuple[int, int] | None,
               analysis: str | None, hub: Any = None, keys: Iterable[str] | None = None,
               log: logging.Logger | None = None, max_frames: int | None = None,
               rollouts: int = SUGGEST_ROLLOUTS, think_ms: int = SUGGEST_THINK_MS, ending: Any = None) -> int:
    """The window's loop (pygame-ce): see the module docstring. ``hub``: controllers to read
    (default: the ones plugged in, when any); ``keys``: key names pressed one a frame (tests),
    then the window closes."""
    import pygame
    log = log or logging.getLogger(f"bitbox.{kit.name}")
    chances, source = find_analysis(rg, analysis, log)
    note = source if chances is not None else _t(
        words, "replay.chance_none", "no analysis.json for this game: press A to estimate it now ({rollouts} "
        "rollouts a turn), or run `analyse {game}`", rollouts=QUICK_ROLLOUTS, game=rg.info.id)
    own_hub = hub is None and keys is None
    if own_hub:
        hub = _open_controllers()
    screen = pygame.display.set_mode(size or (1280, 720), pygame.RESIZABLE)
    pygame.display.set_caption(f"{kit.title} — replay of game {rg.info.id}")
    win = ReplayWindow(kit, rg, words, table, screen, chances, note, controllers=hub is not None and bool(_seats(hub)),
                       rollouts=rollouts, think_ms=think_ms, ending=ending)
    steps = WheelSteps()
    pending: Iterator[str] | None = iter(keys) if keys is not None else None
    names = {getattr(pygame, k): v for k, v in KEY_NAMES.items() if hasattr(pygame, k)}
    digits = {getattr(pygame, f"K_{d}"): d for d in "0123456789"} | {getattr(pygame, f"K_KP{d}"): d for d in "0123456789"
                                                                     if hasattr(pygame, f"K_KP{d}")}
    clock = pygame.time.Clock()
    dirty = True
    frames = 0
    try:
        while True:
            pressed: list[str] = []
            for ev in pygame.event.get():
                if ev.type == pygame.QUIT:
                    return 0
                if ev.type == pygame.KEYDOWN:
                    pressed.append(digits.get(ev.key) or names.get(ev.key, ""))
                elif ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1:
                    win.click(ev.pos)
                    dirty = True
                elif ev.type in (getattr(pygame, "VIDEORESIZE", -1), getattr(pygame, "WINDOWSIZECHANGED", -1),
                                 getattr(pygame, "WINDOWEXPOSED", -1)):
                    win.screen = pygame.display.get_surface()
                    dirty = True
            if pending is not None:
                name = next(pending, "quit")
                pressed.append(name)
            if hub is not None:
                for e in hub.poll(0.0):
                    turn, lock = steps.feed(e)
                    if turn:
                        win.step(turn)
                        dirty = True
                    if lock:
                        win.press("bot")
                        dirty = True
            for name in pressed:
                if not name:
                    continue
                if name == "fullscreen":
                    try:
                        pygame.display.toggle_fullscreen()
                    except pygame.error:
                        pass
                    win.screen = pygame.display.get_surface()
                elif not win.press(name):
                    return 0
                dirty = True
            if win.poll():
                dirty = True
            if dirty:
                win.draw()
                pygame.display.flip()
                dirty = False
            frames += 1
            if max_frames is not None and frames >= max_frames:
                return 0
            clock.tick(30)
    finally:
        if own_hub and hub is not None:
            hub.close()


def _seats(hub: Any) -> list[Any]:
    try:
        return list(hub.seats())
    except (AttributeError, RuntimeError):
        return []


def _open_controllers() -> Any:
    """The controllers plugged in (a hub scanning for them), or None when none can be opened."""
    try:
        from bitbox.controllers import load_controllers_config
        from bitbox.hub import Hub
        hub = Hub(config=load_controllers_config())
        hub.scan()
        return hub.start()
    except Exception as exc:            # noqa: BLE001 - no controller is no reason not to replay
        logging.getLogger("bitbox").debug("no controllers for the replay: %s", exc)
        return None


__all__ = ["KEY_NAMES", "PANEL_SHARE", "ReplayWindow", "find_analysis", "run_window"]
