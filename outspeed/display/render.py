"""The table display: draws a :class:`~outspeed.display.model.TableView` with pygame-ce.

Usage (also what the benchmarks call)::

    display = TableDisplay(size=(1920, 1080), lang="fr")
    dirty = display.render(view)            # a TableView or a bare Game.public_view() dict
    pygame.image.save(display.surface, "frame.png")

The screen is split into regions (banner, track, tile, players, dice, log). Each region is
redrawn only when the part of the view it shows has changed, and ``render`` returns the
rectangles it redrew, for ``pygame.display.update(dirty)`` (the aliens.py way). Everything
is laid out on a 1920×1080 reference grid scaled to the window, so the same picture fills a
TV or a laptop window; type is large enough to read from 3 m on a TV.

The display reads the view it is given and nothing else: it has no access to the game, the
session or the controllers, so it cannot show a hidden choice.
"""
from __future__ import annotations

from typing import Any, Mapping

import pygame

from bitbox.display.shell import (OUT, ACCENT, BAD, DIM, FAINT, GOOD, PANEL_2, TEXT, Shell)

from . import shapes
from ..words import Lang
from .model import TOTAL_TURNS, TableView, colour_of, shape_of

MARKER = (70, 225, 240)
LIGHT_ON = (255, 215, 90)
LIGHT_OFF = (58, 64, 84)
BOARDS = ((38, 46, 72), (48, 58, 88), (38, 46, 72))

REF_W, REF_H = 1920, 1080
REGIONS: dict[str, tuple[int, int, int, int]] = {
    "banner": (0, 0, 1920, 100),
    "track": (20, 110, 1880, 390),
    "tile": (20, 514, 600, 548),
    "players": (634, 514, 640, 548),
    "dice": (1288, 514, 612, 160),
    "log": (1288, 688, 612, 374),
}
OVERLAY = (310, 380, 1300, 220)
SLOTS = 21                      # three boards of seven zones
LANE_LABEL = 64                 # reference width of the lane labels left of the zones


class TableDisplay(Shell):
    """Renders table views onto a surface of ``size``; see the module docstring. The console's
    :class:`~bitbox.display.shell.Shell` draws the player panels, dice, log, pad and banner;
    this class adds Outspeed's banner line, track and tile, and its pieces."""

    REGIONS = REGIONS
    OVERLAY = OVERLAY
    COUNTERS = ("fuel", "tokens")
    lang: Lang                                  # made by make_words: Outspeed's catalogue

    def __init__(self, size: tuple[int, int] = (1920, 1080), lang: str | Lang = "en",
                 surface: pygame.Surface | None = None) -> None:
        super().__init__(size, lang, surface)

    def make_words(self, code: str) -> Lang:
        return Lang(code)

    def table_view(self, table: Any) -> TableView:
        return table if isinstance(table, TableView) else TableView.from_public(table)

    def colour_of(self, player: str) -> tuple[int, int, int]:
        return colour_of(player)

    def player_mark(self, surf: pygame.Surface, player: str, centre: tuple[float, float], r: float,
                    colour: tuple[int, int, int]) -> None:
        shapes.draw_ship(surf, shape_of(player), centre, r, colour)

    def _track_geometry(self, view: Mapping[str, Any]) -> tuple[pygame.Rect, float, float, int]:
        """(zones area, zone width, lane height, number of lanes)."""
        r = self.rects["track"]
        top = r.y + self.px(92)
        bottom = r.bottom - self.px(64)
        left = r.x + round(LANE_LABEL * self.sx) + self.px(8)
        area = pygame.Rect(left, top, r.right - self.px(10) - left, bottom - top)
        n = max(1, len(view.get("players", ())))
        return area, area.w / SLOTS, area.h / n, n

    def zone_rect(self, view: Mapping[str, Any], zone: int) -> pygame.Rect | None:
        """The column of ``zone`` on the track (all lanes), or None if off the track."""
        rear = view.get("track", {}).get("rear", 1)
        slot = zone - rear
        if not 0 <= slot < SLOTS:
            return None
        area, zw, _, _ = self._track_geometry(view)
        return pygame.Rect(round(area.x + slot * zw), area.y, round(zw), area.h)

    def ship_centre(self, view: Mapping[str, Any], player: str) -> tuple[int, int] | None:
        """Where ``player``'s ship is drawn (None if it is not on the track)."""
        for lane, p in enumerate(view.get("players", ())):
            if p["player"] == player:
                if not p.get("active", True) or p.get("zone") is None:
                    return None
                col = self.zone_rect(view, p["zone"])
                if col is None:
                    return None
                _, _, lh, _ = self._track_geometry(view)
                return (col.centerx, round(col.y + lh * (lane + 0.5)))
        return None

    def marker_centre(self, view: Mapping[str, Any], zone: int) -> tuple[int, int] | None:
        col = self.zone_rect(view, zone)
        if col is None:
            return None
        return (col.centerx, col.bottom + self.px(32))

    # ------------------------------------------------------------------ keys (what each region shows)
    def _key_banner(self, t: TableView) -> str:
        v = t.view
        return self._k(t.stage, v.get("turn"), v.get("phase"), v.get("finished"), v.get("winners"), t.prompt,
                       v.get("tiles_left"))

    def _key_track(self, t: TableView) -> str:
        v = t.view
        return self._k(v.get("track"), v.get("force_fields"), v.get("markers_left"),
                       [(p["player"], p.get("zone"), p.get("active")) for p in v.get("players", ())],
                       t.zone_prompt, t.moving)

    def _key_tile(self, t: TableView) -> str:
        v = t.view
        return self._k(v.get("tile"), v.get("face"), v.get("tiles_left"), v.get("revealed"), v.get("next_face"))

    # banner ---------------------------------------------------------------
    def _draw_banner(self, surf: pygame.Surface, rect: pygame.Rect, t: TableView) -> None:
        L, v = self.lang, t.view
        pygame.draw.rect(surf, PANEL_2, rect)
        pygame.draw.rect(surf, ACCENT, (rect.x, rect.bottom - self.px(3), rect.w, self.px(3)))
        stage = t.stage or v.get("phase", "")
        phase = {"showing": "resolution", "": v.get("phase", "")}.get(stage, stage)
        if v.get("finished"):
            phase = "finished"
        x = rect.x + self.px(28)
        turn = v.get("turn")
        if turn is not None:
            total = turn + (v.get("tiles_left") or 0) if v.get("tile") else turn
            total = max(total, TOTAL_TURNS) if v.get("tile") and not v["tile"].get("finish") else total
            r = self.blit(surf, self.text(L.t("ui.turn", turn=turn, total=total), 34, DIM, bold=True), (x, rect.centery), "midleft")
            x = r.right + self.px(28)
        r = self.blit(surf, self.text(L.phase(phase), 50, ACCENT, bold=True, max_width=self.px(620)), (x, rect.centery), "midleft")
        x = r.right + self.px(36)
        if v.get("finished"):
            winners = v.get("winners") or []
            text = L.t("ui.winner", players=L.players(winners)) if winners else L.t("ui.no_winner")
            colour = colour_of(winners[0]) if len(winners) == 1 else TEXT
            self.blit(surf, self.text(text, 46, colour, bold=True, max_width=rect.right - x - self.px(24)), (x, rect.centery), "midleft")
            return
        if t.prompt is not None:
            width = rect.right - x - self.px(24)
            lines = self.wrap(self.prompt_text(t.prompt), 30, width, lines=2)
            size = 30 if len(lines) == 1 else 27
            y0 = rect.centery - (len(lines) - 1) * self.px(17)
            for i, line in enumerate(lines):
                self.blit(surf, self.text(line, size, TEXT, max_width=width), (x, y0 + i * self.px(34)), "midleft")

    # track ----------------------------------------------------------------
    def _draw_track(self, surf: pygame.Surface, rect: pygame.Rect, t: TableView) -> None:
        L, v = self.lang, t.view
        self._panel(surf, rect)
        track = v.get("track", {"rear": 1, "boards": 2})
        rear, boards = track.get("rear", 1), track.get("boards", 2)
        area, zw, lh, n = self._track_geometry(v)
        # boards
        for b in range(3):
            bx = round(area.x + b * 7 * zw)
            brect = pygame.Rect(bx, area.y - self.px(48), round(7 * zw) - self.px(3), area.h + self.px(48))
            if b < boards:
                pygame.draw.rect(surf, BOARDS[b % 2], brect, border_radius=self.px(8))
                label = f"{L.t('ui.board')} {rear + 7 * b}–{rear + 7 * b + 6}"
                self.blit(surf, self.text(label, 18, DIM, max_width=brect.w - self.px(8)), (brect.centerx, rect.y + self.px(16)), "midtop")
            else:
                pygame.draw.rect(surf, FAINT, brect, self.px(2), border_radius=self.px(8))
                self.blit(surf, self.text(L.t("ui.next_board"), 22, FAINT, max_width=brect.w - self.px(8)), brect.center, "center")
        # zone columns and numbers
        for slot in range(boards * 7):
            zx = area.x + slot * zw
            zone = rear + slot
            col = pygame.Rect(round(zx), area.y, round(zw), area.h)
            if t.zone_prompt == zone:
                pygame.draw.rect(surf, (90, 78, 40), col.inflate(-self.px(4), 0), border_radius=self.px(6))
            if slot % 7:
                pygame.draw.line(surf, FAINT, (col.x, area.y - self.px(40)), (col.x, area.bottom), 1)
            colour = ACCENT if t.zone_prompt == zone else TEXT
            self.blit(surf, self.text(str(zone), 26, colour, bold=True), (col.centerx, area.y - self.px(24)), "center")
        # front edge (the ship furthest ahead stops there when three boards are out)
        fx = round(area.x + boards * 7 * zw) - self.px(3)
        pygame.draw.line(surf, ACCENT, (fx, area.y - self.px(48)), (fx, area.bottom + self.px(6)), self.px(3))
        # force fields: a band across the lanes and a marker below the zone
        counts: dict[int, int] = {}
        for z in v.get("force_fields", ()):
            counts[z] = counts.get(z, 0) + 1
        for z, c in counts.items():
            zone_col = self.zone_rect(v, z)
            centre = self.marker_centre(v, z)
            if zone_col is None or centre is None:
                continue
            band = pygame.Surface((zone_col.w - self.px(6), zone_col.h), pygame.SRCALPHA)
            band.fill((*MARKER, 46))
            surf.blit(band, (zone_col.x + self.px(3), zone_col.y))
            shapes.draw_marker(surf, centre, self.px(44), MARKER)
            self.mark((centre[0] - self.px(22), centre[1] - self.px(22), self.px(44), self.px(44)))
            if c > 1:
                self.blit(surf, self.text(f"×{c}", 20, MARKER, bold=True), (centre[0] + self.px(22), centre[1]), "midleft")
        left = v.get("markers_left")
        if left is not None:
            pos = (rect.x + self.px(14), rect.bottom - self.px(32))
            shapes.draw_marker(surf, (pos[0] + self.px(18), pos[1]), self.px(30), MARKER)
            shown = self.blit(surf, self.text(str(left), 22, MARKER, bold=True), (pos[0] + self.px(38), pos[1]), "midleft")
            # its word, in one or two lines, up to the first force field placed (or three zones)
            end = area.x + 3 * zw
            for z in counts:
                placed = self.marker_centre(v, z)
                if placed is not None:
                    end = min(end, placed[0] - self.px(26))
            width = round(end - shown.right - self.px(8))
            lines = self.wrap(L.t("ui.markers_left"), 18, width, lines=2)
            step = self.fonts.get(self.text_px(18)).get_linesize()
            if width > self.px(40) and all(self.fonts.get(self.text_px(18)).size(x)[0] <= width for x in lines):
                for j, line in enumerate(lines):
                    self.blit(surf, self.text(line, 18, MARKER, max_width=width),
                              (shown.right + self.px(8), round(pos[1] + (j - (len(lines) - 1) / 2) * step)), "midleft")
        # lanes and ships
        r_ship = min(zw * 0.4, lh * 0.45)
        for lane, p in enumerate(v.get("players", ())):
            name = p["player"]
            cy = area.y + lh * (lane + 0.5)
            if lane:
                pygame.draw.line(surf, (30, 36, 56), (area.x, round(area.y + lh * lane)), (area.right, round(area.y + lh * lane)), 1)
            label_c = (rect.x + round(LANE_LABEL * self.sx / 2) + self.px(4), cy)
            active = p.get("active", True)
            shapes.draw_ship(surf, shape_of(name), label_c, min(lh * 0.3, self.px(20)),
                             colour_of(name) if active else FAINT)
            if not active or p.get("zone") is None:
                self.blit(surf, self.text(L.t("status.eliminated"), 22, OUT), (area.x + self.px(12), cy), "midleft")
                continue
            centre = self.ship_centre(v, name)
            if centre is None:
                continue
            shapes.draw_ship(surf, shape_of(name), centre, r_ship, colour_of(name), glow=name in t.moving)

    # tile -----------------------------------------------------------------
    def _draw_tile(self, surf: pygame.Surface, rect: pygame.Rect, t: TableView) -> None:
        L, v = self.lang, t.view
        self._panel(surf, rect)
        tile = v.get("tile")
        # the stack of tiles left
        left = v.get("tiles_left")
        if left is not None:
            sx = rect.right - self.px(30)
            for i in range(min(left, 6)):
                card = pygame.Rect(0, 0, self.px(34), self.px(46))
                card.topright = (sx - i * self.px(5), rect.y + self.px(14) + i * self.px(2))
                pygame.draw.rect(surf, (70, 80, 110), card, border_radius=self.px(4))
                pygame.draw.rect(surf, (20, 24, 36), card, 1, border_radius=self.px(4))
            self.blit(surf, self.text(str(left), 34, TEXT, bold=True), (sx - self.px(60) - min(left, 6) * self.px(5), rect.y + self.px(36)), "midright")
            self.blit(surf, self.text(L.t("ui.tiles_left"), 16, DIM), (rect.right - self.px(18), rect.y + self.px(68)), "topright")
        if tile is None:
            self.blit(surf, self.text(L.t("ui.no_tile"), 34, DIM), rect.center, "center")
            return
        title = L.tile(tile.get("number"), tile.get("finish"))
        self.blit(surf, self.text(title, 36, ACCENT if tile.get("finish") else TEXT, bold=True, max_width=rect.w - self.px(220)),
                  (rect.x + self.px(22), rect.y + self.px(14)))
        face = v.get("face", "3-4")
        self.blit(surf, self.text(L.t("ui.face", face=face), 22, DIM), (rect.x + self.px(24), rect.y + self.px(58)))
        card = pygame.Rect(rect.x + self.px(14), rect.y + self.px(96), rect.w - self.px(28), rect.h - self.px(110))
        pygame.draw.rect(surf, PANEL_2, card, border_radius=self.px(12))
        if tile.get("finish"):                   # the chequered finish line
            sq = self.px(12)
            for i in range(card.w // sq):
                for j in range(2):
                    if (i + j) % 2 == 0:
                        pygame.draw.rect(surf, (225, 225, 225), (card.x + i * sq, card.y + j * sq, sq, sq))
        paths = (tile.get("faces") or {}).get(face) or {}
        revealed = v.get("revealed") or {}
        col_w = card.w / 3
        label_h = self.fonts.get(self.text_px(15)).get_linesize()
        rows_y = {"light": card.y + self.px(62), "who": card.y + self.px(118),
                  "condition": card.y + self.px(146), "cost": card.y + self.px(226), "gain": card.y + self.px(298),
                  "legend": card.y + self.px(370)}
        for label in ("condition", "cost", "gain"):
            y = rows_y[label]
            pygame.draw.line(surf, (58, 68, 96), (card.x + self.px(10), y), (card.right - self.px(10), y), 1)
            self.blit(surf, self.text(L.t(f"ui.{label}"), 15, DIM, max_width=card.w - self.px(24)), (card.x + self.px(12), y + self.px(2)))
        # each row's symbols sit under its label, never over it nor over the next row
        boxes = {"condition": (rows_y["condition"] + label_h + self.px(4), rows_y["cost"] - self.px(4)),
                 "cost": (rows_y["cost"] + label_h + self.px(4), rows_y["gain"] - self.px(4)),
                 "gain": (rows_y["gain"] + label_h + self.px(4), rows_y["legend"] - self.px(6))}
        for i, key in enumerate(("left", "center", "right")):
            cx = card.x + col_w * (i + 0.5)
            path = paths.get(key)
            shapes.draw_light(surf, key, (cx, rows_y["light"]), self.px(22), path is not None, LIGHT_ON, LIGHT_OFF)
            self.blit(surf, self.text(L.path(key), 18, TEXT if path else FAINT, max_width=round(col_w) - self.px(8)),
                      (cx, rows_y["light"] + self.px(36)), "midtop")
            if i:
                x = round(card.x + col_w * i)
                pygame.draw.line(surf, (58, 68, 96), (x, rows_y["condition"] + self.px(18)), (x, rows_y["legend"] - self.px(6)), 1)
            who = [p for p, (pk, _n) in sorted(revealed.items()) if pk == key]
            for j, p in enumerate(who):
                wx = cx + (j - (len(who) - 1) / 2) * self.px(26)
                shapes.draw_ship(surf, shape_of(p), (wx, rows_y["who"] + self.px(12)), self.px(10), colour_of(p))
            if path is None:
                continue
            col = {row: pygame.Rect(round(card.x + col_w * i + self.px(4)), top, round(col_w) - self.px(8), bottom - top)
                   for row, (top, bottom) in boxes.items()}
            self._draw_condition(surf, path, col["condition"])
            self._draw_effects(surf, path.get("cost") or [], col["cost"], cost=True)
            self._draw_effects(surf, path.get("gain") or [], col["gain"], cost=False)
        self._draw_legend(surf, pygame.Rect(card.x + self.px(10), rows_y["legend"], card.w - self.px(20), card.bottom - rows_y["legend"]))

    def _draw_legend(self, surf: pygame.Surface, area: pygame.Rect) -> None:
        """What each symbol of a cost or gain means: fuel, zones forward, a bonus token, a
        die roll, the ships on a path (one row, centred; smaller icons if the words are long)."""
        L = self.lang
        pygame.draw.line(surf, (58, 68, 96), (area.x, area.y), (area.right, area.y), 1)
        items = [("fuel", L.t("ui.legend.fuel")), ("move", L.t("ui.legend.move")), ("token", L.t("ui.legend.token")),
                 ("die", L.t("ui.legend.die")), ("light", L.t("ui.legend.count"))]
        s = self.px(26)
        gap, inner = self.px(14), self.px(4)
        imgs = [self.text(word, 15, DIM) for _, word in items]
        total = sum(s + inner + img.get_width() for img in imgs) + gap * (len(items) - 1)
        cut = len(items)
        if total > area.w:                      # two rows, split where the longer row is shortest
            width_of = [s + inner + img.get_width() + gap for img in imgs]
            cut = min(range(1, len(items)), key=lambda k: max(sum(width_of[:k]), sum(width_of[k:])))
        rows = [items[:cut], items[cut:]] if cut < len(items) else [items]
        row_imgs = [imgs[:cut], imgs[cut:]] if cut < len(items) else [imgs]
        row_h = max(s, max(img.get_height() for img in imgs))
        top = area.y + (area.h - row_h * len(rows)) / 2
        for r, (row, images) in enumerate(zip(rows, row_imgs)):
            width = sum(s + inner + img.get_width() for img in images) + gap * (len(row) - 1)
            x = area.centerx - width / 2
            cy = round(top + row_h * (r + 0.5))
            for (icon, _word), img in zip(row, images):
                centre = (x + s / 2, cy)
                self._draw_icon(surf, icon, centre, s, "yellow" if icon == "die" else "center")
                self.mark((round(x), round(cy - s / 2), s, s))
                self.blit(surf, img, (x + s + inner, cy), "midleft")
                x += s + inner + img.get_width() + gap

    def _draw_icon(self, surf: pygame.Surface, icon: str, centre: tuple[float, float], s: float, which: str = "yellow") -> None:
        """One symbol of the tiles: fuel cube, move arrows, bonus token, a die to roll (``which``
        die), a lit path (``which`` path: its ships are counted)."""
        die = which
        if icon == "fuel":
            shapes.draw_cube(surf, centre, s * 0.9)
        elif icon == "move":
            shapes.draw_move(surf, centre, s * 0.8)
        elif icon == "die":
            r = pygame.Rect(0, 0, round(s * 0.8), round(s * 0.8))
            r.center = (round(centre[0]), round(centre[1]))
            shapes.draw_die(surf, r, die, None)
            q = self.glyph("?", max(8, round(s * 0.6)), (30, 30, 30) if die == "yellow" else TEXT)
            surf.blit(q, q.get_rect(center=r.center))
        elif icon == "light":
            shapes.draw_light(surf, which if which in ("left", "center", "right") else "center", centre, s * 0.3, True,
                              LIGHT_ON, LIGHT_OFF)
        else:
            shapes.draw_token(surf, centre, s)

    def _draw_condition(self, surf: pygame.Surface, path: Mapping[str, Any], box: pygame.Rect) -> None:
        L = self.lang
        cx = box.centerx
        cap = path.get("capacity")
        choose = path.get("choose")
        cy = box.y + self.px(22) if choose and cap is not None else box.centery
        width = box.w
        if path.get("solo"):
            shapes.draw_silhouette(surf, (cx - self.px(28), cy), self.px(40))
            self.mark((round(cx - self.px(40)), round(cy - self.px(20)), self.px(24), self.px(40)))
            self.blit(surf, self.text(L.t("ui.solo"), 22, ACCENT, bold=True, max_width=width // 2), (cx - self.px(6), cy), "midleft")
        elif cap is not None:
            n = int(cap)
            if n <= 3:
                for j in range(n):
                    shapes.draw_silhouette(surf, (cx + (j - (n - 1) / 2) * self.px(30), cy), self.px(40))
            else:
                shapes.draw_silhouette(surf, (cx - self.px(20), cy), self.px(40))
                self.blit(surf, self.text(f"×{n}", 26, TEXT, bold=True), (cx, cy), "midleft")
        if choose:
            below = box.bottom - self.px(16) if cap is not None else box.centery
            self.blit(surf, self.text(L.t("ui.choose", min=choose.get("min"), max=choose.get("max")), 26, ACCENT, bold=True,
                                      max_width=width), (cx, below), "center")

    def _effect_parts(self, kind: str, amount: Any, cost: bool) -> list[tuple[str, Any]]:
        """One symbol of a cost or gain line: amount then icon, e.g. "−2 ▣", "3 »", "●# ▣"."""
        parts: list[tuple[str, Any]] = []      # ("text", str) | ("die", name) | ("light", path) | ("icon", kind)
        sign = "−" if cost else "+"
        if isinstance(amount, int):
            parts.append(("text", f"{sign}{amount}" if kind == "fuel" else str(amount)))
        elif amount == "chosen":
            parts.append(("text", f"{sign}X" if kind == "fuel" else "X"))
        elif isinstance(amount, Mapping) and "die" in amount:
            times = amount.get("times", 1)
            prefix = (sign if kind == "fuel" else "") + (f"{times}×" if times and times > 1 else "")
            if prefix:
                parts.append(("text", prefix))
            parts.append(("die", amount["die"]))
        elif isinstance(amount, Mapping) and "count" in amount:
            if kind == "fuel":
                parts.append(("text", sign))
            parts.append(("light", amount["count"]))
        else:
            parts.append(("text", "?"))
        parts.append(("icon", kind))
        return parts

    def _effect_widths(self, parts: list[tuple[str, Any]], colour: tuple[int, int, int], s: int) -> list[int]:
        return [self.text(val, 30, colour, bold=True).get_width() if what == "text" else s for what, val in parts]

    def _draw_effects(self, surf: pygame.Surface, effects: list[Any], box: pygame.Rect, cost: bool) -> None:
        """A cost or gain line in ``box``: its symbols side by side when they fit, else one
        under the other with smaller icons (the numbers stay readable)."""
        cx, cy = box.center
        if not effects:
            self.blit(surf, self.text("—", 28, FAINT), (cx, cy), "center")
            return
        colour = BAD if cost else GOOD
        s = self.px(34)
        gap = self.px(6)
        lines = [self._effect_parts(*next(iter(e.items())), cost) for e in effects if isinstance(e, Mapping) and e]
        widths = [self._effect_widths(p, colour, s) for p in lines]
        wide = sum(sum(w) + gap * (len(w) - 1) for w in widths) + self.px(16) * (len(lines) - 1)
        if wide <= box.w:
            x = cx - wide / 2
            for parts, w in zip(lines, widths):
                self._draw_effect(surf, parts, (x, cy), s, colour)
                x += sum(w) + gap * (len(w) - 1) + self.px(16)
            return
        step = box.h / len(lines)
        s_small = max(4, min(s, round(step - self.px(4))))
        for j, parts in enumerate(lines):
            w = self._effect_widths(parts, colour, s_small)
            total = sum(w) + gap * (len(w) - 1)
            self._draw_effect(surf, parts, (cx - total / 2, box.y + step * (j + 0.5)), s_small, colour)

    def _draw_effect(self, surf: pygame.Surface, parts: list[tuple[str, Any]], left: tuple[float, float], s: int,
                     colour: tuple[int, int, int]) -> None:
        x, cy = left
        gap = self.px(6)
        for (what, val), w in zip(parts, self._effect_widths(parts, colour, s)):
            mid = (x + w / 2, cy)
            if what == "text":
                self.blit(surf, self.text(val, 30, colour, bold=True), mid, "center")
            else:
                self._draw_icon(surf, what if what in ("die", "light") else val, mid, s, val)
                self.mark((round(x), round(cy - s / 2), s, s))
            x += w + gap

    # players --------------------------------------------------------------
    def _player_counters(self, surf: pygame.Surface, row: pygame.Rect, p: Mapping[str, Any], active: bool) -> None:
        """Fuel and bonus tokens in a player's row of the console's player panel."""
        cy = row.centery
        # fuel and tokens
        fx = row.x + self.px(228)
        shapes.draw_cube(surf, (fx, cy), self.px(30))
        self.blit(surf, self.text(str(p.get("fuel", 0)), 36, TEXT if active else FAINT, bold=True), (fx + self.px(22), cy), "midleft")
        tx = row.x + self.px(306)
        shapes.draw_token(surf, (tx, cy), self.px(32))
        self.blit(surf, self.text(str(p.get("tokens", 0)), 36, TEXT if active else FAINT, bold=True), (tx + self.px(22), cy), "midleft")
