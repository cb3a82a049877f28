"""Fuzz: 100,000 corrupted copies of valid frames, and random byte streams.

The corruption model is the one the false-accept measurement uses (bitbox_tools.bench.codec):
bit flips, inserted bytes, deleted bytes, truncation with or without a delimiter, and mixes
of those. Each corrupted frame is followed by two good marker frames. All cases are joined
into one stream and fed to one decoder in random-sized reads (the efficient way to push
100,000 cases through), and the result is checked against an oracle that needs no CRC:
split the stream on 0x00; a part that is byte-for-byte a valid frame must give its message,
any other non-empty part must give nothing and count as one bad frame. That is exactly
"no exception, never a message from a corrupted frame, every intact frame decoded". Resync:
the second marker after every corrupted frame always comes out, and the first one is lost
only when the corruption ate the delimiter that would have ended the corrupted frame.
"""

from __future__ import annotations

import random

from bitbox_tools.bench.codec import corrupt, is_intact, sample_messages

import firmware_protocol as fp
from firmware_protocol.firmware import wire

CORRUPTED = 100_000  # corrupted copies of valid frames
GARBAGE = 10_000  # and, shuffled among them, runs of random bytes


def _markers(count: int) -> list[bytes]:
    """Serial frames of count distinct States (seq = index), built without per-frame checks."""
    new = tuple.__new__
    return [fp.encode(new(fp.State, (0, 0, 0, False, seq))) for seq in range(count)]


def _build(rng: random.Random, corrupted_count: int, garbage_count: int):
    """The stream, the oracle's table of intact frames, and each case's bad bytes."""
    pool = sample_messages(rng, 400)
    frames = [fp.encode(m) for m in pool]
    known = {frame[:-1]: message for frame, message in zip(frames, pool)}
    kinds = [True] * corrupted_count + [False] * garbage_count
    rng.shuffle(kinds)
    markers = _markers(2 * len(kinds))
    for seq, frame in enumerate(markers):
        known[frame[:-1]] = seq  # markers stand for their seq
    pieces = []
    cases = []
    for i, is_corruption in enumerate(kinds):
        if is_corruption:
            while True:  # a corruption that leaves the frame intact is redrawn
                frame = frames[rng.randrange(len(frames))]
                bad = corrupt(frame, rng)
                if not is_intact(bad, frame):
                    break
        else:
            bad = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 90)))
        cases.append(bad)
        pieces += (bad, markers[2 * i], markers[2 * i + 1])
    return b"".join(pieces), known, cases


def _oracle(stream: bytes, known: dict):
    parts = stream.split(b"\x00")
    tail = parts.pop()
    expected = []
    bad = 0
    for part in parts:
        if not part:
            continue
        if part in known:
            expected.append(known[part])
        else:
            bad += 1
    return expected, bad, tail


def _as_keys(messages: list) -> list:
    return [m.seq if type(m) is fp.State and m.centre == 0 and m.left == 0 and m.right == 0
            and not m.locked else m for m in messages]


def test_fuzz_100k_corrupted_frames() -> None:
    rng = random.Random(20_240_611)
    stream, known, cases = _build(rng, CORRUPTED, GARBAGE)
    expected, expected_bad, tail = _oracle(stream, known)
    assert tail == b""

    decoder = fp.Decoder()
    out = []
    position = 0
    while position < len(stream):
        size = rng.choice((1, 7, 64, 500, 4096, 16384))
        out += decoder.feed(stream[position : position + size])
        position += size
        assert decoder.pending <= fp.MAX_ENCODED_FRAME

    got = _as_keys(out)  # (a pool State that looked like a marker would fail this: none does)
    assert got == expected
    assert decoder.bad_frames == expected_bad
    assert decoder.unknown_messages == 0

    # Resync within one frame.
    seen = {k for k in got if isinstance(k, int)}
    lost_first = 0
    for i, bad in enumerate(cases):
        assert 2 * i + 1 in seen, f"case {i}: no resync by the second good frame"
        if 2 * i not in seen:
            lost_first += 1
            assert bad and not bad.endswith(b"\x00"), f"case {i}: a good frame was lost"
    assert lost_first < len(cases) // 2  # most corruptions keep their delimiter


def test_fuzz_firmware_reader_agrees() -> None:
    """The firmware's byte-by-byte reader passes exactly the frames the host decoder accepts."""
    rng = random.Random(77)
    stream, known, _ = _build(rng, 5_000, 500)
    decoder = fp.Decoder()
    host = decoder.feed(stream)
    reader = wire.FrameReader()
    bodies = reader.feed(stream)
    assert bodies == [fp.encode_raw(m)[:-4] for m in host]
    assert reader.bad_frames == decoder.bad_frames


def test_random_streams_give_nothing() -> None:
    """Random bytes, sparse and dense in zeros: no exception, no message, bounded buffer."""
    rng = random.Random(99)
    for zero_share in (1 / 256, 1 / 16, 1 / 4):
        decoder = fp.Decoder()
        data = bytes(0 if rng.random() < zero_share else rng.randrange(1, 256)
                     for _ in range(400_000))
        out = []
        for i in range(0, len(data), 1000):
            out += decoder.feed(data[i : i + 1000])
            assert decoder.pending <= fp.MAX_ENCODED_FRAME
        assert out == []
        # ...and the next good frame after a delimiter comes through.
        assert decoder.feed(b"\x00" + fp.encode(fp.Ping(1))) == [fp.Ping(1)]
