"""``configs``: bad config files through the commands that read them."""
from __future__ import annotations

import contextlib
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .core import Row, _run_main


CONFIG_FILES = ("tiles.yaml", "dice.yaml", "tokens.yaml", "wheels.yaml", "controllers.yaml", "table.yaml")


def _shipped(name: str) -> Any:
    from bitbox.config import load_yaml
    from bitbox_config import config_path
    return load_yaml(config_path(name))


def _dump(data: Any) -> str:
    import yaml
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)


def _tiles_with(change: Callable[[list], Any]) -> str:
    data = _shipped("tiles.yaml")
    change(data)
    return _dump(data)


def _set(d: Any, path: Sequence[Any], value: Any) -> Any:
    for k in path[:-1]:
        d = d[k]
    if value is _DELETE:
        del d[path[-1]]
    else:
        d[path[-1]] = value
    return d


_DELETE = object()


@dataclass(frozen=True)
class ConfigCase:
    file: str                  # which config file
    what: str                  # the mistake
    text: Callable[[], str]    # the broken file's content
    expect: tuple[str, ...]    # besides the file: the entry and the field (or the line)


def _with(name: str, path: Sequence[Any], value: Any) -> Callable[[], str]:
    def make() -> str:
        data = _shipped(name)
        _set(data, path, value)
        return _dump(data)
    return make


def alias_bomb(levels: int = 9, width: int = 9) -> str:
    """A "billion laughs" of about 500 bytes: ``width ** levels`` strings once its aliases are
    expanded (9 ** 9: 387 million)."""
    lines = [f"l0: &l0 [{', '.join(['lol'] * width)}]"]
    lines += [f"l{k}: &l{k} [{', '.join([f'*l{k - 1}'] * width)}]" for k in range(1, levels)]
    return "\n".join(lines) + "\n"


_BOMB = ("aliases are expanded", "alias bomb")

CONFIG_CASES: tuple[ConfigCase, ...] = (
    # tiles.yaml ------------------------------------------------------------------------------
    ConfigCase("tiles.yaml", "malformed YAML", lambda: "- number: 1\n  faces: {\"3-4\": [unclosed\n",
               ("line ",)),
    ConfigCase("tiles.yaml", "unknown key", _with("tiles.yaml", (2, "faces", "3-4", "right", "price"), 3),
               ("entry 3", "tile 3", "3-4", "right", "price")),
    ConfigCase("tiles.yaml", "wrong type", _with("tiles.yaml", (2, "faces", "3-4", "right", "capacity"), "two"),
               ("entry 3", "tile 3", "right", "capacity")),
    ConfigCase("tiles.yaml", "unknown effect",
               _with("tiles.yaml", (3, "faces", "5-6", "left", "gain"), [{"teleport": 2}]),
               ("entry 4", "tile 4", "5-6", "left", "gain", "teleport")),
    ConfigCase("tiles.yaml", "impossible capacity", _with("tiles.yaml", (2, "faces", "5-6", "center", "capacity"), 9),
               ("entry 3", "tile 3", "5-6", "center", "capacity")),
    ConfigCase("tiles.yaml", "missing face", _with("tiles.yaml", (6, "faces", "5-6"), _DELETE),
               ("entry 7", "tile 7", "5-6")),
    ConfigCase("tiles.yaml", "duplicate tile number", _with("tiles.yaml", (4, "number"), 4),
               ("entry 5", "tile 4", "number", "duplicate")),
    ConfigCase("tiles.yaml", "key given twice", lambda: "- number: 1\n  number: 2\n  finish: false\n", ("line 2",)),
    ConfigCase("tiles.yaml", "X without choose", _with("tiles.yaml", (15, "faces", "3-4", "center", "choose"), _DELETE),
               ("entry 16", "tile 16", "center", "choose")),
    ConfigCase("tiles.yaml", "unknown die", _with("tiles.yaml", (2, "faces", "3-4", "left", "gain"),
                                                  [{"move": {"die": "green"}}]),
               ("entry 3", "tile 3", "left", "die", "green")),
    ConfigCase("tiles.yaml", "alias bomb", alias_bomb, _BOMB),
    # dice.yaml, tokens.yaml ---------------------------------------------------------------------
    ConfigCase("dice.yaml", "wrong type", _with("dice.yaml", ("dice", "blue"), "six"), ("die blue", "faces")),
    ConfigCase("dice.yaml", "impossible face", _with("dice.yaml", ("dice", "yellow"), [-1, -2, 3]),
               ("die yellow", "faces")),
    ConfigCase("dice.yaml", "unknown key", _with("dice.yaml", ("dice", "green"), [1, 2]), ("dice", "green")),
    ConfigCase("tokens.yaml", "wrong type", _with("tokens.yaml", ("tokens", "nitro"), "seven"), ("token nitro", "count")),
    ConfigCase("tokens.yaml", "unknown token", _with("tokens.yaml", ("tokens", "laser"), 2), ("tokens", "laser")),
    ConfigCase("tokens.yaml", "impossible count", _with("tokens.yaml", ("force_field_markers",), -1),
               ("force_field_markers",)),
    ConfigCase("tokens.yaml", "huge count", _with("tokens.yaml", ("tokens", "nitro"), 300_000_000),
               ("token nitro", "count", "0 to 100")),
    # wheels.yaml (the controllers' wheel maps) ---------------------------------------------------
    ConfigCase("wheels.yaml", "position out of range", _with("wheels.yaml", ("games", "outspeed", "right", 16), "left"),
               ("outspeed", "right", "16")),
    ConfigCase("wheels.yaml", "one meaning twice", _with("wheels.yaml", ("games", "outspeed", "right", 4), "center"),
               ("outspeed", "right", "position 4", "meaning", "center")),
    ConfigCase("wheels.yaml", "unknown wheel", _with("wheels.yaml", ("games", "outspeed", "center"), {0: 1}),
               ("outspeed", "center")),
    ConfigCase("wheels.yaml", "wrong type", _with("wheels.yaml", ("games", "outspeed", "left", 1), ["nitro"]),
               ("outspeed", "left", "position 1", "meaning")),
    ConfigCase("wheels.yaml", "meaning the game does not know",
               _with("wheels.yaml", ("games", "outspeed", "right", 2), "centre"),
               ("outspeed", "wheel right", "position 2", "meaning", "'centre'", "did you mean 'center'")),
    ConfigCase("wheels.yaml", "a path no stop means", _with("wheels.yaml", ("games", "outspeed", "right", 3), _DELETE),
               ("outspeed", "wheel right", "no position means 'right'")),
    ConfigCase("wheels.yaml", "alias bomb", alias_bomb, _BOMB),
    # controllers.yaml (the controller map: ids, seats, colours, USB ids) --------------------------
    ConfigCase("controllers.yaml", "bad id", _with("controllers.yaml", ("controllers",),
                                                   [{"id": "0xZZ", "seat": 1}]), ("controllers entry 1", "id")),
    ConfigCase("controllers.yaml", "seat pinned twice", _with("controllers.yaml", ("controllers",),
                                                              [{"id": 1, "seat": 2}, {"id": 3, "seat": 2}]),
               ("0x0000000000000003", "seat", "already pinned")),
    ConfigCase("controllers.yaml", "unknown key", _with("controllers.yaml", ("controllers",),
                                                        [{"id": 1, "seat": 0, "color": "red"}]),
               ("controllers entry 1", "color")),
    ConfigCase("controllers.yaml", "wrong type", _with("controllers.yaml", ("usb",), [{"vid": "pico", "pid": 5}]),
               ("usb entry 1", "vid")),
    ConfigCase("controllers.yaml", "impossible seat", _with("controllers.yaml", ("controllers",), [{"id": 7, "seat": 999}]),
               ("0x0000000000000007", "seat")),
    ConfigCase("controllers.yaml", "bad colour", _with("controllers.yaml", ("seat_colours",), ["red", "#12345"]),
               ("seat_colours entry 2",)),
    ConfigCase("controllers.yaml", "alias bomb", alias_bomb, _BOMB),
    # table.yaml -------------------------------------------------------------------------------
    ConfigCase("table.yaml", "unknown key", _with("table.yaml", ("langauge",), "fr"), ("langauge",)),
    ConfigCase("table.yaml", "wrong type", _with("table.yaml", ("window",), "big"), ("window",)),
    ConfigCase("table.yaml", "impossible value", _with("table.yaml", ("speed",), -2), ("speed",)),
    ConfigCase("table.yaml", "alias bomb", alias_bomb, _BOMB),
)


@contextlib.contextmanager
def config_folder(folder: Path):
    """Point the programs at another folder of shipped config files (the files have no
    command-line option of their own), the way an edited install would be."""
    import bitbox_config
    import outspeed.content as content
    saved = (bitbox_config.config_path, content.config_path)

    def config_path(name: str) -> Path:
        return folder / name
    bitbox_config.config_path = content.config_path = config_path
    try:
        yield
    finally:
        bitbox_config.config_path, content.config_path = saved


def config_case_result(case: ConfigCase, workdir: Path) -> list[dict[str, Any]]:
    """Run one broken file through every command that reads it."""
    from bitbox.cli import main as bitbox_main
    from bitbox_config import config_path
    from outspeed.cli import main as outspeed_main
    folder = workdir / "config"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for name in CONFIG_FILES:
        shutil.copy(config_path(name), folder / name)
    bad = folder / case.file
    bad.write_text(case.text(), encoding="utf-8")
    runs: list[tuple[str, Callable, list[str], bool]] = []
    journal = str(workdir / "journal.sqlite")
    play = ["play", "-q", "--headless", "--players", "3", "--journal", journal, "--snapshots", str(workdir / "s"),
            "--size", "320x180", "--max-seconds", "30"]
    if case.file == "tiles.yaml":
        runs.append(("outspeed tiles check FILE", outspeed_main, ["tiles", "check", str(bad)], False))
    if case.file == "controllers.yaml":
        runs.append(("bitbox udev-rules --config FILE", bitbox_main, ["udev-rules", "--config", str(bad)], False))
    if case.file == "table.yaml":
        runs.append(("outspeed play --table-config FILE", outspeed_main, play + ["--table-config", str(bad)], False))
    else:
        runs.append((f"outspeed play (config/{case.file} edited)", outspeed_main, play, True))
    results = []
    for label, fn, args, redirected in runs:
        with (config_folder(folder) if redirected else contextlib.nullcontext()):
            code, out, err = _run_main(fn, args)
        message = err.strip().splitlines()[-1] if err.strip() else ""
        missing = [x for x in (str(bad), *case.expect) if x not in err]
        ok = code == 2 and not missing and "Traceback" not in err and len(err.strip().splitlines()) == 1
        results.append({"command": label, "exit": code, "message": message, "missing": missing, "ok": ok,
                        "stderr": err[-600:] if not ok else ""})
    return results


def campaign_configs(workdir: Path) -> list[Row]:
    rows = []
    by_file: dict[str, list] = {}
    for k, case in enumerate(CONFIG_CASES):
        for r in config_case_result(case, workdir / f"case-{k:02d}"):
            by_file.setdefault(case.file, []).append((case, r))
    for name, items in by_file.items():
        bad = [(c, r) for c, r in items if not r["ok"]]
        commands = sorted({r["command"] for _, r in items})
        example = next((r["message"] for c, r in items if r["ok"]), "")
        outcome = (f"{len(items) - len(bad)}/{len(items)}: exit 2, one line naming the file, the entry and the field, "
                   f"no traceback; e.g. \"{example[:160]}\"") if not bad else \
            "; ".join(f"{c.what} via {r['command']}: exit {r['exit']}, missing {r['missing']}: {r['stderr'][-300:]}"
                      for c, r in bad[:3])
        kinds = ", ".join(dict.fromkeys(c.what for c, _ in items))
        rows.append(Row(f"Bad {name}", f"{kinds}; through {' and '.join(commands)}",
                        f"{len({c.what for c, _ in items})} mistakes, {len(items)} runs", outcome, not bad,
                        {"cases": [{"what": c.what, **r} for c, r in items]}))
    rows.append(bad_arguments(workdir / "arguments"))
    return rows


#: Out-of-range numbers and impossible options on the command line (issue 13, items 16 and 19):
#: (the command, the words its one line must hold).
BAD_ARGUMENTS: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (("outspeed.cli", "play", "--seed", str(2**63)), ("--seed", str(2**63 - 1))),
    (("outspeed.cli", "play", "--seed", "-1"), ("--seed",)),
    (("outspeed.cli", "replay", "99999999999999999999"), ("game id", "99999999999999999999")),
    (("outspeed.cli", "play", "--size", "100000x100000"), ("--size", "7680x4320")),
    (("bitbox.cli", "emulate", "--link-dir", "{file}"), ("--link-dir", "not a folder")),
    (("bitbox.cli", "emulate", "--trace", "{missing}/trace.jsonl"), ("--trace", "cannot be written")),
    (("bitbox.cli", "emulate", "--id-base", "0xFFFFFFFFFFFFFFFF"), ("--id-base", "64-bit")),
    (("bitbox.cli", "emulate", "--seconds", "nan"), ("--seconds",)),
)
#: Command values the emulator must refuse while it keeps running (each one line "emulate: ...").
BAD_EMULATE_COMMANDS = ("0 garbage 99999999999", "0 drop 1e3", "0 disconnect 1e308", "0 disconnect -1",
                        "0 disconnect nan", "0 right=99")


def bad_arguments(workdir: Path) -> Row:
    """Each bad argument through its real command (a subprocess): exit 2, one line naming the
    option, no traceback, no journal made; bad emulator commands refused while it runs on."""
    import json
    import subprocess
    import sys
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "file").write_text("not a folder")
    journal = workdir / "j.sqlite"
    problems: list[str] = []
    said = ""
    for command, words in BAD_ARGUMENTS:
        args = [a.format(file=workdir / "file", missing=workdir / "missing") for a in command]
        if args[0] == "outspeed.cli":
            args += ["--journal", str(journal)]
        r = subprocess.run([sys.executable, "-m", *args], input="quit\n", capture_output=True, text=True, timeout=60,
                           cwd=workdir)
        err = r.stderr.strip()
        if not (r.returncode == 2 and len(err.splitlines()) == 1 and "Traceback" not in err
                and all(w in err for w in words)):
            problems.append(f"{' '.join(args[1:4])}: exit {r.returncode}: {err[-200:]}")
        said = said or err
    if journal.exists() or (workdir / "missing").exists():
        problems.append("a file was made")
    proc = subprocess.Popen([sys.executable, "-m", "bitbox.cli", "emulate", "--controllers", "1"], cwd=workdir,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None                              # a PIPE
    try:
        proc.stdout.readline()
        _, err = proc.communicate("\n".join(BAD_EMULATE_COMMANDS) + "\n0 right=2\nstatus\nquit\n", timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    lines = err.splitlines()
    refused = [line for line in lines if line.startswith("emulate: ")]
    status = [json.loads(line) for line in lines if line.startswith("{")]
    if proc.returncode != 0 or "Traceback" in err or len(refused) != len(BAD_EMULATE_COMMANDS):
        problems.append(f"bitbox emulate commands: exit {proc.returncode}, {len(refused)} refused: {err[-300:]}")
    if not status or status[0].get("wheels") != [0, 0, 2]:
        problems.append("the emulator stopped obeying after the bad commands")
    return Row("Out-of-range numbers and impossible options on the command line",
               "`outspeed play --seed 2^63` / `--seed -1` / `--size 100000x100000`, `outspeed replay "
               "99999999999999999999`, `bitbox emulate --link-dir FILE` / `--trace` in a missing folder / "
               "`--id-base 0xFFFFFFFFFFFFFFFF` / `--seconds nan` (real processes); then `bitbox emulate` given "
               + ", ".join(f"`{c}`" for c in BAD_EMULATE_COMMANDS) + " while running",
               f"{len(BAD_ARGUMENTS)} options, {len(BAD_EMULATE_COMMANDS)} commands",
               (f"exit 2, one line naming the option, no traceback, no file made (e.g. \"{said[:120]}\"); each bad "
                f"command refused in one line, the emulator still running and obeying") if not problems
               else "; ".join(problems[:3]), not problems, {"problems": problems})
