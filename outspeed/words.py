"""The table's words in English, Spanish, French and German, in the rulebooks' own terms.

Terms come from the printed rulebooks (the French, Spanish and German editions; docs/rules.md
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

from typing import Any, Mapping

from .rules.events import EventKind

LANGUAGES: tuple[str, ...] = ("en", "es", "fr", "de")
LANGUAGE_NAMES = {"en": "English", "es": "Español", "fr": "Français", "de": "Deutsch"}

# --------------------------------------------------------------------------- catalogues
# Every language has every key (tests/table/test_display.py checks it).

_EN: dict[str, str] = {
    # colours (player names)
    "colour.red": "Red", "colour.blue": "Blue", "colour.green": "Green",
    "colour.yellow": "Yellow", "colour.purple": "Purple", "colour.orange": "Orange",
    # tokens
    "token.nitro": "nitro", "token.fuel_tank": "fuel tank", "token.flamethrower": "flamethrower",
    "token.force_field": "force field", "token.electromagnet": "electromagnet",
    "token.ion_cannon": "ion cannon", "token.unknown": "a bonus token", "token.none": "no token",
    # paths, dice, causes
    "path.left": "left", "path.center": "centre", "path.right": "right",
    "die.yellow": "yellow die", "die.blue": "blue die",
    "cause.fuel": "out of fuel", "cause.overpaid": "could not pay the cost",
    "cause.board": "left on the removed board", "cause.pushed": "pushed off the back of the track",
    # phases
    "phase.waiting": "WAITING FOR CONTROLLERS", "phase.bonus": "BONUS",
    "phase.programming": "PROGRAMMING", "phase.resolution": "RESOLUTION",
    "phase.reveal": "REVEAL", "phase.draw": "BONUS DRAW", "phase.finished": "END OF THE GAME",
    "phase.replay": "REPLAY",
    # labels
    "ui.turn": "Turn {turn}/{total}", "ui.tile": "tile {number}", "ui.finish_tile": "finish tile {number}",
    "ui.face": "{face} players", "ui.tiles_left": "tiles left", "ui.markers_left": "force fields left",
    "ui.fuel": "fuel", "ui.tokens": "bonus tokens", "ui.zone": "zone", "ui.board": "board",
    "ui.condition": "condition", "ui.cost": "cost", "ui.gain": "gain", "ui.dice": "dice",
    "ui.events": "events", "ui.no_tile": "no tile", "ui.solo": "alone",
    "ui.choose": "X = {min}–{max}", "ui.winner": "Winner: {players}", "ui.no_winner": "No winner",
    "ui.next_board": "next board",
    # player statuses
    "status.connected": "ready to play", "status.lost": "CONTROLLER LOST",
    "status.locked": "locked", "status.unlock": "unlock first", "status.to_act": "to play",
    "status.ready": "locked in", "status.declared_token": "plays a token",
    "status.declared_none": "no token", "status.refused": "must re-program",
    "status.refused_bonus": "must choose again", "status.eliminated": "eliminated",
    "status.waiting": "waiting for controller", "status.bot": "bot", "status.keyboard": "keyboard",
    "status.drawing": "choosing a token", "status.winner": "WINNER",
    # prompts and banners
    "prompt.waiting": "Plug in or switch on the controllers: {players}",
    "prompt.bonus": "Zone {zone}: {players} — left wheel: a bonus token or none, then lock",
    "prompt.programming": "Right wheel: your path (centre wheel: X) — then lock",
    "prompt.draw": "{player}: keep one of the two tokens drawn — left wheel, then lock",
    "prompt.showing": "Everything is revealed",
    "prompt.finished": "Game over",
    "prompt.replay": "Replay of game {game}: ← → turn by turn, Esc to leave",
    "banner.paused": "PAUSED — controller lost: {players}",
    "banner.keyboard": "{player} at the keyboard — the others look away",
    "pad.keys": "←/→ choose · ↑/↓ X · Enter lock · Tab show/hide",
    "pad.hidden": "Tab: show my choice",
    # events
    "ev.turn": "Turn {turn}: {tile} ({face} face)",
    "ev.bonus_played": "{player} plays {token}",
    "ev.bonus_none": "no bonus token played",
    "ev.moved.forward": "{player} moves forward {n} (zone {from} → {to})",
    "ev.moved.back": "{player} moves back {n} (zone {from} → {to})",
    "ev.moved.stopped": "{line}, stopped by a force field",
    "ev.fuel.gain": "{player} gains {n} fuel → {total}",
    "ev.fuel.loss": "{player} loses {n} fuel → {total}",
    "ev.fuel.why": "{line} [{why}]",
    "ev.marker_placed": "{player} places a force field on zone {zone}",
    "ev.no_marker_left": "{player}'s force field has no marker left",
    "ev.nothing_ahead": "{player}'s {token} finds no ship ahead",
    "ev.board_laid": "a third board is laid: the track now ends at zone {front}",
    "ev.board_removed": "the rearmost board (zones {first}–{last}) is removed",
    "ev.eliminated": "{player} is eliminated: {cause}",
    "ev.programmed": "{player} takes the {path} path",
    "ev.programmed.x": "{player} takes the {path} path with X = {number}",
    "ev.lose_turn": "{path} path overcrowded ({count} > {capacity}): {players} lose their turn",
    "ev.solo_alone": "{player} is alone on the {path} path: gains without paying",
    "ev.solo_crowd": "{count} players on the {path} path: they pay and gain nothing",
    "ev.roll": "{player} rolls the {die}: {value}",
    "ev.pay": "{player} pays {amount} fuel → {total}",
    "ev.pay.parts": "{player} pays {amount} fuel ({parts}) → {total}",
    "ev.draw.one": "{player} draws a bonus token",
    "ev.draw.two": "{player} draws 2 bonus tokens and keeps one",
    "ev.draw.physical": "{player} gains {n} bonus token(s): draw two, keep one face down",
    "ev.draw_empty": "{player} gains a bonus token but none is left",
    "ev.reshuffle": "the {count} discarded tokens are shuffled into a new pile",
    "ev.flip": "{remaining} players remain: the remaining tiles turn to their 3-4 face",
    "ev.markers_removed": "{count} force-field marker(s) removed from zone {zone}",
    "ev.tile_revealed": "the next tile is revealed: {tile}",
    "ev.game_over.win": "game over: {players} wins",
    "ev.game_over.wins": "game over: {players} win",
    "ev.game_over.none": "game over: every ship is eliminated, no winner",
    "ev.declared_token": "{player} plays a bonus token",
    "ev.declared_none": "{player} plays no bonus token",
    "ev.must_redeclare": "{player} must choose again",
    "ev.must_reprogram": "{player} must re-program",
    "ev.kept": "{player} keeps a token",
    "ev.lost": "{player}'s controller is lost: the game is paused",
    "ev.back": "{player}'s controller is back",
    "ev.rejected": "a controller was refused: {reason}",
    "ev.no_bonus": "nobody holds a bonus token: no bonus phase",
    "ev.started": "new game, seed {seed}",
    "ev.started_secret": "new game (its seed stays secret until the end)",
    "ev.resumed": "game resumed from the journal at turn {turn}",
    "ev.unknown": "{kind}",
    "word.and": "and", "word.die_part": "{die} {value}", "word.x": "X",
    "word.players_on": "players on {path}",
}

_ES: dict[str, str] = {
    "colour.red": "Rojo", "colour.blue": "Azul", "colour.green": "Verde",
    "colour.yellow": "Amarillo", "colour.purple": "Morado", "colour.orange": "Naranja",
    "token.nitro": "nitro", "token.fuel_tank": "depósito de combustible", "token.flamethrower": "lanzallamas",
    "token.force_field": "campo de fuerza", "token.electromagnet": "electroimán",
    "token.ion_cannon": "cañón de iones", "token.unknown": "una ficha de bonificación", "token.none": "ninguna ficha",
    "path.left": "izquierda", "path.center": "central", "path.right": "derecha",
    "die.yellow": "dado amarillo", "die.blue": "dado azul",
    "cause.fuel": "sin combustible", "cause.overpaid": "no pudo pagar el coste",
    "cause.board": "se quedó en el tramo retirado", "cause.pushed": "retrocedió más allá de la última zona",
    "phase.waiting": "ESPERANDO LOS MANDOS", "phase.bonus": "BONIFICACIONES",
    "phase.programming": "PROGRAMACIÓN", "phase.resolution": "RESOLUCIÓN",
    "phase.reveal": "NUEVA LOSETA", "phase.draw": "ROBO DE BONIFICACIÓN", "phase.finished": "FINAL DE LA PARTIDA",
    "phase.replay": "REPETICIÓN",
    "ui.turn": "Turno {turn}/{total}", "ui.tile": "loseta de pista {number}",
    "ui.finish_tile": "loseta de línea de meta {number}",
    "ui.face": "cara {face} jugadores", "ui.tiles_left": "losetas restantes", "ui.markers_left": "campos de fuerza libres",
    "ui.fuel": "combustible", "ui.tokens": "fichas de bonificación", "ui.zone": "zona", "ui.board": "tramo",
    "ui.condition": "condición", "ui.cost": "coste", "ui.gain": "beneficio", "ui.dice": "dados",
    "ui.events": "sucesos", "ui.no_tile": "sin loseta", "ui.solo": "solo",
    "ui.choose": "X = {min}–{max}", "ui.winner": "Ganador: {players}", "ui.no_winner": "Sin ganador",
    "ui.next_board": "tercer tramo",
    "status.connected": "listo", "status.lost": "MANDO PERDIDO",
    "status.locked": "bloqueado", "status.unlock": "desbloquea primero", "status.to_act": "debe jugar",
    "status.ready": "programado", "status.declared_token": "juega una ficha",
    "status.declared_none": "ninguna ficha", "status.refused": "debe reprogramar",
    "status.refused_bonus": "debe elegir de nuevo", "status.eliminated": "eliminado",
    "status.waiting": "esperando el mando", "status.bot": "bot", "status.keyboard": "teclado",
    "status.drawing": "elige una ficha", "status.winner": "GANADOR",
    "prompt.waiting": "Conectad o encended los mandos: {players}",
    "prompt.bonus": "Zona {zone}: {players} — rueda izquierda: una ficha de bonificación o ninguna, y bloquea",
    "prompt.programming": "Rueda derecha: tu ruta (rueda central: X) — y bloquea",
    "prompt.draw": "{player}: quédate con una de las dos fichas robadas — rueda izquierda, y bloquea",
    "prompt.showing": "Todo se revela",
    "prompt.finished": "Final de la partida",
    "prompt.replay": "Repetición de la partida {game}: ← → turno a turno, Esc para salir",
    "banner.paused": "PAUSA — mando perdido: {players}",
    "banner.keyboard": "{player} al teclado — los demás no miran",
    "pad.keys": "←/→ elegir · ↑/↓ X · Intro bloquear · Tab mostrar/ocultar",
    "pad.hidden": "Tab: mostrar mi elección",
    "ev.turn": "Turno {turn}: {tile} (cara {face})",
    "ev.bonus_played": "{player} juega {token}",
    "ev.bonus_none": "nadie juega ficha de bonificación",
    "ev.moved.forward": "{player} avanza {n} (zona {from} → {to})",
    "ev.moved.back": "{player} retrocede {n} (zona {from} → {to})",
    "ev.moved.stopped": "{line}, detenido por un campo de fuerza",
    "ev.fuel.gain": "{player} gana {n} de combustible → {total}",
    "ev.fuel.loss": "{player} pierde {n} de combustible → {total}",
    "ev.fuel.why": "{line} [{why}]",
    "ev.marker_placed": "{player} coloca un campo de fuerza en la zona {zone}",
    "ev.no_marker_left": "no quedan fichas de campo de fuerza para {player}",
    "ev.nothing_ahead": "el {token} de {player} no encuentra ninguna nave delante",
    "ev.board_laid": "se coloca el tercer tramo: la pista termina ahora en la zona {front}",
    "ev.board_removed": "se retira el tramo más atrasado (zonas {first}–{last})",
    "ev.eliminated": "{player} queda eliminado: {cause}",
    "ev.programmed": "{player} toma la ruta {path}",
    "ev.programmed.x": "{player} toma la ruta {path} con X = {number}",
    "ev.lose_turn": "ruta {path} desbordada ({count} > {capacity}): {players} pierden su turno",
    "ev.solo_alone": "{player} está solo en la ruta {path}: gana sin pagar",
    "ev.solo_crowd": "{count} jugadores en la ruta {path}: pagan y no ganan nada",
    "ev.roll": "{player} lanza el {die}: {value}",
    "ev.pay": "{player} paga {amount} de combustible → {total}",
    "ev.pay.parts": "{player} paga {amount} de combustible ({parts}) → {total}",
    "ev.draw.one": "{player} roba una ficha de bonificación",
    "ev.draw.two": "{player} roba 2 fichas de bonificación y se queda con una",
    "ev.draw.physical": "{player} gana {n} ficha(s) de bonificación: roba dos, quédate una boca abajo",
    "ev.draw_empty": "{player} gana una ficha de bonificación, pero no queda ninguna",
    "ev.reshuffle": "se barajan las {count} fichas descartadas para formar una nueva pila",
    "ev.flip": "quedan {remaining} jugadores: las losetas restantes pasan a la cara 3-4",
    "ev.markers_removed": "se retiran {count} ficha(s) de campo de fuerza de la zona {zone}",
    "ev.tile_revealed": "se revela la siguiente loseta: {tile}",
    "ev.game_over.win": "final de la partida: gana {players}",
    "ev.game_over.wins": "final de la partida: ganan {players}",
    "ev.game_over.none": "final de la partida: todas las naves eliminadas, no hay ganador",
    "ev.declared_token": "{player} juega una ficha de bonificación",
    "ev.declared_none": "{player} no juega ninguna ficha",
    "ev.must_redeclare": "{player} debe elegir de nuevo",
    "ev.must_reprogram": "{player} debe reprogramar",
    "ev.kept": "{player} se queda con una ficha",
    "ev.lost": "se ha perdido el mando de {player}: partida en pausa",
    "ev.back": "el mando de {player} ha vuelto",
    "ev.rejected": "se ha rechazado un mando: {reason}",
    "ev.no_bonus": "nadie tiene fichas de bonificación: no hay fase de bonificaciones",
    "ev.started": "nueva partida, semilla {seed}",
    "ev.started_secret": "nueva partida (su semilla queda secreta hasta el final)",
    "ev.resumed": "partida reanudada desde el diario en el turno {turn}",
    "ev.unknown": "{kind}",
    "word.and": "y", "word.die_part": "{die} {value}", "word.x": "X",
    "word.players_on": "jugadores en {path}",
}

_FR: dict[str, str] = {
    "colour.red": "Rouge", "colour.blue": "Bleu", "colour.green": "Vert",
    "colour.yellow": "Jaune", "colour.purple": "Violet", "colour.orange": "Orange",
    "token.nitro": "Nitro", "token.fuel_tank": "Bidon de Fioul", "token.flamethrower": "Lance-flammes",
    "token.force_field": "Champ de force", "token.electromagnet": "Électroaimant",
    "token.ion_cannon": "Canon à ions", "token.unknown": "un jeton Bonus", "token.none": "aucun jeton",
    "path.left": "gauche", "path.center": "central", "path.right": "droite",
    "die.yellow": "dé jaune", "die.blue": "dé bleu",
    "cause.fuel": "plus de Fioul", "cause.overpaid": "ne peut pas payer le coût",
    "cause.board": "resté sur le plateau Progression retiré", "cause.pushed": "reculé au-delà de la dernière rangée",
    "phase.waiting": "EN ATTENTE DES MANETTES", "phase.bonus": "BONUS",
    "phase.programming": "PROGRAMMATION", "phase.resolution": "RÉSOLUTION",
    "phase.reveal": "RÉVÉLATION", "phase.draw": "PIOCHE BONUS", "phase.finished": "FIN DE LA PARTIE",
    "phase.replay": "RELECTURE",
    "ui.turn": "Tour {turn}/{total}", "ui.tile": "tuile Course {number}", "ui.finish_tile": "tuile Fin de course {number}",
    "ui.face": "face {face} joueurs", "ui.tiles_left": "tuiles restantes", "ui.markers_left": "Champs de force libres",
    "ui.fuel": "Fioul", "ui.tokens": "jetons Bonus", "ui.zone": "rangée", "ui.board": "plateau Progression",
    "ui.condition": "condition", "ui.cost": "coût", "ui.gain": "gain", "ui.dice": "dés",
    "ui.events": "événements", "ui.no_tile": "pas de tuile", "ui.solo": "seul",
    "ui.choose": "X = {min}–{max}", "ui.winner": "Vainqueur : {players}", "ui.no_winner": "Aucun vainqueur",
    "ui.next_board": "3e plateau",
    "status.connected": "prêt", "status.lost": "MANETTE PERDUE",
    "status.locked": "verrouillée", "status.unlock": "déverrouillez d'abord", "status.to_act": "à vous",
    "status.ready": "programmé", "status.declared_token": "joue un jeton",
    "status.declared_none": "aucun jeton", "status.refused": "doit reprogrammer",
    "status.refused_bonus": "doit choisir à nouveau", "status.eliminated": "éliminé",
    "status.waiting": "manette attendue", "status.bot": "robot", "status.keyboard": "clavier",
    "status.drawing": "choisit un jeton", "status.winner": "VAINQUEUR",
    "prompt.waiting": "Branchez ou allumez les manettes : {players}",
    "prompt.bonus": "Rangée {zone} : {players} — molette de gauche : un jeton Bonus ou aucun, puis verrouillez",
    "prompt.programming": "Molette de droite : votre chemin (molette centrale : X) — puis verrouillez",
    "prompt.draw": "{player} : gardez un des deux jetons piochés — molette de gauche, puis verrouillez",
    "prompt.showing": "Tout est révélé",
    "prompt.finished": "Fin de la partie",
    "prompt.replay": "Relecture de la partie {game} : ← → tour par tour, Échap pour quitter",
    "banner.paused": "PAUSE — manette perdue : {players}",
    "banner.keyboard": "{player} au clavier — les autres ne regardent pas",
    "pad.keys": "←/→ choisir · ↑/↓ X · Entrée verrouiller · Tab montrer/cacher",
    "pad.hidden": "Tab : montrer mon choix",
    "ev.turn": "Tour {turn} : {tile} (face {face})",
    "ev.bonus_played": "{player} joue {token}",
    "ev.bonus_none": "aucun jeton Bonus joué",
    "ev.moved.forward": "{player} avance de {n} (rangée {from} → {to})",
    "ev.moved.back": "{player} recule de {n} (rangée {from} → {to})",
    "ev.moved.stopped": "{line}, arrêté par un Champ de force",
    "ev.fuel.gain": "{player} gagne {n} Fioul → {total}",
    "ev.fuel.loss": "{player} perd {n} Fioul → {total}",
    "ev.fuel.why": "{line} [{why}]",
    "ev.marker_placed": "{player} pose un Champ de force sur la rangée {zone}",
    "ev.no_marker_left": "plus de jeton Champ de force pour {player}",
    "ev.nothing_ahead": "le {token} de {player} ne trouve aucun Vaisseau devant",
    "ev.board_laid": "le troisième plateau Progression est posé : la piste finit à la rangée {front}",
    "ev.board_removed": "le plateau Progression le plus en arrière (rangées {first}–{last}) est retiré",
    "ev.eliminated": "{player} est éliminé : {cause}",
    "ev.programmed": "{player} prend le chemin {path}",
    "ev.programmed.x": "{player} prend le chemin {path} avec X = {number}",
    "ev.lose_turn": "chemin {path} surchargé ({count} > {capacity}) : {players} perdent leur tour",
    "ev.solo_alone": "{player} est seul sur le chemin {path} : gagne sans payer",
    "ev.solo_crowd": "{count} joueurs sur le chemin {path} : ils payent et ne gagnent rien",
    "ev.roll": "{player} lance le {die} : {value}",
    "ev.pay": "{player} paye {amount} Fioul → {total}",
    "ev.pay.parts": "{player} paye {amount} Fioul ({parts}) → {total}",
    "ev.draw.one": "{player} pioche un jeton Bonus",
    "ev.draw.two": "{player} pioche 2 jetons Bonus et en garde un",
    "ev.draw.physical": "{player} gagne {n} jeton(s) Bonus : piochez-en deux, gardez-en un face cachée",
    "ev.draw_empty": "{player} gagne un jeton Bonus, mais il n'en reste aucun",
    "ev.reshuffle": "les {count} jetons défaussés sont mélangés en une nouvelle pile",
    "ev.flip": "il reste {remaining} joueurs : les tuiles restantes passent sur la face 3-4",
    "ev.markers_removed": "{count} jeton(s) Champ de force retiré(s) de la rangée {zone}",
    "ev.tile_revealed": "la tuile suivante est révélée : {tile}",
    "ev.game_over.win": "fin de la partie : {players} gagne",
    "ev.game_over.wins": "fin de la partie : {players} gagnent",
    "ev.game_over.none": "fin de la partie : tous les Vaisseaux sont éliminés, aucun vainqueur",
    "ev.declared_token": "{player} joue un jeton Bonus",
    "ev.declared_none": "{player} ne joue aucun jeton",
    "ev.must_redeclare": "{player} doit choisir à nouveau",
    "ev.must_reprogram": "{player} doit reprogrammer",
    "ev.kept": "{player} garde un jeton",
    "ev.lost": "la manette de {player} est perdue : partie en pause",
    "ev.back": "la manette de {player} est revenue",
    "ev.rejected": "une manette a été refusée : {reason}",
    "ev.no_bonus": "personne n'a de jeton Bonus : pas de phase BONUS",
    "ev.started": "nouvelle partie, graine {seed}",
    "ev.started_secret": "nouvelle partie (sa graine reste secrète jusqu'à la fin)",
    "ev.resumed": "partie reprise depuis le journal au tour {turn}",
    "ev.unknown": "{kind}",
    "word.and": "et", "word.die_part": "{die} {value}", "word.x": "X",
    "word.players_on": "joueurs sur {path}",
}

_DE: dict[str, str] = {
    "colour.red": "Rot", "colour.blue": "Blau", "colour.green": "Grün",
    "colour.yellow": "Gelb", "colour.purple": "Lila", "colour.orange": "Orange",
    "token.nitro": "Nitro", "token.fuel_tank": "Benzintank", "token.flamethrower": "Flammenwerfer",
    "token.force_field": "Kraftfeld", "token.electromagnet": "Elektromagnet",
    "token.ion_cannon": "Ionenkanone", "token.unknown": "ein Bonusplättchen", "token.none": "kein Plättchen",
    "path.left": "linke", "path.center": "mittlere", "path.right": "rechte",
    "die.yellow": "gelben Würfel", "die.blue": "blauen Würfel",
    "cause.fuel": "kein Benzin mehr", "cause.overpaid": "konnte die Kosten nicht zahlen",
    "cause.board": "auf dem entfernten Renntableau", "cause.pushed": "über die letzte Zone hinaus zurückgezogen",
    "phase.waiting": "WARTEN AUF DIE STEUERGERÄTE", "phase.bonus": "BONUS",
    "phase.programming": "PROGRAMMIERUNG", "phase.resolution": "AUFLÖSUNG",
    "phase.reveal": "AUFDECKEN", "phase.draw": "BONUS ZIEHEN", "phase.finished": "ENDE DER PARTIE",
    "phase.replay": "WIEDERHOLUNG",
    "ui.turn": "Runde {turn}/{total}", "ui.tile": "Streckenkärtchen {number}",
    "ui.finish_tile": "Ziellinienkärtchen {number}",
    "ui.face": "Seite {face} Spieler", "ui.tiles_left": "Kärtchen übrig", "ui.markers_left": "Kraftfelder übrig",
    "ui.fuel": "Benzin", "ui.tokens": "Bonusplättchen", "ui.zone": "Zone", "ui.board": "Renntableau",
    "ui.condition": "Bedingung", "ui.cost": "Kosten", "ui.gain": "Vorteile", "ui.dice": "Würfel",
    "ui.events": "Ereignisse", "ui.no_tile": "kein Kärtchen", "ui.solo": "allein",
    "ui.choose": "X = {min}–{max}", "ui.winner": "Sieger: {players}", "ui.no_winner": "Kein Sieger",
    "ui.next_board": "3. Renntableau",
    "status.connected": "bereit", "status.lost": "STEUERGERÄT WEG",
    "status.locked": "gesperrt", "status.unlock": "erst entsperren", "status.to_act": "am Zug",
    "status.ready": "programmiert", "status.declared_token": "spielt ein Plättchen",
    "status.declared_none": "kein Plättchen", "status.refused": "muss neu programmieren",
    "status.refused_bonus": "muss neu wählen", "status.eliminated": "ausgeschieden",
    "status.waiting": "Steuergerät fehlt", "status.bot": "Bot", "status.keyboard": "Tastatur",
    "status.drawing": "wählt ein Plättchen", "status.winner": "SIEGER",
    "prompt.waiting": "Steuergeräte anschließen oder einschalten: {players}",
    "prompt.bonus": "Zone {zone}: {players} — linkes Rad: ein Bonusplättchen oder keins, dann sperren",
    "prompt.programming": "Rechtes Rad: deine Route (mittleres Rad: X) — dann sperren",
    "prompt.draw": "{player}: behalte eins der zwei gezogenen Plättchen — linkes Rad, dann sperren",
    "prompt.showing": "Alles wird aufgedeckt",
    "prompt.finished": "Ende der Partie",
    "prompt.replay": "Wiederholung der Partie {game}: ← → Runde für Runde, Esc zum Verlassen",
    "banner.paused": "PAUSE — Steuergerät weg: {players}",
    "banner.keyboard": "{player} an der Tastatur — die anderen schauen weg",
    "pad.keys": "←/→ wählen · ↑/↓ X · Eingabe sperren · Tab zeigen/verbergen",
    "pad.hidden": "Tab: meine Wahl zeigen",
    "ev.turn": "Runde {turn}: {tile} (Seite {face})",
    "ev.bonus_played": "{player} spielt {token}",
    "ev.bonus_none": "kein Bonusplättchen gespielt",
    "ev.moved.forward": "{player} zieht {n} vorwärts (Zone {from} → {to})",
    "ev.moved.back": "{player} zieht {n} rückwärts (Zone {from} → {to})",
    "ev.moved.stopped": "{line}, von einem Kraftfeld gestoppt",
    "ev.fuel.gain": "{player} erhält {n} Benzin → {total}",
    "ev.fuel.loss": "{player} verliert {n} Benzin → {total}",
    "ev.fuel.why": "{line} [{why}]",
    "ev.marker_placed": "{player} legt ein Kraftfeld auf Zone {zone}",
    "ev.no_marker_left": "kein Kraftfeldplättchen mehr für {player}",
    "ev.nothing_ahead": "{token} von {player} findet kein Raumschiff vor sich",
    "ev.board_laid": "das dritte Renntableau wird angelegt: die Strecke endet jetzt bei Zone {front}",
    "ev.board_removed": "das hinterste Renntableau (Zonen {first}–{last}) wird entfernt",
    "ev.eliminated": "{player} scheidet aus: {cause}",
    "ev.programmed": "{player} nimmt die {path} Route",
    "ev.programmed.x": "{player} nimmt die {path} Route mit X = {number}",
    "ev.lose_turn": "{path} Route überfüllt ({count} > {capacity}): {players} setzen aus",
    "ev.solo_alone": "{player} ist allein auf der {path} Route: Vorteil ohne Kosten",
    "ev.solo_crowd": "{count} Spieler auf der {path} Route: sie zahlen und erhalten nichts",
    "ev.roll": "{player} wirft den {die}: {value}",
    "ev.pay": "{player} zahlt {amount} Benzin → {total}",
    "ev.pay.parts": "{player} zahlt {amount} Benzin ({parts}) → {total}",
    "ev.draw.one": "{player} zieht ein Bonusplättchen",
    "ev.draw.two": "{player} zieht 2 Bonusplättchen und behält eins",
    "ev.draw.physical": "{player} erhält {n} Bonusplättchen: zwei ziehen, eins verdeckt behalten",
    "ev.draw_empty": "{player} erhält ein Bonusplättchen, aber es ist keins mehr da",
    "ev.reshuffle": "die {count} abgelegten Plättchen werden zu einem neuen Stapel gemischt",
    "ev.flip": "{remaining} Spieler übrig: die restlichen Kärtchen werden auf die Seite 3-4 gedreht",
    "ev.markers_removed": "{count} Kraftfeldplättchen von Zone {zone} entfernt",
    "ev.tile_revealed": "das nächste Kärtchen wird aufgedeckt: {tile}",
    "ev.game_over.win": "Ende der Partie: {players} gewinnt",
    "ev.game_over.wins": "Ende der Partie: {players} gewinnen",
    "ev.game_over.none": "Ende der Partie: alle Raumschiffe ausgeschieden, kein Sieger",
    "ev.declared_token": "{player} spielt ein Bonusplättchen",
    "ev.declared_none": "{player} spielt kein Bonusplättchen",
    "ev.must_redeclare": "{player} muss neu wählen",
    "ev.must_reprogram": "{player} muss neu programmieren",
    "ev.kept": "{player} behält ein Plättchen",
    "ev.lost": "das Steuergerät von {player} ist weg: Partie pausiert",
    "ev.back": "das Steuergerät von {player} ist zurück",
    "ev.rejected": "ein Steuergerät wurde abgewiesen: {reason}",
    "ev.no_bonus": "niemand hat ein Bonusplättchen: keine Bonusphase",
    "ev.started": "neue Partie, Startwert {seed}",
    "ev.started_secret": "neue Partie (ihr Startwert bleibt bis zum Ende geheim)",
    "ev.resumed": "Partie aus dem Journal fortgesetzt in Runde {turn}",
    "ev.unknown": "{kind}",
    "word.and": "und", "word.die_part": "{die} {value}", "word.x": "X",
    "word.players_on": "Spieler auf {path}",
}

CATALOGUES: dict[str, dict[str, str]] = {"en": _EN, "es": _ES, "fr": _FR, "de": _DE}

_WHY = {"fuel tank": "token.fuel_tank", "ion cannon": "token.ion_cannon"}


def _signed(n: Any) -> str:
    if isinstance(n, int) and n < 0:
        return f"−{-n}"
    return str(n)


class _Safe(dict):
    def __missing__(self, key: str) -> str:
        return "?"


class Lang:
    """One language: ``t(key, **data)`` for interface strings, ``event(kind, data)`` for
    a log line. Never raises on unknown keys or odd data (untrusted input must not crash
    the table); a missing key falls back to English, then to the key itself."""

    def __init__(self, code: str = "en") -> None:
        if code not in CATALOGUES:
            raise ValueError(f"unknown language {code!r} (known: {', '.join(LANGUAGES)})")
        self.code = code
        self._cat = CATALOGUES[code]

    def t(self, key: str, **data: Any) -> str:
        text = self._cat.get(key) or _EN.get(key) or key
        try:
            return text.format_map(_Safe(data))
        except (ValueError, IndexError, AttributeError):
            return text

    # ---- names
    def player(self, name: Any) -> str:
        return self._cat.get(f"colour.{name}") or str(name).capitalize()

    def players(self, names: Any) -> str:
        names = [self.player(n) for n in (names or [])]
        if len(names) <= 1:
            return "".join(names)
        return f"{', '.join(names[:-1])} {self.t('word.and')} {names[-1]}"

    def token(self, token: Any) -> str:
        return self._cat.get(f"token.{'none' if token is None else token}") or str(token)

    def path(self, path: Any) -> str:
        return self._cat.get(f"path.{path}") or str(path)

    def die(self, die: Any) -> str:
        return self._cat.get(f"die.{die}") or str(die)

    def phase(self, phase: Any) -> str:
        return self._cat.get(f"phase.{phase}") or str(phase).upper()

    def tile(self, number: Any, finish: Any) -> str:
        return self.t("ui.finish_tile" if finish else "ui.tile", number=number)

    # ---- events
    def event(self, kind: str, data: Mapping[str, Any] | None = None) -> str:
        try:
            return self._event(kind, dict(data or {}))
        except Exception:                       # a malformed entry still gives a line
            return self.t("ev.unknown", kind=kind)

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
                line = t("ev.fuel.why", line=line, why=self._cat.get(why, ""))
            return line
        if kind == EventKind.ELIMINATED:
            return t("ev.eliminated", player=d["player"], cause=self._cat.get(f"cause.{d.get('cause')}", ""))
        if kind == EventKind.PROGRAMMED:
            key = "ev.programmed.x" if d.get("number") is not None else "ev.programmed"
            return t(key, player=d["player"], path=self.path(d.get("path")), number=d.get("number"))
        if kind in (EventKind.LOSE_TURN, EventKind.SOLO_ALONE, EventKind.SOLO_CROWD):
            return t(f"ev.{kind}", player=d.get("player"), path=self.path(d.get("path")),
                     count=d.get("count"), capacity=d.get("capacity"), players=self.players(d.get("players")))
        if kind == EventKind.ROLL:
            return t("ev.roll", player=d["player"], die=self.die(d.get("die")), value=_signed(d.get("value")))
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
        if key in _EN:
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


def all_strings(code: str) -> list[str]:
    """Every catalogue string of a language, for the missing-glyph test."""
    return list(CATALOGUES[code].values())
