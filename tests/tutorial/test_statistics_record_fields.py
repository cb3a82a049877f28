"""A statistics hook whose records give no ``end`` (how a game ended) or no ``turns`` (docs/games.md,
"The statistics hook": both are the game's own fields, optional): the console's ``Tallies``
counts what the records give and the run reports, instead of a ``KeyError`` out of
``Tallies.add`` (found by a game written from the docs alone, whose records had no ``end``)."""
from __future__ import annotations

from typing import Any

import pytest

from bitbox.simulation import runner


@pytest.fixture(autouse=True)
def both_on_the_shelf(monkeypatch):
    monkeypatch.setenv("BITBOX_GAMES", "goofspiel=goofspiel:CARTRIDGE,goofstats=goofspiel_stats:CARTRIDGE")


def _cartridge(drop: tuple[str, ...]) -> Any:
    import goofspiel_stats

    class Watch(goofspiel_stats.Watch):
        def record(self) -> dict[str, Any]:
            return {k: v for k, v in super().record().items() if k not in drop}

    class Statistics(goofspiel_stats.Statistics):
        def watch(self, game: Any, players: Any) -> Watch:
            return Watch(game, players)

    class Cartridge(goofspiel_stats.StatsCartridge):
        statistics = Statistics()

    return Cartridge()


@pytest.mark.parametrize("drop", [("end",), ("turns",), ("end", "turns")])
def test_records_without_end_or_turns_are_tallied(drop):
    from goofspiel_stats import SimConfig
    config = SimConfig(games=5, players=3, bots=("random", "high"), seed=2, cards=4)
    full = runner.simulate(config, workers=1, cartridge=_cartridge(()))
    part = runner.simulate(config, workers=1, cartridge=_cartridge(drop))
    assert part.stats.games == 5 and "Mean score by seat" in part.report()
    assert part.stats.by_seat() == full.stats.by_seat() and part.stats.by_bot() == full.stats.by_bot()
    assert sum(part.stats.ends.values()) == (0 if "end" in drop else 5)
    length = part.to_data()["length"]
    if "turns" in drop:
        assert length == {"mean": 0, "histogram": {}}
    else:
        assert length == full.to_data()["length"] == {"mean": 4, "histogram": {4: 5}}
