"""The scenario runner every game's ``scenario`` command is: the console's, with the game's
file format behind one hook.

A scenario is a file (YAML) describing a position, some inputs and what must come out. What
a game gives is its **format** (:class:`ScenarioFormat`, a cartridge's ``scenarios``): how
its fields read, the game they set up, how its turns are played and how each expected key
is compared. Everything else is here, the same for every game:

* :func:`run_scenarios`: every file run in turn (:func:`run_files`), **one JSON line per
  file** on stdout (``{"file", "ok", "state", "refused", "mismatches"}``; or ``{"file", "ok":
  false, "error"}`` for an invalid file, whose message also goes to stderr), and the exit
  status: **0** every file met its expectations, **1** some file did not, **2** some file
  could not be read or is not a valid scenario (never a traceback);
* :class:`ScenarioError`: a file that is not a valid scenario, naming the ``field`` at fault
  (``turns[2].program.red``) and, once known, the file;
* field readers (:func:`whole_number`, :func:`mapping`, :func:`listing`, :func:`name`,
  :func:`unknown_fields`, :func:`players`, :func:`players_map`) that raise it with the same
  wording for every game (``show`` chooses how a wrong value is quoted);
* comparisons of an expected key with the outcome (:func:`exact`, :func:`as_set`,
  :func:`each`, :func:`refusals`), which a format names per key in its ``checks``.
"""
from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TextIO

from .protocol import JSON

#: Bounds on every number a scenario gives, so that a wrong file cannot hang a runner.
SANE = 10**9

#: How a field reader quotes a wrong value (None: the reader's plain wording, see each).
Show = Callable[[object], str] | None


class ScenarioError(ValueError):
    """Not a valid scenario; ``field`` names the offending field, ``file`` the file (if known)."""

    def __init__(self, field: str, message: str, file: str | None = None) -> None:
        self.field, self.message, self.file = field, message, file
        text = f"field {field}: {message}" if field else message
        super().__init__(f"{file}: {text}" if file else text)


# ---------------------------------------------------------------------------- field readers
def shown(value: object) -> str:
    """``value``'s repr, cut to 60 characters (and safe on a value nested too deeply)."""
    try:
        text = repr(value)
    except RecursionError:
        text = "<too deep>"
    return text if len(text) <= 60 else text[:57] + "..."


def whole_number(value: object, where: str, low: int | None = None, high: int | None = None, *,
                 show: Show = None) -> int:
    """``value`` as a whole number between ``low`` and ``high`` (±:data:`SANE` by default)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise ScenarioError(where, f"expected a whole number, got {show(value) if show else repr(str(value)[:60])}")
    low = -SANE if low is None else low
    high = SANE if high is None else high
    if value < low or value > high:
        raise ScenarioError(where, f"{show(value) if show else str(value)[:60]} is out of range (from {low} to {high})")
    return value


def mapping(value: object, where: str, *, show: Show = None) -> Mapping[Any, Any]:
    """``value`` as a mapping (absent: empty); its keys and values are checked where read."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ScenarioError(where, f"expected a mapping, got {(show or repr)(value)}")
    return value


def listing(value: object, where: str, *, show: Show = None, most: int | None = None) -> list[Any]:
    """``value`` as a list (absent: empty) of at most ``most`` entries."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise ScenarioError(where, f"expected a list, got {(show or repr)(value)}")
    if most is not None and len(value) > most:
        raise ScenarioError(where, f"too long ({len(value)} entries)")
    return value


def name(value: object, where: str, known: Sequence[str], what: str, *, show: Show = None) -> str:
    """``value`` as one of the names ``known`` (``what`` says what they are)."""
    if not isinstance(value, str) or value not in known:
        raise ScenarioError(where, f"unknown {what} {(show or repr)(value)} (known: {', '.join(known)})")
    return value


def unknown_fields(data: Mapping[Any, Any], known: Sequence[str], where: str = "") -> None:
    """Refuse the first key of ``data`` (in sorted order) that is not ``known``."""
    extra = sorted(str(k) for k in data if k not in known)
    if extra:
        prefix = f"{where}." if where else ""
        raise ScenarioError(prefix + extra[0], f"unknown field (known: {', '.join(known)})")


def players(value: object, title: str, low: int, high: int, *, show: Show = None) -> tuple[str, ...]:
    """The field ``players``: ``low`` to ``high`` distinct colour names (``title``: the game's)."""
    listed = listing(value, "players", show=show)
    if not low <= len(listed) <= high:
        raise ScenarioError("players", f"{title} is for {low} to {high} players, got {len(listed)}")
    for i, p in enumerate(listed):
        if not isinstance(p, str) or not p:
            raise ScenarioError(f"players[{i}]", f"a player is a colour name, got {(show or repr)(p)}")
    if len(set(listed)) != len(listed):
        raise ScenarioError("players", "players must be distinct")
    return tuple(listed)


def players_map(value: object, where: str, players: Sequence[str], *, show: Show = None) -> Mapping[str, Any]:
    """A mapping keyed by players (absent: empty); a key that is not a player is refused."""
    m = mapping(value, where, show=show)
    for p in m:
        if p not in players:
            raise ScenarioError(f"{where}.{p}", f"unknown player (players: {', '.join(players)})")
    return m


# ---------------------------------------------------------------------------- comparing
#: Compares one expected key: ``(key, wanted, actual) -> mismatches`` (one line each).
Check = Callable[[str, Any, Any], list[str]]


def exact(key: str, want: Any, have: Any) -> list[str]:
    """The value as given."""
    return [] if want == have else [f"{key}: expected {want!r}, got {have!r}"]


def as_set(key: str, want: Any, have: Any) -> list[str]:
    """The entries in any order (``eliminated``, ``winner``)."""
    if sorted(want or []) == sorted(have):
        return []
    return [f"{key}: expected {sorted(want or [])}, got {sorted(have)}"]


def each(absent: object = None) -> Check:
    """Each entry given of a mapping (per player, per die type...); ``absent`` stands for an
    entry the outcome does not have."""
    def check(key: str, want: Any, have: Any) -> list[str]:
        out = []
        for k, v in (want or {}).items():
            got = have.get(k, absent)
            if got != v:
                out.append(f"{key}.{k}: expected {v!r}, got {got!r}")
        return out
    return check


def refusals(key: str, want: Any, have: Any) -> list[str]:
    """``refused``: each player's refusal code given (``{}``: no refusal at all)."""
    out = each("none")(key, want, have)
    if not want and have:
        out.append(f"{key}: expected none, got {have!r}")
    return out


def compare(expect: Mapping[str, Any], outcome: Outcome, checks: Mapping[str, Check]) -> list[str]:
    """Every expected key against the outcome: ``refused`` against its refusals
    (:func:`refusals`), the others against its state, each by its check in ``checks`` (a key
    without one: :func:`exact`)."""
    actual = dict(outcome.state, refused=dict(outcome.refused))
    checks = {"refused": refusals, **checks}
    out: list[str] = []
    for key, want in expect.items():
        out += checks.get(key, exact)(key, want, actual[key])
    return out


# ---------------------------------------------------------------------------- the hook
@dataclass
class Scenario:
    """A scenario read: its ``name``, the ``game`` at its start (the engine's), its ``turns``
    (the format's own) and what it ``expect``s (key -> value, checked when read)."""
    name: str
    game: Any
    turns: list[Any]
    expect: dict[str, Any]


@dataclass
class Outcome:
    """What playing a scenario gave: the ``state`` summary (the JSON line's ``"state"``), the
    refusals (player -> code) of a refused turn, and ``problems`` found on the way (each a
    mismatch line, such as an input the engine's draws did not allow)."""
    state: dict[str, Any]
    refused: dict[str, str]
    problems: list[str] = field(default_factory=list)


class ScenarioFormat(Protocol):
    """A game's scenario file format: what a cartridge gives as ``scenarios`` (its
    ``scenario`` command is then :func:`run_scenarios`)."""

    @property
    def doc(self) -> str:
        """Where the format is documented (the command's help names it)."""
        ...

    @property
    def invalid(self) -> tuple[type[Exception], ...]:
        """Errors besides :class:`ScenarioError` that mean a file (or the game's contents) is
        not valid, such as the game's config error; their message names the file."""
        ...

    @property
    def checks(self) -> Mapping[str, Check]:
        """How each expected key is compared (a key not named: :func:`exact`; ``refused``:
        :func:`refusals`)."""
        ...

    def load(self) -> Any:
        """What every file needs, loaded once before the first (the game's contents)."""
        ...

    def read(self, path: str) -> Any:
        """The file's data (its YAML), or one of :attr:`invalid`."""
        ...

    def parse(self, data: Any, contents: Any) -> Scenario:
        """The scenario the data describes, every field checked (:class:`ScenarioError`)."""
        ...

    def play(self, scenario: Scenario) -> Outcome:
        """Play the turns; a turn the engine cannot play at all is a :class:`ScenarioError`."""
        ...


@dataclass(frozen=True)
class Format:
    """A :class:`ScenarioFormat` made of the game's functions (what Outspeed and Last One
    Alive give): ``Format(doc, invalid, checks, load=..., read=..., parse=..., play=...)``."""
    doc: str
    invalid: tuple[type[Exception], ...]
    checks: Mapping[str, Check]
    load: Callable[[], Any]
    read: Callable[[str], Any]
    parse: Callable[[Any, Any], Scenario]
    play: Callable[[Scenario], Outcome]


def run_file(fmt: ScenarioFormat, path: str | Path, contents: Any = None) -> dict[str, Any]:
    """One file's JSON result; raises :class:`ScenarioError` (naming the file) or one of
    ``fmt.invalid`` when it is not a valid scenario."""
    data = fmt.read(str(path))
    try:
        scenario = fmt.parse(data, contents)
        outcome = fmt.play(scenario)
    except ScenarioError as exc:
        raise ScenarioError(exc.field, exc.message, str(path)) from None
    except RecursionError:
        raise ScenarioError("", "nested too deeply", str(path)) from None
    mismatches = outcome.problems + compare(scenario.expect, outcome, fmt.checks)
    return {"file": str(path), "ok": not mismatches, "state": outcome.state, "refused": outcome.refused,
            "mismatches": mismatches}


def run_scenarios(fmt: ScenarioFormat, files: Sequence[str], *, prog: str,
                  out: TextIO | None = None, err: TextIO | None = None) -> int:
    """The ``scenario`` command of a game whose format is ``fmt``: its contents loaded once
    (an invalid one: one line on stderr, exit 2), then :func:`run_files`."""
    try:
        contents = fmt.load()
    except fmt.invalid as exc:
        print(f"{prog}: {exc}", file=err or sys.stderr)
        return 2
    return run_files(files, lambda f: run_file(fmt, f, contents), prog=prog,
                     invalid=(ScenarioError, *fmt.invalid), out=out, err=err)


def run_files(files: Sequence[str], run_file: Callable[[str], Mapping[str, JSON]], *, prog: str,
              invalid: tuple[type[Exception], ...] = (ScenarioError,),
              out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run each file with ``run_file`` (which returns the file's JSON result with ``"ok"``, or
    raises one of ``invalid`` for a file it cannot run) and print one JSON line per file; any
    other error is an invalid file too ("internal error", never a traceback). Returns the
    exit status (see the module docstring); ``prog`` prefixes the stderr lines."""
    out = out or sys.stdout
    err = err or sys.stderr
    status = 0
    for f in files:
        try:
            result = run_file(f)
        except Exception as exc:                                          # noqa: BLE001 - never a traceback
            msg = str(exc) if isinstance(exc, invalid) else \
                f"internal error while running the scenario: {type(exc).__name__}: {str(exc)[:200]}"
            if not msg.startswith(str(f)):
                msg = f"{f}: {msg}"
            print(json.dumps({"file": str(f), "ok": False, "error": msg}, ensure_ascii=False), file=out)
            print(f"{prog}: {msg}", file=err)
            status = 2
            continue
        print(json.dumps(result, ensure_ascii=False), file=out)
        if not result.get("ok") and status == 0:
            status = 1
    return status


__all__ = ["SANE", "Check", "Format", "Outcome", "Scenario", "ScenarioError", "ScenarioFormat", "as_set", "compare", "each",
           "exact", "listing", "mapping", "name", "players", "players_map", "refusals", "run_file", "run_files",
           "run_scenarios", "shown", "unknown_fields", "whole_number"]
