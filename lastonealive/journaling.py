"""Last One Alive's side of the console's journal (:mod:`bitbox.table.journal`) and replay
(:mod:`bitbox.table.history`): how a state is rebuilt, how a journaled input is applied
(:func:`lastonealive.session.apply_input`), how a state is fingerprinted, what the log
says of an event, when a turn ends."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from .rules import Event, Game, Refused, RulesError
from .session import apply_input, public_view, state_hash


class LastOneAliveJournalRules:
    """The :class:`bitbox.table.journal.JournalRules` of Last One Alive."""

    name = "lastonealive"
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

    # ---- replay (bitbox.table.history.ReplayRules)
    def turn(self, game: Game) -> int:
        return int(game.state.turn)

    def public_view(self, game: Game) -> Mapping[str, Any]:
        return public_view(game)

    def log_data(self, event: Event, before: Mapping[str, Any], after: Mapping[str, Any], game: Game) -> dict[str, Any]:
        return dict(event.data)

    def die(self, event: Event) -> None:
        return None                      # the tray is in the view

    def end_of_turn_view(self, view: Mapping[str, Any], events: Sequence[Event], game: Game) -> Mapping[str, Any]:
        return view

    def check_settings(self, settings: Mapping[str, Any]) -> None:
        """Last One Alive's own settings of a record: language, bot, token mode, variants."""
        from .strategy import BOT_NAMES
        from .words import LANGUAGES
        for key, allowed in (("lang", LANGUAGES), ("bot", BOT_NAMES), ("tokens", ("physical", "virtual"))):
            if key in settings and (not isinstance(settings[key], str) or
                                    not all(v in allowed for v in settings[key].split(",") if key == "bot") or
                                    (key != "bot" and settings[key] not in allowed)):
                raise ValueError(f"unknown {key} {str(settings[key])[:20]!r}")
        variants = settings.get("variants", [])
        from .rules import VARIANTS
        if not isinstance(variants, list) or not all(isinstance(v, str) and v in VARIANTS for v in variants):
            raise ValueError("unknown variants")


RULES = LastOneAliveJournalRules()
