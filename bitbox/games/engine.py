"""What every rules engine whose game keeps its ``state`` answers the same way.

A game's engine stays its own (pure, deterministic, importing nothing of the table); these
are the pieces engines share, written once (Outspeed's and Last One Alive's engines use them):
the queries every engine whose state holds ``phase`` and ``finished`` gives alike, and draws
from a :class:`random.Random` that are exactly the library's (the same numbers from the same
generator, so saved games and golden replays stay the same) without its general functions'
nested calls and checks, which a simulation pays millions of times.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, TypeVar

T = TypeVar("T")


class StateQueries:
    """``phase`` and ``finished``, read from the game's ``state`` (no slots of its own, so a
    slotted engine stays slotted)."""

    __slots__ = ()
    state: Any

    @property
    def phase(self) -> str:
        phase: str = self.state.phase
        return phase

    @property
    def finished(self) -> bool:
        finished: bool = self.state.finished
        return finished


def randbelow(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for ``n`` > 0: the same draws (what :class:`random.Random` does:
    ``getrandbits`` of ``n``'s bit length until below ``n``). Another kind of generator (a
    subclass may draw otherwise) is asked its own ``randrange``."""
    if type(rng) is not random.Random or n <= 0:
        return rng.randrange(n)
    getrandbits = rng.getrandbits
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def choice(rng: random.Random, seq: Sequence[T]) -> T:
    """``rng.choice(seq)``: the same draws. It is ``seq[rng._randbelow(len(seq))]``, drawn
    as :func:`randbelow` does, inline."""
    n = len(seq)
    if not n or type(rng) is not random.Random:
        return rng.choice(seq)
    getrandbits = rng.getrandbits
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return seq[r]


def shuffle(rng: random.Random, x: list[Any]) -> None:
    """``rng.shuffle(x)``: the same draws and the same order. ``random.Random.shuffle`` swaps
    each ``x[i]``, last first, with an ``x[j]``, ``j = rng._randbelow(i + 1)``, which draws
    ``getrandbits(k)`` until below ``i + 1``."""
    if type(rng) is not random.Random:
        rng.shuffle(x)
        return
    getrandbits = rng.getrandbits
    k = len(x).bit_length()                         # (i + 1).bit_length(), kept as i goes down
    low = (1 << k >> 1) - 1                         # the least i whose i + 1 has k bits
    for i in range(len(x) - 1, 0, -1):
        if i < low:
            k -= 1
            low >>= 1
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


__all__ = ["StateQueries", "choice", "randbelow", "shuffle"]
