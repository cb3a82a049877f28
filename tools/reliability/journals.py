"""``journals``: corrupt, foreign and tampered journal files through resume, history and replay."""
from __future__ import annotations

import os
import random
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .core import PY, Row, _check, _cwd, _env, _play_env, _run_main, _sql


def base_journals(workdir: Path) -> tuple[Path, Path]:
    """A finished game's journal and an unfinished copy (8 inputs), made by the real program."""
    workdir.mkdir(parents=True, exist_ok=True)
    done = workdir / "finished.sqlite"
    if not done.exists():
        r = subprocess.run([PY, "-m", "outspeed.cli", "play", "--headless", "--players", "3", "--seed", "5",
                            "--journal", str(done), "--snapshots", str(workdir / "s"), "--size", "320x180"],
                           cwd=workdir, env=_play_env(workdir), capture_output=True, text=True, timeout=120)
        _check(r.returncode == 0, f"could not make a journal: {r.stderr[-400:]}")
    half = workdir / "unfinished.sqlite"
    shutil.copy(done, half)
    _sql(half, "DELETE FROM inputs WHERE seq >= 8", "UPDATE games SET status = 'playing', winners = NULL, ended = NULL")
    return done, half


def _journal_cases(base: Path, rng: random.Random, corruptions: int) -> list[tuple[str, Callable[[Path], None]]]:
    data = base.read_bytes()

    def write(content: bytes) -> Callable[[Path], None]:
        def fn(p: Path) -> None:
            p.write_bytes(content)
        return fn

    def edit(*statements: str) -> Callable[[Path], None]:
        def make(p: Path) -> None:
            shutil.copy(base, p)
            _sql(p, *statements)
        return make

    def edit_finished(*statements: str) -> Callable[[Path], None]:
        """The same game, finished (``base_journals`` writes it beside the unfinished copy)."""
        def make(p: Path) -> None:
            shutil.copy(base.with_name("finished.sqlite"), p)
            _sql(p, *statements)
        return make

    def foreign(p: Path) -> None:
        _sql(p, "CREATE TABLE recipes (name TEXT, minutes INTEGER)", "INSERT INTO recipes VALUES ('soup', 20)")

    def directory(p: Path) -> None:
        p.mkdir()

    def hot_garbage(p: Path) -> None:
        shutil.copy(base, p)
        Path(str(p) + "-journal").write_bytes(rng.randbytes(4096))

    cases = [
        ("a text file", write(b"shopping list: eggs, flour\n" * 200)),
        ("an empty file", write(b"")),
        ("a PNG picture", write(b"\x89PNG\r\n\x1a\n" + rng.randbytes(3000))),
        ("SQLite header, then garbage", write(b"SQLite format 3\x00" + rng.randbytes(8192))),
        ("the journal cut in half", write(data[: len(data) // 2])),
        ("its first 100 bytes overwritten", write(rng.randbytes(100) + data[100:])),
        ("another program's SQLite database", foreign),
        ("a newer journal format", edit("PRAGMA user_version = 99")),
        ("its tables dropped", edit("DROP TABLE inputs")),
        ("an input that is not JSON", edit("UPDATE inputs SET data = '{not json' WHERE seq = 3")),
        ("an input of an unknown kind", edit("UPDATE inputs SET kind = 'teleport' WHERE seq = 4")),
        ("an input that does not fit the state", edit("UPDATE inputs SET data = '{\"choices\": {}}' "
                                                      "WHERE kind = 'program' AND seq = (SELECT MIN(seq) FROM inputs "
                                                      "WHERE kind = 'program')")),
        ("a tampered state fingerprint", edit("UPDATE inputs SET state = 'x' WHERE seq = 5")),
        ("settings that are not a mapping", edit("UPDATE games SET settings = '[1, 2]'")),
        ("seats that are not a list", edit("UPDATE games SET settings = '{\"seats\": 7}'")),
        ("players that are not a list", edit("UPDATE games SET players = '7'")),
        ("a damaged initial state", edit("UPDATE games SET initial = '{\"players\": 3}'")),
        ("a seed that is not a number", edit("UPDATE games SET seed = 'abc'")),
        # issue 13: a finished game's result edited (replayed and compared), and wrong values
        ("a finished game's winners edited", edit_finished(
            "UPDATE games SET winners = json_array(json_extract(players, '$[0]'), json_extract(players, '$[1]'), "
            "json_extract(players, '$[2]'))")),
        ("a finished game's final input deleted", edit_finished(
            "DELETE FROM inputs WHERE seq = (SELECT MAX(seq) FROM inputs)")),
        ("a finished game's final fingerprint edited", edit_finished("UPDATE games SET final = 'x'")),
        ("winners as numbers", edit("UPDATE games SET winners = '[1, 2]'")),
        ("an unknown language", edit("UPDATE games SET settings = json_set(settings, '$.lang', 'xx')")),
        ("an unknown bot", edit("UPDATE games SET settings = json_set(settings, '$.bot', 'skynet')")),
        ("a seat without its kind", edit("UPDATE games SET settings = json_remove(settings, '$.seats[0].kind')")),
        ("deeply nested lists", edit(f"UPDATE games SET settings = '{'[' * 100_000}{']' * 100_000}'")),
        ("a folder where the file should be", directory),
        ("a garbage rollback journal beside it", hot_garbage),
    ]
    page = 4096
    for k in range(corruptions):
        def corrupt(p: Path, k: int = k) -> None:
            b = bytearray(data)
            for _ in range(rng.randint(1, 24)):
                i = rng.randrange(100, len(b))
                b[i] = rng.randrange(256)
            if rng.random() < 0.3:                       # or a whole page of garbage
                start = rng.randrange(1, max(2, len(b) // page)) * page
                b[start:start + page] = rng.randbytes(page)
            p.write_bytes(bytes(b))
        cases.append((f"random corruption {k + 1}", corrupt))
    return cases


def campaign_journals(workdir: Path, corruptions: int, seed: int = 9) -> list[Row]:
    from outspeed.cli import main as outspeed_main
    finished, unfinished = base_journals(workdir / "base")
    rng = random.Random(seed)
    results: list[dict[str, Any]] = []
    for k, (what, make) in enumerate(_journal_cases(unfinished, rng, corruptions)):
        folder = workdir / f"case-{k:02d}"
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        case: dict[str, Any] = {"what": what, "runs": []}
        for cmd in (["play", "--headless", "--resume"], ["history"], ["replay", "--headless"]):
            path = folder / f"{cmd[0]}.sqlite"
            make(path)
            args = cmd + ["--journal", str(path), "-q"]             # -q: errors only on stderr
            if cmd[0] == "play":
                args += ["--snapshots", str(folder / "s"), "--size", "320x180", "--max-seconds", "60"]
            with _cwd(folder), _env(SDL_VIDEODRIVER="dummy", XDG_DATA_HOME=str(folder / "data")):
                code, out, err = _run_main(outspeed_main, args)
            lines = err.strip().splitlines()
            clear = code == 0 or (code == 2 and len(lines) == 1 and str(path) in lines[0])
            case["runs"].append({"command": "outspeed " + " ".join(cmd), "exit": code,
                                    "message": lines[-1] if lines else "", "ok": clear and code is not None,
                                    "stderr": err[-800:] if not clear else ""})
        results.append(case)
    bad = [(o["what"], r) for o in results for r in o["runs"] if not r["ok"]]
    fixed = [o for o in results if not o["what"].startswith("random")]
    refused = sum(1 for o in fixed for r in o["runs"] if r["exit"] == 2)
    example = next(r["message"] for o in results for r in o["runs"] if r["exit"] == 2)
    outcome = (f"{sum(len(o['runs']) for o in results) - len(bad)}/{sum(len(o['runs']) for o in results)} runs: "
               f"a clear one-line message naming the file and exit 2 (or, where the damage missed what the "
               f"command reads, exit 0), never a traceback; e.g. \"{example[:150]}\"") if not bad else \
        "; ".join(f"{w} / {r['command']}: exit {r['exit']}: {r['stderr'][-300:]}" for w, r in bad[:3])
    return [Row("Corrupt or foreign journal file",
                f"{len(fixed)} kinds of damage ({', '.join(o['what'] for o in fixed[:6])}, ...) and {corruptions} "
                f"random byte/page corruptions of a real journal; each through `outspeed play --resume`, "
                f"`outspeed history`, `outspeed replay`",
                f"{len(results)} files, {sum(len(o['runs']) for o in results)} runs", outcome, not bad,
                {"cases": results, "refused_fixed": refused}),
            files_not_ours(workdir, finished), snapshots_checked_first(workdir)]


def _digest(path: Path) -> tuple[str, int]:
    import hashlib
    import stat
    real = Path(os.path.realpath(path))
    return hashlib.sha256(real.read_bytes()).hexdigest(), stat.S_IMODE(real.stat().st_mode)


def _outspeed(args: list[str], folder: Path) -> subprocess.CompletedProcess:
    return subprocess.run([PY, "-m", "outspeed.cli", *args], cwd=folder, env=_play_env(folder), capture_output=True,
                          text=True, timeout=120)


def files_not_ours(workdir: Path, finished: Path) -> Row:
    """Issue 13, item 11: `history` and `replay` on files that are not our journal (a text file,
    a symlink to it, another program's database, an empty file) change nothing; our journal
    readable by others is made 0600 with a notice; one owned by another user is refused untouched."""
    folder = workdir / "not-ours"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    notes = folder / "notes.txt"
    notes.write_text("shopping list\n" * 50)
    link = folder / "link.sqlite"
    link.symlink_to(notes)
    other = folder / "other.sqlite"
    _sql(other, "CREATE TABLE recipes (name TEXT)")
    empty = folder / "empty.sqlite"
    empty.touch()
    for p in (notes, other, empty):
        os.chmod(p, 0o644)
    problems, runs = [], 0
    said = ""
    for target in (notes, link, other, empty):
        before = _digest(target)
        for cmd in (["history"], ["replay", "--headless"]):
            r = _outspeed(cmd + ["--journal", str(target)], folder)
            runs += 1
            lines = r.stderr.strip().splitlines()
            if not (r.returncode == 2 and len(lines) == 1 and str(target) in lines[0]):
                problems.append(f"{target.name} / {cmd[0]}: exit {r.returncode}: {r.stderr[-200:]}")
            said = said or (lines[0] if lines else "")
            if _digest(target) != before:
                problems.append(f"{target.name} / {cmd[0]}: the file was changed")
    if not link.is_symlink():
        problems.append("the symlink was replaced")
    ours = folder / "ours.sqlite"
    shutil.copy(finished, ours)
    os.chmod(ours, 0o644)
    r = _outspeed(["history", "--journal", str(ours)], folder)
    runs += 1
    notice = [line for line in r.stderr.splitlines() if "readable by other users" in line]     # a status line
    if r.returncode != 0 or len(notice) != 1 or _digest(ours)[1] != 0o600:
        problems.append(f"our 0644 journal: exit {r.returncode}, mode {oct(_digest(ours)[1])}, notice {notice}")
    theirs = folder / "theirs.sqlite"
    shutil.copy(finished, theirs)
    os.chmod(theirs, 0o644)
    how = "owned by another user"
    if os.getuid() == 0:                                   # really someone else's file
        os.chown(theirs, 65534, 65534)
        before = _digest(theirs)
        r = _outspeed(["history", "--journal", str(theirs)], folder)
        runs += 1
        lines = r.stderr.strip().splitlines()
        if not (r.returncode == 2 and len(lines) == 1 and "another user" in lines[0]) or _digest(theirs) != before:
            problems.append(f"another user's journal: exit {r.returncode}: {r.stderr[-200:]}")
    else:
        how = "(another user's journal needs root to make: not run)"
    return Row("Files that are not our journal",
               f"`outspeed history` and `outspeed replay` on a text file, a symlink to it, another program's "
               f"SQLite database, an empty file (all 0644); our finished journal made 0644; a journal {how}",
               f"{runs} runs",
               (f"exit 2, one line naming the file (\"{said[:120]}\"), content and mode unchanged, the symlink kept; "
                f"our journal made 0600 with a one-line notice; another user's journal refused untouched")
               if not problems else "; ".join(problems[:3]), not problems, {"problems": problems})


def snapshots_checked_first(workdir: Path) -> Row:
    """Issue 13, item 12: a `--snapshots` on an existing file or in a folder that cannot be made
    is refused before the game starts (no journal written), one line, exit 2."""
    folder = workdir / "snapshots"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    (folder / "taken").write_text("not a folder")
    problems, said = [], ""
    for k, target in enumerate((folder / "taken", folder / "taken" / "pngs")):
        journal = folder / f"j{k}.sqlite"
        r = _outspeed(["play", "-q", "--headless", "--players", "3", "--seed", "5", "--size", "320x180",
                       "--journal", str(journal), "--snapshots", str(target)], folder)
        lines = r.stderr.strip().splitlines()
        if not (r.returncode == 2 and len(lines) == 1 and str(target) in lines[0] and "--snapshots" in lines[0]):
            problems.append(f"{target.name}: exit {r.returncode}: {r.stderr[-200:]}")
        if journal.exists():
            problems.append(f"{target.name}: a game was started")
        said = said or (lines[0] if lines else "")
    return Row("`--snapshots` on an existing file or an impossible folder",
               "`outspeed play --headless --snapshots X` with X an existing file, then a folder inside that file",
               "2 runs", f"exit 2 before the game starts, one line (\"{said[:120]}\"), no journal written"
               if not problems else "; ".join(problems), not problems, {"problems": problems})
