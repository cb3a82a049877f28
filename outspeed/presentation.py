"""How Outspeed's table shows a game (the console's :class:`bitbox.table.session.Presentation`).

* a new turn is announced when its bonus phase opens (the engine's ``turn`` event is not
  logged: the line names the tile by its number);
* a resolution is shown step by step: the events of one kind together (each cost, each gain,
  each die), a revealed tile, a new turn and the end each a step of their own, held as the
  table's pace says (a die tumbles for ``Pace.roll`` and its value is told once it has
  landed); each step's frame is the public view with its events' public values written
  (:func:`outspeed.session.animate.apply_event`), and after a revealed tile or the last step
  the engine's own view;
* the screen is Outspeed's :class:`~outspeed.display.model.TableView`: the statuses in its
  words (who declared *that* they play a token, who draws), the zone asked, the dice of the
  turn, the tokens revealed, the ships that moved.

It reads public things only: views, events, the table's public statuses.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping, Sequence

from bitbox.display.model import DieShown, LogEntry, PlayerStatus, ShellView
from bitbox.games.protocol import Game, Prompt
from bitbox.table.referee import Pace
from bitbox.table.session import Presentation, Step

from .display.model import TableView
from .rules import EventKind
from .session.animate import apply_event
from .session.log import log_data

#: the table's stage for each prompt kind (the display's and the words' names)
STAGES = {"bonus": "bonus", "program": "programming", "keep": "draw"}
_SINGLE = (EventKind.TURN, EventKind.TILE_REVEALED, EventKind.GAME_OVER)


class OutspeedPresentation(Presentation):
    """One session's presentation: it keeps the dice and the tokens revealed of the turn."""

    def __init__(self) -> None:
        self.dice: list[DieShown] = []
        self.played: dict[str, str] = {}
        self.cleared = True                 # a new turn: nothing of the last resolution is shown

    def opening(self, game: Game, prompts: Sequence[Prompt]) -> Sequence[LogEntry]:
        s = game.engine.state               # type: ignore[attr-defined]
        if s.phase != "bonus":
            return ()
        self.dice, self.played, self.cleared = [], {}, True
        tile = game.public_view().get("tile") or {}
        assert isinstance(tile, Mapping)
        return (LogEntry("turn", {"turn": s.turn, "face": s.face, "number": tile.get("number"),
                                  "finish": tile.get("finish")}),)

    def steps(self, before: Mapping[str, Any], events: Sequence[Any], after: Mapping[str, Any], game: Game,
              pace: Pace, hold: float) -> Sequence[Step]:
        mode = game.engine.state.token_mode          # type: ignore[attr-defined]
        durations = {EventKind.ROLL: pace.roll, EventKind.PROGRAMMED: pace.reveal, EventKind.BONUS_PLAYED: pace.reveal,
                     EventKind.TILE_REVEALED: pace.turn, EventKind.TURN: 0.0, EventKind.BONUS_NONE: 0.0,
                     EventKind.GAME_OVER: pace.turn}
        groups: list[list[Any]] = []
        for e in events:
            if not groups or e.kind != groups[-1][-1].kind or e.kind in _SINGLE:
                groups.append([])
            groups[-1].append(e)
        self.cleared = False
        view: dict[str, Any] = dict(before)
        last: Mapping[str, Any] | None = None          # the data of the roll told just before
        out: list[Step] = []
        for group in [*groups, []]:                    # an empty last step: the engine's view
            seconds = durations.get(group[-1].kind, pace.step) if group else 0.0
            rolling: list[int] = []
            moving: list[str] = []
            told: list[LogEntry] = []
            landed: list[LogEntry] = []
            for e in group:
                if e.kind == EventKind.TURN:
                    self.dice, rolling = [], []
                elif e.kind == EventKind.ROLL:
                    rolling.append(len(self.dice))
                    self.dice.append(DieShown(e.data["player"], e.data["die"], int(e.data["value"])))
                elif e.kind == EventKind.BONUS_PLAYED:
                    self.played[e.data["player"]] = e.data["token"]
                elif e.kind == EventKind.MOVED:
                    moving.append(e.data["player"])
                view = apply_event(view, e)
                if e.kind == EventKind.TURN:           # announced when its bonus phase opens
                    continue
                data = log_data(e, view, after, mode, last if e.kind == EventKind.ROLL else None)
                last = data if e.kind == EventKind.ROLL else None
                (landed if e.kind == EventKind.ROLL and seconds > 0 else told).append(LogEntry(e.kind, data))
            if not group or any(e.kind == EventKind.TILE_REVEALED for e in group):
                view = dict(after)
            out.append(Step(tuple(told), seconds, view, tuple(landed),
                            {"dice": tuple(self.dice), "rolling": tuple(rolling), "played": dict(self.played),
                             "moving": tuple(moving)}))
        return out

    def table_view(self, base: ShellView, facts: Mapping[str, Any], kinds: Sequence[str],
                   elapsed: float | None) -> ShellView:
        facts = {} if self.cleared else facts
        view = base.view.get("game", {})
        stage = base.stage
        if stage == "prompt":
            stage = STAGES.get(kinds[0], kinds[0]) if kinds else "showing"
        active = {p["player"]: p.get("active", True) for p in view.get("players", ())}
        played = facts.get("played", {})
        statuses = tuple(self._status(st, stage, active.get(st.player, True), played.get(st.player))
                         for st in base.players)
        asking = list(base.prompt[1].get("players", ())) if base.prompt else []
        zone = None
        prompt: tuple[str, Mapping[str, Any]] | None = None
        if stage == "waiting":
            prompt = ("prompt.waiting", {"players": [st.player for st in base.players if not st.connected]})
        elif stage == "bonus":
            if asking:
                zone = next((p.get("zone") for p in view.get("players", ()) if p["player"] == asking[0]), None)
                prompt = ("prompt.bonus", {"zone": zone, "players": asking})
        elif stage == "programming":
            prompt = ("prompt.programming", {})
        elif stage == "draw":
            prompt = ("prompt.draw", {"player": asking[0] if asking else view.get("drawing")})
        elif stage in ("showing", "finished"):
            prompt = (f"prompt.{stage}", {})
        dice = list(facts.get("dice", ()))
        if elapsed is not None:                        # the dice of this step tumble until they land
            for i in facts.get("rolling", ()):
                k = int(elapsed * 14) + i
                d = dice[i]
                dice[i] = replace(d, rolling=True, face=-(1 + k % 3) if d.die == "yellow" else 1 + k % 3)
        return TableView(view=view, players=statuses, stage=stage, prompt=prompt, banner=base.banner, dice=tuple(dice),
                         log=base.log, pad=base.pad, zone_prompt=zone, moving=tuple(facts.get("moving", ())))

    @staticmethod
    def _status(st: PlayerStatus, stage: str, active: bool, played: str | None) -> PlayerStatus:
        status = st.status
        if not active:
            status = "eliminated"
        elif stage == "waiting":
            status = "" if st.connected else "waiting"
        elif status == "refused":                      # a refusal is private: the table shows a player to act
            status = "to_act"
        if stage == "draw" and status == "to_act":
            status = "drawing"
        return replace(st, status=status, played=played)


__all__ = ["OutspeedPresentation", "STAGES"]
