"""Seeds for many games: each game's seed, and each seat's bot seed, derived from a run seed.

Game ``i`` of a run seeded ``S`` is seeded from ``(S, i)`` and the bot in seat ``k`` of that
game from ``(game seed, k)``, through SHA-256 with a namespace (one per program, so two
simulators never share seeds by accident). The seeds depend on nothing else: a run plays
the same games whatever the number of worker processes.
"""
from __future__ import annotations

import hashlib
from hashlib import sha256


def derive(namespace: str, *parts: object) -> int:
    """A 63-bit seed from ``namespace`` and ``parts`` (their ``str``, joined by ``/``)."""
    digest = hashlib.sha256("/".join(map(str, (namespace,) + parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def game_seed(namespace: str, seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded ``seed``: ``derive(namespace, seed, index)``."""
    digest = sha256(f"{namespace}/{seed}/{index}".encode()).digest()     # derive's text, made directly
    return int.from_bytes(digest[:8], "big") >> 1


def bot_seed(namespace: str, seed_of_game: int, seat: int) -> int:
    """The seed of the bot in seat ``seat`` (0-based) of the game seeded ``seed_of_game``:
    ``derive(namespace, seed_of_game, "seat", seat)``."""
    digest = sha256(f"{namespace}/{seed_of_game}/seat/{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


__all__ = ["bot_seed", "derive", "game_seed"]
