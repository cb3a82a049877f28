"""Journal and replay rules of any cartridge, from the game protocol.

Every game's journal is read and written by :class:`ProtocolJournalRules`:

* an **input** is answers: ``kind = "answers"`` with ``{"answers": {player:
  Cartridge.action_to_data(action)}}``, the answers applied together by one ``Game.apply``;
* a **fingerprint** is of ``Game.to_data()``; a game is rebuilt with ``Cartridge.from_data``;
* **seed, turn and winners** come from the protocol (``Game.seed`` and ``Game.turn`` are
  optional members, :func:`bitbox.games.protocol.seed_of` and
  :func:`~bitbox.games.protocol.turn_of`: without a turn, each answer is a turn).

What is truly a game's own is given by small optional **hooks** (:class:`JournalHooks`, the
cartridge's ``journal`` member; Outspeed's and Last One Alive's are in their ``journaling``
modules): the spelling its journals have always given answers (``answers_of`` reads it,
``input_of`` writes it), an input that answers no prompt (``table_input``: Last One Alive's
"who starts"), values entered at the table and applied first (``before_input``: tokens drawn
from a real bag), the phase recorded with an input, the replay log's wording (``log_data``),
a die shown (``die``), the object the journal's readers get (``from_data``: the engine, as the
game's own tools read it) and the game's settings in a record. Whatever spelling an input has,
it is applied through ``Game.apply``; an ``answers`` input is read for every game.

A cartridge whose ``journal`` is a whole set of journal rules (with its own ``apply_input``)
keeps them as they are.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping, Protocol, Sequence

from bitbox.display.model import DieShown
from bitbox.games.protocol import (Cartridge, GameError, OptionError, Refusal, check_options, seed_of,
                                   turn_of)

from .referee import fingerprint

INPUT_KIND = "answers"

#: settings a console table records for a game (besides the game's own options)
TABLE_SETTINGS = ("lang", "bot", "options")


def game_seed(game: Any) -> int:
    """The protocol's seed of ``game`` (:func:`bitbox.games.protocol.seed_of`)."""
    return seed_of(game)


class JournalHooks(Protocol):
    """What a game may add to the protocol's journal rules; every member is optional (this
    class only names them). ``game`` is always the protocol's game."""

    input_errors: tuple[type[BaseException], ...]       # what "this input does not apply" raises
    settings_keys: tuple[str, ...]                       # the game's own settings in a record

    def from_data(self, data: Mapping[str, Any]) -> Any: ...          # what the readers get
    def answers_of(self, game: Any, kind: str, data: Mapping[str, Any]) -> Mapping[str, Any] | None: ...
    def input_of(self, game: Any, answers: Mapping[str, Any]) -> tuple[str, dict[str, Any]]: ...
    def table_input(self, game: Any, kind: str, data: Mapping[str, Any]) -> Sequence[Any] | None: ...
    def before_input(self, game: Any, kind: str, data: Mapping[str, Any]) -> None: ...
    def phase(self, game: Any) -> str: ...
    def check_settings(self, settings: Mapping[str, Any]) -> None: ...
    def log_data(self, event: Any, before: Mapping[str, Any], after: Mapping[str, Any], game: Any) -> dict[str, Any]: ...
    def die(self, event: Any) -> DieShown | None: ...


class ProtocolJournalRules:
    """:class:`bitbox.table.journal.JournalRules` (and replay's rules) of ``cartridge``, from
    its protocol and its optional :class:`JournalHooks`."""

    input_errors: tuple[type[BaseException], ...] = (Refusal, GameError, KeyError, TypeError, ValueError)
    #: a record's own settings, besides the console's (bitbox.table.journal.CONSOLE_SETTINGS)
    settings_keys: tuple[str, ...] = TABLE_SETTINGS
    #: (turn, phase) recorded with an input, when the game's hooks name its phase (else the
    #: session's: the turn, or each input one, and the prompts' kinds)
    position: Callable[[Any], tuple[int, str]] | None = None

    def __init__(self, cartridge: Cartridge, hooks: Any = None) -> None:
        self.cartridge = cartridge
        self.name = cartridge.name
        self.hooks = hooks

        def hook(name: str) -> Any:
            return getattr(hooks, name, None) if hooks is not None else None

        self._from_data, self._answers_of, self._input_of = hook("from_data"), hook("answers_of"), hook("input_of")
        self._table_input, self._before, self._phase = hook("table_input"), hook("before_input"), hook("phase")
        self._check_settings, self._log_data, self._die = hook("check_settings"), hook("log_data"), hook("die")
        self.input_errors = (*type(self).input_errors, *(hook("input_errors") or ()))
        if hook("settings_keys") is not None:
            self.settings_keys = tuple(hooks.settings_keys)
        if self._phase is not None:
            self.position = self._position
        self._class = getattr(cartridge, "game_class", None)        # an engine's protocol game (EngineCartridge)

    def game(self, game: Any) -> Any:
        """The protocol's game of ``game``: itself, or the cartridge's ``game_class`` around
        the engine the readers hold (it changes that engine in place)."""
        cls = self._class
        return game if cls is None or isinstance(game, cls) else cls(game)

    # ---- journal
    def from_data(self, data: Mapping[str, Any]) -> Any:
        """The game the journal's readers get (replay, resume, import): the cartridge's, or
        what the game's ``from_data`` hook gives (its engine)."""
        return self._from_data(data) if self._from_data is not None else self.cartridge.from_data(data)

    @staticmethod
    def input_data(cartridge: Cartridge, answers: Mapping[str, Any]) -> dict[str, Any]:
        return {"answers": {p: cartridge.action_to_data(a) for p, a in answers.items()}}

    def input_of(self, game: Any, answers: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
        """The journal's input for ``answers``: the game's spelling (``input_of`` hook), else
        the protocol's ``answers``."""
        if self._input_of is not None:
            kind, data = self._input_of(self.game(game), answers)
            return str(kind), dict(data)
        return INPUT_KIND, self.input_data(self.cartridge, answers)

    def answers(self, data: Mapping[str, Any]) -> dict[str, Any]:
        raw = data.get("answers")
        if not isinstance(raw, Mapping) or not raw:
            raise GameError("an input holds no answers")
        return {str(p): self.cartridge.action_from_data(a) for p, a in raw.items()}

    def apply_input(self, game: Any, kind: str, data: Mapping[str, Any]) -> list[Any]:
        """Apply one journaled input to ``game`` (in place): the values entered at the table
        first (``before_input``), then its answers through ``Game.apply`` (an ``answers``
        input, or the game's own spelling of answers), or the game's ``table_input``."""
        if not isinstance(data, Mapping):
            raise GameError("an input's data must be a mapping")
        g = self.game(game)
        if self._before is not None:
            self._before(g, kind, data)
        answers = self.answers(data) if kind == INPUT_KIND else \
            self._answers_of(g, kind, data) if self._answers_of is not None else None
        if answers is None:
            events = self._table_input(g, kind, data) if self._table_input is not None else None
            if events is None:
                raise GameError(f"unknown input kind {str(kind)[:20]!r}")
            return list(events)
        try:
            self._listed(g, answers)
            return list(g.apply(answers))
        except Refusal as exc:               # said in one line: whose answer, and the game's code
            why = ", ".join(f"{str(p)[:20]}: {str(c)[:40]}" for p, c in exc.codes.items())
            raise GameError(f"refused by the rules ({why})") from None

    @staticmethod
    def _listed(game: Any, answers: Mapping[str, Any]) -> None:
        """A journaled answer is one of its prompt's options, as it is (the protocol's one
        source of legality): what a game takes from a host besides (Outspeed reads a number
        given to a path that takes none as no number) is refused, so that an edited input
        never passes for the one written."""
        prompts = {p.player: p for p in game.prompts()}
        for player, answer in answers.items():
            prompt = prompts.get(player)
            if prompt is not None and answer not in prompt.options:
                raise Refusal({player: game.refusal(player, answer) or "not_an_option"})

    def state_hash(self, game: Any) -> str:
        return fingerprint(game)

    def seed(self, game: Any) -> int:
        return seed_of(self.game(game))

    def players(self, game: Any) -> list[str]:
        return list(self.game(game).players)

    def finished(self, game: Any) -> bool:
        return bool(self.game(game).finished)

    def winners(self, game: Any) -> list[str]:
        return list(self.game(game).winners)

    def turn(self, game: Any) -> int:
        t = turn_of(self.game(game))
        return t if t is not None else 0

    def numbers_turns(self, game: Any) -> bool:
        """Whether the game numbers its turns (``Game.turn``); without it each input is a turn
        (bitbox.table.journal.turns_by_input), as the session journals it."""
        return turn_of(self.game(game)) is not None

    def _position(self, game: Any) -> tuple[int, str]:
        g = self.game(game)
        return self.turn(g), str(self._phase(g))

    def check_settings(self, settings: Mapping[str, Any]) -> None:
        if self._check_settings is not None:
            self._check_settings(settings)
            return
        options = settings.get("options", {})
        if not isinstance(options, dict):
            raise ValueError("options must be a mapping")
        try:
            check_options(self.cartridge, options)
        except OptionError as exc:
            raise ValueError(str(exc)) from None

    # ---- replay (bitbox.table.history.ReplayRules)
    def public_view(self, game: Any) -> Mapping[str, Any]:
        return self.game(game).public_view()

    def log_data(self, event: Any, before: Mapping[str, Any], after: Mapping[str, Any], game: Any) -> dict[str, Any]:
        if self._log_data is not None:
            return dict(self._log_data(event, before, after, game))
        return dict(event.data)

    def die(self, event: Any) -> DieShown | None:
        return self._die(event) if self._die is not None else None


def journal_rules_of(cartridge: Cartridge) -> Any:
    """The journal rules of ``cartridge``: the protocol's, with the hooks its ``journal``
    member gives (or its ``journal`` itself when that is a whole set of rules, with its own
    ``apply_input``)."""
    own = getattr(cartridge, "journal", None)
    if own is None:
        return ProtocolJournalRules(cartridge)
    return own if callable(getattr(own, "apply_input", None)) else ProtocolJournalRules(cartridge, own)


def session_rules_of(cartridge: Cartridge) -> Any:
    """The journal rules the console's session plays by: :func:`journal_rules_of`, unless
    those are a set of rules that cannot write an input (no ``input_of``): then the protocol's."""
    rules = journal_rules_of(cartridge)
    return rules if callable(getattr(rules, "input_of", None)) else ProtocolJournalRules(cartridge)


__all__ = ["INPUT_KIND", "JournalHooks", "ProtocolJournalRules", "fingerprint", "game_seed", "journal_rules_of",
           "session_rules_of"]
