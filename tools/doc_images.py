"""Render the pictures of the docs (``docs/images/``) from real games, headless.

    python -m bitbox_tools.doc_images [--out docs/images] [--size 1280x720] [--only NAME ...]

Everything runs on SDL's ``dummy`` video driver (no window, no display needed) and is drawn by
the table's own code:

* ``home.png``: the home screen (:mod:`bitbox.table.home`), Last One Alive chosen, 3 players,
  no controller found, the cursor on its token mode (physical: the help line says what the
  game will do);
* ``loa-prompt-banner-en.png``, ``loa-prompt-banner-es.png``: a real Last One Alive game,
  bots on simulated controllers through the game's referee session, stopped at its first
  *shoot* prompt: the banner says the prompt and what each wheel means now;
* ``end-outspeed-en.png``, ``end-outspeed-es.png``, ``end-lastonealive-en.png``,
  ``end-lastonealive-survivors-es.png``: real games played headless by bots through each game's
  ``play`` command (``--headless --snapshots``): its last snapshot is the end screen.

The games are seeded (:data:`GAMES`), so a run gives the same pictures until the table's
drawing changes. Each PNG is written at ``--size`` through Pillow with a 256-colour palette and
``optimize`` (a frame of the table is flat colours and text: 17–30 KB at 1280x720). Look at them after a
run: they are what a reader of the docs sees.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable, Sequence

OUT = Path(__file__).resolve().parent.parent / "docs" / "images"
SIZE = (1280, 720)

#: name -> (game, language, seed, extra play options): the end screens, from real headless games
GAMES: dict[str, tuple[str, str, int, tuple[str, ...]]] = {
    "end-outspeed-en": ("outspeed", "en", 7, ("--players", "4")),
    "end-outspeed-es": ("outspeed", "es", 8, ("--players", "3")),
    "end-lastonealive-en": ("lastonealive", "en", 4, ("--players", "4")),
    "end-lastonealive-survivors-es": ("lastonealive", "es", 7, ("--players", "3", "--variant", "survivors")),
}
#: the Last One Alive game whose first shoot prompt is drawn (players, seed)
BANNER_GAME = (("red", "blue", "green", "yellow"), 4)


def _dummy_video() -> None:
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.pop("BITBOX_ASSUME_DISPLAY", None)       # headless: never the home screen's window
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


def save_png(surface: Any, path: Path) -> int:
    """``surface`` as a palette PNG (256 colours, optimised); its size in bytes."""
    import pygame
    from PIL import Image
    raw = pygame.image.tobytes(surface, "RGB")
    image = Image.frombytes("RGB", surface.get_size(), raw).quantize(256, method=Image.Quantize.MEDIANCUT)
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path, optimize=True)
    return path.stat().st_size


# ---------------------------------------------------------------------------- the home screen
def render_home(size: tuple[int, int] = SIZE, lang: str = "en") -> Any:
    """The home screen as ``bitbox play`` draws it with no controller found: Last One Alive,
    3 players, the cursor on its token mode turned to physical."""
    import pygame

    from bitbox.display.home import HomeScreen
    from bitbox.games import find, names
    from bitbox.table.home import Choices, Home, given_of
    pygame.display.init()
    pygame.font.init()
    games = {n: find(n) for n in names()}
    home = Home(games, given_of(None, []), Choices(game="lastonealive", players=3, bots=1, lang=lang))
    keys = [r.key for r in home.rows]
    if "opt:tokens" in keys:
        home.cursor = keys.index("opt:tokens")
        home.row.select("physical")
    surface = pygame.Surface(size)
    HomeScreen().draw(surface, home)
    return surface


# ---------------------------------------------------------------------------- a prompt banner
def render_banner(lang: str = "en", size: tuple[int, int] = SIZE, kind: str = "shoot",
                  most_steps: int = 20000) -> tuple[Any, Any]:
    """A real Last One Alive game (:data:`BANNER_GAME`), careful bots on simulated controllers
    through the game's referee session, stepped until its first ``kind`` prompt; the table's
    display drawn then. Returns (the surface, the display: its ``labels`` say what it drew)."""
    from bitbox.table.app import apply_command
    from bitbox.table.referee import Pace
    from bitbox.table.seating import SeatPlan
    from bitbox.testing import FakeHub
    from lastonealive.content import load_content
    from lastonealive.display import TableDisplay
    from bitbox.bots import make_bot
    from bitbox.table.session import BotDriver, Session
    from lastonealive.cartridge import CARTRIDGE, LastOneAliveGame
    from lastonealive.controls import TableControls
    from lastonealive.session import new_game
    players, seed = BANNER_GAME
    content = load_content()
    hub = FakeHub()
    sims = hub.add_sim(len(players))
    game = new_game(list(players), seed=seed, **content.game_options())
    plans = [SeatPlan(p, i, "bot", sims[i].controller_id) for i, p in enumerate(players)]
    session = Session(CARTRIDGE, LastOneAliveGame(game), plans, controls=TableControls(), pace=Pace.instant())
    bots = [BotDriver(p, sims[i], make_bot(CARTRIDGE, "careful"), TableControls(), seed=seed)
            for i, p in enumerate(players)]
    now = 0.0
    for _ in range(most_steps):
        now += 0.3
        for e in hub.poll():
            session.handle(e)
        session.update(now)
        if session.stage == "prompt" and any(p.kind == kind for p in session.open.values()):
            break
        for b in bots:
            b.update(session, now)
        for c in session.take_commands():
            apply_command(hub, c)
        if session.game.finished:
            raise RuntimeError(f"game {seed} ended before a {kind} prompt: choose another seed")
    else:
        raise RuntimeError(f"no {kind} prompt within {most_steps} steps")
    display = TableDisplay(size=size, lang=lang)
    surface = display.render_full(session.table(now))
    return surface, display


# ---------------------------------------------------------------------------- end screens
def render_end(game: str, lang: str, seed: int, extra: Sequence[str], size: tuple[int, int] = SIZE) -> Any:
    """The end screen of a real game of ``game`` played headless by bots through its play
    command: the last snapshot it writes (the end screen over the last turn)."""
    import pygame

    from bitbox.cli import main
    with tempfile.TemporaryDirectory(prefix="doc-images-") as tmp:
        argv = ["play", "--game", game, "--headless", "--speed", "0", "--seed", str(seed), "--lang", lang,
                "--size", f"{size[0]}x{size[1]}", "--snapshots", str(Path(tmp) / "snaps"),
                "--journal", str(Path(tmp) / "journal.sqlite"), "-q", *extra]
        from contextlib import redirect_stdout
        with open(os.devnull, "w") as quiet, redirect_stdout(quiet):
            code = main(argv)
        if code != 0:
            raise RuntimeError(f"bitbox {' '.join(argv)}: exit {code}")
        frames = sorted((Path(tmp) / "snaps").glob("*/turn-*.png"))
        if not frames:
            raise RuntimeError(f"{game}: no snapshot written")
        return pygame.image.load(str(frames[-1])).copy()


# ---------------------------------------------------------------------------- the command
def pictures(size: tuple[int, int]) -> dict[str, Callable[[], Any]]:
    """Each picture's name and how to draw it, in the order they are made."""
    from functools import partial

    def banner(lang: str) -> Any:
        return render_banner(lang, size)[0]
    out: dict[str, Callable[[], Any]] = {"home": partial(render_home, size)}
    for lang in ("en", "es"):
        out[f"loa-prompt-banner-{lang}"] = partial(banner, lang)
    for name, (game, lang, seed, extra) in GAMES.items():
        out[name] = partial(render_end, game, lang, seed, extra, size)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    from bitbox.table.app import check_size
    p = argparse.ArgumentParser(prog="python -m bitbox_tools.doc_images",
                                description="Render docs/images from real games, headless.")
    p.add_argument("--out", type=Path, default=OUT, help=f"the folder (default {OUT})")
    p.add_argument("--size", default=f"{SIZE[0]}x{SIZE[1]}", help="WIDTHxHEIGHT (default 1280x720)")
    p.add_argument("--only", nargs="+", metavar="NAME", help="only these pictures (names without .png)")
    args = p.parse_args(argv)
    try:
        size = check_size(args.size)
    except Exception as exc:  # noqa: BLE001 - a TableError: one line
        print(f"doc_images: {exc}", file=sys.stderr)
        return 2
    _dummy_video()
    todo = pictures(size)
    unknown = [n for n in args.only or () if n not in todo]
    if unknown:
        print(f"doc_images: unknown picture {', '.join(unknown)} (known: {', '.join(todo)})", file=sys.stderr)
        return 2
    for name, make in todo.items():
        if args.only and name not in args.only:
            continue
        try:
            surface = make()
        except RuntimeError as exc:
            print(f"doc_images: {name}: {exc}", file=sys.stderr)
            return 1
        n = save_png(surface, args.out / f"{name}.png")
        print(f"{args.out / (name + '.png')}: {surface.get_width()}x{surface.get_height()}, {n / 1024:.0f} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
