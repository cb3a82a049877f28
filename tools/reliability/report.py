"""Running the campaigns and writing the report (RELIABILITY.md) from their rows."""
from __future__ import annotations

import contextlib
import datetime as _dt
import json
import os
import platform
import subprocess
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from .bounds import campaign_bounds
from .configs import campaign_configs
from .controllers import controller_rows
from .core import FULL, QUICK, REPO, Row, TEST_COUNTS
from .crash import KILL_WHAT, LOA_KILL_WHAT, campaign_crash, campaign_crash_loa
from .faults import campaign_faults
from .fuzz import campaign_fuzz
from .journals import campaign_journals
from .refusals import campaign_refusals
from .rogues import campaign_rogues
from .secrecy import campaign_secrecy


SECTIONS = (
    ("faults", "Fault injection: a whole game over emulated controllers"),
    ("rogues", "Fault injection: misbehaving controllers"),
    ("controllers", "Fault injection: hostile controllers at a table"),
    ("crash", "Crash safety"),
    ("crash_loa", "Crash safety: Last One Alive killed at odd moments of a turn"),
    ("journals", "Crash safety: corrupt and foreign journals"),
    ("configs", "Bad input: config files and command-line values"),
    ("fuzz", "Bad input: decoder fuzzing"),
    ("bounds", "Bad input: resource bounds"),
    ("secrecy", "Secrecy"),
    ("refusals", "Protocol 1.1: a controller's refused choices, in both games"),
)

CAMPAIGNS = tuple(name for name, _ in SECTIONS)


def run_campaign(name: str, counts: dict[str, Any], workdir: Path) -> list[Row]:
    """One campaign with ``counts`` (see FULL and QUICK); its rows."""
    folder = workdir / name
    folder.mkdir(parents=True, exist_ok=True)
    if name == "faults":
        return campaign_faults(folder, disconnects=counts["fault_disconnects"], resets=counts["fault_resets"],
                               seed=counts["fault_seed"], games=counts["fault_games"])
    if name == "rogues":
        return campaign_rogues(folder, seed=counts["rogue_seed"])
    if name == "controllers":
        return controller_rows()
    if name == "crash":
        return campaign_crash(folder, counts["crash_points"], counts["crash_seed"])
    if name == "crash_loa":
        return campaign_crash_loa(folder, counts["crash_loa_points"], counts["crash_seed"])
    if name == "refusals":
        return campaign_refusals(folder, counts["refusal_games"], counts["refusal_seed"])
    if name == "journals":
        return campaign_journals(folder, counts["journal_corruptions"])
    if name == "configs":
        return campaign_configs(folder)
    if name == "fuzz":
        return campaign_fuzz(counts["fuzz_inputs"], counts["fuzz_seed"])
    if name == "bounds":
        return campaign_bounds(counts["bounds_garbage_mb"], counts["bounds_firmware_mb"], counts["bounds_flood_s"])
    if name == "secrecy":
        return campaign_secrecy(folder, counts["secrecy_games"], counts["secrecy_seed"])
    raise ValueError(f"unknown campaign {name!r} (known: {', '.join(CAMPAIGNS)})")


def run_campaigns(counts: dict[str, Any], workdir: Path, only: Sequence[str] = CAMPAIGNS,
                  progress: Callable[[str], None] | None = None) -> dict[str, dict[str, Any]]:
    results: dict[str, dict[str, Any]] = {}
    for name in only:
        t0 = time.monotonic()
        if progress:
            progress(f"{name}: running")
        try:
            rows = run_campaign(name, counts, workdir)
        except Exception as exc:  # noqa: BLE001 - a campaign that cannot run is a failed row
            import traceback
            rows = [Row(name, "-", "-", f"the campaign failed: {exc!r}", False,
                        {"traceback": traceback.format_exc()})]
        results[name] = {"rows": rows, "seconds": time.monotonic() - t0}
        if progress:
            progress(f"{name}: {'ok' if all(r.ok for r in rows) else 'FAILED'} in {time.monotonic() - t0:.0f} s")
    return results


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def table_lines(results: dict[str, dict[str, Any]]) -> list[str]:
    lines = ["| Fault | How it was injected | How many | Outcome | OK |", "|---|---|---|---|---|"]
    for name, title in SECTIONS:
        if name not in results:
            continue
        for r in results[name]["rows"]:
            lines.append(f"| {_cell(r.fault)} | {_cell(r.how)} | {_cell(r.count)} | {_cell(r.outcome)} | "
                         f"{'yes' if r.ok else '**NO**'} |")
    return lines


def _machine() -> str:
    cpu = ""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    return (f"{platform.system()} {platform.release()}, {os.cpu_count()} CPUs{' (' + cpu + ')' if cpu else ''}, "
            f"Python {platform.python_version()}")


def code_version(repo: Path = REPO) -> str:
    """The code a run used, for the report: ``commit 1a2b3c4d5e6f`` (the checkout's HEAD), ``with
    uncommitted changes`` when a tracked file other than the report differs from it; empty
    outside a git checkout (an installed copy), so a report says where its figures come from."""
    def git(*args: str) -> str | None:
        try:
            r = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            return None
        return r.stdout.strip() if r.returncode == 0 else None
    head = git("rev-parse", "--short=12", "HEAD")
    if not head:
        return ""
    dirty = git("status", "--porcelain", "--untracked-files=no", "--", ".", ":(exclude)RELIABILITY.md")
    return f"commit {head}" + (" with uncommitted changes" if dirty else "")


def write_report(results: dict[str, dict[str, Any]], counts: dict[str, Any], path: Path | None, *, command: str,
                 started: _dt.datetime, seconds: float, workdir: Path | None = None) -> str:
    ok = all(r.ok for v in results.values() for r in v["rows"])
    full = counts == FULL
    out = [
        "# Reliability and security report",
        "",
        "A table of friends must never lose a game because a cable wiggled, a controller misbehaved, the laptop",
        "crashed or a config file has a typo, and nobody may learn another player's hidden choice early. Each",
        "line below is a fault injected on purpose and what happened; every figure was written by the run",
        "itself (`tools/reliability/`), none by hand.",
        "",
        f"- **Run:** {started.strftime('%Y-%m-%d %H:%M %Z').strip()}, {seconds:.0f} s, "
        f"{'the full counts' if full else 'counts: ' + json.dumps(counts)}"
        + (f"; the code of {version}" if (version := code_version()) else ""),
        f"- **Machine:** {_machine()}",
        f"- **Reproduce:** `{command}` (from the repository, after `./dev test` or `./dev play` made `.venv`; "
        f"add `--quick` for small counts, `--only crash,fuzz` for some campaigns, `--out FILE` to write the "
        f"report elsewhere; only `--update-report` writes this file)",
        f"- **Result:** {'every outcome as required' if ok else 'SOME OUTCOMES ARE NOT AS REQUIRED (see NO below)'}",
        "",
        *table_lines(results),
        "",
    ]
    for name, title in SECTIONS:
        if name not in results:
            continue
        out.append(f"## {title}")
        out.append("")
        out.append(f"({results[name]['seconds']:.0f} s.) " + _EXPLAIN.get(name, ""))
        out.append("")
        out.extend(_details(name, results[name]["rows"]))
        out.append("")
    out.append("## Defects found, and their fixes")
    out.append("")
    out.extend(f"- {line}" for line in FIXES)
    out.append("")
    out.append("## The test suite")
    out.append("")
    out.append("The figures above come from the command at the top, with the counts shown there. "
               "`tests/reliability` runs the same campaigns through the same functions on every `./dev test`, "
               "with these counts (`TEST_COUNTS` in `tools/reliability/core.py`): "
               + ", ".join(f"{k} {v:,}" if isinstance(v, int) else f"{k} {v}" for k, v in TEST_COUNTS.items())
               + "; so the issue's counts (100+ disconnects, 50 kill points, 1,000,000 decoder inputs) are met "
               "by the test suite itself too. `--quick` uses: "
               + ", ".join(f"{k} {v:,}" if isinstance(v, int) else f"{k} {v}" for k, v in QUICK.items()
                           if not k.endswith("seed")) + ".")
    out.append("")
    text = "\n".join(out)
    if workdir is not None:
        text = text.replace(str(workdir), "$TMP")
    if path is not None:
        path.write_text(text, encoding="utf-8")
    return text


FIXES = (
    "Last One Alive: a refused lock in the middle of a flare or hero answer (dice marked one lock at a time) "
    "threw away the dice marked so far when it named the other token, although a refusal must change nothing; "
    "found by the protocol 1.1 refusals campaign (seed 33, input 562, a flare), now the marks are replaced only "
    "when a mark of the other token is taken (`lastonealive/controls.py`).",
    "The journal (pile order, held and kept tokens, each choice as it is locked in) was created 0644 in a 0755 "
    "folder: readable by every user of the machine. Now 0600 in a 0700 folder whatever the umask, an older "
    "readable journal is made 0600 when opened, and SQLite's side file inherits 0600 (`bitbox/table/journal.py`).",
    "A journal input that no longer fits its state, and records whose settings, seats or players had the "
    "wrong shape, ended `outspeed play --resume` and `outspeed history` with a traceback; damaged records' "
    "messages did not name the file, and could carry the file's raw bytes over several lines "
    "(`bitbox/table/journal.py`).",
    "A mistake in `config/controllers.yaml` printed a traceback from `outspeed play` and was then ignored; "
    "now one line naming file, entry and field, exit 2 (`outspeed/table.py`).",
    "The hub: a device inventing a new controller id in every Hello made the seats grow until the reader "
    "thread crashed on seat 256 (now refused once all 255 seats are bound); the event queue of a hub nobody "
    "polls grew without bound under a flood of changing States (now coalesced beyond 4096 events: per seat "
    "only the latest WheelsChanged between its other events); a device that never reads made every write, "
    "and so the game's own calls, wait for write timeouts (now a device is skipped for 1 s after a failed "
    "write and gets at most 50 frames a second, as SPEC.md 8.5 asks); and a misbehaving device was not named "
    "in the log (now a warning names a port with many bad frames or more than 30 frames a second) "
    "(`bitbox/hub.py`).",
    "A controller id clone, refused while the real controller was connected, took the real one's seat at "
    "its first heartbeat timeout (a busy host under a garbage flood): the game then read the clone's "
    "wheels and stalled. A twin refused while the seat's device is still open no longer takes the seat; "
    "it still does when that device is unplugged (a controller moved to another port) (`bitbox/hub.py`).",
    "The fault injector had no duplicated frames: `dup=P` added (`bitbox/faults.py`, counted in "
    "`bitbox emulate`'s status).",
    "Found by an outside probe (issue 13), fixed, and now rows above: a clone plugged in while the real "
    "controller was only silent took its seat for good (now refused while the original device is open, and "
    "reported); a seated controller reflashed to protocol 2.0 left its seat \"connected\" forever (now lost, "
    "the game paused naming the player); ErrorReport floods were logged one by one from inside the hub's lock, "
    "and their text raw (now rate-limited, logged outside the lock, control characters escaped); a bonus-phase "
    "lock on an unlisted stop counted as \"no token\" (now unreadable); YAML alias bombs, unknown wheel "
    "meanings and unbounded token counts (now bounded and checked, one line); an edited finished game, wrong "
    "values, a full disk, SIGTERM, files that are not our journal and a bad `--snapshots` (now one line, exit "
    "2, nothing touched or lost); the seed, printed and small enough to brute-force (now a secret 128-bit draw "
    "shown after the end); and refused tries of a private choice announced to the table (now told to that "
    "controller alone, protocol 1.1).",
    "`outspeed simulate --workers 2` stopped by SIGTERM sent to its whole process group (as a service "
    "manager or `kill -TERM -PGID` does) hung for good in about 1 run in 3: `multiprocessing.Pool`'s idle "
    "worker was killed holding the task queue's lock, and `Pool.terminate()` waited for it (this stalled CI). "
    "The workers now have a pipe each and share no lock; an early stop kills and reaps them; 0 hangs in 80 "
    "interrupted runs (`bitbox/simulation/pool.py`, `tests/sim/test_interrupt.py`).",
)

_EXPLAIN = {
    "crash_loa": "The same machinery as above (`kill-run --game lastonealive`, then `lastonealive play --resume "
                 "--headless --speed 0`), aimed at the moments of a Last One Alive turn, chosen from the "
                 "uninterrupted game's own journal: after a setup token placement, a roll, a hero re-roll, one "
                 "shot of a shooting chain is committed (the engine has not applied it), between two locks of one "
                 "answer (marks are not journaled until the answer is whole), inside an input's transaction, at "
                 "its COMMIT, at a random time, while finishing. The bots' decisions are seeded by the game's "
                 "seed and the inputs applied, so the resumed game must journal exactly the same inputs and end "
                 "in the same final state (the engine's whole state compared) with the same winner line.",
    "refusals": "`python -m bitbox_tools.reliability refusal-run --game G --protocol 1.1 -- play ...` plays G with "
                "bots on simulated controllers (the reference firmware) announcing protocol 1.1. At a prompt "
                "where its player alone is awaited (so any input journaled meanwhile would be its own), a bot "
                "sometimes first locks a stop outside the Hint its controller's firmware holds (checked to be the "
                "Hint the host last sent it). The refusal must come as a ChoiceRefused (never an Identify, what a "
                "1.0 controller gets), be shown by that controller's firmware, and no input or mark may be taken "
                "while the wrong lock stands; then the bot unlocks and answers. Outspeed hints fewer prompts "
                "(its programming prompt is simultaneous, so it is not tried there).",
    "faults": "The emulator (`bitbox emulate`, the reference firmware on pseudo-terminals) runs in its own "
              "process; the hub opens its ports through `--link-dir` symlinks (so it reopens a replugged "
              "controller by itself); bots turn the emulated wheels through the emulator's command input, the "
              "way hands would. The fault-free game is the same seed, the same bots, no faults. The emulator's "
              "`--trace` records every frame each firmware wrote before the faults; every `WheelsChanged` the "
              "hub produced (so every lock and wheel the referee read, hence every reveal) is checked against "
              "it: same controller, same sequence number, same wheels, same lock. (The campaign's hub tries "
              "to reopen a vanished port every 0.05 s instead of the default 0.5 s, only to keep the run short.)",
    "rogues": "Each rogue device is plugged into the hub of a running game (after its second input), from "
              "another process. Contained means: the players' game ends exactly as the fault-free one (a "
              "player's controller missing heartbeats while the host is swamped only pauses it: counted), and "
              "the device is named (by its port) in the hub's log or the table's log.",
    "controllers": "In this process, on pseudo-terminals: the reference firmware in the emulator "
                   "(`bitbox_tools.emulate.Emulator`), pyserial, the hub and, where a game is involved, the referee "
                   "session on top. The cases an outside probe found (issue 13): a clone while the real controller "
                   "is only silent, a seated controller reflashed to a newer major, an ErrorReport flood whose "
                   "text forges log lines, a bonus-phase lock on a stop the wheel map does not list.",
    "crash": "`python -m bitbox_tools.reliability kill-run --kill SPEC -- play ...` is `outspeed play` with a "
             "SIGKILL armed at one point (the process kills itself with SIGKILL: no handler, no cleanup, as "
             "`kill -9`). After each kill the journal is checked as the kill left it (SQLite integrity, inputs "
             "a prefix of the uninterrupted game's, none half-written: a kill inside a transaction leaves the "
             "input out, a kill after the commit keeps it), then `outspeed play --resume` must finish the game "
             "with the same inputs, the same final state and the same winner line. The last two rows stop the "
             "game otherwise: SIGTERM to a headless `outspeed play`, and a disk that fills up (`RLIMIT_FSIZE`).",
    "journals": "Each damaged file is given to `outspeed play --resume`, `outspeed history` and `outspeed replay` "
                "(run in-process through `outspeed.cli.main`, so an escaping exception would be seen); the "
                "finished game's result edited, its last input deleted or its final fingerprint edited must be "
                "refused too (history and replay recompute the result from the inputs). Files that are not our "
                "journal and a bad `--snapshots` go through real `outspeed` processes.",
    "configs": "Each broken file goes through the commands that read it: `outspeed tiles check FILE`, "
               "`bitbox udev-rules --config FILE`, `outspeed play --table-config FILE`; dice.yaml, tokens.yaml, "
               "wheels.yaml and controllers.yaml have no option of their own in `outspeed play`, so the run "
               "edits a copy of the config folder and points the program at it (`bitbox_config.config_path`). "
               "The last row gives out-of-range numbers and impossible options to the real commands.",
    "fuzz": "One seeded stream of inputs, fed to every decoder of both sides in reads of 1 to 4096 bytes; "
            "any exception, and any message that comes out but does not survive re-encoding (a field out of "
            "range), would count. `tests/reliability` adds hypothesis properties over arbitrary bytes and "
            "arbitrary CRC-valid payloads.",
    "bounds": "Buffers and queues measured (tracemalloc, lengths) while feeding input that never ends, never "
              "delimits, or comes faster than anyone reads it. Two of these found defects, fixed: a device "
              "announcing a new controller id in every Hello made the hub's seats grow until its reader thread "
              "crashed (seat 256), and a game that did not poll let the hub's event queue grow without bound; "
              "a device that never reads made every call of the game into the hub wait for write timeouts "
              "(minutes under a Hello flood).",
    "secrecy": "Two worlds per game: the same seed, the same bots up to a random prompt, then different hidden "
               "things acted with the same shape (who locks, who tries a refused choice, who changes their mind, "
               "who plays a token at all are the same in both; which path, which number, which token, which "
               "reason differ). Only the reveal itself may differ; a kept token stays hidden after the draw too. "
               "A Hint (protocol 1.1) goes to the chooser's controller alone and is not compared; the last row "
               "checks that and that the number of refused tries in a private choice shows nowhere. The seed "
               "row plays real `outspeed play` processes without `--seed`. The test suite also checks that the "
               "comparison does catch a referee that leaks a locked-in path.",
}


def _details(name: str, rows: list[Row]) -> list[str]:
    out: list[str] = []
    if name == "crash" and rows and "kills" in rows[0].details:
        d = rows[0].details
        out.append(f"Uninterrupted game: {d['reference_inputs']} inputs, {d['reference_seconds']:.2f} s from its "
                   f"first journal write to its end. Kill points: " + ", ".join(f"{v} {k}" for k, v in d["by_kind"].items())
                   + f" ({d['after_commit']} of the in-transaction kills landed just after the commit).")
        out.append("")
        for kind, what in KILL_WHAT.items():
            out.append(f"- `{kind}`: {what}")
        out.append("")
        out.append("| kill point | where it died | inputs in the journal | transaction left half-written | "
                   "journal consistent | resumed to the same end |")
        out.append("|---|---|---|---|---|---|")
        for k in d["kills"]:
            out.append(f"| `{k['spec']}` | {k['hit']} | {k['inputs_at_kill']} | {'yes' if k.get('hot_journal') else '-'} "
                       f"| {'yes' if k['journal_ok'] else 'NO'} "
                       f"| {'yes' if k['same_end'] else 'NO ' + _cell(k['message'])} |")
    elif name == "crash_loa" and rows and "kills" in rows[0].details:
        d = rows[0].details
        out.append(f"Uninterrupted game: {d['reference_inputs']} inputs, {d['reference_seconds']:.2f} s from its "
                   f"first journal write to its end. Kill points: "
                   + ", ".join(f"{v} {k}" for k, v in d["by_moment"].items()) + ".")
        out.append("")
        for kind, what in LOA_KILL_WHAT.items():
            out.append(f"- `{kind}`: {what}")
        out.append("")
        out.append("| moment | kill point | where it died | inputs in the journal | transaction left half-written | "
                   "journal consistent | resumed to the same end |")
        out.append("|---|---|---|---|---|---|---|")
        for k in d["kills"]:
            out.append(f"| {k['moment']} | `{k['spec']}` | {k['hit']} | {k['inputs_at_kill']} | "
                       f"{'yes' if k.get('hot_journal') else '-'} | {'yes' if k['journal_ok'] else 'NO'} "
                       f"| {'yes' if k['same_end'] else 'NO ' + _cell(k['message'])} |")
    elif name == "refusals":
        out.append("| game | seed | inputs | ended | prompts (hinted) | wrong locks | refused | shown by the firmware "
                   "| applied | winner line |")
        out.append("|---|---|---|---|---|---|---|---|---|---|")
        for r in rows:
            for g in r.details.get("games", []):
                out.append(f"| {g['game']} | {g['seed']} | {g['inputs']} | {'yes' if g['ended'] else 'NO'} | "
                           f"{g.get('prompts', 0)} ({g.get('hinted_prompts', 0)}) | {g.get('tries', 0)} | "
                           f"{g.get('refused', 0)} | {g.get('seen_by_firmware', 0)} | {g.get('applied', 0)} | "
                           f"{_cell(g['last_line'])} |")
    elif name == "configs":
        out.append("| file | mistake | command | exit | message |")
        out.append("|---|---|---|---|---|")
        for r in rows:
            for c in r.details.get("cases", []):
                out.append(f"| {r.fault.removeprefix('Bad ')} | {c['what']} | {c['command']} | {c['exit']} | "
                           f"{_cell(c['message'])[:220]} |")
    elif name == "journals" and rows and "cases" in rows[0].details:
        out.append("| damage | play --resume | history | replay |")
        out.append("|---|---|---|---|")
        import re
        for c in rows[0].details["cases"]:
            cells = [f"{r['exit']}: {_cell(re.sub(r'[^ ]*/case-[0-9]+/', '', r['message']))[:120]}" if r["message"]
                     else f"{r['exit']}" for r in c["runs"]]
            out.append(f"| {c['what']} | " + " | ".join(cells) + " |")
    elif name == "faults" and rows and "runs" in rows[0].details:
        d = rows[0].details
        out.append(f"Fault-free game: {d['reference']['inputs']} inputs, {d['reference']['turns']} turns, winner "
                   f"{', '.join(d['reference']['winners']) or 'none'}, {d['reference']['seconds']} s.")
        for k, r in enumerate(d["runs"]):
            emu = r["emulator"]
            out.append(f"Faulty game {k + 1}: {r['seconds']} s; {r['disconnects']} disconnects ({r['lost']} losses, "
                       f"{r['back']} returns seen by the hub); resets at (inputs, stage, player) {r['resets']}; "
                       f"{r['frames']:,} good and {r['bad_frames']:,} bad frames at the hub; "
                       f"{sum(e['frames_dropped'] or 0 for e in emu)} dropped, "
                       f"{sum(e['frames_duplicated'] or 0 for e in emu)} duplicated, "
                       f"{sum(e['bits_flipped'] or 0 for e in emu)} bits flipped by the emulator; "
                       f"{r['verified']} wheel states accepted, {r['unverified']} not sent by a firmware.")
    elif name == "fuzz" and rows:
        d = rows[0].details
        out.append(f"Inputs by kind: {d.get('kinds')}; messages that came out (each re-encoded and checked): "
                   f"{d.get('accepted')}; exceptions: {d.get('errors') or 0}.")
    elif name == "secrecy" and rows:
        games = rows[0].details.get("games", [])
        out.append("| seed | players | tokens | prompt | after inputs | snapshots compared | difference |")
        out.append("|---|---|---|---|---|---|---|")
        for g in games:
            out.append(f"| {g['seed']} | {g['players']} | {g['token_mode']} | {g['stage']} | {g['prefix']} | "
                       f"{g['compared']} | {g['difference'] or 'none'} |")
    elif name == "bounds":
        for r in rows:
            out.append(f"- {r.fault}: {json.dumps(r.details, default=str)}")
    elif name == "rogues":
        for r in rows:
            named = r.details.get("named") or []
            out.append(f"- {r.fault}: " + (" / ".join(_cell(n)[:200] for n in named[:2]) or "-"))
    return out
