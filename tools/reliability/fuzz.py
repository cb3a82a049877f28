"""``fuzz``: random and corrupted inputs through every decoder of both sides."""
from __future__ import annotations

import random
import time
from collections import Counter
from typing import Any

from .core import Row


FUZZ_KINDS = ("corrupted serial frame", "random bytes", "CRC-valid raw frame, random payload",
              "HID report")


def _fuzz_batch(rng: random.Random, n: int, pool: list[bytes]) -> tuple[list[bytes], list[bytes], list[bytes]]:
    """n inputs: (serial pieces, CRC-valid raw frames, HID reports)."""
    import zlib

    from bitbox_tools.bench.codec import corrupt
    serial, raws, hids = [], [], []
    randbytes, randrange, random_ = rng.randbytes, rng.randrange, rng.random
    types = (0x01, 0x02, 0x03, 0x04, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87)
    for _ in range(n):
        r = random_()
        if r < 0.35:
            serial.append(corrupt(pool[randrange(len(pool))], rng))
        elif r < 0.55:
            serial.append(randbytes(randrange(0, 96)))
        elif r < 0.85:
            t = types[randrange(len(types))] if random_() < 0.9 else randrange(256)
            body = bytes((t,)) + randbytes(randrange(0, 58))
            if random_() < 0.3 and len(body) > 1:          # plausible lengths, texts and flags
                body = body[:1] + bytes(min(b, randrange(1, 60)) for b in body[1:])
            raws.append(body + zlib.crc32(body).to_bytes(4, "little"))
        else:
            if random_() < 0.5:
                hids.append(randbytes(randrange(0, 70)))
            else:
                body = bytes((types[randrange(len(types))],)) + randbytes(randrange(0, 58))
                raw = body + zlib.crc32(body).to_bytes(4, "little")
                size = len(raw) if random_() < 0.8 else randrange(256)
                report = bytes((1 if random_() < 0.9 else randrange(256), size)) + raw
                hids.append(report + bytes(max(0, 64 - len(report))) if random_() < 0.8 else report)
    return serial, raws, hids


def campaign_fuzz(n: int, seed: int, batch: int = 20_000, firmware_share: float = 1.0) -> list[Row]:
    """``n`` inputs through the host's serial Decoder (a stream cut at random), decode_raw,
    the HID decoders, and the reference firmware's FrameReader / check_raw / parse_command."""
    import firmware_protocol as fp
    from bitbox_tools.bench.codec import sample_messages
    from firmware_protocol.firmware import wire

    rng = random.Random(seed)
    pool = [fp.encode(m) for m in sample_messages(rng, 500)]
    errors: Counter = Counter()
    samples: list[str] = []
    accepted: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    done = 0
    t0 = time.monotonic()
    decoder, hid = fp.Decoder(), fp.HidDecoder()
    reader = wire.FrameReader()

    def fail(where: str, data: bytes, exc: BaseException) -> None:
        errors[where] += 1
        if len(samples) < 5:
            samples.append(f"{where}: {data.hex()} -> {exc!r}")

    def valid(m: Any) -> bool:                 # a message that comes out must be well-formed
        try:
            return fp.decode_raw(fp.encode_raw(m)) == m
        except Exception:  # noqa: BLE001
            return False

    while done < n:
        k = min(batch, n - done)
        serial, raws, hids = _fuzz_batch(rng, k, pool)
        kinds["serial"] += len(serial)
        kinds["raw"] += len(raws)
        kinds["hid"] += len(hids)
        # The serial stream: every input between delimiters, then cut into random reads.
        pieces = []
        for piece in serial:
            pieces.append(piece)
            if rng.random() < 0.7:
                pieces.append(b"\x00")
        for raw in raws:
            pieces.append(fp.codec._cobs_encode(raw) + b"\x00")
        stream = b"".join(pieces)
        pos = 0
        while pos < len(stream):
            size = rng.choice((1, 7, 64, 512, 4096))
            chunk = stream[pos:pos + size]
            pos += size
            try:
                for m in decoder.feed(chunk):
                    accepted["serial"] += 1
                    if not valid(m):
                        fail("Decoder (accepted a malformed message)", chunk, ValueError(repr(m)))
            except Exception as exc:  # noqa: BLE001
                fail("Decoder.feed", chunk, exc)
        if firmware_share >= 1.0 or rng.random() < firmware_share:
            try:
                reader.feed(stream)
            except Exception as exc:  # noqa: BLE001
                fail("firmware FrameReader.feed", stream[:200], exc)
        for raw in raws:
            try:
                m = fp.decode_raw(raw)
                accepted["raw"] += 1
                if not valid(m):
                    fail("decode_raw (accepted a malformed message)", raw, ValueError(repr(m)))
            except fp.ProtocolError:
                pass
            except Exception as exc:  # noqa: BLE001
                fail("decode_raw", raw, exc)
            try:
                body = wire.check_raw(raw)
                if body is not None and body[0] & 0x80:
                    wire.parse_command(body)
            except Exception as exc:  # noqa: BLE001
                fail("firmware check_raw/parse_command", raw, exc)
        for report in hids:
            try:
                hm = hid.decode(report)
                if hm is not None:
                    accepted["hid"] += 1
                    if not valid(hm):
                        fail("HidDecoder (accepted a malformed message)", report, ValueError(repr(hm)))
                fp.decode_hid_report(report)
            except Exception as exc:  # noqa: BLE001
                fail("HID decoders", report, exc)
            try:
                body = wire.check_hid_report(report)
                if body is not None and body[0] & 0x80:
                    wire.parse_command(body)
            except Exception as exc:  # noqa: BLE001
                fail("firmware check_hid_report", report, exc)
        done += k
    seconds = time.monotonic() - t0
    total_errors = sum(errors.values())
    details = {"inputs": done, "kinds": dict(kinds), "accepted": dict(accepted), "errors": dict(errors),
               "samples": samples, "seconds": round(seconds, 1), "bad_frames": decoder.bad_frames + hid.bad_frames,
               "pending_max": decoder.pending, "seed": seed}
    outcome = (f"0 exceptions in {done:,} inputs ({kinds['serial']:,} serial pieces, {kinds['raw']:,} CRC-valid "
               f"raw frames, {kinds['hid']:,} HID reports), {decoder.bad_frames + hid.bad_frames:,} bad frames "
               f"counted, every accepted message well-formed; {seconds:.0f} s") if not total_errors else \
        f"{total_errors} exceptions: " + "; ".join(samples)
    return [Row("Decoder fuzzing", "seeded generator (seed %d): corrupted frames (bit flips, inserted/deleted "
                "bytes, truncation), random bytes, CRC-valid frames with random payloads, random HID reports; "
                "host Decoder/decode_raw/HidDecoder and the firmware's FrameReader/check_raw/parse_command" % seed,
                f"{done:,} inputs", outcome, total_errors == 0, details)]
