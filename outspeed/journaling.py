"""Outspeed's side of the console's journal (:mod:`bitbox.table.journal`) and replay
(:mod:`bitbox.table.history`): how a journaled input is applied, how a state is
fingerprinted, what the log says of an event, when a turn ends (the rest is the console's
:class:`~bitbox.table.journal.StateJournalRules`)."""
from __future__ import annotations

from typing import Any, Mapping

from bitbox.display.model import DieShown
from bitbox.table.journal import StateJournalRules, check_choices

from .rules import Event, EventKind, Game, Refused, RulesError
from .session.log import log_data
from .session import apply_input, state_hash


class OutspeedJournalRules(StateJournalRules):
    """The :class:`bitbox.table.journal.JournalRules` of Outspeed."""

    name = "outspeed"
    game_type = Game
    input_errors: tuple[type[BaseException], ...] = (RulesError, Refused)
    settings_keys: tuple[str, ...] | None = ("lang", "bot", "first_game", "tokens")

    def apply_input(self, game: Any, kind: str, data: Mapping[str, Any]) -> list[Event]:
        """``data`` applied to an engine's game, or a cartridge's (the table's session)."""
        return apply_input(getattr(game, "engine", game), kind, data)

    def state_hash(self, game: Any) -> str:
        return state_hash(game)

    # ---- the console's session (bitbox.table.session): the protocol's answers as Outspeed's inputs
    @staticmethod
    def input_of(game: Any, answers: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
        """The journal's input for the answers of one phase: ``bonus`` with every active
        player's play (none at all when nobody holds a token), ``program`` with each choice as
        ``[path, number]``, ``keep`` with the player and the token."""
        s = getattr(game, "engine", game).state
        if s.phase == "bonus":
            return "bonus", {"plays": {p: answers[p] for p in s.active} if any(s.held[p] for p in s.active) else {}}
        if s.phase == "programming":
            return "program", {"choices": {p: [answers[p].path, answers[p].number] for p in s.active}}
        (player, token), = answers.items()
        return "keep", {"player": player, "token": token}

    @staticmethod
    def position(game: Any) -> tuple[int, str]:
        """(turn, phase) recorded with an input: the engine's."""
        engine = getattr(game, "engine", game)
        return int(engine.state.turn), str(engine.phase)

    # ---- replay (bitbox.table.history.ReplayRules)
    def public_view(self, game: Game) -> Mapping[str, Any]:
        return game.public_view()

    def log_data(self, event: Event, before: Mapping[str, Any], after: Mapping[str, Any], game: Game) -> dict[str, Any]:
        previous = self._roll if event.kind == EventKind.ROLL and self._roll_input is before else None
        data = log_data(event, before, after, game.state.token_mode, previous)
        # the replay asks event by event, in order, with the same ``before`` for one input's events
        self._roll, self._roll_input = (data, before) if event.kind == EventKind.ROLL else (None, None)
        return data

    _roll: Mapping[str, Any] | None = None      # the last roll's data, while the same input's events come
    _roll_input: Any = None

    def die(self, event: Event) -> DieShown | None:
        if event.kind != EventKind.ROLL:
            return None
        return DieShown(event.data["player"], event.data["die"], int(event.data["value"]))

    def check_settings(self, settings: Mapping[str, Any]) -> None:
        """Outspeed's own settings of a record: language, bots (a comma list), token mode, first game."""
        from .bots import BOTS
        from .words import LANGUAGES
        check_choices(settings, {"lang": LANGUAGES, "bot": (*BOTS, "mixed", "search"), "tokens": ("physical", "virtual")},
                      lists=("bot",))
        if not isinstance(settings.get("first_game", False), bool):
            raise ValueError("first_game must be true or false")


RULES = OutspeedJournalRules()
