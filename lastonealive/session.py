"""Last One Alive's referee session, on the console's referee loop
(:class:`bitbox.table.referee.Referee`): lock-to-submit, the pause on a lost controller,
journal-then-apply, lights and private hints are the console's; this module gives the
game's stages (docs/last-one-alive.md "The controls, turn by turn"):

* ``first``: who starts. The first lock turned on by a person's controller (or the keyboard
  hot-seat) makes that player first; a table of bots only starts with the first seat.
* ``prompt``: one prompt at a time, the engine's (``setup``, ``before``, ``dice``...). Only
  the active player's controller is read; the others are ignored and rest (dark). The
  player sets the wheels (:mod:`lastonealive.controls` says what each means now) and turns
  the lock on: the referee applies the answer, or refuses it (nothing changes): the
  controller blinks, privately, and the screen gives the reason; the lock goes off for the
  next prompt. A prompt with nothing to decide (``auto``) is answered by the referee.
  Multi-die answers (a flare's dice, a hero's dice) and the tokens discarded over the limit
  are entered one lock at a time.
* ``bag`` (physical tokens): before an answer that draws from the bag is applied, whoever
  draws takes a token from the real bag and enters it with the left wheel.
* ``showing``: the events of an answer, step by step (dice tumbling, "+" re-rolls one after
  another), then the next prompt.

Every accepted answer, and every automatic one, is journaled before it is applied:
``start`` (the first player) and ``answer`` (an engine action), each with the tokens
entered from a real bag (``drawn``), which are put on top of the engine's bag first.
"""
from __future__ import annotations

import time
from collections import Counter, deque
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping, Sequence

from bitbox.colours import SCREEN_RGB
from bitbox.display.model import LogEntry, ShellView
from bitbox.table.referee import Pace, Referee, decision_seed
from bitbox.table.referee import fingerprint as state_hash
from bitbox.table.seating import SeatPlan

from .controls import WINDOWS, Controls, Mark, Unreadable
from .rules import APOCALYPSE_TOKENS, UNSTARTED, Action, Event, Game, Refused, RulesError
from .rules.game import variant_problem

DRAW_KINDS = ("drew", "drew_face_down", "apocalypse", "night", "day")


# ---------------------------------------------------------------------------- the game's inputs

def new_game(players: Sequence[str], *, seed: int, variants: Sequence[str] = (), first_zombie: str = "each",
             faces: Mapping[str, Sequence[str]] | None = None, counts: Mapping[str, int] | None = None,
             mix: Mapping[str, int] | None = None, apocalypse: int = APOCALYPSE_TOKENS) -> Game:
    """The engine's game stopped before the setup draws (``Game.new(..., start=False)``):
    the first player is chosen at the table (input ``start``). Variants the players cannot
    play (Survivors is for 2 or 3) are a :class:`RulesError`, as the cartridge and
    ``simulate`` refuse them."""
    problem = variant_problem(variants, len(players))
    if problem is not None:
        raise RulesError(problem)
    return Game.new(players, seed=seed, variants=variants, first_zombie=first_zombie, faces=faces,
                    counts=counts, mix=mix, apocalypse=apocalypse, start=False)


def started(game: Game) -> bool:
    return game.state.phase != UNSTARTED


def stack_bag(game: Game, drawn: Sequence[str]) -> None:
    """Put the tokens entered from a real bag on top of the engine's bag, in order."""
    bag = game.state.bag
    for i, t in enumerate(drawn):
        try:
            j = bag.index(t, i)
        except ValueError:
            raise RulesError(f"the bag holds no {t!r} (entered from a real bag)") from None
        bag.insert(i, bag.pop(j))
    game.changed()


def apply_input(game: Game, kind: str, data: Mapping[str, Any]) -> list[Event]:
    """Apply one journaled input (the session and the journal's replay share it)."""
    drawn = data.get("drawn") or []
    if not isinstance(drawn, list) or not all(isinstance(t, str) for t in drawn):
        raise RulesError("drawn must be a list of token names")
    if kind == "start":
        if started(game):
            raise RulesError("the game has already started")
        first = data["first"]
        if first not in game.state.players:
            raise RulesError(f"unknown first player {first!r}")
        stack_bag(game, drawn)
        return game.apply(Action("start", None, first))
    if kind == "answer":
        if not started(game):
            raise RulesError("the game has not started")
        stack_bag(game, drawn)
        return game.apply(Action.from_data(data["action"]))
    raise RulesError(f"unknown input kind {kind!r}")


def public_view(game: Game) -> dict[str, Any]:
    """The table's view: the engine's public view (an unstarted game shows its players, a
    full bag, nobody active and the prompt ``start``)."""
    return game.public_view()


# ---------------------------------------------------------------------------- the table view

@dataclass(frozen=True)
class TableView(ShellView):
    """What the Last One Alive screen draws: public facts only."""

    asking: str | None = None                   # whose controller is read now
    kind: str | None = None                     # the prompt (controls.WHEELS keys)
    info: Mapping[str, Any] = field(default_factory=dict)      # public facts of the prompt
    refusal: tuple[str, Mapping[str, Any]] | None = None        # the last answer refused, and why
    marks: tuple[str, ...] = ()                 # dice marked so far (flare, hero), tokens discarded
    rolling: tuple[str, ...] = ()               # die ids tumbling now
    tick: int = 0                               # animation frame of the tumbling dice
    chain: tuple[str, ...] = ()                 # "+" re-roll faces shown so far this turn
    medkit: str | None = None                   # the medkit's roll, while shown


@dataclass
class _Step:
    events: list[Event]
    duration: float
    rolling: tuple[str, ...] = ()
    chain_face: str | None = None


class Session(Referee):
    """The referee of a Last One Alive table; see the module docstring."""

    input_errors = (Refused, RulesError)

    def __init__(self, game: Game, seats: Sequence[SeatPlan], *, tokens: str = "virtual", wheel_map: Any = None,
                 journal: Any = None, pace: Pace = Pace(), clock: Callable[[], float] = time.monotonic,
                 inputs_applied: int = 0, on_event: Callable[[LogEntry], None] | None = None) -> None:
        names = [s.player for s in seats]
        if sorted(names) != sorted(game.state.players) or len({s.seat for s in seats}) != len(seats):
            raise ValueError(f"seats {names} do not match the game's players {list(game.state.players)}")
        if tokens not in ("physical", "virtual"):
            raise ValueError(f"tokens must be physical or virtual, not {tokens!r}")
        super().__init__(game, seats, journal=journal, pace=pace, clock=clock, inputs_applied=inputs_applied,
                         on_event=on_event)
        self.game: Game = game
        self.tokens = tokens
        self.controls = Controls(wheel_map)
        self.kind: str | None = None            # the prompt asked now
        self.marks: list[str] = []
        self.mark_kind: str | None = None
        self.refusal: tuple[str, dict[str, Any]] | None = None
        self.pending: tuple[str, dict[str, Any]] | None = None      # an answer waiting for bag entries
        self.drawn: list[str] = []
        self.drawer: str | None = None
        self._steps: deque[_Step] = deque()
        self._step_until = 0.0
        self._step_started = 0.0
        self._rolling: tuple[str, ...] = ()
        self.chain: list[str] = []
        self.medkit: str | None = None
        self._turn_shown = game.state.turn
        self._ended: list[int] = []             # turns ended in the answer being shown (their frames)
        self.shown_view: dict[str, Any] = public_view(game)

    # ------------------------------------------------------------------ the console's hooks
    def colour_of(self, player: str) -> tuple[int, int, int]:
        return SCREEN_RGB.get(player, (200, 200, 200))

    def _public_view(self) -> Any:
        return public_view(self.game)

    def _apply_input(self, game: Game, kind: str, data: Mapping[str, Any]) -> list[Event]:
        return apply_input(game, kind, data)

    def _state_hash(self, game: Game) -> str:
        return state_hash(game)

    def _position(self) -> tuple[int, str]:
        return self.game.state.turn, self.game.state.phase

    def where(self) -> str:
        return f"turn {self.game.state.turn}, {self.stage} {self.kind or ''}".strip()

    def _refused_wheels(self, kind: str) -> int:
        return self.controls.refused_wheels(self.kind)

    # ------------------------------------------------------------------ who is read
    def asking(self) -> str | None:
        """The player whose controller is read now (None: nobody, or everyone at ``first``)."""
        if self.stage == "bag":
            return self.drawer
        if self.stage == "prompt":
            return self.game.state.active
        return None

    def _humans(self) -> list[str]:
        return [s.player for s in self.seats if s.kind != "bot"]

    def _is_active(self, player: str) -> bool:
        if self.stage == "finished" or self.game.finished:
            return False
        if self.stage in ("first", "waiting") and not started(self.game):
            return player in self._humans()
        return player == self.asking()

    def awaiting(self, player: str) -> str | None:
        """What the session waits for from ``player`` now (a prompt kind of
        :data:`lastonealive.controls.WHEELS`), or None."""
        if self.paused:
            return None
        if self.stage == "first":
            return "first" if player in self._humans() else None
        if self.stage in ("prompt", "bag") and player == self.asking():
            return self.kind
        return None

    def private_view(self, player: str) -> dict[str, Any]:
        """``player``'s own view (their bot or keyboard pad only, never the table)."""
        return self.game.private_view(player) if started(self.game) else public_view(self.game)

    def protocol_prompt(self) -> Any:
        """The open prompt as the console's game protocol states it (for the bots)."""
        from .prompts import protocol_prompts
        prompts = protocol_prompts(self.game)
        return prompts[0] if prompts else None

    # ------------------------------------------------------------------ phases
    def _begin_phase(self) -> None:
        g = self.game
        self.shown_view = public_view(g)
        self.kind, self.marks, self.mark_kind = None, [], None
        self.pending, self.drawn, self.drawer = None, [], None
        if g.finished:
            self._game_over(g.state.turn, g.state.winners, state_hash(g))
            return
        if not started(g):
            if not self._humans():
                self._answer("start", {"first": g.state.players[0]})
                return
            self.stage = "first"
            self.kind = "first"
            self._new_prompt()
            for p in self._humans():
                self._evaluate(p)
            return
        pr = g.prompt()
        assert pr is not None
        if pr.auto and pr.default is not None:
            self.stage = "prompt"
            self.kind = pr.kind
            self._answer("answer", {"action": pr.default.to_data(), "auto": True})
            return
        self.stage = "prompt"
        self.kind = pr.kind
        self._new_prompt()
        self._evaluate(pr.player)

    def _answer(self, kind: str, data: dict[str, Any]) -> None:
        """Submit an answer; with a real bag, first ask for the tokens it draws."""
        if self.tokens == "physical":
            need = self._bag_need(kind, data)
            if need is not None:
                self.pending = (kind, data)
                self.stage, self.kind, self.drawer = "bag", "bag", need
                self._new_prompt()
                self._evaluate(need)
                return
        if self.drawn:
            data = {**data, "drawn": list(self.drawn)}
        self.refusal = None
        self._submit(kind, data)

    def _bag_need(self, kind: str, data: Mapping[str, Any]) -> str | None:
        """Who must draw from the real bag before ``data`` can be applied (None: nobody)."""
        trial = self.game.copy()
        before = len(trial.state.bag)
        try:
            events = apply_input(trial, kind, {**data, "drawn": list(self.drawn)})
        except (Refused, RulesError):
            return None
        pops = before + sum(1 for e in events if e.kind == "night") - len(trial.state.bag)
        if pops <= len(self.drawn):
            return None
        drawers = [e.data.get("player") for e in events if e.kind in DRAW_KINDS]
        if trial.state.phase == "setup" and trial.state.setup_token is not None:
            drawers.append(trial.state.active)
        k = len(self.drawn)
        return drawers[k] if k < len(drawers) and drawers[k] else (trial.state.active or self.game.state.active)

    def _evaluate(self, player: str) -> None:
        """Read ``player``'s controller in the light of the current prompt."""
        c = self.ctl[player]
        if not c.locked:
            if player == self.asking():
                self.refusal = None
            return
        if c.stale or player in self.refused or self.paused:
            return
        if self.stage == "first":
            if player in self._humans():
                self._answer("start", {"first": player})
            return
        if self.stage not in ("prompt", "bag") or player != self.asking():
            return
        g = self.game
        kind = self.kind or ""
        pr = g.prompt() if self.stage == "prompt" else None
        needed = int(pr.info.get("needed", 4)) if pr is not None and kind == "dice" else 4
        only_undo = kind == "dice" and pr is not None and [a.kind for a in pr.legal.actions] == ["undo"]
        read = self.controls.read(kind, c.wheels, needed=needed, only_undo=only_undo)
        if isinstance(read, Unreadable):
            self._refuse_with(player, read.reason, {})
            return
        if isinstance(read, Mark):
            self._mark(player, read)
            return
        try:
            code = g.refusal(read)
        except RulesError:
            code = "not_an_answer"
        if code is not None:
            self._refuse_with(player, f"code.{code}", {})
            return
        self._answer("answer", {"action": read.to_data()})

    def _refuse_with(self, player: str, key: str, data: dict[str, Any]) -> None:
        """Refused: the controller blinks (privately); the screen says why. Nothing changes."""
        self.refusal = (key, data)
        self._refuse(player, key)

    def _accept_mark(self) -> None:
        self.refusal = None
        self._new_prompt()                     # the lock must go off before the next step

    def _mark(self, player: str, m: Mark) -> None:
        g = self.game
        if m.what == "bag":
            left = Counter(g.state.bag)
            left.subtract(self.drawn)
            if left[m.value] <= 0:
                self._refuse_with(player, "refuse.not_in_bag", {"token": m.value})
                return
            self.drawn.append(m.value)
            kind, data = self.pending or ("answer", {})
            need = self._bag_need(kind, data)
            if need is None:
                self.stage = "prompt"
                self._answer(kind, data)
            else:
                self.drawer = need
                self._accept_mark()
            return
        if m.what == "discard":
            held = Counter(g.held_faces(player))
            held.subtract(self.marks)
            if held[m.value] <= 0:
                self._refuse_with(player, "code.not_held", {})
                return
            self.marks.append(m.value)
            remaining = list((Counter(g.held_faces(player)) - Counter(self.marks)).elements())
            if len(remaining) <= 3:
                keep = [t for t in g.held_faces(player)]
                for t in self.marks:
                    keep.remove(t)
                self.marks, self.mark_kind = [], None
                self._answer("answer", {"action": Action("keep", None, tuple(keep)).to_data()})
            else:
                self._accept_mark()
            return
        token = "flare" if m.what == "flare" else "hero"
        # the marks of this token so far: a refused lock changes nothing (the other token's marks
        # are dropped only when a mark of this one is taken)
        marks = list(self.marks) if self.mark_kind == token else []
        if m.what == "hero_go":
            ids = g.hero_dice() if m.value == "all" else marks
            if not ids:
                self._refuse_with(player, "refuse.hero_none", {})
                return
            action = Action("use", "hero", tuple(ids))
            code = g.refusal(action)
            if code is not None:
                self._refuse_with(player, f"code.{code}", {})
                return
            self.marks, self.mark_kind = [], None
            self._answer("answer", {"action": action.to_data()})
            return
        die = m.value
        if die in marks:
            self._refuse_with(player, "refuse.marked", {})
            return
        code = g.refusal(Action("use", token, (die,)))
        if code not in (None, "wrong_count"):
            self._refuse_with(player, f"code.{code}", {})
            return
        self.marks, self.mark_kind = marks + [die], token
        if token == "flare":
            full = Action("use", "flare", tuple(self.marks))
            if g.refusal(full) is None:
                self.marks, self.mark_kind = [], None
                self._answer("answer", {"action": full.to_data()})
                return
        self._accept_mark()

    def _progress(self, now: float | None = None) -> None:
        now = self.clock() if now is None else now
        for _ in range(100000):
            if self.paused:
                return
            if self.stage == "showing":
                if not self._advance(now):
                    return
                continue
            return

    # ------------------------------------------------------------------ showing
    def _show(self, before: Any, events: list[Event]) -> None:
        self.stage = "showing"
        self.kind = None
        self.shown_view = public_view(self.game)
        self._steps = deque(self._group(events))
        self._step_until = 0.0

    def _group(self, events: list[Event]) -> list[_Step]:
        p = self.pace
        out: list[_Step] = []
        for e in events:
            if e.kind in ("rolled", "rerolled"):
                out.append(_Step([e], p.roll, rolling=tuple(i for i, _ in e.data.get("dice", []))))
            elif e.kind == "bangs" and e.data.get("chain"):
                chain = list(e.data["chain"])
                for i, f in enumerate(chain):
                    out.append(_Step([e] if i == len(chain) - 1 else [], p.roll, chain_face=f))
            elif e.kind == "medkit":
                out.append(_Step([e], p.roll))
            elif e.kind in ("turn", "game_over"):
                out.append(_Step([e], p.turn))
            else:
                out.append(_Step([e], p.step))
        return out

    def _advance(self, now: float) -> bool:
        if now < self._step_until:
            return False
        if not self._steps:
            self._rolling = ()
            self._frame(now)
            self._begin_phase()
            return True
        step = self._steps.popleft()
        self._step_started = now
        self._step_until = now + step.duration
        self._rolling = step.rolling
        if step.chain_face is not None:
            self.chain.append(step.chain_face)
        for e in step.events:
            if e.kind == "turn":
                if self._turn_shown:               # its frame once every event of this answer is shown
                    self._ended.append(self._turn_shown)
                self.chain, self.medkit = [], None
                self._turn_shown += 1
            if e.kind == "medkit":
                self.medkit = e.data.get("face")
            if e.kind == "game_over":
                self._ended.append(self._turn_shown)
            self._log(e.kind, dict(e.data))
        return True

    def _frame(self, now: float) -> None:
        """The frame of each turn that ended during the answer just shown: the table after every
        event printed (never one that lags them), without the next prompt; the last one, of a
        finished game, names the winners."""
        for turn in self._ended:
            t = self.table(now)
            if self.game.finished:
                t = replace(t, stage="finished", prompt=("prompt.finished", {"players": list(self.game.state.winners)}))
            else:
                t = replace(t, prompt=None)
            self.milestones.append(("turn_end", turn, t))
        self._ended = []

    @property
    def busy(self) -> bool:
        return self.stage == "showing" and self.pace.is_instant

    # ------------------------------------------------------------------ the public table
    def table(self, now: float | None = None) -> TableView:
        """Everything the display may draw: public facts only (never a wheel, the bag's
        order, a token entered from a real bag or the object side of a face-down token)."""
        now = self.clock() if now is None else now
        view = self.shown_view
        from bitbox.display.model import PlayerStatus
        statuses = []
        for s in self.seats:
            p, c = s.player, self.ctl[s.player]
            status = ""
            pv: Mapping[str, Any] = next((x for x in view.get("players", ()) if x["player"] == p), {})
            if self.game.finished:
                status = "winner" if p in self.game.state.winners else ("eliminated" if not pv.get("in_game", True) else "")
            elif not pv.get("in_game", True):
                status = "eliminated"
            elif self.stage == "waiting":
                status = "" if c.connected else "waiting"
            elif self._is_active(p) and self.stage in ("first", "prompt", "bag"):
                status = "unlock" if c.stale else "to_act"
            statuses.append(PlayerStatus(player=p, kind=s.kind, connected=c.connected, lost=c.lost,
                                         locked=c.locked if self._is_active(p) else False, status=status))
        prompt: tuple[str, dict] | None
        info: dict[str, Any] = {}
        pr = self.game.prompt() if started(self.game) and self.stage == "prompt" else None
        if pr is not None:
            info = {k: v for k, v in pr.info.items() if k in ("results", "bangs", "forced", "needed")}
        if self.stage == "waiting":
            prompt = ("prompt.waiting", {"players": [s.player for s in self.seats if not self.ctl[s.player].connected]})
        elif self.stage == "first":
            prompt = ("prompt.first", {})
        elif self.stage == "bag":
            prompt = ("prompt.bag", {"player": self.drawer})
        elif self.stage == "prompt":
            prompt = (f"prompt.{self.kind}", {"player": self.game.state.active, **info})
        elif self.stage == "finished":
            prompt = ("prompt.finished", {"players": list(self.game.state.winners)})
        else:
            prompt = ("prompt.showing", {})
        banner = None
        if self.paused:
            banner = ("banner.paused", {"players": [s.player for s in self.seats
                                                    if self.ctl[s.player].lost and self._is_active(s.player)]})
        marks = tuple(self.marks) if self.mark_kind in ("flare", "hero") or self.stage == "prompt" else ()
        if self.stage == "bag":
            marks = ()                                   # what came out of the bag is not shown here
        rolling = self._rolling if now < self._step_until else ()
        tick = int((now - self._step_started) * 12) if rolling else 0
        return TableView(view=view, players=tuple(statuses), stage=self.stage, prompt=prompt, banner=banner,
                         log=tuple(self.log[-40:]), asking=self.asking() if self.stage != "first" else None,
                         kind=self.kind, info=info, refusal=self.refusal, marks=marks, rolling=rolling, tick=tick,
                         chain=tuple(self.chain), medkit=self.medkit)

    # ------------------------------------------------------------------ lights and hints
    def _lights_for(self, player: str) -> tuple[bool, bool, bool]:
        return self.controls.lights(self.awaiting(player))

    def _hint(self, player: str) -> tuple[int, int, int]:
        """The active player's private hint (:meth:`lastonealive.controls.Controls.hint`)."""
        kind = self.awaiting(player)
        pr = self.game.prompt() if kind in WINDOWS else None
        return self.controls.hint(kind, pr.legal if pr is not None else None)

    def _private_show(self, player: str) -> tuple[int, int, int]:
        """The token drawn at setup, on its owner's controller only (:meth:`Controls.show`)."""
        return self.controls.show(self.awaiting(player), self.game.state.setup_token)


# ---------------------------------------------------------------------------- bots

class BotDriver:
    """Plays ``player`` with the cartridge's bot ``name`` on the simulated controller ``sim``:
    it turns the wheels and closes the lock exactly as a person would, one lock per step.
    Its decisions are seeded from SHA-256 of the game's seed, the player and the number of
    inputs applied, so a resumed game goes on exactly as it would have."""

    def __init__(self, player: str, sim: Any, name: str, faces: Mapping[str, Sequence[str]] | None = None, *,
                 seed: int = 0, think: float = 0.0, wheel_map: Any = None) -> None:
        self.player, self.sim, self.name, self.faces = player, sim, name, faces
        self.seed, self.think = seed, think
        self.controls = Controls(wheel_map)
        self._key: tuple | None = None
        self._answer: Any = None
        self._at = 0.0
        self._last_unlock = -1e9
        self._unlock_for: tuple | None = None        # the moment the last unlock was sent for
        self._refused = 0

    def _decide(self, session: Session, kind: str) -> Any:
        from .strategy import make_bot
        bot = make_bot(self.name, decision_seed(session.game.state.seed, self.player, session.inputs_applied, kind),
                       self.faces)
        prompt = session.protocol_prompt()
        return bot.choose(session.private_view(self.player), prompt)

    def update(self, session: Session, now: float) -> None:
        kind = session.awaiting(self.player)
        if kind is None or kind in ("first", "bag"):
            self._key = None
            return
        key = (session.inputs_applied, kind)
        if key != self._key:
            self._key = key
            self._refused = 0
            self._answer = self._decide(session, kind)
            self._at = now + self.think
        if now < self._at:
            return
        c = session.controller(self.player)
        if c.locked:
            moment = (session.inputs_applied, session.prompt_id, len(session.marks), self.player in session.refused)
            # an unlock is sent at once for a new moment, and sent again only if unanswered for 0.25 s:
            # a bots-only game at --speed 0 waits for nothing
            if (c.stale or self.player in session.refused) and (moment != self._unlock_for
                                                                 or now - self._last_unlock > 0.25):
                self._unlock_for = moment
                if self.player in session.refused:          # not expected: the bot picks legal answers
                    self._refused += 1
                    if self._refused >= 3:                   # never loop: fall back to the first option
                        prompt = session.protocol_prompt()
                        self._answer = prompt.options[0] if prompt is not None else self._answer
                self._last_unlock = now
                self.sim.set(locked=False)
            return
        held = session.game.held_faces(self.player) if kind == "keep" else ()
        steps = self.controls.steps(kind, self._answer, marked=session.marks, held=held)
        if not steps:
            return
        w = steps[0]
        self.sim.set(left=w["left"], centre=w["centre"], right=w["right"], locked=True)


# ---------------------------------------------------------------------------- keyboard hot-seat

class KeyboardDriver:
    """Hot-seat: the players share one keyboard, each on a simulated controller. The player
    the table reads now is at the keyboard: ←/→ choose a wheel, ↑/↓ turn it, Enter (Space)
    turns the lock on (again: off), Backspace turns it off. Every Last One Alive decision is
    made in the open, so the pad shows the wheels at all times; the one secret, the token
    drawn at setup, shows only while Tab is pressed (the others look away)."""

    WHEELS = ("left", "centre", "right")

    def __init__(self, sims: Mapping[str, Any], wheel_map: Any = None) -> None:
        self.sims = dict(sims)
        self.controls = Controls(wheel_map)
        self.wheel = 0
        self.values: dict[str, list[int]] = {p: [0, 0, 0] for p in sims}
        self.shown = False
        self._current: str | None = None

    def current(self, session: Session) -> str | None:
        from bitbox.table.session import at_the_keyboard
        return at_the_keyboard(self.sims, session)

    def update(self, session: Session, now: float) -> None:
        self._current = self.current(session)

    def key(self, session: Session, name: str) -> None:
        p = self._current
        if p is None:
            return
        sim = self.sims[p]
        v = self.values[p]
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

    def pad(self, session: Session, lang: Any) -> dict[str, Any] | None:
        p = self._current
        if p is None:
            return None
        pad: dict[str, Any] = {"player": p, "shown": True}
        v = self.values[p]
        pad["lines"] = [("▶ " if i == self.wheel else "  ") + f"{lang.t('wheel.' + w)}: {v[i]}"
                        for i, w in enumerate(self.WHEELS)]
        if session.awaiting(p) == "setup":          # the token drawn: private, shown only on Tab
            token = session.private_view(p).get("setup_token")
            pad["lines"].append(f"{lang.token(token)} (Tab)" if self.shown else lang.t("pad.hidden"))
        return pad


__all__ = ["BotDriver", "KeyboardDriver", "Session", "TableView", "apply_input", "decision_seed", "new_game",
           "public_view", "stack_bag", "started", "state_hash"]
