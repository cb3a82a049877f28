"""Last One Alive's hooks on the console's journal rules (:mod:`bitbox.table.protocol_rules`):
the journal is the protocol's (each answer applied through ``Game.apply``, fingerprints of
``to_data()``, seed, turn and winners from the game); what is Last One Alive's own is kept here:

* ``start`` ``{"first": player}``: who starts, chosen at the table (the first lock closed),
  an input that answers no prompt;
* the spelling its journals have always given an answer, written and read: ``answer``
  ``{"action": Action.to_data()}`` (with ``"auto": true`` when the prompt had nothing to
  decide); an ``answers`` input is read too, as for every game;
* ``drawn``: the tokens entered from a real bag (``--tokens physical``), journaled with the
  input that draws them and put on top of the engine's bag before it is applied;
* the phase recorded with an input (the engine's), its settings in a record (language, bots,
  token mode, variants, first zombie), and what the journal's readers get: the engine's game.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from bitbox.table.journal import check_choices
from bitbox.table.protocol_rules import INPUT_KIND, ProtocolJournalRules

from .rules import Action, Event, Game, Refused, RulesError
from .session import stack_bag, started


def _engine(game: Any) -> Game:
    return getattr(game, "engine", game)


class LastOneAliveJournal:
    """Last One Alive's :class:`bitbox.table.protocol_rules.JournalHooks`."""

    input_errors: tuple[type[BaseException], ...] = (RulesError, Refused)
    settings_keys: tuple[str, ...] = ("lang", "bot", "tokens", "variants", "first_zombie")

    def from_data(self, data: Mapping[str, Any]) -> Game:
        return Game.from_data(data)

    @staticmethod
    def input_of(game: Any, answers: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
        """``answer`` with the action (``auto`` when the prompt had nothing to decide)."""
        ((_, action),) = answers.items()
        pr = _engine(game).prompt()
        data: dict[str, Any] = {"action": action.to_data()}
        if pr is not None and pr.auto and pr.default == action:
            data["auto"] = True
        return "answer", data

    @staticmethod
    def before_input(game: Any, kind: str, data: Mapping[str, Any]) -> None:
        """The tokens entered from a real bag (``drawn``) on top of the engine's bag."""
        g = _engine(game)
        drawn = data.get("drawn") or []
        if not isinstance(drawn, list) or not all(isinstance(t, str) for t in drawn):
            raise RulesError("drawn must be a list of token names")
        if kind == "start":
            if started(g):
                raise RulesError("the game has already started")
            if data["first"] not in g.state.players:
                raise RulesError(f"unknown first player {data['first']!r}")
        elif kind in ("answer", INPUT_KIND) and not started(g):
            raise RulesError("the game has not started")
        stack_bag(g, drawn)

    @staticmethod
    def answers_of(game: Any, kind: str, data: Mapping[str, Any]) -> dict[str, Any] | None:
        if kind != "answer":
            return None
        return {str(_engine(game).state.active): Action.from_data(data["action"])}

    @staticmethod
    def table_input(game: Any, kind: str, data: Mapping[str, Any]) -> Sequence[Event] | None:
        """``start``: who starts (checked by :meth:`before_input`)."""
        if kind != "start":
            return None
        return _engine(game).apply(Action("start", None, data["first"]))

    @staticmethod
    def phase(game: Any) -> str:
        return str(_engine(game).state.phase)

    @staticmethod
    def check_settings(settings: Mapping[str, Any]) -> None:
        """Last One Alive's own settings of a record: language, bots (a comma list), token mode, variants."""
        from .rules import VARIANTS
        from .strategy import BOT_NAMES
        from .words import LANGUAGES
        check_choices(settings, {"lang": LANGUAGES, "bot": (*BOT_NAMES, "search"), "tokens": ("physical", "virtual"),
                                 "first_zombie": ("each", "first")},
                      lists=("bot",))
        variants = settings.get("variants", [])
        if not isinstance(variants, list) or not all(isinstance(v, str) and v in VARIANTS for v in variants):
            raise ValueError("unknown variants")


def _rules() -> ProtocolJournalRules:
    from .cartridge import CARTRIDGE
    return ProtocolJournalRules(CARTRIDGE, LastOneAliveJournal())


#: Last One Alive's journal rules: the protocol's with :class:`LastOneAliveJournal` (the cartridge's ``journal``).
RULES = _rules()

__all__ = ["LastOneAliveJournal", "RULES"]
