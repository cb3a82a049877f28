"""Engine unit tests: the prompt-by-prompt API, events, views, and the choices the engine
makes where the rules digest leaves a case open (LA-n, lastonealive/rules/game.py)."""
from __future__ import annotations

import json

import pytest
import yaml

from lastonealive.rules import Action, Game, Refused, RulesError
from lastonealive.rules.game import PASS, STOP_GIVE, STOP_SHOOT
from lastonealive.scenario import parse_scenario


def position(text: str) -> Game:
    return parse_scenario(yaml.safe_load(text)).game


def force(game: Game, roll: dict, rerolls: dict | None = None) -> None:
    game.state.forced_roll = roll
    game.state.forced = rerolls or {}


def test_a_plain_turn_prompt_by_prompt():
    g = position("players: [red, blue, green]\nbag: [axe]\n")
    kinds = []
    pr = g.prompt()
    assert (pr.player, pr.kind, pr.auto) == ("red", "before", True)      # no token: nothing to decide
    g.apply(pr.default)
    pr = g.prompt()
    assert pr.kind == "dice" and not pr.auto and pr.info["forced"] == 1 and pr.info["needed"] == 4
    assert Action("dice", None, (0, 2, 1, 1)) in pr.legal and Action("dice", None, (0, 4, 0, 0)) not in pr.legal
    force(g, {"zombie": ["zombie2"], "shoot": ["bang1plus", "blank"], "object": ["object"], "barricade": ["ambush"]},
          {"shoot": ["bang2"]})
    events = g.apply(Action("dice", None, (0, 2, 1, 1)))
    assert [e.text() for e in events][-1] == "red rolls 2 zombies, an ambush, 1 bang (1 +), an object, a blank"
    while not g.finished and g.state.active == "red":
        pr = g.prompt()
        kinds.append((pr.kind, pr.auto))
        g.apply(pr.default if pr.auto or pr.kind != "shoot" else Action("shoot", None, ("b1", 1)))
    assert kinds == [("after", True), ("draw", False), ("before_shoot", True), ("shoot", False), ("shoot", True),
                     ("before_barricades", True), ("give", True), ("draw_barricades", True)]
    s = g.state
    assert [d.face for d in s.front["blue"]] == ["zombie2"] and s.front["red"] == []
    assert s.active == "blue" and s.held["red"] == []                    # the draw was declined (draw 0)


def test_refused_decisions_change_nothing_and_name_the_code():
    g = position("players: [red, blue]\ntokens: {red: [axe]}\nfront: {red: [zombie1]}\n")
    before = json.dumps(g.to_data())
    for action, code in [(Action("use", "pistol"), "not_held"), (Action("use", "axe", "b1"), "wrong_moment"),
                         (Action("use", "barricade", "f1"), "not_held")]:
        assert g.refusal(action) == code
        with pytest.raises(Refused) as r:
            g.apply(action)
        assert r.value.codes == {"red": code}
        assert json.dumps(g.to_data()) == before
    with pytest.raises(RulesError):
        g.apply(Action("use", "laser"))
    with pytest.raises(RulesError):
        g.apply(Action("dice", None, (0, 4, 0, 0)))                     # not the prompt's kind


def test_la1_barricade_on_an_ambush_die_is_ambush_die_even_with_no_zombie_in_front():
    g = position("players: [red, blue]\ntokens: {red: [barricade]}\n")
    g.apply(PASS)
    force(g, {"zombie": ["ambush"], "shoot": ["blank"] * 3, "object": ["object"]})
    g.apply(Action("dice", None, (0, 3, 1, 0)))
    g.apply(PASS)
    assert g.refusal(Action("use", "barricade", "z1")) is not None      # still in the tray: not in front
    g.apply(Action("draw", None, 0))
    assert g.state.phase == "before_shoot"
    assert g.refusal(Action("use", "barricade", "z1")) == "ambush_die"
    assert g.refusal(Action("use", "barricade", "f1")) == "no_target"


def test_la2_radios_are_checked_against_the_pool_at_the_roll_and_can_be_taken_back():
    g = position("players: [red, blue]\ntokens: {red: [axe, radio, radio]}\n")
    g.apply(Action("use", "radio", ("shoot", "shoot")))
    g.apply(Action("use", "radio", ("shoot", "shoot")))               # 4 shoot dice asked: accepted now
    assert [h[0] for h in g.state.held["red"]] == ["axe"]
    g.apply(PASS)
    assert g.state.phase == "dice" and g.radios_short()
    assert g.refusal(Action("dice", None, (0, 0, 2, 2))) == "not_in_pool"   # every choice: checked when rolled
    assert g.refusal(Action("dice", None, (0, 0, 1, 2))) == "dice_count"    # the count is checked first
    assert list(g.legal()) == [Action("undo")]
    events = g.apply(Action("undo"))                                    # the console's way out (LA-2)
    assert events[0].kind == "radios_back" and g.state.phase == "before"
    assert [h[0] for h in g.state.held["red"]] == ["axe", "radio", "radio"] and g.state.removed == []
    g.apply(Action("use", "radio", ("shoot", "zombie")))
    g.apply(PASS)
    assert not g.radios_short() and g.prompt().info["available"]["shoot"] == 2


def test_la3_survivors_end_mid_turn_leaves_the_tray_alone():
    g = position("players: [red, blue]\nvariants: [survivors]\nlevel: 3\nbag: [apocalypse]\n")
    g.apply(PASS)
    force(g, {"zombie": ["blank", "blank", "blank"], "object": ["object"], "shoot": ["bang1"] * 3})
    g.apply(Action("dice", None, (0, 3, 1, 0)))
    g.apply(PASS)
    events = g.apply(Action("draw", None, 1))
    assert g.finished and events[-1].kind == "game_over"
    s = g.state
    assert len(s.tray) == 7 and s.pool == {"zombie": 7, "shoot": 0, "object": 2, "barricade": 3}
    assert s.scores == {"red": 6, "blue": 6} and s.winners == ["red", "blue"]


def test_la5_a_player_about_to_be_overrun_still_chooses_what_to_keep():
    g = position("players: [red, blue, green]\ntokens: {red: [axe, pistol, flare]}\nbag: [medkit, radio]\nfront: {red: [zombie2]}\n")
    g.apply(PASS)
    force(g, {"zombie": ["blank"], "object": ["object", "object", "object"], "barricade": ["barricade"]})
    g.apply(Action("dice", None, (0, 0, 3, 1)))
    g.apply(PASS)
    g.apply(Action("draw", None, 3))                                    # only two tokens in the bag
    for a in (PASS, STOP_SHOOT, PASS):
        g.apply(a)
    assert g.state.phase == "give"
    force(g, {}, {"shoot": ["blank"]})                                  # the medkit drawn fails (L-19)
    g.apply(STOP_GIVE)                                                  # the barricade result is not used
    assert g.state.phase == "draw_barricades"
    assert g.refusal(Action("draw_barricades", None, 1)) == "zombies_in_front"
    g.apply(Action("draw_barricades", None, 0))
    assert g.state.phase == "keep"                                      # L-14 (c) comes before (e)
    assert g.refusal(Action("keep", None, ("axe", "pistol", "medkit"))) == "not_held"
    assert g.refusal(Action("keep", None, ("axe", "pistol"))) == "wrong_count"
    events = g.apply(Action("keep", None, ("axe", "flare", "radio")))
    assert [e.kind for e in events] == ["discarded", "overrun", "eliminated", "turn"]
    assert g.state.eliminated == ["red"] and g.state.active == "blue"


def test_la7_a_reroll_in_the_window_after_is_assigned_at_step_3():
    g = position("players: [red, blue]\ntokens: {red: [pistol, hero]}\nfaces: {shoot: [bang1, ambush]}\n")
    g.apply(PASS)
    force(g, {"zombie": ["ambush"], "shoot": ["bang1"] * 3, "object": ["object"]}, {"shoot": ["ambush", "ambush"]})
    g.apply(Action("dice", None, (0, 3, 1, 0)))
    g.apply(Action("use", "pistol", "s2"))
    assert g.state.front["red"] == []                                   # nothing applied in the window after
    g.apply(Action("use", "hero", ("s1",)))
    g.apply(PASS)
    assert [d.id for d in g.state.front["red"]] == ["z1", "s1", "s2"]   # die order (L-7)


def test_hero_sets_and_flare_combinations_are_families():
    g = position("players: [red, blue]\ntokens: {red: [hero, flare]}\nfront: {red: [zombie1, zombie2, zombie1]}\n")
    legal = g.legal()
    assert Action("use", "flare", ("f3", "f1")) in legal
    assert Action("use", "flare", ("f1",)) not in legal
    assert g.refusal(Action("use", "flare", ("f1", "f1"))) == "wrong_count"
    assert g.refusal(Action("use", "flare", ("f1", "f7"))) == "no_die"
    assert g.refusal(Action("use", "hero", ("z1",))) == "wrong_moment"
    assert len([a for a in legal if a.token == "flare"]) == 3
    g.apply(PASS)
    force(g, {"zombie": ["blank"], "shoot": ["bang1"] * 3, "object": ["object"]}, {"shoot": ["bang2", "bang2"]})
    g.apply(Action("dice", None, (0, 3, 1, 0)))
    legal = g.legal()
    assert len([a for a in legal if a.token == "hero"]) == 2 ** 5 - 1
    assert g.refusal(Action("use", "hero", ())) == "wrong_count"
    assert g.refusal(Action("use", "hero", ("s1", "s1"))) == "wrong_count"
    assert g.refusal(Action("use", "hero", ("f1",))) == "no_die"
    g.apply(Action("use", "hero", ("s3", "s1")))                         # forced faces in the order listed
    assert [(d.id, d.face) for d in g.state.tray if d.type == "shoot"] == [("s1", "bang2"), ("s2", "bang1"), ("s3", "bang2")]


def test_setup_is_prompted_and_the_drawn_token_is_private():
    g = Game.new(["red", "blue"], seed=5, first="blue")
    s = g.state
    while s.phase == "setup":
        pr = g.prompt()
        token = s.setup_token
        assert g.private_view(pr.player)["setup_token"] == token
        assert "setup_token" not in json.dumps(g.public_view()) or g.public_view().get("setup_token") is None
        other = [p for p in s.players if p != pr.player][0]
        assert g.private_view(other)["setup_token"] is None
        g.apply(Action("side", None, "barricade"))
    assert s.active == "blue" and s.phase == "before"
    for p in s.players:
        assert [d.face for d in s.front[p]] == ["zombie1"]               # L-4: each player
        view = g.private_view(p)
        assert view["hidden"] == [h[1] for h in s.held[p]]
        assert all(t == "barricade" for t in g.public_view()["players"][s.players.index(p)]["tokens"])


def test_l5_an_apocalypse_drawn_at_setup_raises_the_level_and_gives_nothing():
    g = position("players: [red, blue, green]\nbag: [apocalypse, axe, night]\nvariants: [day_night]\nsetup: {}\n")
    s = g.state
    assert s.level == 3 and s.night and s.held["red"] == [] and s.bag == ["day"]
    assert [h[0] for h in s.held["blue"]] == ["axe"] and s.held["green"] == []


def test_zombified_turns_are_automatic_prompts():
    g = position("players: [red, blue, green]\nvariants: [zombified_rolls]\neliminated: [green]\nturn: green\n")
    pr = g.prompt()
    assert (pr.player, pr.kind, pr.auto) == ("green", "zombified", True)
    force(g, {"zombie": ["zombie2"]})
    events = g.apply(pr.default)
    assert events[0].text() == "zombified green rolls 2 zombies: red gets it"
    assert g.state.active == "red" and [d.face for d in g.state.front["red"]] == ["zombie2"]


def test_game_new_checks_its_inputs():
    with pytest.raises(RulesError):
        Game.new(["red"])
    with pytest.raises(RulesError):
        Game.new(["red", "blue"], variants=["hardcore"])
    with pytest.raises(RulesError):
        Game.new(["red", "red"])
    g = Game.new(["red", "blue", "green"], variants=["zombified_rolls"])
    assert g.state.variants == ("zombies_everywhere", "zombified_rolls")  # LA-4


def test_actions_and_events_are_json():
    for a in (Action("use", "hero", ("z1", "s2")), Action("dice", None, (1, 1, 1, 1)), PASS,
              Action("shoot", None, ("f1", 2)), Action("keep", None, ("axe", "barricade", "radio"))):
        assert Action.from_data(json.loads(json.dumps(a.to_data()))) == a
    g = Game.new(["red", "blue"], seed=3)
    while g.state.phase == "setup":
        g.apply(Action("side", None, "object"))
    for e in g.apply(PASS):
        json.dumps(e.to_data())
        assert e.text()


def test_from_data_refuses_garbage():
    with pytest.raises(RulesError):
        Game.from_data({"players": ["red"]})


def test_a_game_not_started_asks_who_starts_and_is_then_the_same_game():
    for seed in range(4):
        for variants in ((), ("day_night",), ("survivors",)):
            g = Game.new(["red", "blue", "green"], seed=seed, variants=variants, start=False)
            assert g.phase == "unstarted" and g.state.turn == 0 and g.state.active == ""
            pr = g.prompt()
            assert pr is not None and pr.kind == "start" and pr.player == "" and not pr.auto
            assert pr.legal.actions == [Action("start", None, p) for p in ("red", "blue", "green")]
            assert pr.default == Action("start", None, "red")
            view = g.public_view()
            assert view["phase"] == "unstarted" and view["active"] == "" and view["prompt"]["kind"] == "start"
            assert view["bag_size"] == len(g.state.bag) and all(not p["tokens"] and not p["front"] for p in view["players"])
            assert g.private_view("blue")["setup_token"] is None
            events = g.apply(Action("start", None, "blue"))
            ref = Game.new(["red", "blue", "green"], seed=seed, variants=variants, first="blue")
            assert g.to_data() == ref.to_data()
            assert g.state.first == "blue" and g.phase != "unstarted"
            assert [e.kind for e in events if e.kind == "starting_zombie"] or g.phase == "setup" or g.finished


def test_a_game_not_started_refuses_a_wrong_start_and_changes_nothing():
    g = Game.new(["red", "blue"], seed=3, start=False)
    before = g.to_data()
    with pytest.raises(RulesError, match="unknown first player"):
        g.apply(Action("start", None, "purple"))
    with pytest.raises(RulesError, match="expected start"):
        g.apply(Action("side", None, "object"))
    assert g.to_data() == before
    with pytest.raises(RulesError, match="start prompt"):
        Game.new(["red", "blue"], seed=3, first="blue", start=False)
    # a started game has no start answer
    started = Game.new(["red", "blue"], seed=3)
    with pytest.raises(RulesError):
        started.apply(Action("start", None, "red"))
