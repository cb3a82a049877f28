"""A Hint means valid stops, only (firmware_protocol/SPEC.md 6.13): over random games of both
games, whenever the acting controller holds a hint, each hinted stop is part of an answer the
referee accepts now, and a lock with a hinted wheel outside its mask is refused, whatever the
other wheels. Each lock is tried on a copy of the real referee session (unlock, then lock), so
the game itself goes on untouched; what is checked is the hint the controller received.

What a controller must show that is not a choice (Last One Alive's setup token) travels as a
Show, never as a Hint."""
from __future__ import annotations

import copy
import random
from typing import Any, Callable

from bitbox.events import WheelsChanged
from bitbox.table.app import apply_command
from bitbox.table.referee import Pace
from bitbox.table.seating import SeatPlan
from bitbox.testing import FakeHub
from bitbox.bots import make_bot
from bitbox.table.session import BotDriver
from bitbox.table.session import Session as ConsoleSession
from lastonealive.cartridge import CARTRIDGE, LastOneAliveGame
from lastonealive.content import load_content
from lastonealive.controls import WHEELS, Controls, TableControls
from lastonealive.session import new_game

from .helpers import Table as OutspeedTable

STOPS = range(16)
LOA_CONTENT = load_content()


def accepted(session: Any, player: str, wheels: tuple[int, int, int]) -> bool:
    """Whether the referee accepts ``wheels`` locked by ``player`` now (tried on a copy)."""
    s = copy.deepcopy(session, {id(session.game): session._trial(), id(session.log): [],
                                id(session.milestones): []})
    plan = s.by_player[player]
    cid = plan.controller_id or 0
    s.handle(WheelsChanged(plan.seat, cid, *wheels, False, 0.0))
    before = (s.inputs_applied, getattr(s, "marks", None), s.prompt_id)
    s.handle(WheelsChanged(plan.seat, cid, *wheels, True, 0.0))
    if player in s.refused:
        return False
    moved = (s.inputs_applied, getattr(s, "marks", None), s.prompt_id) != before
    return moved or s.ctl[player].locked and not s.ctl[player].stale


def check_hint(session: Any, player: str, hint: tuple[int, int, int],
               candidates: list[tuple[int, int, int]], rng: random.Random) -> int:
    """Check one hint against the referee; returns the number of locks tried."""
    tried = 0
    bases = candidates + [(rng.randrange(16), rng.randrange(16), rng.randrange(16)) for _ in range(2)]
    for i, mask in enumerate(hint):
        if not mask:
            continue
        for stop in STOPS:
            settings = {tuple(stop if j == i else b[j] for j in range(3)) for b in bases}
            within = [w for w in settings if all(not hint[j] or hint[j] >> w[j] & 1 for j in range(3))]
            tried += len(settings)
            if mask >> stop & 1:
                assert any(accepted(session, player, w) for w in within), \
                    f"{player}: hinted stop {stop} of wheel {i} (hint {hint}) is refused with {sorted(within)}"
            else:
                for w in settings:
                    assert not accepted(session, player, w), \
                        f"{player}: stop {stop} of wheel {i}, outside the hint {hint}, is accepted ({w})"
    return tried


def drive(step: Callable[[], None], finished: Callable[[], bool], probe: Callable[[], None], limit: int) -> None:
    for _ in range(limit):
        if finished():
            return
        step()
        probe()
    raise AssertionError("the game did not finish")


def _outspeed_game(seed: int, seen: dict[str, int]) -> int:
    rng = random.Random(seed)
    t = OutspeedTable(players=4, seed=seed, bots=("red", "blue", "green", "yellow"), first_game=seed == 3)
    names = list(t.game.state.players)
    done: set = set()
    tried = 0

    def probe() -> None:
        nonlocal tried
        for p in names:
            hint = t.sims[p].hint
            prompt = t.s.awaiting(p)
            kind = prompt.kind if prompt is not None else None
            key = (t.s.prompt_id, p, hint)
            if not any(hint) or key in done or kind is None:
                continue
            done.add(key)
            seen[kind] = seen.get(kind, 0) + 1
            if seen[kind] <= 40:                         # enough of each kind per run
                tried += check_hint(t.s, p, hint, [(0, 0, 0)], rng)

    drive(lambda: t.pump(rounds=1), lambda: t.s.finished, probe, 20000)
    return tried


def test_every_outspeed_hint_is_what_the_referee_accepts():
    seen: dict[str, int] = {}
    tried = sum(_outspeed_game(seed, seen) for seed in (3, 11))
    assert set(seen) == {"bonus", "keep"}, seen              # every prompt kind Outspeed hints
    assert tried > 300


def asked(s: ConsoleSession, player: str) -> str | None:
    """The kind of the prompt ``player`` is asked now (None: nothing)."""
    prompt = s.awaiting(player)
    return prompt.kind if prompt is not None else None


def _loa_candidates(s: ConsoleSession, controls: Controls, player: str, rng: random.Random) -> list[tuple[int, int, int]]:
    """Wheel settings of answers the prompt may take: each legal option's first lock."""
    kind = asked(s, player) or ""
    prompt = s.awaiting(player)
    out = [(0, 0, 0)]
    options = list(prompt.options) if prompt is not None else []
    rng.shuffle(options)
    for action in options[:40]:
        try:
            steps = controls.steps(kind, action, marked=s.marks[1] if s.marks else ())
        except (KeyError, ValueError, TypeError):
            continue
        if steps:
            w = steps[0]
            out.append((w["left"], w["centre"], w["right"]))
    return out


class LoaTable:
    """A Last One Alive session over a fake hub, every seat a bot driving its simulated controller."""

    def __init__(self, seed: int, tokens: str, kind: str = "bot") -> None:
        names = ["red", "blue", "green", "yellow"]
        self.hub = FakeHub()
        self.sims = self.hub.add_sim(len(names))
        game = new_game(names, seed=seed, **LOA_CONTENT.game_options())
        plans = [SeatPlan(p, i, kind, self.sims[i].controller_id) for i, p in enumerate(names)]
        self.s = ConsoleSession(CARTRIDGE, LastOneAliveGame(game), plans, controls=TableControls(tokens=tokens),
                                pace=Pace.instant())
        self.bots = [BotDriver(p, self.sims[i], make_bot(CARTRIDGE, "random"), TableControls(), seed=seed)
                     for i, p in enumerate(names) if kind == "bot"]
        self.now = 0.0

    def step(self, n: int = 1) -> None:
        for _ in range(n):
            self.now += 0.3
            for e in self.hub.poll():
                self.s.handle(e)
            self.s.update(self.now)
            for b in self.bots:
                b.update(self.s, self.now)
            for c in self.s.take_commands():
                apply_command(self.hub, c)

    def answer(self, player: str, left: int) -> None:
        sim = self.sims[list(self.s.game.players).index(player)]
        sim.set(left, 0, 0, locked=True)
        self.step(3)
        sim.set(locked=False)
        self.step(3)


def _loa_game(seed: int, tokens: str, seen: dict[str, int], shows: list, controls: Controls) -> int:
    rng = random.Random(seed)
    t = LoaTable(seed, tokens)
    names = list(t.s.game.players)
    done: set = set()
    tried = 0

    def probe() -> None:
        nonlocal tried
        for i, p in enumerate(names):
            sim = t.sims[i]
            kind = asked(t.s, p)
            if kind == "setup":
                shows.append((p, sim.shown[0]))
                token = t.s.game.engine.state.setup_token
                assert sim.shown == (1 << controls.position[token], 0, 0)
                assert all(o.shown == (0, 0, 0) for o in t.sims if o is not sim)
            hint = sim.hint
            key = (t.s.prompt_id, p, hint, t.s.marks)
            if not any(hint) or key in done or kind is None:
                continue
            done.add(key)
            seen[kind] = seen.get(kind, 0) + 1
            if seen[kind] > 40:                          # enough of each kind per run
                continue
            assert WHEELS[kind][0] is not None
            tried += check_hint(t.s, p, hint, _loa_candidates(t.s, controls, p, rng), rng)

    def step() -> None:
        if t.s.stage == "enter":                       # a real bag: enter what comes out of it
            drawer = t.s.entering
            assert drawer is not None
            t.answer(drawer, controls.position[t.s.game.engine.state.bag[len(t.s.entered)]])
        t.step(1)

    drive(step, lambda: t.s.finished, probe, 6000)
    return tried


def test_every_last_one_alive_hint_is_what_the_referee_accepts_and_the_setup_token_is_a_show():
    seen: dict[str, int] = {}
    shows: list[tuple[str, int]] = []
    tried = 0
    controls = Controls()
    for seed, tokens in ((5, "virtual"), (9, "physical"), (21, "virtual"), (2, "virtual"), (7, "physical"),
                         (13, "virtual")):
        tried += _loa_game(seed, tokens, seen, shows, controls)
    assert {"setup", "before", "after"} <= set(seen), seen
    assert shows and all(code for _, code in shows)
    assert tried > 1000


def test_the_refusal_cycle_in_order():
    """SPEC.md 8.6 through a real referee (Outspeed's bonus prompt): a refused lock gets a
    ChoiceRefused and leaves the hint as it was; the lock opens, the next lock counts; an
    accepted answer clears the hint."""
    from outspeed.rules import TOKENS

    from .helpers import WM
    from .helpers import new_game as outspeed_game
    game = outspeed_game(seed=5, first_game=True)
    game.state.held.update(red=["nitro", "fuel_tank"])
    t = OutspeedTable(game)
    t.pump()
    sim, seat = t.sims["red"], t.s.by_player["red"].seat
    hint = t.hub.sims[seat].hint
    assert t.s.awaiting("red").kind == "bonus" and any(hint)
    wrong = next(tok for tok in TOKENS if tok not in ("nitro", "fuel_tank"))
    assert not hint[0] >> WM.position_for("left", wrong) & 1
    mark = len(t.hub.calls)
    sim.set(left=WM.position_for("left", wrong), locked=True)           # 2. the lock: refused
    t.pump()
    private = [c for c in t.hub.calls[mark:] if c[0] in ("refuse_choice", "hint", "show")]
    assert private == [("refuse_choice", seat, 1500, 0b001)]             # 3. ChoiceRefused; hint unchanged
    assert t.hub.sims[seat].hint == hint and "red" in t.s.refused
    sim.set(locked=False)                                                # the lock opens ...
    t.pump()
    assert "red" not in t.s.refused and t.hub.sims[seat].hint == hint
    sim.set(left=WM.position_for("left", "nitro"), locked=True)          # ... and the next lock counts
    t.pump()
    assert getattr(t.s.awaiting("red"), "kind", None) != "bonus" and t.hub.sims[seat].refusals == 1
    assert t.hub.sims[seat].hint == (0, 0, 0)                            # cleared once answered


def test_the_refusal_cycle_a_locked_controller_is_not_a_new_try_until_it_opens():
    """Last One Alive's setup prompt (SPEC.md 8.6): after a refusal, turning the wheels with the
    lock still closed is no new try; once the lock opens, the next lock is read; the answer
    accepted, this controller's Hint and Show are cleared."""
    t = LoaTable(4, "virtual", kind="controller")
    t.step(2)
    t.answer("red", 0)                                                   # red starts: red draws first
    active = t.s.game.engine.state.active
    sim = t.sims[list(t.s.game.players).index(active)]
    assert asked(t.s, active) == "setup" and sim.hint == (0b110, 0, 0) and any(sim.shown)
    sim.set(locked=False)
    t.step(2)
    sim.set(5, 0, 0, locked=True)                                        # not a side: refused
    t.step(2)
    assert sim.refusals == 1 and sim.hint == (0b110, 0, 0) and asked(t.s, active) == "setup"
    sim.set(1, 0, 0, locked=True)                                        # still locked: no new try
    t.step(2)
    assert sim.refusals == 1 and asked(t.s, active) == "setup"
    sim.set(locked=False)
    t.step(2)
    sim.set(1, 0, 0, locked=True)                                        # the next lock counts
    t.step(2)
    assert asked(t.s, active) != "setup" or t.s.game.engine.state.active != active
    assert sim.hint == (0, 0, 0) and sim.shown == (0, 0, 0) and sim.refusals == 1


class Trusting:
    """A controller written from SPEC.md alone, seen from outside: on a prompt that reads only
    the hinted wheel (``single``), it first tries one stop outside its Hint (which must be
    refused), then a random stop inside it (which must be accepted); anything else it leaves
    to the player (``player``, a bot's driver on the same simulated controller)."""

    def __init__(self, player: str, sim: Any, hand: Any, single: set[str], rng: random.Random) -> None:
        self.player, self.sim, self.hand, self.single, self.rng = player, sim, hand, single, rng
        self.accepted = self.refused = 0
        self._done: set = set()

    def update(self, session: Any, now: float, pump: Callable[[], None]) -> None:
        prompt = session.awaiting(self.player)
        kind = getattr(prompt, "kind", prompt)             # the console's session asks a Prompt
        hint = self.sim.hint
        key = (session.prompt_id, session.inputs_applied)
        if kind not in self.single or not hint[0] or any(hint[1:]) or key in self._done:
            self.hand.update(session, now)
            return
        self._done.add(key)
        outside = [q for q in range(16) if not hint[0] >> q & 1]
        before = self.sim.refusals
        if outside:
            self.sim.set(locked=False)
            pump()
            self.sim.set(left=self.rng.choice(outside), locked=True)
            pump()
            assert self.sim.refusals == before + 1, f"{self.player}: an unhinted stop of a {kind} prompt was accepted"
            self.refused += 1
        self.sim.set(locked=False)
        pump()
        self.sim.set(left=self.rng.choice([q for q in range(16) if hint[0] >> q & 1]), locked=True)
        pump()
        assert self.sim.refusals == before + bool(outside), f"{self.player}: a hinted stop of a {kind} prompt was refused"
        self.accepted += 1


def test_a_controller_that_trusts_every_hint_plays_outspeed_and_last_one_alive_to_the_end():
    """The issue's check from outside: both games played to the end with a controller that
    trusts its Hint wherever the prompt reads only the hinted wheel (Outspeed's token choices,
    Last One Alive's setup): every hinted lock accepted, every unhinted one refused."""
    rng = random.Random(7)
    t = OutspeedTable(players=4, seed=8, bots=("red", "blue", "green", "yellow"))
    trusting = [Trusting(d.player, t.sims[d.player], d, {"bonus", "keep"}, rng) for d in t.drivers]
    t.drivers = []

    def pump() -> None:
        t.pump(rounds=2)

    for _ in range(20000):
        if t.s.finished:
            break
        t.pump(rounds=1)
        for d in trusting:
            d.update(t.s, t.now, pump)
    assert t.s.finished
    assert sum(d.accepted for d in trusting) >= 5 and sum(d.refused for d in trusting) >= 5

    loa = LoaTable(3, "virtual")
    players = list(loa.s.game.players)
    trusting = [Trusting(b.player, loa.sims[players.index(b.player)], b, {"setup"}, rng) for b in loa.bots]
    loa.bots = []
    for _ in range(6000):
        if loa.s.finished:
            break
        loa.step(1)
        for d in trusting:
            d.update(loa.s, loa.now, lambda: loa.step(2))
    assert loa.s.finished
    assert sum(d.accepted for d in trusting) == 4 and sum(d.refused for d in trusting) == 4   # one setup each
