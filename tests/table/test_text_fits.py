"""No text cut or over another at 1280×720, 1920×1080 and 3840×2160, in every language, on
both games' screens and the console's generic one (issue 20, "TV mode").

Every text a screen draws goes through the shell (:meth:`bitbox.display.shell.Shell.text`
and ``blit``), which records where it landed, whether it had to be cut (an ellipsis) and the
icons it must not run into; :meth:`Shell.layout_problems` lists what is wrong. Here each
panel is drawn with its longest words — every status, every prompt with the longest refusal,
every log line, the tiles with the most symbols, five players, night, the chain and the
medkit — headless (SDL's dummy driver), with the real font metrics.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame
import pytest

from bitbox.display.generic import GenericDisplay
from bitbox.display.model import DieShown, LogEntry, PlayerStatus, ShellView
from bitbox.i18n import LANGUAGES
from lastonealive.controls import WHEELS
from lastonealive.display import TableDisplay as LoaDisplay
from lastonealive.rules import events as loa_events
from lastonealive.session import TableView as LoaView
from lastonealive.words import Lang as LoaLang
from outspeed.display import TableDisplay as OutspeedDisplay
from outspeed.display import TableView
from outspeed.rules import events as outspeed_events
from outspeed.words import Lang as OutspeedLang

from .helpers import new_game

SIZES = ((1280, 720), (1920, 1080), (3840, 2160))
COLOURS = ("red", "blue", "green", "yellow", "purple", "orange")

pygame.display.init()
pygame.font.init()


def longest(lang, keys, **data) -> str:
    """The key whose text is widest in ``lang``."""
    font = pygame.font.Font(None, 20)
    return max(keys, key=lambda k: font.size(lang.t(k, **data))[0])


def problems(display, region: str | None = None) -> list[str]:
    return display.layout_problems(region)


def each_log_window(display, table, make) -> list[str]:
    """The log drawn until every event has shown, each wrapped whole."""
    found: list[str] = []
    k = len(table.log)
    while k > 0:
        display.render_region(make(table.log[:k]), "log")
        found += problems(display, "log")
        assert display.log_shown >= 1, "an event too long for the whole log"
        k -= display.log_shown
    return found


# ---------------------------------------------------------------------------- Outspeed

OUTSPEED_EVENTS = [
    ("turn", {"turn": 13, "tile": "tile 5", "face": "5-6", "number": 14, "finish": True}),
    ("bonus_played", {"player": "purple", "token": "electromagnet"}),
    ("bonus_none", {}),
    ("moved", {"player": "purple", "from": 13, "to": 21, "stopped": True, "why": "bonus"}),
    ("fuel", {"player": "purple", "delta": -12, "why": "ion cannon", "total": 14}),
    ("marker_placed", {"player": "orange", "zone": 19}),
    ("no_marker_left", {"player": "purple"}),
    ("nothing_ahead", {"player": "purple", "token": "flamethrower"}),
    ("board_laid", {"front": 21}),
    ("board_removed", {"first": 1, "last": 7}),
    ("eliminated", {"player": "purple", "cause": "board"}),
    ("programmed", {"player": "purple", "path": "center", "number": 4}),
    ("lose_turn", {"path": "center", "count": 5, "capacity": 1, "players": ["purple", "orange", "yellow", "green", "blue"]}),
    ("solo_alone", {"player": "purple", "path": "center"}),
    ("solo_crowd", {"path": "center", "count": 6}),
    ("roll", {"player": "purple", "die": "yellow", "value": -3}),
    ("pay", {"player": "purple", "amount": 14, "parts": [["", 1], ["yellow die", -3], ["blue die", 6]], "total": 15}),
    ("draw", {"player": "purple", "drawn": 2}),
    ("draw_empty", {"player": "purple"}),
    ("reshuffle", {"count": 19}),
    ("flip", {"remaining": 4}),
    ("markers_removed", {"count": 2, "zone": 19}),
    ("tile_revealed", {"tile": "finish tile 14", "number": 14, "finish": True}),
    ("game_over", {"winners": ["purple", "orange", "yellow"], "why": ""}),
]


def outspeed_tables(code: str) -> list[TableView]:
    L = OutspeedLang(code)
    assert {k for k, _ in OUTSPEED_EVENTS} == set(outspeed_events._TEMPLATES), "a new event kind needs a sample here"
    game = new_game(players=6, seed=3)
    view = game.public_view()
    for p in view["players"]:
        p["fuel"], p["tokens"] = 14, 12
    view["force_fields"], view["markers_left"] = [4, 7, 7], 12
    status = longest(L, [f"status.{s}" for s in ("refused_bonus", "refused", "declared_token", "declared_none", "to_act",
                                                 "unlock", "waiting", "drawing", "ready")]).split(".", 1)[1]
    players = tuple(PlayerStatus(p, kind="keyboard", status=status) for p in COLOURS)
    prompt = longest(L, ["prompt.bonus", "prompt.programming", "prompt.draw", "prompt.waiting", "prompt.showing"],
                     zone=19, players=L.players(COLOURS[:5]), player=L.player("purple"))
    data = {"zone": 19, "players": list(COLOURS[:5]), "player": "purple"}
    dice = (DieShown("purple", "yellow", -3), DieShown("purple", "blue", 6), DieShown("orange", "yellow", -2),
            DieShown("orange", "blue", 5))
    log = tuple(LogEntry(k, d) for k, d in OUTSPEED_EVENTS)
    tables = [TableView(view=view, players=players, stage="programming", prompt=(prompt, data), dice=dice, log=log)]
    out = dict(view, players=[dict(p, active=p["player"] in ("purple", "orange"), zone=None if p["player"] not in
                                   ("purple", "orange") else p.get("zone")) for p in view["players"]],
               finished=True, winners=["purple", "orange"])
    tables.append(TableView(view=out, players=tuple(PlayerStatus(p, status="eliminated") for p in COLOURS), stage="finished",
                            log=log, banner=("banner.paused", {"players": list(COLOURS)})))
    return tables


def outspeed_tiles(view: dict) -> list[dict]:
    """The tiles whose cards hold the most: two costs, two gains, a chosen X with a capacity,
    a solo path, the finish tile."""
    from outspeed.content import load_content
    tiles = load_content().tiles

    def weight(t) -> int:
        n = 0
        for face in t.faces.values():
            for path in face.values():
                if path is None:
                    continue
                n += len(path.cost) + len(path.gain) + 2 * bool(path.choose) + 2 * bool(path.solo)
        return n
    chosen = sorted(tiles, key=weight)[-3:] + [t for t in tiles if t.finish][:1]
    out = []
    for t in chosen:
        for face in t.faces:
            out.append(dict(view, tile=t.to_view() if hasattr(t, "to_view") else view["tile"], face=face))
    return out


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("code", LANGUAGES)
def test_outspeed_text_is_whole_and_apart(code, size):
    d = OutspeedDisplay(size=size, lang=code)
    found = []
    for table in outspeed_tables(code):
        d.render_full(table)
        found += problems(d)
    found += each_log_window(d, table, lambda log: TableView(view=table.view, log=log))
    assert not found, found


# ---------------------------------------------------------------------------- Last One Alive

LOA_EVENTS = [
    ("setup_draw", {"player": "purple", "side": "object", "token": "chainsaw"}),
    ("starting_zombie", {"player": "purple"}),
    ("turn", {"player": "purple", "level": 4}),
    ("token_used", {"player": "purple", "token": "chainsaw", "what": "x", "die": "o3"}),
    ("token_used", {"player": "purple", "token": "radio", "what": "x", "types": ["barricade", "object"]}),
    ("token_used", {"player": "purple", "token": "axe", "what": "x"}),
    ("given", {"player": "purple", "to": "orange", "dice": [["f4", "zombie2"], ["f5", "zombie1"], ["f6", "zombie2"]]}),
    ("given", {"player": "purple", "to": "orange", "dice": [["f12", "zombie2"]], "why": "barricade"}),
    ("radios_back", {"player": "purple"}),
    ("dice_taken", {"player": "purple", "forced": 4, "chosen": [["zombie", 1], ["shoot", 1], ["object", 1],
                                                                ["barricade", 1]]}),
    ("rolled", {"player": "purple", "dice": [["z1", "zombie2"], ["z2", "ambush"], ["z3", "blank"], ["s1", "bang1plus"],
                                             ["o1", "object"], ["b1", "barricade"]]}),
    ("rerolled", {"player": "purple", "dice": [["z1", "zombie2"], ["z2", "ambush"], ["b2", "barricade"]], "why": "hero"}),
    ("assigned", {"player": "purple", "left": "orange", "ambush": ["z2", "o1"], "zombies": 3}),
    ("drew", {"player": "purple", "token": "chainsaw"}),
    ("drew_face_down", {"player": "purple"}),
    ("bag_empty", {"player": "purple"}),
    ("apocalypse", {"player": "purple", "level": 4}),
    ("night", {"player": "purple", "level": 4}),
    ("day", {"player": "purple", "level": 3}),
    ("bangs", {"player": "purple", "bangs": 12, "chain": ["bang1plus", "bang2", "blank"], "doublings": 1}),
    ("shot", {"player": "purple", "die": "f12", "bangs": 2, "cleared": False, "face": "zombie1"}),
    ("hero_gained", {"player": "purple", "why": "3 bangs"}),
    ("barricades", {"player": "purple", "results": 2}),
    ("discarded", {"player": "purple", "tokens": ["chainsaw", "barricade"]}),
    ("medkit", {"player": "purple", "face": "bang1plus", "saved": True}),
    ("overrun", {"player": "purple", "lives": 2}),
    ("eliminated", {"player": "purple"}),
    ("level", {"level": 4, "why": "a player is zombified"}),
    ("zombified_roll", {"player": "purple", "face": "zombie2", "to": "orange"}),
    ("game_over", {"winners": ["purple", "orange", "yellow"], "why": "", "scores": {}}),
    ("lost", {"player": "purple"}),
    ("rejected", {"reason": "bad frame"}),
]


def loa_view(players: int = 5, **over) -> dict:
    """Five players holding five tokens each (three kept, the hero and one drawn this turn)
    with eight dice in front; three players add Survivors' lives and the end's scores."""
    seats = ("purple", "orange", "yellow", "green", "blue")[:players]
    tokens = ["chainsaw", "medkit", "hero", "barricade", "radio"]
    v = {"players": [{"player": p, "in_game": p != "green", "tokens": tokens,
                      "front": [[f"f{i}", "zombie", "zombie2"] for i in range(1, 9)]} for p in seats],
         "variants": [], "active": "purple", "phase": "shoot", "turn": 13, "level": 4, "night": True,
         "apocalypse_drawn": 2, "bag_size": 24, "pool": {"zombie": 10, "shoot": 3, "object": 3, "barricade": 3},
         "tray": [[f"z{i}", "zombie", "zombie2"] for i in range(1, 5)] + [["s1", "shoot", "bang1plus"], ["s2", "shoot", "bang2"],
                                                                         ["o1", "object", "ambush"], ["b1", "barricade", "barricade"],
                                                                         ["o2", "object", "object"], ["b2", "barricade", "ambush"]],
         "turn_state": {}, "prompt": None, "eliminated": ["green"], "finished": False, "winners": [], "scores": {}}
    if players <= 3:
        v["variants"] = ["survivors"]
        v["scores"] = {p: 12 for p in seats}
        for p in v["players"]:
            p["lives"] = 3
    v.update(over)
    return v


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("code", LANGUAGES)
def test_last_one_alive_text_is_whole_and_apart(code, size):
    L = LoaLang(code)
    kinds = {k for k, _ in LOA_EVENTS}
    assert set(loa_events._TEMPLATES) <= kinds, "a new event kind needs a sample here"
    d = LoaDisplay(size=size, lang=code)
    refusal = longest(L, [k for k in L.keys() if k.startswith("code.")])
    statuses = tuple(PlayerStatus(p, kind="keyboard", status="unlock", lost=p == "blue") for p in COLOURS[:5])
    log = tuple(LogEntry(k, e) for k, e in LOA_EVENTS)
    base = LoaView(view=loa_view(), players=statuses, stage="prompt", kind="shoot", log=log,
                   prompt=("prompt.shoot", {"player": "purple", "bangs": 12}), refusal=(refusal, {}),
                   chain=("bang1plus", "bang2", "blank"), medkit="bang1plus")
    found = []
    d.render_full(base)
    found += problems(d)
    d.render_region(LoaView(view=loa_view(players=3), players=statuses[:3], stage="prompt", kind="shoot"), "cards")
    found += problems(d, "cards")
    data = {"player": "purple", "bangs": 12, "results": 12, "needed": 4, "forced": 4}
    marks = {"marks": ("z1", "z2", "s1", "o1", "b1", "f12")}
    for n, kind in enumerate(WHEELS):                       # every prompt, with the longest refusal or marks
        key = "prompt.bag" if kind == "bag" else f"prompt.{kind}"
        stage = "bag" if kind == "bag" else "prompt"
        extra = {"refusal": (refusal, {})} if n % 2 else marks
        d.render_region(LoaView(view=base.view, stage=stage, kind=kind, prompt=(key, data), **extra), "prompt")
        found += problems(d, "prompt")
    for key in ("prompt.first", "prompt.showing", "prompt.waiting"):
        d.render_region(LoaView(view=base.view, stage="showing", prompt=(key, {"players": list(COLOURS[:5])})), "prompt")
        found += problems(d, "prompt")
    d.render_region(LoaView(view=loa_view(finished=True, winners=["purple", "orange"]), stage="finished",
                            prompt=("prompt.finished", {"players": ["purple", "orange"]})), "prompt")
    found += problems(d, "prompt")
    found += each_log_window(d, base, lambda log: LoaView(view=base.view, log=log))
    assert not found, found


# ---------------------------------------------------------------------------- the generic display

@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("code", LANGUAGES)
def test_the_generic_display_text_is_whole_and_apart(code, size, monkeypatch):
    from bitbox.table.words import words_of
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "tutorial"))
    monkeypatch.delitem(sys.modules, "goofspiel", raising=False)
    from goofspiel import CARTRIDGE as cartridge                    # the tutorial game (docs/games.md)
    words = words_of(cartridge, code)
    d = GenericDisplay(size, words=words, title=cartridge.title)
    seats = COLOURS[:cartridge.max_players] if hasattr(cartridge, "max_players") else COLOURS[:4]
    game = cartridge.new(list(seats), 3, {})
    view = {"turn": 13, "players": [{"player": p, "active": True} for p in seats], "winners": [],
            "game": game.public_view()}
    events = [("prize", {"card": 13, "round": 13}), ("bids", {"bids": {p: 13 for p in COLOURS}}),
              ("won", {"player": "yellow", "card": 13, "score": 91}), ("tied", {"players": list(seats), "card": 13}),
              ("game_over", {"winners": list(seats), "scores": {p: 91 for p in seats}})]
    t = ShellView(view=view, players=tuple(PlayerStatus(p, kind="keyboard", status="unlock") for p in seats),
                  stage="prompt", prompt=("ui.asking", {"players": list(seats), "kind": "bid"}),
                  log=tuple(LogEntry(k, e) for k, e in events))
    d.render_full(t)
    assert d.wheel_meanings(t)[0]                           # the banner says what the left wheel means
    assert not problems(d), problems(d)


# ---------------------------------------------------------------------------- the checker itself

def test_the_checker_sees_a_cut_text_an_overlap_and_text_over_an_icon():
    d = LoaDisplay(size=(1280, 720), lang="de")
    d.render_full(LoaView(view=loa_view(), stage="prompt", kind="shoot", prompt=("prompt.shoot", {"player": "purple"})))
    assert not problems(d)
    d._region = "state"
    rect = d.rects["state"]
    d.blit(d.surface, d.text("APOKALYPSE-STUFE " * 4, 40, max_width=rect.w // 3), rect.topleft)    # cut
    first = d.blit(d.surface, d.text("☾ Nacht", 26), (rect.x + 5, rect.y + 5))                      # over it
    d.mark(first.move(first.w // 2, 0))                                                                # an icon half under it
    d._region = None
    found = problems(d)
    assert any("cut" in p for p in found) and any("over" in p for p in found) and any("icon" in p for p in found), found


# ---------------------------------------------------------------------------- the controller test screen

def test_the_controller_test_screen_says_what_each_stop_means():
    from bitbox.display.lobby import TestScreen
    from bitbox.events import SeatStatus
    from bitbox.i18n import Words
    assert TestScreen.meaning(Words("en"), "fuel_tank", 2, 16) == "fuel tank (stop 2 of 16)"
    assert TestScreen.meaning(Words("de"), None, 3, 16) == "Stellung 3 von 16"
    assert TestScreen.meaning(Words("fr"), 4, 5, None) == "4 (cran 5)"
    seat = SeatStatus(seat=0, controller_id=0x1D1E00000000C0DE, port="/dev/ttyACM0", wheels=(2, 4, 1), locked=True,
                      connected=True, bad_frames=1)
    row = {"controller": seat.controller_id, "seat": 0, "port": seat.port, "connected": True, "locked": True,
           "wheels": [2, 4, 1], "meanings": ["fuel_tank", "4", "left"], "seen": [7, 31, 3], "positions": [16, 16, 16],
           "firmware": "ref-1.1", "protocol": (1, 1), "age": 0.01, "frames": 100, "bad_frames": 1, "bad_rate": 0.0}
    for code in LANGUAGES:
        surf = pygame.Surface((1280, 720))
        screen = TestScreen((1280, 720))
        screen.draw(surf, [seat], [], lights_on=False, lang=code, rows=[row])
        labels = screen.labels
        assert all(surf.get_rect().contains(r) for r in labels), code
        assert not [(a, b) for i, a in enumerate(labels) for b in labels[i + 1:] if a.colliderect(b)], code


# ---------------------------------------------------------------------------- read from across the room

from .test_window_newcomer import _contrast  # noqa: E402 -- WCAG's contrast ratio, one copy


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_log_is_28_px_at_1080p_scaled_and_never_grey_on_navy(size):
    from bitbox.display.shell import PANEL, TEXT, Shell
    d = OutspeedDisplay(size=size, lang="de")
    d.render_full(outspeed_tables("de")[0])
    scale = min(size[0] / 1920, size[1] / 1080)
    heights = [px for _r, px, _s in d.labels["log"][1:]]              # the title aside
    assert heights and min(heights) >= round(28 * scale)
    assert _contrast(Shell.LOG_OLD, PANEL) >= 7 and _contrast(TEXT, PANEL) >= 7       # WCAG AAA, older lines too


def test_the_banner_says_the_prompt_and_what_each_wheel_means():
    d = LoaDisplay(size=(1920, 1080), lang="fr")
    L = LoaLang("fr")
    d.render_full(LoaView(view=loa_view(), stage="prompt", kind="shoot", prompt=("prompt.shoot", {"player": "purple", "bangs": 3})))
    said = " ".join(s for _r, _px, s in d.labels["prompt"])
    assert L.t("prompt.shoot", player=L.player("purple"), bangs=3) in said
    for wheel, key in zip(("left", "centre", "right"), WHEELS["shoot"]):
        assert L.t(f"wheel.{wheel}").upper() in said
        assert L.t(key).split()[0] in said


def test_the_yellow_dies_minus_sign_is_a_bar_not_a_hairline():
    from bitbox.display.pieces import DIE_COLOURS, draw_die
    surf = pygame.Surface((100, 100))
    rect = pygame.Rect(20, 20, 60, 60)
    draw_die(surf, rect, "yellow", -1)
    pip = DIE_COLOURS["yellow"][1]
    rows = [y for y in range(rect.y, rect.y + rect.h // 3)
            if sum(surf.get_at((x, y))[:3] == pip for x in range(rect.centerx, rect.right)) >= rect.w // 5]
    assert len(rows) >= 5                                  # a tenth of the die high, at least
