"""The phase-by-phase API: legal options, refusals that change nothing, views, physical tokens."""
from __future__ import annotations

import json

import pytest

from outspeed.rules import TOKENS, Choice, Refused, RulesError, UNKNOWN, parse_tile

from .helpers import new_game

TILE = parse_tile({"number": 90, "finish": False, "faces": {"3-4": {
    "left": {"cost": [{"fuel": 1}, {"fuel": {"die": "yellow"}}], "gain": [{"move": 4}]},
    "center": {"cost": [{"fuel": {"count": "center"}}], "gain": [{"move": 2}, {"bonus": 1}]},
    "right": None}}}, max_number=None, require_faces=())
CHOOSE = parse_tile({"number": 91, "finish": True, "faces": {"3-4": {
    "left": {"cost": [], "gain": [{"move": 1}]},
    "center": {"choose": {"min": 1, "max": 6}, "cost": [{"fuel": "chosen"}], "gain": [{"move": "chosen"}]}}}},
    max_number=None, require_faces=())


def game_on(content, tile, fuel=None, held=None):
    g = new_game(content, 3, seed=1)
    g.state.tile = tile
    g.state.face = "3-4"
    for p, f in (fuel or {}).items():
        g.state.fuel[p] = f
    for p, h in (held or {}).items():
        g.state.held[p] = list(h)
    return g


def test_legal_paths_follow_lights_and_best_case_cost(content):
    g = game_on(content, TILE, fuel={"red": 1})
    g.play_bonus({})
    assert g.legal_paths("blue") == ["left", "center"]
    # red has 1 fuel: left costs at best 1 + 1 = 2; center counts red's own path: 1
    assert g.legal_paths("red") == ["center"]
    assert g.programming_refusal("red", Choice("left")) == "unaffordable"
    assert g.programming_refusal("red", Choice("right")) == "unlit_path"


def test_r6_no_affordable_path_accepts_any_lit_path(content):
    g = game_on(content, CHOOSE, fuel={"red": 1})
    g.play_bonus({})
    g.state.tile = TILE                 # red (1 fuel) can afford center; force none affordable:
    g.state.fuel["red"] = 1
    tile = parse_tile({"number": 92, "finish": False, "faces": {"3-4": {
        "left": {"cost": [{"fuel": 3}], "gain": [{"move": 3}]},
        "center": {"cost": [{"fuel": 2}], "gain": [{"move": 2}]}}}}, max_number=None, require_faces=())
    g.state.tile = tile
    assert g.legal_paths("red") == ["left", "center"]
    assert g.programming_refusal("red", Choice("left")) is None


def test_choose_numbers(content):
    g = game_on(content, CHOOSE, fuel={"red": 4})
    g.play_bonus({})
    assert g.legal_numbers("red", "center") == [1, 2, 3, 4]
    assert g.legal_numbers("red", "left") == []
    assert g.programming_refusal("red", Choice("center", 5)) == "choose_out_of_range"
    assert g.programming_refusal("red", Choice("center", 7)) == "choose_out_of_range"
    assert g.programming_refusal("red", Choice("center")) == "missing_choice"
    assert g.programming_refusal("red", Choice("center", 4)) is None


def test_refused_inputs_change_nothing(content):
    g = game_on(content, TILE, held={"red": ["nitro"]})
    before = json.dumps(g.to_data(), sort_keys=True)
    with pytest.raises(Refused) as r:
        g.play_bonus({"red": "nitro", "blue": "flamethrower"})
    assert r.value.codes == {"blue": "not_held"}
    assert "blue does not hold that bonus token" in str(r.value)
    assert json.dumps(g.to_data(), sort_keys=True) == before
    g.play_bonus({})
    before = json.dumps(g.to_data(), sort_keys=True)
    with pytest.raises(Refused) as r:
        g.program({"red": "left", "blue": "right"})
    assert r.value.codes == {"blue": "unlit_path", "green": "missing_choice"}
    assert json.dumps(g.to_data(), sort_keys=True) == before


def test_wrong_phase_and_unknown_names_are_errors(content):
    g = game_on(content, TILE)
    with pytest.raises(RulesError, match="bonus phase"):
        g.program({"red": "left"})
    with pytest.raises(RulesError, match="unknown player"):
        g.play_bonus({"mauve": None})
    with pytest.raises(RulesError, match="unknown bonus token"):
        g.play_bonus({"red": "laser"})


def test_legal_bonus_plays(content):
    g = game_on(content, TILE, held={"red": ["electromagnet", "nitro", "nitro"], "blue": ["electromagnet"]})
    g.state.zone.update(red=5, blue=3, green=4)
    assert g.legal_bonus_plays("red") == [None, "nitro"]           # not rearmost for the magnet
    assert g.legal_bonus_plays("blue") == [None, "electromagnet"]
    assert g.legal_bonus_plays("green") == [None]


def test_public_view_hides_held_types_pile_and_draws(content):
    a = game_on(content, TILE, held={"red": ["nitro"], "blue": ["ion_cannon", "fuel_tank"]})
    b = game_on(content, TILE, held={"red": ["flamethrower"], "blue": ["nitro", "nitro"]})
    b.state.pile.reverse()
    assert a.public_view() == b.public_view()
    text = json.dumps(a.public_view())
    for secret in ("nitro", "ion_cannon", "fuel_tank", "flamethrower"):
        assert secret not in text
    assert a.private_view("blue")["held"] == ["fuel_tank", "ion_cannon"]


def test_draws_are_private_until_kept(content):
    g = game_on(content, TILE)
    g.state.pile = ["nitro", "ion_cannon", "fuel_tank"] + g.state.pile[3:]
    g.play_bonus({})
    g.program({"red": "center", "blue": "left", "green": "left"})
    assert g.phase == "draw" and g.state.draw_queue == ["red"]
    assert g.private_view("red")["drawn"] == ["nitro", "ion_cannon"]
    assert g.private_view("blue")["drawn"] == []
    assert "ion_cannon" not in json.dumps(g.public_view())
    with pytest.raises(RulesError, match="red's draw"):
        g.keep("blue")
    with pytest.raises(RulesError, match="drew nitro and ion_cannon"):
        g.keep("red", "fuel_tank")
    g.keep("red", "ion_cannon")
    assert g.state.held["red"] == ["ion_cannon"] and g.state.pile[-1] == "nitro"
    assert g.phase == "bonus" and g.state.turn == 2


def test_physical_tokens_are_held_unknown_and_declared_when_played(content):
    g = new_game(content, 3, seed=2, token_mode="physical")
    g.state.tile = TILE
    g.play_bonus({})
    g.program({"red": "center", "blue": "left", "green": "left"})
    assert g.state.held["red"] == [UNKNOWN]
    assert g.public_view()["players"][0]["tokens"] == 1
    g.state.tile = TILE
    # red (zone 5) is rearmost: blue and green took left (move 4) to zone 7
    assert g.legal_bonus_plays("red")[1:] == list(TOKENS)
    assert g.legal_bonus_plays("blue") == [None]              # holds nothing
    events = g.play_bonus({"red": "nitro"})
    assert g.state.held["red"] == [] and "red plays nitro" in [e.text() for e in events]


def test_events_read_like_a_table_display(content):
    tile = parse_tile({"number": 12, "finish": False, "faces": {"3-4": {
        "left": {"capacity": 2, "cost": [{"fuel": 1}, {"fuel": {"die": "yellow"}}], "gain": [{"move": 4}]},
        "center": {"cost": [{"fuel": 2}], "gain": [{"move": 2}]}}}}, require_faces=())
    g = game_on(content, tile)
    g.state.zone["blue"] = 1
    g.state.fuel["blue"] = 2
    g.state.stack = [TILE]
    g.play_bonus({})
    g.state.forced_dice = {"red": [-3]}
    texts = [e.text() for e in g.program({"red": "left", "blue": "center", "green": "center"})]
    assert "red pays 4 fuel (1 + yellow die −3) → 8" in texts
    assert "blue is eliminated: out of fuel" in texts
