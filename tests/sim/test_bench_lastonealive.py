"""The Last One Alive engine benchmark's instruction counts (``--instructions [REV]``)."""
from __future__ import annotations

import subprocess
import sys

from bitbox_tools.bench import engine
from bitbox_tools.bench import lastonealive as bench


def test_the_counted_games_are_the_benchmarks_games():
    # the script callgrind runs plays, in a fresh interpreter, the games run() times
    done = subprocess.run([sys.executable, "-c", bench._PLAY_SCRIPT + "\nprint(game.state.turn, game.state.winners)",
                           "2", "a", "b", "c", "d", "e"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    from lastonealive.bots import RandomBot, play_game
    from lastonealive.content import load_content
    from lastonealive.rules import Game
    game = Game.new(bench.NAMES, seed=1, first=bench.NAMES[1], **load_content().game_options())
    play_game(game, {p: RandomBot(10 + i) for i, p in enumerate(bench.NAMES)})
    assert done.stdout.strip() == f"{game.state.turn} {game.state.winners}"


def test_instructions_print_both_games_and_the_ratio(monkeypatch, capsys):
    counted = []

    def per_game(games=100, players=6, source=None, script=engine._PLAY_SCRIPT):
        counted.append((games, players, script is bench._PLAY_SCRIPT))
        return 2_000_000.0 if script is bench._PLAY_SCRIPT else 2_500_000.0

    monkeypatch.setattr(engine, "instructions_per_game", per_game)
    monkeypatch.setattr(bench, "run", lambda seconds: {
        "games_per_s": 1.0, "games": 1, "ms_per_game": 1.0, "baseline_games_per_s": 1.0, "baseline_games": 1,
        "ratio": 1.0, "decisions_per_game": 62.0, "turns_per_game": 5.0, "players": 5})
    assert bench.main(["--instructions", "--games", "7"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert counted == [(7, 5, True), (7, 5, False)]
    assert out[0] == "Last One Alive: 2,000,000 instructions a game (7 games, seeds 0-6, 5 players)"
    assert out[1].endswith("2,500,000 instructions a game; ratio in speed (Outspeed ÷ Last One Alive): 1.250")


def test_an_unknown_revision_is_one_line(capsys):
    assert bench.main(["--instructions", "no-such-revision-xyz", "--seconds", "0.1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("lastonealive: instructions not counted: ")
