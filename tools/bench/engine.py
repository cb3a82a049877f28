"""Rules-engine benchmark: full 6-player games with random bots per second, on one core.

    python -m bitbox_tools.bench.engine [--seconds S] [--players P]

Figure: complete games (setup, 13 turns or an early end, every bonus phase, programming,
resolution and draw) played by :func:`outspeed.bots.play_game` with six
:class:`~outspeed.bots.RandomBot` players, in this process, one thread. Each game counts
everything a simulation pays for: ``Game.new`` (shuffles), seeding six bots, every bot
decision, every rules check, and every :class:`~outspeed.rules.Event` the engine returns
(events are always recorded: the same code path a table game takes; nobody reads them
here, so their data dicts are never built, see ``outspeed.rules.events``).

With ``--instructions [REV]``: instructions executed per game (valgrind's callgrind, the
same games, seeds 0 to N-1, ``PYTHONHASHSEED=0``), a figure the load of the machine does not
move; with REV (a git revision, e.g. ``f7bfeb9``), the same count for that revision's
source, unpacked with ``git archive`` into a temporary directory, in the same run.

Baseline, measured in the same run: the same random bots making the same number of
decisions per game (counted during the figure's run) on fixed legal options, with no rules
at all: the speed the table would reach if the rules were free. The ratio (figure ÷
baseline) is the share of the time not spent in the rules; the target is absolute:
2,000 games/s.
"""
from __future__ import annotations

import argparse
import io
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from typing import Any, Sequence

from bitbox.colours import SEAT_COLOURS
from outspeed.bots import Bot, RandomBot, play_game
from outspeed.rules import Game
from outspeed.rules.game import MAX_PLAYERS, MIN_PLAYERS

TARGET = 2000.0
COLOURS = SEAT_COLOURS


class _Counting(Bot):
    """Counts a bot's decisions (bonus, program, keep)."""

    def __init__(self, bot, counts: dict[str, int]) -> None:
        self.bot = bot
        self.counts = counts

    def bonus(self, view, legal):
        self.counts["bonus"] += 1
        self.counts["tokens"] += len(legal) > 1
        return self.bot.bonus(view, legal)

    def program(self, view, legal):
        self.counts["program"] += 1
        return self.bot.program(view, legal)

    def keep(self, view, drawn):
        self.counts["keep"] += 1
        return self.bot.keep(view, drawn)


def _play(content, players: int, seed: int, counts: dict[str, int] | None = None):
    names = COLOURS[:players]
    game = Game.new(names, content.tiles, seed=seed, dice=content.dice, token_counts=content.token_counts,
                    markers=content.markers)
    bots: dict[str, Bot] = {p: RandomBot(seed * 10 + i) for i, p in enumerate(names)}
    if counts is not None:
        bots = {p: _Counting(b, counts) for p, b in bots.items()}
    play_game(game, bots)
    return game


def games_per_second(content, seconds: float = 2.0, players: int = 6, start_seed: int = 0) -> tuple[float, int]:
    """Play games for about ``seconds`` (best of three rounds); return (games/s, games played)."""
    best, total, seed = 0.0, 0, start_seed
    per_round = seconds / 3
    for _ in range(3):
        n, t0 = 0, time.perf_counter()
        while True:
            _play(content, players, seed)
            seed += 1
            n += 1
            elapsed = time.perf_counter() - t0
            if elapsed >= per_round:
                break
        best = max(best, n / elapsed)
        total += n
    return best, total


# The games counted by instructions_per_game, as a script that also runs on older sources
# (hence no project import but the engine, the content and the bots): _play's games.
_PLAY_SCRIPT = """
import sys
from outspeed.bots import RandomBot, play_game
from outspeed.content import load_content
from outspeed.rules import Game
n, names = int(sys.argv[1]), tuple(sys.argv[2:])
content = load_content()
for seed in [10**6] + list(range(n)):   # a first game, counted in both runs: any import it does
    game = Game.new(names, content.tiles, seed=seed, dice=content.dice, token_counts=content.token_counts,
                    markers=content.markers)
    play_game(game, {p: RandomBot(seed * 10 + i) for i, p in enumerate(names)})
"""


def _instructions(games: int, players: int, source: str | None, script: str = _PLAY_SCRIPT) -> int:
    """Instructions executed by a fresh interpreter playing ``games`` games (callgrind):
    ``script`` run with the number of games and the players' names as arguments."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise RuntimeError("valgrind is not installed")
    env = dict(os.environ, PYTHONHASHSEED="0")
    if source is not None:                          # that source first, before the installed one
        env["PYTHONPATH"] = source + os.pathsep + env.get("PYTHONPATH", "")
    command = [sys.executable, "-c", script, str(games), *COLOURS[:players]]
    subprocess.run(command, cwd=source, env=env, capture_output=True)    # compiled once, as both runs find it
    done = subprocess.run([valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
                          cwd=source, env=env, capture_output=True, text=True)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise RuntimeError(f"callgrind failed: {done.stderr.strip().splitlines()[-1:]}")
    return int(found.group(1))


def instructions_per_game(games: int = 100, players: int = 6, source: str | None = None,
                          script: str = _PLAY_SCRIPT) -> float:
    """Instructions per game: callgrind's count for ``games`` games minus its count for none
    (start-up, imports, content, and one first game that does any late import), divided
    by ``games``. The sources are compiled (``__pycache__``) before either count. ``source``: a source tree to run
    instead of the installed project; ``script``: another game's games (see ``bench.lastonealive``).
    Deterministic to a few hundredths of a percent."""
    return (_instructions(games, players, source, script) - _instructions(0, players, source, script)) / games


def instructions_against(rev: str, games: int = 100, players: int = 6,
                         script: str = _PLAY_SCRIPT) -> tuple[float, float]:
    """(this source's, ``rev``'s) instructions per game, measured one after the other."""
    top = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True)
    if top.returncode != 0:
        raise RuntimeError("not in a git checkout: no revision to compare with")
    archive = subprocess.run(["git", "-C", top.stdout.strip(), "archive", "--format=tar", rev],
                             capture_output=True)
    if archive.returncode != 0:
        raise RuntimeError(f"git archive {rev}: {archive.stderr.decode(errors='replace').strip()}")
    now = instructions_per_game(games, players, script=script)
    with tempfile.TemporaryDirectory(prefix="bench-engine-") as tmp:
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            tar.extractall(tmp, filter="data")
        before = instructions_per_game(games, players, tmp, script)
    return now, before


def decisions_per_game(content, players: int = 6, games: int = 200) -> dict[str, float]:
    counts = {"bonus": 0, "tokens": 0, "program": 0, "keep": 0}
    for seed in range(10_000, 10_000 + games):
        _play(content, players, seed, counts)
    return {k: v / games for k, v in counts.items()}


def _engine_options(content, players: int) -> tuple[Any, Any]:
    """A bot's options as :func:`play_game` hands them out (``Game.bonus_options``,
    ``Game.program_options``): no token to play; three paths, no number."""
    for seed in range(100):
        game = Game.new(COLOURS[:players], content.tiles, seed=seed, dice=content.dice,
                        token_counts=content.token_counts, markers=content.markers)
        p = game.state.active[0]
        legal_none = game.bonus_options()[p]
        game.play_bonus({})
        legal_program = game.program_options()[p]
        if len(legal_program) == 3:
            return legal_none, legal_program
    raise RuntimeError("no first tile with three paths")


def bots_only_games_per_second(per_game: dict[str, float], players: int = 6, seconds: float = 1.0,
                               content: Any = None) -> float:
    """The baseline: the random bots' own decisions, ``per_game`` of each kind, on fixed
    options (3 paths, none to two tokens, two drawn tokens), no rules. With ``content``,
    the options are the engine's own objects, as in the figure's games."""
    bots = [RandomBot(i) for i in range(players)]
    view: dict[str, Any] = {}
    legal_program: Any = {"left": [], "center": [], "right": []}
    legal_none: Any = [None]
    if content is not None:
        legal_none, legal_program = _engine_options(content, players)
    legal_tokens = [None, "nitro", "flamethrower"]
    drawn = ["nitro", "fuel_tank"]
    n_bonus = round(per_game["bonus"] - per_game["tokens"])
    n_tokens = round(per_game["tokens"])
    n_program = round(per_game["program"])
    n_keep = round(per_game["keep"])
    best = 0.0
    for _ in range(3):
        games, t0 = 0, time.perf_counter()
        while True:
            for i in range(n_bonus):
                bots[i % players].bonus(view, legal_none)
            for i in range(n_tokens):
                bots[i % players].bonus(view, legal_tokens)
            for i in range(n_program):
                bots[i % players].program(view, legal_program)
            for i in range(n_keep):
                bots[i % players].keep(view, drawn)
            games += 1
            elapsed = time.perf_counter() - t0
            if elapsed >= seconds / 3:
                break
        best = max(best, games / elapsed)
    return best


def run(seconds: float = 2.0, players: int = 6) -> dict[str, Any]:
    """The engine figures as a dict."""
    from outspeed.content import load_content
    content = load_content()
    _play(content, players, 0)                                   # warm up
    rate, games = games_per_second(content, seconds, players)
    per_game = decisions_per_game(content, players)
    base = bots_only_games_per_second(per_game, players, max(0.3, seconds / 3), content)
    return {"games_per_s": rate, "games": games, "ms_per_game": 1000 / rate,
            "baseline_games_per_s": base, "ratio": rate / base, "decisions_per_game": per_game,
            "players": players, "target_games_per_s": TARGET}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bitbox_tools.bench.engine", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--players", type=int, default=6, choices=range(MIN_PLAYERS, MAX_PLAYERS + 1))
    parser.add_argument("--instructions", nargs="?", const="", metavar="REV",
                        help="also count instructions per game with valgrind (slow: about 30 s a "
                             "source), and for the git revision REV if given")
    parser.add_argument("--games", type=int, default=100, help="games counted by --instructions")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.instructions is not None:
        try:
            print_instructions(args.instructions, args.games, args.players)
        except RuntimeError as exc:
            print(f"engine: instructions not counted: {exc}", file=sys.stderr)
            return 2
    r = run(args.seconds, args.players)
    d = r["decisions_per_game"]
    print(f"engine: {r['games_per_s']:,.0f} games/s ({r['ms_per_game']:.2f} ms a game, {r['players']} players, "
          f"random bots, {r['games']} games)")
    print(f"baseline (the random bots' decisions alone, no rules): {r['baseline_games_per_s']:,.0f} games/s "
          f"({d['bonus']:.0f} bonus, {d['program']:.0f} program, {d['keep']:.1f} keep decisions a game)")
    print(f"ratio: {r['ratio']:.3f}   target: >= {TARGET:,.0f} games/s")
    return 0


def print_instructions(rev: str, games: int = 100, players: int = 6) -> tuple[float, float | None]:
    """Count and print the instructions per game (and ``rev``'s, if given)."""
    if rev:
        now, before = instructions_against(rev, games, players)
        print(f"engine: {now:,.0f} instructions a game; {rev}: {before:,.0f} "
              f"(ratio {now / before:.3f}; {games} games, seeds 0-{games - 1}, {players} players)")
        return now, before
    now = instructions_per_game(games, players)
    print(f"engine: {now:,.0f} instructions a game ({games} games, seeds 0-{games - 1}, {players} players)")
    return now, None


if __name__ == "__main__":
    sys.exit(main())
