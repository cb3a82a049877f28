"""Outspeed's hooks on the console's journal rules (:mod:`bitbox.table.protocol_rules`): the
journal is the protocol's (each input applied through ``Game.apply``, fingerprints of
``to_data()``, seed, turn and winners from the game); what is Outspeed's own is kept here:

* the spelling its journals have always given a phase's answers, written and read:
  ``bonus`` ``{"plays": {player: token or null}}`` (empty when nobody holds a token),
  ``program`` ``{"choices": {player: [path, number]}}``, ``keep`` ``{"player", "token"}``
  (an ``answers`` input is read too, as for every game);
* the phase recorded with an input (the engine's: ``bonus``, ``programming``, ``draw``);
* the replay log's wording (:mod:`.session.log`) and the die shown with a roll;
* its settings in a record (language, bots, token mode, first game);
* what the journal's readers get: the engine's game (its tools read its state).
"""
from __future__ import annotations

from typing import Any, Mapping

from bitbox.display.model import DieShown
from bitbox.table.journal import check_choices
from bitbox.table.protocol_rules import ProtocolJournalRules

from .rules import Choice, Event, EventKind, Game, Refused, RulesError
from .session.log import log_data


def _engine(game: Any) -> Game:
    return getattr(game, "engine", game)


class OutspeedJournal:
    """Outspeed's :class:`bitbox.table.protocol_rules.JournalHooks`."""

    input_errors: tuple[type[BaseException], ...] = (RulesError, Refused)
    settings_keys: tuple[str, ...] = ("lang", "bot", "first_game", "tokens")

    def from_data(self, data: Mapping[str, Any]) -> Game:
        return Game.from_data(data)

    # ---- the spelling of answers
    @staticmethod
    def input_of(game: Any, answers: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
        """The journal's input for the answers of one phase: ``bonus`` with every active
        player's play (none at all when nobody holds a token), ``program`` with each choice as
        ``[path, number]``, ``keep`` with the player and the token."""
        s = _engine(game).state
        if s.phase == "bonus":
            return "bonus", {"plays": {p: answers[p] for p in s.active} if any(s.held[p] for p in s.active) else {}}
        if s.phase == "programming":
            return "program", {"choices": {p: [answers[p].path, answers[p].number] for p in s.active}}
        (player, token), = answers.items()
        return "keep", {"player": player, "token": token}

    @staticmethod
    def answers_of(game: Any, kind: str, data: Mapping[str, Any]) -> dict[str, Any] | None:
        """The answers an input of Outspeed's spelling holds (None: not one of its kinds)."""
        if kind == "bonus":
            plays = data["plays"]
            if not isinstance(plays, Mapping):
                raise RulesError("a bonus input's plays must be a mapping")
            asked = [p.player for p in game.prompts()]
            extra = [p for p in plays if p not in asked]
            if extra:
                raise RulesError(f"{str(extra[0])[:20]!r} plays no bonus token now")
            return {p: plays.get(p) for p in asked}
        if kind == "program":
            choices = data["choices"]
            if not isinstance(choices, Mapping):
                raise RulesError("a program input's choices must be a mapping")
            return {p: Choice(c[0], c[1]) for p, c in choices.items()}
        if kind == "keep":
            return {data["player"]: data["token"]}
        return None

    @staticmethod
    def phase(game: Any) -> str:
        return str(_engine(game).phase)

    # ---- replay (bitbox.table.history.ReplayRules)
    def log_data(self, event: Event, before: Mapping[str, Any], after: Mapping[str, Any], game: Any) -> dict[str, Any]:
        previous = self._roll if event.kind == EventKind.ROLL and self._roll_input is before else None
        data = log_data(event, before, after, _engine(game).state.token_mode, previous)
        # the replay asks event by event, in order, with the same ``before`` for one input's events
        self._roll, self._roll_input = (data, before) if event.kind == EventKind.ROLL else (None, None)
        return data

    _roll: Mapping[str, Any] | None = None      # the last roll's data, while the same input's events come
    _roll_input: Any = None

    @staticmethod
    def die(event: Event) -> DieShown | None:
        if event.kind != EventKind.ROLL:
            return None
        return DieShown(event.data["player"], event.data["die"], int(event.data["value"]))

    @staticmethod
    def check_settings(settings: Mapping[str, Any]) -> None:
        """Outspeed's own settings of a record: language, bots (a comma list), token mode, first game."""
        from .bots import BOTS
        from .words import LANGUAGES
        check_choices(settings, {"lang": LANGUAGES, "bot": (*BOTS, "mixed", "search"), "tokens": ("physical", "virtual")},
                      lists=("bot",))
        if not isinstance(settings.get("first_game", False), bool):
            raise ValueError("first_game must be true or false")


def _rules() -> ProtocolJournalRules:
    from .cartridge import CARTRIDGE
    return ProtocolJournalRules(CARTRIDGE, OutspeedJournal())


#: Outspeed's journal rules: the protocol's with :class:`OutspeedJournal` (the cartridge's ``journal``).
RULES = _rules()

__all__ = ["OutspeedJournal", "RULES"]
