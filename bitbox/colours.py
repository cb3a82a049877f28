"""The seat colours: one list for the console and every game.

A seat is named by its colour (the controllers' lights, the screen's panels, the players of
a game, the simulator's seats all use these names, in this order). Two palettes give each
colour as RGB: :data:`LIGHT_RGB` for a controller's LEDs (saturated, as an LED shows them)
and :data:`SCREEN_RGB` for the table display (lighter, readable on its dark background).
"""
from __future__ import annotations

RGB = tuple[int, int, int]

#: The seat colours in seat order: seat 1 is red, seat 6 orange.
SEAT_COLOURS: tuple[str, ...] = ("red", "blue", "green", "yellow", "purple", "orange")

#: Each seat colour on a controller's lights.
LIGHT_RGB: dict[str, RGB] = {
    "red": (230, 25, 45), "blue": (30, 90, 230), "green": (40, 180, 60),
    "yellow": (250, 210, 20), "purple": (140, 50, 180), "orange": (245, 130, 30),
}

#: Each seat colour on the table's screen.
SCREEN_RGB: dict[str, RGB] = {
    "red": (232, 65, 60), "blue": (52, 132, 240), "green": (60, 190, 90),
    "yellow": (245, 205, 40), "purple": (170, 95, 225), "orange": (250, 140, 30),
}


def seat_names(count: int) -> tuple[str, ...]:
    """The first ``count`` seat colours (a game's default player names)."""
    if not 0 <= count <= len(SEAT_COLOURS):
        raise ValueError(f"there are {len(SEAT_COLOURS)} seat colours, not {count}")
    return SEAT_COLOURS[:count]


__all__ = ["LIGHT_RGB", "RGB", "SCREEN_RGB", "SEAT_COLOURS", "seat_names"]
