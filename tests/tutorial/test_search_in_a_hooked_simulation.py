"""``simulate --bots search`` of a game whose statistics hook has its own run configuration
(docs/games.md, "The statistics hook"): the search bot's budget goes into the configuration's
field ``search`` (the tutorial's ``goofstats`` has it: the run plays, its first line names the
budget); a configuration without that field is one line, exit 2, where it was a ``TypeError``
traceback out of ``dataclasses.replace``."""
from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from bitbox.cli import main


@pytest.fixture(autouse=True)
def both_on_the_shelf(monkeypatch):
    monkeypatch.setenv("BITBOX_GAMES", "goofspiel=goofspiel:CARTRIDGE,goofstats=goofspiel_stats:CARTRIDGE,"
                                       "nosearch=test_search_in_a_hooked_simulation:NO_SEARCH")


def _no_search_cartridge() -> Any:
    """The tutorial's goofstats with a configuration that has every field of its but ``search``."""
    import goofspiel_stats
    from bitbox.simulation.command import Simulation

    fields = [f for f in dataclasses.fields(goofspiel_stats.SimConfig) if f.name != "search"]
    bare = dataclasses.make_dataclass("BareConfig", [(f.name, f.type, f) for f in fields],
                                      bases=(goofspiel_stats.runner.Config,), frozen=True,
                                      namespace={"game": "nosearch", "namespace": "nosearch-simulate",
                                                 "cartridge_options": goofspiel_stats.SimConfig.cartridge_options})

    class NoSearch(goofspiel_stats.StatsCartridge):
        name = "nosearch"
        simulation = Simulation(lambda games, players, bots, seed, rotate, options: bare(
            games=games, players=players, bots=bots, seed=seed, rotate=rotate, cards=int(options.get("cards", 6))),
            games=4, players=3)

    return NoSearch()


def __getattr__(name: str) -> Any:          # the registry imports NO_SEARCH from this module
    if name == "NO_SEARCH":
        return _no_search_cartridge()
    raise AttributeError(name)


def test_the_search_bot_plays_with_its_budget_in_the_configuration(capsys):
    assert main(["simulate", "goofstats", "--games", "3", "--bots", "search,random", "--rollouts", "8", "-q"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.endswith("seed 0; search bot: 8 rollouts per decision") and "bots search,random" in first


def test_a_configuration_without_the_field_is_one_line(capsys):
    assert main(["simulate", "nosearch", "--games", "2", "--bots", "random", "-q"]) == 0     # no search: it plays
    capsys.readouterr()
    assert main(["simulate", "nosearch", "--games", "2", "--bots", "search,random", "--rollouts", "4", "-q"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert err == ("bitbox simulate: the search bot cannot play in nosearch's simulation: its configuration "
                   "(BareConfig) has no field `search` to hold its budget (docs/games.md, \"The statistics hook\")\n")
