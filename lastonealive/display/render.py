"""The Last One Alive table screen, on the console's display shell
(:class:`bitbox.display.shell.Shell`), readable on a TV from across the room:

* ``prompt`` (top): whose turn it is, the current prompt, what each wheel means now, the
  dice marked so far and, when the last answer was refused, why;
* ``cards``: every player's character card: their colour and name, the object/barricade
  tokens (objects face up by name, barricades face down: never the object under them), the
  hero token, lives (Survivors), *zombified* when out, and the dice in front of them with
  their faces and labels (F1... for the active player);
* ``tray``: this turn's roll, labelled Z1, S1, O1, B1...; dice tumble while rolling, the "+"
  re-rolls appear one after another, and the medkit's roll;
* ``state`` (right): the apocalypse level, the tokens left in the bag (a count only), night,
  the pool;
* ``log``: what happened, in the table's language.

It reads the :class:`lastonealive.session.TableView` it is given and nothing else.
"""
from __future__ import annotations

import random
import zlib
from typing import Any

import pygame

from bitbox.display.model import ShellView
from bitbox.display.shell import ACCENT, BAD, BG, DIM, FAINT, GOOD, PANEL, PANEL_2, TEXT, Shell

from ..words import Lang

TYPE_COLOUR = {"zombie": (86, 160, 72), "shoot": (200, 60, 52), "object": (60, 120, 215), "barricade": (150, 105, 60)}
FACE_TEXT = {"blank": "", "ambush": "⚠", "zombie1": "☠", "zombie2": "☠☠", "bang1": "✸", "bang2": "✸✸",
             "bang1plus": "✸+", "object": "✚", "barricade": "▦"}
OBJECT_COLOUR = (226, 214, 170)
BARRICADE_COLOUR = (96, 70, 46)
HERO_COLOUR = (250, 200, 60)


class TableDisplay(Shell):
    REGIONS = {
        "prompt": (20, 12, 1880, 224),
        "cards": (20, 248, 1340, 504),
        "tray": (20, 764, 1340, 304),
        "state": (1380, 248, 520, 332),
        "log": (1380, 592, 520, 476),
    }
    lang: Lang                                  # made by make_words: Last One Alive's catalogue
    OVERLAY = (310, 420, 1300, 220)

    def make_words(self, code: str) -> Lang:
        return Lang(code)

    def table_view(self, table: Any) -> ShellView:
        if isinstance(table, ShellView):
            return table
        from ..session import TableView
        return TableView.from_public(table)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.card_rects: dict[str, pygame.Rect] = {}
        self.token_rects: list[tuple[str, str, pygame.Rect]] = []      # (player, shown name, rect)
        self.dice_rects: list[tuple[str, str, str, pygame.Rect]] = []  # (where, id, face, rect)
        super().__init__(*args, **kwargs)

    # ------------------------------------------------------------------ keys
    def _key_prompt(self, t: Any) -> str:
        return self._k(t.prompt, getattr(t, "kind", None), getattr(t, "refusal", None), getattr(t, "marks", ()),
                       t.view.get("active"), t.view.get("finished"), t.stage)

    def _key_cards(self, t: Any) -> str:
        v = t.view
        return self._k(v.get("players"), v.get("active"), [tuple(s.__dict__.values()) for s in t.players],
                       v.get("winners"), v.get("scores"), getattr(t, "asking", None))

    def _key_tray(self, t: Any) -> str:
        return self._k(t.view.get("tray"), getattr(t, "rolling", ()), getattr(t, "tick", 0), getattr(t, "chain", ()),
                       getattr(t, "medkit", None), t.view.get("active"))

    def _key_state(self, t: Any) -> str:
        v = t.view
        return self._k(v.get("level"), v.get("bag_size"), v.get("night"), v.get("pool"), v.get("turn"), v.get("variants"))

    # ------------------------------------------------------------------ pieces
    def draw_face(self, surf: pygame.Surface, rect: pygame.Rect, type_: str, face: str, label: str | None = None,
                  rolling: int | None = None) -> None:
        """A die of ``type_`` showing ``face`` (a tumbling face when ``rolling`` is a frame)."""
        if rolling is not None:
            face = random.Random(zlib.crc32(f"{label}/{rolling}".encode())).choice(list(FACE_TEXT))
            rect = rect.move(0, -self.px(6) * (rolling % 2))
        colour = TYPE_COLOUR.get(type_, (180, 180, 180))
        pygame.draw.rect(surf, (20, 20, 20), rect.inflate(4, 4), border_radius=max(2, rect.w // 6))
        pygame.draw.rect(surf, colour, rect, border_radius=max(2, rect.w // 7))
        if face == "ambush":
            pygame.draw.rect(surf, BAD, rect.inflate(-rect.w // 6, -rect.h // 6), border_radius=max(2, rect.w // 8))
        sym = FACE_TEXT.get(face, "?")
        if sym:
            img = self.glyph(sym, round(rect.h * 0.46), (250, 250, 250))
            if img.get_width() > rect.w - 6:
                img = self.glyph(sym, round(rect.h * 0.46 * (rect.w - 6) / img.get_width()), (250, 250, 250))
            self.blit(surf, img, rect.center, "center")
        if label:
            self.blit(surf, self.text(label, 20, TEXT, bold=True), (rect.centerx, rect.bottom + self.px(2)), "midtop")

    # ------------------------------------------------------------------ prompt
    def _draw_prompt(self, surf: pygame.Surface, rect: pygame.Rect, t: Any) -> None:
        """Whose turn, the prompt in words, why the last answer was refused (or the dice
        marked so far) and what each wheel means now."""
        L = self.lang
        self._panel(surf, rect)
        v = t.view
        active = v.get("active") or ""
        x = rect.x + self.px(28)
        playing = bool(active) and not v.get("finished")
        left_w = rect.w // 3 - self.px(20)
        note_y = rect.y + self.px(12)
        if playing:
            pygame.draw.rect(surf, self.colour_of(active), (rect.x, rect.y, self.px(14), rect.h), border_radius=self.px(6))
            note_y = self.blit(surf, self.text(L.t("ui.turn", player=L.player(active)), 36, self.colour_of(active), bold=True,
                                               max_width=left_w), (x, rect.y + self.px(8))).bottom
        if t.prompt is not None:
            key, data = t.prompt
            if key == "prompt.showing" and playing:
                t_prompt = ("prompt.showing", {**dict(data), "player": active})
            else:
                t_prompt = t.prompt
            text = self.prompt_text(t_prompt)
            px = x + (rect.w // 3 if playing else 0)
            width = rect.right - px - self.px(24)
            lines = self.wrap(text, 34, width, bold=True, lines=2)
            for i, line in enumerate(lines):
                self.blit(surf, self.text(line, 34, TEXT, bold=True, max_width=width),
                          (px, rect.y + self.px(14) + i * self.px(44)))
        refusal = getattr(t, "refusal", None)
        marks = getattr(t, "marks", ())
        note, colour = "", ACCENT
        if refusal is not None:
            note, colour = L.t("ui.refused", reason=L.t(refusal[0], **dict(refusal[1]))), BAD
        elif marks:
            note = L.t("ui.marked", dice=", ".join(L.die(m) if len(str(m)) <= 3 else L.token(m) for m in marks))
        wheels_y = rect.y + self.px(136)
        if note:
            step = self.fonts.get(self.text_px(22), True).get_linesize()
            for i, line in enumerate(self.wrap(note, 22, left_w, bold=True, lines=max(1, (wheels_y - note_y) // step))):
                self.blit(surf, self.text(line, 22, colour, bold=True, max_width=left_w), (x, note_y + i * step))
        from ..controls import WHEELS
        kind = getattr(t, "kind", None)
        wheels = WHEELS.get(kind or "", (None, None, None)) if t.stage in ("prompt", "bag") else (None, None, None)
        if t.stage == "bag":
            wheels = WHEELS["bag"]
        meanings = tuple(L.t(w) if w else None for w in wheels)
        area = pygame.Rect(x, wheels_y, rect.right - x - self.px(16), rect.bottom - self.px(6) - wheels_y)
        self.draw_wheels(surf, area, meanings, size=24)  # type: ignore[arg-type]

    # ------------------------------------------------------------------ cards
    def _draw_cards(self, surf: pygame.Surface, rect: pygame.Rect, t: Any) -> None:
        L = self.lang
        v = t.view
        players = list(v.get("players", ()))
        self.card_rects, self.token_rects = {}, []
        self.dice_rects = [d for d in self.dice_rects if d[0] == "tray"]
        if not players:
            return
        gap = self.px(12)
        w = (rect.w - gap * (len(players) - 1)) / len(players)
        winners = set(v.get("winners") or [])
        active = v.get("active")
        for i, p in enumerate(players):
            name = p["player"]
            card = pygame.Rect(round(rect.x + i * (w + gap)), rect.y, round(w), rect.h)
            self.card_rects[name] = card
            out = not p.get("in_game", True)
            colour = self.colour_of(name)
            pygame.draw.rect(surf, (34, 36, 40) if out else PANEL, card, border_radius=self.px(14))
            border = ACCENT if name in winners else (colour if name == active and not v.get("finished") else PANEL_2)
            pygame.draw.rect(surf, border, card, self.px(6 if name == active else 3), border_radius=self.px(14))
            head = pygame.Rect(card.x, card.y, card.w, self.px(64))
            pygame.draw.rect(surf, FAINT if out else colour, head, border_top_left_radius=self.px(14),
                             border_top_right_radius=self.px(14))
            self.blit(surf, self.text(L.player(name), 36, (15, 15, 20), bold=True, max_width=card.w - self.px(20)),
                      (card.x + self.px(14), head.centery), "midleft")
            st = t.status_of(name)
            y = head.bottom + self.px(6)
            inner = card.w - self.px(24)
            line = ""
            if st.kind in ("bot", "keyboard"):
                line = L.t(f"status.{st.kind}")
            if st.lost:
                line = L.t("status.lost")
            elif st.status in ("to_act", "unlock", "waiting"):
                line = (line + " · " if line else "") + L.t(f"status.{st.status}")
            elif st.status == "thinking":           # a search bot at work: the console's words
                from bitbox.i18n import Words
                line = (line + " · " if line else "") + Words(L.code).t("status.thinking")
            if line:
                step = self.fonts.get(self.text_px(20), st.lost).get_linesize()
                for part in self.wrap(line, 20, inner, bold=st.lost, lines=2):
                    self.blit(surf, self.text(part, 20, BAD if st.lost else DIM, bold=st.lost, max_width=inner),
                              (card.x + self.px(12), y))
                    y += step
            y += self.px(4)
            facts = []
            if "lives" in p:
                facts.append((L.t("ui.lives", n="♥" * int(p["lives"])), (240, 90, 110)))
            if name in (v.get("scores") or {}):
                facts.append((L.t("ui.score", n=v["scores"][name]), ACCENT))
            for text, colour in facts:
                img = self.text(text, 22, colour, bold=True, max_width=inner)
                self.blit(surf, img, (card.x + self.px(12), y))
                y += img.get_height() + self.px(2)
            # tokens: face up by name, face down as a barricade (never what is under it); a
            # name too long for one line takes two
            tokens = list(p.get("tokens", ()))
            bottom = card.bottom - (self.px(160) if p.get("front") and not out else self.px(70) if out else self.px(12))
            one = self.fonts.get(self.text_px(22), True).get_linesize()
            pills = []
            for tok in tokens:
                words = L.token(tok)
                size = 26 if self.fonts.get(self.text_px(26), True).size(words)[0] <= inner - self.px(12) else 22
                lines = self.wrap(words, size, inner - self.px(12), bold=True, lines=2)
                pills.append((tok, lines, size))
            gap = self.px(6)
            need = sum(len(lines) * one + self.px(8) for _, lines, _ in pills) + gap * max(0, len(pills) - 1)
            if need > bottom - y:                   # a full hand: every name at the smallest size, tight
                pills = [(tok, self.wrap(L.token(tok), 22, inner - self.px(12), bold=True, lines=2), 22) for tok, _l, _s in pills]
                gap = self.px(3)
                need = sum(len(lines) * one + self.px(8) for _, lines, _ in pills) + gap * max(0, len(pills) - 1)
            spare = max(0, (bottom - y) - need)
            extra = min(self.px(14), spare // max(1, len(pills)))
            for tok, lines, size in pills:
                th = len(lines) * one + self.px(8) + extra
                r = pygame.Rect(card.x + self.px(12), y, inner, th)
                if tok == "hero":
                    pygame.draw.rect(surf, HERO_COLOUR, r, border_radius=min(th // 2, self.px(22)))
                    text_col = (40, 30, 0)
                elif tok == "barricade":
                    pygame.draw.rect(surf, BARRICADE_COLOUR, r, border_radius=self.px(6))
                    for k in range(1, 4):
                        xx = r.x + k * r.w // 4
                        pygame.draw.line(surf, (70, 50, 30), (xx, r.y + 4), (xx, r.bottom - 4), self.px(3))
                    text_col = (240, 225, 200)
                else:
                    pygame.draw.rect(surf, OBJECT_COLOUR, r, border_radius=self.px(6))
                    text_col = (30, 30, 30)
                for j, part in enumerate(lines):
                    self.blit(surf, self.text(part, size, text_col, bold=True, max_width=r.w - self.px(12)),
                              (r.centerx, r.centery + (j - (len(lines) - 1) / 2) * one), "center")
                self.token_rects.append((name, tok, r))
                y += th + gap
            # the dice in front
            if out:
                for size in (40, 32, 26, 22):
                    if self.fonts.get(self.text_px(size), True).size(L.t("ui.zombified"))[0] <= card.w - self.px(16):
                        break
                self.blit(surf, self.text(L.t("ui.zombified"), size, BAD, bold=True, max_width=card.w - self.px(16)),
                          (card.centerx, card.bottom - self.px(40)), "center")
                continue
            front = list(p.get("front", ()))
            if front:
                top = self.blit(surf, self.text(L.t("ui.in_front").upper(), 18, DIM, bold=True, max_width=inner),
                                (card.x + self.px(12), card.bottom - self.px(156))).bottom + self.px(4)
                labels = name == active
                label_h = self.fonts.get(self.text_px(20), True).get_linesize() + self.px(2) if labels else 0
                cols = min(len(front), 4)
                rows = -(-len(front) // cols)
                gap = self.px(10)
                area_h = card.bottom - self.px(8) - top
                side = min(self.px(70), (inner - (cols - 1) * gap) / cols, (area_h - rows * label_h - (rows - 1) * gap) / rows)
                for k, (die_id, type_, face) in enumerate(front):
                    row, col = divmod(k, cols)
                    r = pygame.Rect(round(card.x + self.px(12) + col * (side + gap)),
                                    round(top + row * (side + label_h + gap)), round(side), round(side))
                    self.draw_face(surf, r, type_, face, str(die_id).upper() if die_id and labels else None)
                    self.dice_rects.append((name, str(die_id or ""), face, r))

    # ------------------------------------------------------------------ tray
    def _draw_tray(self, surf: pygame.Surface, rect: pygame.Rect, t: Any) -> None:
        L = self.lang
        self._panel(surf, rect)
        title = self._title(surf, rect, L.t("ui.tray"))
        self._draw_legend(surf, pygame.Rect(title.right + self.px(30), rect.y + self.px(8),
                                            rect.right - title.right - self.px(50), self.px(34)))
        self.dice_rects = [d for d in self.dice_rects if d[0] != "tray"]
        tray = list(t.view.get("tray", ()))
        rolling = set(getattr(t, "rolling", ()))
        tick = getattr(t, "tick", 0)
        size = self.px(104)
        gap = self.px(18)
        x = rect.x + self.px(24)
        y = rect.y + self.px(52)
        for die_id, type_, face in tray:
            r = pygame.Rect(x, y, size, size)
            self.draw_face(surf, r, type_, face, str(die_id).upper(), rolling=tick if die_id in rolling else None)
            self.dice_rects.append(("tray", str(die_id), face, r))
            x += size + gap
            if x + size > rect.right - self.px(20):
                break
        chain = list(getattr(t, "chain", ()))
        yb = rect.bottom - self.px(76)
        xb = rect.x + self.px(24)
        if chain:
            s = self.text(L.t("ui.chain") + ":", 24, DIM, bold=True)
            self.blit(surf, s, (xb, yb + self.px(28)), "midleft")
            xb += s.get_width() + self.px(14)
            for f in chain:
                r = pygame.Rect(xb, yb, self.px(56), self.px(56))
                self.draw_face(surf, r, "shoot", f)
                xb += self.px(66)
        medkit = getattr(t, "medkit", None)
        if medkit is not None:
            xb += self.px(30)
            s = self.text(L.t("ui.medkit") + ":", 24, DIM, bold=True)
            self.blit(surf, s, (xb, yb + self.px(28)), "midleft")
            r = pygame.Rect(xb + s.get_width() + self.px(14), yb, self.px(56), self.px(56))
            self.draw_face(surf, r, "shoot", medkit)

    #: the symbols of the dice's faces, each with its meaning (the tray's legend)
    LEGEND = (("zombie", "ambush", "face.ambush"), ("zombie", "zombie1", "type.zombie"), ("shoot", "bang1", "face.bang1"),
              ("shoot", "bang1plus", "ui.legend.plus"), ("object", "object", "face.object"),
              ("barricade", "barricade", "face.barricade"))

    def _draw_legend(self, surf: pygame.Surface, area: pygame.Rect) -> None:
        """What each symbol on a die means, right-aligned in ``area`` (one row; two when
        the words are long)."""
        L = self.lang
        d = self.px(30)
        items = [(type_, face, self.text(L.t(key), 22, TEXT)) for type_, face, key in self.LEGEND]
        widths = [d + self.px(6) + img.get_width() for _, _, img in items]
        gap = self.px(18)
        rows = [list(range(len(items)))]
        if sum(widths) + gap * (len(items) - 1) > area.w:
            half = (len(items) + 1) // 2
            rows = [list(range(half)), list(range(half, len(items)))]
        for r, row in enumerate(rows):
            total = sum(widths[i] for i in row) + gap * (len(row) - 1)
            x = area.right - total
            y = area.y + r * (d + self.px(6))
            for i in row:
                type_, face, img = items[i]
                box = pygame.Rect(x, y, d, d)
                self.draw_face(surf, box, type_, face)
                self.mark(box)
                self.blit(surf, img, (box.right + self.px(6), box.centery), "midleft")
                x += widths[i] + gap

    # ------------------------------------------------------------------ state
    #: the face a kind of die is known by in the pool panel (its symbol)
    KIND_FACE = {"zombie": "zombie1", "shoot": "bang1", "object": "object", "barricade": "barricade"}

    def _draw_state(self, surf: pygame.Surface, rect: pygame.Rect, t: Any) -> None:
        """The apocalypse level (a number and lit pips), night, the tokens left in the bag
        (a count: never their order) and the dice pool, each kind of die drawn with its
        symbol, its count and its name."""
        L = self.lang
        v = t.view
        self._panel(surf, rect)
        level = int(v.get("level", 1) or 1)
        x0, inner = rect.x + self.px(20), rect.w - self.px(40)
        title = self.blit(surf, self.text(L.t("ui.level").upper(), 22, DIM, bold=True, max_width=inner), (x0, rect.y + self.px(12)))
        colour = BAD if level >= 4 else (ACCENT if level >= 2 else GOOD)
        top = max(rect.y + self.px(40), title.bottom)       # below its title, whose text has a floor size (small windows)
        self.level_rect = self.blit(surf, self.text(str(level), 80, colour, bold=True), (rect.x + self.px(24), top))
        for k in range(4):
            r = pygame.Rect(rect.x + self.px(110) + k * self.px(52), rect.y + self.px(66), self.px(42), self.px(42))
            pygame.draw.rect(surf, colour if k < level else PANEL_2, r, border_radius=self.px(21))
        if v.get("night"):
            nx = rect.x + self.px(110) + 4 * self.px(52) + self.px(8)
            self.blit(surf, self.text("☾ " + L.t("ui.night"), 26, (170, 180, 255), bold=True, max_width=rect.right - nx - self.px(16)),
                      (nx, rect.y + self.px(87)), "midleft")
        y = rect.y + self.px(142)
        pygame.draw.line(surf, PANEL_2, (x0, y - self.px(8)), (rect.right - self.px(20), y - self.px(8)), self.px(2))
        count = self.text(str(v.get("bag_size", 0)), 40, TEXT, bold=True)
        self.bag_rect = self.blit(surf, count, (rect.right - self.px(20), y + self.px(16)), "midright")
        self.blit(surf, self.text(L.t("ui.bag").upper(), 22, DIM, bold=True, max_width=inner - count.get_width() - self.px(16)),
                  (x0, y + self.px(16)), "midleft")
        y += self.px(48)
        pygame.draw.line(surf, PANEL_2, (x0, y - self.px(8)), (rect.right - self.px(20), y - self.px(8)), self.px(2))
        self.blit(surf, self.text(L.t("ui.pool").upper(), 22, DIM, bold=True, max_width=inner), (x0, y))
        pool = v.get("pool") or {}
        y += self.px(34)
        cell_w = inner // 2
        d = self.px(44)
        self.pool_rects: dict[str, pygame.Rect] = {}
        for k, type_ in enumerate(("zombie", "shoot", "object", "barricade")):
            row, col = divmod(k, 2)
            r = pygame.Rect(x0 + col * cell_w, y + row * (d + self.px(12)), d, d)
            self.draw_face(surf, r, type_, self.KIND_FACE[type_])
            self.mark(r)
            self.pool_rects[type_] = r
            n = self.blit(surf, self.text(str(pool.get(type_, 0)), 30, TEXT, bold=True), (r.right + self.px(10), r.centery), "midleft")
            self.blit(surf, self.text(L.type(type_), 22, TEXT, max_width=x0 + (col + 1) * cell_w - n.right - self.px(18)),
                      (n.right + self.px(8), r.centery), "midleft")


__all__ = ["TableDisplay", "BG"]
