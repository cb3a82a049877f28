"""Words at the table: gettext catalogues, one domain per game (and one for the console).

Each domain keeps its words in a folder ``locale/`` beside its code (docs/translating.md):

* ``locale/DOMAIN.pot``: the English messages, the source of the wording. Each message has
  a key as its context (``msgctxt "ui.turn"``), the English text as its ``msgid`` and, when a
  count chooses the form, an English ``msgid_plural`` and a comment ``#. count: {name}``
  naming the placeholder that holds the count.
* ``locale/LANG/LC_MESSAGES/DOMAIN.po``: one translation each (es, fr, de), edited by
  translators; its ``Plural-Forms`` header says how many forms a count takes and which
  one each number takes (French: 0 and 1 singular).
* ``locale/LANG/LC_MESSAGES/DOMAIN.mo``: the .po compiled with Babel, committed beside it
  (``python -m bitbox.i18n compile``); ``python -m bitbox.i18n check`` (and the test suite)
  fails when a .mo no longer matches its .po.

At run time the English .pot is read once for the keys, and each language's .mo is
looked up through the standard ``gettext`` module (``pgettext``/``npgettext`` with the .mo's
Plural-Forms). A message missing from a translation falls back to English, an unknown key
to the key itself; nothing here raises on odd data: a log line must not crash the table.

Reading the .pot with Babel is most of what the words cost a table's start, so its messages
are also kept, as Python keeps compiled modules, in ``locale/__pycache__/DOMAIN.pot.TAG.msgs``
(``marshal``, ``TAG`` the interpreter's cache tag) together with the very bytes of the .pot
they were read from: a later start whose .pot holds the same bytes loads them in one call, any
other parses the .pot again (and renews the file). It is data, not bytecode, so it is written
even under ``PYTHONDONTWRITEBYTECODE``; a folder that cannot be written to only means parsing
at every start (``python -m bitbox.i18n compile`` writes it too, as ``compileall`` does .pyc).

Texts are ``str.format`` templates (``{player}``). A placeholder ``P`` of message ``K`` for
which a message ``K.P`` exists is first rendered through it: that is how a sentence holding
two counts gives each its own plural forms (``prompt.dice`` and ``prompt.dice.needed``).
"""
from __future__ import annotations

import gettext
import marshal
import os
import string
import sys
from functools import lru_cache, partial
from pathlib import Path
from types import MappingProxyType
from typing import Any, Iterable, Mapping, NamedTuple

LANGUAGES: tuple[str, ...] = ("en", "es", "fr", "de")
LANGUAGE_NAMES = {"en": "English", "es": "Español", "fr": "Français", "de": "Deutsch"}

#: the number given to a plural message whose count is missing or not a number: the
#: language's form for 2 (the "many" form in every language here)
_NOT_A_NUMBER = 2
#: numbers enough to reach every plural form of the languages here
_SAMPLE_COUNTS = (0, 1, 2, 3, 5, 11, 21, 100, 101)


class Message(NamedTuple):
    """One English message of a domain's template (a tuple: the cached catalogue is made of them)."""
    key: str
    text: str
    plural: str | None = None        # the English plural, for a message a count chooses
    count: str | None = None         # type: ignore[assignment]  # the placeholder holding that count (not tuple.count)

    def fields(self) -> set[str]:
        return placeholders(self.text) | placeholders(self.plural or "")


def placeholders(text: str) -> set[str]:
    """The ``{name}`` fields of a template (a malformed template has none)."""
    try:
        return {f for _, f, _, _ in string.Formatter().parse(text) if f}
    except ValueError:
        return set()


def template_path(localedir: Path, domain: str) -> Path:
    return localedir / f"{domain}.pot"


def catalogue_path(localedir: Path, domain: str, code: str, suffix: str = ".po") -> Path:
    return localedir / code / "LC_MESSAGES" / f"{domain}{suffix}"


#: the layout of the cached English messages; a file of another version is read again from the .pot
_CACHE_VERSION = 1


def cache_path(localedir: Path, domain: str) -> Path:
    """Where the English messages of a domain are kept between starts (see the module's docstring)."""
    return localedir / "__pycache__" / f"{domain}.pot.{sys.implementation.cache_tag or 'py'}.msgs"


@lru_cache(maxsize=None)
def english(localedir: Path, domain: str) -> dict[str, Message]:
    """The domain's English messages by key, read from its template (or its cache, when that
    was made from the same bytes)."""
    with open(template_path(localedir, domain), "rb") as f:
        source = f.read()
    cache = cache_path(localedir, domain)
    try:
        with open(cache, "rb") as f:
            version, cached_source, keys, rows = marshal.load(f)
        if version == _CACHE_VERSION and cached_source == source and type(keys) is tuple and \
                type(rows) is tuple and len(keys) == len(rows) and \
                all(type(r) is tuple and len(r) == len(Message._fields) for r in rows):  # (a Message is its row)
            return dict(zip(keys, map(partial(tuple.__new__, Message), rows)))
    except (OSError, EOFError, ValueError, TypeError):      # none yet, unreadable, or of another layout
        pass
    messages = _parse_template(source, domain)
    _write_cache(cache, source, messages)
    return messages


def _parse_template(source: bytes, domain: str) -> dict[str, Message]:
    import io

    from babel.messages.pofile import read_po
    catalog = read_po(io.BytesIO(source), domain=domain)
    messages: dict[str, Message] = {}
    for m in catalog:
        if not m.id or not m.context:
            continue
        count = None
        for c in m.auto_comments:
            if c.startswith("count:"):
                count = c.partition(":")[2].strip().strip("{}")
        if isinstance(m.id, (tuple, list)):
            messages[m.context] = Message(m.context, m.id[0], m.id[1], count)
        else:
            messages[m.context] = Message(m.context, m.id)
    return messages


def _write_cache(cache: Path, source: bytes, messages: Mapping[str, Message]) -> None:
    """Keep ``messages`` for the next start, atomically (a start reading it meanwhile sees the
    old file or the new one); a folder that cannot be written to is no error."""
    keys, rows = tuple(messages), tuple(tuple(m) for m in messages.values())
    partial_file = cache.with_name(f"{cache.name}.{os.getpid()}.tmp")
    try:
        cache.parent.mkdir(exist_ok=True)
        with open(partial_file, "wb") as f:
            marshal.dump((_CACHE_VERSION, source, keys, rows), f)
        os.replace(partial_file, cache)
    except OSError:
        try:
            partial_file.unlink(missing_ok=True)
        except OSError:
            pass


@lru_cache(maxsize=None)
def translation(localedir: Path, domain: str, code: str) -> gettext.NullTranslations:
    """The compiled catalogue of a language (English: the template itself, untranslated)."""
    if code == "en":
        return gettext.NullTranslations()
    return gettext.translation(domain, str(localedir), languages=[code])


class _Missing(dict):
    def __init__(self, data: Mapping[str, Any], missing: str) -> None:
        super().__init__(data)
        self.missing = missing

    def __missing__(self, key: str) -> str:
        return self.missing.replace("NAME", key)


class Words:
    """A domain's words in one language: ``t(key, **data)``, ``text(key)``, ``player(name)``,
    ``players(names)``. A game subclasses it with its ``DOMAIN`` and ``LOCALEDIR`` and adds
    its own helpers (``event(kind, data)``).

    ``MISSING`` is what a placeholder the data lack becomes (``NAME`` is replaced by its name).
    """

    DOMAIN: str = "bitbox"
    LOCALEDIR: Path = Path(__file__).resolve().parent / "locale"
    MISSING: str = "{NAME}"

    def __init__(self, code: str = "en") -> None:
        if code not in LANGUAGES:
            raise ValueError(f"unknown language {code!r} (known: {', '.join(LANGUAGES)})")
        self.code = code
        self._messages = english(self.LOCALEDIR, self.DOMAIN)
        self._tr = translation(self.LOCALEDIR, self.DOMAIN, code)

    # ---- lookups
    def has(self, key: str) -> bool:
        return key in self._messages

    def raw(self, key: str, n: Any = None) -> str | None:
        """The unformatted text of a message in this language (the form for ``n`` when a
        count chooses it), or None for an unknown key."""
        m = self._messages.get(key)
        if m is None:
            return None
        if m.plural is None:
            return self._tr.pgettext(key, m.text)
        count = n if isinstance(n, int) and not isinstance(n, bool) else _NOT_A_NUMBER
        return self._tr.npgettext(key, m.text, m.plural, count)

    def t(self, key: str, **data: Any) -> str:
        m = self._messages.get(key)
        text = self.raw(key, data.get(m.count) if m is not None and m.count else None)
        if text is None:
            return key
        for field in placeholders(text):
            if f"{key}.{field}" in self._messages:
                data[field] = self.t(f"{key}.{field}", **data)
        try:
            return string.Formatter().vformat(text, (), _Missing(data, self.MISSING))
        except (ValueError, IndexError, AttributeError, KeyError, TypeError):
            return text

    def text(self, key: str, default: str | None = None) -> str | None:
        """A message with no placeholders (a colour, a token...), or ``default``."""
        return self.t(key) if key in self._messages else default

    def strings(self) -> list[str]:
        """Every text of this language, every plural form included (the glyph tests)."""
        out: list[str] = []
        for key, m in self._messages.items():
            if m.plural is None:
                out.append(self.raw(key) or "")
            else:
                out.extend(dict.fromkeys(self.raw(key, n) or "" for n in _SAMPLE_COUNTS))
        return out

    def keys(self) -> Iterable[str]:
        return self._messages.keys()

    # ---- names
    #: the people's names of the seats (``play --names``, a record's ``settings["names"]``):
    #: :meth:`named` sets them; an unnamed seat is said by its colour
    names: Mapping[str, str] = MappingProxyType({})

    def named(self, names: Mapping[str, str]) -> "Words":
        """These words, saying each named seat's person (``{"red": "Ana"}``) instead of its
        colour wherever a player is worded (events, panels, prompts); returns self."""
        self.names = dict(names)
        return self

    def player(self, name: Any) -> str:
        """A seat as a person: its name when it has one (:meth:`named`), else its colour."""
        if isinstance(name, str) and name in self.names:
            return self.names[name]
        return self.colour(name)

    def colour(self, name: Any) -> str:
        """A seat's colour as a name ("Rouge"): the console's catalogue names the colours
        (bitbox.colours), a game's may name them otherwise."""
        key = f"colour.{name}"
        found = self.text(key)
        if found is None and self.DOMAIN != Words.DOMAIN:
            found = Words(self.code).text(key)
        return found or str(name).capitalize()

    def players(self, names: Any) -> str:
        shown = [self.player(n) for n in (names or [])]
        if len(shown) <= 1:
            return "".join(shown)
        return f"{', '.join(shown[:-1])} {self.t('word.and')} {shown[-1]}"


class GameCatalogue(Words):
    """A game's own catalogue that words its events itself (Outspeed's and Last One Alive's
    ``Lang``): ``token(name)`` from ``token.NAME`` (None: ``token.none``), and
    ``event(kind, data)``, a log line from the game's :meth:`_event` that never raises: a
    malformed entry gives ``ev.unknown`` (a log line must not crash the table)."""

    def token(self, token: Any) -> str:
        return self.text(f"token.{'none' if token is None else token}") or str(token)

    def event(self, kind: str, data: Mapping[str, Any] | None = None) -> str:
        try:
            return self._event(kind, dict(data or {}))
        except Exception:                       # a malformed entry still gives a line
            return self.t("ev.unknown", kind=kind)

    def _event(self, kind: str, d: dict[str, Any]) -> str:
        """The line for an event of ``kind`` with data ``d`` (a copy: the game may change it)."""
        raise NotImplementedError

    @classmethod
    def all_strings(cls, code: str) -> list[str]:
        """Every string of language ``code`` (the glyph tests render them)."""
        return cls(code).strings()


def counted(n: int, one: str, many: str) -> str:
    """``1 turn``, ``2 turns``: an English count for the lines that stay in English (errors,
    developer tools); the table's words take their plurals from the catalogues."""
    return f"{n} {one if n == 1 else many}"


# --------------------------------------------------------------------------- compiling
def _domains(root: Path) -> list[tuple[Path, str]]:
    return sorted((pot.parent, pot.stem) for pot in root.glob("*/locale/*.pot"))


def _catalogue(path: Path, domain: str) -> Any:
    from babel.messages.pofile import read_po
    with open(path, "rb") as f:
        return read_po(f, domain=domain)


def _entries(catalog: Any) -> dict[tuple[str | None, Any], Any]:
    """What a .mo holds of a catalogue: translated, non-fuzzy messages (as Babel writes them)."""
    out = {}
    for m in catalog:
        if not m.id or m.fuzzy:
            continue
        strings = m.string if isinstance(m.string, (tuple, list)) else (m.string,)
        if not all(strings):
            continue
        key = tuple(m.id) if isinstance(m.id, (tuple, list)) else m.id
        context = m.context.decode() if isinstance(m.context, bytes) else m.context   # Babel's read_mo: bytes
        out[(context, key)] = tuple(strings) if isinstance(m.string, (tuple, list)) else m.string
    return out


def stale(root: Path) -> list[str]:
    """The .mo files under ``root`` (the repository) that are missing or differ from their .po."""
    from babel.messages.mofile import read_mo
    problems = []
    for localedir, domain in _domains(root):
        for po in sorted(localedir.glob(f"*/LC_MESSAGES/{domain}.po")):
            mo = po.with_suffix(".mo")
            if not mo.exists():
                problems.append(f"{mo.relative_to(root)} is missing")
                continue
            with open(mo, "rb") as f:
                compiled = read_mo(f)
            source = _catalogue(po, domain)
            if _entries(compiled) != _entries(source) or compiled.plural_forms != source.plural_forms:
                problems.append(f"{mo.relative_to(root)} differs from {po.name}")
    return problems


def compile_all(root: Path) -> list[Path]:
    """Compile every .po under ``root`` into its .mo (Babel); returns the files written."""
    from babel.messages.mofile import write_mo
    written = []
    for localedir, domain in _domains(root):
        source = template_path(localedir, domain).read_bytes()
        _write_cache(cache_path(localedir, domain), source, _parse_template(source, domain))
        for po in sorted(localedir.glob(f"*/LC_MESSAGES/{domain}.po")):
            catalog = _catalogue(po, domain)
            with open(po.with_suffix(".mo"), "wb") as f:
                write_mo(f, catalog, use_fuzzy=False)
            written.append(po.with_suffix(".mo"))
    return written


def main(argv: list[str] | None = None) -> int:
    """``python -m bitbox.i18n compile|check [ROOT]``: compile the catalogues, or check them."""
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] not in ("compile", "check") or len(args) > 2:
        print("usage: python -m bitbox.i18n compile|check [REPOSITORY]", file=sys.stderr)
        return 2
    root = Path(args[1]) if len(args) > 1 else Path(__file__).resolve().parent.parent
    if args[0] == "compile":
        for path in compile_all(root):
            print(f"compiled {path.relative_to(root)}")
        return 0
    problems = stale(root)
    for p in problems:
        print(f"bitbox.i18n: {p}: run `python -m bitbox.i18n compile`", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
