"""The referee session as a state machine: hub events in, engine inputs and a public table out."""
from __future__ import annotations

import pytest

from outspeed.rules import UNKNOWN, EventKind
from bitbox.table.referee import Pace, RefuseChoice, SetLights

from .helpers import WM, Table, new_game


def statuses(t: Table) -> dict[str, str]:
    return {p.player: p.status for p in t.s.table().players}


def start(t: Table) -> None:
    t.pump()
    assert t.stage != "waiting"


def test_waits_for_every_controller_then_starts():
    t = Table()
    assert t.stage == "waiting"
    assert t.s.table().prompt[0] == "prompt.waiting"
    t.pump()
    # turn 1: nobody holds a token, so the bonus phase passes by itself
    assert t.stage == "programming"
    assert t.s.inputs_applied == 1
    assert any(c.__class__.__name__ == "AssignSeat" for c in t.commands)


def test_programming_ready_refused_and_reveal():
    t = Table(seed=3)
    start(t)
    lit = list(t.game.current_paths)
    unlit = [p for p in ("left", "center", "right") if p not in lit]
    t.program("red", lit[0])
    assert statuses(t)["red"] == "ready"
    # an unreadable wheel (the rest stop) is refused privately: only blue's controller is told
    log_before = list(t.s.log)
    t.program("blue", None)
    assert statuses(t)["blue"] == "to_act"
    assert t.s.log == log_before
    assert RefuseChoice(1, 1500, 0b110) in t.commands
    assert t.hub.sims[1].refusals == 1 and not any(s.refusals for s in t.hub.sims if s.seat != 1)
    if unlit:
        t.program("green", unlit[0])
        assert statuses(t)["green"] == "to_act"
    # re-programming fixes it
    t.program("blue", lit[-1])
    t.program("green", lit[0])
    assert t.stage == "programming"            # yellow has not locked: nothing revealed
    assert t.s.table().view["revealed"] == {}
    t.program("yellow", lit[0])
    assert t.game.state.turn == 2
    revealed = [e for e in t.s.log if e.kind == EventKind.PROGRAMMED]
    assert {e.data["player"]: e.data["path"] for e in revealed} == {
        "red": lit[0], "blue": lit[-1], "green": lit[0], "yellow": lit[0]}


def test_a_lock_from_the_previous_phase_must_be_opened_first():
    t = Table(seed=3)
    start(t)
    lit = list(t.game.current_paths)
    for p in ("red", "blue", "green", "yellow"):
        t.program(p, lit[0])
    assert t.game.state.turn == 2
    # everyone is still locked from turn 1: their locks do not count for turn 2
    assert all(t.sims[p].locked for p in t.sims)
    assert t.stage in ("programming", "bonus")
    if t.stage == "programming":
        assert set(statuses(t).values()) == {"unlock"}
        t.unlock("red")
        assert statuses(t)["red"] == "to_act"


def test_lights_follow_the_phase():
    t = Table(seed=3)
    start(t)
    lit = t.game.current_paths
    lights = [c for c in t.commands if isinstance(c, SetLights) and c.seat == 0]
    assert (lights[-1].left, lights[-1].centre, lights[-1].right) == ("left" in lit, "center" in lit, "right" in lit)
    t.program("red", list(lit)[0])
    lights = [c for c in t.commands if isinstance(c, SetLights) and c.seat == 0]
    assert (lights[-1].left, lights[-1].centre, lights[-1].right) == (False, False, False)


def give(game, player, tokens):
    game.state.held[player] = list(tokens)


def test_bonus_zone_by_zone_from_the_front_and_only_that_a_token_is_played():
    game = new_game(seed=5)
    give(game, "red", ["nitro"])
    give(game, "blue", ["fuel_tank"])
    game.state.zone.update(red=6, blue=4, green=4, yellow=3)
    t = Table(game)
    t.pump()
    assert t.stage == "bonus"
    assert t.s.table().zone_prompt == 6
    assert t.s.table().prompt == ("prompt.bonus", {"zone": 6, "players": ["red"]})
    # blue, behind, is not asked yet: an early lock waits for blue's zone
    t.declare("blue", "fuel_tank")
    assert "blue" not in t.s.declared
    assert statuses(t)["blue"] == ""
    t.sims["red"].set(left=WM.position_for("left", "nitro"))      # turned but not locked: nothing
    t.pump()
    assert "red" not in t.s.declared
    t.sims["red"].set(locked=True)
    t.pump()
    # red declared; blue's zone came and the lock blue closed earlier (after the phase began)
    # counted at once: every token is revealed and applied, programming begins
    assert t.stage == "programming"
    played = [e for e in t.s.log if e.kind == EventKind.BONUS_PLAYED]
    assert {e.data["player"]: e.data["token"] for e in played} == {"red": "nitro", "blue": "fuel_tank"}
    declared = [e for e in t.s.log if e.kind.startswith("declared")]
    assert [e.data for e in declared] == [{"player": "red"}, {"player": "blue"}]


def test_an_illegal_bonus_play_is_refused_privately():
    game = new_game(seed=5)
    give(game, "red", ["electromagnet"])
    game.state.zone.update(red=6)          # not on the rearmost zone
    t = Table(game)
    t.pump()
    log_before = list(t.s.log)
    t.declare("red", "electromagnet")
    assert statuses(t)["red"] == "to_act"  # nothing public: red's controller alone is told
    assert t.s.log == log_before and t.hub.sims[0].refusals == 1
    t.declare("red", "nitro")              # not held (virtual tokens)
    assert statuses(t)["red"] == "to_act" and t.hub.sims[0].refusals == 2
    t.declare("red", None)
    assert [e.kind for e in t.s.log if e.kind.startswith(("declared", "must"))][-1] == "declared_none"
    assert t.stage == "programming" and t.game.state.held["red"] == ["electromagnet"]


def test_physical_tokens_the_left_wheel_names_the_type():
    game = new_game(seed=5, token_mode="physical")
    give(game, "red", [UNKNOWN])
    game.state.zone.update(red=6)
    t = Table(game)
    t.pump()
    t.declare("red", "nitro")
    assert t.game.state.zone["red"] == 7
    assert t.game.state.held["red"] == []


def test_bonus_draw_keep_with_the_left_wheel():
    game = new_game(seed=5)
    t = Table(game)
    start(t)
    # play until somebody draws
    for _ in range(40):
        if t.stage == "draw":
            break
        lit = t.game.current_paths
        bonus_paths = [k for k, p in lit.items() if any(e.kind == "bonus" for e in p.gain)]
        for p in list(t.game.state.active):
            if t.stage == "programming":
                path = bonus_paths[0] if bonus_paths and p == t.game.state.active[0] else t.game.legal_paths(p)[0]
                numbers = t.game.legal_numbers(p, path)
                t.program(p, path, numbers[0] if numbers else None)
            elif t.stage == "bonus" and p in t.pending_bonus():
                t.declare(p, None)
        if t.stage == "bonus":
            for p in list(t.game.state.active):
                if p in t.pending_bonus():
                    t.declare(p, None)
    assert t.stage == "draw"
    player = t.game.state.draw_queue[0]
    drawn = list(t.game.state.drawn)
    assert t.s.table().prompt == ("prompt.draw", {"player": player})
    other = next(tok for tok in ("nitro", "fuel_tank", "flamethrower", "force_field", "electromagnet", "ion_cannon")
                 if tok not in drawn)
    t.keep(player, other)
    assert statuses(t)[player] == "drawing"
    held_before = list(t.game.state.held[player])
    t.keep(player, drawn[1])
    assert sorted(t.game.state.held[player]) == sorted(held_before + [drawn[1]])


def test_lost_controller_pauses_and_resumes():
    t = Table(seed=3)
    start(t)
    lit = list(t.game.current_paths)
    t.program("red", lit[0])
    t.program("blue", lit[0])
    t.program("green", lit[0])
    t.sims["yellow"].unplug()
    t.pump()
    table = t.s.table()
    assert t.s.paused and table.banner == ("banner.paused", {"players": ["yellow"]})
    assert table.status_of("yellow").lost
    t.sims["yellow"].set(right=WM.position_for("right", lit[0]), locked=True)   # not heard: unplugged
    t.pump()
    assert t.s.inputs_applied == 1 and t.game.state.turn == 1
    t.sims["yellow"].replug()
    t.pump()
    assert not t.s.paused
    assert t.game.state.turn == 2                # revealed once the lost controller came back
    kinds = [e.kind for e in t.s.log]
    assert "lost" in kinds and "back" in kinds


def test_garbage_from_the_hub_changes_nothing():
    from bitbox.events import Rejected, WheelsChanged
    t = Table(seed=3)
    start(t)
    before = t.game.to_data()
    t.s.handle(WheelsChanged(42, 1, 3, 3, 3, True, 0.0))             # a seat that is not in the game
    t.s.handle(Rejected("fake://9", "protocol 9.0"))
    t.s.handle(object())
    t.s.handle(WheelsChanged(0, 1, 15, 15, 15, True, 0.0))          # positions that mean nothing
    t.pump()
    assert t.game.to_data() == before
    assert statuses(t)["red"] == "to_act" and t.hub.sims[0].refusals == 1


@pytest.mark.parametrize("players", [3, 6])
def test_a_full_game_with_bots_through_the_controllers(players):
    t = Table(players=players, seed=11, bots=("red", "blue", "green", "yellow", "purple", "orange")[:players],
              bot="random")
    t.run()
    g = t.game
    assert g.finished and t.s.finished
    assert t.s.table().prompt == ("prompt.finished", {})
    assert any(e.kind == EventKind.GAME_OVER for e in t.s.log)


def test_paced_showing_takes_time_and_rolls_dice():
    t = Table(seed=2, bots=("red", "blue", "green", "yellow"), pace=Pace())
    t.pump()
    stages = set()
    saw_rolling = False
    for _ in range(4000):
        t.pump(0.05, rounds=1)
        stages.add(t.stage)
        table = t.s.table()
        rolling = [d for d in table.dice if d.rolling]
        if rolling:
            saw_rolling = True
            # a roll is told in the log only once the die has landed
            last_turn = max(i for i, e in enumerate(t.s.log) if e.kind == EventKind.TURN)
            told = [e for e in t.s.log[last_turn:] if e.kind == EventKind.ROLL]
            assert len(told) == len(table.dice) - len(rolling)
        if t.game.state.turn >= 4:
            break
    assert "showing" in stages
    assert t.game.state.turn >= 4
    assert saw_rolling or not any(e.kind == EventKind.ROLL for e in t.s.log)
