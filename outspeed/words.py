"""The table's words in English, Spanish, French and German, in the rulebooks' own terms.

The words themselves are gettext catalogues in ``outspeed/locale/`` (the English template
``outspeed.pot``, a ``.po`` per language, compiled to ``.mo``; docs/translating.md), read
through the console's :mod:`bitbox.i18n`. Terms come from the printed rulebooks (the French, Spanish and German editions; docs/rules.md
states the rules in English): French *rangée*, *plateau
Progression*, *tuile Course*, *Fioul*, *jeton Bonus*...; Spanish *zona*, *tramo de
recorrido*, *loseta de pista*, *combustible*, *ficha de bonificación*...; German *Zone*,
*Renntableau*, *Streckenkärtchen*, *Benzin*, *Bonusplättchen*...

Events are translated from their ``kind`` and ``data`` (never by parsing the engine's
English text). A log entry is a ``(kind, data)`` pair: the rules engine's event kinds
(outspeed.rules.events) plus the session's own public messages (``declared_token``,
``must_reprogram``, ``lost``...). Unknown kinds fall back to a neutral rendering and never
raise: a log line must not crash the table.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from bitbox.i18n import LANGUAGE_NAMES, LANGUAGES, GameCatalogue

from .rules.events import EventKind

__all__ = ["LANGUAGES", "LANGUAGE_NAMES", "Lang", "all_strings"]

_WHY = {"fuel tank": "token.fuel_tank", "ion cannon": "token.ion_cannon"}


def _signed(n: Any) -> str:
    if isinstance(n, int) and n < 0:
        return f"−{-n}"
    return str(n)


class Lang(GameCatalogue):
    """One language: ``t(key, **data)`` for interface strings, ``event(kind, data)`` for
    a log line. Never raises on unknown keys or odd data (untrusted input must not crash
    the table); a missing key falls back to English, then to the key itself, a missing
    placeholder shows as ``?``."""

    DOMAIN = "outspeed"
    LOCALEDIR = Path(__file__).resolve().parent / "locale"
    MISSING = "?"

    # ---- names
    def path(self, path: Any) -> str:
        """A path's name as a label (a column of the screen, the keyboard's pad)."""
        return self.text(f"path.{path}") or str(path)

    def route(self, path: Any) -> str:
        """A path as said in a sentence ("the centre path", "le chemin de droite")."""
        return self.text(f"route.{path}") or str(path)

    def die(self, die: Any) -> str:
        return self.text(f"die.{die}") or str(die)

    def phase(self, phase: Any) -> str:
        return self.text(f"phase.{phase}") or str(phase).upper()

    def tile(self, number: Any, finish: Any) -> str:
        return self.t("ui.finish_tile" if finish else "ui.tile", number=number)

    # ---- events
    def _event(self, kind: str, d: dict[str, Any]) -> str:
        t = self.t
        if "player" in d:
            d["player"] = self.player(d["player"])
        if kind == EventKind.TURN or kind == EventKind.TILE_REVEALED:
            tile = self.tile(d["number"], d.get("finish")) if "number" in d else d.get("tile", "?")
            return t(f"ev.{kind}", turn=d.get(EventKind.TURN), tile=tile, face=d.get("face"))
        if kind == EventKind.BONUS_PLAYED:
            return t("ev.bonus_played", player=d["player"], token=self.token(d.get("token")))
        if kind == EventKind.NOTHING_AHEAD:
            return t("ev.nothing_ahead", player=d["player"], token=self.token(d.get("token")))
        if kind == EventKind.MOVED:
            a, b = d["from"], d["to"]
            line = t("ev.moved.forward" if b > a else "ev.moved.back", player=d["player"],
                     n=abs(b - a), **{"from": a, "to": b})
            if d.get("stopped"):
                line = t("ev.moved.stopped", line=line)
            return line
        if kind == EventKind.FUEL:
            delta = d["delta"]
            line = t("ev.fuel.gain" if delta > 0 else "ev.fuel.loss", player=d["player"],
                     n=abs(delta), total=d.get("total"))
            why = _WHY.get(d.get("why") or "")
            if why:
                line = t("ev.fuel.why", line=line, why=self.text(why, ""))
            return line
        if kind == EventKind.ELIMINATED:
            return t("ev.eliminated", player=d["player"], cause=self.text(f"cause.{d.get('cause')}", ""))
        if kind == EventKind.PROGRAMMED:
            key = "ev.programmed.x" if d.get("number") is not None else "ev.programmed"
            return t(key, player=d["player"], path=self.route(d.get("path")), number=d.get("number"))
        if kind in (EventKind.LOSE_TURN, EventKind.SOLO_ALONE, EventKind.SOLO_CROWD):
            return t(f"ev.{kind}", player=d.get("player"), path=self.route(d.get("path")),
                     count=d.get("count"), capacity=d.get("capacity"), players=self.players(d.get("players")))
        if kind == EventKind.ROLL:
            return t("ev.roll.again" if d.get("again") else "ev.roll", player=d["player"], die=self.die(d.get("die")),
                     value=_signed(d.get("value")))
        if kind == EventKind.PAY:
            parts = d.get("parts") or []
            if len(parts) > 1 or (parts and parts[0][0]):
                return t("ev.pay.parts", player=d["player"], amount=d.get("amount"), total=d.get("total"),
                         parts=" + ".join(self._part(label, value) for label, value in parts))
            return t("ev.pay", player=d["player"], amount=d.get("amount"), total=d.get("total"))
        if kind == EventKind.DRAW:
            if d.get("mode") == "physical":
                return t("ev.draw.physical", player=d["player"], n=d.get("drawn"))
            return t("ev.draw.two" if d.get("drawn") == 2 else "ev.draw.one", player=d["player"])
        if kind == "started" and "seed" not in d:       # a secret seed: not shown before the end
            return t("ev.started_secret")
        if kind == EventKind.GAME_OVER:
            winners = d.get("winners") or []
            if not winners:
                return t("ev.game_over.none")
            return t("ev.game_over.win" if len(winners) == 1 else "ev.game_over.wins", players=self.players(winners))
        key = f"ev.{kind}"
        if self.has(key):
            return t(key, **d)
        return t("ev.unknown", kind=kind)

    def _part(self, label: str, value: Any) -> str:
        if label.endswith(" die"):
            return self.t("word.die_part", die=self.die(label[:-4]), value=_signed(value))
        if label.startswith("players on "):
            return f"{self.t('word.players_on', path=self.path(label[11:]))} {value}"
        if label == "X":
            return f"X {value}"
        return str(value)


all_strings = Lang.all_strings
