"""People's names at the table and the end of a game (issue 20), as a table runs them: real
subprocesses of the games' commands (headless), real SQLite journals, real PNG frames read
back by pixels.

* ``play --names``: checked (one line, exit 2), stored in the journal's ``settings["names"]``
  (the standings' contract), said in the events, the status line, ``history`` (text and
  JSON), ``replay``, ``export``;
* the end screen: over the last turn's snapshot, the winners, the reason (Survivors' by
  score, never "the last one alive" with three alive) and each player's figures, in the
  table's language; the same lines printed;
* a Survivors game over in its setup draws: said so in the events and the simulation report
  (no empty reason, no ``-4-0`` bucket), with the level at the end;
* the commands agree on Survivors' player counts (the engine's one check).
"""
from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

LOA = [sys.executable, "-m", "lastonealive.cli"]
OUTSPEED = [sys.executable, "-m", "outspeed.cli"]
BITBOX = [sys.executable, "-m", "bitbox.cli"]
ACCENT = (255, 198, 64)          # the end screen's border (bitbox.display.shell.ACCENT)


def env(tmp_path: Path) -> dict[str, str]:
    e = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    e.update(XDG_DATA_HOME=str(tmp_path / "data"), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    return e


def run(command: list[str], args: list[str], tmp_path: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(command + args, cwd=tmp_path, env=env(tmp_path), capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)


def settings_of(journal: Path, game: int = 1) -> dict:
    db = sqlite3.connect(journal)
    try:
        return json.loads(db.execute("SELECT settings FROM games WHERE id = ?", (game,)).fetchone()[0])
    finally:
        db.close()


# ---------------------------------------------------------------------------- bad names
@pytest.mark.parametrize("names, said", [
    ("Ana,,Luis", "name 2 is empty"),
    ("Ana,ana", "'ana' is given twice"),
    ("Ana, Luis ,  luis", "'luis' is given twice"),
    ("x" * 41, "name 1 has 41 characters: at most 40"),
    ("Ana,Lu\x07is", "name 2 has a control character (U+0007)"),
    ("Ana,Lu\u200bis", "name 2 has a control character (U+200B)"),
])
def test_a_bad_name_is_one_line_and_exit_2(tmp_path, names, said):
    r = run(LOA, ["play", "--headless", "--players", "2", "--names", names], tmp_path)
    assert r.returncode == 2 and said in r.stderr, r.stderr
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr and r.stdout == ""
    assert not (tmp_path / "data").exists()            # refused before any journal is opened


def test_more_names_than_players_is_refused_by_every_games_play(tmp_path):
    r = run(LOA, ["play", "--headless", "--players", "2", "--names", "Ana,Luis,Zoé"], tmp_path)
    assert r.returncode == 2 and r.stderr == "lastonealive play: --names gives 3 names for 2 players " \
                                             "(one name per seat, in seat order)\n"
    r = run(OUTSPEED, ["play", "--headless", "--names", "A,B,C,D,E,F,G"], tmp_path)
    assert r.returncode == 2 and "--names gives 7 names for 6 players" in r.stderr and r.stderr.count("\n") == 1
    # the demo's count decided at the table (4 seats): a fifth name has no seat
    r = run(LOA, ["play", "--headless", "--speed", "0", "--names", "A,B,C,D,E", "--journal", "j.sqlite"], tmp_path)
    assert r.returncode == 2 and "--names gives 5 names for 4 players" in r.stderr and "Traceback" not in r.stderr
    r = run(LOA, ["play", "--resume", "--headless", "--names", "Ana"], tmp_path)
    assert r.returncode == 2 and "--resume keeps the game's names" in r.stderr


# ---------------------------------------------------------------------------- a named game, start to replay
@pytest.fixture(scope="module")
def named_game(tmp_path_factory):
    """A Survivors game of three named bots (German), its journal and snapshots."""
    tmp = tmp_path_factory.mktemp("named")
    r = run(LOA, ["play", "--headless", "--speed", "0", "--players", "3", "--variant", "survivors", "--seed", "7",
                  "--names", "Ana,Luis,Zoé", "--lang", "de", "--journal", "j.sqlite", "--snapshots", "snaps",
                  "--size", "960x540"], tmp,
            timeout=240)
    assert r.returncode == 0, r.stderr
    return tmp, r


def test_names_are_stored_in_the_journal_as_the_standings_read_them(named_game):
    tmp, _ = named_game
    settings = settings_of(tmp / "j.sqlite")
    assert settings["names"] == {"red": "Ana", "blue": "Luis", "green": "Zoé"}
    from bitbox.standings import seat_identities
    who = seat_identities(["red", "blue", "green"], settings)
    assert who == {"red": ("bot", "careful"), "blue": ("bot", "random"), "green": ("bot", "careful")}  # bots: rated as bots


def test_names_in_the_status_line_the_events_and_the_end(named_game):
    _, r = named_game
    assert "Ana (Rot, Bot), Luis (Blau, Bot), Zoé (Grün, Bot)" in r.stderr          # the colours stay as the seats'
    assert "Überlebende" in r.stderr                                              # the variant in German
    out = r.stdout.splitlines()
    assert any(line.startswith("  Ana ") for line in out) and not any("Rot " in line for line in out)
    over = [line for line in out if line.startswith("Spielende")]
    # two still alive at the third apocalypse token: won on score, never "the last one alive"
    assert over == ["Spielende mit dem dritten Apokalypse-Marker: Ana gewinnt nach Punkten (Ana 6, Zoé 4)"]
    assert "letzte Überlebende" not in r.stdout
    assert out[-4:] == ["  Ana — SIEGER — Leben 3, Punkte 6, Zombies erschossen 34, Züge 10, Plättchen 0, am Leben ja",
                        "  Luis — Leben 0, Zombies erschossen 2, Züge 5, Plättchen 0, am Leben nein",
                        "  Zoé — Leben 2, Punkte 4, Zombies erschossen 37, Züge 10, Plättchen 0, am Leben ja",
                        "Sieg: Ana"]


def _accent(pixel) -> bool:
    return all(abs(a - b) <= 8 for a, b in zip(pixel[:3], ACCENT))


def _panel_border(img) -> bool:
    """The end screen's border crosses the middle row near 5 % of the width (the panel is 90 %
    of the width, centred), on both sides."""
    w, h = img.get_size()
    return all(any(_accent(img.get_at((x, h // 2))) for x in range(lo - 3, lo + 6))
               for lo in (w // 20, w - w // 20 - 3))


def test_the_end_screen_is_over_the_last_snapshot(named_game):
    import pygame
    tmp, _ = named_game
    turns = sorted((tmp / "snaps").glob("lastonealive-1-*/turn-*.png"))
    assert [p.name for p in turns] == [f"turn-{k:02d}.png" for k in range(1, len(turns) + 1)]   # nothing else
    img = pygame.image.load(str(turns[-1]))
    w, h = img.get_size()
    assert (w, h) == (960, 540)
    # the panel's border: 90 % of the width, centred; the table around it darkened
    assert _panel_border(img) and not _accent(img.get_at((w // 40, h // 2)))
    before = pygame.image.load(str(turns[-2]))
    assert not _panel_border(before)                              # a turn before the end has no panel


def test_history_lists_the_names_text_and_json(named_game):
    tmp, _ = named_game
    r = run(LOA, ["history", "--journal", "j.sqlite"], tmp)
    assert r.returncode == 0, r.stderr
    assert "Ana (red)*, Luis (blue)*, Zoé (green)*" in r.stdout and "winner: Ana " in r.stdout + " "
    r = run(LOA, ["history", "--json", "--journal", "j.sqlite"], tmp)
    doc = json.loads(r.stdout)
    g = doc["games"][0]
    assert g["players"] == [{"name": "red", "kind": "bot", "person": "Ana"},
                            {"name": "blue", "kind": "bot", "person": "Luis"},
                            {"name": "green", "kind": "bot", "person": "Zoé"}]
    assert "names" not in g["options"]


def test_replay_and_export_keep_the_names(named_game):
    import pygame
    tmp, played = named_game
    r = run(LOA, ["replay", "1", "--headless", "--journal", "j.sqlite", "--snapshots", "rs", "--lang", "en",
                  "--size", "640x360"], tmp, timeout=240)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[-4:] == ["  Ana — WINNER — lives 3, score 6, zombies shot 34, turns 10, tokens 0, alive yes",
                          "  Luis — lives 0, zombies shot 2, turns 5, tokens 0, alive no",
                          "  Zoé — lives 2, score 4, zombies shot 37, turns 10, tokens 0, alive yes",
                          "Winner: Ana"]
    assert "Game over at the third apocalypse token: Ana wins on score (Ana 6, Zoé 4)" in r.stdout
    # the replay's events read as the table's did (English here, German there: the same count of lines)
    assert sum(1 for line in lines if line.startswith("  ")) == sum(1 for line in played.stdout.splitlines()
                                                                     if line.startswith("  "))
    frames = sorted((tmp / "rs").glob("replay-lastonealive-1-*/turn-*.png"))
    assert _panel_border(pygame.image.load(str(frames[-1])))                # the end screen on the last frame
    assert not _panel_border(pygame.image.load(str(frames[-2])))
    r = run(LOA, ["export", "1", "g.json", "--journal", "j.sqlite"], tmp)
    assert r.returncode == 0, r.stderr
    assert json.loads((tmp / "g.json").read_text())["settings"]["names"] == {"red": "Ana", "blue": "Luis", "green": "Zoé"}


# ---------------------------------------------------------------------------- the end screen's pieces
def test_the_end_screen_of_a_game_that_brings_only_its_figures(tmp_path):
    """The generic display, the tutorial game's figures hook, French: every label drawn."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tutorial"))
    try:
        import goofspiel
    finally:
        sys.path.pop(0)
    from bitbox.display.ending import draw_ending, ending_of
    from bitbox.display.generic import GenericDisplay
    from bitbox.display.model import LogEntry
    from bitbox.table.words import GameWords
    c = goofspiel.CARTRIDGE
    game = c.new(["red", "blue"], 3, {"cards": 3})
    while not game.finished:
        game.apply({p.player: sorted(p.options)[-1 if p.player == "red" else 0] for p in game.prompts()})
    words = GameWords(c, "fr").named({"red": "Ana"})
    end = ending_of(words, ["red", "blue"], list(game.winners), [LogEntry("game_over", {"winners": ["red"]})],
                    game.public_view(), c.figures)
    assert end.names == {"red": "Ana", "blue": "Bleu"} and end.winners == ("red",)
    scores = {p["player"]: p["score"] for p in game.public_view()["players"]}
    assert end.figures["red"] == (("score", str(scores["red"])), ("cartes restantes", "0"))
    d = GenericDisplay((1280, 720), words, title="Goofspiel")
    d.render({"players": [{"player": "red"}, {"player": "blue"}]}, full=True)
    draw_ending(d, end)
    drawn = [text for _, _, text in d.labels["ending"]]
    assert drawn[:2] == ["Fin de la partie", words.event("game_over", {"winners": ["red"]})]
    assert "Ana" in drawn[1]
    assert {"Ana", "Bleu", "GAGNANT", "score", "cartes restantes", str(scores["red"]), "0"} <= set(drawn)


def test_a_hook_that_fails_still_ends_the_game_with_its_winners():
    from bitbox.display.ending import ending_of
    from bitbox.i18n import Words

    def broken(view, events):
        raise KeyError("players")
    end = ending_of(Words("es"), ["red", "blue"], ["blue"], [], {}, broken)
    assert end.figures == {} and end.reason and end.title == Words("es").t("ui.game_over")


# ---------------------------------------------------------------------------- how a Last One Alive game ends
def test_survivors_words_say_how_the_game_ended():
    from lastonealive.words import Lang
    en = Lang("en").named({"red": "Ana"})
    scores = {"red": 6, "blue": 6, "green": 6}
    assert en.event("game_over", {"winners": ["red", "blue", "green"], "why": "the third apocalypse token",
                                  "scores": scores}) == \
        "Game over at the third apocalypse token: Ana, Blue and Green share the victory on score (Ana 6, Blue 6, Green 6)"
    assert en.event("game_over", {"winners": ["red"], "why": "the third apocalypse token", "scores": {"red": 7, "blue": 5}}) \
        == "Game over at the third apocalypse token: Ana wins on score (Ana 7, Blue 5)"
    assert en.event("game_over", {"winners": ["red"], "why": "the last one alive", "scores": {}}) == \
        "Game over: Ana — the last one alive!"
    assert en.event("game_over", {"winners": ["red", "blue", "green"], "why": "the third apocalypse token",
                                  "scores": scores, "setup": True}).startswith(
        "Game over in the setup draws, before anyone played (the third apocalypse token): Ana, Blue and Green share")


def test_a_survivors_game_over_in_its_setup_draws(tmp_path):
    """Run seed 1021's first game (3 players, Survivors) draws the three apocalypse tokens in
    its setup: the engine says so, and the simulation's report and CSV too."""
    from lastonealive.cartridge import CARTRIDGE
    from lastonealive.rules import Action
    from lastonealive.session import new_game
    from lastonealive.sim.runner import game_seed
    game = new_game(["red", "blue", "green"], seed=game_seed(1021, 0), variants=["survivors"],
                    **CARTRIDGE.content.game_options())
    events = game.apply(Action("start", None, "red"))
    over = [e.data for e in events if e.kind == "game_over"]
    assert over and over[0]["setup"] is True and over[0]["why"] == "the third apocalypse token"
    assert game.state.turn == 0 and game.state.level == 4
    r = run(LOA, ["simulate", "--games", "1", "--seed", "1021", "--players", "3", "--variant", "survivors",
                  "--out", "sim", "-q"], tmp_path, timeout=240)
    assert r.returncode == 0, r.stderr
    assert "ended 1 by the third apocalypse token, in the setup draws" in r.stdout
    assert "level when the game ended: 4: 100%" in r.stdout
    assert "0 (ended in the setup draws)" in r.stdout and "-4-0" not in r.stdout
    import csv
    rows = list(csv.DictReader((tmp_path / "sim" / "games.csv").open()))
    assert rows[0]["turns"] == "0" and rows[0]["end"] == "the third apocalypse token, in the setup draws"
    assert rows[0]["final_level"] == "4"                 # the level at the end, not at a turn's start


# ---------------------------------------------------------------------------- one source for option bounds
def test_play_simulate_and_the_cartridge_agree_on_survivors_player_counts(tmp_path):
    play = run(LOA, ["play", "--headless", "--players", "4", "--variant", "survivors"], tmp_path)
    sim = run(LOA, ["simulate", "--games", "2", "--players", "4", "--variant", "survivors"], tmp_path)
    for r in (play, sim):
        assert r.returncode == 2 and "is for 2 or 3 players" in r.stderr and r.stderr.count("\n") == 1, r.stderr
    # the console's `bitbox game lastonealive` runs the game's own command: the same check
    console = run(BITBOX, ["game", "lastonealive", "play", "--headless", "--speed", "0", "--players", "4",
                           "--variant", "survivors", "--journal", "k.sqlite"], tmp_path)
    assert console.returncode == 2 and "Traceback" not in console.stderr
    assert "the survivors variant is for 2 or 3 players, not 4" in console.stderr and console.stderr.count("\n") == 1
    from bitbox.games.protocol import GameError
    from lastonealive.cartridge import CARTRIDGE
    from lastonealive.rules import RulesError
    from lastonealive.session import new_game
    five = ["red", "blue", "green", "yellow", "purple"]
    with pytest.raises(GameError, match="the survivors variant is for 2 or 3 players, not 5"):
        CARTRIDGE.new(five, 0, {"survivors": True})
    (survivors,) = [spec for spec in CARTRIDGE.options if spec.name == "survivors"]
    assert survivors.players == (2, 3) and survivors.barred(True, 4) and not survivors.barred(True, 3)
    with pytest.raises(RulesError, match="the survivors variant is for 2 or 3 players, not 5"):
        new_game(five, seed=0, variants=["survivors"])


def test_play_offers_the_zombified_rolls_and_one_starting_zombie(tmp_path):
    r = run(LOA, ["play", "--headless", "--speed", "0", "--players", "2", "--seed", "4", "--variant", "zombified_rolls",
                  "--first-zombie", "first", "--journal", "j.sqlite", "--lang", "es"], tmp_path, timeout=240)
    assert r.returncode == 0, r.stderr
    assert "los zombificados tiran" in r.stderr and "un solo dado zombi inicial" in r.stderr
    settings = settings_of(tmp_path / "j.sqlite")
    assert settings["variants"] == ["zombies_everywhere", "zombified_rolls"]      # LA-4: the option implies its variant
    assert settings["first_zombie"] == "first"
    assert settings["bot"] == "careful,random"                      # a demo of a mix of bots
    db = sqlite3.connect(tmp_path / "j.sqlite")
    initial = json.loads(db.execute("SELECT initial FROM games WHERE id = 1").fetchone()[0])
    db.close()
    assert initial["first_zombie"] == "first"


# ---------------------------------------------------------------------------- names on every game's screen
def test_every_screen_shows_the_names_and_keeps_the_colours(monkeypatch):
    """Outspeed's panels (the console's shell), Last One Alive's cards and the generic display,
    rendered headless: the name where the colour's word was, the colour's word under it (the
    shell's panel), and the seat's colour still its mark."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    from bitbox.colours import SCREEN_RGB
    from bitbox.display.generic import GenericDisplay
    from bitbox.display.model import PlayerStatus, ShellView
    from lastonealive.display import TableDisplay as LoaDisplay
    from lastonealive.session import new_game
    from lastonealive.words import Lang as LoaLang
    from outspeed.display import TableDisplay, TableView
    from outspeed.words import Lang
    from bitbox.table.words import GameWords

    from .helpers import new_game as outspeed_game
    names = {"red": "Ana", "blue": "Luis"}
    view = outspeed_game(players=3, seed=3).public_view()
    d = TableDisplay(size=(1920, 1080), lang=Lang("fr").named(names))
    t = TableView(view=view, players=(PlayerStatus("red", kind="bot"), PlayerStatus("blue"), PlayerStatus("green")))
    d.render(t, full=True)
    drawn = [text for _, _, text in d.labels["players"]]
    assert {"Ana", "Luis", "Vert", "Rouge · robot", "Bleu"} <= set(drawn) and "Rouge" not in drawn
    ana = next(rect for rect, _, text in d.labels["players"] if text == "Ana")
    bar_x = ana.x - d.px(80) + d.px(2)                   # the seat's colour bar, left of its row
    assert any(all(abs(a - b) <= 6 for a, b in zip(d.surface.get_at((bar_x, y))[:3], SCREEN_RGB["red"]))
               for y in range(ana.top, ana.bottom))

    loa = new_game(["red", "blue", "green"], seed=2)
    d2 = LoaDisplay(size=(1280, 720), lang=LoaLang("es").named(names))
    d2.render(ShellView.from_public(loa.public_view()), full=True)
    texts = {text for region in d2.labels.values() for _, _, text in region}
    assert {"Ana", "Luis", "Verde"} <= texts and "Rojo" not in texts

    class Cartridge:
        name, title, locale = "toy", "Toy", None
    words = GameWords(Cartridge(), "de").named(names)
    d3 = GenericDisplay((1280, 720), words, title="Toy")
    d3.render({"players": [{"player": "red"}, {"player": "blue"}], "game": {"players": [{"player": "red", "score": 3}]}},
              full=True)
    texts = {text for region in d3.labels.values() for _, _, text in region}
    assert {"Ana", "Luis", "Ana: score 3"} <= texts and "Rot" in texts        # the colour's word under the name


# ---------------------------------------------------------------------------- promises kept
def test_an_outspeed_demo_says_its_fallbacks_and_reads_each_event_once(tmp_path):
    r = run(OUTSPEED, ["play", "--headless", "--speed", "0", "--players", "4", "--seed", "3", "--names", "Ana",
                       "--tokens", "physical", "--journal", "j.sqlite"], tmp_path, timeout=240)
    assert r.returncode == 0, r.stderr
    assert "bots and keyboard players cannot hold cardboard: virtual tokens" in r.stderr     # never silently
    assert "Ana (Red, bot), Blue (bot)" in r.stderr
    lines = r.stdout.splitlines()
    assert not [a for a, b in zip(lines, lines[1:]) if a == b and a.startswith("  ")]      # no line twice in a row
    assert "  Ana rolls the blue die again: 1" in lines                 # the box's blue die, rolled twice
    assert not any("plays no bonus token" in line for line in lines)
    assert [line for line in lines if "ame over" in line][0].startswith("Game over: ")     # as every game's headline
    assert settings_of(tmp_path / "j.sqlite")["bot"] == "mixed"         # the demo's mix of bots
    replayed = run(OUTSPEED, ["replay", "1", "--headless", "--journal", "j.sqlite"], tmp_path, timeout=240)
    assert "  Ana rolls the blue die again: 1" in replayed.stdout.splitlines()             # the replay says it alike


def test_a_game_without_the_tables_language_says_so(tmp_path):
    """The tutorial game ships English and French: a German table says its lines stay English."""
    e = env(tmp_path)
    here = Path(__file__).resolve().parents[1] / "tutorial"
    e.update(BITBOX_GAMES="goofspiel=goofspiel:CARTRIDGE",
             PYTHONPATH=os.pathsep.join([str(here), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep))
    r = subprocess.run(BITBOX + ["game", "goofspiel", "play", "--headless", "--speed", "0", "--players", "2",
                                 "--cards", "3", "--lang", "de", "--names", "Ana,Luis", "--journal", "j.sqlite"],
                       cwd=tmp_path, env=e, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stderr
    assert "Goofspiel hat keine Texte auf Deutsch: seine eigenen Zeilen bleiben englisch" in r.stderr
    lines = r.stdout.splitlines()
    assert lines[-1].startswith(("Sieger: ", "Kein Sieger")) and any(line.startswith("  Ana — ") for line in lines)
    assert any("score" in line for line in lines[-3:-1])                # the tutorial's figures, in English


def test_the_window_shows_the_end_screen_until_it_is_closed(tmp_path, monkeypatch):
    """The windowed loop (SDL's dummy video driver): once the game is over the end screen is
    on the window's surface, drawn over every later frame, until the window is closed."""
    import io

    import pygame
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    from bitbox.display.ending import ending_of
    from bitbox.display.model import LogEntry
    from bitbox.table.journal import Journal
    from outspeed.cartridge import CARTRIDGE
    from outspeed.display import Lang
    from outspeed.journaling import RULES
    from bitbox.table.referee import Pace
    from bitbox.table.command import CartridgeTable
    from outspeed.cartridge import CARTRIDGE as OUTSPEED
    TableLoop = CartridgeTable(OUTSPEED, "outspeed").loop()

    from .helpers import Table, new_game

    class CloseAfterTheEnd:
        def __init__(self) -> None:
            self.after = 0
            self.seen: list = []

        def update(self, session, now) -> None:
            if session.finished:
                self.after += 1
                surface = pygame.display.get_surface()
                if surface is not None and self.after > 1:
                    self.seen.append(_panel_border(surface))
                if self.after == 5:
                    pygame.event.post(pygame.event.Event(pygame.QUIT))

    j = Journal(tmp_path / "j.sqlite", RULES)
    game = new_game(players=3, seed=6)
    rec = j.new_game(game, {})
    t = Table(game, journal=rec, bots=("red", "blue", "green"), pace=Pace().scaled(400))
    t.pump()
    closer = CloseAfterTheEnd()
    words = Lang("fr").named({"red": "Ana"})
    events: list = []
    t.s.on_event = lambda e: events.append(e)
    loop = TableLoop(t.s, t.hub, [*t.drivers, closer], None, words, headless=False, out=io.StringIO(),
                     snapshots=None, size=(1024, 576), fps=500, max_seconds=120)
    loop.ending = lambda: ending_of(words, ["red", "blue", "green"], list(t.game.state.winners),
                                    [LogEntry(e.kind, e.data) for e in events], t.game.public_view(), CARTRIDGE.figures)
    assert loop.run() == 0
    assert t.s.finished and closer.after >= 5
    assert closer.seen and all(closer.seen)            # every frame after the end shows the panel


def test_the_names_a_journal_knows_for_a_lobby(named_game, tmp_path):
    """What a lobby offers on its wheel: the journal's names (any game), latest game first, once each."""
    import shutil

    from bitbox.table.journal import Journal
    from bitbox.table.names import known_names
    src, _ = named_game
    shutil.copy(src / "j.sqlite", tmp_path / "j.sqlite")
    with Journal(tmp_path / "j.sqlite", create=False) as j:
        assert known_names(j) == ["Ana", "Luis", "Zoé"]
    r = run(OUTSPEED, ["play", "--headless", "--speed", "0", "--players", "3", "--seed", "2", "--names", "ZOÉ,Kai",
                       "--journal", "j.sqlite", "-q"], tmp_path, timeout=240)
    assert r.returncode == 0, r.stderr
    with Journal(tmp_path / "j.sqlite", create=False) as j:
        assert known_names(j) == ["ZOÉ", "Kai", "Ana", "Luis"] and known_names(j, limit=2) == ["ZOÉ", "Kai"]
