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
* **showing**: the events of the answers are shown as the game's presentation says (by
  default logged together, with the table as it stands after them: a frame never lags its
  events, and held for the pace of the table); then the next prompts. A lost controller of a
  player asked pauses the table, the showing too: nothing more is revealed or applied. The
  end of a turn (``Game.turn``, an optional member; without it each answer) is a milestone,
  the snapshot the table saves.

Bots and the keyboard play through simulated controllers (:class:`BotDriver`,
:class:`KeyboardDriver`), exactly as a person does with a real one.

What a game may add, all optional (docs/games.md "At the table"). On its **controls**
(:mod:`bitbox.table.controls`): ``order`` (the players of a simultaneous phase asked in turn,
group by group; a player in no group is answered by the table with the prompt's only option),
``declared`` (the public word of an answer once it is locked in: logged and shown, and the
answer stands), ``first_input`` (a stage ``first``: the first person to close a lock goes
first), ``entries`` (a stage ``enter`` before an input: values entered at the table, e.g. from
a real bag), ``read_marked`` and ``wheels_marked`` (an answer over several locks:
:attr:`Session.marked`),
``lights``, ``show`` and ``refused_wheels`` (what the controllers are told), ``pad_lines``,
``key_move``, ``keyboard`` and ``private_line`` (the keyboard pad and its keys). A prompt whose context says
``"auto": true`` is answered with its first option without asking. On its cartridge, a
**presentation** (:class:`Presentation`): a public line when prompts open, the events of an
answer shown in :class:`Step` s (a die that tumbles, a frame drawn after each step) and the
game's own table view. The game's journal rules may give ``position(game) -> (turn, phase)``,
recorded with each input.
"""
from __future__ import annotations

import inspect
import threading
import time
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from collections import deque
from dataclasses import dataclass, field, is_dataclass, replace
from typing import Any, Callable, Iterable, Mapping, Sequence

from bitbox.colours import SCREEN_RGB
from bitbox.display.model import LogEntry, PlayerStatus, ShellView
from bitbox.games.protocol import Action, Cartridge, Game, GameError, Prompt
from bitbox.safetext import printable

from .controls import Controls, Marked, Unreadable, controls_of
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

    def view(self, session: "Session", base: ShellView, now: float) -> ShellView:
        """The view the game's display draws of ``session`` now: by default :meth:`table_view`
        of the console's ``base`` with the step shown now. A game whose screen needs more of
        the table (the stage, the marks of an answer of several locks, a refusal's reason)
        reads it here, public things only."""
        elapsed = now - session.step_started if session.stage == "showing" and now < session.step_until else None
        return self.table_view(base, session.facts, sorted({p.kind for p in session.open.values()}), elapsed)


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
        self._said_over = False
        self._turn = turn_of(game)
        self.moves = inputs_applied
        self.thinking: set[str] = set()          # players whose bot is searching (shown on screen)
        # what the optional members of the controls add (bitbox.table.controls)
        self.marked: dict[str, Any] = {}         # each player's answer of several locks, so far
        self.refusal: tuple[str, dict[str, Any]] | None = None     # the last refusal's words key (until unlocked)
        self.entering: str | None = None         # who enters a value at the table now (stage "enter")
        self.entered: list[Any] = []             # the values entered for the input pending
        self.pending: tuple[str, dict[str, Any]] | None = None     # the input waiting for them
        self.groups: list[list[str]] = []        # the players asked in turn (controls.order): first, now
        self.auto: set[str] = set()              # players the table answered (their only option)
        self.declared: dict[str, str] = {}       # answers told publicly (controls.declared): they stand
        self._refusing: Prompt | None = None     # the prompt whose lock is being refused
        # how the answers are shown (the cartridge's presentation): the step shown now
        self.presentation = presentation_of(cartridge)
        self.facts: Mapping[str, Any] = {}       # the current step's public facts (the presentation's)
        self.step: Step | None = None
        self.step_started = 0.0
        self.steps_shown: deque[Step] = deque(maxlen=200)          # the last steps shown

    @property
    def step_until(self) -> float:
        """When the step shown now ends (the table moves on)."""
        return self._hold_until

    def _hook(self, name: str) -> Any:
        """An optional member of the game's controls (None: the console's default)."""
        return getattr(self.controls, name, None)

    def _racers(self) -> list[str]:
        """The people who may choose to go first (stage ``first``): every seat but the bots."""
        return [s.player for s in self.seats if s.kind != "bot"]

    # ------------------------------------------------------------------ the console's hooks
    def colour_of(self, player: str) -> tuple[int, int, int]:
        return SCREEN_RGB.get(player, (200, 200, 200))

    def _is_active(self, player: str) -> bool:
        if self.stage == "first":
            return player in self._racers()
        if self.stage == "enter":
            return player == self.entering
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
        position = getattr(self.rules, "position", None)     # the game's own journal says (turn, phase)
        if callable(position):
            turn, phase = position(self.game)
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
        lights = self._hook("lights")
        if lights is None:
            return (True, True, True)
        on = tuple(bool(x) for x in lights(self.game, prompt))
        return (on[0], on[1], on[2])

    def _private_show(self, player: str) -> tuple[int, int, int]:
        prompt = self.awaiting(player)
        show = self._hook("show")
        if prompt is None or show is None:
            return (0, 0, 0)
        left, centre, right = show(prompt)
        return (int(left), int(centre), int(right))

    def _refused_wheels(self, kind: str) -> int:
        """The wheels the refusal points at: the game's choice, less every wheel resting on a
        stop of its Hint (SPEC.md 6.14: the Hint said that stop is valid, the fault is in the
        others), unless that would leave none."""
        refused = self._hook("refused_wheels")
        prompt = self._refusing
        bits = int(refused(prompt)) if refused is not None and prompt is not None else 0b001
        if prompt is not None and prompt.player in self.ctl:
            hint, wheels = self._hint(prompt.player), self.ctl[prompt.player].wheels
            valid = sum(1 << i for i in range(3) if hint[i] >> wheels[i] & 1)
            if bits & ~valid:
                bits &= ~valid
        return bits

    def _hint(self, player: str) -> tuple[int, int, int]:
        prompt = self.awaiting(player)
        return self.controls.hint(prompt) if prompt is not None else (0, 0, 0)

    # ------------------------------------------------------------------ what drivers ask
    def awaiting(self, player: str) -> Prompt | None:
        """The prompt ``player`` must still answer now (None: nothing to do). At the stages
        ``first`` and ``enter`` it is a prompt of the console's (``"race"`` or ``"entry"`` in
        its context, no options): a lock answers it, and bots leave it to the people. In a
        phase asked group by group (``controls.order``), only the group asked now."""
        if self.stage == "first":
            return Prompt(player, "first", (), {"race": True}) if player in self._racers() else None
        if self.stage == "enter":
            entries = getattr(self.controls, "entries", None)
            if entries is None or player != self.entering:
                return None
            return Prompt(player, entries.kind, (), {"entry": True})
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
        self.answers, self.marked, self.refusal = {}, {}, None
        self.entering, self.entered, self.pending = None, [], None
        self.auto, self.declared, self.groups = set(), {}, []
        first = self._hook("first_input")
        if first is not None and first(self.game, self.seats[0].player) is not None:
            self.open = {}
            if not self._racers():              # bots only: the first seat starts
                self._answer(*first(self.game, self.seats[0].player))
                return
            self.stage = "first"
            self._new_prompt()
            for player in self._racers():
                self._evaluate(player)
            return
        given = self.game.prompts()
        try:
            prompts = list(given)
        except TypeError:                                   # a game that broke the protocol: one line
            raise GameError(f"the game's prompts() gave {printable(repr(given), 60)}, not a list of prompts") from None
        self.open = {p.player: p for p in prompts}
        self.stage = "prompt"
        if self.open and all(p.context.get("auto") and p.options for p in self.open.values()):
            # nothing to decide: the table answers without asking, at once (or once no
            # controller of these players is lost: _progress)
            self.answers = {p: prompt.options[0] for p, prompt in self.open.items()}
            self.auto = set(self.open)
            if not self.paused:
                self._answer(*self._input(dict(self.answers)))
            return
        order = self._hook("order")
        groups = [list(g) for g in order(self.game, prompts)] if order is not None else [list(self.open)]
        self.groups = [g for g in ([p for p in g if p in self.open] for g in groups) if g]
        asked = {p for g in self.groups for p in g}
        for p, prompt in self.open.items():
            if p not in asked:                      # nobody is asked: the table gives the only option
                if len(prompt.options) != 1:
                    raise ValueError(f"the controls ask nobody for {p}'s {prompt.kind}, which has "
                                     f"{len(prompt.options)} options")
                self.answers[p] = prompt.options[0]
                self.auto.add(p)
        for entry in self.presentation.opening(self.game, prompts):
            self._log(entry.kind, dict(entry.data))
        self._new_prompt()
        for player in (self.groups[0] if self.groups else ()):
            self._evaluate(player)

    def _answer(self, kind: str, data: dict[str, Any]) -> None:
        """Submit an input; first, the values it needs entered at the table (``entries``)."""
        entries = self._hook("entries")
        if entries is not None:
            who = entries.who(self.game, kind, data, tuple(self.entered))
            if who is not None:
                self.pending = (kind, data)
                self.stage, self.entering = "enter", who
                self._new_prompt()
                self._evaluate(who)
                return
            if self.entered:
                data = entries.data(kind, data, tuple(self.entered))
        self.refusal = None
        self._submit(kind, data)

    def _refuse_why(self, player: str, prompt: Prompt | None, reason: str,
                    data: Mapping[str, Any] | None = None) -> None:
        """Refused: only ``player``'s controller hears of it (it blinks); ``reason`` is kept
        for the game's own view (:attr:`refusal`) until the lock opens."""
        self.refusal = (reason, dict(data or {}))
        self._refusing = prompt
        self._refuse(player, reason)

    @property
    def marks(self) -> Any:
        """The marks so far of the one player asked (a game that asks one prompt at a time);
        None when nobody or several are asked (:attr:`marked` has each player's)."""
        return self.marked.get(next(iter(self.open))) if len(self.open) == 1 else None

    def _accept_mark(self, player: str, marks: Any) -> None:
        """One more lock of ``player``'s answer taken (``controls.read_marked``): their lock
        must open before the next (a new moment for the drivers: ``prompt_id``)."""
        self.marked[player], self.refusal = marks, None
        self.prompt_id += 1
        self.refused.discard(player)
        self.ctl[player].stale = self.ctl[player].locked

    def _evaluate_first(self, player: str) -> None:
        c = self.ctl[player]
        if c.locked and not c.stale and player in self._racers() and not self.paused:
            self._answer(*self._hook("first_input")(self.game, player))

    def _evaluate_entry(self, player: str) -> None:
        c = self.ctl[player]
        if player != self.entering:
            return
        if not c.locked:
            self.refusal = None
            return
        if c.stale or player in self.refused or self.paused or self.pending is None:
            return
        entries = self._hook("entries")
        value = entries.read(self.game, c.wheels, tuple(self.entered))
        if isinstance(value, Unreadable):
            self._refuse_why(player, self.awaiting(player), value.reason, value.data)
            return
        self.entered.append(value)
        kind, data = self.pending
        who = entries.who(self.game, kind, data, tuple(self.entered))
        if who is None:
            self.stage = "prompt"
            self._answer(kind, data)
        else:
            self.entering, self.refusal = who, None
            self._new_prompt()                  # the lock opens before the next value

    def _evaluate(self, player: str) -> None:
        if self.stage == "first":
            self._evaluate_first(player)
            return
        if self.stage == "enter":
            self._evaluate_entry(player)
            return
        if self.stage != "prompt" or player not in self.open or player in self.auto or \
                (self.groups and player not in self.groups[0]):
            return
        c = self.ctl[player]
        if not c.locked:
            if player not in self.declared:
                self.answers.pop(player, None)      # the lock opened: the answer is taken back
            self.refusal = None
            return
        if c.stale or player in self.refused or player in self.answers:
            return
        prompt = self.open[player]
        marked = self._hook("read_marked")
        unreadable = False
        try:
            action = marked(self.game, prompt, c.wheels, self.marked.get(player)) if marked is not None \
                else self.controls.read(prompt, c.wheels)
        except (LookupError, TypeError, ValueError):      # a game's controls must not stop the table
            action, unreadable = None, True
        if isinstance(action, Unreadable):
            self._refuse_why(player, prompt, action.reason, action.data)
            return
        if isinstance(action, Marked):
            self._accept_mark(player, action.marks)
            return
        # None is an answer only where the prompt offers it (e.g. "play no token")
        unreadable = unreadable or (action is None and None not in prompt.options)
        try:
            code = "unreadable" if unreadable else self.game.refusal(player, action)
        except TypeError:                                 # e.g. an unhashable answer
            code = "unreadable"
        if code is not None:
            self._refuse_why(player, prompt, f"code.{code}")      # private: only the refused wheels are told
            return
        self.answers[player] = action
        self.marked.pop(player, None)                     # whole: its marks are the answer now
        declared = self._hook("declared")
        word = declared(prompt, action) if declared is not None else None
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
                self._answer(*self._input(answers))
        elif self.stage in ("first", "enter") and not self.paused:
            # a lock closed while the table was paused counts once it goes on
            for p in (self._racers() if self.stage == "first" else [self.entering] if self.entering else []):
                self._evaluate(p)
        # a lost controller of a player asked stops the showing too: nothing more is revealed
        while self.stage == "showing" and not self.paused and self._advance_step(now):
            pass

    def _advance_step(self, now: float) -> bool:
        """The next step of the answer shown, once the current one's time is over (after the
        last, the next prompts). True if the table moved on."""
        if now < self._hold_until:
            return False
        if self.step is not None:                   # the step ends
            for entry in self.step.told_after:
                self._tell(entry)
            self.step = None
        if not self._steps:
            self._end_showing()
            return True
        step = self.step = self._steps.popleft()
        self.step_started, self._hold_until = now, now + step.seconds
        self.shown_view, self.facts = step.view, step.facts
        self.steps_shown.append(step)
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
        self._said_over, self.step = False, None
        self._hold_until = float("-inf")            # its first step begins at once
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
            table = self.table()
            # an answer that ended several turns: the same frame for each (one a turn), each
            # copy's banner naming its own turn; turn 0, before the first (a setup, as Last One
            # Alive's), has no frame of its own
            ended = range(done, turn) if isinstance(turn, int) and isinstance(self._turn, int) and turn > done else [done]
            for t in ended:
                if self._turn is None or t >= 1:
                    self.milestones.append(("turn_end", t, table if t == done else naming_turn(table, done, t)))
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
        return self.presentation.view(self, base, self.clock() if now is None else now)


def naming_turn(table: Any, shown: int, turn: int) -> Any:
    """``table`` (the frame of turn ``shown``) as the frame of turn ``turn``, which the same
    answer ended: the console's view (``turn`` beside the game's ``game`` view) names the
    turn it shows; a game's own view names its turn itself and is left as it is."""
    view = getattr(table, "view", None)
    if is_dataclass(table) and not isinstance(table, type) and isinstance(view, Mapping) and "game" in view \
            and view.get("turn") == shown:
        return replace(table, view={**view, "turn": turn})
    return table


@dataclass
class _Plan:
    key: tuple[Any, ...]
    at: float
    wheels: tuple[int, int, int]
    unlocked_at: float = -1.0
    refusals: int = 0                               # locks of these wheels refused by the table


class BotDriver:
    """Plays ``player`` with a bot (:class:`bitbox.bots.Bot`) on the simulated controller
    ``sim``: after ``think`` seconds it sets the wheels the controls give for its answer and
    closes the lock (opening it first when it is still closed from before). It waits for
    nothing else: at ``--speed 0`` a bots-only game runs as fast as the game computes.

    A bot that searches (one with a ``decide`` method: :class:`bitbox.bots.search.SearchBot`)
    thinks on a worker thread, on a copy of the game, so that the table goes on drawing and
    reading the controllers meanwhile; the session shows that player as thinking
    (:attr:`Session.thinking`).

    An answer of several locks (``controls.read_marked``) is decided once and entered lock by
    lock (``controls.wheels_marked``); the console's own prompts (who goes first, values
    entered at the table) are left to the people."""

    RETRY = 0.25                                   # seconds before an unanswered unlock is sent again
    REFUSALS = 3                                   # the same wheels refused this often: the controls misread
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
        self._worker: tuple[tuple[Any, ...], Future[Any]] | None = None
        self._decided: tuple[tuple[Any, ...], Any] | None = None     # (moment, answer): kept over its locks

    def _decide(self, session: Session, prompt: Prompt) -> Any:
        seed = decision_seed(self.seed, self.player, session.inputs_applied, prompt.kind)
        rng = getattr(self.bot, "rng", None)
        if rng is not None and hasattr(rng, "seed"):
            rng.seed(seed)
        return self.bot.choose(session.private_view(self.player), prompt)

    def _wheels(self, session: Session, prompt: Prompt, action: Any) -> tuple[int, int, int]:
        marked = getattr(self.controls, "wheels_marked", None)
        if marked is not None:
            left, centre, right = marked(session.game, prompt, action, session.marked.get(self.player))
            return (int(left), int(centre), int(right))
        return self.controls.wheels_for(prompt, action)

    def _misread(self, session: Session, prompt: Prompt, wheels: tuple[int, int, int]) -> None:
        """The bot's own answer, entered with the wheels its controls gave, refused again and
        again: the game's controls do not read back what ``wheels_for`` gives (a bot's answer is
        one of the prompt's options). A :class:`TableError` (one line; the journal keeps the
        game) rather than locking for ever."""
        from .seating import TableError
        answer = self._decided[1] if self._decided is not None else None
        reason = session.refusal[0] if session.refusal else "refused"
        raise TableError(f"{self.player}'s bot answered {answer!r} to {prompt.kind!r} with the wheels at {wheels}, "
                         f"refused {self.REFUSALS} times ({reason}): the game's controls do not read back the "
                         f"wheels they give for an answer (bitbox games --check {session.cartridge.name})")

    def _thought(self, session: Session, prompt: Prompt, key: tuple[Any, ...]) -> Any:
        """A searching bot's answer once its worker has one (None: still thinking)."""
        if self._worker is None or self._worker[0] != key:
            self.stop()
            future: Future[Any] = Future()
            game = session.cartridge.from_data(session.game.to_data())
            seed = decision_seed(self.seed, self.player, session.inputs_applied, prompt.kind)

            def work() -> None:
                try:
                    from bitbox.bots import LazyView
                    reseed = getattr(self.bot, "reseed", None)
                    if callable(reseed):
                        reseed(seed)
                    future.set_result(self.bot.choose(LazyView(game, self.player), prompt))
                except BaseException as exc:  # noqa: BLE001 -- raised again on the table's thread
                    future.set_exception(exc)
            self._worker = (key, future)
            session.thinking.add(self.player)
            threading.Thread(target=work, name=f"bot-{self.player}", daemon=True).start()
        future = self._worker[1]
        try:
            action = future.result(timeout=self.WAIT)
        except FutureTimeout:
            return None
        session.thinking.discard(self.player)
        return action

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
        if prompt is None or prompt.context.get("race") or prompt.context.get("entry"):
            self._plan = None
            if self._worker is not None:
                self.stop()
                session.thinking.discard(self.player)
            return
        key = (session.inputs_applied, session.prompt_id)
        if self._plan is None or self._plan.key != key:
            moment = (session.inputs_applied, prompt.kind)
            at = now                                # the next lock of an answer decided: at once
            if self._decided is None or self._decided[0] != moment:
                if self.searches and len(prompt.options) > 1:
                    action = self._thought(session, prompt, moment)
                    if action is None:
                        return
                else:
                    action = self._decide(session, prompt)
                self._decided, at = (moment, action), now + self.think
            self._plan = _Plan(key, at, self._wheels(session, prompt, self._decided[1]))
        plan = self._plan
        if now < plan.at:
            return
        c = session.controller(self.player)
        if c.locked:
            if (c.stale or self.player in session.refused or c.wheels != plan.wheels) and \
                    (plan.unlocked_at < 0 or now - plan.unlocked_at > self.RETRY):
                if self.player in session.refused and not c.stale and c.wheels == plan.wheels:
                    plan.refusals += 1
                    if plan.refusals >= self.REFUSALS:
                        self._misread(session, prompt, plan.wheels)
                plan.unlocked_at = now
                self.sim.set(locked=False, **self._settle)
            return
        left, centre, right = plan.wheels
        self.sim.set(left=left, centre=centre, right=right, locked=True, **self._settle)


def words_prompt(words: Any, prompt: Prompt) -> str:
    return str(words.prompt(prompt.kind, prompt.context)) if hasattr(words, "prompt") else prompt.kind


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
    the session through their simulated controller.

    With controls whose ``keyboard`` is ``"wheels"`` (answers made in the open, over several
    locks) the keys turn the wheels instead: ←/→ choose a wheel, ↑/↓ turn it, Enter closes
    the lock (again: opens it), Backspace opens it; the pad shows the wheels, and the
    prompt's private line (``controls.private_line``) only while Tab shows it."""

    WHEELS = ("left", "centre", "right")

    def __init__(self, sims: Mapping[str, Any], controls: Controls, words: Any) -> None:
        self.sims = dict(sims)
        self.controls = controls
        self.words = words
        self.shown = False
        self.wheel_mode = getattr(controls, "keyboard", "options") == "wheels"
        self.wheel = 0                              # the wheel the arrows turn (wheel mode)
        self.values: dict[str, list[int]] = {p: [0, 0, 0] for p in self.sims}
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
        if self.wheel_mode:
            self._turn_wheels(session, p, name)
            return
        i = self._sel.get(p, 0)
        n = len(prompt.options)
        if not n:                                   # the console's own prompt: a lock answers it
            if name == "enter":
                self.sims[p].set(locked=not session.controller(p).locked)
            elif name == "backspace":
                self.sims[p].set(locked=False)
            return
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

    def _turn_wheels(self, session: Session, p: str, name: str) -> None:
        sim, v = self.sims[p], self.values[p]
        if name == "tab":
            self.shown = not self.shown
        elif name in ("left", "right"):
            self.wheel = (self.wheel + (1 if name == "right" else -1)) % 3
        elif name in ("up", "down"):
            v[self.wheel] = max(0, min(15, v[self.wheel] + (1 if name == "up" else -1)))
            sim.set(left=v[0], centre=v[1], right=v[2])
        elif name == "backspace":
            sim.set(locked=False)
        elif name == "enter":
            if session.controller(p).locked:
                sim.set(locked=False)
            else:
                sim.set(left=v[0], centre=v[1], right=v[2], locked=True)

    def pad(self, session: Session, lang: Any) -> Mapping[str, Any] | None:
        p = self.current(session)
        if p is None:
            return None
        prompt = session.awaiting(p)
        assert prompt is not None
        if self.wheel_mode:                        # the wheels, in the open; a private line on Tab only
            v = self.values[p]
            lines = [("▶ " if i == self.wheel else "  ") + f"{lang.t('wheel.' + w)}: {v[i]}"
                     for i, w in enumerate(self.WHEELS)]
            private = getattr(self.controls, "private_line", None)
            secret = private(prompt, lang) if private is not None else None
            if secret is not None:
                lines.append(f"{secret} (Tab)" if self.shown else lang.t("pad.hidden"))
            return {"player": p, "shown": True, "lines": lines}
        if not prompt.options:
            return {"player": p, "shown": True, "lines": [words_prompt(self.words, prompt)]}
        i = self._sel.get(p, 0)
        words = self.words
        own = getattr(self.controls, "pad_lines", None)      # the game's own pad (its controls')
        if callable(own):
            lines = list(own(words, session.private_view(p), prompt, prompt.options[i % len(prompt.options)]))
        else:
            from .replay import option_words          # one wording of an option: the pad's and the replay's
            lines = [words.prompt(prompt.kind, prompt.context),
                     f"◀ {option_words(session.cartridge, prompt, prompt.options[i], words)} ▶"]
        return {"player": p, "shown": self.shown, "lines": lines}


__all__ = ["BotDriver", "KeyboardDriver", "Presentation", "Session", "Step", "at_the_keyboard", "decision_seed",
           "presentation_of", "turn_of"]
