"""``faults``: line faults (bit errors, dropped and duplicated frames, disconnects, resets)
during a whole game over emulated controllers."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

from .core import Row
from .games import Chaos, GameRun, emulated_game, same_game


def _chaos(run: GameRun) -> Chaos:
    """The chaos monkey of a faulty run (every one here is given one)."""
    assert run.chaos is not None
    return run.chaos


BYTE_ERRORS = 0.01                                   # the share of bytes hit by a bit error

BER = 1.0 - (1.0 - BYTE_ERRORS) ** (1.0 / 8.0)       # per bit: 1 % of bytes have at least one


def campaign_faults(workdir: Path, *, disconnects: int, resets: int, seed: int, games: int = 1,
                    drop: float = 0.02, dup: float = 0.02) -> list[Row]:
    """A 6-player game over faulty emulated lines == the same game over perfect ones."""
    ref = emulated_game(workdir, players=6, seed=seed, name="fault-free")
    runs = []
    spec = f"ber={BER:.6f},drop={drop},dup={dup}"
    for g in range(games):
        runs.append(emulated_game(workdir, players=6, seed=seed, faults=spec, name=f"faulty-{g}",
                                  chaos={"disconnects": disconnects, "resets": resets, "seed": seed * 100 + g},
                                  expected_inputs=len(ref.inputs)))
    rows = []
    tot: Counter[str] = Counter()
    problems = []
    for run in runs:
        diffs = same_game(ref, run)
        if diffs:
            problems.append("; ".join(diffs))
        if run.unverified:
            problems.append(f"{len(run.unverified)} wheel states accepted that no firmware sent: {run.unverified[:3]}")
        tot["games"] += 1
        tot["completed"] += 1 if not diffs else 0
        tot["disconnects"] += _chaos(run).done_disconnects
        tot["reconnects"] += run.reconnects
        tot["seen_cycles"] += _chaos(run).seen_cycles
        tot["lost"] += run.events["Lost"]
        tot["back"] += run.events["Back"]
        tot["resets"] += _chaos(run).done_resets
        tot["inputs"] += len(run.inputs)
        tot["wheel_events"] += len(run.wheel_events)
        tot["verified"] += run.verified
        tot["unverified"] += len(run.unverified)
        for st in run.emulator:
            tot["bits_flipped"] += st.get("bits_flipped", 0)
            tot["frames_dropped"] += st.get("frames_dropped", 0)
            tot["frames_duplicated"] += st.get("frames_duplicated", 0)
        for link in run.links:
            tot["bad_frames"] += link.bad_frames
            tot["frames"] += link.frames
        chaos = _chaos(run)
        if chaos.done_disconnects < disconnects:
            problems.append(f"only {chaos.done_disconnects} disconnects injected")
        # Each pull was of a controller the hub had connected, and each one is over only once
        # the hub has seen it lost and back (Chaos): none missed, none left running.
        if chaos.missed:
            problems.append(f"the hub never reported {len(chaos.missed)} of the disconnects as a loss: "
                            f"{chaos.missed[:3]}")
        if chaos.seen_cycles != chaos.done_disconnects:
            problems.append(f"{chaos.done_disconnects} disconnects asked, {chaos.seen_cycles} seen to their end "
                            f"({chaos.open_cycles()} still running after {chaos.patience:g} s)")
        if run.events["Lost"] < chaos.seen_cycles or run.events["Back"] + chaos.away() < run.events["Lost"]:
            problems.append(f"the hub saw {run.events['Lost']} losses and {run.events['Back']} returns")
        if _chaos(run).done_resets < resets:
            problems.append(f"only {_chaos(run).done_resets} resets")
    ok = not problems
    g = tot["games"]
    same = f"{tot['completed']}/{g} game{'' if g == 1 else 's'} completed with the fault-free result ({len(ref.inputs)} inputs, " \
           f"winner {', '.join(ref.winners) or 'none'}, identical final state); inputs lost: " \
           f"{sum(len(ref.inputs) - sum(1 for a, b in zip(ref.inputs, r.inputs) if a == b) for r in runs)}"
    reveal = f"wrong reveals: {tot['unverified']} ({tot['verified']} wheel states accepted, each one a State " \
             f"its firmware sent, same seq)"
    details = {"reference": {"inputs": len(ref.inputs), "winners": ref.winners, "turns": ref.turns,
                             "seconds": round(ref.seconds, 1)},
               "runs": [{"seconds": round(r.seconds, 1), "disconnects": _chaos(r).done_disconnects,
                         "reconnects": r.reconnects, "lost": r.events["Lost"], "back": r.events["Back"],
                         "seen_cycles": _chaos(r).seen_cycles, "missed": len(_chaos(r).missed),
                         "resets": _chaos(r).reset_points, "verified": r.verified, "unverified": len(r.unverified),
                         "bad_frames": sum(l.bad_frames for l in r.links), "frames": sum(l.frames for l in r.links),
                         "emulator": [{k: st.get(k) for k in ("frames_dropped", "frames_duplicated", "bits_flipped")}
                                      for st in r.emulator]} for r in runs],
               "faults": spec, "seed": seed, "problems": problems}
    common = f"6-player game, seed {seed}, bots; `bitbox emulate --faults {spec}` (own process, pseudo-terminals)"
    rows.append(Row("Bit errors on 1 % of bytes", f"{common}: each bit flipped with p = {BER:.5f}",
                    f"{tot['bits_flipped']:,} bits flipped; {tot['bad_frames']:,} bad frames of "
                    f"{tot['frames'] + tot['bad_frames']:,} counted by the hub",
                    f"{same}; {reveal}", ok, details))
    rows.append(Row("Dropped frames", f"{common}: each frame lost with p = {drop}",
                    f"{tot['frames_dropped']:,} frames dropped", same, ok))
    rows.append(Row("Duplicated frames", f"{common}: each frame sent twice with p = {dup}",
                    f"{tot['frames_duplicated']:,} frames duplicated", same, ok))
    rows.append(Row("Disconnect / reconnect", "the cable pulled by `N disconnect S` on the emulator's input, on a "
                    "random controller, 0.05-0.35 s, spread over the game (the hub reopens the port by its symlink)",
                    f"{tot['disconnects']} disconnects ({tot['lost']} losses and {tot['back']} returns seen by the hub; "
                    f"{tot['seen_cycles']} pulls each seen lost and back)",
                    same + "; the game paused while a player was away", ok))
    rows.append(Row("Controller reset mid-turn", "`N reset` while programming, on a player already locked in "
                    "(the firmware reboots, says Hello again, seq restarts at 0)",
                    f"{tot['resets']} resets", same + "; the locked-in choice was kept", ok))
    if problems:
        for r in rows:
            r.ok = False
            r.outcome += " — PROBLEMS: " + "; ".join(problems)
    return rows
