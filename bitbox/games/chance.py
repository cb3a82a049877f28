"""Seeded chance with forced outcomes: the random source a game keeps in its state.

A game that uses :class:`Chance` for every roll, shuffle and draw is reproducible from its
seed and its inputs, saves its random state with :meth:`Chance.to_data`, and lets a test
or a scenario force any outcome (:meth:`Chance.force`, what :meth:`bitbox.games.Game.force`
forwards to). Outspeed keeps its own generator (its saved games predate this class); a new
game should use this one.
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TypeVar

from .protocol import JSON, GameError

T = TypeVar("T")


class Chance:
    """A :class:`random.Random` seeded once, plus queues of forced outcomes by source."""

    __slots__ = ("rng", "forced")

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.forced: dict[str, list[int | str]] = {}

    def force(self, outcomes: Mapping[str, Sequence[int | str]]) -> None:
        """Queue outcomes by source; :meth:`roll` takes them first in, first out."""
        for source, values in outcomes.items():
            self.forced.setdefault(source, []).extend(values)

    def _forced(self, source: str) -> int | str | None:
        queue = self.forced.get(source)
        if not queue:
            return None
        value = queue.pop(0)
        if not queue:
            del self.forced[source]
        return value

    def roll(self, source: str, faces: Sequence[T]) -> T:
        """One face of a die named ``source``: the next forced outcome for it if any (it must
        be one of ``faces``), else a uniform random face."""
        forced = self._forced(source)
        if forced is not None:
            for face in faces:
                if face == forced:
                    return face
            raise GameError(f"forced outcome {forced!r} for {source} is not one of {list(faces)!r}")
        return faces[self.rng.randrange(len(faces))]

    def below(self, source: str, n: int) -> int:
        """A whole number in ``0 .. n-1`` (forced: the next outcome for ``source``)."""
        return self.roll(source, range(n))

    def shuffle(self, items: list[T]) -> None:
        """Shuffle ``items`` in place (never forced: force the draws that follow instead)."""
        self.rng.shuffle(items)

    def to_data(self) -> dict[str, JSON]:
        version, internal, gauss = self.rng.getstate()
        return {"rng": [version, list(internal), gauss],
                "forced": {k: list(v) for k, v in self.forced.items()}}

    @classmethod
    def from_data(cls, data: Mapping[str, JSON]) -> "Chance":
        chance = cls()
        rng, forced = data.get("rng"), data.get("forced") or {}
        if not (isinstance(rng, Sequence) and not isinstance(rng, str) and len(rng) == 3
                and isinstance(rng[1], Sequence) and isinstance(forced, Mapping)):
            raise GameError(f"not a saved random state: {str(data)[:80]}")
        try:
            chance.rng.setstate((rng[0], tuple(rng[1]), rng[2]))
        except (TypeError, ValueError) as exc:
            raise GameError(f"not a saved random state: {exc}") from None
        for source, values in forced.items():
            if not isinstance(values, Sequence) or isinstance(values, str) or not all(
                    isinstance(v, (int, str)) and not isinstance(v, bool) for v in values):
                raise GameError(f"not a saved random state: forced outcomes of {source} are {values!r}")
            chance.forced[str(source)] = [v for v in values if isinstance(v, (int, str))]
        return chance
