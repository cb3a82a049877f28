"""Journal and replay rules of any cartridge, from the game protocol alone.

A game at the console's table is journaled as its answers: each input is ``kind =
"answers"`` with ``{"answers": {player: Cartridge.action_to_data(action)}}`` (the answers
applied together by one ``Game.apply``), its fingerprint is of ``Game.to_data()``, and the
game is rebuilt with ``Cartridge.from_data``. Seed, turn and winners come from the protocol
(``Game.seed`` and ``Game.turn`` are optional members: without them, the seed is
``to_data()["seed"]`` or 0 and each answer is a turn). A cartridge that keeps a journal of
its own (``journal`` attribute, e.g. Outspeed's older format) is used as it is.
"""
from __future__ import annotations

from typing import Any, Mapping

from bitbox.display.model import DieShown
from bitbox.games.protocol import Cartridge, GameError, OptionError, Refusal, check_options

from .referee import fingerprint

INPUT_KIND = "answers"

#: settings a console table records for a game (besides the game's own options)
TABLE_SETTINGS = ("lang", "bot", "options")


def game_seed(game: Any) -> int:
    seed = getattr(game, "seed", None)
    if seed is None:
        seed = game.to_data().get("seed", 0)
    return int(seed) if isinstance(seed, int) and not isinstance(seed, bool) else 0


class ProtocolJournalRules:
    """:class:`bitbox.table.journal.JournalRules` for ``cartridge``, from its protocol."""

    input_errors: tuple[type[BaseException], ...] = (Refusal, GameError, KeyError, TypeError, ValueError)

    def __init__(self, cartridge: Cartridge) -> None:
        self.cartridge = cartridge
        self.name = cartridge.name

    # ---- journal
    def from_data(self, data: Mapping[str, Any]) -> Any:
        return self.cartridge.from_data(data)

    @staticmethod
    def input_data(cartridge: Cartridge, answers: Mapping[str, Any]) -> dict[str, Any]:
        return {"answers": {p: cartridge.action_to_data(a) for p, a in answers.items()}}

    def answers(self, data: Mapping[str, Any]) -> dict[str, Any]:
        raw = data.get("answers")
        if not isinstance(raw, Mapping) or not raw:
            raise GameError("an input holds no answers")
        return {str(p): self.cartridge.action_from_data(a) for p, a in raw.items()}

    def apply_input(self, game: Any, kind: str, data: Mapping[str, Any]) -> list[Any]:
        if kind != INPUT_KIND:
            raise GameError(f"unknown input kind {str(kind)[:20]!r}")
        return list(game.apply(self.answers(data)))

    def state_hash(self, game: Any) -> str:
        return fingerprint(game)

    def seed(self, game: Any) -> int:
        return game_seed(game)

    def players(self, game: Any) -> list[str]:
        return list(game.players)

    def finished(self, game: Any) -> bool:
        return bool(game.finished)

    def winners(self, game: Any) -> list[str]:
        return list(game.winners)

    def turn(self, game: Any) -> int:
        t = getattr(game, "turn", None)
        return int(t) if isinstance(t, int) else 0

    def numbers_turns(self, game: Any) -> bool:
        """Whether the game numbers its turns (``Game.turn``); without it each input is a turn
        (bitbox.table.journal.turns_by_input), as the session journals it."""
        t = getattr(game, "turn", None)
        return isinstance(t, int) and not isinstance(t, bool)

    #: a record's own settings, besides the console's (bitbox.table.journal.CONSOLE_SETTINGS)
    settings_keys: tuple[str, ...] = TABLE_SETTINGS

    def check_settings(self, settings: Mapping[str, Any]) -> None:
        options = settings.get("options", {})
        if not isinstance(options, dict):
            raise ValueError("options must be a mapping")
        try:
            check_options(self.cartridge, options)
        except OptionError as exc:
            raise ValueError(str(exc)) from None

    # ---- replay (bitbox.table.history.ReplayRules)
    def public_view(self, game: Any) -> Mapping[str, Any]:
        return game.public_view()

    def log_data(self, event: Any, before: Mapping[str, Any], after: Mapping[str, Any], game: Any) -> dict[str, Any]:
        return dict(event.data)

    def die(self, event: Any) -> DieShown | None:
        return None

def journal_rules_of(cartridge: Cartridge) -> Any:
    """The cartridge's own journal rules, or the protocol's."""
    own = getattr(cartridge, "journal", None)
    return own if own is not None else ProtocolJournalRules(cartridge)


def session_rules_of(cartridge: Cartridge) -> Any:
    """The journal rules the console's session plays by: the cartridge's own when they
    journal the protocol's answers (``input_of(game, answers)``, applied to the protocol's
    game), else the protocol's. Rules written for a game's own table and engine (Outspeed's,
    Last One Alive's) are that table's: their commands run it."""
    own = getattr(cartridge, "journal", None)
    return own if own is not None and callable(getattr(own, "input_of", None)) else ProtocolJournalRules(cartridge)


__all__ = ["INPUT_KIND", "ProtocolJournalRules", "fingerprint", "game_seed", "journal_rules_of", "session_rules_of"]
