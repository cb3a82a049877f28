"""Last One Alive engine benchmark: five-player random games per second on one core, next to
the same figure for Outspeed measured in the same run.

    python -m bitbox_tools.bench.lastonealive [--seconds S] [--instructions [REV]] [--games N]

Figure: complete games of Last One Alive (setup with its draws and sides, every prompt of
every turn to the last one alive) played by :func:`lastonealive.bots.play_game` with five
:class:`~lastonealive.bots.RandomBot` players, in this process, one thread; every bot's
decision goes through the engine's legality check (membership in the legal answers) and every
event is made (its data dict only when read: nobody reads it here, as in Outspeed's figure).
``auto`` prompts (nothing to decide) are applied as a table applies them, their default found
by ``Game.auto_answer`` without making the prompt.

Baseline, measured in the same run: five-player Outspeed games with its random bots
(:mod:`bitbox_tools.bench.engine`'s game), the project's other rules engine on the same
machine, at the same moment (the two games' rounds taken in turn). The ratio is Last One
Alive ÷ Outspeed; the suite's target is at least 1 (``bitbox_tools.bench.suite.LOA_ENGINE_TARGET``).
The figure also tells how many simulated games a study can afford (a table needs one game per hour).

With ``--instructions [REV]``: instructions executed per game (valgrind's callgrind, the
same games, seeds 0 to N-1, ``PYTHONHASHSEED=0``; see :mod:`bitbox_tools.bench.engine`) for
Last One Alive and for Outspeed's five-player games, a ratio the load of the machine does
not move; with REV, Last One Alive's count for that revision's source too.
"""
from __future__ import annotations

import argparse
import sys
import time
from typing import Any, Callable, Sequence

from lastonealive.bots import RandomBot, play_game
from lastonealive.content import load_content
from lastonealive.rules import Game

NAMES = ("red", "blue", "green", "yellow", "purple")

# The games run() plays, as a script that also runs on older sources (the engine, the
# content and the bots only), for the instruction counts: argv = games, then one word a player.
_PLAY_SCRIPT = """
import sys
from lastonealive.bots import RandomBot, play_game
from lastonealive.content import load_content
from lastonealive.rules import Game
n, players = int(sys.argv[1]), len(sys.argv) - 2
names = ("red", "blue", "green", "yellow", "purple")[:players]
options = load_content().game_options()
for seed in [10**6] + list(range(n)):   # a first game, counted in both runs: any import it does
    game = Game.new(names, seed=seed, first=names[seed % players], **options)
    play_game(game, {p: RandomBot(seed * 10 + i) for i, p in enumerate(names)})
"""


def _best_rates(plays: Sequence[Callable[[int], Any]], seconds: float) -> list[tuple[float, int]]:
    """For each of ``plays``: games per second, best of three rounds of about ``seconds``/3
    each, and games played. The rounds are taken in turn (a round of each, three times), so a
    change in the machine's load falls on every figure alike rather than on one of them."""
    best, total, seeds = [0.0] * len(plays), [0] * len(plays), [0] * len(plays)
    for _ in range(3):
        for k, play in enumerate(plays):
            n, t0 = 0, time.perf_counter()
            while True:
                play(seeds[k])
                seeds[k] += 1
                n += 1
                elapsed = time.perf_counter() - t0
                if elapsed >= seconds / 3:
                    break
            best[k] = max(best[k], n / elapsed)
            total[k] += n
    return list(zip(best, total))


def run(seconds: float = 3.0, players: int = 5) -> dict[str, Any]:
    content = load_content()
    options = content.game_options()
    names = NAMES[:players]
    stats = {"decisions": 0, "turns": 0, "games": 0}

    def loa(seed: int) -> None:
        game = Game.new(names, seed=seed, first=names[seed % players], **options)
        stats["decisions"] += play_game(game, {p: RandomBot(seed * 10 + i) for i, p in enumerate(names)})
        stats["turns"] += game.state.turn
        stats["games"] += 1

    from outspeed.content import load_content as outspeed_content
    from . import engine as outspeed_bench
    oc = outspeed_content()

    def outspeed(seed: int) -> None:
        outspeed_bench._play(oc, players, seed)

    loa(0)
    outspeed(0)                                               # warm up
    stats.update(decisions=0, turns=0, games=0)
    (rate, games), (base, base_games) = _best_rates((loa, outspeed), seconds)
    return {"games_per_s": rate, "games": games, "ms_per_game": 1000 / rate,
            "baseline_games_per_s": base, "baseline_games": base_games, "ratio": rate / base,
            "decisions_per_game": stats["decisions"] / stats["games"], "turns_per_game": stats["turns"] / stats["games"],
            "players": players}


def instructions(rev: str = "", games: int = 100, players: int = 5) -> dict[str, float | None]:
    """Instructions a game (callgrind): Last One Alive's (and ``rev``'s, if given) and
    Outspeed's, the same number of players."""
    from . import engine
    if rev:
        now, before = engine.instructions_against(rev, games, players, _PLAY_SCRIPT)
    else:
        now, before = engine.instructions_per_game(games, players, script=_PLAY_SCRIPT), None
    outspeed = engine.instructions_per_game(games, players)
    return {"lastonealive": now, "before": before, "outspeed": outspeed}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bitbox_tools.bench.lastonealive", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="time for each of the two figures")
    parser.add_argument("--instructions", nargs="?", const="", metavar="REV",
                        help="also count instructions per game with valgrind (slow: about 30 s a "
                             "source), and Last One Alive's for the git revision REV if given")
    parser.add_argument("--games", type=int, default=100, help="games counted by --instructions")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.instructions is not None:
        try:
            c = instructions(args.instructions, args.games)
        except RuntimeError as exc:
            print(f"lastonealive: instructions not counted: {exc}", file=sys.stderr)
            return 2
        now, before, outspeed = c["lastonealive"], c["before"], c["outspeed"]
        assert now is not None and outspeed is not None
        print(f"Last One Alive: {now:,.0f} instructions a game ({args.games} games, seeds 0-{args.games - 1}, 5 players)"
              + (f"; {args.instructions}: {before:,.0f} (ratio {now / before:.3f})" if before else ""))
        print(f"Outspeed, same games' seeds: {outspeed:,.0f} instructions a game; "
              f"ratio in speed (Outspeed ÷ Last One Alive): {outspeed / now:.3f}")
    r = run(args.seconds)
    print(f"Last One Alive: {r['games_per_s']:,.0f} games/s ({r['ms_per_game']:.2f} ms a game, {r['players']} players, "
          f"random bots, {r['games']} games, {r['turns_per_game']:.1f} turns and "
          f"{r['decisions_per_game']:.0f} decisions a game)")
    print(f"Outspeed, same run: {r['baseline_games_per_s']:,.0f} games/s ({r['players']} players, random bots, "
          f"{r['baseline_games']} games)")
    print(f"ratio (Last One Alive / Outspeed): {r['ratio']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
