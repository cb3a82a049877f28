"""Fakes for tests and tools: a hub and controllers that need no device or thread.

``FakeHub``/``FakeSim`` stand in for :class:`bitbox.hub.Hub` and its simulated controllers,
``EventHand`` feeds a referee directly, ``RecordingHub`` wraps a real hub and records.
"""
from .fakehub import EventHand, FakeHub, FakeSim, HubLike, RecordingHub

FakeController = FakeSim

__all__ = ["EventHand", "FakeController", "FakeHub", "FakeSim", "HubLike", "RecordingHub"]
