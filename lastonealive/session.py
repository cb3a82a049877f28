"""Last One Alive at the console's table: what is the game's own. The referee is the
console's (:class:`bitbox.table.session.Session`, with :class:`lastonealive.controls.TableControls`
giving the game's stages; docs/last-one-alive.md "The controls, turn by turn"):

* ``first``: who starts. The first lock turned on by a person's controller (or the keyboard
  hot-seat) makes that player first; a table of bots only starts with the first seat.
* ``prompt``: one prompt at a time, the engine's (``setup``, ``before``, ``dice``...). Only
  the active player's controller is read; a refused answer changes nothing (the controller
  blinks, privately; the screen gives the reason: every decision is made in the open). A
  prompt with nothing to decide (``auto``) is answered by the referee. Multi-die answers (a
  flare's dice, a hero's dice) and the tokens discarded over the limit take one lock each.
* ``bag`` (physical tokens; the session's stage ``enter``): before an answer that draws from
  the bag is applied, whoever draws takes a token from the real bag and enters it with the
  left wheel.
* ``showing``: the events of an answer, step by step (dice tumbling, "+" re-rolls one after
  another), then the next prompt.

This module gives the game the table starts (:func:`new_game`: before the setup draws), the
bag a real bag's tokens are put on (:func:`stack_bag`; the journal's inputs are
:mod:`lastonealive.journaling`'s, applied by :func:`apply_input`), and the view the game's
display draws (:class:`TableView`, :func:`table_view`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from bitbox.display.model import PlayerStatus, ShellView
from bitbox.table.referee import fingerprint as state_hash

from .rules import APOCALYPSE_TOKENS, UNSTARTED, Event, Game, RulesError
from .rules.game import variant_problem


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
    """Apply one journaled input (``start``, ``answer`` or the protocol's ``answers``, with
    the tokens entered from a real bag) to the rules' game or the protocol's, in place: the
    journal's rules do (:data:`lastonealive.journaling.RULES`, through ``Game.apply``)."""
    from .journaling import RULES
    return RULES.apply_input(game, kind, data)


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


def table_view(session: Any, now: float) -> TableView:
    """Everything the Last One Alive screen may draw of the console's session
    (:class:`bitbox.table.session.Session` with :class:`lastonealive.controls.TableControls`):
    public facts only (never a wheel, the bag's order, a token entered from a real bag or the
    object side of a face-down token)."""
    g = session.game.engine
    view = session.shown_view
    stage = "bag" if session.stage == "enter" else session.stage
    asking = session.entering if stage == "bag" else (g.state.active if stage == "prompt" else None)
    statuses = []
    for s in session.seats:
        p, c = s.player, session.ctl[s.player]
        pv: Mapping[str, Any] = next((x for x in view.get("players", ()) if x["player"] == p), {})
        active = stage in ("first", "prompt", "bag") and session._is_active(p)
        status = ""
        if g.finished:
            status = "winner" if p in g.state.winners else ("eliminated" if not pv.get("in_game", True) else "")
        elif not pv.get("in_game", True):
            status = "eliminated"
        elif stage == "waiting":
            status = "" if c.connected else "waiting"
        elif active:
            status = "thinking" if p in session.thinking else ("unlock" if c.stale else "to_act")
        statuses.append(PlayerStatus(player=p, kind=s.kind, connected=c.connected, lost=c.lost,
                                     locked=c.locked if active else False, status=status))
    kind: str | None = None
    info: dict[str, Any] = {}
    prompt: tuple[str, dict] | None
    if stage == "prompt" and started(g):
        pr = g.prompt()
        kind = pr.kind if pr is not None else None
        if pr is not None:
            info = {k: v for k, v in pr.info.items() if k in ("results", "bangs", "forced", "needed")}
    if stage == "waiting":
        prompt = ("prompt.waiting", {"players": [s.player for s in session.seats if not session.ctl[s.player].connected]})
    elif stage == "first":
        prompt, kind = ("prompt.first", {}), "first"
    elif stage == "bag":
        prompt, kind = ("prompt.bag", {"player": session.entering}), "bag"
    elif stage == "prompt":
        prompt = (f"prompt.{kind}", {"player": g.state.active, **info})
    elif stage == "finished":
        prompt = ("prompt.finished", {"players": list(g.state.winners)})
    else:                                       # showing; none once every step is shown (a turn's frame)
        prompt = ("prompt.showing", {}) if session.step is not None else None
    banner = None
    if session.paused:
        banner = ("banner.paused", {"players": [s.player for s in session.seats
                                                if session.ctl[s.player].lost and session._is_active(s.player)]})
    marks: tuple[str, ...] = tuple(session.marks[1]) if session.marks and stage != "bag" else ()
    step = session.step
    rolling = tuple(step.facts.get("rolling", ())) if step is not None and now < session.step_until else ()
    tick = int((now - session.step_started) * 12) if rolling else 0
    chain: list[str] = []
    medkit: str | None = None
    for st in session.steps_shown:             # this turn's "+" re-rolls and medkit roll, as shown so far
        if "chain_face" in st.facts:
            chain.append(st.facts["chain_face"])
        for e in st.told:
            if e.kind == "turn":
                chain, medkit = [], None
            elif e.kind == "medkit":
                medkit = e.data.get("face")
    return TableView(view=view, players=tuple(statuses), stage=stage, prompt=prompt, banner=banner,
                     log=tuple(session.log[-40:]), asking=asking, kind=kind, info=info, refusal=session.refusal,
                     marks=marks, rolling=rolling, tick=tick, chain=tuple(chain), medkit=medkit)


__all__ = ["TableView", "apply_input", "new_game", "public_view", "stack_bag", "started", "state_hash",
           "table_view"]
