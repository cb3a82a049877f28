"""Record the golden games of ``test_golden.py`` (run it only to re-record, on purpose).

    ./dev python -m tests.golden.record

Each game is played by bots with the engine of the day; what is written is the setup, the
inputs of every step, and after each step the whole state (``Game.to_data()``), the public
view and every event (data and text). The test replays the inputs and checks all of it, so a
change to the engine that alters any game for the same seed and inputs is seen at once.
The tiles are written into the file: a change to config/tiles.yaml does not alter the games.
"""
from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

from outspeed.bots import make_bot
from outspeed.content import load_content
from outspeed.rules import Game

HERE = Path(__file__).parent
FILE = HERE / "games.json.gz"
COLOURS = ("red", "blue", "green", "yellow", "purple", "orange")

# (players, bots by seat, token mode, first game, what the game must show): the first seed
# from 0 whose game shows every wanted event kind (or a number chosen on the centre wheel).
PLAN: list[tuple[int, tuple[str, ...], str, bool, tuple[str, ...]]] = [
    (3, ("random", "greedy", "random"), "virtual", False, ("eliminated", "marker_placed", "number")),
    (4, ("random", "random", "lookahead", "greedy"), "physical", False, ("board_laid", "eliminated")),
    (5, ("random",) * 5, "virtual", False, ("board_laid", "markers_removed", "draw")),
    (6, ("greedy", "random", "random", "random", "lookahead", "random"), "virtual", False,
     ("eliminated", "marker_placed", "flip")),
    (4, ("random", "greedy", "random", "greedy"), "virtual", True, ("marker_placed",)),
    (6, ("random",) * 6, "physical", False, ("board_removed", "number")),
]


def canonical(x: Any) -> str:
    return json.dumps(x, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def snapshot(game: Game, events: list) -> dict[str, Any]:
    return {"state": canonical(game.to_data()), "view": canonical(game.public_view()),
            "events": [canonical(e.to_data()) for e in events], "texts": [e.text() for e in events]}


def play(setup: dict[str, Any], tiles, bot_names) -> dict[str, Any]:
    game = Game.new(setup["players"], tiles, seed=setup["seed"], first_game=setup["first_game"],
                    dice=setup["dice"], token_counts=setup["token_counts"], markers=setup["markers"],
                    token_mode=setup["token_mode"])
    bots = {p: make_bot(name, setup["seed"] * 10 + i, dice=setup["dice"])
            for i, (p, name) in enumerate(zip(setup["players"], bot_names))}
    steps = [{"input": None, **snapshot(game, [])}]
    s = game.state
    while not s.finished:
        if s.phase == "bonus":
            plays = {p: bots[p].bonus(game.private_view(p), game.legal_bonus_plays(p)) for p in s.active}
            inp = {"bonus": plays}
            events = game.play_bonus(plays)
        elif s.phase == "programming":
            options = game.program_options()
            choices = {p: bots[p].program(game.private_view(p), options[p]) for p in s.active}
            inp = {"program": {p: [c.path, c.number] for p, c in choices.items()}}
            events = game.program(choices)
        else:
            p = s.draw_queue[0]
            token = bots[p].keep(game.private_view(p), list(s.drawn))
            inp = {"keep": [p, token]}
            events = game.keep(p, token)
        steps.append({"input": inp, **snapshot(game, events)})
    return {"setup": setup, "bots": list(bot_names), "steps": steps}


def shows(record: dict[str, Any], wanted: tuple[str, ...]) -> bool:
    kinds = {json.loads(e)["kind"] for st in record["steps"] for e in st["events"]}
    numbers = any(c[1] is not None for st in record["steps"] if st["input"] and "program" in st["input"]
                  for c in st["input"]["program"].values())
    return all((numbers if w == "number" else w in kinds) for w in wanted)


def main() -> None:
    content = load_content()
    tiles = [t.to_data() for t in content.tiles]
    games = []
    for players, bot_names, mode, first, wanted in PLAN:
        for seed in range(2000):
            setup = {"players": list(COLOURS[:players]), "seed": seed, "first_game": first,
                     "dice": {k: list(v) for k, v in content.dice.items()},
                     "token_counts": dict(content.token_counts), "markers": content.markers,
                     "token_mode": mode}
            record = play(setup, content.tiles, bot_names)
            if shows(record, wanted):
                games.append(record)
                print(f"{players} players, {mode}, seed {seed}: {len(record['steps'])} steps")
                break
        else:
            raise SystemExit(f"no seed shows {wanted} for {players} players")
    data = {"format": 1, "tiles": tiles, "games": games}
    FILE.write_bytes(gzip.compress(canonical(data).encode(), mtime=0))
    print(f"wrote {FILE} ({FILE.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
