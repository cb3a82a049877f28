"""Journals and game files written by the version before the protocol's journal rules, and
what its commands printed of them: the fixtures of tests/table/test_journal_fixtures.py.

``data/main-journals/`` holds, for each game, a journal (``outspeed.sqlite``,
``lastonealive.sqlite``) with:

* game 1: finished, virtual tokens, three bots, seed 5, played by the game's own command
  (``play --headless --speed 0 --bots 3 --seed 5``);
* game 2: finished, physical tokens, three controllers (Last One Alive: every token drawn
  entered from a real bag, ``drawn``), seed 6;
* Last One Alive's game 3: unfinished, physical tokens, two controllers, seed 8;
* the last game (Outspeed's 3, Last One Alive's 4): unfinished (stopped as a kill leaves it),
  virtual tokens, three bots, seed 7: what ``play --resume`` continues;

games 2 and after written through that version's journal rules exactly as its session writes them
(each input's kind and data from ``input_of``, turn and phase from ``position``, the
fingerprint of the state before it; the tokens entered from the real bag chosen by
:class:`lastonealive.controls.RealBag`), answered by a seeded random player. Each game is also
exported (``export``; the unfinished ones with ``--include-secrets``) to ``GAME-ID.json``.

``expected.json`` is what that version's commands printed of them: ``history`` (text and
``--json``), ``replay ID --headless`` of every game (its printed log and the SHA-256 of each
snapshot), ``play --resume`` of the unfinished games with bots (on a copy), and ``import`` of
every exported file into a new journal, followed by that journal's ``history --json``.

Run ``python -m tests.table.journal_fixtures write`` with the version whose files they should be
(it was run on main at 4d7dd93, before the games journaled through the protocol's rules; since,
the lines naming a command to run next name the journal with ``--journal`` when it is not the
default one: ``history``'s resume hints and ``import``'s replay hint were updated for it);
``python -m tests.table.journal_fixtures check`` runs the commands again and says what differs.
"""
from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Sequence

DATA = Path(__file__).with_name("data") / "main-journals"
GAMES = ("outspeed", "lastonealive")
FAST = ["--headless", "--speed", "0", "--size", "320x180"]
#: the games of each journal: id -> (finished, resumable with bots)
CONTENTS = {"outspeed": {1: (True, False), 2: (True, False), 3: (False, True)},
            "lastonealive": {1: (True, False), 2: (True, False), 3: (False, False), 4: (False, True)}}


def command(game: str) -> list[str]:
    found = Path(sys.executable).with_name(game)
    return [str(found)] if found.exists() else [shutil.which(game) or game]


def env(folder: Path) -> dict[str, str]:
    e = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    runtime = folder / "runtime"             # the emulated controllers' sockets: this run's own
    runtime.mkdir(mode=0o700, exist_ok=True)
    e.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", XDG_DATA_HOME=str(folder / "xdg"),
             XDG_RUNTIME_DIR=str(runtime), PYGAME_HIDE_SUPPORT_PROMPT="1")
    return e


def run(game: str, args: list[str], folder: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(command(game) + args, cwd=folder, env=env(folder), capture_output=True, text=True,
                          timeout=timeout)


def _private_copy(src: Path, dst: Path) -> Path:
    shutil.copyfile(src, dst)
    dst.chmod(0o600)
    return dst


# ---------------------------------------------------------------------------- writing the journals

def _seats(players: list[str], kind: str) -> list[dict[str, Any]]:
    return [{"controller_id": 0x5eed0000 + i, "kind": kind, "player": p} for i, p in enumerate(players)]


def _scripted(game_name: str, journal: Path, *, seed: int, players: list[str], tokens: str,
              kind: str, stop_after: int | None) -> None:
    """One game written as the session of that version writes it (see the module docstring)."""
    from bitbox.table.journal import Journal
    rng = random.Random(seed)
    if game_name == "outspeed":
        from outspeed.cartridge import CARTRIDGE
        from outspeed.journaling import RULES
        game: Any = CARTRIDGE.new(players, seed, {"first_game": False, "tokens": tokens})
        settings = {"bot": "mixed", "first_game": False, "lang": "en", "seats": _seats(players, kind),
                    "seed": "given", "tokens": tokens}
        first, bag = None, None
    else:
        from lastonealive.cartridge import CARTRIDGE
        from lastonealive.controls import Controls, RealBag
        from lastonealive.journaling import RULES
        from lastonealive.session import new_game
        game = CARTRIDGE.game_class(new_game(players, seed=seed, **CARTRIDGE.content.game_options()))
        settings = {"bot": "careful,random", "lang": "en", "seats": _seats(players, kind), "seed": "given",
                    "tokens": tokens, "variants": []}
        first = ("start", {"first": players[1]})
        bag = RealBag(Controls()) if tokens == "physical" else None
    with Journal(journal, RULES) as j:
        record = j.new_game(game.engine, settings)
        n = 0
        while not game.finished and (stop_after is None or n < stop_after):
            if first is not None:
                input_kind, data = first
                first = None
            else:
                prompts = list(game.prompts())
                answers = {p.player: (p.options[0] if p.context.get("auto") else rng.choice(p.options))
                           for p in prompts}
                input_kind, data = RULES.input_of(game, answers)
            if bag is not None:
                entered: list[str] = []
                while bag.who(game, input_kind, data, entered) is not None:
                    left = list(game.engine.state.bag)
                    for t in entered:
                        left.remove(t)
                    entered.append(left[-1 - rng.randrange(min(3, len(left)))])     # not the bag's own order
                if entered:
                    data = bag.data(input_kind, data, entered)
            turn, phase = RULES.position(game)
            record.record(input_kind, data, turn=turn, phase=phase, state=RULES.state_hash(game))
            RULES.apply_input(game, input_kind, data)
            n += 1
        if game.finished:
            record.finish(list(game.winners), state=RULES.state_hash(game))


def write() -> None:
    """Write the journals, the game files and expected.json with the code installed now."""
    if DATA.exists():
        shutil.rmtree(DATA)
    DATA.mkdir(parents=True)
    work = DATA / "work"
    work.mkdir()
    for name in GAMES:
        journal = DATA / f"{name}.sqlite"
        r = run(name, ["play", *FAST, "--bots", "3", "--seed", "5", "--journal", str(journal),
                       "--snapshots", str(work / "s")], work)
        assert r.returncode == 0, r.stderr
        _scripted(name, journal, seed=6, players=["red", "blue", "green"], tokens="physical", kind="controller",
                  stop_after=None)
        if name == "lastonealive":
            _scripted(name, journal, seed=8, players=["red", "blue"], tokens="physical", kind="controller",
                      stop_after=9)
        _scripted(name, journal, seed=7, players=["red", "blue", "green"], tokens="virtual", kind="bot",
                  stop_after=17)
        for gid, (finished, _) in CONTENTS[name].items():
            extra = [] if finished else ["--include-secrets"]
            r = run(name, ["export", str(gid), str(DATA / f"{name}-{gid}.json"), "--journal", str(journal), *extra],
                    work)
            assert r.returncode == 0, r.stderr
    shutil.rmtree(work)
    expected = outputs()
    again = outputs()
    assert again == expected, "the commands do not print the same twice"
    (DATA / "expected.json").write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n")


# ---------------------------------------------------------------------------- what the commands print

def _snapshots(folder: Path) -> list[str]:
    return [f"{p.name} {hashlib.sha256(p.read_bytes()).hexdigest()}" for p in sorted(folder.rglob("*.png"))]


def _normal(text: str, folder: Path) -> str:
    """Paths of this run as words (the scratch folder, the fixtures' folder)."""
    for p, word in ((folder, "<scratch>"), (DATA, "<fixtures>")):
        text = text.replace(json.dumps(str(p))[1:-1], word).replace(str(p), word)
    return text


def commands(name: str) -> list[str]:
    """The keys of every command :func:`outputs` runs on ``name``'s fixtures."""
    keys = ["history", "history --json"]
    for gid, (_finished, resumable) in CONTENTS[name].items():
        keys.append(f"replay {gid}")
        if resumable:
            keys += [f"resume {gid}", f"resume {gid} history --json"]
        keys += [f"import {gid}", f"import {gid} history --json"]
    return keys


def outputs(names: tuple[str, ...] = GAMES, keys: Sequence[str] | None = None) -> dict[str, Any]:
    """What each command prints of the fixtures, by ``"GAME KEY"`` (run on copies, in a
    scratch folder). ``keys``: the commands to run (:func:`commands`), else all of them."""
    import tempfile
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="journal-fixtures-") as tmp:
        folder = Path(tmp)
        for name in names:
            journal = _private_copy(DATA / f"{name}.sqlite", folder / f"{name}.sqlite")
            for key in (k for k in commands(name) if keys is None or k in keys):
                word, *rest = key.split(" ", 1)
                gid = rest[0].split(" ")[0] if rest and rest[0][:1].isdigit() else None
                shots: Path | None = None
                target = journal
                if word == "history":
                    args = ["history", *(["--json"] if key.endswith("--json") else [])]
                elif word == "replay":
                    shots = folder / f"replay-{name}-{gid}"
                    args = ["replay", str(gid), "--headless", "--size", "320x180", "--snapshots", str(shots)]
                elif word == "resume":
                    target = folder / f"resume-{name}-{gid}.sqlite"
                    if not key.endswith("--json"):
                        _private_copy(journal, target)
                        shots = folder / f"resume-{name}-{gid}"
                        args = ["play", "--resume", *FAST, "--snapshots", str(shots)]
                    else:
                        args = ["history", "--json"]
                else:
                    target = folder / f"import-{name}-{gid}.sqlite"
                    args = ["history", "--json"] if key.endswith("--json") else \
                        ["import", str(DATA / f"{name}-{gid}.json")]
                # the journal named as the scratch folder's file: a line that names it (a hint,
                # a history cell) is the same whatever the temporary folder's path
                r = run(name, [*args, "--journal", target.name], folder)
                out[f"{name} {key}"] = _strip_dates(key, {
                    "code": r.returncode, "stdout": _normal(r.stdout, folder),
                    "stderr_lines": len(r.stderr.splitlines()) if r.returncode else None,
                    **({"snapshots": _snapshots(shots)} if shots is not None else {})})
    return out


def _strip_dates(key: str, value: dict[str, Any]) -> dict[str, Any]:
    """An import or a resume writes the time it ran ("created" stays the game's own; "ended"
    of a resumed game is now): kept out of the comparison."""
    if key.startswith("resume") and key.endswith("--json") and value["code"] == 0:
        doc = json.loads(value["stdout"])
        for g in doc.get("games", []):
            g.pop("ended", None)
        value = {**value, "stdout": json.dumps(doc, sort_keys=True)}
    return value


def played(seeds: tuple[int, ...] = (1, 2, 3, 4)) -> dict[str, Any]:
    """Headless games of both games with bots (``play --headless --speed 0 --bots N --seed S
    --journal J --snapshots D``, N = 3 and 4 in turn): the printed events, the SHA-256 of each
    snapshot, the journal's inputs and the replay's printed log and snapshots; to compare a
    version with another (``python -m tests.table.journal_fixtures played OUT.json``)."""
    import sqlite3
    import tempfile
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="journal-played-") as tmp:
        folder = Path(tmp)
        for name in GAMES:
            for seed in seeds:
                bots = 3 + seed % 2
                journal, shots = folder / f"{name}-{seed}.sqlite", folder / f"{name}-{seed}"
                r = run(name, ["play", *FAST, "--bots", str(bots), "--seed", str(seed), "--journal", str(journal),
                               "--snapshots", str(shots)], folder)
                db = sqlite3.connect(str(journal))
                rows = db.execute("SELECT seq, turn, phase, kind, data, state FROM inputs ORDER BY seq").fetchall()
                final = db.execute("SELECT status, winners, final FROM games").fetchall()
                db.close()
                replayed = folder / f"replay-{name}-{seed}"
                rp = run(name, ["replay", "1", "--headless", "--size", "320x180", "--journal", str(journal),
                                "--snapshots", str(replayed)], folder)
                out[f"{name} seed {seed}"] = {"code": r.returncode, "stdout": r.stdout, "snapshots": _snapshots(shots),
                                              "inputs": [list(x) for x in rows], "result": [list(x) for x in final],
                                              "replay": rp.stdout, "replay snapshots": _snapshots(replayed)}
    return out


def expected() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((DATA / "expected.json").read_text())
    return loaded


if __name__ == "__main__":
    if sys.argv[1:] == ["write"]:
        write()
    elif sys.argv[1:] == ["check"]:
        got, want = outputs(), expected()
        bad = [k for k in sorted(set(got) | set(want)) if got.get(k) != want.get(k)]
        print("\n".join(bad) or "all the same")
        sys.exit(1 if bad else 0)
    elif sys.argv[1:2] == ["played"] and len(sys.argv) == 3:
        Path(sys.argv[2]).write_text(json.dumps(played(), indent=1, sort_keys=True) + "\n")
    else:
        sys.exit("usage: python -m tests.table.journal_fixtures write|check|played OUT.json")
