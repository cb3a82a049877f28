"""The table's sounds, through pygame's mixer; silent when there is no audio device.

    sound = Sounds.open(muted=False)     # never raises: no mixer / no device -> silent
    sound.play("lock")                   # one of NAMES; unknown names are ignored

The sounds are the project's own: ``tools/make_sounds.py`` synthesises them into
``bitbox/sounds/*.wav`` (committed). Any game uses the same names:

* ``lock``: a controller's lock closed (the console plays it for every game);
* ``reveal``: hidden choices revealed; ``dice``: dice rolled; ``eliminated``: a player is
  out; ``winner``: the game is over. A game says which of its events sound like what with
  :attr:`bitbox.table.app.TableLoop.SOUNDS` (event kind -> sound name).

:attr:`Sounds.played` keeps the names played (tests read it; it is kept even when silent, so
what *would* have sounded can be checked without an audio device).

:meth:`Sounds.open` does not start the mixer: that (and loading the files) happens on the
first :meth:`~Sounds.play` or the first look at :attr:`~Sounds.clips`, :attr:`~Sounds.audible`
or :attr:`~Sounds.reason`, so opening an audio device never delays the table's first frame.
"""
from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

SOUND_DIR = Path(__file__).with_name("sounds")
NAMES = ("lock", "reveal", "dice", "eliminated", "winner")


class Sounds:
    """The table's sounds; see the module docstring."""

    def __init__(self, clips: dict[str, Any] | None = None, muted: bool = False, reason: str | None = None) -> None:
        self._clips = clips or {}
        self._muted = muted
        self._reason = reason                  # why it is silent (None: it is not)
        self.played: list[str] = []
        self._folder: Path | None = None       # set by open(): the mixer is started on first use

    @property
    def clips(self) -> dict[str, Any]:
        self._start()
        return self._clips

    @property
    def muted(self) -> bool:
        self._start()
        return self._muted

    @muted.setter
    def muted(self, value: bool) -> None:
        self._muted = value

    @property
    def reason(self) -> str | None:
        self._start()
        return self._reason

    @reason.setter
    def reason(self, value: str | None) -> None:
        self._reason = value

    @property
    def audible(self) -> bool:
        return bool(self.clips) and not self.muted

    @classmethod
    def silent(cls, reason: str = "muted") -> Sounds:
        return cls(muted=True, reason=reason)

    @classmethod
    def open(cls, muted: bool = False, folder: Path = SOUND_DIR) -> Sounds:
        """The table's sounds from ``folder``: the mixer is started and the sounds loaded on
        first use (see the module); silent (never an exception) when muted, when pygame has
        no mixer, when there is no audio device, or a file is missing."""
        if muted:
            return cls.silent("muted")
        sounds = cls()
        sounds._folder = folder
        return sounds

    def _start(self) -> None:
        """Start the mixer and load the sounds, once, if :meth:`open` deferred it."""
        folder, self._folder = self._folder, None
        if folder is None:
            return
        loaded = self._load(folder)
        self._clips, self._reason, self._muted = loaded._clips, loaded._reason, loaded._muted

    @classmethod
    def _load(cls, folder: Path) -> Sounds:
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        try:
            import pygame
            mixer = pygame.mixer
            if not mixer.get_init():
                mixer.init(frequency=22050, size=-16, channels=1, buffer=512)
        except Exception as exc:  # noqa: BLE001 - no mixer module, no device, a broken driver: silence
            return cls.silent(f"no audio ({exc or type(exc).__name__})")
        clips: dict[str, Any] = {}
        for name in NAMES:
            try:
                clips[name] = mixer.Sound(str(folder / f"{name}.wav"))
            except Exception as exc:  # noqa: BLE001 - a missing or broken file: that sound is silent
                log.warning("sound %s: %s", name, exc)
        return cls(clips, reason=None if clips else "no sound files")

    def play(self, name: str) -> None:
        """Play ``name`` now (nothing when silent or unknown); never raises."""
        if name not in NAMES:
            return
        self.played.append(name)
        if self.muted:                         # (starts the mixer on first use)
            return
        clip = self._clips.get(name)
        if clip is None:
            return
        try:
            clip.play()
        except Exception as exc:  # noqa: BLE001 - a device that went away: go silent
            log.warning("sound %s: %s", name, exc)
            self._clips.clear()
            self._reason = f"audio stopped ({exc})"

    def close(self) -> None:
        self._folder = None                    # never started: nothing to stop
        if self._clips:
            try:
                import pygame
                pygame.mixer.quit()
            except Exception:  # noqa: BLE001
                pass
            self._clips.clear()
