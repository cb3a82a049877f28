"""The replay window's own panel, for every game (pygame-ce): the move list, the win-chance
graph under it, "what would the bot play here", and the scrubber under the table.

It draws a :class:`PanelView` (plain values: texts already in the table's words, chances as
numbers) and reads nothing else; the game's own display draws the table beside it. Each
player is shown by their seat colour **and** a shape (:data:`SHAPES`, the same order as the
analysis chart's markers), so the graph is read without telling colours apart.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import pygame

from .shell import ACCENT, BG, DIM, FAINT, PANEL, PANEL_2, TEXT, Fonts

#: A player's shape, by seat (as the analysis chart's markers: o s ^ D v P).
SHAPES = ("circle", "square", "triangle", "diamond", "down", "plus")

Colour = tuple[int, int, int]


def draw_shape(surf: pygame.Surface, shape: str, centre: tuple[float, float], r: float, colour: Colour,
               outline: Colour | None = (20, 20, 28)) -> None:
    """A seat's shape of radius ``r`` at ``centre``."""
    cx, cy = centre
    r = max(2.0, r)
    pts: list[tuple[float, float]] | None
    if shape == "circle":
        pygame.draw.circle(surf, colour, (round(cx), round(cy)), round(r))
        if outline:
            pygame.draw.circle(surf, outline, (round(cx), round(cy)), round(r), 1)
        return
    if shape == "square":
        pts = [(cx - r * .85, cy - r * .85), (cx + r * .85, cy - r * .85), (cx + r * .85, cy + r * .85), (cx - r * .85, cy + r * .85)]
    elif shape == "triangle":
        pts = [(cx, cy - r), (cx + r, cy + r * .8), (cx - r, cy + r * .8)]
    elif shape == "down":
        pts = [(cx, cy + r), (cx + r, cy - r * .8), (cx - r, cy - r * .8)]
    elif shape == "diamond":
        pts = [(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)]
    else:                                       # plus
        t = r * .38
        pts = [(cx - t, cy - r), (cx + t, cy - r), (cx + t, cy - t), (cx + r, cy - t), (cx + r, cy + t), (cx + t, cy + t),
               (cx + t, cy + r), (cx - t, cy + r), (cx - t, cy + t), (cx - r, cy + t), (cx - r, cy - t), (cx - t, cy - t)]
    pygame.draw.polygon(surf, colour, pts)
    if outline:
        pygame.draw.polygon(surf, outline, pts, 1)


@dataclass(frozen=True)
class BotLine:
    """One player's part of "what would the bot play here": the question, the bot's choice,
    each option with its chance (None: not searched)."""

    player: str
    prompt: str
    chosen: str
    options: tuple[tuple[str, float | None], ...]


@dataclass
class PanelView:
    """What the replay panel shows (all texts in the table's words)."""

    title: str                                          # "Outspeed — game 12"
    rows: Sequence[tuple[str, str]]                     # the move list: (label, the turn's events)
    index: int                                          # the frame shown
    players: Sequence[str]
    player_names: Mapping[str, str]                     # player -> as the table says it
    colour_of: Callable[[str], Colour]
    words: Mapping[str, str]                            # the panel's own words (titles, help)
    chances: Mapping[int, Mapping[str, tuple[float, float, float]]] | None = None
    chances_note: str = ""                              # where the chances come from, or how to get them
    bot: str = "off"                                    # off | busy | shown | note
    bot_lines: Sequence[BotLine] = field(default_factory=tuple)
    bot_note: str = ""
    typed: str = ""                                     # a turn number being typed
    help: str = ""                                      # the keys (and wheels) line


class ReplayPanel:
    """Draws a :class:`PanelView` into a rectangle (any size: it scales from 1080p).
    :attr:`rows` holds each move-list row's rectangle and frame index after a draw (a click
    on a row goes there)."""

    def __init__(self) -> None:
        self.fonts = Fonts()
        self.u = 1.0
        self.rows: list[tuple[pygame.Rect, int]] = []
        self.graph_rect: pygame.Rect | None = None
        self.graph_frames: tuple[int, int] = (0, 0)
        self.placed: list[tuple[pygame.Rect, pygame.Rect]] = []      # (a text, the region it belongs in)

    def px(self, n: float) -> int:
        return max(1, round(n * self.u))

    def _put(self, surf: pygame.Surface, text: pygame.Surface, pos: tuple[float, float], region: pygame.Rect) -> None:
        """Blit a text into ``region``, and note where (:attr:`placed`: tests check every text
        stays inside its region, in every language and size)."""
        at = (round(pos[0]), round(pos[1]))
        surf.blit(text, at)
        self.placed.append((pygame.Rect(at, text.get_size()), region.copy()))

    def text(self, s: str, size: float, colour: Colour = TEXT, bold: bool = False, width: int | None = None) -> pygame.Surface:
        font = self.fonts.get(max(13, self.px(size)), bold)
        if width is not None and font.size(s)[0] > width:
            while s and font.size(s + "…")[0] > width:
                s = s[:-1]
            s = s.rstrip() + "…"
        return font.render(s, True, colour)

    def draw(self, surf: pygame.Surface, rect: pygame.Rect, v: PanelView, u: float) -> None:
        self.u = u
        surf.fill(BG, rect)
        pad = self.px(14)
        inner = rect.inflate(-2 * pad, -2 * pad)
        title = self.text(v.title, 26, TEXT, bold=True, width=inner.w)
        self._put(surf, title, inner.topleft, rect)
        y = inner.y + title.get_height() + self.px(8)
        line = self.fonts.get(max(13, self.px(20))).get_height()
        bot_h = round(inner.h * 0.30) if v.bot != "off" else self.px(40) + 3 * line
        graph_h = round(inner.h * 0.27)
        moves = pygame.Rect(inner.x, y, inner.w, inner.bottom - y - graph_h - bot_h - 2 * self.px(10))
        graph = pygame.Rect(inner.x, moves.bottom + self.px(10), inner.w, graph_h)
        bot = pygame.Rect(inner.x, graph.bottom + self.px(10), inner.w, inner.bottom - graph.bottom - self.px(10))
        self._moves(surf, moves, v)
        self._graph(surf, graph, v)
        self._bot(surf, bot, v)

    # the move list ----------------------------------------------------------------
    def _moves(self, surf: pygame.Surface, rect: pygame.Rect, v: PanelView) -> None:
        pygame.draw.rect(surf, PANEL, rect, border_radius=self.px(10))
        head = self.text(v.words["moves"].upper(), 20, DIM, bold=True)
        self._put(surf, head, (rect.x + self.px(12), rect.y + self.px(8)), rect)
        top = rect.y + self.px(14) + head.get_height()
        row_h = max(self.px(34), self.fonts.get(max(13, self.px(22))).get_height() + self.px(6))
        visible = max(1, (rect.bottom - top - self.px(6)) // row_h)
        first = max(0, min(v.index - visible // 2, len(v.rows) - visible))
        self.rows = []
        label_w = max(self.fonts.get(max(13, self.px(20)), True).size(label)[0] for label, _ in v.rows) + self.px(20)
        label_w = min(label_w, rect.w // 3)
        for k, (label, text) in enumerate(v.rows[first:first + visible]):
            i = first + k
            row = pygame.Rect(rect.x + self.px(6), top + k * row_h, rect.w - self.px(12), row_h - self.px(2))
            current = i == v.index
            if current:
                pygame.draw.rect(surf, PANEL_2, row, border_radius=self.px(6))
                pygame.draw.rect(surf, ACCENT, row, max(1, self.px(3)), border_radius=self.px(6))
            colour = TEXT if current else (DIM if i > v.index else TEXT)
            lab = self.text(label, 20, ACCENT if current else DIM, bold=True, width=label_w - self.px(6))
            self._put(surf, lab, (row.x + self.px(10), row.centery - lab.get_height() // 2), rect)
            body = self.text(text, 20, colour, width=row.w - label_w - self.px(16))
            self._put(surf, body, (row.x + label_w, row.centery - body.get_height() // 2), rect)
            self.rows.append((row, i))

    # the win-chance graph ---------------------------------------------------------
    def _graph(self, surf: pygame.Surface, rect: pygame.Rect, v: PanelView) -> None:
        pygame.draw.rect(surf, PANEL, rect, border_radius=self.px(10))
        head = self.text(v.words["chance"].upper(), 20, DIM, bold=True)
        self._put(surf, head, (rect.x + self.px(12), rect.y + self.px(8)), rect)
        self.graph_rect = None
        if not v.chances:
            for j, line in enumerate(_wrap(self, v.chances_note, 20, rect.w - self.px(24), 3)):
                t = self.text(line, 20, DIM, width=rect.w - self.px(24))
                self._put(surf, t, (rect.x + self.px(12), rect.y + self.px(16) + head.get_height() + j * (t.get_height() + self.px(2))), rect)
            return
        axis = self.text("100%", 16, DIM)
        plot = pygame.Rect(rect.x + axis.get_width() + self.px(18), rect.y + head.get_height() + self.px(18),
                           0, 0)
        legend_h = self.px(30)
        plot.w = rect.right - self.px(12) - plot.x
        plot.h = rect.bottom - self.px(10) - legend_h - plot.y
        if plot.w < 20 or plot.h < 20:
            return
        self.graph_rect = plot
        n = len(v.rows)
        self.graph_frames = (0, n - 1)

        def x_of(i: int) -> float:
            return plot.x + (plot.w * i / (n - 1) if n > 1 else plot.w / 2)

        def y_of(c: float) -> float:
            return plot.bottom - plot.h * max(0.0, min(1.0, c))
        for c, label in ((0.0, "0%"), (0.5, "50%"), (1.0, "100%")):
            y = round(y_of(c))
            pygame.draw.line(surf, FAINT, (plot.x, y), (plot.right, y), 1)
            t = self.text(label, 16, DIM)
            self._put(surf, t, (plot.x - t.get_width() - self.px(6), y - t.get_height() // 2), rect)
        frames = sorted(v.chances)
        bands = pygame.Surface(plot.size, pygame.SRCALPHA)
        for k, p in enumerate(v.players):
            colour = v.colour_of(p)
            known = [(f, v.chances[f][p]) for f in frames if p in v.chances[f]]
            if len(known) >= 2:
                upper = [(x_of(f) - plot.x, y_of(hi) - plot.y) for f, (_c, _lo, hi) in known]
                lower = [(x_of(f) - plot.x, y_of(lo) - plot.y) for f, (_c, lo, _hi) in reversed(known)]
                pygame.draw.polygon(bands, (*colour, 40), upper + lower)
        surf.blit(bands, plot.topleft)
        cx = round(x_of(v.index))
        pygame.draw.line(surf, ACCENT, (cx, plot.y - self.px(4)), (cx, plot.bottom + self.px(4)), max(1, self.px(3)))
        for k, p in enumerate(v.players):
            colour = v.colour_of(p)
            pts = [(x_of(f), y_of(v.chances[f][p][0])) for f in frames if p in v.chances[f]]
            if len(pts) >= 2:
                pygame.draw.lines(surf, colour, False, pts, max(2, self.px(3)))
            for px_, py_ in pts:
                draw_shape(surf, SHAPES[k % len(SHAPES)], (px_, py_), self.px(6), colour)
        # legend: each player's shape, name and chance at the frame shown (or the last known before it)
        before = [f for f in frames if f <= v.index]
        at = v.chances[before[-1]] if before else None
        x: float = rect.x + self.px(12)
        ly = rect.bottom - legend_h // 2 - self.px(6)
        width = (rect.w - self.px(24)) / max(1, len(v.players))
        for k, p in enumerate(v.players):
            draw_shape(surf, SHAPES[k % len(SHAPES)], (x + self.px(8), ly), self.px(8), v.colour_of(p))
            figure = "" if at is None or p not in at else f" {100 * at[p][0]:.0f}%"
            t = self.text(v.player_names.get(p, p) + figure, 17, TEXT, width=round(width) - self.px(24))
            self._put(surf, t, (x + self.px(20), ly - t.get_height() // 2), rect)
            x += width

    # what would the bot play here ------------------------------------------------
    def _bot(self, surf: pygame.Surface, rect: pygame.Rect, v: PanelView) -> None:
        pygame.draw.rect(surf, PANEL, rect, border_radius=self.px(10))
        head = self.text(v.words["bot"].upper(), 20, DIM, bold=True, width=rect.w - self.px(24))
        self._put(surf, head, (rect.x + self.px(12), rect.y + self.px(8)), rect)
        y = rect.y + head.get_height() + self.px(14)
        x = rect.x + self.px(12)
        w = rect.w - self.px(24)
        if v.bot in ("off", "busy", "note"):
            note = {"off": v.words["bot_off"], "busy": v.words["bot_busy"], "note": v.bot_note}[v.bot]
            for line in _wrap(self, note, 20, w, 3):
                t = self.text(line, 20, ACCENT if v.bot == "busy" else DIM, width=w)
                self._put(surf, t, (x, y), rect)
                y += t.get_height() + self.px(2)
            return
        line_h = self.fonts.get(max(13, self.px(19))).get_height() + self.px(3)
        room = max(0, (rect.bottom - y) // line_h - len(v.bot_lines))
        per = room // max(1, len(v.bot_lines))      # lines for each player's options
        for b in v.bot_lines:
            if y + line_h > rect.bottom:
                break
            k = list(v.players).index(b.player) if b.player in v.players else 0
            draw_shape(surf, SHAPES[k % len(SHAPES)], (x + self.px(8), y + line_h / 2), self.px(8), v.colour_of(b.player))
            t = self.text(f"{v.player_names.get(b.player, b.player)}: {b.chosen}", 19, TEXT, bold=True, width=w - self.px(24))
            self._put(surf, t, (x + self.px(22), y), rect)
            y += line_h
            if per < len(b.options):            # not room for a line each: every option on one line
                if y + line_h > rect.bottom:
                    break
                inline = " · ".join(f"{text} {_percent(chance)}" for text, chance in b.options)
                t = self.text(inline, 17, DIM, width=w - self.px(30))
                self._put(surf, t, (x + self.px(30), y), rect)
                y += line_h
                continue
            for text, chance in b.options:
                if y + line_h > rect.bottom:
                    break
                t = self.text(f"{_percent(chance):>4}  {text}", 17, TEXT if text == b.chosen else DIM,
                              width=w - self.px(30))
                self._put(surf, t, (x + self.px(30), y), rect)
                y += line_h

    # the scrubber -----------------------------------------------------------------
    def scrubber(self, surf: pygame.Surface, rect: pygame.Rect, index: int, labels: Sequence[str], typed: str,
                 help_text: str, u: float) -> pygame.Rect:
        """The scrubber across ``rect``: a tick per frame, the part played filled, a knob on
        the frame shown, the first and last turns at its ends; under it the keys. Returns the
        bar's rectangle (a click on it goes to the frame under the pointer)."""
        self.u = u
        surf.fill(BG, rect)
        n = len(labels)
        pad = self.px(16)
        first = self.text(labels[0], 18, DIM)
        last = self.text(labels[-1], 18, DIM)
        bar_y = rect.y + self.px(26)
        bar = pygame.Rect(rect.x + pad + first.get_width() + pad, bar_y - self.px(5),
                          rect.w - 4 * pad - first.get_width() - last.get_width(), self.px(10))
        self._put(surf, first, (rect.x + pad, bar_y - first.get_height() // 2), rect)
        self._put(surf, last, (bar.right + pad, bar_y - last.get_height() // 2), rect)
        pygame.draw.rect(surf, PANEL_2, bar, border_radius=self.px(5))
        x_of: Callable[[int], float] = (lambda i: bar.x + bar.w * i / (n - 1)) if n > 1 else (lambda i: bar.centerx)
        done = bar.copy()
        done.w = max(0, round(x_of(index) - bar.x))
        pygame.draw.rect(surf, ACCENT, done, border_radius=self.px(5))
        if n <= 120:
            for i in range(n):
                x = round(x_of(i))
                pygame.draw.line(surf, FAINT if i > index else BG, (x, bar.y), (x, bar.bottom), 1)
        knob = (round(x_of(index)), bar.centery)
        pygame.draw.circle(surf, ACCENT, knob, self.px(14))
        pygame.draw.circle(surf, TEXT, knob, self.px(14), max(1, self.px(3)))
        shown = labels[index] + (f"   → {typed}_" if typed else "")
        t = self.text(shown, 24, TEXT, bold=True)
        self._put(surf, t, (rect.x + pad, bar.bottom + self.px(14)), rect)
        help_w = rect.w - 3 * pad - t.get_width()
        for j, line in enumerate(_wrap(self, help_text, 17, help_w, 2)):
            h = self.text(line, 17, DIM, width=help_w)
            self._put(surf, h, (rect.x + 2 * pad + t.get_width(), bar.bottom + self.px(14) + j * (h.get_height() + self.px(2))), rect)
        return bar.inflate(0, self.px(24))

    @staticmethod
    def frame_at(bar: pygame.Rect, x: float, count: int) -> int:
        """The frame under ``x`` on the scrubber ``bar``."""
        if count <= 1 or bar.w <= 0:
            return 0
        return max(0, min(count - 1, math.floor((x - bar.x) / bar.w * (count - 1) + 0.5)))


def _percent(chance: float | None) -> str:
    return "—" if chance is None else f"{100 * chance:.0f}%"


def _wrap(panel: ReplayPanel, s: str, size: float, width: int, lines: int) -> list[str]:
    from .shell import wrap_words
    return wrap_words(panel.fonts.get(max(13, panel.px(size))), s, width, lines)


__all__ = ["SHAPES", "BotLine", "PanelView", "ReplayPanel", "draw_shape"]
