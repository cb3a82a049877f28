"""One answer that ends several turns (goofspiel_skips.py: the prize 1 is set aside at once, so
the answer of round 3 ends rounds 3 and 4; round 4 has no answer of its own): the table writes
a snapshot for every round and the replay a frame for every round (PNGs and the GIF), the
same frame again for round 4 with its banner naming round 4; its events are printed once;
``analyse`` has a point at the start of each round someone answered in (docs/analysis.md).
Real subprocesses, a real SQLite journal, real PNG frames."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from .test_console_table import run

SKIPS = "goofspiel=goofspiel_skips:CARTRIDGE"
PLAY = ["play", "--headless", "--speed", "0", "--players", "2", "--seed", "1", "--cards", "5", "--journal",
        "j.sqlite", "--size", "640x360"]
BANNER = (20, 16, 1880, 196)             # GenericDisplay.REGIONS["banner"], at 1920x1080


@pytest.fixture(autouse=True)
def skipping_on_the_shelf(monkeypatch):
    monkeypatch.setenv("BITBOX_GAMES", SKIPS)
    yield
    sys.modules.pop("goofspiel_skips", None)


def _png(folder: Path, pattern: str, turn: int):
    from PIL import Image
    return Image.open(next(folder.glob(f"{pattern}/turn-{turn:02d}.png"))).convert("RGB")


def _only_the_banner_differs(a, b) -> None:
    from PIL import ImageChops
    box = ImageChops.difference(a, b).getbbox()
    scale = a.size[0] / 1920
    x, y, w, h = (round(v * scale) for v in BANNER)
    assert box is not None, "the copy's banner names the turn of the copy, not the first's"
    assert x <= box[0] and y <= box[1] and box[2] <= x + w and box[3] <= y + h, (box, (x, y, w, h))


@pytest.mark.heavy
def test_every_round_has_its_snapshot_and_its_replay_frame(tmp_path):
    r = run([*PLAY, "--snapshots", "live"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("set aside: card 1, round 4") == 1, r.stdout
    live = sorted(p.name for p in (tmp_path / "live").glob("goofspiel-1-*/turn-*.png"))
    assert live == [f"turn-{n:02d}.png" for n in range(1, 6)]
    _only_the_banner_differs(_png(tmp_path / "live", "goofspiel-1-*", 3), _png(tmp_path / "live", "goofspiel-1-*", 4))

    rep = run(["replay", "1", "--journal", "j.sqlite", "--headless", "--snapshots", "rs", "--size", "640x360"],
              tmp_path)
    assert rep.returncode == 0, rep.stderr
    frames = sorted(p.name for p in (tmp_path / "rs").glob("replay-goofspiel-1-*/turn-*.png"))
    assert frames == [f"turn-{n:02d}.png" for n in range(0, 6)]          # the start, then each round
    _only_the_banner_differs(_png(tmp_path / "rs", "replay-goofspiel-1-*", 3),
                             _png(tmp_path / "rs", "replay-goofspiel-1-*", 4))
    played = [line for line in r.stdout.splitlines() if line.startswith("  ")]
    assert [line for line in rep.stdout.splitlines() if line.startswith("  ")] == played   # each event once

    gif = run(["replay", "1", "--journal", "j.sqlite", "--gif", "g.gif", "--size", "320x180"], tmp_path)
    assert gif.returncode == 0 and "(frames: 6," in gif.stdout, gif.stdout + gif.stderr


def test_the_frames_of_one_answer_name_their_own_turns(tmp_path):
    from bitbox.games import find
    from bitbox.table.history import replay_frames
    from bitbox.table.journal import Journal
    from bitbox.table.journal_commands import generic_replay_view
    from bitbox.table.protocol_rules import INPUT_KIND, ProtocolJournalRules

    c = find("goofspiel")
    rules = ProtocolJournalRules(c)
    game = c.new(["red", "blue"], 1, {"cards": 5})
    with Journal(tmp_path / "j.sqlite", rules) as j:
        rec = j.new_game(game, {"seats": [{"player": p, "kind": "bot", "controller_id": None} for p in game.players],
                                "lang": "en", "bot": "random", "options": {"cards": 5}, "seed": "given"})
        for bids in ({"red": 2, "blue": 5}, {"red": 1, "blue": 4}, {"red": 4, "blue": 3}, {"red": 5, "blue": 1}):
            rec.record(INPUT_KIND, ProtocolJournalRules.input_data(c, bids), turn=game.turn, phase="bid",
                       state=rules.state_hash(game))
            game.apply(bids)
        rec.finish(list(game.winners), state=rules.state_hash(game))
        frames = replay_frames(j, rec.id, rules)
        info = j.game(rec.id)
    assert [f.turn for f in frames] == [0, 1, 2, 3, 4, 5]
    assert [f.repeat for f in frames] == [False] * 4 + [True, False]
    assert frames[4].view == frames[3].view and frames[4].inputs == frames[3].inputs == 3
    assert frames[4].events == [] and any(e.kind == "set_aside" for e in frames[3].events)
    assert [generic_replay_view(f, info, False).view["turn"] for f in frames[1:]] == [1, 2, 3, 4, 5]
