"""Shared fixtures. Every test runs headless: pygame gets the dummy video and audio drivers."""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest


@pytest.fixture(scope="session")
def content():
    from outspeed.content import load_content
    return load_content()
