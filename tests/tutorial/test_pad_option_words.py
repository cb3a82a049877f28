"""The hot-seat keyboard's pad says the option chosen as the replay says it (docs/games.md,
Step 4: ``option.KIND`` with ``{option}``): an answer whose data is a list (a bid of several
cards) or a mapping is worded, not Python's ``[2, 6]`` or ``{'card': 3}``. The tutorial game,
with its answers' data made a list or a mapping."""
from __future__ import annotations

from typing import Any

import pytest

from bitbox.events import Connected, WheelsChanged
from bitbox.table.replay import option_words
from bitbox.table.seating import SeatPlan
from bitbox.table.session import KeyboardDriver, Session
from bitbox.table.words import GameWords

from .goofspiel import Controls, GoofspielCartridge
from .test_console_table import Info

PLAYERS = ("red", "blue")


class AsList(GoofspielCartridge):
    def action_to_data(self, action: Any) -> Any:
        return [int(action), int(action)]


class AsMapping(GoofspielCartridge):
    def action_to_data(self, action: Any) -> Any:
        return {"card": int(action)}


class Sim:
    def __init__(self, seat: int) -> None:
        self.seat = seat


def pad_line(cartridge: Any, code: str) -> tuple[str, str]:
    s = Session(cartridge, cartridge.new(list(PLAYERS), 5, {"cards": 5}),
                [SeatPlan(p, i) for i, p in enumerate(PLAYERS)], controls=Controls(), clock=lambda: 0.0)
    for i in range(len(PLAYERS)):
        s.handle(Connected(i, Info(100 + i), 0.0))
        s.handle(WheelsChanged(i, 100 + i, 0, 0, 0, False, 0.0))
    s.update(0.0)
    words = GameWords(cartridge, code)
    kb = KeyboardDriver({p: Sim(i) for i, p in enumerate(PLAYERS)}, s.controls, words)
    pad = kb.pad(s, words)
    assert pad is not None and pad["player"] == "red"
    prompt = s.awaiting("red")
    return pad["lines"][-1], f"◀ {option_words(cartridge, prompt, prompt.options[0], words)} ▶"


@pytest.mark.parametrize(("cartridge", "en", "fr"), [
    (GoofspielCartridge(), "◀ the 1 ▶", "◀ le 1 ▶"),
    (AsList(), "◀ the 1 1 ▶", "◀ le 1 1 ▶"),
    (AsMapping(), "◀ the card 1 ▶", "◀ le card 1 ▶"),
])
def test_the_pad_words_the_option_as_the_replay_does(cartridge: Any, en: str, fr: str) -> None:
    assert pad_line(cartridge, "en") == (en, en)
    assert pad_line(cartridge, "fr") == (fr, fr)
