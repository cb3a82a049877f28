"""Bots on the console: players that answer prompts from what a player may know.

A bot (:class:`Bot`) gets its player's private view and one open prompt, and returns one of
the prompt's options. :class:`RandomBot` plays any game; a cartridge may offer its own bots
(:class:`BotShelf`: Outspeed's greedy and lookahead bots); :class:`~bitbox.bots.search.SearchBot`
(``search``) searches any game by redeals and rollouts. :func:`make_bot` finds a bot by
name for a cartridge, :func:`play` plays a game to its end with one bot per player.
"""
from __future__ import annotations

from .base import Bot, BotShelf, LazyView, RandomBot, bot_names, make_bot, play, seat_names

__all__ = ["Bot", "BotShelf", "LazyView", "RandomBot", "bot_names", "make_bot", "play", "seat_names"]
