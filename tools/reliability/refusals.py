"""``refusals``: both games played by bots on simulated controllers that speak protocol 1.1,
each bot now and then locking a stop its controller's Hint says is not a choice
(``python -m bitbox_tools.reliability refusal-run``).

Protocol 1.1 gives the host two private messages: ``Hint`` (the valid stops of each wheel,
to one controller) and ``ChoiceRefused`` (to the controller whose locked choice was refused).
The campaign counts both, checks that every wrong lock was refused to that controller alone
(a ChoiceRefused, seen by its firmware), that no refused answer reached the game (no input
journaled, no mark taken while it was locked), and that each game still ends."""
from __future__ import annotations

import json
import os
import random
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .core import GAME_MODULES, PY, Row, _journal_check, _play_env

#: How long a wrong lock may wait for its refusal before it counts as not refused (wall time): a
#: bound for a refusal that never comes, not a speed (a loaded machine's suite once took over 5 s).
REFUSAL_WAIT = 30.0
#: How long a bot that means to lock a wrong stop waits for its controller's Hint (wall time).
HINT_WAIT = 0.3



def _wrong_stop(hint: Sequence[int], rng: random.Random) -> tuple[int, int] | None:
    """(wheel, position) of a stop the Hint does not list, on a wheel it hints; None when
    no wheel is hinted or every stop of the hinted wheels is valid."""
    wrong = [(w, p) for w, mask in enumerate(hint) if mask for p in range(16) if not mask >> p & 1]
    return rng.choice(wrong) if wrong else None


def refusal_run_main(game: str, protocol: str, every: float, seed: int, note: str, play_args: Sequence[str]) -> int:
    """``refusal-run``: ``GAME play`` whose simulated controllers announce ``protocol`` and
    whose bots, at about ``every`` of their prompts, first lock a stop outside their Hint.
    Counts go to ``note`` (JSON) when the game ends."""
    import importlib

    import firmware_protocol as fp
    from bitbox.hub import Hub

    major, minor = (int(x) for x in protocol.split("."))
    counts: dict[str, Any] = {"tries": 0, "refused": 0, "overtaken": 0, "applied": 0, "not_refused": 0, "seen_by_firmware": 0,
                              "choice_refused_sent": 0, "identify_sent": 0, "hints_sent": 0, "hinted_prompts": 0,
                              "prompts": 0, "problems": []}
    orig_add_sim = Hub.add_sim

    def add_sim(self: Any, n: int = 1, **kw: Any) -> Any:
        kw.setdefault("protocol", (major, minor))
        return orig_add_sim(self, n, **kw)
    setattr(Hub, "add_sim", add_sim)
    orig_command = Hub._command

    def command(self: Any, seat: Any, message: Any) -> bool:
        if isinstance(message, fp.ChoiceRefused):
            counts["choice_refused_sent"] += 1
        elif isinstance(message, fp.Identify):
            counts["identify_sent"] += 1
        elif isinstance(message, fp.Hint) and any((message.left, message.centre, message.right)):
            counts["hints_sent"] += 1
        return orig_command(self, seat, message)
    setattr(Hub, "_command", command)

    host_hints: dict[int, tuple[int, int, int]] = {}       # controller id -> the Hint the host last gave it
    orig_hint = Hub.hint

    def hint(self: Any, seat: int, left: int = 0, centre: int = 0, right: int = 0) -> bool:
        with self._lock:
            cid = self._seats[seat].controller_id if seat in self._seats else None
        if cid is not None:
            host_hints[cid] = (left, centre, right)
        return orig_hint(self, seat, left, centre, right)
    setattr(Hub, "hint", hint)

    from bitbox.table import journal as J
    journaled: list[bool] = []                             # per input: answered by the table itself ("auto")
    orig_record = J.GameRecord.record

    def record(self: Any, kind: str, data: dict[str, Any], **kw: Any) -> None:
        orig_record(self, kind, data, **kw)
        journaled.append(bool(data.get("auto")))
    setattr(J.GameRecord, "record", record)

    rng = random.Random(seed)
    players: set[str] = set()
    from bitbox.table.session import BotDriver as driver_cls     # every game's bots at the table
    orig_update = driver_cls.update
    tries: dict[int, dict[str, Any]] = {}

    def update(self: Any, session: Any, now: float) -> None:
        players.add(self.player)
        t = tries.get(id(self))
        if t is not None:
            t["seen"] = t["seen"] or getattr(self.sim, "refusals", 0) > t["refusals"]   # latched: a blink may be over
            moved = (session.inputs_applied, getattr(session, "marks", None)) != t["at"]
            if self.player in session.refused and not moved:
                if not t["seen"] and time.monotonic() - t["t0"] < REFUSAL_WAIT:
                    return                          # the ChoiceRefused may still be on its way
                counts["refused"] += 1
                counts["seen_by_firmware"] += bool(t["seen"])
                del tries[id(self)]
                self.sim.set(locked=False)
                return
            if moved:
                first = t["journaled"]
                if first < len(journaled) and journaled[first]:
                    counts["overtaken"] += 1       # the table answered by itself first (a window closed)
                    self.sim.set(locked=False)
                else:
                    counts["applied"] += 1
                    counts["problems"].append(f"a refused lock changed the game (an input or the marks so far) at "
                                              f"input {t['at'][0]} ({t['kind']})")
                del tries[id(self)]
            elif time.monotonic() - t["t0"] > REFUSAL_WAIT:
                counts["not_refused"] += 1
                counts["problems"].append(f"a lock outside the hint was not refused at input {t['at'][0]} ({t['kind']})")
                del tries[id(self)]
                self.sim.set(locked=False)
            return
        asked = session.awaiting(self.player)
        kind = getattr(asked, "kind", asked)      # the console's session asks a Prompt
        if kind is not None and kind not in ("first", "bag"):
            key = (session.inputs_applied, session.prompt_id, kind, getattr(session, "marks", None))
            plan = getattr(self, "_refusal_plan", None)
            if plan is None or plan["key"] != key:
                plan = self._refusal_plan = {"key": key, "want": rng.random() < every, "t0": time.monotonic(),
                                             "hinted": False}
                counts["prompts"] += 1
            hint = tuple(self.sim.hint)            # the Hint as the controller's firmware holds it
            if hint != host_hints.get(self.sim.controller_id, (0, 0, 0)):
                hint = (0, 0, 0)                   # not the host's current Hint yet
            alone = all(session.awaiting(q) is None for q in players if q != self.player)
            if any(hint) and not plan["hinted"]:
                plan["hinted"] = True
                counts["hinted_prompts"] += 1
            c = session.controller(self.player)
            if plan["want"] and alone and not c.locked and self.player not in session.refused:
                wrong = _wrong_stop(hint, rng)
                if wrong is not None:
                    plan["want"] = False
                    wheel, pos = wrong
                    counts["tries"] += 1
                    tries[id(self)] = {"at": (session.inputs_applied, getattr(session, "marks", None)),
                                       "t0": time.monotonic(), "seen": False, "kind": kind,
                                       "refusals": getattr(self.sim, "refusals", 0),
                                       "journaled": len(journaled)}
                    positions: list[int | None] = [None, None, None]
                    positions[wheel] = pos
                    self.sim.set(left=positions[0], centre=positions[1], right=positions[2], locked=True)
                    return
                if any(host_hints.get(self.sim.controller_id, (0, 0, 0))) and \
                        time.monotonic() - plan["t0"] < HINT_WAIT:
                    return                         # the host's Hint is still on its way to the controller
                plan["want"] = False               # no hint at this prompt: answer as usual
            elif plan["want"] and not alone:
                plan["want"] = False               # others answer too: an input then would not tell whose
        orig_update(self, session, now)
    setattr(driver_cls, "update", update)
    code = importlib.import_module(GAME_MODULES[game][0]).main(list(play_args))
    Path(note).write_text(json.dumps(counts), encoding="utf-8")
    return code


def refusal_game(workdir: Path, game: str, seed: int, every: float, players: int) -> dict[str, Any]:
    """One game of ``game`` through ``refusal-run`` (protocol 1.1); its counts and outcome."""
    workdir.mkdir(parents=True, exist_ok=True)
    journal, note = workdir / "journal.sqlite", workdir / "counts.json"
    play = ["play", "--headless", "--speed", "0", "--players", str(players), "--seed", str(seed),
            "--size", "320x180", "--journal", str(journal), "--snapshots", str(workdir / "s")]
    r = subprocess.run([PY, "-m", "bitbox_tools.reliability", "refusal-run", "--game", game, "--protocol", "1.1",
                        "--every", str(every), "--seed", str(seed), "--note", str(note), "--", *play],
                       cwd=workdir, env=_play_env(workdir), capture_output=True, text=True, timeout=300)
    counts: dict[str, Any] = json.loads(note.read_text()) if note.exists() else {"problems": []}
    status = inputs = None
    if journal.exists():
        _, rows, status, _ = _journal_check(journal, game)
        inputs = len(rows)
    ended = r.returncode == 0 and status == "finished" and "Traceback" not in r.stderr
    if not ended:
        counts["problems"].append(f"{game} seed {seed}: exit {r.returncode}, status {status}: {r.stderr[-300:]}")
    return {"game": game, "seed": seed, "ended": ended, "inputs": inputs, "last_line":
            (r.stdout.strip().splitlines() or [""])[-1], **counts}


def campaign_refusals(workdir: Path, games: int, seed: int, every: float = 0.5) -> list[Row]:
    """``games`` games of each cartridge on protocol 1.1 controllers whose bots try wrong stops."""
    from concurrent.futures import ThreadPoolExecutor
    jobs = [(game, seed + k, 3 + k % 3) for game in ("outspeed", "lastonealive") for k in range(games)]
    with ThreadPoolExecutor(max_workers=min(2, os.cpu_count() or 1)) as pool:
        results = list(pool.map(lambda a: refusal_game(workdir / f"{a[0]}-{a[1]}", a[0], a[1], every, a[2]), jobs))
    rows = []
    for game, title in (("outspeed", "Outspeed"), ("lastonealive", "Last One Alive")):
        mine = [r for r in results if r["game"] == game]
        total = {k: sum(r.get(k, 0) for r in mine) for k in
                 ("tries", "refused", "overtaken", "applied", "not_refused", "seen_by_firmware", "choice_refused_sent",
                  "identify_sent", "hints_sent", "hinted_prompts", "prompts")}
        problems = [p for r in mine for p in r["problems"]]
        ended = sum(r["ended"] for r in mine)
        ok = (not problems and ended == len(mine) and total["tries"] > 0
              and total["refused"] + total["overtaken"] == total["tries"] and total["refused"] > 0
              and total["seen_by_firmware"] == total["refused"] and total["identify_sent"] == 0
              and total["choice_refused_sent"] >= total["refused"])
        outcome = (f"{total['refused']}/{total['tries']} wrong locks refused"
                   + (f" ({total['overtaken']} more overtaken: the table answered for the player, an 'auto' input, "
                      f"before the refusal was read)" if total["overtaken"] else "")
                   + ", each with a ChoiceRefused to that "
                   f"controller alone ({total['choice_refused_sent']} sent, {total['seen_by_firmware']} shown by the "
                   f"firmware, 0 Identify as a 1.0 controller would get); refused answers applied (an input or a mark "
                   f"taken): "
                   f"{total['applied']}; {total['hints_sent']} Hints sent, {total['hinted_prompts']} of "
                   f"{total['prompts']} prompts hinted; {ended}/{len(mine)} games ended "
                   f"({', '.join(str(r['inputs']) for r in mine)} inputs)")
        if problems:
            outcome += "; " + "; ".join(problems[:4])
        rows.append(Row(f"A protocol 1.1 controller's wrong locks ({title})",
                        f"`refusal-run`: {title} by bots at --speed 0 on simulated controllers announcing protocol "
                        f"1.1; at about {every:.0%} of its prompts a bot first locks a stop its controller's Hint "
                        f"does not list (a random hinted wheel), waits for the refusal, unlocks, then answers",
                        f"{len(mine)} games, {total['tries']} wrong locks", outcome, ok,
                        {"games": mine, "totals": total}))
    return rows
