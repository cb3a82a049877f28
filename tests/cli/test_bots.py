"""The one ``--bots`` vocabulary (bitbox.console.parse_bots) and the seating rules when the
options and the controllers found disagree (bitbox.table.seating): pure functions, no process."""
from __future__ import annotations

import logging

import pytest

from bitbox.console import BotSpec, BotsError, command_bots, parse_bots, simulated_seats
from bitbox.table.seating import SeatRequest, SeatRules, TableError, _count

KNOWN = ("random", "greedy", "lookahead")
MIX = ("lookahead", "greedy", "random")


@pytest.mark.parametrize("text,spec", [
    ("2", BotSpec(2, ())),
    ("0", BotSpec(0, ())),
    ("greedy", BotSpec(None, ("greedy",))),
    ("greedy, random", BotSpec(None, ("greedy", "random"))),
    ("mixed", BotSpec(None, MIX)),
    ("2:greedy,random", BotSpec(2, ("greedy", "random"))),
    ("3:mixed", BotSpec(3, MIX)),
    ("random,mixed", BotSpec(None, ("random", *MIX))),
])
def test_a_count_names_or_both(text, spec):
    assert parse_bots(text, KNOWN, MIX, most=6) == spec


@pytest.mark.parametrize("text,message", [
    ("clever", "unknown bot 'clever' in --bots (known: mixed, random, greedy, lookahead)"),
    ("2:clever", "unknown bot 'clever'"),
    (",", "--bots needs at least one bot name"),
    ("2:", "--bots needs at least one bot name"),
    ("7", "--bots 7: at most 6 bots"),
    ("-1", "unknown bot '-1'"),
    ("two:greedy", "expected a number of bots, bot names, or N:NAMES"),
    ("²:greedy", "expected a number of bots"),
    ("²", "unknown bot '²'"),
    ("", "--bots needs a number or at least one bot name"),
])
def test_what_does_not_parse_is_one_line(text, message):
    with pytest.raises(BotsError) as err:
        parse_bots(text, KNOWN, MIX, most=6)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_mixed_is_every_known_bot_when_the_game_has_no_mix():
    assert parse_bots("mixed", ("random", "careful")).names == ("random", "careful")


def test_the_old_bot_option_is_an_alias_that_says_so_once(caplog):
    caplog.set_level(logging.WARNING, logger="bitbox")
    assert command_bots(None, "greedy", KNOWN, MIX) == BotSpec(None, ("greedy",))
    assert command_bots("2", "greedy", KNOWN, MIX) == BotSpec(2, ("greedy",))          # --bots 2 --bot greedy
    assert [r.getMessage() for r in caplog.records].count(
        "note: --bot is deprecated: use --bots greedy (the same for every command)") <= 1
    with pytest.raises(BotsError, match="both name the bots"):
        command_bots("random", "greedy", KNOWN, MIX)


def test_in_a_simulation_every_seat_is_a_bot():
    assert simulated_seats(None, None, 4, ("random",)) == (4, ("random",))
    assert simulated_seats(None, BotSpec(3, ()), 4, ("random",)) == (3, ("random",))
    assert simulated_seats(3, BotSpec(3, ("greedy",)), 4, ("random",)) == (3, ("greedy",))
    assert simulated_seats(5, BotSpec(None, MIX), 4, ("random",)) == (5, MIX)
    with pytest.raises(BotsError, match="--players 4 and --bots 3 disagree"):
        simulated_seats(4, BotSpec(3, ()), 4, ("random",))


RULES = SeatRules("Outspeed", ("red", "blue", "green", "yellow", "purple", "orange"), min_players=3, max_players=6,
                  demo_players=4)


@pytest.mark.parametrize("n_real,request_,expected", [
    (0, {}, ["bot"] * 4),                                           # a demo
    (0, {"bots": 3}, ["bot"] * 3),                                  # the count asked for, not 4
    (0, {"players": 5}, ["bot"] * 5),
    (2, {}, ["controller"] * 2 + ["bot"]),                          # filled to the fewest players
    (4, {}, ["controller"] * 4),
    (2, {"bots": 2}, ["controller"] * 2 + ["bot"] * 2),
    (2, {"players": 5}, ["controller"] * 2 + ["bot"] * 3),
    (1, {"players": 4, "bots": 3}, ["controller"] + ["bot"] * 3),   # they agree
    (0, {"keyboard": True}, ["keyboard"] * 3),
    (1, {"keyboard": True, "bots": 2}, ["controller", "keyboard", "bot", "bot"]),
    (0, {"keyboard": True, "players": 4, "bots": 1}, ["keyboard"] * 3 + ["bot"]),
])
def test_seats_from_the_options_and_the_controllers(n_real, request_, expected, caplog):
    caplog.set_level(logging.INFO, logger="bitbox")
    assert _count(RULES, SeatRequest(**request_), n_real) == expected


def test_what_was_decided_is_said_in_one_status_line(caplog):
    caplog.set_level(logging.INFO, logger="bitbox")
    _count(RULES, SeatRequest(), 2)
    _count(RULES, SeatRequest(), 1)
    _count(RULES, SeatRequest(), 0)
    _count(RULES, SeatRequest(bots=3), 0)
    _count(RULES, SeatRequest(bots=1), 2)                           # as asked: nothing to say
    assert [r.getMessage() for r in caplog.records] == [
        "2 controllers found: 1 bot fills the table to 3 players",
        "1 controller found: 2 bots fill the table to 3 players",
        "no controllers found: a demo game, 4 bots on simulated controllers",
        "no controllers found: a demo game, 3 bots on simulated controllers",
    ]


@pytest.mark.parametrize("n_real,request_,message", [
    (1, {"players": 3, "bots": 4}, "--players 3 and --bots 4 disagree: 1 controller + 4 bots make 5 players"),
    (0, {"bots": 2}, "Outspeed is for 3 to 6 players: 0 controllers + 2 bots make 2 (give --bots 3 or more)"),
    (2, {"bots": 0}, "0 bots make 2 (give --bots 1 or more)"),
    (4, {"players": 3}, "--players 3, but 4 controllers answered: unplug 1 or leave out --players"),
    (5, {"bots": 2}, "5 controllers + 2 bots + 0 keyboard players make 7"),
    (1, {"keyboard": True, "players": 3, "bots": 2}, "--keyboard with --players 3: 1 controller + 2 bots leave no seat"),
])
def test_options_that_disagree_are_refused_in_one_line(n_real, request_, message):
    with pytest.raises(TableError) as err:
        _count(RULES, SeatRequest(**request_), n_real)
    assert message in str(err.value) and "\n" not in str(err.value)
