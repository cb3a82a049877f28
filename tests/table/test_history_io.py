"""Issue 14, outputs people can use: `history` in aligned columns and as JSON, one game
exported to a portable file and imported back (both games), the journal in the user's data
folder (platformdirs). Real `outspeed` and `lastonealive` subprocesses, real SQLite files."""
from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bitbox.table.gamefile import check_document
from bitbox.table.history import print_history
from bitbox.table.journal import GameInfo

# Its module fixture (real games, real runs) is made once: under pytest-xdist the file runs on one worker.
pytestmark = pytest.mark.xdist_group("history-io")

OUTSPEED = [sys.executable, "-m", "outspeed.cli"]
LOA = [sys.executable, "-m", "lastonealive.cli"]
COMMANDS = {"outspeed": OUTSPEED, "lastonealive": LOA}
FAST = ["--headless", "--size", "320x180", "--speed", "0", "--bot", "random"]


def env(tmp: Path, **extra: str) -> dict[str, str]:
    e = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    e.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", XDG_DATA_HOME=str(tmp / "data"),
             PYGAME_HIDE_SUPPORT_PROMPT="1")
    e.update(extra)
    return e


def run(command: list[str], args, cwd: Path, *, environ: dict[str, str] | None = None, **kw):
    return subprocess.run(command + [str(a) for a in args], cwd=cwd, env=environ or env(cwd), capture_output=True,
                          text=True, timeout=120, **kw)


def refused(r: subprocess.CompletedProcess, name: str) -> str:
    """Exit 2 and one line on stderr naming ``name``, no traceback, nothing on stdout."""
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert len(lines) == 1 and name in lines[0], r.stderr
    assert "Traceback" not in r.stderr and r.stdout == ""
    return lines[0]


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    """One journal, written by the tables: game 1 a 6-player Outspeed game with a secret seed,
    game 2 a 4-player Last One Alive game with --seed 7; both finished."""
    d = tmp_path_factory.mktemp("played")
    r = run(OUTSPEED, ["play", "--players", "6", *FAST, "--journal", "j.sqlite", "--snapshots", "s1"], d)
    assert r.returncode == 0, r.stderr
    r = run(LOA, ["play", "--players", "4", "--seed", "7", *FAST, "--journal", "j.sqlite", "--snapshots", "s2"], d)
    assert r.returncode == 0, r.stderr
    return d / "j.sqlite"


def copy_of(src: Path, tmp: Path, name: str = "j.sqlite") -> Path:
    dst = tmp / name
    shutil.copy(src, dst)
    os.chmod(dst, 0o600)
    return dst


def copy_game(path: Path, src: int, new: int, *, unfinished_after: int | None = None) -> None:
    """Game ``src`` again under the id ``new``; unfinished after that many inputs when asked."""
    db = sqlite3.connect(path)
    db.execute("INSERT INTO games (id, created, seed, players, settings, initial, status, winners, ended, final) "
               "SELECT ?, created, seed, players, settings, initial, status, winners, ended, final FROM games "
               "WHERE id = ?", (new, src))
    db.execute("INSERT INTO inputs (game, seq, turn, phase, kind, data, state, at) "
               "SELECT ?, seq, turn, phase, kind, data, state, at FROM inputs WHERE game = ?", (new, src))
    if unfinished_after is not None:
        db.execute("DELETE FROM inputs WHERE game = ? AND seq >= ?", (new, unfinished_after))
        db.execute("UPDATE games SET status = 'playing', winners = NULL, ended = NULL, final = NULL WHERE id = ?",
                   (new,))
    db.commit()
    db.close()


def secret_seed(path: Path, game: int = 1) -> str:
    db = sqlite3.connect(path)
    seed = db.execute("SELECT seed FROM games WHERE id = ?", (game,)).fetchone()[0]
    db.close()
    return str(int(seed, 16) if isinstance(seed, str) else seed)


# ------------------------------------------------------------------------------ aligned columns

def width(text: str) -> int:
    """Terminal columns: East Asian wide characters take two, combining marks none."""
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def assert_aligned(lines: list[str], rows: list[list[str]]) -> None:
    """``lines``: a header and one line per row of ``rows`` (the cells expected, found in order
    in each line). Every left-aligned column starts, and every right-aligned one (id, turns)
    ends, at the same terminal column on every line, header included; cells are apart by two
    spaces or more, with nothing else between them."""
    header = ["id", "date", "turns", "players", "result", "seed"]
    right = {0, 2}
    assert len(lines) == len(rows) + 1, lines
    edges: list[set[int]] = [set() for _ in header]
    for line, cells in zip(lines, [header, *rows]):
        pos, prev_end = 0, None
        for k, cell in enumerate(cells):
            at = line.index(cell, pos)
            gap = line[pos:at]
            assert gap.strip() == "" and (prev_end is None or len(gap) >= 2), (line, cell)
            start = width(line[:at])
            edges[k].add(start + width(cell) if k in right else start)
            pos = prev_end = at + len(cell)
        assert line[pos:].strip() == "", line
    assert all(len(e) == 1 for e in edges), (edges, lines)


def table_rows(doc: dict, hint: str) -> list[list[str]]:
    """The cells `history` shows for each game of `history --json`'s document."""
    rows = []
    for g in doc["games"]:
        players = ", ".join(p["name"] + ("*" if p["kind"] == "bot" else "") for p in g["players"])
        if g["status"] == "finished":
            result = "winner: " + " and ".join(g["winners"]) if g["winners"] else "no winner"
        else:
            result = f"unfinished ({hint})"
        seed = g["seed"] if g["seed"] is not None else "(secret until the end)"
        rows.append([str(g["id"]), g["created"][:19].replace("T", " "), str(g["turns"]), players, result, seed])
    return rows


def test_history_columns_stay_aligned_with_many_games_long_ids_and_unfinished_ones(played, tmp_path):
    path = copy_of(played, tmp_path)
    for new in (3, 4, 5, 6, 7, 8, 9, 10, 11):
        copy_game(path, 2 if new % 2 else 1, new)
    copy_game(path, 1, 4321, unfinished_after=7)         # a secret seed, unfinished: a long result, no seed
    copy_game(path, 2, 987654, unfinished_after=3)       # a given seed, unfinished: its seed shown
    doc = json.loads(run(OUTSPEED, ["history", "--json", "--journal", path], tmp_path).stdout)
    assert [g["id"] for g in doc["games"]] == [1, 2, *range(3, 12), 4321, 987654]
    # one journal serves both games: each command shows one table per game, its own first,
    # each titled by the game's name and aligned on its own
    for command, order in ((OUTSPEED, ("outspeed", "lastonealive")), (LOA, ("lastonealive", "outspeed"))):
        r = run(command, ["history", "--journal", path], tmp_path)
        assert r.returncode == 0, r.stderr
        blocks = r.stdout.split("(* bot)\n")
        assert blocks[-1] == "" and len(blocks) == 3, r.stdout
        for block, name in zip(blocks, order):
            title, *lines = block.lstrip("\n").splitlines()
            assert title == {"lastonealive": "Last One Alive:", "outspeed": "Outspeed:"}[name]
            games = {"games": [g for g in doc["games"] if g["game"] == name]}
            assert_aligned(lines, table_rows(games, f"{name} play --resume --journal {path}"))   # not the default


def _info(gid: int, players: list[str], status: str = "finished", winners: list[str] | None = None,
          seats: list[dict] | None = None) -> GameInfo:
    return GameInfo(gid, "2026-11-23T10:00:00+01:00", 5, players, {"seats": seats or [], "seed": "given"}, status,
                    winners, None, 10, 3)


def test_history_columns_stay_aligned_with_wide_combining_and_hostile_names():
    games = [
        _info(1, ["red", "blue"], winners=["red"]),
        _info(22, ["Zoe\u0308", "赤い", "Ωμέγα"], winners=["赤い"],
              seats=[{"player": "赤い", "kind": "bot"}]),
        _info(333, ["x\x1b[2Jy", "line\nbreak"], status="playing"),
        _info(4444, ["a" * 50, "b"], winners=[]),
    ]
    out = io.StringIO()
    print_history(games, out, "outspeed play --resume")
    lines = out.getvalue().splitlines()
    assert lines[-1] == "(* bot)" and len(lines) == 6          # a name's newline did not break a line
    assert "\x1b" not in out.getvalue()                        # nor an escape reach the terminal
    rows = [["1", "2026-11-23 10:00:00", "3", "red, blue", "winner: red", "5"],
            ["22", "2026-11-23 10:00:00", "3", "Zoe\u0308, 赤い*, Ωμέγα", "winner: 赤い", "5"],
            ["333", "2026-11-23 10:00:00", "3", "x\\x1b[2Jy, line\\nbreak", "unfinished (outspeed play --resume)", "5"],
            ["4444", "2026-11-23 10:00:00", "3", "a" * 50 + ", b", "no winner", "5"]]
    assert_aligned(lines[:-1], rows)


# ------------------------------------------------------------------------------ history --json

KEYS = {"id", "game", "created", "ended", "status", "turns", "inputs", "players", "winners", "seed", "seed_given",
        "options"}


def test_history_json_is_one_document_with_stable_keys_and_no_secret(played, tmp_path):
    path = copy_of(played, tmp_path)
    copy_game(path, 1, 3, unfinished_after=7)            # Outspeed, secret seed, unfinished
    copy_game(path, 2, 4, unfinished_after=3)            # Last One Alive, --seed 7, unfinished
    secret = secret_seed(path)
    assert len(secret) > 12
    docs = []
    for command in (OUTSPEED, LOA):
        r = run(command, ["history", "--json", "--journal", path], tmp_path)
        assert r.returncode == 0 and r.stderr == "", r.stderr
        docs.append(json.loads(r.stdout))                   # the whole output is one document
    assert docs[0] == docs[1]                               # one listing, whichever game's command
    doc = docs[0]
    assert doc["format"] == "8bitbox-history" and doc["version"] == 1 and doc["journal"] == str(path)
    games = {g["id"]: g for g in doc["games"]}
    assert all(set(g) == KEYS for g in games.values())
    assert [games[i]["game"] for i in (1, 2, 3, 4)] == ["outspeed", "lastonealive", "outspeed", "lastonealive"]
    assert games[1]["seed"] == secret and not games[1]["seed_given"]     # over: its seed may be shown
    assert games[2]["seed"] == "7" and games[2]["seed_given"]
    assert games[3]["status"] == "playing" and games[3]["seed"] is None and games[3]["winners"] is None
    assert games[4]["status"] == "playing" and games[4]["seed"] == "7"   # chosen with --seed: not a secret
    assert len(games[1]["players"]) == 6 and all(p["kind"] == "bot" for p in games[1]["players"])
    assert games[2]["options"]["lang"] == "en" and games[3]["inputs"] == 7 and games[4]["inputs"] == 3
    # the unfinished game's secret seed is nowhere: not in the JSON, not in the table
    only_unfinished = copy_of(path, tmp_path, "u.sqlite")
    db = sqlite3.connect(only_unfinished)
    db.execute("DELETE FROM inputs WHERE game = 1")
    db.execute("DELETE FROM games WHERE id = 1")
    db.commit()
    db.close()
    for args in (["history", "--json"], ["history"]):
        r = run(OUTSPEED, args + ["--journal", only_unfinished], tmp_path)
        assert r.returncode == 0 and secret not in r.stdout and secret[:8] not in r.stdout


def test_history_json_without_a_journal_and_with_a_bad_one(tmp_path):
    for command in (OUTSPEED, LOA):
        r = run(command, ["history", "--json", "--journal", "none.sqlite"], tmp_path)
        assert r.returncode == 0 and json.loads(r.stdout)["games"] == []
    bad = tmp_path / "bad.sqlite"
    bad.write_text("not a journal\n" * 20)
    for command in (OUTSPEED, LOA):
        refused(run(command, ["history", "--json", "--journal", bad], tmp_path), str(bad))


# ------------------------------------------------------------------------------ export and import

def export(command: list[str], game: int, target: Path | str, journal: Path, tmp: Path, *extra: str):
    return run(command, ["export", game, target, "--journal", journal, *extra], tmp)


@pytest.mark.parametrize("name,game", [("outspeed", 1), ("lastonealive", 2)])
def test_a_game_exported_and_imported_elsewhere_replays_the_same(played, tmp_path, name, game):
    cmd = COMMANDS[name]
    src = copy_of(played, tmp_path)
    r = export(cmd, game, "game.json", src, tmp_path)
    assert r.returncode == 0 and r.stdout == "" and "exported to game.json" in r.stderr, r.stderr
    doc = json.loads((tmp_path / "game.json").read_text(encoding="utf-8"))
    assert doc["format"] == "8bitbox-game" and doc["version"] == 1 and doc["game"] == name
    assert doc["status"] == "finished" and doc["secrets"] is False
    assert doc["seed"] == (secret_seed(src) if name == "outspeed" else "7")
    assert len(doc["players"]) == (6 if name == "outspeed" else 4) and doc["settings"]["seats"]
    assert [i["seq"] for i in doc["inputs"]] == list(range(len(doc["inputs"])))
    assert set(doc) >= {"initial", "winners", "final", "settings", "created", "ended"}

    # another table: an empty data folder; the file comes in by its default journal
    other = tmp_path / "other"
    other.mkdir()
    r = run(cmd, ["import", tmp_path / "game.json"], other)
    assert r.returncode == 0, r.stderr
    assert "imported as game 1" in r.stdout and f"`{name} replay 1`" in r.stdout
    default = other / "data" / "8bitbox" / "journal.sqlite"
    assert default.exists() and stat.S_IMODE(default.stat().st_mode) == 0o600
    before = json.loads(run(cmd, ["history", "--json", "--journal", src], tmp_path).stdout)["games"]
    after = json.loads(run(cmd, ["history", "--json"], other).stdout)["games"]
    assert [{**g, "id": 0} for g in after] == [{**g, "id": 0} for g in before if g["id"] == game]
    replays = [run(cmd, ["replay", gid, "--headless", "--journal", j], tmp_path)
               for gid, j in ((game, src), (1, default))]
    assert all(r.returncode == 0 for r in replays), [r.stderr for r in replays]
    assert replays[0].stdout == replays[1].stdout                # a secret seed: the game may end with no winner
    assert replays[0].stdout.splitlines()[-1].startswith(("Winner", "No winner"))

    # the same file again, through standard input: not added twice
    r = subprocess.run(cmd + ["import", "-"], input=(tmp_path / "game.json").read_text(encoding="utf-8"),
                       cwd=other, env=env(other), capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "already in" in r.stdout and "as game 1" in r.stdout, r.stderr
    assert len(json.loads(run(cmd, ["history", "--json"], other).stdout)["games"]) == 1
    # and the imported game exports to the same file (bar when it was exported and its id)
    r = run(cmd, ["export", 1, "-"], other)
    assert r.returncode == 0, r.stderr
    again = json.loads(r.stdout)
    assert {**again, "exported": 0, "id": 0} == {**doc, "exported": 0, "id": 0}


def test_an_unfinished_game_is_not_exported_unless_its_secrets_may_go_with_it(played, tmp_path):
    src = copy_of(played, tmp_path)
    copy_game(src, 1, 3, unfinished_after=9)
    secret = secret_seed(src, 3)
    line = refused(export(OUTSPEED, 3, "u.json", src, tmp_path), "game 3")
    assert "not finished" in line and "--include-secrets" in line and secret not in line
    assert not (tmp_path / "u.json").exists()
    r = export(OUTSPEED, 3, "-", src, tmp_path)
    assert r.returncode == 2 and r.stdout == ""               # not on standard output either
    r = export(OUTSPEED, 3, "u.json", src, tmp_path, "--include-secrets")
    assert r.returncode == 0 and "keep it private" in r.stderr, r.stderr
    path = tmp_path / "u.json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600         # readable by its owner only
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["secrets"] is True and doc["status"] == "playing" and len(doc["inputs"]) == 9
    # imported elsewhere it stays a secret there, and the game resumes and ends as it did
    other = tmp_path / "other"
    other.mkdir()
    assert run(OUTSPEED, ["import", path, "--journal", "k.sqlite"], other).returncode == 0
    h = run(OUTSPEED, ["history", "--journal", "k.sqlite"], other)
    assert "(secret until the end)" in h.stdout and secret not in h.stdout
    res = run(OUTSPEED, ["play", "--resume", *FAST[:-2], "--journal", "k.sqlite", "--snapshots", "s"], other)
    assert res.returncode == 0, res.stderr
    assert "9 inputs replayed" in res.stderr          # a status line (stderr), not a game event
    original = json.loads(run(OUTSPEED, ["history", "--json", "--journal", src], tmp_path).stdout)["games"][0]
    resumed = json.loads(run(OUTSPEED, ["history", "--json", "--journal", "k.sqlite"], other).stdout)["games"][0]
    assert resumed["winners"] == original["winners"] and resumed["seed"] == secret


def test_export_refuses_what_it_cannot_write_in_one_line(played, tmp_path):
    src = copy_of(played, tmp_path)
    (tmp_path / "taken.json").write_text("mine\n")
    refused(export(OUTSPEED, 1, "taken.json", src, tmp_path), "taken.json")
    assert (tmp_path / "taken.json").read_text() == "mine\n"  # never overwritten
    refused(export(LOA, 99, "x.json", src, tmp_path), "no game 99")
    refused(export(OUTSPEED, 1, "no/such/folder/x.json", src, tmp_path), "no/such/folder/x.json")
    refused(export(OUTSPEED, 1, "x.json", tmp_path / "none.sqlite", tmp_path), "none.sqlite")
    r = run(OUTSPEED, ["export", "0", "x.json", "--journal", src], tmp_path)
    assert r.returncode == 2 and "game id" in r.stderr and "Traceback" not in r.stderr
    # a tampered game is not exported
    db = sqlite3.connect(src)
    db.execute("UPDATE games SET winners = ? WHERE id = 2", (json.dumps(["red"]),))
    db.commit()
    db.close()
    line = refused(export(LOA, 2, "x.json", src, tmp_path), str(src))
    assert "altered" in line and not (tmp_path / "x.json").exists()


@pytest.fixture(scope="module")
def exported(played, tmp_path_factory) -> dict[str, dict]:
    """The two finished games as exported documents."""
    d = tmp_path_factory.mktemp("exported")
    docs = {}
    for name, game in (("outspeed", 1), ("lastonealive", 2)):
        r = run(COMMANDS[name], ["export", game, "-", "--journal", played], d)
        assert r.returncode == 0, r.stderr
        docs[name] = json.loads(r.stdout)
    return docs


def _edit_input(doc: dict, index: int, change) -> None:
    change(doc["inputs"][index]["data"])


def _swap_pile(doc: dict) -> None:
    pile = doc["initial"]["pile"]
    k = next(i for i in range(1, len(pile)) if pile[i] != pile[0])
    pile[0], pile[k] = pile[k], pile[0]


def _other_path(doc: dict) -> None:
    """The first programmed choice: another path."""
    choices = next(i["data"]["choices"] for i in doc["inputs"] if i["kind"] == "program")
    player = sorted(choices)[0]
    choices[player] = ["right" if choices[player][0] != "right" else "left", choices[player][1]]


def _other_winner(doc: dict) -> None:
    doc["winners"] = [next(p for p in doc["players"] if p not in doc["winners"])]


TAMPERED = {   # what was edited -> (game, the edit, words the refusal says)
    "the winner": ("outspeed", _other_winner, "winners"),
    "the last input": ("outspeed", lambda d: d["inputs"].pop(), "do not finish"),
    "a player's program": ("outspeed", _other_path, "input"),
    "two inputs swapped": ("outspeed", lambda d: d["inputs"].insert(3, d["inputs"].pop(4)), "numbered"),
    "the seed": ("outspeed", lambda d: d.update(seed=str(int(d["seed"]) + 1)), "seed"),
    "the tile pile": ("outspeed", _swap_pile, "input 0"),
    "a player": ("outspeed", lambda d: d["players"].__setitem__(0, "mallory"), "player"),
    "the turn of an input": ("outspeed", lambda d: d["inputs"][6].update(turn=d["inputs"][6]["turn"] + 1), "turn"),
    "marked unfinished": ("outspeed", lambda d: d.update(status="playing", winners=None, secrets=True),
                          "unfinished"),
    "loa: the winner": ("lastonealive", _other_winner, "winners"),
    "loa: who starts": ("lastonealive", lambda d: d["inputs"][0].update(
        data={"first": next(p for p in d["players"] if p != d["inputs"][0]["data"]["first"])}), "input 1"),
    "loa: an input dropped": ("lastonealive", lambda d: d["inputs"].pop(5), "numbered"),
    "loa: an unknown variant": ("lastonealive", lambda d: d["settings"].update(variants=["mirror"]), "variants"),
}


def _write(doc: dict, path: Path) -> Path:
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


@pytest.mark.parametrize("what", list(TAMPERED))
def test_a_tampered_game_file_is_refused_and_nothing_is_written(exported, played, tmp_path, what):
    name, edit, words = TAMPERED[what]
    doc = json.loads(json.dumps(exported[name]))
    edit(doc)
    path = _write(doc, tmp_path / "tampered.json")
    journal = copy_of(played, tmp_path)
    before = digest(journal)
    line = refused(run(COMMANDS[name], ["import", path, "--journal", journal], tmp_path), str(path))
    assert words in line and "nothing was imported" in line
    assert digest(journal) == before                         # (with no journal yet, none is made: below)


def _deep(doc: dict) -> str:
    return json.dumps({**doc, "settings": "SETTINGS"}).replace('"SETTINGS"', "[" * 100_000 + "]" * 100_000)


HOSTILE = {   # a file that is no game file, or not one of ours -> (its bytes, words the refusal says)
    "not JSON": (lambda d: b"[Event \"Casual game\"]\n1. e4 e5\n", "not JSON"),
    "a JSON list": (lambda d: b"[1, 2, 3]", "not one object"),
    "not UTF-8": (lambda d: json.dumps(d).encode("utf-16"), "UTF-8"),
    "no format": (lambda d: json.dumps({k: v for k, v in d.items() if k != "format"}).encode(), "no format"),
    "another format": (lambda d: json.dumps({**d, "format": "pgn"}).encode(), "'pgn'"),
    "a newer version": (lambda d: json.dumps({**d, "version": 2}).encode(), "newer"),
    "a version as text": (lambda d: json.dumps({**d, "version": "1"}).encode(), "version"),
    "no inputs": (lambda d: json.dumps({k: v for k, v in d.items() if k != "inputs"}).encode(), "'inputs'"),
    "no players": (lambda d: json.dumps({k: v for k, v in d.items() if k != "players"}).encode(), "'players'"),
    "no initial state": (lambda d: json.dumps({k: v for k, v in d.items() if k != "initial"}).encode(), "'initial'"),
    "an input without its state": (lambda d: json.dumps({**d, "inputs": [{k: v for k, v in i.items() if k != "state"}
                                                                         for i in d["inputs"]]}).encode(), "'state'"),
    "a game not installed": (lambda d: json.dumps({**d, "game": "chess",
                                                   "settings": {**d["settings"], "game": "chess"}}).encode(), "chess"),
    "a number of 5000 digits": (lambda d: json.dumps(d).replace(f'"seed": "{d["seed"]}"',
                                                                '"seed": ' + "9" * 5000).encode(), "digits"),
    "a seed as a number": (lambda d: json.dumps({**d, "seed": int(d["seed"])}).encode(), "'seed'"),
    "an escape in a name": (lambda d: json.dumps(d).replace('"red"', '"\\u001b[2Jred"').encode(), "player name"),
    "deeply nested": (lambda d: _deep(d).encode(), "nested"),
    "a date that is not one": (lambda d: json.dumps({**d, "created": "yesterday"}).encode(), "date"),
}


@pytest.mark.parametrize("what", list(HOSTILE))
def test_a_file_that_is_not_a_game_file_gets_one_line(exported, tmp_path, what):
    make, words = HOSTILE[what]
    path = tmp_path / "file.json"
    path.write_bytes(make(exported["outspeed"]))
    journal = tmp_path / "k.sqlite"
    line = refused(run(OUTSPEED, ["import", path, "--journal", journal], tmp_path), str(path))
    assert words in line, line
    assert "\x1b" not in line
    assert not journal.exists()


def test_huge_and_special_files_are_refused_without_reading_them_whole(exported, tmp_path):
    journal = tmp_path / "k.sqlite"
    huge = tmp_path / "huge.json"
    with open(huge, "wb") as f:                               # 2 GiB, sparse: nothing is read
        f.truncate(2 * 1024**3)
    line = refused(run(LOA, ["import", huge, "--journal", journal], tmp_path), str(huge))
    assert "MiB" in line
    r = subprocess.run(LOA + ["import", "-", "--journal", str(journal)], stdin=open("/dev/zero", "rb"),
                       cwd=tmp_path, env=env(tmp_path), capture_output=True, text=True, timeout=60)
    assert "more than any game file" in refused(r, "standard input")
    refused(run(LOA, ["import", "/dev/null", "--journal", journal], tmp_path), "/dev/null")
    refused(run(LOA, ["import", tmp_path, "--journal", journal], tmp_path), str(tmp_path))
    refused(run(LOA, ["import", "missing.json", "--journal", journal], tmp_path), "missing.json")
    assert not journal.exists()


def test_a_file_of_the_other_game_imports_through_either_command(exported, tmp_path):
    """The journal is the console's: `outspeed import` takes a Last One Alive file too, and
    says which command replays it."""
    path = _write(exported["lastonealive"], tmp_path / "loa.json")
    r = run(OUTSPEED, ["import", path, "--journal", "k.sqlite"], tmp_path)
    assert r.returncode == 0 and "`lastonealive replay 1 --journal k.sqlite`" in r.stdout, r.stderr
    rp = run(LOA, ["replay", "1", "--headless", "--journal", "k.sqlite"], tmp_path)
    assert rp.returncode == 0 and "Winner" in rp.stdout, rp.stderr


# ------------------------------------------------------------------------------ the data folder

def test_the_default_journal_is_in_the_users_data_folder(tmp_path, exported):
    """platformdirs' user data folder: ~/.local/share/8bitbox on Linux, or $XDG_DATA_HOME/8bitbox;
    an empty XDG_DATA_HOME is ignored (as the XDG specification says)."""
    if not sys.platform.startswith("linux"):
        pytest.skip("the Linux locations")
    home = tmp_path / "home"
    home.mkdir()
    path = _write(exported["outspeed"], tmp_path / "g.json")
    base = {k: v for k, v in env(tmp_path).items() if k != "XDG_DATA_HOME"}
    for extra, where in (({}, home / ".local/share/8bitbox/journal.sqlite"),
                         ({"XDG_DATA_HOME": ""}, home / ".local/share/8bitbox/journal.sqlite"),
                         ({"XDG_DATA_HOME": str(tmp_path / "xdg")}, tmp_path / "xdg/8bitbox/journal.sqlite")):
        environ = {**base, "HOME": str(home), **extra}
        r = run(OUTSPEED, ["history"], tmp_path, environ=environ)
        assert r.returncode == 0 and r.stdout.strip() == f"no games yet ({where} does not exist)", r.stdout
        r = run(LOA, ["import", path], tmp_path, environ=environ)
        assert r.returncode == 0 and str(where) in r.stdout, r.stderr
        assert where.exists()
        where.unlink()


# ------------------------------------------------------------------------------ any edit: one line

def _leaves(value, path=()):
    """Every place in a JSON value: (path, value)."""
    yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _leaves(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _leaves(v, (*path, i))


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.text(max_size=5),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                                        max_size=3), max_leaves=6)


@pytest.mark.parametrize("name", ["outspeed", "lastonealive"])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_edit_of_a_game_file_is_accepted_as_a_game_or_refused_with_a_reason(exported, name, data):
    """Whatever value replaces whatever part of a real file, checking it (what `import` does
    before writing anything) either accepts a game that replays or raises ValueError, the one
    line `import` prints: never another exception."""
    doc = json.loads(json.dumps(exported[name]))
    places = [p for p, _ in _leaves(doc) if p and p[0] not in ("program", "exported", "id")]
    where = data.draw(st.sampled_from(places))
    value = data.draw(JSON_VALUES)
    target = doc
    for key in where[:-1]:
        target = target[key]
    target[where[-1]] = value
    try:
        checked = check_document(doc)
    except ValueError as exc:
        assert str(exc) and "\n" not in str(exc)
    else:
        assert checked.game == name
