"""Drawn symbols: ships (one shape per colour), path lights, fuel cubes, moves, bonus
tokens, dice and silhouettes. Symbols are drawn as shapes, never as font glyphs, so no font
can be missing them."""
from __future__ import annotations

import math

import pygame
from pygame import gfxdraw

Colour = tuple[int, int, int]
OUTLINE: Colour = (10, 12, 20)


def _darker(c: Colour, f: float = 0.55) -> Colour:
    return (int(c[0] * f), int(c[1] * f), int(c[2] * f))


def _lighter(c: Colour, f: float = 0.45) -> Colour:
    return tuple(int(v + (255 - v) * f) for v in c)  # type: ignore[return-value]


def regular_polygon(cx: float, cy: float, r: float, n: int, start: float = -math.pi / 2) -> list[tuple[float, float]]:
    return [(cx + r * math.cos(start + 2 * math.pi * i / n), cy + r * math.sin(start + 2 * math.pi * i / n))
            for i in range(n)]


def star_points(cx: float, cy: float, r: float, n: int = 5, inner: float = 0.48) -> list[tuple[float, float]]:
    pts = []
    for i in range(2 * n):
        rr = r if i % 2 == 0 else r * inner
        a = -math.pi / 2 + math.pi * i / n
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return pts


def shape_points(shape: str, cx: float, cy: float, r: float) -> list[tuple[float, float]] | None:
    """The outline of a ship shape of radius ``r``; None for the circle."""
    if shape == "circle":
        return None
    if shape == "square":
        s = r * 0.86
        return [(cx - s, cy - s), (cx + s, cy - s), (cx + s, cy + s), (cx - s, cy + s)]
    if shape == "triangle":                      # pointing forward (right), like a ship
        return [(cx + r, cy), (cx - r * 0.75, cy - r * 0.95), (cx - r * 0.75, cy + r * 0.95)]
    if shape == "diamond":
        return [(cx, cy - r), (cx + r * 0.9, cy), (cx, cy + r), (cx - r * 0.9, cy)]
    if shape == "star":
        return star_points(cx, cy, r * 1.08)
    if shape == "hexagon":
        return regular_polygon(cx, cy, r, 6, 0)
    return None


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


def draw_ship(surf: pygame.Surface, shape: str, centre: tuple[float, float], r: float, colour: Colour,
              glow: bool = False) -> None:
    """A ship: its colour filled, a dark outline, and a light inner mark so that shape
    and colour read from afar. The centre pixel is always the pure player colour."""
    cx, cy = centre
    w = max(2, round(r * 0.14))
    if glow:
        _disc(surf, cx, cy, r * 1.35, _lighter(colour, 0.7))
    pts = shape_points(shape, cx, cy, r)
    if pts is None:
        _disc(surf, cx, cy, r, colour, OUTLINE, w)
    else:
        big = shape_points(shape, cx, cy, r + w * 0.9)
        _poly(surf, big, OUTLINE, None, 0)
        _poly(surf, pts, colour, None, 0)
    # a small highlight off-centre (keeps the centre pixel the pure colour)
    _disc(surf, cx - r * 0.38, cy - r * 0.38, max(1, r * 0.13), _lighter(colour, 0.6))


def draw_light(surf: pygame.Surface, path: str, centre: tuple[float, float], r: float, lit: bool,
               on: Colour, off: Colour) -> None:
    """A path light: left ●, centre ▲, right ● (as on the tiles and the rulebooks)."""
    cx, cy = centre
    colour = on if lit else off
    if path == "center":
        pts = [(cx, cy - r * 1.05), (cx + r * 1.05, cy + r * 0.8), (cx - r * 1.05, cy + r * 0.8)]
        if lit:
            _poly(surf, [(x, y) for x, y in regular_polygon(cx, cy + r * 0.2, r * 1.5, 3)], _darker(on, 0.35), None, 0)
        _poly(surf, pts, colour, None, 0)
    else:
        if lit:
            _disc(surf, cx, cy, r * 1.45, _darker(on, 0.35))
        _disc(surf, cx, cy, r, colour)
    if not lit:
        pygame.draw.line(surf, (120, 60, 60), (cx - r * 0.7, cy - r * 0.7), (cx + r * 0.7, cy + r * 0.7), max(2, round(r / 6)))


def draw_cube(surf: pygame.Surface, centre: tuple[float, float], s: float, colour: Colour = (200, 205, 215)) -> None:
    """A fuel cube, drawn in three faces."""
    cx, cy = centre
    h = s * 0.5
    top = [(cx, cy - h), (cx + h, cy - h * 0.5), (cx, cy), (cx - h, cy - h * 0.5)]
    left = [(cx - h, cy - h * 0.5), (cx, cy), (cx, cy + h), (cx - h, cy + h * 0.5)]
    right = [(cx + h, cy - h * 0.5), (cx, cy), (cx, cy + h), (cx + h, cy + h * 0.5)]
    _poly(surf, top, _lighter(colour, 0.3), None, 0)
    _poly(surf, left, colour, None, 0)
    _poly(surf, right, _darker(colour, 0.7), None, 0)


def draw_move(surf: pygame.Surface, centre: tuple[float, float], s: float, colour: Colour = (120, 225, 140)) -> None:
    """A move: a double chevron pointing forward."""
    cx, cy = centre
    h = s * 0.5
    for dx in (-h * 0.45, h * 0.35):
        pts = [(cx + dx - h * 0.35, cy - h), (cx + dx + h * 0.45, cy), (cx + dx - h * 0.35, cy + h),
               (cx + dx - h * 0.05, cy + h), (cx + dx + h * 0.75, cy), (cx + dx - h * 0.05, cy - h)]
        _poly(surf, pts, colour, None, 0)


def draw_token(surf: pygame.Surface, centre: tuple[float, float], s: float, colour: Colour = (240, 190, 60)) -> None:
    """A bonus token: a face-down hexagonal chip."""
    cx, cy = centre
    _poly(surf, regular_polygon(cx, cy, s * 0.52, 6, 0), _darker(colour, 0.6), None, 0)
    _poly(surf, regular_polygon(cx, cy, s * 0.40, 6, 0), colour, None, 0)
    _disc(surf, cx, cy, s * 0.12, _darker(colour, 0.6))


def draw_silhouette(surf: pygame.Surface, centre: tuple[float, float], s: float, colour: Colour = (220, 225, 235)) -> None:
    cx, cy = centre
    _disc(surf, cx, cy - s * 0.22, s * 0.17, colour)
    rect = pygame.Rect(0, 0, round(s * 0.56), round(s * 0.42))
    rect.midtop = (round(cx), round(cy - s * 0.02))
    pygame.draw.ellipse(surf, colour, rect)
    pygame.draw.rect(surf, colour, (rect.x, rect.centery, rect.w, rect.h // 2))


def draw_marker(surf: pygame.Surface, centre: tuple[float, float], s: float, colour: Colour) -> None:
    """A force-field marker: a glowing hexagonal shield."""
    cx, cy = centre
    _poly(surf, regular_polygon(cx, cy, s * 0.55, 6), _darker(colour, 0.5), None, 0)
    _poly(surf, regular_polygon(cx, cy, s * 0.44, 6), colour, None, 0)
    _poly(surf, regular_polygon(cx, cy, s * 0.22, 6), _lighter(colour, 0.6), None, 0)


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
    with a minus bar in the top-right corner. ``value`` None draws a blank "?" die."""
    face, pip = DIE_COLOURS.get(die, ((230, 230, 230), (20, 20, 20)))
    pygame.draw.rect(surf, _darker(face, 0.6), rect.inflate(4, 4), border_radius=max(2, rect.w // 6))
    pygame.draw.rect(surf, face, rect, border_radius=max(2, rect.w // 7))
    if value is None:
        return
    r = max(2, round(rect.w * 0.085))
    for x, y in pip_centres(rect, value):
        _disc(surf, x, y, r, pip)
    if value < 0 or abs(value) > 6:
        bar = pygame.Rect(0, 0, round(rect.w * 0.2), max(2, round(rect.w * 0.06)))
        bar.center = (round(rect.x + rect.w * 0.75), round(rect.y + rect.h * 0.1) + bar.h)
        pygame.draw.rect(surf, pip, bar)
