"""Hypothesis strategies for every message (needs the `test` extra: hypothesis).

    from firmware_protocol.strategies import messages, message_of
    @given(messages())
    def test_round_trip(message): ...

Strategies are derived from each field's kind, so a new message type is covered by adding it
to messages.py.
"""

from __future__ import annotations

from hypothesis import strategies as st

from .constants import MAX_POSITIONS, MAX_TEXT_BYTES, MIN_POSITIONS
from .messages import MESSAGE_TYPES, Message


def _u(bits: int) -> st.SearchStrategy[int]:
    return st.integers(0, (1 << bits) - 1)


_u8 = _u(8)

texts = st.text(st.characters(codec="utf-8"), max_size=MAX_TEXT_BYTES).filter(
    lambda s: len(s.encode("utf-8")) <= MAX_TEXT_BYTES
)

KIND_STRATEGIES: dict[str, st.SearchStrategy] = {
    "u8": _u8,
    "u16": _u(16),
    "u32": _u(32),
    "u64": _u(64),
    "bool": st.booleans(),
    "position": st.integers(0, MAX_POSITIONS - 1),
    "geometry": st.tuples(*[st.integers(MIN_POSITIONS, MAX_POSITIONS)] * 3),
    "version": st.tuples(_u8, _u8, _u8),
    "rgb": st.tuples(_u8, _u8, _u8),
    "text": texts,
}


def message_of(cls: type[Message]) -> st.SearchStrategy[Message]:
    """Any valid message of class `cls`."""
    return st.builds(cls, *[KIND_STRATEGIES[kind] for kind in cls._kinds])


def messages(direction: str | None = None) -> st.SearchStrategy[Message]:
    """Any valid message (of one direction: messages.CONTROLLER_TO_HOST / HOST_TO_CONTROLLER)."""
    classes = [c for c in MESSAGE_TYPES.values() if direction in (None, c.DIRECTION)]
    return st.one_of([message_of(c) for c in classes])
