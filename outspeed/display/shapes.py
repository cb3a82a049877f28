"""Drawn symbols: ships (one shape per colour), path lights, fuel cubes, moves, bonus
tokens and silhouettes (the dice and the padlock are the console's: :mod:`bitbox.display.pieces`).
Symbols are drawn as shapes, never as font glyphs, so no font can be missing them."""
from __future__ import annotations

import math

import pygame

from bitbox.display.pieces import (DIE_COLOURS, PIP_LAYOUT, Colour, _darker, _disc, _lighter, _poly, draw_die,
                                   draw_padlock, pip_centres)

OUTLINE: Colour = (10, 12, 20)


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
        assert big is not None                  # the same shape as pts, larger
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


__all__ = ["DIE_COLOURS", "PIP_LAYOUT", "draw_die", "draw_padlock", "pip_centres"]
