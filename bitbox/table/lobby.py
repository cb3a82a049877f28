"""The lobby: who sits where, before the game (any game).

Every controller found is listed (id, port, firmware). **Closing its lock takes a seat**:
the first free colour, shown at once on the controller's colour light and on the screen.
A seated player **turns the left wheel** to move to another colour (position 1 = the first
colour, 2 the second...); a colour someone holds is **swapped** with them. A seated
controller whose lock is closed is *ready*; opening it again is *not ready*. While not ready,
a player **names** their seat (before taking it too): the **centre wheel** turns through "no name", the names
already in the journal (:func:`known_names`) and then the letters of a new name (✎ 1, ✎ 2...),
whose letter the **right wheel** turns (a space, then A to Z); or, at the keyboard,
**Tab** chooses a seat and its name is typed (Enter or Tab ends; **↑/↓** turn through the
journal's names, as the centre wheel does). **Keyboard (hot-seat) players** (``--keyboard``)
are listed too, at the free seats they will take (the first ones, before the bots'), and named
the same way at the keyboard: Tab reaches them after the controllers. Bots fill the
seats nobody takes. The game starts when every controller found is seated and ready (and
every controller given with ``--controller`` has answered), or at once with **Enter**
(everyone seated plays, bots fill the rest). **T** opens the controller test screen, **Esc**
leaves.

:class:`Lobby` is the model (pure: events in, commands out, no pygame); :func:`run_lobby`
is the loop with a screen (:class:`bitbox.display.lobby.LobbyScreen`) or without one
(headless: no waiting on people, it starts as soon as nobody is to be waited for).

A game uses it through :func:`bitbox.table.seating.connect` (``lobby=``): the order it
returns is the order of the players.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence, TextIO

from bitbox.colours import LIGHT_RGB
from bitbox.events import Back, Connected, ControllerInfo, Lost, Rejected, WheelsChanged

from .labels import seat_line, short_id, waiting_line  # noqa: F401 (seat_line, short_id: re-exported)


@dataclass
class Entry:
    """A controller in the lobby."""

    hub_seat: int
    info: ControllerInfo
    seat: int | None = None            # index into the seat names, when seated
    locked: bool = False
    left: int = 0
    present: bool = True
    wheels: tuple[int, int] | None = None       # centre and right as last seen (names)
    pick: int = 0                   # 0: no name; 1..known: a known name; beyond: a letter to spell
    letters: list[str] = field(default_factory=list)     # the name spelled (wheels or keyboard)

    @property
    def ready(self) -> bool:
        return self.seat is not None and self.locked and self.present


@dataclass
class Lobby:
    """Seats for the controllers found: see the module docstring.

    ``names``: the seat names (colours) in order; ``max_players``: how many may sit;
    ``expected``: ports given with ``--controller`` that must answer before the start."""

    names: Sequence[str]
    max_players: int
    expected: Sequence[str] = ()
    min_players: int = 0
    bots: int | None = None                                     # None: fill to min_players
    known: Sequence[str] = ()                                   # names offered (the journal's)
    typing: int | None = None                                   # hub seat whose name the keyboard types
    after_home: bool = False                                    # opened from the home screen (bitbox.table.home)
    keyboard: bool = False                                      # --keyboard: hot-seat players at the free seats
    players: int | None = None                                  # --players (how many the keyboard plays)
    entries: dict[int, Entry] = field(default_factory=dict)     # by hub seat
    hands: list[Entry] = field(default_factory=list)            # the keyboard players named so far (hub seat -1, -2...)
    commands: list[tuple[str, int, Any]] = field(default_factory=list)   # ("colour", hub seat, rgb)
    lines: list[str] = field(default_factory=list)              # what happened, for the screen
    refused: dict[str, str] = field(default_factory=dict)       # port -> why its controller was refused

    # -- events --------------------------------------------------------------------------------
    def handle(self, event: Any) -> None:
        if isinstance(event, Rejected):
            self.refused[event.port] = event.reason
        if isinstance(event, Connected):
            self.refused.pop(event.info.port, None)
            e = self.entries.get(event.seat)
            if e is None:
                self.entries[event.seat] = e = Entry(event.seat, event.info)
            e.present = True
        elif isinstance(event, (Lost,)):
            e = self.entries.get(event.seat)
            if e is not None:
                e.present = False
        elif isinstance(event, Back):
            e = self.entries.get(event.seat)
            if e is not None:
                e.present = True
                if e.seat is not None:
                    self._show(e)
        elif isinstance(event, WheelsChanged):
            e = self.entries.get(event.seat)
            if e is None:
                return
            first = e.wheels is None and self.after_home   # a lock still closed from the home screen takes no seat
            was_locked, e.locked = (event.locked if first else e.locked), event.locked
            moved = event.left != e.left
            e.left = event.left
            self._name_wheels(e, event.centre, event.right)
            if event.locked and not was_locked and e.seat is None:
                self.take(event.seat)
            elif moved and e.seat is not None and 1 <= event.left <= self.max_players:
                self.move(event.seat, event.left - 1)

    def take(self, hub_seat: int, seat: int | None = None) -> int | None:
        """``hub_seat``'s controller sits at ``seat`` (default: the first free one)."""
        e = self.entries[hub_seat]
        if seat is None:
            free = self.free()
            if not free:
                self.lines.append(f"controller {short_id(e.info.controller_id)}: every seat is taken")
                return None
            seat = free[0]
        e.seat = seat
        self._show(e)
        self.lines.append(seat_line(self.names[seat], e.info))
        return seat

    def move(self, hub_seat: int, seat: int) -> None:
        """``hub_seat``'s controller moves to ``seat``, swapping with whoever sat there."""
        e = self.entries[hub_seat]
        was = e.seat
        if was is None or seat == was or not 0 <= seat < self.max_players:
            return
        other = self.holder(seat)
        if other is not None:
            other.seat = was
            self._show(other)
        e.seat = seat
        self._show(e)
        self.lines.append(f"{self.names[seat].capitalize()} ⇄ {'a free seat' if other is None else self.names[was].capitalize()}")

    # -- names ---------------------------------------------------------------------------------
    def _name_wheels(self, e: Entry, centre: int, right: int) -> None:
        """The centre wheel picks the name (or the letter to spell), the right wheel turns
        that letter; while the lock is open, seated or not yet (turns counted from where the
        wheels were: the first state seen is where they start)."""
        from .home import wheel_step
        before, e.wheels = e.wheels, (centre, right)
        if before is None or e.locked:
            return
        step = wheel_step(before[0], centre)
        if step:
            e.pick = max(0, min(len(self.known) + MAX_SPELL, e.pick + step))
        turn = wheel_step(before[1], right)
        slot = e.pick - len(self.known) - 1
        if turn and slot >= 0:
            e.letters += [" "] * (slot + 1 - len(e.letters))
            at = max(0, SPELL.find(e.letters[slot]))
            e.letters[slot] = SPELL[(at + turn) % len(SPELL)]

    def name_of(self, e: Entry) -> str | None:
        """The name chosen for ``e``'s seat (None: no name)."""
        from bitbox.standings import clean_name
        if 1 <= e.pick <= len(self.known):
            return self.known[e.pick - 1]
        if e.pick > len(self.known):
            text = "".join(e.letters)
            return clean_name(text.title() if _spelled(e.letters) else text)
        return None

    def spelling(self, e: Entry) -> int | None:
        """The letter being spelled (0 = the first), or None (not spelling, the lock closed, or
        a keyboard player: no wheels)."""
        slot = e.pick - len(self.known) - 1
        return slot if slot >= 0 and not e.locked and e.hub_seat >= 0 else None

    # -- keyboard players ----------------------------------------------------------------------
    def keyboard_count(self) -> int:
        """How many keyboard players the game will seat (as :func:`bitbox.table.seating.keyboard_seats`
        with the controllers seated now)."""
        if not self.keyboard:
            return 0
        from .seating import keyboard_seats
        n = keyboard_seats(self.min_players, self.players, self.bots, len(self.seated()))
        return max(0, min(n, len(self.free())))

    def keyboard_seats(self) -> dict[int, Entry]:
        """Seat index -> the keyboard player who will sit there (the first free seats, in order:
        bots take the free seats after them)."""
        n = self.keyboard_count()
        while len(self.hands) < n:
            self.hands.append(Entry(-(len(self.hands) + 1), KEYBOARD_INFO))
        return {seat: self.hands[j] for j, seat in enumerate(self.free()[:n])}

    def entry(self, hub_seat: int | None) -> Entry | None:
        """A controller's entry, or a keyboard player's (a negative hub seat)."""
        if hub_seat is None:
            return None
        if hub_seat < 0:
            return next((h for h in self.keyboard_seats().values() if h.hub_seat == hub_seat), None)
        return self.entries.get(hub_seat)

    def pick(self, step: int) -> None:
        """↑/↓ while a name is typed: the previous or next of the journal's names (as the centre
        wheel turns; before the first: no name)."""
        e = self.entry(self.typing)
        if e is None or not self.known:
            return
        at = e.pick if e.pick <= len(self.known) else 0
        e.pick = max(0, min(len(self.known), at + step))
        e.letters = []

    def type_next(self) -> None:
        """Tab: the keyboard types the name of the next player (the seated ones in seat order,
        then the controllers not seated yet, then the keyboard players; after the last: none)."""
        seated = [x.hub_seat for x in self.seated()]
        seated += [x.hub_seat for x in self.entries.values() if x.seat is None and x.present]
        seated += [x.hub_seat for _, x in sorted(self.keyboard_seats().items())]
        if not seated:
            self.typing = None
            return
        i = seated.index(self.typing) + 1 if self.typing in seated else 0
        self.typing = seated[i] if i < len(seated) else None

    def type(self, text: str) -> None:
        """Keys typed into the name of :attr:`typing`'s seat (a backspace deletes the last)."""
        e = self.entry(self.typing)
        if e is None:
            return
        if e.pick <= len(self.known):           # typing starts a new name
            e.pick, e.letters = len(self.known) + 1, list((self.name_of(e) or "") if e.pick else "")
        for ch in text:
            if ch == "\b":
                e.letters = e.letters[:-1]
            elif ch.isprintable() and len(e.letters) < MAX_TYPED:
                e.letters.append(ch)
        e.pick = len(self.known) + max(1, min(MAX_SPELL, len(e.letters)))

    def chosen_names(self) -> dict[int, str]:
        """Seat index -> the name chosen there (a name chosen at two seats: the first keeps it)."""
        out: dict[int, str] = {}
        seen: set[str] = set()
        named = [(e.seat, e) for e in self.seated() if e.seat is not None]
        for seat, e in named + sorted(self.keyboard_seats().items()):
            name = self.name_of(e)
            if name and name.casefold() not in seen:
                seen.add(name.casefold())
                out[seat] = name
        return out

    def _show(self, e: Entry) -> None:
        if e.seat is not None:
            self.commands.append(("colour", e.hub_seat, LIGHT_RGB.get(self.names[e.seat], (255, 255, 255))))

    # -- questions -----------------------------------------------------------------------------
    def holder(self, seat: int) -> Entry | None:
        return next((e for e in self.entries.values() if e.seat == seat), None)

    def free(self) -> list[int]:
        return [i for i in range(self.max_players) if self.holder(i) is None]

    def seated(self) -> list[Entry]:
        return sorted((e for e in self.entries.values() if e.seat is not None), key=lambda e: e.seat or 0)

    def missing(self) -> list[str]:
        """Ports given with ``--controller`` that have not answered."""
        ports = {e.info.port for e in self.entries.values()}
        return [p for p in self.expected if p not in ports]

    def everyone_ready(self) -> bool:
        """Every controller found is seated and ready, and none is awaited (with keyboard
        players: never; they start with Enter once named)."""
        present = [e for e in self.entries.values() if e.present]
        return bool(present) and all(e.ready for e in present) and not self.missing() and not self.keyboard_count()

    def order(self) -> list[int]:
        """The hub seats of the seated controllers, in seat order (the players' order)."""
        return [e.hub_seat for e in self.seated()]

    def bot_count(self) -> int:
        """The bots that will fill free seats (``bots``, or enough to reach ``min_players``;
        with keyboard players: ``bots``, after theirs)."""
        free = len(self.free()) - self.keyboard_count()
        if self.bots is not None or self.keyboard:
            return max(0, min(self.bots or 0, free))
        return max(0, self.min_players - len(self.seated()))

    def more_bots(self, step: int) -> None:
        """One bot more (``step`` 1) or fewer (-1), within the free seats (with keyboard
        players, the command line's count stays: the keyboard's seats follow from it)."""
        if self.keyboard:
            return
        self.bots = max(0, min(len(self.free()), self.bot_count() + step))

    def take_commands(self) -> list[tuple[str, int, Any]]:
        out, self.commands = self.commands, []
        return out


#: The keyboard players' stand-in for a controller's details (they have none).
KEYBOARD_INFO = ControllerInfo(0, "keyboard", (0, 0), "", (0, 0, 0))

#: What a wheel spells a name with (ADA is shown as Ada).
SPELL = " ABCDEFGHIJKLMNOPQRSTUVWXYZ"
MAX_SPELL = 12                  # letters spelled with the wheels
MAX_TYPED = 24                  # characters typed at the keyboard


def _spelled(letters: Sequence[str]) -> bool:
    """A name spelled with the wheels (capitals only): shown as a name (ADA -> Ada)."""
    text = "".join(letters).strip()
    return bool(text) and all(c in SPELL for c in text)


def known_names(games: Iterable[Any], most: int = 64) -> list[str]:
    """The names the journal's games gave their seats, the most recent first, each once, at
    most ``most`` (:func:`bitbox.table.names.names_in`, the one place that reads them)."""
    from .names import names_in
    return names_in(games, most)


def apply(hub: Any, commands: Sequence[tuple[str, int, Any]]) -> None:
    """The lobby's commands as hub calls (a controller that went away is skipped)."""
    for kind, seat, rgb in commands:
        try:
            if kind == "colour":
                hub.assign_seat(seat, colour=rgb)
                hub.identify(seat, ms=600)          # a short blink: "that's you"
        except KeyError:
            pass


def run_lobby(hub: Any, lobby: Lobby, *, screen: Any = None, title: str = "", options: str = "",
              out: TextIO | None = None, max_seconds: float | None = None,
              events: Sequence[Any] = (), service: Callable[[], None] | None = None,
              keys: Callable[[], list[str]] | None = None, sink: list[Any] | None = None,
              lang: str = "en") -> list[int] | None:
    """The lobby's loop: returns the hub seats in player order, or None when left (Esc,
    window closed). With ``screen`` (a pygame display surface) it draws the lobby and reads
    the keys (Enter starts, T opens ``service``, the controller test screen; Esc leaves); without one it waits for
    nobody: it starts as soon as no ``--controller`` is awaited and every controller found
    is seated: the ``--controller`` ports in the order given, then the others in the order they
    connected.

    ``keys``: a test's key presses instead of pygame's (names: "enter", "test", "escape",
    "bot+", "bot-"; **+**/**-** change how many bots fill the free seats; "tab" chooses the
    seat whose name is typed, "type:TEXT" types, "name+"/"name-" (↓/↑) turn through the
    journal's names, "typed" ends it).
    A ``--controller`` that does not answer is named on the screen and in the status log (once).
    ``sink``: every hub event polled is appended to it (for the referee, after the lobby).
    ``lang``: the language of the status lines and of the screen."""
    started = time.monotonic()
    told_missing: set[str] = set()
    view = None
    if screen is not None:
        from bitbox.display.lobby import LobbyScreen
        view = LobbyScreen(screen.get_size())
    for e in events:
        lobby.handle(e)
    clock: Any = None
    if screen is not None:
        import pygame
        clock = pygame.time.Clock()
    while True:
        for e in hub.poll(timeout=0.0 if screen is not None else 0.05):
            lobby.handle(e)
            if sink is not None:
                sink.append(e)
        apply(hub, lobby.take_commands())
        for port in lobby.missing():
            reason = lobby.refused.get(port)
            if reason is not None and screen is None:
                # it answered and was refused (another major version, an id already on
                # another port): nobody at a screen can change that, and waiting waits for ever
                from .seating import TableError
                raise TableError(reason)
            if port not in told_missing and (reason is not None or time.monotonic() - started > 1.0):
                told_missing.add(port)
                from .seating import log
                log.warning("%s", reason if reason is not None else waiting_line(port, lang))
        pressed: list[str] = list(keys()) if keys is not None else []
        if screen is not None:
            for ev in pygame.event.get():
                if ev.type == pygame.QUIT:
                    pressed.append("escape")
                elif ev.type == pygame.KEYDOWN and ev.key == pygame.K_TAB:
                    pressed.append("tab")
                elif ev.type == pygame.KEYDOWN and lobby.typing is not None:     # a name being typed
                    if ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_ESCAPE):
                        pressed.append("typed")
                    elif ev.key in (pygame.K_UP, pygame.K_DOWN):
                        pressed.append("name-" if ev.key == pygame.K_UP else "name+")
                    elif ev.key == pygame.K_BACKSPACE:
                        lobby.type("\b")
                    elif ev.unicode and ev.unicode.isprintable():
                        lobby.type(ev.unicode)
                elif ev.type == pygame.KEYDOWN:
                    pressed.append({pygame.K_RETURN: "enter", pygame.K_KP_ENTER: "enter", pygame.K_SPACE: "enter",
                                    pygame.K_t: "test", pygame.K_ESCAPE: "escape", pygame.K_PLUS: "bot+",
                                    pygame.K_EQUALS: "bot+", pygame.K_KP_PLUS: "bot+", pygame.K_MINUS: "bot-",
                                    pygame.K_KP_MINUS: "bot-"}.get(ev.key, ""))
        for k in pressed:
            if k == "tab":
                lobby.type_next()
            elif k == "typed":
                lobby.typing = None
            elif k.startswith("type:"):
                lobby.type(k[5:])
            elif k in ("name+", "name-"):
                lobby.pick(1 if k == "name+" else -1)
            if k == "escape":
                return None
            if k == "test" and service is not None:
                service()
                if view is not None:
                    view.dirty = True
            if k in ("bot+", "bot-"):
                lobby.more_bots(1 if k == "bot+" else -1)
            if k == "enter" and not lobby.missing():
                return _finish(lobby, hub)
        if lobby.everyone_ready():
            return _finish(lobby, hub)
        if screen is None and not lobby.missing():
            # headless: nobody to wait for at a screen; seat the --controller ports in the order
            # given, then the others in the order they came
            given = {port: i for i, port in enumerate(lobby.expected)}
            for e in sorted(lobby.entries.values(), key=lambda e: (given.get(e.info.port, len(given)), e.hub_seat)):
                if e.seat is None and e.present:
                    lobby.take(e.hub_seat)
            apply(hub, lobby.take_commands())
            return _finish(lobby, hub)
        if view is not None:
            surface = pygame.display.get_surface()
            assert surface is not None and clock is not None        # both made with the screen
            view.draw(surface, lobby, title=title, options=options, bots=lobby.bot_count(), lang=lang,
                      waited=time.monotonic() - started)
            pygame.display.flip()
            clock.tick(30)
        if max_seconds is not None and time.monotonic() - started > max_seconds:
            return None


def _finish(lobby: Lobby, hub: Any) -> list[int]:
    """The players' order; every seated controller's colour is sent once more (a write the
    hub had to drop while the seats changed fast is made good)."""
    for e in lobby.seated():
        try:
            hub.assign_seat(e.hub_seat, colour=LIGHT_RGB.get(lobby.names[e.seat or 0], (255, 255, 255)))
        except KeyError:
            pass
    return lobby.order()


class arrange:  # noqa: N801 - used as a function: connect(..., arrange=arrange(hub, ...))
    """The lobby as :func:`bitbox.table.seating.connect`'s ``arrange``: called with the
    controllers found and the hub's events so far, it returns hub seat -> seat index; after
    the call, :attr:`bots` is the number of bots the lobby settled on (``None``: the
    command line's), which ``connect`` uses.

    With ``window``, the lobby screen opens (in the table's window) when there is someone to
    seat (a controller found or awaited); headless, or with no controller at all, it does not
    block: the controllers sit in the order they connected (and a ``--controller`` that has
    not answered is still waited for, named in the status log). Raises
    :class:`bitbox.table.seating.LeftLobby` when the players leave it. ``always``: open the
    screen even with no controller (Enter starts with bots). ``bots``: the bots asked for
    (``None``: enough to reach ``min_players``); **+**/**-** change it in the lobby.
    ``keyboard``: ``--keyboard`` (with ``players``, ``--players``): the screen opens even with no
    controller, so that the keyboard players are named (:attr:`chosen` holds their names too)."""

    def __init__(self, hub: Any, names: Sequence[str], max_players: int, *, urls: Sequence[str] = (),
                 window: bool = False, title: str = "", options: str = "", bots: int | None = None,
                 min_players: int = 0, out: TextIO | None = None, size: tuple[int, int] = (1280, 720),
                 fullscreen: bool = False, max_seconds: float | None = None, always: bool = False,
                 lang: str = "en", known: Sequence[str] = (), after_home: bool = False,
                 game: str | None = None, keyboard: bool = False, players: int | None = None) -> None:
        self.hub, self.names, self.max_players, self.urls = hub, list(names), max_players, list(urls)
        self.lang = lang                        # of the lines printed to ``out`` (bitbox.i18n)
        self.window, self.title, self.options, self.min_players = window, title, options, min_players
        self.out, self.size, self.fullscreen = out, size, fullscreen
        self.max_seconds, self.always = max_seconds, always
        self.asked_bots = bots
        self.bots: int | None = None
        self.known = list(known)                # names offered on the centre wheel (the journal's)
        self.after_home = after_home            # a lock closed on the home screen must open before it takes a seat
        self.chosen: dict[int, str] = {}        # after the call: seat index -> the name chosen there
        self.game = game                        # whose wheel meanings the test screen (T) shows, if it has a map
        self.keyboard, self.players = keyboard, players     # --keyboard: its players are named here too

    def _wheel_map(self) -> Any:
        """The game's wheel map (config/wheels.yaml), for the test screen's meanings; None for a
        game without one (the screen then shows the stops alone)."""
        if not self.game:
            return None
        from bitbox.config import ConfigError
        from bitbox.wheels import load_wheel_map
        try:
            return load_wheel_map(game=self.game)
        except ConfigError:
            return None

    def __call__(self, connected: dict[int, ControllerInfo], pending: list[Any]) -> dict[int, int]:
        from .seating import LeftLobby
        hub = self.hub
        lobby = Lobby(self.names, self.max_players, expected=self.urls, min_players=self.min_players,
                      bots=self.asked_bots, known=self.known, after_home=self.after_home,
                      keyboard=self.keyboard, players=self.players)
        for seat, info in sorted(connected.items()):
            lobby.handle(Connected(seat, info, 0.0))
        events = [e for e in pending if not isinstance(e, Connected)]
        if not connected and not self.urls and not ((self.always or self.keyboard) and self.window):
            return {}
        screen = None
        if self.window:
            import pygame

            from .app import MIN_WINDOW, init_pygame
            init_pygame(False)
            flags = pygame.RESIZABLE | (pygame.FULLSCREEN if self.fullscreen else 0)
            size = (0, 0) if self.fullscreen else (max(self.size[0], MIN_WINDOW[0]), max(self.size[1], MIN_WINDOW[1]))
            screen = pygame.display.set_mode(size, flags)
            pygame.display.set_caption(f"{self.title} — lobby" if self.title else "8Bitbox — lobby")

        def service() -> None:
            from .service import run_test_screen

            def keep(e: Any) -> None:
                lobby.handle(e)
                pending.append(e)
            run_test_screen(hub, screen, on_event=keep, lang=self.lang, wheel_map=self._wheel_map())

        order = run_lobby(hub, lobby, screen=screen, title=self.title, options=self.options, out=self.out,
                          events=events, service=service, max_seconds=self.max_seconds, sink=pending, lang=self.lang)
        if order is None:
            raise LeftLobby("left the lobby: no game started")
        for e in lobby.entries.values():        # controllers that came during the lobby
            connected.setdefault(e.hub_seat, e.info)
        self.bots = lobby.bots if lobby.bots != self.asked_bots else None
        self.chosen = lobby.chosen_names()
        return {hub_seat: at for hub_seat in order if (at := lobby.entries[hub_seat].seat) is not None}
