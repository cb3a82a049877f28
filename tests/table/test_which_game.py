"""Issue 21: one place decides which game a journal record belongs to, and every command that
reads a record asks it (history, replay, resume, export, import) for both games; a game file is
imported only when the journal's own reader reads it back, and is a duplicate only when it is
the same game; game ids in ASCII digits; --journal never empty. Real `outspeed` and
`lastonealive` subprocesses, real SQLite journals, real game files."""
from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest

from bitbox.table.journal import find_journal_rules
from tests.table.test_history_io import COMMANDS, LOA, OUTSPEED, copy_game, copy_of, digest, refused, run

# Its module fixture (real games, real runs) is made once: under pytest-xdist the file runs on one worker.
pytestmark = pytest.mark.xdist_group("which-game")

TITLES = {"outspeed": "an Outspeed game", "lastonealive": "a Last One Alive game"}
GAME_OF = {1: "outspeed", 2: "lastonealive"}
FAST = ["--headless", "--size", "320x180", "--speed", "0"]


@pytest.fixture(scope="module")
def journal(tmp_path_factory) -> Path:
    """Game 1: a finished 3-player Outspeed game (seed 12); game 2: a finished 3-player Last One
    Alive game (seed 7); both written by the tables."""
    d = tmp_path_factory.mktemp("which")
    for command, seed in ((OUTSPEED, 12), (LOA, 7)):
        r = run(command, ["play", "--players", "3", "--seed", seed, *FAST, "--journal", "j.sqlite",
                          "--snapshots", "s"], d)
        assert r.returncode == 0, r.stderr
    return d / "j.sqlite"


def other(name: str) -> str:
    return "lastonealive" if name == "outspeed" else "outspeed"


@pytest.mark.parametrize("name", ["outspeed", "lastonealive"])
def test_replay_and_export_of_the_other_games_record_name_the_right_command(journal, tmp_path, name):
    path = copy_of(journal, tmp_path)
    before = digest(path)
    gid = 2 if name == "outspeed" else 1                       # the other game's record
    owner = GAME_OF[gid]
    line = refused(run(COMMANDS[name], ["replay", gid, "--headless", "--journal", path], tmp_path), f"game {gid}")
    assert line == f"{name} replay: game {gid} is {TITLES[owner]}: use `{owner} replay {gid} --journal {path}`"
    line = refused(run(COMMANDS[name], ["export", gid, "g.json", "--journal", path], tmp_path), f"game {gid}")
    assert line.endswith(f"game {gid} is {TITLES[owner]}: use `{owner} export {gid} FILE --journal {path}`")
    assert not (tmp_path / "g.json").exists() and digest(path) == before
    # its own game replays; history lists both, each verified by its own game's rules
    own = 1 if name == "outspeed" else 2
    r = run(COMMANDS[name], ["replay", own, "--headless", "--journal", path], tmp_path)
    assert r.returncode == 0 and "Winner" in r.stdout, r.stderr
    r = run(COMMANDS[name], ["history", "--json", "--journal", path], tmp_path)
    assert r.returncode == 0, r.stderr
    assert [(g["id"], g["game"]) for g in json.loads(r.stdout)["games"]] == [(1, "outspeed"), (2, "lastonealive")]


def test_resume_takes_the_commands_own_game_or_names_the_command_that_resumes_the_other(journal, tmp_path):
    # the only unfinished game is Last One Alive's: `outspeed play --resume` says so, in one line
    path = copy_of(journal, tmp_path)
    copy_game(path, 2, 3, unfinished_after=30)
    before = digest(path)
    line = refused(run(OUTSPEED, ["play", "--resume", *FAST, "--journal", path, "--snapshots", "s"], tmp_path),
                   "lastonealive play --resume")
    assert "no unfinished Outspeed game" in line and "game 3 is an unfinished Last One Alive game" in line
    assert digest(path) == before

    # an older unfinished Outspeed game: resumed, not the later Last One Alive one
    copy_game(path, 1, 4, unfinished_after=9)
    copy_game(path, 2, 5, unfinished_after=30)
    r = run(OUTSPEED, ["play", "--resume", *FAST, "--journal", path, "--snapshots", "s"], tmp_path)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert "game 4" in r.stderr and "Winner" in r.stdout
    db = sqlite3.connect(path)
    status = dict(db.execute("SELECT id, status FROM games").fetchall())
    db.close()
    assert status == {1: "finished", 2: "finished", 3: "playing", 4: "finished", 5: "playing"}

    # the other way round: only Outspeed games unfinished
    path = copy_of(journal, tmp_path, "k.sqlite")
    copy_game(path, 1, 3, unfinished_after=9)
    line = refused(run(LOA, ["play", "--resume", *FAST, "--journal", path, "--snapshots", "s"], tmp_path),
                   "outspeed play --resume")
    assert "game 3 is an unfinished Outspeed game" in line


def _usage_error(name: str, args: list[str]) -> str:
    """What the command's own parser (in this process) says of ``args``: exit 2, the message."""
    import contextlib
    import io

    from bitbox.games import find
    from bitbox.table.command import build_parser
    parser = build_parser(find(name), name)          # the command's parser: the console's, for its cartridge
    err = io.StringIO()
    with contextlib.redirect_stderr(err), pytest.raises(SystemExit) as stop:
        parser.parse_args(args)
    assert stop.value.code == 2
    return err.getvalue()


@pytest.mark.parametrize("name", ["outspeed", "lastonealive"])
def test_a_game_id_is_ascii_digits(journal, tmp_path, name):
    for args in (["replay", "١", "--headless"], ["export", "١", "g.json"]):     # the commands themselves
        r = run(COMMANDS[name], [*args, "--journal", journal], tmp_path)
        assert r.returncode == 2 and "digits 0-9" in r.stderr and "Traceback" not in r.stderr, r.stderr
        assert r.stdout == "" and not (tmp_path / "g.json").exists()
    for text in ("١", "１", " 1", "+1", "1_0", "0x1", "1 "):                   # their parsers
        for args in (["replay", text], ["export", text, "g.json"]):
            assert "digits 0-9" in _usage_error(name, args)


@pytest.mark.parametrize("name", ["outspeed", "lastonealive"])
def test_an_empty_journal_path_is_a_usage_error_not_the_default_journal(journal, tmp_path, name):
    game_file = tmp_path / "g.json"
    r = run(COMMANDS[name], ["export", 1 if name == "outspeed" else 2, game_file, "--journal", journal], tmp_path)
    assert r.returncode == 0, r.stderr
    commands = (["play", *FAST], ["history"], ["replay", "1", "--headless"], ["export", "1", "out.json"],
                ["import", str(game_file)])
    for args in commands:
        r = run(COMMANDS[name], [*args, "--journal", ""], tmp_path)
        assert r.returncode == 2 and "--journal" in r.stderr and "empty path" in r.stderr, (args, r.stderr)
        assert "Traceback" not in r.stderr
        for journal_args in (["--journal="], ["--journal", "  "]):
            assert "empty path" in _usage_error(name, [*args, *journal_args])
    assert not (tmp_path / "data").exists()                  # the user's default journal: not even created
    assert not (tmp_path / "out.json").exists()


# ------------------------------------------------------------------------------ import

def _export(journal: Path, tmp: Path, name: str, gid: int) -> dict:
    r = run(COMMANDS[name], ["export", gid, "-", "--journal", journal], tmp)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


@pytest.fixture(scope="module")
def exported(journal, tmp_path_factory) -> dict[str, dict]:
    d = tmp_path_factory.mktemp("exported")
    return {name: _export(journal, d, name, gid) for gid, name in GAME_OF.items()}


def _another_ending(doc: dict) -> dict:
    """The same Outspeed game (same initial state, seed, players, number of inputs) with
    another last input the rules accept, and the result and final fingerprint it gives: a
    different game dealt from the same seed."""
    rules = find_journal_rules(doc["game"])
    game = rules.from_data(doc["initial"])
    *head, last = doc["inputs"]
    for rec in head:
        rules.apply_input(game, rec["kind"], rec["data"])
    candidates = []
    if last["kind"] == "program":
        for player in last["data"]["choices"]:
            for path in game.current_paths:
                candidates += [{"choices": {**last["data"]["choices"], player: [path, x]}} for x in (None, *range(7))]
    elif last["kind"] == "bonus":
        for player in last["data"]["plays"]:
            candidates += [{"plays": {**last["data"]["plays"], player: t}}
                           for t in (None, "nitro", "fuel_tank", "force_field")]
    else:
        candidates += [{"player": last["data"]["player"], "token": t} for t in ("nitro", "fuel_tank", "flamethrower")]
    for data in candidates:
        if data == last["data"]:
            continue
        after = game.copy()
        try:
            rules.apply_input(after, last["kind"], data)
        except Exception:  # noqa: BLE001 - not a legal alternative: the next one
            continue
        if not rules.finished(after) or rules.state_hash(after) == doc["final"]:
            continue
        new = json.loads(json.dumps(doc))
        new["inputs"][-1]["data"] = data
        new["final"] = rules.state_hash(after)
        new["winners"] = list(rules.winners(after))
        return new
    raise AssertionError("no other legal last input")


def test_two_games_dealt_from_one_seed_are_two_games_and_the_same_file_is_one(exported, tmp_path):
    doc = exported["outspeed"]
    variant = _another_ending(doc)
    assert variant["initial"] == doc["initial"] and len(variant["inputs"]) == len(doc["inputs"])
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(doc), encoding="utf-8")
    b.write_text(json.dumps(variant), encoding="utf-8")
    k = tmp_path / "k.sqlite"
    r = run(OUTSPEED, ["import", a, "--journal", k], tmp_path)
    assert r.returncode == 0 and "imported as game 1" in r.stdout, r.stderr
    r = run(OUTSPEED, ["import", b, "--journal", k], tmp_path)
    assert r.returncode == 0 and "imported as game 2" in r.stdout, (r.stdout, r.stderr)
    for f, gid in ((a, 1), (b, 2)):                          # each file again: already there, as itself
        r = run(LOA, ["import", f, "--journal", k], tmp_path)
        assert r.returncode == 0 and f"already in {k} as game {gid}" in r.stdout, r.stdout
    games = json.loads(run(OUTSPEED, ["history", "--json", "--journal", k], tmp_path).stdout)["games"]
    assert len(games) == 2 and games[0]["seed"] == games[1]["seed"]


def _nested(depth: int) -> object:
    value: object = "x"
    for _ in range(depth):
        value = [value]
    return value


DEEP = "NESTED-980-DEEP"          # written as 980 brackets (json.dumps itself would recurse too deep here)


def _dumps(doc: object) -> str:
    return json.dumps(doc).replace(f'"{DEEP}"', "[" * 980 + "]" * 980)


EDITS = {   # what a file's settings carry -> words of the refusal
    "an unknown key": (lambda s: s.update(note="hello"), "unknown setting 'note'"),
    "an unknown key nested 980 deep": (lambda s: s.update(note=DEEP), "unknown setting 'note'"),
    "a seat's value nested 980 deep": (lambda s: s["seats"][0].update(note=DEEP), "nested too deeply"),
    "a known key nested 40 deep": (lambda s: s["seats"][0].update(controller_id=_nested(40)), "refused"),
}


@pytest.mark.parametrize("name", ["outspeed", "lastonealive"])
@pytest.mark.parametrize("what", list(EDITS))
def test_import_refuses_what_the_journals_reader_would_and_the_journal_stays_readable(journal, exported, tmp_path,
                                                                                     name, what):
    doc = json.loads(json.dumps(exported[name]))
    edit, words = EDITS[what]
    edit(doc["settings"])
    path = tmp_path / "edited.json"
    path.write_text(_dumps(doc), encoding="utf-8")
    k = copy_of(journal, tmp_path, "k.sqlite")
    before = digest(k)
    line = refused(run(COMMANDS[name], ["import", path, "--journal", k], tmp_path), str(path))
    assert words in line and "nothing was imported" in line
    assert digest(k) == before
    r = run(COMMANDS[other(name)], ["history", "--journal", k], tmp_path)   # every game still listed
    assert r.returncode == 0 and r.stderr == "", r.stderr


# ------------------------------------------------------------------------------ damaged records

def _sql(path: Path, statement: str, *args: object) -> None:
    db = sqlite3.connect(path)
    db.execute(statement, args)
    db.commit()
    db.close()


@pytest.mark.parametrize("damage", ["settings", "depth", "players"])
def test_one_damaged_record_hides_no_other_game_in_history(journal, tmp_path, damage):
    path = copy_of(journal, tmp_path)
    copy_game(path, 1, 3)
    if damage == "settings":                                 # game 2: a setting no reader knows
        _sql(path, "UPDATE games SET settings = json_set(settings, '$.note', 'x') WHERE id = 2")
    elif damage == "depth":                                  # game 2: a setting nested 980 deep
        db = sqlite3.connect(path)
        settings = json.loads(db.execute("SELECT settings FROM games WHERE id = 2").fetchone()[0])
        db.close()
        settings["lang"] = DEEP
        _sql(path, "UPDATE games SET settings = ? WHERE id = 2", _dumps(settings))
    else:                                                    # game 2's initial state: an extra player
        db = sqlite3.connect(path)
        initial = json.loads(db.execute("SELECT initial FROM games WHERE id = 2").fetchone()[0])
        db.close()
        initial["players"].append("yellow")
        _sql(path, "UPDATE games SET initial = ? WHERE id = 2", json.dumps(initial, sort_keys=True))
    before = digest(path)
    for name in ("outspeed", "lastonealive"):
        for args in (["history"], ["history", "--json"]):
            r = run(COMMANDS[name], [*args, "--journal", path], tmp_path)
            lines = r.stderr.strip().splitlines()
            assert r.returncode == 2 and len(lines) == 1 and "game 2" in lines[0] and str(path) in lines[0], r.stderr
            assert lines[0].startswith(f"{name} history: ") and "Traceback" not in r.stderr
            if "--json" in args:
                assert [g["id"] for g in json.loads(r.stdout)["games"]] == [1, 3]
            else:
                assert [line.split()[0] for line in r.stdout.splitlines()
                        if line.strip()[:1].isdigit()] == ["1", "3"]
    assert digest(path) == before


@pytest.mark.parametrize("gid", [1, 2])
def test_an_initial_state_naming_an_extra_player_is_one_line_in_replay_and_resume(journal, tmp_path, gid):
    name = GAME_OF[gid]
    path = copy_of(journal, tmp_path)
    copy_game(path, gid, 3, unfinished_after=9)
    db = sqlite3.connect(path)
    for g in (gid, 3):
        initial = json.loads(db.execute("SELECT initial FROM games WHERE id = ?", (g,)).fetchone()[0])
        initial["players"].append("yellow")
        db.execute("UPDATE games SET initial = ? WHERE id = ?", (json.dumps(initial, sort_keys=True), g))
    db.commit()
    db.close()
    before = digest(path)
    for args in (["replay", gid, "--headless"], ["replay", 3, "--headless"],
                 ["play", "--resume", *FAST, "--snapshots", "s"], ["export", gid, "g.json"]):
        line = refused(run(COMMANDS[name], [*args, "--journal", path], tmp_path), str(path))
        assert "players are not its record's" in line, line
    assert digest(path) == before and not os.path.exists(tmp_path / "g.json")
