"""Last One Alive's words at the table, in English, Spanish, French and German.

The Spanish uses the rulebook's own terms (*emboscada*, *barricada*, *motosierra*, *hacha*,
*bengala*, *pistola*, *botiquín*, *radio*, *ficha de héroe*, *nivel de Apocalipsis*,
*bandeja*, *reserva común*, *zombificado*). Same structure as Outspeed's catalogue
(``outspeed.words``): ``t(key, **data)`` for the interface, ``event(kind, data)`` for a log
line, from the event's kind and data (never by parsing the engine's English). A missing key
falls back to English, then to the key; nothing here raises on odd data.

The words themselves are gettext catalogues in ``lastonealive/locale/`` (the English
template ``lastonealive.pot``, a ``.po`` per language, compiled to ``.mo``;
docs/translating.md), read through the console's :mod:`bitbox.i18n`. Counts agree with their
noun through gettext's plural forms: each language's ``Plural-Forms`` says which numbers take
the singular (English, Spanish, German: 1; French: 0 and 1).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from bitbox.i18n import LANGUAGE_NAMES, LANGUAGES, GameCatalogue

__all__ = ["LANGUAGES", "LANGUAGE_NAMES", "Lang", "all_strings"]


class Lang(GameCatalogue):
    """One language: ``t(key, **data)`` for the interface, ``event(kind, data)`` for a log
    line. Never raises on unknown keys or odd data; a placeholder the data lack stays
    ``{name}``."""

    DOMAIN = "lastonealive"
    LOCALEDIR = Path(__file__).resolve().parent / "locale"
    MISSING = "{NAME}"

    def a_token(self, token: Any) -> str:
        """A token as said in a sentence, with its article ("an axe", "une hache", "eine Axt")."""
        return self.text(f"token.a.{token}") or self.token(token)

    def face(self, face: Any) -> str:
        return self.text(f"face.{face}") or str(face)

    def type(self, t: Any) -> str:
        return self.text(f"type.{t}") or str(t)

    def dice(self, dice: Any) -> str:
        """``[[id, face], ...]`` as "Z1 (2 zombies), S2 (1 bang)"."""
        return ", ".join(f"{str(i).upper()} ({self.face(f)})" for i, f in dice) or "—"

    # ---- events
    def _event(self, kind: str, d: dict[str, Any]) -> str:
        t = self.t
        for k in ("player", "to", "left"):
            if k in d and isinstance(d[k], str):
                d[k] = self.player(d[k])
        if kind == "setup_draw":
            return t(f"ev.setup_draw.{'object' if d.get('side') == 'object' else 'barricade'}", player=d["player"],
                     token=self.a_token(d.get("token")))
        if kind in ("token_used", "drew"):
            line = t(f"ev.{kind}", player=d["player"], token=self.a_token(d.get("token")))
            return line
        if kind == "given":
            return t("ev.given", player=d["player"], to=d.get("to"), dice=self.dice(d.get("dice", [])))
        if kind == "dice_taken":
            chosen = ", ".join(t(f"dice.{ty}", n=n) for ty, n in d.get("chosen", []) if n) or "—"
            return t("ev.dice_taken", player=d["player"], forced=d.get("forced", 0), chosen=chosen)
        if kind in ("rolled", "rerolled"):
            return t(f"ev.{kind}", player=d["player"], faces=self.dice(d.get("dice", [])))
        if kind == "shot":
            key = "ev.shot.cleared" if d.get("cleared") else "ev.shot"
            return t(key, player=d["player"], die=str(d.get("die", "")).upper(), bangs=d.get("bangs"))
        if kind == "assigned":
            amb = d.get("ambush", [])
            ambush = len(amb) if isinstance(amb, list) else amb
            zombies = d.get("zombies", 0)
            which = ("both" if ambush and zombies else "ambush" if ambush else "zombies" if zombies else "none")
            return t(f"ev.assigned.{which}", player=d["player"], left=d.get("left"), zombies=zombies, ambush=ambush)
        if kind == "discarded":
            return t("ev.discarded", player=d["player"], tokens=", ".join(self.token(x) for x in d.get("tokens", [])))
        if kind == "medkit":
            return t("ev.medkit.saved" if d.get("saved") else "ev.medkit.failed", player=d["player"],
                     face=self.face(d.get("face")))
        if kind == "overrun":
            return t("ev.overrun.life" if d.get("lives") else "ev.overrun", player=d["player"], lives=d.get("lives"))
        if kind == "zombified_roll":
            return t("ev.zombified_roll", player=d["player"], face=self.face(d.get("face")) if d.get("face") else "—")
        if kind == "game_over":                   # L-25: how it ended decides the words
            winners = list(d.get("winners") or [])
            scores = d.get("scores") or {}
            scored = ", ".join(f"{self.player(p)} {n}" for p, n in scores.items()) if isinstance(scores, dict) else ""
            if winners and d.get("setup"):
                return t("ev.game_over.setup" + (".shared" if len(winners) > 1 else ""), players=self.players(winners),
                         scores=scored)
            if winners and d.get("why") == "the third apocalypse token":
                return t("ev.game_over.apocalypse" + (".shared" if len(winners) > 1 else ""), players=self.players(winners),
                         scores=scored)
            if not winners:
                return t("ev.game_over.none")
            line = t("ev.game_over", players=self.players(winners))
            return t("ev.game_over.scored", line=line, scores=scored) if scored else line
        if kind in ("lost", "back"):
            return t(f"ev.{kind}", player=d.get("player"))
        if self.has(f"ev.{kind}"):
            return t(f"ev.{kind}", **d)
        return t("ev.unknown", kind=kind)


all_strings = Lang.all_strings
