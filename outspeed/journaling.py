"""Outspeed's side of the console's journal (:mod:`bitbox.table.journal`): how a state is
rebuilt from data, how a journaled input is applied, how a state is fingerprinted."""
from __future__ import annotations

from typing import Any, Mapping

from .rules import Event, Game, Refused, RulesError
from .session.referee import apply_input, state_hash


class OutspeedJournalRules:
    """The :class:`bitbox.table.journal.JournalRules` of Outspeed."""

    name = "outspeed"
    input_errors: tuple[type[BaseException], ...] = (RulesError, Refused)

    def from_data(self, data: Mapping[str, Any]) -> Game:
        return Game.from_data(data)

    def apply_input(self, game: Game, kind: str, data: Mapping[str, Any]) -> list[Event]:
        return apply_input(game, kind, data)

    def state_hash(self, game: Game) -> str:
        return state_hash(game)

    def seed(self, game: Game) -> int:
        return int(game.state.seed)

    def players(self, game: Game) -> list[str]:
        return list(game.state.players)

    def finished(self, game: Game) -> bool:
        return bool(game.finished)

    def winners(self, game: Game) -> list[str]:
        return list(game.state.winners)

    def check_settings(self, settings: Mapping[str, Any]) -> None:
        """Outspeed's own settings of a record: language, bots, token mode, first game."""
        from .bots import BOTS
        from .words import LANGUAGES
        for key, allowed in (("lang", LANGUAGES), ("bot", tuple(BOTS) + ("mixed",)), ("tokens", ("physical", "virtual"))):
            if key in settings and (not isinstance(settings[key], str) or settings[key] not in allowed):
                raise ValueError(f"unknown {key} {str(settings[key])[:20]!r}")
        if not isinstance(settings.get("first_game", False), bool):
            raise ValueError("first_game must be true or false")


RULES = OutspeedJournalRules()
