"""Replay you can use, for both games of the box (the tutorial game's tests are in
tests/tutorial/test_replay.py): their GIFs, the bot's choice, the window's frames, on a real
journal where a bots game of each was played by its own command."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest


def _env(tmp: Path) -> dict[str, str]:
    e = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    e.update(XDG_DATA_HOME=str(tmp / "data"), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    return e


def run(game: str, args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", f"{game}.cli", *args], cwd=cwd, env=_env(cwd), capture_output=True,
                          text=True, timeout=300, stdin=subprocess.DEVNULL)


@pytest.fixture(scope="module")
def journal(tmp_path_factory) -> Path:
    """j.sqlite: game 1 of Outspeed (3 bots), game 2 of Last One Alive (2 careful bots: a game
    of several turns, whatever bots a demo seats), both finished."""
    tmp = tmp_path_factory.mktemp("replay-games")
    for game, players in (("outspeed", "3"), ("lastonealive", "2:careful")):
        r = run(game, ["play", "--bots", players, "--headless", "--seed", "4", "--journal", "j.sqlite",
                       "--size", "640x360", "-q"], tmp)
        assert r.returncode == 0, r.stderr
    return tmp


def frames_of(journal: Path, game: str, game_id: int):
    from bitbox.table.replay import load
    kit = _kit(game)
    return kit, load(journal / "j.sqlite", kit.rules, game_id)


def _kit(game: str):
    from bitbox.games import find
    from bitbox.table.journal_commands import kit_of
    return kit_of(find(game), game)


@pytest.mark.parametrize("game, game_id", [("outspeed", 1), ("lastonealive", 2)])
def test_each_games_gif_has_a_frame_per_turn(journal, game, game_id):
    from PIL import Image
    r = run(game, ["replay", str(game_id), "--journal", "j.sqlite", "--gif", f"{game}.gif", "--size", "480x270"],
            journal)
    assert r.returncode == 0, r.stderr
    _kit_, rg = frames_of(journal, game, game_id)
    with Image.open(journal / f"{game}.gif") as im:
        assert (im.n_frames, im.size) == (len(rg.frames), (480, 270))
        im.seek(im.n_frames - 1)
        assert im.info["duration"] == 5000
    assert r.stdout.startswith(f"game {game_id}: {game}.gif written (frames: {len(rg.frames)}, 480x270, ")


def test_last_one_alives_bot_choice_is_printed_for_the_player_to_act(journal):
    r = run("lastonealive", ["replay", "2", "--journal", "j.sqlite", "--suggest", "2", "--json", "--think", "0",
                             "--rollouts", "16"], journal)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["suggestions"], doc                               # somebody has a choice after turn 2
    for s in doc["suggestions"]:
        assert s["player"] in ("red", "blue")
        assert s["chosen"] in [o["option"] for o in s["options"]]
        assert all("[" not in o["option"] and "None" not in o["option"] for o in s["options"])   # plain words


@pytest.mark.parametrize("game, game_id", [("outspeed", 1), ("lastonealive", 2)])
def test_each_games_window_shows_its_own_table_after_the_turn(journal, game, game_id, monkeypatch):
    import pygame
    from bitbox.table.replay_window import ReplayWindow
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    kit, rg = frames_of(journal, game, game_id)
    words = kit.words("en")

    def table(i: int):
        return kit.replay_view(rg.frames[i], rg.info, i == len(rg.frames) - 1)
    pygame.display.init()
    try:
        screen = pygame.display.set_mode((1280, 720))
        win = ReplayWindow(kit, rg, words, table, screen)
        win.press("last")
        win.draw()
        game_rect, _scrub, side = win.rects()
        alone = kit.display(game_rect.size, words, None)
        alone.render(table(len(rg.frames) - 1), full=True)
        assert pygame.image.tobytes(screen.subsurface(game_rect), "RGB") == pygame.image.tobytes(alone.surface, "RGB")
        assert win.panel.rows[-1][1] == len(rg.frames) - 1          # the move list follows to the last turn
        win.press("panel")
        win.draw()
        assert win.rects()[2] is None and win.rects()[0].w == 1280  # Tab: the table takes the whole width
    finally:
        pygame.display.quit()
