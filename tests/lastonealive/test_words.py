"""Counts agree with their nouns in every language of lastonealive/words.py, and in the
engine's own event text (lastonealive/rules/events.py): every count-bearing message of the
catalogue rendered with 1 and with 2."""
from __future__ import annotations

import pytest

from lastonealive.rules import Event
from lastonealive.words import LANGUAGES, Lang

TYPES = ("zombie", "shoot", "object", "barricade")
COUNTS = {"bangs", "results", "forced", "needed", "ambush", "zombies", "n", "lives"}   # fields that are counts
KEYS_OF_EVENTS = {"ev.dice_taken": ("dice.zombie", "dice.shoot", "dice.object", "dice.barricade",
                                    "ev.dice_taken.forced"),
                  "prompt.dice": ("prompt.dice.needed", "prompt.dice.forced"),
                  "ev.assigned.both": ("ev.assigned.both.ambush", "ev.assigned.both.zombies")}

RENDER = {
    "prompt.dice": lambda L, n: L.t("prompt.dice", player="Red", needed=n, forced=n),
    "prompt.shoot": lambda L, n: L.t("prompt.shoot", player="Red", bangs=n),
    "prompt.give": lambda L, n: L.t("prompt.give", player="Red", results=n),
    "prompt.draw": lambda L, n: L.t("prompt.draw", player="Red", results=n),
    "prompt.draw_barricades": lambda L, n: L.t("prompt.draw_barricades", player="Red", results=n),
    "ui.score": lambda L, n: L.t("ui.score", n=n),
    "ui.lives": lambda L, n: L.t("ui.lives", n=n),
    "ev.dice_taken": lambda L, n: L.event("dice_taken", {"player": "red", "forced": n,
                                                         "chosen": [[t, n] for t in TYPES]}),
    "ev.assigned.both": lambda L, n: L.event("assigned", {"player": "red", "left": "blue",
                                                          "ambush": [f"z{i}" for i in range(n)], "zombies": n}),
    "ev.assigned.ambush": lambda L, n: L.event("assigned", {"player": "red", "left": "blue",
                                                            "ambush": [f"z{i}" for i in range(n)], "zombies": 0}),
    "ev.assigned.zombies": lambda L, n: L.event("assigned", {"player": "red", "left": "blue", "ambush": [],
                                                             "zombies": n}),
    "ev.bangs": lambda L, n: L.event("bangs", {"player": "red", "bangs": n}),
    "ev.shot": lambda L, n: L.event("shot", {"player": "red", "die": "z1", "bangs": n, "cleared": False,
                                             "face": "zombie2"}),
    "ev.shot.cleared": lambda L, n: L.event("shot", {"player": "red", "die": "z1", "bangs": n, "cleared": True}),
    "ev.bangs.plus": lambda L, n: L.event("bangs", {"player": "red", "bangs": n, "chain": ["bang1", "blank"]}),
    "ev.bangs.doubled": lambda L, n: L.event("bangs", {"player": "red", "bangs": n, "doublings": 1}),
    "ev.bangs.plus.doubled": lambda L, n: L.event("bangs", {"player": "red", "bangs": n, "chain": ["bang2"], "doublings": 1}),
    "ev.barricades": lambda L, n: L.event("barricades", {"player": "red", "results": n}),
    "ev.overrun.life": lambda L, n: L.event("overrun", {"player": "red", "lives": n}),
}

# "Bang" is the rulebooks' name of the symbol in Spanish, French and German: it does not
# change ("2 Bang"), as on the die faces (face.bang2); German "Würfel" is both numbers.
EXPECTED = {
    ('en', 'prompt.dice'): ('Red: choose 1 die (the rest are zombie dice); 1 forced zombie die',
        'Red: choose 2 dice (the rest are zombie dice); 2 forced zombie dice'),
    ('en', 'prompt.shoot'): ('Red: shoot! 1 bang left',
        'Red: shoot! 2 bangs left'),
    ('en', 'prompt.give'): ('Red: give a zombie die to the left? (1 barricade result)',
        'Red: give a zombie die to the left? (2 barricade results)'),
    ('en', 'prompt.draw'): ('Red: draw a token for an object result? (1 left)',
        'Red: draw a token for an object result? (2 left)'),
    ('en', 'prompt.draw_barricades'): ('Red: draw face-down tokens for unused barricades? (up to 1)',
        'Red: draw face-down tokens for unused barricades? (up to 2)'),
    ('en', 'ui.score'): ('score 1',
        'score 2'),
    ('en', 'ui.lives'): ('lives 1',
        'lives 2'),
    ('en', 'ev.dice_taken'): ('Red takes 1 forced zombie die and chooses 1 zombie die, 1 shoot die, 1 object die, 1 barricade die',
        'Red takes 2 forced zombie dice and chooses 2 zombie dice, 2 shoot dice, 2 object dice, 2 barricade dice'),
    ('en', 'ev.assigned.both'): ('Red gets 1 ambush die; Blue gets 1 zombie',
        'Red gets 2 ambush dice; Blue gets 2 zombies'),
    ('en', 'ev.assigned.ambush'): ('Red gets 1 ambush die',
        'Red gets 2 ambush dice'),
    ('en', 'ev.assigned.zombies'): ('Blue gets 1 zombie',
        'Blue gets 2 zombies'),
    ('en', 'ev.bangs'): ('Red has 1 bang',
        'Red has 2 bangs'),
    ('en', 'ev.shot'): ('Red shoots zombie die 1 with 1 bang',
        'Red shoots zombie die 1 with 2 bangs'),
    ('en', 'ev.shot.cleared'): ('Red shoots zombie die 1 with 1 bang: cleared',
        'Red shoots zombie die 1 with 2 bangs: cleared'),
    ('en', 'ev.bangs.plus'): ('Red re-rolls the "+" dice: 1 bang, blank; 1 bang in all',
        'Red re-rolls the "+" dice: 1 bang, blank; 2 bangs in all'),
    ('en', 'ev.bangs.doubled'): ('Red has 1 bang (pistol: bangs count double)',
        'Red has 2 bangs (pistol: bangs count double)'),
    ('en', 'ev.bangs.plus.doubled'): ('Red re-rolls the "+" dice: 2 bangs; 1 bang in all, counted double',
        'Red re-rolls the "+" dice: 2 bangs; 2 bangs in all, counted double'),
    ('en', 'ev.barricades'): ('Red has 1 barricade result',
        'Red has 2 barricade results'),
    ('en', 'ev.overrun.life'): ('Red is overrun and loses a life (1 left)',
        'Red is overrun and loses a life (2 left)'),
    ('es', 'prompt.dice'): ('Red: elige 1 dado (el resto, dados de Zombi); 1 dado de Zombi obligado',
        'Red: elige 2 dados (el resto, dados de Zombi); 2 dados de Zombi obligados'),
    ('es', 'prompt.shoot'): ('Red: ¡dispara! queda 1 Bang',
        'Red: ¡dispara! quedan 2 Bang'),
    ('es', 'prompt.give'): ('Red: ¿pasar un dado de Zombi al jugador de tu izquierda? (1 barricada)',
        'Red: ¿pasar un dado de Zombi al jugador de tu izquierda? (2 barricadas)'),
    ('es', 'prompt.draw'): ('Red: ¿robar una ficha por un objeto? (queda 1)',
        'Red: ¿robar una ficha por un objeto? (quedan 2)'),
    ('es', 'prompt.draw_barricades'): ('Red: ¿robar fichas boca abajo por barricadas sin usar? (hasta 1)',
        'Red: ¿robar fichas boca abajo por barricadas sin usar? (hasta 2)'),
    ('es', 'ui.score'): ('1 punto',
        '2 puntos'),
    ('es', 'ui.lives'): ('vidas 1',
        'vidas 2'),
    ('es', 'ev.dice_taken'): ('Rojo toma 1 dado de Zombi obligado y elige 1 dado de Zombi, 1 dado de Disparo, 1 dado de Objeto, 1 dado de Barricada',
        'Rojo toma 2 dados de Zombi obligados y elige 2 dados de Zombi, 2 dados de Disparo, 2 dados de Objeto, 2 dados de Barricada'),
    ('es', 'ev.assigned.both'): ('Rojo recibe 1 dado de emboscada; Azul recibe 1 zombi',
        'Rojo recibe 2 dados de emboscada; Azul recibe 2 zombis'),
    ('es', 'ev.assigned.ambush'): ('Rojo recibe 1 dado de emboscada',
        'Rojo recibe 2 dados de emboscada'),
    ('es', 'ev.assigned.zombies'): ('Azul recibe 1 zombi',
        'Azul recibe 2 zombis'),
    ('es', 'ev.bangs'): ('Rojo tiene 1 Bang',
        'Rojo tiene 2 Bang'),
    ('es', 'ev.shot'): ('Rojo dispara al dado de Zombi 1 con 1 Bang',
        'Rojo dispara al dado de Zombi 1 con 2 Bang'),
    ('es', 'ev.shot.cleared'): ('Rojo dispara al dado de Zombi 1 con 1 Bang: despejado',
        'Rojo dispara al dado de Zombi 1 con 2 Bang: despejado'),
    ('es', 'ev.bangs.plus'): ('Rojo relanza los «+»: 1 Bang, vacía; 1 Bang en total',
        'Rojo relanza los «+»: 1 Bang, vacía; 2 Bang en total'),
    ('es', 'ev.bangs.doubled'): ('Rojo tiene 1 Bang (pistola: los Bang cuentan doble)',
        'Rojo tiene 2 Bang (pistola: los Bang cuentan doble)'),
    ('es', 'ev.bangs.plus.doubled'): ('Rojo relanza los «+»: 2 Bang; 1 Bang en total, contados doble',
        'Rojo relanza los «+»: 2 Bang; 2 Bang en total, contados doble'),
    ('es', 'ev.barricades'): ('Rojo tiene 1 barricada',
        'Rojo tiene 2 barricadas'),
    ('es', 'ev.overrun.life'): ('Rojo es superado y pierde una vida (le queda 1)',
        'Rojo es superado y pierde una vida (le quedan 2)'),
    ('fr', 'prompt.dice'): ('Red : choisissez 1 dé (le reste en dés Zombie) ; 1 dé Zombie imposé',
        'Red : choisissez 2 dés (le reste en dés Zombie) ; 2 dés Zombie imposés'),
    ('fr', 'prompt.shoot'): ('Red : tirez ! encore 1 Bang',
        'Red : tirez ! encore 2 Bang'),
    ('fr', 'prompt.give'): ('Red : passer un dé Zombie au joueur de gauche ? (1 barricade)',
        'Red : passer un dé Zombie au joueur de gauche ? (2 barricades)'),
    ('fr', 'prompt.draw'): ('Red : piocher un jeton pour un résultat objet ? (encore 1)',
        'Red : piocher un jeton pour un résultat objet ? (encore 2)'),
    ('fr', 'prompt.draw_barricades'): ("Red : piocher des jetons face cachée pour les barricades inutilisées ? (jusqu'à 1)",
        "Red : piocher des jetons face cachée pour les barricades inutilisées ? (jusqu'à 2)"),
    ('fr', 'ui.score'): ('1 point',
        '2 points'),
    ('fr', 'ui.lives'): ('vies 1',
        'vies 2'),
    ('fr', 'ev.dice_taken'): ('Rouge prend 1 dé Zombie imposé et choisit 1 dé Zombie, 1 dé Tir, 1 dé Objet, 1 dé Barricade',
        'Rouge prend 2 dés Zombie imposés et choisit 2 dés Zombie, 2 dés Tir, 2 dés Objet, 2 dés Barricade'),
    ('fr', 'ev.assigned.both'): ('Rouge reçoit 1 dé embuscade ; Bleu reçoit 1 zombie',
        'Rouge reçoit 2 dés embuscade ; Bleu reçoit 2 zombies'),
    ('fr', 'ev.assigned.ambush'): ('Rouge reçoit 1 dé embuscade',
        'Rouge reçoit 2 dés embuscade'),
    ('fr', 'ev.assigned.zombies'): ('Bleu reçoit 1 zombie',
        'Bleu reçoit 2 zombies'),
    ('fr', 'ev.bangs'): ('Rouge a 1 Bang',
        'Rouge a 2 Bang'),
    ('fr', 'ev.shot'): ('Rouge tire sur le dé Zombie 1 avec 1 Bang',
        'Rouge tire sur le dé Zombie 1 avec 2 Bang'),
    ('fr', 'ev.shot.cleared'): ('Rouge tire sur le dé Zombie 1 avec 1 Bang : dégagé',
        'Rouge tire sur le dé Zombie 1 avec 2 Bang : dégagé'),
    ('fr', 'ev.bangs.plus'): ('Rouge relance les « + » : 1 Bang, vide ; 1 Bang en tout',
        'Rouge relance les « + » : 1 Bang, vide ; 2 Bang en tout'),
    ('fr', 'ev.bangs.doubled'): ('Rouge a 1 Bang (pistolet : les Bang comptent double)',
        'Rouge a 2 Bang (pistolet : les Bang comptent double)'),
    ('fr', 'ev.bangs.plus.doubled'): ('Rouge relance les « + » : 2 Bang ; 1 Bang en tout, comptés double',
        'Rouge relance les « + » : 2 Bang ; 2 Bang en tout, comptés double'),
    ('fr', 'ev.barricades'): ('Rouge a 1 barricade',
        'Rouge a 2 barricades'),
    ('fr', 'ev.overrun.life'): ('Rouge est submergé et perd une vie (reste 1)',
        'Rouge est submergé et perd une vie (reste 2)'),
    ('de', 'prompt.dice'): ('Red: 1 Würfel wählen (der Rest Zombiewürfel); 1 Zombiewürfel ist Pflicht',
        'Red: 2 Würfel wählen (der Rest Zombiewürfel); 2 Zombiewürfel sind Pflicht'),
    ('de', 'prompt.shoot'): ('Red: schieß! noch 1 Bang',
        'Red: schieß! noch 2 Bang'),
    ('de', 'prompt.give'): ('Red: einen Zombiewürfel nach links geben? (1 Barrikade)',
        'Red: einen Zombiewürfel nach links geben? (2 Barrikaden)'),
    ('de', 'prompt.draw'): ('Red: für ein Gegenstand-Ergebnis ziehen? (noch 1)',
        'Red: für ein Gegenstand-Ergebnis ziehen? (noch 2)'),
    ('de', 'prompt.draw_barricades'): ('Red: verdeckte Marker für ungenutzte Barrikaden ziehen? (bis 1)',
        'Red: verdeckte Marker für ungenutzte Barrikaden ziehen? (bis 2)'),
    ('de', 'ui.score'): ('1 Punkt',
        '2 Punkte'),
    ('de', 'ui.lives'): ('Leben 1',
        'Leben 2'),
    ('de', 'ev.dice_taken'): ('Rot nimmt 1 Pflicht-Zombiewürfel und wählt 1 Zombiewürfel, 1 Schusswürfel, 1 Gegenstandswürfel, 1 Barrikadenwürfel',
        'Rot nimmt 2 Pflicht-Zombiewürfel und wählt 2 Zombiewürfel, 2 Schusswürfel, 2 Gegenstandswürfel, 2 Barrikadenwürfel'),
    ('de', 'ev.assigned.both'): ('Rot erhält 1 Hinterhalt-Würfel; Blau erhält 1 Zombie',
        'Rot erhält 2 Hinterhalt-Würfel; Blau erhält 2 Zombies'),
    ('de', 'ev.assigned.ambush'): ('Rot erhält 1 Hinterhalt-Würfel',
        'Rot erhält 2 Hinterhalt-Würfel'),
    ('de', 'ev.assigned.zombies'): ('Blau erhält 1 Zombie',
        'Blau erhält 2 Zombies'),
    ('de', 'ev.bangs'): ('Rot hat 1 Bang',
        'Rot hat 2 Bang'),
    ('de', 'ev.shot'): ('Rot schießt auf den Zombiewürfel 1 mit 1 Bang',
        'Rot schießt auf den Zombiewürfel 1 mit 2 Bang'),
    ('de', 'ev.shot.cleared'): ('Rot schießt auf den Zombiewürfel 1 mit 1 Bang: frei',
        'Rot schießt auf den Zombiewürfel 1 mit 2 Bang: frei'),
    ('de', 'ev.bangs.plus'): ('Rot würfelt die „+“ neu: 1 Bang, leer; insgesamt 1 Bang',
        'Rot würfelt die „+“ neu: 1 Bang, leer; insgesamt 2 Bang'),
    ('de', 'ev.bangs.doubled'): ('Rot hat 1 Bang (Pistole: Bang zählen doppelt)',
        'Rot hat 2 Bang (Pistole: Bang zählen doppelt)'),
    ('de', 'ev.bangs.plus.doubled'): ('Rot würfelt die „+“ neu: 2 Bang; insgesamt 1 Bang, doppelt gezählt',
        'Rot würfelt die „+“ neu: 2 Bang; insgesamt 2 Bang, doppelt gezählt'),
    ('de', 'ev.barricades'): ('Rot hat 1 Barrikade',
        'Rot hat 2 Barrikaden'),
    ('de', 'ev.overrun.life'): ('Rot wird überrannt und verliert ein Leben (noch 1)',
        'Rot wird überrannt und verliert ein Leben (noch 2)'),
}


def test_every_count_bearing_message_of_the_catalogue_is_checked():
    from bitbox.i18n import english
    messages = english(Lang.LOCALEDIR, Lang.DOMAIN)
    covered = set(RENDER) | {k for keys in KEYS_OF_EVENTS.values() for k in keys}
    plural = {k for k, m in messages.items() if m.plural is not None}
    assert plural <= covered, sorted(plural - covered)
    # a count shown in a message that has no plural forms is a count shown without agreement
    bare = {k for k, m in messages.items() if m.plural is None and m.fields() & COUNTS} - set(KEYS_OF_EVENTS)
    assert bare <= {"ui.lives", "prompt.draw_barricades"}, sorted(bare)   # "lives 2", "(up to 2)": no noun to agree


@pytest.mark.parametrize("code", LANGUAGES)
@pytest.mark.parametrize("key", sorted(RENDER))
def test_a_count_of_1_and_of_2_agree_with_their_nouns(code, key):
    L = Lang(code)
    assert (RENDER[key](L, 1), RENDER[key](L, 2)) == EXPECTED[(code, key)]


def test_french_takes_the_singular_for_0_and_english_the_plural():
    assert Lang("fr").t("ui.score", n=0) == "0 point" and Lang("en").event("bangs", {"player": "red", "bangs": 0}) == "Red has 0 bangs"


def test_no_zombie_and_no_ambush_is_said_in_words():
    data = {"player": "red", "left": "blue", "ambush": [], "zombies": 0}
    assert [Lang(c).event("assigned", data) for c in LANGUAGES] == [
        "Red: no zombie and no ambush", "Rojo: ni zombis ni emboscadas", "Rouge : ni zombie ni embuscade",
        "Rot: weder Zombies noch Hinterhalt"]


def test_a_count_missing_or_not_a_number_still_gives_a_line():
    assert Lang("en").t("prompt.shoot", player="Red") == "Red: shoot! {bangs} bangs left"
    assert Lang("de").t("ui.score", n="x") == "x Punkte"


@pytest.mark.parametrize("n,expected", [
    (1, ["red takes 1 forced zombie die and chooses 1 shoot die, 1 barricade die",
         "red gets 1 ambush die and blue gets 1 zombie", "red has 1 bang",
         "red shoots z1 with 1 bang: it is cleared", "red has 1 barricade result"]),
    (2, ["red takes 2 forced zombie dice and chooses 2 shoot dice, 2 barricade dice",
         "red gets 2 ambush dice and blue gets 2 zombies", "red has 2 bangs",
         "red shoots z1 with 2 bangs: it is cleared", "red has 2 barricade results"]),
])
def test_the_engines_own_event_text_agrees_too(n, expected):
    events = [
        Event("dice_taken", {"player": "red", "forced": n, "chosen": [["zombie", 0], ["shoot", n], ["object", 0],
                                                                     ["barricade", n]]}),
        Event("assigned", {"player": "red", "left": "blue", "ambush": [f"z{i}" for i in range(n)], "zombies": n}),
        Event("bangs", {"player": "red", "bangs": n}),
        Event("shot", {"player": "red", "die": "z1", "bangs": n, "cleared": True}),
        Event("barricades", {"player": "red", "results": n}),
    ]
    assert [e.text() for e in events] == expected
