"""Synthesise the table's sounds into ``bitbox/sounds/*.wav`` (the WAVs are committed).

    python -m bitbox_tools.make_sounds [--out DIR]

Every sound is made here from sine waves, noise and envelopes (standard library only, no
samples from elsewhere): 22 050 Hz, mono, 16-bit. Run it again after changing a recipe; the
output is deterministic (seeded noise), so an unchanged recipe gives the same bytes.
"""
from __future__ import annotations

import argparse
import math
import random
import struct
import sys
import wave
from pathlib import Path
from typing import Callable, Sequence

RATE = 22050
OUT = Path(__file__).resolve().parent.parent / "bitbox" / "sounds"


def _env(i: int, n: int, attack: float = 0.005, release: float = 0.05) -> float:
    t, d = i / RATE, n / RATE
    a = min(1.0, t / attack) if attack > 0 else 1.0
    r = min(1.0, (d - t) / release) if release > 0 else 1.0
    return max(0.0, min(a, r))


def tone(freq: float, seconds: float, volume: float = 0.5, decay: float = 0.0,
         glide: float = 0.0) -> list[float]:
    """A sine (with a little of its octave), optionally decaying and gliding in pitch."""
    n = int(seconds * RATE)
    out, phase = [], 0.0
    for i in range(n):
        f = freq + glide * i / max(1, n)
        phase += 2 * math.pi * f / RATE
        v = math.sin(phase) + 0.25 * math.sin(2 * phase)
        out.append(volume * v / 1.25 * _env(i, n) * math.exp(-decay * i / RATE))
    return out


def noise(seconds: float, volume: float, decay: float, rng: random.Random) -> list[float]:
    n = int(seconds * RATE)
    return [volume * (rng.random() * 2 - 1) * math.exp(-decay * i / RATE) * _env(i, n, 0.001, 0.005)
            for i in range(n)]


def silence(seconds: float) -> list[float]:
    return [0.0] * int(seconds * RATE)


def mix(*tracks: Sequence[float]) -> list[float]:
    n = max(len(t) for t in tracks)
    return [sum(t[i] for t in tracks if i < len(t)) for i in range(n)]


def lock() -> list[float]:
    """A short mechanical click: a noise tick over a low thump."""
    rng = random.Random(1)
    return mix(noise(0.03, 0.6, 160, rng), tone(180, 0.06, 0.5, decay=60))


def reveal() -> list[float]:
    """Three rising notes."""
    out: list[float] = []
    for f in (523.25, 659.25, 783.99):
        out += tone(f, 0.09, 0.35, decay=8)
    return out + tone(1046.5, 0.22, 0.35, decay=6)


def dice() -> list[float]:
    """A rattle: irregular clicks of noise, then the roll settling."""
    rng = random.Random(7)
    out: list[float] = []
    for k in range(9):
        out += noise(0.012, 0.55, 120, rng)
        out += silence(0.015 + 0.01 * rng.random() + 0.006 * k)
    return out


def eliminated() -> list[float]:
    """A falling tone."""
    return tone(440, 0.55, 0.45, decay=2, glide=-300)


def winner() -> list[float]:
    """A short fanfare."""
    out: list[float] = []
    for f, d in ((392.0, 0.12), (523.25, 0.12), (659.25, 0.12), (783.99, 0.4)):
        out += mix(tone(f, d, 0.3, decay=3), tone(f * 1.5, d, 0.12, decay=3))
    return out


RECIPES: dict[str, Callable[[], list[float]]] = {
    "lock": lock, "reveal": reveal, "dice": dice, "eliminated": eliminated, "winner": winner,
}


def write_wav(path: Path, samples: Sequence[float]) -> None:
    data = b"".join(struct.pack("<h", max(-32767, min(32767, int(s * 32767)))) for s in samples)
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(data)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bitbox_tools.make_sounds", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(OUT), help=f"folder to write the WAVs to (default {OUT})")
    args = parser.parse_args(argv)
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        for name, recipe in RECIPES.items():
            write_wav(out / f"{name}.wav", recipe())
            print(out / f"{name}.wav")
    except OSError as exc:
        print(f"make_sounds: cannot write to {out}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
