"""Replay you can use, on the tutorial game (the console's, for every cartridge): the window's
move list, scrubber (keys, typed turns, a controller's wheels), win-chance graph and "what
would the bot play here"; ``replay --gif``; ``replay --suggest``. Real journals (a bots game
played by the command), real pygame frames (SDL's dummy driver) checked by pixels, GIFs read
back with Pillow, a real hub with a simulated controller."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
GAME = [sys.executable, "-m", "bitbox.cli", "game", "goofspiel"]
ACCENT = (255, 198, 64)


def _env(tmp: Path) -> dict[str, str]:
    e = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    e.update(XDG_DATA_HOME=str(tmp / "data"), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
             BITBOX_GAMES="goofspiel=goofspiel:CARTRIDGE",
             PYTHONPATH=os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep))
    return e


def run(args: list[str], cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(GAME + args, cwd=cwd, env=_env(cwd), capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    """A folder with j.sqlite: game 1, a finished 3-player bots game of 4 rounds, played headless
    by the command; and an-1/: its analysis.json written by `analyse`."""
    tmp = tmp_path_factory.mktemp("replay")
    r = run(["play", "--headless", "--players", "3", "--seed", "11", "--cards", "4", "--journal", "j.sqlite"], tmp)
    assert r.returncode == 0, r.stderr
    a = subprocess.run([sys.executable, "-m", "bitbox.cli", "analyse", "goofspiel", "1", "--journal", "j.sqlite",
                        "--rollouts", "12", "--out", "an-1", "-q"], cwd=tmp, env=_env(tmp), capture_output=True,
                       text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert a.returncode == 0, a.stderr
    return tmp


@pytest.fixture()
def replayed(played, monkeypatch):
    """(the table kit, the game replayed, its words, a frame -> view function) of game 1."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    from bitbox.games import find
    from bitbox.table.journal_commands import kit_of
    from bitbox.table.replay import load
    kit = kit_of(find("goofspiel"))
    rg = load(played / "j.sqlite", kit.rules, 1)
    words = kit.words("en")

    def table(i: int):
        return kit.replay_view(rg.frames[i], rg.info, i == len(rg.frames) - 1)
    return kit, rg, words, table


@pytest.fixture()
def window(replayed):
    import pygame
    from bitbox.table.replay_window import ReplayWindow
    kit, rg, words, table = replayed
    pygame.display.init()
    pygame.font.init()
    screen = pygame.display.set_mode((1280, 720))
    yield ReplayWindow(kit, rg, words, table, screen, None, "no analysis here")
    pygame.display.quit()


def accent_xs(surface, rect) -> list[int]:
    """The x of every accent-coloured pixel in ``rect`` (the scrubber's knob and bar)."""
    return [x for x in range(rect.x, rect.right) for y in range(rect.y, rect.bottom, 2)
            if tuple(surface.get_at((x, y)))[:3] == ACCENT]


# ---------------------------------------------------------------- the GIF

@pytest.fixture(scope="module")
def gif(played) -> tuple[Path, subprocess.CompletedProcess]:
    r = run(["replay", "1", "--journal", "j.sqlite", "--gif", "game.gif"], played)
    assert r.returncode == 0, r.stderr
    return played / "game.gif", r


def test_the_gif_has_one_frame_per_turn_a_hold_on_the_last_and_a_small_default_size(played, gif):
    from PIL import Image
    path, r = gif
    assert r.stdout.startswith("game 1: game.gif written (frames: 5, 960x540, ")
    with Image.open(path) as im:
        assert (im.format, im.n_frames, im.size, im.info["loop"]) == ("GIF", 5, (960, 540), 0)
        durations, pictures = [], []
        for k in range(im.n_frames):
            im.seek(k)
            durations.append(im.info["duration"])
            pictures.append(im.convert("RGB").tobytes())
    assert durations == [1200, 1200, 1200, 1200, 5000]           # the start, 4 rounds, the last held
    assert len(set(pictures)) == 5                              # every turn its own picture
    small = run(["replay", "1", "--journal", "j.sqlite", "--gif", "small.gif", "--size", "640x360"], played)
    assert small.returncode == 0, small.stderr
    with Image.open(played / "small.gif") as im:
        assert (im.n_frames, im.size) == (5, (640, 360))


def test_the_gif_frame_is_the_table_after_its_turn(gif, replayed):
    """A GIF frame is the game's own display of that turn's frame (the same pixels, up to the
    palette: the table's flat colours keep their values)."""
    import pygame
    from PIL import Image
    kit, rg, words, table = replayed
    pygame.display.init()
    try:
        display = kit.display((960, 540), words, None)
        display.render(table(2), full=True)
        want = Image.frombytes("RGB", (960, 540), pygame.image.tobytes(display.surface, "RGB"))
    finally:
        pygame.display.quit()
    with Image.open(gif[0]) as im:
        im.seek(2)
        got = im.convert("RGB")
    a, b = got.tobytes(), want.tobytes()
    same = sum(1 for k in range(0, len(a), 3) if a[k:k + 3] == b[k:k + 3])
    assert same / (960 * 540) > 0.97


@pytest.mark.parametrize("target, says", [("nowhere/g.gif", "does not exist"), (".", "give a file name")])
def test_a_gif_that_cannot_be_written_is_one_line(played, target, says):
    r = run(["replay", "1", "--journal", "j.sqlite", "--gif", target], played)
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1 and says in r.stderr and "Traceback" not in r.stderr


# ---------------------------------------------------------------- what would the bot play here

def test_suggest_prints_the_bots_choice_and_each_options_chance(played):
    r = run(["replay", "1", "--journal", "j.sqlite", "--suggest", "1", "--json", "--rollouts", "20", "--think", "0"],
            played)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert (doc["game"], doc["turn"], doc["rollouts_per_option"], doc["think_ms"]) == (1, 1, 20, None)
    players = [s["player"] for s in doc["suggestions"]]
    assert players == ["red", "blue", "green"]                 # each bids in round 2: each has a choice
    for s in doc["suggestions"]:
        options = [o["option"] for o in s["options"]]
        assert s["chosen"] in options and len(options) == 3    # 3 cards left in each hand
        assert all(0.0 <= o["chance"] <= 1.0 for o in s["options"])
        # every option is searched for the search's first rounds (common random numbers); one the
        # leader clearly beats may be dropped after them and its rollouts go to the others
        # (bitbox.bots.search.MIN_ROUNDS): the budget is 20 rollouts an option in all
        from bitbox.bots.search import MIN_ROUNDS
        assert all(o["rollouts"] >= MIN_ROUNDS for o in s["options"])
        assert sum(o["rollouts"] for o in s["options"]) <= 20 * len(s["options"])
    text = run(["replay", "1", "--journal", "j.sqlite", "--suggest", "1", "--rollouts", "20"], played)
    assert text.returncode == 0, text.stderr
    assert text.stdout.startswith("game 1, after turn 1:\n  Red — ") and "the bot plays" in text.stdout


@pytest.mark.parametrize("args, says", [(["--suggest", "9"], "--suggest 9: game 1 has turns 1 to 4 (0: the start)"),
                                        (["--suggest", "x"], "expected a turn number"),
                                        (["--suggest", "1", "--rollouts", "0"], "expected a number of rollouts"),
                                        (["--suggest", "1", "--think", "-5"], "expected milliseconds")])
def test_a_bad_suggest_is_one_line(played, args, says):
    r = run(["replay", "1", "--journal", "j.sqlite", *args], played)
    assert r.returncode == 2 and says in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_the_bots_choice_uses_only_the_acting_players_information(replayed):
    """Two games the player cannot tell apart (the prize pile redealt keeping what they know)
    get the same choice and the same chances: nothing else is read."""
    from bitbox.analysis import suggest
    from bitbox.games.protocol import redeal_keeping
    from bitbox.table.replay import next_choice
    kit, rg, words, table = replayed
    game = next_choice(rg.game_at(1))
    other = next(g for s in range(50) if (g := redeal_keeping(rg.cartridge, next_choice(rg.game_at(1)), s, "red"))
                 is not None and g.to_data() != game.to_data())
    assert other.private_view("red") == game.private_view("red")
    a, b = suggest(rg.cartridge, game, "red", 40, 3), suggest(rg.cartridge, other, "red", 40, 3)
    assert a.chosen == b.chosen and a.scores == b.scores


def test_the_bots_choice_waits_for_the_end_of_the_game(replayed):
    from bitbox.table.replay import ReplayError, suggestions
    kit, rg, words, table = replayed
    unfinished = replace(rg, info=replace(rg.info, status="playing"))
    with pytest.raises(ReplayError, match="not finished: the bot's choice uses a player's hidden information"):
        suggestions(unfinished, 1, words)
    assert suggestions(rg, len(rg.frames) - 1, words) == []       # over: nobody has a choice


# ---------------------------------------------------------------- the window

def test_the_window_draws_the_table_after_the_turn_shown_beside_the_move_list(window, replayed):
    import pygame
    kit, rg, words, table = replayed
    win = window
    for i in (1, 3):
        win.cursor.go(i)
        win.draw()
        game_rect, scrub, side = win.rects()
        alone = kit.display(game_rect.size, words, None)
        alone.render(table(i), full=True)
        shown = win.screen.subsurface(game_rect)
        assert pygame.image.tobytes(shown, "RGB") == pygame.image.tobytes(alone.surface, "RGB")
        rows = {i: r for r, i in win.panel.rows}
        current = rows[i]
        assert tuple(win.screen.get_at((current.x + current.w // 2, current.y + 1)))[:3] == ACCENT   # its row framed
        other = rows[0]
        assert tuple(win.screen.get_at((other.x + other.w // 2, other.y + 1)))[:3] != ACCENT
    assert side.x == game_rect.right and side.right == 1280


def test_keys_step_jump_and_go_to_a_typed_turn_and_the_knob_follows(window):
    win = window
    win.draw()
    start = win.cursor.index
    knob_before = sum(accent_xs(win.screen, win.bar)) / len(accent_xs(win.screen, win.bar))
    assert win.press("next") and win.cursor.index == start + 1
    win.draw()
    xs = accent_xs(win.screen, win.bar)
    assert max(xs) > knob_before                                  # the played part and the knob moved right
    win.press("first")
    assert win.cursor.index == 0
    for k in ("3", "enter"):
        win.press(k)
    assert win.rg.frames[win.cursor.index].turn == 3
    win.press("last")
    assert win.cursor.index == len(win.rg.frames) - 1
    win.press("9")
    win.press("enter")                                            # no turn 9: it stays
    assert win.cursor.index == len(win.rg.frames) - 1
    assert win.press("quit") is False


def test_a_click_on_the_scrubber_goes_to_the_frame_under_it(window):
    win = window
    win.draw()
    bar = win.bar
    win.click((bar.x + 1, bar.centery))
    assert win.cursor.index == 0
    win.click((bar.right - 1, bar.centery))
    assert win.cursor.index == len(win.rg.frames) - 1


def test_a_controllers_left_wheel_steps_and_its_lock_shows_the_bot(window):
    from bitbox.events import WheelsChanged
    from bitbox.hub import Hub
    from bitbox.table.replay import WheelSteps
    win = window
    win.cursor.go(0)
    steps = WheelSteps()
    hub = Hub()
    (sim,) = hub.add_sim(1)
    hub.start()
    try:
        def wait(pred):
            last = None
            for e in hub.poll_until(lambda e: isinstance(e, WheelsChanged) and pred(e), timeout=5.0):
                turn, lock = steps.feed(e)
                if turn:
                    win.step(turn)
                if lock:
                    win.press("bot")
                last = e if isinstance(e, WheelsChanged) else last
            assert last is not None and pred(last)
            return last
        first = wait(lambda e: True)                              # where the wheels are now
        base = 5 if first.left != 5 else 6
        sim.set(left=base)
        wait(lambda e: e.left == base)
        win.cursor.go(0)
        sim.set(left=base + 3)
        wait(lambda e: e.left == base + 3)
        assert win.cursor.index == 3                              # a turn a detent
        sim.set(left=base + 2)
        wait(lambda e: e.left == base + 2)
        assert win.cursor.index == 2
        sim.set(locked=True)
        wait(lambda e: e.locked)
        assert win.bot_on
        win.wait()
    finally:
        hub.close()
    assert WheelSteps._delta(15, 0) == 1 and WheelSteps._delta(0, 15) == -1      # past the last position
    assert WheelSteps._delta(5, 0, 6) == 1 and WheelSteps._delta(0, 5, 6) == -1  # a wheel of 6


def test_the_bot_key_shows_each_players_choice_in_the_panel(window):
    win = window
    win.cursor.go(1)
    win.press("bot")
    assert win.view().bot == "busy"                               # the search runs beside the window
    win.draw()
    win.wait()
    view = win.view()
    assert view.bot == "shown"
    assert [b.player for b in view.bot_lines] == ["red", "blue", "green"]
    for b in view.bot_lines:
        assert b.chosen in [o for o, _ in b.options]
    win.draw()
    _, _, side = win.rects()
    bot_box = side.copy()
    bot_box.y = side.bottom - side.h // 3
    bot_box.h = side.h // 3
    reds = sum(1 for x in range(bot_box.x, bot_box.right, 2) for y in range(bot_box.y, bot_box.bottom, 2)
               if tuple(win.screen.get_at((x, y)))[:3] == win._colour("red"))
    assert reds > 10                                              # red's shape by its line
    win.press("next")                                             # a new moment: searched again
    win.wait()
    assert 2 in win._suggested


def test_the_graph_comes_from_analysis_json_and_marks_the_turn_shown(window, played, replayed):
    import logging
    from bitbox.table.replay import ReplayError
    from bitbox.table.replay_window import find_analysis
    kit, rg, words, table = replayed
    chances, source = find_analysis(rg, str(played / "an-1"), logging.getLogger("test"))
    assert chances is not None and source.endswith("analysis.json")
    assert sorted(chances.by_frame) == list(range(len(rg.frames)))     # a point at every turn and the end
    win = window
    win.chances = chances
    win.cursor.go(2)
    win.draw()
    graph = win.panel.graph_rect
    assert graph is not None
    cursor_x = graph.x + round(graph.w * 2 / (len(rg.frames) - 1))
    column = [tuple(win.screen.get_at((cursor_x, y)))[:3] for y in range(graph.y, graph.bottom)]
    assert column.count(ACCENT) > graph.h * 0.8                  # the turn shown, marked across the graph
    colours = {tuple(win.screen.get_at((x, y)))[:3] for x in range(graph.x, graph.right, 2)
               for y in range(graph.y, graph.bottom, 2)}
    for p in rg.info.players:
        assert win._colour(p) in colours                        # a line per player in its colour
    bad = played / "other.json"
    bad.write_text(json.dumps({"game": "outspeed", "players": ["red"], "turns": []}))
    with pytest.raises(ReplayError, match="the analysis of another game"):
        find_analysis(rg, str(bad), logging.getLogger("test"))
    doc = json.loads((played / "an-1" / "analysis.json").read_text())
    doc["turns"][-1]["inputs"] += 1                               # the same players, another game's length
    bad.write_text(json.dumps(doc))
    with pytest.raises(ReplayError, match="its result or its length differs from game 1's"):
        find_analysis(rg, str(bad), logging.getLogger("test"))


def test_key_a_estimates_the_chances_now_when_there_is_no_analysis(window):
    win = window
    assert win.chances is None and win.view().chances is None
    win.press("chances")
    assert win.view().chances_note.startswith("estimating each player's chance (20 rollouts a turn)")
    win.wait()
    assert win.chances is not None and win.chances.source == "estimated now, 20 rollouts a turn"
    assert sorted(win.chances.by_frame) == list(range(len(win.rg.frames)))
    last = win.chances.by_frame[len(win.rg.frames) - 1]
    winners = win.rg.info.winners
    assert {p: c for p, (c, _lo, _hi) in last.items()} == {p: (1 / len(winners) if p in winners else 0.0)
                                                           for p in last}      # the end: the result itself


def test_the_window_loop_reads_keys_and_leaves(replayed, played, monkeypatch):
    from bitbox.table import journal_commands as jc
    from bitbox.table.journal_commands import kit_of
    from bitbox.games import find
    monkeypatch.chdir(played)
    monkeypatch.setattr("bitbox.table.app.display_available", lambda: True)
    code = jc.replay(kit_of(find("goofspiel")), 1, str(played / "j.sqlite"), keys=["next", "prev", "panel", "bot"],
                     size=(1024, 576))
    assert code == 0


# ---------------------------------------------------------------- snapshots do not pile up

def test_play_keeps_the_last_games_snapshots_and_says_their_size(tmp_path):
    args = ["play", "--headless", "--players", "2", "--cards", "3", "--journal", "j.sqlite", "--snapshots", "shots"]
    first = run([*args, "--seed", "1"], tmp_path)
    assert first.returncode == 0, first.stderr
    (only,) = (tmp_path / "shots").iterdir()
    size = sum(f.stat().st_size for f in only.iterdir())
    from bitbox.table.replay import human_size
    assert (f"snapshots of this game: {human_size(size)} in shots/{only.name} (PNG files: 3); all of shots: "
            f"{human_size(size)} (game folders: 1)") in first.stderr
    second = run([*args, "--seed", "2", "--keep-snapshots", "1"], tmp_path)
    assert second.returncode == 0, second.stderr
    assert (f"removed the oldest snapshot folders to keep the last 1 (--keep-snapshots): {only.name}"
            in second.stderr)
    (kept,) = (tmp_path / "shots").iterdir()
    assert kept.name.startswith("goofspiel-2-") and len(list(kept.glob("turn-*.png"))) == 3
    bad = run([*args, "--keep-snapshots", "-1"], tmp_path)
    assert bad.returncode == 2 and "how many games' snapshots to keep" in bad.stderr


@pytest.mark.parametrize("option, value, says", [
    ("gif", "a\0b.gif", "--gif: a path cannot hold a NUL character"),
    ("analysis", "a\0b", "--analysis: a path cannot hold a NUL character"),
    ("analysis", "nowhere.json", "--analysis nowhere.json: cannot read it (No such file or directory)")])
def test_hostile_replay_paths_are_one_line(played, option, value, says, monkeypatch):
    import io
    from bitbox.games import find
    from bitbox.table import journal_commands as jc
    from bitbox.table.journal_commands import kit_of
    monkeypatch.setattr("bitbox.table.app.display_available", lambda: True)
    monkeypatch.chdir(played)
    err = io.StringIO()
    monkeypatch.setattr("sys.stderr", err)
    code = jc.replay(kit_of(find("goofspiel")), 1, str(played / "j.sqlite"), keys=[], **{option: value})
    assert code == 2
    assert err.getvalue() == f"bitbox game goofspiel replay: {says}\n"


# ---------------------------------------------------------------- every text fits, in every language and size

@pytest.mark.parametrize("lang", ["en", "es", "fr", "de"])
def test_every_text_of_the_replay_panel_stays_in_its_box(replayed, played, lang):
    import logging
    import pygame
    from bitbox.table.replay_window import ReplayWindow, find_analysis
    kit, rg, _words, table = replayed
    words = kit.words(lang)
    pygame.font.init()
    chances, _ = find_analysis(rg, str(played / "an-1"), logging.getLogger("test"))
    win = ReplayWindow(kit, rg, words, table, pygame.Surface((1280, 720)), None, "", controllers=True,
                       rollouts=16, think_ms=0)
    win.cursor.go(1)
    win.press("bot")
    win.wait()
    for size in ((1280, 720), (1920, 1080), (3840, 2160)):
        win.screen = pygame.Surface(size)
        win._sub = win.display = None
        for state in ("plain", "full"):
            win.chances = chances if state == "full" else None
            win.chances_note = "" if state == "full" else win.view().words["bot_off"] * 2      # a long note
            win.bot_on = state == "full"
            win.cursor.typed = "12" if state == "full" else ""
            win.draw()
            assert win.panel.placed
            for text, region in win.panel.placed:
                assert region.contains(text), (lang, size, state, text, region)
