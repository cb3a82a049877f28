"""Last One Alive's side of the console's journal (:mod:`bitbox.table.journal`) and replay
(:mod:`bitbox.table.history`): how a journaled input is applied
(:func:`lastonealive.session.apply_input`), how a state is fingerprinted, what the log says
of an event, when a turn ends (the rest is the console's
:class:`~bitbox.table.journal.StateJournalRules`)."""
from __future__ import annotations

from typing import Any, Mapping

from bitbox.table.journal import StateJournalRules, check_choices

from .rules import Event, Game, Refused, RulesError
from .session import apply_input, public_view, state_hash


class LastOneAliveJournalRules(StateJournalRules):
    """The :class:`bitbox.table.journal.JournalRules` of Last One Alive."""

    name = "lastonealive"
    game_type = Game
    input_errors: tuple[type[BaseException], ...] = (RulesError, Refused)
    settings_keys: tuple[str, ...] | None = ("lang", "bot", "tokens", "variants", "first_zombie")

    def apply_input(self, game: Game, kind: str, data: Mapping[str, Any]) -> list[Event]:
        return apply_input(game, kind, data)

    def state_hash(self, game: Game) -> str:
        return state_hash(game)

    # ---- the console's session (bitbox.table.session): inputs as this journal has always had them
    def input_of(self, game: Any, answers: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
        """``answer`` with the action (``auto`` when the prompt had nothing to decide)."""
        ((_, action),) = answers.items()
        pr = getattr(game, "engine", game).prompt()
        data: dict[str, Any] = {"action": action.to_data()}
        if pr is not None and pr.auto and pr.default == action:
            data["auto"] = True
        return "answer", data

    def position(self, game: Any) -> tuple[int, str]:
        """(turn, phase) recorded with each input."""
        state = getattr(game, "engine", game).state
        return int(state.turn), str(state.phase)

    # ---- replay (bitbox.table.history.ReplayRules)
    def public_view(self, game: Game) -> Mapping[str, Any]:
        return public_view(game)

    def log_data(self, event: Event, before: Mapping[str, Any], after: Mapping[str, Any], game: Game) -> dict[str, Any]:
        return dict(event.data)

    def die(self, event: Event) -> None:
        return None                      # the tray is in the view

    def check_settings(self, settings: Mapping[str, Any]) -> None:
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


RULES = LastOneAliveJournalRules()
