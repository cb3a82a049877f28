"""No English status line under ``--lang fr`` (or es, de): what `outspeed play` and
`lastonealive play` print at the table -- no display, the demo seats, the game's line, the
game saved, the game resumed, the replay of an unfinished game -- comes from the catalogues
(real subprocesses, no display)."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bitbox.i18n import Words, english

CONSOLE = english(Words.LOCALEDIR, Words.DOMAIN)


def _english_fragments(lang: str) -> set[str]:
    """The English words of every console status line, without their placeholders (those
    the language says the same way left out)."""
    words, out = Words(lang), set()
    for key, m in CONSOLE.items():
        if key.startswith(("status.", "seating.", "seat.", "kind.")):
            said = " ".join(words.raw(key, n) or "" for n in (1, 2))
            for text in (m.text, m.plural or ""):
                out.update(c.strip() for c in re.split(r"\{[^}]*\}", text) if len(c.strip()) >= 6 and c.strip() not in said)
    return out


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY")}
    env.update(XDG_DATA_HOME=str(tmp_path / "data"), SDL_AUDIODRIVER="dummy")
    return env


def _run(module: str, args: list[str], tmp_path: Path, code: int = 0) -> str:
    r = subprocess.run([sys.executable, "-m", module, *args], cwd=tmp_path, env=_env(tmp_path), capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == code and "Traceback" not in r.stderr, r.stderr
    return r.stdout + r.stderr              # the events on stdout, the status lines on stderr (logging)


@pytest.mark.parametrize("module, lang, expect", [
    ("outspeed.cli", "fr", ["aucun écran trouvé : partie sans affichage",
                            "aucune manette trouvée : partie de démonstration, 4 bots sur des manettes simulées",
                            "Partie 1 (Outspeed) : Rouge (bot), Bleu (bot), Vert (bot), Jaune (bot) ; graine 7 ; "
                            "jetons Bonus virtuels ; journal ", "partie 1 enregistrée : `outspeed play --resume",
                            "Reprise de la partie 1 (graine 7) au tour ",
                            "la partie 1 n'est pas finie : on rejoue "]),
    ("lastonealive.cli", "de", ["kein Bildschirm gefunden: Spiel ohne Anzeige",
                                "keine Controller gefunden: Demo-Partie, 4 Bots an simulierten Controllern",
                                "Last One Alive-Partie 1: Rot (Bot), Blau (Bot), Grün (Bot), Gelb (Bot); Grundspiel; "
                                "Startwert 7; virtuelle Marker; Journal ", "Partie 1 gespeichert: `lastonealive play",
                                "Partie 1 (Startwert 7) wird in Runde ",
                                "Partie 1 ist nicht beendet: ihre bisher "]),
])
def test_the_status_lines_of_play_and_replay_follow_the_language(tmp_path, module, lang, expect):
    journal = str(tmp_path / "games.db")
    common = ["--journal", journal, "--snapshots", str(tmp_path / "snaps"), "--speed", "1", "--max-seconds", "2"]
    # --max-seconds stops each game unfinished (exit 3: the test option's "gave up" on stderr)
    out = _run(module, ["play", "--lang", lang, "--seed", "7", "--players", "4", *common], tmp_path, code=3)
    out += _run(module, ["play", "--resume", *common], tmp_path, code=3)
    out += _run(module, ["replay", "--headless", "--journal", journal, "1"], tmp_path)
    lines = out.splitlines()
    for wanted in expect:
        assert any(line.startswith(wanted) for line in lines), (wanted, out)
    english_found = sorted(f for f in _english_fragments(lang) if f in out)
    assert not english_found, english_found


def test_english_is_unchanged_and_counts_agree():
    en = Words("en")
    assert en.t("seating.demo", count=4) == "no controllers found: a demo game, 4 bots on simulated controllers"
    assert en.t("seating.fill", count=1, bots=1, players=2) == "1 controller found: 1 bot fills the table to 2 players"
    assert en.t("seating.fill", count=2, bots=2, players=4) == "2 controllers found: 2 bots fill the table to 4 players"
    assert en.t("status.replay_unfinished", game=3, turns=1) == "game 3 is not finished: replaying its 1 turn so far"
    assert Words("fr").t("status.replay_unfinished", game=3, turns=0).endswith("son 0 tour joué jusqu'ici")


@pytest.mark.parametrize("lang", ["es", "fr", "de"])
def test_the_lobby_screen_speaks_the_language_and_still_reads_from_3m(lang):
    import pygame

    from bitbox.display.lobby import MIN_TEXT, LobbyScreen
    from bitbox.events import Connected, ControllerInfo
    from bitbox.table.lobby import Lobby, seat_line
    pygame.font.init()
    lobby = Lobby(("red", "blue", "green", "yellow", "purple", "orange"), 6, expected=["/dev/ttyACM9"])
    for seat, cid in enumerate((0x1D1E00000000C0DE, 0x2222000000000001)):
        lobby.handle(Connected(seat, ControllerInfo(cid, f"/dev/ttyACM{seat}", (1, 1), "ref-1.1", (7, 7, 4)), 0.0))
    lobby.take(0)
    frames = {}
    for code in ("en", lang):
        surf = pygame.Surface((1920, 1080))
        view = LobbyScreen((1920, 1080))
        view.draw(surf, lobby, title="Outspeed", bots=2, lang=code)
        assert min(r.h for r in view.labels) >= MIN_TEXT
        for i, a in enumerate(view.labels):
            assert not any(a.colliderect(b) for b in view.labels[i + 1:])
        frames[code] = pygame.image.tobytes(surf, "RGB")
    assert frames["en"] != frames[lang]                      # drawn in the language, not in English
    words = Words(lang)
    text = "".join(words.t(k, title="Outspeed", id="1d1e…c0de", port="/dev/ttyACM0", firmware="ref-1.1",
                           seconds=3, bots=2) for k in words.keys() if k.startswith("lobby."))
    font = view.fonts.get(30, False)
    assert not [c for c in set(text) if c.strip() and font.metrics(c)[0] is None]
    info = ControllerInfo(0x1D1E00000000C0DE, "/dev/ttyACM0", (1, 1), "x", (7, 7, 4))
    assert seat_line("red", info, lang="fr") == "Rouge : manette 1d1e…c0de sur /dev/ttyACM0"


def test_the_controller_test_screen_speaks_the_language():
    import pygame

    from bitbox.display.lobby import TestScreen
    from bitbox.events import SeatStatus
    pygame.font.init()
    seat = SeatStatus(seat=0, controller_id=0x1D1E00000000C0DE, port="/dev/ttyACM0", wheels=(2, 0, 1), locked=True,
                      connected=True, bad_frames=1)
    frames = []
    for code in ("en", "de"):
        surf = pygame.Surface((1280, 720))
        TestScreen((1280, 720)).draw(surf, [seat], [], lights_on=False, lang=code)
        frames.append(pygame.image.tobytes(surf, "RGB"))
    assert frames[0] != frames[1]
    assert Words("de").t("test.locked") == "VERRIEGELT" and Words("fr").t("wheel.centre") == "centre"
