"""A hostile game on the shelf (red team): ``bitbox games`` lists the others and names the
broken one in one line; ``bitbox games --check`` fails the check a game raises, exits or hangs
in, naming it; at the table, a game that raises or exits in its own code is one line naming
the game and where, exit 2, never a traceback."""
from __future__ import annotations

import subprocess
import sys

import pytest

from bitbox.games import GameError, find
from bitbox.games.conformance import check_all

SHELF = {"raises": "RAISES", "exits": "EXITS", "escapes": "ESCAPES", "hangs": "HANGS", "noprompts": "NO_PROMPTS", "textbound": "TEXT_BOUND", "notitle": "NO_TITLE",
         "numberoptions": "NUMBER_OPTIONS", "textoption": "TEXT_OPTION", "hugetable": "HUGE_TABLE",
         "objectdefault": "OBJECT_DEFAULT", "numberbots": "NUMBER_BOTS", "numberlocale": "NUMBER_LOCALE",
         "exploding": "EXPLODING"}


@pytest.fixture
def shelf(monkeypatch):
    monkeypatch.setenv("BITBOX_GAMES", ",".join(f"{n}=hostile_cartridges:{v}" for n, v in SHELF.items()))
    yield
    sys.modules.pop("hostile_cartridges", None)


@pytest.mark.parametrize("name,says", [
    ("textbound", "its min_players is '2', not a whole number"),
    ("notitle", "its title is None, not a name"),
    ("numberoptions", "its options are 5, not a list of OptionSpec"),
    ("textoption", "an option is 'cards', not an OptionSpec"),
    ("hugetable", "its players 2 to 1000000000000 are not 1 <= min_players <= max_players <= 100"),
    ("objectdefault", "its option cards has the value <object object"),
    ("numberbots", "its bot_names are 5, not a list of names"),
    ("numberlocale", "its locale is 5, not a folder"),
    ("exploding", "reading it raised RuntimeError: no "),
])
def test_a_misshapen_cartridge_is_refused_by_name(shelf, name, says):
    with pytest.raises(GameError) as caught:
        find(name)
    assert str(caught.value).startswith(f"game {name!r} (hostile_cartridges:{SHELF[name]}) is not a cartridge: ")
    assert says in str(caught.value)


def _bitbox(*argv: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bitbox.cli", *argv], capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)


def test_bitbox_games_lists_the_good_ones_and_names_each_broken_one(shelf):
    run = _bitbox("games")
    assert run.returncode == 2
    listed = {line.split()[0] for line in run.stdout.splitlines()}
    assert {"outspeed", "raises", "exits", "hangs", "noprompts"} <= listed          # a cartridge that plays badly still lists
    errors = run.stderr.splitlines()
    assert "Traceback" not in run.stderr and len(errors) == 9, run.stderr
    assert all(e.startswith("bitbox games: game '") and "is not a cartridge: " in e for e in errors)


def test_a_check_that_hangs_or_exits_fails_and_the_others_run(shelf):
    results = dict(check_all(find("hangs"), seeds=(0,), seconds=0.2))
    assert results["random play, 2 players"] == "still running after 0.2 s: the game hangs (or is far too slow)"
    assert results["setup: player bounds and options"] is None
    run = _bitbox("games", "--check", "exits")
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert "exits: random play, 2 players: FAILED: SystemExit: 0" in run.stdout.splitlines()


def _where(function: str) -> str:
    """``hostile_cartridges.py:LINE in FUNCTION``: the line of the function's one statement."""
    import inspect

    import hostile_cartridges
    return f"hostile_cartridges.py:{inspect.getsourcelines(getattr(hostile_cartridges, function))[1] + 1} in {function}"


@pytest.mark.parametrize("name,says", [
    ("raises", "the game raises failed in its own code ({}): RuntimeError: the cartridge broke"),
    ("exits", "the game exits failed in its own code ({}): SystemExit: 0"),
])
def test_a_game_that_raises_or_exits_at_the_table_is_one_line_naming_it(shelf, tmp_path, name, says):
    says = says.format(_where({"raises": "_raise", "exits": "_exit"}[name]))
    journal = tmp_path / "j.sqlite"
    run = _bitbox("play", "--game", name, "--headless", "--players", "2", "--bots", "2", "--speed", "0",
                  "--max-seconds", "20", "--journal", str(journal), "-q")
    assert run.returncode == 2, run.stderr
    assert run.stderr.splitlines() == [f"bitbox game {name} play: {says}"]


def test_a_game_whose_prompts_are_no_list_is_one_line_at_the_table(shelf, tmp_path):
    run = _bitbox("play", "--game", "noprompts", "--headless", "--players", "2", "--bots", "2", "--speed", "0",
                  "--max-seconds", "20", "--journal", str(tmp_path / "j.sqlite"), "-q")
    assert run.returncode == 2, run.stderr                                  # was a TypeError traceback
    assert run.stderr.splitlines() == ["bitbox game noprompts play: the game's prompts() gave None, not a list of prompts"]
    assert "Traceback" not in run.stderr


@pytest.mark.parametrize("argv", [["calibrate", "raises", "--games", "1", "--rollouts", "1", "--points", "1"],
                                  ["simulate", "raises", "--games", "1", "--workers", "1", "-q"]])
def test_a_game_that_raises_in_calibrate_or_simulate_is_one_line(shelf, argv):
    run = _bitbox(*argv)
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    assert run.stderr.splitlines() == [f"bitbox {argv[0]}: the game raises failed in its own code "
                                       f"({_where('_raise')}): RuntimeError: the cartridge broke"]


def test_a_shelf_entry_that_exits_when_made_is_named_and_the_others_listed(monkeypatch):
    monkeypatch.setenv("BITBOX_GAMES", "quitter=sys:exit")
    run = _bitbox("games")                                   # was: exit 0, nothing listed, nothing said
    assert run.returncode == 2 and "outspeed" in run.stdout
    assert run.stderr.splitlines() == ["bitbox games: game 'quitter' (sys:exit) cannot be made: SystemExit: "]


def test_a_game_message_with_terminal_escapes_is_shown_escaped(shelf):
    run = _bitbox("games", "--check", "escapes")
    assert run.returncode == 1 and "\x1b" not in run.stdout + run.stderr
    assert "escapes: random play, 2 players: FAILED: RuntimeError: \\x1b[2J\\x07 broke" in run.stdout.splitlines()
