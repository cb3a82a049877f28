"""The home screen's parts (issue 20): the rows it offers for every installed cartridge and
the ones the command line settles, the play options its choices become, the remembered
choices (a hostile file is one line and the defaults), headless never shows it, and the
lobby's names (the journal's on the centre wheel, spelled with the right wheel, typed)."""
from __future__ import annotations

import io
import json
import os
from pathlib import Path
from types import SimpleNamespace

import pytest

from bitbox.events import Connected, ControllerInfo, WheelsChanged
from bitbox.games import find
from bitbox.table.home import (AfterGame, Choices, Home, Row, given_of, home_play, load_choices, option_flags,
                               save_choices, wanted, wheel_step)
from bitbox.table.lobby import Lobby, known_names

TUTORIAL = Path(__file__).resolve().parents[1] / "tutorial"
COLOURS = ("red", "blue", "green", "yellow")


@pytest.fixture
def games(monkeypatch):
    monkeypatch.syspath_prepend(str(TUTORIAL))
    monkeypatch.setenv("BITBOX_GAMES", "goofspiel=goofspiel:CARTRIDGE")
    return {n: find(n) for n in ("outspeed", "lastonealive", "goofspiel")}


def cut_texts(monkeypatch, screen: type) -> list[str]:
    """The texts ``screen`` (a home or lobby screen class) draws cut to a width, from now on."""
    from bitbox.display.lobby import MIN_PX, MIN_TEXT
    cut: list[str] = []
    real_text = screen.text

    def text(self, surf, s, px_size, pos, colour=(0, 0, 0), bold=False, anchor="topleft", max_width=None):
        px = max(MIN_PX, self.px(surf, max(px_size, MIN_TEXT)))
        if max_width is not None and self.fonts.get(px, bold).size(s)[0] > max_width:
            cut.append(s)
        return real_text(self, surf, s, px_size, pos, colour, bold, anchor, max_width)
    monkeypatch.setattr(screen, "text", text)
    return cut


def wheels(seat: int, left: int = 0, centre: int = 0, right: int = 0, locked: bool = False) -> WheelsChanged:
    return WheelsChanged(seat, 100 + seat, left, centre, right, locked, 0.0)


def test_a_wheel_step_is_the_shorter_way_round():
    assert [wheel_step(0, 1), wheel_step(0, 15), wheel_step(14, 2), wheel_step(3, 3), wheel_step(0, 8)] == [1, -1, 4, 0, 8]


def test_every_installed_game_is_offered_with_its_own_rows(games):
    home = Home(games, given_of(None, []), Choices())
    assert home.game_row.values == ["outspeed", "goofspiel", "lastonealive"]        # the default first
    assert [r.key for r in home.rows] == ["game", "players", "bots", "lang", "opt:first_game", "opt:tokens"]
    home.key("right")
    assert home.game_row.value == "goofspiel" and home.players_row.values == [2, 3, 4]
    assert [r.key for r in home.rows][-1] == "opt:cards" and home.rows[-1].values == [3, 4, 5, 6, 7, 8]
    home.key("right")
    # Last One Alive's own command takes its variants as --variant and the first zombie as --first-zombie
    assert home.players_row.value == 4                  # Survivors is for 2-3 players (its OptionSpec.players)
    assert [r.key for r in home.option_rows] == ["opt:day_night", "opt:zombies_everywhere",
                                                     "opt:zombified_rolls", "opt:first_zombie", "opt:tokens"]
    home.players_row.select(3)
    home.changed(home.players_row)
    assert [r.key for r in home.option_rows] == ["opt:survivors", "opt:day_night", "opt:zombies_everywhere",
                                                     "opt:zombified_rolls", "opt:first_zombie", "opt:tokens"]


def test_the_left_wheel_moves_the_cursor_the_centre_wheel_the_value_the_lock_confirms(games):
    home = Home(games, given_of(None, []), Choices())
    home.handle(Connected(0, ControllerInfo(100, "p", (1, 2), "fw", (16, 16, 16)), 0.0))
    home.handle(wheels(0, 5, 9, 0))                        # where the wheels are: no turn
    assert (home.cursor, home.game_row.value, home.done) == (0, "outspeed", False)
    assert "bots" not in [r.key for r in home.rows]        # a controller found: bots take the free seats
    home.handle(wheels(0, 5, 10, 0))
    assert home.game_row.value == "goofspiel"
    home.handle(wheels(0, 6, 10, 0))
    home.handle(wheels(0, 6, 8, 0))
    assert home.row.key == "players" and home.players_row.value == 2
    home.handle(wheels(0, 6, 8, 0, locked=True))
    assert home.done
    assert home.argv(controllers=1) == ["--lang", "en", "--players", "2"]


def test_the_keyboard_drives_it_too_and_without_controllers_the_other_seats_are_the_keyboards(games):
    home = Home(games, given_of("goofspiel", []), Choices())
    assert [r.key for r in home.rows] == ["players", "bots", "lang", "opt:cards"]
    home.key("left")                                       # 4 -> 3 players
    home.key("down")
    home.key("left")                                       # 3 -> 2 bots: one person at the keyboard
    assert home.help(home.bots_row) == "people at the keyboard: 1"
    home.key("down")
    home.key("right")                                      # Español
    home.key("down")
    home.key("left")                                       # 6 -> 5 cards
    assert home.help(home.bots_row) == "personas al teclado: 1"
    home.key("enter")
    assert home.done
    assert home.argv(controllers=0) == ["--lang", "es", "--players", "3", "--bots", "2", "--keyboard", "--cards", "5"]
    home.key("escape")
    assert home.left


def test_flags_given_are_rows_not_asked(games):
    home = Home(games, given_of("outspeed", ["--players", "3", "--lang", "de", "--tokens", "physical"]), Choices())
    assert [r.key for r in home.rows] == ["bots", "opt:first_game"]
    assert home.players_row.value == 3
    assert home.argv(controllers=0) == ["--bots", "3"]
    settled = Home(games, given_of("goofspiel", ["--players", "2", "--bots", "2", "--lang", "en", "--cards", "3"]),
                   Choices())
    assert settled.settled()                               # nothing left to choose: no home screen


def test_option_flags_follow_each_games_command(games):
    assert option_flags(games["outspeed"], {"first_game": True, "tokens": "physical"}) == \
        ["--first-game", "--tokens", "physical"]
    assert option_flags(games["outspeed"], {"first_game": False, "tokens": "virtual"}) == []
    assert option_flags(games["goofspiel"], {"cards": 4}) == ["--cards", "4"]
    assert option_flags(games["lastonealive"], {"survivors": True, "day_night": True, "zombified_rolls": True}) == \
        ["--variant", "survivors", "--variant", "day_night", "--variant", "zombified_rolls"]


def test_last_one_alives_token_mode_is_a_table_option_on_the_home_screen(games):
    """Its token mode is a table option (``table_options``): a row like the rules' options,
    the --tokens flag of its play command, settled by --tokens, never given to Cartridge.new."""
    from bitbox.table.home import game_options
    loa = games["lastonealive"]
    assert "tokens" not in [s.name for s in loa.options]                 # not a rule
    assert [s.name for s in game_options(loa)][-1] == "tokens"
    home = Home(games, given_of("lastonealive", []), Choices())
    row = next(r for r in home.rows if r.key == "opt:tokens")
    assert row.values == ["virtual", "physical"] and row.value == "virtual"
    home.cursor = home.rows.index(row)
    home.key("right")
    assert row.value == "physical"
    # without a controller, the help line says before the game what the game will do
    assert home.help(row) == "bots and keyboard players cannot hold cardboard: virtual tokens"
    assert home.argv(controllers=0)[-2:] == ["--tokens", "physical"]
    assert home.choices().options["lastonealive"]["tokens"] == "physical"
    home.handle(Connected(0, ControllerInfo(100, "p", (1, 2), "fw", (16, 16, 16)), 0.0))
    assert home.help(home.row).startswith("drawn by the bridge (virtual) or from a real bag")
    assert home.argv(controllers=1) == ["--lang", "en", "--players", "4", "--tokens", "physical"]
    settled = Home(games, given_of("lastonealive", ["--tokens", "virtual"]), Choices())
    assert "opt:tokens" not in [r.key for r in settled.rows]
    assert option_flags(loa, {"tokens": "virtual", "first_zombie": "first"}) == ["--first-zombie", "first"]
    # every option the issue names is a row: variants, token mode, first game / first zombie die, zombified roll
    names = {g: [r.key[4:] for r in Home(games, given_of(g, ["--players", "3"]), Choices()).option_rows]
             for g in ("outspeed", "lastonealive")}
    assert names == {"outspeed": ["first_game", "tokens"],
                     "lastonealive": ["survivors", "day_night", "zombies_everywhere", "zombified_rolls",
                                      "first_zombie", "tokens"]}


def test_a_physical_token_choice_reaches_the_game_and_without_controllers_it_says_so_in_one_line(tmp_path):
    """What the home screen passes (``--tokens physical``) is taken by Last One Alive's play;
    with bots in the seats the game says in one line that the tokens are virtual."""
    import subprocess
    import sys
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "BITBOX_CONFIG_DIR": str(tmp_path / "cfg")}
    run = subprocess.run([sys.executable, "-m", "lastonealive.cli", "play", "--headless", "--speed", "0", "--seed", "5",
                          "--players", "2", "--bots", "2", "--tokens", "physical", "--journal", str(tmp_path / "j.sqlite"),
                          "--size", "320x180"], capture_output=True, text=True, timeout=120, cwd=tmp_path, env=env)
    assert run.returncode == 0, run.stderr[-2000:]
    said = (run.stdout + run.stderr).splitlines()
    assert sum("cannot hold cardboard: virtual tokens" in line for line in said) == 1, said[:20]


@pytest.mark.parametrize("lang", ["en", "es", "fr", "de"])
def test_the_home_screens_words_are_in_the_chosen_language(games, lang):
    """Every label, value and help line in the chosen language: the console's for its rows,
    the game's catalogue for its options (``setting.NAME``...); English where a game has no
    such words (Goofspiel's cards)."""
    from bitbox.i18n import Words
    from bitbox.table.words import words_of
    english = {}
    for game in ("outspeed", "lastonealive", "goofspiel"):
        home = Home(games, given_of(game, ["--players", "3"]), Choices(lang=lang))
        assert home.lang == lang
        for row in home.rows:
            for value in row.values:
                row.select(value)
                shown = (home.label(row), home.shown(row, value), home.help(row))
                assert all(isinstance(t, str) for t in shown) and shown[0] and shown[1], (game, row.key, shown)
                assert not any(t.startswith("setting.") for t in shown), shown
                english[(game, row.key, value)] = shown
        if game != "goofspiel":                            # the game's own words: its catalogue, translated
            say = words_of(games[game], lang)
            for row in home.option_rows:
                row.index = 0                              # (physical tokens without controllers: said above)
                assert home.label(row) == say.t(f"setting.{row.key[4:]}")
                assert home.help(row) == say.t(f"setting.{row.key[4:]}.help")
        else:
            assert home.label(home.option_rows[0]) == "Cards"             # no setting.cards: its name
    assert Home(games, given_of("lastonealive", []), Choices(lang=lang)).label(Row("players", [2])) == \
        Words(lang).t("home.row.players")
    if lang == "de":
        home = Home(games, given_of("lastonealive", ["--players", "3"]), Choices(lang=lang))
        shown = {r.key: (home.label(r), home.shown(r, r.values[-1])) for r in home.option_rows}
        assert shown["opt:tokens"] == ("Marker", "echt (ein echter Beutel)")
        assert shown["opt:survivors"] == ("Überlebende", "an")
        assert shown["opt:first_zombie"] == ("Start-Zombiewürfel", "nur der des ersten Spielers")


def test_a_game_without_words_or_with_broken_ones_is_offered_in_english(games, monkeypatch):
    """A game whose words cannot be made (its ``words`` raises) or that lacks a key: the
    option's name and English help, never an exception."""
    class Broken:
        def __init__(self, inner):
            self.inner = inner

        def __getattr__(self, name):
            return getattr(self.inner, name)

        def words(self, code):
            raise RuntimeError("no words today")
    shelf = dict(games, goofspiel=Broken(games["goofspiel"]))
    home = Home(shelf, given_of("goofspiel", []), Choices(lang="fr"))
    row = home.option_rows[0]
    assert (home.label(row), home.shown(row, row.value), home.help(row)) == \
        ("Cards", str(row.value), "cards in each hand and in the prize pile")


def test_choices_are_remembered_and_preselected(games, tmp_path):
    path = tmp_path / "cfg" / "home.json"
    home = Home(games, given_of(None, []), Choices())
    home.key("right")                                      # goofspiel
    home.key("down")
    home.key("left")                                       # 3 players
    save_choices(path, home.choices())
    saved, problem = load_choices(path)
    assert problem is None
    again = Home(games, given_of(None, []), saved)
    assert (again.game_row.value, again.players_row.value) == ("goofspiel", 3)
    assert again.choices().to_data() == home.choices().to_data()


@pytest.mark.parametrize("content", [b"{not json", b"\xff\xfe\x00garbage", b"[1, 2, 3]", b'"a string"',
                                     b"[" * 100_000, b" " * (70 * 1024)], ids=["broken", "binary", "list",
                                                                               "string", "deep", "huge"])
def test_a_hostile_choices_file_is_one_line_and_the_defaults(tmp_path, content):
    path = tmp_path / "home.json"
    path.write_bytes(content)
    choices, problem = load_choices(path)
    assert choices == Choices()
    assert problem is not None and "\n" not in problem and str(path) in problem


def test_odd_values_in_a_choices_file_are_left_out_one_by_one(games, tmp_path):
    path = tmp_path / "home.json"
    path.write_text(json.dumps({"game": "nope", "players": 10**9, "bots": True, "lang": "xx",
                                "options": {"goofspiel": {"cards": 99, "x" * 99: 1}, "outspeed": "no"}}))
    choices, problem = load_choices(path)
    assert problem is None
    assert (choices.players, choices.bots, choices.lang) == (None, None, None)
    home = Home(games, given_of(None, []), choices)      # an unknown game or value: the defaults
    assert home.game_row.value == "outspeed"
    home.key("right")
    assert home.option_rows[0].value == 6


def test_a_folder_where_the_file_should_be_is_one_line(tmp_path):
    (tmp_path / "home.json").mkdir()
    choices, problem = load_choices(tmp_path / "home.json")
    assert choices == Choices() and problem is not None
    assert save_choices(tmp_path / "home.json", Choices()) is not None


def test_headless_never_shows_the_home_screen(games, monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.delenv("BITBOX_ASSUME_DISPLAY", raising=False)
    assert not wanted([])                                  # no display: headless
    monkeypatch.setenv("BITBOX_ASSUME_DISPLAY", "1")
    assert wanted([]) and not wanted(["--headless"]) and not wanted(["--resume"]) and not wanted(["--help"])


def test_with_everything_settled_play_goes_on_as_before(games, monkeypatch, tmp_path):
    monkeypatch.setenv("BITBOX_CONFIG_DIR", str(tmp_path))
    played = []
    code = home_play("goofspiel", ["--players", "2", "--bots", "2", "--lang", "en", "--cards", "3"],
                     lambda g, a: played.append((g, a)) or 0, err=io.StringIO())
    assert code is None and not played


def test_after_the_game_the_centre_wheel_chooses_and_the_lock_confirms():
    after = AfterGame("fr")
    after.handle(wheels(0, 0, 3, 0, locked=True))          # a lock still closed from the game: no choice
    assert not after.done
    after.handle(wheels(0, 0, 3, 0))
    after.handle(wheels(0, 0, 5, 0))
    assert after.row.value == "quit" and after.shown(after.row, after.row.value) == "Quitter"
    after.handle(wheels(0, 0, 5, 0, locked=True))
    assert after.done


# ---------------------------------------------------------------------------- names in the lobby
def lobby_with(known=(), after_home=False) -> Lobby:
    lobby = Lobby(COLOURS, 4, known=list(known), after_home=after_home)
    lobby.handle(Connected(0, ControllerInfo(100, "p0", (1, 2), "fw", (16, 16, 16)), 0.0))
    return lobby


def test_the_centre_wheel_offers_the_journals_names_and_the_lock_sits_with_one():
    lobby = lobby_with(["Ana", "Luis"])
    lobby.handle(wheels(0))
    lobby.handle(wheels(0, centre=2))
    e = lobby.entries[0]
    assert lobby.name_of(e) == "Luis"
    lobby.handle(wheels(0, centre=2, locked=True))         # takes Red with the name
    assert e.seat == 0 and lobby.chosen_names() == {0: "Luis"}
    lobby.handle(wheels(0, centre=1, locked=True))         # ready: the wheels name nobody now
    assert lobby.chosen_names() == {0: "Luis"}


def test_the_right_wheel_spells_a_new_name():
    lobby = lobby_with(["Ana"])
    lobby.handle(wheels(0))
    e = lobby.entries[0]
    lobby.handle(wheels(0, centre=2))                      # past Ana: the first letter to spell
    assert lobby.spelling(e) == 0
    lobby.handle(wheels(0, centre=2, right=15))            # one stop back from the space: Z
    lobby.handle(wheels(0, centre=3, right=15))            # the second letter
    lobby.handle(wheels(0, centre=3, right=0))             # one stop on: A
    assert e.letters[:2] == ["Z", "A"]
    assert lobby.name_of(e) == "Za"


def test_the_keyboard_types_a_name_after_tab_and_a_name_is_kept_once():
    lobby = lobby_with(["Ana"])
    lobby.handle(Connected(1, ControllerInfo(101, "p1", (1, 2), "fw", (16, 16, 16)), 0.0))
    for seat in (0, 1):
        lobby.handle(wheels(seat))
        lobby.handle(wheels(seat, locked=True))
    lobby.type_next()
    assert lobby.typing == 0
    lobby.type("Lu\bis é")
    assert lobby.name_of(lobby.entries[0]) == "Lis é"
    lobby.type_next()
    lobby.type("lis é")                                    # the same name, another seat: the first keeps it
    assert lobby.chosen_names() == {0: "Lis é"}
    lobby.type_next()
    assert lobby.typing is None
    lobby.handle(Connected(2, ControllerInfo(102, "p2", (1, 2), "fw", (16, 16, 16)), 0.0))
    for _ in range(3):
        lobby.type_next()
    assert lobby.typing == 2                               # after the seated: one not seated yet


def test_a_lock_closed_on_the_home_screen_takes_no_seat_but_a_new_one_does():
    lobby = lobby_with(after_home=True)
    lobby.handle(wheels(0, locked=True))
    assert lobby.entries[0].seat is None
    lobby.handle(wheels(0))
    lobby.handle(wheels(0, locked=True))
    assert lobby.entries[0].seat == 0
    plain = lobby_with()                                   # a lobby of its own: a closed lock sits at once
    plain.handle(wheels(0, locked=True))
    assert plain.entries[0].seat == 0


def test_known_names_come_from_the_journal_most_recent_first_once_each():
    games = [SimpleNamespace(id=1, settings={"names": {"red": "Ana", "blue": "luis"}}),
             SimpleNamespace(id=2, settings={"names": {"red": "Luis", "blue": 7, "green": "x" * 99}}),
             SimpleNamespace(id=3, settings={"names": "nonsense"}), SimpleNamespace(id=4, settings={})]
    assert known_names(games) == ["Luis", "Ana"]


def test_the_lobby_screen_shows_the_name_being_spelled():
    import pygame
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from bitbox.display.lobby import LobbyScreen, _name
    from bitbox.i18n import Words
    lobby = lobby_with()
    lobby.handle(wheels(0))
    lobby.handle(wheels(0, centre=1))
    lobby.handle(wheels(0, centre=1, right=1))
    assert _name(lobby, lobby.entries[0], Words("en")) == "✎ [A]"
    lobby.handle(wheels(0, centre=1, right=1, locked=True))
    assert _name(lobby, lobby.entries[0], Words("en")) == "A"
    pygame.font.init()
    surface = pygame.Surface((1280, 720))
    lobby.handle(wheels(0, centre=1, right=1))             # the lock open again: spelling
    lobby.handle(wheels(0, centre=2, right=1))
    assert _name(lobby, lobby.entries[0], Words("en")) == "✎ A[ ]"
    screen = LobbyScreen((1280, 720))
    screen.draw(surface, lobby, title="Goofspiel")
    # Red's row carries who sits there: the name being spelled and the controller, in white
    from bitbox.display.shell import TEXT
    who = [r for r in screen.labels if 190 < r.x < 220 and 100 <= r.y < 200][0]      # 1280x720: row 1, x 205
    assert TEXT in {tuple(surface.get_at((x, y)))[:3] for x in range(who.x, who.right) for y in range(who.y, who.bottom)}


def test_the_lobby_window_types_a_name_after_tab_with_the_keyboard():
    import pygame

    from bitbox.table.lobby import run_lobby
    from bitbox.testing.fakehub import FakeHub
    pygame.display.init()
    pygame.font.init()
    screen = pygame.display.set_mode((1024, 576))
    try:
        hub = FakeHub()
        (sim,) = hub.add_sim(1)
        lobby = Lobby(COLOURS, 4, known=["Ana"], min_players=2)
        pressed = iter([[], [pygame.K_TAB], "Bé", [pygame.K_BACKSPACE], "o", [pygame.K_t, pygame.K_RETURN],
                        "sit"])

        def keys() -> list[str]:                            # a frame at a time, through pygame's queue
            step = next(pressed, None)
            if step == "sit":
                sim.set(locked=True)
            elif isinstance(step, str):
                for ch in step:
                    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a, unicode=ch))
            elif step:
                for k in step:
                    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, unicode="t" if k == pygame.K_t else ""))
            return []
        order = run_lobby(hub, lobby, screen=screen, keys=keys, max_seconds=10)
        assert order is not None and len(order) == 1
        # typed before sitting: "Bé", a backspace, "o", then "t" (a letter while typing, not the test
        # screen), Enter ends it; the lock sits with the name (and starts: everyone is ready)
        assert lobby.chosen_names() == {0: "Bot"} and lobby.typing is None
    finally:
        pygame.display.quit()


@pytest.mark.parametrize("size", [(1024, 576), (1280, 720), (1920, 1080), (3840, 2160)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_home_screen_fits_every_language_at_every_size(games, size, monkeypatch):
    """No text of the home screen or the after-game menu is cut or overlaps another, in any
    of the four languages, from the smallest window to 4K (with a controller found, and
    without: the Bots row and its help line; the options' labels, widest values and help
    lines in that language's words)."""
    import pygame

    from bitbox.display.home import HomeScreen
    pygame.font.init()
    cut = cut_texts(monkeypatch, HomeScreen)
    surface = pygame.Surface(size)
    view = HomeScreen()                                     # one screen: its fonts are cached
    for lang in ("en", "es", "fr", "de"):
        for game in ("outspeed", "lastonealive", "goofspiel", None):
            menu = AfterGame(lang) if game is None else Home(games, given_of(game, []), Choices(lang=lang))
            for controllers in (0, 1):
                if controllers:
                    menu.handle(Connected(0, ControllerInfo(1, "p", (1, 2), "fw", (16, 16, 16)), 0.0))
                # each option row at its widest value (in this language's words: the game's
                # catalogue), then every row's help line once (without controllers), else the first row
                for r in getattr(menu, "option_rows", []):
                    r.index = max(range(len(r.values)), key=lambda i: len(menu.shown(r, r.values[i])))
                for row in (range(len(menu.rows)) if not controllers and game is not None else [0]):
                    menu.cursor = row
                    view.draw(surface, menu)
                    assert not cut, (lang, game, cut)
                    boxes = view.labels
                    for i, a in enumerate(boxes):
                        for b in boxes[i + 1:]:
                            assert not a.colliderect(b), (lang, game, row, a, b)


def test_without_a_display_play_goes_as_before_and_dev_plays_its_default_game(games, monkeypatch, tmp_path, capsys):
    from bitbox.cli import main
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.delenv("BITBOX_ASSUME_DISPLAY", raising=False)
    monkeypatch.setenv("BITBOX_CONFIG_DIR", str(tmp_path / "config"))
    assert main(["play", "--players", "2"]) == 2            # several games and no screen: say which
    assert "choose a game with --game NAME" in capsys.readouterr().err
    fast = ["--players", "2", "--speed", "0", "--seed", "3", "--size", "320x180", "--journal", "j.sqlite",
            "--snapshots", "s", "-q"]
    assert main(["play", "--default-game", "goofspiel", "--cards", "3", *fast]) == 0      # ./dev play's way
    assert "Winner" in capsys.readouterr().out
    assert not (tmp_path / "config").exists()              # no home screen: nothing remembered


def test_the_lobbys_test_screen_shows_the_games_wheel_meanings():
    """T in the lobby opens the controller test screen with the game's wheel map (its meanings,
    not the bare stops), for a game that has one in config/wheels.yaml; another shows stops."""
    from bitbox.table.lobby import arrange
    from bitbox.table.service import ServiceBench
    outspeed = arrange(None, ["red", "blue"], 6, game="outspeed")._wheel_map()
    assert outspeed is not None and outspeed.meaning("right", 1) is not None
    assert arrange(None, ["red", "blue"], 4, game="lastonealive")._wheel_map() is not None
    assert arrange(None, ["red", "blue"], 4, game="goofspiel")._wheel_map() is None
    assert arrange(None, ["red", "blue"], 4)._wheel_map() is None
    assert ServiceBench(None, outspeed).wheel_map is outspeed


# ---------------------------------------------------------------------------- keyboard players in the lobby
def test_keyboard_players_are_named_in_the_lobby_at_the_seats_they_will_take():
    """--keyboard: the hot-seat players are in the lobby at the first free seats (before the
    bots'), Tab reaches them after the controllers, a name is typed or one of the journal's
    chosen with ↑/↓ (as the centre wheel does), and the lobby waits for Enter."""
    lobby = Lobby(COLOURS, 4, known=["Ana", "Luis"], min_players=2, bots=1, keyboard=True, players=3)
    assert lobby.keyboard_count() == 2 and sorted(lobby.keyboard_seats()) == [0, 1]
    lobby.handle(Connected(0, ControllerInfo(100, "p0", (1, 2), "fw", (16, 16, 16)), 0.0))
    lobby.handle(wheels(0))
    lobby.handle(wheels(0, left=0, locked=True))           # the controller sits at Red
    assert lobby.entries[0].seat == 0
    hands = lobby.keyboard_seats()
    assert sorted(hands) == [1] and lobby.bot_count() == 1  # one keyboard player (Blue), then one bot
    assert not lobby.everyone_ready()                        # keyboard players start with Enter
    lobby.type_next()
    assert lobby.typing == 0                                 # the controller's seat first
    lobby.type_next()
    assert lobby.typing == hands[1].hub_seat < 0
    lobby.type("Zoe")
    assert lobby.chosen_names() == {1: "Zoe"}
    lobby.pick(1)                                            # ↓: the journal's first name
    assert lobby.chosen_names() == {1: "Ana"}
    lobby.pick(1)
    lobby.pick(1)                                            # no further than the last
    assert lobby.chosen_names() == {1: "Luis"}
    lobby.pick(-2)                                           # back to no name
    assert lobby.chosen_names() == {}
    lobby.type("Luis")
    lobby.type_next()
    assert lobby.typing is None
    lobby.more_bots(1)                                       # the keyboard's seats follow the command line
    assert lobby.bot_count() == 1 and lobby.chosen_names() == {1: "Luis"}


def test_a_keyboard_game_names_its_players_in_the_lobby_and_journals_them(table, monkeypatch, capfd):
    """``play --keyboard`` on a screen opens the lobby even without a controller; the names
    typed there are the game's (its status line and the journal's names)."""
    import bitbox.table.lobby as lobby_module
    from bitbox.cli import main
    from bitbox.table.journal import Journal
    real = lobby_module.run_lobby
    seen = []

    def run_lobby(hub, lobby, **kw):
        steps = iter([["tab"], ["type:Zoé"], ["tab"], ["type:Max"], ["typed"], ["enter"]])
        seen.append(lobby)
        return real(hub, lobby, **{**kw, "keys": lambda: next(steps, [])})
    monkeypatch.setattr(lobby_module, "run_lobby", run_lobby)
    code = main(["play", "--game", "goofspiel", "--players", "3", "--bots", "1", "--keyboard", "--cards", "3",
                 "--seed", "4", "--journal", "j.sqlite", "--size", "1024x576", "--max-seconds", "1", "--mute", "--lang", "en"])
    err = capfd.readouterr().err
    assert len(seen) == 1 and seen[0].keyboard_count() == 2, err[-2000:]
    with Journal("j.sqlite", create=False) as journal:
        (game,) = journal.games()
        assert game.settings["names"] == {"red": "Zoé", "blue": "Max"}, code
        assert [s["kind"] for s in game.settings["seats"]] == ["keyboard", "keyboard", "bot"]
    assert "Zoé" in err and "Max" in err


@pytest.mark.parametrize("size", [(1024, 576), (1280, 720), (1920, 1080), (3840, 2160)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_lobby_with_keyboard_players_fits_every_language(size, monkeypatch):
    """The keyboard players' rows (the longest name typed, "played at the keyboard", "Tab: type
    a name") and the typing line: whole and apart in every language, from the smallest window
    to 4K, beside a seated controller and a bot."""
    import pygame

    from bitbox.display.lobby import LobbyScreen
    from bitbox.table.lobby import MAX_TYPED
    pygame.font.init()
    cut = cut_texts(monkeypatch, LobbyScreen)
    lobby = Lobby(COLOURS, 4, min_players=2, bots=1, keyboard=True, players=4)
    lobby.handle(Connected(0, ControllerInfo(0x1D1E00000000C0DE, "/dev/ttyACM0", (1, 2), "ref-1.1", (16, 16, 16)), 0.0))
    lobby.handle(wheels(0))
    lobby.handle(wheels(0, locked=True))
    for _ in range(2):
        lobby.type_next()
    lobby.type("W" * MAX_TYPED)                              # the widest name the keyboard can type
    lobby.type_next()                                        # the second keyboard player's, being typed
    lobby.type("W" * MAX_TYPED)
    assert lobby.keyboard_count() == 2 and lobby.typing is not None and lobby.typing < 0
    surface = pygame.Surface(size)
    view = LobbyScreen(size)
    for lang in ("en", "es", "fr", "de"):
        view.draw(surface, lobby, title="Last One Alive", options="Deutsch · Bots: careful,random", bots=lobby.bot_count(),
                  lang=lang)
        assert not cut, (lang, cut)
        boxes = view.labels
        for i, a in enumerate(boxes):
            assert not any(a.colliderect(b) for b in boxes[i + 1:]), (lang, a)


def test_table_options_are_offered_only_for_a_game_with_its_own_table_command(games):
    """The console's generic table has no table options: a cartridge that declares some but
    plays at the generic table is offered its rules' options only (never a flag its command
    would refuse)."""
    from bitbox.games import OptionSpec
    from bitbox.table.home import game_options

    class Generic:
        def __init__(self, inner):
            self.inner = inner
            self.table_options = (OptionSpec("lights", "on", "the lights", ("on", "off")),)

        def __getattr__(self, name):
            return getattr(self.inner, name)
    generic = Generic(games["goofspiel"])
    assert not hasattr(games["goofspiel"], "play_main")
    assert [s.name for s in game_options(generic)] == ["cards"]
    home = Home(dict(games, goofspiel=generic), given_of("goofspiel", []), Choices())
    assert [r.key for r in home.option_rows] == ["opt:cards"]
    assert [s.name for s in game_options(games["lastonealive"])][-1] == "tokens"     # its own command (play_main)
