"""The hub: every controller, on every transport, as one ordered stream of events.

    hub = Hub()                        # timing defaults from the protocol (firmware_protocol)
    hub.scan()                         # USB devices by VID/PID + the config's ports
    hub.add_url("/dev/ttyACM0")        # or loop://, socket://host:port, spy://..., hid://<path>
    sims = hub.add_sim(4)              # simulated controllers (the reference firmware, in-process)
    with hub:                          # start() ... close()
        for event in hub.poll():       # Connected, WheelsChanged, Lost, Back, Rejected
            ...

How it works. Each open device is a *link*: a transport, a decoder and one reader thread that
blocks in the transport's read (so the game loop never waits on a device). Decoded messages go
through the handshake and seat logic under one lock, and the events they cause are appended to
one queue, in the order they happened; ``poll`` drains it.

- **Handshake.** On opening a link the hub sends HostHello; the controller answers Hello (a
  controller that boots sends one by itself). A compatible Hello gets a Welcome, a seat and an
  AssignSeat with the seat's colour; a major version mismatch or a controller id whose seated
  device is still open on another port (talking, silent or lost: a clone) gets a refusing
  Welcome and a :class:`~bitbox.events.Rejected` event whose reason names both versions or
  both ports. A seated controller refused later (reflashed) loses its seat (``Lost``).
- **Seats** are bound to controller ids (pinned ones from ``config/controllers.yaml`` first,
  else the lowest free seat) for the hub's lifetime: a controller that comes back, on any
  port, gets its seat, colour and lights back (:class:`~bitbox.events.Back`).
- **Private to one controller** (protocol 1.1): :meth:`Hub.hint` (the valid stops of its
  wheels) and :meth:`Hub.refuse_choice` ("your choice was refused") go to one seat's
  controller only, and only to a controller whose Hello said 1.1 or later; a 1.0 one gets
  no 1.1 message (a refusal reaches it as an Identify). :meth:`Hub.show` (1.2: stops shown
  that are not choices, a code) goes only to a controller of 1.2 or later. Seats are 0-based
  here; the wire's AssignSeat, the screen and the log count from 1 (SPEC.md 6.9).
- **Loss.** A seat is :class:`~bitbox.events.Lost` when its device is unplugged (the reader
  sees the error) or sends no valid frame for ``lost_after_ms`` (heartbeat timeout, checked by
  the readers and by ``poll`` with the hub's clock). Frames coming again on the same link, or
  a Hello on another one, bring it back.
- **Untrusted input.** Bad frames are counted per link and per seat (``seats()``, ``links()``)
  and otherwise ignored; a State with a position outside the controller's own geometry counts
  as bad too. A link flooding garbage is throttled (it sleeps 1 ms after each full read that
  held no valid frame, 20 ms once it sends nothing else), so it cannot starve the other
  readers or the game of the processor or the interpreter. ErrorReport texts are escaped
  (:func:`bitbox.safetext.printable`) and logged at most a few times per device every 30 s;
  log records made under the hub's lock are written only once it is released.
- **Latency.** A reader thread woken by its device must take the interpreter lock from the
  game's main thread, which hands it over only every ``sys.getswitchinterval()`` (5 ms by
  default). While started, the hub lowers the interval to ``switch_interval`` (0.25 ms) and
  restores it on ``close``; see ``tools/bench/device.py`` for the measured effect.
"""
from __future__ import annotations

import functools
import logging
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import firmware_protocol as fp
from firmware_protocol.handshake import compatible, version_mismatch_text

from .controllers import MAX_SEAT, ControllersConfig, load_controllers_config
from .discovery import find_candidates, info_from_hello, is_glob
from .events import Back, Connected, ControllerInfo, HubEvent, Lost, Rejected, SeatStatus, WheelsChanged
from .faults import FaultSpec, parse_faults
from .safetext import printable
from .sim import SimController, SimRunner, sim_controller_id
from .transports import OpenError, Transport, TransportError, open_url

__all__ = ["Hub", "LinkStatus", "DEFAULT_SWITCH_INTERVAL"]

log = logging.getLogger("bitbox.hub")

#: The interpreter switch interval while a hub runs (seconds); see the module docstring.
DEFAULT_SWITCH_INTERVAL = 0.00025
#: A link that reads at least this much in one go with no valid frame is flooding: its reader
#: pauses _FLOOD_PAUSE after each such read, and _QUARANTINE_PAUSE once it has done nothing
#: else for _QUARANTINE_AFTER reads in a row (about a tenth of a second of garbage). A babbler
#: then costs a few percent of a core (4 KiB every 20 ms), its own frames wait up to 20 ms, and
#: the kernel's buffer, full, slows the babbling device itself.
_FLOOD_BYTES = 1024
_FLOOD_PAUSE = 0.001
_QUARANTINE_AFTER = 64
_QUARANTINE_PAUSE = 0.02
#: An idle poll() checks heartbeat timeouts (under the lock) at most this often, in seconds.
_TIMEOUT_CHECK_EVERY = 0.02
#: A device whose reader has not come back from a read for this long (seconds) is lost even
#: though nobody saw its line silent (a driver's read that never returns).
_READER_STUCK = 5.0
#: Misbehaviour worth a warning naming the device: this many bad frames, or more than this
#: many valid frames per second that change nothing (a controller sends 4 heartbeats a second;
#: its changes, legal at any rate the debounce allows, are not counted),
#: over a window of _WATCH_WINDOW seconds; at most one warning per link every _WARN_EVERY s.
_NOISY_BAD = 50
_FAST_FRAMES = 20             # frames that change nothing: 4 heartbeats a second, replies, Pongs
_WATCH_WINDOW = 2.0
_WARN_EVERY = 30.0
#: ErrorReports a device sends are logged (escaped) at most _ERRORS_LOGGED per link every
#: _WARN_EVERY seconds; the rest are counted and summed up in the next line logged.
_ERRORS_LOGGED = 5
#: Events kept for a game that does not poll: beyond this, WheelsChanged are coalesced.
MAX_QUEUED_EVENTS = 4096
#: Writes to one device: at most this many a second; none for this long after a failed one.
_MAX_SENDS = 50
#: Messages a link may have waiting for its next second of sends (beyond: the oldest are dropped).
_MAX_DEFERRED = 64
_STALL_PAUSE = 1.0

OPENING, HANDSHAKE, ACTIVE, REFUSED, CLOSED = "opening", "handshake", "active", "refused", "closed"


@dataclass(frozen=True)
class LinkStatus:
    """One open (or reopening) device, for tools and diagnostics."""

    port: str
    kind: str
    state: str                       # opening, handshake, active, refused, closed
    controller_id: int | None
    seat: int | None
    frames: int                      # valid frames received
    bad_frames: int                  # corrupted frames + States out of the controller's range
    unknown_messages: int
    last_error: str | None = None    # the last ErrorReport text, or why it is not open
    rejected: str | None = None
    last_frame_age: float | None = None   # seconds since the last valid frame (None: none yet)


@dataclass(eq=False)
class _Seat:
    seat: int
    controller_id: int
    info: ControllerInfo | None = None
    link: _Link | None = None
    connected: bool = False
    wheels: tuple[int, int, int] | None = None
    locked: bool = False
    colour: tuple[int, int, int] = (255, 255, 255)
    lights: tuple[bool, bool, bool] | None = None
    hint: tuple[int, int, int] = (0, 0, 0)       # protocol 1.1: valid stops, private to the seat
    shown: tuple[int, int, int] = (0, 0, 0)      # protocol 1.2: stops shown (a code), private
    bad_base: int = 0
    frames_base: int = 0                         # valid frames of the links it had before


@dataclass(eq=False)
class _Link:
    port: str
    opener: Callable[[], Transport] | None      # for reopening after an unplug; None: drop the link
    transport: Transport | None = None
    decoder: Any = None
    state: str = OPENING
    seat: _Seat | None = None
    controller_id: int | None = None
    last_rx: float = 0.0
    read_at: float = 0.0                         # when its latest finished read started: what came before is handled
    hello_asked: float = -1e18
    rejected: str | None = None
    frames: int = 0
    invalid: int = 0
    bad_base: int = 0                            # bad frames of previous decoders (reopened)
    bad_mark: int = 0                            # bad_total() when bound to its current seat
    frames_mark: int = 0                         # frames when bound to its current seat
    unknown_base: int = 0
    errors: deque = field(default_factory=lambda: deque(maxlen=8))
    open_error: str | None = None
    thread: threading.Thread | None = None
    closing: bool = False
    kind: str = "?"
    watch_at: float = 0.0                        # _watch: start of the current window
    watch_frames: int = 0
    changes: int = 0                             # States that changed the wheels or the lock (legal at any rate)
    watch_changes: int = 0
    last_state: tuple[int, int, int, bool] | None = None
    watch_bad: int = 0
    warned_at: float = -1e18
    flooding: int = 0                            # reads in a row that were only garbage
    stalled_until: float = 0.0                   # _flush: skip writes until then
    send_window: float = 0.0
    sends: int = 0
    writes_dropped: int = 0
    error_reports: int = 0                       # ErrorReports received
    errors_window: float = -1e18                 # _on_error_report: start of the logging window
    errors_logged: int = 0                       # ... lines logged in it
    errors_unlogged: int = 0                     # ... reports not logged since the last line

    def bad_total(self) -> int:
        d = self.decoder
        return self.bad_base + self.invalid + (d.bad_frames if d is not None else 0)

    def unknown_total(self) -> int:
        d = self.decoder
        return self.unknown_base + (d.unknown_messages if d is not None else 0)


class Hub:
    """Many controllers -> one ordered stream of :mod:`bitbox.events`.

    ``clock`` stamps events and drives the heartbeat timeout (any callable returning seconds;
    tests may pass a fake one and call ``poll`` to advance). ``lost_after_ms`` defaults to the
    protocol's ``LOST_AFTER_MS``. ``config`` gives the USB ids for :meth:`scan`, pinned seats
    and seat colours (default: ``config/controllers.yaml``).
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic, lost_after_ms: float | None = None, *,
                 config: ControllersConfig | None = None, switch_interval: float | None = DEFAULT_SWITCH_INTERVAL,
                 sim_tick_ms: float = 5.0, reopen_s: float = 0.5, hello_retry_ms: float | None = None) -> None:
        self._clock = clock
        self.lost_after = (fp.LOST_AFTER_MS if lost_after_ms is None else lost_after_ms) / 1000.0
        self.hello_retry = (fp.HELLO_RETRY_MS if hello_retry_ms is None else hello_retry_ms) / 1000.0
        self.config = config if config is not None else _default_config()
        self.switch_interval = switch_interval
        self.reopen_s = reopen_s
        self._lock = threading.RLock()
        self._cond = threading.Condition(self._lock)
        self._events: deque[HubEvent] = deque()
        #: WheelsChanged events dropped from a long queue nobody polled (see ``_coalesce``).
        self.events_coalesced = 0
        self._outbox: list[tuple[_Link, Any]] = []     # messages to write, appended under the lock
        self._write_lock = threading.Lock()            # writes leave in the order they were queued
        self._links: list[_Link] = []
        self._seats: dict[int, _Seat] = {}
        self._by_id: dict[int, _Seat] = {}
        self._started = False
        self._closed = False
        self._stop = threading.Event()
        self._saved_switch: float | None = None
        self._runner = SimRunner(tick_ms=sim_tick_ms, name="bitbox-hub-sims")
        self.sims: list[SimController] = []
        self._scan_thread: threading.Thread | None = None
        self._scanned = False
        self._timeouts_checked = -1e18
        self._scan_failed: set[str] = set()            # warned about once
        #: Log records made under the lock, written once it is released (_emit_logs): a log
        #: handler that blocks (stderr to a full pipe) must never hold the hub up.
        self._logs: list[tuple[int, str, tuple[Any, ...]]] = []
        for pin in self.config.pins:
            self._seats[pin.seat] = self._by_id[pin.controller_id] = _Seat(
                pin.seat, pin.controller_id, colour=self.config.colour_for(pin.seat, pin.controller_id))

    @classmethod
    def from_config(cls, path: str | None = None, **kwargs: Any) -> Hub:
        """A hub for ``config/controllers.yaml`` (or ``path``): its USB devices and ports
        (:meth:`scan`) and its simulated controllers."""
        config = load_controllers_config(path)
        hub = cls(config=config, **kwargs)
        hub.scan()
        for url in config.ports:
            if url.startswith("sim://"):
                hub.add_url(url)
        if config.simulated:
            hub.add_sim(config.simulated)
        return hub

    # -- adding devices -------------------------------------------------------------------------
    def add_url(self, url: str, *, retry: bool = False, literal: bool = False) -> str:
        """Open a device path or URL (see :func:`bitbox.transports.open_url`; ``sim://`` adds a
        simulated controller, ``sim://N`` the one with index N; a glob adds every match).
        Raises :class:`~bitbox.transports.OpenError` if it cannot be opened, unless ``retry``
        (then it is tried again every ``reopen_s``). A link opened by URL is reopened after an
        unplug. Returns the port name. ``literal``: ``url`` is a path as it is, never a glob
        (each match of a glob: a name holding ``*``, ``?`` or an unclosed ``[`` matches itself)."""
        if url.startswith("sim://"):
            rest = url[len("sim://"):].strip("/")
            index = int(rest) if rest.isdigit() else None
            return self.add_sim(1, index=index)[0].port
        if not literal and is_glob(url):
            import glob
            for match in sorted(glob.glob(url)):
                self.add_url(match, retry=retry, literal=True)
            return url
        with self._lock:
            waiting = next((l for l in self._links if l.port == url and not l.closing), None)
            if waiting is not None and waiting.transport is None and waiting.opener is None:
                # A link whose device went away for good (a pseudo-terminal) and whose reader
                # has not ended yet: the path now names a new device (ptys reuse numbers).
                waiting.closing = True
                waiting = None
        if waiting is not None:
            if waiting.transport is None and waiting.opener is not None:
                self._open(waiting)             # a link waiting to reopen: now, or OpenError
            return url
        # A pseudo-terminal never comes back once closed, and its number is soon reused by
        # another program: only real device paths and URLs are reopened after an unplug.
        reopen = not url.startswith("/dev/pts/")
        link = _Link(url, opener=lambda: open_url(url), kind="hid" if url.startswith("hid://") else "serial")
        try:
            self._open(link)
        except OpenError as exc:
            if not retry:
                raise
            link.open_error = str(exc)
        if not reopen:
            link.opener = None
        self._add_link(link)
        return url

    def add_transport(self, transport: Transport, *, reopen: Callable[[], Transport] | None = None) -> str:
        """Adopt an already open transport (tests, custom devices)."""
        link = _Link(transport.port, opener=reopen, kind=transport.kind)
        self._attach(link, transport)
        self._add_link(link)
        return transport.port

    def add_sim(self, n: int = 1, *, index: int | None = None, ids: Iterable[int] | None = None,
                faults: str | FaultSpec | None = None, **kwargs: Any) -> list[SimController]:
        """Add ``n`` simulated controllers (``sim://0``, ``sim://1``, ...): the reference
        firmware on a virtual board, plugged in through in-memory byte pipes. ``ids`` sets
        their controller ids (default 0x5EED000000000001, ...); ``faults`` a fault SPEC
        (:mod:`bitbox.faults`) or one FaultSpec for all; other keywords go to
        :class:`~bitbox.sim.SimController` (positions, protocol, settle, ...)."""
        ids = list(ids) if ids is not None else None
        specs = parse_faults(faults, n) if isinstance(faults, str) else [faults] * n
        made = []
        for k in range(n):
            i = index if index is not None and n == 1 else len(self.sims)
            cid = ids[k] if ids is not None else sim_controller_id(i)
            sim = SimController(cid, port=f"sim://{i}", attach=self._attach_sim, wake=self._runner.wake,
                                faults=specs[k], **kwargs)
            self.sims.append(sim)
            made.append(sim)
            self._attach_sim(sim)
            self._runner.add(sim)
        if self._started:
            self._runner.start()
        return made

    def _attach_sim(self, sim: SimController) -> None:
        link = _Link(sim.port, opener=None, kind="sim")
        if sim.transport is None:
            raise RuntimeError(f"{sim.port}: the simulated controller is not running")
        self._attach(link, sim.transport)
        self._add_link(link)

    def scan(self) -> list[str]:
        """Open every candidate (USB VID/PID, the config's ports and globs) not open yet.
        Returns the ports added. Call it again to pick up devices plugged in since."""
        added = []
        self._scanned = True
        with self._lock:
            held = {l.port for l in self._links if not l.closing}
        for cand in find_candidates(self.config):
            if cand.url in held or cand.kind == "sim":
                continue
            link = _Link(cand.url, opener=functools.partial(open_url, cand.url)
                         if cand.source in ("config", "emulated") else None,
                         kind=cand.kind)
            try:
                self._open(link)
            except OpenError as exc:
                (log.debug if cand.url in self._scan_failed else log.warning)("%s", exc)
                self._scan_failed.add(cand.url)
                continue
            self._scan_failed.discard(cand.url)
            self._add_link(link)
            added.append(cand.url)
        return added

    def _open(self, link: _Link) -> None:
        assert link.opener is not None
        self._attach(link, link.opener())
        link.open_error = None

    def _attach(self, link: _Link, transport: Transport) -> None:
        with self._lock:
            if link.decoder is not None:                 # reopened: keep the counts
                link.bad_base += link.decoder.bad_frames
                link.unknown_base += link.decoder.unknown_messages
            link.transport = transport
            link.decoder = transport.decoder()
            link.state = HANDSHAKE
            link.last_rx = link.read_at = self._clock()
            link.hello_asked = -1e18                     # ask at once (the reader does)

    def _add_link(self, link: _Link) -> None:
        with self._lock:
            if self._closed:
                if link.transport is not None:
                    link.transport.close()
                raise RuntimeError("the hub is closed")
            self._links.append(link)
            if self._started:
                self._start_reader(link)

    # -- running --------------------------------------------------------------------------------
    def start(self, *, rescan_s: float | None = None) -> Hub:
        """Start the reader threads (and the simulated controllers). ``rescan_s``: also call
        :meth:`scan` that often, to pick up controllers plugged in later (default: every
        second if :meth:`scan` was used, else never; 0 = never)."""
        with self._lock:
            if self._started:
                return self
            if self._closed:
                raise RuntimeError("the hub is closed")
            self._started = True
            if self.switch_interval and sys.getswitchinterval() > self.switch_interval:
                self._saved_switch = sys.getswitchinterval()
                sys.setswitchinterval(self.switch_interval)
            for link in self._links:
                self._start_reader(link)
        if self.sims:
            self._runner.start()
        if rescan_s is None:
            rescan_s = 1.0 if self._scanned else 0.0
        if rescan_s:
            self._scan_thread = threading.Thread(target=self._rescan, args=(rescan_s,), name="bitbox-scan", daemon=True)
            self._scan_thread.start()
        return self

    def __enter__(self) -> Hub:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop every thread and close every device. Idempotent. With debug logging on (``-v``),
        one line per device first: its traffic (frames, bad frames, unknown messages)."""
        if not self._closed and log.isEnabledFor(logging.DEBUG):
            for status in self.links():
                log.debug("%s (%s, %s): %d frames, %d bad, %d unknown messages", status.port, status.kind,
                          status.state, status.frames, status.bad_frames, status.unknown_messages)
        with self._lock:
            if self._closed:
                return
            self._closed = True
            links = list(self._links)
            for link in links:
                link.closing = True
        self._stop.set()
        self._runner.stop()
        for link in links:
            if link.transport is not None:
                link.transport.close()
        for link in links:
            if link.thread is not None and link.thread is not threading.current_thread():
                link.thread.join(1.0)
        for sim in self.sims:
            sim.unplug()
        if self._saved_switch is not None and abs(sys.getswitchinterval() - (self.switch_interval or 0)) < 1e-9:
            sys.setswitchinterval(self._saved_switch)
        self._saved_switch = None
        with self._cond:
            self._cond.notify_all()

    def _rescan(self, every: float) -> None:
        while not self._stop.wait(every):
            try:
                self.scan()
            except Exception:  # noqa: BLE001 - discovery must never kill the hub
                log.exception("scan failed")

    def _start_reader(self, link: _Link) -> None:
        link.thread = threading.Thread(target=self._reader, args=(link,), name=f"bitbox-read {link.port}", daemon=True)
        link.thread.start()

    def _reader(self, link: _Link) -> None:
        sleep = time.sleep
        while not link.closing:
            transport = link.transport
            if transport is None:
                if link.opener is None or self._stop.wait(self.reopen_s):
                    break
                try:
                    self._open(link)
                    log.info("%s: reopened", link.port)
                except OpenError as exc:
                    link.open_error = str(exc)
                continue
            started = self._clock()
            try:
                data = transport.read()
            except Exception as exc:  # noqa: BLE001 - TransportError, or a broken driver
                if link.closing:
                    break
                if not isinstance(exc, TransportError):
                    log.exception("%s: read failed", link.port)
                self._gone(link, transport, exc)
                if link.opener is None:
                    break
                continue
            if data:
                messages = link.decoder.feed(data)
                if messages:
                    self._handle(link, messages)
                link.read_at = started
                if messages or len(data) < _FLOOD_BYTES:
                    link.flooding = 0
                else:                                   # a babbler: let the others run
                    link.flooding += 1
                    sleep(_QUARANTINE_PAUSE if link.flooding > _QUARANTINE_AFTER else _FLOOD_PAUSE)
                now = self._clock()
                self._watch(link, now)
                if link.state == HANDSHAKE and now - link.hello_asked >= self.hello_retry:
                    self._housekeeping(link, now)       # a line never quiet still gets its HostHello (SPEC 7.4)
                continue
            link.read_at = started
            self._housekeeping(link, self._clock())
        with self._lock:
            link.state = CLOSED
            if link in self._links and (link.closing or link.opener is None):
                self._links.remove(link)

    def _watch(self, link: _Link, now: float) -> None:
        """Name a misbehaving device in the log (at most every ``_WARN_EVERY`` s): one
        sending many bad frames (noise, garbage, a wrong baud rate) or valid frames far faster
        than a controller should (more than ``_FAST_FRAMES`` per second that change nothing:
        a State on every change is the protocol, at any rate its debounce allows, SPEC.md 8.1)."""
        elapsed = now - link.watch_at
        if elapsed < _WATCH_WINDOW:
            return
        bad = link.bad_total() - link.watch_bad
        frames = (link.frames - link.changes) - (link.watch_frames - link.watch_changes)
        link.watch_at, link.watch_bad, link.watch_frames = now, link.bad_total(), link.frames
        link.watch_changes = link.changes
        if now - link.warned_at < _WARN_EVERY or elapsed > 4 * _WATCH_WINDOW:
            return
        who = f"controller {link.controller_id:#018x}" if link.controller_id is not None else "device"
        if bad >= _NOISY_BAD:
            link.warned_at = now
            log.warning("%s: %s: %d bad frames in %.0f s (garbage or noise on the line); they are ignored",
                        link.port, who, bad, elapsed)
        elif frames / elapsed > _FAST_FRAMES and link.kind != "sim":   # bots turn simulated ones at table speed
            link.warned_at = now
            log.warning("%s: %s sends %.0f frames/s that change nothing (a controller sends about %d "
                        "besides its changes); only its changes reach the game", link.port, who,
                        frames / elapsed, 1000 // fp.HEARTBEAT_MS)

    def _handle(self, link: _Link, messages: list) -> None:
        with self._cond:
            now = self._clock()                         # events are stamped when they exist
            n = len(self._events)
            for message in messages:
                self._on_message(link, message, now)
            if len(self._events) != n:
                self._cond.notify_all()
        if self._outbox:
            self._flush()
        if self._logs:
            self._emit_logs()

    def _log(self, level: int, msg: str, *args: Any) -> None:
        """Log later, once the hub's lock is released (call under the lock)."""
        self._logs.append((level, msg, args))

    def _emit_logs(self) -> None:
        """Write the log records made under the lock (call without holding it)."""
        with self._lock:
            logs, self._logs = self._logs, []
        for level, msg, args in logs:
            log.log(level, msg, *args)

    def _housekeeping(self, link: _Link, now: float) -> None:
        with self._cond:
            if link.state == HANDSHAKE and now - link.hello_asked >= self.hello_retry:
                link.hello_asked = now
                self._outbox.append((link, fp.HostHello()))
            if self._check_timeouts(now):
                self._cond.notify_all()
        if self._outbox:
            self._flush()
        if self._logs:
            self._emit_logs()

    def _gone(self, link: _Link, transport: Transport, exc: Exception) -> None:
        """The link's device went away."""
        transport.close()
        now = self._clock()
        with self._cond:
            if link.transport is transport:
                link.transport = None
            link.state = OPENING
            link.open_error = str(exc)
            seat = link.seat
            if seat is not None and seat.link is link and seat.connected:
                seat.connected = False
                self._events.append(Lost(seat.seat, seat.controller_id, "unplugged", now))
                self._log(logging.WARNING, "seat %d: controller %#018x unplugged (%s)", seat.seat + 1,
                          seat.controller_id, exc)
                self._cond.notify_all()
                self._nudge_refused(seat.controller_id, except_link=link)
        self._flush()
        self._emit_logs()

    # -- the protocol ---------------------------------------------------------------------------
    def _on_message(self, link: _Link, m: Any, now: float) -> None:
        out = self._outbox
        kind = type(m)
        if kind is fp.State:
            link.frames += 1
            reading = (m.left, m.centre, m.right, m.locked)
            if reading != link.last_state:
                link.last_state = reading
                link.changes += 1
            if link.state != ACTIVE:
                if link.state == HANDSHAKE and now - link.hello_asked >= self.hello_retry:
                    link.hello_asked = now                # a controller welcomed by an earlier host
                    out.append((link, fp.HostHello()))
                if link.state != REFUSED:
                    link.last_rx = now
                return
            seat = link.seat
            geometry = seat.info.positions if seat is not None and seat.info is not None else (16, 16, 16)
            if m.left >= geometry[0] or m.centre >= geometry[1] or m.right >= geometry[2]:
                link.invalid += 1                         # a lie: outside its own wheels
                return
            link.last_rx = now
            if seat is None or seat.link is not link:
                return
            if not seat.connected:
                seat.connected = True
                self._events.append(Back(seat.seat, seat.controller_id, link.port, now))
            wheels = (m.left, m.centre, m.right)
            if wheels != seat.wheels or m.locked != seat.locked:
                seat.wheels, seat.locked = wheels, m.locked
                self._events.append(WheelsChanged(seat.seat, seat.controller_id, m.left, m.centre, m.right,
                                                  m.locked, now, m.seq))
                if len(self._events) > MAX_QUEUED_EVENTS:
                    self._coalesce()
        elif kind is fp.Hello:
            link.frames += 1
            link.last_rx = now
            self._on_hello(link, m, now)
        elif kind is fp.Pong:
            link.frames += 1
            link.last_rx = now
        elif kind is fp.ErrorReport:
            link.frames += 1
            link.last_rx = now
            self._on_error_report(link, m, now)
        else:                                             # a host -> controller message: echo?
            link.invalid += 1

    def _on_error_report(self, link: _Link, m: Any, now: float) -> None:
        """Keep the report (escaped: the device chose every byte of its text) and log it,
        at most _ERRORS_LOGGED lines per link every _WARN_EVERY seconds."""
        try:
            code = fp.ErrorCode(m.code).name
        except ValueError:
            code = str(m.code)
        text = f"error {code}: {printable(m.text, 96)}"
        link.errors.append(text)
        link.error_reports += 1
        if now - link.errors_window >= _WARN_EVERY:
            link.errors_window, link.errors_logged = now, 0
        if link.errors_logged >= _ERRORS_LOGGED:
            link.errors_unlogged += 1
            return
        link.errors_logged += 1
        who = f"controller {link.controller_id:#018x}" if link.controller_id is not None else "device"
        more = (f" ({link.errors_unlogged} more reports since the last one logged; at most {_ERRORS_LOGGED} "
                f"are logged every {_WARN_EVERY:.0f} s)") if link.errors_unlogged else ""
        link.errors_unlogged = 0
        self._log(logging.WARNING, "%s: %s reports %s%s", link.port, who, text, more)

    def _on_hello(self, link: _Link, hello: Any, now: float) -> None:
        out = self._outbox
        info = info_from_hello(hello, link.port)
        cid = info.controller_id
        ours = fp.PROTOCOL_VERSION
        if not compatible(info.protocol, ours):
            reason = (f"{link.port}: controller {cid:#018x} speaks protocol {info.protocol[0]}.{info.protocol[1]}, "
                      f"this hub speaks {ours[0]}.{ours[1]}: major versions differ; update the "
                      f"{'controller firmware' if info.protocol[0] < ours[0] else 'host software'}")
            self._refuse(link, cid, reason, version_mismatch_text(info.protocol, ours), now)
            return
        seat = self._by_id.get(cid)
        other = seat.link if seat is not None else None
        if other is not None and other is not link and other.transport is not None:
            # The seat's device is still open: whether it talks, is only silent (a busy line, a
            # slow host) or was lost by a heartbeat timeout, a second device with its id is a
            # clone and does not get the seat (else it would steal a player's seat at their
            # first missed heartbeats, and the real controller would be ignored for good).
            # Once that device is closed (unplugged: the controller moved to another port), a
            # twin refused here is asked for a Hello again (_nudge_refused) and takes over.
            # (One wording whatever the first one's state: the conflict is reported once per link.)
            reason = (f"controller id {cid:#018x} is already connected on {other.port}; refused the second "
                      f"one on {link.port} (two controllers with one id)")
            self._refuse(link, cid, reason, "duplicate id: already on " + _short(other.port), now)
            return
        if seat is not None and other is not None and other is not link and seat.connected:
            # The old link is closed and has not said so yet: the controller moved.
            seat.connected = False
            self._events.append(Lost(seat.seat, cid, f"moved to {link.port}", now))
        if seat is None and self._free_seat(cid) is None:
            reason = (f"{link.port}: a controller with a new id was refused: every seat (0..{MAX_SEAT}) is "
                      f"already bound to another controller id")     # one reason per link: one event
            self._refuse(link, cid, reason, "no free seat", now)
            return
        if link.seat is not None and link.seat.controller_id != cid:   # another device on this port
            old = link.seat
            self._unbind(link)
            if old.connected and old.link is None:
                old.connected = False
                self._events.append(Lost(old.seat, old.controller_id, f"replaced on {link.port}", now))
        out.append((link, fp.Welcome(ours[0], ours[1], True, "")))
        link.state = ACTIVE
        link.rejected = None
        link.controller_id = cid
        if seat is None:
            seat = self._new_seat(cid)
        first = seat.info is None
        seat.info = info
        if seat.link is not link:
            if seat.link is not None:
                self._unbind(seat.link)
            seat.link = link
            link.seat = seat
            link.bad_mark = link.bad_total()
            link.frames_mark = link.frames
        if first:
            seat.connected = True
            self._events.append(Connected(seat.seat, info, now))
            self._log(logging.INFO, "seat %d: controller %#018x connected on %s", seat.seat + 1, cid, link.port)
            if not info.has_lock:                       # SPEC.md 6.3: it can never lock a choice
                self._log(logging.WARNING, "seat %d: controller %#018x has no lock switch (its Hello's "
                          "capabilities): its player cannot lock a choice", seat.seat + 1, cid)
        elif not seat.connected:
            seat.connected = True
            self._events.append(Back(seat.seat, cid, link.port, now))
            self._log(logging.INFO, "seat %d: controller %#018x back on %s", seat.seat + 1, cid, link.port)
        # The Welcome starts a new session on the controller: seat and lights are reset there.
        out.append((link, fp.AssignSeat(seat.seat + 1, seat.colour)))
        if seat.lights is not None:
            out.append((link, fp.SetLights(*seat.lights, seat.colour)))
        if any(seat.hint) and fp.supports_private_hints(info.protocol):
            out.append((link, fp.Hint(*seat.hint)))
        if any(seat.shown) and fp.supports_show(info.protocol):
            out.append((link, fp.Show(*seat.shown)))

    def _refuse(self, link: _Link, cid: int, reason: str, short: str, now: float) -> None:
        ours = fp.PROTOCOL_VERSION
        self._outbox.append((link, fp.Welcome(ours[0], ours[1], False, _fit(short))))
        seat = link.seat
        if seat is not None:
            held = seat.link is link and seat.connected
            self._unbind(link)
            if held:
                # A seated controller refused now (reflashed with another major version, ...):
                # its seat is lost, so the game pauses naming the player, until it comes back.
                seat.connected = False
                self._events.append(Lost(seat.seat, seat.controller_id, f"refused: {short}", now))
                self._log(logging.WARNING, "seat %d: controller %#018x lost: refused on %s", seat.seat + 1,
                          seat.controller_id, link.port)
        link.state = REFUSED
        link.controller_id = cid
        if link.rejected != reason:
            link.rejected = reason
            self._events.append(Rejected(link.port, reason, cid, now))
            self._log(logging.WARNING, "%s", reason)

    def _nudge_refused(self, cid: int, except_link: _Link) -> None:
        """A seat was lost: a twin refused earlier may take over now (ask it for a Hello)."""
        for other in self._links:
            if other is not except_link and other.state == REFUSED and other.controller_id == cid \
                    and other.transport is not None:
                self._outbox.append((other, fp.HostHello()))

    def _free_seat(self, cid: int) -> int | None:
        """The seat a new controller id would get (its pin, else the lowest free one), or None
        when every seat number is bound: seats are kept for the hub's lifetime, so a device
        making up a new id in every Hello must not make them grow without bound."""
        pin = self.config.pin_for(cid)
        if pin is not None:
            return pin.seat
        pinned = self.config.pinned_seats
        number = 0
        while number in self._seats or number in pinned:
            number += 1
        return number if number <= MAX_SEAT else None

    def _new_seat(self, cid: int) -> _Seat:
        number = self._free_seat(cid)
        assert number is not None                    # _on_hello refuses when there is none
        seat = _Seat(number, cid, colour=self.config.colour_for(number, cid))
        self._seats[number] = self._by_id[cid] = seat
        return seat

    def _unbind(self, link: _Link) -> None:
        seat = link.seat
        if seat is not None and seat.link is link:
            seat.bad_base += link.bad_total() - link.bad_mark
            seat.frames_base += link.frames - link.frames_mark
            seat.link = None
        link.seat = None

    def _coalesce(self) -> None:
        """Nobody polls and a controller keeps changing: keep, for each seat, only its latest
        WheelsChanged between two of its other events (each one carries the whole state, so
        the latest is the truth), so the queue stays bounded whatever a device sends."""
        kept: list[HubEvent] = []
        latest: set[int] = set()
        for e in reversed(self._events):
            if isinstance(e, WheelsChanged):
                if e.seat in latest:
                    continue
                latest.add(e.seat)
            else:
                latest.discard(getattr(e, "seat", None))
            kept.append(e)
        dropped = len(self._events) - len(kept)
        self._events = deque(reversed(kept))
        self.events_coalesced += dropped

    def _check_timeouts(self, now: float) -> bool:
        self._timeouts_checked = now
        lost = False
        for seat in self._seats.values():
            link = seat.link
            if seat.connected and link is not None and now - link.last_rx > self.lost_after \
                    and (link.read_at - link.last_rx > self.lost_after or now - link.read_at > _READER_STUCK):
                # Lost once its reader has read the line after the deadline and found no frame
                # (SPEC.md 8.1, 8.5): a host stalled for a while (the interpreter lock held, the
                # machine busy) must not count as lost the frames waiting, unread, on the line.
                seat.connected = False
                self._events.append(Lost(seat.seat, seat.controller_id, "heartbeat timeout", now))
                self._log(logging.WARNING, "seat %d: controller %#018x lost (no frame for %.0f ms)",
                          seat.seat + 1, seat.controller_id, (now - link.last_rx) * 1000)
                self._nudge_refused(seat.controller_id, except_link=link)
                lost = True
        return lost

    def _flush(self) -> None:
        """Write the queued messages, outside the hub's lock (a stuck device must not hold up
        the others), in the order they were queued."""
        with self._write_lock:
            with self._lock:
                out, self._outbox = self._outbox, []
            deferred: list[tuple[_Link, Any]] = []
            held: set[int] = set()                  # links with a message deferred: the rest waits too (order)
            for link, message in out:
                transport = link.transport
                if transport is None:
                    continue
                # A device that does not read (its line full: each write waits for the write
                # timeout) or that makes the hub answer too much (a Hello flood) must not hold
                # the others up: after a failed write it is skipped for _STALL_PAUSE, and it
                # gets at most _MAX_SENDS frames a second (SPEC.md 8.5: at most 50 a second).
                # A message over that rate waits for the next second (poll flushes again), in
                # order: a refusal, a Hint or a light is late, never lost.
                now = time.monotonic()
                if now < link.stalled_until:
                    link.writes_dropped += 1
                    continue
                if now - link.send_window >= 1.0:
                    link.send_window, link.sends = now, 0
                if id(link) in held or link.sends >= _MAX_SENDS:
                    held.add(id(link))
                    deferred.append((link, message))
                    continue
                link.sends += 1
                try:
                    transport.write(transport.frame(message))
                except TransportError as exc:
                    link.stalled_until = time.monotonic() + _STALL_PAUSE
                    log.debug("%s: write failed: %s", link.port, exc)
                except Exception:  # noqa: BLE001 - a broken driver must not kill the caller
                    log.exception("%s: write failed", link.port)
            if deferred:
                kept: list[tuple[_Link, Any]] = []
                waiting: dict[int, int] = {}
                for link, message in reversed(deferred):        # the newest _MAX_DEFERRED of each link
                    if waiting.get(id(link), 0) >= _MAX_DEFERRED:
                        link.writes_dropped += 1
                        continue
                    waiting[id(link)] = waiting.get(id(link), 0) + 1
                    kept.append((link, message))
                kept.reverse()
                with self._lock:
                    self._outbox[:0] = kept                     # before what was queued meanwhile

    # -- the game's side ------------------------------------------------------------------------
    def poll(self, timeout: float = 0.0) -> list[HubEvent]:
        """Every event since the last call, in order; waits up to ``timeout`` seconds for one
        if there are none (never longer)."""
        if timeout <= 0 and not self._events and not self._outbox:
            # The game polls every frame: when there is nothing, do not take the lock the
            # readers need (each wait for it is a hand-over of the interpreter lock too).
            if self._clock() - self._timeouts_checked < _TIMEOUT_CHECK_EVERY:
                return []
        deadline = time.monotonic() + timeout
        with self._cond:
            self._check_timeouts(self._clock())
            while not self._events and not self._closed:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._cond.wait(min(left, 0.05))
                self._check_timeouts(self._clock())
            events = list(self._events)
            self._events.clear()
        if self._outbox:
            self._flush()
        if self._logs:
            self._emit_logs()
        return events

    def poll_until(self, predicate: Callable[[HubEvent], bool], timeout: float = 2.0) -> list[HubEvent]:
        """Poll until an event satisfies ``predicate`` (or ``timeout`` passes); returns every
        event polled meanwhile, in order. For tests and scripts."""
        deadline = time.monotonic() + timeout
        seen: list[HubEvent] = []
        while True:
            batch = self.poll(timeout=max(0.0, min(0.05, deadline - time.monotonic())))
            seen.extend(batch)
            if any(predicate(e) for e in batch) or time.monotonic() >= deadline:
                return seen

    def seats(self) -> list[SeatStatus]:
        """Every seat bound so far (or pinned by the config), by seat number."""
        with self._lock:
            out = []
            for number in sorted(self._seats):
                s = self._seats[number]
                bad = s.bad_base + (s.link.bad_total() - s.link.bad_mark if s.link is not None else 0)
                port = s.link.port if s.link is not None else (s.info.port if s.info else None)
                frames = s.frames_base + (s.link.frames - s.link.frames_mark if s.link is not None else 0)
                out.append(SeatStatus(number, s.controller_id, s.connected, s.locked, bad, port,
                                      s.wheels or (0, 0, 0), frames, s.wheels is not None))
            return out

    def links(self) -> list[LinkStatus]:
        """Every device the hub holds, with its counters."""
        with self._lock:
            now = self._clock()
            return [LinkStatus(l.port, l.kind, l.state, l.controller_id,
                               l.seat.seat if l.seat is not None else None, l.frames, l.bad_total(),
                               l.unknown_total(), (l.errors[-1] if l.errors else l.open_error), l.rejected,
                               max(0.0, now - l.last_rx) if l.frames else None)
                    for l in self._links]

    def lights_of(self, seat: int) -> tuple[tuple[bool, bool, bool] | None, tuple[int, int, int]]:
        """The path lights (None: never set) and colour the hub last told seat ``seat``'s
        controller (the service screen puts them back when it closes)."""
        with self._lock:
            s = self._seat(seat)
            return s.lights, s.colour

    def info(self, seat: int) -> ControllerInfo | None:
        """The handshake info of the controller in ``seat``."""
        with self._lock:
            return self._seat(seat).info

    def assign_seat(self, seat: int, colour: tuple[int, int, int] | None = None) -> bool:
        """(Re)send the seat number and colour to the controller in ``seat``; the colour is
        kept for the seat and sent again whenever it comes back. Returns whether it was sent
        now (False: the controller is away)."""
        with self._lock:
            s = self._seat(seat)
            if colour is not None:
                s.colour = _rgb(colour)
            sent = self._command(s, fp.AssignSeat(seat + 1, s.colour))
        self._flush()
        return sent

    def set_lights(self, seat: int, left: bool, centre: bool, right: bool,
                   colour: tuple[int, int, int] | None = None) -> bool:
        """Switch the path lights (and optionally the colour LED) of the controller in ``seat``.
        Kept and sent again when the controller comes back."""
        with self._lock:
            s = self._seat(seat)
            if colour is not None:
                s.colour = _rgb(colour)
            s.lights = (bool(left), bool(centre), bool(right))
            sent = self._command(s, fp.SetLights(*s.lights, s.colour))
        self._flush()
        return sent

    def identify(self, seat: int, ms: int = 2000) -> bool:
        """Make the controller in ``seat`` blink for ``ms`` milliseconds (0 stops it)."""
        with self._lock:
            sent = self._command(self._seat(seat), fp.Identify(max(0, min(int(ms), 0xFFFF))))
        self._flush()
        return sent

    def hint(self, seat: int, left: int = 0, centre: int = 0, right: int = 0) -> bool:
        """Tell the controller in ``seat``, and only it, which stops of each wheel are valid
        choices now (bit p = position p; 0 = no hint for that wheel; all 0 clears it). Sent
        only to a controller of protocol 1.1 or later (a 1.0 one has no such message); kept
        and sent again when the controller comes back. Returns whether it was sent now."""
        return self._stops(seat, "hint", fp.supports_private_hints, fp.Hint, (left, centre, right))

    def show(self, seat: int, left: int = 0, centre: int = 0, right: int = 0) -> bool:
        """Show the controller in ``seat``, and only it, stops that are not choices (bit p =
        position p; all 0 shows nothing), e.g. the code of a token just drawn. Sent only to a
        controller of protocol 1.2 or later: a 1.0 or 1.1 controller has no such message and
        is told nothing (the game gives that player the code another way: bots and the
        keyboard pad read it from the game); kept and sent again when the controller comes
        back. Returns whether it was sent now."""
        return self._stops(seat, "shown", fp.supports_show, fp.Show, (left, centre, right))

    def _stops(self, seat: int, kept: str, supports: Callable[[Any], bool], message: Callable[..., Any],
               stops: tuple[int, int, int]) -> bool:
        """A private message of stop masks (a Hint, a Show) to the controller in ``seat``: kept
        in the seat's ``kept`` field (sent again when the controller comes back), sent now only
        to a controller whose protocol ``supports`` it. Returns whether it was sent now."""
        masks = tuple(max(0, min(int(m), 0xFFFF)) for m in stops)
        with self._lock:
            s = self._seat(seat)
            setattr(s, kept, masks)
            if s.info is None or not supports(s.info.protocol):
                return False
            sent = self._command(s, message(*masks))
        self._flush()
        return sent

    def refuse_choice(self, seat: int, ms: int = 1500, wheels: int = 0b001) -> bool:
        """Tell the controller in ``seat``, and only it, that the choice it locked was
        refused: a ChoiceRefused (protocol 1.1: it blinks red) or, to a 1.0 controller, an
        Identify (its only private signal). Nothing else is said to anyone."""
        ms = max(0, min(int(ms), 0xFFFF))
        with self._lock:
            s = self._seat(seat)
            if s.info is not None and fp.supports_private_hints(s.info.protocol):
                message: Any = fp.ChoiceRefused(int(wheels) & 0x07, ms)
            else:
                message = fp.Identify(ms)
            sent = self._command(s, message)
        self._flush()
        return sent

    def _seat(self, seat: int) -> _Seat:
        try:
            return self._seats[seat]
        except KeyError:
            raise KeyError(f"no controller has seat {seat} (seats: {sorted(self._seats)})") from None

    def _command(self, seat: _Seat, message: Any) -> bool:
        """Queue ``message`` for the seat's controller (the caller flushes after the lock)."""
        link = seat.link
        if link is None or not seat.connected or link.state != ACTIVE or link.transport is None:
            return False
        self._outbox.append((link, message))
        return True


def _default_config() -> ControllersConfig:
    try:
        return load_controllers_config()
    except Exception:  # noqa: BLE001 - a broken shipped file must not stop simulated play
        log.exception("config/controllers.yaml could not be read; using defaults")
        return ControllersConfig()


def _rgb(colour: Any) -> tuple[int, int, int]:
    r, g, b = colour
    return (max(0, min(255, int(r))), max(0, min(255, int(g))), max(0, min(255, int(b))))


def _fit(text: str) -> str:
    data = text.encode()[: fp.MAX_TEXT_BYTES]
    return data.decode("utf-8", errors="ignore")


def _short(port: str) -> str:
    return port if len(port) <= 24 else "..." + port[-21:]
