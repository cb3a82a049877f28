"""Audit counters per controller id, kept in the journal: games played, locks, refusals,
frames, bad frames and losses of every seated controller (a bot's simulated controller too,
marked ``bot``).

The play flow (:mod:`bitbox.table.play`) writes one row per controller when a game ends or
stops (Ctrl-C, SIGTERM, ``--max-seconds``), in one transaction: locks, refusals and losses
from the referee's :class:`~bitbox.table.referee.ControllerState`, frames and bad frames from
the hub. Nothing is written during a game, so no one can count a player's refused tries while
it is played. ``bitbox audit`` lists the totals by controller id::

    bitbox audit                    # the default journal (the games' own)
    bitbox audit --journal FILE     # another journal
    bitbox audit --json             # one JSON object per controller per line
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from .journal import AuditCounts, AuditTotals, Journal, JournalError, default_journal_path

__all__ = ["build_parser", "counts_of", "keep", "report", "run"]


def counts_of(session: Any, hub: Any) -> list[AuditCounts]:
    """This session's counters of each seat that has a controller (controllers and bots'
    simulated controllers; keyboard seats have none)."""
    seats = [s for s in hub.seats() if s.controller_id is not None]
    bad = {s.controller_id: s.bad_frames for s in seats}
    frames = {s.controller_id: s.frames for s in seats}
    rows = []
    for plan in session.seats:
        c = session.ctl[plan.player]
        cid = c.controller_id if c.controller_id is not None else plan.controller_id
        if cid is None or plan.kind == "keyboard":
            continue
        rows.append(AuditCounts(cid, "bot" if plan.kind == "bot" else "controller", c.locks, c.refusals,
                                frames.get(cid, 0), bad.get(cid, 0), c.losses))
    return rows


def keep(journal: Journal, game_id: int, session: Any, hub: Any) -> str | None:
    """Write the counters of game ``game_id``'s session; a journal that cannot be written is
    one line to say (returned), the game itself is already kept."""
    try:
        journal.add_audit(game_id, counts_of(session, hub))
    except JournalError as exc:
        return f"the controllers' audit counters were not kept: {exc}"
    return None


def report(rows: list[AuditTotals], out: TextIO, as_json: bool) -> None:
    if as_json:
        for r in rows:
            out.write(json.dumps({"controller": f"{r.controller_id:#018x}", "kind": r.kind, "games": r.games,
                                  "locks": r.locks, "refusals": r.refusals, "frames": r.frames,
                                  "bad_frames": r.bad_frames, "losses": r.losses, "last": r.last}) + "\n")
        return
    out.write(f"{'controller':<18}  {'kind':<10} {'games':>5} {'locks':>6} {'refusals':>8} {'frames':>8} "
              f"{'bad frames':>10} {'losses':>6}  last game\n")
    for r in rows:
        out.write(f"{r.controller_id:#018x}  {r.kind:<10} {r.games:>5} {r.locks:>6} {r.refusals:>8} {r.frames:>8} "
                  f"{r.bad_frames:>10} {r.losses:>6}  {r.last}\n")


def build_parser(parser: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    parser = parser or argparse.ArgumentParser(prog="bitbox audit", description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--journal", metavar="FILE",
                        help=f"the journal to read (default {default_journal_path()})")
    parser.add_argument("--json", action="store_true", help="one JSON object per controller per line")
    return parser


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = sys.stdout if out is None else out      # the stdout of the call, not of the import
    from bitbox import exitcodes
    from .options import journal_exists, user_path
    from .seating import TableError
    path = user_path(args.journal) if args.journal else default_journal_path()
    try:
        absent = not args.journal and not journal_exists(path)
    except TableError as exc:
        print(f"bitbox audit: {exc}", file=sys.stderr)
        return exitcodes.USAGE
    if absent:
        print(f"bitbox audit: no controller counters yet (no game has been played with {path})", file=sys.stderr)
        return exitcodes.OK
    try:
        with Journal(path, create=False, command="bitbox") as journal:
            rows = journal.audit()
    except JournalError as exc:
        print(f"bitbox audit: {exc}", file=sys.stderr)
        return exitcodes.USAGE
    if not rows:
        print(f"bitbox audit: no controller counters in {path} yet (they are kept when a game ends or stops)",
              file=sys.stderr)
        return exitcodes.OK
    report(rows, out, args.json)
    return exitcodes.OK
