"""The conformance checks fail on cartridges that break the protocol (each fault alone)."""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

import pytest

from bitbox.games import JSON, Action, GameEvent, Player, Prompt
from bitbox.games import conformance as cf
from outspeed.cartridge import OutspeedCartridge, OutspeedGame


class LeakyGame(OutspeedGame):
    """Shows how many electromagnets each player holds: hidden information."""

    def public_view(self) -> Mapping[str, JSON]:
        view = dict(self.engine.public_view())
        view["magnets"] = {p: h.count("electromagnet") for p, h in self.engine.state.held.items()}
        return view

    def private_view(self, player: Player) -> Mapping[str, JSON]:
        return {**self.engine.private_view(player), **self.public_view()}


class StrictGame(OutspeedGame):
    """Refuses the last option of every programming prompt that has several."""

    def apply(self, answers: Mapping[Player, Action]) -> Sequence[GameEvent]:
        from bitbox.games import Refusal
        for p in self.prompts():
            if p.kind == "program" and len(p.options) > 1 and answers.get(p.player) == p.options[-1]:
                raise Refusal({p.player: "too_bold"})
        return super().apply(answers)


class ShakyGame(OutspeedGame):
    """Draws its dice from a generator outside the state."""

    def apply(self, answers: Mapping[Player, Action]) -> Sequence[GameEvent]:
        s = self.engine.state
        s.forced_dice = {p: [random.choice((1, 2, 3))] * 4 for p in s.active}
        return super().apply(answers)


class CarelessGame(OutspeedGame):
    """Applies an answer that is not an option (it sets the state first, then complains)."""

    def apply(self, answers: Mapping[Player, Action]) -> Sequence[GameEvent]:
        self.engine.state.turn += 0 if all(a in p.options for p in self.prompts()
                                            for a in [answers.get(p.player)]) else 1
        return super().apply(answers)


def cartridge_of(cls: type[OutspeedGame]) -> OutspeedCartridge:
    class C(OutspeedCartridge):
        def new(self, players: Sequence[Player], seed: int, options: Mapping[str, JSON]) -> OutspeedGame:
            return cls(super().new(players, seed, options).engine)

        def from_data(self, data: Mapping[str, JSON]) -> OutspeedGame:
            return cls(super().from_data(data).engine)

        def redeal(self, game: object, seed: int) -> OutspeedGame:      # type: ignore[override]
            return cls(super().redeal(game, seed).engine)                 # type: ignore[arg-type]
    return C()


def test_a_leaky_public_view_is_caught() -> None:
    with pytest.raises(cf.ConformanceError, match="public view changes when only hidden parts do"):
        for seed in range(5):
            cf.check_public_view(cartridge_of(LeakyGame), 5, seed)


def test_a_refused_generated_option_is_caught() -> None:
    with pytest.raises(cf.ConformanceError, match="were refused"):
        for seed in range(5):
            cf.play_random(cartridge_of(StrictGame), 4, seed)


def test_chance_outside_the_state_is_caught() -> None:
    random.seed(1)
    with pytest.raises(cf.ConformanceError, match="differ|different lengths"):
        for seed in range(10):
            cf.check_determinism(cartridge_of(ShakyGame), 4, seed)


def test_a_refusal_that_changes_the_state_is_caught() -> None:
    with pytest.raises(cf.ConformanceError, match="changed the state"):
        cf.check_random_play(cartridge_of(CarelessGame), 3, 0)


def test_the_real_cartridge_passes_the_same_checks() -> None:
    c = OutspeedCartridge()
    cf.check_public_view(c, 5, 0)
    cf.check_random_play(c, 4, 0)
    cf.check_determinism(c, 4, 0)
    assert isinstance(Prompt("red", "bonus", (None,)).options, tuple)


def test_check_all_names_each_failed_check_and_never_raises() -> None:
    results = dict(cf.check_all(cartridge_of(LeakyGame)))
    assert results["setup: player bounds and options"] is None
    assert results["random play, 4 players"] is None
    assert "public view changes" in (results["no hidden information in the public view"] or "")

    class Broken(OutspeedGame):
        def prompts(self):                                          # type: ignore[no-untyped-def]
            raise ZeroDivisionError("oops")

    results = dict(cf.check_all(cartridge_of(Broken), seeds=(0,)))
    assert results["random play, 3 players"] == "ZeroDivisionError: oops"


@pytest.mark.heavy
def test_bitbox_games_check() -> None:
    import subprocess
    import sys
    run = subprocess.run([sys.executable, "-m", "bitbox.cli", "games", "--check", "outspeed"],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.splitlines()[-1] == "outspeed: no hidden information in the public view: ok"
    run = subprocess.run([sys.executable, "-m", "bitbox.cli", "games", "--check", "nope"], capture_output=True, text=True)
    assert run.returncode == 2 and run.stderr.startswith("bitbox games: no game called 'nope'")
