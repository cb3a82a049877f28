"""Outspeed's controls at the console's session: the wheels read as the protocol's answers and
back, and the keyboard's arrows (←/→ the path or token, ↑/↓ X)."""
from __future__ import annotations

from outspeed.cartridge import CARTRIDGE
from outspeed.controls import Controls
from outspeed.rules import Choice

from .helpers import WM

CONTROLS = Controls(WM)


def prompts_with_numbers():
    """Programming prompts whose options include a path with several X."""
    from bitbox.bots import make_bot
    for seed in range(1, 40):
        game = CARTRIDGE.new(["red", "blue", "green"], seed, {"first_game": False, "tokens": "virtual"})
        bots = {p: make_bot(CARTRIDGE, "random", seed) for p in game.players}
        while not game.finished:
            prompts = game.prompts()
            for pr in prompts:
                if pr.kind == "program" and sum(o.number is not None for o in pr.options) >= 2:
                    yield pr
            game.apply({pr.player: bots[pr.player].choose(game.private_view(pr.player), pr) for pr in prompts})


def test_every_option_is_read_back_from_the_wheels_it_sets():
    seen = set()
    for n, pr in enumerate(prompts_with_numbers()):
        for o in pr.options:
            assert CONTROLS.read(pr, CONTROLS.wheels_for(pr, o)) == o
        seen.add(pr.kind)
        if n > 20:
            break
    assert seen == {"program"}


def test_the_arrows_move_between_paths_and_along_x():
    pr = next(prompts_with_numbers())
    numbered = next(o for o in pr.options if o.number is not None)
    xs = [o.number for o in pr.options if o.path == numbered.path]
    first = Choice(numbered.path, xs[0])
    up = CONTROLS.key_move(pr, first, "up")
    assert up == Choice(numbered.path, xs[1])                     # ↑: the next X on the same path
    assert CONTROLS.key_move(pr, up, "down") == first              # ↓: back
    assert CONTROLS.key_move(pr, first, "down") == first           # no X below the first
    paths = list(dict.fromkeys(o.path for o in pr.options))
    right = CONTROLS.key_move(pr, first, "right")
    assert right.path == paths[(paths.index(first.path) + 1) % len(paths)]   # →: the next path
    tour = first
    for _ in paths:
        tour = CONTROLS.key_move(pr, tour, "right")
    assert tour.path == first.path                                 # round the paths and back
