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


def pytest_configure(config):
    config.addinivalue_line("markers", "heavy: runs for seconds (whole games in subprocesses, a campaign, "
                                       "charts); collected first (see pytest_collection_modifyitems)")


def pytest_collection_modifyitems(config, items):
    """The tests marked ``heavy`` (each runs for seconds: whole games in subprocesses, campaigns,
    charts) first, the others after them in their order. Under pytest-xdist (`./dev test`) the
    workers then take the long tests at the start and the short ones fill the end, instead of
    one worker running a long test alone at the end of the suite. (A stable sort: every worker
    collects the same order, as xdist requires.)"""
    items.sort(key=lambda item: item.get_closest_marker("heavy") is None)
