"""Last One Alive's log in plain table words (issue 20): a die is named as a player says it,
never by its code (F4, Z3); the faces of the "+" re-rolls, why a die was re-rolled and which
die a chainsaw discards are said, in the four languages — and a whole bots game's log, from
the first roll to the winner, has no die code in it."""
from __future__ import annotations

import re

import pytest

from lastonealive.words import LANGUAGES, Lang

from .test_table import Table

CODE = re.compile(r"\b[FZSOBfzsob]\d+\b")          # a die's code as the screen labels it


@pytest.mark.parametrize("code", LANGUAGES)
def test_dice_are_named_and_the_why_is_said(code):
    L = Lang(code)
    lines = {
        "shot": L.event("shot", {"player": "red", "die": "f4", "bangs": 1, "cleared": False, "face": "zombie1"}),
        "rolled": L.event("rolled", {"player": "red", "dice": [["z3", "blank"], ["s1", "bang1plus"], ["o2", "ambush"],
                                                               ["b1", "barricade"]]}),
        "chain": L.event("bangs", {"player": "red", "bangs": 3, "chain": ["bang1plus", "bang2"]}),
        "hero": L.event("rerolled", {"player": "red", "dice": [["z1", "zombie2"]], "why": "hero"}),
        "pistol": L.event("rerolled", {"player": "red", "dice": [["s2", "bang2"]], "why": "pistol"}),
        "chainsaw": L.event("token_used", {"player": "red", "token": "chainsaw", "die": "o2", "what": "…"}),
        "radio": L.event("token_used", {"player": "red", "token": "radio", "types": ["shoot", "barricade"], "what": "…"}),
    }
    for kind, line in lines.items():
        assert not CODE.search(line), (kind, line)
    assert L.die("z3") in lines["rolled"] and L.die("b1") in lines["rolled"]
    assert L.die("f4") in lines["shot"] and L.die("o2") in lines["chainsaw"]
    assert L.face("bang1plus") in lines["chain"] and L.face("bang2") in lines["chain"]      # the "+" re-rolls' faces
    assert lines["hero"] != lines["pistol"].replace(L.die("s2"), L.die("z1"))               # why it was re-rolled
    assert L.type("barricade") in lines["radio"]
    assert len({L.die(i) for i in ("z1", "s1", "o1", "b1", "f1")}) == 5


def test_english_says_them_as_a_player_does():
    L = Lang("en")
    assert L.die("z3") == "zombie die 3" and L.die("f4") == "die 4 in front" and L.die("?") == "?"
    assert L.event("bangs", {"player": "red", "bangs": 3, "chain": ["bang1plus", "bang2"]}) == \
        'Red re-rolls the "+" dice: 1 bang +, 2 bangs; 3 bangs in all'
    assert L.event("token_used", {"player": "red", "token": "chainsaw", "die": "o2", "what": "…"}) == \
        "Red uses a chainsaw: the ambush on object die 2 is discarded and the die goes back to the pool"
    assert L.event("rerolled", {"player": "red", "dice": [["s2", "bang2"]], "why": "pistol"}) == \
        "Red re-rolls with the pistol: shoot die 2 (2 bangs)"


def test_a_whole_game_log_names_no_die_by_its_code():
    t = Table(["bot"] * 4, seed=11)
    seen: list = []                               # every entry (the session keeps only the last ones)
    for _ in range(4000):
        t.step(1)
        seen += [e for e in t.s.log if not any(e is x for x in seen[-len(t.s.log):])]
        if t.s.finished:
            break
    assert t.s.finished
    kinds = {e.kind for e in seen}
    assert {"rolled", "bangs", "given"} <= kinds, kinds           # dice named in rolls, bangs and gifts
    for code in LANGUAGES:
        L = Lang(code)
        coded = [line for line in (L.event(e.kind, e.data) for e in seen) if CODE.search(line)]
        assert not coded, (code, coded[:3])
