"""One game of the journal in one portable file, and back (any game): ``export`` and ``import``.

Like a chess PGN, a game file is for sharing a game and for bug reports: self-contained JSON
text (UTF-8) that names its format and version, the game (the cartridge's name), its players,
settings (seats, options), seed, initial state, result and every journaled input with the
fingerprint of the state it was applied to. The format is described in docs/table.md
("A game in one file"); :data:`FORMAT` and :data:`VERSION` name it.

**Importing verifies by replaying.** The file is read (at most :data:`MAX_BYTES`), its
fields checked, its initial state rebuilt by the game's own rules (its cartridge must be
installed), every input replayed with its state fingerprint checked, and its result (seed,
finished or not, winners, final fingerprint) compared with what the inputs give — the
checks of :func:`bitbox.table.journal.verify`, through the same functions. Anything wrong
is refused with one line naming the file and what was wrong, and nothing is written; a game
that passes is added to the journal in one transaction (a new id there), after which
``history`` and ``replay`` show it. Importing the same file twice adds it once.

**Secrecy.** Once a game is over, everything in its file is public (``history`` shows its
seed: the seed gives the tile order, the pile and the dice away). An *unfinished* game's
file would give away what no player may know yet: the game as dealt, everything hidden in it
(hence the tiles and tokens to come), a secret seed, the choices locked in but not yet
revealed. So ``export`` refuses an unfinished game
unless ``include_secrets`` (``--include-secrets``) is given; such a file says so
(``"secrets": true``), is created readable by its owner only, and is for the people who
may see everything (a bug report kept private, a game carried to another computer), never for a
player of that game. The check is the same as the journal's (``verify``) plus each input's
fingerprint, so a file that was edited is refused; it catches damage and careless edits,
not a forger (the fingerprints are not a signature).
"""
from __future__ import annotations

import argparse
import datetime as _dt
import json
import logging
import os
import stat
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, Mapping, Sequence

from bitbox.safetext import printable

from .options import journal_arg

from .journal import (GameInfo, InputRecord, Journal, JournalError, JournalRules, check_record, check_storable,
                      command_of, find_journal_rules, journal_option, result_mismatch, turns_by_input, verify)

_log = logging.getLogger("bitbox")          # status lines (-q hides them, --log-file keeps them)

FORMAT = "8bitbox-game"
VERSION = 1
MAX_BYTES = 16 * 1024 * 1024        # a long game is well under 1 MB; more is not a game file
MAX_INPUTS = 100_000
_FIELDS: dict[str, tuple[type, ...]] = {   # the fields every version-1 file has, and their JSON types
    "game": (str,), "created": (str,), "ended": (str, type(None)), "status": (str,), "players": (list,),
    "winners": (list, type(None)), "seed": (str,), "settings": (dict,), "initial": (dict,),
    "final": (str, type(None)), "inputs": (list,), "secrets": (bool,),
}
_INPUT_FIELDS: dict[str, tuple[type, ...]] = {
    "seq": (int,), "turn": (int,), "phase": (str,), "kind": (str,), "data": (dict,), "state": (str,), "at": (str,),
}


class GameFileError(JournalError):
    """A game file cannot be exported or imported; the message says why (one line)."""


@dataclass(frozen=True)
class CheckedGame:
    """A game file that passed every check: what the journal records of it."""

    game: str
    created: str
    ended: str | None
    status: str
    players: list[str]
    winners: list[str] | None
    seed: int
    settings: dict[str, Any]
    initial: dict[str, Any]          # the engine's own data of the initial state
    final: str | None
    inputs: list[InputRecord]
    secrets: bool
    analysis: int | None = None      # the points of the analysis it carried (checked, not kept)


def _program() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return f"bitbox-outspeed {version('bitbox-outspeed')}"
    except PackageNotFoundError:
        return "bitbox-outspeed"


# ------------------------------------------------------------------------------------ export

def export_game(journal: Journal, game_id: int, *, include_secrets: bool = False,
                analysis: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Game ``game_id`` of ``journal`` as a game file's document. The game is verified first
    (a tampered game is not exported); an unfinished one is refused unless ``include_secrets``.
    ``analysis``: an ``analysis.json`` of this game (:mod:`bitbox.analysis`) to carry along,
    checked to be one (:func:`check_analysis`) and of this game (its game, id and players)."""
    journal.own_game(game_id, "export {id} FILE")
    info = verify(journal, game_id)
    if analysis is not None:
        try:
            check_analysis(analysis, info.game, list(info.players))
        except ValueError as exc:
            raise GameFileError(f"the analysis given is refused: {exc}") from None
        if analysis.get("id") != game_id:
            raise GameFileError(f"the analysis given is of game {printable(analysis.get('id'), 20)}, not of game "
                                f"{game_id}")
    if info.status != "finished" and not include_secrets:
        seed = "" if info.seed_public else "its secret seed, "     # a seed given with --seed is public already
        raise GameFileError(
            f"game {game_id} is not finished: its file would give away what no player may know yet ({seed}the game "
            f"as dealt with everything hidden in it, hence what is still to come, and choices not yet revealed); "
            f"export it once it has ended, or add --include-secrets for a file only people who may see everything "
            f"will read")
    initial = journal.initial(game_id)
    return {
        "format": FORMAT,
        "version": VERSION,
        "program": _program(),
        "exported": _dt.datetime.now().astimezone().isoformat(timespec="seconds"),
        "id": info.id,
        "game": info.game,
        "created": info.created,
        "ended": info.ended,
        "status": info.status,
        "players": list(info.players),
        "winners": list(info.winners) if info.winners is not None else None,
        "seed": str(info.seed),
        "secrets": info.status != "finished",
        "settings": {**info.settings, "game": info.game},
        "final": info.final,
        "initial": dict(initial.to_data()),
        "inputs": [{"seq": r.seq, "turn": r.turn, "phase": r.phase, "kind": r.kind, "data": r.data,
                    "state": r.state, "at": r.at} for r in journal.inputs(game_id)],
        **({"analysis": dict(analysis)} if analysis is not None else {}),
    }


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and -1e-9 <= value <= 1 + 1e-9


def check_analysis(analysis: Any, game: str, players: list[str]) -> int:
    """Check an analysis carried in a game file (``analysis.json``, :mod:`bitbox.analysis`):
    :class:`ValueError` naming what is wrong, else the number of its points. It must be of
    ``game`` with these ``players``, its ``turns`` a list of points giving each player a
    chance and a 95 % interval between 0 and 1."""
    if not isinstance(analysis, dict):
        raise ValueError("its analysis is not a JSON object")
    if analysis.get("game") != game:
        raise ValueError(f"its analysis is of another game ({printable(analysis.get('game'), 40)!r})")
    if analysis.get("players") != players:
        raise ValueError("its analysis names other players than the game's")
    turns = analysis.get("turns")
    if not isinstance(turns, list) or len(turns) > MAX_INPUTS:
        raise ValueError("its analysis has no list of turns")
    for k, point in enumerate(turns):
        if not isinstance(point, dict) or not isinstance(point.get("turn"), int) or \
                not isinstance(point.get("players"), dict) or sorted(point["players"]) != sorted(players):
            raise ValueError(f"point {k} of its analysis is not a turn with every player's chance")
        for p, rate in point["players"].items():
            ci = rate.get("ci95") if isinstance(rate, dict) else None
            if not (isinstance(rate, dict) and _number(rate.get("chance")) and isinstance(ci, list) and len(ci) == 2
                    and all(_number(x) for x in ci) and ci[0] - 1e-9 <= rate["chance"] <= ci[1] + 1e-9):
                raise ValueError(f"point {k} of its analysis gives {printable(p, 40)!r} no chance with its interval "
                                 "between 0 and 1")
    return len(turns)


def dumps(doc: Mapping[str, Any]) -> str:
    """The file's text: one field per line, the initial state on one line and one line per
    input (a diff shows which input changed), UTF-8 as it is."""
    def one(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    lines = [f"  {json.dumps(k)}: {one(v)}" for k, v in doc.items() if k != "inputs"]
    inputs = doc.get("inputs", [])
    body = ",\n".join(f"    {one(r)}" for r in inputs)
    lines.append('  "inputs": [' + (f"\n{body}\n  ]" if inputs else "]"))
    return "{\n" + ",\n".join(lines) + "\n}\n"


def write_file(text: str, target: str, *, private: bool) -> None:
    """Write ``text`` to a new file ``target`` (``-``: standard output). An existing file is
    never overwritten; a file holding secrets is created readable by its owner only. A write
    that fails (a full disk) leaves no partial file."""
    if target == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    path = Path(target)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags, 0o600 if private else 0o644)
    except FileExistsError:
        raise GameFileError(f"{path}: already exists; nothing was written (choose another name)") from None
    except OSError as exc:
        raise GameFileError(f"{path}: cannot be created: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
    except OSError as exc:
        try:
            os.unlink(path)
        except OSError:
            pass
        raise GameFileError(f"{path}: cannot be written: {exc.strerror or exc}; nothing was written") from None


# ------------------------------------------------------------------------------------ import

def read_file(source: str) -> tuple[dict[str, Any], str]:
    """The document of the game file ``source`` (``-``: standard input) and the name to give
    it in messages. Refused: not a regular file, more than :data:`MAX_BYTES`, not UTF-8, not
    JSON, not one JSON object."""
    name = "standard input" if source == "-" else str(source)
    try:
        if source == "-":
            raw = _read_at_most(sys.stdin.buffer)
        else:
            st = os.stat(source)
            if stat.S_ISDIR(st.st_mode):
                raise GameFileError(f"{name}: is a folder, not a game file")
            if not stat.S_ISREG(st.st_mode):
                raise GameFileError(f"{name}: is not a regular file (not a game file)")
            if st.st_size > MAX_BYTES:
                raise GameFileError(f"{name}: {st.st_size} bytes, more than any game file "
                                    f"(at most {MAX_BYTES // 2**20} MiB); nothing was imported")
            with open(source, "rb") as f:
                raw = _read_at_most(f)
    except FileNotFoundError:
        raise GameFileError(f"{name}: no such file") from None
    except OSError as exc:
        raise GameFileError(f"{name}: cannot be read: {exc.strerror or exc}") from None
    if len(raw) > MAX_BYTES:
        raise GameFileError(f"{name}: more than any game file (at most {MAX_BYTES // 2**20} MiB); nothing was imported")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise GameFileError(f"{name}: not a game file (not UTF-8 text: byte {exc.start}); nothing was imported") from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise GameFileError(f"{name}: not a game file (not JSON: {exc.msg} at line {exc.lineno}, column "
                            f"{exc.colno}); nothing was imported") from None
    except (RecursionError, ValueError) as exc:     # absurd nesting; an integer of thousands of digits
        what = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
        raise GameFileError(f"{name}: not a game file ({what}); nothing was imported") from None
    if not isinstance(doc, dict):
        raise GameFileError(f"{name}: not a game file (it is JSON, but not one object); nothing was imported")
    return doc, name


def _read_at_most(f: BinaryIO) -> bytes:
    return f.read(MAX_BYTES + 1)


def _timestamp(value: Any) -> bool:
    if not isinstance(value, str) or len(value) > 40:
        return False
    try:
        _dt.datetime.fromisoformat(value)
    except ValueError:
        return False
    return True


def _check_names(names: Mapping[str, Any], players: Sequence[str]) -> None:
    """The people's names of a file's settings: each a seat of the game and a name ``--names``
    takes (a journal's reader leaves a name that is not one unnamed: a file is refused)."""
    import argparse

    from .names import check_names
    for player, name in names.items():
        if player not in players:
            raise ValueError(f"its names name {printable(player, 20)!r}, not a player of the game")
        try:
            ok = isinstance(name, str) and len(check_names(name)) == 1     # spaces around: as the readers trim them
        except argparse.ArgumentTypeError as exc:
            raise ValueError(f"the name of {player} is not a name --names takes ({str(exc).replace('name 1 ', '')})") \
                from None
        if not ok:
            raise ValueError(f"the name of {player} is not a name --names takes")


def check_document(doc: Mapping[str, Any]) -> CheckedGame:
    """Check a game file's document and replay it: :class:`ValueError` naming what is wrong,
    or the game as the journal will record it. Nothing is written."""
    fmt = doc.get("format")
    if fmt != FORMAT:
        raise ValueError("it names no format: it is not an 8Bitbox game file" if fmt is None else
                         f"its format is {printable(fmt, 40)!r}, not {FORMAT!r}: it is not an 8Bitbox game file")
    version = doc.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ValueError(f"its version {printable(version, 20)!r} is not a version of the game file format")
    if version > VERSION:
        raise ValueError(f"it was written by a newer program (game file version {version}; this one reads "
                         f"version {VERSION}): update this program to import it")
    for key, types in _FIELDS.items():
        if key not in doc:
            raise ValueError(f"the field {key!r} is missing")
        if not isinstance(doc[key], types) or (isinstance(doc[key], bool) and bool not in types):
            raise ValueError(f"the field {key!r} has the wrong type")
    name = doc["game"]
    rules = _rules(name)
    settings = dict(doc["settings"])
    if settings.setdefault("game", name) != name:
        raise ValueError(f"its settings name another game ({printable(settings['game'], 40)!r})")
    players, status, winners = doc["players"], doc["status"], doc["winners"]
    check_record(players, settings, status, winners, rules)
    for p in players:
        if p != printable(p, 40) or not p.strip():
            raise ValueError(f"the player name {printable(p, 40)!r} is not a short line of printable text")
    _check_names(settings.get("names", {}), players)
    for key in ("created", "ended"):
        if doc[key] is not None and not _timestamp(doc[key]):
            raise ValueError(f"its {key!r} date {printable(doc[key], 40)!r} is not an ISO 8601 date and time")
    seed_text = doc["seed"]
    if not (0 < len(seed_text) <= 60 and seed_text.isascii() and seed_text.isdigit()):
        raise ValueError(f"its seed {printable(seed_text, 40)!r} is not a number in decimal digits")
    if doc["final"] is not None and not (0 < len(doc["final"]) <= 128 and doc["final"].isascii()):
        raise ValueError("its final fingerprint is not a fingerprint")
    raw_inputs = doc["inputs"]
    if len(raw_inputs) > MAX_INPUTS:
        raise ValueError(f"it has {len(raw_inputs)} inputs, more than any game (at most {MAX_INPUTS})")
    inputs = [_input(i, r) for i, r in enumerate(raw_inputs)]
    if doc["secrets"] != (status != "finished"):
        raise ValueError("its \"secrets\" field does not say whether the game is finished")
    analysed = check_analysis(doc["analysis"], name, list(players)) if "analysis" in doc else None

    # The data is anyone's: whatever an engine raises on it (a ValueError, an OverflowError from
    # a random generator's state...) is one line naming it, never a traceback.
    try:
        initial = dict(rules.from_data(doc["initial"]).to_data())   # the engine's own data, nothing else
        game = rules.from_data(initial)
    except Exception as exc:  # noqa: BLE001
        raise ValueError(f"its initial state cannot be read ({type(exc).__name__}: {printable(exc, 120)})") from None
    try:
        final = _replay(rules, game, players, inputs, GameInfo(
            0, doc["created"], int(seed_text), list(players), settings, status, winners, doc["ended"], len(inputs),
            max((r.turn for r in inputs), default=1), doc["final"]))
    except _Refused:
        raise
    except Exception as exc:  # noqa: BLE001 -- a state its engine accepted but cannot play: still one line
        raise ValueError(f"it cannot be replayed ({type(exc).__name__}: {printable(exc, 120)})") from None
    # What the journal's readers would refuse once it is written is refused now, by the same reader.
    check_storable(rules, created=doc["created"], seed=int(seed_text), players=list(players), settings=settings,
                   initial=initial, status=status, winners=winners, ended=doc["ended"], final=final, inputs=inputs)
    return CheckedGame(name, doc["created"], doc["ended"], status, list(players), winners, int(seed_text), settings,
                       initial, final, inputs, doc["secrets"], analysed)


class _Refused(ValueError):
    """What replaying a game file found wrong (said as it is)."""


def _replay(rules: JournalRules, game: Any, players: list[str], inputs: list[InputRecord], info: GameInfo) -> str | None:
    """Replay ``inputs`` on ``game`` (the initial state) checking each input's fingerprint and
    turn, then the result as :func:`bitbox.table.journal.verify` does: the final fingerprint
    of a finished game (None for an unfinished one), or :class:`_Refused`."""
    if list(rules.players(game)) != list(players):
        raise _Refused("its players are not those of its initial state")
    turn_of = getattr(rules, "turn", None)
    by_input = turns_by_input(rules, game)          # a game without turns of its own: the n-th input is turn n
    for applied, rec in enumerate(inputs):
        where = f"input {rec.seq} ({printable(rec.kind, 20)}, turn {rec.turn})"
        if rules.finished(game):
            raise _Refused(f"{where} comes after the end of the game")
        if rules.state_hash(game) != rec.state:
            raise _Refused(f"{where}: the state differs from the one recorded (the file was edited, or the game "
                           f"was played with other rules)")
        at = applied + 1 if by_input else turn_of(game) if turn_of is not None else rec.turn
        if at != rec.turn:
            raise _Refused(f"{where}: the game is at turn {at}, not {rec.turn}")
        try:
            rules.apply_input(game, rec.kind, rec.data)
        except Exception as exc:  # noqa: BLE001
            raise _Refused(f"{where} cannot be applied: {printable(exc, 120)}") from None
    problem = result_mismatch(info, game, rules)
    if problem is not None:
        raise _Refused(problem)
    if info.status != "finished" and rules.finished(game):
        raise _Refused("it is marked unfinished but its inputs finish it")
    return rules.state_hash(game) if info.status == "finished" else None


def _rules(name: Any) -> JournalRules:
    if not isinstance(name, str):
        raise ValueError("its game is not a name")
    try:
        return find_journal_rules(name)
    except JournalError as exc:
        raise ValueError(str(exc).replace("the journal names", "it names").replace("the journal holds", "it holds")) \
            from None


def _input(index: int, r: Any) -> InputRecord:
    if not isinstance(r, dict):
        raise ValueError(f"input {index} is not an object")
    for key, types in _INPUT_FIELDS.items():
        value = r.get(key)
        if key == "at" and value is None:
            continue
        if not isinstance(value, types) or isinstance(value, bool):
            raise ValueError(f"input {index}: the field {key!r} is missing or has the wrong type")
    if r["seq"] != index:
        raise ValueError(f"input {index} is numbered {r['seq']}: an input is missing, repeated or out of order")
    if not 0 <= r["turn"] < 1_000_000:
        raise ValueError(f"input {index}: its turn {r['turn']} is not a turn")
    for key in ("phase", "kind", "state"):
        if not (0 < len(r[key]) <= 128) or r[key] != printable(r[key], 128):
            raise ValueError(f"input {index}: its {key} is not a short line of printable text")
    at = r.get("at")
    if at is not None and not _timestamp(at):
        raise ValueError(f"input {index}: its date {printable(at, 40)!r} is not an ISO 8601 date and time")
    return InputRecord(r["seq"], r["turn"], r["phase"], r["kind"], r["data"], r["state"], at or "")


def import_game(journal: Journal, game: CheckedGame) -> tuple[int, bool]:
    """Add a checked game to ``journal``: (its id there, whether it was added). A game the
    journal already holds (the same initial state, seed included, every input the same and
    the same final fingerprint: :meth:`Journal.same_game`) is not added again."""
    same = journal.same_game(game.initial, game.inputs, game.final)
    if same is not None:
        return same, False
    game_id = journal.add_game(created=game.created, seed=game.seed, players=game.players, settings=game.settings,
                               initial=game.initial, status=game.status, winners=game.winners, ended=game.ended,
                               final=game.final, inputs=game.inputs)
    return game_id, True


# ------------------------------------------------------------------------------------ the commands

EXPORT_HELP = "write one game of the journal to a portable file (to share it, or for a bug report)"
IMPORT_HELP = "add a game file (from `export`) to the journal, checked by replaying it"


def game_id_arg(text: str) -> int:
    """A game id on the command line: a whole number from 1, in ASCII digits only (``int``
    alone would take ``١``, ``+3``, ``1_0`` or spaces around it)."""
    if not (0 < len(text) <= 40 and text.isascii() and text.isdigit()):
        raise argparse.ArgumentTypeError(f"a game id is a whole number in digits 0-9, not {printable(text, 20)!r}")
    value = int(text)
    if not 1 <= value < 2**63:
        raise argparse.ArgumentTypeError(f"a game id is from 1 to {2**63 - 1}, not {text[:20]}")
    return value


def add_export_arguments(p: argparse.ArgumentParser, command: str) -> None:
    """The arguments of ``COMMAND export`` (the same for every game)."""
    p.description = ("Write game ID of the journal to FILE: JSON text with the game, its players, options, seed "
                     "and every input (- for standard output). An unfinished game is refused unless "
                     "--include-secrets. See docs/table.md, \"A game in one file\".")
    p.add_argument("game", type=game_id_arg, metavar="ID", help=f"the game's id (see `{command} history`)")
    p.add_argument("file", metavar="FILE", help="the file to write (never overwritten); - for standard output")
    p.add_argument("--include-secrets", action="store_true",
                   help="export an unfinished game too: its file then holds what no player may know yet "
                        "(the game as dealt with everything hidden in it, a secret seed, choices not yet "
                        "revealed); keep it private")
    p.add_argument("--analysis", metavar="PATH",
                   help=f"carry the game's analysis in the file: the analysis.json `{command} analyse ID` wrote "
                        "(or its folder)")
    p.add_argument("--journal", metavar="PATH", type=journal_arg)


def add_import_arguments(p: argparse.ArgumentParser) -> None:
    """The arguments of ``COMMAND import`` (the same for every game)."""
    p.description = ("Read a game file written by `export` (- for standard input), replay it to check it (an "
                     "edited or damaged file is refused with one line, and nothing is written) and add it to the "
                     "journal, where history and replay show it.")
    p.add_argument("file", metavar="FILE", help="the game file; - for standard input")
    p.add_argument("--journal", metavar="PATH", type=journal_arg)


Command = Callable[[argparse.Namespace], int]


def add_journal_commands(sub: Any, command: str, history: Command, export: Command, import_: Command) -> None:
    """``COMMAND history``, ``COMMAND export``, ``COMMAND import`` and ``COMMAND analyse``
    (:mod:`bitbox.analysis`; ``COMMAND`` is the cartridge's name), the same for every game, on
    the subcommands ``sub`` of the game's parser; each runs its function (``func``)."""
    from bitbox.console import add_logging_options
    p = sub.add_parser("history", help="list the games in the journal (date, players, winner)")
    p.add_argument("--journal", metavar="PATH", type=journal_arg)
    p.add_argument("--json", action="store_true", help="the same listing as one JSON document (docs/table.md)")
    add_logging_options(p)
    p.set_defaults(func=history)
    p = sub.add_parser("export", help=EXPORT_HELP)
    add_export_arguments(p, command)
    add_logging_options(p)
    p.set_defaults(func=export)
    p = sub.add_parser("import", help=IMPORT_HELP)
    add_import_arguments(p)
    add_logging_options(p)
    p.set_defaults(func=import_)
    from bitbox.analysis import add_analyse_command
    add_analyse_command(sub, command)

def read_analysis(source: str) -> dict[str, Any]:
    """``export --analysis PATH``: the analysis.json at PATH (or in the folder PATH), as JSON
    (:class:`GameFileError`, one line, when it cannot be read)."""
    path = Path(source)
    try:
        if path.is_dir():
            path = path / "analysis.json"
        st = path.stat()
        if not stat.S_ISREG(st.st_mode):        # a pipe or a device would be read for ever
            raise GameFileError(f"--analysis {printable(str(path), 80)}: is not a regular file (not an analysis.json)")
        if st.st_size > MAX_BYTES:
            raise GameFileError(f"{printable(str(path), 80)}: too large for an analysis")
        doc = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise GameFileError(f"--analysis {printable(str(path), 80)}: {exc.strerror or exc}") from None
    except (UnicodeDecodeError, ValueError) as exc:
        raise GameFileError(f"--analysis {printable(str(path), 80)}: not JSON text ({printable(exc, 80)})") from None
    if not isinstance(doc, dict):
        raise GameFileError(f"--analysis {printable(str(path), 80)}: not an analysis.json")
    return doc


def export_command(prog: str, journal_path: Path, game_id: int, target: str, *, include_secrets: bool,
                   command: str, rules: JournalRules | None = None, analysis: str | None = None) -> int:
    """``PROG export ID FILE``: 0 written (a line on stderr says where), 2 refused (one line).
    ``rules``: the command's game (default: the game called ``command``); ``analysis``: the
    path of an analysis.json of the game to carry in the file (``--analysis``)."""
    if not journal_path.exists() and not journal_path.is_symlink():
        print(f"{prog}: {journal_path}: no journal here (no game has been played with it)", file=sys.stderr)
        return 2
    try:
        carried = read_analysis(analysis) if analysis is not None else None
        # opened with the command's game: another game's record is refused naming its command
        rules = rules if rules is not None else find_journal_rules(command)
        with Journal(journal_path, rules, create=False, command=command) as j:
            for note in j.notices:
                _log.warning("%s", note)
            doc = export_game(j, game_id, include_secrets=include_secrets, analysis=carried)
        write_file(dumps(doc), target, private=doc["secrets"])
    except JournalError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 2
    where = "standard output" if target == "-" else target
    note = " (with its secrets: keep it private)" if doc["secrets"] else ""
    if carried is not None:
        note += f" with its analysis ({len(carried['turns'])} points)"
    _log.info("%s", f"game {game_id} ({doc['game']}, {len(doc['inputs'])} inputs) exported to {where}{note}")
    return 0


def import_command(prog: str, journal_path: Path, source: str, *, command: str, game: str | None = None) -> int:
    """``PROG import FILE``: the file verified by replaying it, then added to the journal
    (``game``: the game whose command imports, named if the journal file is refused)."""
    try:
        doc, name = read_file(source)
        try:
            checked = check_document(doc)
        except (ValueError, TypeError) as exc:
            raise GameFileError(f"{name}: refused, {exc}; nothing was imported") from None
        with Journal(journal_path, command=command, game=game) as j:
            for note in j.notices:
                _log.warning("%s", note)
            game_id, added = import_game(j, checked)
    except JournalError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 2
    if added:
        print(f"{name}: imported as game {game_id} of {journal_path} ({checked.status}, {len(checked.inputs)} inputs); "
              f"`{command_of(checked.game)} replay {game_id}{journal_option(journal_path)}` shows it")
    else:
        print(f"{name}: already in {journal_path} as game {game_id}; nothing was imported")
    if checked.analysis is not None:
        _log.info("%s", f"{name}: its analysis ({checked.analysis} points) was checked but the journal keeps no "
                        f"analyses: `bitbox analyse {checked.game} {game_id}` makes it again")
    return 0
