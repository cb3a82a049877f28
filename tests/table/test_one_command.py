"""Every game's command is the console's (bitbox.table.command): `outspeed`, `lastonealive`,
`bitbox play --game X` and `bitbox game X` reach the same parser and the same table, and
what a game adds comes from its cartridge (options, their flags, table.yaml fields)."""
from __future__ import annotations

import pytest

from bitbox.games import find
from bitbox.table import command
from bitbox.table.config import load_table_config
from bitbox.table.play import PlayRequest
from bitbox.table.seating import TableError


@pytest.fixture
def plays(monkeypatch):
    """Each `play` the commands start: (cartridge name, program, the game's options given)."""
    seen: list[tuple[str, str, dict]] = []

    def play(cartridge, args, prog, out=None):
        seen.append((cartridge.name, prog, command.given_options(args, cartridge)))
        return 0
    monkeypatch.setattr(command, "play", play)
    return seen


@pytest.mark.parametrize("name, flags, options", [
    ("outspeed", ["--first-game", "--tokens", "virtual"], {"first_game": True, "tokens": "virtual"}),
    ("lastonealive", ["--variant", "survivors", "--variant", "day_night", "--first-zombie", "first",
                      "--tokens", "physical"],
     {"survivors": True, "day_night": True, "first_zombie": "first", "tokens": "physical"}),
])
def test_the_games_script_bitbox_play_and_bitbox_game_are_one_code_path(plays, name, flags, options):
    import importlib

    from bitbox.cli import main as bitbox
    own = importlib.import_module(f"{name}.cli").main
    argv = ["--headless", "--bots", "3", *flags]
    assert own(["play", *argv]) == 0
    assert bitbox(["play", "--game", name, *argv]) == 0
    assert bitbox(["game", name, "play", *argv]) == 0
    assert plays == [(name, name, options)] * 3         # named as the game's own command each time


def test_a_games_own_subcommands_come_from_its_cartridge():
    parser = command.build_parser(find("outspeed"), "outspeed")
    assert parser.parse_args(["tiles", "show", "3", "--face", "3-4"]).number == 3
    parser = command.build_parser(find("lastonealive"), "lastonealive")
    assert parser.parse_args(["dice", "show"]).dice_command == "show"
    with pytest.raises(SystemExit):
        parser.parse_args(["tiles", "check"])                    # Outspeed's, not Last One Alive's


def test_an_option_for_few_players_limits_the_demo_and_refuses_other_counts():
    loa = find("lastonealive")
    table = command.CartridgeTable(loa, "lastonealive")
    table.prepare(PlayRequest(options={"survivors": True}), True)
    assert table.seating.demo_players == 3                   # a demo the variant allows
    table = command.CartridgeTable(loa, "lastonealive")
    with pytest.raises(TableError, match="^the survivors variant is for 2 or 3 players, not 4$"):
        table.prepare(PlayRequest(players=4, options={"survivors": True}), True)


def test_table_yaml_fields_of_one_game_are_left_to_it_and_unknown_ones_refused(tmp_path):
    from bitbox.config import ConfigError
    path = tmp_path / "table.yaml"
    path.write_text("language: fr\ntokens: virtual\nbot: greedy\n")
    outspeed, loa = find("outspeed"), find("lastonealive")
    cfg = load_table_config(path, outspeed)
    assert (cfg.language, cfg.fields["tokens"], cfg.bot) == ("fr", "virtual", "greedy")
    cfg = load_table_config(path, loa)                       # Outspeed's fields: not Last One Alive's
    assert (cfg.language, cfg.fields, cfg.bot) == ("fr", {}, None)
    path.write_text("colour: red\n")
    with pytest.raises(ConfigError, match="unknown field 'colour'"):
        load_table_config(path, loa)
    # a field named like an option is its default at the table; the command line wins
    path.write_text("tokens: virtual\n")
    table = command.CartridgeTable(outspeed, "outspeed", str(path))
    table.defaults()
    assert table.complete({})["tokens"] == "virtual"
    assert table.complete({"tokens": "physical"})["tokens"] == "physical"
    assert command.CartridgeTable(outspeed, "outspeed").complete({})["tokens"] == "physical"   # the field's default
