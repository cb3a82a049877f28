"""Display benchmark: time to render one 1920×1080 frame headless (``SDL_VIDEODRIVER=dummy``).

    python -m bitbox_tools.bench.display [--frames N]

Figures, with :class:`outspeed.display.render.TableDisplay` drawing onto the (dummy) screen
surface the table would show:

* **full redraw**: ``render(view, full=True)``, every region drawn, on views taken from a
  real 6-player game (each phase of each turn), cycling;
* **typical update**: what happens most at the table: one player's controller locks in
  (its status goes from "to act" to "ready"), so the players panel is redrawn and
  ``render`` returns the dirty rectangles for ``pygame.display.update``.

Baseline, measured in the same run on the same surface: blitting a full-screen background
and 50 sprites (64×64, per-pixel alpha), which is what the simplest pygame game does each
frame. Targets: full redraw under 8 ms, typical update under 2 ms.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from typing import Any, Callable, Sequence

from bitbox.colours import SEAT_COLOURS

SIZE = (1920, 1080)
TARGET_FULL_MS = 8.0
TARGET_UPDATE_MS = 2.0


def _screen():
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame
    pygame.display.init()
    pygame.font.init()
    return pygame, pygame.display.set_mode(SIZE)


def _time(fn: Callable[[int], Any], frames: int, rounds: int = 3) -> float:
    """Median milliseconds per call over ``frames`` calls; best of ``rounds``."""
    best = float("inf")
    for _ in range(rounds):
        times = []
        for i in range(frames):
            t0 = time.perf_counter()
            fn(i)
            times.append(time.perf_counter() - t0)
        best = min(best, statistics.median(times))
    return best * 1000


def baseline_ms(frames: int = 200) -> float:
    """A full-screen background and 50 alpha sprites blitted, in ms a frame."""
    pygame, screen = _screen()
    background = pygame.Surface(SIZE).convert()
    background.fill((14, 18, 30))
    for x in range(0, SIZE[0], 40):
        pygame.draw.line(background, (30, 36, 56), (x, 0), (x, SIZE[1]))
    sprite = pygame.Surface((64, 64), pygame.SRCALPHA).convert_alpha()
    pygame.draw.circle(sprite, (232, 65, 60, 255), (32, 32), 30)
    positions = [((i * 137) % (SIZE[0] - 64), (i * 71) % (SIZE[1] - 64)) for i in range(50)]

    def frame(i: int) -> None:
        screen.blit(background, (0, 0))
        for x, y in positions:
            screen.blit(sprite, ((x + i) % (SIZE[0] - 64), y))

    frame(0)
    return _time(frame, frames)


def game_views(players: int = 6, seed: int = 3) -> list[dict[str, Any]]:
    """Public views after every phase of a real game."""
    from outspeed.bots import RandomBot, play_game
    from outspeed.content import load_content
    from outspeed.rules import Game
    content = load_content()
    names = SEAT_COLOURS[:players]
    game = Game.new(names, content.tiles, seed=seed, dice=content.dice, token_counts=content.token_counts,
                    markers=content.markers)
    views = [game.public_view()]
    play_game(game, {p: RandomBot(seed + i) for i, p in enumerate(names)},
              lambda events: views.append(game.public_view()))
    return views


def run(frames: int = 100) -> dict[str, Any]:
    """The display figures as a dict; raises ImportError if the display is not there."""
    pygame, screen = _screen()
    from outspeed.display import PlayerStatus, TableView
    from outspeed.display.render import TableDisplay
    base = baseline_ms(max(50, frames * 2))
    display = TableDisplay(size=SIZE, surface=screen)
    views = [TableView.from_public(v) for v in game_views()]
    display.render(views[0], full=True)
    full = _time(lambda i: display.render(views[i % len(views)], full=True), frames)

    # Typical update: one player locks in, on a programming-phase view.
    view = next((v for v in views if v.view.get("phase") == "programming"), views[0])
    names = [p.player for p in view.players]
    waiting = TableView(view=view.view, stage="programming",
                        players=tuple(PlayerStatus(p, status="to_act") for p in names))
    locked = TableView(view=view.view, stage="programming",
                       players=tuple(PlayerStatus(p, locked=(p == names[0]), status="ready" if p == names[0] else "to_act")
                                     for p in names))
    display.render(waiting, full=True)
    dirty_area = []

    def update(i: int) -> None:
        rects = display.render(locked if i % 2 == 0 else waiting)
        dirty_area.append(sum(r.w * r.h for r in rects))
        pygame.display.update(rects)

    upd = _time(update, frames)
    return {"full_ms": full, "update_ms": upd, "baseline_ms": base,
            "full_ratio": full / base, "update_ratio": upd / base,
            "dirty_share": statistics.mean(dirty_area) / (SIZE[0] * SIZE[1]) if dirty_area else 0.0,
            "views": len(views), "targets": {"full_ms": TARGET_FULL_MS, "update_ms": TARGET_UPDATE_MS}}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bitbox_tools.bench.display", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--frames", type=int, default=100)
    args = parser.parse_args(argv)
    r = run(args.frames)
    print(f"full redraw:    {r['full_ms']:.2f} ms  (target < {TARGET_FULL_MS} ms)")
    print(f"typical update: {r['update_ms']:.2f} ms  (target < {TARGET_UPDATE_MS} ms; "
          f"{100 * r['dirty_share']:.0f} % of the screen redrawn)")
    print(f"baseline (background + 50 sprites): {r['baseline_ms']:.2f} ms; ratios {r['full_ratio']:.1f} and "
          f"{r['update_ratio']:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
