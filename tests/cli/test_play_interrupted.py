"""Ctrl-C on the home screen of `bitbox play` (docs/table.md, "The home screen"): one line and
exit 130, as everywhere else, never a traceback. A real `bitbox play` on SDL's dummy display
(BITBOX_ASSUME_DISPLAY), interrupted by a real SIGINT once its first frame is drawn."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

PROBE = r"""
import os, signal, sys
import pygame
sent = []
for name in ("flip", "update"):
    def wrap(*a, _orig=getattr(pygame.display, name), **k):
        _orig(*a, **k)
        if not sent:                                # Ctrl-C once, when a frame of the home screen is up
            sent.append(1)
            os.kill(os.getpid(), signal.SIGINT)
    setattr(pygame.display, name, wrap)
from bitbox.cli import main
sys.exit(main(["play", "--journal", "j.sqlite"]))
"""


def test_ctrl_c_on_the_home_screen_is_one_line_and_exit_130(tmp_path: Path):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", BITBOX_ASSUME_DISPLAY="1",
               BITBOX_CONFIG_DIR=str(tmp_path / "config"), XDG_DATA_HOME=str(tmp_path / "data"),
               BITBOX_RUNTIME_DIR=str(tmp_path / "run"))      # no other test's emulated controllers
    r = subprocess.run([sys.executable, "-c", PROBE], cwd=tmp_path, env=env, capture_output=True, text=True,
                       timeout=60, stdin=subprocess.DEVNULL)
    assert (r.returncode, r.stderr) == (130, "bitbox play: interrupted\n"), r.stderr[-2000:]
    assert "Traceback" not in r.stdout
