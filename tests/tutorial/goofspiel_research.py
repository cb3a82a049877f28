"""Goofspiel in the research environments (docs/games.md, "The research environments"): its
research encoding, the one game-specific part the PettingZoo and OpenSpiel adapters need
(:mod:`bitbox.research.encoding`). Installed, a game declares it in its entry points::

    [project.entry-points."bitbox.research"]
    goofspiel = "goofspiel_research:encoding"

and, while it is being written, on the shelf for one shell with the cartridge::

    BITBOX_GAMES=goofspiel=goofspiel:CARTRIDGE BITBOX_RESEARCH=goofspiel=goofspiel_research:encoding

**Actions**: ids 2 … 9 bid the cards 1 … 8 (:data:`MAX_CARDS`, the largest ``cards`` option).

**Observation** (:data:`SIZE` float32 values): the round, the rounds, the prize (0 when none),
the cards left in the pile; then one block per seat, the observing player's first and the
others after it in seat order (an empty block for a seat a smaller game lacks): the score and
eight 0/1 flags, card ``k`` still in hand. The state vector (no player) starts with the first seat.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from bitbox.games import JSON, Player, Prompt
from bitbox.research.encoding import RESERVED, EncodingBase

MAX_CARDS = 8
MAX_PLAYERS = 4
HEAD = 4                                   # round, rounds, prize, pile
BLOCK = 1 + MAX_CARDS                      # score, a flag per card
SIZE = HEAD + MAX_PLAYERS * BLOCK


class GoofspielEncoding(EncodingBase):
    names = tuple(f"bid_{card}" for card in range(1, MAX_CARDS + 1))
    observation_size = SIZE
    observation_high = float(sum(range(1, MAX_CARDS + 1)))      # the most a score can be

    def ids(self, prompt: Prompt, option: Any) -> tuple[int, ...]:
        return (RESERVED + int(option) - 1,)

    def observe(self, view: Mapping[str, JSON], player: Player, prompt: Prompt | None) -> np.ndarray:
        out = np.zeros(SIZE, dtype=np.float32)
        out[:HEAD] = [int(view["round"]), int(view["rounds"]), int(view["prize"] or 0),   # type: ignore[arg-type]
                      int(view["pile"])]                                                # type: ignore[arg-type]
        seats: list[Any] = list(view["players"])                                        # type: ignore[arg-type]
        names = [s["player"] for s in seats]
        first = names.index(player) if player in names else 0
        for k in range(len(seats)):
            seat = seats[(first + k) % len(seats)]
            at = HEAD + k * BLOCK
            out[at] = int(seat["score"])
            for card in seat["hand"]:
                out[at + int(card)] = 1.0
        return out


def encoding() -> GoofspielEncoding:
    return GoofspielEncoding()
