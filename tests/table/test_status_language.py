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
    return r.stdout


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
