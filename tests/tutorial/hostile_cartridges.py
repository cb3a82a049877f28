"""Cartridges that misbehave, built on the tutorial game (tests/tutorial/test_hostile_cartridges.py
puts them on the shelf through BITBOX_GAMES): wrong member types, members that raise when
read, games that raise, exit or hang in their own code."""
from __future__ import annotations

import sys
import time
from typing import Any

from goofspiel import Goofspiel, GoofspielCartridge

from bitbox.games import OptionSpec


def _cartridge(name: str, **members: Any) -> Any:
    return type(name, (GoofspielCartridge,), {"name": name, **members})()


def _raise(*args: Any, **kwargs: Any) -> Any:
    raise RuntimeError("the cartridge broke")


def _raise_escapes(*args: Any, **kwargs: Any) -> Any:
    raise RuntimeError("\x1b[2J\x07 broke")


def _exit(*args: Any, **kwargs: Any) -> Any:
    sys.exit(0)


def _hang(*args: Any, **kwargs: Any) -> Any:
    while True:
        time.sleep(0.01)


class HangingGame(Goofspiel):
    def prompts(self) -> Any:
        return _hang()


class AskingNothing(Goofspiel):
    def prompts(self) -> Any:
        return None


def _new_asking_nothing(self: Any, players: Any, seed: int, options: Any) -> Any:
    game = GoofspielCartridge.new(self, players, seed, options)
    game.__class__ = AskingNothing
    return game


def _new_hanging(self: Any, players: Any, seed: int, options: Any) -> Any:
    game = GoofspielCartridge.new(self, players, seed, options)
    game.__class__ = HangingGame
    return game


class Exploding:
    """Every member raises when read."""

    def __getattr__(self, name: str) -> Any:
        raise RuntimeError(f"no {name}")


RAISES = _cartridge("raises", new=_raise)
EXITS = _cartridge("exits", new=_exit)
ESCAPES = _cartridge("escapes", new=_raise_escapes)
HANGS = _cartridge("hangs", new=_new_hanging)
NO_PROMPTS = _cartridge("noprompts", new=_new_asking_nothing)
TEXT_BOUND = _cartridge("textbound", min_players="2")
NO_TITLE = _cartridge("notitle", title=None)
NUMBER_OPTIONS = _cartridge("numberoptions", options=5)
TEXT_OPTION = _cartridge("textoption", options=("cards",))
HUGE_TABLE = _cartridge("hugetable", max_players=10**12)
OBJECT_DEFAULT = _cartridge("objectdefault", options=(OptionSpec("cards", object(), "cards"),))
NUMBER_BOTS = _cartridge("numberbots", bot_names=5)
NUMBER_LOCALE = _cartridge("numberlocale", locale=5)
EXPLODING = Exploding()
