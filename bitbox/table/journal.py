"""The journal: every game, every accepted input and the seed, in SQLite (any game).

Nothing is lost: the session writes each accepted input in its own committed transaction
*before* applying it to the rules engine (``synchronous=FULL``), so after a crash, a power
cut or a closed window :func:`replay` rebuilds the game exactly where it stopped: the
engine is deterministic from its initial state (which holds the seed) and its inputs, and
dice come from its seeded generator, so they replay too. Each input also stores a
fingerprint of the state it was applied to; a resume checks them, so a journal that does
not match this version of the rules is refused with a clear message instead of silently
diverging.

Default location: ``journal.sqlite`` in the user's data folder (:func:`default_journal_path`,
through :mod:`platformdirs`: ``~/.local/share/8bitbox/`` or ``$XDG_DATA_HOME/8bitbox/`` on
Linux); ``--journal PATH`` chooses another. A file that is not a journal (another program's
database, a corrupt file, a text file) raises :class:`JournalError` with a message naming it,
and is left untouched (not even its mode is changed). A journal owned by another user is
refused; one of ours that others may read is made private (0600), with a notice.

Integrity: a finished game also stores the fingerprint of its final state (``final``), and
:func:`verify` replays a game from its inputs and refuses it when its stored result (the
winners, the final fingerprint, the seed) does not match what the inputs give, so an edited
winner, an edited last input or a deleted final input are caught (``history`` and
``replay`` verify every game they show). This catches damage and careless edits, not a
forger: anyone who can write the file can recompute the fingerprints.

Claims: a table playing a game (a new one, or one it resumed) records its claim in the game's
row (``claim``: the process id, host name, process identity and since when, :class:`Claim`)
and clears it when the game ends or stops; ``play --resume`` of a game whose claim is alive
is refused (:class:`GameHeld`), and a claim whose process is gone is stale (:func:`claim_alive`).

Seeds: a game's seed is a secret of up to 128 bits; SQLite integers have 64, so a larger seed
is stored in the ``seed`` column as hexadecimal text (``0x...``); the initial state (JSON)
holds it too.

The journal knows no game: it records *which* game each record is (``settings["game"]``)
and asks that game's :class:`JournalRules` to rebuild a state from data, apply an input,
fingerprint a state and check the game's own settings: the protocol's rules
(:class:`bitbox.table.protocol_rules.ProtocolJournalRules`, an input is answers applied by
``Game.apply``, a fingerprint is of ``to_data()``), with the optional hooks of what is the
game's own (its cartridge's ``journal``). Journals written
before the console existed carry no game name; they were all Outspeed's
(:data:`LEGACY_GAME`), and still resume and replay.
"""
from __future__ import annotations

import datetime as _dt
import json
import os
import shlex
import sqlite3
import stat
from dataclasses import dataclass
from pathlib import Path
import re
import socket
from typing import Any, Iterator, Literal, Mapping, Protocol, Sequence

from .seating import SEAT_KINDS

LEGACY_GAME = "outspeed"             # the game of a record that names none (written before the console)

APPLICATION_ID = 0x38426258          # "8BbX"
SCHEMA_VERSION = 1

# Audit counters per controller (bitbox.table.audit): one row per controller per session of a
# game (a resumed game adds a row), written when the game ends or stops. Journals made before
# it get the table when a game is next played in them (CREATE TABLE IF NOT EXISTS): the format
# stays SCHEMA_VERSION 1, which older programs open (they read only games and inputs).
_AUDIT_TABLE = """
CREATE TABLE IF NOT EXISTS controller_audit (
    game INTEGER NOT NULL REFERENCES games(id),
    controller TEXT NOT NULL,         -- the controller id, 16 hex digits
    kind TEXT NOT NULL,               -- controller | bot (a bot's simulated controller)
    locks INTEGER NOT NULL,
    refusals INTEGER NOT NULL,
    frames INTEGER NOT NULL,
    bad_frames INTEGER NOT NULL,
    losses INTEGER NOT NULL,
    at TEXT NOT NULL
)"""

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
    ended TEXT,
    final TEXT,                       -- fingerprint of the final state, when finished
    claim TEXT                        -- the table playing it now (JSON: pid, host, process, since), else NULL
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
""" + _AUDIT_TABLE


_GAMES = ("SELECT g.id, g.created, g.seed, g.players, g.settings, g.status, g.winners, g.ended, "
          "(SELECT COUNT(*) FROM inputs i WHERE i.game = g.id), "
          "(SELECT COALESCE(MAX(turn), 1) FROM inputs i WHERE i.game = g.id), {final} FROM games g")

SEED_KINDS = ("secret", "given")      # settings["seed"]: drawn from the OS, or chosen with --seed
CONSOLE_SETTINGS = ("seats", "game", "seed", "names")   # the settings every game's record may have (besides its own)


def _count(value: Any) -> int:
    """An audit counter as stored: a whole number from 0 (anything else: ValueError)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"not a count: {value!r}")
    return value



def _db_error(exc: BaseException) -> str:
    """What SQLite said of a damaged file. A message quoting bytes that are not text (a schema
    whose SQL was overwritten) reaches Python as a UnicodeDecodeError, not SQLite's error."""
    if isinstance(exc, UnicodeDecodeError):
        return "its schema is damaged; SQLite's message quotes bytes that are not text"
    return str(exc)

class JournalError(Exception):
    """The journal cannot be used; the message says why, naming the file."""

    def __init__(self, message: str) -> None:
        # A damaged file's own bytes can reach the message (SQLite quotes them): keep it one
        # printable line of reasonable length.
        text = "".join(c if c.isprintable() else "?" for c in str(message))
        super().__init__(text if len(text) <= 400 else text[:397] + "...")


@dataclass(frozen=True)
class Claim:
    """A table playing a game of a journal now: its process id, its computer and since when."""

    game: int
    pid: int
    host: str
    process: str
    since: str

    def holder(self) -> str:
        """``pid 4242 on ana-laptop, since 2026-11-27 00:31:05`` (printable)."""
        host = "".join(c if c.isprintable() else "?" for c in self.host[:64])
        return f"pid {self.pid} on {host}, since {self.since[:19].replace('T', ' ')}"


class GameHeld(JournalError):
    """``play --resume`` of a game another table is playing now (its claim is alive); the
    message names the game and who holds it (one line)."""


def _process_identity(pid: int) -> str | None:
    """Process ``pid`` of this computer: None when no such process runs; else its identity,
    which a pid reused by another process (or after a restart) does not share: on Linux the
    boot id and the process's start time (``/proc``), elsewhere '' (only whether the pid runs)."""
    if pid <= 0:
        return None
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            fields = f.read().rsplit(")", 1)[1].split()             # from field 3, the state
        if fields[0] in ("Z", "X"):
            return None                         # ended, not yet reaped by its parent: gone
        started = fields[19]                    # field 22: its start time since the boot
        try:
            with open("/proc/sys/kernel/random/boot_id", encoding="ascii") as f:
                boot = f.read().strip()
        except OSError:
            boot = ""
        return f"{boot}:{started}"
    except FileNotFoundError:
        if os.path.isdir("/proc/self"):
            return None                         # /proc is there and the pid is not: gone
    except (OSError, IndexError):
        pass
    if os.name == "nt":                         # not checked there: every claim counts as stale
        return None
    try:
        os.kill(pid, 0)                         # signal 0: whether it runs, nothing sent
    except ProcessLookupError:
        return None
    except OSError:                             # another user's process: it runs
        pass
    return ""


def this_table() -> tuple[int, str, str]:
    """This process's (pid, host, identity), as its claims record them."""
    pid = os.getpid()
    return pid, socket.gethostname(), _process_identity(pid) or ""


def claim_alive(claim: Claim) -> bool:
    """Whether the table that made ``claim`` may still be playing: a claim of this computer
    whose process no longer runs (SIGKILL, a power cut: the pid is gone, or now another
    process's) is stale. Another computer's processes cannot be seen from here: its claim
    stands until that computer's table ends it (or a ``--resume`` there finds it stale)."""
    if claim.host != socket.gethostname():
        return True
    running = _process_identity(claim.pid)
    if running is None:
        return False
    return not claim.process or not running or running == claim.process


class JournaledGame(Protocol):
    """A game state as the journal sees it: data in, data out."""

    def to_data(self) -> Mapping[str, Any]: ...


class JournalRules(Protocol):
    """What the journal needs of a game (its cartridge gives it) to record and rebuild its
    games and check their records."""

    name: str                                        # the game's name, recorded with each game
    input_errors: tuple[type[BaseException], ...]    # what "this input does not apply" raises

    def from_data(self, data: Mapping[str, Any]) -> Any: ...
    def apply_input(self, game: Any, kind: str, data: Mapping[str, Any]) -> list[Any]: ...
    def state_hash(self, game: Any) -> str: ...
    def seed(self, game: Any) -> int: ...
    def players(self, game: Any) -> list[str]: ...
    def finished(self, game: Any) -> bool: ...
    def winners(self, game: Any) -> list[str]: ...
    def check_settings(self, settings: Mapping[str, Any]) -> None: ...   # ValueError naming what is wrong


def command_of(game: str) -> str:
    """The command that runs game ``game``'s table, for the lines that name one: its own
    console script when one of that name is installed (``outspeed``, ``lastonealive``, a
    cartridge's ``[project.scripts]``), else the console's ``bitbox game NAME``."""
    from importlib.metadata import entry_points
    return game if entry_points(group="console_scripts", name=game) else f"bitbox game {game}"


def turns_by_input(rules: Any, game: Any) -> bool:
    """Whether each input of ``game`` is a turn of its own (the n-th input journaled at turn n,
    one snapshot and one replay frame each): so for a game at the console's table that has no
    ``turn`` of its own (the protocol's rules say so: ``numbers_turns``); rules that do not
    say number the turns from the game (``turn(game)``)."""
    numbers = getattr(rules, "numbers_turns", None)
    return numbers is not None and not numbers(game)


def check_choices(settings: Mapping[str, Any], allowed: Mapping[str, Sequence[str]],
                  lists: Sequence[str] = ()) -> None:
    """A record's settings that name one of a few choices (``allowed``: key → the choices;
    a key in ``lists`` holds a comma-separated list of them): ValueError naming the first
    wrong one. Keys that are absent are fine."""
    for key, choices in allowed.items():
        if key not in settings:
            continue
        value = settings[key]
        values = value.split(",") if isinstance(value, str) and key in lists else [value]
        if not isinstance(value, str) or not all(v in choices for v in values):
            raise ValueError(f"unknown {key} {str(value)[:20]!r}")


_GAME_NAME = re.compile(r"[a-z][a-z0-9_]{0,39}")


def find_journal_rules(name: str) -> JournalRules:
    """The journal rules of the game called ``name``: its cartridge's ``journal``, found in
    the registry (:func:`bitbox.games.find`). ``name`` comes from a file: it is checked (a
    plain lower-case name) and only an installed cartridge is loaded."""
    if not isinstance(name, str) or not _GAME_NAME.fullmatch(name):
        raise JournalError(f"the journal names an unknown game {str(name)[:40]!r}")
    from bitbox.games import GameError, find
    try:
        cartridge = find(name)
    except GameError as exc:
        raise JournalError(f"the journal holds a game of {name!r}, which is not installed here ({exc})") from None
    from .protocol_rules import journal_rules_of
    rules: JournalRules = journal_rules_of(cartridge)
    return rules


def game_title(name: str) -> str:
    """A game's title as people read it (its cartridge's), else its registry name (a game
    not installed here)."""
    from bitbox.games import registry
    try:
        return str(registry.find(name).title)
    except Exception:                       # not installed (a journal from elsewhere): its name
        return name


CONSOLE_TITLE = "8Bitbox"            # whose journal it is for the console's own commands (standings, audit)


def _a(title: str) -> str:
    """``an Outspeed``, ``a Last One Alive``, ``an 8Bitbox`` (said "an eight...")."""
    return f"{'an' if title[:1].lower() in 'aeiou8' else 'a'} {title}"


def a_game(name: str) -> str:
    """``an Outspeed game``, ``a Last One Alive game``."""
    return f"{_a(game_title(name))} game"


def a_journal(name: str | None) -> str:
    """What a file refused as a journal is not, named after the game whose command opened it
    (``a Last One Alive journal``, ``a Pig Race journal``), or the console's (``an 8Bitbox
    journal``) for a command of no one game."""
    return f"{_a(game_title(name) if name else CONSOLE_TITLE)} journal"


class OtherGame(JournalError):
    """A command of one game was given a record of another game; the message names the
    command that reads it (one line)."""


APP_FOLDER = "8bitbox"                # the folder of our data in the user's data folder


def default_journal_path() -> Path:
    """``journal.sqlite`` in the user's data folder for 8bitbox, as :mod:`platformdirs` gives it:
    ``$XDG_DATA_HOME/8bitbox`` or ``~/.local/share/8bitbox`` on Linux (an empty or relative
    ``XDG_DATA_HOME`` is ignored, as the XDG specification says), ``~/Library/Application
    Support/8bitbox`` on macOS, ``%LOCALAPPDATA%\\8bitbox`` on Windows."""
    import platformdirs
    return platformdirs.user_data_path(APP_FOLDER, appauthor=False) / "journal.sqlite"


def journal_option(path: str | Path) -> str:
    """What a command line that reaches the journal at ``path`` adds: `` --journal PATH``
    (quoted for the shell when it must be), or nothing for the default journal
    (:func:`default_journal_path`). The lines that name a command to run next (resume it,
    replay it, see the history) end with it, so that the command works as given."""
    try:
        if Path(path).expanduser().resolve() == default_journal_path().expanduser().resolve():
            return ""
    except (OSError, RuntimeError, ValueError):     # a path the system will not resolve: name it
        pass
    return f" --journal {shlex.quote(str(path))}"


def _existing(path: Path, game: str | None = None) -> os.stat_result | None:
    """The file at ``path`` (through a symlink too), or None when there is none. Something
    that is not a regular file, or a file of another user, is refused and left untouched
    (``game``: whose journal it was opened as, named in the refusal)."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        if os.path.islink(path):
            raise JournalError(f"{path}: a symbolic link to nothing; it was left untouched. "
                               f"Choose another file with --journal PATH.") from None
        return None
    except OSError as exc:
        raise JournalError(f"{path}: cannot be read: {exc.strerror or exc}") from None
    if stat.S_ISDIR(st.st_mode):
        raise JournalError(f"{path}: is a folder, not a journal file. Choose another file with --journal PATH.")
    if not stat.S_ISREG(st.st_mode):
        raise JournalError(f"{path}: is not a regular file (not {a_journal(game)}); it was left untouched.")
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        raise JournalError(f"{path}: belongs to another user (uid {st.st_uid}): a journal holds a game's secrets, "
                           f"use your own; it was left untouched. Choose another file with --journal PATH.")
    return st


def _create_private(path: Path) -> None:
    """The journal holds secrets (the seed, the pile and tile order, every token held and kept,
    each choice as it is locked in): it is created 0600 (owner only) whatever the umask. SQLite
    gives its side files (``-journal``, ``-wal``) the database file's permissions."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except FileExistsError:
        raise JournalError(f"{path}: appeared while it was being created; it was left untouched.") from None
    except OSError as exc:
        raise JournalError(f"{path}: cannot be created: {exc.strerror or exc}") from None
    os.close(fd)


def _seed_to_sql(seed: int) -> int | str:
    """SQLite integers have 64 bits: a larger (secret) seed is stored as hexadecimal text."""
    seed = int(seed)
    return seed if -2**63 <= seed < 2**63 else hex(seed)


def _seed_from_sql(value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower().startswith(("0x", "-0x")) and len(value) <= 80:
        return int(value, 16)
    raise ValueError(f"the seed {str(value)[:40]!r} is not a number")


MAX_DEPTH = 32        # a record's JSON is at most 9 deep; deeper is damage, whatever the stack allows


def _loads(text: Any) -> Any:
    """JSON from the journal; absurd nesting is a damaged record, not a crash. The bound is
    :data:`MAX_DEPTH` (not what the interpreter's stack allows where it is read), so a record
    that is read once is read everywhere: by ``import`` before it writes, and by ``history``,
    ``replay`` and ``--resume`` afterwards."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise ValueError("nested too deeply") from None
    level: list[tuple[Any, int]] = [(value, 1)]
    while level:
        item, depth = level.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        if children and depth > MAX_DEPTH:
            raise ValueError(f"nested too deeply (more than {MAX_DEPTH} levels)")
        level.extend((c, depth + 1) for c in children if isinstance(c, (dict, list)))
    return value


def check_record(players: Any, settings: Any, status: Any, winners: Any,
                 rules: JournalRules | None = None) -> None:
    """Raise ValueError naming what is wrong when a game's record has values the readers
    (history, replay, resume) cannot use: names, seats, game, seed kind, status, winners;
    and, through the game's ``rules``, its own settings (language, bots...)."""
    if not isinstance(players, list) or not players or not all(isinstance(p, str) for p in players):
        raise ValueError("players must be a list of names")
    if not isinstance(settings, dict):
        raise ValueError("settings must be a mapping")
    seats = settings.get("seats", [])
    if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
        raise ValueError("seats must be a list of mappings")
    for s in seats:
        if s.get("player") not in players:
            raise ValueError(f"a seat has no player of this game ({str(s.get('player'))[:20]!r})")
        if s.get("kind") not in SEAT_KINDS:
            raise ValueError(f"seat {s['player']}: its kind must be one of {', '.join(SEAT_KINDS)}")
        cid = s.get("controller_id")
        if cid is not None and (not isinstance(cid, int) or isinstance(cid, bool)):
            raise ValueError(f"seat {s['player']}: its controller id is not a number")
    if "seed" in settings and (not isinstance(settings["seed"], str) or settings["seed"] not in SEED_KINDS):
        raise ValueError(f"unknown seed {str(settings['seed'])[:20]!r}")
    names = settings.get("names", {})         # a person's name for a seat (docs/analysis.md: standings;
    if not isinstance(names, dict):           # a name that is not one leaves its seat unnamed there)
        raise ValueError("names must map players to names")
    game = settings.get("game", LEGACY_GAME)
    if not isinstance(game, str) or not _GAME_NAME.fullmatch(game):
        raise ValueError(f"unknown game {str(game)[:20]!r}")
    if rules is not None:
        known = getattr(rules, "settings_keys", None)       # the game's own keys, besides the console's
        if known is not None:
            extra = sorted(str(k) for k in settings if k not in (*CONSOLE_SETTINGS, *known))
            if extra:
                raise ValueError(f"unknown setting {extra[0][:20]!r}")
        rules.check_settings(settings)
    if status not in ("playing", "finished"):
        raise ValueError(f"unknown status {str(status)[:20]!r}")
    if winners is not None and not (isinstance(winners, list)
                                    and all(isinstance(w, str) and w in players for w in winners)):
        raise ValueError("winners must be a list of this game's players")


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
    final: str | None = None   # fingerprint of the final state (finished games of this version)
    playing: Claim | None = None   # the table playing it now (history: Journal.claims), else None

    @property
    def seed_public(self) -> bool:
        """Whether the seed may be shown: once the game is over, or when it was chosen (--seed).
        A secret seed gives the hidden tile order, bonus pile and dice away."""
        return self.status == "finished" or self.settings.get("seed") == "given"

    @property
    def game(self) -> str:
        """Which game this record belongs to: the one place that decides it (records written
        before the console name none: Outspeed). Every command that reads a record asks it
        through :meth:`Journal.owns` / :meth:`Journal.own_game`."""
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
    at: str = ""               # when it was accepted (ISO 8601)


@dataclass(frozen=True)
class AuditCounts:
    """One controller's counters over one session of a game (bitbox.table.audit)."""

    controller_id: int
    kind: str                         # controller | bot
    locks: int = 0
    refusals: int = 0
    frames: int = 0
    bad_frames: int = 0
    losses: int = 0


@dataclass(frozen=True)
class AuditTotals:
    """One controller's counters summed over every game of a journal."""

    controller_id: int
    kind: str                         # controller, bot, or both comma-separated
    games: int                        # games it was seated in (a resumed game counts once)
    locks: int
    refusals: int
    frames: int
    bad_frames: int
    losses: int
    last: str                         # when its last counters were written (ISO 8601, with its UTC offset)


class Journal:
    """An open journal file. Use as a context manager or call :meth:`close`.

    ``rules``: the rules of the game this table writes (:meth:`new_game`); games of another
    name found in the file are read with their own cartridge's rules
    (:func:`find_journal_rules`)."""

    def __init__(self, path: str | Path, rules: JournalRules | None = None, *, create: bool = True,
                 command: str | None = None, game: str | None = None) -> None:
        """``create``: make the file (and its folder) if there is none, and the tables in an
        empty file (``outspeed play``). Without it (history, replay) a missing or empty file
        is refused and nothing is written. ``command``: the program the user is running
        (``outspeed``, ``lastonealive``), named where a message sends them to its
        ``history``; by default the name of ``rules``. ``game``: the game whose command opens
        the file, named when the file is refused as not a journal (``not a Last One Alive
        journal``); by default the game of ``rules``, else the console (``an 8Bitbox journal``)."""
        self.path = Path(path)
        self.rules = rules
        self.command = command if command is not None else (rules.name if rules is not None else None)
        self.game_name = game if game is not None else (rules.name if rules is not None else None)
        self._found: dict[str, JournalRules | JournalError] = {}
        self.notices: list[str] = []              # things the caller should tell the user
        self._mine: dict[int, str] = {}           # the claims this table made, by game (Journal.release)
        st = _existing(self.path, self.game_name)
        if st is None:
            if not create:
                raise JournalError(f"{self.path}: no journal here (no game has been played with it)")
            self._make_folder()
            _create_private(self.path)
        try:
            self.db = sqlite3.connect(str(self.path), timeout=5.0, isolation_level=None)
        except sqlite3.Error as exc:
            raise JournalError(f"{self.path}: cannot be opened: {exc}") from None
        try:
            self._check_and_create(create)
            self._final = self._final_column(create)
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:   # (SQLite's message quoting damaged bytes)
            self.db.close()
            raise JournalError(f"{self.path}: not {a_journal(self.game_name)} (the file is not a readable SQLite "
                               f"database: {_db_error(exc)}). Choose another file with --journal PATH.") from None
        except BaseException:
            self.db.close()
            raise
        if st is not None:
            self._make_private(st)

    def _make_folder(self) -> None:
        try:
            if not self.path.parent.exists():     # a folder of ours: private (0700)
                self.path.parent.mkdir(parents=True, mode=0o700)
        except FileExistsError:
            pass
        except OSError as exc:
            raise JournalError(f"{self.path}: cannot create its folder: {exc.strerror or exc}") from None

    def _make_private(self, st: os.stat_result) -> None:
        """Our journal (checked: ours, and a journal) that others may read is made 0600."""
        if not st.st_mode & 0o077:
            return
        try:
            os.chmod(self.path, 0o600)
        except OSError as exc:
            raise JournalError(f"{self.path}: readable by other users and its mode cannot be changed "
                               f"({exc.strerror or exc}): refused, a journal holds a game's secrets") from None
        self.notices.append(f"{self.path}: was readable by other users; its mode is now 0600 (owner only)")

    def _final_column(self, create: bool) -> str:
        """Journals written before ``games.final`` existed get the column when opened to play;
        read as they are, their games have no final fingerprint (their result is still checked)."""
        columns = {r[1] for r in self.db.execute("PRAGMA table_info(games)")}
        if "final" in columns:
            return "g.final"
        if create:
            try:
                self.db.execute("ALTER TABLE games ADD COLUMN final TEXT")
                return "g.final"
            except sqlite3.OperationalError:
                pass
        return "NULL"

    def _check_and_create(self, create: bool = True) -> None:
        db = self.db
        db.execute("PRAGMA synchronous = FULL")
        app = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if app == 0 and not tables:
            if not create:
                raise JournalError(f"{self.path}: not {a_journal(self.game_name)} (an empty file or database); it was "
                                   f"left untouched. Choose another file with --journal PATH.")
            self._create_tables()
            return
        if app != APPLICATION_ID:
            raise JournalError(f"{self.path}: this SQLite database belongs to another program (it is not "
                               f"{a_journal(self.game_name)}); it was left untouched. Choose another file with "
                               f"--journal PATH.")
        if version > SCHEMA_VERSION:
            raise JournalError(f"{self.path}: written by a newer version of this program (journal format "
                               f"{version}, this one reads {SCHEMA_VERSION}); it was left untouched.")
        if not {"games", "inputs"} <= tables:
            raise JournalError(f"{self.path}: the journal is damaged (tables missing); it was left untouched.")
        foreign = db.execute("SELECT type, name FROM sqlite_master WHERE type IN ('trigger', 'view') "
                             "ORDER BY type, name").fetchone()
        if foreign is not None:                 # the journal makes neither: one would act inside its writes
            raise JournalError(f"{self.path}: the journal holds a {foreign[0]} {str(foreign[1])[:40]!r} that is not "
                               f"the journal's own; it was left untouched.")

    def _create_tables(self) -> None:
        """The schema, in one transaction; a write that fails (a full disk) is one clear line."""
        db = self.db
        try:
            db.execute("BEGIN IMMEDIATE")
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            if db.in_transaction:
                db.execute("COMMIT")
        except sqlite3.OperationalError as exc:
            _Tx(db, self.path)._rollback()
            raise JournalError(f"{self.path}: cannot write ({exc})") from None

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> "Journal":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # ------------------------------------------------------------------ audit counters
    def add_audit(self, game_id: int, rows: Sequence["AuditCounts"]) -> None:
        """Add one session's counters of each controller of game ``game_id``, in one transaction
        (the table is made first in a journal written before it existed)."""
        if not rows:
            return
        with self._tx():
            self.db.execute(_AUDIT_TABLE)
            self.db.executemany(
                "INSERT INTO controller_audit (game, controller, kind, locks, refusals, frames, bad_frames, losses, at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(game_id, f"{r.controller_id:016x}", r.kind, r.locks, r.refusals, r.frames, r.bad_frames, r.losses,
                  _now()) for r in rows])

    def audit(self) -> list["AuditTotals"]:
        """Every controller's counters over all the games of this journal, by controller id (a
        journal written before the audit existed has none)."""
        if not self._query("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'controller_audit'"):
            return []
        rows = self._query(
            "SELECT controller, GROUP_CONCAT(DISTINCT kind), COUNT(DISTINCT game), SUM(locks), SUM(refusals), "
            "SUM(frames), SUM(bad_frames), SUM(losses), MAX(at) FROM controller_audit GROUP BY controller "
            "ORDER BY controller")
        totals = []
        for r in rows:
            try:
                games, locks, refusals, frames, bad, losses = (_count(v) for v in r[2:8])
                totals.append(AuditTotals(int(str(r[0]), 16), str(r[1]), games, locks, refusals, frames, bad, losses,
                                          str(r[8])))
            except (TypeError, ValueError):
                raise JournalError(f"{self.path}: the journal is damaged (controller_audit: the row of controller "
                                   f"{str(r[0])[:24]!r} is not a controller's counters); it was left untouched.") \
                    from None
        return totals

    # ------------------------------------------------------------------ writing
    def new_game(self, game: JournaledGame, settings: dict[str, Any], *, claim: bool = False) -> "GameRecord":
        """Record a new game of :attr:`rules` (its initial state holds the seed and, for
        Outspeed, the tile order); ``settings`` gains the game's name. ``claim``: this process
        plays it (:meth:`claim`, in the same transaction: no ``--resume`` can take it between)."""
        rules = self.rules
        if rules is None:
            raise JournalError(f"{self.path}: no game given to record (Journal(path, rules))")
        settings = {**settings, "game": rules.name}
        with self._tx():
            mine = self._my_claim() if claim else None          # in the row itself: no page more
            cur = self.db.execute(
                "INSERT INTO games (created, seed, players, settings, initial" + (", claim" if mine else "") +
                ") VALUES (?, ?, ?, ?, ?" + (", ?" if mine else "") + ")",
                (_now(), _seed_to_sql(rules.seed(game)), json.dumps(list(rules.players(game))),
                 json.dumps(settings, sort_keys=True), json.dumps(game.to_data(), sort_keys=True),
                 *([mine] if mine else [])))
            game_id = cur.lastrowid
            assert game_id is not None              # set by every INSERT
        if mine is not None:
            self._mine[game_id] = mine
        return GameRecord(self, game_id, 0)

    # ------------------------------------------------------------------ claims
    def claims(self) -> dict[int, Claim]:
        """The games tables are playing now, by game id: each claim whose table may still run
        (:func:`claim_alive`; a stale claim is left for the next claim to replace)."""
        if "claim" not in self._columns():
            return {}
        out: dict[int, Claim] = {}
        for game_id, text in self._query("SELECT id, claim FROM games WHERE claim IS NOT NULL"):
            try:
                c = _loads(text)
                claim = Claim(int(game_id), int(c["pid"]), str(c["host"]), str(c["process"]), str(c["since"]))
            except (TypeError, ValueError, KeyError):
                continue                        # not a claim: nobody's (the next claim replaces it)
            if claim_alive(claim):
                out[claim.game] = claim
        return out

    def _columns(self) -> set[str]:
        return {str(r[1]) for r in self._query("PRAGMA table_info(games)")}

    def _my_claim(self) -> str:
        """This table's claim as a game's record holds it (JSON); the ``claim`` column is added
        to a journal written before it (inside the caller's transaction)."""
        if "claim" not in self._columns():
            self.db.execute("ALTER TABLE games ADD COLUMN claim TEXT")
        pid, host, process = this_table()
        return json.dumps({"pid": pid, "host": host, "process": process, "since": _now()}, sort_keys=True)

    def held(self, game_id: int, claim: Claim) -> GameHeld:
        """The one line that refuses ``--resume`` of game ``game_id``, which ``claim``'s table
        is playing."""
        name = self.rules.name if self.rules is not None else LEGACY_GAME
        return GameHeld(f"{self.path}: game {game_id} is being played now by another table ({claim.holder()}); "
                        f"`{command_of(name)} play --resume{journal_option(self.path)}` continues it once that table has stopped")

    def claim(self, game_id: int, inputs: int) -> None:
        """This process plays game ``game_id`` from now on (``play --resume``, after it rebuilt
        the game from its ``inputs`` journaled inputs): in one transaction, refused
        (:class:`GameHeld`, nothing written) when another table holds a live claim on it, or
        when the game is no longer as it was rebuilt (finished, or an input added since: a table
        that makes no claim is playing it). A stale claim is replaced."""
        with self._tx():
            row = self.db.execute("SELECT status, (SELECT COUNT(*) FROM inputs WHERE game = ?) FROM games "
                                  "WHERE id = ?", (game_id, game_id)).fetchone()
            if row is None:
                raise JournalError(f"{self.path}: no game {game_id}")
            current = self.claims().get(game_id)
            if current is not None:
                raise self.held(game_id, current)
            if row[0] != "playing" or row[1] != inputs:
                raise GameHeld(f"{self.path}: game {game_id} changed while it was being resumed (another table is "
                               f"playing it, a program that does not say so); it was left untouched")
            mine = self._my_claim()
            self.db.execute("UPDATE games SET claim = ? WHERE id = ?", (mine, game_id))
        self._mine[game_id] = mine

    def release(self, game_id: int) -> None:
        """This table no longer plays game ``game_id`` (it ended or stopped): its claim goes.
        A claim left behind (the process killed) is stale once the process is gone."""
        mine = self._mine.pop(game_id, None)
        if mine is None:
            return
        with self._tx():
            self.db.execute("UPDATE games SET claim = NULL WHERE id = ? AND claim = ?", (game_id, mine))

    def resumable(self) -> GameInfo | None:
        """What ``play --resume`` continues: the last unfinished game of this journal's rules
        that no table is playing now (:meth:`claims`); :class:`GameHeld` naming the last of them
        when tables are playing them all; else as :meth:`last_unfinished`."""
        held = self.claims()
        busy: tuple[int, Claim] | None = None
        for r in self._query(self._games_sql() + " WHERE g.status = 'playing' ORDER BY g.id DESC"):
            if r[0] in held:
                info = self._info(r)
                if self.owns(info):
                    busy = busy or (info.id, held[info.id])
                continue
            info = self._info(r)
            if self.owns(info):
                return info
        if busy is not None:
            raise self.held(*busy)
        return self.last_unfinished()

    def add_game(self, *, created: str, seed: int, players: list[str], settings: dict[str, Any],
                 initial: Mapping[str, Any], status: str, winners: list[str] | None, ended: str | None,
                 final: str | None, inputs: Sequence[InputRecord]) -> int:
        """Record a whole game at once (``import``: a game file already verified by replaying
        it), in one transaction: all of it or nothing. Returns its id in this journal. A game
        the journal's readers would refuse afterwards (:func:`check_storable`) is not written."""
        rules = self._rules_named(str(settings.get("game", LEGACY_GAME)), "to import")
        try:
            check_storable(rules, created=created, seed=seed, players=players, settings=settings, initial=initial,
                           status=status, winners=winners, ended=ended, final=final, inputs=inputs)
        except (ValueError, TypeError) as exc:
            raise JournalError(f"{self.path}: this game cannot be recorded, it could not be read back ({exc})") \
                from None
        with self._tx():
            cur = self.db.execute(
                "INSERT INTO games (created, seed, players, settings, initial, status, winners, ended) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (created, _seed_to_sql(seed), json.dumps(list(players)), json.dumps(settings, sort_keys=True),
                 json.dumps(initial, sort_keys=True), status, json.dumps(winners) if winners is not None else None,
                 ended))
            game_id = cur.lastrowid
            assert game_id is not None
            if final is not None and self._final == "g.final":
                self.db.execute("UPDATE games SET final = ? WHERE id = ?", (final, game_id))
            self.db.executemany(
                "INSERT INTO inputs (game, seq, turn, phase, kind, data, state, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [(game_id, r.seq, r.turn, r.phase, r.kind, json.dumps(r.data, sort_keys=True), r.state, r.at or _now())
                 for r in inputs])
        return game_id

    def same_game(self, initial: Mapping[str, Any], inputs: Sequence[InputRecord], final: str | None) -> int | None:
        """The id of the game of this journal that is this one (an import made twice), if there
        is one: the same initial state (seed and all), every input the same (its kind, data and
        the fingerprint of the state it was applied to, in order) and the same final
        fingerprint. Two games dealt from one seed but played otherwise are two games."""
        rows = self._query(f"SELECT g.id, {self._final} FROM games g WHERE g.initial = ? AND "
                           "(SELECT COUNT(*) FROM inputs i WHERE i.game = g.id) = ? ORDER BY g.id",
                           (json.dumps(initial, sort_keys=True), len(inputs)))
        want = [(r.seq, r.turn, r.phase, r.kind, json.dumps(r.data, sort_keys=True), r.state) for r in inputs]
        for game_id, stored_final in rows:
            if stored_final != final:
                continue
            have = self._query("SELECT seq, turn, phase, kind, data, state FROM inputs WHERE game = ? ORDER BY seq",
                               (game_id,))
            if [tuple(h) for h in have] == want:
                return int(game_id)
        return None

    def _tx(self) -> "_Tx":
        return _Tx(self.db, self.path)

    # ------------------------------------------------------------------ reading
    def games(self) -> list[GameInfo]:
        rows = self._query(self._games_sql() + " ORDER BY g.id")
        return [self._info(r) for r in rows]

    def game(self, game_id: int) -> GameInfo:
        rows = self._query(self._games_sql() + " WHERE g.id = ?", (game_id,))
        if not rows:
            see = f" (see `{self.command} history{journal_option(self.path)}`)" if self.command else ""
            raise JournalError(f"{self.path}: no game {game_id}{see}")
        return self._info(rows[0])

    def _games_sql(self) -> str:
        return _GAMES.format(final=self._final)

    def readable_games(self) -> tuple[list[GameInfo], list[JournalError]]:
        """Every game whose record can be read, and what is wrong with each of the others (one
        damaged record hides no other game: ``history`` lists them and names the damaged)."""
        games: list[GameInfo] = []
        problems: list[JournalError] = []
        for r in self._query(self._games_sql() + " ORDER BY g.id"):
            try:
                games.append(self._info(r))
            except JournalError as exc:
                problems.append(exc)
        return games, problems

    def owns(self, info: GameInfo) -> bool:
        """Whether ``info`` is a game of this journal's rules (the command's game); a journal
        opened without rules reads every game. What game a record is, is :attr:`GameInfo.game`."""
        return self.rules is None or info.game == self.rules.name

    def check_own(self, info: GameInfo, use: str) -> GameInfo:
        """``info`` when it is a game of this journal's rules, else :class:`OtherGame` in one
        line naming the command that reads it: ``game 3 is a Last One Alive game: use
        `lastonealive replay 3```. ``use``: the command's words after the game's name
        (``replay {id}``, ``play --resume``)."""
        if not self.owns(info):
            self._rules_named(info.game, info.id)          # a game not installed here: said so first
            raise OtherGame(f"game {info.id} is {a_game(info.game)}: use `{command_of(info.game)} "
                            f"{use.format(id=info.id)}{journal_option(self.path)}`")
        return info

    def own_game(self, game_id: int, use: str) -> GameInfo:
        """Game ``game_id``'s record, refused (:class:`OtherGame`) when it is another game's."""
        return self.check_own(self.game(game_id), use)

    def last_unfinished(self) -> GameInfo | None:
        """The last unfinished game of this journal's rules (``play --resume``; of any game when
        it has none), or None. When the only unfinished games are another game's:
        :class:`OtherGame` naming the command that resumes the last of them."""
        rows = self._query(self._games_sql() + " WHERE g.status = 'playing' ORDER BY g.id DESC")
        other: GameInfo | None = None
        for r in rows:
            info = self._info(r)
            if self.owns(info):
                return info
            other = other or info
        if other is not None:
            title = game_title(self.rules.name) if self.rules is not None else ""
            raise OtherGame(f"{self.path}: no unfinished {title} game to resume; game {other.id} is an unfinished "
                            f"{game_title(other.game)} game: use `{command_of(other.game)} play --resume"
                            f"{journal_option(self.path)}`")
        return None

    def rules_of(self, game_id: int) -> JournalRules:
        """The rules of game ``game_id`` (the cartridge its record names)."""
        return self._rules_named(self.game(game_id).game, game_id)

    def _rules_named(self, name: str, game_id: Any) -> JournalRules:
        if self.rules is not None and self.rules.name == name:
            return self.rules
        found = self._found.get(name)
        if found is None:
            try:
                found = find_journal_rules(name)
            except JournalError as exc:
                found = exc
            self._found[name] = found
        if isinstance(found, JournalError):
            raise JournalError(f"{self.path}: game {game_id}: {found}") from None
        return found

    def initial(self, game_id: int) -> Any:
        """Game ``game_id``'s initial state, rebuilt by its rules; refused when it cannot be, or
        when its players are not the record's (each reader relies on one list of players)."""
        rows = self._query("SELECT initial, players FROM games WHERE id = ?", (game_id,))
        if not rows:
            raise JournalError(f"{self.path}: no game {game_id}")
        rules = self.rules_of(game_id)
        errors: tuple[type[BaseException], ...] = (ValueError, KeyError, TypeError, AttributeError, IndexError,
                                                    OverflowError, *rules.input_errors)
        try:
            game = rules.from_data(_loads(rows[0][0]))
            players = list(rules.players(game))
            recorded = _loads(rows[0][1])
        except errors as exc:
            raise JournalError(f"{self.path}: game {game_id}: its initial state cannot be read ({exc})") from None
        if players != recorded:
            raise JournalError(f"{self.path}: game {game_id}: its initial state's players are not its record's "
                               f"(the journal was edited)")
        return game

    def inputs(self, game_id: int) -> list[InputRecord]:
        rows = self._query("SELECT seq, turn, phase, kind, data, state, at FROM inputs WHERE game = ? ORDER BY seq",
                           (game_id,))
        out = []
        for seq, turn, phase, kind, data, state, at in rows:
            try:
                out.append(InputRecord(int(seq), int(turn), str(phase), str(kind), _loads(data), str(state), str(at)))
            except (ValueError, TypeError) as exc:
                raise JournalError(f"{self.path}: game {game_id}, input {seq}: cannot be read ({exc})") from None
        return out

    def _query(self, sql: str, args: Sequence[Any] = ()) -> list[tuple]:
        try:
            return self.db.execute(sql, args).fetchall()
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
            raise JournalError(f"{self.path}: the journal is damaged ({_db_error(exc)})") from None

    def _info(self, r: tuple) -> GameInfo:
        try:
            return read_record(r, self._rules_or_none)
        except (ValueError, TypeError) as exc:
            raise JournalError(f"{self.path}: game {r[0]}: its record cannot be read ({exc})") from None

    def _rules_or_none(self, name: str, game_id: Any) -> JournalRules | None:
        try:
            return self._rules_named(name, game_id)
        except JournalError:
            return None                            # a game not installed here: listed, not playable


def read_record(r: Sequence[Any], rules_of: Any) -> GameInfo:
    """A game's record as the journal stores it (a row of ``games``: id, created, seed,
    players, settings, status, winners, ended, the number of inputs, the last turn, final)
    read and checked: ValueError naming what the readers (history, replay, resume) could not
    use. ``rules_of(name, id)``: the rules of the game it names, or None when not installed.
    The journal reads every record with it, and ``import`` reads a game file's record with it
    before writing anything (:func:`check_storable`)."""
    info = GameInfo(int(r[0]), str(r[1]), _seed_from_sql(r[2]), _loads(r[3]), _loads(r[4]), str(r[5]),
                    _loads(r[6]) if r[6] else None, r[7], int(r[8]), int(r[9]),
                    str(r[10]) if r[10] is not None else None)
    check_record(info.players, info.settings, info.status, info.winners)
    rules = rules_of(info.game, info.id)
    if rules is not None:
        check_record(info.players, info.settings, info.status, info.winners, rules)
    return info


def stored_row(game_id: int, *, created: str, seed: int, players: list[str], settings: Mapping[str, Any],
               status: str, winners: list[str] | None, ended: str | None, final: str | None,
               inputs: Sequence[InputRecord]) -> tuple:
    """The row :func:`read_record` reads for a game written by :meth:`Journal.add_game`, as it
    will be stored (the same JSON text)."""
    return (game_id, created, _seed_to_sql(seed), json.dumps(list(players)), json.dumps(settings, sort_keys=True),
            status, json.dumps(winners) if winners is not None else None, ended, len(inputs),
            max((r.turn for r in inputs), default=1), final)


def check_storable(rules: JournalRules, *, created: str, seed: int, players: list[str], settings: Mapping[str, Any],
                   initial: Mapping[str, Any], status: str, winners: list[str] | None, ended: str | None,
                   final: str | None, inputs: Sequence[InputRecord]) -> None:
    """ValueError naming what the journal's readers would refuse in this game once written:
    its record (:func:`read_record`), its initial state and each input's data read back from
    the JSON text they would be stored as. What passes here is read by ``history``,
    ``replay`` and ``--resume`` afterwards."""
    try:
        _check_storable(rules, created=created, seed=seed, players=players, settings=settings, initial=initial,
                        status=status, winners=winners, ended=ended, final=final, inputs=inputs)
    except RecursionError:                   # json.dumps of absurd nesting
        raise ValueError("nested too deeply") from None


def _check_storable(rules: JournalRules, *, created: str, seed: int, players: list[str],
                    settings: Mapping[str, Any], initial: Mapping[str, Any], status: str, winners: list[str] | None,
                    ended: str | None, final: str | None, inputs: Sequence[InputRecord]) -> None:
    read_record(stored_row(0, created=created, seed=seed, players=players, settings=settings, status=status,
                           winners=winners, ended=ended, final=final, inputs=inputs),
                lambda name, _id: rules if name == rules.name else None)
    _loads(json.dumps(initial, sort_keys=True))
    for r in inputs:
        try:
            _loads(json.dumps(r.data, sort_keys=True))
        except ValueError as exc:
            raise ValueError(f"input {r.seq}: {exc}") from None


class _Tx:
    def __init__(self, db: sqlite3.Connection, path: Path) -> None:
        self.db, self.path = db, path

    def __enter__(self) -> None:
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise JournalError(f"{self.path}: cannot write ({exc})") from None

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> Literal[False]:
        if exc_type is None:
            try:
                self.db.execute("COMMIT")
            except sqlite3.Error as err:
                self._rollback()
                raise JournalError(f"{self.path}: cannot write ({err}); the game so far is kept") from None
        else:
            self._rollback()
            if isinstance(exc, sqlite3.Error):
                raise JournalError(f"{self.path}: cannot write ({exc}); the game so far is kept") from None
        return False

    def _rollback(self) -> None:
        """Undo the transaction; SQLite may already have (a full disk ends it): nothing to undo."""
        if not self.db.in_transaction:
            return
        try:
            self.db.execute("ROLLBACK")
        except sqlite3.Error:
            pass                                   # the file is unchanged: SQLite's own journal restores it


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

    def finish(self, winners: list[str], state: str | None = None) -> None:
        """Mark the game finished with its winners and ``state``, the fingerprint of its final
        state (what :func:`verify` checks the last input and the result against)."""
        with self.journal._tx():
            if state is not None and self.journal._final == "g.final":
                self.journal.db.execute("UPDATE games SET final = ? WHERE id = ?", (state, self.id))
            self.journal.db.execute("UPDATE games SET status = 'finished', winners = ?, ended = ? WHERE id = ?",
                                    (json.dumps(winners), _now(), self.id))


def replay(journal: Journal, game_id: int, *, upto: int | None = None,
           verify: bool = True) -> Iterator[tuple[InputRecord, Any, list[Any]]]:
    """Rebuild game ``game_id`` input by input: yields (input, game after it, its events).
    The game object is the same one, advanced in place."""
    rules = journal.rules_of(game_id)
    game = journal.initial(game_id)
    errors: tuple[type[BaseException], ...] = (*rules.input_errors, KeyError, TypeError, ValueError, AttributeError, IndexError,
                                               OverflowError)
    position = getattr(rules, "position", None)     # (turn, phase) as the game's rules record them
    for rec in journal.inputs(game_id):
        if upto is not None and rec.seq >= upto:
            break
        if callable(position):                  # not in the fingerprints: checked here, always (cheap)
            try:
                turn, phase = position(game)
            except errors as exc:
                raise JournalError(f"{journal.path}: game {game_id}, input {rec.seq} cannot be applied: {exc}") \
                    from None
            if (int(turn), str(phase)) != (rec.turn, rec.phase):
                raise JournalError(f"{journal.path}: game {game_id} was altered: input {rec.seq} records turn "
                                   f"{rec.turn}, {_shown(rec.phase)}, but its game was then at turn {turn}, "
                                   f"{_shown(str(phase))}; it was left untouched")
        if verify and rules.state_hash(game) != rec.state:
            raise JournalError(f"{journal.path}: game {game_id} does not replay with this version of the rules "
                               f"(input {rec.seq}, turn {rec.turn}: the state differs from the one recorded)")
        try:
            events = rules.apply_input(game, rec.kind, rec.data)
        except errors as exc:
            raise JournalError(f"{journal.path}: game {game_id}, input {rec.seq} ({rec.kind}, turn {rec.turn}) "
                               f"cannot be applied: {exc}") from None
        yield rec, game, events


def _shown(phase: str) -> str:
    return repr(phase[:40]) if phase.isprintable() else "a phase that is not text"


def rebuild(journal: Journal, game_id: int) -> tuple[Any, int]:
    """The game as it stood after its last journaled input, and the number of inputs (what
    ``play --resume`` continues: refused, :class:`OtherGame`, when it is another game's)."""
    journal.own_game(game_id, "play --resume")
    game, n = journal.initial(game_id), 0
    for rec, g, _ in replay(journal, game_id):
        game, n = g, rec.seq + 1
    return game, n



def result_mismatch(info: GameInfo, game: Any, rules: JournalRules) -> str | None:
    """What, in a game's stored record, disagrees with ``game`` as its inputs rebuild it
    (None: all agrees): the seed, whether it is finished, the winners, the final state."""
    if rules.seed(game) != info.seed:
        return "its seed does not match its initial state"
    if info.status != "finished":
        return None
    if not rules.finished(game):
        return "it is marked finished but its inputs do not finish it (an input is missing)"
    if list(rules.winners(game)) != list(info.winners or []):
        return "its stored winners are not those its inputs give"
    if info.final is not None and rules.state_hash(game) != info.final:
        return ("its final state does not match its inputs (the last input or the result was edited, "
                "or it was played with other rules)")
    return None


def check_result(journal: Journal, info: GameInfo, game: Any) -> None:
    problem = result_mismatch(info, game, journal.rules_of(info.id))
    if problem is not None:
        raise JournalError(f"{journal.path}: game {info.id} was altered: {problem}; it was left untouched")


def verify(journal: Journal, game_id: int) -> GameInfo:
    """Replay game ``game_id`` from its inputs and refuse it (:class:`JournalError`) when its
    stored result disagrees. Returns its record. A finished game's final fingerprint covers
    every input before it, so only a finished game without one (written before it existed)
    has each input's fingerprint checked too (about 4x slower); an unfinished game has no
    result yet: its inputs are applied (``--resume`` checks their fingerprints)."""
    info = journal.game(game_id)
    game = journal.initial(game_id)
    for _, game, _ in replay(journal, game_id, verify=info.final is None and info.status == "finished"):
        pass
    check_result(journal, info, game)
    return info
