"""The console's drawn pieces, shared by every game's display: the box's dice (pips; the
yellow die's faces are costs), the padlock of a controller's lock, and the small drawing
helpers they use. Drawn as shapes, never as font glyphs, so no font can be missing them."""
from __future__ import annotations

import math

import pygame
from pygame import gfxdraw

Colour = tuple[int, int, int]


def _darker(c: Colour, f: float = 0.55) -> Colour:
    return (int(c[0] * f), int(c[1] * f), int(c[2] * f))


def _lighter(c: Colour, f: float = 0.45) -> Colour:
    return tuple(int(v + (255 - v) * f) for v in c)  # type: ignore[return-value]


def _poly(surf: pygame.Surface, pts: list[tuple[float, float]], colour: Colour, outline: Colour | None, width: int) -> None:
    ipts = [(round(x), round(y)) for x, y in pts]
    gfxdraw.filled_polygon(surf, ipts, colour)
    gfxdraw.aapolygon(surf, ipts, colour)
    if outline is not None and width > 0:
        pygame.draw.polygon(surf, outline, ipts, width)


def _disc(surf: pygame.Surface, cx: float, cy: float, r: float, colour: Colour, outline: Colour | None = None, width: int = 0) -> None:
    cx, cy, r = round(cx), round(cy), max(1, round(r))
    if outline is not None and width > 0:
        gfxdraw.filled_circle(surf, cx, cy, r, outline)
        gfxdraw.aacircle(surf, cx, cy, r, outline)
        r = max(1, r - width)
    gfxdraw.filled_circle(surf, cx, cy, r, colour)
    gfxdraw.aacircle(surf, cx, cy, r, colour)


def draw_padlock(surf: pygame.Surface, centre: tuple[float, float], s: float, colour: Colour, closed: bool = True) -> None:
    cx, cy = centre
    body = pygame.Rect(0, 0, round(s * 0.7), round(s * 0.5))
    body.midtop = (round(cx), round(cy - s * 0.05))
    arc = pygame.Rect(0, 0, round(s * 0.46), round(s * 0.6))
    arc.midbottom = (round(cx + (0 if closed else s * 0.22)), round(cy + s * 0.12))
    pygame.draw.arc(surf, colour, arc, 0, math.pi, max(2, round(s / 9)))
    if closed:
        pygame.draw.line(surf, colour, (arc.left + 1, arc.centery), (arc.left + 1, body.top), max(2, round(s / 9)))
    pygame.draw.line(surf, colour, (arc.right - 2, arc.centery), (arc.right - 2, body.top), max(2, round(s / 9)))
    pygame.draw.rect(surf, colour, body, border_radius=max(1, round(s / 12)))


def draw_wheel(surf: pygame.Surface, centre: tuple[float, float], r: float, which: str, colour: Colour) -> None:
    """A controller's wheel as a ring with a pointer, the pointer telling which wheel by its
    shape as well as the word beside it: left points left, centre up, right right."""
    cx, cy = centre
    w = max(2, round(r / 4))
    pygame.draw.circle(surf, colour, (round(cx), round(cy)), max(2, round(r)), w)
    angle = {"left": math.pi, "centre": -math.pi / 2, "right": 0.0}.get(which, -math.pi / 2)
    tip = (cx + math.cos(angle) * r * 0.95, cy + math.sin(angle) * r * 0.95)
    pygame.draw.line(surf, colour, (round(cx), round(cy)), (round(tip[0]), round(tip[1])), w)
    _disc(surf, cx, cy, max(1, r / 4), colour)


PIP_LAYOUT: dict[int, list[tuple[float, float]]] = {
    1: [(0.5, 0.5)],
    2: [(0.27, 0.27), (0.73, 0.73)],
    3: [(0.27, 0.27), (0.5, 0.5), (0.73, 0.73)],
    4: [(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)],
    5: [(0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)],
    6: [(0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)],
}
DIE_COLOURS: dict[str, tuple[Colour, Colour]] = {
    "yellow": ((250, 210, 40), (40, 30, 10)),
    "blue": ((45, 120, 235), (245, 248, 255)),
}


def pip_centres(rect: pygame.Rect, n: int) -> list[tuple[int, int]]:
    """Where the pips of face ``|n|`` are drawn in a die of ``rect`` (tests read them)."""
    return [(round(rect.x + fx * rect.w), round(rect.y + fy * rect.h)) for fx, fy in PIP_LAYOUT.get(min(abs(n), 6), [])]


def draw_die(surf: pygame.Surface, rect: pygame.Rect, die: str, value: int | None) -> None:
    """A die showing ``value`` as pips; the yellow die's faces are costs (−1..−3), shown
    with a bold minus bar in the top-right corner (a tenth of the die high: read from 3 m).
    ``value`` None draws a blank "?" die."""
    face, pip = DIE_COLOURS.get(die, ((230, 230, 230), (20, 20, 20)))
    pygame.draw.rect(surf, _darker(face, 0.6), rect.inflate(4, 4), border_radius=max(2, rect.w // 6))
    pygame.draw.rect(surf, face, rect, border_radius=max(2, rect.w // 7))
    if value is None:
        return
    r = max(2, round(rect.w * 0.085))
    for x, y in pip_centres(rect, value):
        _disc(surf, x, y, r, pip)
    if value < 0 or abs(value) > 6:
        bar = pygame.Rect(0, 0, round(rect.w * 0.3), max(3, round(rect.w * 0.1)))
        bar.center = (round(rect.x + rect.w * 0.73), round(rect.y + rect.h * 0.16))
        pygame.draw.rect(surf, pip, bar)
