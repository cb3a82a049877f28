"""Bots: players that see only what a player sees (the public view and their own hidden
information) and answer with legal inputs."""
from .base import Bot, play_game
from .random_bot import RandomBot

__all__ = ["Bot", "RandomBot", "play_game"]
