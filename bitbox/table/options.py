"""The table's command-line options shared by every game (``--size``, ``--speed``): one check
each, as plain functions and as argparse types. Light on purpose: a command's parser imports
it without pygame."""
from __future__ import annotations

import argparse
import math
import os
from pathlib import Path

from .seating import TableError

#: The smallest window the table draws in (a smaller one is enlarged to it): below it the
#: type of a 3 m table cannot be read. 16:9, like the 1920×1080 reference grid.
MIN_WINDOW = (1024, 576)


#: The smallest frame at all (headless snapshots, e.g. thumbnails for tests).
MIN_FRAME = (320, 180)
#: The largest frame or window (8K UHD): a bound, so a typo cannot ask for gigabytes.
MAX_FRAME = (7680, 4320)


def check_size(text: str, what: str = "--size") -> tuple[int, int]:
    """``WIDTHxHEIGHT`` as a frame size (:data:`MIN_FRAME` to :data:`MAX_FRAME`), or a
    :class:`TableError` in one line. A window smaller than :data:`MIN_WINDOW` is enlarged
    to it when it opens; headless frames may be smaller."""
    try:
        w, h = (int(n) for n in str(text).lower().split("x"))
    except ValueError:
        raise TableError(f"{what} expects WIDTHxHEIGHT (e.g. 1920x1080), not {text!r}") from None
    if not (MIN_FRAME[0] <= w <= MAX_FRAME[0] and MIN_FRAME[1] <= h <= MAX_FRAME[1]):
        raise TableError(f"{what} {w}x{h}: expected a size from {MIN_FRAME[0]}x{MIN_FRAME[1]} to "
                         f"{MAX_FRAME[0]}x{MAX_FRAME[1]} "
                         f"(a window is at least {MIN_WINDOW[0]}x{MIN_WINDOW[1]})")
    return w, h


def check_speed(value: float, what: str = "--speed") -> float:
    """A show speed: a finite number ≥ 0 (0: no pauses), else a :class:`TableError`."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        raise TableError(f"{what} expects a number ≥ 0 (1 = table speed, 2 = twice as fast, 0 = no pauses), "
                         f"not {value!r}")
    return float(value)


def size_arg(text: str) -> tuple[int, int]:
    """:func:`check_size` as an argparse type (every game's ``--size``): one usage line."""
    try:
        return check_size(text, what="")
    except TableError as exc:
        raise argparse.ArgumentTypeError(str(exc).strip()) from None


def speed_arg(text: str) -> float:
    """:func:`check_speed` as an argparse type (every game's ``--speed``): one usage line."""
    try:
        return check_speed(float(text), what="")
    except (TableError, ValueError):
        raise argparse.ArgumentTypeError(f"expected a number ≥ 0 (1 = table speed, 2 = twice as fast, "
                                         f"0 = no pauses), not {text!r}") from None


def game_folder(base: Path, name: str) -> Path:
    """A folder of its own under ``base`` for one game's (or one replay's) snapshots:
    ``base/NAME-YYYYMMDD-HHMMSS`` (UTC), made now; ``-2``, ``-3``... when that exists already
    (two games started within a second). Each headless game says where (one status line)."""
    import time
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    base = Path(base)
    for n in range(1, 1000):
        folder = base / (f"{name}-{stamp}" + ("" if n == 1 else f"-{n}"))
        try:
            folder.mkdir(parents=True)
            return folder
        except FileExistsError:
            continue
        except OSError as exc:
            raise TableError(f"--snapshots {base}: cannot make a folder there ({exc.strerror or exc})") from None
    raise TableError(f"--snapshots {base}: too many folders named {name}-{stamp}")


def user_path(text: "str | os.PathLike[str]") -> Path:
    """``text`` as a path with a leading ``~`` or ``~user`` made the home folder, as the shell
    does: ``~name`` of no user stays as written (``Path.expanduser`` raises RuntimeError for it,
    a traceback in every command that took such a path)."""
    return Path(os.path.expanduser(os.fspath(text)))


def check_snapshots(folder: "str | Path | None", what: str = "--snapshots") -> "Path | None":
    """The folder for PNG snapshots, made and tried before a game starts (a PNG that cannot be
    written at the end of turn 1 would stop the game): a file there, or a folder that cannot
    be written, is a :class:`TableError`. None stays None. Every game's table uses it."""
    if folder is None:
        return None
    path = user_path(folder)
    try:
        if path.exists() and not path.is_dir():
            raise TableError(f"{what} {path}: exists and is not a folder")
        path.mkdir(parents=True, exist_ok=True)
        import tempfile
        with tempfile.NamedTemporaryFile(dir=path, prefix=".write-test-"):
            pass
    except OSError as exc:
        raise TableError(f"{what} {short_path(str(path))}: cannot write there ({exc.strerror or exc})") from None
    return path


def journal_arg(text: str) -> str:
    """``--journal PATH``: a path, never empty (an empty one, from an unset variable in a
    script, would otherwise fall back to the user's own journal and write into it)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty path is not a journal file (leave --journal out for the "
                                         "default one)")
    if "\0" in text:
        raise argparse.ArgumentTypeError("a path cannot hold a NUL character")
    try:                               # a name too long, a loop of symbolic links: said here, in one line
        os.lstat(os.path.expanduser(text))
    except (FileNotFoundError, NotADirectoryError):
        pass                           # a new journal, or one the command reports itself
    except OSError as exc:
        raise argparse.ArgumentTypeError(f"{short_path(text)}: {exc.strerror or exc}") from None
    return text


def journal_exists(path: "str | Path") -> bool:
    """Whether there is a file at ``path`` (through symbolic links): :meth:`Path.exists`, except
    that a path the system refuses to look at (a name too long, from ``--journal``, the table
    config or ``XDG_DATA_HOME``; a folder it may not search) is a :class:`TableError` in one
    line instead of an ``OSError`` traceback. A loop of links is False (the journal says more)."""
    import errno
    try:
        os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return False
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return False
        raise TableError(f"{short_path(str(path))}: cannot be read: {exc.strerror or exc}") from None
    return True


def short_path(text: str, limit: int = 120) -> str:
    """A path as a message shows it: whole up to ``limit`` characters, else its start and end
    around the number of characters left out (a 5,000-character name stays one short line)."""
    if len(text) <= limit:
        return text
    keep = (limit - 20) // 2
    return f"{text[:keep]}…({len(text) - 2 * keep} characters)…{text[-keep:]}"
