"""Seating: who plays which seat of the hub (any game).

A player of a game is a :class:`SeatPlan`: their name, the hub seat that speaks for them,
and who turns its wheels (a person's ``controller``, a ``bot`` or a ``keyboard`` hot-seat
player, the last two through simulated controllers). :func:`connect` finds the controllers,
decides how many seats the bots and the keyboard fill, adds the simulated controllers and
gives every player a seat; a resumed game's seats are bound again by controller id.
:func:`wait_for` collects the controllers that connect (the reliability tool uses it too).

The only game facts seating needs are its :class:`SeatRules`: the player names in seat
order and how many players it takes.
"""
from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Any, Callable, Protocol, Sequence, TextIO

from bitbox.events import Connected, ControllerInfo, Rejected
from bitbox.i18n import Words, counted

from .labels import seat_line, waiting_line  # noqa: F401 (waiting_line: re-exported)

SEAT_KINDS = ("controller", "bot", "keyboard")

#: Status lines (seat lines, notes, waits): the console's logger (:mod:`bitbox.console`).
log = logging.getLogger("bitbox.table")


class TableError(Exception):
    """A problem the table explains in one line (no traceback)."""


class LeftLobby(TableError):
    """The players left the lobby (Esc, window closed) before the game started: no game."""


#: ``arrange(connected, pending)``: the lobby (see :mod:`bitbox.table.lobby`). Given the
#: controllers found (hub seat -> info) and the hub's events so far, it returns the seat index
#: (into the game's names) of each hub seat that plays, or raises :class:`LeftLobby`. If it
#: has an attribute ``bots`` (not None) after the call, that many bots fill the table.
Arrange = Callable[[dict[int, ControllerInfo], list[Any]], dict[int, int]]


@dataclass(frozen=True)
class SeatPlan:
    """A player of this game: their name (a colour), their hub seat, and who plays it."""

    player: str
    seat: int
    kind: str = "controller"            # controller | bot | keyboard
    controller_id: int | None = None    # when known: a controller with this id takes the seat


@dataclass(frozen=True)
class SeatRules:
    """What seating needs to know of a game."""

    title: str                          # "Outspeed", for messages
    names: Sequence[str]                # player names in seat order
    min_players: int
    max_players: int
    demo_players: int                   # players of a demo with no controller


@dataclass(frozen=True)
class SeatRequest:
    """What the command line asked for (``None``: decide from the controllers found)."""

    players: int | None = None
    bots: int | None = None
    keyboard: bool = False
    urls: Sequence[str] = ()
    wait: float = 3.0                   # seconds to wait for real controllers to say hello
    lang: str = "en"                    # the language of the status lines (bitbox.i18n)


class Pollable(Protocol):
    def poll(self, timeout: float = 0.0) -> list[Any]: ...


class SeatingHub(Pollable, Protocol):
    """The part of :class:`bitbox.hub.Hub` seating uses."""

    def add_url(self, url: str) -> Any: ...
    def scan(self) -> Any: ...
    def start(self) -> Any: ...
    def links(self) -> list[Any]: ...
    def add_sim(self, n: int = 1) -> list[Any]: ...


def wait_for(hub: Pollable, seconds: float, connected: dict[int, ControllerInfo], pending: list[Any],
             done: Callable[[dict[int, ControllerInfo]], bool] | None = None) -> dict[int, ControllerInfo]:
    """Poll ``hub`` for up to ``seconds``: every ``Connected`` goes into ``connected`` (seat ->
    controller info), every event into ``pending`` (for the referee); stop early once
    ``done(connected)``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not (done is not None and done(connected)):
        for e in hub.poll(timeout=0.05):
            if isinstance(e, Connected):
                connected[e.seat] = e.info
            pending.append(e)
    return connected


def bind(names: Sequence[str], controller_ids: Sequence[int], connected: dict[int, ControllerInfo],
         kind: str = "controller") -> list[SeatPlan]:
    """Players ``names`` on the controllers ``controller_ids`` (same order), at the seats
    where those controllers connected."""
    seat_of = {info.controller_id: seat for seat, info in connected.items()}
    return [SeatPlan(p, seat_of[cid], kind, cid) for p, cid in zip(names, controller_ids)]


def plural(n: int, word: str, words: str | None = None) -> str:
    """``1 bot``, ``2 bots``, ``0 controllers`` (English: the errors; status lines come from the catalogues)."""
    return counted(n, word, words or word + "s")


def keyboard_seats(low: int, players: int | None, bots: int | None, n_real: int) -> int:
    """How many keyboard (hot-seat) players ``--keyboard`` seats beside ``n_real`` controllers
    and ``bots``: the rest of ``--players``, or one (more if the game needs more players).
    The lobby names them before the game (:mod:`bitbox.table.lobby`)."""
    n_bots = bots or 0
    if players is None:
        return max(low, n_real + n_bots + 1) - n_real - n_bots
    return players - n_real - n_bots


def _count(rules: SeatRules, req: SeatRequest, n_real: int, out: TextIO | None = None) -> list[str]:
    """The kinds of the seats of a new game: controllers, then keyboard players, then bots.

    The rules when the options and the controllers found disagree (docs/table.md, "Seats"):
    what the command line gives is obeyed or refused (a :class:`TableError`, one line); what
    it leaves out is decided here, with one status line saying what was done."""
    low, high, title = rules.min_players, rules.max_players, rules.title
    players, bots = req.players, req.bots
    made = plural(n_real, "controller")
    if req.keyboard:
        n_bots = bots or 0
        n_kb = keyboard_seats(low, players, bots, n_real)
        if players is None:
            log.info("%s", Words(req.lang).t("seating.keyboard", count=n_kb))
        else:
            if n_kb < 1:
                raise TableError(f"--keyboard with --players {players}: {made} + {plural(n_bots, 'bot')} "
                                 f"leave no seat for the keyboard")
    else:
        n_kb = 0
        if players is not None and bots is not None:
            if n_real + bots != players:
                raise TableError(f"--players {players} and --bots {bots} disagree: {made} + "
                                 f"{plural(bots, 'bot')} make {n_real + bots} players (give only one of them)")
            n_bots = bots
        elif players is not None:
            if players < n_real:
                raise TableError(f"--players {players}, but {made} answered: unplug "
                                 f"{n_real - players} or leave out --players")
            n_bots = players - n_real
        elif bots is not None:
            n_bots = bots
            if n_real + bots < low:
                raise TableError(f"{title} is for {low} to {high} players: {made} + {plural(bots, 'bot')} "
                                 f"make {n_real + bots} (give --bots {low - n_real} or more)")
        elif n_real:
            n_bots = max(0, low - n_real)
            if n_bots:
                log.info("%s", Words(req.lang).t("seating.fill", count=n_real, bots=n_bots, players=low))
        else:
            n_bots = rules.demo_players
        if not n_real:
            log.info("%s", Words(req.lang).t("seating.demo", count=n_bots))
    total = n_real + n_bots + n_kb
    if not low <= total <= high:
        raise TableError(f"{title} is for {low} to {high} players: {made} + {plural(n_bots, 'bot')} + "
                         f"{plural(n_kb, 'keyboard player')} make {total}")
    return ["controller"] * n_real + ["keyboard"] * n_kb + ["bot"] * n_bots


def wait_for_urls(hub: Pollable, urls: Sequence[str], connected: dict[int, ControllerInfo], pending: list[Any],
                  out: TextIO, give_up: float | None = None, lang: str = "en") -> None:
    """Wait for every controller given with ``--controller`` to answer, naming each one that
    has not (once, in ``out``): a controller asked for by name is never silently replaced by
    a bot. ``give_up``: seconds, then a :class:`TableError` (None: wait until Ctrl-C).
    A controller that answered but was refused (another major protocol version, an id already
    on another port) is a :class:`TableError` naming why: it has answered, and waiting would
    wait for ever (SPEC.md 7.3)."""
    def missing() -> list[str]:
        ports = {info.port for info in connected.values()}
        return [u for u in urls if u not in ports]

    def refused() -> Rejected | None:
        gone = set(missing())
        return next((e for e in pending if isinstance(e, Rejected) and e.port in gone), None)
    started = time.monotonic()
    told: set[str] = set()
    while missing():
        refusal = refused()
        if refusal is not None:
            raise TableError(refusal.reason)
        for url in missing():
            if url not in told:
                told.add(url)
                log.warning("%s", waiting_line(url, lang))
        if give_up is not None and time.monotonic() - started > give_up:
            raise TableError(f"controller {missing()[0]} did not answer in {give_up:g} s")
        wait_for(hub, 0.5, connected, pending, lambda c: not missing() or refused() is not None)


def connect(hub: SeatingHub, rules: SeatRules, req: SeatRequest, wanted: list[dict] | None,
            out: TextIO, arrange: Arrange | None = None) -> tuple[list[dict], dict[str, Any], list[Any]]:
    """Find the controllers, add simulated ones for bots and keyboard players, and give
    every player a seat. ``wanted``: the seats of a resumed game (bound by controller id).
    ``arrange``: the lobby, which decides who sits where (default: the order the hub gave
    the controllers). Every controller given with ``--controller`` is waited for. One line
    per seat is printed ("Red: controller 1d1e…c0de on /dev/ttyACM0").

    Returns (seats as dicts: player, seat, kind, controller_id; the simulated controller of
    each bot or keyboard player; the hub's events so far, for the referee)."""
    from bitbox.transports import OpenError

    for url in req.urls:
        try:
            hub.add_url(url)
        except (OpenError, OSError, ValueError) as exc:
            raise TableError(f"cannot open controller {url}: {exc}") from None
    try:
        hub.scan()
    except Exception as exc:  # noqa: BLE001 - discovery problems must not stop a demo
        log.warning("%s", Words(req.lang).t("seating.discovery_failed", error=exc))
    hub.start()
    connected: dict[int, ControllerInfo] = {}
    real_links = [link for link in hub.links() if link.kind != "sim"]
    want_real = None if wanted is None else sum(1 for s in wanted if s["kind"] == "controller")
    pending: list[Any] = []
    wait_for(hub, req.wait if real_links else 0.0, connected, pending,     # until every port found has answered
             (lambda c: len(c) >= len(real_links)) if want_real is None else (lambda c: len(c) >= want_real))
    chosen: dict[int, int] | None = None
    if wanted is None and arrange is not None:
        chosen = arrange(connected, pending)           # the lobby: hub seat -> seat index
        lobby_bots = getattr(arrange, "bots", None)     # the bots settled on in the lobby, if it changed them
        if lobby_bots is not None:
            from dataclasses import replace
            req = replace(req, bots=lobby_bots, players=None)     # the lobby's choice is final
        for e in pending:
            if isinstance(e, Connected):
                connected[e.seat] = e.info
        real_seats = sorted(chosen, key=lambda seat: chosen[seat])
    else:
        if req.urls and wanted is None:
            wait_for_urls(hub, req.urls, connected, pending, out, lang=req.lang)
        real_seats = sorted(connected)
    n_real = len(real_seats)
    wanted_kinds = _count(rules, req, n_real, out) if wanted is None else [s["kind"] for s in wanted]
    n_sims = sum(1 for k in wanted_kinds if k != "controller")
    sims = hub.add_sim(n_sims) if n_sims else []
    sim_ids = {s.controller_id: s for s in sims}
    wait_for(hub, 5.0, connected, pending,
             lambda c: sum(1 for i in c.values() if i.controller_id in sim_ids) >= n_sims)
    sim_seats = sorted(seat for seat, info in connected.items() if info.controller_id in sim_ids)
    if len(sim_seats) < n_sims:
        raise TableError("the simulated controllers did not answer")
    seats: list[dict] = []
    sim_of: dict[str, Any] = {}
    if wanted is None and chosen is not None:
        # the colours chosen in the lobby are kept; bots and keyboard players take the free ones
        taken = {chosen[seat]: (seat, "controller") for seat in real_seats}
        free = [i for i in range(len(rules.names)) if i not in taken]
        virtual = [k for k in wanted_kinds if k != "controller"]
        for i, (seat, kind) in zip(free, zip(sim_seats, virtual)):
            taken[i] = (seat, kind)
        for i in sorted(taken):
            seat, kind = taken[i]
            info = connected[seat]
            player = rules.names[i]
            seats.append({"player": player, "seat": seat, "kind": kind, "controller_id": info.controller_id})
            if kind != "controller":
                sim_of[player] = sim_ids[info.controller_id]
    elif wanted is None:
        order = [(seat, "controller") for seat in real_seats[:n_real]]
        virtual = [k for k in wanted_kinds if k != "controller"]
        order += list(zip(sim_seats, virtual))
        order.sort()
        for i, (seat, kind) in enumerate(order):
            info = connected[seat]
            player = rules.names[i]
            seats.append({"player": player, "seat": seat, "kind": kind, "controller_id": info.controller_id})
            if kind != "controller":
                sim_of[player] = sim_ids[info.controller_id]
    else:
        by_id = {info.controller_id: seat for seat, info in connected.items()}
        free_sims = list(sim_seats)
        unknown_seat = 10_000
        for s in wanted:
            if s["kind"] == "controller":
                found = by_id.get(s["controller_id"]) if s.get("controller_id") is not None else None
                if found is not None:
                    seat = found
                else:                               # not here yet: the referee waits for it
                    seat, unknown_seat = unknown_seat, unknown_seat + 1
                seats.append({**s, "seat": seat})
            else:
                seat = free_sims.pop(0)
                seats.append({**s, "seat": seat, "controller_id": connected[seat].controller_id})
                sim_of[s["player"]] = sim_ids[connected[seat].controller_id]
    for s in seats:
        if s["kind"] == "controller":
            log.info("%s", seat_line(s["player"], connected.get(s["seat"]) or _unknown(s), lang=req.lang))
    return seats, sim_of, pending


def _unknown(s: dict) -> ControllerInfo:
    """A resumed game's controller that is not here yet, for its seat line."""
    return ControllerInfo(int(s.get("controller_id") or 0), "(not connected yet)", (0, 0), "?", (0, 0, 0))


def plans(seats: Sequence[dict]) -> list[SeatPlan]:
    """The :class:`SeatPlan` of each seat dict from :func:`connect`."""
    return [SeatPlan(s["player"], s["seat"], s["kind"], s.get("controller_id")) for s in seats]
