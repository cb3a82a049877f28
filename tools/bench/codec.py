"""Codec benchmarks: serial decode throughput against a baseline, and the CRC false-accept rate.

    python -m bitbox_tools.bench.codec                       # throughput, ~2 s per side
    python -m bitbox_tools.bench.codec --seconds 5
    python -m bitbox_tools.bench.codec --false-accept 3000000 # corrupted-frame trials
    python -m bitbox_tools.bench.codec --json                 # figures as JSON

Throughput: a stream of State frames, fed in 4096-byte reads (what a serial port hands over),
through `firmware_protocol.Decoder` (bytes in, State objects out). The baseline, measured in
the same run on the same reads, keeps only the irreducible work: buffer the tail, split on the
delimiter, COBS-decode and check the CRC of each frame, build no message. Both are timed in
alternating rounds and the best round of each is kept, so a busy machine hurts both alike.

False accepts: random valid frames of every type are corrupted (bit flips, inserted bytes,
deleted bytes, truncation, or a mix), each corrupted frame is put between delimiters and
decoded. A trial whose corruption left the original frame intact between two delimiters (for
example a 0x00 inserted just before the delimiter) is not a corruption and is redrawn. Any
message out of a corrupted frame is a false accept; those whose message also differs from the
one sent are counted apart.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
import zlib
from collections.abc import Callable, Sequence

from cobs.cobs import DecodeError
from cobs.cobs import decode as cobs_decode

import firmware_protocol as fp

CHUNK = 4096


def state_stream(frames: int = 20_000, seed: int = 1) -> bytes:
    """`frames` serial State frames, as a controller's wheels would produce them."""
    rng = random.Random(seed)
    out = []
    for seq in range(frames):
        message = fp.State(
            rng.randrange(16), rng.randrange(16), rng.randrange(16), rng.random() < 0.5, seq
        )
        out.append(fp.encode(message))
    return b"".join(out)


def _chunks(stream: bytes, size: int) -> list[bytes]:
    return [stream[i : i + size] for i in range(0, len(stream), size)]


def _decode_all(chunks: Sequence[bytes]) -> int:
    decoder = fp.Decoder()
    feed = decoder.feed
    count = 0
    for chunk in chunks:
        count += len(feed(chunk))
    return count


def _baseline_all(chunks: Sequence[bytes]) -> int:
    """Split on the delimiter and check each frame's CRC; no message objects."""
    residue = fp.CRC_RESIDUE
    crc32 = zlib.crc32
    tail = b""
    count = 0
    for chunk in chunks:
        parts = (tail + chunk).split(b"\x00")
        tail = parts.pop()
        for part in parts:
            try:
                if crc32(cobs_decode(part)) == residue:
                    count += 1
            except DecodeError:
                pass
    return count


def _best_rate(
    functions: dict[str, Callable[[Sequence[bytes]], int]],
    chunks: Sequence[bytes],
    frames: int,
    seconds: float,
) -> dict[str, float]:
    best = {name: 0.0 for name in functions}
    deadline = time.perf_counter() + seconds * len(functions)
    rounds = 0
    while rounds < 3 or time.perf_counter() < deadline:
        for name, function in functions.items():
            start = time.perf_counter()
            got = function(chunks)
            elapsed = time.perf_counter() - start
            if got != frames:
                raise AssertionError(f"{name} found {got} frames, expected {frames}")
            best[name] = max(best[name], frames / elapsed)
        rounds += 1
    return best


def run(seconds: float = 2.0, frames: int = 20_000, chunk_bytes: int = CHUNK) -> dict:
    """Decode throughput figures (frames per second) and their ratio, as a dict. The stream is
    fed `chunk_bytes` at a time (a serial port's read size)."""
    stream = state_stream(frames)
    chunks = _chunks(stream, chunk_bytes)
    rates = _best_rate(
        {"decoder": _decode_all, "baseline": _baseline_all}, chunks, frames, seconds
    )
    return {
        "frames_per_s": rates["decoder"],
        "baseline_frames_per_s": rates["baseline"],
        "ratio": rates["decoder"] / rates["baseline"],
        "frame_bytes": len(stream) // frames,
        "chunk_bytes": chunk_bytes,
        "frames": frames,
        "python": platform.python_version(),
        "targets": {"frames_per_s": 500_000, "ratio": 0.15},
    }


# --- false accepts --------------------------------------------------------------------------------


def sample_messages(rng: random.Random, count: int) -> list[fp.Message]:
    """`count` random valid messages, every type represented."""
    makers: list[Callable[[], fp.Message]] = [
        lambda: fp.State(
            rng.randrange(16), rng.randrange(16), rng.randrange(16), rng.random() < 0.5,
            rng.getrandbits(32),
        ),
        lambda: fp.Hello(
            1, rng.randrange(3), rng.getrandbits(64),
            (rng.randrange(4), rng.randrange(10), rng.randrange(50)),
            (rng.randint(2, 16), rng.randint(2, 16), rng.randint(2, 16)), rng.randrange(8),
        ),
        lambda: fp.ErrorReport(rng.randrange(256), "".join(
            rng.choice("abcdefghij klmnopé✓") for _ in range(rng.randrange(16)))),
        lambda: fp.Pong(rng.getrandbits(32)),
        lambda: fp.HostHello(1, rng.randrange(3)),
        lambda: fp.Welcome(1, 0, rng.random() < 0.5, rng.choice(["", "duplicate id", "full"])),
        lambda: fp.AssignSeat(rng.randrange(7), tuple(rng.randrange(256) for _ in range(3))),
        lambda: fp.SetLights(rng.random() < 0.5, rng.random() < 0.5, rng.random() < 0.5,
                             tuple(rng.randrange(256) for _ in range(3))),
        lambda: fp.Identify(rng.randrange(65536)),
        lambda: fp.RequestState(),
        lambda: fp.Ping(rng.getrandbits(32)),
    ]
    # State dominates real traffic, so it gets more weight.
    weights = [6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
    return [rng.choices(makers, weights)[0]() for _ in range(count)]


CORRUPTIONS = ("flip", "insert", "delete", "truncate", "mixed")


def corrupt(frame: bytes, rng: random.Random, how: str | None = None) -> bytes:
    """A corrupted copy of a serial `frame` (delimiter included).

    flip: 1-4 random bits flipped anywhere in the frame; insert: 1-3 random bytes inserted
    at random places; delete: 1-3 bytes removed; truncate: the frame cut short, with or
    without a delimiter after it; mixed: 2-3 of the others in a row.
    """
    how = how or rng.choice(CORRUPTIONS)
    data = bytearray(frame)
    if how == "flip":
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(len(data))
            data[i] ^= 1 << rng.randrange(8)
    elif how == "insert":
        for _ in range(rng.randint(1, 3)):
            data.insert(rng.randrange(len(data) + 1), rng.randrange(256))
    elif how == "delete":
        for _ in range(rng.randint(1, 3)):
            if len(data) > 1:
                del data[rng.randrange(len(data))]
    elif how == "truncate":
        data = data[: rng.randrange(1, max(2, len(data) - 1))]
        if rng.random() < 0.5:
            data.append(0)
    else:
        out = bytes(data)
        for _ in range(rng.randint(2, 3)):
            out = corrupt(out, rng, rng.choice(CORRUPTIONS[:4]))
        return out
    return bytes(data)


def is_intact(corrupted: bytes, frame: bytes) -> bool:
    """True if `frame`'s body still stands whole between delimiters in `corrupted`."""
    body = frame[:-1]
    return body in (b"\x00" + corrupted + b"\x00").split(b"\x00")


def false_accept(trials: int = 1_000_000, seed: int = 2024, batch: int = 2000) -> dict:
    """Measure how often a corrupted frame yields a message. Returns the figures as a dict."""
    rng = random.Random(seed)
    pool = sample_messages(rng, 500)
    frames = [fp.encode(m) for m in pool]
    accepted = differs = 0
    by_kind = {how: 0 for how in CORRUPTIONS}
    done = 0
    start = time.perf_counter()
    while done < trials:
        n = min(batch, trials - done)
        cases: list[tuple[int, bytes]] = []
        while len(cases) < n:
            index = rng.randrange(len(frames))
            how = rng.choice(CORRUPTIONS)
            bad = corrupt(frames[index], rng, how)
            if is_intact(bad, frames[index]):
                continue
            by_kind[how] += 1
            cases.append((index, bad))
        decoder = fp.Decoder()
        out = decoder.feed(b"\x00" + b"\x00".join(bad for _, bad in cases) + b"\x00")
        if out:  # attribute each message to its trial
            for index, bad in cases:
                for message in fp.Decoder().feed(b"\x00" + bad + b"\x00"):
                    accepted += 1
                    if message != pool[index]:
                        differs += 1
        done += n
    elapsed = time.perf_counter() - start
    return {
        "trials": trials,
        "false_accepts": accepted,
        "false_accepts_differing": differs,
        "rate": accepted / trials,
        # With no false accept in n trials, the rate is below 3/n with 95 % confidence.
        "upper_95": (3.0 / trials) if accepted == 0 else None,
        "by_corruption": by_kind,
        "seconds": elapsed,
        "seed": seed,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bitbox_tools.bench.codec", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="timing budget per side")
    parser.add_argument("--read-size", type=int, default=CHUNK, metavar="BYTES",
                        help=f"bytes handed to the decoder per feed (default {CHUNK})")
    parser.add_argument("--false-accept", type=int, metavar="N", default=0,
                        help="also run N corrupted-frame trials")
    parser.add_argument("--seed", type=int, default=2024, help="seed of the false-accept trials")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)

    figures: dict = {"throughput": run(args.seconds, chunk_bytes=args.read_size)}
    if args.false_accept:
        figures["false_accept"] = false_accept(args.false_accept, args.seed)
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    t = figures["throughput"]
    print(f"decode (Decoder.feed, State objects out):  {t['frames_per_s']:>11,.0f} frames/s")
    print(f"baseline (split + COBS + CRC, no objects): "
          f"{t['baseline_frames_per_s']:>11,.0f} frames/s")
    print(f"ratio: {t['ratio']:.3f}   (targets: >= 500,000 frames/s and >= 0.15)")
    print(f"frames of {t['frame_bytes']} bytes, read {t['chunk_bytes']} bytes at a time, "
          f"Python {t['python']}")
    if "false_accept" in figures:
        f = figures["false_accept"]
        bound = f" (< {f['upper_95']:.1e} at 95 % confidence)" if f["upper_95"] else ""
        print(f"false accepts: {f['false_accepts']} in {f['trials']:,} corrupted frames, "
              f"rate {f['rate']:.2e}{bound}; {f['false_accepts_differing']} with a different "
              f"message; {f['seconds']:.0f} s")
        print("corruptions: " + ", ".join(f"{k} {v:,}" for k, v in f["by_corruption"].items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
