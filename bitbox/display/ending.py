"""The end of a game, for every game: who won, why, and each player's figures.

When a game ends the table shows (a headless table draws it over the last turn's snapshot; a replay
shows on its last frame) a panel over the table: the title, the game's own line saying how it
ended (its ``game_over`` event in the table's words: "Game over on the third apocalypse
token…"), then a row per player: their colour's mark, their name (or colour), WINNER, and
the figures the game gives. The same is printed as lines (:func:`ending_lines`).

**Figures** come from the game's optional ``figures(view, events)`` (a cartridge member, or a
:class:`~bitbox.table.journal_commands.TableKit`'s; docs/games.md): given the final *public*
view and the public events of the game, it returns ``{player: [(key, value), ...]}`` in the
order to show; a label is the game's ``figure.KEY`` message (its catalogue, so it is in the
table's language), else the key; a value is shown as the game's words show values. Only
public facts go in, so the end screen cannot tell a secret. A game without the member shows
the winners and the reason only. A hook that fails or returns something else is ignored
(the winner is still shown): the end of a game must not crash the table.
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bitbox.i18n import Words

log = logging.getLogger("bitbox.table")

#: ``figures(view, events)``: see the module docstring
FiguresHook = Callable[[Mapping[str, Any], Sequence[tuple[str, Mapping[str, Any]]]], Any]


@dataclass(frozen=True)
class Ending:
    """A finished game as the end screen shows it (worded in the table's language)."""

    players: tuple[str, ...]
    winners: tuple[str, ...]
    title: str                                              # "Game over"
    reason: str                                             # the game's game_over line
    names: Mapping[str, str] = field(default_factory=dict)  # player -> as worded (a name or a colour)
    figures: Mapping[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)   # player -> (label, value)
    winner_tag: str = "WINNER"


def game_figures(hook: FiguresHook | None, view: Mapping[str, Any],
                 events: Sequence[tuple[str, Mapping[str, Any]]]) -> dict[str, list[tuple[str, Any]]]:
    """The hook's figures, checked (see the module docstring); {} without a hook or when it
    fails."""
    if hook is None:
        return {}
    try:
        given = hook(view, events)
        out: dict[str, list[tuple[str, Any]]] = {}
        for player, pairs in dict(given).items():
            out[str(player)] = [(str(k), v) for k, v in pairs]
        return out
    except Exception as exc:                    # a game's hook must not crash the end of a game
        log.debug("the game's figures failed: %r", exc)
        return {}


def _label(words: Any, key: str) -> str:
    has = getattr(words, "has", None)
    if callable(has) and has(f"figure.{key}"):
        return str(words.t(f"figure.{key}"))
    return key.replace("_", " ")


def _value(words: Any, v: Any) -> str:
    value = getattr(words, "value", None)
    if callable(value):
        return str(value(v))
    if isinstance(v, bool):
        say = Words(getattr(words, "code", "en"))
        return say.t("word.yes") if v else say.t("word.no")
    if isinstance(v, float):
        return f"{v:g}"
    return "—" if v is None else str(v)


def ending_of(words: Any, players: Sequence[str], winners: Sequence[str], log_entries: Sequence[Any],
              view: Mapping[str, Any], hook: FiguresHook | None = None) -> Ending:
    """The end screen of a game: ``log_entries`` are its public events (``kind``/``data``
    entries), ``view`` its final public view."""
    events = [(str(getattr(e, "kind", "")), dict(getattr(e, "data", {}) or {})) for e in log_entries]
    over = [d for k, d in events if k == "game_over"]
    if over:
        reason = str(words.event("game_over", over[-1]))
    elif winners:
        reason = str(words.t("ui.winner", players=words.players(list(winners))))
    else:
        reason = str(words.t("ui.no_winner"))
    figures = {p: tuple((_label(words, k), _value(words, v)) for k, v in pairs)
               for p, pairs in game_figures(hook, view, events).items() if p in players}
    say = Words(getattr(words, "code", "en"))           # the console's words: the title and the tag
    return Ending(tuple(players), tuple(winners), say.t("ui.game_over"), reason,
                  {p: str(words.player(p)) for p in players}, figures, say.t("ending.winner"))


def ending_lines(ending: Ending) -> list[str]:
    """The end screen as printed lines: one per player (``Ana — WINNER — score 12``)."""
    out = []
    for p in ending.players:
        parts = [ending.names.get(p, p)]
        if p in ending.winners:
            parts.append(ending.winner_tag)
        figures = ending.figures.get(p, ())
        if figures:
            parts.append(", ".join(f"{label} {value}" for label, value in figures))
        out.append("  " + " — ".join(parts))
    return out


def draw_ending(display: Any, ending: Ending, surface: Any = None) -> Any:
    """Draw ``ending`` over the table on ``surface`` (default: the display's) with the
    display's fonts and scale (a :class:`bitbox.display.shell.Shell`); returns the panel's
    rectangle. What it wrote is in ``display.labels["ending"]`` (the tests read it)."""
    import pygame

    from .shell import ACCENT, BG, DIM, PANEL_2, TEXT
    surf = surface if surface is not None else display.surface
    w, h = surf.get_size()
    px = display.px
    rows = max(1, len(ending.players))
    labels = list(dict.fromkeys(label for p in ending.players for label, _ in ending.figures.get(p, ())))
    head_h = px(250) + (px(60) if labels else 0)
    row_h = min(px(96), (h * 0.92 - head_h) / rows)
    rect = pygame.Rect(0, 0, round(w * 0.9), min(round(h * 0.94), round(head_h + rows * row_h + px(20))))
    rect.center = (w // 2, h // 2)
    shade = pygame.Surface((w, h), pygame.SRCALPHA)
    shade.fill((0, 0, 0, 150))
    surf.blit(shade, (0, 0))
    pygame.draw.rect(surf, BG, rect, border_radius=px(18))
    pygame.draw.rect(surf, ACCENT, rect, px(4), border_radius=px(18))
    display._region = "ending"
    display.labels["ending"] = []
    try:
        inner = rect.w - px(80)
        display.blit(surf, display.text(ending.title, 56, ACCENT, bold=True, max_width=inner),
                     (rect.centerx, rect.y + px(24)), "midtop")
        lines = display.wrap(ending.reason, 34, inner, bold=True, lines=2)
        for i, line in enumerate(lines):
            display.blit(surf, display.text(line, 34, TEXT, bold=True, max_width=inner),
                         (rect.centerx, rect.y + px(104) + i * px(44)), "midtop")
        left, right = rect.x + px(30), rect.right - px(30)
        name_x, name_w = left + px(80), round((right - left) * 0.24)
        tag_x, tag_w = name_x + name_w + px(16), px(190)
        cols_x = tag_x + tag_w + px(16)
        col_w = (right - px(16) - cols_x) / max(1, len(labels))
        y = rect.y + px(210)
        for k, label in enumerate(labels):       # the figures' labels, a column each
            cx = cols_x + (k + 0.5) * col_w
            parts = display.wrap(label, 22, round(col_w) - px(8), lines=2)
            for j, part in enumerate(parts):
                display.blit(surf, display.text(part, 22, DIM, max_width=round(col_w) - px(8)),
                             (cx, y + px(30) * (j + 2 - len(parts))), "midtop")
        if labels:
            y += px(64)
        for p in ending.players:
            row = pygame.Rect(left, round(y), right - left, round(row_h) - px(8))
            won = p in ending.winners
            pygame.draw.rect(surf, PANEL_2, row, border_radius=px(10))
            if won:
                pygame.draw.rect(surf, ACCENT, row, px(3), border_radius=px(10))
            colour = display.colour_of(p)
            pygame.draw.rect(surf, colour, (row.x, row.y, px(10), row.h), border_radius=px(4))
            display.player_mark(surf, p, (row.x + px(44), row.centery), min(row.h * 0.3, px(24)), colour)
            display.blit(surf, display.text(ending.names.get(p, p), 34, TEXT, bold=True, max_width=name_w),
                         (name_x, row.centery), "midleft")
            if won:
                display.blit(surf, display.text(ending.winner_tag, 26, ACCENT, bold=True, max_width=tag_w),
                             (tag_x, row.centery), "midleft")
            values = dict(ending.figures.get(p, ()))
            for k, label in enumerate(labels):
                if label in values:
                    display.blit(surf, display.text(values[label], 32, TEXT if won else DIM, bold=True,
                                                    max_width=round(col_w) - px(8)),
                                 (cols_x + (k + 0.5) * col_w, row.centery), "center")
            y += row_h
    finally:
        display._region = None
    return rect


__all__ = ["Ending", "FiguresHook", "draw_ending", "ending_lines", "ending_of", "game_figures"]
