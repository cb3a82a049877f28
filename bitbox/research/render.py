"""The table as text and as a frame, for the environments' ``render()``: public information only.

* :func:`text` (``render_mode="ansi"``): the game's public view as lines of text, for any
  cartridge: its values one ``key: value`` a line, and each list of records (the players)
  one record a line.
* :class:`Frames` (``render_mode="rgb_array"``): the table's screen as an ``(H, W, 3)``
  ``uint8`` array. A game whose research encoding names its display (``display(size)``,
  a :class:`bitbox.display.shell.Shell`) is drawn by that display, headless, from its public
  view, as the replay draws it; any other game gets :func:`text` drawn on a plain frame.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import numpy as np

#: The frame's size (width, height): the table's 16:9 screen at half its reference size.
FRAME_SIZE = (960, 540)


def _value(v: Any) -> str:
    if isinstance(v, str):
        return v
    if v is None or isinstance(v, (bool, int, float)):
        return json.dumps(v)
    return json.dumps(v, separators=(", ", ": "), sort_keys=True, default=str)


def text(view: Mapping[str, Any], title: str = "") -> str:
    """``view`` (a public view) as lines: scalars and short values first, ``key: value``,
    then every list of records, one record a line under its key."""
    lines = [title] if title else []
    tables = []
    for key, value in view.items():
        if isinstance(value, (list, tuple)) and value and all(isinstance(r, Mapping) for r in value):
            tables.append((key, value))
        else:
            lines.append(f"{key}: {_value(value)}")
    for key, rows in tables:
        lines.append(f"{key}:")
        for row in rows:
            lines.append("  " + "  ".join(f"{k}={_value(v)}" for k, v in row.items()))
    return "\n".join(lines) + "\n"


class Frames:
    """Draws the table's frames for one game (see the module docstring)."""

    def __init__(self, encoding: Any, size: tuple[int, int] = FRAME_SIZE) -> None:
        import os
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")   # pygame's banner: not on stdout
        import pygame
        self._pygame = pygame
        if not pygame.font.get_init():
            pygame.font.init()
        self.size = size
        self._encoding = encoding
        maker = getattr(encoding, "display", None)
        self.display = maker(size) if callable(maker) else None
        self._font: Any = None

    def __reduce__(self) -> tuple[Any, ...]:
        """A copy (``copy.deepcopy``, ``pickle``: an environment copied after ``render()``)
        is a new :class:`Frames` of the same encoding and size: what it holds (pygame, the
        display's surfaces) is drawn again, never copied."""
        return (Frames, (self._encoding, self.size))

    def frame(self, view: Mapping[str, Any], title: str = "") -> np.ndarray:
        pygame = self._pygame
        if self.display is not None:
            self.display.render(view, full=True)
            surface = self.display.surface
        else:
            surface = self._text_frame(text(view, title))
        return np.ascontiguousarray(pygame.surfarray.array3d(surface).swapaxes(0, 1), dtype=np.uint8)

    def _text_frame(self, body: str) -> Any:
        pygame = self._pygame
        if self._font is None:
            self._font = pygame.font.Font(None, 18)
        surface = pygame.Surface(self.size)
        surface.fill((16, 18, 24))
        y = 6
        for line in body.splitlines():
            if y > self.size[1] - 16:
                break
            surface.blit(self._font.render(line, True, (230, 230, 230)), (8, y))
            y += 16
        return surface


__all__ = ["FRAME_SIZE", "Frames", "text"]
