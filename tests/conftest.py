"""Shared fixtures. Every test runs headless: pygame gets the dummy video and audio drivers, and
bitbox.discovery a runtime folder of its own."""
from __future__ import annotations

import atexit
import os
import shutil
import tempfile

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
# The runtime folder where `bitbox emulate` registers its controllers for discovery: one of
# this test process's own (each xdist worker has its own), never the user's, so no test sees
# another's emulators or a maker's. Subprocesses inherit it.
_RUNTIME = tempfile.mkdtemp(prefix="bitbox-runtime-")
os.environ["BITBOX_RUNTIME_DIR"] = _RUNTIME
atexit.register(shutil.rmtree, _RUNTIME, True)

import pytest  # noqa: E402 (after the environment it reads)


@pytest.fixture(scope="session")
def content():
    from outspeed.content import load_content
    return load_content()
