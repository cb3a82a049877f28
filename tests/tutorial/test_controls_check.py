"""The conformance check of the controls (`bitbox games --check`, docs/games.md "Step 3"): the
tutorial game's controls pass it, and each fault of a game's controls alone fails it, named:
a hinted stop never accepted, an accepted stop outside the hint, wheels that do not read back
as the option they were turned to."""
from __future__ import annotations

from typing import Any

import pytest

from bitbox.games import Prompt
from bitbox.games import conformance as cf


def tutorial() -> Any:
    from bitbox.games import find
    return find("goofspiel")


class Shifted:
    """The tutorial's controls with one fault each (``fault``)."""

    def __init__(self, fault: str) -> None:
        self.fault = fault
        self.real = tutorial().controls

    def read(self, prompt: Prompt, wheels: tuple[int, int, int]) -> Any:
        if self.fault == "lenient" and wheels[0] == 15:
            return min(prompt.options)                   # stop 15 (no card 15) plays the lowest card
        return self.real.read(prompt, wheels)

    def wheels_for(self, prompt: Prompt, action: Any) -> tuple[int, int, int]:
        left, centre, right = self.real.wheels_for(prompt, action)
        return (left + 1, centre, right) if self.fault == "off_by_one" else (left, centre, right)

    def hint(self, prompt: Prompt) -> tuple[int, int, int]:
        left, centre, right = self.real.hint(prompt)
        return (left | 1, centre, right) if self.fault == "stop_0" else (left, centre, right)


def with_controls(fault: str) -> Any:
    cartridge = tutorial()

    class Faulty(type(cartridge)):                       # type: ignore[misc]
        controls = Shifted(fault)

    return Faulty()


def test_the_tutorial_games_controls_pass() -> None:
    cf.check_controls(tutorial(), 3, 0, prompts=6)
    assert dict(cf.check_all(tutorial(), seeds=(0,)))["controls: the wheels, the hint and the options agree"] is None


@pytest.mark.parametrize("fault,said", [
    ("stop_0", "stop 0 of wheel L is hinted"),
    ("lenient", "stop 15 of wheel L is outside the hint"),
    ("off_by_one", "wheels_for(1) gives (2, 0, 0), which read as 2"),
])
def test_each_fault_of_the_controls_is_caught(fault: str, said: str) -> None:
    with pytest.raises(cf.ConformanceError, match=r"goofspiel, 2 players, seed 0, step 0, red's 'bid'") as caught:
        cf.check_controls(with_controls(fault), 2, 0, prompts=2)
    assert said in str(caught.value)
    results = dict(cf.check_all(with_controls(fault), seeds=(0,)))
    assert said in (results["controls: the wheels, the hint and the options agree"] or "")
    assert results["random play, 2 players"] is None                  # the rules are not at fault
