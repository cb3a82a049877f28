"""config/wheels.yaml and config/controllers.yaml: the shipped files, and clear errors."""
from __future__ import annotations

import pytest

from bitbox.config import ConfigError
from bitbox.controllers import DEFAULT_USB_IDS, load_controllers_config
from bitbox.wheels import load_wheel_map


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


# --- wheels ------------------------------------------------------------------------------------

def test_the_shipped_outspeed_map():
    wm = load_wheel_map(game="outspeed")
    assert [wm.meaning("right", p) for p in range(4)] == [None, "left", "center", "right"]
    assert wm.meaning("right", 2) == "center"
    assert wm.meaning("centre", 3) == 3
    assert [wm.meaning("centre", p) for p in range(7)] == list(range(7))
    assert wm.meaning("left", 0) == "none"
    assert {wm.meaning("left", p) for p in range(1, 7)} == {
        "nitro", "fuel_tank", "flamethrower", "force_field", "electromagnet", "ion_cannon"}
    assert wm.meaning("right", 9) is None and wm.meaning("left", 15) is None     # beyond the map
    assert wm.read(1, 4, 3) == {"left": "nitro", "centre": 4, "right": "right"}


def test_position_for_inverts_meaning():
    wm = load_wheel_map()
    for wheel in ("left", "centre", "right"):
        for position, meaning in wm.meanings(wheel).items():
            if meaning is not None:
                assert wm.position_for(wheel, meaning) == position
    assert wm.position_for("right", "center") == 2
    with pytest.raises(KeyError, match="center"):
        wm.position_for("left", "center")
    with pytest.raises(ValueError, match="unknown wheel 'middle'"):
        wm.meaning("middle", 0)


def test_the_token_and_path_names_are_the_rules_engines():
    from outspeed.rules.game import TOKENS        # the test may look at the game; bitbox may not
    from outspeed.rules.tiles import PATHS
    wm = load_wheel_map()
    assert {m for m in wm.meanings("left").values()} - {"none"} == set(TOKENS)
    assert {m for m in wm.meanings("right").values()} - {None} == set(PATHS)


@pytest.mark.parametrize("text, message", [
    ("games: {outspeed: {right: {0: left, 1: left}}}", "wheel right, position 1, field meaning: 'left' is already the meaning of position 0"),
    ("games: {outspeed: {right: {16: left}}}", "wheel right: position 16: a position is a whole number 0..15"),
    ("games: {outspeed: {center: {0: 1}}}", "unknown wheel 'center' (spelled 'centre' here)"),
    ("games: {outspeed: {left: {0: [1, 2]}}}", "wheel left, position 0, field meaning: expected a word"),
    ("games: {outspeed: {left: [none, nitro]}}", "wheel left: expected a mapping of position"),
    ("wheels: {}", "expected a mapping with the key 'games'"),
    ("games: {outspeed: {left: {0: nitro}}", "not valid YAML"),
])
def test_wheel_map_errors_name_file_wheel_position_and_field(tmp_path, text, message):
    path = write(tmp_path, "wheels.yaml", text)
    with pytest.raises(ConfigError) as err:
        load_wheel_map(path)
    assert str(path) in str(err.value)
    assert message in str(err.value)
    if "games:" in text and "[" not in text.split("{", 1)[0] and "not valid" not in message and "'games'" not in message:
        assert "game 'outspeed'" in str(err.value)


def test_unknown_game(tmp_path):
    path = write(tmp_path, "w.yaml", "games: {other: {left: {0: a}}}")
    with pytest.raises(ConfigError, match="no wheel map for game 'outspeed'"):
        load_wheel_map(path)
    assert load_wheel_map(path, game="other").meaning("left", 0) == "a"


# --- controllers -------------------------------------------------------------------------------

def test_the_shipped_controllers_config():
    cfg = load_controllers_config()
    assert cfg.usb == DEFAULT_USB_IDS and (0x1209, 0x0001) in cfg.usb
    assert cfg.ports == () and cfg.simulated == 0 and cfg.pins == ()
    assert len(cfg.seat_colours) == 6
    assert cfg.colour_for(0) == cfg.seat_colours[0]


def test_pins_and_colours(tmp_path):
    path = write(tmp_path, "c.yaml", """
usb: [{vid: 0x1209, pid: 0x0001}]
ports: ["/tmp/x*", "socket://localhost:7000"]
seat_colours: [red, "#00ff00", [1, 2, 3]]
controllers:
  - {id: 0x8B17000000000001, seat: 4, colour: "#ff8800", name: Alice}
  - {id: "0x8B17_0000_0000_0002", seat: 1}
""")
    cfg = load_controllers_config(path)
    assert cfg.ports == ("/tmp/x*", "socket://localhost:7000")
    assert cfg.seat_colours[1:] == ((0, 255, 0), (1, 2, 3))
    assert cfg.pin_for(0x8B17000000000001).seat == 3
    assert cfg.colour_for(3, 0x8B17000000000001) == (255, 136, 0)
    assert cfg.colour_for(0, 0x8B17000000000002) == cfg.seat_colours[0]
    assert cfg.colour_for(4) == cfg.seat_colours[1]                  # colours cycle
    assert cfg.pinned_seats == {0, 3}


@pytest.mark.parametrize("text, message", [
    ("controllers: [{id: 1, seat: 1}, {id: 1, seat: 2}]", "controller 0x0000000000000001: listed twice (entries 1 and 2)"),
    ("controllers: [{id: 1, seat: 1}, {id: 2, seat: 1}]", "controller 0x0000000000000002, field seat: seat 1 is already pinned to controller 0x0000000000000001"),
    ("controllers: [{id: 1, seat: 0}]", "controller 0x0000000000000001, field seat: seats are numbered from 1 (the first seat is 1), got 0"),
    ("controllers: [{id: 1, seat: 256}]", "controller 0x0000000000000001, field seat: expected 1..255, got 256"),
    ("controllers: [{id: 1, seat: 1, colour: mauve}]", "controller 0x0000000000000001, field colour: expected"),
    ("controllers: [{id: 1, seat: 1, color: red}]", "controllers entry 1: unknown field 'color'"),
    ("controllers: [{seat: 1}]", "controllers entry 1: field id is missing"),
    ("controllers: [{id: -1, seat: 1}]", "controllers entry 1, field id: expected 0..0xffffffffffffffff, got -1"),
    ("controllers: [{id: zebra, seat: 1}]", "field id: expected a whole number"),
    ("usb: [{vid: 0x1209}]", "usb entry 1: expected {vid: 0x1209, pid: 0x0001}"),
    ("usb: [{vid: 0x12345, pid: 1}]", "usb entry 1, field vid: expected 0..65535"),
    ("seat_colours: [red, 12]", "seat_colours entry 2: "),
    ("simulated: 99", "field simulated: expected 0..16, got 99"),
    ("ports: [3]", "ports entry 1: expected a device path or URL"),
    ("sims: 2", "unknown field 'sims'"),
])
def test_controllers_config_errors(tmp_path, text, message):
    path = write(tmp_path, "controllers.yaml", text)
    with pytest.raises(ConfigError) as err:
        load_controllers_config(path)
    assert str(err.value).startswith(str(path))
    assert message in str(err.value)
