"""The display shell: what every game's table screen shares (pygame-ce).

A game's display subclasses :class:`Shell`: it names its regions on a 1920×1080 reference
grid (:attr:`Shell.REGIONS`), says what each region shows (``_key_<region>``: a value that
changes when the region must be redrawn) and draws it (``_draw_<region>``). The shell does
the rest, the same for every game:

* **fonts**: DejaVu Sans, shipped in ``fonts/`` (every glyph of the four languages), cached
  by size; text is cached, shrunk then cut with an ellipsis to fit — and every text drawn is
  recorded (where it landed, whether it had to be cut, the icons it must not run into), so
  :meth:`Shell.layout_problems` can say what is cut or over something (the layout tests);
* **TV mode**: the log at :attr:`Shell.LOG_TEXT` (28 px at 1080p, scaled), each event wrapped
  whole; the wheels strip (:meth:`Shell.draw_wheels`): what each wheel means now, drawn in
  every game's banner;
* **regions and dirty rectangles**: each region is redrawn only when its key changed, and
  :meth:`Shell.render` returns the rectangles it redrew, for ``pygame.display.update`` (the
  aliens.py way); everything scales from the reference grid to the window;
* **banners**: the overlay banner over the table (e.g. "paused: Red's controller is lost");
* **player panels**: one row per player with their colour, mark, name, kind (bot, keyboard),
  the game's counters (a hook) and their controller's public status (locked, lost...);
* **dice**: the dice rolled, by player; **the log**: the public events in the game's words;
  the keyboard hot-seat **pad**.

The shell reads the :class:`ShellView` it is given and nothing else (no game, no referee, no
controller), so it cannot show a hidden choice.
"""
from __future__ import annotations

import json
from collections import OrderedDict
from pathlib import Path
from typing import Any, Mapping

import pygame

from bitbox.colours import SCREEN_RGB

from . import pieces
from .model import DieShown, PlayerStatus, ShellView, Words

FONT_DIR = Path(__file__).with_name("fonts")
FONT_REGULAR = FONT_DIR / "DejaVuSans.ttf"
FONT_BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"

BG = (14, 18, 30)
PANEL = (26, 32, 50)
PANEL_2 = (36, 44, 68)
TEXT = (238, 240, 246)
DIM = (140, 150, 178)
FAINT = (70, 80, 106)
OUT = (168, 176, 198)          # text of an eliminated player: quieter than TEXT, still read from 3 m
ACCENT = (255, 198, 64)
GOOD = (100, 215, 130)
BAD = (245, 95, 85)


class Fonts:
    """DejaVu Sans (shipped in fonts/: every glyph of the four languages); pygame's default
    font if the files are missing. Fonts are cached by size."""

    def __init__(self) -> None:
        self._cache: dict[tuple[int, bool], pygame.font.Font] = {}

    def get(self, size: int, bold: bool = False) -> pygame.font.Font:
        size = max(8, int(size))
        key = (size, bold)
        font = self._cache.get(key)
        if font is None:
            path = FONT_BOLD if bold else FONT_REGULAR
            font = pygame.font.Font(path if path.exists() else None, size)
            self._cache[key] = font
        return font



def wrap_words(font: Any, s: str, width: int, lines: int) -> list[str]:
    """``s`` in lines of at most ``width`` pixels in ``font`` (a pygame font), broken between
    words (a word wider than ``width`` stands alone); beyond ``lines`` the rest joins the last
    line. The one way the console's screens wrap a text."""
    out: list[str] = []
    cur = ""
    for w in s.split():
        trial = f"{cur} {w}".strip()
        if font.size(trial)[0] <= width or not cur:
            cur = trial
        else:
            out.append(cur)
            cur = w
    if cur:
        out.append(cur)
    if len(out) > lines:
        out = out[: lines - 1] + [" ".join(out[lines - 1:])]
    return out

class Shell:
    """Renders table views onto a surface of ``size``; see the module docstring. A game's
    display sets :attr:`REGIONS` (and :attr:`OVERLAY`) and gives ``_key_``/``_draw_`` of
    each region; the shell gives ``players``, ``dice`` and ``log``."""

    REF_W, REF_H = 1920, 1080
    REGIONS: dict[str, tuple[int, int, int, int]] = {}
    OVERLAY: tuple[int, int, int, int] = (310, 380, 1300, 220)
    DICE: tuple[str, ...] = ("yellow", "blue")          # the box's dice, shown blank when none rolled
    COUNTERS: tuple[str, ...] = ()                      # public counters of a player's view the panel shows

    def make_words(self, code: str) -> Words:
        raise NotImplementedError("a game's display gives its words")

    def table_view(self, table: Any) -> ShellView:
        """``table`` as a view (a bare public view gets default statuses)."""
        return table if isinstance(table, ShellView) else ShellView.from_public(table)

    def colour_of(self, player: str) -> tuple[int, int, int]:
        """A player's colour on the screen (players are named by their seat colour)."""
        return SCREEN_RGB.get(player, (200, 200, 200))

    def player_mark(self, surf: pygame.Surface, player: str, centre: tuple[float, float], r: float,
                    colour: tuple[int, int, int]) -> None:
        """A small mark of ``player`` (in the log, under their dice, in their panel): a disc,
        unless the game draws its own piece."""
        pygame.draw.circle(surf, colour, (round(centre[0]), round(centre[1])), max(1, round(r)))

    def _player_counters(self, surf: pygame.Surface, row: pygame.Rect, p: Mapping[str, Any], active: bool) -> None:
        """The game's public counters in a player's row (Outspeed: fuel and tokens)."""

    def __init__(self, size: tuple[int, int] = (1920, 1080), lang: str | Words = "en",
                 surface: pygame.Surface | None = None) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self.lang = self.make_words(lang) if isinstance(lang, str) else lang
        self.fonts = Fonts()
        self._text_cache: OrderedDict[tuple, pygame.Surface] = OrderedDict()
        self._keys: dict[str, Any] = {}
        self._overlay_key: Any = None
        self._target: pygame.Surface | None = None
        self.surface = surface if surface is not None else pygame.Surface(size)
        self._text_px: dict[int, tuple[int, str]] = {}
        self._cut: set[int] = set()                     # texts that had to be cut to fit
        self.labels: dict[str, list[tuple[pygame.Rect, int, str]]] = {}
        self.marks: dict[str, list[pygame.Rect]] = {}   # icons a text must not run into, by region
        self.overflows: dict[str, list[str]] = {}       # texts cut or outside their region, by region
        self._region: str | None = None
        self.resize(self.surface.get_size())
        self.die_rects: list[tuple[DieShown, pygame.Rect]] = []
        self.log_shown = 0                              # events the log showed last (the newest)
        self._console: Any = None

    # ------------------------------------------------------------------ geometry
    def resize(self, size: tuple[int, int]) -> None:
        w, h = max(320, int(size[0])), max(180, int(size[1]))
        self.size = (w, h)
        self.sx, self.sy = w / self.REF_W, h / self.REF_H
        self.u = min(self.sx, self.sy)
        self.rects = {name: self._scale(r) for name, r in self.REGIONS.items()}
        self.overlay_rect = self._scale(self.OVERLAY)
        if self.surface.get_size() != self.size and self._target is None:
            self.surface = pygame.Surface(self.size)
        self._keys.clear()
        self._overlay_key = None
        self._text_cache.clear()
        self._text_px.clear()
        self._cut.clear()

    def _scale(self, r: tuple[int, int, int, int]) -> pygame.Rect:
        x, y, w, h = r
        return pygame.Rect(round(x * self.sx), round(y * self.sy), round(w * self.sx), round(h * self.sy))

    def px(self, n: float) -> int:
        """A reference size (pixels at 1080p) in this window's pixels."""
        return max(1, round(n * self.u))

    # ------------------------------------------------------------------ text
    #: The smallest text, in pixels at 1080p (read from 3 m), and in any window's pixels.
    MIN_TEXT = 22
    MIN_PX = 13

    def text_px(self, size: float) -> int:
        """The pixel size of text of reference ``size`` here: never under :attr:`MIN_TEXT` at
        1080p (scaled), nor under :attr:`MIN_PX` in a small window."""
        return max(self.MIN_PX, self.px(max(size, self.MIN_TEXT)))

    def text(self, s: str, size: float, colour: pieces.Colour = TEXT, bold: bool = False, max_width: int | None = None) -> pygame.Surface:
        """Rendered text (cached); shrunk (not under the minimum), then cut with an ellipsis,
        to fit ``max_width``."""
        size_px = self.text_px(size)
        key = (s, size_px, colour, bold, max_width)
        surf = self._text_cache.get(key)
        if surf is not None:
            self._text_cache.move_to_end(key)
            return surf
        font = self.fonts.get(size_px, bold)
        font_px = size_px
        cut: str | None = None
        if max_width is not None:
            w = font.size(s)[0]
            if w > max_width:
                font_px = max(min(size_px, self.text_px(0)), int(size_px * 0.82))
                smaller = self.fonts.get(font_px, bold)
                if smaller.size(s)[0] <= max_width:
                    font = smaller
                else:
                    font = smaller
                    whole = s
                    while s and font.size(s + "…")[0] > max_width:
                        s = s[:-1]
                    s = s.rstrip() + "…"
                    cut = whole
        surf = font.render(s, True, colour)
        self._text_cache[key] = surf
        self._text_px[id(surf)] = (font_px, s)
        if cut is not None:
            self._cut.add(id(surf))
        if len(self._text_cache) > 800:
            old = self._text_cache.popitem(last=False)[1]
            self._text_px.pop(id(old), None)
            self._cut.discard(id(old))
        return surf

    def glyph(self, s: str, px: int, colour: pieces.Colour, bold: bool = True) -> pygame.Surface:
        """A symbol drawn as part of an icon (a die's face), at exactly ``px`` pixels: not
        text, so neither the minimum text size nor the labels apply; it shrinks with its icon."""
        key = ("glyph", s, px, colour, bold)
        surf = self._text_cache.get(key)
        if surf is None:
            surf = self.fonts.get(max(6, px), bold).render(s, True, colour)
            self._text_cache[key] = surf
        return surf

    def wrap(self, s: str, size: float, width: int, bold: bool = False, lines: int = 2) -> list[str]:
        """``s`` in lines of at most ``width`` at ``size``, broken between words; beyond
        ``lines`` the rest joins the last line (which :meth:`text` then shrinks or cuts)."""
        return wrap_words(self.fonts.get(self.text_px(size), bold), s, width, lines)

    def prompt_text(self, prompt: tuple[str, Mapping[str, Any]]) -> str:
        """A view's ``prompt`` (a message key and its data) in the table's language, its
        ``player`` and ``players`` by their colours' names."""
        key, data = prompt
        data = dict(data)
        if "player" in data:
            data["player"] = self.lang.player(data["player"])
        if "players" in data:
            data["players"] = self.lang.players(data["players"])
        return self.lang.t(key, **data)

    def blit(self, surf: pygame.Surface, s: pygame.Surface, pos: tuple[float, float], anchor: str = "topleft") -> pygame.Rect:
        rect = s.get_rect(**{anchor: (round(pos[0]), round(pos[1]))})
        surf.blit(s, rect)
        label = self._text_px.get(id(s))
        if label is not None and self._region is not None:   # the text drawn in each region (tests read it)
            self.labels.setdefault(self._region, []).append((rect, *label))
            box = self.overlay_rect if self._region == "overlay" else self.rects.get(self._region)
            if id(s) in self._cut:
                self.overflows.setdefault(self._region, []).append(f"cut: {label[1]!r}")
            elif box is not None and not box.contains(rect):
                self.overflows.setdefault(self._region, []).append(f"outside its panel: {label[1]!r} {rect} in {box}")
        return rect

    def mark(self, rect: pygame.Rect | tuple[float, float, float, float]) -> pygame.Rect:
        """Note an icon drawn at ``rect``: no text may run into it (a text wholly on it, as a
        count on a die, is its label). :meth:`layout_problems` checks."""
        r = pygame.Rect(rect)
        if self._region is not None:
            self.marks.setdefault(self._region, []).append(r)
        return r

    def layout_problems(self, region: str | None = None) -> list[str]:
        """Everything wrong with the last frame's text (or ``region``'s): a text cut (an
        ellipsis) or outside its panel, two texts over each other, a text partly over an
        icon. Empty when every word is whole and readable (tests render the longest words at
        every size). Regions are clipped to their rectangles, so only the overlay banner
        can cover another region's text: it is meant to."""
        names = [region] if region is not None else list(self.labels)
        out = [f"{name}: {why}" for name in names for why in self.overflows.get(name, ())]
        for name in names:
            texts = [(r, s) for r, _px, s in self.labels.get(name, ()) if s.strip()]
            marks = self.marks.get(name, ())
            for i, (a, sa) in enumerate(texts):
                hits = a.collidelistall([b for b, _ in texts[i + 1:]])
                out += [f"{name} {sa!r} over {name} {texts[i + 1 + j][1]!r}" for j in hits]
                out += [f"{name} {sa!r} runs into an icon of {name} at {m}" for m in marks
                        if a.colliderect(m) and not m.contains(a)]
        return out

    # ------------------------------------------------------------------ rendering
    def render(self, table: ShellView | Mapping[str, Any], surface: pygame.Surface | None = None,
               full: bool = False) -> list[pygame.Rect]:
        """Draw ``table`` onto ``surface`` (default: :attr:`surface`) and return the
        rectangles that changed. The first call, a resize or ``full=True`` redraw all."""
        table = self.table_view(table)
        target = surface if surface is not None else self.surface
        if target is not self._target:
            self._target = target
            self.surface = target
            full = True
        if target.get_size() != self.size:
            self.resize(target.get_size())
            full = True
        if full:
            self._keys.clear()
            self._overlay_key = None
            target.fill(BG)
        dirty: list[pygame.Rect] = []
        overlay_key = self._key_overlay(table)
        overlay_changed = overlay_key != self._overlay_key
        for name in self.REGIONS:
            key = getattr(self, f"_key_{name}")(table)
            rect = self.rects[name]
            under_overlay = overlay_changed and self._overlay_key is not None and rect.colliderect(self.overlay_rect)
            if full or key != self._keys.get(name) or under_overlay:
                target.fill(BG, rect)
                clip = target.get_clip()
                target.set_clip(rect)
                self._region = name
                self.labels[name] = []
                self.marks[name] = []
                self.overflows[name] = []
                try:
                    getattr(self, f"_draw_{name}")(target, rect, table)
                finally:
                    target.set_clip(clip)
                    self._region = None
                self._keys[name] = key
                dirty.append(rect)
        if overlay_key is not None and (overlay_changed or any(r.colliderect(self.overlay_rect) for r in dirty)):
            self._region = "overlay"
            self.labels["overlay"] = []
            self.marks["overlay"] = []
            self.overflows["overlay"] = []
            try:
                self._draw_overlay(target, self.overlay_rect, table)
            finally:
                self._region = None
            dirty.append(self.overlay_rect)
        elif overlay_key is None:
            for book in (self.labels, self.marks, self.overflows):
                book.pop("overlay", None)
        self._overlay_key = overlay_key
        return dirty

    def render_region(self, table: ShellView | Mapping[str, Any], name: str) -> pygame.Rect:
        """Draw one region of ``table`` afresh (its labels, icons and overflows recorded as in
        :meth:`render`); the layout tests draw each panel with its longest words this way."""
        table = self.table_view(table)
        target = self.surface
        rect = self.rects[name]
        target.fill(BG, rect)
        clip = target.get_clip()
        target.set_clip(rect)
        self._region = name
        for book in (self.labels, self.marks, self.overflows):
            book[name] = []
        try:
            getattr(self, f"_draw_{name}")(target, rect, table)
        finally:
            target.set_clip(clip)
            self._region = None
        self._keys.pop(name, None)                                  # the next render draws it again
        return rect

    def render_full(self, table: ShellView | Mapping[str, Any]) -> pygame.Surface:
        self.render(table, full=True)
        return self.surface

    # ------------------------------------------------------------------ keys (what each region shows)
    @staticmethod
    def _k(*parts: Any) -> str:
        return json.dumps(parts, sort_keys=True, default=repr)

    def _key_players(self, t: ShellView) -> str:
        v = t.view
        return self._k([(p["player"], *(p.get(k) for k in self.COUNTERS), p.get("active")) for p in v.get("players", ())],
                       [tuple(s.__dict__.values()) for s in t.players], v.get("winners"))

    def _key_dice(self, t: ShellView) -> str:
        return self._k([tuple(d.__dict__.values()) for d in t.dice])

    def _key_log(self, t: ShellView) -> str:
        return self._k([(e.kind, dict(e.data)) for e in t.log[-14:]], t.pad)

    def _key_overlay(self, t: ShellView) -> str | None:
        return None if t.banner is None else self._k(t.banner)

    # ------------------------------------------------------------------ panels
    def _panel(self, surf: pygame.Surface, rect: pygame.Rect, colour: pieces.Colour = PANEL) -> None:
        pygame.draw.rect(surf, colour, rect, border_radius=self.px(14))

    def _title(self, surf: pygame.Surface, rect: pygame.Rect, text: str, max_width: int | None = None) -> pygame.Rect:
        """A panel's title, in capitals, top left."""
        return self.blit(surf, self.text(text.upper(), 22, DIM, bold=True, max_width=max_width or rect.w - self.px(36)),
                         (rect.x + self.px(18), rect.y + self.px(10)))

    def console_words(self) -> Any:
        """The console's own words in the table's language (the wheels' names...)."""
        code = getattr(self.lang, "code", "en")
        if self._console is None or self._console.code != code:
            from bitbox.i18n import Words
            self._console = Words(code)
        return self._console

    # the wheels -------------------------------------------------------------
    def draw_wheels(self, surf: pygame.Surface, area: pygame.Rect,
                    meanings: tuple[str | None, str | None, str | None], size: float = 24) -> None:
        """What each wheel means now, in three columns of ``area``: the wheel drawn (its
        pointer says which), its name, then its meaning wrapped whole, a smaller size when
        it needs more lines than the area holds (every game's banner)."""
        console = self.console_words()
        alone = sum(1 for m in meanings if m) == 1          # one wheel in use: it takes the whole width
        col_w = area.w if alone else area.w // 3
        for i, (which, meaning) in enumerate(zip(("left", "centre", "right"), meanings)):
            if not meaning:
                continue
            x = area.x + (0 if alone else i * col_w)
            width = col_w - self.px(24)
            name = self.lang.text(f"wheel.{which}") if hasattr(self.lang, "text") else None
            for sz in (size, (size + self.MIN_TEXT) / 2, self.MIN_TEXT):
                step = max(self.fonts.get(self.text_px(sz)).get_linesize(), self.fonts.get(self.text_px(sz), True).get_height())
                head = self.text((name or console.t(f"wheel.{which}")).upper(), sz, ACCENT, bold=True)
                r = min(self.px(13), step // 2 - 1)
                indent = 2 * r + self.px(10) + head.get_width() + self.px(10)
                lines = self.wrap_first(meaning, sz, width, width - indent)
                if len(lines) * step <= area.h:
                    break
            cy = area.y + step // 2
            pieces.draw_wheel(surf, (x + r, cy), r, which, ACCENT)
            self.mark((x, cy - r, 2 * r, 2 * r))
            self.blit(surf, head, (x + 2 * r + self.px(10), area.y + (step - head.get_height()) // 2))
            for j, line in enumerate(lines):
                lx = x + (indent if j == 0 else 0)
                self.blit(surf, self.text(line, sz, TEXT, max_width=width - (indent if j == 0 else 0)),
                          (lx, area.y + j * step))

    def wrap_first(self, s: str, size: float, width: int, first: int, bold: bool = False) -> list[str]:
        """:meth:`wrap` with a first line of ``first`` pixels (after a label on its line)."""
        font = self.fonts.get(self.text_px(size), bold)
        out: list[str] = []
        cur = ""
        for w in s.split():
            trial = f"{cur} {w}".strip()
            limit = first if not out else width
            if font.size(trial)[0] <= limit or (not cur and out):
                cur = trial
            elif not cur:                       # not even one word beside the label: start below it
                out.append("")
                cur = w
            else:
                out.append(cur)
                cur = w
        if cur:
            out.append(cur)
        return out

    # players --------------------------------------------------------------
    STATUS_COLOUR = {"ready": GOOD, "refused": BAD, "refused_bonus": BAD, "declared_token": ACCENT,
                     "declared_none": DIM, "to_act": TEXT, "unlock": ACCENT, "waiting": BAD,
                     "eliminated": OUT, "drawing": ACCENT, "winner": ACCENT, "thinking": ACCENT,
                     "": DIM}

    def _draw_players(self, surf: pygame.Surface, rect: pygame.Rect, t: ShellView) -> None:
        L, v = self.lang, t.view
        self._panel(surf, rect)
        players = list(v.get("players", ()))
        if not players:
            return
        pad = self.px(10)
        row_h = min(self.px(100), (rect.h - pad * 2) / len(players))
        winners = set(v.get("winners") or [])
        for i, p in enumerate(players):
            name = p["player"]
            st = t.status_of(name)
            row = pygame.Rect(rect.x + pad, round(rect.y + pad + i * row_h), rect.w - 2 * pad, round(row_h) - self.px(6))
            active = p.get("active", True)
            pygame.draw.rect(surf, PANEL_2 if active else (30, 34, 46), row, border_radius=self.px(10))
            if name in winners:
                pygame.draw.rect(surf, ACCENT, row, self.px(3), border_radius=self.px(10))
            colour = self.colour_of(name) if active else FAINT
            pygame.draw.rect(surf, colour, (row.x, row.y, self.px(8), row.h), border_radius=self.px(4))
            cy = row.centery
            self.player_mark(surf, name, (row.x + self.px(44), cy), min(row.h * 0.3, self.px(26)), colour)
            big = 34 if row_h > self.px(80) else 28
            self.blit(surf, self.text(L.player(name), big, TEXT if active else OUT, bold=True, max_width=self.px(140)),
                      (row.x + self.px(80), cy - self.px(14)), "midleft")
            tag = {"bot": "status.bot", "keyboard": "status.keyboard"}.get(st.kind)
            under = [L.t(tag)] if tag else []
            if name in getattr(L, "names", {}):          # a named seat: its colour's word stays beside its mark
                under.insert(0, getattr(L, "colour", L.player)(name))
            if under:
                self.blit(surf, self.text(" · ".join(under), 16, DIM, max_width=self.px(150)),
                          (row.x + self.px(82), cy + self.px(24)), "midleft")
            self._player_counters(surf, row, p, active)
            # controller and status
            sx = row.x + self.px(382)
            status = "winner" if name in winners else ("eliminated" if not active else st.status)
            if active and name not in winners:
                if st.lost:
                    status = "lost"
                elif not st.connected and st.kind == "controller":
                    status = "waiting"
            self._draw_controller_icon(surf, (sx + self.px(14), cy), st, active)
            text = L.t(f"status.{status}") if status else ""
            if st.played and active:
                text = L.token(st.played)
            colour = BAD if status in ("lost", "waiting") else self.STATUS_COLOUR.get(status, TEXT)
            if st.played and active:
                colour = ACCENT
            width = row.right - sx - self.px(36)
            size = 22
            lines = self.wrap(text, size, width, bold=True, lines=1)
            if self.fonts.get(self.text_px(size), True).size(text)[0] > width:     # two or three smaller lines
                size = 19
                step = self.fonts.get(self.text_px(size), True).get_height()
                lines = self.wrap(text, size, width, bold=True, lines=max(1, min(3, row.h // step)))
            step = self.fonts.get(self.text_px(size), True).get_height()
            for j, line in enumerate(lines):
                self.blit(surf, self.text(line, size, colour, bold=True, max_width=width),
                          (sx + self.px(30), round(cy + (j - (len(lines) - 1) / 2) * step)), "midleft")

    def _draw_controller_icon(self, surf: pygame.Surface, centre: tuple[float, float], st: PlayerStatus, active: bool) -> None:
        cx, cy = centre
        if not active or not st.kind:
            return
        if st.lost or (not st.connected and st.kind == "controller"):
            w = self.px(4)
            d = self.px(10)
            pygame.draw.line(surf, BAD, (cx - d, cy - d), (cx + d, cy + d), w)
            pygame.draw.line(surf, BAD, (cx - d, cy + d), (cx + d, cy - d), w)
            return
        pieces.draw_padlock(surf, (cx, cy), self.px(28), GOOD if st.locked else DIM, closed=st.locked)

    # dice -----------------------------------------------------------------
    def _draw_dice(self, surf: pygame.Surface, rect: pygame.Rect, t: ShellView) -> None:
        self._panel(surf, rect)
        self._title(surf, rect, self.lang.t("ui.dice"))
        self.die_rects = []
        dice = list(t.dice)[-10:]
        if not dice:
            for i, die in enumerate(self.DICE):
                r = pygame.Rect(0, 0, self.px(60), self.px(60))
                r.center = (rect.centerx + (i - 0.5) * self.px(90), rect.centery + self.px(12))
                pieces.draw_die(surf, r, die, None)
                pygame.draw.rect(surf, PANEL, r.inflate(-self.px(20), -self.px(20)), border_radius=self.px(6))
            return
        size = min(self.px(84), (rect.w - self.px(24)) / len(dice) - self.px(12))
        gap = self.px(14)
        total = len(dice) * size + (len(dice) - 1) * gap
        x0 = rect.centerx - total / 2
        for i, d in enumerate(dice):
            r = pygame.Rect(round(x0 + i * (size + gap)), rect.y + self.px(44), round(size), round(size))
            if d.rolling:
                r.move_ip(0, -self.px(6) * ((d.face or 0) % 2))
            pieces.draw_die(surf, r, d.die, d.face if d.rolling and d.face is not None else d.value)
            self.player_mark(surf, d.player, (r.centerx, rect.bottom - self.px(16)), self.px(11), self.colour_of(d.player))
            self.die_rects.append((d, r))

    # log ------------------------------------------------------------------
    #: The log's text, in pixels at 1080p (scaled): read from across the room on a TV.
    LOG_TEXT = 28
    #: Older log lines: quieter than the newest, still well above WCAG AA on the panels.
    LOG_OLD = (214, 218, 232)

    def _draw_log(self, surf: pygame.Surface, rect: pygame.Rect, t: ShellView) -> None:
        """The public events, newest at the bottom, each wrapped whole between words (never
        cut mid-fact); an event that no longer fits scrolls off entirely."""
        self._panel(surf, rect)
        if t.pad is not None:
            self._draw_pad(surf, rect, t.pad)
            return
        title = self._title(surf, rect, self.lang.t("ui.events"))
        width = rect.w - self.px(60)
        font = self.fonts.get(self.text_px(self.LOG_TEXT))
        line_h = max(font.get_linesize(), self.px(34))
        top = title.bottom + self.px(6)
        y = rect.bottom - self.px(12)
        self.log_shown = 0
        for age, e in enumerate(reversed(t.log)):
            wrapped = self.wrap(self.lang.event(e.kind, e.data), self.LOG_TEXT, width, lines=99)
            if y - len(wrapped) * line_h < top:
                break
            self.log_shown += 1
            colour = TEXT if age < 3 else self.LOG_OLD
            player = e.data.get("player")
            for j, line in enumerate(reversed(wrapped)):
                self.blit(surf, self.text(line, self.LOG_TEXT, colour, max_width=width), (rect.x + self.px(44), y), "bottomleft")
                if isinstance(player, str) and j == len(wrapped) - 1:
                    self.player_mark(surf, player, (rect.x + self.px(24), y - line_h / 2), self.px(10), self.colour_of(player))
                y -= line_h
            y -= self.px(4)

    def _draw_pad(self, surf: pygame.Surface, rect: pygame.Rect, pad: Mapping[str, Any]) -> None:
        """The keyboard hot-seat pad: the acting player's own choice (hidden until shown)."""
        L = self.lang
        player = pad.get("player", "")
        self.blit(surf, self.text(L.t("banner.keyboard", player=L.player(player)), 24, self.colour_of(player), bold=True,
                                  max_width=rect.w - self.px(36)), (rect.x + self.px(18), rect.y + self.px(14)))
        y = rect.y + self.px(64)
        if not pad.get("shown"):
            self.blit(surf, self.text(L.t("pad.hidden"), 30, TEXT, bold=True), (rect.centerx, rect.centery), "center")
        else:
            for line in pad.get("lines", ()):
                self.blit(surf, self.text(str(line), 28, TEXT, bold=True, max_width=rect.w - self.px(36)), (rect.x + self.px(24), y))
                y += self.px(40)
        self.blit(surf, self.text(L.t("pad.keys"), 18, DIM, max_width=rect.w - self.px(36)), (rect.x + self.px(18), rect.bottom - self.px(34)))

    # overlay --------------------------------------------------------------
    def _draw_overlay(self, surf: pygame.Surface, rect: pygame.Rect, t: ShellView) -> None:
        if t.banner is None:
            return
        key, data = t.banner
        data = dict(data)
        if "players" in data:
            data["players"] = self.lang.players(data["players"])
        shade = pygame.Surface(rect.size, pygame.SRCALPHA)
        shade.fill((120, 20, 20, 235))
        surf.blit(shade, rect)
        pygame.draw.rect(surf, BAD, rect, self.px(4), border_radius=self.px(6))
        lines = self.wrap(self.lang.t(key, **data), 44, rect.w - self.px(60), bold=True, lines=2)
        for i, line in enumerate(lines):
            self.blit(surf, self.text(line, 44, TEXT, bold=True, max_width=rect.w - self.px(40)),
                      (rect.centerx, rect.centery + (i - (len(lines) - 1) / 2) * self.px(54)), "center")
