"""config/: the shipped tiles, dice and tokens, and the errors a wrong file gets."""
from __future__ import annotations

import copy

import pytest
import yaml

from bitbox_config import config_path
from outspeed.cli import main
from outspeed.content import ConfigError, load_dice, load_tiles, load_tokens

SHIPPED = yaml.safe_load(config_path("tiles.yaml").read_text())


def test_the_shipped_set_is_complete(content):
    assert [t.number for t in content.tiles] == list(range(1, 17))
    for t in content.tiles:
        assert set(t.faces) == {"3-4", "5-6"}
        assert t.finish == (t.number >= 13)
        for face in t.faces.values():
            assert len(face) >= 2


def test_the_file_says_it_is_a_reconstruction_and_how_to_transcribe():
    head = config_path("tiles.yaml").read_text()[:4000].lower()
    assert "reconstructed" in head and "transcribe" in head and "outspeed tiles check" in head


def test_tile_11_solo_rule_matches_rules_md(content):
    right = content.tile(11).faces["3-4"]["right"]
    assert right.solo and [e.to_data() for e in right.cost] == [{"fuel": 1}]
    assert [e.to_data() for e in right.gain] == [{"move": 3}]


def test_tile_12_costs_1_plus_the_yellow_die(content):
    paths = content.tile(12).faces["3-4"]
    assert any([e.to_data() for e in p.cost] == [{"fuel": 1}, {"fuel": {"die": "yellow"}}] for p in paths.values())


def test_tile_14_rolls_the_same_die_several_times(content):
    t = content.tile(14)
    assert t.finish
    assert any(e.amount.kind == "die" and e.amount.times > 1
               for p in t.faces["3-4"].values() for e in p.cost + p.gain)


def test_a_finish_tile_has_choose_x(content):
    choose = [(t.number, p) for t in content.tiles if t.finish for p in t.faces["3-4"].values() if p.choose]
    assert choose
    _, path = choose[0]
    assert [e.to_data() for e in path.cost] == [{"fuel": "chosen"}]
    assert [e.to_data() for e in path.gain] == [{"move": "chosen"}]


def test_the_set_uses_every_effect_and_amount_kind(content):
    seen = set()
    for t in content.tiles:
        for face in t.faces.values():
            for p in face.values():
                if p.capacity:
                    seen.add("capacity")
                if p.solo:
                    seen.add("solo")
                if p.choose:
                    seen.add("choose")
                for line, effects in (("cost", p.cost), ("gain", p.gain)):
                    for e in effects:
                        a = e.amount
                        seen.add(f"{line}:{e.kind}")
                        seen.add(f"amount:{a.kind}")
                        if a.kind == "die":
                            seen.add(f"die:{a.die}")
                            if a.times > 1:
                                seen.add("times")
                        if a.kind == "count":
                            seen.add(f"count:{line}")
            if len(face) < 3:
                seen.add("unlit")
    assert seen >= {"capacity", "solo", "choose", "cost:fuel", "gain:fuel", "gain:move", "gain:bonus",
                    "amount:fixed", "amount:die", "amount:count", "amount:chosen", "die:yellow", "die:blue",
                    "times", "count:cost", "count:gain", "unlit"}


def test_both_faces_differ_on_every_tile(content):
    for t in content.tiles:
        assert t.to_data()["faces"]["3-4"] != t.to_data()["faces"]["5-6"], f"tile {t.number}"


def test_dice_and_tokens():
    assert load_dice() == {"yellow": (-1, -1, -2, -2, -3, -3), "blue": (1, 1, 2, 2, 3, 3)}
    counts, markers = load_tokens()
    assert counts == {"electromagnet": 2, "ion_cannon": 2, "flamethrower": 7, "force_field": 7, "nitro": 7, "fuel_tank": 7}
    assert sum(counts.values()) == 32 and markers == 7


def _tile(data, number):
    return next(t for t in data if t["number"] == number)


def _broken(mutate):
    data = copy.deepcopy(SHIPPED)
    mutate(data)
    return data


# (how the file is broken, the words the message must contain)
BAD_TILES = [
    ("not a list", lambda d: d.clear() or d.append({"number": 1}), ["tile 1", "faces"]),
    ("unknown effect", lambda d: _tile(d, 12)["faces"]["3-4"]["center"]["gain"].append({"teleport": 2}),
     ["tile 12", "face 3-4", "path center", "field gain[2]", "unknown effect 'teleport'"]),
    ("move on a cost line", lambda d: _tile(d, 12)["faces"]["3-4"]["center"]["cost"].append({"move": 2}),
     ["tile 12", "face 3-4", "path center", "field cost[1]", "only fuel"]),
    ("unknown die", lambda d: _tile(d, 12)["faces"]["3-4"]["left"]["cost"].__setitem__(1, {"fuel": {"die": "red"}}),
     ["tile 12", "face 3-4", "path left", "field cost[1].fuel.die", "unknown die 'red'"]),
    ("impossible capacity", lambda d: _tile(d, 12)["faces"]["5-6"]["left"].__setitem__("capacity", 0),
     ["tile 12", "face 5-6", "path left", "field capacity"]),
    ("wrong type", lambda d: _tile(d, 11)["faces"]["3-4"]["right"].__setitem__("solo", "yes"),
     ["tile 11", "face 3-4", "path right", "field solo"]),
    ("unknown key", lambda d: _tile(d, 11)["faces"]["3-4"]["right"].__setitem__("colour", "red"),
     ["tile 11", "face 3-4", "path right", "field colour", "unknown field"]),
    ("negative amount", lambda d: _tile(d, 11)["faces"]["3-4"]["right"]["gain"].__setitem__(0, {"move": -3}),
     ["tile 11", "face 3-4", "path right", "field gain[0].move"]),
    ("missing face", lambda d: _tile(d, 14)["faces"].pop("5-6"), ["tile 14", "missing face '5-6'"]),
    ("unknown face", lambda d: _tile(d, 14)["faces"].__setitem__("7-8", {}), ["tile 14", "face 7-8", "unknown face"]),
    ("duplicate number", lambda d: d.append(copy.deepcopy(_tile(d, 3))), ["tile 3", "field number", "duplicate"]),
    ("missing tile", lambda d: d.remove(_tile(d, 7)), ["tiles 7 are missing"]),
    ("chosen without choose", lambda d: _tile(d, 16)["faces"]["3-4"]["center"].pop("choose"),
     ["tile 16", "face 3-4", "path center", "field choose"]),
    ("count of an unlit path", lambda d: _tile(d, 16)["faces"]["3-4"]["left"]["gain"].append({"fuel": {"count": "right"}}),
     ["tile 16", "face 3-4", "path left", "not lit"]),
    ("finish flag", lambda d: _tile(d, 2).__setitem__("finish", True), ["tile 2", "field finish"]),
    ("bad path name", lambda d: _tile(d, 2)["faces"]["3-4"].__setitem__("middle", None), ["tile 2", "face 3-4", "path middle"]),
]


@pytest.mark.parametrize("what, mutate, words", BAD_TILES, ids=[b[0] for b in BAD_TILES])
def test_a_wrong_tile_file_names_file_tile_face_path_and_field(tmp_path, capsys, what, mutate, words):
    path = tmp_path / "tiles.yaml"
    path.write_text(yaml.safe_dump(_broken(mutate)))
    with pytest.raises(ConfigError) as exc:
        load_tiles(path)
    message = str(exc.value)
    assert message.startswith(str(path))
    for w in words:
        assert w in message, message
    assert main(["tiles", "check", str(path)]) == 2
    assert str(path) in capsys.readouterr().err


def test_malformed_yaml_names_the_line(tmp_path):
    path = tmp_path / "tiles.yaml"
    path.write_text("- number: 1\n  faces: {\n")
    with pytest.raises(ConfigError, match=r"tiles.yaml: line \d+, column \d+: not valid YAML"):
        load_tiles(path)


@pytest.mark.parametrize("text, words", [
    ("dice: {yellow: [1, 2], blue: [1, 2]}\n", ["die yellow", "negative"]),
    ("dice: {yellow: [-1], blue: [x]}\n", ["die blue", "field faces"]),
    ("dice: {yellow: [-1], blue: [1], red: [2]}\n", ["unknown field 'red'"]),
    ("faces: 6\n", ["'dice'"]),
])
def test_wrong_dice_files(tmp_path, text, words):
    path = tmp_path / "dice.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError) as exc:
        load_dice(path)
    for w in words:
        assert w in str(exc.value)


@pytest.mark.parametrize("text, words", [
    ("tokens: {nitro: -1}\n", ["token electromagnet"]),
    ("tokens: {laser: 3}\n", ["unknown field 'laser'"]),
    ("tokens: {electromagnet: 2, ion_cannon: 2, flamethrower: 7, force_field: 7, nitro: 7, fuel_tank: x}\n",
     ["token fuel_tank", "field count"]),
])
def test_wrong_token_files(tmp_path, text, words):
    path = tmp_path / "tokens.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError) as exc:
        load_tokens(path)
    for w in words:
        assert w in str(exc.value)


def test_tiles_check_and_show(capsys):
    assert main(["tiles", "check"]) == 0
    assert "16 tiles" in capsys.readouterr().out
    assert main(["tiles", "show", "12", "--face", "3-4"]) == 0
    out = capsys.readouterr().out
    assert "tile 12 — face 3-4" in out and "capacity 2" in out and "yellow die" in out
    assert "5-6" not in out
    assert main(["tiles", "show", "99"]) == 2
