"""Headless render tests that read real pixels."""
from __future__ import annotations

import pygame
import pygame.freetype
import pytest

from outspeed.display import COLOURS, DieShown, LogEntry, PlayerStatus, TableDisplay, TableView
from bitbox.display import shell as shell_mod
from outspeed.display import render as render_mod
from outspeed.words import LANGUAGES, Lang, all_strings
from outspeed.display.shapes import DIE_COLOURS, pip_centres
from outspeed.rules import events as engine_events

from .helpers import new_game


def view_with(**changes):
    game = new_game(players=4, seed=3)
    v = game.public_view()
    v.update(changes)
    return v


def place(view, **zones):
    for p in view["players"]:
        if p["player"] in zones:
            p["zone"] = zones[p["player"]]
    return view


def near(c1, c2, tol=8):
    return all(abs(a - b) <= tol for a, b in zip(c1[:3], c2[:3]))


@pytest.fixture(scope="module", autouse=True)
def _freetype():
    pygame.freetype.init()
    yield


@pytest.fixture(scope="module")
def display():
    return TableDisplay(size=(1920, 1080), lang="en")


def test_each_ship_is_drawn_in_its_colour_in_its_zone(display):
    view = place(view_with(), red=5, blue=9, green=3, yellow=14)
    display.render(view, full=True)
    surf = display.surface
    for name, zone in (("red", 5), ("blue", 9), ("green", 3), ("yellow", 14)):
        x, y = display.ship_centre(view, name)
        assert display.zone_rect(view, zone).collidepoint(x, y)
        assert near(surf.get_at((x, y)), COLOURS[name], tol=2), name
        # the same lane in another zone is empty track
        other = display.zone_rect(view, 7 if zone != 7 else 8)
        assert not near(surf.get_at((other.centerx, y)), COLOURS[name], tol=30)


def test_ships_of_different_players_have_different_shapes(display):
    # colour-blind safe: the outline of each ship differs (compare their masks, in grey)
    view = place(view_with(), red=4, blue=4, green=4, yellow=4)
    display.render(view, full=True)
    masks = []
    for p in ("red", "blue", "green", "yellow"):
        x, y = display.ship_centre(view, p)
        r = display.px(22)
        area = display.surface.subsurface(pygame.Rect(x - r, y - r, 2 * r, 2 * r)).copy()
        mask = pygame.mask.from_threshold(area, COLOURS[p], (40, 40, 40, 255))
        masks.append(mask.count())
    assert len(set(masks)) == len(masks)


def test_a_force_field_marker_is_drawn_on_its_zone(display):
    view = place(view_with(force_fields=[8, 8], markers_left=5), red=3)
    display.render(view, full=True)
    x, y = display.marker_centre(view, 8)
    c = display.surface.get_at((x, y))
    assert c.b > c.r + 40 and c.g > c.r + 40                 # cyan
    x2, y2 = display.marker_centre(view, 11)
    c2 = display.surface.get_at((x2, y2))
    assert not (c2.b > c2.r + 40 and c2.g > c2.r + 40)


@pytest.mark.parametrize("die,value", [("blue", 1), ("blue", 2), ("blue", 3), ("yellow", -1), ("yellow", -3)])
def test_a_die_shows_its_value(display, die, value):
    table = TableView(view=view_with(), dice=(DieShown("red", die, value),))
    display.render(table, full=True)
    (shown, rect), = display.die_rects
    face, pip = DIE_COLOURS[die]
    on = set(pip_centres(rect, value))
    r = rect.w * 0.085
    for x, y in on:
        assert near(display.surface.get_at((x, y)), pip, tol=10), (x, y)
    for n in range(1, 7):                   # every other pip place is bare
        for x, y in pip_centres(rect, n):
            if all((x - a) ** 2 + (y - b) ** 2 > (2 * r) ** 2 for a, b in on):
                assert near(display.surface.get_at((x, y)), face, tol=10), (n, x, y)


def test_the_tile_is_drawn_from_its_data(display):
    view = view_with()
    display.render(view, full=True)
    assert view["tile"]["number"] >= 1
    # lit paths have bright lights, unlit ones dark (sample the centre of each light)
    # (geometry mirrors _draw_tile: three columns in the card)
    rect = display.rects["tile"]
    card_x = rect.x + display.px(14)
    card_w = rect.w - display.px(28)
    y = rect.y + display.px(96) + display.px(62)
    paths = view["tile"]["faces"][view["face"]]
    for i, key in enumerate(("left", "center", "right")):
        x = round(card_x + card_w / 3 * (i + 0.5))
        c = display.surface.get_at((x, y + (display.px(6) if key == "center" else 0)))
        lit = paths.get(key) is not None
        assert near(c, render_mod.LIGHT_ON, 12) == lit, key


def test_only_what_changed_is_redrawn():
    d = TableDisplay(size=(1280, 720))
    view = view_with()
    first = d.render(view)
    assert len(first) == len(render_mod.REGIONS)
    assert d.render(view) == []
    view2 = view_with()
    view2["players"][0]["fuel"] = 3
    dirty = d.render(view2)
    assert dirty == [d.rects["players"]]
    table = TableView.from_public(view2)
    table = TableView(view=view2, players=table.players, stage=table.stage, log=(LogEntry("bonus_none", {}),))
    assert d.render(table) == [d.rects["log"]]
    # a pause banner over everything, then gone: the regions under it are redrawn
    paused = TableView(view=view2, players=table.players, stage=table.stage, log=table.log, banner=("banner.paused", {"players": ["red"]}))
    assert d.overlay_rect in d.render(paused)
    assert len(d.render(table)) >= 2


def test_resizes_to_the_window():
    d = TableDisplay(size=(1920, 1080))
    view = view_with()
    d.render(view)
    small = pygame.Surface((800, 450))
    dirty = d.render(view, surface=small)
    assert len(dirty) == len(render_mod.REGIONS)
    assert d.size == (800, 450)
    assert all(small.get_rect().contains(r) for r in dirty)


# ---------------------------------------------------------------------------- languages

def _event_lines(lang: Lang) -> list[str]:
    """Every event kind with typical data, in ``lang``."""
    samples = {
        "turn": {"turn": 3, "tile": "tile 5", "face": "3-4", "number": 5, "finish": False},
        "bonus_played": {"player": "yellow", "token": "electromagnet"},
        "bonus_none": {},
        "moved": {"player": "green", "from": 3, "to": 5, "stopped": True, "why": "bonus"},
        "fuel": {"player": "purple", "delta": -2, "why": "ion cannon", "total": 4},
        "marker_placed": {"player": "orange", "zone": 9},
        "no_marker_left": {"player": "red"},
        "nothing_ahead": {"player": "red", "token": "flamethrower"},
        "board_laid": {"front": 21},
        "board_removed": {"first": 1, "last": 7},
        "eliminated": {"player": "blue", "cause": "board"},
        "programmed": {"player": "red", "path": "center", "number": 4},
        "lose_turn": {"path": "right", "count": 3, "capacity": 1, "players": ["red", "green", "yellow"]},
        "solo_alone": {"player": "red", "path": "right"},
        "solo_crowd": {"path": "right", "count": 2},
        "roll": {"player": "red", "die": "yellow", "value": -3},
        "pay": {"player": "red", "amount": 4, "parts": [["", 1], ["yellow die", -3]], "total": 5},
        "draw": {"player": "red", "drawn": 2},
        "draw_empty": {"player": "red"},
        "reshuffle": {"count": 9},
        "flip": {"remaining": 4},
        "markers_removed": {"count": 2, "zone": 9},
        "tile_revealed": {"tile": "finish tile 14", "number": 14, "finish": True},
        "game_over": {"winners": ["red", "blue"], "why": ""},
    }
    assert set(samples) == set(engine_events._TEMPLATES), "a new engine event kind needs a sample here"
    lines = [lang.event(k, d) for k, d in samples.items()]
    lines += [lang.event("draw", {"player": "red", "drawn": 1, "mode": "physical"}),
              lang.event("game_over", {"winners": []}), lang.event("game_over", {"winners": ["green"]})]
    for kind in ("declared_token", "declared_none", "must_redeclare", "must_reprogram", "kept", "lost", "back"):
        lines.append(lang.event(kind, {"player": "orange"}))
    lines += [lang.event("started", {"seed": 3}), lang.event("resumed", {"turn": 4}),
              lang.event("rejected", {"reason": "x"})]
    return lines


def test_every_language_has_every_word():
    # tests/test_catalogues.py checks the catalogues themselves; here each one renders every key
    for code in LANGUAGES:
        lang = Lang(code)
        assert set(lang.keys()) == set(Lang("en").keys()) and all(s.strip() for s in all_strings(code)), code


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_language_renders_without_missing_glyphs(code):
    lang = Lang(code)
    text = "".join(all_strings(code)) + "".join(_event_lines(lang))
    text += "".join(lang.player(p) + lang.token(t) for p in COLOURS for t in
                    ("nitro", "fuel_tank", "flamethrower", "force_field", "electromagnet", "ion_cannon", None))
    assert "?" not in "".join(_event_lines(lang)).replace("¿", "")     # no placeholder left unfilled
    for path in (shell_mod.FONT_REGULAR, shell_mod.FONT_BOLD):
        assert path.exists()
        font = pygame.freetype.Font(str(path), 20)
        chars = sorted(set(text) - {"\n"})
        metrics = font.get_metrics("".join(chars))
        missing = [c for c, m in zip(chars, metrics) if m is None]
        assert not missing, f"{code}: {path.name} has no glyph for {missing}"
    # and a whole table renders in that language
    d = TableDisplay(size=(1280, 720), lang=code)
    view = view_with()
    table = TableView(view=view, players=tuple(PlayerStatus(p["player"], status="refused") for p in view["players"]),
                      stage="programming", prompt=("prompt.bonus", {"zone": 4, "players": ["red", "blue"]}),
                      log=tuple(LogEntry(k, d) for k, d in [("bonus_none", {}), ("roll", {"player": "red", "die": "blue", "value": 2})]))
    d.render(table)


def test_the_checker_would_see_a_missing_glyph():
    # the default pygame font lacks ● and ▲: the check above is a real one
    font = pygame.freetype.Font(None, 20)
    assert None in font.get_metrics("●▲")


def test_terms_come_from_the_rulebooks():
    fr, es, de = Lang("fr"), Lang("es"), Lang("de")
    assert fr.token("fuel_tank") == "Bidon de Fioul" and fr.token("electromagnet") == "Électroaimant"
    assert fr.phase("programming") == "PROGRAMMATION" and fr.phase("reveal") == "RÉVÉLATION"
    assert "rangée" in fr.event("moved", {"player": "red", "from": 3, "to": 5})
    assert es.token("ion_cannon") == "cañón de iones" and es.phase("bonus") == "BONIFICACIONES"
    assert "zona" in es.event("moved", {"player": "red", "from": 3, "to": 5})
    assert de.token("flamethrower") == "Flammenwerfer" and de.phase("resolution") == "AUFLÖSUNG"
    assert "Renntableau" in de.event("board_laid", {"front": 21})


def test_a_malformed_log_entry_never_crashes():
    lang = Lang("en")
    assert lang.event("moved", {"player": "red"})         # missing data: a neutral line
    assert lang.event("no such kind", {})
    d = TableDisplay(size=(640, 360))
    d.render(TableView(view=view_with(), log=(LogEntry("moved", {}), LogEntry("pay", {"parts": "x"}))))
