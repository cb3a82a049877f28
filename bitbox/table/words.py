"""A cartridge's words at the table: its own catalogue first, then the console's.

A cartridge may ship gettext catalogues (``locale`` attribute: the folder holding
``NAME.pot`` and ``LANG/LC_MESSAGES/NAME.mo``; docs/games.md). The console looks a key up
in the game's catalogue, then in its own (the statuses, banners and pad every table
shows), then says the key itself: a language the game does not ship falls back to English,
a key nobody has to a neutral rendering, never an exception (a log line must not crash the
table).

Keys a game may give (all optional): ``event.KIND`` (an event's sentence, ``str.format``
with the event's data), ``prompt.KIND`` (the question, with the prompt's context),
``option.KIND`` (an answer, with ``{option}``), ``ask.KIND`` (the question as the banner shows it
to the whole table: no context, which is private), ``view.KEY`` (a label of the public view).
"""
from __future__ import annotations

import gettext
from pathlib import Path
from typing import Any, Mapping

from bitbox.i18n import LANGUAGES, Words, english, placeholders, translation


class GameWords(Words):
    """The words of ``cartridge`` in language ``code`` (see the module docstring)."""

    def __init__(self, cartridge: Any, code: str = "en") -> None:
        if code not in LANGUAGES:
            raise ValueError(f"unknown language {code!r} (known: {', '.join(LANGUAGES)})")
        self.code = code
        self.console = Words(code)
        self.cartridge = cartridge
        self.title = str(getattr(cartridge, "title", getattr(cartridge, "name", "game")))
        locale = getattr(cartridge, "locale", None)
        self._messages = {}
        self._tr: gettext.NullTranslations = gettext.NullTranslations()
        self.untranslated = False               # the game ships words but none in this language (said once)
        if locale is not None:
            folder = Path(locale)
            name = str(cartridge.name)
            if (folder / f"{name}.pot").is_file():
                self._messages = dict(english(folder, name))
                try:
                    self._tr = translation(folder, name, code)
                except OSError:                 # no catalogue for this language: English
                    self._tr = gettext.NullTranslations()
                    self.untranslated = code != "en"

    def has(self, key: str) -> bool:
        return key in self._messages or self.console.has(key)

    def t(self, key: str, **data: Any) -> str:
        if key in self._messages:
            return super().t(key, **data)
        return self.console.t(key, **data)

    def text(self, key: str, default: str | None = None) -> str | None:
        return self.t(key) if self.has(key) else default

    # ---- what the console says of a game's values
    def event(self, kind: str, data: Mapping[str, Any] | None = None) -> str:
        data = dict(data or {})
        shown = {k: self.value(v) for k, v in data.items()}
        key = f"event.{kind}"
        if kind == "started" and "seed" in data:
            key = "event.started_seed"
        if key in self._messages:
            return self.t(key, **shown)
        template = self.console.raw(key)
        if template is not None and placeholders(template) <= shown.keys():
            return self.console.t(key, **shown)
        # the console's sentence only for the data it was written for (its own `game_over`
        # has {winners}: a game's game_over event with other data is not "Game over: {winners}")
        parts = ", ".join(f"{k} {v}" for k, v in shown.items())
        return f"{kind.replace('_', ' ')}: {parts}" if parts else kind.replace("_", " ")

    def value(self, v: Any) -> str:
        """A value of an event or a view as words: players by their colour's name, lists joined."""
        if isinstance(v, str):
            return self.player(v) if self.console.has(f"colour.{v}") else v
        if v is None or v == [] or v == ():
            return "—"
        if isinstance(v, bool):
            return self.t("word.yes") if v else self.t("word.no")
        if isinstance(v, (list, tuple)):
            return ", ".join(self._part(x) for x in v)
        if isinstance(v, Mapping):
            return ", ".join(f"{self.value(k)} {self._part(x)}" for k, x in v.items())
        return str(v)

    def _part(self, v: Any) -> str:
        """A value inside a list or a mapping: a list or mapping of several values in brackets,
        so that its commas are not the outer ones ("Red (2, 6), Blue 3", not "Red 2, 6, Blue 3")."""
        words = self.value(v)
        return f"({words})" if isinstance(v, (list, tuple, Mapping)) and len(v) > 1 else words

    def prompt(self, kind: str, context: Mapping[str, Any] | None = None) -> str:
        key = f"prompt.{kind}"
        if self.has(key):
            return self.t(key, **{k: self.value(v) for k, v in (context or {}).items()})
        return self.t("ui.prompt", kind=kind.replace("_", " "))

    def question(self, kind: str) -> str:
        """The question of a ``kind`` prompt as the whole table may read it (the banner): a
        prompt's context is private to the player asked, so this is the game's ``ask.KIND``,
        else its ``prompt.KIND`` when that needs nothing of the context, else the console's
        neutral wording."""
        if self.has(f"ask.{kind}"):
            return self.t(f"ask.{kind}")
        key = f"prompt.{kind}"
        template = self.raw(key) if key in self._messages else None
        if template is not None and not placeholders(template):
            return self.t(key)
        return self.t("ui.prompt", kind=kind.replace("_", " "))

    def option(self, kind: str, shown: Any) -> str:
        key = f"option.{kind}"
        return self.t(key, option=shown) if self.has(key) else str(shown)

    def token(self, token: Any) -> str:
        return str(token)


def option_shown(words: Any, name: str, value: Any) -> str:
    """An option as the game's line at the start of play says it, in the table's language: the
    game's ``setting.NAME`` label and ``setting.NAME.VALUE`` value (the home screen's keys)
    when its words have them (on/off: the console's yes/no), else the name in words
    (``first_zombie``: ``first zombie``) and the value as the table shows values. Never an
    exception (a status line)."""
    def say(key: str, default: str) -> str:
        try:
            if words.has(key):
                return str(words.t(key))
        except Exception:  # noqa: BLE001 - a label never stops the table
            pass
        return default
    shown = words.value(value) if isinstance(value, bool) else say(f"setting.{name}.{value}", words.value(value))
    return f"{say(f'setting.{name}', name.replace('_', ' '))} {shown}"


def words_of(cartridge: Any, code: str = "en") -> GameWords:
    """The words the table uses for ``cartridge``: its own ``words(code)`` when it gives one
    (a :class:`bitbox.display.model.Words`), else :class:`GameWords`."""
    make = getattr(cartridge, "words", None)
    if callable(make):
        return make(code)                       # a game that words its own table (same methods)
    return GameWords(cartridge, code)


__all__ = ["GameWords", "option_shown", "words_of"]
