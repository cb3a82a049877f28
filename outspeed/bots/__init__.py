"""Bots: players that see only what a player sees (the public view and their own hidden
information) and answer with legal inputs.

=============  ==========================================================================
``random``     uniform among the legal inputs (:class:`RandomBot`)
``greedy``     best immediate position, fuel-aware (:class:`GreedyBot`)
``lookahead``  expected value over dice and opponents' likely choices, one turn ahead
               (:class:`LookaheadBot`)
=============  ==========================================================================

:func:`make_bot` builds one by name.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from .base import Bot, LazyView, legal_programs, play_game
from .greedy import GreedyBot
from .lookahead import LookaheadBot
from .random_bot import RandomBot

BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot, "greedy": GreedyBot, "lookahead": LookaheadBot}

#: ``--bots mixed``: these bots, cycled over the bot seats (the demo's default, config/table.yaml).
MIXED: tuple[str, ...] = ("lookahead", "greedy", "random")


def make_bot(name: str, seed: int | None = None, *, dice: Mapping[str, Sequence[int]] | None = None,
             **options: Any) -> Bot:
    """A bot by name (see :data:`BOTS`), seeded. ``dice`` gives the dice faces to bots that
    reason about rolls (the default faces otherwise); ``options`` go to the constructor."""
    try:
        cls = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r} (known: {', '.join(BOTS)})") from None
    if cls is RandomBot:
        return cls(seed, **options)
    return cls(seed, dice=dice, **options)


__all__ = ["BOTS", "MIXED", "Bot", "GreedyBot", "LazyView", "LookaheadBot", "RandomBot", "legal_programs",
           "make_bot", "play_game"]
