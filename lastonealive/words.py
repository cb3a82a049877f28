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

    #: a die's id (``z3``, ``f4``) by the kind it names: the screen's labels (Z3, F4)
    DIE_KINDS = {"z": "zombie", "s": "shoot", "o": "object", "b": "barricade", "f": "front"}

    def die(self, die_id: Any) -> str:
        """A die as a player says it: ``z3`` is "zombie die 3", ``f4`` "die 4 in front" (the
        fourth die in front of the player); anything else as itself, in capitals."""
        s = str(die_id or "")
        kind = self.DIE_KINDS.get(s[:1].lower())
        if kind is None or not s[1:].isdigit():
            return s.upper() or "—"
        return self.t(f"die.{kind}", number=int(s[1:]))

    def dice(self, dice: Any) -> str:
        """``[[id, face], ...]`` as "zombie die 1 (2 zombies), shoot die 2 (1 bang)"."""
        return ", ".join(f"{self.die(i)} ({self.face(f)})" for i, f in dice) or "—"

    # ---- events
    def _event(self, kind: str, d: dict[str, Any]) -> str:
        t = self.t
        for k in ("player", "to", "left"):
            if k in d and isinstance(d[k], str):
                d[k] = self.player(d[k])
        if kind == "setup_draw":
            return t(f"ev.setup_draw.{'object' if d.get('side') == 'object' else 'barricade'}", player=d["player"],
                     token=self.a_token(d.get("token")))
        if kind == "token_used":
            token = d.get("token")
            said = self.a_token(token)
            if token == "chainsaw" and d.get("die"):
                return t("ev.token_used.chainsaw.die", player=d["player"], token=said, die=self.die(d["die"]))
            if token == "radio" and d.get("types"):
                return t("ev.token_used.radio", player=d["player"], token=said,
                         types=", ".join(self.type(x) for x in d["types"]))
            if token in ("chainsaw", "axe", "pistol") and d.get("what"):      # for the whole turn, before the roll
                return t(f"ev.token_used.{token}", player=d["player"], token=said)
            return t("ev.token_used", player=d["player"], token=said)
        if kind == "drew":
            return t("ev.drew", player=d["player"], token=self.a_token(d.get("token")))
        if kind == "given":
            key = "ev.given.barricade" if d.get("why") == "barricade" else "ev.given"
            return t(key, player=d["player"], to=d.get("to"), dice=self.dice(d.get("dice", [])))
        if kind == "dice_taken":
            chosen = ", ".join(t(f"dice.{ty}", n=n) for ty, n in d.get("chosen", []) if n) or "—"
            return t("ev.dice_taken", player=d["player"], forced=d.get("forced", 0), chosen=chosen)
        if kind in ("rolled", "rerolled"):
            why = d.get("why")
            key = f"ev.rerolled.{why}" if kind == "rerolled" and self.has(f"ev.rerolled.{why}") else f"ev.{kind}"
            return t(key, player=d["player"], faces=self.dice(d.get("dice", [])))
        if kind == "bangs":
            chain = [self.face(f) for f in d.get("chain") or ()]
            key = "ev.bangs" + (".plus" if chain else "") + (".doubled" if d.get("doublings") else "")
            return t(key, player=d["player"], bangs=d.get("bangs"), faces=", ".join(chain))
        if kind == "shot":
            key = "ev.shot.cleared" if d.get("cleared") else "ev.shot"
            return t(key, player=d["player"], die=self.die(d.get("die")), bangs=d.get("bangs"))
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
