"""The console's referee for any game: the table runs a cartridge through the game protocol.

:class:`Session` is the console's :class:`~bitbox.table.referee.Referee` driven by
``Game.prompts()``, ``Game.refusal()`` and ``Game.apply()``: it needs no code of the game's
besides its cartridge (and, optionally, its controls and words).

* **prompt**: every open prompt is asked at once (a simultaneous phase: each player sets their
  wheels in secret and closes the lock; a turn-based step: one prompt). A lock closed after
  the prompt began is read through the game's controls; an answer that the controls cannot
  read or that the game refuses is told to that controller only (it blinks; the table shows
  only that the player must choose again). An answer locked in is held, unseen, until every
  open prompt has one; opening the lock takes it back.
* **submit**: the answers are tried on a copy of the game, journaled (committed), then the
  game moves on. Nothing of an answer is shown or printed before that.
* **showing**: the events of the answers are logged together, with the table as it stands
  after them (a frame never lags its events), and held for the pace of the table; then the
  next prompts. The end of a turn (``Game.turn``, an optional member; without it each answer)
  is a milestone, the snapshot the table saves.

Bots and the keyboard play through simulated controllers (:class:`BotDriver`,
:class:`KeyboardDriver`), exactly as a person does with a real one.

What a game may add, all optional (docs/games.md "At the table"): on its **controls**,
``order`` (the players of a simultaneous phase asked in turn, group by group; a player in no
group is answered by the table with the prompt's only option), ``declared`` (the public word
of an answer once it is locked in: logged and shown, and the answer stands), ``lights`` and
``refused_wheels`` (the controller's lights; the wheels a refusal points at), ``pad_lines``
and ``key_move`` (the keyboard pad and its arrows); on its cartridge, a **presentation** (:class:`Presentation`): a public line
when prompts open, the events of an answer shown in :class:`Step` s (a die that tumbles, a
frame drawn after each step) and the game's own table view.
"""
from __future__ import annotations

import inspect
import threading
import time
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence

from bitbox.colours import SCREEN_RGB
from bitbox.display.model import LogEntry, PlayerStatus, ShellView
from bitbox.games.protocol import Action, Cartridge, Game, Prompt

from .controls import Controls, controls_of
from .protocol_rules import INPUT_KIND, ProtocolJournalRules, session_rules_of
from .referee import Journaling, Pace, Referee, decision_seed
from .seating import SeatPlan


@dataclass(frozen=True)
class Step:
    """One step of showing an answer's events: the lines logged as it begins (``told``) and as
    it ends (``told_after``: a die's value once it has landed), the public view drawn during
    it, how long it is held, and public facts the game's table view draws with it (``facts``:
    e.g. the dice on the table, the ships that moved)."""

    told: Sequence[LogEntry]
    seconds: float
    view: Mapping[str, Any]
    told_after: Sequence[LogEntry] = ()
    facts: Mapping[str, Any] = field(default_factory=dict)


class Presentation:
    """How the table shows a game: the console's own, and the base of a game's (a cartridge's
    optional ``presentation``: a callable giving one such object a session, which may keep
    what it shows from one answer to the next). It sees public things only: views, events,
    the table's public statuses."""

    def opening(self, game: Game, prompts: Sequence[Prompt]) -> Sequence[LogEntry]:
        """Public lines logged when a phase's prompts open (e.g. a new turn's announcement)."""
        return ()

    def steps(self, before: Mapping[str, Any], events: Sequence[Any], after: Mapping[str, Any], game: Game,
              pace: Pace, hold: float) -> Sequence[Step]:
        """The events of one submitted answer as steps (``before``/``after``: the public views
        around it; ``hold``: the console's time for them). The console's: one step, every event
        logged at once, the view after them, held ``hold`` seconds. The table shows the engine's
        view after the last step whatever it was."""
        return (Step(tuple(LogEntry(str(e.kind), dict(e.data)) for e in events), hold, after),)

    def table_view(self, base: ShellView, facts: Mapping[str, Any], kinds: Sequence[str],
                   elapsed: float | None) -> ShellView:
        """What the screen draws: the console's ``base`` (its ``view["game"]`` is the public
        view shown), with the current step's ``facts``, the kinds of the open prompts and the
        seconds since the step began (None: it is over)."""
        return base


def presentation_of(cartridge: Any) -> Presentation:
    """A new presentation for a session of ``cartridge``'s game (its own, or the console's)."""
    make = getattr(cartridge, "presentation", None)
    return make() if callable(make) else Presentation()


def turn_of(game: Any) -> int | None:
    t = getattr(game, "turn", None)
    return t if isinstance(t, int) and not isinstance(t, bool) else None


class Session(Referee):
    """The referee of a table of any game; see the module docstring."""

    input_errors = ProtocolJournalRules.input_errors

    def __init__(self, cartridge: Cartridge, game: Game, seats: Sequence[SeatPlan], *, controls: Controls | None = None,
                 journal: Journaling | None = None, pace: Pace = Pace(), clock: Callable[[], float] = time.monotonic,
                 inputs_applied: int = 0, on_event: Callable[[LogEntry], None] | None = None) -> None:
        names = [s.player for s in seats]
        if sorted(names) != sorted(game.players) or len({s.seat for s in seats}) != len(seats):
            raise ValueError(f"seats {names} do not match the game's players {list(game.players)}")
        super().__init__(game, seats, journal=journal, pace=pace, clock=clock, inputs_applied=inputs_applied,
                         on_event=on_event)
        self.cartridge = cartridge
        # the journal's rules of this game (its own, kept as its cartridge's ``journal``, or the
        # protocol's): the session journals and applies inputs in the format they read
        self.rules = session_rules_of(cartridge)
        self.input_errors = tuple(getattr(self.rules, "input_errors", ProtocolJournalRules.input_errors))
        self.controls = controls if controls is not None else controls_of(cartridge)
        self.open: dict[str, Prompt] = {}
        self.answers: dict[str, Action] = {}
        self.shown_view: Mapping[str, Any] = game.public_view()
        self._hold_until = 0.0
        self._steps: deque[Step] = deque()
        self._step: Step | None = None
        self._step_started = 0.0
        self._said_over = False
        self._turn = turn_of(game)
        self.moves = inputs_applied
        self.thinking: set[str] = set()          # players whose bot is searching (shown on screen)
        self.presentation = presentation_of(cartridge)
        self.facts: Mapping[str, Any] = {}       # the current step's public facts (the presentation's)
        self.groups: list[list[str]] = []        # the players asked in turn (controls.order): first, now
        self.auto: set[str] = set()              # players the table answered (their only option)
        self.declared: dict[str, str] = {}       # answers told publicly (controls.declared): they stand
        self._refusing: str | None = None        # the player whose lock is being refused

    # ------------------------------------------------------------------ the console's hooks
    def colour_of(self, player: str) -> tuple[int, int, int]:
        return SCREEN_RGB.get(player, (200, 200, 200))

    def _is_active(self, player: str) -> bool:
        return player in self.open

    def _public_view(self) -> Any:
        return self.game.public_view()

    def _trial(self) -> Any:
        copy = getattr(self.game, "copy", None)
        return copy() if callable(copy) else self.cartridge.from_data(self.game.to_data())

    def _apply_input(self, game: Any, kind: str, data: Mapping[str, Any]) -> list[Any]:
        return self.rules.apply_input(game, kind, data)

    def _state_hash(self, game: Any) -> str:
        return self.rules.state_hash(game)

    def _position(self) -> tuple[int, str]:
        own = getattr(self.rules, "position", None)           # the game's own journal says (turn, phase)
        if callable(own):
            turn, phase = own(self.game)
            return int(turn), str(phase)
        return (self._turn if self._turn is not None else self.moves + 1,
                "+".join(sorted({p.kind for p in self.open.values()})))

    def where(self) -> str:
        kinds = ", ".join(sorted({p.kind for p in self.open.values()}))
        return f"turn {self._position()[0]}, {self.stage} {kinds}".strip()

    def _lights_for(self, player: str) -> tuple[bool, bool, bool]:
        prompt = self.awaiting(player)
        if prompt is None:
            return (False, False, False)
        lights = getattr(self.controls, "lights", None)
        return tuple(bool(x) for x in lights(self.game, prompt)) if callable(lights) else (True, True, True)  # type: ignore[return-value]

    def _refused_wheels(self, kind: str) -> int:
        wheels = getattr(self.controls, "refused_wheels", None)
        prompt = self.open.get(self._refusing) if self._refusing is not None else None
        return int(wheels(prompt)) if callable(wheels) and prompt is not None else 0b001

    def _hint(self, player: str) -> tuple[int, int, int]:
        prompt = self.awaiting(player)
        return self.controls.hint(prompt) if prompt is not None else (0, 0, 0)

    # ------------------------------------------------------------------ what drivers ask
    def awaiting(self, player: str) -> Prompt | None:
        """The prompt ``player`` must still answer now (None: nothing to do)."""
        if self.stage != "prompt" or player in self.answers or (self.groups and player not in self.groups[0]):
            return None
        return self.open.get(player)

    def private_view(self, player: str) -> Mapping[str, Any]:
        return self.game.private_view(player)

    # ------------------------------------------------------------------ the loop
    def _begin_phase(self) -> None:
        if self.game.finished:
            self._finish()
            return
        prompts = list(self.game.prompts())
        self.open = {p.player: p for p in prompts}
        self.answers, self.auto, self.declared = {}, set(), {}
        order = getattr(self.controls, "order", None)
        groups = [list(g) for g in order(self.game, prompts)] if callable(order) else [list(self.open)]
        self.groups = [g for g in ([p for p in g if p in self.open] for g in groups) if g]
        asked = {p for g in self.groups for p in g}
        for p, prompt in self.open.items():
            if p not in asked:                      # nobody is asked: the table gives the only option
                if len(prompt.options) != 1:
                    raise ValueError(f"the controls ask nobody for {p}'s {prompt.kind}, which has "
                                     f"{len(prompt.options)} options")
                self.answers[p] = prompt.options[0]
                self.auto.add(p)
        self.stage = "prompt"
        for entry in self.presentation.opening(self.game, prompts):
            self._log(entry.kind, dict(entry.data))
        self._new_prompt()
        for player in (self.groups[0] if self.groups else ()):
            self._evaluate(player)

    def _evaluate(self, player: str) -> None:
        if self.stage != "prompt" or player not in self.open or player in self.auto or \
                (self.groups and player not in self.groups[0]):
            return
        c = self.ctl[player]
        if not c.locked:
            if player not in self.declared:
                self.answers.pop(player, None)      # the lock opened: the answer is taken back
            return
        if c.stale or player in self.refused or player in self.answers:
            return
        prompt = self.open[player]
        unreadable = False
        try:
            action = self.controls.read(prompt, c.wheels)
        except (LookupError, TypeError, ValueError):      # a game's controls must not stop the table
            action, unreadable = None, True
        # None is an answer only where the prompt offers it (e.g. "play no token")
        unreadable = unreadable or (action is None and None not in prompt.options)
        try:
            code = "unreadable" if unreadable else self.game.refusal(player, action)
        except TypeError:                                 # e.g. an unhashable answer
            code = "unreadable"
        if code is not None:
            self._refusing = player
            self._refuse(player, code)              # private: only the refused wheels are told
            self._refusing = None
            return
        self.answers[player] = action
        declared = getattr(self.controls, "declared", None)
        word = declared(prompt, action) if callable(declared) else None
        if word:                                    # told publicly: the answer stands
            self.declared[player] = str(word)
            self._log(str(word), {"player": player})

    def _progress(self, now: float | None = None) -> None:
        now = self.clock() if now is None else now
        if self.stage == "prompt" and not self.paused:
            while self.groups and all(p in self.answers for p in self.groups[0]):
                self.groups.pop(0)                  # the next group is asked
                for p in (self.groups[0] if self.groups else ()):
                    self._evaluate(p)
            if self.open and len(self.answers) == len(self.open):
                answers = {p: self.answers[p] for p in self.open}
                self._submit(*self._input(answers))
                if self.stage == "showing":
                    self._hold_until = now          # its first step begins now
        while self.stage == "showing" and self._advance_step(now):
            pass

    def _advance_step(self, now: float) -> bool:
        """The next step of the answer shown, once the current one's time is over (after the
        last, the next prompts). True if the table moved on."""
        if now < self._hold_until:
            return False
        if self._step is not None:                  # the step ends
            for entry in self._step.told_after:
                self._tell(entry)
            self._step = None
        if not self._steps:
            self._end_showing()
            return True
        step = self._step = self._steps.popleft()
        self._step_started, self._hold_until = now, now + step.seconds
        self.shown_view, self.facts = step.view, step.facts
        for entry in step.told:
            self._tell(entry)
        return True

    def _tell(self, entry: LogEntry) -> None:
        self._said_over = self._said_over or entry.kind == "game_over"
        self._log(entry.kind, dict(entry.data))

    def _input(self, answers: Mapping[str, Action]) -> tuple[str, dict[str, Any]]:
        """The journal's input for ``answers`` (one per open prompt): the game's own journal
        rules give it with ``input_of(game, answers) -> (kind, data)`` (a game keeps the input
        format of its journals), else ``{"answers": {player: action_to_data(answer)}}``."""
        own = getattr(self.rules, "input_of", None)
        if callable(own):
            kind, data = own(self.game, answers)
            return str(kind), dict(data)
        return INPUT_KIND, ProtocolJournalRules.input_data(self.cartridge, answers)

    def _hold(self, n: int = 1) -> float:
        """How long the table shows one answer's ``n`` events: a step each, a reveal for a
        simultaneous phase, at most a few seconds."""
        base = self.pace.reveal if len(self.open) > 1 else self.pace.step
        return min(base + self.pace.step * max(0, n - 1), 3 * self.pace.reveal)

    def _show(self, before: Any, events: list[Any]) -> None:
        self.moves += 1
        self.stage = "showing"
        self.groups = []
        self._said_over, self._step = False, None
        self._steps = deque(self.presentation.steps(before, events, self.game.public_view(), self.game, self.pace,
                                                    self._hold(len(events))))

    def _end_showing(self) -> None:
        turn = turn_of(self.game)
        done = self._turn if self._turn is not None else self.moves
        self.shown_view = self.game.public_view()       # the table after the events it showed
        if self.game.finished:
            self._finish()                  # the last turn's frame names the winners
            return
        if turn is None or turn != self._turn:
            self.milestones.append(("turn_end", done, self.table()))
        self._turn = turn
        self._begin_phase()

    def _finish(self) -> None:
        self.open, self.answers, self.groups = {}, {}, []
        self.stage = "finished"
        self.shown_view = self.game.public_view()
        winners = list(self.game.winners)
        if not self._said_over:             # unless the game said it
            self._log("game_over", {"winners": winners})
        self._steps.clear()
        if self.journal is not None:
            self.journal.finish(winners, state=self._state_hash(self.game))
        done = self._turn if self._turn is not None else self.moves
        table = self.table()
        self.milestones.append(("turn_end", done, table))
        self.milestones.append(("finished", done, table))

    # ------------------------------------------------------------------ what the screen shows
    def statuses(self) -> tuple[PlayerStatus, ...]:
        out = []
        winners = set(self.game.winners) if self.stage == "finished" else set()
        for s in self.seats:
            p, c = s.player, self.ctl[s.player]
            status = ""
            if p in winners:
                status = "winner"
            elif self.stage == "prompt" and p in self.open and p not in self.auto and \
                    (p in self.answers or not self.groups or p in self.groups[0]):
                if p in self.thinking:
                    status = "thinking"
                elif p in self.answers:
                    status = self.declared.get(p, "ready")
                elif p in self.refused:
                    status = "refused"
                elif c.locked and c.stale:
                    status = "unlock"
                else:
                    status = "to_act"
            out.append(PlayerStatus(p, kind=s.kind, connected=c.connected, lost=c.lost, locked=c.locked,
                                    status=status))
        return tuple(out)

    def table(self, now: float | None = None) -> ShellView:
        view = {"players": [{"player": p, "active": True} for p in self.game.players],
                "winners": list(self.game.winners) if self.stage == "finished" else [],
                "game": self.shown_view, "turn": self._turn}
        asking = [p for p in self.open if self.awaiting(p) is not None]
        kinds = sorted({self.open[p].kind for p in asking})
        prompt = ("ui.asking", {"players": asking, "kind": kinds[0]}) if asking else None
        lost = [s.player for s in self.seats if self.ctl[s.player].lost and self._is_active(s.player)]
        banner = ("banner.paused", {"players": lost}) if lost and self.stage != "finished" else None
        base = ShellView(view=view, players=self.statuses(), stage=self.stage, prompt=prompt, banner=banner,
                         log=tuple(self.log[-40:]))
        now = self.clock() if now is None else now
        elapsed = now - self._step_started if self.stage == "showing" and now < self._hold_until else None
        return self.presentation.table_view(base, self.facts, sorted({p.kind for p in self.open.values()}), elapsed)


@dataclass
class _Plan:
    key: tuple[Any, ...]
    at: float
    wheels: tuple[int, int, int]
    unlocked_at: float = -1.0


class BotDriver:
    """Plays ``player`` with a bot (:class:`bitbox.bots.Bot`) on the simulated controller
    ``sim``: after ``think`` seconds it sets the wheels the controls give for its answer and
    closes the lock (opening it first when it is still closed from before). It waits for
    nothing else: at ``--speed 0`` a bots-only game runs as fast as the game computes.

    A bot that searches (one with a ``decide`` method: :class:`bitbox.bots.search.SearchBot`)
    thinks on a worker thread, on a copy of the game, so that the table goes on drawing and
    reading the controllers meanwhile; the session shows that player as thinking
    (:attr:`Session.thinking`)."""

    RETRY = 0.25                                   # seconds before an unanswered unlock is sent again
    WAIT = 0.005                                   # at most this long per update for a worker's answer

    def __init__(self, player: str, sim: Any, bot: Any, controls: Controls, *, seed: int = 0, think: float = 0.0) -> None:
        self.player, self.sim, self.bot, self.controls = player, sim, bot, controls
        self.seed, self.think = seed, think
        # at --speed 0 the simulated controller reports a change at once (its firmware's
        # debounce passes in virtual time) instead of 50 ms later: the table waits for nothing
        self.instant = think <= 0
        # (a hand on another controller, e.g. an emulator's, has no debounce to pass)
        self._settle = {"settle": self.instant} if "settle" in inspect.signature(sim.set).parameters else {}
        self._plan: _Plan | None = None
        self.searches = callable(getattr(bot, "decide", None))
        self._worker: tuple[tuple[Any, ...], Future[tuple[int, int, int]]] | None = None

    def _decide(self, session: Session, prompt: Prompt) -> tuple[int, int, int]:
        seed = decision_seed(self.seed, self.player, session.inputs_applied, prompt.kind)
        rng = getattr(self.bot, "rng", None)
        if rng is not None and hasattr(rng, "seed"):
            rng.seed(seed)
        action = self.bot.choose(session.private_view(self.player), prompt)
        return self.controls.wheels_for(prompt, action)

    def _thought(self, session: Session, prompt: Prompt, key: tuple[Any, ...]) -> tuple[int, int, int] | None:
        """A searching bot's answer once its worker has one (None: still thinking)."""
        if self._worker is None or self._worker[0] != key:
            self.stop()
            future: Future[tuple[int, int, int]] = Future()
            game = session.cartridge.from_data(session.game.to_data())
            seed = decision_seed(self.seed, self.player, session.inputs_applied, prompt.kind)

            def work() -> None:
                try:
                    from bitbox.bots import LazyView
                    reseed = getattr(self.bot, "reseed", None)
                    if callable(reseed):
                        reseed(seed)
                    future.set_result(self.controls.wheels_for(prompt, self.bot.choose(LazyView(game, self.player),
                                                                                       prompt)))
                except BaseException as exc:  # noqa: BLE001 -- raised again on the table's thread
                    future.set_exception(exc)
            self._worker = (key, future)
            session.thinking.add(self.player)
            threading.Thread(target=work, name=f"bot-{self.player}", daemon=True).start()
        future = self._worker[1]
        try:
            wheels = future.result(timeout=self.WAIT)
        except FutureTimeout:
            return None
        session.thinking.discard(self.player)
        return wheels

    def stop(self) -> None:
        """Give up a search under way (the prompt went away or the table closes)."""
        if self._worker is not None:
            cancel = getattr(self.bot, "cancel", None)
            if callable(cancel) and not self._worker[1].done():
                cancel()
                try:                               # it ends with its rollout: the bot is not shared
                    self._worker[1].exception(timeout=2.0)
                except FutureTimeout:
                    pass
            self._worker = None

    def update(self, session: Session, now: float) -> None:
        prompt = session.awaiting(self.player)
        if prompt is None:
            self._plan = None
            if self._worker is not None:
                self.stop()
                session.thinking.discard(self.player)
            return
        key = (session.inputs_applied, session.prompt_id)
        if self._plan is None or self._plan.key != key:
            if self.searches and len(prompt.options) > 1:
                wheels = self._thought(session, prompt, key)
                if wheels is None:
                    return
                self._plan = _Plan(key, now + self.think, wheels)
            else:
                self._plan = _Plan(key, now + self.think, self._decide(session, prompt))
        plan = self._plan
        if now < plan.at:
            return
        c = session.controller(self.player)
        if c.locked:
            if (c.stale or self.player in session.refused or c.wheels != plan.wheels) and \
                    (plan.unlocked_at < 0 or now - plan.unlocked_at > self.RETRY):
                plan.unlocked_at = now
                self.sim.set(locked=False, **self._settle)
            return
        left, centre, right = plan.wheels
        self.sim.set(left=left, centre=centre, right=right, locked=True, **self._settle)


def at_the_keyboard(players: Iterable[str], session: Any) -> str | None:
    """Hot-seat: the first of ``players`` (seat order) the table waits for, who is at the
    keyboard now (any game's session with ``awaiting(player)``); None: nobody."""
    return next((p for p in players if session.awaiting(p) is not None), None)


class KeyboardDriver:
    """Hot-seat: the people share one keyboard. The player the table waits for (in seat order)
    is at it: ←/→ choose among their prompt's options (the arrows as the controls'
    ``key_move(prompt, option, key)`` says, when they have it), Enter locks (opening the lock first when
    it is still closed from before), Backspace opens the lock,
    Tab shows or hides their choice on the screen (the others look away). The choice reaches
    the session through their simulated controller."""

    def __init__(self, sims: Mapping[str, Any], controls: Controls, words: Any) -> None:
        self.sims = dict(sims)
        self.controls = controls
        self.words = words
        self.shown = False
        self._sel: dict[str, int] = {}
        self._key: tuple[Any, ...] | None = None

    def current(self, session: Session) -> str | None:
        return at_the_keyboard(self.sims, session)

    def update(self, session: Session, now: float) -> None:
        key = (session.inputs_applied, session.prompt_id)
        if key != self._key:
            self._key, self._sel, self.shown = key, {}, False

    def key(self, session: Session, name: str) -> None:
        p = self.current(session)
        if p is None:
            return
        prompt = session.awaiting(p)
        assert prompt is not None
        i = self._sel.get(p, 0)
        n = len(prompt.options)
        move = getattr(self.controls, "key_move", None)     # the game's own arrows (its controls')
        if name in ("left", "right", "up", "down") and callable(move):
            to = move(prompt, prompt.options[i % n], name)
            self._sel[p] = prompt.options.index(to) if to in prompt.options else i
        elif name in ("left", "up"):
            self._sel[p] = (i - 1) % n
        elif name in ("right", "down"):
            self._sel[p] = (i + 1) % n
        elif name == "tab":
            self.shown = not self.shown
        elif name == "enter":
            left, centre, right = self.controls.wheels_for(prompt, prompt.options[i])
            if session.controller(p).locked:        # still closed from before (or refused): open it first
                self.sims[p].set(locked=False)
            self.sims[p].set(left=left, centre=centre, right=right, locked=True)
            self.shown = False
        elif name == "backspace":
            self.sims[p].set(locked=False)

    def pad(self, session: Session, lang: Any) -> Mapping[str, Any] | None:
        p = self.current(session)
        if p is None:
            return None
        prompt = session.awaiting(p)
        assert prompt is not None
        i = self._sel.get(p, 0)
        words = self.words
        own = getattr(self.controls, "pad_lines", None)      # the game's own pad (its controls')
        if callable(own):
            lines = list(own(words, session.private_view(p), prompt, prompt.options[i % len(prompt.options)]))
        else:
            shown = str(session.cartridge.action_to_data(prompt.options[i]))
            lines = [words.prompt(prompt.kind, prompt.context), f"◀ {words.option(prompt.kind, shown)} ▶"]
        return {"player": p, "shown": self.shown, "lines": lines}


__all__ = ["BotDriver", "KeyboardDriver", "Presentation", "Session", "Step", "at_the_keyboard", "decision_seed",
           "presentation_of", "turn_of"]
