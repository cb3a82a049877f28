"""The console's search bot at Outspeed's table (issue 23): Outspeed plays on the console's
session, so ``--bots search`` with its budget (``--rollouts N``, ``--think MS``) works through
each of its commands: ``outspeed play``, ``bitbox play --game outspeed`` and ``bitbox game
outspeed play``. Small budgets: a few rollouts a decision."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

COMMON = ["--players", "3", "--headless", "--speed", "0", "--seed", "5", "--size", "320x180", "-q"]


def inputs(journal: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(journal) as db:
        return [(kind, data) for kind, data in db.execute("SELECT kind, data FROM inputs ORDER BY game, seq")]


def settings(journal: Path) -> dict:
    with sqlite3.connect(journal) as db:
        (raw,), = db.execute("SELECT settings FROM games")
    return json.loads(raw)


def play(how: str, args: list[str], tmp_path: Path, name: str) -> tuple[int, Path]:
    from bitbox.cli import main as bitbox_main
    from outspeed.cli import main as outspeed_main
    journal = tmp_path / f"{name}.sqlite"
    argv = [*args, *COMMON, "--journal", str(journal), "--snapshots", str(tmp_path / "s")]
    if how == "outspeed":
        code = outspeed_main(["play", *argv])
    elif how == "bitbox play":
        code = bitbox_main(["play", "--game", "outspeed", *argv])
    else:
        code = bitbox_main(["game", "outspeed", "play", *argv])
    return code, journal


def test_the_search_bot_plays_outspeed_with_rollouts_reproducibly_through_each_command(tmp_path, capsys):
    games = []
    for how in ("outspeed", "bitbox play"):
        code, journal = play(how, ["--bots", "search,greedy,greedy", "--rollouts", "2"], tmp_path, how.replace(" ", "-"))
        out = capsys.readouterr().out
        assert code == 0 and "Winner" in out
        assert settings(journal)["bot"] == "search,greedy,greedy"
        games.append(inputs(journal))
    assert games[0] and games[0] == games[1]          # the same seed and rollouts: the same game


def test_the_search_bot_thinks_for_a_time_budget_at_outspeeds_table(tmp_path, capsys):
    code, journal = play("bitbox game", ["--bots", "search,greedy,greedy", "--think", "5"], tmp_path, "think")
    assert code == 0 and "Winner" in capsys.readouterr().out
    assert inputs(journal)


@pytest.mark.parametrize("bad,says", [(["--think", "0"], "expected a whole number from 1"),
                                      (["--rollouts", "-3"], "expected a whole number from 1"),
                                      (["--bots", "search,clever"], "unknown bot 'clever'")])
def test_a_bad_search_option_is_one_line(tmp_path, capsys, bad, says):
    from outspeed.cli import main as outspeed_main
    try:
        code = outspeed_main(["play", "--bots", "search,greedy", *bad, *COMMON, "--journal", str(tmp_path / "j.sqlite")])
    except SystemExit as exc:                  # argparse's own exit
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2 and says in err and "Traceback" not in err


def test_outspeeds_table_shows_a_searching_bot_as_thinking_in_its_words():
    """The search bot thinks on a worker thread while the table goes on; Outspeed's screen
    shows that player as thinking, in each of its languages."""
    import threading
    import time

    from bitbox.bots.search import Budget, SearchBot
    from bitbox.table.session import BotDriver
    from outspeed.cartridge import CARTRIDGE
    from outspeed.controls import Controls
    from outspeed.display import TableDisplay
    from outspeed.words import LANGUAGES, Lang

    from .helpers import WM, Table

    class Gated(SearchBot):
        def __init__(self, *args: object) -> None:
            super().__init__(*args)                       # type: ignore[arg-type]
            self.gate, self.started = threading.Event(), threading.Event()

        def decide(self, game, prompt):                   # type: ignore[no-untyped-def]
            self.started.set()
            assert self.gate.wait(30)
            return super().decide(game, prompt)

    t = Table(seed=3)
    t.pump()
    assert t.stage == "programming"
    bot = Gated(CARTRIDGE, 0, Budget(2, None))
    driver = BotDriver("red", t.sims["red"], bot, Controls(WM), seed=3)
    driver.update(t.s, 0.0)
    assert bot.started.wait(10)
    table = t.s.table()
    assert table.status_of("red").status == "thinking" and table.status_of("blue").status == "to_act"
    for code in LANGUAGES:
        said = Lang(code).t("status.thinking")
        assert said and said != "status.thinking"
    TableDisplay(size=(480, 270), lang="de").render_full(table)
    bot.gate.set()
    deadline = time.monotonic() + 20
    while t.s.awaiting("red") is not None and time.monotonic() < deadline:
        driver.update(t.s, 0.0)
        t.pump()
    assert t.s.awaiting("red") is None and "red" in t.ready()       # its answer is locked in
    assert t.s.table().status_of("red").status == "ready"
