"""Last One Alive's words at the table, in English, Spanish, French and German.

The Spanish uses the rulebook's own terms (*emboscada*, *barricada*, *motosierra*, *hacha*,
*bengala*, *pistola*, *botiquín*, *radio*, *ficha de héroe*, *nivel de Apocalipsis*,
*bandeja*, *reserva común*, *zombificado*). Same structure as Outspeed's catalogue
(``outspeed.words``): ``t(key, **data)`` for the interface, ``event(kind, data)`` for a log
line, from the event's kind and data (never by parsing the engine's English). A missing key
falls back to English, then to the key; nothing here raises on odd data.

Counts agree with their noun: ``{n:# bang|# bangs}`` renders the part before ``|`` when
``n`` takes the singular in that language (English, Spanish, German: 1; French: 0 and 1),
the part after it otherwise, ``#`` standing for the number.
"""
from __future__ import annotations

import string
from typing import Any, Callable, Mapping

LANGUAGES: tuple[str, ...] = ("en", "es", "fr", "de")

_EN: dict[str, str] = {
    "colour.red": "Red", "colour.blue": "Blue", "colour.green": "Green", "colour.yellow": "Yellow",
    "colour.purple": "Purple", "colour.orange": "Orange",
    "token.axe": "axe", "token.chainsaw": "chainsaw", "token.flare": "flare", "token.pistol": "pistol",
    "token.medkit": "medkit", "token.radio": "radio", "token.barricade": "barricade", "token.hero": "hero token",
    "token.apocalypse": "apocalypse token", "token.night": "night token", "token.day": "day token",
    "token.none": "none / go on",
    "type.zombie": "zombie", "type.shoot": "shoot", "type.object": "object", "type.barricade": "barricade",
    "face.blank": "blank", "face.ambush": "ambush", "face.zombie1": "1 zombie", "face.zombie2": "2 zombies",
    "face.bang1": "1 bang", "face.bang2": "2 bangs", "face.bang1plus": "1 bang +", "face.object": "object",
    "face.barricade": "barricade",
    "status.bot": "bot", "status.keyboard": "keyboard", "status.to_act": "to decide", "status.unlock": "lock off first",
    "status.waiting": "no controller yet", "status.lost": "controller lost", "status.eliminated": "zombified",
    "status.winner": "last one alive!", "status.ready": "ready", "status.drawing": "drawing",
    "ui.dice": "dice", "ui.events": "what happened", "ui.level": "apocalypse level", "ui.bag": "tokens in the bag",
    "ui.tray": "tray", "ui.pool": "pool", "ui.turn": "{player}'s turn", "ui.lives": "lives {n}",
    "ui.zombified": "ZOMBIFIED", "ui.in_front": "in front", "ui.chain": "\"+\" re-rolls", "ui.medkit": "medkit roll",
    "ui.night": "night", "ui.winner": "Winner: {players}", "ui.no_winner": "No winner",
    "ui.refused": "Refused: {reason}. Lock off and try again.", "ui.marked": "marked: {dice}",
    "ui.score": "score {n}", "word.and": "and",
    "banner.paused": "Paused: {players}'s controller is lost", "banner.keyboard": "{player} at the keyboard",
    "pad.hidden": "(Tab shows the token drawn)", "pad.keys": "←/→ wheel · ↑/↓ turn · Enter lock · Backspace unlock",
    "prompt.waiting": "Waiting for controllers: {players}",
    "prompt.first": "Who saw a zombie most recently? That player turns their lock on to start",
    "prompt.setup": "{player}: place the token drawn (your controller lights it): object face up or barricade face down",
    "prompt.before": "{player}: a token before the roll? (0 = go on)",
    "prompt.dice": "{player}: choose {needed:# die|# dice} (the rest are zombie dice); {forced:# forced zombie die|# forced zombie dice}",
    "prompt.after": "{player}: a token after the roll? (0 = go on)",
    "prompt.draw": "{player}: draw a token for an object result? ({results} left)",
    "prompt.before_shoot": "{player}: a token before shooting? (0 = go on)",
    "prompt.shoot": "{player}: shoot! {bangs:# bang|# bangs} left",
    "prompt.before_barricades": "{player}: a token before the barricades? (0 = go on)",
    "prompt.give": "{player}: give a zombie die to the left? ({results:# barricade result|# barricade results})",
    "prompt.draw_barricades": "{player}: draw face-down tokens for unused barricades? (up to {results})",
    "prompt.keep": "{player}: more than 3 tokens: discard one",
    "prompt.bag": "{player}: draw a token from the real bag and enter it",
    "prompt.showing": "…", "prompt.finished": "Game over: {players}",
    "wheel.left": "left", "wheel.centre": "centre", "wheel.right": "right",
    "wheel.side": "1 object (face up) · 2 barricade (face down)",
    "wheel.token": "token: 0 go on · 1 axe · 2 chainsaw · 3 flare · 4 pistol · 6 radio · 7 barricade · 8 hero",
    "wheel.group_or_type": "die group 1 F · 2 Z · 3 S · 4 O · 5 B (radio: 1st die type 2-5)",
    "wheel.number_or_type": "die number (radio: 2nd die type 2-5)",
    "wheel.group": "die group 1 F · 2 Z · 3 S · 4 O · 5 B (hero: 0 re-roll marked · 15 all)",
    "wheel.number": "die number",
    "wheel.shoot_dice": "shoot dice 0-3", "wheel.object_dice": "object dice 0-3",
    "wheel.barricade_dice": "barricade dice 0-3",
    "wheel.draw_or_stop": "1 draw (n: draw n) · 0 stop drawing", "wheel.bangs": "bangs on that die (0 = stop)",
    "wheel.give_or_stop": "1 give · 0 stop giving", "wheel.draws": "tokens to draw",
    "wheel.discard": "token code to discard", "wheel.bag_token": "1-6 the object · 9 apocalypse · 10 night · 11 day",
    "refuse.bag_token": "that is not a token of the bag", "refuse.side": "1 object or 2 barricade",
    "refuse.too_many_dice": "more dice than you may choose", "refuse.draw": "1 draws, 0 stops",
    "refuse.no_label": "no die has that label", "refuse.give": "1 gives, 0 stops",
    "refuse.not_a_token": "no token has that code", "refuse.radio_types": "a radio needs two die types (2-5)",
    "refuse.nothing_to_decide": "nothing to decide", "refuse.not_in_bag": "the bag holds no more of those",
    "refuse.hero_none": "mark dice first (or 15: all of them)", "refuse.marked": "that die is already marked",
    "code.not_your_turn": "it is not your turn", "code.game_over": "the game is over",
    "code.dice_count": "not exactly 4 chosen dice", "code.not_in_pool": "the pool does not hold those dice",
    "code.not_held": "you do not hold that token", "code.wrong_moment": "that token cannot be used now",
    "code.no_die": "no such die here", "code.ambush_die": "a die showing an ambush cannot be given away",
    "code.no_target": "that token has nothing to act on", "code.wrong_count": "the wrong number of dice or tokens",
    "code.too_many_draws": "more draws than results", "code.too_many_bangs": "more bangs than you have or the die needs",
    "code.too_many_gives": "more dice than barricade results", "code.zombies_in_front": "something is still in front of you",
    "code.not_an_answer": "that is not an answer to this prompt",
    "why.the third apocalypse token": "the third apocalypse token", "why.one player left": "one player left",
    "ev.started": "New game", "ev.resumed": "Game resumed at turn {turn}", "ev.back": "{player}'s controller is back",
    "ev.lost": "{player}'s controller is lost: the game is paused", "ev.rejected": "a controller was refused ({reason})",
    "ev.unknown": "({kind})",
    "ev.setup_draw.object": "{player} places a {token} face up", "ev.setup_draw.barricade": "{player} places a token face down (barricade)",
    "ev.starting_zombie": "{player} starts with a 1-zombie die in front",
    "ev.turn": "{player}'s turn (apocalypse level {level})", "ev.token_used": "{player} uses a {token}",
    "ev.given": "{player} gives {dice} to {to}", "ev.radios_back": "{player}'s radios go back to their hand",
    "ev.dice_taken": "{player} takes {forced:# forced zombie die|# forced zombie dice} and chooses {chosen}",
    "dice.zombie": "{n:# zombie die|# zombie dice}", "dice.shoot": "{n:# shoot die|# shoot dice}",
    "dice.object": "{n:# object die|# object dice}", "dice.barricade": "{n:# barricade die|# barricade dice}",
    "ev.rolled": "{player} rolls: {faces}", "ev.rerolled": "{player} re-rolls: {faces}",
    "ev.assigned.both": "{player} gets {ambush:# ambush die|# ambush dice}; {left} gets {zombies:# zombie|# zombies}",
    "ev.assigned.ambush": "{player} gets {ambush:# ambush die|# ambush dice}",
    "ev.assigned.zombies": "{left} gets {zombies:# zombie|# zombies}",
    "ev.assigned.none": "{player}: no zombie and no ambush",
    "ev.drew": "{player} draws a {token}", "ev.drew_face_down": "{player} draws a token and keeps it face down",
    "ev.bag_empty": "{player} finds the bag empty", "ev.apocalypse": "{player} draws an apocalypse token: level {level}!",
    "ev.night": "{player} draws the night token: night falls, level {level}",
    "ev.day": "{player} draws the day token: day breaks, level {level}",
    "ev.bangs": "{player} has {bangs:# bang|# bangs}", "ev.shot": "{player} shoots {die} with {bangs:# bang|# bangs}",
    "ev.shot.cleared": "{player} shoots {die} with {bangs:# bang|# bangs}: cleared",
    "ev.hero_gained": "{player} gains a hero token", "ev.barricades": "{player} has {results:# barricade result|# barricade results}",
    "ev.discarded": "{player} discards {tokens}", "ev.medkit.saved": "{player}'s medkit rolls {face}: saved!",
    "ev.medkit.failed": "{player}'s medkit rolls {face}: no luck", "ev.overrun": "{player} is overrun",
    "ev.overrun.life": "{player} is overrun and loses a life ({lives} left)",
    "ev.eliminated": "{player} is out: zombified", "ev.level": "the apocalypse level rises to {level}",
    "ev.zombified_roll": "zombified {player} rolls {face}", "ev.game_over": "Game over: {players} — the last one alive!",
}

_ES: dict[str, str] = {
    "colour.red": "Rojo", "colour.blue": "Azul", "colour.green": "Verde", "colour.yellow": "Amarillo",
    "colour.purple": "Morado", "colour.orange": "Naranja",
    "token.axe": "hacha", "token.chainsaw": "motosierra", "token.flare": "bengala", "token.pistol": "pistola",
    "token.medkit": "botiquín", "token.radio": "radio", "token.barricade": "barricada", "token.hero": "ficha de héroe",
    "token.apocalypse": "ficha de Apocalipsis Zombi", "token.night": "ficha de noche", "token.day": "ficha de día",
    "token.none": "ninguna / seguir",
    "type.zombie": "Zombi", "type.shoot": "Disparo", "type.object": "Objeto", "type.barricade": "Barricada",
    "face.blank": "vacía", "face.ambush": "emboscada", "face.zombie1": "1 zombi", "face.zombie2": "2 zombis",
    "face.bang1": "1 Bang", "face.bang2": "2 Bang", "face.bang1plus": "1 Bang +", "face.object": "objeto",
    "face.barricade": "barricada",
    "status.bot": "bot", "status.keyboard": "teclado", "status.to_act": "decide", "status.unlock": "abre el cierre",
    "status.waiting": "sin mando", "status.lost": "mando perdido", "status.eliminated": "zombificado",
    "status.winner": "¡el último superviviente!", "status.ready": "listo", "status.drawing": "roba",
    "ui.dice": "dados", "ui.events": "lo que pasó", "ui.level": "nivel de Apocalipsis", "ui.bag": "fichas en la bolsa",
    "ui.tray": "bandeja", "ui.pool": "reserva común", "ui.turn": "turno de {player}", "ui.lives": "vidas {n}",
    "ui.zombified": "ZOMBIFICADO", "ui.in_front": "delante", "ui.chain": "tiradas \"+\"", "ui.medkit": "tirada del botiquín",
    "ui.night": "noche", "ui.winner": "Gana: {players}", "ui.no_winner": "Nadie gana",
    "ui.refused": "Rechazado: {reason}. Abre el cierre y prueba otra vez.", "ui.marked": "marcados: {dice}",
    "ui.score": "{n:# punto|# puntos}", "word.and": "y",
    "banner.paused": "En pausa: el mando de {players} se ha perdido", "banner.keyboard": "{player} al teclado",
    "pad.hidden": "(Tab muestra la ficha robada)", "pad.keys": "←/→ rueda · ↑/↓ girar · Intro cerrar · Retroceso abrir",
    "prompt.waiting": "Esperando a los mandos: {players}",
    "prompt.first": "¿Quién ha visto un zombi más recientemente? Que cierre su mando para empezar",
    "prompt.setup": "{player}: coloca la ficha robada (tu mando la ilumina): objeto boca arriba o barricada boca abajo",
    "prompt.before": "{player}: ¿una ficha antes de tirar? (0 = seguir)",
    "prompt.dice": "{player}: elige {needed:# dado|# dados} (el resto, dados de Zombi); {forced:# dado de Zombi obligado|# dados de Zombi obligados}",
    "prompt.after": "{player}: ¿una ficha después de tirar? (0 = seguir)",
    "prompt.draw": "{player}: ¿robar una ficha por un objeto? ({results:queda #|quedan #})",
    "prompt.before_shoot": "{player}: ¿una ficha antes de disparar? (0 = seguir)",
    "prompt.shoot": "{player}: ¡dispara! {bangs:queda # Bang|quedan # Bang}",
    "prompt.before_barricades": "{player}: ¿una ficha antes de las barricadas? (0 = seguir)",
    "prompt.give": "{player}: ¿pasar un dado de Zombi al jugador de tu izquierda? ({results:# barricada|# barricadas})",
    "prompt.draw_barricades": "{player}: ¿robar fichas boca abajo por barricadas sin usar? (hasta {results})",
    "prompt.keep": "{player}: más de 3 fichas: descarta una",
    "prompt.bag": "{player}: roba una ficha de la bolsa de verdad e indícala",
    "prompt.showing": "…", "prompt.finished": "Fin de la partida: {players}",
    "wheel.left": "izquierda", "wheel.centre": "centro", "wheel.right": "derecha",
    "wheel.side": "1 objeto (boca arriba) · 2 barricada (boca abajo)",
    "wheel.token": "ficha: 0 seguir · 1 hacha · 2 motosierra · 3 bengala · 4 pistola · 6 radio · 7 barricada · 8 héroe",
    "wheel.group_or_type": "grupo 1 F · 2 Z · 3 S · 4 O · 5 B (radio: tipo del 1.er dado 2-5)",
    "wheel.number_or_type": "número del dado (radio: tipo del 2.º dado 2-5)",
    "wheel.group": "grupo 1 F · 2 Z · 3 S · 4 O · 5 B (héroe: 0 relanzar marcados · 15 todos)",
    "wheel.number": "número del dado",
    "wheel.shoot_dice": "dados de Disparo 0-3", "wheel.object_dice": "dados de Objeto 0-3",
    "wheel.barricade_dice": "dados de Barricada 0-3",
    "wheel.draw_or_stop": "1 robar (n: robar n) · 0 dejar de robar", "wheel.bangs": "Bang a ese dado (0 = parar)",
    "wheel.give_or_stop": "1 pasar · 0 dejar de pasar", "wheel.draws": "fichas a robar",
    "wheel.discard": "código de la ficha a descartar", "wheel.bag_token": "1-6 el objeto · 9 Apocalipsis · 10 noche · 11 día",
    "refuse.bag_token": "eso no es una ficha de la bolsa", "refuse.side": "1 objeto o 2 barricada",
    "refuse.too_many_dice": "más dados de los que puedes elegir", "refuse.draw": "1 roba, 0 para",
    "refuse.no_label": "ningún dado tiene esa etiqueta", "refuse.give": "1 pasa, 0 para",
    "refuse.not_a_token": "ninguna ficha tiene ese código", "refuse.radio_types": "la radio pide dos tipos de dado (2-5)",
    "refuse.nothing_to_decide": "nada que decidir", "refuse.not_in_bag": "no quedan de esas en la bolsa",
    "refuse.hero_none": "marca dados primero (o 15: todos)", "refuse.marked": "ese dado ya está marcado",
    "code.not_your_turn": "no es tu turno", "code.game_over": "la partida ha terminado",
    "code.dice_count": "no son exactamente 4 dados elegidos", "code.not_in_pool": "la reserva no tiene esos dados",
    "code.not_held": "no tienes esa ficha", "code.wrong_moment": "esa ficha no se puede usar ahora",
    "code.no_die": "ese dado no está aquí", "code.ambush_die": "un dado con emboscada no se puede pasar",
    "code.no_target": "esa ficha no tiene sobre qué actuar", "code.wrong_count": "número equivocado de dados o fichas",
    "code.too_many_draws": "más robos que resultados", "code.too_many_bangs": "más Bang de los que tienes o necesita el dado",
    "code.too_many_gives": "más dados que barricadas", "code.zombies_in_front": "aún tienes algo delante",
    "code.not_an_answer": "eso no responde a esta pregunta",
    "why.the third apocalypse token": "la tercera ficha de Apocalipsis", "why.one player left": "queda un jugador",
    "ev.started": "Nueva partida", "ev.resumed": "Partida reanudada en el turno {turn}", "ev.back": "El mando de {player} ha vuelto",
    "ev.lost": "El mando de {player} se ha perdido: partida en pausa", "ev.rejected": "un mando rechazado ({reason})",
    "ev.unknown": "({kind})",
    "ev.setup_draw.object": "{player} coloca {token} boca arriba", "ev.setup_draw.barricade": "{player} coloca una ficha boca abajo (barricada)",
    "ev.starting_zombie": "{player} empieza con un dado de 1 zombi delante",
    "ev.turn": "Turno de {player} (nivel de Apocalipsis {level})", "ev.token_used": "{player} usa {token}",
    "ev.given": "{player} pasa {dice} a {to}", "ev.radios_back": "las radios vuelven a la mano de {player}",
    "ev.dice_taken": "{player} toma {forced:# dado de Zombi obligado|# dados de Zombi obligados} y elige {chosen}",
    "dice.zombie": "{n:# dado de Zombi|# dados de Zombi}", "dice.shoot": "{n:# dado de Disparo|# dados de Disparo}",
    "dice.object": "{n:# dado de Objeto|# dados de Objeto}", "dice.barricade": "{n:# dado de Barricada|# dados de Barricada}",
    "ev.rolled": "{player} tira: {faces}", "ev.rerolled": "{player} relanza: {faces}",
    "ev.assigned.both": "{player} recibe {ambush:# dado de emboscada|# dados de emboscada}; {left} recibe {zombies:# zombi|# zombis}",
    "ev.assigned.ambush": "{player} recibe {ambush:# dado de emboscada|# dados de emboscada}",
    "ev.assigned.zombies": "{left} recibe {zombies:# zombi|# zombis}",
    "ev.assigned.none": "{player}: ni zombis ni emboscadas",
    "ev.drew": "{player} roba {token}", "ev.drew_face_down": "{player} roba una ficha y la pone boca abajo",
    "ev.bag_empty": "{player} encuentra la bolsa vacía", "ev.apocalypse": "{player} roba una ficha de Apocalipsis Zombi: ¡nivel {level}!",
    "ev.night": "{player} roba la ficha de noche: anochece, nivel {level}",
    "ev.day": "{player} roba la ficha de día: amanece, nivel {level}",
    "ev.bangs": "{player} tiene {bangs} Bang", "ev.shot": "{player} dispara a {die} con {bangs} Bang",
    "ev.shot.cleared": "{player} dispara a {die} con {bangs} Bang: despejado",
    "ev.hero_gained": "{player} gana una ficha de héroe", "ev.barricades": "{player} tiene {results:# barricada|# barricadas}",
    "ev.discarded": "{player} descarta {tokens}", "ev.medkit.saved": "el botiquín de {player} saca {face}: ¡salvado!",
    "ev.medkit.failed": "el botiquín de {player} saca {face}: sin suerte", "ev.overrun": "{player} es superado por los zombis",
    "ev.overrun.life": "{player} es superado y pierde una vida ({lives:le queda #|le quedan #})",
    "ev.eliminated": "{player} queda fuera: zombificado", "ev.level": "el nivel de Apocalipsis sube a {level}",
    "ev.zombified_roll": "{player}, zombificado, tira {face}", "ev.game_over": "Fin de la partida: {players}, ¡el último superviviente!",
}

_FR: dict[str, str] = {
    "colour.red": "Rouge", "colour.blue": "Bleu", "colour.green": "Vert", "colour.yellow": "Jaune",
    "colour.purple": "Violet", "colour.orange": "Orange",
    "token.axe": "hache", "token.chainsaw": "tronçonneuse", "token.flare": "fusée éclairante", "token.pistol": "pistolet",
    "token.medkit": "trousse de secours", "token.radio": "radio", "token.barricade": "barricade", "token.hero": "jeton Héros",
    "token.apocalypse": "jeton Apocalypse", "token.night": "jeton Nuit", "token.day": "jeton Jour",
    "token.none": "aucun / continuer",
    "type.zombie": "Zombie", "type.shoot": "Tir", "type.object": "Objet", "type.barricade": "Barricade",
    "face.blank": "vide", "face.ambush": "embuscade", "face.zombie1": "1 zombie", "face.zombie2": "2 zombies",
    "face.bang1": "1 Bang", "face.bang2": "2 Bang", "face.bang1plus": "1 Bang +", "face.object": "objet",
    "face.barricade": "barricade",
    "status.bot": "bot", "status.keyboard": "clavier", "status.to_act": "décide", "status.unlock": "ouvrez le verrou",
    "status.waiting": "pas de manette", "status.lost": "manette perdue", "status.eliminated": "zombifié",
    "status.winner": "le dernier survivant !", "status.ready": "prêt", "status.drawing": "pioche",
    "ui.dice": "dés", "ui.events": "ce qui s'est passé", "ui.level": "niveau d'Apocalypse", "ui.bag": "jetons dans le sac",
    "ui.tray": "plateau de lancer", "ui.pool": "réserve", "ui.turn": "tour de {player}", "ui.lives": "vies {n}",
    "ui.zombified": "ZOMBIFIÉ", "ui.in_front": "devant", "ui.chain": "relances « + »", "ui.medkit": "jet de la trousse",
    "ui.night": "nuit", "ui.winner": "Vainqueur : {players}", "ui.no_winner": "Pas de vainqueur",
    "ui.refused": "Refusé : {reason}. Ouvrez le verrou et recommencez.", "ui.marked": "marqués : {dice}",
    "ui.score": "{n:# point|# points}", "word.and": "et",
    "banner.paused": "En pause : la manette de {players} est perdue", "banner.keyboard": "{player} au clavier",
    "pad.hidden": "(Tab montre le jeton pioché)", "pad.keys": "←/→ molette · ↑/↓ tourner · Entrée verrouiller · Retour ouvrir",
    "prompt.waiting": "En attente des manettes : {players}",
    "prompt.first": "Qui a vu un zombie le plus récemment ? Qu'il ferme son verrou pour commencer",
    "prompt.setup": "{player} : placez le jeton pioché (votre manette l'allume) : objet face visible ou barricade face cachée",
    "prompt.before": "{player} : un jeton avant le lancer ? (0 = continuer)",
    "prompt.dice": "{player} : choisissez {needed:# dé|# dés} (le reste en dés Zombie) ; {forced:# dé Zombie imposé|# dés Zombie imposés}",
    "prompt.after": "{player} : un jeton après le lancer ? (0 = continuer)",
    "prompt.draw": "{player} : piocher un jeton pour un résultat objet ? (encore {results})",
    "prompt.before_shoot": "{player} : un jeton avant de tirer ? (0 = continuer)",
    "prompt.shoot": "{player} : tirez ! encore {bangs} Bang",
    "prompt.before_barricades": "{player} : un jeton avant les barricades ? (0 = continuer)",
    "prompt.give": "{player} : passer un dé Zombie au joueur de gauche ? ({results:# barricade|# barricades})",
    "prompt.draw_barricades": "{player} : piocher des jetons face cachée pour les barricades inutilisées ? (jusqu'à {results})",
    "prompt.keep": "{player} : plus de 3 jetons : défaussez-en un",
    "prompt.bag": "{player} : piochez un jeton dans le vrai sac et indiquez-le",
    "prompt.showing": "…", "prompt.finished": "Fin de la partie : {players}",
    "wheel.left": "gauche", "wheel.centre": "centre", "wheel.right": "droite",
    "wheel.side": "1 objet (face visible) · 2 barricade (face cachée)",
    "wheel.token": "jeton : 0 continuer · 1 hache · 2 tronçonneuse · 3 fusée · 4 pistolet · 6 radio · 7 barricade · 8 héros",
    "wheel.group_or_type": "groupe 1 F · 2 Z · 3 S · 4 O · 5 B (radio : type du 1er dé 2-5)",
    "wheel.number_or_type": "numéro du dé (radio : type du 2e dé 2-5)",
    "wheel.group": "groupe 1 F · 2 Z · 3 S · 4 O · 5 B (héros : 0 relancer les marqués · 15 tous)",
    "wheel.number": "numéro du dé",
    "wheel.shoot_dice": "dés Tir 0-3", "wheel.object_dice": "dés Objet 0-3", "wheel.barricade_dice": "dés Barricade 0-3",
    "wheel.draw_or_stop": "1 piocher (n : en piocher n) · 0 arrêter", "wheel.bangs": "Bang sur ce dé (0 = arrêter)",
    "wheel.give_or_stop": "1 passer · 0 arrêter", "wheel.draws": "jetons à piocher",
    "wheel.discard": "code du jeton à défausser", "wheel.bag_token": "1-6 l'objet · 9 Apocalypse · 10 nuit · 11 jour",
    "refuse.bag_token": "ce n'est pas un jeton du sac", "refuse.side": "1 objet ou 2 barricade",
    "refuse.too_many_dice": "plus de dés que vous ne pouvez en choisir", "refuse.draw": "1 pioche, 0 arrête",
    "refuse.no_label": "aucun dé ne porte ce nom", "refuse.give": "1 passe, 0 arrête",
    "refuse.not_a_token": "aucun jeton n'a ce code", "refuse.radio_types": "la radio demande deux types de dé (2-5)",
    "refuse.nothing_to_decide": "rien à décider", "refuse.not_in_bag": "le sac n'en contient plus",
    "refuse.hero_none": "marquez d'abord des dés (ou 15 : tous)", "refuse.marked": "ce dé est déjà marqué",
    "code.not_your_turn": "ce n'est pas votre tour", "code.game_over": "la partie est finie",
    "code.dice_count": "pas exactement 4 dés choisis", "code.not_in_pool": "la réserve n'a pas ces dés",
    "code.not_held": "vous n'avez pas ce jeton", "code.wrong_moment": "ce jeton ne s'utilise pas maintenant",
    "code.no_die": "ce dé n'est pas là", "code.ambush_die": "un dé embuscade ne se passe pas",
    "code.no_target": "ce jeton n'a rien sur quoi agir", "code.wrong_count": "mauvais nombre de dés ou de jetons",
    "code.too_many_draws": "plus de pioches que de résultats", "code.too_many_bangs": "plus de Bang que vous n'en avez ou que le dé n'en demande",
    "code.too_many_gives": "plus de dés que de barricades", "code.zombies_in_front": "il reste quelque chose devant vous",
    "code.not_an_answer": "ce n'est pas une réponse à cette question",
    "why.the third apocalypse token": "le troisième jeton Apocalypse", "why.one player left": "il reste un joueur",
    "ev.started": "Nouvelle partie", "ev.resumed": "Partie reprise au tour {turn}", "ev.back": "La manette de {player} est revenue",
    "ev.lost": "La manette de {player} est perdue : partie en pause", "ev.rejected": "une manette refusée ({reason})",
    "ev.unknown": "({kind})",
    "ev.setup_draw.object": "{player} pose {token} face visible", "ev.setup_draw.barricade": "{player} pose un jeton face cachée (barricade)",
    "ev.starting_zombie": "{player} commence avec un dé 1 zombie devant lui",
    "ev.turn": "Tour de {player} (niveau d'Apocalypse {level})", "ev.token_used": "{player} utilise {token}",
    "ev.given": "{player} passe {dice} à {to}", "ev.radios_back": "les radios de {player} reviennent dans sa main",
    "ev.dice_taken": "{player} prend {forced:# dé Zombie imposé|# dés Zombie imposés} et choisit {chosen}",
    "dice.zombie": "{n:# dé Zombie|# dés Zombie}", "dice.shoot": "{n:# dé Tir|# dés Tir}",
    "dice.object": "{n:# dé Objet|# dés Objet}", "dice.barricade": "{n:# dé Barricade|# dés Barricade}",
    "ev.rolled": "{player} lance : {faces}", "ev.rerolled": "{player} relance : {faces}",
    "ev.assigned.both": "{player} reçoit {ambush:# dé embuscade|# dés embuscade} ; {left} reçoit {zombies:# zombie|# zombies}",
    "ev.assigned.ambush": "{player} reçoit {ambush:# dé embuscade|# dés embuscade}",
    "ev.assigned.zombies": "{left} reçoit {zombies:# zombie|# zombies}",
    "ev.assigned.none": "{player} : ni zombie ni embuscade",
    "ev.drew": "{player} pioche {token}", "ev.drew_face_down": "{player} pioche un jeton et le garde face cachée",
    "ev.bag_empty": "{player} trouve le sac vide", "ev.apocalypse": "{player} pioche un jeton Apocalypse : niveau {level} !",
    "ev.night": "{player} pioche le jeton Nuit : la nuit tombe, niveau {level}",
    "ev.day": "{player} pioche le jeton Jour : le jour se lève, niveau {level}",
    "ev.bangs": "{player} a {bangs} Bang", "ev.shot": "{player} tire sur {die} avec {bangs} Bang",
    "ev.shot.cleared": "{player} tire sur {die} avec {bangs} Bang : dégagé",
    "ev.hero_gained": "{player} gagne un jeton Héros", "ev.barricades": "{player} a {results:# barricade|# barricades}",
    "ev.discarded": "{player} défausse {tokens}", "ev.medkit.saved": "la trousse de {player} donne {face} : sauvé !",
    "ev.medkit.failed": "la trousse de {player} donne {face} : pas de chance", "ev.overrun": "{player} est submergé",
    "ev.overrun.life": "{player} est submergé et perd une vie (reste {lives})",
    "ev.eliminated": "{player} est éliminé : zombifié", "ev.level": "le niveau d'Apocalypse monte à {level}",
    "ev.zombified_roll": "{player}, zombifié, lance {face}", "ev.game_over": "Fin de la partie : {players}, le dernier survivant !",
}

_DE: dict[str, str] = {
    "colour.red": "Rot", "colour.blue": "Blau", "colour.green": "Grün", "colour.yellow": "Gelb",
    "colour.purple": "Lila", "colour.orange": "Orange",
    "token.axe": "Axt", "token.chainsaw": "Kettensäge", "token.flare": "Leuchtfackel", "token.pistol": "Pistole",
    "token.medkit": "Verbandskasten", "token.radio": "Funkgerät", "token.barricade": "Barrikade", "token.hero": "Heldenmarker",
    "token.apocalypse": "Apokalypse-Marker", "token.night": "Nacht-Marker", "token.day": "Tag-Marker",
    "token.none": "keiner / weiter",
    "type.zombie": "Zombie", "type.shoot": "Schuss", "type.object": "Gegenstand", "type.barricade": "Barrikade",
    "face.blank": "leer", "face.ambush": "Hinterhalt", "face.zombie1": "1 Zombie", "face.zombie2": "2 Zombies",
    "face.bang1": "1 Bang", "face.bang2": "2 Bang", "face.bang1plus": "1 Bang +", "face.object": "Gegenstand",
    "face.barricade": "Barrikade",
    "status.bot": "Bot", "status.keyboard": "Tastatur", "status.to_act": "entscheidet", "status.unlock": "erst entriegeln",
    "status.waiting": "kein Controller", "status.lost": "Controller weg", "status.eliminated": "zombifiziert",
    "status.winner": "der letzte Überlebende!", "status.ready": "bereit", "status.drawing": "zieht",
    "ui.dice": "Würfel", "ui.events": "Was geschah", "ui.level": "Apokalypse-Stufe", "ui.bag": "Marker im Beutel",
    "ui.tray": "Würfelschale", "ui.pool": "Vorrat", "ui.turn": "{player} ist am Zug", "ui.lives": "Leben {n}",
    "ui.zombified": "ZOMBIFIZIERT", "ui.in_front": "vor sich", "ui.chain": "„+“-Nachwürfe", "ui.medkit": "Wurf des Verbandskastens",
    "ui.night": "Nacht", "ui.winner": "Sieg: {players}", "ui.no_winner": "Kein Sieger",
    "ui.refused": "Abgelehnt: {reason}. Entriegeln und noch einmal.", "ui.marked": "markiert: {dice}",
    "ui.score": "{n:# Punkt|# Punkte}", "word.and": "und",
    "banner.paused": "Pause: der Controller von {players} ist weg", "banner.keyboard": "{player} an der Tastatur",
    "pad.hidden": "(Tab zeigt den gezogenen Marker)", "pad.keys": "←/→ Rad · ↑/↓ drehen · Enter verriegeln · Rücktaste öffnen",
    "prompt.waiting": "Warte auf Controller: {players}",
    "prompt.first": "Wer hat zuletzt einen Zombie gesehen? Diese Person verriegelt zum Start",
    "prompt.setup": "{player}: den gezogenen Marker legen (dein Controller zeigt ihn): Gegenstand offen oder Barrikade verdeckt",
    "prompt.before": "{player}: ein Marker vor dem Wurf? (0 = weiter)",
    "prompt.dice": "{player}: {needed} Würfel wählen (der Rest Zombiewürfel); {forced:# Zombiewürfel ist|# Zombiewürfel sind} Pflicht",
    "prompt.after": "{player}: ein Marker nach dem Wurf? (0 = weiter)",
    "prompt.draw": "{player}: für ein Gegenstand-Ergebnis ziehen? (noch {results})",
    "prompt.before_shoot": "{player}: ein Marker vor dem Schießen? (0 = weiter)",
    "prompt.shoot": "{player}: schieß! noch {bangs} Bang",
    "prompt.before_barricades": "{player}: ein Marker vor den Barrikaden? (0 = weiter)",
    "prompt.give": "{player}: einen Zombiewürfel nach links geben? ({results:# Barrikade|# Barrikaden})",
    "prompt.draw_barricades": "{player}: verdeckte Marker für ungenutzte Barrikaden ziehen? (bis {results})",
    "prompt.keep": "{player}: mehr als 3 Marker: einen abwerfen",
    "prompt.bag": "{player}: einen Marker aus dem echten Beutel ziehen und eingeben",
    "prompt.showing": "…", "prompt.finished": "Spielende: {players}",
    "wheel.left": "links", "wheel.centre": "Mitte", "wheel.right": "rechts",
    "wheel.side": "1 Gegenstand (offen) · 2 Barrikade (verdeckt)",
    "wheel.token": "Marker: 0 weiter · 1 Axt · 2 Kettensäge · 3 Fackel · 4 Pistole · 6 Funk · 7 Barrikade · 8 Held",
    "wheel.group_or_type": "Gruppe 1 F · 2 Z · 3 S · 4 O · 5 B (Funk: Typ des 1. Würfels 2-5)",
    "wheel.number_or_type": "Würfelnummer (Funk: Typ des 2. Würfels 2-5)",
    "wheel.group": "Gruppe 1 F · 2 Z · 3 S · 4 O · 5 B (Held: 0 markierte neu · 15 alle)",
    "wheel.number": "Würfelnummer",
    "wheel.shoot_dice": "Schusswürfel 0-3", "wheel.object_dice": "Gegenstandswürfel 0-3",
    "wheel.barricade_dice": "Barrikadenwürfel 0-3",
    "wheel.draw_or_stop": "1 ziehen (n: n ziehen) · 0 aufhören", "wheel.bangs": "Bang auf diesen Würfel (0 = aufhören)",
    "wheel.give_or_stop": "1 geben · 0 aufhören", "wheel.draws": "Marker zu ziehen",
    "wheel.discard": "Code des abzuwerfenden Markers", "wheel.bag_token": "1-6 der Gegenstand · 9 Apokalypse · 10 Nacht · 11 Tag",
    "refuse.bag_token": "das ist kein Marker des Beutels", "refuse.side": "1 Gegenstand oder 2 Barrikade",
    "refuse.too_many_dice": "mehr Würfel als erlaubt", "refuse.draw": "1 zieht, 0 hört auf",
    "refuse.no_label": "kein Würfel trägt diese Bezeichnung", "refuse.give": "1 gibt, 0 hört auf",
    "refuse.not_a_token": "kein Marker hat diesen Code", "refuse.radio_types": "das Funkgerät braucht zwei Würfeltypen (2-5)",
    "refuse.nothing_to_decide": "nichts zu entscheiden", "refuse.not_in_bag": "davon ist keiner mehr im Beutel",
    "refuse.hero_none": "erst Würfel markieren (oder 15: alle)", "refuse.marked": "dieser Würfel ist schon markiert",
    "code.not_your_turn": "du bist nicht am Zug", "code.game_over": "das Spiel ist vorbei",
    "code.dice_count": "nicht genau 4 gewählte Würfel", "code.not_in_pool": "der Vorrat hat diese Würfel nicht",
    "code.not_held": "du hast diesen Marker nicht", "code.wrong_moment": "dieser Marker geht jetzt nicht",
    "code.no_die": "dieser Würfel ist nicht hier", "code.ambush_die": "ein Hinterhalt-Würfel kann nicht weitergegeben werden",
    "code.no_target": "dieser Marker hat kein Ziel", "code.wrong_count": "falsche Zahl von Würfeln oder Markern",
    "code.too_many_draws": "mehr Züge als Ergebnisse", "code.too_many_bangs": "mehr Bang als vorhanden oder nötig",
    "code.too_many_gives": "mehr Würfel als Barrikaden", "code.zombies_in_front": "es liegt noch etwas vor dir",
    "code.not_an_answer": "das ist keine Antwort auf diese Frage",
    "why.the third apocalypse token": "der dritte Apokalypse-Marker", "why.one player left": "nur noch eine Person übrig",
    "ev.started": "Neues Spiel", "ev.resumed": "Spiel in Runde {turn} fortgesetzt", "ev.back": "Der Controller von {player} ist zurück",
    "ev.lost": "Der Controller von {player} ist weg: Pause", "ev.rejected": "ein Controller abgelehnt ({reason})",
    "ev.unknown": "({kind})",
    "ev.setup_draw.object": "{player} legt {token} offen aus", "ev.setup_draw.barricade": "{player} legt einen Marker verdeckt (Barrikade)",
    "ev.starting_zombie": "{player} beginnt mit einem 1-Zombie-Würfel vor sich",
    "ev.turn": "{player} ist am Zug (Apokalypse-Stufe {level})", "ev.token_used": "{player} nutzt {token}",
    "ev.given": "{player} gibt {dice} an {to}", "ev.radios_back": "die Funkgeräte gehen an {player} zurück",
    "ev.dice_taken": "{player} nimmt {forced} Pflicht-Zombiewürfel und wählt {chosen}",
    "dice.zombie": "{n} Zombiewürfel", "dice.shoot": "{n} Schusswürfel",
    "dice.object": "{n} Gegenstandswürfel", "dice.barricade": "{n} Barrikadenwürfel",
    "ev.rolled": "{player} würfelt: {faces}", "ev.rerolled": "{player} würfelt neu: {faces}",
    "ev.assigned.both": "{player} erhält {ambush} Hinterhalt-Würfel; {left} erhält {zombies:# Zombie|# Zombies}",
    "ev.assigned.ambush": "{player} erhält {ambush} Hinterhalt-Würfel",
    "ev.assigned.zombies": "{left} erhält {zombies:# Zombie|# Zombies}",
    "ev.assigned.none": "{player}: weder Zombies noch Hinterhalt",
    "ev.drew": "{player} zieht {token}", "ev.drew_face_down": "{player} zieht einen Marker und legt ihn verdeckt",
    "ev.bag_empty": "{player} findet den Beutel leer", "ev.apocalypse": "{player} zieht einen Apokalypse-Marker: Stufe {level}!",
    "ev.night": "{player} zieht den Nacht-Marker: es wird Nacht, Stufe {level}",
    "ev.day": "{player} zieht den Tag-Marker: es wird Tag, Stufe {level}",
    "ev.bangs": "{player} hat {bangs} Bang", "ev.shot": "{player} schießt auf {die} mit {bangs} Bang",
    "ev.shot.cleared": "{player} schießt auf {die} mit {bangs} Bang: frei",
    "ev.hero_gained": "{player} erhält einen Heldenmarker", "ev.barricades": "{player} hat {results:# Barrikade|# Barrikaden}",
    "ev.discarded": "{player} wirft {tokens} ab", "ev.medkit.saved": "der Verbandskasten von {player} zeigt {face}: gerettet!",
    "ev.medkit.failed": "der Verbandskasten von {player} zeigt {face}: Pech", "ev.overrun": "{player} wird überrannt",
    "ev.overrun.life": "{player} wird überrannt und verliert ein Leben (noch {lives})",
    "ev.eliminated": "{player} ist raus: zombifiziert", "ev.level": "die Apokalypse-Stufe steigt auf {level}",
    "ev.zombified_roll": "{player}, zombifiziert, würfelt {face}", "ev.game_over": "Spielende: {players}, der letzte Überlebende!",
}

CATALOGUES: dict[str, dict[str, str]] = {"en": _EN, "es": _ES, "fr": _FR, "de": _DE}


class _Safe(dict):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


# which counts take the singular form of ``{n:singular|plural}``
SINGULAR: dict[str, Callable[[int], bool]] = {
    "en": lambda n: n == 1, "es": lambda n: n == 1, "de": lambda n: n == 1, "fr": lambda n: abs(n) < 2}


class _Formatter(string.Formatter):
    """str.format_map, plus ``{n:one|many}`` (``#`` in either form is the number)."""

    def __init__(self, singular: Callable[[int], bool]) -> None:
        self.singular = singular

    def format_field(self, value: Any, format_spec: str) -> str:
        if "|" not in format_spec:
            return super().format_field(value, format_spec)
        one, _, many = format_spec.partition("|")
        number = isinstance(value, int) and not isinstance(value, bool)
        form = one if number and self.singular(value) else many
        return form.replace("#", str(value))


class Lang:
    """One language: ``t(key, **data)`` for the interface, ``event(kind, data)`` for a log
    line. Never raises on unknown keys or odd data."""

    def __init__(self, code: str = "en") -> None:
        if code not in CATALOGUES:
            raise ValueError(f"unknown language {code!r} (known: {', '.join(LANGUAGES)})")
        self.code = code
        self._cat = CATALOGUES[code]
        self._formatter = _Formatter(SINGULAR[code])

    def t(self, key: str, **data: Any) -> str:
        text = self._cat.get(key) or _EN.get(key) or key
        try:
            return self._formatter.vformat(text, (), _Safe(data))
        except (ValueError, IndexError, AttributeError, KeyError, TypeError):
            return text

    def player(self, name: Any) -> str:
        return self._cat.get(f"colour.{name}") or str(name).capitalize()

    def players(self, names: Any) -> str:
        names = [self.player(n) for n in (names or [])]
        if len(names) <= 1:
            return "".join(names)
        return f"{', '.join(names[:-1])} {self.t('word.and')} {names[-1]}"

    def token(self, token: Any) -> str:
        return self._cat.get(f"token.{'none' if token is None else token}") or str(token)

    def face(self, face: Any) -> str:
        return self._cat.get(f"face.{face}") or str(face)

    def type(self, t: Any) -> str:
        return self._cat.get(f"type.{t}") or str(t)

    def dice(self, dice: Any) -> str:
        """``[[id, face], ...]`` as "Z1 (2 zombies), S2 (1 bang)"."""
        return ", ".join(f"{str(i).upper()} ({self.face(f)})" for i, f in dice) or "—"

    # ---- events
    def event(self, kind: str, data: Mapping[str, Any] | None = None) -> str:
        try:
            return self._event(kind, dict(data or {}))
        except Exception:                       # a malformed entry still gives a line
            return self.t("ev.unknown", kind=kind)

    def _event(self, kind: str, d: dict[str, Any]) -> str:
        t = self.t
        for k in ("player", "to", "left"):
            if k in d and isinstance(d[k], str):
                d[k] = self.player(d[k])
        if kind == "setup_draw":
            return t(f"ev.setup_draw.{'object' if d.get('side') == 'object' else 'barricade'}", player=d["player"],
                     token=self.token(d.get("token")))
        if kind in ("token_used", "drew"):
            line = t(f"ev.{kind}", player=d["player"], token=self.token(d.get("token")))
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
        if kind == "game_over":
            return t("ev.game_over", players=self.players(d.get("winners", [])))
        if kind in ("lost", "back"):
            return t(f"ev.{kind}", player=d.get("player"))
        if f"ev.{kind}" in _EN:
            return t(f"ev.{kind}", **d)
        return t("ev.unknown", kind=kind)


def all_strings(code: str) -> list[str]:
    """Every string of a language (the glyph test renders them)."""
    return list(CATALOGUES[code].values())
