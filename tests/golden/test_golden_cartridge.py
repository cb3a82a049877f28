"""The recorded golden games (tests/golden) replay byte for byte through the Outspeed
cartridge too: prompts, answers and ``apply`` make exactly the engine's games, and every
recorded input is among the options the cartridge generates for it."""
from __future__ import annotations

import pytest

from bitbox.games import Prompt
from outspeed.cartridge import OutspeedCartridge, OutspeedGame
from outspeed.content import Content
from outspeed.rules import Choice

from .record import canonical
from .test_golden import DATA, _tiles


@pytest.mark.parametrize("index", range(len(DATA["games"])))
def test_golden_games_through_the_cartridge(index: int) -> None:
    record = DATA["games"][index]
    setup = record["setup"]
    content = Content(tuple(_tiles(setup["dice"])), setup["dice"], setup["token_counts"], setup["markers"])
    cartridge = OutspeedCartridge(content)
    game = cartridge.new(setup["players"], setup["seed"],
                         {"first_game": setup["first_game"], "tokens": setup["token_mode"]})
    assert isinstance(game, OutspeedGame)
    for n, step in enumerate(record["steps"]):
        inp = step["input"]
        where = f"game {index} step {n} ({inp})"
        if inp is None:
            continue
        prompts: dict[str, Prompt] = {p.player: p for p in game.prompts()}
        if "bonus" in inp:
            answers = {p: inp["bonus"].get(p) for p in prompts}
        elif "program" in inp:
            answers = {p: Choice(path, number) for p, (path, number) in inp["program"].items()}
        else:
            player, token = inp["keep"]
            answers = {player: token if token is not None else prompts[player].context["drawn"][0]}
        assert set(answers) == set(prompts), where
        for p, a in answers.items():
            assert game.refusal(p, a) is None, where
        events = game.apply(answers)
        assert [canonical(e.to_data()) for e in events] == step["events"], where
        assert canonical(game.public_view()) == step["view"], where
        assert canonical(game.to_data()) == step["state"], where
    assert game.finished and not game.prompts()
