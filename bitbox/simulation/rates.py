"""Rates with their 95 % Wilson score intervals, and the small-sample flag: one definition for
every simulate command (the tables, ``results.json`` and the charts of both games and of
``bitbox simulate``).

A rate is ``successes / n``: wins over games played (a shared win counts 1/k to each of the k
winners, so ``successes`` may be fractional), ships still racing over ships, picks over
programs… The Wilson score interval (Wilson 1927) stays inside 0–100 % and holds for small
samples and for rates near 0 or 1, where the normal approximation (p ± 1.96·√(p(1−p)/n)) is
too narrow or crosses 0. A rate over fewer than :data:`SMALL_SAMPLE` trials is flagged: shown,
but marked ``n=…`` (and hatched in the charts). A rate with ``n == 0`` (a path never taken, a
token never used) has no value and no interval: it is shown as ``—``, never as 0 %.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

#: The normal quantile for a two-sided 95 % interval.
Z95 = 1.959963984540054
#: Rates over fewer trials than this are flagged as small samples.
SMALL_SAMPLE = 30


def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval ``(low, high)`` of the rate ``successes / n`` (95 % by default).

    ``successes`` may be fractional (shared wins) but must lie in ``0..n``; ``n`` must be > 0."""
    if n <= 0:
        raise ValueError(f"a rate needs at least one trial, not n={n}")
    if not 0 <= successes <= n * (1 + 1e-12):
        raise ValueError(f"successes must be between 0 and n={n}, not {successes}")
    p = min(successes / n, 1.0)
    z2 = z * z
    denominator = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = z / denominator * math.sqrt(max(p * (1 - p) / n + z2 / (4 * n * n), 0.0))
    low = 0.0 if p == 0 else max(0.0, min(p, centre - half))
    high = 1.0 if p == 1 else min(1.0, max(p, centre + half))
    return low, high


@dataclass(frozen=True)
class Rate:
    """``successes`` out of ``n``: the value, its 95 % Wilson interval and the small-sample flag."""

    successes: float
    n: int

    @property
    def value(self) -> float | None:
        """The rate, or None when there was nothing to count (``n == 0``)."""
        return self.successes / self.n if self.n else None

    @property
    def ci95(self) -> tuple[float, float] | None:
        return wilson(self.successes, self.n) if self.n else None

    @property
    def small(self) -> bool:
        """Fewer than :data:`SMALL_SAMPLE` trials (including none)."""
        return self.n < SMALL_SAMPLE

    def data(self, key: str) -> dict[str, Any]:
        """The rate as ``results.json`` gives it: ``{key: value, key_ci95: [low, high], key_n: n,
        key_small_sample: bool}`` (value and interval None when ``n == 0``)."""
        ci = self.ci95
        return {key: self.value, f"{key}_ci95": None if ci is None else [ci[0], ci[1]], f"{key}_n": self.n,
                f"{key}_small_sample": self.small}


def rate_of(row: dict[str, Any], key: str) -> Rate:
    """The :class:`Rate` back from a row that holds ``Rate.data(key)`` (``successes`` rebuilt)."""
    n = int(row[f"{key}_n"])
    value = row[key]
    return Rate(0.0 if value is None else value * n, n)


__all__ = ["SMALL_SAMPLE", "Z95", "Rate", "rate_of", "wilson"]
