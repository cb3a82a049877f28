"""The journal: every game, every accepted input and the seed, in SQLite (any game).

Nothing is lost: the session writes each accepted input in its own committed transaction
*before* applying it to the rules engine (``synchronous=FULL``), so after a crash, a power
cut or a closed window :func:`replay` rebuilds the game exactly where it stopped: the
engine is deterministic from its initial state (which holds the seed) and its inputs, and
dice come from its seeded generator, so they replay too. Each input also stores a
fingerprint of the state it was applied to; a resume checks them, so a journal that does
not match this version of the rules is refused with a clear message instead of silently
diverging.

Default location: ``$XDG_DATA_HOME/8bitbox/journal.sqlite`` (``~/.local/share/...``);
``--journal PATH`` chooses another. A file that is not a journal (another program's
database, a corrupt file, a text file) raises :class:`JournalError` with a message naming it.

The journal knows no game: it records *which* game each record is (``settings["game"]``)
and asks that game's :class:`JournalRules` (its cartridge) to rebuild a state from data,
apply an input and fingerprint a state. Journals written before the console existed carry no
game name; they were all Outspeed's (:data:`LEGACY_GAME`), and still resume and replay.
"""
from __future__ import annotations

import datetime as _dt
import json
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
import importlib
import re
from typing import Any, Iterator, Mapping, Protocol, Sequence

LEGACY_GAME = "outspeed"             # the game of a record that names none (written before the console)

APPLICATION_ID = 0x38426258          # "8BbX"
SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    created TEXT NOT NULL,
    seed INTEGER NOT NULL,
    players TEXT NOT NULL,            -- JSON list of player names, seat order
    settings TEXT NOT NULL,           -- JSON: seats, token mode, first game, language, bots...
    initial TEXT NOT NULL,            -- JSON: Game.to_data() at the start
    status TEXT NOT NULL DEFAULT 'playing',   -- playing | finished
    winners TEXT,                     -- JSON list, when finished
    ended TEXT
);
CREATE TABLE IF NOT EXISTS inputs (
    game INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    turn INTEGER NOT NULL,
    phase TEXT NOT NULL,
    kind TEXT NOT NULL,               -- bonus | program | keep
    data TEXT NOT NULL,               -- JSON
    state TEXT NOT NULL,              -- fingerprint of the state the input was applied to
    at TEXT NOT NULL,
    PRIMARY KEY (game, seq)
);
"""


_GAMES = ("SELECT g.id, g.created, g.seed, g.players, g.settings, g.status, g.winners, g.ended, "
          "(SELECT COUNT(*) FROM inputs i WHERE i.game = g.id), "
          "(SELECT COALESCE(MAX(turn), 1) FROM inputs i WHERE i.game = g.id) FROM games g")


class JournalError(Exception):
    """The journal cannot be used; the message says why, naming the file."""

    def __init__(self, message: str) -> None:
        # A damaged file's own bytes can reach the message (SQLite quotes them): keep it one
        # printable line of reasonable length.
        text = "".join(c if c.isprintable() else "?" for c in str(message))
        super().__init__(text if len(text) <= 400 else text[:397] + "...")


class JournaledGame(Protocol):
    """A game state as the journal sees it: data in, data out."""

    def to_data(self) -> dict[str, Any]: ...


class JournalRules(Protocol):
    """What the journal needs of a cartridge to record and rebuild its games."""

    name: str                                        # the game's name, recorded with each game
    input_errors: tuple[type[BaseException], ...]    # what "this input does not apply" raises

    def from_data(self, data: Mapping[str, Any]) -> Any: ...
    def apply_input(self, game: Any, kind: str, data: Mapping[str, Any]) -> list[Any]: ...
    def state_hash(self, game: Any) -> str: ...
    def seed(self, game: Any) -> int: ...
    def players(self, game: Any) -> list[str]: ...


_GAME_NAME = re.compile(r"[a-z][a-z0-9_]{0,39}")


def find_journal_rules(name: str) -> JournalRules:
    """The journal rules of the game called ``name``: the cartridge package of that name
    exposes them as ``<name>.journaling.RULES``. ``name`` comes from a file, so it is
    checked (a plain lower-case identifier) before anything is imported."""
    if not isinstance(name, str) or not _GAME_NAME.fullmatch(name):
        raise JournalError(f"the journal names an unknown game {str(name)[:40]!r}")
    try:
        rules = importlib.import_module(f"{name}.journaling").RULES
    except (ImportError, AttributeError):
        raise JournalError(f"the journal holds a game of {name!r}, which is not installed here") from None
    return rules


def default_journal_path() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "8bitbox" / "journal.sqlite"


def _make_private(path: Path) -> None:
    """The journal holds secrets (the pile and tile order, every token held and kept, each
    choice as it is locked in): it is created 0600 (owner only) whatever the umask, and an
    existing one of ours that others may read is made 0600. SQLite gives its side files
    (``-journal``, ``-wal``) the database file's permissions."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except FileExistsError:
        try:
            st = path.stat()
            if st.st_mode & 0o077 and hasattr(os, "getuid") and st.st_uid == os.getuid() and path.is_file():
                os.chmod(path, 0o600)
        except OSError:
            pass                                   # not ours to change: SQLite will say what is wrong
        return
    except OSError as exc:
        raise JournalError(f"{path}: cannot be created: {exc.strerror or exc}") from None
    os.close(fd)


def _now() -> str:
    return _dt.datetime.now().astimezone().isoformat(timespec="seconds")


@dataclass(frozen=True)
class GameInfo:
    """One game's record, as listed by `history`."""

    id: int
    created: str
    seed: int
    players: list[str]
    settings: dict[str, Any]
    status: str
    winners: list[str] | None
    ended: str | None
    inputs: int
    turns: int                 # the last turn reached

    @property
    def game(self) -> str:
        """Which game this is (records written before the console name none: Outspeed)."""
        name = self.settings.get("game", LEGACY_GAME)
        return name if isinstance(name, str) else str(name)


@dataclass(frozen=True)
class InputRecord:
    seq: int
    turn: int
    phase: str
    kind: str
    data: dict[str, Any]
    state: str


class Journal:
    """An open journal file. Use as a context manager or call :meth:`close`.

    ``rules``: the rules of the game this table writes (:meth:`new_game`); games of another
    name found in the file are read with their own cartridge's rules
    (:func:`find_journal_rules`)."""

    def __init__(self, path: str | Path, rules: JournalRules | None = None) -> None:
        self.path = Path(path)
        self.rules = rules
        try:
            if not self.path.parent.exists():     # a folder of ours: private (0700)
                self.path.parent.mkdir(parents=True, mode=0o700)
        except FileExistsError:
            pass
        except OSError as exc:
            raise JournalError(f"{self.path}: cannot create its folder: {exc.strerror or exc}") from None
        _make_private(self.path)
        try:
            self.db = sqlite3.connect(str(self.path), timeout=5.0, isolation_level=None)
        except sqlite3.Error as exc:
            raise JournalError(f"{self.path}: cannot be opened: {exc}") from None
        try:
            self._check_and_create()
        except sqlite3.DatabaseError as exc:
            self.db.close()
            raise JournalError(f"{self.path}: not an Outspeed journal (the file is not a readable SQLite "
                               f"database: {exc}). Choose another file with --journal PATH.") from None

    def _check_and_create(self) -> None:
        db = self.db
        db.execute("PRAGMA synchronous = FULL")
        app = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if app == 0 and not tables:
            db.execute("BEGIN IMMEDIATE")
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            if db.in_transaction:
                db.execute("COMMIT")
            return
        if app != APPLICATION_ID:
            raise JournalError(f"{self.path}: this SQLite database belongs to another program (it is not an "
                               f"Outspeed journal); it was left untouched. Choose another file with --journal PATH.")
        if version > SCHEMA_VERSION:
            raise JournalError(f"{self.path}: written by a newer version of this program (journal format "
                               f"{version}, this one reads {SCHEMA_VERSION}); it was left untouched.")
        if not {"games", "inputs"} <= tables:
            raise JournalError(f"{self.path}: the journal is damaged (tables missing); it was left untouched.")

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> "Journal":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # ------------------------------------------------------------------ writing
    def new_game(self, game: JournaledGame, settings: dict[str, Any]) -> "GameRecord":
        """Record a new game of :attr:`rules` (its initial state holds the seed and, for
        Outspeed, the tile order); ``settings`` gains the game's name."""
        rules = self.rules
        if rules is None:
            raise JournalError(f"{self.path}: no game given to record (Journal(path, rules))")
        settings = {**settings, "game": rules.name}
        with self._tx():
            cur = self.db.execute(
                "INSERT INTO games (created, seed, players, settings, initial) VALUES (?, ?, ?, ?, ?)",
                (_now(), int(rules.seed(game)), json.dumps(list(rules.players(game))),
                 json.dumps(settings, sort_keys=True), json.dumps(game.to_data(), sort_keys=True)))
            game_id = int(cur.lastrowid)
        return GameRecord(self, game_id, 0)

    def _tx(self) -> "_Tx":
        return _Tx(self.db, self.path)

    # ------------------------------------------------------------------ reading
    def games(self) -> list[GameInfo]:
        rows = self._query(_GAMES + " ORDER BY g.id")
        return [self._info(r) for r in rows]

    def game(self, game_id: int) -> GameInfo:
        rows = self._query(_GAMES + " WHERE g.id = ?", (game_id,))
        if not rows:
            raise JournalError(f"{self.path}: no game {game_id} (see `outspeed history`)")
        return self._info(rows[0])

    def last_unfinished(self) -> GameInfo | None:
        rows = self._query(_GAMES + " WHERE g.status = 'playing' ORDER BY g.id DESC LIMIT 1")
        return self._info(rows[0]) if rows else None

    def rules_of(self, game_id: int) -> JournalRules:
        """The rules of game ``game_id`` (the cartridge its record names)."""
        name = self.game(game_id).game
        if self.rules is not None and self.rules.name == name:
            return self.rules
        try:
            return find_journal_rules(name)
        except JournalError as exc:
            raise JournalError(f"{self.path}: game {game_id}: {exc}") from None

    def initial(self, game_id: int) -> Any:
        rows = self._query("SELECT initial FROM games WHERE id = ?", (game_id,))
        if not rows:
            raise JournalError(f"{self.path}: no game {game_id}")
        rules = self.rules_of(game_id)
        try:
            return rules.from_data(json.loads(rows[0][0]))
        except (ValueError, KeyError, TypeError, *rules.input_errors) as exc:
            raise JournalError(f"{self.path}: game {game_id}: its initial state cannot be read ({exc})") from None

    def inputs(self, game_id: int) -> list[InputRecord]:
        rows = self._query("SELECT seq, turn, phase, kind, data, state FROM inputs WHERE game = ? ORDER BY seq", (game_id,))
        out = []
        for seq, turn, phase, kind, data, state in rows:
            try:
                out.append(InputRecord(int(seq), int(turn), str(phase), str(kind), json.loads(data), str(state)))
            except (ValueError, TypeError) as exc:
                raise JournalError(f"{self.path}: game {game_id}, input {seq}: cannot be read ({exc})") from None
        return out

    def _query(self, sql: str, args: Sequence[Any] = ()) -> list[tuple]:
        try:
            return self.db.execute(sql, args).fetchall()
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"{self.path}: the journal is damaged ({exc})") from None

    def _info(self, r: tuple) -> GameInfo:
        try:
            info = GameInfo(int(r[0]), str(r[1]), int(r[2]), json.loads(r[3]), json.loads(r[4]), str(r[5]),
                            json.loads(r[6]) if r[6] else None, r[7], int(r[8]), int(r[9]))
            # The readers (history, resume) rely on these shapes: a damaged record is refused here.
            seats = info.settings.get("seats", []) if isinstance(info.settings, dict) else None
            if (not isinstance(info.players, list) or not all(isinstance(p, str) for p in info.players)
                    or not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats)
                    or not (info.winners is None or isinstance(info.winners, list))):
                raise ValueError("players, settings or winners have the wrong shape")
            return info
        except (ValueError, TypeError) as exc:
            raise JournalError(f"{self.path}: game {r[0]}: its record cannot be read ({exc})") from None


class _Tx:
    def __init__(self, db: sqlite3.Connection, path: Path) -> None:
        self.db, self.path = db, path

    def __enter__(self) -> None:
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise JournalError(f"{self.path}: cannot write ({exc})") from None

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> bool:
        if exc_type is None:
            try:
                self.db.execute("COMMIT")
            except sqlite3.Error as err:
                self.db.execute("ROLLBACK")
                raise JournalError(f"{self.path}: cannot write ({err})") from None
        else:
            self.db.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise JournalError(f"{self.path}: cannot write ({exc})") from None
        return False


class GameRecord:
    """One game in a journal: the session's ``journal`` argument."""

    def __init__(self, journal: Journal, game_id: int, next_seq: int) -> None:
        self.journal = journal
        self.id = game_id
        self.next_seq = next_seq

    def record(self, kind: str, data: dict[str, Any], *, turn: int, phase: str, state: str) -> None:
        """Write one accepted input and commit it (before the caller applies it)."""
        with self.journal._tx():
            self.journal.db.execute(
                "INSERT INTO inputs (game, seq, turn, phase, kind, data, state, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (self.id, self.next_seq, turn, phase, kind, json.dumps(data, sort_keys=True), state, _now()))
        self.next_seq += 1

    def finish(self, winners: list[str]) -> None:
        with self.journal._tx():
            self.journal.db.execute("UPDATE games SET status = 'finished', winners = ?, ended = ? WHERE id = ?",
                                    (json.dumps(winners), _now(), self.id))


def replay(journal: Journal, game_id: int, *, upto: int | None = None,
           verify: bool = True) -> Iterator[tuple[InputRecord, Any, list[Any]]]:
    """Rebuild game ``game_id`` input by input: yields (input, game after it, its events).
    The game object is the same one, advanced in place."""
    rules = journal.rules_of(game_id)
    game = journal.initial(game_id)
    for rec in journal.inputs(game_id):
        if upto is not None and rec.seq >= upto:
            break
        if verify and rules.state_hash(game) != rec.state:
            raise JournalError(f"{journal.path}: game {game_id} does not replay with this version of the rules "
                               f"(input {rec.seq}, turn {rec.turn}: the state differs from the one recorded)")
        try:
            events = rules.apply_input(game, rec.kind, rec.data)
        except (*rules.input_errors, KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            raise JournalError(f"{journal.path}: game {game_id}, input {rec.seq} ({rec.kind}, turn {rec.turn}) "
                               f"cannot be applied: {exc}") from None
        yield rec, game, events


def rebuild(journal: Journal, game_id: int) -> tuple[Any, int]:
    """The game as it stood after its last journaled input, and the number of inputs."""
    game, n = journal.initial(game_id), 0
    for rec, g, _ in replay(journal, game_id):
        game, n = g, rec.seq + 1
    return game, n
