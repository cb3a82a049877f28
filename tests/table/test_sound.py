"""The table's sounds (bitbox.sound): the project's own WAVs, played through pygame's mixer on
SDL's dummy audio driver; silent, never a crash, with no mixer or no device; what the table
loop plays during a real game."""
from __future__ import annotations

import io
import os
import subprocess
import sys
import wave

import pygame
import pytest

from bitbox.sound import NAMES, SOUND_DIR, Sounds
from outspeed.display import Lang
from bitbox.table.referee import Pace
from .helpers import TableLoop

from .helpers import Table, new_game


@pytest.fixture
def dummy_audio(monkeypatch):
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    yield
    if pygame.mixer.get_init():
        pygame.mixer.quit()


def test_the_committed_sounds_are_what_the_script_makes(tmp_path):
    r = subprocess.run([sys.executable, "-m", "bitbox_tools.make_sounds", "--out", str(tmp_path)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    for name in NAMES:
        made, shipped = tmp_path / f"{name}.wav", SOUND_DIR / f"{name}.wav"
        assert made.read_bytes() == shipped.read_bytes(), name
        with wave.open(str(shipped)) as w:
            assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, 22050)
            assert 0.02 < w.getnframes() / w.getframerate() < 1.5        # short sounds


def test_sounds_play_on_the_dummy_audio_driver(dummy_audio):
    s = Sounds.open()
    assert s.audible and set(s.clips) == set(NAMES), s.reason
    for name in NAMES:
        s.play(name)
    s.play("no such sound")                  # ignored
    assert s.played == list(NAMES)
    assert pygame.mixer.get_busy()           # something is playing
    s.close()


def test_muted_is_silent(dummy_audio):
    s = Sounds.open(muted=True)
    assert not s.audible and s.reason == "muted"
    s.play("lock")
    assert s.played == ["lock"] and not pygame.mixer.get_init()


def test_no_mixer_is_silent_and_never_crashes(monkeypatch):
    class Broken:
        def get_init(self):
            return False

        def init(self, *a, **k):
            raise pygame.error("No available audio device")

    monkeypatch.setattr(pygame, "mixer", Broken())
    s = Sounds.open()
    assert not s.audible and "No available audio device" in s.reason
    s.play("winner")                         # silent, no exception
    assert s.played == ["winner"]


def test_missing_files_are_silent(dummy_audio, tmp_path):
    s = Sounds.open(folder=tmp_path)
    assert not s.audible and s.reason == "no sound files"
    s.play("dice")


def test_a_device_that_fails_while_playing_goes_silent(dummy_audio):
    s = Sounds.open()

    class Gone:
        def play(self):
            raise pygame.error("device lost")

    s.clips["lock"] = Gone()
    s.play("lock")
    assert not s.clips and "device lost" in s.reason
    s.play("lock")                           # still no exception


def test_a_game_at_the_table_sounds_lock_reveal_dice_elimination_winner(dummy_audio):
    t = Table(new_game(players=6, seed=4), bots=("red", "blue", "green", "yellow", "purple", "orange"),
              pace=Pace().scaled(0))
    s = Sounds.open()
    loop = TableLoop(t.s, t.hub, t.drivers, None, Lang("en"), headless=True, out=io.StringIO(),
                     snapshots=None, size=(320, 180), max_seconds=120, sound=s)
    assert loop.run() == 0 and t.s.finished
    assert {"lock", "reveal", "winner"} <= set(s.played)
    eliminated = any(e.kind == "eliminated" for e in t.s.log) or any(
        not p.get("active", True) for p in t.game.public_view()["players"])
    if eliminated:
        assert "eliminated" in s.played
    assert s.played[-1] == "winner" and s.played.count("winner") == 1
    s.close()


def test_no_audio_device_a_windowed_game_plays_on_silently(monkeypatch):
    monkeypatch.setenv("SDL_AUDIODRIVER", "no-such-driver")
    if pygame.mixer.get_init():
        pygame.mixer.quit()
    s = Sounds.open()
    assert not s.audible and "no-such-driver" in s.reason
    t = Table(new_game(players=3, seed=8), bots=("red", "blue", "green"), pace=Pace().scaled(0))
    class CloseAtTurn2:
        def update(self, session, now):
            if session.game.turn >= 2:
                pygame.event.post(pygame.event.Event(pygame.QUIT))

    loop = TableLoop(t.s, t.hub, [*t.drivers, CloseAtTurn2()], None, Lang("en"), headless=False,
                     out=io.StringIO(), snapshots=None, size=(1024, 576), fps=1000, max_seconds=60, sound=s)
    assert loop.run() == 0 and t.game.state.turn >= 2
    assert {"lock", "reveal"} <= set(s.played)


def test_headless_play_is_silent_and_mute_changes_nothing_else(tmp_path):
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    common = ["play", "--headless", "--players", "3", "--seed", "8", "--speed", "0", "--size", "320x180"]
    outs = []
    for name, extra in (("mute", ["--mute"]), ("plain", [])):
        r = subprocess.run([sys.executable, "-m", "outspeed.cli", *common, *extra, "--journal", f"{name}.sqlite",
                            "--snapshots", name], capture_output=True, text=True, cwd=tmp_path, timeout=120, env=env)
        assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
        outs.append([line for line in r.stdout.splitlines() if not line.startswith(("Outspeed game", "game "))])
    assert outs[0] == outs[1]


def test_sound_in_table_yaml_is_checked(tmp_path):
    from outspeed.content import ConfigError
    from bitbox.table.config import load_table_config
    good = tmp_path / "good.yaml"
    good.write_text("sound: false\n")
    assert load_table_config(good).sound is False
    bad = tmp_path / "bad.yaml"
    bad.write_text("sound: maybe\n")
    with pytest.raises(ConfigError, match="field sound: expected true or false"):
        load_table_config(bad)


def test_opening_does_not_start_the_mixer_the_first_sound_does(dummy_audio):
    if pygame.mixer.get_init():
        pygame.mixer.quit()
    s = Sounds.open()
    assert not pygame.mixer.get_init()                # the table's first frame does not wait for audio
    s.play("lock")
    assert pygame.mixer.get_init() and s.audible and s.played == ["lock"]
    s.close()
    assert not pygame.mixer.get_init()


def test_closing_sounds_never_started_starts_nothing(dummy_audio):
    if pygame.mixer.get_init():
        pygame.mixer.quit()
    Sounds.open().close()
    assert not pygame.mixer.get_init()
