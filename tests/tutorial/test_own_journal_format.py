"""A cartridge may keep its own journal format (its journal rules, the cartridge's ``journal``):
the console's session then journals each submission as those rules say (``input_of``) and
applies it through them, so the journals its own table wrote still list, replay and resume."""
from __future__ import annotations

from typing import Any, Mapping

from bitbox.events import Connected, WheelsChanged
from bitbox.games import GameError
from bitbox.table.journal import Journal, rebuild
from bitbox.table.protocol_rules import ProtocolJournalRules
from bitbox.table.referee import Pace
from bitbox.table.seating import SeatPlan
from bitbox.table.session import Session


class BidRules(ProtocolJournalRules):
    """Goofspiel's journal in a format of its own: ``bids`` inputs, ``{"bids": {player: card}}``."""

    def input_of(self, game: Any, answers: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
        return "bids", {"bids": {p: int(a) for p, a in answers.items()}}

    def apply_input(self, game: Any, kind: str, data: Mapping[str, Any]) -> list[Any]:
        if kind != "bids":
            raise GameError(f"unknown input kind {kind!r}")
        return list(game.apply({p: int(c) for p, c in data["bids"].items()}))


def own_cartridge():
    from bitbox.games import find
    base = find("goofspiel")

    class Own(type(base)):                       # type: ignore[misc]
        pass

    own = Own()
    own.journal = BidRules(own)
    return own


class Info:
    def __init__(self, cid: int) -> None:
        self.controller_id = cid


def test_the_session_journals_in_the_cartridges_own_format_and_the_journal_replays_it(tmp_path):
    c = own_cartridge()
    players = ("red", "blue")
    journal = Journal(tmp_path / "j.sqlite", c.journal)
    game = c.new(list(players), 7, {"cards": 4})
    record = journal.new_game(game, {"seats": []})
    s = Session(c, game, [SeatPlan(p, i) for i, p in enumerate(players)], journal=record, pace=Pace.instant(),
                clock=lambda: 0.0)
    for i in range(2):
        s.handle(Connected(i, Info(100 + i), 0.0))
        s.handle(WheelsChanged(i, 100 + i, 0, 0, 0, False, 0.0))
    s.update(0.0)
    while not s.finished:
        for i, p in enumerate(players):
            s.handle(WheelsChanged(i, 100 + i, max(s.awaiting(p).options), 0, 0, True, 0.0))
        for i in range(2):
            s.handle(WheelsChanged(i, 100 + i, 0, 0, 0, False, 0.0))
        s.update(0.0)
    kinds = [r[0] for r in journal.db.execute("SELECT kind FROM inputs ORDER BY seq")]
    assert kinds == ["bids"] * 4                  # a round each, the last one (one card each) too
    info = journal.game(record.id)
    assert info.status == "finished" and info.winners == list(s.game.winners)
    rebuilt, n = rebuild(journal, record.id)
    assert n == 4 and rebuilt.to_data() == s.game.to_data()
    journal.close()
