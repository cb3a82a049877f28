"""Journals for the console's tests: whole games of either cartridge, played by the protocol's
bots and written input by input as the tables write them (each game's journal rules)."""
from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from bitbox.bots import RandomBot
from bitbox.games import find
from bitbox.games.conformance import player_names
from bitbox.table.journal import Journal


def _hash(engine: Any) -> str:
    blob = json.dumps(engine.to_data(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:32]


def _input(game: str, answers: Mapping[str, Any], kind: str) -> tuple[str, dict[str, Any]]:
    """One apply of the protocol as the game's journal writes it."""
    if game == "lastonealive":
        ((player, action),) = answers.items()
        if kind == "start":
            return "start", {"first": action.arg}
        return "answer", {"action": action.to_data()}
    if kind == "bonus":
        return "bonus", {"plays": {p: t for p, t in answers.items() if t is not None}}
    if kind == "program":
        return "program", {"choices": {p: [c.path, c.number] for p, c in answers.items()}}
    ((player, token),) = answers.items()
    return "keep", {"player": player, "token": token}


def write_game(journal: Journal, game: str, seed: int, players: int, settings: Mapping[str, Any] | None = None,
               names: Sequence[str] | None = None) -> int:
    """A whole game of ``game`` played by random bots, journaled; its id."""
    cartridge = find(game)
    seats = list(names or player_names(cartridge, players))
    g = cartridge.new(seats, seed, {})
    engine = g.engine                                           # type: ignore[attr-defined]
    journal.rules = cartridge.journal                           # type: ignore[attr-defined]
    record = journal.new_game(engine, dict(settings or {}))
    rng = RandomBot(seed)
    while not g.finished:
        prompts = g.prompts()
        answers = {p.player: rng.choose({}, p) for p in prompts}
        kind, data = _input(game, answers, prompts[0].kind)
        record.record(kind, data, turn=int(engine.state.turn), phase=str(engine.state.phase), state=_hash(engine))
        g.apply(answers)
    record.finish(list(g.winners), _hash(engine))
    return record.id
